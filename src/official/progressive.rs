//! The progressive parser: what a renderer should show after every chunk of a model's response,
//! following the streaming rules of the official A2UI conformance suite.
//!
//! [`ProgressiveParser::process_chunk`] takes the next piece of the response and returns the
//! [`ResponsePart`]s it completed: prose outside `<a2ui-json>` blocks, and lists of A2UI messages.
//! Inside a block, a component is shown as soon as it is reachable from its surface's root, even
//! before its message (or the component itself) has finished arriving:
//!
//! * children that have not arrived yet are replaced by `loading_<id>` placeholder rows, swapped for
//!   the real component when it comes;
//! * a cut string under a prose key (`text`, `literalString`, `valueString`, `label`, `hint`,
//!   `caption`, `altText`) is shown as far as it goes; ids, paths, URLs, numbers and every other
//!   value wait until they are complete;
//! * component updates for a surface are held until its `beginRendering` / `createSurface`;
//! * data-model updates are passed on as their entries complete;
//! * cycles and self-references are errors, and messages are checked against the catalog.
//!
//! Work per chunk is proportional to the chunk and to what is emitted: every character is looked
//! at once, finished values are kept and never re-read, and only the component being written (or
//! the data entry being written) is rebuilt when it changes.
//!
//! Two [`Emission`] modes: [`Emission::Official`] repeats every reachable component of a surface
//! whenever one of them changes, as the reference implementation does; [`Emission::ChangedOnly`]
//! sends only the components and data entries that are new or changed since the last step.
//!
//! ```
//! use a2ui_stream::official::catalog::{Catalog, Version};
//! use a2ui_stream::official::progressive::ProgressiveParser;
//! use serde_json::json;
//!
//! let catalog = Catalog::new(Version::V08, json!(null), json!({"catalogId": "c", "components": {
//!     "Text": {"type": "object"},
//!     "Card": {"type": "object", "properties": {"child": {"type": "string", "title": "ComponentId"}}},
//!     "Row": {"type": "object"}}}), json!({}));
//! let mut parser = ProgressiveParser::new(&catalog)?;
//! let parts = parser.process_chunk(r#"Here: <a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "r"}},"#)?;
//! assert_eq!(parts[0].text.as_deref(), Some("Here: "));
//! let parts = parser.process_chunk(r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "r", "component": {"Card": {"child": "t"}}},"#)?;
//! let msgs = parts[0].a2ui.as_ref().unwrap();
//! assert_eq!(msgs[0]["surfaceUpdate"]["components"][0]["component"]["Card"]["child"], "loading_t");
//! let parts = parser.process_chunk(r#"{"id": "t", "component": {"Text": {"text": "Hel"#)?;
//! let msgs = parts[0].a2ui.as_ref().unwrap();
//! // Every reachable component again (official mode), the placeholder swapped for the real child.
//! assert_eq!(msgs[0]["surfaceUpdate"]["components"], json!([
//!     {"id": "r", "component": {"Card": {"child": "t"}}},
//!     {"id": "t", "component": {"Text": {"text": "Hel"}}}]));
//! # Ok::<(), a2ui_stream::official::progressive::Error>(())
//! ```

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::catalog::{Catalog, Version};
use super::partial_json::{Body, Frame, PartialJson, Step, CUTTABLE_KEYS};
use super::validator::Validator;

const OPEN_TAG: &str = "<a2ui-json>";
const CLOSE_TAG: &str = "</a2ui-json>";
const DEFAULT_ROOT: &str = "root";
/// Fields whose ids are swapped for placeholders while the child is missing.
const CHILD_FIELDS: [&str; 6] = [
    "children",
    "explicitList",
    "child",
    "contentChild",
    "entryPointChild",
    "componentId",
];

/// One piece of what a chunk completed: prose, A2UI messages, or prose followed by messages.
///
/// ```
/// use a2ui_stream::official::progressive::ResponsePart;
/// let part = ResponsePart { text: Some("Hi".into()), a2ui: None };
/// assert!(part.a2ui.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResponsePart {
    /// Prose outside A2UI blocks (tags removed).
    pub text: Option<String>,
    /// A2UI messages, in the order they should be applied.
    pub a2ui: Option<Vec<Value>>,
}

/// How much each step repeats.
///
/// ```
/// use a2ui_stream::official::progressive::Emission;
/// assert_ne!(Emission::Official, Emission::ChangedOnly);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Emission {
    /// Every step carries all reachable components of the surface that changed, as the
    /// reference implementation and the conformance suite expect.
    #[default]
    Official,
    /// Every step carries only the components and data entries that are new or changed since
    /// the last step: what a renderer that merges by id needs; output grows linearly.
    ChangedOnly,
}

/// What went wrong while parsing a response.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::progressive::{ErrorKind, ProgressiveParser};
/// let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
/// let err = ProgressiveParser::new(&catalog).unwrap().process_chunk("<a2ui-json>oops</a2ui-json>").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Json);
/// assert!(err.to_string().starts_with("Failed to parse JSON"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

