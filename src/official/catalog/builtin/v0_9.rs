//! The v0.9 basic catalog, written as facts: the message schema, the common types and the basic
//! catalog of the A2UI specification (`specification/v0_9/json/server_to_client.json`,
//! `common_types.json` and `catalogs/basic/catalog.json`, google/A2UI at ade478f), every
//! keyword but the prose (`description`, `title`). The catalog's components and functions are
//! written with v1.0's, in [`components`] and [`functions`](super::functions).
//! `tests/builtin_catalogs.rs` checks them against those files.

use serde_json::Value;

use super::super::{KeyOrder, Version};
use super::components;
use super::schema::*;

/// The basic catalog, its components and functions written in [`components`], and the order it
/// declares properties in.
pub(super) fn catalog() -> (Value, KeyOrder) {
    let id = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
    let head = any()
        .fact("$schema", "https://json-schema.org/draft/2020-12/schema")
        .fact("$id", id)
        .fact("catalogId", id)
        .def("CatalogComponentCommon", catalog_component_common())
        .def("theme", theme());
    components::catalog(Version::V09, ct, head)
}

/// The catalog's `CatalogComponentCommon` definition, which every component takes in.
fn catalog_component_common() -> S {
    object().prop("weight", number())
}

/// The catalog's `theme` definition, which `createSurface` refers to.
fn theme() -> S {
    object()
        .prop("primaryColor", string().pattern("^#[0-9a-fA-F]{6}$"))
        .prop("iconUrl", string().format("uri"))
        .prop("agentDisplayName", string())
        .open()
}

/// Where the common types are, as the catalog refers to them.
const COMMON_TYPES: &str = "https://a2ui.org/specification/v0_9/common_types.json";

/// A common type, by name (`DynamicString`, `ComponentId`, ...).
fn ct(name: &str) -> S {
    r(&format!("{COMMON_TYPES}#/$defs/{name}"))
}

/// The message schema.
pub(super) fn messages() -> Value {
    object()
        .fact("$schema", "https://json-schema.org/draft/2020-12/schema")
        .fact(
            "$id",
            "https://a2ui.org/specification/v0_9/server_to_client.json",
        )
        .one(vec![
            local("CreateSurfaceMessage"),
            local("UpdateComponentsMessage"),
            local("UpdateDataModelMessage"),
            local("DeleteSurfaceMessage"),
        ])
        .def("CreateSurfaceMessage", create_surface_message())
        .def("UpdateComponentsMessage", update_components_message())
        .def("UpdateDataModelMessage", update_data_model_message())
        .def("DeleteSurfaceMessage", delete_surface_message())
        .done()
}

/// The `CreateSurfaceMessage` definition.
fn create_surface_message() -> S {
    object()
        .prop("version", constant("v0.9"))
        .prop(
            "createSurface",
            object()
                .prop("surfaceId", string())
                .prop("catalogId", string())
                .prop("theme", r("catalog.json#/$defs/theme"))
                .prop("sendDataModel", boolean())
                .required(&["surfaceId", "catalogId"])
                .closed(),
        )
        .required(&["createSurface", "version"])
        .closed()
}

/// The `UpdateComponentsMessage` definition.
fn update_components_message() -> S {
    object()
        .prop("version", constant("v0.9"))
        .prop(
            "updateComponents",
            object()
                .prop("surfaceId", string())
                .prop(
                    "components",
                    list_of(r("catalog.json#/$defs/anyComponent")).min_items(1),
                )
                .required(&["surfaceId", "components"])
                .closed(),
        )
        .required(&["updateComponents", "version"])
        .closed()
}

/// The `UpdateDataModelMessage` definition.
fn update_data_model_message() -> S {
    object()
        .prop("version", constant("v0.9"))
        .prop(
            "updateDataModel",
            object()
                .prop("surfaceId", string())
                .prop("path", string())
                .prop("value", any().open())
                .required(&["surfaceId"])
                .closed(),
        )
        .required(&["updateDataModel", "version"])
        .closed()
}

/// The `DeleteSurfaceMessage` definition.
fn delete_surface_message() -> S {
    object()
        .prop("version", constant("v0.9"))
        .prop(
            "deleteSurface",
            object()
                .prop("surfaceId", string())
                .required(&["surfaceId"])
                .closed(),
        )
        .required(&["deleteSurface", "version"])
        .closed()
}

