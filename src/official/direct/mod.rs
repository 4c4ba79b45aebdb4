//! The direct-JSON format of the official SDK (`a2ui-agent-sdk` 0.9.0, `DirectJsonParser`): a
//! model writes A2UI messages as JSON inside `<a2ui-json>…</a2ui-json>` blocks between
//! sentences, and a parser hands on, after every chunk, the text and the messages that are
//! ready, as the conformance suite `direct_json/response_streaming.yaml` states them:
//!
//! - **Text** outside a block goes out per chunk, less a trailing run of white space (held, and
//!   given with the text after it, or dropped when a block follows) and less a tail that may
//!   begin an open tag. Tags are read in any case, with attributes.
//! - **A message** goes out once it reads: its open containers closed, a string still arriving
//!   closed where it stands only under one of the parser's *progressive keys* (never an
//!   address). A key, an id, a number or a child reference that is cut leaves its message
//!   unread. A message that reads but that the catalog rejects is not ready either.
//! - **Components** (from v1.0) go out only once their object closes: a `components` list
//!   shows the components that closed, and a message whose list has none is not ready.
//! - **A surface's create message** waits for its object to close, and so do the messages
//!   after it. Messages wait in order: one that cannot be read holds back those after it.
//! - **Again when changed**: a message that reads differently after a chunk goes out again, as
//!   it now stands ([`Emission::Official`]); with [`Emission::ChangedOnly`] it carries only
//!   what is new (the components that closed since, or the message when it changed
//!   otherwise), so that output grows with the UI, not with its square.
//! - **At the close tag** the block is read whole and checked as one payload; a block that
//!   does not read is an error there ([`DirectErrorKind::Parse`]), not text.
//!
//! The SDK reads the whole block again after every chunk. Here each byte goes through the
//! core's lexer once (`scan.rs`, with the tags of `framing.rs`); a message is parsed once when
//! it closes, and the one still arriving is read as it stands only after a chunk that can
//! change it (a value that closed, a container that opened, a progressive string that grew).
//!
//! ```
//! use a2ui_stream::official::catalog::{Catalog, Version};
//! use a2ui_stream::official::direct::{DirectJsonParser, Part};
//! use a2ui_stream::official::validator::Validator;
//! use a2ui_stream::official::Emission;
//! use serde_json::json;
//! use std::sync::Arc;
//!
//! let catalog = Catalog::new(Version::V09, json!(null), json!({"components": {}}), json!(null));
//! let validator = Arc::new(Validator::new(&catalog)?);
//! let mut parser = DirectJsonParser::new(validator, ["text"], Emission::Official);
//! let mut parts = Vec::new();
//! for chunk in ["Here it is.\n<a2ui-json>[{\"version\": \"v0.9\", ",
//!               "\"deleteSurface\": {\"surfaceId\": \"s\"}}]</a2ui-json>"] {
//!     for part in parser.feed(chunk) {
//!         parts.push(part?);
//!     }
//! }
//! for part in parser.finish() {
//!     parts.push(part?);
//! }
//! assert_eq!(parts[0], Part::Text("Here it is.".into()));
//! assert_eq!(parts[1], Part::A2ui(vec![json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}})]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod block;
mod emit;
mod response;
pub(crate) mod text;

use std::collections::HashSet;
use std::marker::PhantomData;
use std::sync::Arc;

use serde_json::Value;

use super::Emission;
use super::validator::Validator;
use crate::Version;
use block::{Block, Fed};

/// This module's error, under the short name its code uses.
type Error = DirectError;
type ErrorKind = DirectErrorKind;

/// An error at byte `offset` of the response.
fn error(kind: ErrorKind, offset: u64, message: impl Into<String>) -> Error {
    Error::of(kind, Some(offset), message)
}
use emit::{Candidate, Emitted, Stamp};

pub use response::{RawPart, parse_response, unwrap, wrap};

/// One part of what a chunk yields: text, or the messages that became ready, as
/// `serde_json::Value` trees or (from a parser made with [`DirectJsonParser::json`]) as their
/// compact JSON text.
///
/// ```
/// use a2ui_stream::official::direct::Part;
/// let part: Part = Part::A2ui(vec![serde_json::json!({"deleteSurface": {"surfaceId": "s"}})]);
/// let text: Part<String> = Part::A2ui(vec![r#"{"deleteSurface":{"surfaceId":"s"}}"#.into()]);
/// assert_ne!(Part::<String>::Text("Hi".into()), text);
/// # drop(part);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Part<M = Value> {
    /// Conversational text outside blocks.
    Text(String),
    /// Messages, in the order a renderer applies them.
    A2ui(Vec<M>),
}

