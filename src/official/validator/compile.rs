//! Compiling a catalog's schemas into checks: the message schema with the catalog's components
//! put in place (v0.8) or each message definition and component on its own (v0.9), and what the
//! schemas allow the parser to check piece by piece.

use std::collections::HashMap;
use std::fmt::{self, Write as _};

use jsonschema::{Draft, Registry, Resource};
use serde_json::{Map, Value};

use super::free::Plain;
use super::{
    Compiled, DEFAULT_BASE, ErrorKind, V09_MESSAGE_DEFS, V10_MESSAGE_DEFS, ValidationError,
};
use crate::MessageKind;
use crate::hash::QuickMap;
use crate::official::catalog::Catalog;

fn is_empty_schema(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

fn schema_error(e: impl fmt::Display) -> ValidationError {
    ValidationError::new(ErrorKind::InvalidSchema, format!("Invalid schema: {e}"))
}

/// The URI of `file` next to `base` (`https://x/a/b.json` + `c.json` = `https://x/a/c.json`).
fn sibling(base: &str, file: &str) -> String {
    match base.rfind('/') {
        Some(i) => format!("{}/{file}", base.get(..i).unwrap_or_default()),
        None => file.to_owned(),
    }
}

fn with_draft(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut map = map.clone();
            map.entry("$schema").or_insert_with(|| {
                Value::String("https://json-schema.org/draft/2020-12/schema".to_owned())
            });
            Value::Object(map)
        }
        other => other.clone(),
    }
}

/// Puts `source[k]` into the properties of every `k: {additionalProperties: true, ..}` node of
/// `schema` and closes it (`additionalProperties: false`).
fn inject(schema: &Value, source: &Map<String, Value>) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out = Map::with_capacity(map.len());
            for (k, v) in map {
                let open = v.get("additionalProperties") == Some(&Value::Bool(true));
                match (open, source.get(k), v) {
                    (true, Some(Value::Object(extra)), Value::Object(node)) => {
                        let mut node = node.clone();
                        node.insert("additionalProperties".to_owned(), Value::Bool(false));
                        let mut props = node
                            .get("properties")
                            .and_then(Value::as_object)
                            .cloned()
                            .unwrap_or_default();
                        for (name, s) in extra {
                            props.insert(name.clone(), s.clone());
                        }
                        node.insert("properties".to_owned(), Value::Object(props));
                        out.insert(k.clone(), Value::Object(node));
                    }
                    _ => {
                        out.insert(k.clone(), inject(v, source));
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|i| inject(i, source)).collect()),
        other => other.clone(),
    }
}

/// The compiled v0.8 message schema (none when the catalog has none), and what its shape says
/// about checking data-model entries ([`MessageShape`]).
pub(super) fn compile_v08(
    catalog: &Catalog,
) -> Result<(Option<jsonschema::Validator>, MessageShape), ValidationError> {
    let s2c = catalog.s2c_schema();
    if is_empty_schema(s2c) {
        let shape = MessageShape {
            entries_apart: true,
            entry_text_free: true,
            component: None,
            plain: None,
        };
        return Ok((None, shape));
    }
    let mut source = Map::new();
    if let Some(components) = catalog.catalog_schema().get("components") {
        source.insert("component".to_owned(), components.clone());
    }
    if let Some(styles) = catalog.catalog_schema().get("styles") {
        source.insert("styles".to_owned(), styles.clone());
    }
    let bundled = inject(s2c, &source);
    let message_schema = with_draft(&bundled);
    let base = s2c
        .get("$id")
        .and_then(Value::as_str)
        .unwrap_or(DEFAULT_BASE);
    let mut resources = Vec::new();
    let common = catalog.common_types_schema();
    if !is_empty_schema(common) {
        resources.push((sibling(base, "common_types.json"), common.clone()));
    }
    let registry = build_registry(resources)?;
    let compiled = jsonschema::options()
        .with_draft(Draft::Draft202012)
        .with_registry(&registry)
        .build(&message_schema)
        .map_err(schema_error)?;
    let (component, plain) = match message_schema.pointer(COMPONENT_POINTER) {
        Some(item) if components_apart(&message_schema) && !refers(&message_schema) => {
            let alone = jsonschema::options()
                .with_draft(Draft::Draft202012)
                .build(item)
                .map_err(schema_error)?;
            (Some(alone), Plain::of(item))
        }
        _ => (None, None),
    };
    let shape = MessageShape {
        entries_apart: entries_apart(&message_schema),
        entry_text_free: entry_text_free(&message_schema),
        component,
        plain,
    };
    Ok((Some(compiled), shape))
}

