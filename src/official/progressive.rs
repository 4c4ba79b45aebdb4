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
//! at once, finished values are kept and never re-read, only the component being written is
//! copied when it visibly changes, reachability grows from what changed, each component's
//! emitted form and its check against the catalog are kept until it changes, and a data-model
//! update is compared with what was emitted only where it grew since the last chunk.
//!
//! Two [`Emission`] modes: [`Emission::Official`] repeats every reachable component of a surface
//! whenever one of them changes (and, for v0.8, every data entry so far), as the reference
//! implementation does; [`Emission::ChangedOnly`] sends only the components and data values that
//! are new or changed since the last step, each data value at its own `path`, so output grows
//! linearly with the UI. A renderer that merges components by id and data by key at the path a
//! message names ends up, after every chunk, with the same screen in both modes.
//!
//! Two output forms: [`ProgressiveParser::process_chunk`] hands out messages as
//! `serde_json::Value` trees; [`ProgressiveParser::process_chunk_json`] hands out the same
//! messages as compact JSON text, writing each repeated component from text kept since it last
//! changed instead of copying its tree.
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

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use super::catalog::{Catalog, Version};
use super::data_delta::{has_value, pointer, prune_entry_owned, value_at, Seg, Walk};
use super::partial_json::{Body, Frame, PartialJson, Step, CUTTABLE_KEYS};
use super::validator::{truthy, wrap_components, CheckFrame, Validator, MAX_GLOBAL_DEPTH};
use crate::hash::{QuickMap, QuickSet, QuickState};

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
/// The messages are `serde_json::Value` trees ([`ProgressiveParser::process_chunk`]) or, with
/// `M = String`, their compact JSON text ([`ProgressiveParser::process_chunk_json`]).
///
/// ```
/// use a2ui_stream::official::progressive::ResponsePart;
/// let part: ResponsePart = ResponsePart { text: Some("Hi".into()), a2ui: None };
/// assert!(part.a2ui.is_none());
/// let sent: ResponsePart<String> = ResponsePart { text: None, a2ui: Some(vec![r#"{"deleteSurface":{"surfaceId":"s"}}"#.into()]) };
/// assert_eq!(sent.a2ui.map(|list| list.len()), Some(1));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResponsePart<M = Value> {
    /// Prose outside A2UI blocks (tags removed).
    pub text: Option<String>,
    /// A2UI messages, in the order they should be applied.
    pub a2ui: Option<Vec<M>>,
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
    /// Every step carries only the components and data values that are new or changed since
    /// the last step, a data value nested in a map at its own `path` (v0.8: the entries of the
    /// map it sits in; v0.9: the value itself): what a renderer that merges components by id
    /// and data by key needs; output grows linearly with the UI.
    ChangedOnly,
}

/// What went wrong while parsing a response: the rule (its [`kind`](Error::kind) and the
/// reference implementation's [`message`](Error::message)) and where
/// ([`offset`](Error::offset)). The parser goes on after it; see
/// [`ProgressiveParser::process_chunk`].
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::progressive::{ErrorKind, ProgressiveParser};
/// let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
/// let err = ProgressiveParser::new(&catalog).unwrap().process_chunk("<a2ui-json>oops</a2ui-json>").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Json);
/// assert!(err.message().starts_with("Failed to parse JSON"));
/// assert!(err.to_string().starts_with("at byte 15: Failed to parse JSON"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    /// `None` until the error is placed (see [`Error::at`]).
    offset: Option<u64>,
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
    /// A block passed one of the parser's [`Limits`].
    Limit,
}

/// Bounds on what one response can make a [`ProgressiveParser`] hold. Passing one is an error
/// ([`ErrorKind::Limit`]), never unbounded memory or a crash; the defaults are far above what a
/// UI needs.
///
/// ```
/// use a2ui_stream::official::progressive::Limits;
/// let strict = Limits { max_depth: 32, ..Limits::default() };
/// assert_eq!(Limits::default().max_depth, 128);
/// assert_eq!(strict.max_block_bytes, 16 << 20);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of objects and lists inside a block's top-level list (default 128, as
    /// `serde_json`'s parser allows). Trees nested deeper would take deeper recursion to copy,
    /// check, write and free than a thread's stack may have.
    pub max_depth: usize,
    /// Most bytes of one `<a2ui-json>` block (default 16 MiB).
    pub max_block_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 128,
            max_block_bytes: 16 << 20,
        }
    }
}

impl Error {
    fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            offset: None,
        }
    }

    /// The error, placed at byte `offset` of the response unless it was placed already (a
    /// fault in a component is placed where that component begins, wherever it was found).
    fn at(mut self, offset: u64) -> Error {
        self.offset.get_or_insert(offset);
        self
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

    /// Where in the response the problem is: a number of bytes of the response (all chunks fed
    /// so far, counted from the first). A component that refers to itself, closes a cycle or
    /// ends a chain too deep is named by the byte where it begins (its `{`); any other fault by
    /// the byte after the message or block that broke a rule, or after the bracket that passed
    /// a limit. For well-formed JSON, it does not depend on how the response was cut into
    /// chunks (of several faults in one message, the one written first is reported). Catalog
    /// errors from a constructor are at 0.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::progressive::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// parser.process_chunk("Hello <a2ui-json>oops")?;
    /// let err = parser.process_chunk("</a2ui-json>").unwrap_err();
    /// assert_eq!(err.offset(), 21); // the block ends where `</a2ui-json>` starts
    /// assert_eq!(err.to_string(), "at byte 21: Failed to parse JSON: No valid JSON object found in A2UI block.");
    /// # Ok::<(), a2ui_stream::official::progressive::Error>(())
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset.unwrap_or_default()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == ErrorKind::Schema {
            return f.write_str(&self.message);
        }
        write!(f, "at byte {}: {}", self.offset(), self.message)
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
    comps: QuickMap<String, Comp>,
    /// Counts insertions (the first self-reference reported is the earliest inserted).
    next_seq: u64,
    /// Components stored since the last flush (in any order, maybe more than once).
    touched: Vec<String>,
    /// Components that refer to themselves, by insertion: `(id, field)`.
    self_refs: BTreeMap<u64, (String, String)>,
    /// Ids reachable from the root (arrived or not), with their depth, sorted by id.
    reach: BTreeMap<String, usize>,
    /// `reach` has to be worked out again from the root.
    reach_stale: bool,
    /// Components showing a placeholder for an id, by that id.
    mentioned_by: QuickMap<String, BTreeSet<String>>,
    /// Arrived components whose emitted form the catalog rejects.
    invalid: BTreeSet<String>,
    /// Placeholder components made so far, by id.
    placeholder_ok: QuickMap<String, Placeholder>,
    /// Placeholder ids already put in a message.
    yielded_placeholders: QuickSet<String>,
    /// Changed-only mode: components whose change is not sent yet because a step was rejected.
    pending: BTreeSet<String>,
    /// Waiting in [`ProgressiveParser::queued`].
    queued: bool,
    /// Reused by every check of one of its components against the catalog.
    check: CheckFrame,
    /// Its id as JSON text (made at its first component update).
    sid_json: String,
}

/// A component as last seen, and what was made of it.
#[derive(Debug)]
struct Comp {
    value: Value,
    /// `children` / `explicitList` fields whose list was still open when this was taken.
    open_lists: Vec<String>,
    /// The byte of the response where its latest writing begins (its `{`): where an error
    /// about it is placed.
    at: u64,
    seq: u64,
    /// Ids it refers to, as the catalog reads them.
    refs: Vec<String>,
    /// `refs` as the reachability last followed them (kept up to date while reachable).
    followed: Vec<String>,
    /// The form that is emitted (placeholders in, v0.8 paths made absolute) when it differs
    /// from `value`, or the form last emitted while `stale`; `None`: `value` itself.
    processed: Option<Value>,
    /// `processed` is out of date.
    stale: bool,
    /// Placeholder ids `processed` refers to, in order.
    placeholders: Vec<String>,
    /// The missing child ids behind `placeholders` (not the `loading_children_` ones).
    missing: Vec<String>,
    /// Bumped whenever `processed` changes (starts at 0: never processed).
    version: u64,
    /// The `version` last put in a message (official mode: sent or rejected, as the reference
    /// counts it; changed-only mode: sent). Settable through a shared reference, so that a
    /// step marks what it picks in the same look-up that reads it (an atomic rather than a
    /// `Cell`, which would make the parser not `Sync`; only `&mut self` methods touch it).
    yielded: AtomicU64,
    /// The emitted form as JSON text, made when first sent as text ([`Form::TEXT`]) and
    /// dropped whenever `version` moves (through a shared reference, so that a step makes it in
    /// the same look-up that picks the component).
    text: OnceLock<String>,
}

impl Comp {
    /// The emitted form: `processed`, or `value` itself.
    fn emitted(&self) -> &Value {
        self.processed.as_ref().unwrap_or(&self.value)
    }

    /// The emitted form as JSON text, made if it is not made yet for this `version`.
    fn text(&self) -> &str {
        self.text.get_or_init(|| compact_json(self.emitted()))
    }

    /// The emitted form changed: a new `version`, whose text is made when asked for.
    fn bump(&mut self) {
        self.version += 1;
        self.text.take();
    }
}

/// A placeholder component, as made for the catalog check.
#[derive(Debug)]
struct Placeholder {
    /// The catalog accepts it.
    ok: bool,
    made: Value,
    /// `made` as JSON text, made when first sent as text (a placeholder never changes).
    text: OnceLock<String>,
}

impl Placeholder {
    /// `made` as JSON text.
    fn text(&self) -> &str {
        self.text.get_or_init(|| compact_json(&self.made))
    }
}

/// The finished entries of the `contents` list of a v0.8 data-model update being written (official
/// mode, which sends all of them on every step), each pruned, written as text and checked
/// against the catalog once, when it is finished; see [`EntriesSoFar::update`].
#[derive(Debug, Default)]
struct EntriesSoFar {
    /// [`Frame::serial`] of the list they are in (0: none yet).
    list: u64,
    /// The surface and path of the update they were checked in, and their JSON text.
    sid: String,
    path: Option<Value>,
    sid_json: String,
    path_json: String,
    /// The update with no entries passes the catalog check.
    envelope_ok: bool,
    /// The update the entries are checked in, one at a time (its `contents` left empty).
    check: Value,
    entries: Vec<Entry>,
    /// The key of the last entry checked that had only `key` and `valueString`, and its verdict:
    /// while only its text grows, the verdict stands ([`Validator::entry_text_is_free`]).
    text_only: Option<(String, bool)>,
}

/// One entry of a v0.8 data-model update, as [`EntriesSoFar`] keeps it.
#[derive(Debug)]
struct Entry {
    /// Its `key`, when that is a string.
    key: Option<String>,
    /// It has a value ([`has_value`]).
    valued: bool,
    /// What is sent of it (pruned of values still unfinished); `None`: nothing.
    sent: Option<Value>,
    /// `sent` as JSON text (text form only).
    text: String,
    /// The update with only this entry passes the catalog check.
    ok: bool,
}

