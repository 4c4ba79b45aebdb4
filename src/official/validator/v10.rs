//! The schema stage of v1.0: each message against its definition in the message schema, and
//! each component (of an `updateComponents`, or inline in a `createSurface`) against its catalog
//! schema, with its id a Unicode identifier and its catalog the validator's. Every fault is
//! reported, in words and as an [`ErrorDetail`].

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::describe::{push_schema_details, py_repr};
use super::{
    DetailCode, ErrorDetail, ErrorKind, V10_MESSAGE_DEFS, ValidationError, Validator, truthy,
};
use crate::MessageKind;
use crate::hash::QuickMap;

/// Whether `id` is an identifier as Unicode's UAX #31 defines it (and Python's
/// `str.isidentifier` checks): a letter-like character or `_`, then letters, digits, marks and
/// connectors.
pub(super) fn is_identifier(id: &str) -> bool {
    let mut chars = id.chars();
    chars
        .next()
        .is_some_and(|first| first == '_' || unicode_ident::is_xid_start(first))
        && chars.all(unicode_ident::is_xid_continue)
}

/// The schema errors of a v1.0 message list, words and details together.
#[derive(Default)]
struct Faults {
    lines: Vec<String>,
    details: Vec<ErrorDetail>,
}

impl Faults {
    fn push(&mut self, line: String, path: String, code: DetailCode, message: String) {
        self.lines.push(line);
        self.details.push(ErrorDetail::new(path, code, message));
    }
}

impl Validator {
    pub(super) fn check_v10_schemas(
        &self,
        list: &[Value],
        has_s2c: bool,
        defs: &HashMap<&'static str, jsonschema::Validator>,
        components: &QuickMap<String, jsonschema::Validator>,
    ) -> Result<(), ValidationError> {
        let mut faults = Faults::default();
        for (idx, message) in list.iter().enumerate() {
            let path = format!("messages[{idx}]");
            let place = format!("messages.{idx}");
            let Value::Object(map) = message else {
                let why = "Is not an object".to_owned();
                faults.push(
                    format!("{path}: {why}"),
                    place,
                    DetailCode::TypeMismatch,
                    why,
                );
                continue;
            };
            let Some((kind, def)) = V10_MESSAGE_DEFS
                .iter()
                .find(|(kind, _)| map.contains_key(kind.key()))
            else {
                let keys: Vec<Value> = map.keys().map(|k| Value::String(k.clone())).collect();
                let why = format!(
                    "Unknown message type with keys {}",
                    py_repr(&Value::Array(keys))
                );
                faults.push(
                    format!("{path}: {why}"),
                    place,
                    DetailCode::InvalidValue,
                    why,
                );
                continue;
            };
            match defs.get(def) {
                Some(schema) => push_schema_details(
                    schema,
                    message,
                    &path,
                    &place,
                    &mut faults.lines,
                    &mut faults.details,
                ),
                None if !has_s2c => {}
                None => {
                    return Err(ValidationError::new(
                        ErrorKind::InvalidSchema,
                        format!("Definition {def} not found in schema"),
                    ));
                }
            }
            let body = map.get(kind.key());
            if *kind == MessageKind::CreateSurface {
                self.surface_catalog_fault(body, &path, &place, &mut faults);
            }
            if matches!(
                kind,
                MessageKind::CreateSurface | MessageKind::UpdateComponents
            ) {
                if let Some(Value::Array(list)) = body.and_then(|b| b.get("components")) {
                    let base = format!("{path}.{}.components", kind.key());
                    for (n, component) in list.iter().enumerate() {
                        self.component_faults(component, n, &base, components, &mut faults);
                    }
                }
            }
        }
        if faults.lines.is_empty() {
            return Ok(());
        }
        let mut msg = String::from("Validation failed:");
        for line in faults.lines {
            let _ = write!(msg, "\n  - {line}");
        }
        Err(ValidationError::new(ErrorKind::Schema, msg).with_details(faults.details))
    }

