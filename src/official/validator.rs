//! Validation of A2UI messages against a [`Catalog`], reporting problems in the words of the
//! reference implementation.
//!
//! [`Validator::validate`] checks a list of messages (or one message) in two stages:
//!
//! 1. **Schema.** v0.8: the whole list against the message schema with the catalog's components
//!    (and styles) put in place of the open `component` (`styles`) objects; the first error is
//!    reported as `Validation failed: <message>`. v0.9: each message against its own definition
//!    (`CreateSurfaceMessage`, `UpdateDataModelMessage`, `DeleteSurfaceMessage`), and each
//!    component of an `updateComponents` against its catalog schema; all errors are reported,
//!    one per line, as `messages[i].<path>: <message>`. Messages use the wording of Python's
//!    `jsonschema` (`'version' is a required property`, `123 is not of type 'string'`,
//!    `'v0.9' was expected`, ...).
//! 2. **Integrity**, for every component list: `Duplicate component ID: <id>`, `Missing root
//!    component: No component has id='<root>'`, `Component '<a>' references non-existent
//!    component '<b>' in field '<f>'`, `Self-reference detected: ...`, `Circular reference
//!    detected involving component '<id>'`, `Component '<id>' is not reachable from '<root>'`,
//!    `Global recursion limit exceeded: logical depth > 50`; and for every message
//!    `Global recursion limit exceeded: Depth > 50`, `Recursion limit exceeded: functionCall
//!    depth > 5` and `Invalid path syntax: '<path>'`.
//!
//! The root of a surface is named by its `beginRendering` (v0.8) or is `root` once a
//! `createSurface` (v0.9) for it is in the same list. A component list whose surface is not
//! begun in the list is an incremental update: its root, references and orphans are not checked,
//! but duplicates, self-references and cycles still are. With `strict_integrity` off
//! ([`Validator::validate_with`]) the root, dangling-reference and orphan checks are skipped.
//!
//! ```
//! use a2ui_stream::official::catalog::{Catalog, Version};
//! use a2ui_stream::official::validator::Validator;
//! use serde_json::json;
//!
//! let catalog = Catalog::new(
//!     Version::V08,
//!     json!({"type": "object", "properties": {
//!         "beginRendering": {"type": "object", "required": ["surfaceId", "root"],
//!                            "properties": {"surfaceId": {"type": "string"}, "root": {"type": "string"}}},
//!         "surfaceUpdate": {"type": "object", "properties": {"components": {"type": "array", "items": {
//!             "type": "object", "properties": {"component": {"type": "object", "additionalProperties": true}}}}}}}}),
//!     json!({"catalogId": "demo", "components": {
//!         "Text": {"type": "object", "properties": {"text": {"type": "string"}}},
//!         "Card": {"type": "object", "properties": {"child": {"type": "string"}}}}}),
//!     json!({}),
//! );
//! let validator = Validator::new(&catalog)?;
//! let ui = json!([
//!     {"beginRendering": {"surfaceId": "s", "root": "root"}},
//!     {"surfaceUpdate": {"surfaceId": "s", "components": [
//!         {"id": "root", "component": {"Card": {"child": "t"}}},
//!         {"id": "t", "component": {"Text": {"text": "Hi"}}}]}}]);
//! assert!(validator.validate(&ui).is_ok());
//!
//! let err = validator.validate(&json!([{"beginRendering": {"surfaceId": 7, "root": "r"}}])).unwrap_err();
//! assert!(err.message().contains("7 is not of type 'string'"));
//! # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
//! ```

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::{self, Write as _};

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{Draft, Registry, Resource};
use serde_json::{Map, Value};

use super::catalog::{Catalog, Version};
use crate::hash::{QuickMap, QuickSet};

/// How deep components may nest, and how deep any message may be, before validation fails.
pub const MAX_GLOBAL_DEPTH: usize = 50;
/// How deeply `functionCall`s may nest inside each other's `args`.
pub const MAX_FUNC_CALL_DEPTH: usize = 5;

const DEFAULT_ROOT: &str = "root";
const DEFAULT_BASE: &str = "https://a2ui.org/";

/// A message list failed validation; [`message`](ValidationError::message) says why, in the
/// reference implementation's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    message: String,
    /// The component the fault is in, for a self-reference, a cycle or a chain too deep.
    component: Option<String>,
}

impl ValidationError {
    fn new(message: impl Into<String>) -> ValidationError {
        ValidationError {
            message: message.into(),
            component: None,
        }
    }

    /// The error, about component `id`.
    fn in_component(mut self, id: &str) -> ValidationError {
        self.component = Some(id.to_owned());
        self
    }

    /// The component the fault is in, when it is one component's: the one that refers to
    /// itself, the one a cycle comes back to, or the last one of a chain too deep (the one that
    /// refers past the limit).
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::validator::Validator;
    /// use serde_json::json;
    /// let catalog = Catalog::new(Version::V08, json!(null), json!({"components": {
    ///     "Card": {"type": "object", "properties": {"child": {"type": "string", "title": "ComponentId"}}}
    /// }}), json!(null));
    /// let validator = Validator::new(&catalog)?;
    /// let loop_ = json!([{"surfaceUpdate": {"surfaceId": "s", "components": [
    ///     {"id": "a", "component": {"Card": {"child": "b"}}},
    ///     {"id": "b", "component": {"Card": {"child": "a"}}}
    /// ]}}]);
    /// let err = validator.validate(&loop_).unwrap_err();
    /// assert_eq!(err.message(), "Circular reference detected involving component 'a'");
    /// assert_eq!(err.component(), Some("a"));
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn component(&self) -> Option<&str> {
        self.component.as_deref()
    }

    /// Why validation failed.
    ///
    /// ```
    /// use a2ui_stream::official::validator::check_depth_and_paths;
    /// let err = check_depth_and_paths(&serde_json::json!({"path": "/a/~2"})).unwrap_err();
    /// assert_eq!(err.message(), "Invalid path syntax: '/a/~2'");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ValidationError {}

/// Checks A2UI messages against a [`Catalog`]; see the [module documentation](self).
///
/// Schemas are compiled once, in [`Validator::new`]; validating is then cheap enough to run on
/// every message of a stream.
pub struct Validator {
    catalog: Catalog,
    compiled: Compiled,
}

enum Compiled {
    V08 {
        /// The message schema with the catalog's components put in place.
        message: Option<jsonschema::Validator>,
        /// See [`Validator::checks_entries_apart`].
        entries_apart: bool,
        /// See [`Validator::entry_text_is_free`].
        entry_text_free: bool,
        /// The schema of one entry of a `surfaceUpdate`'s `components`, compiled alone, when
        /// the message schema checks each component on its own and refers to nothing (see
        /// [`components_apart`]); `None`: components are checked inside a message.
        component: Option<jsonschema::Validator>,
    },
    V09 {
        has_s2c: bool,
        messages: HashMap<&'static str, jsonschema::Validator>,
        components: QuickMap<String, jsonschema::Validator>,
    },
}

impl fmt::Debug for Validator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Validator")
            .field("version", &self.catalog.version())
            .field("catalog_id", &self.catalog.catalog_id())
            .finish_non_exhaustive()
    }
}