impl EntriesSoFar {
    /// The update that sends every entry so far of the `contents` list at `json.stack[index]`
    /// (the latest entry per key, pruned, as [`latest_entries`] picks them), or `None` when the
    /// catalog rejects it. Only entries finished since the last call, and the one being written,
    /// are looked at; the validator must check entries apart
    /// ([`Validator::checks_entries_apart`]).
    fn update<M: Form>(
        &mut self,
        json: &PartialJson,
        index: usize,
        validator: &Validator,
        sid: &str,
        path: Option<&Value>,
    ) -> Option<M> {
        let Some(Frame {
            body: Body::Array(items),
            serial,
            ..
        }) = json.stack.get(index)
        else {
            return None;
        };
        if self.list != *serial || self.sid != sid || self.path.as_ref() != path {
            let check = wrap_entries(sid, path.cloned(), Vec::new());
            *self = EntriesSoFar {
                list: *serial,
                sid: sid.to_owned(),
                path: path.cloned(),
                sid_json: compact_json(&Value::from(sid)),
                path_json: path.map(compact_json).unwrap_or_default(),
                envelope_ok: validator.validate_with(&check, false).is_ok(),
                check,
                entries: Vec::new(),
                text_only: None,
            };
        }
        // A list only grows while it is open.
        let done = self.entries.len().min(items.len());
        for item in items.get(done..).unwrap_or_default() {
            let entry = self.entry::<M>(item.clone(), validator);
            self.entries.push(entry);
        }
        if M::TEXT {
            // Entries made for the tree form get their text when first sent as text.
            for entry in &mut self.entries {
                if let (Some(value), true) = (&entry.sent, entry.text.is_empty()) {
                    entry.text = compact_json(value);
                }
            }
        }
        let open = match json.stack.get(index + 1) {
            Some(_) => json
                .snapshot(index + 1, heal_data_string)
                .map(|v| self.entry::<M>(v, validator)),
            None => None,
        };
        let keep = latest_per_key(
            self.entries
                .iter()
                .chain(open.as_ref())
                .map(|e| (e.key.as_deref(), e.valued)),
        );
        let mut ok = self.envelope_ok;
        let mut sent: Vec<(&Value, &str)> = Vec::with_capacity(keep.len());
        for (entry, _) in self.entries.iter().zip(&keep).filter(|(_, keep)| **keep) {
            if let Some(value) = &entry.sent {
                ok &= entry.ok;
                sent.push((value, &entry.text));
            }
        }
        // The entry being written is last: handed over, not copied.
        let last = open
            .filter(|_| keep.last() == Some(&true) && keep.len() > self.entries.len())
            .and_then(|entry| {
                ok &= entry.ok || entry.sent.is_none();
                Some((entry.sent?, entry.text))
            });
        let path = path.map(|p| (p, self.path_json.as_str()));
        ok.then(|| M::data_update((sid, &self.sid_json), path, &sent, last))
    }

    /// Makes `raw` ready to send: pruned, checked in [`EntriesSoFar::check`], and (text form)
    /// written as text.
    fn entry<M: Form>(&mut self, raw: Value, validator: &Validator) -> Entry {
        let key = raw.get("key").and_then(Value::as_str).map(str::to_owned);
        let valued = has_value(&raw);
        let mut sent = prune_entry_owned(raw);
        // The key of an entry of only `key` and a text whose verdict cannot depend on the text.
        let text_only = sent
            .as_ref()
            .and_then(Value::as_object)
            .filter(|e| e.len() == 2 && e.get("valueString").is_some_and(Value::is_string))
            .and_then(|e| e.get("key"))
            .and_then(Value::as_str)
            .filter(|_| validator.entry_text_is_free());
        let ok = match (&self.text_only, text_only) {
            (Some((key, ok)), Some(now)) if key == now => *ok,
            _ => {
                // The key is copied only for a check that is made.
                let text_only = text_only.map(str::to_owned);
                let ok = self.check_alone(&mut sent, validator);
                if let Some(ok) = ok {
                    self.text_only = text_only.map(|key| (key, ok));
                }
                ok.unwrap_or(false)
            }
        };
        let text = match (&sent, M::TEXT) {
            (Some(value), true) => compact_json(value),
            _ => String::new(),
        };
        Entry {
            key,
            valued,
            sent,
            text,
            ok,
        }
    }

    /// Whether the update with only `entry` passes the catalog check (`None`: nothing to check).
    fn check_alone(&mut self, entry: &mut Option<Value>, validator: &Validator) -> Option<bool> {
        let (Some(value), Some(list)) = (entry.take(), entries_slot(&mut self.check)) else {
            return None;
        };
        list.push(value);
        let ok = validator.validate_with(&self.check, false).is_ok();
        *entry = entries_slot(&mut self.check).and_then(Vec::pop);
        Some(ok)
    }
}

#[derive(Debug, Clone)]
struct Cached {
    value: Value,
    /// `children` / `explicitList` fields whose list was still open when this was taken.
    open_lists: Vec<String>,
    /// Where it begins in the response (see [`Comp::at`]).
    at: u64,
}

/// Where the message being parsed stands.
#[derive(Debug, Default)]
struct Current {
    surface: Option<String>,
    /// Components of this message that arrived before its `surfaceId`.
    unassigned: Vec<Cached>,
    /// Ids of components this message wrote that were set aside for breaking a topology rule:
    /// the rest of the message does not bring them back.
    rejected: Vec<String>,
    /// An error was found in this message before it ended.
    failed: bool,
}

/// The streaming parser; see the [module documentation](self).
pub struct ProgressiveParser {
    validator: Arc<Validator>,
    version: Version,
    mode: Emission,
    limits: Limits,
    in_block: bool,
    /// Bytes of the current block taken so far (see [`Limits::max_block_bytes`]).
    block_bytes: usize,
    /// The current block passed a limit: the rest of it is read past.
    abandoned: bool,
    /// What a chunk completed before it passed a limit, handed out by the next call (messages
    /// as JSON text).
    carried: Vec<ResponsePart<String>>,
    /// Text held back: a possible start of a tag, or what followed an error in its chunk.
    held: String,
    /// Bytes of the response fed so far (the offset of the next chunk's first byte).
    fed: u64,
    json: PartialJson,
    found_object: bool,
    current: Current,
    surfaces: QuickMap<String, Surface>,
    /// Surfaces with stored changes to flush at the end of the chunk.
    queued: Vec<String>,
    /// The data model as emitted, by top-level key (shared by all surfaces, as the reference
    /// does); v0.8 entries are kept as plain values (value maps as objects).
    emitted_data: Map<String, Value>,
    /// The finished entries of the v0.8 data-model update being written, made ready to send.
    entries: EntriesSoFar,
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

/// The form a step's A2UI messages are handed out in: `Value` trees or compact JSON text.
trait Form: Sized {
    /// JSON text: components are written from the text kept for each of them.
    const TEXT: bool;
    /// A message built as a tree.
    fn message(msg: Value) -> Self;
    /// The message that updates `items` (each a component's emitted form and, in the text form,
    /// its JSON text) on surface `sid`.
    /// `sid` comes with its JSON text (used by the text form).
    fn components(version: Version, sid: (&str, &str), items: &[(&Value, &str)]) -> Self;
    /// The v0.8 `dataModelUpdate` of surface `sid` at `path` with `entries` (each an entry and,
    /// in the text form, its JSON text); `sid` and `path` come with their JSON text.
    fn data_update(
        sid: (&str, &str),
        path: Option<(&Value, &str)>,
        entries: &[(&Value, &str)],
        last: Option<(Value, String)>,
    ) -> Self;
    /// The message as JSON text (kept across calls in this form).
    fn into_text(self) -> String;
    /// A message from JSON text that [`Form::into_text`] made.
    fn from_text(text: String) -> Self;
}

impl Form for Value {
    const TEXT: bool = false;

    fn message(msg: Value) -> Value {
        msg
    }

    fn components(version: Version, (sid, _): (&str, &str), items: &[(&Value, &str)]) -> Value {
        let list = items.iter().map(|(value, _)| (*value).clone()).collect();
        wrap_components(version, sid, list)
    }

    fn data_update(
        (sid, _): (&str, &str),
        path: Option<(&Value, &str)>,
        entries: &[(&Value, &str)],
        last: Option<(Value, String)>,
    ) -> Value {
        let list = entries
            .iter()
            .map(|(value, _)| (*value).clone())
            .chain(last.map(|(value, _)| value))
            .collect();
        wrap_entries(sid, path.map(|(path, _)| path.clone()), list)
    }

    fn into_text(self) -> String {
        compact_json(&self)
    }

    fn from_text(text: String) -> Value {
        // The text is serde_json's own writing of a value, which reads back as that value.
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }
}

impl Form for String {
    const TEXT: bool = true;

    fn message(msg: Value) -> String {
        compact_json(&msg)
    }