/// The two forms a parser hands messages out in: trees or compact JSON text.
trait Form: Sized {
    fn from_value(value: Value) -> Self;
}

impl Form for Value {
    fn from_value(value: Value) -> Value {
        value
    }
}

impl Form for String {
    fn from_value(value: Value) -> String {
        value.to_string()
    }
}

/// Why a response could not be parsed.
///
/// ```
/// use a2ui_stream::official::direct::DirectErrorKind;
/// assert_ne!(DirectErrorKind::Parse, DirectErrorKind::Validation);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DirectErrorKind {
    /// A block does not read as JSON, or is empty.
    Parse,
    /// A block's messages break the catalog's rules.
    Validation,
}

/// An error of the direct-JSON parser: its kind, the byte of the response where it went wrong,
/// and what happened in the SDK's words.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::direct::{DirectJsonParser, DirectErrorKind};
/// use a2ui_stream::official::Emission;
/// use a2ui_stream::official::validator::Validator;
/// use std::sync::Arc;
/// let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({}), serde_json::json!(null));
/// let mut parser = DirectJsonParser::new(Arc::new(Validator::new(&catalog)?), [""; 0], Emission::Official);
/// let err = parser.feed("<a2ui-json>not json</a2ui-json>").remove(0).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (DirectErrorKind::Parse, Some(11)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type DirectError = crate::Error<DirectErrorKind>;

/// The streaming parser; see the [module documentation](self). Messages come out as
/// `serde_json::Value` trees, or as their compact JSON text from a parser made with
/// [`json`](DirectJsonParser::json).
#[derive(Debug)]
pub struct DirectJsonParser<M = Value> {
    validator: Arc<Validator>,
    progressive: HashSet<String>,
    mode: Emission,
    /// `None` until the first chunk; then whether the response is wrapped in tags.
    wrapped: bool,
    /// Inside a block: its payload so far.
    block: Option<Block>,
    /// Where the current block's payload starts in the response.
    block_at: u64,
    /// Bytes held back from the last chunk (a possible tag start).
    held: String,
    run: text::Run,
    emitted: Emitted,
    /// Bytes of the response taken so far.
    fed: u64,
    form: PhantomData<fn() -> M>,
}

impl DirectJsonParser {
    /// A parser for one response, checking messages with `validator`'s catalog, closing strings
    /// early only under `progressive_keys`, emitting in `mode`.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::direct::{DirectJsonParser, Part};
    /// # use a2ui_stream::official::Emission;
    /// # use a2ui_stream::official::validator::Validator;
    /// # use serde_json::json;
    /// # let catalog = Catalog::new(Version::V09, json!(null), json!({}), json!(null));
    /// let mut parser = DirectJsonParser::new(Arc::new(Validator::new(&catalog)?), ["greeting"], Emission::Official);
    /// let parts = parser.feed(r#"<a2ui-json>[{"version": "v0.9", "updateDataModel": {"surfaceId": "s", "value": {"greeting": "Hel"#);
    /// assert_eq!(parts, [Ok(Part::A2ui(vec![json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "value": {"greeting": "Hel"}}})]))]);
    /// # use std::sync::Arc;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new<K: Into<String>>(
        validator: Arc<Validator>,
        progressive_keys: impl IntoIterator<Item = K>,
        mode: Emission,
    ) -> DirectJsonParser {
        DirectJsonParser {
            validator,
            progressive: progressive_keys.into_iter().map(Into::into).collect(),
            mode,
            wrapped: true,
            block: None,
            block_at: 0,
            held: String::new(),
            run: text::Run::default(),
            emitted: Emitted::default(),
            fed: 0,
            form: PhantomData,
        }
    }
}

