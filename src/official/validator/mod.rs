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
//!    `'v0.9' was expected`, ...). v1.0: as v0.9, with its six messages (`callRendererFunction`
//!    and `agentFunctionResponse` too) and the components a `createSurface` may carry; each
//!    component is checked as the message schema's `Component` definition says (the common
//!    members, its catalog schema, nothing else), its id must be a Unicode identifier (UAX #31)
//!    and a `catalogId` it names must be the catalog's; every fault is also a detail with a
//!    place and a code ([`ValidationError::details`]).
//! 2. **Integrity**, for every component list: `Duplicate component ID: <id>`, `Missing root
//!    component: No component has id='<root>'`, `Component '<a>' references non-existent
//!    component '<b>' in field '<f>'`, `Self-reference detected: ...`, `Circular reference
//!    detected involving component '<id>'`, `Component '<id>' is not reachable from '<root>'`,
//!    `Global recursion limit exceeded: logical depth > 50`; and for every message
//!    `Global recursion limit exceeded: Depth > 50`, `Recursion limit exceeded: functionCall
//!    depth > 5` and `Invalid path syntax: '<path>'`.
//!
//! The root of a surface is named by its `beginRendering` (v0.8) or is `root` once a
//! `createSurface` (v0.9, v1.0) for it is in the same list; the components a v1.0
//! `createSurface` carries are a list begun from `root`. v1.0 binds data with `@path` and calls
//! functions with `@call`, whose paths and depth are checked as `path` and `call` are. A component list whose surface is not
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

use std::collections::HashMap;
use std::fmt::{self, Write as _};

use serde_json::{Map, Value};

use super::catalog::{Catalog, Version};
use crate::hash::QuickMap;

mod compile;
mod describe;
mod error;
mod free;
mod paths;
mod rejoin;
mod topology;
mod v10;

use crate::MessageKind;
use compile::{compile_v08, compile_v09, compile_v10};
use describe::{describe, push_schema_errors, py_repr, sub_errors};
pub use error::{DetailCode, ErrorDetail, ValidationError, ValidationErrorKind};
// The short name of the kind inside the validator.
use error::ValidationErrorKind as ErrorKind;
use free::Plain;
#[cfg(feature = "legacy")]
pub(crate) use free::{Likeness, Slot};
#[cfg(test)]
pub(crate) use paths::check_depth_and_paths;
use paths::{Keys, traverse};
pub use rejoin::rejoin;
#[cfg(test)]
use topology::analyze_topology;
#[cfg(feature = "legacy")]
use topology::id_of;
use topology::{check_components, check_topology, find_root_id};

/// How deep components may nest, and how deep any message may be, before validation fails.
pub(crate) const MAX_GLOBAL_DEPTH: usize = 50;
/// How deeply `functionCall`s may nest inside each other's `args`.
pub(crate) const MAX_FUNC_CALL_DEPTH: usize = 5;

const DEFAULT_ROOT: &str = "root";
const DEFAULT_BASE: &str = "https://a2ui.org/";