/// Whether `schema` (a v0.8 message schema) checks each entry of a `dataModelUpdate`'s
/// `contents` on its own: the list's schema says only `type` and `items`, and the schemas above
/// it (the message, the update) only list properties, so no keyword sees two entries together
/// or an entry together with another member. Anything else (`$ref`, combinators, conditionals,
/// `minItems`, `uniqueItems`, unknown keywords) answers no.
pub(super) fn entries_apart(schema: &Value) -> bool {
    plain_list(
        schema,
        MessageKind::DataModelUpdate.key(),
        "contents",
        &["type", "items"],
    )
    .is_some_and(|list| {
        list.get("items")
            .is_none_or(|items| items.is_object() || items.is_boolean())
    })
}

/// The schema of the list `list` of the update `update` in `schema` (a v0.8 message schema),
/// when the message's and the update's schemas only list properties and the list's says only
/// `allowed` keywords (and annotations), its `type` (if any) being `array`.
fn plain_list<'s>(
    schema: &'s Value,
    update: &str,
    list: &str,
    allowed: &[&str],
) -> Option<&'s Map<String, Value>> {
    let update_schema = schema.get("properties")?.get(update);
    let list_schema = update_schema?.get("properties")?.get(list);
    let fits = only(Some(schema), &LISTING)
        && only(update_schema, &LISTING)
        && only(list_schema, allowed)
        && list_schema
            .and_then(|l| l.get("type"))
            .is_none_or(|t| t == "array");
    list_schema.and_then(Value::as_object).filter(|_| fits)
}

/// What [`compile_v08`] found out from the shape of the message schema.
pub(super) struct MessageShape {
    /// See [`entries_apart`].
    pub(super) entries_apart: bool,
    /// See [`entry_text_free`].
    pub(super) entry_text_free: bool,
    /// See [`Compiled::V08::component`].
    pub(super) component: Option<jsonschema::Validator>,
    /// See [`Compiled::V08::plain`].
    pub(super) plain: Option<Plain>,
}

/// Where a v0.8 message schema says what one component of a `surfaceUpdate` is.
const COMPONENT_POINTER: &str = "/properties/surfaceUpdate/properties/components/items";

/// Whether `schema` (a v0.8 message schema) checks a component of a `surfaceUpdate` that holds
/// only that one on its own: the list's schema says only `type`, `items` and at most
/// `"minItems": 1`, and the schemas above it (the message, the update) only list properties.
/// The verdict on such a message is then the verdict on the rest of it and on the component
/// alone. Anything else (`$ref`, combinators, conditionals, `maxItems: 0`, unknown keywords)
/// answers no.
pub(super) fn components_apart(schema: &Value) -> bool {
    let allowed = ["type", "items", "minItems"];
    plain_list(
        schema,
        MessageKind::SurfaceUpdate.key(),
        "components",
        &allowed,
    )
    .is_some_and(|list| {
        list.get("minItems")
            .is_none_or(|n| n.as_u64().is_some_and(|n| n <= 1))
            && list
                .get("items")
                .is_some_and(|items| items.is_object() || items.is_boolean())
    })
}