impl<M> DirectJsonParser<M> {
    /// The same parser, handing out each message as its compact JSON text (what `serde_json`
    /// writes for the `Value`), what a server sends on.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::direct::{DirectJsonParser, Part};
    /// # use a2ui_stream::official::Emission;
    /// # use a2ui_stream::official::validator::Validator;
    /// # use std::sync::Arc;
    /// # let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({}), serde_json::json!(null));
    /// let mut parser = DirectJsonParser::new(Arc::new(Validator::new(&catalog)?), [""; 0], Emission::Official).json();
    /// let parts: Vec<_> = parser.feed(r#"<a2ui-json>[{"version": "v0.9", "deleteSurface": {"surfaceId": "s"}}]</a2ui-json>"#)
    ///     .into_iter().collect::<Result<_, _>>()?;
    /// assert_eq!(parts, [Part::A2ui(vec![r#"{"deleteSurface":{"surfaceId":"s"},"version":"v0.9"}"#.to_owned()])]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn json(self) -> DirectJsonParser<String> {
        DirectJsonParser {
            validator: self.validator,
            progressive: self.progressive,
            mode: self.mode,
            wrapped: self.wrapped,
            block: self.block,
            block_at: self.block_at,
            held: self.held,
            run: self.run,
            emitted: self.emitted,
            fed: self.fed,
            form: PhantomData,
        }
    }

    /// A parser for a response that is all payload, with no tags (a tool call's arguments, a
    /// structured output).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::direct::{DirectJsonParser, Part};
    /// # use a2ui_stream::official::Emission;
    /// # use a2ui_stream::official::validator::Validator;
    /// # use serde_json::json;
    /// # use std::sync::Arc;
    /// # let catalog = Catalog::new(Version::V09, json!(null), json!({}), json!(null));
    /// let mut parser = DirectJsonParser::new(Arc::new(Validator::new(&catalog)?), [""; 0], Emission::Official).unwrapped();
    /// let parts = parser.feed(r#"[{"version": "v0.9", "deleteSurface": {"surfaceId": "s"}}]"#);
    /// assert_eq!(parts.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn unwrapped(mut self) -> Self {
        self.wrapped = false;
        self.block = Some(self.new_block());
        self
    }

    fn new_block(&self) -> Block {
        let mut block = Block::new(self.validator.catalog().version() >= Version::V10);
        if self.mode == Emission::ChangedOnly {
            block.note_inserts();
        }
        block
    }

    /// The chunk loop: what `chunk` made ready goes into `out`, an error in its place; the
    /// text after a block that failed is read on.
    fn step(&mut self, chunk: &str, out: &mut Vec<Result<Part, Error>>) {
        let joined;
        let input: &str = if self.held.is_empty() {
            chunk
        } else {
            joined = std::mem::take(&mut self.held) + chunk;
            &joined
        };
        // Where `input` starts in the response.
        let base = self.fed.saturating_sub(self.held_len_before(chunk, input));
        self.fed = self.fed.saturating_add(chunk.len() as u64);
        let mut rest = input;
        let mut parts = Vec::new();
        while !rest.is_empty() {
            let at = base + (input.len() - rest.len()) as u64;
            if self.block.is_some() {
                rest = match self.in_block(rest, at, &mut parts) {
                    Ok(after) => after,
                    Err((e, after)) => {
                        out.extend(parts.drain(..).map(Ok));
                        out.push(Err(e));
                        after
                    }
                };
                continue;
            }
            match text::open_tag(rest.as_bytes(), crate::framing::Tag::Json) {
                Some((pos, Some(len))) => {
                    if let Some(t) = rest.get(..pos).and_then(|t| self.run.take(t)) {
                        parts.push(Part::Text(t));
                    }
                    self.run.reset();
                    self.block = Some(self.new_block());
                    self.block_at = at + (pos + len) as u64;
                    rest = rest.get(pos + len..).unwrap_or_default();
                }
                found => {
                    let hold = found.map_or(rest.len(), |(pos, _)| pos);
                    if let Some(t) = rest.get(..hold).and_then(|t| self.run.take(t)) {
                        parts.push(Part::Text(t));
                    }
                    self.held = rest.get(hold..).unwrap_or_default().to_owned();
                    rest = "";
                }
            }
        }
        out.extend(parts.into_iter().map(Ok));
    }

    /// How many bytes of `input` were held from before `chunk`.
    fn held_len_before(&self, chunk: &str, input: &str) -> u64 {
        (input.len() - chunk.len()) as u64
    }

    /// Block text: read, emit what became ready; at the close tag, the block whole. Returns the
    /// text after the block (or nothing).
    fn in_block<'a>(
        &mut self,
        rest: &'a str,
        at: u64,
        parts: &mut Vec<Part>,
    ) -> Result<&'a str, (Error, &'a str)> {
        let Some(block) = self.block.as_mut() else {
            return Ok("");
        };
        match block.feed(rest.as_bytes()) {
            Fed::Payload => self.ready(parts).map(|()| "").map_err(|e| (e, "")),
            Fed::Hold(k) => {
                self.held = rest.get(k..).unwrap_or_default().to_owned();
                self.ready(parts).map(|()| "").map_err(|e| (e, ""))
            }
            Fed::Closed { at: k, len } => {
                let after = rest.get(k + len..).unwrap_or_default();
                let early = if self.mode == Emission::ChangedOnly {
                    self.ready(parts)
                } else {
                    Ok(())
                };
                let block = self.block.take();
                let result = early.and_then(|()| match block {
                    Some(mut block) => self.close(&mut block, at + k as u64, parts),
                    None => Ok(()),
                });
                self.emitted = Emitted::default();
                result.map(|()| after).map_err(|e| (e, after))
            }
        }
    }

    /// After a chunk inside a block: the messages that became ready, or changed.
    fn ready(&mut self, parts: &mut Vec<Part>) -> Result<(), Error> {
        let Some(block) = self.block.as_mut() else {
            return Ok(());
        };
        let mut out = Vec::new();
        let progressive = &self.progressive;
        let heal = |k: &str| progressive.contains(k);
        let pieces = self.mode == Emission::ChangedOnly;
        let inserts = block.take_inserts(!pieces || block.readable(&heal));
        let invalid = |e: String| error(DirectErrorKind::Validation, self.block_at, e);
        let (first, closed) = block.take_closed();
        for (k, (message, revision)) in closed.into_iter().enumerate() {
            let index = first + k;
            if pieces
                && self.emitted.sent(index)
                && self.emitted.waiting_for(index)
                && self
                    .emitted
                    .pieces(&self.validator, index, &inserts, None, &mut out)
            {
                self.emitted.closed_in_pieces(index, message, revision);
                continue;
            }
            let stamp = Stamp {
                revision,
                cut: None,
            };
            self.emitted
                .consider(
                    &self.validator,
                    self.mode,
                    index,
                    Candidate {
                        message,
                        stamp,
                        closed: true,
                    },
                    &mut out,
                )
                .map_err(invalid)?;
        }
        if let Some(index) = block.open_index()
            && block.changed()
            && self.emitted.waiting_for(index)
        {
            let in_pieces = pieces && self.emitted.sent(index) && {
                let cut = block
                    .cut_string(&heal)
                    .map(|text| (block.cut_string_path(), text));
                self.emitted
                    .pieces(&self.validator, index, &inserts, cut, &mut out)
            };
            if !in_pieces && let Some((message, cut)) = block.standing(&heal) {
                let stamp = Stamp {
                    revision: block.revision(),
                    cut,
                };
                self.emitted
                    .consider(
                        &self.validator,
                        self.mode,
                        index,
                        Candidate {
                            message,
                            stamp,
                            closed: false,
                        },
                        &mut out,
                    )
                    .map_err(invalid)?;
            }
        }
        if !out.is_empty() {
            parts.push(Part::A2ui(out));
        }
        Ok(())
    }

    /// The close tag at `at`: the block read whole and checked as one payload.
    fn close(&mut self, block: &mut Block, at: u64, parts: &mut Vec<Part>) -> Result<(), Error> {
        if let Some((offset, why)) = block.broken() {
            return Err(Error::of(
                DirectErrorKind::Parse,
                Some(self.block_at + offset),
                format!("The direct JSON block is not JSON: {why}"),
            ));
        }
        if block.empty() {
            return Err(error(
                DirectErrorKind::Parse,
                at,
                "The direct JSON block is empty.",
            ));
        }
        if !block.complete() {
            return Err(error(
                DirectErrorKind::Parse,
                at,
                "The direct JSON block is not JSON: unexpected end of the JSON text",
            ));
        }
        let (_, closed) = block.take_closed();
        let (messages, finals) = self.emitted.whole_block(closed);
        let messages = Value::Array(messages);
        self.validator
            .validate(&messages)
            .map_err(|e| error(DirectErrorKind::Validation, self.block_at, e.message()))?;
        let Value::Array(messages) = messages else {
            return Ok(());
        };
        let mut out = Vec::new();
        self.emitted
            .changed_at_close(self.mode, messages, &finals, &mut out);
        if !out.is_empty() {
            parts.push(Part::A2ui(out));
        }
        Ok(())
    }

    /// The end of the response: the text held back goes out; a block left open is read as
    /// closed there (unwrapped) or is an error (wrapped).
    fn end(&mut self, out: &mut Vec<Result<Part, Error>>) {
        if !self.wrapped
            && let Some(mut block) = self.block.take()
        {
            let mut parts = Vec::new();
            let closed = self.close(&mut block, self.fed, &mut parts);
            out.extend(parts.into_iter().map(Ok));
            out.extend(closed.err().map(Err));
            return;
        }
        if self.block.take().is_some() {
            out.push(Err(error(
                DirectErrorKind::Parse,
                self.fed,
                "The response ended inside a direct JSON block.",
            )));
            return;
        }
        let held = std::mem::take(&mut self.held);
        if let Some(t) = self.run.take(&held) {
            out.push(Ok(Part::Text(t)));
        }
    }

    /// [`step`](Self::step) with the messages in form `M`.
    fn feed_as<F: Form>(&mut self, chunk: &str) -> Vec<Result<Part<F>, Error>> {
        let mut out = Vec::new();
        self.step(chunk, &mut out);
        out.into_iter().map(into_form).collect()
    }

    /// [`end`](Self::end) with the messages in form `M`.
    fn finish_as<F: Form>(&mut self) -> Vec<Result<Part<F>, Error>> {
        let mut out = Vec::new();
        self.end(&mut out);
        out.into_iter().map(into_form).collect()
    }
}