/// Checks A2UI messages against a [`Catalog`]; see the [module documentation](self).
///
/// Schemas are compiled once, in [`Validator::new`]; validating is then cheap enough to run on
/// every message of a stream.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::validator::Validator;
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V09, json!(null), json!({"components": {
///     "Text": {"type": "object", "properties": {"text": {"type": "string"}}}}}), json!(null));
/// let validator = Validator::new(&catalog)?;
/// let ui = json!([
///     {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
///     {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
///         {"id": "root", "component": "Text", "text": "Hello"}]}}]);
/// assert!(validator.validate(&ui).is_ok());
/// let orphan = json!([
///     {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
///     {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
///         {"id": "root", "component": "Text", "text": "Hello"},
///         {"id": "stray", "component": "Text", "text": "Nobody shows me"}]}}]);
/// assert_eq!(validator.validate(&orphan).unwrap_err().message(),
///     "Component 'stray' is not reachable from 'root'");
/// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
/// ```
pub struct Validator {
    catalog: Catalog,
    compiled: Compiled,
}

enum Compiled {
    V08 {
        /// The message schema with the catalog's components put in place.
        message: Option<jsonschema::Validator>,
        /// See [`Validator::checks_entries_apart`].
        #[cfg_attr(not(feature = "legacy"), allow(dead_code))]
        entries_apart: bool,
        /// See [`Validator::entry_text_is_free`].
        #[cfg_attr(not(feature = "legacy"), allow(dead_code))]
        entry_text_free: bool,
        /// The schema of one entry of a `surfaceUpdate`'s `components`, compiled alone, when
        /// the message schema checks each component on its own and refers to nothing (see
        /// [`components_apart`](compile::components_apart)); `None`: components are checked inside a message.
        #[cfg_attr(not(feature = "legacy"), allow(dead_code))]
        component: Option<jsonschema::Validator>,
        /// The schema of one component as far as it is plain (see [`Plain`]), when
        /// `component` is there: which of a component's strings its check cannot tell apart.
        #[cfg_attr(not(feature = "legacy"), allow(dead_code))]
        plain: Option<Plain>,
    },
    V09 {
        has_s2c: bool,
        messages: HashMap<&'static str, jsonschema::Validator>,
        components: QuickMap<String, jsonschema::Validator>,
    },
    /// As v0.9, each message and each component on its own (see [`compile::compile_v10`]).
    V10 {
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
/// The v1.0 message definitions, by the key that marks the message, in the order a message's
/// kind is looked for.
const V10_MESSAGE_DEFS: [(MessageKind, &str); 6] = [
    (MessageKind::CreateSurface, "CreateSurfaceMessage"),
    (MessageKind::UpdateComponents, "UpdateComponentsMessage"),
    (MessageKind::UpdateDataModel, "UpdateDataModelMessage"),
    (MessageKind::DeleteSurface, "DeleteSurfaceMessage"),
    (
        MessageKind::CallRendererFunction,
        "CallRendererFunctionMessage",
    ),
    (
        MessageKind::AgentFunctionResponse,
        "AgentFunctionResponseMessage",
    ),
];

const V09_MESSAGE_DEFS: [(MessageKind, &str); 3] = [
    (MessageKind::CreateSurface, "CreateSurfaceMessage"),
    (MessageKind::UpdateDataModel, "UpdateDataModelMessage"),
    (MessageKind::DeleteSurface, "DeleteSurfaceMessage"),
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
                    plain: shape.plain,
                }
            }
            Version::V09 => compile_v09(catalog)?,
            Version::V10 => compile_v10(catalog)?,
        };
        Ok(Validator {
            catalog: catalog.unshared(),
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
                        return Err(ValidationError::new(ErrorKind::Schema, msg));
                    }
                }
            }
            Compiled::V09 {
                has_s2c,
                messages: defs,
                components,
            } => self.check_v09_schemas(list, *has_s2c, defs, components)?,
            Compiled::V10 {
                has_s2c,
                messages: defs,
                components,
            } => self.check_v10_schemas(list, *has_s2c, defs, components)?,
        }
        self.check_integrity(list, strict_integrity)
    }

    #[cfg(feature = "legacy")]
    /// Whether a v0.8 `dataModelUpdate` passes [`validate_with`](Self::validate_with) (without
    /// strict integrity) exactly when the same update with no entries passes and, for each of
    /// its entries, the same update with only that entry passes. True when nothing in the
    /// message schema looks at the `contents` list as a whole (decided once, from the schema's
    /// shape); the integrity checks (depth, paths) always look at one entry at a time. The
    /// progressive parser then checks each entry of an update being written once, when it is
    /// finished.
    pub(crate) fn checks_entries_apart(&self) -> bool {
        matches!(
            self.compiled,
            Compiled::V08 {
                entries_apart: true,
                ..
            }
        )
    }

    #[cfg(feature = "legacy")]
    /// Whether, on top of [`checks_entries_apart`](Self::checks_entries_apart), the verdict on
    /// an entry of exactly `key` and `valueString` does not depend on what the string says: the
    /// entry schema only lists properties, and the schema of `valueString` only asks for a
    /// string (decided once, from the schema's shape). The integrity checks look only at `path`
    /// strings. The progressive parser then checks the entry being written again only when
    /// more than its string changed.
    pub(crate) fn entry_text_is_free(&self) -> bool {
        matches!(
            self.compiled,
            Compiled::V08 {
                entries_apart: true,
                entry_text_free: true,
                ..
            }
        )
    }

    #[cfg(feature = "legacy")]
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
            Compiled::V10 { components, .. } => {
                let ok = v10::component_passes(self, components, &component);
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
        let keys = Keys::of(self.catalog.version());
        let ok = !self_reference && traverse(&component, 3, 0, keys).is_ok();
        (component, ok)
    }

    #[cfg(feature = "legacy")]
    /// How components `a` and `b` compare for [`check_component`](Self::check_component), for
    /// one surface and not asked to look for a self-reference: [`Likeness::Free`] when they
    /// differ only in strings that the schema of a component only asks to be strings, reached
    /// through schemas that only list members and items (decided once, from the schema's
    /// shape), none of them a data path; the check then surely gives both the same verdict
    /// (the depth and path checks see the same in both). Without such a schema (v0.9, or a
    /// schema that is not plain) only [`Likeness::Same`] or [`Likeness::Other`].
    pub(crate) fn likeness(&self, a: &Value, b: &Value) -> Likeness {
        Plain::compare(self.plain(), a, b)
    }

    #[cfg(feature = "legacy")]
    /// Whether every string of `component` under a member named in `keys` (or an item of a
    /// list there), anywhere in it, is free as [`likeness`](Self::likeness) reads it: the
    /// component with any of those strings changed gets the verdict it got before. It depends
    /// only on where the strings are, not on what they say.
    pub(crate) fn free_under(&self, component: &Value, keys: &[&str]) -> bool {
        self.plain()
            .is_some_and(|plain| Plain::free_under(Some(plain), component, keys))
    }

    #[cfg(feature = "legacy")]
    /// Whether a string in a component, under member `then` of the object at `path` in it,
    /// is free as [`likeness`](Self::likeness) reads it: a component changed only there gets
    /// the verdict it got before. With `then` `None`, the string is the last item of the list
    /// at `path`, and a component that only gained it (the list held an item before) gets the
    /// verdict it got before too: the list's schema only asks each item to be a string.
    pub(crate) fn free_at(&self, path: &[Slot], then: Option<&str>) -> bool {
        self.plain().is_some_and(|plain| plain.free_at(path, then))
    }

    #[cfg(feature = "legacy")]
    /// The plain schema of a v0.8 component ([`Compiled::V08::plain`]), when there is one.
    fn plain(&self) -> Option<&Plain> {
        match &self.compiled {
            Compiled::V08 { plain, .. } => plain.as_ref(),
            Compiled::V09 { .. } | Compiled::V10 { .. } => None,
        }
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
            if map.contains_key(MessageKind::UpdateComponents.key()) {
                self.update_components_errors(map, &path, components, &mut errors);
                continue;
            }
            let Some((_, def)) = V09_MESSAGE_DEFS
                .iter()
                .find(|(kind, _)| map.contains_key(kind.key()))
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
                    return Err(ValidationError::new(
                        ErrorKind::InvalidSchema,
                        format!("Definition {def} not found in schema"),
                    ));
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
            Err(ValidationError::new(ErrorKind::Schema, msg))
        }
    }

    fn update_components_errors(
        &self,
        message: &Map<String, Value>,
        path: &str,
        compiled: &QuickMap<String, jsonschema::Validator>,
        errors: &mut Vec<String>,
    ) {
        let tag = self.catalog.version().message_tag();
        if message.get("version").and_then(Value::as_str) != Some(tag) {
            errors.push(format!("{path}: Invalid version, expected '{tag}'"));
        }
        let Some(Value::Object(update)) = message.get(MessageKind::UpdateComponents.key()) else {
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
        let update_key = self.catalog.version().components().key();
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
            if self.catalog.version() == Version::V10 {
                // A surface created with its components: the list begins it, from `root`.
                if let Some(components) = v10::inline_components(map) {
                    check_components(&self.catalog, Some(DEFAULT_ROOT), components, !strict)?;
                    check_topology(&self.catalog, Some(DEFAULT_ROOT), components, strict)?;
                }
            }
            traverse(message, 0, 0, Keys::of(self.catalog.version()))?;
        }
        Ok(())
    }
}

