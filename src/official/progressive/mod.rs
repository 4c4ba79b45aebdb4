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
//! After the last chunk, [`ProgressiveParser::finish`] hands out what is still to come: the rest
//! of a chunk that held several errors, and text held back as a possible tag start.
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
//! changed instead of copying its tree. [`ProgressiveParser::process_chunk_into`] and
//! [`ProgressiveParser::process_chunk_json_into`] hand out the same parts, written over the parts
//! of an earlier step that the caller hands back, so that a server that sends each step on and
//! then hands it back allocates only what is new in a step.
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

mod component;
mod entries;
mod error;
mod form;
mod heal;
mod lists;
mod reuse;
mod surface;
mod tags;

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use super::catalog::{Catalog, Version};
use super::data_delta::{Seg, Walk, pointer, value_at};
use super::find::find_byte;
use super::partial_json::{Body, Frame, PartialJson, Step};
use super::validator::{Validator, truthy};
use crate::hash::{QuickMap, QuickSet};

use component::{CHILD_FIELDS, PLACEHOLDER_PREFIX, object};
use entries::{EntriesSoFar, latest_entries, wrap_entries};
pub use error::{Error, ErrorKind, Limits};
use error::{classify, self_reference};
use form::{Form, Out, compact_json, map_messages};
use heal::{heal_component_string, heal_data_string};
use lists::{FlushLists, emptied};
use reuse::{Spare, bound, take_back};
use surface::{Appended, Comp, Placeholder, Surface, full_reach};
use tags::{CLOSE_TAG, OPEN_TAG, find_tag, held_back};