/// The v0.9 message definitions validated as a whole, by the key that marks the message.
const V09_MESSAGE_DEFS: [(&str, &str); 3] = [
    ("createSurface", "CreateSurfaceMessage"),
    ("updateDataModel", "UpdateDataModelMessage"),
    ("deleteSurface", "DeleteSurfaceMessage"),
];

impl Validator {
    /// Compiles the catalog's schemas. Fails when a schema is not valid JSON Schema or refers to
    /// something the three schemas do not define.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::validator::Validator;
    /// use serde_json::json;
    /// let bad = Catalog::new(Version::V08, json!({"$ref": "elsewhere.json"}), json!({}), json!({}));
    /// assert!(Validator::new(&bad).is_err());
    /// ```
    pub fn new(catalog: &Catalog) -> Result<Validator, ValidationError> {
        let compiled = match catalog.version() {
            Version::V08 => {
                let (message, shape) = compile_v08(catalog)?;
                Compiled::V08 {
                    message,
                    entries_apart: shape.entries_apart,
                    entry_text_free: shape.entry_text_free,
                    component: shape.component,
                }
            }
            Version::V09 => compile_v09(catalog)?,
        };
        Ok(Validator {
            catalog: catalog.clone(),
            compiled,
        })
    }

    /// The catalog this validator checks against.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::validator::Validator;
    /// # use serde_json::json;
    /// let v = Validator::new(&Catalog::new(Version::V09, json!(null), json!({}), json!({})))?;
    /// assert_eq!(v.catalog().version(), Version::V09);
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Validates `messages` (a list of messages, or one message) with all integrity checks.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::validator::Validator;
    /// # use serde_json::json;
    /// let catalog = Catalog::new(Version::V09, json!(null),
    ///     json!({"components": {"Card": {"properties": {"child": {"type": "string"}}}}}), json!({}));
    /// let v = Validator::new(&catalog)?;
    /// let err = v.validate(&json!({"version": "v0.9", "updateComponents": {"surfaceId": "s",
    ///     "components": [{"id": "a", "component": "Card", "child": "a"}]}})).unwrap_err();
    /// assert!(err.message().starts_with("Self-reference detected"));
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn validate(&self, messages: &Value) -> Result<(), ValidationError> {
        self.validate_with(messages, true)
    }

    /// Validates `messages`; with `strict_integrity` off, a missing root, dangling references and
    /// orphans are let through (what a stream needs while components are still arriving), while
    /// schema errors, duplicates, self-references, cycles and depth limits still fail.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::validator::Validator;
    /// # use serde_json::json;
    /// let catalog = Catalog::new(Version::V09, json!(null),
    ///     json!({"components": {"Card": {"properties": {"child": {"type": "string"}}}}}), json!({}));
    /// let v = Validator::new(&catalog)?;
    /// let partial = json!([{"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
    ///     {"version": "v0.9", "updateComponents": {"surfaceId": "s",
    ///      "components": [{"id": "root", "component": "Card", "child": "later"}]}}]);
    /// assert!(v.validate(&partial).is_err());
    /// assert!(v.validate_with(&partial, false).is_ok());
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn validate_with(
        &self,
        messages: &Value,
        strict_integrity: bool,
    ) -> Result<(), ValidationError> {
        let list: &[Value] = match messages {
            Value::Array(items) => items,
            single => std::slice::from_ref(single),
        };
        match &self.compiled {
            Compiled::V08 { message, .. } => {
                // `is_valid` is much cheaper than collecting errors; errors are only gathered
                // for a list that has some.
                let failing = message
                    .as_ref()
                    .filter(|schema| !list.iter().all(|m| schema.is_valid(m)));
                if let Some(schema) = failing {
                    // Each message against the message schema, in order: the first error of
                    // the first invalid message, as validating the list as an array reports.
                    let first = list.iter().find_map(|message| {
                        let err = schema.iter_errors(message).next()?;
                        let mut msg = format!("Validation failed: {}", describe(&err));
                        let context = sub_errors(err.kind());
                        if !context.is_empty() {
                            msg.push_str("\nContext failures:");
                            for sub in context {
                                let _ = write!(msg, "\n  - {}", describe(sub));
                            }
                        }
                        Some(msg)
                    });
                    if let Some(msg) = first {
                        return Err(ValidationError::new(msg));
                    }
                }
            }
            Compiled::V09 {
                has_s2c,
                messages: defs,
                components,
            } => self.check_v09_schemas(list, *has_s2c, defs, components)?,
        }
        self.check_integrity(list, strict_integrity)
    }

    /// Whether a v0.8 `dataModelUpdate` passes [`validate_with`](Self::validate_with) (without
    /// strict integrity) exactly when the same update with no entries passes and, for each of
    /// its entries, the same update with only that entry passes. True when nothing in the
    /// message schema looks at the `contents` list as a whole (decided once, from the schema's
    /// shape); the integrity checks (depth, paths) always look at one entry at a time. The
    /// progressive parser then checks each entry of an update being written once, when it is
    /// finished.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::validator::Validator;
    /// # use serde_json::json;
    /// let s2c = |contents| json!({"type": "object", "properties": {"dataModelUpdate": {
    ///     "type": "object", "properties": {"contents": contents}}}});
    /// let items = json!({"type": "object", "required": ["key"]});
    /// let apart = Catalog::new(Version::V08, s2c(json!({"type": "array", "items": items})), json!({}), json!({}));
    /// assert!(Validator::new(&apart)?.checks_entries_apart());
    /// let whole = Catalog::new(Version::V08, s2c(json!({"type": "array", "items": items, "maxItems": 9})), json!({}), json!({}));
    /// assert!(!Validator::new(&whole)?.checks_entries_apart());
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn checks_entries_apart(&self) -> bool {
        matches!(
            self.compiled,
            Compiled::V08 {
                entries_apart: true,
                ..
            }
        )
    }

    /// Whether, on top of [`checks_entries_apart`](Self::checks_entries_apart), the verdict on
    /// an entry of exactly `key` and `valueString` does not depend on what the string says: the
    /// entry schema only lists properties, and the schema of `valueString` only asks for a
    /// string (decided once, from the schema's shape). The integrity checks look only at `path`
    /// strings. The progressive parser then checks the entry being written again only when
    /// more than its string changed.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::validator::Validator;
    /// # use serde_json::json;
    /// let s2c = |text| json!({"type": "object", "properties": {"dataModelUpdate": {
    ///     "type": "object", "properties": {"contents": {"type": "array", "items": {
    ///         "type": "object", "required": ["key"],
    ///         "properties": {"key": {"type": "string"}, "valueString": text}}}}}}});
    /// let free = Catalog::new(Version::V08, s2c(json!({"type": "string"})), json!({}), json!({}));
    /// assert!(Validator::new(&free)?.entry_text_is_free());
    /// let short = Catalog::new(Version::V08, s2c(json!({"type": "string", "maxLength": 9})), json!({}), json!({}));
    /// assert!(!Validator::new(&short)?.entry_text_is_free());
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn entry_text_is_free(&self) -> bool {
        matches!(
            self.compiled,
            Compiled::V08 {
                entries_apart: true,
                entry_text_free: true,
                ..
            }
        )
    }

