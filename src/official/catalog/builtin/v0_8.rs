//! The v0.8 basic catalog, written as facts: the message schema and the standard catalog of the
//! A2UI specification (`specification/v0_8/json/server_to_client.json` and
//! `standard_catalog_definition.json`, google/A2UI at ade478f), every keyword but the prose
//! (`description`, `title`), and the `catalogId` that [`Catalog::basic`] gives the catalog.
//! `tests/builtin_catalogs.rs` checks them against those files.
//!
//! [`Catalog::basic`]: crate::official::catalog::Catalog::basic

use serde_json::Value;

use super::icons_without_media;
use super::schema::*;

/// A value written as a literal string or read from the data model: `{"literalString": ..}` or
/// `{"path": ..}`.
fn string_value() -> S {
    object()
        .closed()
        .prop("literalString", string())
        .prop("path", string())
}

/// The message schema, `server_to_client.json`.
pub(super) fn messages() -> Value {
    object()
        .closed()
        .prop(
            "beginRendering",
            object()
                .closed()
                .prop("surfaceId", string())
                .prop("catalogId", string())
                .prop("root", string())
                .prop("styles", object().open())
                .required(&["root", "surfaceId"]),
        )
        .prop(
            "surfaceUpdate",
            object()
                .closed()
                .prop("surfaceId", string())
                .prop(
                    "components",
                    list_of(
                        object()
                            .closed()
                            .prop("id", string())
                            .prop("weight", number())
                            .prop("component", object().open())
                            .required(&["id", "component"]),
                    )
                    .min_items(1),
                )
                .required(&["surfaceId", "components"]),
        )
        .prop(
            "dataModelUpdate",
            object()
                .closed()
                .prop("surfaceId", string())
                .prop("path", string())
                .prop(
                    "contents",
                    list_of(
                        object()
                            .closed()
                            .prop("key", string())
                            .prop("valueString", string())
                            .prop("valueNumber", number())
                            .prop("valueBoolean", boolean())
                            .prop(
                                "valueMap",
                                list_of(
                                    object()
                                        .closed()
                                        .prop("key", string())
                                        .prop("valueString", string())
                                        .prop("valueNumber", number())
                                        .prop("valueBoolean", boolean())
                                        .required(&["key"]),
                                ),
                            )
                            .required(&["key"]),
                    ),
                )
                .required(&["contents", "surfaceId"]),
        )
        .prop(
            "deleteSurface",
            object()
                .closed()
                .prop("surfaceId", string())
                .required(&["surfaceId"]),
        )
        .done()
}

/// The catalog, `standard_catalog_definition.json`: its components and styles.
pub(super) fn catalog() -> Value {
    any()
        .entry("components", "Text", text())
        .entry("components", "Image", image())
        .entry("components", "Icon", icon())
        .entry("components", "Video", video())
        .entry("components", "AudioPlayer", audio_player())
        .entry("components", "Row", row())
        .entry("components", "Column", column())
        .entry("components", "List", list_component())
        .entry("components", "Card", card())
        .entry("components", "Tabs", tabs())
        .entry("components", "Divider", divider())
        .entry("components", "Modal", modal())
        .entry("components", "Button", button())
        .entry("components", "CheckBox", check_box())
        .entry("components", "TextField", text_field())
        .entry("components", "DateTimeInput", date_time_input())
        .entry("components", "MultipleChoice", multiple_choice())
        .entry("components", "Slider", slider())
        .entry("styles", "font", font_style())
        .entry("styles", "primaryColor", primary_color_style())
        .fact(
            "catalogId",
            "https://a2ui.org/specification/v0_8/standard_catalog_definition.json",
        )
        .done()
}

/// The `Text` component.
fn text() -> S {
    object()
        .closed()
        .prop("text", string_value())
        .prop(
            "usageHint",
            string_enum(&["h1", "h2", "h3", "h4", "h5", "caption", "body"]),
        )
        .required(&["text"])
}

/// The `Image` component.
fn image() -> S {
    object()
        .closed()
        .prop("url", string_value())
        .prop("altText", string_value())
        .prop(
            "fit",
            string_enum(&["contain", "cover", "fill", "none", "scale-down"]),
        )
        .prop(
            "usageHint",
            string_enum(&[
                "icon",
                "avatar",
                "smallFeature",
                "mediumFeature",
                "largeFeature",
                "header",
            ]),
        )
        .required(&["url"])
}

/// The `Icon` component.
fn icon() -> S {
    object()
        .closed()
        .prop(
            "name",
            object()
                .closed()
                .prop("literalString", string_enum(&icons_without_media()))
                .prop("path", string()),
        )
        .required(&["name"])
}

/// The `Video` component.
fn video() -> S {
    object()
        .closed()
        .prop("url", string_value())
        .required(&["url"])
}

/// The `AudioPlayer` component.
fn audio_player() -> S {
    object()
        .closed()
        .prop("url", string_value())
        .prop("description", string_value())
        .required(&["url"])
}