    /// A `createSurface` naming a catalog other than the validator's, when the catalog has an
    /// id: its components cannot be checked here.
    fn surface_catalog_fault(
        &self,
        body: Option<&Value>,
        path: &str,
        place: &str,
        faults: &mut Faults,
    ) {
        let named = body
            .and_then(|b| b.get("catalogId"))
            .and_then(Value::as_str);
        if let (Some(named), Some(own)) = (named, self.catalog.catalog_id()) {
            if named != own {
                let why = format!("Catalog not found: {named}");
                faults.push(
                    format!("{path}.createSurface.catalogId: {why}"),
                    format!("{place}.createSurface.catalogId"),
                    DetailCode::InvalidValue,
                    why,
                );
            }
        }
    }

    /// The faults of component `n` of a list whose words start at `base`; its details are
    /// placed within the component.
    fn component_faults(
        &self,
        component: &Value,
        n: usize,
        base: &str,
        compiled: &QuickMap<String, jsonschema::Validator>,
        faults: &mut Faults,
    ) {
        let path = match component.get("id").filter(|id| truthy(id)) {
            Some(Value::String(id)) => format!("{base}[id='{id}']"),
            Some(id) => format!("{base}[id='{id}']"),
            None => format!("{base}[{n}]"),
        };
        let Value::Object(map) = component else {
            let why = "Component is not an object".to_owned();
            faults.push(
                format!("{path}: {why}"),
                String::new(),
                DetailCode::TypeMismatch,
                why,
            );
            return;
        };
        if let Some(Value::String(id)) = map.get("id") {
            if !is_identifier(id) {
                let why = format!("Component id '{id}' must be a valid UAX #31 identifier");
                faults.push(
                    format!("{path}.id: {why}"),
                    "id".to_owned(),
                    DetailCode::InvalidIdentifier,
                    why,
                );
            }
        }
        if let (Some(Value::String(named)), Some(own)) =
            (map.get("catalogId"), self.catalog.catalog_id())
        {
            if named != own {
                let why = format!("Catalog not found: {named}");
                faults.push(
                    format!("{path}.catalogId: {why}"),
                    "catalogId".to_owned(),
                    DetailCode::InvalidValue,
                    why,
                );
                return;
            }
        }
        let schema = match map.get("component") {
            Some(Value::String(kind)) => compiled.get(kind.as_str()).ok_or_else(|| kind.clone()),
            Some(other) => Err(py_repr(other)),
            None => {
                let why = "'component' is a required property".to_owned();
                faults.push(
                    format!("{path}: {why}"),
                    "component".to_owned(),
                    DetailCode::MissingField,
                    why,
                );
                return;
            }
        };
        match schema {
            Ok(schema) => push_schema_details(
                schema,
                component,
                &path,
                "",
                &mut faults.lines,
                &mut faults.details,
            ),
            Err(kind) => {
                let why = format!("Unknown component: {kind}");
                faults.push(
                    format!("{path}: {why}"),
                    "component".to_owned(),
                    DetailCode::InvalidValue,
                    why,
                );
            }
        }
    }
}

#[cfg(feature = "legacy")]
/// A v1.0 component list's check of one component, for
/// [`Validator::check_component`]: its schema, its id an identifier and its catalog the
/// validator's.
pub(super) fn component_passes(
    validator: &Validator,
    components: &QuickMap<String, jsonschema::Validator>,
    component: &Value,
) -> bool {
    let Value::Object(map) = component else {
        return false;
    };
    let id_ok = match map.get("id") {
        Some(Value::String(id)) => is_identifier(id),
        _ => true,
    };
    let catalog_ok = match (map.get("catalogId"), validator.catalog.catalog_id()) {
        (Some(Value::String(named)), Some(own)) => named == own,
        _ => true,
    };
    id_ok
        && catalog_ok
        && map
            .get("component")
            .and_then(Value::as_str)
            .and_then(|kind| components.get(kind))
            .is_some_and(|schema| schema.is_valid(component))
}

