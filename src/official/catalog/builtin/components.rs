//! The components of the v0.9 and v1.0 basic catalogs, written once, and the catalog they make
//! with [`functions`](super::functions): v0.9's are those of the specification's
//! `specification/v0_9/catalogs/basic/catalog.json` (google/A2UI at ade478f), v1.0's those the
//! released SDK (a2ui-core 0.4.0) enforces. The two versions give each component mostly the same properties and differ
//! in how a component is wrapped (see [`Writer::wrap`]), in how it refers to a child (a
//! `ComponentId` in v0.9, a `Child` in v1.0) and in a few details noted where they are.

use serde_json::Value;

use super::super::{KeyOrder, Version};
use super::ICONS;
use super::functions::functions;
use super::schema::*;

/// The basic catalog of `version` (v0.9 or v1.0): `head` (the version's facts and own
/// definitions) with the components, the functions, and the `anyComponent` and `anyFunction`
/// unions of them, common types referred to with `ct`; and the order it declares properties in.
pub(super) fn catalog(version: Version, ct: fn(&str) -> S, head: S) -> (Value, KeyOrder) {
    let components = components(version, ct);
    let functions = functions(version, ct);
    let any_component = one_of(
        components
            .iter()
            .map(|(name, _)| r(&format!("#/components/{name}")))
            .collect(),
    )
    .discriminator("component");
    let any_function = one_of(
        functions
            .iter()
            .map(|(name, _)| r(&format!("#/functions/{name}")))
            .collect(),
    );
    let mut catalog = head;
    for (name, component) in components {
        catalog = catalog.entry("components", name, component);
    }
    for (name, function) in functions {
        catalog = catalog.entry("functions", name, function);
    }
    catalog
        .def("anyComponent", any_component)
        .def("anyFunction", any_function)
        .done_with_order()
}

/// How a version writes a component, its common types referred to with `ct`.
#[derive(Clone, Copy)]
struct Writer {
    v10: bool,
    ct: fn(&str) -> S,
}

impl Writer {
    /// Component `name`, whose own properties `props` writes (after `component`).
    fn plain(self, name: &'static str, props: impl FnOnce(S) -> S) -> (&'static str, S) {
        (name, self.wrap(name, false, props))
    }

    /// Component `name`, which may carry `checks` too (`Checkable`).
    fn checkable(self, name: &'static str, props: impl FnOnce(S) -> S) -> (&'static str, S) {
        (name, self.wrap(name, true, props))
    }

    /// A component's schema: in v0.9, the `allOf` of `ComponentCommon`,
    /// `CatalogComponentCommon` (which holds `weight`), maybe `Checkable`, and its own
    /// properties, sealed; in v1.0, its own properties and `weight` (the `id` and the like are
    /// the message schema's), in an `allOf` with `Checkable` when it may carry checks.
    fn wrap(self, name: &str, checkable: bool, props: impl FnOnce(S) -> S) -> S {
        let ct = self.ct;
        let own = props(object().prop("component", constant(name)));
        if self.v10 {
            let own = own.prop("weight", number());
            if checkable {
                object().all(vec![ct("Checkable"), own])
            } else {
                own
            }
        } else {
            let mut parts = vec![ct("ComponentCommon"), local("CatalogComponentCommon")];
            if checkable {
                parts.push(ct("Checkable"));
            }
            parts.push(own);
            object().all(parts).sealed()
        }
    }
}