#[cfg(feature = "legacy")]
/// The message [`Validator::check_component`] checks a v0.8 component in, kept between calls.
#[derive(Debug, Default)]
pub(crate) struct CheckFrame {
    message: Option<Value>,
    /// For a surface, whether a message holding one component passes when that component
    /// passes alone (known once a component that passes alone was checked in a message).
    envelope: Option<(String, bool)>,
}

#[cfg(feature = "legacy")]
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

#[cfg(feature = "legacy")]
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
            .and_then(|m| m.get(MessageKind::SurfaceUpdate.key())?.get("surfaceId"))
            .and_then(Value::as_str);
        if kept != Some(surface_id) {
            self.message = None;
        }
        self.message
            .get_or_insert_with(|| wrap_components(Version::V08, surface_id, vec![Value::Null]))
    }
}

#[cfg(feature = "legacy")]
/// `components` as the message that updates them on surface `sid`: a v0.8 `surfaceUpdate` or a
/// v0.9 `updateComponents`.
pub(crate) fn wrap_components(version: Version, sid: &str, components: Vec<Value>) -> Value {
    let mut update = Map::new();
    update.insert("surfaceId".to_owned(), Value::from(sid));
    update.insert("components".to_owned(), Value::Array(components));
    let mut message = Map::new();
    match version {
        Version::V08 => {
            message.insert(version.components().key().to_owned(), Value::Object(update));
        }
        Version::V09 | Version::V10 => {
            message.insert("version".to_owned(), Value::from(version.message_tag()));
            message.insert(version.components().key().to_owned(), Value::Object(update));
        }
    }
    Value::Object(message)
}

#[cfg(feature = "legacy")]
/// The component slot of the one-component v0.8 update [`CheckFrame`] keeps.
fn component_slot(message: &mut Value) -> Option<&mut Value> {
    message
        .get_mut(MessageKind::SurfaceUpdate.key())?
        .get_mut("components")?
        .get_mut(0)
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

#[cfg(test)]
mod tests;