/// A part with its messages in form `F`.
fn into_form<F: Form>(part: Result<Part, Error>) -> Result<Part<F>, Error> {
    part.map(|p| match p {
        Part::Text(t) => Part::Text(t),
        Part::A2ui(messages) => Part::A2ui(messages.into_iter().map(F::from_value).collect()),
    })
}

impl DirectJsonParser {
    /// Takes the next chunk of the response; returns, in order, what it made ready and the
    /// errors it met, each in its place.
    ///
    /// An error ends the block it is in: the parts the block made ready in this chunk before
    /// it come out before it, and the parser goes on with the text after the block.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::direct::{DirectJsonParser, DirectErrorKind, Part};
    /// # use a2ui_stream::official::Emission;
    /// # use a2ui_stream::official::validator::Validator;
    /// # use std::sync::Arc;
    /// # let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({}), serde_json::json!(null));
    /// let mut parser = DirectJsonParser::new(Arc::new(Validator::new(&catalog)?), [""; 0], Emission::Official);
    /// let out = parser.feed("A <a2ui-json>not json</a2ui-json> B");
    /// assert_eq!(out[0], Ok(Part::Text("A".into())));
    /// assert_eq!(out[1].as_ref().unwrap_err().kind(), DirectErrorKind::Parse);
    /// assert_eq!(out[2], Ok(Part::Text("B".into()))); // text is trimmed, as the SDK does
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn feed(&mut self, chunk: &str) -> Vec<Result<Part, Error>> {
        self.feed_as(chunk)
    }