/// The kind of an [`Error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The JSON in a block is malformed or absent.
    Json,
    /// A message does not satisfy the catalog or the protocol.
    Validation,
    /// Components refer to themselves or form a cycle, or a surface lacks its root.
    Topology,
    /// The catalog's schemas do not compile.
    Schema,
}

impl Error {
    fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
        }
    }

    /// The kind of problem.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::progressive::{ErrorKind, ProgressiveParser};
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let err = ProgressiveParser::new(&catalog).unwrap().process_chunk("<a2ui-json>[{]</a2ui-json>").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Json);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message, worded as the reference implementation words it.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::progressive::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let err = ProgressiveParser::new(&catalog).unwrap().process_chunk("<a2ui-json></a2ui-json>").unwrap_err();
    /// assert!(err.message().contains("No valid JSON object"));
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Per-surface state.
#[derive(Debug, Default)]
struct Surface {
    /// `beginRendering` / `createSurface` has been emitted.
    started: bool,
    root: Option<String>,
    /// Latest version of every component seen, by id.
    components: BTreeMap<String, Cached>,
    /// Components whose stored value changed since the last emission.
    dirty: bool,
    /// Ids emitted at least once.
    emitted_ids: HashSet<String>,
    /// Last emitted form of each component (placeholders included), by id.
    emitted: HashMap<String, Value>,
}

#[derive(Debug, Clone)]
struct Cached {
    value: Value,
    /// `children` / `explicitList` fields whose list was still open when this was taken.
    open_lists: Vec<String>,
}

/// Where the message being parsed stands.
#[derive(Debug, Default)]
struct Current {
    surface: Option<String>,
    /// Components of this message that arrived before its `surfaceId`.
    unassigned: Vec<Cached>,
    /// Last snapshot of the open component, to skip unchanged ones.
    last_partial: Option<Value>,
}

/// The streaming parser; see the [module documentation](self).
pub struct ProgressiveParser {
    validator: Arc<Validator>,
    version: Version,
    mode: Emission,
    in_block: bool,
    /// Text held back because it may be the start of a tag.
    held: String,
    json: PartialJson,
    found_object: bool,
    current: Current,
    surfaces: HashMap<String, Surface>,
    /// The data model as emitted, by top-level key (shared by all surfaces, as the reference does).
    emitted_data: HashMap<String, Value>,
    /// Last partial data-model snapshot emitted, to skip unchanged ones.
    last_data_partial: Option<Value>,
}

impl fmt::Debug for ProgressiveParser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProgressiveParser")
            .field("version", &self.version)
            .field("mode", &self.mode)
            .field("in_block", &self.in_block)
            .finish_non_exhaustive()
    }
}

/// Collects parts the way the reference does: messages join the last part unless it already
/// holds prose followed by messages... (they join it in every case but after a text-only part
/// that is followed by new text).
#[derive(Default)]
struct Out {
    parts: Vec<ResponsePart>,
}

impl Out {
    fn text(&mut self, text: &str) {
        if !text.is_empty() {
            self.parts.push(ResponsePart {
                text: Some(text.to_owned()),
                a2ui: None,
            });
        }
    }

    fn message(&mut self, message: Value) {
        match self.parts.last_mut() {
            Some(ResponsePart {
                a2ui: Some(list), ..
            }) => list.push(message),
            Some(part) => part.a2ui = Some(vec![message]),
            None => self.parts.push(ResponsePart {
                text: None,
                a2ui: Some(vec![message]),
            }),
        }
    }
}

impl ProgressiveParser {
    /// A parser for the catalog's protocol version, in [`Emission::Official`] mode. Compiles the
    /// catalog's schemas; fails (with [`ErrorKind::Schema`]) when they do not compile. To start
    /// many parsers on one catalog, compile a [`Validator`] once and use
    /// [`ProgressiveParser::with_validator`].
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::progressive::ProgressiveParser;
    /// let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// assert_eq!(parser.process_chunk("plain prose")?[0].text.as_deref(), Some("plain prose"));
    /// # Ok::<(), a2ui_stream::official::progressive::Error>(())
    /// ```
    pub fn new(catalog: &Catalog) -> Result<ProgressiveParser, Error> {
        ProgressiveParser::with_emission(catalog, Emission::Official)
    }

    /// A parser with the given [`Emission`] mode; see [`ProgressiveParser::new`].
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::progressive::{Emission, ProgressiveParser};
    /// # let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let parser = ProgressiveParser::with_emission(&catalog, Emission::ChangedOnly)?;
    /// assert_eq!(parser.emission(), Emission::ChangedOnly);
    /// # Ok::<(), a2ui_stream::official::progressive::Error>(())
    /// ```
    pub fn with_emission(catalog: &Catalog, mode: Emission) -> Result<ProgressiveParser, Error> {
        let validator =
            Validator::new(catalog).map_err(|e| Error::new(ErrorKind::Schema, e.to_string()))?;
        Ok(ProgressiveParser::with_validator(Arc::new(validator), mode))
    }

