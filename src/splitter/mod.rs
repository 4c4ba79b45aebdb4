//! The splitter: prose, framing and the JSON state machine
//! `SeekingMessage → InMessage → SeekingComponents → InComponent`.
//!
//! Bytes are looked at once. Prose is scanned with the shared byte-search kernels (`find.rs`)
//! for the three bytes that can start a framing token (`<`, `-`, `` ` ``); JSON goes through the
//! resumable [`Lexer`]. The only bytes ever looked at again are a held-back probe of at most
//! [`Config::max_held_bytes`] (a possible tag, fence or delimiter cut by a chunk boundary) and,
//! after an error, the few bytes between a `{` and its first key while resynchronising.
//!
//! Message bytes are copied at most once more: an open message's bytes from earlier chunks are
//! kept in one buffer, and a split-out component is written straight into its message from that
//! buffer and the chunk. The handlers of tokens, message ends and framing modes are kept out of
//! line (`#[inline(never)]`), so that the loop walking the bytes stays small.
//!
//! - `mod.rs`: the [`Splitter`], its states and the loop over a chunk;
//! - `prose.rs`: prose and framing (tags, fences, the held-back probe, between messages);
//! - `json.rs`: inside a message: the lexer's tokens, the message being read, its end, and the
//!   hooks of the data-model split ([`crate::data`]);
//! - `components.rs`: split-out components and repeats held back;
//! - `create.rs`: a v1.0 `createSurface` with inline components: the surface first, then each
//!   component, and its data model as updates;
//! - `chunk.rs`: the chunk being read and where an open message's bytes are.

mod chunk;
mod components;
mod create;
mod json;
mod prose;

use chunk::*;
use components::*;
use create::*;
pub use json::MAX_SPLIT_FIELD_BYTES;
use json::*;

use crate::data::{self, DataSplit, Piece};
use crate::find::{find_any3, find_either};
use crate::framing::{self, Act, Class};
use crate::hash::{QuickMap, QuickState, fingerprint};
use crate::message::Field;
use crate::scan::{KEY_CAPTURE_LIMIT, Lexer, Tok};
use crate::{Config, Error, ErrorKind, Event, Framing, Message, MessageKind};
use bytes::{Bytes, BytesMut};
use std::collections::VecDeque;
use std::sync::Arc;

/// Containers the lexer reports outside a data-model split: the first four levels matter
/// (message, body, components array, component).
pub(super) const BASE_CONTAINERS: usize = 4;
/// Strings reported outside a data-model split: keys and values of the message, the body and a
/// component.
pub(super) const BASE_STRINGS: u64 = 1 << 1 | 1 << 2 | 1 << 4;
/// Lexer depth of the members of a data-model update's value (message, body, value).
pub(super) const DATA_DEPTH: usize = 3;

/// Longest probe ever held back, whatever the configured limit.
const LOOKAHEAD: usize = 128;

/// The JSON states of the seed's design, plus resynchronisation after an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Between top-level messages: whitespace, `[`, `,`, `]`, fences, tags, or a `{`.
    SeekingMessage,
    /// Inside a message, outside any component list.
    InMessage,
    /// Inside the body of a `surfaceUpdate` / `updateComponents` / `createSurface`, outside its
    /// `components` array.
    SeekingComponents,
    /// Inside the `components` array: between components or inside one.
    InComponent,
    /// After an error: skipping to the next `{` whose first key names a message kind.
    Resync,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Tagged framing, outside blocks.
    Prose,
    /// Inside an opening tag's attributes, until `>`.
    TagAttributes { quote: Option<u8>, len: usize },
    /// A2UI JSON.
    Json(Phase),
}

