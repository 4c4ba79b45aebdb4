//! The components of the v0.9 basic catalog (`specification/v0_9/catalogs/basic/catalog.json`), and the catalog they make with
//! [`functions`](super::functions).

use serde_json::Value;

use crate::official::catalog::KeyOrder;

use super::super::ICONS;
use super::super::functions::functions;
use super::super::schema::*;
use super::{ct, local};
use crate::official::catalog::Version;

/// The basic catalog: its components and functions.
pub(super) fn catalog() -> (Value, KeyOrder) {
    let mut catalog = any()
        .fact("$schema", "https://json-schema.org/draft/2020-12/schema")
        .fact(
            "$id",
            "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
        )
        .fact(
            "catalogId",
            "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
        )
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
        .entry("components", "Modal", modal())
        .entry("components", "Divider", divider())
        .entry("components", "Button", button())
        .entry("components", "TextField", text_field())
        .entry("components", "CheckBox", check_box())
        .entry("components", "ChoicePicker", choice_picker())
        .entry("components", "Slider", slider())
        .entry("components", "DateTimeInput", date_time_input());
    for (name, function) in functions(Version::V09, ct) {
        catalog = catalog.entry("functions", name, function);
    }
    catalog
        .def("CatalogComponentCommon", catalog_component_common())
        .def("theme", theme())
        .def("anyComponent", any_component())
        .def("anyFunction", any_function())
        .done_with_order()
}

/// The `Text` component.
fn text() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            object()
                .prop("component", constant("Text"))
                .prop("text", ct("DynamicString"))
                .prop(
                    "variant",
                    string_enum(&["h1", "h2", "h3", "h4", "h5", "caption", "body"]).default("body"),
                )
                .required(&["component", "text"]),
        ])
        .sealed()
}

/// The `Image` component.
fn image() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            object()
                .prop("component", constant("Image"))
                .prop("url", ct("DynamicString"))
                .prop("description", ct("DynamicString"))
                .prop(
                    "fit",
                    string_enum(&["contain", "cover", "fill", "none", "scaleDown"]).default("fill"),
                )
                .prop(
                    "variant",
                    string_enum(&[
                        "icon",
                        "avatar",
                        "smallFeature",
                        "mediumFeature",
                        "largeFeature",
                        "header",
                    ])
                    .default("mediumFeature"),
                )
                .required(&["component", "url"]),
        ])
        .sealed()
}

/// The `Icon` component.
fn icon() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            object()
                .prop("component", constant("Icon"))
                .prop(
                    "name",
                    one_of(vec![
                        string_enum(&ICONS),
                        object()
                            .prop("svgPath", string())
                            .required(&["svgPath"])
                            .closed(),
                        ct("DataBinding"),
                    ]),
                )
                .required(&["component", "name"]),
        ])
        .sealed()
}

/// The `Video` component.
fn video() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            object()
                .prop("component", constant("Video"))
                .prop("url", ct("DynamicString"))
                .required(&["component", "url"]),
        ])
        .sealed()
}

/// The `AudioPlayer` component.
fn audio_player() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            object()
                .prop("component", constant("AudioPlayer"))
                .prop("url", ct("DynamicString"))
                .prop("description", ct("DynamicString"))
                .required(&["component", "url"]),
        ])
        .sealed()
}

/// The `Row` component.
fn row() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            object()
                .prop("component", constant("Row"))
                .prop("children", ct("ChildList"))
                .prop(
                    "justify",
                    string_enum(&[
                        "center",
                        "end",
                        "spaceAround",
                        "spaceBetween",
                        "spaceEvenly",
                        "start",
                        "stretch",
                    ])
                    .default("start"),
                )
                .prop(
                    "align",
                    string_enum(&["start", "center", "end", "stretch"]).default("stretch"),
                )
                .required(&["component", "children"]),
        ])
        .sealed()
}

/// The `Column` component.
fn column() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            object()
                .prop("component", constant("Column"))
                .prop("children", ct("ChildList"))
                .prop(
                    "justify",
                    string_enum(&[
                        "start",
                        "center",
                        "end",
                        "spaceBetween",
                        "spaceAround",
                        "spaceEvenly",
                        "stretch",
                    ])
                    .default("start"),
                )
                .prop(
                    "align",
                    string_enum(&["center", "end", "start", "stretch"]).default("stretch"),
                )
                .required(&["component", "children"]),
        ])
        .sealed()
}

/// The `List` component.
fn list_component() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            object()
                .prop("component", constant("List"))
                .prop("children", ct("ChildList"))
                .prop(
                    "direction",
                    string_enum(&["vertical", "horizontal"]).default("vertical"),
                )
                .prop(
                    "align",
                    string_enum(&["start", "center", "end", "stretch"]).default("stretch"),
                )
                .required(&["component", "children"]),
        ])
        .sealed()
}

/// The `Card` component.
fn card() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            object()
                .prop("component", constant("Card"))
                .prop("child", ct("ComponentId"))
                .required(&["component", "child"]),
        ])
        .sealed()
}

/// The `Tabs` component.
fn tabs() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            object()
                .prop("component", constant("Tabs"))
                .prop(
                    "tabs",
                    list_of(
                        object()
                            .prop("title", ct("DynamicString"))
                            .prop("child", ct("ComponentId"))
                            .required(&["title", "child"])
                            .closed(),
                    )
                    .min_items(1),
                )
                .required(&["component", "tabs"]),
        ])
        .sealed()
}