    /// A parser sharing an already compiled [`Validator`] (and its catalog): how a server starts
    /// one parser per response without compiling the schemas again.
    ///
    /// ```
    /// use std::sync::Arc;
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::progressive::{Emission, ProgressiveParser};
    /// use a2ui_stream::official::validator::Validator;
    /// # let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let shared = Arc::new(Validator::new(&catalog)?);
    /// let first = ProgressiveParser::with_validator(Arc::clone(&shared), Emission::Official);
    /// let second = ProgressiveParser::with_validator(shared, Emission::ChangedOnly);
    /// assert_ne!(first.emission(), second.emission());
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn with_validator(validator: Arc<Validator>, mode: Emission) -> ProgressiveParser {
        ProgressiveParser {
            version: validator.catalog().version(),
            validator,
            mode,
            in_block: false,
            held: String::new(),
            json: PartialJson::default(),
            found_object: false,
            current: Current::default(),
            surfaces: HashMap::new(),
            emitted_data: HashMap::new(),
            last_data_partial: None,
        }
    }

    /// The emission mode.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::progressive::{Emission, ProgressiveParser};
    /// # let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// assert_eq!(ProgressiveParser::new(&catalog).unwrap().emission(), Emission::Official);
    /// ```
    pub fn emission(&self) -> Emission {
        self.mode
    }

    /// Takes the next chunk of the response and returns what it completed. After an error the
    /// parser should be dropped.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::progressive::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// assert_eq!(parser.process_chunk("Hi <a2u")?[0].text.as_deref(), Some("Hi "));
    /// assert!(parser.process_chunk("i-json>")?.is_empty());
    /// # Ok::<(), a2ui_stream::official::progressive::Error>(())
    /// ```
    pub fn process_chunk(&mut self, chunk: &str) -> Result<Vec<ResponsePart>, Error> {
        let mut out = Out::default();
        let mut rest: &str = chunk;
        let held = std::mem::take(&mut self.held);
        let joined;
        if !held.is_empty() {
            joined = held + chunk;
            rest = &joined;
        }
        loop {
            let tag = if self.in_block { CLOSE_TAG } else { OPEN_TAG };
            if let Some(pos) = rest.find(tag) {
                let (before, after) = (&rest[..pos], &rest[pos + tag.len()..]);
                if self.in_block {
                    self.json_text(before, &mut out)?;
                    if !self.found_object && !self.json.closed_object {
                        return Err(Error::new(
                            ErrorKind::Json,
                            "Failed to parse JSON: No valid JSON object found in A2UI block.",
                        ));
                    }
                    self.end_block();
                } else {
                    out.text(before);
                    self.in_block = true;
                }
                rest = after;
                continue;
            }
            // Hold back a possible start of the tag.
            let keep = (1..tag.len())
                .rev()
                .find(|&n| rest.ends_with(&tag[..n]))
                .unwrap_or(0);
            let (now, later) = rest.split_at(rest.len() - keep);
            if self.in_block {
                self.json_text(now, &mut out)?;
            } else {
                out.text(now);
            }
            self.held = later.to_owned();
            break;
        }
        if self.mode == Emission::Official && self.version == Version::V08 {
            keep_last_surface_update(&mut out.parts);
        }
        Ok(out.parts)
    }

    fn end_block(&mut self) {
        self.in_block = false;
        self.json.reset();
        self.found_object = false;
        self.current = Current::default();
        self.last_data_partial = None;
    }

    /// Runs a piece of block text through the JSON builder, then looks at what is half-written.
    fn json_text(&mut self, text: &str, out: &mut Out) -> Result<(), Error> {
        for c in text.chars() {
            if !self.json.in_list() {
                if c == '[' {
                    self.json.open_list();
                }
                continue;
            }
            match self.json.feed(c, wanted_frame) {
                Step::Nothing => {
                    if c == '"' || c.is_ascii_digit() {
                        self.notice_surface_id();
                    }
                }
                Step::ListClosed | Step::Closed { value: None, .. } => {}
                Step::Closed {
                    depth,
                    value: Some(value),
                } => {
                    self.found_object |= value.is_object();
                    if depth == 1 {
                        self.complete_message(value, out)?;
                        self.current = Current::default();
                        self.last_data_partial = None;
                    } else if value.get("id").is_none()
                        && find_kind(&value, self.version == Version::V08).is_some()
                    {
                        // A message written where it does not belong is still taken.
                        self.complete_message(value, out)?;
                    } else {
                        self.current.last_partial = None;
                        self.take_component(value, Vec::new());
                    }
                }
            }
        }
        if self.json.in_list() && self.json.dirty {
            self.json.dirty = false;
            self.sniff_component();
            self.sniff_data_model(out)?;
        }
        let dirty: Vec<String> = self
            .surfaces
            .iter()
            .filter(|(_, s)| s.dirty && s.started)
            .map(|(id, _)| id.clone())
            .collect();
        let mut dirty = dirty;
        dirty.sort();
        for sid in dirty {
            self.flush_surface(&sid, false, out)?;
        }
        Ok(())
    }