/// The common types.
pub(super) fn common_types() -> Value {
    any()
        .fact("$schema", "https://json-schema.org/draft/2020-12/schema")
        .fact(
            "$id",
            "https://a2ui.org/specification/v0_9/common_types.json",
        )
        .def("ComponentId", component_id())
        .def("AccessibilityAttributes", accessibility_attributes())
        .def("ComponentCommon", component_common())
        .def("ChildList", child_list())
        .def("DataBinding", data_binding())
        .def("DynamicValue", dynamic_value())
        .def("DynamicString", dynamic_string())
        .def("DynamicNumber", dynamic_number())
        .def("DynamicBoolean", dynamic_boolean())
        .def("DynamicStringList", dynamic_string_list())
        .def("FunctionCall", function_call())
        .def("CheckRule", check_rule())
        .def("Checkable", checkable())
        .def("Action", action())
        .done()
}

/// The `ComponentId` definition.
fn component_id() -> S {
    string()
}

/// The `AccessibilityAttributes` definition.
fn accessibility_attributes() -> S {
    object()
        .prop("label", local("DynamicString"))
        .prop("description", local("DynamicString"))
}

/// The `ComponentCommon` definition.
fn component_common() -> S {
    object()
        .prop("id", local("ComponentId"))
        .prop("accessibility", local("AccessibilityAttributes"))
        .required(&["id"])
}

/// The `ChildList` definition.
fn child_list() -> S {
    one_of(vec![
        list_of(local("ComponentId")),
        object()
            .prop("componentId", local("ComponentId"))
            .prop("path", string())
            .required(&["componentId", "path"])
            .closed(),
    ])
}

/// The `DataBinding` definition.
fn data_binding() -> S {
    object().prop("path", string()).required(&["path"]).closed()
}

/// The `DynamicValue` definition.
fn dynamic_value() -> S {
    one_of(vec![
        string(),
        number(),
        boolean(),
        array(),
        local("DataBinding"),
        local("FunctionCall"),
    ])
}

/// The `DynamicString` definition.
fn dynamic_string() -> S {
    one_of(vec![
        string(),
        local("DataBinding"),
        all_of(vec![
            local("FunctionCall"),
            any().prop("returnType", constant("string")),
        ]),
    ])
}

/// The `DynamicNumber` definition.
fn dynamic_number() -> S {
    one_of(vec![
        number(),
        local("DataBinding"),
        all_of(vec![
            local("FunctionCall"),
            any().prop("returnType", constant("number")),
        ]),
    ])
}

/// The `DynamicBoolean` definition.
fn dynamic_boolean() -> S {
    one_of(vec![
        boolean(),
        local("DataBinding"),
        all_of(vec![
            local("FunctionCall"),
            any().prop("returnType", constant("boolean")),
        ]),
    ])
}

/// The `DynamicStringList` definition.
fn dynamic_string_list() -> S {
    one_of(vec![
        list_of(string()),
        local("DataBinding"),
        all_of(vec![
            local("FunctionCall"),
            any().prop("returnType", constant("array")),
        ]),
    ])
}

/// The `FunctionCall` definition.
fn function_call() -> S {
    object()
        .prop("call", string())
        .prop(
            "args",
            object().others(any_of(vec![local("DynamicValue"), object()])),
        )
        .prop(
            "returnType",
            string_enum(&[
                "string", "number", "boolean", "array", "object", "any", "void",
            ])
            .default("boolean"),
        )
        .required(&["call"])
        .one(vec![r("catalog.json#/$defs/anyFunction")])
}

/// The `CheckRule` definition.
fn check_rule() -> S {
    object()
        .prop("condition", local("DynamicBoolean"))
        .prop("message", string())
        .required(&["condition", "message"])
        .closed()
}

/// The `Checkable` definition.
fn checkable() -> S {
    object().prop("checks", list_of(local("CheckRule")))
}

/// The `Action` definition.
fn action() -> S {
    one_of(vec![
        object()
            .prop(
                "event",
                object()
                    .prop("name", string())
                    .prop("context", object().others(local("DynamicValue")))
                    .required(&["name"])
                    .closed(),
            )
            .required(&["event"])
            .closed(),
        object()
            .prop("functionCall", local("FunctionCall"))
            .required(&["functionCall"])
            .closed(),
    ])
}
