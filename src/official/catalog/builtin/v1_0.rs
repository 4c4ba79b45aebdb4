//! The v1.0 basic catalog, written as facts: the message schema, the common types and the basic
//! catalog as the released SDK (a2ui-core 0.4.0) enforces them, every keyword but the prose
//! (`description`, `title`, the catalog's `instructions`). They are the SDK's
//! `load_agent_to_renderer_schema("v1.0")`, `load_common_types_schema("v1.0")` and
//! `v1_0.BasicCatalog().to_json()`, which the A2UI project's v1.0 conformance suites are written
//! against (the published `specification/v1_0` files predate the `"@path"` / `"@call"`
//! bindings). The catalog's components and functions are written with v0.9's, in
//! [`components`] and [`functions`](super::functions). `tests/builtin_catalogs.rs` checks them
//! against those schemas.

use serde_json::Value;

use super::super::{KeyOrder, Version};
use super::components;
use super::schema::*;

/// The basic catalog, its components and functions written in [`components`], and the order it
/// declares properties in.
pub(super) fn catalog() -> (Value, KeyOrder) {
    let id = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";
    let head = any()
        .fact("$schema", "https://json-schema.org/draft/2020-12/schema")
        .fact("$id", id)
        .fact("protocolVersion", "1.0")
        .fact("catalogId", id);
    components::catalog(Version::V10, ct, head)
}

/// A common type, by name (`DynamicString`, `ComponentId`, ...), as the catalog refers to it.
fn ct(name: &str) -> S {
    r(&format!("common_types.json#/$defs/{name}"))
}

/// The message schema.
pub(super) fn messages() -> Value {
    object()
        .fact("$schema", "https://json-schema.org/draft/2020-12/schema")
        .fact(
            "$id",
            "https://a2ui.org/specification/v1_0/agent_to_renderer.json",
        )
        .one(vec![
            local("CreateSurfaceMessage"),
            local("UpdateComponentsMessage"),
            local("UpdateDataModelMessage"),
            local("DeleteSurfaceMessage"),
            local("CallRendererFunctionMessage"),
            local("AgentFunctionResponseMessage"),
        ])
        .def("CreateSurfaceMessage", create_surface_message())
        .def("Component", component())
        .def("ComponentsList", components_list())
        .def("UpdateComponentsMessage", update_components_message())
        .def("UpdateDataModelMessage", update_data_model_message())
        .def("DeleteSurfaceMessage", delete_surface_message())
        .def(
            "CallRendererFunctionMessage",
            call_renderer_function_message(),
        )
        .def(
            "AgentFunctionResponseMessage",
            agent_function_response_message(),
        )
        .done()
}

/// The `CreateSurfaceMessage` definition.
fn create_surface_message() -> S {
    object()
        .prop("version", constant("v1.0"))
        .prop(
            "createSurface",
            object()
                .prop("surfaceId", string())
                .prop("catalogId", string())
                .prop("sendDataModel", boolean())
                .prop("components", local("ComponentsList"))
                .prop("dataModel", object().open())
                .prop(
                    "metadata",
                    object().prop("extensions", ct("Extensions")).closed(),
                )
                .required(&["surfaceId"])
                .closed(),
        )
        .required(&["createSurface", "version"])
        .closed()
}

/// The `Component` definition.
fn component() -> S {
    all_of(vec![
        ct("ComponentCommon"),
        r("catalog.json#/$defs/anyComponent"),
        object().prop("component", not(constant("Surface"))),
    ])
    .sealed()
}

/// The `ComponentsList` definition.
fn components_list() -> S {
    list_of(local("Component")).min_items(1)
}

/// The `UpdateComponentsMessage` definition.
fn update_components_message() -> S {
    object()
        .prop("version", constant("v1.0"))
        .prop(
            "updateComponents",
            object()
                .prop("surfaceId", string())
                .prop("components", local("ComponentsList"))
                .required(&["surfaceId", "components"])
                .closed(),
        )
        .required(&["updateComponents", "version"])
        .closed()
}

/// The `UpdateDataModelMessage` definition.
fn update_data_model_message() -> S {
    object()
        .prop("version", constant("v1.0"))
        .prop(
            "updateDataModel",
            object()
                .prop("surfaceId", string())
                .prop("path", string())
                .prop("value", any())
                .required(&["surfaceId", "value"])
                .closed(),
        )
        .required(&["updateDataModel", "version"])
        .closed()
}