    /// Picks up the `surfaceId` of the message being written as soon as it is complete.
    fn notice_surface_id(&mut self) {
        if self.current.surface.is_some() {
            return;
        }
        let payload = self.json.stack.get(2);
        let sid = match payload {
            Some(Frame {
                body: Body::Object { map, .. },
                ..
            }) => map.get("surfaceId").and_then(Value::as_str),
            _ => None,
        };
        if let Some(sid) = sid {
            let sid = sid.to_owned();
            for cached in std::mem::take(&mut self.current.unassigned) {
                self.store_component(&sid, cached);
            }
            self.current.surface = Some(sid);
        }
    }

    /// A component object closed (or was healed): cache it if it is usable.
    fn take_component(&mut self, comp: Value, open_lists: Vec<String>) {
        if !self.usable_component(&comp) {
            return;
        }
        let cached = Cached {
            value: comp,
            open_lists,
        };
        match self.current.surface.clone() {
            Some(sid) => self.store_component(&sid, cached),
            None => self.current.unassigned.push(cached),
        }
    }

    fn store_component(&mut self, sid: &str, cached: Cached) {
        let Some(id) = cached
            .value
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            return;
        };
        let surface = self.surfaces.entry(sid.to_owned()).or_default();
        surface.components.insert(id, cached);
        surface.dirty = true;
    }

    /// The reference skips components holding an empty object anywhere (a property still being
    /// written) and, for v0.8, components missing a required property.
    fn usable_component(&self, comp: &Value) -> bool {
        let has_id = comp
            .get("id")
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty());
        let body = comp.get("component");
        let has_body = match body {
            Some(Value::String(s)) => !s.is_empty(),
            Some(Value::Object(m)) => !m.is_empty(),
            _ => false,
        };
        if !has_id || !has_body {
            return false;
        }
        match body {
            Some(Value::String(_)) => !has_empty_object(comp),
            Some(Value::Object(typed)) => {
                if has_empty_object(&Value::Object(typed.clone())) {
                    return false;
                }
                for (kind, props) in typed {
                    if let Value::Object(props) = props {
                        if self
                            .validator
                            .catalog()
                            .required_fields(kind)
                            .iter()
                            .any(|r| !props.contains_key(r))
                        {
                            return false;
                        }
                    }
                }
                true
            }
            _ => false,
        }
    }

    /// Rebuilds the component being written, if any, and caches it.
    fn sniff_component(&mut self) {
        let Some(index) = self
            .json
            .stack
            .iter()
            .enumerate()
            .position(|(i, _)| i >= 1 && is_component_frame(&self.json.stack[..=i]))
        else {
            return;
        };
        let snapshot = self.json.snapshot(index, heal_component_string);
        let Some(snapshot) = snapshot else { return };
        if self.current.last_partial.as_ref() == Some(&snapshot) {
            return;
        }
        self.current.last_partial = Some(snapshot.clone());
        let open_lists = self
            .json
            .stack
            .iter()
            .skip(index + 1)
            .filter_map(|f| match (&f.key, &f.body) {
                (Some(k), Body::Array(items))
                    if items.is_empty() && (k == "children" || k == "explicitList") =>
                {
                    Some(k.clone())
                }
                _ => None,
            })
            .collect();
        self.take_component(snapshot, open_lists);
    }

    /// Passes on the entries of a data-model update being written.
    fn sniff_data_model(&mut self, out: &mut Out) -> Result<(), Error> {
        let kind = match self.version {
            Version::V08 => "dataModelUpdate",
            Version::V09 => "updateDataModel",
        };
        let is_dm = matches!(
            self.json.stack.get(1),
            Some(Frame { body: Body::Object { map, key, .. }, .. })
                if key.as_deref() == Some(kind) || map.contains_key(kind)
        );
        if !is_dm {
            return Ok(());
        }
        let open_payload =
            matches!(self.json.stack.get(2), Some(f) if f.key.as_deref() == Some(kind));
        let payload = if open_payload {
            self.json.snapshot(2, heal_data_string)
        } else {
            match self.json.stack.get(1) {
                Some(Frame {
                    body: Body::Object { map, .. },
                    ..
                }) => map.get(kind).cloned(),
                _ => None,
            }
        };
        let Some(Value::Object(payload)) = payload else {
            return Ok(());
        };
        let payload = Value::Object(payload);
        if self.last_data_partial.as_ref() == Some(&payload) {
            return Ok(());
        }
        self.last_data_partial = Some(payload.clone());
        let sid = payload
            .get("surfaceId")
            .and_then(Value::as_str)
            .or(self.current.surface.as_deref())
            .unwrap_or("default")
            .to_owned();
        match self.version {
            Version::V08 => {
                let Some(Value::Array(entries)) = payload.get("contents") else {
                    return Ok(());
                };
                let dict = contents_to_dict(entries);
                let changed: BTreeSet<&String> = dict
                    .iter()
                    .filter(|(k, v)| self.emitted_data.get(*k) != Some(v))
                    .map(|(k, _)| k)
                    .collect();
                if changed.is_empty() {
                    return Ok(());
                }
                // Latest entry per key, in order; all keys (official) or only changed ones.
                let mut seen = HashSet::new();
                let mut picked = Vec::new();
                for entry in entries.iter().rev() {
                    let Some(k) = entry.get("key").and_then(Value::as_str) else {
                        continue;
                    };
                    if dict.contains_key(k)
                        && seen.insert(k.to_owned())
                        && (self.mode == Emission::Official || changed.contains(&k.to_owned()))
                    {
                        picked.push(entry.clone());
                    }
                }
                picked.reverse();
                let mut body = Map::new();
                body.insert("surfaceId".into(), Value::String(sid));
                body.insert("contents".into(), prune_entries(&picked));
                if let Some(path) = payload.get("path") {
                    body.insert("path".into(), path.clone());
                }
                let msg = json!({ kind: Value::Object(body) });
                self.emit_loose(msg, out);
                for (k, v) in dict {
                    self.emitted_data.insert(k, v);
                }
            }
            Version::V09 => {
                let Some(Value::Object(value)) = payload.get("value") else {
                    return Ok(());
                };
                let delta: Map<String, Value> = value
                    .iter()
                    .filter(|(k, v)| self.emitted_data.get(*k) != Some(v))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                if delta.is_empty() {
                    return Ok(());
                }
                for (k, v) in &delta {
                    self.emitted_data.insert(k.clone(), v.clone());
                }
                let msg = json!({"version": "v0.9", kind: {"surfaceId": sid, "value": Value::Object(delta)}});
                self.emit_loose(msg, out);
            }
        }
        Ok(())
    }

    /// Emits a message built while streaming; one the catalog rejects is left out.
    fn emit_loose(&mut self, msg: Value, out: &mut Out) {
        if self.validator.validate_with(&msg, false).is_ok() {
            out.message(msg);
        }
    }

    /// Emits a message that arrived whole; one the catalog rejects is an error.
    fn emit_strict(&mut self, msg: Value, out: &mut Out) -> Result<(), Error> {
        self.validator
            .validate_with(&msg, true)
            .map_err(|e| Error::new(classify(&e.to_string()), e.to_string()))?;
        out.message(msg);
        Ok(())
    }

    fn complete_message(&mut self, msg: Value, out: &mut Out) -> Result<(), Error> {
        self.found_object = true;
        self.validator
            .validate_with(&msg, false)
            .map_err(|e| Error::new(classify(&e.to_string()), e.to_string()))?;
        let v08 = self.version == Version::V08;
        let (kind, payload) = match find_kind(&msg, v08) {
            Some(found) => found,
            None => return self.emit_strict(msg, out),
        };
        let sid = match payload {
            Value::Object(p) => p.get("surfaceId").and_then(Value::as_str),
            Value::String(s) if kind == "deleteSurface" => Some(s.as_str()),
            _ => None,
        }
        .map(str::to_owned)
        .or_else(|| self.current.surface.clone())
        .unwrap_or_else(|| "unknown".to_owned());
        if self.current.surface.is_none() {
            self.current.surface = Some(sid.clone());
            for cached in std::mem::take(&mut self.current.unassigned) {
                self.store_component(&sid, cached);
            }
        }
        match kind {
            "beginRendering" | "createSurface" => {
                let root = payload
                    .get("root")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                let surface = self.surfaces.entry(sid.clone()).or_default();
                if let Some(root) = root {
                    surface.root = Some(root);
                } else if surface.root.is_none() {
                    surface.root = Some(DEFAULT_ROOT.to_owned());
                }
                if !surface.started {
                    surface.started = true;
                    surface.dirty = true;
                    self.emit_strict(msg, out)?;
                }
                self.flush_surface(&sid, false, out)
            }
            "surfaceUpdate" | "updateComponents" => {
                let surface = self.surfaces.entry(sid.clone()).or_default();
                if let Some(root) = payload.get("root").and_then(Value::as_str) {
                    surface.root = Some(root.to_owned());
                } else if surface.root.is_none() && !v08 {
                    surface.root = Some(DEFAULT_ROOT.to_owned());
                }
                if let Some(Value::Array(list)) = payload.get("components") {
                    for comp in list {
                        if let Some(id) = comp.get("id").and_then(Value::as_str) {
                            surface.components.insert(
                                id.to_owned(),
                                Cached {
                                    value: comp.clone(),
                                    open_lists: Vec::new(),
                                },
                            );
                            surface.dirty = true;
                        }
                    }
                }
                if surface.started {
                    self.flush_surface(&sid, true, out)?;
                }
                Ok(())
            }
            "deleteSurface" => {
                let started = self.surfaces.get(&sid).is_some_and(|s| s.started);
                if started {
                    self.surfaces.remove(&sid);
                    self.emit_strict(msg, out)?;
                }
                Ok(())
            }
            _ => {
                // A data-model update that arrived whole: pass it on if it brings anything new.
                if self.data_is_new(payload) {
                    self.emit_strict(msg, out)?;
                }
                Ok(())
            }
        }
    }

    /// Whether a finished data-model update brings anything not emitted yet, recording it.
    fn data_is_new(&mut self, payload: &Value) -> bool {
        let Value::Object(payload) = payload else {
            return true;
        };
        let mut fresh = Vec::new();
        match self.version {
            Version::V08 => match payload.get("contents") {
                Some(Value::Array(entries)) => {
                    for entry in entries {
                        let Some(k) = entry.get("key").and_then(Value::as_str) else {
                            continue;
                        };
                        let v = ["valueString", "valueNumber", "valueBoolean", "valueMap"]
                            .iter()
                            .filter_map(|f| entry.get(*f))
                            .find(|v| truthy(v));
                        if let (false, Some(v)) = (k.is_empty(), v) {
                            fresh.push((k.to_owned(), v.clone()));
                        }
                    }
                }
                Some(Value::Object(map)) => {
                    fresh.extend(map.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
                _ => {}
            },
            Version::V09 => {
                fresh.extend(
                    payload
                        .iter()
                        .filter(|(k, _)| *k != "surfaceId" && *k != "root")
                        .map(|(k, v)| (k.clone(), v.clone())),
                );
            }
        }
        if fresh.is_empty() {
            return true;
        }
        let new = fresh
            .iter()
            .any(|(k, v)| self.emitted_data.get(k) != Some(v));
        if new {
            self.emitted_data.extend(fresh);
        }
        new
    }

    /// Emits the components of `sid` reachable from its root, if anything changed.
    fn flush_surface(&mut self, sid: &str, check_root: bool, out: &mut Out) -> Result<(), Error> {
        let version = self.version;
        let mode = self.mode;
        let Some(surface) = self.surfaces.get_mut(sid) else {
            return Ok(());
        };
        surface.dirty = false;
        if !surface.started {
            return Ok(());
        }
        let Some(root) = surface.root.clone() else {
            return Ok(());
        };
        if check_root && !surface.components.contains_key(&root) {
            let kind = if version == Version::V08 {
                "surfaceUpdate"
            } else {
                "updateComponents"
            };
            return Err(Error::new(
                ErrorKind::Topology,
                format!("No root component (id='{root}') found in {kind}"),
            ));
        }
        let reachable = reachable(self.validator.catalog(), &root, &surface.components)?;
        let mut processed = Vec::new();
        let mut extra: Vec<Value> = Vec::new();
        for id in &reachable {
            if let Some(cached) = surface.components.get(id) {
                let mut comp = cached.value.clone();
                process_component(&mut comp, cached, &surface.components, version, &mut extra);
                processed.push(comp);
            }
        }
        processed.extend(extra);
        let mut changed = false;
        let mut send = Vec::new();
        for comp in processed {
            let id = comp
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let fresh =
                !surface.emitted_ids.contains(&id) || surface.emitted.get(&id) != Some(&comp);
            changed |= fresh;
            if fresh || mode == Emission::Official {
                send.push((id, comp, fresh));
            }
        }
        if !changed {
            return Ok(());
        }
        let mut list = Vec::with_capacity(send.len());
        for (id, comp, fresh) in send {
            if fresh {
                surface.emitted.insert(id.clone(), comp.clone());
            }
            surface.emitted_ids.insert(id);
            list.push(comp);
        }
        let msg = match version {
            Version::V08 => json!({"surfaceUpdate": {"surfaceId": sid, "components": list}}),
            Version::V09 => {
                json!({"version": "v0.9", "updateComponents": {"surfaceId": sid, "components": list}})
            }
        };
        if self.validator.validate_with(&msg, false).is_ok() {
            out.message(msg);
        }
        Ok(())
    }
}

/// Whether a closing container must be handed over: a component, or an object out of place.
fn wanted_frame(stack: &[Frame]) -> bool {
    is_component_frame(stack) || stack.last().is_some_and(|f| f.anonymous)
}

/// Whether the innermost frame of `stack` is a component: an object directly in the
/// `components` list of a message payload.
fn is_component_frame(stack: &[Frame]) -> bool {
    match stack {
        [.., parent, last] => {
            matches!(last.body, Body::Object { .. })
                && matches!(parent.body, Body::Array(_))
                && parent.key.as_deref() == Some("components")
        }
        _ => false,
    }
}

fn heal_component_string(key: &str, text: &str, _obj: &Map<String, Value>) -> bool {
    CUTTABLE_KEYS.contains(&key) && !(key == "valueString" && looks_like_url(text))
}

fn heal_data_string(key: &str, text: &str, obj: &Map<String, Value>) -> bool {
    if !CUTTABLE_KEYS.contains(&key) {
        return false;
    }
    if key == "valueString" {
        if looks_like_url(text) {
            return false;
        }
        if let Some(Value::String(name)) = obj.get("key") {
            let name = name.to_lowercase();
            if ["url", "link", "src", "href", "image"]
                .iter()
                .any(|w| name.contains(w))
            {
                return false;
            }
        }
    }
    true
}

fn looks_like_url(text: &str) -> bool {
    ["http://", "https://", "data:", "/"]
        .iter()
        .any(|p| text.starts_with(p))
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

fn has_empty_object(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.is_empty() || m.values().any(has_empty_object),
        Value::Array(a) => a.iter().any(has_empty_object),
        _ => false,
    }
}

fn classify(message: &str) -> ErrorKind {
    if message.contains("Circular") || message.contains("Self-reference") {
        ErrorKind::Topology
    } else {
        ErrorKind::Validation
    }
}

/// The message type key and its payload.
fn find_kind(msg: &Value, v08: bool) -> Option<(&'static str, &Value)> {
    let kinds: &[&'static str] = if v08 {
        &[
            "surfaceUpdate",
            "beginRendering",
            "deleteSurface",
            "dataModelUpdate",
        ]
    } else {
        &[
            "createSurface",
            "updateComponents",
            "deleteSurface",
            "updateDataModel",
        ]
    };
    kinds.iter().find_map(|k| msg.get(*k).map(|p| (*k, p)))
}

/// v0.8 data entries as a key → value map (value maps become nested maps).
fn contents_to_dict(entries: &[Value]) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for entry in entries {
        let Some(k) = entry.get("key").and_then(Value::as_str) else {
            continue;
        };
        let v = ["value", "valueString", "valueNumber", "valueBoolean"]
            .iter()
            .find_map(|f| entry.get(*f).cloned())
            .filter(|v| !v.is_null())
            .or_else(|| match entry.get("valueMap") {
                Some(Value::Array(inner)) => {
                    Some(Value::Object(contents_to_dict(inner).into_iter().collect()))
                }
                Some(Value::Object(m)) => Some(Value::Object(m.clone())),
                _ => None,
            });
        if let (false, Some(v)) = (k.is_empty(), v) {
            out.insert(k.to_owned(), v);
        }
    }
    out
}