/// Splits an LLM token stream into prose and standalone A2UI messages, incrementally.
///
/// Feed chunks as they arrive with [`feed`](Splitter::feed) or [`feed_bytes`](Splitter::feed_bytes);
/// each call returns everything the chunk completed. Call [`finish`](Splitter::finish) at the end
/// of the stream. Any split of the same input gives the same messages and the same concatenated
/// text.
///
/// ```
/// use a2ui_stream::{Event, Splitter};
///
/// let response = r#"Two cards:<a2ui-json>{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{}},{"id":"b","component":{}}]}}</a2ui-json>"#;
/// let mut splitter = Splitter::new();
/// let mut ids = Vec::new();
/// for chunk in response.as_bytes().chunks(3) {
///     for event in splitter.feed(chunk) {
///         if let Event::Message(m) = event.unwrap() {
///             ids.push(m.component_id().unwrap().to_owned());
///         }
///     }
/// }
/// assert_eq!(ids, ["a", "b"]);
/// ```
///
/// # A v1.0 `createSurface` with inline components
///
/// In v1.0 a `createSurface` may carry the surface's first `components` (a list, as in
/// `updateComponents`) and its `dataModel`. It is split so that a renderer creates the surface
/// before any component arrives, shows the first component while the next is being written, and
/// ends in the state the whole message leaves:
///
/// - **The surface first.** Just before the first component goes out, the surface goes out on
///   its own: `{"version":V,"createSurface":{…}}` holding, verbatim, every member of the body
///   read so far except `components` (`surfaceId`, `catalogId`, `theme`, `sendDataModel`,
///   `metadata`, a `dataModel` written before the list, any other).
/// - **Then each component**, the moment it closes, as
///   `{"version":V,"updateComponents":{"surfaceId":S,"components":[C]}}` with `C`'s bytes
///   verbatim (kind [`MessageKind::UpdateComponents`]; repeats are dropped as for
///   `updateComponents`).
/// - **A `dataModel` after the list** goes out as updates of the data model's root, per member as
///   for `updateDataModel` ([`Config::split_data_depth`]): `{"path":"/","value":{}}`, then each
///   member at its own path. When no faithful split of it exists (a `null` member, depth `0`, the
///   piece limit), it goes out whole as `{"path":"/","value":D}`.
/// - **Keys in any order.** Components written before `surfaceId` or `catalogId` (a renderer
///   places components by their surface's catalog), or before `version` after the body, wait
///   for the end of the message; then the surface, with every member, goes out first, and the
///   components after it.
/// - **Whole when no split can say it.** The message goes out whole, as before, when it is not
///   v1.0 (`"version":"v0.9"` or none), has no `surfaceId`, has a `surfaceId` or `version` longer
///   than [`MAX_SPLIT_FIELD_BYTES`], has message keys besides `version` and `createSurface`, holds
///   a second `components` list (the last one counts), or an empty one.
/// - **Taken back when something follows that no split can say.** Once the surface went out,
///   only components and a first `dataModel` object can follow as split messages. Any other key
///   read later (a member after the list, such as `theme`; a second `dataModel` or list; a
///   message key after the body), or a `dataModel` that is not an object, makes the splitter take
///   the surface back with `{"version":V,"deleteSurface":{"surfaceId":S}}` at the end of the
///   message and send the whole message after it, so a renderer ends where the whole message
///   leaves it. A message written in the schema's order (the list after the surface's other
///   members, a `dataModel` object last) never meets this.
/// - A v0.9 `createSurface`, and any other, is emitted whole.
///
/// ```
/// use a2ui_stream::{Config, Event, MessageKind, Splitter};
///
/// let response = r#"{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"c",
/// "components":[{"id":"root","component":"Column","children":["t"]},
///               {"id":"t","component":"Text","text":{"path":"/title"}}],
/// "dataModel":{"title":"Hi"}}}"#;
/// let mut splitter = Splitter::with_config(Config::bare());
/// let mut out = Vec::new();
/// for chunk in response.as_bytes().chunks(8) {
///     for event in splitter.feed(chunk) {
///         let Event::Message(m) = event.unwrap() else { unreachable!() };
///         out.push((m.kind(), m.as_str().to_owned()));
///     }
/// }
/// use MessageKind::*;
/// let kinds: Vec<_> = out.iter().map(|(kind, _)| *kind).collect();
/// assert_eq!(kinds, [CreateSurface, UpdateComponents, UpdateComponents, UpdateDataModel, UpdateDataModel]);
/// assert_eq!(out[0].1, r#"{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"c"}}"#);
/// assert_eq!(out[2].1, r#"{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[{"id":"t","component":"Text","text":{"path":"/title"}}]}}"#);
/// assert_eq!(out[4].1, r#"{"version":"v1.0","updateDataModel":{"surfaceId":"s","path":"/title","value":"Hi"}}"#);
/// ```
#[derive(Debug)]
pub struct Splitter {
    config: Config,
    mode: Mode,
    /// A block opened by a tag is open (its closing tag is expected).
    in_block: bool,
    /// Bytes fed so far.
    pos: u64,
    /// A possible framing token (or a cut UTF-8 character) at the end of what was fed.
    held: Vec<u8>,
    held_at: u64,
    lex: Lexer,
    capture: Capture,
    cur: Current,
    /// The open message's bytes from earlier chunks.
    acc: BytesMut,
    sent: Sent,
    /// Room for the pieces of a data-model split, kept between messages.
    pieces: Vec<Piece>,
    out: VecDeque<Result<Event, Error>>,
}