/// The basic catalog's components of `version` (v0.9 or v1.0), in the catalog's order, their
/// common types referred to with `ct`.
fn components(version: Version, ct: fn(&str) -> S) -> Vec<(&'static str, S)> {
    let v10 = version >= Version::V10;
    let w = Writer { v10, ct };
    let child = || ct(if v10 { "Child" } else { "ComponentId" });
    let justify = [
        "center",
        "end",
        "spaceAround",
        "spaceBetween",
        "spaceEvenly",
        "start",
        "stretch",
    ];
    let align = ["start", "center", "end", "stretch"];
    let date_bound = || {
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
        ])
    };
    vec![
        // v1.0 drops the heading variants.
        w.plain("Text", |s| {
            let variants: &[&str] = if v10 {
                &["caption", "body"]
            } else {
                &["h1", "h2", "h3", "h4", "h5", "caption", "body"]
            };
            s.prop("text", ct("DynamicString"))
                .prop("variant", string_enum(variants).default("body"))
                .required(&["component", "text"])
        }),
        w.plain("Image", |s| {
            s.prop("url", ct("DynamicString"))
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
                .required(&["component", "url"])
        }),
        // v1.0 takes a bound or computed SVG path too.
        w.plain("Icon", |s| {
            let svg_path = if v10 { ct("DynamicString") } else { string() };
            s.prop(
                "name",
                one_of(vec![
                    string_enum(&ICONS),
                    object()
                        .prop("svgPath", svg_path)
                        .required(&["svgPath"])
                        .closed(),
                    ct("DataBinding"),
                ]),
            )
            .required(&["component", "name"])
        }),
        // v1.0 adds a poster.
        w.plain("Video", |s| {
            let s = s.prop("url", ct("DynamicString"));
            let s = if v10 {
                s.prop("posterUrl", ct("DynamicString"))
            } else {
                s
            };
            s.required(&["component", "url"])
        }),
        w.plain("AudioPlayer", |s| {
            s.prop("url", ct("DynamicString"))
                .prop("description", ct("DynamicString"))
                .required(&["component", "url"])
        }),
        w.plain("Row", |s| {
            s.prop("children", ct("ChildList"))
                .prop("justify", string_enum(&justify).default("start"))
                .prop("align", string_enum(&align).default("stretch"))
                .required(&["component", "children"])
        }),
        // v0.9 lists the same options as Row in another order.
        w.plain("Column", |s| {
            let (justify, align): (&[&str], &[&str]) = if v10 {
                (&justify, &align)
            } else {
                (
                    &[
                        "start",
                        "center",
                        "end",
                        "spaceBetween",
                        "spaceAround",
                        "spaceEvenly",
                        "stretch",
                    ],
                    &["center", "end", "start", "stretch"],
                )
            };
            s.prop("children", ct("ChildList"))
                .prop("justify", string_enum(justify).default("start"))
                .prop("align", string_enum(align).default("stretch"))
                .required(&["component", "children"])
        }),
        w.plain("List", |s| {
            s.prop("children", ct("ChildList"))
                .prop(
                    "direction",
                    string_enum(&["vertical", "horizontal"]).default("vertical"),
                )
                .prop("align", string_enum(&align).default("stretch"))
                .required(&["component", "children"])
        }),
        w.plain("Card", |s| {
            s.prop("child", child()).required(&["component", "child"])
        }),
        w.plain("Tabs", |s| {
            s.prop(
                "tabs",
                list_of(
                    object()
                        .prop("title", ct("DynamicString"))
                        .prop("child", child())
                        .required(&["title", "child"])
                        .closed(),
                )
                .min_items(1),
            )
            .required(&["component", "tabs"])
        }),
        w.plain("Modal", |s| {
            s.prop("trigger", child())
                .prop("content", child())
                .required(&["component", "trigger", "content"])
        }),
        // The two versions list the axes in opposite orders.
        w.plain("Divider", |s| {
            let axes = if v10 {
                ["vertical", "horizontal"]
            } else {
                ["horizontal", "vertical"]
            };
            s.prop("axis", string_enum(&axes).default("horizontal"))
                .required(&["component"])
        }),
        w.checkable("Button", |s| {
            s.prop("child", child())
                .prop(
                    "variant",
                    string_enum(&["default", "primary", "borderless"]).default("default"),
                )
                .prop("action", ct("Action"))
                .required(&["component", "child", "action"])
        }),
        // v1.0 adds a placeholder and drops `validationRegexp`.
        w.checkable("TextField", |s| {
            let s = s
                .prop("label", ct("DynamicString"))
                .prop("value", ct("DynamicString"));
            let s = if v10 {
                s.prop("placeholder", ct("DynamicString"))
            } else {
                s
            };
            let s = s.prop(
                "variant",
                string_enum(&["longText", "number", "shortText", "obscured"]).default("shortText"),
            );
            let s = if v10 {
                s
            } else {
                s.prop("validationRegexp", string())
            };
            s.required(&["component", "label"])
        }),
        w.checkable("CheckBox", |s| {
            s.prop("label", ct("DynamicString"))
                .prop("value", ct("DynamicBoolean"))
                .required(&["component", "label", "value"])
        }),
        w.checkable("ChoicePicker", |s| {
            s.prop("label", ct("DynamicString"))
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
                .required(&["component", "options", "value"])
        }),
        // v1.0 adds `steps`, and lists the required members in another order.
        w.checkable("Slider", |s| {
            let s = s
                .prop("label", ct("DynamicString"))
                .prop("min", number().default(0))
                .prop("max", number())
                .prop("value", ct("DynamicNumber"));
            if v10 {
                s.prop("steps", integer().minimum(1))
                    .required(&["component", "max", "value"])
            } else {
                s.required(&["component", "value", "max"])
            }
        }),
        w.checkable("DateTimeInput", |s| {
            s.prop("value", ct("DynamicString"))
                .prop("enableDate", boolean().default(false))
                .prop("enableTime", boolean().default(false))
                .prop("min", date_bound())
                .prop("max", date_bound())
                .prop("label", ct("DynamicString"))
                .required(&["component", "value"])
        }),
    ]
}