    /// The same text as `wrap_components(..).to_string()` (members in key order), written from
    /// the components' kept text instead of copying and serializing their trees.
    fn components(
        version: Version,
        (_, sid_json): (&str, &str),
        items: &[(&Value, &str)],
    ) -> String {
        let (open, close) = match version {
            Version::V08 => (r#"{"surfaceUpdate":{"components":["#, "}"),
            Version::V09 => (
                r#"{"updateComponents":{"components":["#,
                r#","version":"v0.9"}"#,
            ),
        };
        let mut out = joined(open, items, sid_json.len() + 32);
        out.push_str(r#"],"surfaceId":"#);
        out.push_str(sid_json);
        out.push('}');
        out.push_str(close);
        out
    }

    /// The same text as the tree form's `to_string()` (members in key order).
    fn data_update(
        (_, sid_json): (&str, &str),
        path: Option<(&Value, &str)>,
        entries: &[(&Value, &str)],
        last: Option<(Value, String)>,
    ) -> String {
        let last = last.map(|(_, text)| text);
        let more = sid_json.len()
            + path.map_or(0, |(_, text)| text.len())
            + last.as_ref().map_or(0, String::len)
            + 32;
        let mut out = joined(r#"{"dataModelUpdate":{"contents":["#, entries, more);
        if let Some(last) = last {
            if !entries.is_empty() {
                out.push(',');
            }
            out.push_str(&last);
        }
        out.push(']');
        if let Some((_, path_json)) = path {
            out.push_str(r#","path":"#);
            out.push_str(path_json);
        }
        out.push_str(r#","surfaceId":"#);
        out.push_str(sid_json);
        out.push_str("}}");
        out
    }

    fn into_text(self) -> String {
        self
    }

    fn from_text(text: String) -> String {
        text
    }
}

/// `open` followed by the texts of `items`, comma-separated, with room for `more` bytes after.
fn joined(open: &str, items: &[(&Value, &str)], more: usize) -> String {
    let size = items.iter().map(|(_, text)| text.len() + 1).sum::<usize>();
    let mut out = String::with_capacity(open.len() + size + more);
    out.push_str(open);
    for (i, (_, text)) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(text);
    }
    out
}

/// `value` as compact JSON text (what its `Display` writes, without going through a formatter).
fn compact_json(value: &Value) -> String {
    // Writing a `Value` cannot fail: its keys are strings and the output is in memory.
    serde_json::to_string(value).unwrap_or_default()
}

/// `parts` with every message passed through `f`.
fn map_messages<A, B>(
    parts: Vec<ResponsePart<A>>,
    mut f: impl FnMut(A) -> B,
) -> Vec<ResponsePart<B>> {
    parts
        .into_iter()
        .map(|part| ResponsePart {
            text: part.text,
            a2ui: part.a2ui.map(|list| list.into_iter().map(&mut f).collect()),
        })
        .collect()
}

/// Collects parts the way the reference does: prose always starts a new part; a message joins
/// the last part (after its prose or its other messages), or starts the first one.
struct Out<M> {
    parts: Vec<ResponsePart<M>>,
    /// Each component update replaces an earlier one for its surface in the same part (v0.8,
    /// official mode: each repeats the earlier ones in full).
    keep_last: bool,
    /// The component updates in the last part: surface and place in the list.
    updates: Vec<(String, usize)>,
}

impl<M: Form> Out<M> {
    fn new(keep_last: bool) -> Out<M> {
        Out {
            parts: Vec::new(),
            keep_last,
            updates: Vec::new(),
        }
    }

    fn text(&mut self, text: &str) {
        if !text.is_empty() {
            self.parts.push(ResponsePart {
                text: Some(text.to_owned()),
                a2ui: None,
            });
            self.updates.clear();
        }
    }

    /// Adds `message` to the last part; returns its place in that part's list.
    fn message(&mut self, message: M) -> usize {
        match self.parts.last_mut() {
            Some(ResponsePart {
                a2ui: Some(list), ..
            }) => {
                list.push(message);
                list.len() - 1
            }
            Some(part) => {
                part.a2ui = Some(vec![message]);
                0
            }
            None => {
                self.parts.push(ResponsePart {
                    text: None,
                    a2ui: Some(vec![message]),
                });
                0
            }
        }
    }

    /// Adds the component update `message` for surface `sid`.
    fn update(&mut self, sid: &str, message: M) {
        if self.keep_last {
            let earlier = self.updates.iter().position(|(s, _)| s == sid);
            let list = self.parts.last_mut().and_then(|p| p.a2ui.as_mut());
            if let (Some(pos), Some(list)) = (earlier, list) {
                let (_, at) = self.updates.remove(pos);
                if at < list.len() {
                    list.remove(at);
                }
                for (_, later) in &mut self.updates {
                    if *later > at {
                        *later -= 1;
                    }
                }
            }
        }
        let at = self.message(message);
        if self.keep_last {
            self.updates.push((sid.to_owned(), at));
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
            limits: Limits::default(),
            in_block: false,
            block_bytes: 0,
            abandoned: false,
            carried: Vec::new(),
            held: String::new(),
            fed: 0,
            json: PartialJson::with_room(),
            found_object: false,
            current: Current::default(),
            surfaces: QuickMap::default(),
            queued: Vec::new(),
            emitted_data: Map::new(),
            entries: EntriesSoFar::default(),
        }
    }

    /// The parser with other [`Limits`] than the defaults.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::progressive::{ErrorKind, Limits, ProgressiveParser};
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let limits = Limits { max_depth: 4, ..Limits::default() };
    /// let mut parser = ProgressiveParser::new(&catalog)?.with_limits(limits);
    /// assert_eq!(parser.limits(), limits);
    /// let err = parser.process_chunk("<a2ui-json>[{\"a\": [[[[[").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Limit);
    /// # Ok::<(), a2ui_stream::official::progressive::Error>(())
    /// ```
    pub fn with_limits(mut self, limits: Limits) -> ProgressiveParser {
        self.limits = limits;
        self
    }

    /// The limits in force.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::progressive::{Limits, ProgressiveParser};
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// assert_eq!(ProgressiveParser::new(&catalog)?.limits(), Limits::default());
    /// # Ok::<(), a2ui_stream::official::progressive::Error>(())
    /// ```
    pub fn limits(&self) -> Limits {
        self.limits
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

    /// Takes the next chunk of the response and returns what it completed.
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
    ///
    /// An error names the rule that was broken and the byte where the fault is ([`Error`]), the
    /// same however well-formed JSON is cut into chunks, and costs only what broke the rule.
    /// The parser goes on: what the chunk completed before the error, and then the rest of the
    /// chunk, come out of the next call (an empty chunk will do).
    /// * A message the catalog rejects is left out.
    /// * A component that refers to itself, closes a cycle or ends a chain deeper than the
    ///   reference allows is set aside: the components that show it show its placeholder again,
    ///   and the rest of its message does not bring it back (a later message may).
    /// * A component update without its surface's root is reported; its components wait for it.
    /// * A block with no JSON object, or past one of the [`Limits`], is read past to its end.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::progressive::{ErrorKind, ProgressiveParser};
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {
    /// #     "Text": {"type": "object"},
    /// #     "Card": {"type": "object", "properties": {"child": {"type": "string", "title": "ComponentId"}}}}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// parser.process_chunk(r#"<a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "r"}}, "#)?;
    /// let bad = r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "r", "component": {"Card": {"child": "r"}}}]}}"#;
    /// let err = parser.process_chunk(bad).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Topology);
    /// assert!(err.message().starts_with("Self-reference detected: Component 'r'"));
    /// let component = bad.find(r#"{"id""#).unwrap() as u64;
    /// assert_eq!(err.offset(), 65 + component); // where that component begins
    /// // The next message still arrives, and so does the prose after the block.
    /// let parts = parser.process_chunk(r#", {"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "r", "component": {"Card": {"child": "t"}}}]}}]</a2ui-json> Bye."#)?;
    /// let shown = &parts[0].a2ui.as_ref().unwrap()[0]["surfaceUpdate"]["components"];
    /// assert_eq!(shown[0]["component"]["Card"]["child"], "loading_t");
    /// assert_eq!(parts[1].text.as_deref(), Some(" Bye."));
    /// # Ok::<(), a2ui_stream::official::progressive::Error>(())
    /// ```
    pub fn process_chunk(&mut self, chunk: &str) -> Result<Vec<ResponsePart>, Error> {
        self.step(chunk)
    }

    /// [`ProgressiveParser::process_chunk`] with every message as its compact JSON text, what a
    /// server sends on: the same messages (the text of each is what `serde_json` writes for the
    /// `Value` that `process_chunk` returns), made without building or copying their trees.
    /// Each component's text is kept until the component changes, so a step that repeats every
    /// reachable component costs about the length of what it writes. The two methods may be
    /// mixed on one parser.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::progressive::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {"Text": {"type": "object"}}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// parser.process_chunk_json(r#"<a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "t"}},"#)?;
    /// let parts = parser.process_chunk_json(r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "t", "component": {"Text": {"text": "Hi"}}}]}}"#)?;
    /// assert_eq!(
    ///     parts[0].a2ui.as_deref(),
    ///     Some(&[r#"{"surfaceUpdate":{"components":[{"component":{"Text":{"text":"Hi"}},"id":"t"}],"surfaceId":"s"}}"#.to_owned()][..])
    /// );
    /// # Ok::<(), a2ui_stream::official::progressive::Error>(())
    /// ```
    pub fn process_chunk_json(&mut self, chunk: &str) -> Result<Vec<ResponsePart<String>>, Error> {
        self.step(chunk)
    }

    fn step<M: Form>(&mut self, chunk: &str) -> Result<Vec<ResponsePart<M>>, Error> {
        let keep_last = self.mode == Emission::Official && self.version == Version::V08;
        let mut out = Out::new(keep_last);
        if !self.carried.is_empty() {
            out.parts = map_messages(std::mem::take(&mut self.carried), M::from_text);
        }
        let held = std::mem::take(&mut self.held);
        // Where `buffer` starts in the response.
        let start = self.fed.saturating_sub(held.len() as u64);
        self.fed = self.fed.saturating_add(chunk.len() as u64);
        let joined;
        let buffer: &str = if held.is_empty() {
            chunk
        } else {
            joined = held + chunk;
            &joined
        };
        let mut rest = buffer;
        loop {
            let at = start + (buffer.len() - rest.len()) as u64;
            let tag = if self.in_block { CLOSE_TAG } else { OPEN_TAG };
            let found = find_tag(rest, tag)
                .and_then(|pos| Some((rest.get(..pos)?, rest.get(pos + tag.len()..)?)));
            if let Some((before, after)) = found {
                if self.in_block {
                    if let Err((e, used)) = self.json_text(before, at, &mut out) {
                        return Err(self.stop(e, rest.get(used..).unwrap_or_default(), out));
                    }
                    let empty = !self.found_object && !self.json.closed_object && !self.abandoned;
                    self.end_block();
                    if empty {
                        let e = Error::new(
                            ErrorKind::Json,
                            "Failed to parse JSON: No valid JSON object found in A2UI block.",
                        );
                        return Err(self.stop(e.at(at + before.len() as u64), after, out));
                    }
                } else {
                    out.text(before);
                    self.in_block = true;
                }
                rest = after;
                continue;
            }
            // Hold back a possible start of the tag.
            let keep = held_back(rest, tag);
            let (now, later) = rest
                .split_at_checked(rest.len().saturating_sub(keep))
                .unwrap_or((rest, ""));
            if self.in_block {
                if let Err((e, used)) = self.json_text(now, at, &mut out) {
                    return Err(self.stop(e, rest.get(used..).unwrap_or_default(), out));
                }
            } else {
                out.text(now);
            }
            self.held = later.to_owned();
            break;
        }
        Ok(out.parts)
    }

    /// Ends a call at an error: what the chunk completed before it is handed out by the next
    /// call, which also takes `unread` (the text after the error) before its own chunk.
    #[cold]
    #[inline(never)]
    fn stop<M: Form>(&mut self, error: Error, unread: &str, out: Out<M>) -> Error {
        self.held = unread.to_owned();
        self.carried = map_messages(out.parts, M::into_text);
        error
    }

    /// Forgets the half-written JSON of a block that passed a limit (the rest of the block is
    /// read past until it ends) and returns the error that says so.
    #[cold]
    #[inline(never)]
    fn abandon_block(&mut self, message: String) -> Error {
        self.abandoned = true;
        self.json.reset();
        self.current = Current::default();
        Error::new(ErrorKind::Limit, message)
    }

    fn end_block(&mut self) {
        self.in_block = false;
        self.block_bytes = 0;
        self.abandoned = false;
        self.json.reset();
        self.found_object = false;
        self.current = Current::default();
    }

    /// Runs a piece of block text, which starts at byte `at` of the response, through the JSON
    /// builder, then looks at what is half-written. An error comes with the number of bytes of
    /// `text` taken before it was found (the rest is for the next call).
    fn json_text<M: Form>(
        &mut self,
        text: &str,
        at: u64,
        out: &mut Out<M>,
    ) -> Result<(), (Error, usize)> {
        if self.abandoned {
            return Ok(());
        }
        if self.block_bytes.saturating_add(text.len()) > self.limits.max_block_bytes {
            let e = self.abandon_block(format!(
                "A2UI block longer than {} bytes (the parser's max_block_bytes)",
                self.limits.max_block_bytes
            ));
            let past = self.limits.max_block_bytes.saturating_sub(self.block_bytes);
            return Err((e.at(at + past as u64 + 1), 0));
        }
        self.block_bytes += text.len();
        let mut rest = text;
        // Where an error was found, and how much of `text` was taken by then.
        let found = |rest: &str, e: Error| {
            let used = text.len() - rest.len();
            (e.at(at + used as u64), used)
        };
        // The plain characters of a string go in at once (nothing in them ends a value).
        while let Some(c) = self.json.next_char(&mut rest) {
            if !self.json.in_list() {
                if c == '[' {
                    self.json.open_list();
                }
                continue;
            }
            let (surfaces, surface) = (&self.surfaces, self.current.surface.as_deref());
            let wanted = |stack: &[Frame]| {
                stack.last().is_some_and(|f| f.anonymous)
                    || (is_component_frame(stack) && !stored_already(surfaces, surface, stack))
            };
            if matches!(c, '{' | '[') {
                // The bracket is the last byte taken off `rest`.
                self.json.pos = at + (text.len() - rest.len()) as u64 - 1;
            }
            let step = self.json.feed(c, wanted);
            // Only an opening bracket deepens the stack, whose first frame is the top-level list.
            if matches!(c, '{' | '[')
                && self.json.stack.len() > self.limits.max_depth.saturating_add(1)
            {
                let e = self.abandon_block(format!(
                    "A2UI block nested deeper than {} levels (the parser's max_depth)",
                    self.limits.max_depth
                ));
                return Err(found(rest, e));
            }
            match step {
                Step::Nothing => {
                    if c == '"' || c.is_ascii_digit() {
                        self.notice_surface_id();
                    }
                }
                Step::ListClosed | Step::Closed { value: None, .. } => {}
                Step::Closed {
                    depth,
                    value: Some(value),
                    at: opened,
                } => {
                    self.found_object |= value.is_object();
                    if depth == 1 {
                        let done = self.complete_message(value, opened, out);
                        // A message gives one error at most: the first fault found in it.
                        let failed = std::mem::take(&mut self.current).failed;
                        if !failed {
                            done.map_err(|e| found(rest, e))?;
                        }
                    } else if value.get("id").is_none()
                        && find_kind(&value, self.version == Version::V08).is_some()
                    {
                        // A message written where it does not belong is still taken.
                        self.complete_message(value, opened, out)
                            .map_err(|e| found(rest, e))?;
                    } else {
                        self.take_component(value, Vec::new(), opened);
                    }
                }
            }
        }
        if self.json.in_list() && self.json.dirty {
            self.json.dirty = false;
            self.sniff_component();
            self.sniff_data_model(out);
        }
        if self.queued.is_empty() {
            return Ok(());
        }
        let mut queued = std::mem::take(&mut self.queued);
        queued.sort();
        queued.dedup();
        for (i, sid) in queued.iter().enumerate() {
            if !self.surfaces.get(sid).is_some_and(|s| s.queued) {
                continue;
            }
            if let Err(e) = self.flush_surface(sid, false, out) {
                let writing = self.json.stack.len() > 1;
                if writing && self.current.failed {
                    // A message gives one error at most: a later fault in it is mended without
                    // one (its surface, queued again, is shown by the next call).
                    continue;
                }
                // The surfaces not flushed yet are flushed by the next call.
                self.queued.extend(queued.drain(i + 1..));
                // The fault is in the message being written, if any.
                self.current.failed = writing;
                return Err(found("", e));
            }
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
    fn take_component(&mut self, comp: Value, open_lists: Vec<String>, at: u64) {
        if !self.usable_component(&comp) {
            return;
        }
        let cached = Cached {
            value: comp,
            open_lists,
            at,
        };
        match self.current.surface.take() {
            Some(sid) => {
                self.store_component(&sid, cached);
                self.current.surface = Some(sid);
            }
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
        if self.current.rejected.contains(&id) {
            return;
        }
        let catalog = self.validator.catalog();
        if !self.surfaces.contains_key(sid) {
            self.surfaces.insert(sid.to_owned(), Surface::with_room());
        }
        let Some(surface) = self.surfaces.get_mut(sid) else {
            return;
        };
        if let Some(comp) = surface
            .comps
            .get_mut(&id)
            .filter(|c| c.value == cached.value && c.open_lists == cached.open_lists)
        {
            comp.at = cached.at;
            return;
        }
        let mut ids: Vec<&str> = Vec::new();
        let mut self_ref = None;
        catalog.for_each_reference(&cached.value, |r, field| {
            if r == id && self_ref.is_none() {
                self_ref = Some((id.clone(), field.to_string()));
            }
            ids.push(r);
        });
        // Usually the references known already start the new ones (a value grew elsewhere, or a
        // list is being written): those are kept and only the new ones copied.
        let known: &[String] = surface.comps.get(&id).map_or(&[], |c| &c.refs);
        let kept = match ids.get(..known.len()) {
            Some(start) if known.iter().map(String::as_str).eq(start.iter().copied()) => {
                known.len()
            }
            _ => 0,
        };
        let new_refs: Vec<String> = ids
            .get(kept..)
            .unwrap_or_default()
            .iter()
            .map(|r| (*r).to_owned())
            .collect();
        let seq = match surface.comps.get_mut(&id) {
            Some(comp) => {
                // Keep the form last made until it is made again (it is compared with the next).
                let old = std::mem::replace(&mut comp.value, cached.value);
                if comp.processed.is_none() && comp.version > 0 {
                    comp.processed = Some(old);
                }
                comp.open_lists = cached.open_lists;
                comp.at = cached.at;
                comp.refs.truncate(kept);
                comp.refs.extend(new_refs);
                comp.stale = true;
                comp.seq
            }
            None => {
                let seq = surface.next_seq;
                surface.next_seq += 1;
                surface.comps.insert(
                    id.clone(),
                    Comp {
                        value: cached.value,
                        open_lists: cached.open_lists,
                        at: cached.at,
                        seq,
                        refs: new_refs,
                        followed: Vec::new(),
                        processed: None,
                        stale: true,
                        placeholders: Vec::new(),
                        missing: Vec::new(),
                        version: 0,
                        yielded: AtomicU64::new(0),
                        text: OnceLock::new(),
                    },
                );
                // Components showing a placeholder for this id now show the real thing.
                if let Some(users) = surface.mentioned_by.get(&id) {
                    for user in users {
                        if let Some(comp) = surface.comps.get_mut(user) {
                            comp.stale = true;
                        }
                        surface.touched.push(user.clone());
                    }
                }
                seq
            }
        };
        match self_ref {
            Some(found) => {
                surface.self_refs.insert(seq, found);
            }
            None => {
                surface.self_refs.remove(&seq);
            }
        }
        surface.touched.push(id);
        if !surface.queued {
            surface.queued = true;
            self.queued.push(sid.to_owned());
        }
    }

    /// The reference skips components holding an empty object anywhere (a property still being
    /// written) and, for v0.8, components missing a required property.
    fn usable_component(&self, comp: &Value) -> bool {
        let has_id = comp
            .get("id")
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty());
        let body = comp.get("component");
        match body {
            Some(Value::String(s)) => has_id && !s.is_empty() && !has_empty_object(comp),
            Some(body @ Value::Object(typed)) => {
                if !has_id || typed.is_empty() || has_empty_object(body) {
                    return false;
                }
                let catalog = self.validator.catalog();
                typed.iter().all(|(kind, props)| match props {
                    Value::Object(props) => catalog
                        .required_fields(kind)
                        .iter()
                        .all(|r| props.contains_key(r)),
                    _ => true,
                })
            }
            _ => false,
        }
    }

    /// A quick look at the open component at `stack[index]`, before copying it: false when the
    /// copy would surely be unusable (no id yet, or an object just opened and still empty).
    fn may_be_usable(&self, index: usize) -> bool {
        let stack = &self.json.stack;
        let has_id = matches!(
            stack.get(index),
            Some(Frame { body: Body::Object { map, .. }, .. })
                if map.get("id").and_then(Value::as_str).is_some_and(|id| !id.is_empty())
        );
        let top = stack.len().saturating_sub(1);
        // Without its `component` member (finished or open) it is never usable.
        let has_body = top > index
            || matches!(
                stack.get(index),
                Some(Frame { body: Body::Object { map, .. }, .. }) if map.contains_key("component")
            );
        if !has_id || !has_body {
            return false;
        }
        // An open object shows a member once one is finished, or through its open child, or
        // (innermost) through a cut string it may show.
        stack
            .iter()
            .enumerate()
            .skip(index + 1)
            .all(|(i, frame)| match &frame.body {
                Body::Object { map, key, .. } if map.is_empty() => {
                    if i == top {
                        self.json.cut_string(heal_component_string).is_some()
                    } else {
                        key.is_some()
                    }
                }
                _ => true,
            })
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
        if !self.may_be_usable(index) {
            return;
        }
        let snapshot = self.json.snapshot(index, heal_component_string);
        let Some(snapshot) = snapshot else { return };
        let at = self.json.stack.get(index).map_or(0, |f| f.at);
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
        self.take_component(snapshot, open_lists, at);
    }

    /// Passes on what changed in a data-model update being written.
    fn sniff_data_model<M: Form>(&mut self, out: &mut Out<M>) {
        let (kind, data, entries) = match self.version {
            Version::V08 => ("dataModelUpdate", "contents", true),
            Version::V09 => ("updateDataModel", "value", false),
        };
        let is_dm = matches!(
            self.json.stack.get(1),
            Some(Frame { body: Body::Object { map, key, .. }, .. })
                if key.as_deref() == Some(kind) || map.contains_key(kind)
        );
        if !is_dm {
            return;
        }
        let mut walk = Walk {
            emitted: &mut self.emitted_data,
            changes: Vec::new(),
            heal: heal_data_string,
            want_entries: self.mode == Emission::ChangedOnly,
        };
        walk.message(&mut self.json, kind, data, entries);
        let changes = walk.changes;
        if changes.is_empty() {
            return;
        }
        // The payload as it stands, for its surface and path.
        let payload = match self.json.stack.get(2) {
            Some(Frame {
                key: Some(k),
                body: Body::Object { map, .. },
                ..
            }) if k == kind => Some(map),
            _ => match self.json.stack.get(1) {
                Some(Frame {
                    body: Body::Object { map, .. },
                    ..
                }) => map.get(kind).and_then(Value::as_object),
                _ => None,
            },
        };
        let sid = payload
            .and_then(|p| p.get("surfaceId"))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .or(self.current.surface.as_deref())
            .unwrap_or("default")
            .to_owned();
        let path = payload.and_then(|p| p.get("path")).cloned();
        let mut messages = Vec::new();
        // Messages already found acceptable.
        let mut checked = Vec::new();
        match (self.version, self.mode) {
            (Version::V08, Emission::Official) => {
                // Every entry so far, the latest per key, as the reference sends them: while
                // the list is open, from the entries made ready as they finished.
                let open_list = self.validator.checks_entries_apart()
                    && matches!(self.json.stack.get(2), Some(f) if f.key.as_deref() == Some(kind))
                    && matches!(
                        self.json.stack.get(3),
                        Some(Frame { key: Some(k), body: Body::Array(_), .. }) if k == data
                    );
                if open_list {
                    let update = self.entries.update::<M>(
                        &self.json,
                        3,
                        &self.validator,
                        &sid,
                        path.as_ref(),
                    );
                    if let Some(update) = update {
                        out.message(update);
                    }
                    return;
                }
                let payload = if matches!(self.json.stack.get(2), Some(f) if f.key.as_deref() == Some(kind))
                {
                    self.json.snapshot(2, heal_data_string)
                } else {
                    payload.map(|p| Value::Object(p.clone()))
                };
                let Some(Value::Array(list)) =
                    payload.and_then(|mut p| p.get_mut(data).map(Value::take))
                else {
                    return;
                };
                messages.push(wrap_entries(&sid, path, latest_entries(list)));
            }
            (Version::V09, Emission::Official) => {
                // The top-level keys that changed, each whole.
                let mut delta = Map::new();
                for change in &changes {
                    if let Some(Seg::Key(k)) = change.path.first() {
                        if !delta.contains_key(k) {
                            let v = self.emitted_data.get(k).cloned().unwrap_or(Value::Null);
                            delta.insert(k.clone(), v);
                        }
                    }
                }
                messages.push(object([
                    ("version", Value::from("v0.9")),
                    (
                        kind,
                        object([
                            ("surfaceId", Value::String(sid)),
                            ("value", Value::Object(delta)),
                        ]),
                    ),
                ]));
            }
            (Version::V08, Emission::ChangedOnly) => {
                // The changed entries, grouped by the map they sit in.
                let base = path.as_ref().and_then(Value::as_str);
                let mut groups: Vec<(&[Seg], Vec<Value>)> = Vec::new();
                for change in &changes {
                    let Some(entry) = &change.entry else { continue };
                    let parent = change
                        .path
                        .split_last()
                        .map_or(&[][..], |(_, parent)| parent);
                    match groups.iter_mut().find(|(p, _)| *p == parent) {
                        Some((_, list)) => list.push(entry.clone()),
                        None => groups.push((parent, vec![entry.clone()])),
                    }
                }
                for (parent, list) in groups {
                    let path = (!parent.is_empty() || base.is_some())
                        .then(|| Value::String(pointer(base, parent)));
                    messages.push(wrap_entries(&sid, path, list));
                }
            }
            (Version::V09, Emission::ChangedOnly) => {
                // A change at the top goes in one message without a path, as in official
                // mode; a deeper one at its own path (placed from the top, as the reference
                // places partial values), or under its top-level key when the catalog does not
                // accept a path.
                let mut top = Map::new();
                for change in &changes {
                    let Some(Seg::Key(first)) = change.path.first() else {
                        continue;
                    };
                    if change.path.len() > 1 {
                        let value = value_at(&self.emitted_data, &change.path)
                            .cloned()
                            .unwrap_or(Value::Null);
                        let msg = object([
                            ("version", Value::from("v0.9")),
                            (
                                kind,
                                object([
                                    ("surfaceId", Value::from(sid.as_str())),
                                    ("path", Value::String(pointer(None, &change.path))),
                                    ("value", value),
                                ]),
                            ),
                        ]);
                        if self.validator.validate_with(&msg, false).is_ok() {
                            checked.push(msg);
                            continue;
                        }
                    }
                    if !top.contains_key(first) {
                        let v = self.emitted_data.get(first).cloned().unwrap_or(Value::Null);
                        top.insert(first.clone(), v);
                    }
                }
                if !top.is_empty() {
                    messages.push(object([
                        ("version", Value::from("v0.9")),
                        (
                            kind,
                            object([
                                ("surfaceId", Value::String(sid)),
                                ("value", Value::Object(top)),
                            ]),
                        ),
                    ]));
                }
            }
        }
        for msg in checked {
            out.message(M::message(msg));
        }
        for msg in messages {
            self.emit_loose(msg, out);
        }
    }

    /// Emits a message built while streaming; one the catalog rejects is left out.
    fn emit_loose<M: Form>(&mut self, msg: Value, out: &mut Out<M>) {
        if self.validator.validate_with(&msg, false).is_ok() {
            out.message(M::message(msg));
        }
    }

    /// Emits a message that arrived whole; one the catalog rejects is an error.
    fn emit_strict<M: Form>(&mut self, msg: Value, out: &mut Out<M>) -> Result<(), Error> {
        self.validator
            .validate_with(&msg, true)
            .map_err(|e| Error::new(classify(&e.to_string()), e.to_string()))?;
        out.message(M::message(msg));
        Ok(())
    }

    /// Emits a finished message that already passed the check without strict integrity: when
    /// it holds no component list the strict check is the same check and is not run again.
    fn emit_finished<M: Form>(&mut self, msg: Value, out: &mut Out<M>) -> Result<(), Error> {
        let update_key = match self.version {
            Version::V08 => "surfaceUpdate",
            Version::V09 => "updateComponents",
        };
        if msg.get(update_key).is_some() {
            return self.emit_strict(msg, out);
        }
        out.message(M::message(msg));
        Ok(())
    }

    fn complete_message<M: Form>(
        &mut self,
        mut msg: Value,
        at: u64,
        out: &mut Out<M>,
    ) -> Result<(), Error> {
        self.found_object = true;
        let v08 = self.version == Version::V08;
        if let Err(e) = self.validator.validate_with(&msg, false) {
            let mut error = Error::new(classify(e.message()), e.message());
            // Its surface may hold the components that broke the rule (taken while it was
            // written): they must not break it again.
            let sid = find_kind(&msg, v08)
                .and_then(|(_, payload)| payload.get("surfaceId"))
                .and_then(Value::as_str)
                .or(self.current.surface.as_deref())
                .map(str::to_owned);
            if let Some(sid) = sid {
                let first = self.heal(&sid);
                // A topology fault is reported as the surface's own check words and places it,
                // as when it is found while the message is written (the message alone may show
                // another component of the same cycle first); else it is placed where the
                // component it names begins (nothing was set aside, so that one is still here).
                if error.kind == ErrorKind::Topology {
                    error = match (first, self.surfaces.get(&sid), e.component()) {
                        (Some(found), _, _) => found,
                        (None, Some(surface), Some(id)) => surface.place(error, id),
                        _ => error,
                    };
                }
            }
            return Err(error);
        }
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
                let surface = self
                    .surfaces
                    .entry(sid.clone())
                    .or_insert_with(Surface::with_room);
                let root = root.or_else(|| surface.root.clone());
                surface.set_root(root.unwrap_or_else(|| DEFAULT_ROOT.to_owned()));
                if !surface.started {
                    surface.started = true;
                    self.emit_finished(msg, out)?;
                }
                self.flush_surface(&sid, false, out)
            }
            "surfaceUpdate" | "updateComponents" => {
                let surface = self
                    .surfaces
                    .entry(sid.clone())
                    .or_insert_with(Surface::with_room);
                if let Some(root) = payload.get("root").and_then(Value::as_str) {
                    surface.set_root(root.to_owned());
                } else if surface.root.is_none() && !v08 {
                    surface.set_root(DEFAULT_ROOT.to_owned());
                }
                let started = surface.started;
                // The message itself is not passed on: its components are moved out of it.
                let list = msg
                    .get_mut(kind)
                    .and_then(|p| p.get_mut("components"))
                    .map(Value::take);
                if let Some(Value::Array(list)) = list {
                    for comp in list {
                        let Some(id) = comp.get("id").and_then(Value::as_str) else {
                            continue;
                        };
                        // Each was taken as it closed, where it began; one that was not is
                        // placed where its message begins.
                        let at = self
                            .surfaces
                            .get(&sid)
                            .and_then(|s| s.comps.get(id))
                            .map_or(at, |c| c.at);
                        let cached = Cached {
                            value: comp,
                            open_lists: Vec::new(),
                            at,
                        };
                        self.store_component(&sid, cached);
                    }
                }
                if started {
                    self.flush_surface(&sid, true, out)?;
                }
                Ok(())
            }
            "deleteSurface" => {
                let started = self.surfaces.get(&sid).is_some_and(|s| s.started);
                if started {
                    self.surfaces.remove(&sid);
                    self.emit_finished(msg, out)?;
                }
                Ok(())
            }
            _ => {
                // A data-model update that arrived whole: pass it on if it brings anything new.
                if self.data_is_new(payload) {
                    self.emit_finished(msg, out)?;
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

    /// After an error: sets aside every component of `sid` that refers to itself, closes a cycle
    /// or ends a chain too deep (see [`Surface::set_aside`]), so that the same fault is not found
    /// again, and queues the surface to be shown again without them. The message being written
    /// does not bring them back. Returns the first fault it mended (see
    /// [`Surface::first_fault`]), the one to report.
    #[cold]
    #[inline(never)]
    fn heal(&mut self, sid: &str) -> Option<Error> {
        let surface = self.surfaces.get_mut(sid)?;
        let mut first = None;
        // A record of a self-reference whose component is gone is stale.
        let comps = &surface.comps;
        surface
            .self_refs
            .retain(|_, (id, _)| comps.contains_key(id));
        // Each round takes out one component, in the order the faults were written.
        for _ in 0..=surface.comps.len() {
            let Some((fault, bad)) = surface.first_fault() else {
                break;
            };
            first.get_or_insert(fault);
            surface.set_aside(&bad);
            self.current.rejected.push(bad);
        }
        if surface.queued {
            self.queued.push(sid.to_owned());
        }
        first
    }

    /// Emits the components of `sid` reachable from its root, if anything changed: in official
    /// mode all of them, in changed-only mode those that changed. Only the components stored
    /// since the last flush (and those whose placeholders they resolve) are looked at, unless
    /// the reachable set has to be worked out again.
    fn flush_surface<M: Form>(
        &mut self,
        sid: &str,
        check_root: bool,
        out: &mut Out<M>,
    ) -> Result<(), Error> {
        let version = self.version;
        let mode = self.mode;
        let validator = Arc::clone(&self.validator);
        let Some(surface) = self.surfaces.get_mut(sid) else {
            return Ok(());
        };
        surface.queued = false;
        if !surface.started {
            return Ok(());
        }
        let Some(root) = surface.root.clone() else {
            return Ok(());
        };
        if check_root && !surface.comps.contains_key(&root) {
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
        if let Some((id, field)) = surface.self_refs.values().next() {
            let e = self_reference(id, field);
            return Err(self.heal(sid).unwrap_or(e));
        }
        let mut touched = std::mem::take(&mut surface.touched);
        touched.sort_unstable();
        touched.dedup();
        let mut candidates = Vec::new();
        let full = surface.reach_stale
            || (surface.reach.is_empty() && surface.comps.contains_key(&root))
            || surface.grow(&touched, &mut candidates).is_err();
        if full {
            surface.reach = match full_reach(surface, &root) {
                Ok(reach) => reach,
                Err(e) => return Err(self.heal(sid).unwrap_or(e)),
            };
            surface.reach_stale = false;
            candidates.clear();
            for id in surface.reach.keys() {
                if let Some(comp) = surface.comps.get_mut(id) {
                    comp.followed.clone_from(&comp.refs);
                    candidates.push(id.clone());
                }
            }
        }
        // In order, each once (as the reachable set and the renderer see them).
        candidates.sort_unstable();
        candidates.dedup();
        // Bring the emitted form of every candidate up to date.
        let mut changed = false;
        for id in &candidates {
            surface.refresh(id, sid, version, &validator);
            if let Some(comp) = surface.comps.get(id) {
                changed |= comp.yielded.load(Ordering::Relaxed) != comp.version
                    || comp
                        .placeholders
                        .iter()
                        .any(|p| !surface.yielded_placeholders.contains(p));
            }
        }
        // What to send: everything reachable, or what the renderer does not have yet.
        if surface.sid_json.is_empty() {
            surface.sid_json = compact_json(&Value::from(sid));
        }
        let Surface {
            reach,
            comps,
            invalid,
            placeholder_ok,
            yielded_placeholders,
            pending,
            sid_json,
            ..
        } = surface;
        // Each component to send is picked in the same look-up that marks it sent (sent as
        // text, its text is made below unless it is made already for its version).
        let mut fresh: Vec<String> = Vec::new();
        let picked: Vec<&Comp> = match mode {
            Emission::Official if changed => {
                // Official mode counts a rejected step as sent, as the reference does.
                let mut picked = Vec::with_capacity(reach.len());
                for id in reach.keys() {
                    if let Some(comp) = comps.get(id) {
                        comp.yielded.store(comp.version, Ordering::Relaxed);
                        picked.push(comp);
                    }
                }
                picked
            }
            Emission::Official => return Ok(()),
            Emission::ChangedOnly => {
                let mut all = std::mem::take(pending);
                all.extend(candidates);
                // What the renderer does not have yet, picked in the look-up that finds it.
                let mut picked = Vec::new();
                for id in all {
                    let unsent = comps
                        .get(&id)
                        .filter(|c| c.yielded.load(Ordering::Relaxed) != c.version);
                    if let Some(comp) = unsent.filter(|_| reach.contains_key(&id)) {
                        picked.push(comp);
                        fresh.push(id);
                    }
                }
                picked
            }
        };
        if picked.is_empty() {
            return Ok(());
        }
        // First whether the step is accepted and which placeholders it shows, so that the
        // message is made only when it is sent.
        let mut new_placeholders: Vec<String> = Vec::new();
        let mut accepted = invalid.iter().all(|id| !reach.contains_key(id));
        let mut message = None;
        {
            let mut seen = Seen::default();
            let mut shown: Vec<&Placeholder> = Vec::new();
            let mut items: Vec<(&Value, &str)> = Vec::with_capacity(picked.len());
            for comp in &picked {
                items.push((comp.emitted(), if M::TEXT { comp.text() } else { "" }));
                for pid in &comp.placeholders {
                    if !seen.insert(pid) {
                        continue;
                    }
                    let known = placeholder_ok.get(pid);
                    accepted &= known.is_some_and(|made| made.ok)
                        && !(comps.contains_key(pid) && reach.contains_key(pid));
                    let new = !yielded_placeholders.contains(pid);
                    if new {
                        new_placeholders.push(pid.clone());
                    }
                    if let Some(made) = known.filter(|_| mode == Emission::Official || new) {
                        shown.push(made);
                    }
                }
            }
            if accepted {
                items.extend(
                    shown
                        .into_iter()
                        .map(|p| (&p.made, if M::TEXT { p.text() } else { "" })),
                );
                message = Some(M::components(version, (sid, sid_json.as_str()), &items));
            }
        }
        if mode == Emission::ChangedOnly {
            if !accepted {
                pending.extend(fresh);
                return Ok(());
            }
            for comp in &picked {
                comp.yielded.store(comp.version, Ordering::Relaxed);
            }
        }
        yielded_placeholders.extend(new_placeholders);
        if let Some(message) = message {
            out.update(sid, message);
        }
        Ok(())
    }
}

impl Surface {
    /// The topology fault that a check after each reference would have found first, with the
    /// component at fault (the one that made that reference), or `None` when there is none.
    ///
    /// The references of the surface are taken in the order they were written (by where their
    /// component begins, then by their place in it), and the shortest run of them that holds a
    /// self-reference, or a cycle or a chain too deep reachable from the root, is found by
    /// halving (each such fault stays when references are added). Its last reference is the
    /// one at fault. So the fault reported, and the component set aside, do not depend on how
    /// much of the response each check saw: one check after a whole message finds what checks
    /// after each chunk found first.
    #[cold]
    #[inline(never)]
    fn first_fault(&self) -> Option<(Error, String)> {
        let mut refs: Vec<((u64, usize), &str)> = self
            .comps
            .iter()
            .flat_map(|(id, c)| (0..c.refs.len()).map(move |i| ((c.at, i), id.as_str())))
            .collect();
        refs.sort_unstable();
        // The fault within the first `n` references, if any.
        let fault_within = |n: usize| -> Option<Error> {
            let taken = refs.get(..n).unwrap_or_default();
            let mut counts: QuickMap<&str, usize> = QuickMap::default();
            for (_, id) in taken {
                *counts.entry(id).or_default() += 1;
            }
            for &((_, i), id) in taken {
                let comp = self.comps.get(id)?;
                if comp.refs.get(i).is_some_and(|r| r == id) {
                    let field = self
                        .self_refs
                        .values()
                        .find(|(who, _)| who == id)
                        .map_or("", |(_, f)| f.as_str());
                    return Some(self_reference(id, field));
                }
            }
            let root = self.root.as_deref()?;
            let written = |id: &str, c: &Comp| counts.get(id).map_or(0, |n| (*n).min(c.refs.len()));
            walk_from(self, root, written).err()
        };
        let all = refs.len();
        fault_within(all)?;
        // The fewest references that hold a fault: more than `lo`, at most `hi`.
        let (mut lo, mut hi) = (0, all);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fault_within(mid).is_some() {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let e = fault_within(hi)?;
        let (_, culprit) = refs.get(hi - 1)?;
        Some((self.place(e, culprit), (*culprit).to_owned()))
    }

    /// `error`, placed where component `id` begins if it is here.
    #[cold]
    fn place(&self, error: Error, id: &str) -> Error {
        match self.comps.get(id) {
            Some(comp) => error.at(comp.at),
            None => error,
        }
    }

    /// A surface with room for a typical UI (a table that grows allocates again each time).
    fn with_room() -> Surface {
        Surface {
            comps: QuickMap::with_capacity_and_hasher(ROOM, QuickState::default()),
            mentioned_by: QuickMap::with_capacity_and_hasher(ROOM, QuickState::default()),
            placeholder_ok: QuickMap::with_capacity_and_hasher(ROOM, QuickState::default()),
            yielded_placeholders: QuickSet::with_capacity_and_hasher(ROOM, QuickState::default()),
            ..Surface::default()
        }
    }

    /// Takes out component `id`, which broke a topology rule (it refers to itself, closes a
    /// cycle, or ends a chain too deep): the components that refer to it show its placeholder
    /// again, and the reachable set is worked out again at the next flush.
    #[cold]
    fn set_aside(&mut self, id: &str) {
        self.queued = true;
        self.reach_stale = true;
        let Some(comp) = self.comps.remove(id) else {
            return;
        };
        self.self_refs.remove(&comp.seq);
        self.invalid.remove(id);
        for child in &comp.missing {
            if let Some(users) = self.mentioned_by.get_mut(child) {
                users.remove(id);
            }
        }
        for (other, c) in self.comps.iter_mut() {
            if c.refs.iter().any(|r| r == id) {
                c.stale = true;
                self.touched.push(other.clone());
            }
        }
    }

    /// Sets the root; the reachable set is then worked out again.
    fn set_root(&mut self, root: String) {
        if self.root.as_deref() != Some(root.as_str()) {
            self.root = Some(root);
            self.reach_stale = true;
        }
    }

    /// Extends `reach` with what the `touched` components now refer to, adding every component
    /// that became reachable or changed while reachable to `candidates`. Fails (leaving `reach`
    /// to be worked out again) when a reference went away, or one leads back into what was
    /// reachable before (a shared child or a cycle), or the depth limit is passed.
    fn grow(&mut self, touched: &[String], candidates: &mut Vec<String>) -> Result<(), ()> {
        let mut added: QuickSet<String> = QuickSet::default();
        for id in touched {
            let (Some(&depth), Some(comp)) = (self.reach.get(id), self.comps.get(id)) else {
                continue;
            };
            candidates.push(id.clone());
            // Usually the references only grew at the end (a list being written): then what
            // was followed is all still there, and only the new tail needs a look.
            let kept = if comp.refs.starts_with(&comp.followed) {
                comp.followed.len()
            } else if comp.followed.iter().any(|r| !comp.refs.contains(r)) {
                return Err(());
            } else {
                0
            };
            let new_refs: Vec<String> = comp
                .refs
                .iter()
                .skip(kept)
                .filter(|r| !comp.followed.contains(r))
                .cloned()
                .collect();
            for r in new_refs {
                if self.reach.contains_key(&r) {
                    if !added.contains(&r) {
                        return Err(());
                    }
                } else {
                    self.reach_from(r, depth + 1, &mut added, candidates)?;
                }
            }
            if let Some(comp) = self.comps.get_mut(id) {
                if comp.followed != comp.refs {
                    comp.followed.clone_from(&comp.refs);
                }
            }
        }
        Ok(())
    }

    /// Depth-first walk from a newly reachable id through components not reachable before.
    fn reach_from(
        &mut self,
        start: String,
        depth: usize,
        added: &mut QuickSet<String>,
        candidates: &mut Vec<String>,
    ) -> Result<(), ()> {
        if depth > MAX_GLOBAL_DEPTH {
            return Err(());
        }
        let mut on_path: QuickSet<String> = QuickSet::default();
        let mut stack: Vec<WalkStep> = Vec::new();
        self.enter(start, depth, added, candidates, &mut on_path, &mut stack);
        while let Some((id, depth, refs, next)) = stack.last_mut() {
            match refs.get(*next) {
                Some(r) => {
                    *next += 1;
                    let (r, child_depth) = (r.clone(), *depth + 1);
                    if on_path.contains(&r) || child_depth > MAX_GLOBAL_DEPTH {
                        return Err(());
                    }
                    if self.reach.contains_key(&r) {
                        if added.contains(&r) {
                            continue;
                        }
                        return Err(());
                    }
                    self.enter(r, child_depth, added, candidates, &mut on_path, &mut stack);
                }
                None => {
                    let id = std::mem::take(id);
                    let refs = std::mem::take(refs);
                    on_path.remove(&id);
                    if let Some(comp) = self.comps.get_mut(&id) {
                        comp.followed = refs;
                    }
                    stack.pop();
                }
            }
        }
        Ok(())
    }

    /// Marks `id` reachable at `depth` and puts it on the walk's stack.
    fn enter(
        &mut self,
        id: String,
        depth: usize,
        added: &mut QuickSet<String>,
        candidates: &mut Vec<String>,
        on_path: &mut QuickSet<String>,
        stack: &mut Vec<WalkStep>,
    ) {
        self.reach.insert(id.clone(), depth);
        added.insert(id.clone());
        on_path.insert(id.clone());
        let refs = match self.comps.get(&id) {
            Some(comp) => {
                candidates.push(id.clone());
                comp.refs.clone()
            }
            None => Vec::new(),
        };
        stack.push((id, depth, refs, 0));
    }

    /// Brings the emitted form of `id` up to date (placeholders, paths) and checks it against
    /// the catalog when it changed.
    fn refresh(&mut self, id: &str, sid: &str, version: Version, validator: &Validator) {
        let Some(comp) = self.comps.get_mut(id) else {
            return;
        };
        if !comp.stale {
            return;
        }
        if comp.open_lists.is_empty() && !needs_processing(&comp.value, version) {
            // Nothing to swap or rewrite: the component is its own emitted form.
            let same = comp.processed.as_ref() == Some(&comp.value) && comp.version > 0;
            comp.processed = None;
            comp.stale = false;
            comp.placeholders.clear();
            let old_missing = std::mem::take(&mut comp.missing);
            if !same {
                let value = std::mem::take(&mut comp.value);
                let (back, ok) = validator.check_component(&mut self.check, sid, value, false);
                comp.value = back;
                comp.bump();
                if ok {
                    self.invalid.remove(id);
                } else {
                    self.invalid.insert(id.to_owned());
                }
            }
            for child in &old_missing {
                if let Some(users) = self.mentioned_by.get_mut(child) {
                    users.remove(id);
                }
            }
            return;
        }
        let old_missing = std::mem::take(&mut comp.missing);
        let old_placeholders = std::mem::take(&mut comp.placeholders);
        let Some(comp) = self.comps.get(id) else {
            return;
        };
        let mut processed = comp.value.clone();
        let comps = &self.comps;
        let (placeholders, missing, rewritten) = process_component(
            &mut processed,
            &comp.open_lists,
            |child| comps.contains_key(child),
            version,
            old_placeholders,
        );
        let last = if comp.version == 0 {
            None
        } else {
            Some(comp.emitted())
        };
        // Nothing rewritten: `processed` is `value` itself (no need to compare them).
        let same = match last {
            Some(last) if !rewritten && comp.processed.is_none() => {
                debug_assert!(*last == processed);
                true
            }
            _ => last == Some(&processed),
        };
        let processed = if same {
            None
        } else {
            // Its own references were checked when it was stored; a placeholder can only make
            // it refer to itself if its id is that placeholder's.
            let may_refer_to_itself = id
                .strip_prefix("loading_")
                .is_some_and(|child| missing.iter().any(|m| m == child));
            let (back, ok) =
                validator.check_component(&mut self.check, sid, processed, may_refer_to_itself);
            if ok {
                self.invalid.remove(id);
            } else {
                self.invalid.insert(id.to_owned());
            }
            Some(back)
        };
        for pid in &placeholders {
            if !self.placeholder_ok.contains_key(pid) {
                let (made, ok) = validator.check_component(
                    &mut self.check,
                    sid,
                    placeholder(pid, version),
                    false,
                );
                let made = Placeholder {
                    ok,
                    made,
                    text: OnceLock::new(),
                };
                self.placeholder_ok.insert(pid.clone(), made);
            }
        }
        if old_missing != missing {
            for child in old_missing.iter().filter(|c| !missing.contains(c)) {
                if let Some(users) = self.mentioned_by.get_mut(child) {
                    users.remove(id);
                }
            }
            for child in missing.iter().filter(|c| !old_missing.contains(c)) {
                self.mentioned_by
                    .entry(child.clone())
                    .or_default()
                    .insert(id.to_owned());
            }
        }
        if let Some(comp) = self.comps.get_mut(id) {
            comp.stale = false;
            comp.placeholders = placeholders;
            comp.missing = missing;
            match processed {
                Some(processed) => {
                    debug_assert_eq!(rewritten, processed != comp.value);
                    comp.processed = rewritten.then_some(processed);
                    comp.bump();
                }
                None => {
                    // Unchanged: keep the form, unless it is the component itself.
                    if comp.processed.as_ref() == Some(&comp.value) {
                        comp.processed = None;
                    }
                }
            }
        }
    }
}

/// Whether making the emitted form of `comp` could change anything: it names children (which
/// may be missing), or (v0.8) has a data-binding path that is relative or sits beside other
/// members. Mirrors what [`process_component`] rewrites.
fn needs_processing(comp: &Value, version: Version) -> bool {
    fn walk(v: &Value, version: Version) -> bool {
        match v {
            Value::Object(obj) => {
                if has_child_field(obj) {
                    return true;
                }
                if version == Version::V08 {
                    match obj.get("path") {
                        Some(Value::String(p)) if p.starts_with('/') => {
                            if obj.len() > 1 && !obj.contains_key("componentId") {
                                return true;
                            }
                        }
                        Some(Value::Null) | None => {}
                        Some(_) => return true,
                    }
                }
                obj.values().any(|child| walk(child, version))
            }
            Value::Array(items) => items.iter().any(|item| walk(item, version)),
            _ => false,
        }
    }
    match comp.get("component") {
        Some(body @ Value::Object(_)) => walk(body, version),
        _ => walk(comp, version),
    }
}

/// Whether `obj` has one of the [`CHILD_FIELDS`] (one look at each key, cheaper than looking
/// each field up in a small object).
fn has_child_field(obj: &Map<String, Value>) -> bool {
    obj.keys().any(|k| CHILD_FIELDS.contains(&k.as_str()))
}

/// An object from its members, moved in (the `json!` macro would copy interpolated values).
fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    // One insert at a time: for a few members cheaper than collecting (which sorts first).
    let mut map = Map::new();
    for (k, v) in members {
        map.insert(k.to_owned(), v);
    }
    Value::Object(map)
}

/// A component on a depth-first walk: id, depth, its references, the next one to follow.
type WalkStep = (String, usize, Vec<String>, usize);

/// The v0.8 entries a partial data-model update is sent with: for every key that has a value
/// somewhere, its last entry, in order, pruned of what is incomplete.
fn latest_entries(list: Vec<Value>) -> Vec<Value> {
    let keep = latest_per_key(
        list.iter()
            .map(|e| (e.get("key").and_then(Value::as_str), has_value(e))),
    );
    list.into_iter()
        .zip(keep)
        .filter(|(_, keep)| *keep)
        .filter_map(|(entry, _)| prune_entry_owned(entry))
        .collect()
}

/// Which v0.8 entries, each given as its key (when it is a string) and whether it has a value, a
/// partial update sends: for every key that has a value somewhere, its last entry.
fn latest_per_key<'a>(
    entries: impl DoubleEndedIterator<Item = (Option<&'a str>, bool)> + Clone,
) -> Vec<bool> {
    // Keys with a value somewhere, and keys already kept, walking back from the end.
    let mut valued = Seen::default();
    for key in entries
        .clone()
        .filter(|(_, valued)| *valued)
        .filter_map(|(key, _)| key)
    {
        valued.insert(key);
    }
    let mut seen = Seen::default();
    let mut keep: Vec<bool> = entries
        .rev()
        .map(|(key, _)| key.is_some_and(|k| valued.contains(k) && seen.insert(k)))
        .collect();
    keep.reverse();
    keep
}

/// Strings met so far, each said new once: a list while there are a few (nothing allocated
/// until the first), a hash table after.
#[derive(Default)]
struct Seen<'a> {
    few: Vec<&'a str>,
    many: QuickSet<&'a str>,
}

impl<'a> Seen<'a> {
    /// Whether `s` is met for the first time (and notes it).
    fn insert(&mut self, s: &'a str) -> bool {
        if !self.many.is_empty() {
            return self.many.insert(s);
        }
        if self.few.contains(&s) {
            return false;
        }
        if self.few.len() < FEW {
            self.few.push(s);
        } else {
            self.many.extend(self.few.drain(..));
            self.many.insert(s);
        }
        true
    }

    /// Whether `s` was met.
    fn contains(&self, s: &str) -> bool {
        if self.many.is_empty() {
            self.few.contains(&s)
        } else {
            self.many.contains(s)
        }
    }
}

/// Components (and placeholders) a surface has room for from the start.
const ROOM: usize = 16;

/// Up to this many keys or ids, a list compared one by one finds one sooner than a hash table
/// (and allocates once, not twice).
const FEW: usize = 16;

/// `contents` as the v0.8 `dataModelUpdate` of surface `sid`, at `path` when there is one.
fn wrap_entries(sid: &str, path: Option<Value>, contents: Vec<Value>) -> Value {
    let mut body = Map::new();
    body.insert("surfaceId".into(), Value::from(sid));
    body.insert("contents".into(), Value::Array(contents));
    if let Some(path) = path {
        body.insert("path".into(), path);
    }
    object([("dataModelUpdate", Value::Object(body))])
}

/// The entry list of an update made by [`wrap_entries`].
fn entries_slot(update: &mut Value) -> Option<&mut Vec<Value>> {
    update
        .get_mut("dataModelUpdate")?
        .get_mut("contents")?
        .as_array_mut()
}

/// Below this length a plain loop finds a byte sooner than `memchr` (chunks are often a few
/// bytes long).
const SHORT: usize = 32;

/// Where the byte `b` first occurs in `bytes`.
fn find_byte(b: u8, bytes: &[u8]) -> Option<usize> {
    if bytes.len() < SHORT {
        bytes.iter().position(|&c| c == b)
    } else {
        memchr::memchr(b, bytes)
    }
}

/// Where `tag` starts in `text`.
fn find_tag(text: &str, tag: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = bytes.get(from..).and_then(|rest| find_byte(b'<', rest)) {
        let at = from + i;
        if bytes
            .get(at..)
            .is_some_and(|b| b.starts_with(tag.as_bytes()))
        {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// How many bytes at the end of `text` may be the start of `tag` (and must wait).
fn held_back(text: &str, tag: &str) -> usize {
    let bytes = text.as_bytes();
    let tail = bytes.len().saturating_sub(tag.len().saturating_sub(1));
    let Some(lt) = bytes.get(tail..).and_then(|t| find_byte(b'<', t)) else {
        return 0;
    };
    let from = tail + lt;
    (from..bytes.len())
        .find(|&i| {
            bytes
                .get(i..)
                .is_some_and(|rest| tag.as_bytes().starts_with(rest))
        })
        .map_or(0, |i| bytes.len() - i)
}

/// Whether the component closing at the top of `stack` is stored already, exactly as it closes
/// (the last look at it while it was open saw all of it), on surface `sid`: then handing it over
/// would change nothing, and it is not copied.
fn stored_already(
    surfaces: &QuickMap<String, Surface>,
    sid: Option<&str>,
    stack: &[Frame],
) -> bool {
    let Some(Frame {
        body: Body::Object { map, .. },
        ..
    }) = stack.last()
    else {
        return false;
    };
    let stored = sid
        .and_then(|sid| surfaces.get(sid))
        .zip(map.get("id").and_then(Value::as_str))
        .and_then(|(surface, id)| surface.comps.get(id));
    stored.is_some_and(|c| c.open_lists.is_empty() && c.value.as_object() == Some(map))
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
            let linky = if name.is_ascii() {
                // The same as lower-casing first, without the copy (checked on every chunk
                // of a cut value).
                has_link_hint(name.as_bytes())
            } else {
                let name = name.to_lowercase();
                LINK_HINTS.iter().any(|w| name.contains(w))
            };
            if linky {
                return false;
            }
        }
    }
    true
}

/// Parts of a data key that mark its value as a link (not shown while cut).
const LINK_HINTS: [&str; 5] = ["url", "link", "src", "href", "image"];

/// For each byte, 1 + the index in [`LINK_HINTS`] of the hint starting with that letter in any
/// case (no two hints start with the same letter), or 0.
const HINT_BY_FIRST: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < LINK_HINTS.len() {
        let first = LINK_HINTS[i].as_bytes()[0];
        table[first as usize] = i as u8 + 1;
        table[first.to_ascii_uppercase() as usize] = i as u8 + 1;
        i += 1;
    }
    table
};

/// Whether one of [`LINK_HINTS`] occurs in the ASCII `name`, in any case: one pass over the
/// name, comparing only the one hint that starts with the letter at hand (checked on every
/// chunk of a cut value).
fn has_link_hint(name: &[u8]) -> bool {
    name.iter().enumerate().any(|(i, &b)| {
        let hint = match HINT_BY_FIRST[usize::from(b)] {
            0 => return false,
            n => LINK_HINTS.get(usize::from(n) - 1),
        };
        hint.is_some_and(|hint| {
            name.get(i..i + hint.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(hint.as_bytes()))
        })
    })
}

fn looks_like_url(text: &str) -> bool {
    ["http://", "https://", "data:", "/"]
        .iter()
        .any(|p| text.starts_with(p))
}

fn has_empty_object(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.is_empty() || m.values().any(has_empty_object),
        Value::Array(a) => a.iter().any(has_empty_object),
        _ => false,
    }
}

/// The error for component `id` referring to itself in `field`, worded as the reference words it.
fn self_reference(id: &str, field: &str) -> Error {
    Error::new(
        ErrorKind::Topology,
        format!("Self-reference detected: Component '{id}' references itself in field '{field}'"),
    )
}

fn classify(message: &str) -> ErrorKind {
    if message.contains("Circular")
        || message.contains("Self-reference")
        || message.contains("logical depth")
    {
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

/// Ids reachable from `root` (arrived or not) with their depth, worked out from scratch by a
/// depth-first walk in reference order; a cycle or a chain deeper than [`MAX_GLOBAL_DEPTH`] is
/// an error, worded as the reference words it (see [`Surface::first_fault`] for the component
/// at fault).
fn full_reach(surface: &Surface, root: &str) -> Result<BTreeMap<String, usize>, Error> {
    walk_from(surface, root, |_, c| c.refs.len())
}

/// [`full_reach`] following only the first `written(id, comp)` references of each component.
fn walk_from(
    surface: &Surface,
    root: &str,
    written: impl Fn(&str, &Comp) -> usize,
) -> Result<BTreeMap<String, usize>, Error> {
    let mut reach = BTreeMap::new();
    if !surface.comps.contains_key(root) {
        return Ok(reach);
    }
    let refs_of = |id: &str| {
        surface
            .comps
            .get(id)
            .and_then(|c| c.refs.get(..written(id, c)))
            .unwrap_or_default()
    };
    let mut on_path: QuickSet<&str> = QuickSet::default();
    // (node, depth, next edge index)
    let mut stack: Vec<(&str, usize, usize)> = vec![(root, 0, 0)];
    reach.insert(root.to_owned(), 0);
    on_path.insert(root);
    while let Some((node, depth, index)) = stack.last_mut() {
        let next = refs_of(node).get(*index);
        *index += 1;
        match next {
            Some(child) => {
                let child_depth = *depth + 1;
                if !reach.contains_key(child.as_str()) {
                    if child_depth > MAX_GLOBAL_DEPTH {
                        let e = Error::new(
                            ErrorKind::Topology,
                            format!(
                                "Global recursion limit exceeded: logical depth > {MAX_GLOBAL_DEPTH}"
                            ),
                        );
                        return Err(e);
                    }
                    reach.insert(child.clone(), child_depth);
                    on_path.insert(child);
                    stack.push((child, child_depth, 0));
                } else if on_path.contains(child.as_str()) {
                    let e = Error::new(
                        ErrorKind::Topology,
                        format!("Circular reference detected involving component '{child}'"),
                    );
                    return Err(e);
                }
            }
            None => {
                let node = *node;
                on_path.remove(node);
                stack.pop();
            }
        }
    }
    Ok(reach)
}

fn placeholder(id: &str, version: Version) -> Value {
    match version {
        Version::V08 => object([
            ("id", Value::from(id)),
            (
                "component",
                object([(
                    "Row",
                    object([(
                        "children",
                        object([("explicitList", Value::Array(Vec::new()))]),
                    )]),
                )]),
            ),
        ]),
        Version::V09 => object([
            ("id", Value::from(id)),
            ("component", Value::from("Row")),
            ("children", Value::Array(Vec::new())),
        ]),
    }
}

/// Swaps references to children that have not arrived (`present` says which have) for
/// placeholder ids and, for v0.8, makes data-binding paths absolute. Returns the placeholder
/// ids used, in order of first use, the missing child ids behind them, and whether anything in
/// `comp` was rewritten.
fn process_component(
    comp: &mut Value,
    open_lists: &[String],
    present: impl Fn(&str) -> bool,
    version: Version,
    earlier: Vec<String>,
) -> (Vec<String>, Vec<String>, bool) {
    struct Ctx<'a, P> {
        id: String,
        open_lists: &'a [String],
        present: P,
        version: Version,
        placeholders: Vec<String>,
        missing: Vec<String>,
        /// The placeholder ids of the form made before, reused rather than copied again.
        earlier: Vec<String>,
        /// Something was rewritten.
        rewritten: bool,
    }
    impl<P: Fn(&str) -> bool> Ctx<'_, P> {
        /// The id to show for `child`: itself when present, else its placeholder.
        fn child(&mut self, child: &mut String) {
            if !(self.present)(child) {
                let mut pid = String::with_capacity("loading_".len() + child.len());
                pid.push_str("loading_");
                pid.push_str(child);
                self.add(&pid);
                let child = std::mem::replace(child, pid);
                self.rewritten = true;
                if !self.missing.contains(&child) {
                    self.missing.push(child);
                }
            }
        }

        fn add(&mut self, pid: &str) {
            if !self.placeholders.iter().any(|p| p == pid) {
                let owned = match self.earlier.iter().position(|p| p == pid) {
                    Some(at) => self.earlier.swap_remove(at),
                    None => pid.to_owned(),
                };
                self.placeholders.push(owned);
            }
        }

        fn walk(&mut self, v: &mut Value) {
            match v {
                Value::Object(obj) => {
                    if self.version == Version::V08 {
                        match obj.get("path") {
                            // An absolute path alone is kept as it is.
                            Some(Value::String(p))
                                if p.starts_with('/')
                                    && obj.len() > 1
                                    && !obj.contains_key("componentId") =>
                            {
                                let p = p.clone();
                                obj.clear();
                                obj.insert("path".into(), Value::String(p));
                                self.rewritten = true;
                            }
                            Some(Value::String(p)) if p.starts_with('/') => {}
                            Some(Value::String(p)) => {
                                let p = format!("/{p}");
                                obj.insert("path".into(), Value::String(p));
                                self.rewritten = true;
                            }
                            Some(other) if !other.is_null() => {
                                let p = format!("/{other}");
                                obj.insert("path".into(), Value::String(p));
                                self.rewritten = true;
                            }
                            _ => {}
                        }
                    }
                    let fields = if has_child_field(obj) {
                        &CHILD_FIELDS[..]
                    } else {
                        &[]
                    };
                    for &field in fields {
                        match obj.get_mut(field) {
                            Some(Value::Array(items)) => {
                                for item in items.iter_mut() {
                                    if let Value::String(child) = item {
                                        self.child(child);
                                    }
                                }
                                if items.is_empty()
                                    && (field == "children" || field == "explicitList")
                                    && self.open_lists.iter().any(|f| f == field)
                                {
                                    let pid = format!("loading_children_{}", self.id);
                                    self.add(&pid);
                                    items.push(Value::String(pid));
                                    self.rewritten = true;
                                }
                            }
                            Some(Value::String(child)) => self.child(child),
                            _ => {}
                        }
                    }
                    for (_, child) in obj.iter_mut() {
                        self.walk(child);
                    }
                }
                Value::Array(items) => {
                    for item in items {
                        self.walk(item);
                    }
                }
                _ => {}
            }
        }
    }
    let id = comp
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
        .to_owned();
    let mut ctx = Ctx {
        id,
        open_lists,
        present,
        version,
        placeholders: Vec::with_capacity(earlier.len()),
        missing: Vec::new(),
        earlier,
        rewritten: false,
    };
    if let Value::Object(obj) = comp {
        match obj.get_mut("component") {
            Some(body @ Value::Object(_)) => ctx.walk(body),
            _ => ctx.walk(comp),
        }
    }
    (ctx.placeholders, ctx.missing, ctx.rewritten)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A v0.8 parser on a catalog with only `Text` and `Column`, and no message schema.
    fn small_parser(limits: Limits) -> ProgressiveParser {
        let catalog = Catalog::new(
            Version::V08,
            Value::Null,
            serde_json::json!({"components": {"Text": {"type": "object"}, "Column": {"type": "object"}}}),
            Value::Null,
        );
        ProgressiveParser::new(&catalog)
            .expect("the small catalog compiles")
            .with_limits(limits)
    }

    /// What feeding some chunks gave: the prose, the messages and the errors, each in order.
    #[derive(Default)]
    struct Fed {
        prose: String,
        messages: Vec<Value>,
        errors: Vec<Error>,
    }

    /// Feeds `chunks` one after the other, going on after errors.
    fn feed_all(parser: &mut ProgressiveParser, chunks: &[&str]) -> Fed {
        let mut fed = Fed::default();
        for chunk in chunks {
            match parser.process_chunk(chunk) {
                Ok(parts) => {
                    for part in parts {
                        fed.prose.push_str(part.text.as_deref().unwrap_or(""));
                        fed.messages.extend(part.a2ui.into_iter().flatten());
                    }
                }
                Err(e) => fed.errors.push(e),
            }
        }
        fed
    }

    /// ASCII `text` in chunks of `size` bytes.
    fn ascii_chunks(text: &str, size: usize) -> Vec<&str> {
        text.as_bytes()
            .chunks(size)
            .map(|c| std::str::from_utf8(c).expect("ASCII"))
            .collect()
    }

    #[test]
    fn nesting_past_the_depth_limit_is_an_error_and_the_text_after_the_block_still_comes() {
        // 200,000 levels: copying, checking or freeing such a tree would overflow the stack of
        // this (test) thread.
        let deep = 200_000;
        let heads = [
            "<a2ui-json>",
            r#"<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"a"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":{"literalString":"#,
            r#"<a2ui-json>[{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"k","valueMap":"#,
        ];
        for head in heads {
            let text = format!(
                "Before. {head}{}{}}}}}]}}}}]</a2ui-json> After.",
                "[".repeat(deep),
                "]".repeat(deep)
            );
            let mut parser = small_parser(Limits::default());
            let Fed { prose, errors, .. } = feed_all(&mut parser, &ascii_chunks(&text, 4096));
            assert_eq!(errors.len(), 1, "{head}: {errors:?}");
            assert_eq!(errors[0].kind(), ErrorKind::Limit);
            assert!(errors[0].message().contains("deeper than 128 levels"));
            assert_eq!(prose, "Before.  After.", "{head}");
        }
    }

    #[test]
    fn what_a_chunk_completed_before_a_limit_comes_out_of_the_next_call_in_either_form() {
        let limits = Limits {
            max_depth: 8,
            ..Limits::default()
        };
        let first = format!(
            r#"One. <a2ui-json>[{{"beginRendering":{{"surfaceId":"u","root":"t"}}}}]</a2ui-json> Two. <a2ui-json>[{}"#,
            "[".repeat(20)
        );
        let second = format!("{}]</a2ui-json> Three.", "]".repeat(20));
        let began = r#"{"beginRendering":{"root":"t","surfaceId":"u"}}"#;
        let want = vec![
            ResponsePart {
                text: Some("One. ".to_owned()),
                a2ui: Some(vec![began.to_owned()]),
            },
            ResponsePart {
                text: Some(" Two. ".to_owned()),
                a2ui: None,
            },
            ResponsePart {
                text: Some(" Three.".to_owned()),
                a2ui: None,
            },
        ];
        let mut trees = small_parser(limits);
        let err = trees
            .process_chunk(&first)
            .expect_err("past the depth limit");
        assert_eq!(err.kind(), ErrorKind::Limit);
        let parts = trees
            .process_chunk(&second)
            .expect("the next block is fine");
        assert_eq!(map_messages(parts, |m| m.to_string()), want);
        let mut texts = small_parser(limits);
        let err = texts
            .process_chunk_json(&first)
            .expect_err("past the depth limit");
        assert_eq!(err.kind(), ErrorKind::Limit);
        assert_eq!(texts.process_chunk_json(&second).expect("fine"), want);
    }

    #[test]
    fn nesting_up_to_the_depth_limit_is_taken() {
        let limits = Limits {
            max_depth: 4,
            ..Limits::default()
        };
        // The message is level 1, `beginRendering` 2, `styles` 3, `x` 4.
        let fits = r#"<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"a","styles":{"x":{}}}}]</a2ui-json>"#;
        let errors = feed_all(&mut small_parser(limits), &[fits]).errors;
        assert!(
            errors.iter().all(|e| e.kind() != ErrorKind::Limit),
            "{errors:?}"
        );
        let deeper = fits.replace(r#"{"x":{}}"#, r#"{"x":{"y":[]}}"#);
        let errors = feed_all(&mut small_parser(limits), &[&deeper]).errors;
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].kind(), ErrorKind::Limit);
    }

    #[test]
    fn a_block_longer_than_its_limit_is_read_past_and_later_blocks_still_come() {
        let limits = Limits {
            max_block_bytes: 200,
            ..Limits::default()
        };
        let long = format!(
            r#"One. <a2ui-json>[{{"beginRendering":{{"surfaceId":"s","root":"t"}}}},{{"surfaceUpdate":{{"surfaceId":"s","components":[{{"id":"t","component":{{"Text":{{"text":{{"literalString":"{}"}}}}}}}}]}}}}]</a2ui-json> Two. "#,
            "x".repeat(500)
        );
        let short =
            r#"<a2ui-json>[{"beginRendering":{"surfaceId":"u","root":"t"}}]</a2ui-json> Three."#;
        let text = long + short;
        let Fed {
            prose,
            messages,
            errors,
        } = feed_all(&mut small_parser(limits), &ascii_chunks(&text, 7));
        let began: Vec<&Value> = messages
            .iter()
            .filter_map(|m| m.pointer("/beginRendering/surfaceId"))
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].kind(), ErrorKind::Limit);
        assert!(errors[0].message().contains("longer than 200 bytes"));
        assert_eq!(prose, "One.  Two.  Three.");
        // The first block's beginRendering came before the limit; the second block's after it.
        assert_eq!(began, [&Value::from("s"), &Value::from("u")]);
    }

    proptest! {
        #[test]
        fn link_hints_are_found_as_lower_casing_finds_them(name in "([a-zA-Z_]{0,5}(url|Url|LINK|link|src|sRc|href|image|IMAGE|ima|lin|ur)?){0,4}") {
            let lower = name.to_lowercase();
            let expected = LINK_HINTS.iter().any(|w| lower.contains(w));
            prop_assert_eq!(has_link_hint(name.as_bytes()), expected);
        }
    }

    proptest! {
        /// Against the rule written plainly: for every key that has a value somewhere, its
        /// last entry; with few keys and with more than a list holds.
        #[test]
        fn latest_per_key_keeps_the_last_entry_of_every_valued_key(
            entries in proptest::collection::vec((proptest::option::of(0..40u8), any::<bool>()), 0..80)
        ) {
            let keys: Vec<(Option<String>, bool)> = entries
                .iter()
                .map(|(k, v)| (k.map(|k| format!("k{k}")), *v))
                .collect();
            let got = latest_per_key(keys.iter().map(|(k, v)| (k.as_deref(), *v)));
            let expected: Vec<bool> = keys
                .iter()
                .enumerate()
                .map(|(i, (key, _))| {
                    key.as_ref().is_some_and(|k| {
                        keys.iter().any(|(other, v)| other.as_ref() == Some(k) && *v)
                            && !keys[i + 1..].iter().any(|(other, _)| other.as_ref() == Some(k))
                    })
                })
                .collect();
            prop_assert_eq!(got, expected);
        }
    }

    #[test]
    fn seen_says_each_string_is_new_once_before_and_after_its_list_is_full() {
        let names: Vec<String> = (0..3 * FEW).map(|i| format!("id{i}")).collect();
        let mut seen = Seen::default();
        for (i, name) in names.iter().enumerate() {
            assert!(!seen.contains(name), "{name} is not met yet");
            assert!(seen.insert(name), "{name} is new");
            assert!(seen.contains(name), "{name} is met now");
            assert!(!seen.insert(name), "{name} was met just now");
            assert!(
                !seen.insert(&names[i / 2]),
                "{} was met before",
                names[i / 2]
            );
        }
        assert!(!seen.many.is_empty(), "more than FEW strings are hashed");
        assert!(seen.few.is_empty(), "the list is emptied into the table");
    }

    #[test]
    fn link_hints_in_any_case_and_place() {
        // `has_link_hint` compares only the hint that starts with the letter at hand.
        let firsts: QuickSet<u8> = LINK_HINTS.iter().map(|h| h.as_bytes()[0]).collect();
        assert_eq!(firsts.len(), LINK_HINTS.len());
        for name in ["imageUrl", "HREF", "profileLink", "thumbSrc", "my_url_2"] {
            assert!(has_link_hint(name.as_bytes()), "{name}");
        }
        for name in ["title", "dietaryRequirements", "ur", "lin", "imag", ""] {
            assert!(!has_link_hint(name.as_bytes()), "{name}");
        }
    }

    #[test]
    fn a_parser_can_be_sent_and_shared_between_threads() {
        fn send_and_sync<T: Send + Sync>() {}
        send_and_sync::<ProgressiveParser>();
    }

    #[test]
    fn process_component_says_exactly_when_it_rewrote_something() {
        use serde_json::json;
        let present = |c: &str| c == "here";
        let cases = [
            (
                json!({"id": "a", "component": {"Card": {"child": "here"}}}),
                Version::V08,
                false,
            ),
            (
                json!({"id": "a", "component": {"Card": {"child": "gone"}}}),
                Version::V08,
                true,
            ),
            (
                json!({"id": "a", "component": {"Text": {"text": {"path": "/t"}}}}),
                Version::V08,
                false,
            ),
            (
                json!({"id": "a", "component": {"Text": {"text": {"path": "/t", "literalString": "x"}}}}),
                Version::V08,
                true,
            ),
            (
                json!({"id": "a", "component": {"Text": {"text": {"path": "/t", "componentId": "here"}}}}),
                Version::V08,
                false,
            ),
            (
                json!({"id": "a", "component": {"Text": {"text": {"path": "t"}}}}),
                Version::V08,
                true,
            ),
            (
                json!({"id": "a", "component": {"Text": {"text": {"path": 3}}}}),
                Version::V08,
                true,
            ),
            (
                json!({"id": "a", "component": {"Text": {"text": {"path": "t"}}}}),
                Version::V09,
                false,
            ),
            (
                json!({"id": "a", "component": "Row", "children": ["here", "gone"]}),
                Version::V09,
                true,
            ),
            (
                json!({"id": "a", "component": "Row", "children": ["here"]}),
                Version::V09,
                false,
            ),
        ];
        for (comp, version, expected) in cases {
            let mut made = comp.clone();
            let (_, _, rewritten) = process_component(&mut made, &[], present, version, Vec::new());
            assert_eq!(rewritten, expected, "{comp}");
            assert_eq!(rewritten, made != comp, "{comp}");
        }
        // An open, still empty list shows a placeholder.
        let comp = json!({"id": "a", "component": "Row", "children": []});
        let mut made = comp.clone();
        let open = ["children".to_owned()];
        let (placeholders, _, rewritten) =
            process_component(&mut made, &open, present, Version::V09, Vec::new());
        assert!(rewritten && made != comp);
        assert_eq!(placeholders, ["loading_children_a"]);
    }
}