const DEFAULT_ROOT: &str = "root";

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
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::progressive::ProgressiveParser;
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V08, json!(null), json!({"components": {
///     "Text": {"type": "object", "properties": {"text": {"type": "object"}}}}}), json!(null));
/// let mut parser = ProgressiveParser::new(&catalog)?;
/// let reply = r#"Here you go. <a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "t"}},
///     {"surfaceUpdate": {"surfaceId": "s", "components": [
///         {"id": "t", "component": {"Text": {"text": {"literalString": "Hello there"}}}}]}}]</a2ui-json>"#;
/// let mut shown = Vec::new();
/// for piece in reply.as_bytes().chunks(5) {
///     shown.extend(parser.process_chunk(std::str::from_utf8(piece).unwrap())?);
/// }
/// let (rest, errors) = parser.finish();
/// assert!(rest.is_empty() && errors.is_empty());
/// // The prose comes first, then the surface, then the text as it grows ("Hel", ..., "Hello there").
/// assert_eq!(shown[0].text.as_deref(), Some("Here "));
/// let texts: Vec<String> = shown.iter().filter_map(|part| part.a2ui.as_ref())
///     .filter_map(|messages| messages[0].pointer("/surfaceUpdate/components/0/component/Text/text/literalString"))
///     .map(|text| text.as_str().unwrap().to_owned()).collect();
/// assert_eq!(texts.last().map(String::as_str), Some("Hello there"));
/// assert!(texts.len() > 1 && texts.windows(2).all(|w| w[1].starts_with(w[0].as_str())));
/// # Ok::<(), a2ui_stream::official::progressive::Error>(())
/// ```
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
    /// By surface id (boxed, so that the table stays small: see [`surface::ROOM`]).
    surfaces: QuickMap<String, Box<Surface>>,
    /// Surfaces with stored changes to flush at the end of the chunk.
    queued: Vec<String>,
    /// The data model as emitted, by top-level key (shared by all surfaces, as the reference
    /// does); v0.8 entries are kept as plain values (value maps as objects).
    emitted_data: Map<String, Value>,
    /// The finished entries of the v0.8 data-model update being written, made ready to send.
    entries: EntriesSoFar,
    /// The component being written, as last stored from a look at it (see [`Writing`]).
    writing: Writing,
    /// Cut strings and lists of children may grow in place (see [`Writing`]); off only to test
    /// those paths against making a snapshot every time.
    in_place: bool,
    /// Messages handed back by the caller ([`ProgressiveParser::process_chunk_into`]) or
    /// replaced within a step, to be written over by the next ones made.
    spare: Spare,
    /// The lists a flush of a surface fills, kept empty for their room.
    lists: FlushLists,
    /// How often a cut string grew in place (tests only).
    #[cfg(test)]
    grown_in_place: usize,
    /// How often a list item was added in place (tests only).
    #[cfg(test)]
    appended_in_place: usize,
}

/// The component being written, stored from the builder's stack when its [`PartialJson::shape`]
/// was `shape`: while the shape stands still, only its cut string grew, and the stored
/// component is brought up to date in place rather than copied from the stack again; likewise
/// while the list it was writing only gains strings (see [`Writing::list`]).
///
/// Kept from one component to the next, so that its strings are allocated once.
#[derive(Debug, Default)]
struct Writing {
    /// It describes a stored component (else the rest is stale).
    valid: bool,
    shape: u64,
    sid: String,
    id: String,
    /// The list open at the top of the stack when it was stored, if any: while only strings
    /// are added to it, each is added to the stored component in place.
    list: Option<OpenList>,
    /// Whether the cut string of `shape`, grown in place, is free for the catalog check
    /// ([`Validator::free_at`]), once looked up (its place stays while `shape` does).
    text_free: Option<bool>,
}

/// The list being written when the component was stored: its frame (by [`Frame::serial`] and
/// the stack's height) and how many items it had.
#[derive(Debug, Clone, Copy)]
struct OpenList {
    serial: u64,
    height: usize,
    items: usize,
    /// Whether a string added to it is free for the catalog check ([`Validator::free_at`]),
    /// once looked up.
    free: Option<bool>,
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

impl ProgressiveParser {
    /// A parser for the catalog's protocol version, in [`Emission::Official`] mode. The catalog's
    /// schemas are compiled on its first parser and shared by every later one
    /// ([`Catalog::validator`]), so starting a parser per response is cheap; fails (with
    /// [`ErrorKind::Schema`]) when they do not compile.
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
        let validator = catalog
            .validator()
            .map_err(|e| Error::new(ErrorKind::Schema, e.to_string()))?;
        Ok(ProgressiveParser::with_validator(validator, mode))
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
            writing: Writing::default(),
            in_place: true,
            spare: Spare::default(),
            lists: FlushLists::default(),
            #[cfg(test)]
            grown_in_place: 0,
            #[cfg(test)]
            appended_in_place: 0,
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
        if self.quiet(chunk) {
            return Ok(Vec::new());
        }
        self.step(chunk, Vec::new())
    }

    /// [`ProgressiveParser::process_chunk`] that writes this step's parts into `parts`, over
    /// what `parts` held: the caller hands back the parts of an earlier step once done with
    /// them, and the messages of this step are made in their trees, lists and strings, so that
    /// only what is new in this step is allocated. In official mode, where every step repeats
    /// every reachable component, that is most of the cost of handing out trees.
    ///
    /// `parts` may hold anything (parts of any step, of any parser, or nothing); afterwards it
    /// holds exactly what `process_chunk` would have returned, or nothing when the call returns
    /// an error (what the chunk completed then comes out of the next call, as with
    /// `process_chunk`). A few messages handed back are kept for the steps that follow (at most
    /// sixteen, with [`ProgressiveParser::process_chunk_json_into`]'s as many again).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::progressive::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {"Text": {"type": "object"}}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// let mut parts = Vec::new();
    /// let mut texts = Vec::new();
    /// for piece in [r#"<a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "t"}},"#,
    ///               r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "t", "component": {"Text": {"text": "Hel"#,
    ///               r#"lo"}}}]}}]</a2ui-json>"#] {
    ///     parser.process_chunk_into(piece, &mut parts)?; // the last step's parts written over
    ///     for message in parts.iter().filter_map(|p| p.a2ui.as_ref()).flatten() {
    ///         if let Some(text) = message.pointer("/surfaceUpdate/components/0/component/Text/text") {
    ///             texts.push(text.clone());
    ///         }
    ///     }
    /// }
    /// assert_eq!(texts, ["Hel", "Hello"]);
    /// # Ok::<(), a2ui_stream::official::progressive::Error>(())
    /// ```
    pub fn process_chunk_into(
        &mut self,
        chunk: &str,
        parts: &mut Vec<ResponsePart>,
    ) -> Result<(), Error> {
        self.step_into(chunk, parts)
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
        if self.quiet(chunk) {
            return Ok(Vec::new());
        }
        self.step(chunk, Vec::new())
    }

    /// [`ProgressiveParser::process_chunk_json`] that writes this step's parts into `parts`, each
    /// message in the buffer of a message of an earlier step handed back in `parts`; see
    /// [`ProgressiveParser::process_chunk_into`].
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::progressive::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {"Text": {"type": "object"}}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// let mut parts = Vec::new();
    /// parser.process_chunk_json_into(r#"Hi <a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "t"}},"#, &mut parts)?;
    /// assert_eq!(parts[0].text.as_deref(), Some("Hi "));
    /// parser.process_chunk_json_into(r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "t", "component": {"Text": {"text": "Hi"}}}]}}"#, &mut parts)?;
    /// assert_eq!(
    ///     parts[0].a2ui.as_deref(),
    ///     Some(&[r#"{"surfaceUpdate":{"components":[{"component":{"Text":{"text":"Hi"}},"id":"t"}],"surfaceId":"s"}}"#.to_owned()][..])
    /// );
    /// # Ok::<(), a2ui_stream::official::progressive::Error>(())
    /// ```
    pub fn process_chunk_json_into(
        &mut self,
        chunk: &str,
        parts: &mut Vec<ResponsePart<String>>,
    ) -> Result<(), Error> {
        self.step_into(chunk, parts)
    }

    fn step_into<M: Form>(
        &mut self,
        chunk: &str,
        parts: &mut Vec<ResponsePart<M>>,
    ) -> Result<(), Error> {
        take_back(parts, M::spare(&mut self.spare));
        if self.quiet(chunk) {
            return Ok(());
        }
        *parts = self.step(chunk, std::mem::take(parts))?;
        Ok(())
    }

    /// Ends the response, after its last chunk: everything still to come, and every error still
    /// to report. After an error, what followed it in its chunk comes out of the next call, so
    /// a last chunk holding several faults needs several more calls; this makes them (at most
    /// one error per message or block is left). Text held back because it could have been the
    /// start of an `<a2ui-json>` tag is prose after all and is handed out. A block that was
    /// never closed is not an error: what it showed stays shown, as when a model is cut off.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::progressive::{ErrorKind, ProgressiveParser};
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {
    /// #     "Card": {"type": "object", "properties": {"child": {"type": "string", "title": "ComponentId"}}}}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// // Two blocks with no JSON in them, then prose ending in what could start a tag.
    /// let err = parser.process_chunk("A <a2ui-json>?</a2ui-json> B <a2ui-json>!</a2ui-json> C <a2ui").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Json);
    /// let (parts, errors) = parser.finish();
    /// assert_eq!(errors.len(), 1, "the second block's error");
    /// let prose: String = parts.iter().filter_map(|p| p.text.as_deref()).collect();
    /// assert_eq!(prose, "A  B  C <a2ui");
    /// # Ok::<(), a2ui_stream::official::progressive::Error>(())
    /// ```
    pub fn finish(&mut self) -> (Vec<ResponsePart>, Vec<Error>) {
        self.finish_as()
    }

    /// [`ProgressiveParser::finish`] with every message as its compact JSON text (see
    /// [`ProgressiveParser::process_chunk_json`]).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::progressive::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// let parts = parser.process_chunk_json("Done. <a2ui-j")?;
    /// assert_eq!(parts[0].text.as_deref(), Some("Done. "));
    /// let (parts, errors) = parser.finish_json();
    /// assert!(errors.is_empty());
    /// assert_eq!(parts[0].text.as_deref(), Some("<a2ui-j"));
    /// # Ok::<(), a2ui_stream::official::progressive::Error>(())
    /// ```
    pub fn finish_json(&mut self) -> (Vec<ResponsePart<String>>, Vec<Error>) {
        self.finish_as()
    }

    fn finish_as<M: Form>(&mut self) -> (Vec<ResponsePart<M>>, Vec<Error>) {
        let mut parts = Vec::new();
        let mut errors = Vec::new();
        // Each error takes at least one byte of the text left over, or mends one surface for
        // good: the calls come to rest within that many (the bound only guards against a
        // parser that would not).
        let calls = self.held.len() + self.surfaces.len() + self.queued.len() + 2;
        let mut rested = false;
        for _ in 0..calls {
            let more = if self.quiet("") {
                Ok(Vec::new())
            } else {
                self.step::<M>("", Vec::new())
            };
            match more {
                Ok(more) => {
                    parts.extend(more);
                    rested = true;
                    break;
                }
                Err(e) => errors.push(e),
            }
        }
        // At rest, all that is held is what could have begun a tag.
        if rested && !self.in_block && !self.held.is_empty() {
            parts.push(ResponsePart {
                text: Some(std::mem::take(&mut self.held)),
                a2ui: None,
            });
        }
        (parts, errors)
    }

    /// Takes `chunk` in at once when it cannot change what a step shows, and says so: inside a
    /// block, a chunk of white space between tokens or of the plain text of a string not shown
    /// (an id, a key, a path). Most chunks are such; every call checks this before [`Self::step`],
    /// in line, so that they cost no more than the check.
    #[inline(always)]
    fn quiet(&mut self, chunk: &str) -> bool {
        let quiet = self.in_block
            && !self.abandoned
            && self.held.is_empty()
            && self.carried.is_empty()
            && self.queued.is_empty()
            && self.block_bytes.saturating_add(chunk.len()) <= self.limits.max_block_bytes
            && self.json.absorb_quiet(chunk);
        if quiet {
            self.block_bytes += chunk.len();
            self.fed = self.fed.saturating_add(chunk.len() as u64);
        }
        quiet
    }

    /// What a chunk that is not [quiet](Self::quiet) completes.
    #[inline]
    fn step<M: Form>(
        &mut self,
        chunk: &str,
        parts: Vec<ResponsePart<M>>,
    ) -> Result<Vec<ResponsePart<M>>, Error> {
        let keep_last = self.mode == Emission::Official && self.version == Version::V08;
        let spare = std::mem::take(M::spare(&mut self.spare));
        let mut out = Out::new(keep_last, parts, spare);
        if !self.carried.is_empty() {
            let carried = std::mem::take(&mut self.carried);
            out.parts.extend(map_messages(carried, M::from_text));
        }
        if self.in_block && self.held.is_empty() && find_byte(b'<', chunk.as_bytes()).is_none() {
            // Block text with no tag in it, nor the start of one: all of it is JSON.
            let at = self.fed;
            self.fed = self.fed.saturating_add(chunk.len() as u64);
            if let Err((e, used)) = self.json_text(chunk, at, &mut out) {
                return Err(self.stop(e, chunk.get(used..).unwrap_or_default(), out));
            }
            self.keep_spare(out.spare);
            return Ok(out.parts);
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
        self.keep_spare(out.spare);
        Ok(out.parts)
    }

    /// Keeps the messages left to write over for the next call (at most [`reuse::MAX_SPARE`]).
    fn keep_spare<M: Form>(&mut self, mut spare: Vec<M>) {
        bound(&mut spare);
        *M::spare(&mut self.spare) = spare;
    }

    /// Ends a call at an error: what the chunk completed before it is handed out by the next
    /// call, which also takes `unread` (the text after the error) before its own chunk.
    #[cold]
    #[inline(never)]
    fn stop<M: Form>(&mut self, error: Error, unread: &str, out: Out<M>) -> Error {
        self.writing.valid = false;
        self.held = unread.to_owned();
        self.carried = map_messages(out.parts, M::into_text);
        self.keep_spare(out.spare);
        error
    }

    /// Forgets the half-written JSON of a block that passed a limit (the rest of the block is
    /// read past until it ends) and returns the error that says so.
    #[cold]
    #[inline(never)]
    fn abandon_block(&mut self, message: String) -> Error {
        self.writing.valid = false;
        self.abandoned = true;
        self.json.reset();
        self.current = Current::default();
        Error::new(ErrorKind::Limit, message)
    }

    fn end_block(&mut self) {
        self.writing.valid = false;
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
            let wanted = |stack: &[Box<Frame>]| {
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
                    if self.current.surface.is_none() && (c == '"' || c.is_ascii_digit()) {
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
            if let Err(e) = self.flush_surface(sid, Flush::Queued, out) {
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
        // The list keeps its room for the next call.
        if self.queued.is_empty() {
            queued.clear();
            self.queued = queued;
        }
        Ok(())
    }

    /// Picks up the `surfaceId` of the message being written as soon as it is complete. Called
    /// only while that surface is not known yet (the caller looks, in line, before calling).
    fn notice_surface_id(&mut self) {
        debug_assert!(self.current.surface.is_none());
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

    /// A component object closed (or was healed): cache it if it is usable. Returns whether it
    /// is stored on the surface of the message being written.
    fn take_component(&mut self, comp: Value, open_lists: Vec<String>, at: u64) -> bool {
        if !self.usable_component(&comp) {
            return false;
        }
        let cached = Cached {
            value: comp,
            open_lists,
            at,
        };
        match self.current.surface.take() {
            Some(sid) => {
                let stored = self.store_component(&sid, cached);
                self.current.surface = Some(sid);
                stored
            }
            None => {
                self.current.unassigned.push(cached);
                false
            }
        }
    }

    /// Stores a component on surface `sid`; returns whether it is stored (or was stored already
    /// exactly so).
    fn store_component(&mut self, sid: &str, cached: Cached) -> bool {
        let Some(id) = cached
            .value
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            return false;
        };
        if self.current.rejected.contains(&id) {
            return false;
        }
        let catalog = self.validator.catalog();
        if !self.surfaces.contains_key(sid) {
            self.surfaces.insert(sid.to_owned(), Surface::with_room());
        }
        let Some(surface) = self.surfaces.get_mut(sid) else {
            return false;
        };
        if let Some(comp) = surface
            .comps
            .get_mut(&id)
            .filter(|c| c.value == cached.value && c.open_lists == cached.open_lists)
        {
            comp.at = cached.at;
            return true;
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
                comp.child_ids_free = None;
                if comp.processed.is_none() && comp.version > 0 {
                    comp.processed = Some(old);
                }
                comp.open_lists = cached.open_lists;
                comp.at = cached.at;
                comp.same_as_followed = comp.same_as_followed.min(kept);
                comp.refs.truncate(kept);
                comp.refs.extend(new_refs);
                comp.mark_stale();
                comp.seq
            }
            None => {
                let seq = surface.next_seq;
                surface.next_seq += 1;
                surface.loading_ids |= id.starts_with(PLACEHOLDER_PREFIX);
                surface.comps.insert(
                    id.clone(),
                    Box::new(Comp {
                        value: cached.value,
                        open_lists: cached.open_lists,
                        at: cached.at,
                        seq,
                        refs: new_refs,
                        followed: Vec::new(),
                        same_as_followed: 0,
                        processed: None,
                        spare: None,
                        stale: true,
                        placeholders: Vec::new(),
                        shown: Vec::new(),
                        missing: Vec::new(),
                        version: 0,
                        edited: false,
                        yielded: AtomicU64::new(0),
                        text: OnceLock::new(),
                        child_calls: 0,
                        appended: None,
                        free_edit: false,
                        children_came: false,
                        child_ids_free: None,
                    }),
                );
                // Components showing a placeholder for this id now show the real thing.
                if let Some(users) = surface.mentioned_by.get(&id) {
                    for user in users {
                        if let Some(comp) = surface.comps.get_mut(user) {
                            let only_children = !comp.stale || comp.children_came;
                            comp.mark_stale();
                            comp.children_came = only_children;
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
        if surface.touch(id) {
            self.queued.push(sid.to_owned());
        }
        true
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
        let Some(index) = self.json.stack.iter().enumerate().position(|(i, _)| {
            i >= 1
                && self
                    .json
                    .stack
                    .boxed()
                    .get(..=i)
                    .is_some_and(is_component_frame)
        }) else {
            return;
        };
        // The same shape: the same stack, so the same component at the same `index`.
        let shape = self.json.shape;
        let w = &self.writing;
        if self.in_place && w.valid && w.shape == shape && self.grow_in_place(index) {
            #[cfg(test)]
            {
                self.grown_in_place += 1;
            }
            return;
        }
        if self.in_place && self.writing.valid && self.append_in_place(index) {
            #[cfg(test)]
            {
                self.appended_in_place += 1;
            }
            return;
        }
        self.writing.valid = false;
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
        let w = &mut self.writing;
        w.id.clear();
        w.id.push_str(
            snapshot
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or_default(),
        );
        if self.take_component(snapshot, open_lists, at) {
            if let Some(sid) = &self.current.surface {
                let w = &mut self.writing;
                w.sid.clear();
                w.sid.push_str(sid);
                (w.valid, w.shape, w.text_free) = (true, shape, None);
                w.list = match self.json.stack.last() {
                    Some(Frame {
                        body: Body::Array(items),
                        serial,
                        ..
                    }) => Some(OpenList {
                        serial: *serial,
                        height: self.json.stack.len(),
                        items: items.len(),
                        free: None,
                    }),
                    _ => None,
                };
            }
        }
    }

    /// Brings the stored copy of the component being written up to date when all it gained
    /// since it was stored ([`Writing`]) is one string at the end of the list it was writing (a
    /// child's id added to `children` or `explicitList`): the string is added to the stored
    /// list, and to its references when the catalog reads it as one, without a snapshot.
    /// False, changing nothing, when more may have changed: another list is being written, it
    /// grew by more or by something else, it was empty (its placeholder goes away), the new
    /// string is the component's own id, or its references would change otherwise.
    fn append_in_place(&mut self, index: usize) -> bool {
        let w = &self.writing;
        let Some(mark) = w.list.filter(|m| m.items > 0) else {
            return false;
        };
        let stack = &self.json.stack;
        let Some(Frame {
            body: Body::Array(items),
            serial,
            ..
        }) = stack.last()
        else {
            return false;
        };
        if (*serial, stack.len(), items.len()) != (mark.serial, mark.height, mark.items + 1) {
            return false;
        }
        let Some(Value::String(new)) = items.last() else {
            return false;
        };
        if *new == w.id || self.current.rejected.contains(&w.id) {
            return false;
        }
        let catalog = self.validator.catalog();
        let Some(surface) = self.surfaces.get_mut(&w.sid) else {
            return false;
        };
        // Only over an emitted form that is up to date, and a list that was not empty.
        let Some(comp) = surface
            .comps
            .get_mut(&w.id)
            .filter(|c| !c.stale && c.open_lists.is_empty())
        else {
            return false;
        };
        match self.json.open_slot(index, &mut comp.value) {
            Some(Value::Array(list)) if list.len() == mark.items => {
                list.push(Value::String(new.clone()));
                comp.child_ids_free = None;
            }
            _ => return false,
        }
        // The references known, then at most the new string.
        let mut known = comp.refs.iter();
        let (mut same, mut added) = (true, false);
        catalog.for_each_reference(&comp.value, |r, _| match known.next() {
            Some(k) => same &= k == r,
            None => {
                same &= !added && r == new;
                added = true;
            }
        });
        if !same || known.next().is_some() {
            if let Some(Value::Array(list)) = self.json.open_slot(index, &mut comp.value) {
                list.pop();
            }
            return false;
        }
        if added {
            comp.refs.push(new.clone());
        }
        comp.stale = true;
        comp.edited = true;
        // A list of children: its emitted form can take the id in place too.
        let of_children = stack
            .last()
            .and_then(|f| f.key.as_deref())
            .is_some_and(|k| CHILD_FIELDS.contains(&k));
        let path = if of_children || mark.free.is_none() {
            self.json.open_path(index)
        } else {
            None
        };
        // The list held an item before (`mark.items > 0`), so only the added one may matter.
        let free = mark.free.unwrap_or_else(|| {
            path.as_ref()
                .is_some_and(|path| self.validator.free_at(path, None))
        });
        comp.free_edit = free;
        comp.appended = path.filter(|_| of_children).map(|path| Appended {
            path,
            child: new.clone(),
        });
        if surface.touch(w.id.clone()) {
            self.queued.push(w.sid.clone());
        }
        let shape = self.json.shape;
        let w = &mut self.writing;
        (w.shape, w.text_free) = (shape, None);
        w.list = Some(OpenList {
            items: mark.items + 1,
            free: Some(free),
            ..mark
        });
        true
    }

    /// Brings the stored copy of the component being written up to date with its cut string,
    /// when that string is all that changed since it was stored ([`Writing`]): what storing a new
    /// snapshot would do, without making one. False, changing nothing, when the string is not
    /// shown any more, its place is not found, the component is gone or was set aside, or the
    /// new text would change what the component refers to: a snapshot is then made.
    fn grow_in_place(&mut self, index: usize) -> bool {
        let w = &self.writing;
        let Some((key, text)) = self.json.cut_string(heal_component_string) else {
            return false;
        };
        if self.current.rejected.contains(&w.id) {
            return false;
        }
        let catalog = self.validator.catalog();
        let Some(surface) = self.surfaces.get_mut(&w.sid) else {
            return false;
        };
        // Only over an emitted form that is up to date (so that it is known to differ now).
        let Some(comp) = surface.comps.get_mut(&w.id).filter(|c| !c.stale) else {
            return false;
        };
        let Some(Value::String(slot)) = self.json.cut_string_slot(index, &mut comp.value) else {
            return false;
        };
        if *slot == text {
            return true;
        }
        let old = std::mem::replace(slot, text);
        let mut refs = comp.refs.iter();
        let mut same_refs = true;
        catalog.for_each_reference(&comp.value, |r, _| {
            same_refs &= refs.next().is_some_and(|known| known == r);
        });
        if !same_refs || refs.next().is_some() {
            if let Some(Value::String(slot)) = self.json.cut_string_slot(index, &mut comp.value) {
                *slot = old;
            }
            return false;
        }
        comp.mark_stale();
        comp.edited = true;
        // The same shape, the same place: looked up once.
        let free = w.text_free.unwrap_or_else(|| {
            self.json
                .open_path(index)
                .is_some_and(|path| self.validator.free_at(&path, Some(key)))
        });
        comp.free_edit = free;
        if surface.touch(w.id.clone()) {
            self.queued.push(w.sid.clone());
        }
        self.writing.text_free = Some(free);
        true
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
            // v0.8 official mode only asks whether anything changed.
            keep_changes: !(self.version == Version::V08 && self.mode == Emission::Official),
            changed: 0,
            cut: None,
        };
        walk.message(&mut self.json, kind, data, entries);
        if walk.changed == 0 {
            return;
        }
        let changes = walk.changes;
        let cut = walk.cut;
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
            .unwrap_or("default");
        let path = payload.and_then(|p| p.get("path"));
        if (self.version, self.mode) == (Version::V08, Emission::Official) {
            // Every entry so far, the latest per key, as the reference sends them: while the
            // list is open, from the entries made ready as they finished.
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
                    (sid, path),
                    cut,
                    &mut out.spare,
                );
                if let Some(update) = update {
                    out.message(update);
                }
                return;
            }
        }
        let (sid, path) = (sid.to_owned(), path.cloned());
        let mut messages = Vec::new();
        // Messages already found acceptable.
        let mut checked = Vec::new();
        match (self.version, self.mode) {
            (Version::V08, Emission::Official) => {
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
                messages.push(v09_message(
                    kind,
                    object([
                        ("surfaceId", Value::String(sid)),
                        ("value", Value::Object(delta)),
                    ]),
                ));
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
                        let msg = v09_message(
                            kind,
                            object([
                                ("surfaceId", Value::from(sid.as_str())),
                                ("path", Value::String(pointer(None, &change.path))),
                                ("value", value),
                            ]),
                        );
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
                    messages.push(v09_message(
                        kind,
                        object([
                            ("surfaceId", Value::String(sid)),
                            ("value", Value::Object(top)),
                        ]),
                    ));
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
                self.flush_surface(&sid, Flush::Started, out)
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
                // The message itself is not passed on: the components not stored already,
                // exactly so, are moved out of it.
                let list = msg
                    .get_mut(kind)
                    .and_then(|p| p.get_mut("components"))
                    .and_then(Value::as_array_mut);
                if let Some(list) = list {
                    for comp in list.iter_mut() {
                        let Some(id) = comp.get("id").and_then(Value::as_str) else {
                            continue;
                        };
                        let stored = self.surfaces.get(&sid).and_then(|s| s.comps.get(id));
                        // Storing it again would change nothing (see `store_component`).
                        if stored.is_some_and(|c| c.value == *comp && c.open_lists.is_empty()) {
                            continue;
                        }
                        // Each was taken as it closed, where it began; one that was not is
                        // placed where its message begins.
                        let cached = Cached {
                            at: stored.map_or(at, |c| c.at),
                            value: comp.take(),
                            open_lists: Vec::new(),
                        };
                        self.store_component(&sid, cached);
                    }
                    if started && !M::TEXT {
                        // What is left of the message is written over by the update it brings,
                        // whose components come in the order of their ids.
                        list.sort_by(|a, b| id_order(a).cmp(&id_order(b)));
                    }
                }
                if started {
                    if !M::TEXT {
                        out.spare.extend(M::spare_tree(msg));
                    }
                    self.flush_surface(&sid, Flush::UpdateEnded, out)?;
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
        self.writing.valid = false;
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
    /// the reachable set has to be worked out again. `why` says what asks for the flush, and so
    /// whether a surface not waiting in [`Self::queued`] is left alone and whether a missing root
    /// is an error.
    fn flush_surface<M: Form>(
        &mut self,
        sid: &str,
        why: Flush,
        out: &mut Out<M>,
    ) -> Result<(), Error> {
        let version = self.version;
        let mode = self.mode;
        let validator = Arc::clone(&self.validator);
        let Some(surface) = self.surfaces.get_mut(sid) else {
            return Ok(());
        };
        if why == Flush::Queued && !surface.queued {
            return Ok(());
        }
        surface.queued = false;
        if !surface.started {
            return Ok(());
        }
        let Some(root) = surface.root.clone() else {
            return Ok(());
        };
        if why == Flush::UpdateEnded && !surface.comps.contains_key(&root) {
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
        let mut candidates = std::mem::take(&mut self.lists.candidates);
        candidates.reserve(touched.len());
        let full = surface.reach_stale
            || (surface.reach.is_empty() && surface.comps.contains_key(&root))
            || surface.grow(touched.drain(..), &mut candidates).is_err();
        // The list keeps its room for the next flush.
        if surface.touched.is_empty() {
            touched.clear();
            surface.touched = touched;
        }
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
                    comp.same_as_followed = comp.refs.len();
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
            changed |= surface.refresh(id, sid, version, &validator);
        }
        // What to send: everything reachable, or what the renderer does not have yet.
        if surface.sid_json.is_empty() {
            surface.sid_json = compact_json(&Value::from(sid));
        }
        let Surface {
            reach,
            comps,
            invalid,
            loading_ids,
            pending,
            sid_json,
            ..
        } = &mut **surface;
        let lists = &mut self.lists;
        let mut picked: Vec<&Comp> = std::mem::take(&mut lists.picked);
        let mut new_placeholders: Vec<&Placeholder> = std::mem::take(&mut lists.new_placeholders);
        let mut shown: Vec<&Placeholder> = std::mem::take(&mut lists.shown);
        let mut items: Vec<(&Value, &str)> = std::mem::take(&mut lists.items);
        // The message to send, if any (the lists are handed back after it is made).
        let message = 'send: {
            // Each component to send is picked in the same look-up that marks it sent (sent as
            // text, its text is made below unless it is made already for its version).
            let mut fresh: Vec<String> = Vec::new();
            match mode {
                Emission::Official if changed => {
                    // Official mode counts a rejected step as sent, as the reference does.
                    picked.reserve(reach.len());
                    for id in reach.keys() {
                        if let Some(comp) = comps.get(id) {
                            comp.yielded.store(comp.version, Ordering::Relaxed);
                            picked.push(&**comp);
                        }
                    }
                }
                Emission::Official => break 'send None,
                Emission::ChangedOnly => {
                    let mut all = std::mem::take(pending);
                    all.extend(candidates.drain(..));
                    // What the renderer does not have yet, picked in the look-up that finds it.
                    for id in all {
                        let unsent = comps
                            .get(&id)
                            .filter(|c| c.yielded.load(Ordering::Relaxed) != c.version);
                        if let Some(comp) = unsent.filter(|_| reach.contains_key(&id)) {
                            picked.push(&**comp);
                            fresh.push(id);
                        }
                    }
                }
            }
            if picked.is_empty() {
                break 'send None;
            }
            // First whether the step is accepted and which placeholders it shows, so that the
            // message is made only when it is sent (with room for every placeholder shown, so
            // that neither list grows).
            let room = picked.iter().map(|c| c.shown.len()).sum::<usize>();
            let mut accepted = invalid.iter().all(|id| !reach.contains_key(id));
            let mut message = None;
            {
                let mut seen = Seen::default();
                shown.reserve(room);
                items.reserve(picked.len() + room);
                for comp in &picked {
                    items.push((comp.emitted(), if M::TEXT { comp.text() } else { "" }));
                    for made in comp.shown.iter().map(Arc::as_ref) {
                        let pid = made.id.as_str();
                        if !seen.insert(pid) {
                            continue;
                        }
                        accepted &= made.ok
                            && !(*loading_ids
                                && comps.contains_key(pid)
                                && reach.contains_key(pid));
                        let new = !made.yielded.load(Ordering::Relaxed);
                        if new {
                            new_placeholders.push(made);
                        }
                        if mode == Emission::Official || new {
                            shown.push(made);
                        }
                    }
                }
                if accepted {
                    items.extend(
                        shown
                            .iter()
                            .map(|p| (&p.made, if M::TEXT { p.text() } else { "" })),
                    );
                    let reuse = out.reuse();
                    message = Some(M::components(
                        version,
                        (sid, sid_json.as_str()),
                        &items,
                        reuse,
                    ));
                }
            }
            if mode == Emission::ChangedOnly {
                if !accepted {
                    pending.extend(fresh);
                    break 'send None;
                }
                for comp in &picked {
                    comp.yielded.store(comp.version, Ordering::Relaxed);
                }
            }
            for made in &new_placeholders {
                made.yielded.store(true, Ordering::Relaxed);
            }
            message
        };
        candidates.clear();
        lists.candidates = candidates;
        lists.picked = emptied(picked);
        lists.new_placeholders = emptied(new_placeholders);
        lists.shown = emptied(shown);
        lists.items = emptied(items);
        if let Some(message) = message {
            out.update(sid, message);
        }
        Ok(())
    }
}

/// Strings met so far, each said new once: up to [`FEW`] in a list kept in place (nothing
/// allocated), a hash table after.
struct Seen<'a> {
    few: [&'a str; FEW],
    /// How many of `few` are in use.
    len: usize,
    many: QuickSet<&'a str>,
}

impl Default for Seen<'_> {
    fn default() -> Self {
        Seen {
            few: [""; FEW],
            len: 0,
            many: QuickSet::default(),
        }
    }
}

impl<'a> Seen<'a> {
    /// Whether `s` is met for the first time (and notes it).
    fn insert(&mut self, s: &'a str) -> bool {
        if !self.many.is_empty() {
            return self.many.insert(s);
        }
        if self.listed().contains(&s) {
            return false;
        }
        match self.few.get_mut(self.len) {
            Some(slot) => {
                *slot = s;
                self.len += 1;
            }
            None => {
                self.many.extend(self.few.iter().copied());
                self.many.insert(s);
            }
        }
        true
    }

    /// The strings in the list, in the order met.
    fn listed(&self) -> &[&'a str] {
        self.few.get(..self.len).unwrap_or_default()
    }

    /// Whether `s` was met.
    fn contains(&self, s: &str) -> bool {
        if self.many.is_empty() {
            self.listed().contains(&s)
        } else {
            self.many.contains(s)
        }
    }
}

/// Up to this many keys or ids, a list compared one by one finds one sooner than a hash table
/// (and needs no allocation).
const FEW: usize = 16;

/// What asks [`ProgressiveParser::flush_surface`] to show a surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flush {
    /// The end of a chunk: the surface is shown only if something queued it since.
    Queued,
    /// `beginRendering` or `createSurface`: what was held for the surface is shown.
    Started,
    /// A component update ended: the surface is shown, and its root must be among its components.
    UpdateEnded,
}

/// The v0.9 message of `kind` with `body`: `{"version": "v0.9", kind: body}`.
fn v09_message(kind: &str, body: Value) -> Value {
    object([("version", Value::from("v0.9")), (kind, body)])
}

/// Whether the component closing at the top of `stack` is stored already, exactly as it closes
/// (the last look at it while it was open saw all of it), on surface `sid`: then handing it over
/// would change nothing, and it is not copied.
fn stored_already(
    surfaces: &QuickMap<String, Box<Surface>>,
    sid: Option<&str>,
    stack: &[Box<Frame>],
) -> bool {
    let Some(Frame {
        body: Body::Object { map, .. },
        ..
    }) = stack.last().map(|f| &**f)
    else {
        return false;
    };
    let stored = sid
        .and_then(|sid| surfaces.get(sid))
        .zip(map.get("id").and_then(Value::as_str))
        .and_then(|(surface, id)| surface.comps.get(id));
    stored.is_some_and(|c| c.open_lists.is_empty() && c.value.as_object() == Some(map))
}

/// Where a component goes when components are sorted by id (those without one last).
fn id_order(component: &Value) -> (bool, &str) {
    match component.get("id").and_then(Value::as_str) {
        Some(id) => (false, id),
        None => (true, ""),
    }
}

/// Whether the innermost frame of `stack` is a component: an object directly in the
/// `components` list of a message payload.
fn is_component_frame(stack: &[Box<Frame>]) -> bool {
    match stack {
        [.., parent, last] => {
            matches!(last.body, Body::Object { .. })
                && matches!(parent.body, Body::Array(_))
                && parent.key.as_deref() == Some("components")
        }
        _ => false,
    }
}

fn has_empty_object(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.is_empty() || m.values().any(has_empty_object),
        Value::Array(a) => a.iter().any(has_empty_object),
        _ => false,
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

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A v0.8 response: a column (written first, or after its children) of components with
    /// cut strings under cuttable keys, beside ids, paths and child references (missing while
    /// their component is written, or there already).
    fn growing_texts_response(texts: &[(u8, String)], column_last: bool) -> String {
        let ids: Vec<String> = (0..texts.len()).map(|i| format!("\"t{i}\"")).collect();
        let column = format!(
            r#"{{"id": "root", "component": {{"Column": {{"children": {{"explicitList": [{}]}}}}}}}}"#,
            ids.join(", ")
        );
        let mut comps = Vec::new();
        for (i, (kind, text)) in texts.iter().enumerate() {
            let next = (i + 1) % texts.len().max(1);
            comps.push(match kind % 5 {
                0 => format!(r#"{{"id": "t{i}", "component": {{"Text": {{"text": {{"literalString": "{text}"}}, "usageHint": "h2"}}}}}}"#),
                1 => format!(r#"{{"id": "t{i}", "component": {{"Button": {{"label": "{text}", "child": "t{next}x"}}}}}}"#),
                2 => format!(r#"{{"id": "t{i}", "component": {{"Text": {{"text": {{"path": "p{i}", "literalString": "{text}"}}}}}}}}"#),
                3 => format!(r#"{{"id": "t{i}", "component": {{"Image": {{"url": {{"valueString": "{text}"}}, "altText": "{text}"}}}}}}"#),
                // Its child, written just before it, is there when it is written.
                _ => format!(r#"{{"id": "t{i}c", "component": {{"Text": {{"text": "c"}}}}}}, {{"id": "t{i}", "component": {{"Card": {{"child": "t{i}c", "caption": "{text}", "text": "{text}"}}}}}}"#),
            });
        }
        if column_last {
            comps.push(column);
        } else {
            comps.insert(0, column);
        }
        format!(
            r#"Here: <a2ui-json>[{{"beginRendering": {{"surfaceId": "s", "root": "root"}}}}, {{"surfaceUpdate": {{"surfaceId": "s", "components": [{}]}}}}]</a2ui-json> Done."#,
            comps.join(", ")
        )
    }

    /// Cuts `text` at the given distances (taken in turn), moved forward to character
    /// boundaries.
    fn cut_at<'a>(text: &'a str, sizes: &[usize]) -> Vec<&'a str> {
        let mut pieces = Vec::new();
        let mut start = 0;
        let mut sizes = sizes.iter().cycle();
        while start < text.len() {
            let mut end = (start + sizes.next().copied().unwrap_or(1)).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            pieces.extend(text.get(start..end));
            start = end;
        }
        pieces
    }

    proptest::proptest! {
        /// Growing a cut string or a list of children in place gives, step by step, what making
        /// a snapshot on every chunk gives, in both modes and both output forms.
        #[test]
        fn cut_strings_and_lists_grown_in_place_give_what_snapshots_give(
            texts in proptest::collection::vec(
                (0u8..5, r#"([a-z \u{e9}\u{4e16}]|\\n|\\u00e9|\\"|http://x){0,12}"#), 1..5),
            column_last in proptest::bool::ANY,
            sizes in proptest::collection::vec(1usize..9, 1..8),
        ) {
            let response = growing_texts_response(&texts, column_last);
            let pieces = cut_at(&response, &sizes);
            let catalog = Catalog::new(
                Version::V08,
                Value::Null,
                serde_json::json!({"components": {"Text": {}, "Column": {}, "Image": {}, "Button": {
                    "properties": {"child": {"type": "string", "title": "ComponentId"}}},
                    "Card": {"properties": {"child": {"type": "string", "title": "ComponentId"}}}}}),
                Value::Null,
            );
            let (mut grown, mut appended, mut formed) = (0, 0, 0);
            for mode in [Emission::Official, Emission::ChangedOnly] {
                let mut fast = ProgressiveParser::with_emission(&catalog, mode).expect("compiles");
                let mut slow = ProgressiveParser::with_emission(&catalog, mode).expect("compiles");
                slow.in_place = false;
                for (i, piece) in pieces.iter().enumerate() {
                    if i % 2 == 0 {
                        let (a, b) = (fast.process_chunk(piece), slow.process_chunk(piece));
                        proptest::prop_assert_eq!(format!("{a:?}"), format!("{b:?}"), "chunk {}", i);
                    } else {
                        let (a, b) = (fast.process_chunk_json(piece), slow.process_chunk_json(piece));
                        proptest::prop_assert_eq!(format!("{a:?}"), format!("{b:?}"), "chunk {}", i);
                    }
                }
                proptest::prop_assert_eq!(format!("{:?}", fast.finish()), format!("{:?}", slow.finish()));
                proptest::prop_assert_eq!(slow.grown_in_place + slow.appended_in_place, 0);
                grown += fast.grown_in_place;
                appended += fast.appended_in_place;
                formed += fast.surfaces.values().map(|s| s.appended_to_form).sum::<usize>();
            }
            // A text of several letters, shown (its column came first) and cut into pieces of at
            // most three bytes, grows in place.
            let long = texts.iter().any(|(kind, t)| kind % 5 == 0 && t.chars().filter(|c| c.is_ascii_lowercase()).count() > 8);
            if long && !column_last && sizes.iter().all(|&s| s < 4) {
                proptest::prop_assert!(grown > 0);
            }
            // A column written first, its ids cut into pieces of at most three bytes, takes an
            // id after its first in place (one that does not come with the end of the list).
            if texts.len() >= 3 && !column_last && sizes.iter().all(|&s| s < 4) {
                proptest::prop_assert!(appended > 0);
                // Its children are all still to come: the placeholder of each is added to the
                // emitted form in place.
                proptest::prop_assert!(formed > 0);
            }
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
        assert_eq!(
            seen.many.len(),
            names.len(),
            "the table holds every string met"
        );
    }

    #[test]
    fn a_step_never_sends_two_components_with_one_id() {
        // The column shows a component named `loading_b` and `b`, whose placeholder would take
        // that same id while `b` is missing: until `b` arrives, no step sends the column.
        let catalog = Catalog::new(
            Version::V08,
            Value::Null,
            serde_json::json!({"components": {
                "Text": {"type": "object"}, "Column": {"type": "object"}, "Row": {"type": "object"}}}),
            Value::Null,
        );
        let text = r#"<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"col"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"loading_b","component":{"Text":{"text":{"literalString":"real"}}}},{"id":"col","component":{"Column":{"children":{"explicitList":["loading_b","b"]}}}},{"id":"b","component":{"Text":{"text":{"literalString":"late"}}}}]}}]</a2ui-json>"#;
        for mode in [Emission::Official, Emission::ChangedOnly] {
            for size in 1..=9 {
                let mut parser =
                    ProgressiveParser::with_emission(&catalog, mode).expect("the catalog compiles");
                let fed = feed_all(&mut parser, &ascii_chunks(text, size));
                assert!(fed.errors.is_empty(), "{:?}", fed.errors);
                let mut last_column = None;
                for message in &fed.messages {
                    let Some(list) = message
                        .pointer("/surfaceUpdate/components")
                        .and_then(Value::as_array)
                    else {
                        continue;
                    };
                    let ids: Vec<&str> = list
                        .iter()
                        .filter_map(|c| c.get("id").and_then(Value::as_str))
                        .collect();
                    let mut unique = ids.clone();
                    unique.sort_unstable();
                    unique.dedup();
                    assert_eq!(
                        unique.len(),
                        ids.len(),
                        "{mode:?}, {size}-byte chunks: {ids:?}"
                    );
                    if let Some(col) = list.iter().find(|c| c["id"] == "col") {
                        last_column = Some(col["component"]["Column"]["children"].clone());
                    }
                }
                assert_eq!(
                    last_column,
                    Some(serde_json::json!({"explicitList": ["loading_b", "b"]})),
                    "{mode:?}, {size}-byte chunks"
                );
            }
        }
    }

    #[test]
    fn a_parser_can_be_sent_and_shared_between_threads() {
        fn send_and_sync<T: Send + Sync>() {}
        send_and_sync::<ProgressiveParser>();
    }
}