/// Whether `schema` refers anywhere to another schema or names one (`$ref`, `$dynamicRef`,
/// `$recursiveRef`, `$id`, `$anchor`, `$dynamicAnchor`): a part of it is then not a schema on
/// its own.
pub(super) fn refers(schema: &Value) -> bool {
    const NAMES: [&str; 6] = [
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
        "$id",
        "$anchor",
        "$dynamicAnchor",
    ];
    match schema {
        Value::Object(map) => map
            .iter()
            .any(|(k, v)| NAMES.contains(&k.as_str()) || refers(v)),
        Value::Array(items) => items.iter().any(refers),
        _ => false,
    }
}

/// Keywords that do not constrain the value they sit beside.
const ANNOTATIONS: [&str; 8] = [
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "examples",
    "$defs",
    "definitions",
];

/// Object keywords that only list members: none of them looks at a listed member's value, nor
/// at two members together.
const LISTING: [&str; 4] = ["type", "properties", "required", "additionalProperties"];

/// Whether `schema` is an object with no keywords but `allowed` and annotations.
pub(super) fn only(schema: Option<&Value>, allowed: &[&str]) -> bool {
    schema.and_then(Value::as_object).is_some_and(|map| {
        map.keys()
            .all(|k| allowed.contains(&k.as_str()) || ANNOTATIONS.contains(&k.as_str()))
    })
}

/// Whether the entry schema of a v0.8 `dataModelUpdate`'s `contents` (`schema` being the message
/// schema) cannot tell two `valueString` texts apart: it says only [`LISTING`] keywords, and
/// the schema listed for `valueString` says only `"type": "string"`. Anything else (`$ref`,
/// combinators, `pattern`, `enum`, `maxLength`, unknown keywords) answers no.
pub(super) fn entry_text_free(schema: &Value) -> bool {
    let entry = schema.pointer("/properties/dataModelUpdate/properties/contents/items");
    let text = entry.and_then(|e| e.pointer("/properties/valueString"));
    only(entry, &LISTING)
        && entry
            .and_then(|e| e.get("type"))
            .is_none_or(|t| t == "object")
        && only(text, &["type"])
        && text
            .and_then(|t| t.get("type"))
            .is_some_and(|t| t == "string")
}

fn build_registry(resources: Vec<(String, Value)>) -> Result<Registry<'static>, ValidationError> {
    let mut builder = Registry::new().draft(Draft::Draft202012);
    for (uri, contents) in resources {
        builder = builder
            .add(uri, Resource::from_contents(contents))
            .map_err(schema_error)?;
    }
    builder.prepare().map_err(schema_error)
}

fn escape_pointer(segment: &str) -> String {
    let escaped = segment.replace('~', "~0").replace('/', "~1");
    let mut out = String::with_capacity(escaped.len());
    for c in escaped.chars() {
        match c {
            '%' | '#' | ' ' | '"' | '<' | '>' | '?' | '\\' | '^' | '`' | '{' | '|' | '}' => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(out, "%{b:02X}");
                }
            }
            c => out.push(c),
        }
    }
    out
}