/// Drops data entries that have a key but no value yet (recursively through value maps).
fn prune_entries(entries: &[Value]) -> Value {
    let mut kept = Vec::new();
    for entry in entries {
        let Value::Object(obj) = entry else {
            kept.push(entry.clone());
            continue;
        };
        let mut obj = obj.clone();
        let mut has_value = ["value", "valueString", "valueNumber", "valueBoolean"]
            .iter()
            .any(|f| obj.contains_key(*f));
        if let Some(Value::Array(inner)) = obj.get("valueMap") {
            let pruned = prune_entries(inner);
            let now_empty = pruned.as_array().is_some_and(|a| a.is_empty());
            if now_empty && !inner.is_empty() {
                obj.remove("valueMap");
            } else {
                obj.insert("valueMap".into(), pruned);
                has_value = true;
            }
        }
        if has_value && obj.contains_key("key") {
            kept.push(Value::Object(obj));
        }
    }
    Value::Array(kept)
}

/// Ids reachable from `root`, sorted; a self-reference or a cycle is an error.
fn reachable(
    catalog: &Catalog,
    root: &str,
    components: &BTreeMap<String, Cached>,
) -> Result<BTreeSet<String>, Error> {
    let mut edges: HashMap<&str, Vec<&str>> = HashMap::new();
    for (id, cached) in components {
        let refs = catalog.references(&cached.value);
        let mut list = Vec::with_capacity(refs.len());
        for r in refs {
            if r.id == id {
                return Err(Error::new(
                    ErrorKind::Topology,
                    format!(
                        "Self-reference detected: Component '{id}' references itself in field '{}'",
                        r.field
                    ),
                ));
            }
            list.push(r.id);
        }
        edges.insert(id.as_str(), list);
    }
    let mut visited: HashSet<&str> = HashSet::new();
    let mut on_path: HashSet<&str> = HashSet::new();
    if components.contains_key(root) {
        // Iterative depth-first search: (node, next edge index).
        let mut stack: Vec<(&str, usize)> = vec![(root, 0)];
        visited.insert(root);
        on_path.insert(root);
        while let Some((node, index)) = stack.last_mut() {
            let next = edges.get(*node).and_then(|e| e.get(*index)).copied();
            *index += 1;
            match next {
                Some(child) => {
                    if on_path.contains(child) {
                        return Err(Error::new(
                            ErrorKind::Topology,
                            format!("Circular reference detected involving component '{child}'"),
                        ));
                    }
                    if visited.insert(child) {
                        on_path.insert(child);
                        stack.push((child, 0));
                    }
                }
                None => {
                    let node = *node;
                    on_path.remove(node);
                    stack.pop();
                }
            }
        }
    }
    Ok(visited
        .into_iter()
        .filter(|id| components.contains_key(*id))
        .map(str::to_owned)
        .collect())
}

