//! The progressive parser: what a renderer should show after every chunk of a model's response,

// The parser, by what it does with a chunk (each an `impl ProgressiveParser` of its own):
// `feed` splits it into prose and block text (`tags` finds the tags); `block` runs block text
// through the JSON builder; `components` takes finished components, `writing` the one being
// written (in place when it only grew); `message` takes finished messages; `data_model` passes
// on data-model updates; `flush` shows the surfaces that changed. What is kept of each surface,
// and what a step sends of it, is in `surface`. Helpers: `component` (a component's emitted
// form), `entries` (v0.8 entries), `form` (trees or JSON text), `heal` (which cut strings
// show), `reuse` and `lists` (room kept between steps), `seen`, `error`.
mod block;
mod catalogs;
mod component;
mod components;
mod data_model;
mod entries;
mod error;
mod feed;
mod flush;
mod form;
mod heal;
mod lists;
mod message;
mod reuse;
mod seen;
mod surface;
#[cfg(test)]
mod tests;
mod writing;

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use serde_json::Value;

use super::partial_json::PartialJson;
use crate::hash::QuickMap;
use crate::official::Emission;
use crate::official::catalog::{Catalog, Version};
use crate::official::validator::Validator;

use block::Block;
use catalogs::Catalogs;
use data_model::DataModel;
use error::error as new_error;
pub use error::{Limits, ProgressiveError, ProgressiveErrorKind};
// The short names the parser's code uses.
type Error = ProgressiveError;
type ErrorKind = ProgressiveErrorKind;
use feed::Input;
use lists::FlushLists;
use message::Current;
use reuse::Spare;
use surface::Surface;
use writing::Writing;

/// One piece of what a chunk completed: prose, A2UI messages, or prose followed by messages.
/// The messages are `serde_json::Value` trees or, with `M = String` (from a parser made with
/// [`ProgressiveParser::json`]), their compact JSON text.
///
/// ```
/// use a2ui_stream::official::legacy::ResponsePart;
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