/// The `Row` component.
fn row() -> S {
    object()
        .closed()
        .prop(
            "children",
            object()
                .closed()
                .prop("explicitList", list_of(string()))
                .prop(
                    "template",
                    object()
                        .closed()
                        .prop("componentId", string())
                        .prop("dataBinding", string())
                        .required(&["componentId", "dataBinding"]),
                ),
        )
        .prop(
            "distribution",
            string_enum(&[
                "center",
                "end",
                "spaceAround",
                "spaceBetween",
                "spaceEvenly",
                "start",
            ]),
        )
        .prop(
            "alignment",
            string_enum(&["start", "center", "end", "stretch"]),
        )
        .required(&["children"])
}

/// The `Column` component.
fn column() -> S {
    object()
        .closed()
        .prop(
            "children",
            object()
                .closed()
                .prop("explicitList", list_of(string()))
                .prop(
                    "template",
                    object()
                        .closed()
                        .prop("componentId", string())
                        .prop("dataBinding", string())
                        .required(&["componentId", "dataBinding"]),
                ),
        )
        .prop(
            "distribution",
            string_enum(&[
                "start",
                "center",
                "end",
                "spaceBetween",
                "spaceAround",
                "spaceEvenly",
            ]),
        )
        .prop(
            "alignment",
            string_enum(&["center", "end", "start", "stretch"]),
        )
        .required(&["children"])
}

/// The `List` component.
fn list_component() -> S {
    object()
        .closed()
        .prop(
            "children",
            object()
                .closed()
                .prop("explicitList", list_of(string()))
                .prop(
                    "template",
                    object()
                        .closed()
                        .prop("componentId", string())
                        .prop("dataBinding", string())
                        .required(&["componentId", "dataBinding"]),
                ),
        )
        .prop("direction", string_enum(&["vertical", "horizontal"]))
        .prop(
            "alignment",
            string_enum(&["start", "center", "end", "stretch"]),
        )
        .required(&["children"])
}

/// The `Card` component.
fn card() -> S {
    object()
        .closed()
        .prop("child", string())
        .required(&["child"])
}

/// The `Tabs` component.
fn tabs() -> S {
    object()
        .closed()
        .prop(
            "tabItems",
            list_of(
                object()
                    .closed()
                    .prop("title", string_value())
                    .prop("child", string())
                    .required(&["title", "child"]),
            ),
        )
        .required(&["tabItems"])
}

/// The `Divider` component.
fn divider() -> S {
    object()
        .closed()
        .prop("axis", string_enum(&["horizontal", "vertical"]))
}

/// The `Modal` component.
fn modal() -> S {
    object()
        .closed()
        .prop("entryPointChild", string())
        .prop("contentChild", string())
        .required(&["entryPointChild", "contentChild"])
}

/// The `Button` component.
fn button() -> S {
    object()
        .closed()
        .prop("child", string())
        .prop("primary", boolean())
        .prop(
            "action",
            object()
                .closed()
                .prop("name", string())
                .prop(
                    "context",
                    list_of(
                        object()
                            .closed()
                            .prop("key", string())
                            .prop(
                                "value",
                                object()
                                    .closed()
                                    .prop("path", string())
                                    .prop("literalString", string())
                                    .prop("literalNumber", number())
                                    .prop("literalBoolean", boolean()),
                            )
                            .required(&["key", "value"]),
                    ),
                )
                .required(&["name"]),
        )
        .required(&["child", "action"])
}

/// The `CheckBox` component.
fn check_box() -> S {
    object()
        .closed()
        .prop("label", string_value())
        .prop(
            "value",
            object()
                .closed()
                .prop("literalBoolean", boolean())
                .prop("path", string()),
        )
        .required(&["label", "value"])
}

/// The `TextField` component.
fn text_field() -> S {
    object()
        .closed()
        .prop("label", string_value())
        .prop("text", string_value())
        .prop(
            "textFieldType",
            string_enum(&["date", "longText", "number", "shortText", "obscured"]),
        )
        .prop("validationRegexp", string())
        .required(&["label"])
}

/// The `DateTimeInput` component.
fn date_time_input() -> S {
    object()
        .closed()
        .prop("value", string_value())
        .prop("enableDate", boolean())
        .prop("enableTime", boolean())
        .required(&["value"])
}

/// The `MultipleChoice` component.
fn multiple_choice() -> S {
    object()
        .closed()
        .required(&["selections", "options"])
        .prop(
            "selections",
            object()
                .closed()
                .prop("literalArray", list_of(string()))
                .prop("path", string()),
        )
        .prop(
            "options",
            list_of(
                object()
                    .closed()
                    .prop("label", string_value())
                    .prop("value", string())
                    .required(&["label", "value"]),
            ),
        )
        .prop("maxAllowedSelections", integer())
        .prop("variant", string_enum(&["checkbox", "chips"]))
        .prop("filterable", boolean())
}

/// The `Slider` component.
fn slider() -> S {
    object()
        .closed()
        .prop("label", string_value())
        .prop(
            "value",
            object()
                .closed()
                .prop("literalNumber", number())
                .prop("path", string()),
        )
        .prop("minValue", number())
        .prop("maxValue", number())
        .required(&["value"])
}

/// The `font` style.
fn font_style() -> S {
    string()
}

/// The `primaryColor` style.
fn primary_color_style() -> S {
    string().pattern("^#[0-9a-fA-F]{6}$")
}