/// The `Modal` component.
fn modal() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            object()
                .prop("component", constant("Modal"))
                .prop("trigger", ct("ComponentId"))
                .prop("content", ct("ComponentId"))
                .required(&["component", "trigger", "content"]),
        ])
        .sealed()
}

/// The `Divider` component.
fn divider() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            object()
                .prop("component", constant("Divider"))
                .prop(
                    "axis",
                    string_enum(&["horizontal", "vertical"]).default("horizontal"),
                )
                .required(&["component"]),
        ])
        .sealed()
}

/// The `Button` component.
fn button() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            ct("Checkable"),
            object()
                .prop("component", constant("Button"))
                .prop("child", ct("ComponentId"))
                .prop(
                    "variant",
                    string_enum(&["default", "primary", "borderless"]).default("default"),
                )
                .prop("action", ct("Action"))
                .required(&["component", "child", "action"]),
        ])
        .sealed()
}

/// The `TextField` component.
fn text_field() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            ct("Checkable"),
            object()
                .prop("component", constant("TextField"))
                .prop("label", ct("DynamicString"))
                .prop("value", ct("DynamicString"))
                .prop(
                    "variant",
                    string_enum(&["longText", "number", "shortText", "obscured"])
                        .default("shortText"),
                )
                .prop("validationRegexp", string())
                .required(&["component", "label"]),
        ])
        .sealed()
}

/// The `CheckBox` component.
fn check_box() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            ct("Checkable"),
            object()
                .prop("component", constant("CheckBox"))
                .prop("label", ct("DynamicString"))
                .prop("value", ct("DynamicBoolean"))
                .required(&["component", "label", "value"]),
        ])
        .sealed()
}

/// The `ChoicePicker` component.
fn choice_picker() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            ct("Checkable"),
            object()
                .prop("component", constant("ChoicePicker"))
                .prop("label", ct("DynamicString"))
                .prop(
                    "variant",
                    string_enum(&["multipleSelection", "mutuallyExclusive"])
                        .default("mutuallyExclusive"),
                )
                .prop(
                    "options",
                    list_of(
                        object()
                            .prop("label", ct("DynamicString"))
                            .prop("value", string())
                            .required(&["label", "value"])
                            .closed(),
                    ),
                )
                .prop("value", ct("DynamicStringList"))
                .prop(
                    "displayStyle",
                    string_enum(&["checkbox", "chips"]).default("checkbox"),
                )
                .prop("filterable", boolean().default(false))
                .required(&["component", "options", "value"]),
        ])
        .sealed()
}

/// The `Slider` component.
fn slider() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            ct("Checkable"),
            object()
                .prop("component", constant("Slider"))
                .prop("label", ct("DynamicString"))
                .prop("min", number().default(0))
                .prop("max", number())
                .prop("value", ct("DynamicNumber"))
                .required(&["component", "value", "max"]),
        ])
        .sealed()
}

/// The `DateTimeInput` component.
fn date_time_input() -> S {
    object()
        .all(vec![
            ct("ComponentCommon"),
            local("CatalogComponentCommon"),
            ct("Checkable"),
            object()
                .prop("component", constant("DateTimeInput"))
                .prop("value", ct("DynamicString"))
                .prop("enableDate", boolean().default(false))
                .prop("enableTime", boolean().default(false))
                .prop(
                    "min",
                    all_of(vec![
                        ct("DynamicString"),
                        any().if_then(
                            string(),
                            one_of(vec![
                                any().format("date"),
                                any().format("time"),
                                any().format("date-time"),
                            ]),
                        ),
                    ]),
                )
                .prop(
                    "max",
                    all_of(vec![
                        ct("DynamicString"),
                        any().if_then(
                            string(),
                            one_of(vec![
                                any().format("date"),
                                any().format("time"),
                                any().format("date-time"),
                            ]),
                        ),
                    ]),
                )
                .prop("label", ct("DynamicString"))
                .required(&["component", "value"]),
        ])
        .sealed()
}

/// The `CatalogComponentCommon` definition.
fn catalog_component_common() -> S {
    object().prop("weight", number())
}

/// The `theme` definition.
fn theme() -> S {
    object()
        .prop("primaryColor", string().pattern("^#[0-9a-fA-F]{6}$"))
        .prop("iconUrl", string().format("uri"))
        .prop("agentDisplayName", string())
        .open()
}

/// The `anyComponent` definition.
fn any_component() -> S {
    one_of(vec![
        r("#/components/Text"),
        r("#/components/Image"),
        r("#/components/Icon"),
        r("#/components/Video"),
        r("#/components/AudioPlayer"),
        r("#/components/Row"),
        r("#/components/Column"),
        r("#/components/List"),
        r("#/components/Card"),
        r("#/components/Tabs"),
        r("#/components/Modal"),
        r("#/components/Divider"),
        r("#/components/Button"),
        r("#/components/TextField"),
        r("#/components/CheckBox"),
        r("#/components/ChoicePicker"),
        r("#/components/Slider"),
        r("#/components/DateTimeInput"),
    ])
    .discriminator("component")
}

/// The `anyFunction` definition.
fn any_function() -> S {
    one_of(vec![
        r("#/functions/required"),
        r("#/functions/regex"),
        r("#/functions/length"),
        r("#/functions/numeric"),
        r("#/functions/email"),
        r("#/functions/formatString"),
        r("#/functions/formatNumber"),
        r("#/functions/formatCurrency"),
        r("#/functions/formatDate"),
        r("#/functions/pluralize"),
        r("#/functions/openUrl"),
        r("#/functions/and"),
        r("#/functions/or"),
        r("#/functions/not"),
    ])
}