    /// Whether `component`, alone in a message updating surface `surface_id`, passes
    /// [`validate_with`](Self::validate_with) without strict integrity: the schema, no
    /// self-reference, depth and path syntax (with one component the other integrity checks
    /// cannot fail). Cheaper than building and checking that message; hands the component back.
    /// A caller that knows the component does not refer to itself passes `false` for
    /// `may_refer_to_itself` and spares the look at its references.
    ///
    /// `frame` keeps the message the component is put in (v0.8) from one call to the next, and
    /// makes it again when the surface differs.
    pub(crate) fn check_component(
        &self,
        frame: &mut CheckFrame,
        surface_id: &str,
        component: Value,
        may_refer_to_itself: bool,
    ) -> (Value, bool) {
        let (component, schema_ok) = match &self.compiled {
            Compiled::V08 { message: None, .. } => (component, true),
            Compiled::V08 {
                message: Some(schema),
                component: apart,
                ..
            } => {
                // Checked alone, the component's verdict joins the rest of the message's, which
                // is learnt from the first check in a whole message it passes alone.
                let alone = apart.as_ref().map(|apart| apart.is_valid(&component));
                match (alone, frame.envelope_for(surface_id)) {
                    (Some(alone), Some(envelope)) => {
                        let ok = envelope && alone;
                        debug_assert_eq!(
                            ok,
                            check_in_message(schema, frame, surface_id, component.clone()).1
                        );
                        (component, ok)
                    }
                    (alone, _) => {
                        let (back, ok) = check_in_message(schema, frame, surface_id, component);
                        match alone {
                            Some(true) => frame.envelope = Some((surface_id.to_owned(), ok)),
                            Some(false) => debug_assert!(!ok),
                            None => {}
                        }
                        (back, ok)
                    }
                }
            }
            Compiled::V09 { components, .. } => {
                let known = self
                    .catalog
                    .catalog_schema()
                    .get("components")
                    .and_then(Value::as_object);
                let schema = component
                    .get("component")
                    .filter(|kind| truthy(kind))
                    .and_then(Value::as_str)
                    .filter(|kind| known.is_some_and(|k| k.get(*kind).is_some_and(truthy)))
                    .and_then(|kind| components.get(kind));
                let ok = component.is_object() && schema.is_some_and(|s| s.is_valid(&component));
                (component, ok)
            }
        };
        if !schema_ok {
            return (component, false);
        }
        let self_reference = may_refer_to_itself
            && id_of(&component).is_some_and(|id| {
                let mut found = false;
                self.catalog
                    .for_each_reference(&component, |r, _| found |= r == id);
                found
            });
        // In a message the component sits three levels down (message, update, list).
        let ok = !self_reference && traverse(&component, 3, 0).is_ok();
        (component, ok)
    }

    fn check_v09_schemas(
        &self,
        list: &[Value],
        has_s2c: bool,
        defs: &HashMap<&'static str, jsonschema::Validator>,
        components: &QuickMap<String, jsonschema::Validator>,
    ) -> Result<(), ValidationError> {
        let mut errors = Vec::new();
        for (idx, message) in list.iter().enumerate() {
            let path = format!("messages[{idx}]");
            let Value::Object(map) = message else {
                errors.push(format!("{path}: Is not an object"));
                continue;
            };
            if map.contains_key("updateComponents") {
                self.update_components_errors(map, &path, components, &mut errors);
                continue;
            }
            let Some((_, def)) = V09_MESSAGE_DEFS
                .iter()
                .find(|(key, _)| map.contains_key(*key))
            else {
                let keys: Vec<Value> = map.keys().map(|k| Value::String(k.clone())).collect();
                errors.push(format!(
                    "{path}: Unknown message type with keys {}",
                    py_repr(&Value::Array(keys))
                ));
                continue;
            };
            match defs.get(def) {
                Some(schema) => push_schema_errors(schema, message, &path, &mut errors),
                None if !has_s2c => {}
                None => {
                    return Err(ValidationError::new(format!(
                        "Definition {def} not found in schema"
                    )))
                }
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            let mut msg = String::from("Validation failed:");
            for e in errors {
                let _ = write!(msg, "\n  - {e}");
            }
            Err(ValidationError::new(msg))
        }
    }

    fn update_components_errors(
        &self,
        message: &Map<String, Value>,
        path: &str,
        compiled: &QuickMap<String, jsonschema::Validator>,
        errors: &mut Vec<String>,
    ) {
        if message.get("version").and_then(Value::as_str) != Some("v0.9") {
            errors.push(format!("{path}: Invalid version, expected 'v0.9'"));
        }
        let Some(Value::Object(update)) = message.get("updateComponents") else {
            errors.push(format!("{path}: Expected updateComponents to be an object"));
            return;
        };
        if !update.get("surfaceId").is_some_and(Value::is_string) {
            errors.push(format!(
                "{path}.updateComponents: Invalid or missing surfaceId"
            ));
        }
        let Some(Value::Array(list)) = update.get("components") else {
            errors.push(format!(
                "{path}.updateComponents: Expected components to be an array"
            ));
            return;
        };
        let known = self
            .catalog
            .catalog_schema()
            .get("components")
            .and_then(Value::as_object);
        for (idx, comp) in list.iter().enumerate() {
            // Worded only when there is something to report.
            let comp_path = || match comp.get("id").filter(|id| truthy(id)) {
                Some(Value::String(id)) => format!("{path}.updateComponents.components[id='{id}']"),
                Some(id) => format!("{path}.updateComponents.components[id='{id}']"),
                None => format!("{path}.updateComponents.components[{idx}]"),
            };
            if !comp.is_object() {
                errors.push(format!("{}: Component is not an object", comp_path()));
                continue;
            }
            let kind = match comp.get("component") {
                Some(kind) if truthy(kind) => kind,
                _ => {
                    errors.push(format!("{}: Missing 'component' field", comp_path()));
                    continue;
                }
            };
            let Some(known) = known else {
                errors.push(format!(
                    "{}: Catalog schema or components missing",
                    comp_path()
                ));
                continue;
            };
            let schema = kind
                .as_str()
                .filter(|k| known.get(*k).is_some_and(truthy))
                .and_then(|k| compiled.get(k));
            match schema {
                Some(schema) if schema.is_valid(comp) => {}
                Some(schema) => push_schema_errors(schema, comp, &comp_path(), errors),
                None => {
                    let name = kind.as_str().map_or_else(|| py_repr(kind), str::to_owned);
                    errors.push(format!("{}: Unknown component: {name}", comp_path()));
                }
            }
        }
    }

    fn check_integrity(&self, list: &[Value], strict: bool) -> Result<(), ValidationError> {
        let update_key = match self.catalog.version() {
            Version::V08 => "surfaceUpdate",
            Version::V09 => "updateComponents",
        };
        for message in list {
            let Value::Object(map) = message else {
                continue;
            };
            if let Some(Value::Object(update)) = map.get(update_key) {
                if let Some(Value::Array(components)) = update.get("components") {
                    if !components.is_empty() {
                        let surface = update.get("surfaceId").and_then(Value::as_str);
                        let root = find_root_id(list, surface);
                        check_components(&self.catalog, root.as_deref(), components, !strict)?;
                        check_topology(&self.catalog, root.as_deref(), components, strict)?;
                    }
                }
            }
            check_depth_and_paths(message)?;
        }
        Ok(())
    }
}

/// The message [`Validator::check_component`] checks a v0.8 component in, kept between calls.
#[derive(Debug, Default)]
pub(crate) struct CheckFrame {
    message: Option<Value>,
    /// For a surface, whether a message holding one component passes when that component
    /// passes alone (known once a component that passes alone was checked in a message).
    envelope: Option<(String, bool)>,
}

/// Checks a v0.8 `component` in the message `frame` keeps for `surface_id`; hands it back.
fn check_in_message(
    schema: &jsonschema::Validator,
    frame: &mut CheckFrame,
    surface_id: &str,
    component: Value,
) -> (Value, bool) {
    let message = frame.message_for(surface_id);
    match component_slot(message) {
        Some(slot) => {
            *slot = component;
            let ok = schema.is_valid(message);
            let back = component_slot(message).map_or(Value::Null, Value::take);
            (back, ok)
        }
        None => (component, false),
    }
}

impl CheckFrame {
    /// What [`CheckFrame::envelope`] knows for `surface_id`.
    fn envelope_for(&self, surface_id: &str) -> Option<bool> {
        match &self.envelope {
            Some((sid, ok)) if sid == surface_id => Some(*ok),
            _ => None,
        }
    }