/// The `DeleteSurfaceMessage` definition.
fn delete_surface_message() -> S {
    object()
        .prop("version", constant("v1.0"))
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

/// The `CallRendererFunctionMessage` definition.
fn call_renderer_function_message() -> S {
    object()
        .prop("version", constant("v1.0"))
        .prop(
            "callRendererFunction",
            object()
                .prop("surfaceId", string())
                .prop("functionCallId", ct("CallId"))
                .prop(
                    "callFunction",
                    all_of(vec![ct("FunctionCall"), requires(&["catalogId"])]),
                )
                .required(&["functionCallId", "callFunction"])
                .closed(),
        )
        .required(&["callRendererFunction", "version"])
        .closed()
}

/// The `AgentFunctionResponseMessage` definition.
fn agent_function_response_message() -> S {
    object()
        .prop("version", constant("v1.0"))
        .prop("agentFunctionResponse", ct("FunctionResponse"))
        .required(&["agentFunctionResponse", "version"])
        .closed()
}

/// The common types.
pub(super) fn common_types() -> Value {
    any()
        .fact("$schema", "https://json-schema.org/draft/2020-12/schema")
        .fact(
            "$id",
            "https://a2ui.org/specification/v1_0/common_types.json",
        )
        .def("ComponentId", component_id())
        .def("CallId", call_id())
        .def("AccessibilityAttributes", accessibility_attributes())
        .def("Extensions", extensions())
        .def("ComponentCommon", component_common())
        .def("Child", child())
        .def("ChildList", child_list())
        .def("DataBinding", data_binding())
        .def("DynamicValue", dynamic_value())
        .def("DynamicString", dynamic_string())
        .def("DynamicNumber", dynamic_number())
        .def("DynamicBoolean", dynamic_boolean())
        .def("DynamicStringList", dynamic_string_list())
        .def("FunctionCommon", function_common())
        .def("IndexSystemFunction", index_system_function())
        .def("FunctionCall", function_call())
        .def("CheckRule", check_rule())
        .def("Checkable", checkable())
        .def("Action", action())
        .def("Surface", surface())
        .def("FunctionResponse", function_response())
        .done()
}

/// The `ComponentId` definition.
fn component_id() -> S {
    string()
}

/// The `CallId` definition.
fn call_id() -> S {
    string()
}

/// The `AccessibilityAttributes` definition.
fn accessibility_attributes() -> S {
    object()
        .prop("label", local("DynamicString"))
        .prop("description", local("DynamicString"))
        .prop(
            "live",
            string_enum(&["off", "polite", "assertive"]).default("off"),
        )
        .prop("hidden", local("DynamicBoolean"))
        .closed()
}

/// The `Extensions` definition.
fn extensions() -> S {
    object()
        .pattern_prop("^[\\p{XID_Start}_][\\p{XID_Continue}]*$", any())
        .closed()
}

/// The `ComponentCommon` definition.
fn component_common() -> S {
    object()
        .prop("id", local("ComponentId"))
        .prop("catalogId", string())
        .prop("accessibility", local("AccessibilityAttributes"))
        .prop(
            "metadata",
            object().prop("extensions", local("Extensions")).closed(),
        )
        .required(&["id"])
}

/// The `Child` definition.
fn child() -> S {
    local("ComponentId")
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
    object()
        .prop("@path", string())
        .required(&["@path"])
        .closed()
}

/// The `DynamicValue` definition.
fn dynamic_value() -> S {
    one_of(vec![
        string(),
        number(),
        boolean(),
        array(),
        object()
            .names(not(any().pattern("^@([^@]|$)")))
            .not(any_of(vec![requires(&["@path"]), requires(&["@call"])])),
        local("DataBinding"),
        local("FunctionCall"),
    ])
}

/// The `DynamicString` definition.
fn dynamic_string() -> S {
    one_of(vec![string(), local("DataBinding"), local("FunctionCall")])
}

/// The `DynamicNumber` definition.
fn dynamic_number() -> S {
    one_of(vec![number(), local("DataBinding"), local("FunctionCall")])
}

/// The `DynamicBoolean` definition.
fn dynamic_boolean() -> S {
    one_of(vec![boolean(), local("DataBinding"), local("FunctionCall")])
}

/// The `DynamicStringList` definition.
fn dynamic_string_list() -> S {
    one_of(vec![
        list_of(string()),
        local("DataBinding"),
        local("FunctionCall"),
    ])
}

/// The `FunctionCommon` definition.
fn function_common() -> S {
    object()
        .prop("@call", string())
        .prop("catalogId", string())
        .required(&["@call"])
}

/// The `IndexSystemFunction` definition.
fn index_system_function() -> S {
    object()
        .prop("@call", constant("@index"))
        .prop(
            "args",
            object()
                .prop("offset", r("#/$defs/DynamicNumber").default(0))
                .sealed(),
        )
        .required(&["@call"])
        .sealed()
}

/// The `FunctionCall` definition.
fn function_call() -> S {
    object()
        .all(vec![
            local("FunctionCommon"),
            one_of(vec![
                r("catalog.json#/$defs/anyFunction"),
                local("IndexSystemFunction"),
            ]),
        ])
        .sealed()
}

/// The `CheckRule` definition.
fn check_rule() -> S {
    object()
        .prop(
            "condition",
            one_of(vec![local("DataBinding"), local("FunctionCall")]),
        )
        .prop("message", string())
        .required(&["condition"])
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
                    .prop("userMessage", local("DynamicString"))
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

/// The `Surface` definition.
fn surface() -> S {
    object()
        .allowed_parents(&[])
        .prop("component", constant("Surface"))
        .prop("child", constant("root"))
        .closed()
}

/// The `FunctionResponse` definition.
fn function_response() -> S {
    object()
        .prop("functionCallId", local("CallId"))
        .prop("value", any())
        .prop(
            "error",
            object()
                .prop("code", string())
                .prop("message", string())
                .required(&["code", "message"])
                .closed(),
        )
        .required(&["functionCallId"])
        .one(vec![requires(&["value"]), requires(&["error"])])
        .closed()
}
