//! The components of the v1.0 basic catalog (as the released SDK, a2ui-core 0.4.0, enforces it), and the catalog they make with
//! [`functions`](super::functions).

use serde_json::Value;

use crate::official::catalog::KeyOrder;

use super::super::ICONS;
use super::super::functions::functions;
use super::super::schema::*;
use super::ct;
use crate::official::catalog::Version;

/// The basic catalog: its components and functions.
pub(super) fn catalog() -> (Value, KeyOrder) {
    let mut catalog = any()
        .fact("$schema", "https://json-schema.org/draft/2020-12/schema")
        .fact(
            "$id",
            "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
        )
        .fact("protocolVersion", "1.0")
        .fact(
            "catalogId",
            "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
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
    for (name, function) in functions(Version::V10, ct) {
        catalog = catalog.entry("functions", name, function);
    }
    catalog
        .def("anyComponent", any_component())
        .def("anyFunction", any_function())
        .done_with_order()
}

/// The `Text` component.
fn text() -> S {
    object()
        .prop("component", constant("Text"))
        .prop("text", ct("DynamicString"))
        .prop("variant", string_enum(&["caption", "body"]).default("body"))
        .prop("weight", number())
        .required(&["component", "text"])
}

/// The `Image` component.
fn image() -> S {
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
        .prop("weight", number())
        .required(&["component", "url"])
}

/// The `Icon` component.
fn icon() -> S {
    object()
        .prop("component", constant("Icon"))
        .prop(
            "name",
            one_of(vec![
                string_enum(&ICONS),
                object()
                    .prop("svgPath", ct("DynamicString"))
                    .closed()
                    .required(&["svgPath"]),
                ct("DataBinding"),
            ]),
        )
        .prop("weight", number())
        .required(&["component", "name"])
}

/// The `Video` component.
fn video() -> S {
    object()
        .prop("component", constant("Video"))
        .prop("url", ct("DynamicString"))
        .prop("posterUrl", ct("DynamicString"))
        .prop("weight", number())
        .required(&["component", "url"])
}

/// The `AudioPlayer` component.
fn audio_player() -> S {
    object()
        .prop("component", constant("AudioPlayer"))
        .prop("url", ct("DynamicString"))
        .prop("description", ct("DynamicString"))
        .prop("weight", number())
        .required(&["component", "url"])
}

/// The `Row` component.
fn row() -> S {
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
        .prop("weight", number())
        .required(&["component", "children"])
}

/// The `Column` component.
fn column() -> S {
    object()
        .prop("component", constant("Column"))
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
        .prop("weight", number())
        .required(&["component", "children"])
}

/// The `List` component.
fn list_component() -> S {
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
        .prop("weight", number())
        .required(&["component", "children"])
}

/// The `Card` component.
fn card() -> S {
    object()
        .prop("component", constant("Card"))
        .prop("child", ct("Child"))
        .prop("weight", number())
        .required(&["component", "child"])
}

/// The `Tabs` component.
fn tabs() -> S {
    object()
        .prop("component", constant("Tabs"))
        .prop(
            "tabs",
            list_of(
                object()
                    .prop("title", ct("DynamicString"))
                    .prop("child", ct("Child"))
                    .closed()
                    .required(&["title", "child"]),
            )
            .min_items(1),
        )
        .prop("weight", number())
        .required(&["component", "tabs"])
}

/// The `Modal` component.
fn modal() -> S {
    object()
        .prop("component", constant("Modal"))
        .prop("trigger", ct("Child"))
        .prop("content", ct("Child"))
        .prop("weight", number())
        .required(&["component", "trigger", "content"])
}

/// The `Divider` component.
fn divider() -> S {
    object()
        .prop("component", constant("Divider"))
        .prop(
            "axis",
            string_enum(&["vertical", "horizontal"]).default("horizontal"),
        )
        .prop("weight", number())
        .required(&["component"])
}

/// The `Button` component.
fn button() -> S {
    object().all(vec![
        ct("Checkable"),
        object()
            .prop("component", constant("Button"))
            .prop("child", ct("Child"))
            .prop(
                "variant",
                string_enum(&["default", "primary", "borderless"]).default("default"),
            )
            .prop("action", ct("Action"))
            .prop("weight", number())
            .required(&["component", "child", "action"]),
    ])
}

/// The `TextField` component.
fn text_field() -> S {
    object().all(vec![
        ct("Checkable"),
        object()
            .prop("component", constant("TextField"))
            .prop("label", ct("DynamicString"))
            .prop("value", ct("DynamicString"))
            .prop("placeholder", ct("DynamicString"))
            .prop(
                "variant",
                string_enum(&["longText", "number", "shortText", "obscured"]).default("shortText"),
            )
            .prop("weight", number())
            .required(&["component", "label"]),
    ])
}

/// The `CheckBox` component.
fn check_box() -> S {
    object().all(vec![
        ct("Checkable"),
        object()
            .prop("component", constant("CheckBox"))
            .prop("label", ct("DynamicString"))
            .prop("value", ct("DynamicBoolean"))
            .prop("weight", number())
            .required(&["component", "label", "value"]),
    ])
}

/// The `ChoicePicker` component.
fn choice_picker() -> S {
    object().all(vec![
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
                        .closed()
                        .required(&["label", "value"]),
                ),
            )
            .prop("value", ct("DynamicStringList"))
            .prop(
                "displayStyle",
                string_enum(&["checkbox", "chips"]).default("checkbox"),
            )
            .prop("filterable", boolean().default(false))
            .prop("weight", number())
            .required(&["component", "options", "value"]),
    ])
}

/// The `Slider` component.
fn slider() -> S {
    object().all(vec![
        ct("Checkable"),
        object()
            .prop("component", constant("Slider"))
            .prop("label", ct("DynamicString"))
            .prop("min", number().default(0))
            .prop("max", number())
            .prop("value", ct("DynamicNumber"))
            .prop("steps", integer().minimum(1))
            .prop("weight", number())
            .required(&["component", "max", "value"]),
    ])
}

/// The `DateTimeInput` component.
fn date_time_input() -> S {
    object().all(vec![
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
            .prop("weight", number())
            .required(&["component", "value"]),
    ])
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