    /// The kept message, made (again) when there is none yet or it is for another surface.
    fn message_for(&mut self, surface_id: &str) -> &mut Value {
        let kept = self
            .message
            .as_ref()
            .and_then(|m| m.get("surfaceUpdate")?.get("surfaceId"))
            .and_then(Value::as_str);
        if kept != Some(surface_id) {
            self.message = None;
        }
        self.message
            .get_or_insert_with(|| wrap_components(Version::V08, surface_id, vec![Value::Null]))
    }
}

/// `components` as the message that updates them on surface `sid`: a v0.8 `surfaceUpdate` or a
/// v0.9 `updateComponents`.
pub(crate) fn wrap_components(version: Version, sid: &str, components: Vec<Value>) -> Value {
    let mut update = Map::new();
    update.insert("surfaceId".to_owned(), Value::from(sid));
    update.insert("components".to_owned(), Value::Array(components));
    let mut message = Map::new();
    match version {
        Version::V08 => {
            message.insert("surfaceUpdate".to_owned(), Value::Object(update));
        }
        Version::V09 => {
            message.insert("version".to_owned(), Value::from("v0.9"));
            message.insert("updateComponents".to_owned(), Value::Object(update));
        }
    }
    Value::Object(message)
}

/// The component slot of the one-component v0.8 update [`CheckFrame`] keeps.
fn component_slot(message: &mut Value) -> Option<&mut Value> {
    message
        .get_mut("surfaceUpdate")?
        .get_mut("components")?
        .get_mut(0)
}

impl Catalog {
    /// Compiles a [`Validator`] for this catalog (the same as [`Validator::new`]).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use serde_json::json;
    /// let catalog = Catalog::new(Version::V08, json!(null), json!({"components": {}}), json!({}));
    /// assert!(catalog.validator()?.validate(&json!([{"deleteSurface": {"surfaceId": "s"}}])).is_ok());
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn validator(&self) -> Result<Validator, ValidationError> {
        Validator::new(self)
    }
}

/// Python's notion of truth for the values the checks look at.
pub(crate) fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

fn is_empty_schema(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

fn schema_error(e: impl fmt::Display) -> ValidationError {
    ValidationError::new(format!("Invalid schema: {e}"))
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
fn compile_v08(
    catalog: &Catalog,
) -> Result<(Option<jsonschema::Validator>, MessageShape), ValidationError> {
    let s2c = catalog.s2c_schema();
    if is_empty_schema(s2c) {
        let shape = MessageShape {
            entries_apart: true,
            entry_text_free: true,
            component: None,
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
    let component = match message_schema.pointer(COMPONENT_POINTER) {
        Some(item) if components_apart(&message_schema) && !refers(&message_schema) => Some(
            jsonschema::options()
                .with_draft(Draft::Draft202012)
                .build(item)
                .map_err(schema_error)?,
        ),
        _ => None,
    };
    let shape = MessageShape {
        entries_apart: entries_apart(&message_schema),
        entry_text_free: entry_text_free(&message_schema),
        component,
    };
    Ok((Some(compiled), shape))
}

/// Whether `schema` (a v0.8 message schema) checks each entry of a `dataModelUpdate`'s
/// `contents` on its own: the list's schema says only `type` and `items`, and the schemas above
/// it (the message, the update) only list properties, so no keyword sees two entries together
/// or an entry together with another member. Anything else (`$ref`, combinators, conditionals,
/// `minItems`, `uniqueItems`, unknown keywords) answers no.
fn entries_apart(schema: &Value) -> bool {
    plain_list(schema, "dataModelUpdate", "contents", &["type", "items"]).is_some_and(|list| {
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
struct MessageShape {
    /// See [`entries_apart`].
    entries_apart: bool,
    /// See [`entry_text_free`].
    entry_text_free: bool,
    /// See [`Compiled::V08::component`].
    component: Option<jsonschema::Validator>,
}

/// Where a v0.8 message schema says what one component of a `surfaceUpdate` is.
const COMPONENT_POINTER: &str = "/properties/surfaceUpdate/properties/components/items";

/// Whether `schema` (a v0.8 message schema) checks a component of a `surfaceUpdate` that holds
/// only that one on its own: the list's schema says only `type`, `items` and at most
/// `"minItems": 1`, and the schemas above it (the message, the update) only list properties.
/// The verdict on such a message is then the verdict on the rest of it and on the component
/// alone. Anything else (`$ref`, combinators, conditionals, `maxItems: 0`, unknown keywords)
/// answers no.
fn components_apart(schema: &Value) -> bool {
    let allowed = ["type", "items", "minItems"];
    plain_list(schema, "surfaceUpdate", "components", &allowed).is_some_and(|list| {
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
fn refers(schema: &Value) -> bool {
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
fn only(schema: Option<&Value>, allowed: &[&str]) -> bool {
    schema.and_then(Value::as_object).is_some_and(|map| {
        map.keys()
            .all(|k| allowed.contains(&k.as_str()) || ANNOTATIONS.contains(&k.as_str()))
    })
}

/// Whether the entry schema of a v0.8 `dataModelUpdate`'s `contents` (`schema` being the message
/// schema) cannot tell two `valueString` texts apart: it says only [`LISTING`] keywords, and
/// the schema listed for `valueString` says only `"type": "string"`. Anything else (`$ref`,
/// combinators, `pattern`, `enum`, `maxLength`, unknown keywords) answers no.
fn entry_text_free(schema: &Value) -> bool {
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

fn compile_v09(catalog: &Catalog) -> Result<Compiled, ValidationError> {
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
        (catalog_uri.clone(), with_draft(catalog.catalog_schema())),
    ];
    if !is_empty_schema(s2c) {
        resources.push((s2c_uri.clone(), with_draft(s2c)));
    }
    if let Some(id) = catalog.catalog_id() {
        if id != catalog_uri && (id.starts_with("https://") || id.starts_with("http://")) {
            resources.push((id.to_owned(), with_draft(catalog.catalog_schema())));
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

fn push_schema_errors(
    schema: &jsonschema::Validator,
    instance: &Value,
    base: &str,
    out: &mut Vec<String>,
) {
    if schema.is_valid(instance) {
        return;
    }
    for err in schema.iter_errors(instance) {
        let path = dotted_path(err.instance_path().as_str());
        let mut message = describe(&err);
        let closed = message.contains("Unevaluated properties are not allowed")
            || message.contains("Additional properties are not allowed");
        if closed {
            if let (Some(open), Some(close)) = (message.find('('), message.rfind(')')) {
                if open < close {
                    message = message.get(open + 1..close).unwrap_or_default().to_owned();
                }
            }
        }
        if path.is_empty() {
            out.push(format!("{base}: {message}"));
        } else {
            out.push(format!("{base}.{path}: {message}"));
        }
    }
}

/// `/a/0/b~1c` as `a.0.b/c`.
fn dotted_path(pointer: &str) -> String {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect::<Vec<_>>()
        .join(".")
}

fn sub_errors(kind: &ValidationErrorKind) -> Vec<&jsonschema::ValidationError<'static>> {
    match kind {
        ValidationErrorKind::AnyOf { context }
        | ValidationErrorKind::OneOfNotValid { context }
        | ValidationErrorKind::OneOfMultipleValid { context } => context.iter().flatten().collect(),
        _ => Vec::new(),
    }
}

/// One schema error in the words of Python's `jsonschema`.
fn describe(err: &jsonschema::ValidationError<'_>) -> String {
    let instance: &Value = err.instance();
    let inst = py_repr(instance);
    match err.kind() {
        ValidationErrorKind::Required { property } => {
            format!("{} is a required property", py_repr(property))
        }
        ValidationErrorKind::Type { kind } => {
            let names: Vec<String> = match kind {
                TypeKind::Single(t) => vec![format!("'{t}'")],
                TypeKind::Multiple(set) => set.iter().map(|t| format!("'{t}'")).collect(),
            };
            format!("{inst} is not of type {}", names.join(", "))
        }
        ValidationErrorKind::Constant { expected_value } => {
            format!("{} was expected", py_repr(expected_value))
        }
        ValidationErrorKind::Enum { options } => {
            format!("{inst} is not one of {}", py_repr(options))
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            format!(
                "Additional properties are not allowed ({})",
                unexpected_list(unexpected)
            )
        }
        ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            format!(
                "Unevaluated properties are not allowed ({})",
                unexpected_list(unexpected)
            )
        }
        ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. } => {
            format!("{inst} is not valid under any of the given schemas")
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => {
            format!("{inst} is valid under each of more than one of the given schemas")
        }
        ValidationErrorKind::MinItems { limit } | ValidationErrorKind::MinLength { limit } => {
            if *limit == 1 {
                format!("{inst} should be non-empty")
            } else {
                format!("{inst} is too short")
            }
        }
        ValidationErrorKind::MaxItems { limit } | ValidationErrorKind::MaxLength { limit } => {
            if *limit == 0 {
                format!("{inst} is expected to be empty")
            } else {
                format!("{inst} is too long")
            }
        }
        ValidationErrorKind::MinProperties { limit } => {
            if *limit == 1 {
                format!("{inst} should be non-empty")
            } else {
                format!("{inst} does not have enough properties")
            }
        }
        ValidationErrorKind::MaxProperties { limit } => {
            if *limit == 0 {
                format!("{inst} is expected to be empty")
            } else {
                format!("{inst} has too many properties")
            }
        }
        ValidationErrorKind::Pattern { pattern } => {
            format!(
                "{inst} does not match {}",
                py_repr(&Value::String(pattern.clone()))
            )
        }
        ValidationErrorKind::Minimum { limit } => {
            format!("{inst} is less than the minimum of {}", py_repr(limit))
        }
        ValidationErrorKind::Maximum { limit } => {
            format!("{inst} is greater than the maximum of {}", py_repr(limit))
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!(
                "{inst} is less than or equal to the minimum of {}",
                py_repr(limit)
            )
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!(
                "{inst} is greater than or equal to the maximum of {}",
                py_repr(limit)
            )
        }
        ValidationErrorKind::Format { format } => {
            format!(
                "{inst} is not a {}",
                py_repr(&Value::String(format.clone()))
            )
        }
        ValidationErrorKind::UniqueItems => format!("{inst} has non-unique elements"),
        ValidationErrorKind::FalseSchema => format!("False schema does not allow {inst}"),
        ValidationErrorKind::Not { schema } => {
            format!("{inst} should not be valid under {}", py_repr(schema))
        }
        ValidationErrorKind::Contains => {
            format!("{inst} does not contain items matching the given schema")
        }
        ValidationErrorKind::PropertyNames { error } => describe(error),
        _ => err.to_string(),
    }
}

fn unexpected_list(names: &[String]) -> String {
    let quoted: Vec<String> = names
        .iter()
        .map(|n| py_repr(&Value::String(n.clone())))
        .collect();
    let verb = if quoted.len() == 1 { "was" } else { "were" };
    format!("{} {verb} unexpected", quoted.join(", "))
}

/// A JSON value written as Python's `repr` writes the equivalent Python value
/// (`'text'`, `True`, `None`, `{'k': 1}`), as the reference error messages quote values.
///
/// ```
/// use a2ui_stream::official::validator::py_repr;
/// use serde_json::json;
/// assert_eq!(py_repr(&json!({"a": [1, true, null, "it's"]})), r#"{'a': [1, True, None, "it's"]}"#);
/// ```
pub fn py_repr(value: &Value) -> String {
    let mut out = String::new();
    write_repr(value, &mut out);
    out
}

fn write_repr(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => {
            if n.is_f64() {
                match n.as_f64() {
                    Some(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e16 => {
                        let _ = write!(out, "{f:.1}");
                    }
                    Some(f) => {
                        let _ = write!(out, "{f}");
                    }
                    None => {
                        let _ = write!(out, "{n}");
                    }
                }
            } else {
                let _ = write!(out, "{n}");
            }
        }
        Value::String(s) => {
            let quote = if s.contains('\'') && !s.contains('"') {
                '"'
            } else {
                '\''
            };
            out.push(quote);
            for c in s.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if c == quote => {
                        out.push('\\');
                        out.push(c);
                    }
                    c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                        let _ = write!(out, "\\x{:02x}", c as u32);
                    }
                    c => out.push(c),
                }
            }
            out.push(quote);
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(&Value::String(k.clone()), out);
                out.push_str(": ");
                write_repr(v, out);
            }
            out.push('}');
        }
    }
}

/// The root component id of surface `surface_id` as `messages` declare it: the `root` of its
/// `beginRendering` (v0.8; `root` when absent), or `root` when a `createSurface` for it is
/// present (v0.9). `None` when the list does not begin the surface (an incremental update).
/// With `surface_id` `None`, the first surface begun counts.
///
/// ```
/// use a2ui_stream::official::validator::find_root_id;
/// use serde_json::json;
/// let msgs = [json!({"beginRendering": {"surfaceId": "a", "root": "top"}})];
/// assert_eq!(find_root_id(&msgs, Some("a")).as_deref(), Some("top"));
/// assert_eq!(find_root_id(&msgs, Some("b")), None);
/// ```
pub fn find_root_id(messages: &[Value], surface_id: Option<&str>) -> Option<String> {
    let surface_matches = |body: &Value| match surface_id {
        Some(sid) if !sid.is_empty() => body.get("surfaceId").and_then(Value::as_str) == Some(sid),
        _ => true,
    };
    for message in messages {
        if let Some(begin) = message.get("beginRendering") {
            if !surface_matches(begin) {
                continue;
            }
            let root = begin.get("root").and_then(Value::as_str);
            return Some(root.unwrap_or(DEFAULT_ROOT).to_owned());
        }
        if let Some(create) = message.get("createSurface") {
            if !surface_matches(create) {
                continue;
            }
            return Some(DEFAULT_ROOT.to_owned());
        }
    }
    None
}

fn id_of(component: &Value) -> Option<String> {
    match component.get("id")? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

fn id_text(component: &Value) -> String {
    id_of(component).unwrap_or_else(|| "None".to_owned())
}

/// Checks one component list: ids unique; and unless `skip_root_check` or `root_id` is `None`,
/// the root present and every reference pointing at a component of the list.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::validator::check_components;
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V09, json!(null), json!({}), json!({}));
/// let comps = [json!({"id": "root", "component": "Card", "child": "x"})];
/// let err = check_components(&catalog, Some("root"), &comps, false).unwrap_err();
/// assert_eq!(err.message(), "Component 'root' references non-existent component 'x' in field 'child'");
/// assert!(check_components(&catalog, None, &comps, false).is_ok());
/// ```
pub fn check_components(
    catalog: &Catalog,
    root_id: Option<&str>,
    components: &[Value],
    skip_root_check: bool,
) -> Result<(), ValidationError> {
    let mut ids = HashSet::new();
    for comp in components {
        if let Some(id) = id_of(comp) {
            if ids.contains(&id) {
                return Err(ValidationError::new(format!(
                    "Duplicate component ID: {id}"
                )));
            }
            ids.insert(id);
        }
    }
    let Some(root) = root_id else { return Ok(()) };
    if skip_root_check {
        return Ok(());
    }
    if !ids.contains(root) {
        return Err(ValidationError::new(format!(
            "Missing root component: No component has id='{root}'"
        )));
    }
    for comp in components {
        let mut dangling = None;
        catalog.for_each_reference(comp, |r, field| {
            if dangling.is_none() && !ids.contains(r) {
                dangling = Some((r, field));
            }
        });
        if let Some((r, field)) = dangling {
            return Err(ValidationError::new(format!(
                "Component '{}' references non-existent component '{r}' in field '{field}'",
                id_text(comp),
            )));
        }
    }
    Ok(())
}

/// Walks the component graph of one list: fails on a self-reference, a cycle, or a chain deeper
/// than [`MAX_GLOBAL_DEPTH`]; with `raise_on_orphans`, also on a component not reachable from
/// `root_id`. Returns the ids reached from the root (from every component when `root_id` is
/// `None`), including referenced ids that the list does not define.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::validator::analyze_topology;
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V09, json!(null), json!({}), json!({}));
/// let comps = [json!({"id": "root", "component": "Column", "children": ["a"]}),
///              json!({"id": "a", "component": "Text"}),
///              json!({"id": "lost", "component": "Text"})];
/// let reached = analyze_topology(&catalog, Some("root"), &comps, false)?;
/// assert!(reached.contains("a") && !reached.contains("lost"));
/// let err = analyze_topology(&catalog, Some("root"), &comps, true).unwrap_err();
/// assert_eq!(err.message(), "Component 'lost' is not reachable from 'root'");
/// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
/// ```
pub fn analyze_topology(
    catalog: &Catalog,
    root_id: Option<&str>,
    components: &[Value],
    raise_on_orphans: bool,
) -> Result<BTreeSet<String>, ValidationError> {
    let graph = Graph::new(catalog, components)?;
    let reached = graph.walk(root_id, raise_on_orphans)?;
    Ok(reached.into_iter().map(str::to_owned).collect())
}

/// [`analyze_topology`] without handing out what was reached.
fn check_topology(
    catalog: &Catalog,
    root_id: Option<&str>,
    components: &[Value],
    raise_on_orphans: bool,
) -> Result<(), ValidationError> {
    Graph::new(catalog, components)?
        .walk(root_id, raise_on_orphans)
        .map(drop)
}

/// The references of a list of components, by id, borrowed from the list (an id that is not a
/// string is written out).
struct Graph<'v> {
    adjacency: BTreeMap<Cow<'v, str>, Vec<&'v str>>,
}

impl<'v> Graph<'v> {
    /// Fails on the first component that refers to itself.
    fn new(catalog: &Catalog, components: &'v [Value]) -> Result<Graph<'v>, ValidationError> {
        let mut adjacency: BTreeMap<Cow<'v, str>, Vec<&'v str>> = BTreeMap::new();
        for comp in components {
            let id: Cow<'v, str> = match comp.get("id") {
                None | Some(Value::Null) => continue,
                Some(Value::String(s)) => Cow::Borrowed(s.as_str()),
                Some(other) => Cow::Owned(other.to_string()),
            };
            let mut self_field = None;
            let mut refs = Vec::new();
            catalog.for_each_reference(comp, |r, field| {
                if r == id {
                    self_field.get_or_insert(field);
                } else if self_field.is_none() {
                    refs.push(r);
                }
            });
            if let Some(field) = self_field {
                return Err(ValidationError::new(format!(
                    "Self-reference detected: Component '{id}' references itself in field '{field}'"
                ))
                .in_component(&id));
            }
            adjacency.entry(id).or_default().extend(refs);
        }
        Ok(Graph { adjacency })
    }

    /// The ids reached from `root_id` (from every component when `None`); fails on a cycle, a
    /// chain too deep, or (with `raise_on_orphans`) a component not reached from the root.
    fn walk(
        &self,
        root_id: Option<&str>,
        raise_on_orphans: bool,
    ) -> Result<BTreeSet<&str>, ValidationError> {
        let mut walk = Walk {
            adjacency: &self.adjacency,
            visited: BTreeSet::new(),
            on_path: QuickSet::default(),
        };
        match root_id {
            Some(root) => {
                if let Some((root, _)) = self.adjacency.get_key_value(root) {
                    walk.visit(root, 0, root)?;
                }
                if raise_on_orphans {
                    if let Some(orphan) = self
                        .adjacency
                        .keys()
                        .find(|id| !walk.visited.contains(id.as_ref()))
                    {
                        return Err(ValidationError::new(format!(
                            "Component '{orphan}' is not reachable from '{root}'"
                        )));
                    }
                }
            }
            None => {
                for id in self.adjacency.keys() {
                    if !walk.visited.contains(id.as_ref()) {
                        walk.visit(id, 0, id)?;
                    }
                }
            }
        }
        Ok(walk.visited)
    }
}

struct Walk<'g> {
    adjacency: &'g BTreeMap<Cow<'g, str>, Vec<&'g str>>,
    visited: BTreeSet<&'g str>,
    on_path: QuickSet<&'g str>,
}

impl<'g> Walk<'g> {
    /// Depth-first visit of `id`, reached from `parent` (`id` itself at the start); recursion
    /// is bounded by [`MAX_GLOBAL_DEPTH`].
    fn visit(&mut self, id: &'g str, depth: usize, parent: &str) -> Result<(), ValidationError> {
        if depth > MAX_GLOBAL_DEPTH {
            return Err(ValidationError::new(format!(
                "Global recursion limit exceeded: logical depth > {MAX_GLOBAL_DEPTH}"
            ))
            .in_component(parent));
        }
        self.visited.insert(id);
        self.on_path.insert(id);
        if let Some(next) = self.adjacency.get(id) {
            for &n in next {
                if !self.visited.contains(n) {
                    self.visit(n, depth + 1, id)?;
                } else if self.on_path.contains(n) {
                    return Err(ValidationError::new(format!(
                        "Circular reference detected involving component '{n}'"
                    ))
                    .in_component(n));
                }
            }
        }
        self.on_path.remove(id);
        Ok(())
    }
}

/// Whether `path` is acceptable as a data path: absolute (`/a/b`) or relative (`a/b`), where
/// every `~` is an escape `~0` or `~1` as in JSON Pointer.
///
/// ```
/// use a2ui_stream::official::validator::is_valid_data_path;
/// assert!(is_valid_data_path("/items/0/name"));
/// assert!(is_valid_data_path("name"));
/// assert!(is_valid_data_path("/a~1b"));
/// assert!(!is_valid_data_path("/invalid/escape/~2"));
/// ```
pub fn is_valid_data_path(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes
        .iter()
        .enumerate()
        .all(|(i, b)| *b != b'~' || matches!(bytes.get(i + 1), Some(b'0' | b'1')))
}

/// Checks one message for nesting deeper than [`MAX_GLOBAL_DEPTH`], `functionCall`s (objects
/// with `call` and `args`) nested deeper than [`MAX_FUNC_CALL_DEPTH`], and `path` strings that
/// are not valid data paths.
///
/// ```
/// use a2ui_stream::official::validator::check_depth_and_paths;
/// use serde_json::json;
/// assert!(check_depth_and_paths(&json!({"text": {"path": "/ok"}})).is_ok());
/// let mut deep = json!({});
/// for _ in 0..60 { deep = json!({"next": deep}); }
/// assert!(check_depth_and_paths(&deep).unwrap_err().message().starts_with("Global recursion limit exceeded"));
/// ```
pub fn check_depth_and_paths(message: &Value) -> Result<(), ValidationError> {
    traverse(message, 0, 0)
}

fn traverse(item: &Value, depth: usize, calls: usize) -> Result<(), ValidationError> {
    if depth > MAX_GLOBAL_DEPTH {
        return Err(ValidationError::new(format!(
            "Global recursion limit exceeded: Depth > {MAX_GLOBAL_DEPTH}"
        )));
    }
    match item {
        Value::Array(items) => {
            for x in items {
                traverse(x, depth + 1, calls)?;
            }
        }
        Value::Object(map) => {
            // One look at each key finds the three that matter (cheaper than three look-ups in
            // the small objects messages are made of).
            let (mut path, mut call, mut args) = (None, false, false);
            for (k, v) in map {
                match k.as_str() {
                    "path" => path = Some(v),
                    "call" => call = true,
                    "args" => args = true,
                    _ => {}
                }
            }
            if let Some(Value::String(path)) = path {
                if !is_valid_data_path(path) {
                    return Err(ValidationError::new(format!(
                        "Invalid path syntax: '{path}'"
                    )));
                }
            }
            let is_call = call && args;
            if is_call && calls >= MAX_FUNC_CALL_DEPTH {
                return Err(ValidationError::new(format!(
                    "Recursion limit exceeded: functionCall depth > {MAX_FUNC_CALL_DEPTH}"
                )));
            }
            for (k, v) in map {
                let inner = if is_call && k == "args" {
                    calls + 1
                } else {
                    calls
                };
                traverse(v, depth + 1, inner)?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entry_texts_are_free_only_when_nothing_reads_them() {
        let schema = |entry: Value| {
            json!({"type": "object", "properties": {"dataModelUpdate": {"type": "object",
                "properties": {"contents": {"type": "array", "items": entry}}}}})
        };
        let entry = |text: Value| {
            json!({"type": "object", "required": ["key"], "additionalProperties": false,
                "description": "an entry",
                "properties": {"key": {"type": "string"}, "valueString": text}})
        };
        assert!(entry_text_free(&schema(entry(json!({"type": "string"})))));
        assert!(entry_text_free(&schema(entry(
            json!({"type": "string", "description": "any text"})
        ))));
        for text in [
            json!({"type": "string", "maxLength": 9}),
            json!({"type": "string", "pattern": "^a"}),
            json!({"type": "string", "enum": ["a"]}),
            json!({"type": "string", "format": "uri"}),
            json!({"type": ["string", "null"]}),
            json!({"$ref": "#/$defs/text"}),
            json!({}),
        ] {
            assert!(!entry_text_free(&schema(entry(text.clone()))), "{text}");
        }
        let mut named = entry(json!({"type": "string"}));
        named["oneOf"] = json!([{"required": ["valueString"]}]);
        assert!(!entry_text_free(&schema(named)));
        let mut patterned = entry(json!({"type": "string"}));
        patterned["patternProperties"] = json!({"^value": {"maxLength": 3}});
        assert!(!entry_text_free(&schema(patterned)));
        let mut unlisted = entry(json!({"type": "string"}));
        unlisted["properties"]
            .as_object_mut()
            .map(|p| p.remove("valueString"));
        assert!(!entry_text_free(&schema(unlisted)));
    }

    /// A v0.8 message schema with only the update `update`, its list `list` of schema `schema`,
    /// and `root_extra` beside the root's properties.
    fn message_with_list(
        update: &str,
        list: &str,
        schema: Value,
        root_extra: Option<(&str, Value)>,
    ) -> Value {
        let mut root = json!({"type": "object", "additionalProperties": false, "properties": {
            update: {"type": "object", "required": [list], "properties": {
                "surfaceId": {"type": "string"}, list: schema}}}});
        if let (Some((k, v)), Some(map)) = (root_extra, root.as_object_mut()) {
            map.insert(k.to_owned(), v);
        }
        root
    }

    #[test]
    fn entries_are_checked_apart_only_when_no_keyword_sees_the_list_whole() {
        let schema = |contents: Value, root_extra: Option<(&str, Value)>| {
            message_with_list("dataModelUpdate", "contents", contents, root_extra)
        };
        let items = json!({"type": "object", "required": ["key"]});
        assert!(entries_apart(&schema(
            json!({"type": "array", "items": items, "description": "d"}),
            None
        )));
        assert!(!entries_apart(&schema(
            json!({"type": "array", "items": items, "minItems": 1}),
            None
        )));
        assert!(!entries_apart(&schema(
            json!({"type": "array", "items": items, "uniqueItems": true}),
            None
        )));
        assert!(!entries_apart(&schema(
            json!({"$ref": "#/$defs/list"}),
            None
        )));
        assert!(!entries_apart(&schema(
            json!({"type": "array", "items": [items]}),
            None
        )));
        assert!(!entries_apart(&schema(
            json!({"type": "array", "items": items}),
            Some(("oneOf", json!([{}, {}])))
        )));
        assert!(!entries_apart(&json!({"type": "object"})));
    }

    #[test]
    fn components_are_checked_alone_only_when_no_keyword_sees_the_list_whole() {
        let schema = |components: Value, root_extra: Option<(&str, Value)>| {
            message_with_list("surfaceUpdate", "components", components, root_extra)
        };
        let items = json!({"type": "object", "required": ["id"]});
        for list in [
            json!({"type": "array", "items": items, "description": "d"}),
            json!({"type": "array", "items": items, "minItems": 1}),
            json!({"type": "array", "items": true}),
        ] {
            assert!(components_apart(&schema(list.clone(), None)), "{list}");
        }
        for list in [
            json!({"type": "array", "items": items, "minItems": 2}),
            json!({"type": "array", "items": items, "maxItems": 1}),
            json!({"type": "array", "items": items, "uniqueItems": true}),
            json!({"type": "array", "items": [items]}),
            json!({"type": "array"}),
            json!({"$ref": "#/$defs/list"}),
        ] {
            assert!(!components_apart(&schema(list.clone(), None)), "{list}");
        }
        let list = json!({"type": "array", "items": items});
        assert!(!components_apart(&schema(
            list.clone(),
            Some(("anyOf", json!([{}, {}])))
        )));
        assert!(!components_apart(&json!({"type": "object"})));
        assert!(!refers(&schema(list.clone(), None)));
        assert!(refers(&schema(
            json!({"type": "array", "items": {"$ref": "#/$defs/c"}}),
            None
        )));
        assert!(refers(&schema(
            list,
            Some(("$id", json!("https://x/s.json")))
        )));
    }

    #[test]
    fn a_component_checked_alone_gets_the_verdict_it_gets_in_a_message() {
        let catalog = Catalog::new(
            Version::V08,
            json!({"type": "object", "properties": {"surfaceUpdate": {"type": "object",
                "additionalProperties": false, "required": ["surfaceId", "components"], "properties": {
                "surfaceId": {"type": "string", "pattern": "^ok"},
                "components": {"type": "array", "minItems": 1, "items": {"type": "object",
                    "additionalProperties": false, "required": ["id", "component"], "properties": {
                    "id": {"type": "string"}, "weight": {"type": "number"},
                    "component": {"type": "object", "maxProperties": 1}}}}}}}}),
            json!({"components": {}}),
            json!({}),
        );
        let validator = Validator::new(&catalog).expect("compiles");
        assert!(matches!(
            validator.compiled,
            Compiled::V08 {
                component: Some(_),
                ..
            }
        ));
        let comps = [
            json!({"id": "bad", "weight": "heavy", "component": {"Text": {}}}),
            json!({"id": "a", "component": {"Text": {"text": {"literalString": "hi"}}}}),
            json!({"id": "b", "component": {"Text": {}, "Image": {}}}),
            json!({"id": "c"}),
            json!({"id": "d", "component": {"Text": {"text": {"path": "no//good"}}}}),
            json!({"id": "e", "component": {"Column": {"children": {"explicitList": ["e"]}}}}),
            json!({"id": "f", "weight": 2, "component": {"Row": {}}}),
        ];
        // Each surface is met first with a component that fails alone, and met again later.
        for sids in [["ok-1", "bad-1"], ["bad-2", "ok-2"]] {
            let mut frame = CheckFrame::default();
            for round in 0..2 {
                for sid in sids {
                    for comp in comps.iter().skip(round) {
                        let message =
                            json!({"surfaceUpdate": {"surfaceId": sid, "components": [comp]}});
                        let whole = validator.validate_with(&message, false).is_ok();
                        let (back, alone) =
                            validator.check_component(&mut frame, sid, comp.clone(), true);
                        assert_eq!(alone, whole, "{comp} on {sid}");
                        assert_eq!(&back, comp);
                    }
                }
            }
        }
    }

    #[test]
    fn an_update_passes_whole_exactly_when_it_passes_empty_and_entry_by_entry() {
        let catalog = Catalog::new(
            Version::V08,
            json!({"type": "object", "properties": {"dataModelUpdate": {"type": "object",
                "additionalProperties": false, "required": ["surfaceId", "contents"], "properties": {
                "surfaceId": {"type": "string"}, "path": {"type": "string"},
                "contents": {"type": "array", "items": {"type": "object", "required": ["key"],
                    "properties": {"key": {"type": "string"}, "valueNumber": {"type": "number"}}}}}}}}),
            json!({"components": {}}),
            json!({}),
        );
        let validator = Validator::new(&catalog).expect("compiles");
        assert!(validator.checks_entries_apart());
        let update = |entries: &[Value], path: &str| json!({"dataModelUpdate": {"surfaceId": "s", "path": path, "contents": entries}});
        let good = json!({"key": "a", "valueNumber": 1});
        let bad = json!({"key": "b", "valueNumber": "one"});
        let deep = json!({"key": "c", "valueMap": [{"key": "d", "path": "no//good"}]});
        for path in ["/", "not a path//"] {
            for entries in [
                vec![],
                vec![good.clone()],
                vec![good.clone(), bad.clone()],
                vec![deep.clone()],
            ] {
                let whole = validator
                    .validate_with(&update(&entries, path), false)
                    .is_ok();
                let apart = validator.validate_with(&update(&[], path), false).is_ok()
                    && entries.iter().all(|e| {
                        validator
                            .validate_with(&update(std::slice::from_ref(e), path), false)
                            .is_ok()
                    });
                assert_eq!(whole, apart, "{entries:?} at {path}");
            }
        }
    }

    #[test]
    fn repr_matches_python() {
        assert_eq!(py_repr(&json!(1.0)), "1.0");
        assert_eq!(py_repr(&json!(2.5)), "2.5");
        assert_eq!(py_repr(&json!("a\nb")), "'a\\nb'");
        assert_eq!(py_repr(&json!(["x", false])), "['x', False]");
    }

    #[test]
    fn cycle_without_root_is_found() {
        let catalog = Catalog::new(Version::V08, Value::Null, json!({}), json!({}));
        let comps = [
            json!({"id": "a", "component": {"Card": {"child": "b"}}}),
            json!({"id": "b", "component": {"Card": {"child": "a"}}}),
        ];
        let err = analyze_topology(&catalog, None, &comps, false).unwrap_err();
        assert!(err.message().starts_with("Circular reference detected"));
    }

    #[test]
    fn deep_input_does_not_overflow() {
        let mut deep = json!(1);
        for _ in 0..200 {
            deep = json!([deep]);
        }
        assert!(check_depth_and_paths(&deep).is_err());
    }

    #[test]
    fn v09_unknown_component_and_message() {
        let catalog = Catalog::new(
            Version::V09,
            Value::Null,
            json!({"components": {"Text": {"type": "object"}}}),
            json!({}),
        );
        let v = Validator::new(&catalog).unwrap();
        let err = v
            .validate(
                &json!([{"version": "v0.9", "updateComponents": {"surfaceId": "s",
                "components": [{"id": "x", "component": "Nope"}]}}, {"hello": 1}]),
            )
            .unwrap_err();
        assert_eq!(
            err.message(),
            "Validation failed:\n  - messages[0].updateComponents.components[id='x']: Unknown component: Nope\n  - messages[1]: Unknown message type with keys ['hello']"
        );
    }
}