fn placeholder(id: &str, version: Version) -> Value {
    match version {
        Version::V08 => json!({"id": id, "component": {"Row": {"children": {"explicitList": []}}}}),
        Version::V09 => json!({"id": id, "component": "Row", "children": []}),
    }
}

/// Swaps references to missing children for placeholders (added to `extra`) and, for v0.8,
/// normalises data bindings to absolute paths.
fn process_component(
    comp: &mut Value,
    cached: &Cached,
    seen: &BTreeMap<String, Cached>,
    version: Version,
    extra: &mut Vec<Value>,
) {
    let id = comp
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
        .to_owned();
    let mut add = |pid: String, extra: &mut Vec<Value>| {
        if !extra
            .iter()
            .any(|e| e.get("id").and_then(Value::as_str) == Some(&pid))
        {
            extra.push(placeholder(&pid, version));
        }
    };
    fn walk(
        v: &mut Value,
        id: &str,
        cached: &Cached,
        seen: &BTreeMap<String, Cached>,
        version: Version,
        extra: &mut Vec<Value>,
        add: &mut dyn FnMut(String, &mut Vec<Value>),
    ) {
        match v {
            Value::Object(obj) => {
                if version == Version::V08 {
                    match obj.get("path") {
                        Some(Value::String(p)) if p.starts_with('/') => {
                            if !obj.contains_key("componentId") {
                                let p = p.clone();
                                obj.clear();
                                obj.insert("path".into(), Value::String(p));
                            }
                        }
                        Some(Value::String(p)) => {
                            let p = format!("/{p}");
                            obj.insert("path".into(), Value::String(p));
                        }
                        Some(other) if !other.is_null() => {
                            let p = format!("/{other}");
                            obj.insert("path".into(), Value::String(p));
                        }
                        _ => {}
                    }
                }
                for field in CHILD_FIELDS {
                    match obj.get_mut(field) {
                        Some(Value::Array(items)) => {
                            for item in items.iter_mut() {
                                if let Value::String(child) = item {
                                    if !seen.contains_key(child.as_str()) {
                                        let pid = format!("loading_{child}");
                                        add(pid.clone(), extra);
                                        *child = pid;
                                    }
                                }
                            }
                            if items.is_empty()
                                && (field == "children" || field == "explicitList")
                                && cached.open_lists.iter().any(|f| f == field)
                            {
                                let pid = format!("loading_children_{id}");
                                add(pid.clone(), extra);
                                items.push(Value::String(pid));
                            }
                        }
                        Some(Value::String(child)) => {
                            if !seen.contains_key(child.as_str()) {
                                let pid = format!("loading_{child}");
                                add(pid.clone(), extra);
                                *child = pid;
                            }
                        }
                        _ => {}
                    }
                }
                for (_, child) in obj.iter_mut() {
                    walk(child, id, cached, seen, version, extra, add);
                }
            }
            Value::Array(items) => {
                for item in items {
                    walk(item, id, cached, seen, version, extra, add);
                }
            }
            _ => {}
        }
    }
    match comp {
        Value::Object(obj) => {
            if let Some(body @ Value::Object(_)) = obj.get_mut("component") {
                walk(body, &id, cached, seen, version, extra, &mut add);
            } else {
                walk(comp, &id, cached, seen, version, extra, &mut add);
            }
        }
        _ => {}
    }
}

/// Within each part, keeps only the last `surfaceUpdate` of each surface (each one repeats the
/// earlier ones in full).
fn keep_last_surface_update(parts: &mut [ResponsePart]) {
    for part in parts {
        let Some(list) = part.a2ui.as_mut() else {
            continue;
        };
        let mut seen = HashSet::new();
        let mut kept = Vec::with_capacity(list.len());
        for msg in list.drain(..).rev() {
            let sid = msg
                .get("surfaceUpdate")
                .and_then(|p| p.get("surfaceId"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            match sid {
                Some(sid) if !seen.insert(sid.clone()) => {}
                _ => kept.push(msg),
            }
        }
        kept.reverse();
        *list = kept;
    }
}