/// What one call to the splitter completed, in stream order.
///
/// ```
/// use a2ui_stream::Splitter;
/// let mut splitter = Splitter::new();
/// let events = splitter.feed(b"plain prose");
/// assert_eq!(events.len(), 1);
/// ```
#[derive(Debug)]
pub struct Events<'a>(&'a mut VecDeque<Result<Event, Error>>);

impl Iterator for Events<'_> {
    type Item = Result<Event, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.pop_front()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.0.len(), Some(self.0.len()))
    }
}

impl Drop for Events<'_> {
    /// Events not taken are dropped with the iterator, as with `drain`.
    #[inline]
    fn drop(&mut self) {
        if !self.0.is_empty() {
            self.0.clear();
        }
    }
}

impl ExactSizeIterator for Events<'_> {}

impl Default for Splitter {
    fn default() -> Self {
        Splitter::with_config(Config::default())
    }
}

impl Splitter {
    /// A splitter with the default [`Config`]: tagged framing, safe limits.
    ///
    /// ```
    /// let splitter = a2ui_stream::Splitter::new();
    /// assert_eq!(splitter.config().max_depth, 128);
    /// ```
    pub fn new() -> Self {
        Splitter::default()
    }

    /// A splitter with `config`.
    ///
    /// ```
    /// use a2ui_stream::{Config, Event, Splitter};
    /// let mut splitter = Splitter::with_config(Config::bare());
    /// let events: Vec<_> = splitter.feed(br#"{"deleteSurface":{"surfaceId":"s"}}"#).collect();
    /// assert!(matches!(&events[0], Ok(Event::Message(_))));
    /// ```
    pub fn with_config(config: Config) -> Self {
        let mode = match config.framing {
            Framing::Tagged => Mode::Prose,
            Framing::Bare => Mode::Json(Phase::SeekingMessage),
        };
        let mut lex = Lexer::new(config.max_depth);
        if config.lenient {
            lex.lenient();
        }
        lex.report(BASE_CONTAINERS, BASE_STRINGS);
        Splitter {
            lex,
            config,
            mode,
            in_block: false,
            pos: 0,
            held: Vec::new(),
            held_at: 0,
            capture: Capture::None,
            cur: Current::default(),
            acc: BytesMut::new(),
            sent: Sent::default(),
            pieces: Vec::new(),
            out: VecDeque::new(),
        }
    }