/// The progressive parser: what a renderer should show after every chunk of a model's response,
/// following the streaming rules of the official A2UI conformance suite.
///
/// [`ProgressiveParser::feed`] takes the next piece of the response and returns the
/// [`ResponsePart`]s it completed, and its errors in their place: prose outside `<a2ui-json>`
/// blocks, and lists of A2UI messages.
/// Inside a block, a component is shown as soon as it is reachable from its surface's root, even
/// before its message (or the component itself) has finished arriving:
///
/// * children that have not arrived yet are replaced by `loading_<id>` placeholder rows, swapped for
///   the real component when it comes;
/// * a cut string under a prose key (`text`, `literalString`, `valueString`, `label`, `hint`,
///   `caption`, `altText`, or the keys of [`ProgressiveParser::with_cuttable_keys`]) is shown as
///   far as it goes; ids, paths, URLs, numbers and every other value wait until they are
///   complete, and so does the component while such a member of it is being written (or a
///   string of it is cut inside an escape), keeping what it showed;
/// * component updates for a surface are held until its `beginRendering` / `createSurface`;
/// * data-model updates are passed on as their entries complete;
/// * cycles and self-references are errors, and messages are checked against the catalog
///   (unless [`ProgressiveParser::without_validation`]), or against the one of several catalogs
///   a component or its surface names ([`ProgressiveParser::with_catalogs`]).
///
/// After the last chunk, [`ProgressiveParser::finish`] hands out what is still to come: text
/// held back as a possible tag start.
///
/// Work per chunk is proportional to the chunk and to what is emitted: every character is looked
/// at once, finished values are kept and never re-read, only the component being written is
/// copied when it visibly changes, reachability grows from what changed, each component's
/// emitted form and its check against the catalog are kept until it changes, and a data-model
/// update is compared with what was emitted only where it grew since the last chunk.
///
/// Two [`Emission`] modes: [`Emission::Official`] repeats every reachable component of a surface
/// whenever one of them changes (and, for v0.8, every data entry so far), as the reference
/// implementation does; [`Emission::ChangedOnly`] sends only the components and data values that
/// are new or changed since the last step, each data value at its own `path`, so output grows
/// linearly with the UI. A renderer that merges components by id and data by key at the path a
/// message names ends up, after every chunk, with the same screen in both modes.
///
/// Two output forms: messages as `serde_json::Value` trees, or (a parser made with
/// [`ProgressiveParser::json`]) the same messages as compact JSON text, writing each repeated
/// component from text kept since it last changed instead of copying its tree. Parts handed back
/// with [`ProgressiveParser::recycle`] are written over by the next steps, so that a server that
/// sends each step on and then hands it back allocates only what is new in a step.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::legacy::ProgressiveParser;
/// use serde_json::json;
///
/// let catalog = Catalog::new(Version::V08, json!(null), json!({"catalogId": "c", "components": {
///     "Text": {"type": "object"},
///     "Card": {"type": "object", "properties": {"child": {"type": "string", "title": "ComponentId"}}},
///     "Row": {"type": "object"}}}), json!({}));
/// let mut parser = ProgressiveParser::new(&catalog)?;
/// let mut step = |chunk: &str| parser.feed(chunk).into_iter().collect::<Result<Vec<_>, _>>();
/// let parts = step(r#"Here: <a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "r"}},"#)?;
/// assert_eq!(parts[0].text.as_deref(), Some("Here: "));
/// let parts = step(r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "r", "component": {"Card": {"child": "t"}}},"#)?;
/// let msgs = parts[0].a2ui.as_ref().unwrap();
/// assert_eq!(msgs[0]["surfaceUpdate"]["components"][0]["component"]["Card"]["child"], "loading_t");
/// let parts = step(r#"{"id": "t", "component": {"Text": {"text": "Hel"#)?;
/// let msgs = parts[0].a2ui.as_ref().unwrap();
/// // Every reachable component again (official mode), the placeholder swapped for the real child.
/// assert_eq!(msgs[0]["surfaceUpdate"]["components"], json!([
///     {"id": "r", "component": {"Card": {"child": "t"}}},
///     {"id": "t", "component": {"Text": {"text": "Hel"}}}]));
/// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
/// ```
///
/// A response in 5-byte chunks:
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::legacy::ProgressiveParser;
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V08, json!(null), json!({"components": {
///     "Text": {"type": "object", "properties": {"text": {"type": "object"}}}}}), json!(null));
/// let mut parser = ProgressiveParser::new(&catalog)?;
/// let reply = r#"Here you go. <a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "t"}},
///     {"surfaceUpdate": {"surfaceId": "s", "components": [
///         {"id": "t", "component": {"Text": {"text": {"literalString": "Hello there"}}}}]}}]</a2ui-json>"#;
/// let mut shown = Vec::new();
/// for piece in reply.as_bytes().chunks(5) {
///     for part in parser.feed(std::str::from_utf8(piece).unwrap()) {
///         shown.push(part?);
///     }
/// }
/// assert!(parser.finish().is_empty());
/// // The prose comes first, then the surface, then the text as it grows ("Hel", ..., "Hello there").
/// assert_eq!(shown[0].text.as_deref(), Some("Here "));
/// let texts: Vec<String> = shown.iter().filter_map(|part| part.a2ui.as_ref())
///     .filter_map(|messages| messages[0].pointer("/surfaceUpdate/components/0/component/Text/text/literalString"))
///     .map(|text| text.as_str().unwrap().to_owned()).collect();
/// assert_eq!(texts.last().map(String::as_str), Some("Hello there"));
/// assert!(texts.len() > 1 && texts.windows(2).all(|w| w[1].starts_with(w[0].as_str())));
/// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
/// ```
pub struct ProgressiveParser<F = Value> {
    /// What messages and components are checked against.
    catalogs: Catalogs,
    version: Version,
    mode: Emission,
    limits: Limits,
    /// Where the response stands: bytes fed, and what waits for the next call.
    input: Input,
    /// The `<a2ui-json>` block being read, if any.
    block: Block,
    json: PartialJson,
    current: Current,
    /// By surface id (boxed, so that the table stays small: see [`surface::ROOM`]).
    surfaces: QuickMap<String, Box<Surface>>,
    /// Surfaces with stored changes to flush at the end of the chunk.
    queued: Vec<String>,
    /// The data model as emitted, and the v0.8 entries being written.
    data: DataModel,
    /// The component being written, as last stored from a look at it (see [`Writing`]).
    writing: Writing,
    /// Room kept from one step to the next.
    room: Room,
    /// The emptied list of a step handed back ([`ProgressiveParser::recycle`]): the room of
    /// the next list handed out.
    out_room: Vec<Result<ResponsePart<F>, Error>>,
    form: PhantomData<fn() -> F>,
}

/// Allocations a step makes use of and keeps for the next one.
#[derive(Debug, Default)]
struct Room {
    /// Messages handed back by the caller ([`ProgressiveParser::recycle`]) or
    /// replaced within a step, to be written over by the next ones made.
    spare: Spare,
    /// The lists a flush of a surface fills, kept empty for their room.
    lists: FlushLists,
}

impl<F> fmt::Debug for ProgressiveParser<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProgressiveParser")
            .field("version", &self.version)
            .field("mode", &self.mode)
            .field("in_block", &self.block.inside())
            .finish_non_exhaustive()
    }
}

impl ProgressiveParser {
    /// A parser for the catalog's protocol version, in [`Emission::Official`] mode. The catalog's
    /// schemas are compiled on its first parser and shared by every later one
    /// ([`Catalog::validator`]), so starting a parser per response is cheap; fails (with
    /// [`ProgressiveErrorKind::Schema`]) when they do not compile.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::legacy::ProgressiveParser;
    /// let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// assert_eq!(parser.feed("plain prose")[0].as_ref().unwrap().text.as_deref(), Some("plain prose"));
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn new(catalog: &Catalog) -> Result<ProgressiveParser, Error> {
        ProgressiveParser::with_emission(catalog, Emission::Official)
    }

    /// A parser with the given [`Emission`] mode; see [`ProgressiveParser::new`].
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::Emission;
    /// use a2ui_stream::official::legacy::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let parser = ProgressiveParser::with_emission(&catalog, Emission::ChangedOnly)?;
    /// assert_eq!(parser.emission(), Emission::ChangedOnly);
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn with_emission(catalog: &Catalog, mode: Emission) -> Result<ProgressiveParser, Error> {
        let validator = catalog
            .validator()
            .map_err(|e| new_error(ProgressiveErrorKind::Schema, e.to_string()))?;
        Ok(ProgressiveParser::with_validator(validator, mode))
    }

    /// A parser sharing an already compiled [`Validator`] (and its catalog): how a server starts
    /// one parser per response without compiling the schemas again.
    ///
    /// ```
    /// use std::sync::Arc;
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::Emission;
    /// use a2ui_stream::official::legacy::ProgressiveParser;
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
            catalogs: Catalogs::new(validator),
            mode,
            limits: Limits::default(),
            input: Input::default(),
            block: Block::default(),
            json: PartialJson::with_room(),
            current: Current::default(),
            surfaces: QuickMap::default(),
            queued: Vec::new(),
            data: DataModel::default(),
            writing: Writing::new(),
            room: Room::default(),
            out_room: Vec::new(),
            form: PhantomData,
        }
    }

    /// A parser holding several catalogs of one protocol version, in `mode`: as a renderer
    /// holding them would, it checks each component against the catalog the component's own
    /// `catalogId` names, else the one its surface's `beginRendering` / `createSurface` names,
    /// else the first (a catalog it does not hold counts as none named); any other message
    /// against the catalog it names, else its surface's. The first catalog is the parser's own
    /// (its protocol version, and the reference properties and required fields it reads for
    /// every component). Fails (with [`ProgressiveErrorKind::Schema`]) when there is no catalog, they
    /// target different protocol versions, or a catalog's schemas do not compile.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::Emission;
    /// use a2ui_stream::official::legacy::ProgressiveParser;
    /// use serde_json::json;
    /// let basic = Catalog::new(Version::V09, json!(null), json!({"catalogId": "basic", "components": {
    ///     "Text": {"type": "object", "properties": {"text": {"type": "string"}}}}}), json!({}));
    /// let charts = Catalog::new(Version::V09, json!(null), json!({"catalogId": "charts", "components": {
    ///     "Gauge": {"type": "object", "properties": {"value": {"type": "number"}}}}}), json!({}));
    /// let mut parser = ProgressiveParser::with_catalogs(&[basic, charts], Emission::Official)?;
    /// parser.feed(r#"<a2ui-json>[{"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "charts"}},"#).into_iter().collect::<Result<Vec<_>, _>>()?;
    /// // The surface's catalog is `charts`: a Gauge naming no catalog is checked against it.
    /// let parts = parser.feed(r#"{"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
    ///     {"id": "root", "component": "Gauge", "value": 3}]}}]</a2ui-json>"#).into_iter().collect::<Result<Vec<_>, _>>()?;
    /// let shown = &parts[0].a2ui.as_ref().unwrap()[0]["updateComponents"]["components"];
    /// assert_eq!(shown[0]["component"], "Gauge");
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn with_catalogs(catalogs: &[Catalog], mode: Emission) -> Result<ProgressiveParser, Error> {
        let compiled = |catalog: &Catalog| {
            catalog
                .validator()
                .map_err(|e| new_error(ProgressiveErrorKind::Schema, e.to_string()))
        };
        let Some((first, others)) = catalogs.split_first() else {
            return Err(new_error(
                ProgressiveErrorKind::Schema,
                "A parser needs a catalog",
            ));
        };
        let mut parser = ProgressiveParser::with_validator(compiled(first)?, mode);
        for catalog in others {
            parser.catalogs.add(compiled(catalog)?)?;
        }
        Ok(parser)
    }

    /// The parser without checks against the catalog: every message and component passes
    /// (the reference's validation disabled). What the parser finds itself is still reported:
    /// a component that refers to itself or closes a cycle, a component update without its
    /// surface's root. The catalog still says which component references which, and whether
    /// placeholders can be shown (only where it defines their component type).
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::legacy::ProgressiveParser;
    /// use serde_json::json;
    /// let catalog = Catalog::new(Version::V09, json!(null), json!({"components": {}}), json!({}));
    /// let reply = r#"<a2ui-json>[{"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
    ///     {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
    ///     {"id": "root", "component": "Unknown", "text": "Hi"}]}}]</a2ui-json>"#;
    /// // The catalog knows no component: checked, the update is rejected.
    /// assert!(ProgressiveParser::new(&catalog)?.feed(reply).iter().any(Result::is_err));
    /// let parts = ProgressiveParser::new(&catalog)?.without_validation().feed(reply).into_iter().collect::<Result<Vec<_>, _>>()?;
    /// let messages = parts[0].a2ui.as_ref().unwrap();
    /// assert_eq!(messages[1]["updateComponents"]["components"][0]["component"], "Unknown");
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn without_validation(mut self) -> ProgressiveParser {
        self.catalogs.set_check(false);
        self
    }

    /// Whether messages and components are checked against the catalog (see
    /// [`ProgressiveParser::without_validation`]).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::legacy::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let parser = ProgressiveParser::new(&catalog)?;
    /// assert!(parser.validates());
    /// assert!(!parser.without_validation().validates());
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn validates(&self) -> bool {
        self.catalogs.checks()
    }

    /// The parser with other [`Limits`] than the defaults.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::legacy::{ProgressiveErrorKind, Limits, ProgressiveParser};
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let limits = Limits { max_depth: 4, ..Limits::default() };
    /// let mut parser = ProgressiveParser::new(&catalog)?.with_limits(limits);
    /// assert_eq!(parser.limits(), limits);
    /// let err = parser.feed("<a2ui-json>[{\"a\": [[[[[").into_iter().find_map(Result::err).unwrap();
    /// assert_eq!(err.kind(), ProgressiveErrorKind::Limit);
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn with_limits(mut self, limits: Limits) -> ProgressiveParser {
        self.limits = limits;
        self
    }

    /// The limits in force.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::legacy::{Limits, ProgressiveParser};
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// assert_eq!(ProgressiveParser::new(&catalog)?.limits(), Limits::default());
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The parser with cut strings shown under `keys` instead of under the default keys
    /// (`text`, `literalString`, `valueString`, `label`, `hint`, `caption`, `altText`): a string
    /// being written under one of them is shown as far as it goes (a `valueString` that looks
    /// like a link still waits), and under any other key it waits until it ends. No keys: no cut
    /// string is shown. As the reference's `progressive_keys`, they replace the defaults.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::legacy::ProgressiveParser;
    /// use serde_json::json;
    /// let catalog = Catalog::new(Version::V09, json!(null), json!({"components": {
    ///     "Text": {"type": "object"}}}), json!({}));
    /// let start = r#"<a2ui-json>[{"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
    ///     {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
    ///     {"id": "root", "component": "Text", "title": "Hel"#;
    /// let mut parser = ProgressiveParser::new(&catalog)?.with_cuttable_keys(["title"]);
    /// let parts = parser.feed(start).into_iter().collect::<Result<Vec<_>, _>>()?;
    /// let messages = parts[0].a2ui.as_ref().unwrap();
    /// assert_eq!(messages[1]["updateComponents"]["components"][0]["title"], "Hel");
    /// // With the default keys, `title` waits until it ends.
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// let parts = parser.feed(start).into_iter().collect::<Result<Vec<_>, _>>()?;
    /// assert_eq!(parts[0].a2ui.as_ref().unwrap().len(), 1); // the createSurface alone
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn with_cuttable_keys<K: Into<String>>(
        mut self,
        keys: impl IntoIterator<Item = K>,
    ) -> ProgressiveParser {
        let keys: Vec<String> = keys.into_iter().map(Into::into).collect();
        self.json.set_cuttable_keys(Some(keys.into()));
        self
    }

    /// The emission mode.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::Emission;
    /// use a2ui_stream::official::legacy::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// assert_eq!(ProgressiveParser::new(&catalog).unwrap().emission(), Emission::Official);
    /// ```
    pub fn emission(&self) -> Emission {
        self.mode
    }

    /// The same parser, handing out every message as its compact JSON text, what a server
    /// sends on: the same messages (the text of each is what `serde_json` writes for the
    /// `Value` the parser would hand out), made without building or copying their trees. Each
    /// component's text is kept until the component changes, so a step that repeats every
    /// reachable component costs about the length of what it writes.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::legacy::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {"Text": {"type": "object"}}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?.json();
    /// parser.feed(r#"<a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "t"}},"#);
    /// let parts = parser.feed(r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "t", "component": {"Text": {"text": "Hi"}}}]}}"#);
    /// assert_eq!(
    ///     parts[0].as_ref().unwrap().a2ui.as_deref(),
    ///     Some(&[r#"{"surfaceUpdate":{"components":[{"component":{"Text":{"text":"Hi"}},"id":"t"}],"surfaceId":"s"}}"#.to_owned()][..])
    /// );
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn json(self) -> ProgressiveParser<String> {
        ProgressiveParser {
            catalogs: self.catalogs,
            version: self.version,
            mode: self.mode,
            limits: self.limits,
            input: self.input,
            block: self.block,
            json: self.json,
            current: self.current,
            surfaces: self.surfaces,
            queued: self.queued,
            data: self.data,
            writing: self.writing,
            room: self.room,
            out_room: Vec::new(),
            form: PhantomData,
        }
    }

    /// Takes the next chunk of the response; returns, in order, the parts it completed and the
    /// errors it met.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::legacy::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// assert_eq!(parser.feed("Hi <a2u")[0].as_ref().unwrap().text.as_deref(), Some("Hi "));
    /// assert!(parser.feed("i-json>").is_empty());
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    ///
    /// An error names the rule that was broken and the byte where the fault is ([`ProgressiveError`]), the
    /// same however well-formed JSON is cut into chunks, and costs only what broke the rule:
    /// what the chunk completed before it, and then the rest of the chunk, come after it.
    /// * A message the catalog rejects is left out.
    /// * A component that refers to itself, closes a cycle or ends a chain deeper than the
    ///   reference allows is set aside: the components that show it show its placeholder again,
    ///   and the rest of its message does not bring it back (a later message may).
    /// * A component update without its surface's root is reported; its components wait for it.
    /// * A block with no JSON object, or past one of the [`Limits`], is read past to its end.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::legacy::{ProgressiveErrorKind, ProgressiveParser};
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {
    /// #     "Text": {"type": "object"},
    /// #     "Card": {"type": "object", "properties": {"child": {"type": "string", "title": "ComponentId"}}}}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// parser.feed(r#"<a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "r"}}, "#);
    /// let bad = r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "r", "component": {"Card": {"child": "r"}}}]}}"#;
    /// let err = parser.feed(bad).remove(0).unwrap_err();
    /// assert_eq!(err.kind(), ProgressiveErrorKind::Topology);
    /// assert!(err.message().starts_with("Self-reference detected: Component 'r'"));
    /// let component = bad.find(r#"{"id""#).unwrap() as u64;
    /// assert_eq!(err.offset(), Some(65 + component)); // where that component begins
    /// // The next message still arrives, and so does the prose after the block.
    /// let parts = parser.feed(r#", {"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "r", "component": {"Card": {"child": "t"}}}]}}]</a2ui-json> Bye."#);
    /// let parts: Vec<_> = parts.into_iter().collect::<Result<_, _>>()?;
    /// let shown = &parts[0].a2ui.as_ref().unwrap()[0]["surfaceUpdate"]["components"];
    /// assert_eq!(shown[0]["component"]["Card"]["child"], "loading_t");
    /// assert_eq!(parts[1].text.as_deref(), Some(" Bye."));
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    #[inline]
    pub fn feed(&mut self, chunk: &str) -> Vec<Result<ResponsePart, Error>> {
        self.feed_as(chunk)
    }

    /// Ends the response, after its last chunk: everything still to come and every error still
    /// to report. Text held back because it could have been the start of an `<a2ui-json>` tag
    /// is prose after all and is handed out. A block that was never closed is not an error:
    /// what it showed stays shown, as when a model is cut off.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::legacy::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// let out = parser.feed("A <a2ui-json>?</a2ui-json> B <a2ui-json>!</a2ui-json> C <a2ui");
    /// assert_eq!(out.iter().filter(|r| r.is_err()).count(), 2, "two blocks with no JSON");
    /// let end = parser.finish();
    /// let prose: String = out.iter().chain(&end).filter_map(|r| r.as_ref().ok()?.text.as_deref()).collect();
    /// assert_eq!(prose, "A  B  C <a2ui");
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn finish(&mut self) -> Vec<Result<ResponsePart, Error>> {
        self.finish_as()
    }

    /// Hands back the parts of an earlier step once done with them: the next steps write their
    /// messages over these trees, lists and strings, so that a server that sends each step on
    /// and then hands it back allocates only what is new in a step. In official mode, where
    /// every step repeats every reachable component, that is most of the cost of handing out
    /// trees. A few messages are kept (at most sixteen).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::legacy::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {"Text": {"type": "object"}}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// let mut texts = Vec::new();
    /// for piece in [r#"<a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "t"}},"#,
    ///               r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "t", "component": {"Text": {"text": "Hel"#,
    ///               r#"lo"}}}]}}]</a2ui-json>"#] {
    ///     let parts = parser.feed(piece);
    ///     for message in parts.iter().filter_map(|p| p.as_ref().ok()?.a2ui.as_ref()).flatten() {
    ///         if let Some(text) = message.pointer("/surfaceUpdate/components/0/component/Text/text") {
    ///             texts.push(text.clone());
    ///         }
    ///     }
    ///     parser.recycle(parts); // written over by the next step
    /// }
    /// assert_eq!(texts, ["Hel", "Hello"]);
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn recycle(&mut self, parts: Vec<Result<ResponsePart, Error>>) {
        self.recycle_parts(parts);
    }
}

impl ProgressiveParser<String> {
    /// [`ProgressiveParser::feed`] with every message as its compact JSON text.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::legacy::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?.json();
    /// assert_eq!(parser.feed("Hi <a2u")[0].as_ref().unwrap().text.as_deref(), Some("Hi "));
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    #[inline]
    pub fn feed(&mut self, chunk: &str) -> Vec<Result<ResponsePart<String>, Error>> {
        self.feed_as(chunk)
    }

    /// [`ProgressiveParser::finish`] with every message as its compact JSON text.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::legacy::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?.json();
    /// parser.feed("Done. <a2ui-j");
    /// assert_eq!(parser.finish()[0].as_ref().unwrap().text.as_deref(), Some("<a2ui-j"));
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn finish(&mut self) -> Vec<Result<ResponsePart<String>, Error>> {
        self.finish_as()
    }

    /// [`ProgressiveParser::recycle`] for parts with messages as JSON text.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::legacy::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?.json();
    /// let parts = parser.feed("Hi");
    /// parser.recycle(parts);
    /// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
    /// ```
    pub fn recycle(&mut self, parts: Vec<Result<ResponsePart<String>, Error>>) {
        self.recycle_parts(parts);
    }
}