pub(super) fn compile_v09(catalog: &Catalog) -> Result<Compiled, ValidationError> {
    let s2c = catalog.s2c_schema();
    let base = s2c
        .get("$id")
        .and_then(Value::as_str)
        .unwrap_or(DEFAULT_BASE)
        .to_owned();
    let s2c_uri = if s2c.get("$id").is_some() {
        base.clone()
    } else {
        sibling(&base, "server_to_client.json")
    };
    let catalog_uri = sibling(&base, "catalog.json");
    let mut resources = vec![
        (
            sibling(&base, "common_types.json"),
            with_draft(catalog.common_types_schema()),
        ),
        (
            catalog_uri.clone(),
            with_draft(&theme_in_defs(catalog.catalog_schema())),
        ),
    ];
    if !is_empty_schema(s2c) {
        resources.push((s2c_uri.clone(), with_draft(s2c)));
    }
    if let Some(id) = catalog.catalog_id() {
        if id != catalog_uri && (id.starts_with("https://") || id.starts_with("http://")) {
            resources.push((
                id.to_owned(),
                with_draft(&theme_in_defs(catalog.catalog_schema())),
            ));
        }
    }
    let registry = build_registry(resources)?;
    let build = |reference: String| {
        jsonschema::options()
            .with_draft(Draft::Draft202012)
            .with_registry(&registry)
            .build(&serde_json::json!({ "$ref": reference }))
            .map_err(schema_error)
    };
    let mut messages = HashMap::new();
    if let Some(defs) = s2c.get("$defs").and_then(Value::as_object) {
        for (_, def) in V09_MESSAGE_DEFS {
            if defs.contains_key(def) {
                messages.insert(def, build(format!("{s2c_uri}#/$defs/{def}"))?);
            }
        }
    }
    let mut components = QuickMap::default();
    if let Some(known) = catalog
        .catalog_schema()
        .get("components")
        .and_then(Value::as_object)
    {
        for name in known.keys() {
            let reference = format!("{catalog_uri}#/components/{}", escape_pointer(name));
            components.insert(name.clone(), build(reference)?);
        }
    }
    Ok(Compiled::V09 {
        has_s2c: !is_empty_schema(s2c),
        messages,
        components,
    })
}

/// The v1.0 definition that says what one component is, in the message schema.
const V10_COMPONENT_DEF: &str = "Component";
/// Where the v1.0 message schema's component definition names the catalog's components.
const V10_ANY_COMPONENT: &str = "catalog.json#/$defs/anyComponent";
/// The name, beside the message schema, of the document holding each component's check.
const V10_COMPONENTS_DOC: &str = "a2ui-stream-components.json";

/// The v1.0 checks: each message definition with its components left open (they are checked
/// one by one), and each component of the catalog as the message schema's `Component`
/// definition says, with the catalog's schema of that component in place of the union of them
/// all (every component schema names its own type, so the union and the one picked by name
/// accept the same).
pub(super) fn compile_v10(catalog: &Catalog) -> Result<Compiled, ValidationError> {
    let s2c = catalog.s2c_schema();
    let base = s2c
        .get("$id")
        .and_then(Value::as_str)
        .unwrap_or(DEFAULT_BASE)
        .to_owned();
    let s2c_uri = if s2c.get("$id").is_some() {
        base.clone()
    } else {
        sibling(&base, "agent_to_renderer.json")
    };
    let catalog_uri = sibling(&base, "catalog.json");
    let common_uri = sibling(&base, "common_types.json");
    let catalog_doc = with_draft(&completed_catalog(catalog.catalog_schema()));
    let common_doc = with_draft(catalog.common_types_schema());
    let mut resources = vec![
        (common_uri.clone(), common_doc.clone()),
        (catalog_uri.clone(), catalog_doc.clone()),
    ];
    // The catalog's own references (`common_types.json#/...`) are read from where it says it is.
    let own_ids = [
        catalog.catalog_schema().get("$id").and_then(Value::as_str),
        catalog.catalog_id(),
    ];
    for id in own_ids.into_iter().flatten() {
        if id.starts_with("https://") || id.starts_with("http://") {
            let commons = sibling(id, "common_types.json");
            if resources.iter().all(|(uri, _)| *uri != commons) {
                resources.push((commons, common_doc.clone()));
            }
            if resources.iter().all(|(uri, _)| uri != id) {
                resources.push((id.to_owned(), catalog_doc.clone()));
            }
        }
    }
    let has_s2c = !is_empty_schema(s2c);
    let component_def = s2c
        .pointer(&format!("/$defs/{V10_COMPONENT_DEF}"))
        .filter(|_| has_s2c);
    if has_s2c {
        let mut envelope = with_draft(s2c);
        if let Some(def) = envelope.pointer_mut(&format!("/$defs/{V10_COMPONENT_DEF}")) {
            *def = Value::Bool(true);
        }
        resources.push((s2c_uri.clone(), envelope));
    }
    let known: Vec<String> = catalog
        .catalog_schema()
        .get("components")
        .and_then(Value::as_object)
        .map(|known| known.keys().cloned().collect())
        .unwrap_or_default();
    let components_uri = sibling(&base, V10_COMPONENTS_DOC);
    let mut by_name = Map::new();
    for name in &known {
        let own = Value::String(format!("catalog.json#/components/{}", escape_pointer(name)));
        let check = match component_def {
            Some(def) => with_ref_replaced(def, V10_ANY_COMPONENT, &own),
            None => serde_json::json!({ "$ref": own }),
        };
        by_name.insert(name.clone(), check);
    }
    let mut components_doc = Map::new();
    components_doc.insert("$defs".to_owned(), Value::Object(by_name));
    resources.push((
        components_uri.clone(),
        with_draft(&Value::Object(components_doc)),
    ));
    let registry = build_registry(resources)?;
    let build = |reference: String| {
        jsonschema::options()
            .with_draft(Draft::Draft202012)
            .with_registry(&registry)
            .build(&serde_json::json!({ "$ref": reference }))
            .map_err(schema_error)
    };
    let mut messages = HashMap::new();
    if let Some(defs) = s2c
        .get("$defs")
        .and_then(Value::as_object)
        .filter(|_| has_s2c)
    {
        for (_, def) in V10_MESSAGE_DEFS {
            if defs.contains_key(def) {
                messages.insert(def, build(format!("{s2c_uri}#/$defs/{def}"))?);
            }
        }
    }
    let mut components = QuickMap::default();
    for name in known {
        let reference = format!("{components_uri}#/$defs/{}", escape_pointer(&name));
        components.insert(name, build(reference)?);
    }
    Ok(Compiled::V10 {
        has_s2c,
        messages,
        components,
    })
}