    /// Ends the response, after its last chunk: the text held back (a possible tag start that
    /// never finished) goes out; a block left open is an error.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::direct::{DirectJsonParser, Part};
    /// # use a2ui_stream::official::Emission;
    /// # use a2ui_stream::official::validator::Validator;
    /// # use std::sync::Arc;
    /// # let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({}), serde_json::json!(null));
    /// let mut parser = DirectJsonParser::new(Arc::new(Validator::new(&catalog)?), [""; 0], Emission::Official);
    /// assert_eq!(parser.feed("1 <a2ui"), [Ok(Part::Text("1".into()))]);
    /// assert_eq!(parser.finish(), [Ok(Part::Text(" <a2ui".into()))]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finish(&mut self) -> Vec<Result<Part, Error>> {
        self.finish_as()
    }
}

impl DirectJsonParser<String> {
    /// [`DirectJsonParser::feed`] with each message as its compact JSON text.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::direct::{DirectJsonParser, Part};
    /// # use a2ui_stream::official::Emission;
    /// # use a2ui_stream::official::validator::Validator;
    /// # use std::sync::Arc;
    /// # let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({}), serde_json::json!(null));
    /// let mut parser = DirectJsonParser::new(Arc::new(Validator::new(&catalog)?), [""; 0], Emission::Official).json();
    /// let out = parser.feed(r#"<a2ui-json>[{"version": "v0.9", "deleteSurface": {"surfaceId": "s"}}]"#);
    /// assert_eq!(out, [Ok(Part::A2ui(vec![r#"{"deleteSurface":{"surfaceId":"s"},"version":"v0.9"}"#.to_owned()]))]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn feed(&mut self, chunk: &str) -> Vec<Result<Part<String>, Error>> {
        self.feed_as(chunk)
    }

    /// [`DirectJsonParser::finish`] with each message as its compact JSON text.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::direct::{DirectJsonParser, Part};
    /// # use a2ui_stream::official::Emission;
    /// # use a2ui_stream::official::validator::Validator;
    /// # use std::sync::Arc;
    /// # let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({}), serde_json::json!(null));
    /// let mut parser = DirectJsonParser::new(Arc::new(Validator::new(&catalog)?), [""; 0], Emission::Official).json();
    /// parser.feed("Bye <a2ui");
    /// assert_eq!(parser.finish(), [Ok(Part::Text(" <a2ui".into()))]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finish(&mut self) -> Vec<Result<Part<String>, Error>> {
        self.finish_as()
    }
}