/// The components a v1.0 `createSurface` carries, to check as a list begun by that surface.
pub(super) fn inline_components(message: &Map<String, Value>) -> Option<&Vec<Value>> {
    match message
        .get(MessageKind::CreateSurface.key())?
        .get("components")?
    {
        Value::Array(list) if !list.is_empty() => Some(list),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::official::catalog::{Catalog, Version};
    use serde_json::json;

    fn validator() -> std::sync::Arc<Validator> {
        let catalog = Catalog::new(
            Version::V10,
            json!(null),
            json!({"catalogId": "mine", "components": {
                "Text": {"type": "object", "properties": {"text": {}}, "required": ["text"]},
                "Column": {"type": "object", "properties": {"children": {"type": "array"}}}}}),
            json!({}),
        );
        catalog.validator().unwrap()
    }

    #[test]
    fn identifiers_are_unicode_ones() {
        for good in ["root", "_x", "été", "名前", "a1", "a_b"] {
            assert!(is_identifier(good), "{good}");
        }
        for bad in ["", "my-root", "1a", "a b", "a.b", "@x"] {
            assert!(!is_identifier(bad), "{bad}");
        }
    }

    #[test]
    fn a_component_id_that_is_no_identifier_is_a_fault() {
        let v = validator();
        let msg = json!({"version": "v1.0", "updateComponents": {"surfaceId": "s",
            "components": [{"id": "my-text", "component": "Text", "text": "hi"}]}});
        let err = v.validate(&msg).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Schema);
        assert_eq!(
            err.details(),
            [ErrorDetail::new(
                "id".to_owned(),
                DetailCode::InvalidIdentifier,
                "Component id 'my-text' must be a valid UAX #31 identifier".to_owned()
            )]
        );
    }

    #[test]
    fn a_component_of_another_catalog_is_not_checked_here() {
        let v = validator();
        let msg = json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "mine",
            "components": [{"id": "root", "component": "Text", "text": "hi", "catalogId": "theirs"}]}});
        let err = v.validate(&msg).unwrap_err();
        assert!(
            err.message()
                .contains("catalogId: Catalog not found: theirs"),
            "{err}"
        );
        assert_eq!(err.details()[0].path(), "catalogId");
    }

    #[test]
    fn inline_components_are_a_list_begun_from_root() {
        let v = validator();
        let good = json!({"version": "v1.0", "createSurface": {"surfaceId": "s",
            "components": [{"id": "root", "component": "Column", "children": ["t"]},
                           {"id": "t", "component": "Text", "text": {"@path": "/t"}}]}});
        assert!(v.validate(&good).is_ok());
        let mut dangling = good.clone();
        dangling["createSurface"]["components"][0]["children"] = json!(["gone"]);
        let err = v.validate(&dangling).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DanglingReference);
        assert!(err.message().starts_with("Dangling reference: "), "{err}");
        let mut bad_path = good;
        bad_path["createSurface"]["components"][1]["text"] = json!({"@path": "/a/~2"});
        let err = v.validate(&bad_path).unwrap_err();
        assert_eq!(err.message(), "Invalid path syntax: '/a/~2'");
    }

    #[test]
    fn v1_0_calls_are_named_with_an_at() {
        let v = validator();
        let mut text = json!("x");
        for _ in 0..6 {
            text = json!({"@call": "f", "args": {"value": text}});
        }
        let msg = json!({"version": "v1.0", "updateComponents": {"surfaceId": "s",
            "components": [{"id": "t", "component": "Text", "text": text}]}});
        let err = v.validate(&msg).unwrap_err();
        assert_eq!(
            err.message(),
            "Recursion limit exceeded: functionCall depth > 5"
        );
    }
}