    /// The configuration in use.
    ///
    /// ```
    /// use a2ui_stream::{Config, Framing, Splitter};
    /// let splitter = Splitter::with_config(Config { max_depth: 16, ..Config::bare() });
    /// assert_eq!(splitter.config().framing, Framing::Bare);
    /// assert_eq!(splitter.config().max_depth, 16);
    /// assert_eq!(splitter.config().max_message_bytes, Config::default().max_message_bytes);
    /// ```
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Bytes fed since the stream began.
    ///
    /// ```
    /// let mut splitter = a2ui_stream::Splitter::new();
    /// splitter.feed(b"hello").for_each(drop);
    /// assert_eq!(splitter.offset(), 5);
    /// ```
    pub fn offset(&self) -> u64 {
        self.pos
    }

    /// Feeds a chunk; returns everything it completed. Only what is handed out is copied (and the
    /// part of an unfinished message, kept until it completes); use
    /// [`feed_bytes`](Splitter::feed_bytes) to share the chunk's memory instead.
    ///
    /// ```
    /// use a2ui_stream::{Event, Splitter};
    /// let mut splitter = Splitter::new();
    /// let first: Vec<_> = splitter.feed(b"Hi <a2ui").collect();
    /// assert_eq!(first, [Ok(Event::Text("Hi ".into()))]); // "<a2ui" might be a tag: held back
    /// let second: Vec<_> = splitter.feed(b"corn>").collect();
    /// assert_eq!(second, [Ok(Event::Text("<a2uicorn>".into()))]);
    /// ```
    #[inline]
    pub fn feed(&mut self, chunk: &[u8]) -> Events<'_> {
        self.feed_chunk(Chunk {
            data: chunk,
            shared: None,
        })
    }

    /// Feeds a chunk without copying it: text, and every message that lies wholly inside it, are
    /// slices of it.
    ///
    /// ```
    /// use a2ui_stream::{Event, Splitter};
    /// let chunk = bytes::Bytes::from_static(br#"<a2ui-json>{"deleteSurface":{"surfaceId":"s"}}</a2ui-json>"#);
    /// let mut splitter = Splitter::new();
    /// let Some(Ok(Event::Message(m))) = splitter.feed_bytes(chunk.clone()).next() else { panic!() };
    /// assert_eq!(m.as_bytes().as_ptr(), chunk[11..].as_ptr()); // same memory
    /// ```
    #[inline]
    pub fn feed_bytes(&mut self, chunk: Bytes) -> Events<'_> {
        self.feed_chunk(Chunk {
            data: &chunk,
            shared: Some(&chunk),
        })
    }

    fn feed_chunk(&mut self, chunk: Chunk<'_>) -> Events<'_> {
        let base = self.pos;
        self.pos += chunk.len() as u64;
        let start = if self.held.is_empty() {
            0
        } else {
            self.resolve_held(&chunk, false)
        };
        self.run(&chunk, base, start);
        Events(&mut self.out)
    }

    /// Ends the stream: releases held-back text, and reports a block, tag or message left open.
    /// The splitter is then ready for a new stream.
    ///
    /// ```
    /// use a2ui_stream::{ErrorKind, Event, Splitter};
    /// let mut splitter = Splitter::new();
    /// splitter.feed(br#"See <a2ui-json>{"beginRendering":{"#).for_each(drop);
    /// let end: Vec<_> = splitter.finish().collect();
    /// assert_eq!(end[0].as_ref().unwrap_err().kind(), ErrorKind::Unterminated { what: "message" });
    /// ```
    pub fn finish(&mut self) -> Events<'_> {
        let base = self.pos;
        self.resolve_held(
            &Chunk {
                data: &[],
                shared: None,
            },
            true,
        );
        match self.mode {
            Mode::Prose => {}
            Mode::TagAttributes { .. } => self.error(base, ErrorKind::Unterminated { what: "tag" }),
            Mode::Json(Phase::SeekingMessage | Phase::Resync) => {
                if self.in_block {
                    self.error(base, ErrorKind::Unterminated { what: "block" });
                }
            }
            Mode::Json(_) => {
                let start = self.cur.start;
                self.error(start, ErrorKind::Unterminated { what: "message" });
            }
        }
        let config = self.config.clone();
        let out = std::mem::take(&mut self.out);
        *self = Splitter::with_config(config);
        self.out = out;
        Events(&mut self.out)
    }

    /// Hands `message` out, repaired to valid JSON when the message it comes from needed the
    /// lenient reading ([`Config::lenient`]).
    fn emit(&mut self, message: Message) {
        let message = if self.lex.tolerated() {
            message.repaired(self.lex.straightened())
        } else {
            message
        };
        self.out.push_back(Ok(Event::Message(message)));
    }

    fn error(&mut self, offset: u64, kind: ErrorKind) {
        self.out.push_back(Err(Error::new(offset, kind)));
    }

    /// Queues text. Small pieces that follow small text (a released probe, a cut character) are
    /// joined to it, so held-back bytes do not come out as a trail of tiny events.
    fn text(&mut self, bytes: Bytes) {
        if bytes.is_empty() {
            return;
        }
        if let Some(Ok(Event::Text(last))) = self.out.back_mut() {
            if last.len() + bytes.len() <= 2 * LOOKAHEAD {
                let mut joined = Vec::with_capacity(last.len() + bytes.len());
                joined.extend_from_slice(last);
                joined.extend_from_slice(&bytes);
                *last = Bytes::from(joined);
                return;
            }
        }
        self.out.push_back(Ok(Event::Text(bytes)));
    }

    /// Processes `chunk` (whose first byte is at stream offset `base`) from index `i`.
    fn run(&mut self, chunk: &Chunk<'_>, base: u64, mut i: usize) {
        while i < chunk.len() {
            i = match self.mode {
                Mode::Prose => self.prose(chunk, base, i),
                Mode::TagAttributes { .. } => self.tag_attributes(chunk, base, i),
                Mode::Json(Phase::SeekingMessage) => self.seeking_message(chunk, base, i),
                Mode::Json(Phase::Resync) => self.resync(chunk, base, i),
                Mode::Json(_) => self.in_message(chunk, base, i),
            };
        }
        // An open message keeps its bytes until it completes.
        if matches!(
            self.mode,
            Mode::Json(Phase::InMessage | Phase::SeekingComponents | Phase::InComponent)
        ) && !self.cur.discard
        {
            let from = (self.cur.start.max(base) - base) as usize;
            self.acc
                .extend_from_slice(chunk.get(from..).unwrap_or_default());
            if self.acc.len() > self.config.max_message_bytes {
                self.too_large();
            }
        }
    }

    #[inline(never)]
    fn too_large(&mut self) {
        let limit = self.config.max_message_bytes;
        self.error(
            self.cur.start + limit as u64,
            ErrorKind::MessageTooLarge { limit },
        );
        self.cur.discard = true;
        self.cur.pending.clear();
        self.acc.clear();
        self.end_data();
    }

    /// Ends a data-model split: the lexer goes back to reporting only what messages need.
    fn end_data(&mut self) {
        if self.cur.data.take().is_some() {
            self.lex.report(BASE_CONTAINERS, BASE_STRINGS);
            self.lex.report_scalars(0);
        }
    }

    /// Abandons the open message after a broken rule at `offset`.
    #[inline(never)]
    fn fail(&mut self, offset: u64, kind: ErrorKind) {
        self.error(offset, kind);
        self.end_data();
        self.cur = Current::default();
        self.acc.clear();
        self.capture = Capture::None;
        self.mode = Mode::Json(Phase::Resync);
    }

    fn phase(&self) -> Phase {
        match self.mode {
            Mode::Json(p) => p,
            _ => Phase::SeekingMessage,
        }
    }
}