/// `schema` with every `{"$ref": from}` pointing at `to` instead.
fn with_ref_replaced(schema: &Value, from: &str, to: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = if k == "$ref" && v.as_str() == Some(from) {
                        to.clone()
                    } else {
                        with_ref_replaced(v, from, to)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|i| with_ref_replaced(i, from, to))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A v1.0 catalog as the message and common-type schemas read it: with the unions they refer
/// to (`$defs/anyComponent`, `$defs/anyFunction`) made from its components and functions when
/// it does not write them, and a top-level `theme` also as `$defs/theme`.
fn completed_catalog(catalog: &Value) -> Value {
    let Value::Object(map) = catalog else {
        return catalog.clone();
    };
    let mut map = map.clone();
    let union = |key: &str| -> Value {
        let names: Vec<Value> = map
            .get(key)
            .and_then(Value::as_object)
            .map(|entries| {
                entries
                    .keys()
                    .map(|name| serde_json::json!({"$ref": format!("#/{key}/{}", escape_pointer(name))}))
                    .collect()
            })
            .unwrap_or_default();
        if names.is_empty() {
            Value::Bool(false)
        } else {
            serde_json::json!({ "oneOf": names })
        }
    };
    let any_component = union("components");
    let any_function = union("functions");
    let defs = map
        .entry("$defs")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(defs) = defs {
        defs.entry("anyComponent").or_insert(any_component);
        defs.entry("anyFunction").or_insert(any_function);
    }
    theme_in_defs(&Value::Object(map))
}

/// A catalog whose theme schema is written at the top (`theme`), as some catalogs write it,
/// also at `$defs/theme`, where the message schemas refer to it.
fn theme_in_defs(catalog: &Value) -> Value {
    let Value::Object(map) = catalog else {
        return catalog.clone();
    };
    let Some(theme) = map.get("theme") else {
        return catalog.clone();
    };
    let mut map = map.clone();
    let theme = theme.clone();
    let defs = map
        .entry("$defs")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(defs) = defs {
        defs.entry("theme").or_insert(theme);
    }
    Value::Object(map)
}
