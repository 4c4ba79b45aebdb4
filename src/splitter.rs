//! The splitter: prose, framing and the JSON state machine
//! `SeekingMessage → InMessage → SeekingComponents → InComponent`.
//!
//! Bytes are looked at once. Prose is scanned with `memchr3` for the three bytes that can start a
//! framing token (`<`, `-`, `` ` ``); JSON goes through the resumable [`Lexer`]. The only bytes
//! ever looked at again are a held-back probe of at most [`Config::max_held_bytes`] (a possible
//! tag, fence or delimiter cut by a chunk boundary) and, after an error, the few bytes between a
//! `{` and its first key while resynchronising.
//!
//! Message bytes are copied at most once more: an open message's bytes from earlier chunks are
//! kept in one buffer, and a split-out component is written straight into its message from that
//! buffer and the chunk. The handlers of tokens, message ends and framing modes are kept out of
//! line (`#[inline(never)]`), so that the loop walking the bytes stays small.

use crate::data::{self, DataSplit, Piece};
use crate::framing::{self, Act, Class};
use crate::hash::{QuickMap, QuickState, fingerprint};
use crate::message::Field;
use crate::scan::{KEY_CAPTURE_LIMIT, Lexer, Tok};
use crate::{Config, Error, ErrorKind, Event, Framing, Message, MessageKind};
use bytes::{Bytes, BytesMut};
use memchr::{memchr2, memchr3};
use std::collections::VecDeque;
use std::sync::Arc;

/// Containers the lexer reports outside a data-model split: the first four levels matter
/// (message, body, components array, component).
const BASE_CONTAINERS: usize = 4;
/// Strings reported outside a data-model split: keys and values of the message, the body and a
/// component.
const BASE_STRINGS: u64 = 1 << 1 | 1 << 2 | 1 << 4;
/// Lexer depth of the members of a data-model update's value (message, body, value).
const DATA_DEPTH: usize = 3;

/// Longest probe ever held back, whatever the configured limit.
const LOOKAHEAD: usize = 128;
/// Most component ids remembered for de-duplication.
const MAX_TRACKED_IDS: usize = 1 << 16;

/// The JSON states of the seed's design, plus resynchronisation after an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Between top-level messages: whitespace, `[`, `,`, `]`, fences, tags, or a `{`.
    SeekingMessage,
    /// Inside a message, outside any component list.
    InMessage,
    /// Inside the body of a `surfaceUpdate` / `updateComponents`, outside its `components` array.
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

/// Which string the lexer is capturing, and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Capture {
    None,
    /// A key of the message object.
    MessageKey,
    /// A key of the message body.
    BodyKey,
    /// A key of a component object.
    ComponentKey,
    /// The value of `version`.
    Version,
    /// The value of the body's `surfaceId`.
    SurfaceId,
    /// The value of a component's `id`.
    ComponentId,
    /// The value of a data-model update's `path`.
    Path,
    /// A string the data split asked for.
    Data,
}

/// What the last key at a level was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Key {
    #[default]
    Other,
    /// The message kind (its value is the body).
    Kind,
    Version,
    SurfaceId,
    Components,
    Id,
    /// `path` of a data-model update.
    Path,
    /// `value` of an `updateDataModel`, `contents` of a `dataModelUpdate`.
    Data,
}

/// Most bytes of JSON text (quotes included) a message's `surfaceId` and `version` may each take
/// for its components to be split out. Every split-out component carries a copy of both, so this
/// bounds what splitting adds to each component; a message whose `surfaceId` or `version` is
/// longer goes out whole, and its [`Message::surface_id`] and [`Message::version`] still read them.
///
/// ```
/// use a2ui_stream::{Config, Event, Splitter, MAX_SPLIT_FIELD_BYTES};
/// let long = "s".repeat(MAX_SPLIT_FIELD_BYTES);
/// let input = format!(r#"{{"surfaceUpdate":{{"surfaceId":"{long}","components":[{{"id":"a","component":{{}}}},{{"id":"b","component":{{}}}}]}}}}"#);
/// let mut splitter = Splitter::with_config(Config::bare());
/// let events: Vec<_> = splitter.feed(input.as_bytes()).collect();
/// assert_eq!(events.len(), 1); // whole, not one message per component
/// let Ok(Event::Message(m)) = &events[0] else { panic!() };
/// assert_eq!(m.surface_id(), Some(long.as_str()));
/// ```
pub const MAX_SPLIT_FIELD_BYTES: usize = 4096;

/// A component waiting for its message's `surfaceId` (or `version`): its stream offsets, and
/// where its raw `id` lies inside it.
type Pending = (std::ops::Range<u64>, Option<(usize, usize)>);

/// What is known about the message being read.
#[derive(Debug, Default)]
struct Current {
    /// Stream offset of its `{`.
    start: u64,
    kind: Option<MessageKind>,
    message_key: Key,
    body_key: Key,
    component_key: Key,
    in_body: bool,
    in_component: bool,
    version: Option<Captured>,
    surface: Option<Captured>,
    /// A data-model update's `path`.
    path: Option<Captured>,
    /// The split of a data-model update, once its value opened.
    data: Option<Box<DataSplit>>,
    /// Stream offset of the opening quote of the string being captured.
    string_start: u64,
    /// Keys besides the kind, `version`, `surfaceId` and `components`.
    extra_keys: bool,
    /// Stream offsets of the components array's `[` and `]`.
    array: (Option<u64>, Option<u64>),
    component_start: u64,
    /// Stream offsets of the component's raw `id` string, quotes included.
    component_id: Option<(u64, u64)>,
    /// Components read before `surfaceId` (or `version`) arrived, with where their raw `id` is.
    /// (Their stream offsets: their bytes stay in the message's buffer or the chunk.)
    pending: Vec<Pending>,
    /// At least one component (or data-model piece) went out (or was dropped as a repeat) on
    /// its own.
    split: bool,
    /// The message outgrew the size limit: read to its end, then drop it.
    discard: bool,
}

impl Current {
    fn kind(&self) -> MessageKind {
        self.kind.unwrap_or(MessageKind::Unknown)
    }

    /// The raw `surfaceId` string (quotes included), or nothing.
    fn surface_raw(&self) -> &[u8] {
        self.surface.as_ref().map_or(&[], |c| &c.raw[..])
    }

    /// Whether split-out components can go out now: the surface (and, for v0.9, the version)
    /// is known and short enough to be copied into each ([`MAX_SPLIT_FIELD_BYTES`]).
    fn released(&self) -> bool {
        let short = |c: &Captured| c.raw.len() <= MAX_SPLIT_FIELD_BYTES;
        self.surface.as_ref().is_some_and(short)
            && (self.kind() == MessageKind::SurfaceUpdate
                || self.version.as_ref().is_some_and(short))
    }
}

/// A string value of the message kept for what follows: `version` or `surfaceId`.
#[derive(Debug)]
struct Captured {
    /// The raw JSON string, quotes included.
    raw: Vec<u8>,
    /// Stream offset of its opening quote.
    at: u64,
    /// Decoded, when it has escapes (otherwise its raw bytes are its text).
    decoded: Option<Arc<str>>,
}

impl Captured {
    fn new(raw: &[u8], at: u64) -> Captured {
        Captured {
            raw: raw.to_vec(),
            at,
            decoded: if raw.contains(&b'\\') {
                decode(raw)
            } else {
                None
            },
        }
    }

    /// The message field for this string, when a copy of its raw bytes starts at `offset` in the
    /// message's bytes (`None`: they are not there).
    fn field(&self, offset: Option<usize>) -> Field {
        match (&self.decoded, offset) {
            (Some(text), _) => Field::Decoded(Arc::clone(text)),
            (None, Some(start)) => Field::Raw {
                start,
                end: start + self.raw.len(),
            },
            (None, None) => decode(&self.raw).map_or(Field::None, Field::Decoded),
        }
    }
}

/// Component ids already sent, per surface, with a hash of the component's bytes. Surfaces and
/// ids are keyed by 64-bit hashes, so a lookup allocates nothing; a collision on all three hashes at
/// once would only hold back one repeat of a component. One small table per surface keeps the
/// lookups in cache however large the whole UI grows, and forgetting a surface is one removal.
#[derive(Debug, Default)]
struct Sent {
    surfaces: QuickMap<u64, QuickMap<u64, u64>>,
    tracked: usize,
}

impl Sent {
    /// Records the component; `true` when the same bytes were already sent under this id.
    fn is_repeat(&mut self, surface: &[u8], id: &[u8], bytes: &[u8]) -> bool {
        let hash = fingerprint(bytes);
        let (surface, id) = (fingerprint(surface), fingerprint(id));
        if let Some(old) = self
            .surfaces
            .get_mut(&surface)
            .and_then(|ids| ids.get_mut(&id))
        {
            let repeat = *old == hash;
            *old = hash;
            return repeat;
        }
        if self.tracked < MAX_TRACKED_IDS {
            // A table is made only for an id that is kept, so memory stays bounded by the limit;
            // it starts with room for a typical surface, to spare the first few regrowths.
            self.surfaces
                .entry(surface)
                .or_insert_with(|| QuickMap::with_capacity_and_hasher(14, QuickState::default()))
                .insert(id, hash);
            self.tracked += 1;
        }
        false
    }

    fn forget(&mut self, surface: &[u8]) {
        if let Some(ids) = self.surfaces.remove(&fingerprint(surface)) {
            self.tracked -= ids.len();
        }
    }
}

/// Decodes the raw bytes of a JSON string (quotes included; the lexer has checked them).
fn decode(raw: &[u8]) -> Option<Arc<str>> {
    let inner = raw.get(1..raw.len().checked_sub(1)?)?;
    if inner.contains(&b'\\') {
        serde_json::from_slice::<String>(raw).ok().map(Arc::from)
    } else {
        std::str::from_utf8(inner).ok().map(Arc::from)
    }
}

/// A component wrapped as a message of its own: `bytes[at..at + len]` is the component, and the
/// raw `surfaceId` (and `version`, when the message has it) begin at the offsets given.
struct Built {
    bytes: Vec<u8>,
    at: usize,
    len: usize,
    surface_at: usize,
    version_at: Option<usize>,
}

/// Wraps the component whose bytes are `earlier` followed by `here` (one copy, exactly sized) as
/// `{"surfaceUpdate":{"surfaceId":S,"components":[C]}}` or
/// `{"version":V,"updateComponents":{"surfaceId":S,"components":[C]}}`.
fn component_message(cur: &Current, earlier: &[u8], here: &[u8]) -> Built {
    const V09: &[u8] = b"{\"version\":";
    const V09_BODY: &[u8] = b",\"updateComponents\":{\"surfaceId\":";
    const V08: &[u8] = b"{\"surfaceUpdate\":{\"surfaceId\":";
    const LIST: &[u8] = b",\"components\":[";
    const END: &[u8] = b"]}}";
    let surface = cur.surface_raw();
    let version = cur
        .version
        .as_ref()
        .map_or(&b"\"v0.9\""[..], |c| &c.raw[..]);
    let v09 = cur.kind() == MessageKind::UpdateComponents;
    let head = if v09 {
        V09.len() + version.len() + V09_BODY.len()
    } else {
        V08.len()
    };
    let len = earlier.len() + here.len();
    let at = head + surface.len() + LIST.len();
    // Exactly sized, so that turning it into `Bytes` needs no second allocation.
    let mut v = Vec::with_capacity(at + len + END.len());
    if v09 {
        v.extend_from_slice(V09);
        v.extend_from_slice(version);
        v.extend_from_slice(V09_BODY);
    } else {
        v.extend_from_slice(V08);
    }
    v.extend_from_slice(surface);
    v.extend_from_slice(LIST);
    v.extend_from_slice(earlier);
    v.extend_from_slice(here);
    v.extend_from_slice(END);
    Built {
        bytes: v,
        at,
        len,
        surface_at: head,
        version_at: v09.then_some(V09.len()),
    }
}

/// The stream bytes in `range` of a message that began at stream offset `start`, as the part kept
/// in `acc` (the message's bytes from earlier chunks) and the part in `chunk` (whose first byte is
/// at stream offset `base`).
fn message_parts<'a>(
    acc: &'a [u8],
    chunk: &'a [u8],
    start: u64,
    base: u64,
    range: std::ops::Range<u64>,
) -> (&'a [u8], &'a [u8]) {
    let in_acc = |x: u64| (x.min(base).max(start) - start) as usize;
    let in_chunk = |x: u64| (x.max(base) - base) as usize;
    let earlier = acc
        .get(in_acc(range.start)..in_acc(range.end))
        .unwrap_or_default();
    let here = chunk
        .get(in_chunk(range.start)..in_chunk(range.end))
        .unwrap_or_default();
    (earlier, here)
}

/// The open message's bytes, for the data-model split.
struct Parts<'a> {
    acc: &'a [u8],
    chunk: &'a [u8],
    start: u64,
    base: u64,
}

impl data::Source for Parts<'_> {
    fn parts(&self, from: u64, to: u64) -> (&[u8], &[u8]) {
        message_parts(self.acc, self.chunk, self.start, self.base, from..to)
    }
}

/// Length of an incomplete UTF-8 character at the end of `s` (0 if none).
fn cut_char_len(s: &[u8]) -> usize {
    for (k, &b) in s.iter().rev().take(3).enumerate() {
        let back = k + 1;
        if b & 0xC0 == 0xC0 {
            let width = match b {
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
            return if width > back { back } else { 0 };
        }
        if b & 0x80 == 0 {
            return 0;
        }
    }
    0
}

/// A chunk being processed: its bytes, and the shared buffer they live in when the caller gave
/// one (then pieces of it are handed out without copying).
struct Chunk<'a> {
    data: &'a [u8],
    shared: Option<&'a Bytes>,
}

impl Chunk<'_> {
    /// The bytes in `range` as [`Bytes`]: a slice of the shared buffer, or a copy.
    /// Empty for a range outside the chunk.
    fn bytes(&self, range: std::ops::Range<usize>) -> Bytes {
        let Some(data) = self.data.get(range.clone()) else {
            return Bytes::new();
        };
        match self.shared {
            Some(b) if b.len() == self.data.len() => b.slice(range),
            _ => Bytes::copy_from_slice(data),
        }
    }

    /// The bytes from `start` to the end (empty past the end).
    fn rest_from(&self, start: usize) -> &[u8] {
        self.data.get(start..).unwrap_or_default()
    }

    /// The `len` bytes from `start` (empty when they are not all in the chunk).
    fn span(&self, start: usize, len: usize) -> &[u8] {
        start
            .checked_add(len)
            .and_then(|end| self.data.get(start..end))
            .unwrap_or_default()
    }
}

impl std::ops::Deref for Chunk<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.data
    }
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
    /// assert_eq!(end[0].as_ref().unwrap_err().kind(), &ErrorKind::Unterminated { what: "message" });
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

    fn probe_limit(&self) -> usize {
        self.config.max_held_bytes.clamp(1, LOOKAHEAD)
    }

    /// The classifier for a candidate byte in the current mode.
    fn classify(&self, probe: &[u8], eof: bool) -> Class {
        match self.mode {
            Mode::Prose => framing::prose(probe, eof),
            Mode::Json(Phase::Resync) => framing::resync(probe, eof),
            _ => framing::between_messages(probe, eof),
        }
    }

    /// Carries out a matched framing token.
    fn act(&mut self, act: Act, matched: &[u8]) {
        match act {
            Act::OpenBlock => {
                self.mode = Mode::Json(Phase::SeekingMessage);
                self.in_block = true;
            }
            Act::OpenTagAttributes => {
                self.mode = Mode::TagAttributes {
                    quote: None,
                    len: 0,
                }
            }
            Act::Delimiter | Act::Message => self.mode = Mode::Json(Phase::SeekingMessage),
            Act::CloseBlock => {
                if self.config.framing == Framing::Tagged {
                    self.mode = Mode::Prose;
                    self.in_block = false;
                }
            }
            Act::Drop => {}
            Act::Utf8Char => self.text(Bytes::copy_from_slice(matched)),
        }
    }

    /// What a candidate byte that is not a framing token means in the current mode. Returns
    /// `true` when, in prose, the byte is text.
    fn not_framing(&mut self, byte: u8, at: u64) -> bool {
        match self.mode {
            Mode::Prose => true,
            Mode::Json(Phase::SeekingMessage) => {
                self.error(
                    at,
                    ErrorKind::UnexpectedByte {
                        byte,
                        expected: "a message object",
                    },
                );
                self.mode = Mode::Json(Phase::Resync);
                false
            }
            _ => false,
        }
    }

    /// Decides a held-back probe with the bytes of the new chunk; returns where in the chunk to
    /// go on.
    fn resolve_held(&mut self, chunk: &Chunk<'_>, eof: bool) -> usize {
        let mut idx = 0;
        while !self.held.is_empty() {
            let at = self.held_at;
            let mut probe = std::mem::take(&mut self.held);
            let held_len = probe.len();
            let take = self
                .probe_limit()
                .saturating_sub(held_len)
                .min(chunk.len() - idx);
            probe.extend_from_slice(chunk.span(idx, take));
            let mut class = self.classify(&probe, eof);
            if class == Class::Partial {
                if idx + take == chunk.len() && !eof {
                    self.held = probe;
                    return chunk.len();
                }
                let limit = self.config.max_held_bytes;
                self.error(at, ErrorKind::HeldTextTooLong { limit });
                class = Class::No;
            }
            let (consumed, replay_from) = match class {
                Class::Match(len, act) => {
                    self.act(act, probe.get(..len).unwrap_or_default());
                    (len.saturating_sub(held_len), len)
                }
                _ => {
                    if let Some(&byte) = probe.first() {
                        if self.not_framing(byte, at) {
                            self.text(Bytes::copy_from_slice(&[byte]));
                        }
                    }
                    (0, 1)
                }
            };
            if replay_from < held_len {
                let rest = Chunk {
                    data: probe.get(replay_from..held_len).unwrap_or_default(),
                    shared: None,
                };
                self.run(&rest, at + replay_from as u64, 0);
            }
            idx += consumed;
        }
        idx
    }

    /// Classifies the candidate at `i`: `None` when it was held back (the chunk is used up).
    fn candidate(&mut self, chunk: &Chunk<'_>, base: u64, i: usize) -> Option<Class> {
        let end = (i + self.probe_limit()).min(chunk.len());
        match self.classify(chunk.get(i..end).unwrap_or_default(), false) {
            Class::Partial if end == chunk.len() => {
                self.held = chunk.rest_from(i).to_vec();
                self.held_at = base + i as u64;
                None
            }
            Class::Partial => {
                let limit = self.config.max_held_bytes;
                self.error(base + i as u64, ErrorKind::HeldTextTooLong { limit });
                Some(Class::No)
            }
            class => Some(class),
        }
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

    #[inline(never)]
    fn prose(&mut self, chunk: &Chunk<'_>, base: u64, i: usize) -> usize {
        let mut from = i;
        loop {
            let Some(k) = memchr3(b'<', b'-', b'`', chunk.rest_from(from)) else {
                let end = chunk.len();
                let cut = cut_char_len(chunk.rest_from(i));
                self.text(chunk.bytes(i..end - cut));
                if cut > 0 {
                    self.held = chunk.rest_from(end - cut).to_vec();
                    self.held_at = base + (end - cut) as u64;
                }
                return end;
            };
            let c = from + k;
            match self.candidate(chunk, base, c) {
                None => {
                    self.text(chunk.bytes(i..c));
                    return chunk.len();
                }
                Some(Class::Match(len, act)) => {
                    self.text(chunk.bytes(i..c));
                    self.act(act, chunk.span(c, len));
                    return c + len;
                }
                Some(_) => from = c + 1,
            }
        }
    }

    #[inline(never)]
    fn tag_attributes(&mut self, chunk: &Chunk<'_>, base: u64, i: usize) -> usize {
        let Mode::TagAttributes { mut quote, mut len } = self.mode else {
            return i;
        };
        for (k, &b) in chunk.rest_from(i).iter().enumerate() {
            len += 1;
            match (quote, b) {
                (Some(q), _) if b == q => quote = None,
                (Some(_), _) => {}
                (None, b'"' | b'\'') => quote = Some(b),
                (None, b'>') => {
                    self.mode = Mode::Json(Phase::SeekingMessage);
                    self.in_block = true;
                    return i + k + 1;
                }
                (None, _) => {}
            }
            if len > self.config.max_held_bytes {
                let limit = self.config.max_held_bytes;
                self.error(base + (i + k) as u64, ErrorKind::HeldTextTooLong { limit });
                self.mode = Mode::Json(Phase::SeekingMessage);
                self.in_block = true;
                return i + k + 1;
            }
        }
        self.mode = Mode::TagAttributes { quote, len };
        chunk.len()
    }

    #[inline(never)]
    fn seeking_message(&mut self, chunk: &Chunk<'_>, base: u64, i: usize) -> usize {
        for (k, &b) in chunk.rest_from(i).iter().enumerate() {
            let j = i + k;
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b'[' | b']' => {}
                b'{' => {
                    self.cur = Current {
                        start: base + j as u64,
                        ..Current::default()
                    };
                    self.acc.clear();
                    self.lex.begin_object();
                    self.mode = Mode::Json(Phase::InMessage);
                    return j + 1;
                }
                b'<' | b'`' => {
                    return match self.candidate(chunk, base, j) {
                        None => chunk.len(),
                        Some(Class::Match(len, act)) => {
                            self.act(act, chunk.span(j, len));
                            j + len
                        }
                        Some(_) => {
                            self.not_framing(b, base + j as u64);
                            j + 1
                        }
                    };
                }
                _ => {
                    let kind = match b {
                        b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => ErrorKind::NotAnObject,
                        _ => ErrorKind::UnexpectedByte {
                            byte: b,
                            expected: "a message object",
                        },
                    };
                    self.error(base + j as u64, kind);
                    self.mode = Mode::Json(Phase::Resync);
                    return j + 1;
                }
            }
        }
        chunk.len()
    }

    #[inline(never)]
    fn resync(&mut self, chunk: &Chunk<'_>, base: u64, i: usize) -> usize {
        let mut from = i;
        while let Some(k) = memchr2(b'{', b'<', chunk.rest_from(from)) {
            let c = from + k;
            match self.candidate(chunk, base, c) {
                None => return chunk.len(),
                Some(Class::Match(len, act)) => {
                    self.act(act, chunk.span(c, len));
                    return c + len;
                }
                Some(_) => from = c + 1,
            }
        }
        chunk.len()
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

    #[inline]
    fn in_message(&mut self, chunk: &Chunk<'_>, base: u64, i: usize) -> usize {
        let mut pos = i;
        loop {
            match self.lex.next(chunk, &mut pos) {
                Tok::End => return pos,
                Tok::Err(kind) => {
                    let back = self.lex.take_back() as u64;
                    self.fail(base + pos as u64 - back, kind);
                    return pos;
                }
                Tok::StrStart => self.on_string_start(base + pos as u64 - 1),
                Tok::StrEnd => self.on_string_end(chunk, base, pos),
                Tok::ScalarEnd => self.on_scalar_end(chunk, base, pos),
                tok @ (Tok::ObjOpen | Tok::ArrOpen) => {
                    self.on_open(tok == Tok::ObjOpen, base + pos as u64 - 1)
                }
                tok @ (Tok::ObjClose | Tok::ArrClose) => {
                    if self.on_close(tok == Tok::ObjClose, chunk, base, pos) {
                        return pos;
                    }
                }
            }
        }
    }

    fn on_open(&mut self, object: bool, at: u64) {
        let depth = self.lex.depth();
        let phase = self.phase();
        let cur = &mut self.cur;
        match depth {
            2 if object && cur.message_key == Key::Kind => {
                cur.in_body = true;
                cur.body_key = Key::Other;
                if cur.kind().has_components() {
                    self.mode = Mode::Json(Phase::SeekingComponents);
                }
            }
            3 if !object
                && phase == Phase::SeekingComponents
                && cur.body_key == Key::Components =>
            {
                cur.array = (Some(at), None);
                self.mode = Mode::Json(Phase::InComponent);
            }
            4 if object && phase == Phase::InComponent => {
                cur.in_component = true;
                cur.component_start = at;
                cur.component_id = None;
                cur.component_key = Key::Other;
            }
            DATA_DEPTH if cur.in_body && cur.body_key == Key::Data => self.start_data(object, at),
            _ if depth > DATA_DEPTH && cur.data.as_ref().is_some_and(|d| d.active()) => {
                self.with_data(&[], 0, |d, _, out| d.on_open(object, depth, at + 1, out));
            }
            _ => {}
        }
    }

    /// The value of a data-model update opened (a container, at stream offset `at`): starts
    /// splitting it when everything its pieces need is known.
    #[inline(never)]
    fn start_data(&mut self, object: bool, at: u64) {
        let cur = &mut self.cur;
        let max = self.config.split_data_depth;
        if cur.data.is_some() {
            // A second value: the last one counts, and the whole message says which.
            if let Some(d) = cur.data.as_mut() {
                d.whole = true;
            }
            return;
        }
        let kind = cur.kind();
        fn short(c: &Option<Captured>) -> Option<&[u8]> {
            c.as_ref()
                .filter(|c| c.raw.len() <= MAX_SPLIT_FIELD_BYTES)
                .map(|c| &c.raw[..])
        }
        let (Some(surface), Some(path)) = (short(&cur.surface), short(&cur.path)) else {
            return;
        };
        if max == 0
            || cur.extra_keys
            || cur.discard
            || (kind == MessageKind::DataModelUpdate && object)
        {
            return;
        }
        let mut pieces = std::mem::take(&mut self.pieces);
        let split = DataSplit::start(
            kind,
            surface,
            short(&cur.version),
            path,
            !object,
            DATA_DEPTH,
            at + 1,
            max,
            self.config.max_split_data_entries,
            &mut pieces,
        );
        if let Some(split) = split {
            let (containers, bits) = split.reporting(DATA_DEPTH);
            self.lex
                .report(containers.max(BASE_CONTAINERS), BASE_STRINGS | bits);
            self.lex.report_scalars(bits);
            self.cur.data = Some(Box::new(split));
        }
        self.emit_pieces(&mut pieces);
        self.pieces = pieces;
    }

    /// Runs `f` on the open data-model split with the open message's bytes (`chunk` begins at
    /// stream offset `base`), and sends the pieces it made.
    fn with_data(
        &mut self,
        chunk: &[u8],
        base: u64,
        f: impl FnOnce(&mut DataSplit, &dyn data::Source, &mut Vec<Piece>),
    ) {
        let Some(mut split) = self.cur.data.take() else {
            return;
        };
        let mut pieces = std::mem::take(&mut self.pieces);
        let src = Parts {
            acc: &self.acc,
            chunk,
            start: self.cur.start,
            base,
        };
        f(&mut split, &src, &mut pieces);
        self.cur.data = Some(split);
        self.emit_pieces(&mut pieces);
        self.pieces = pieces;
    }

    /// Hands out data-model pieces as messages.
    fn emit_pieces(&mut self, pieces: &mut Vec<Piece>) {
        let cur = &mut self.cur;
        for piece in pieces.drain(..) {
            cur.split = true;
            let field = |c: &Option<Captured>, at| c.as_ref().map_or(Field::None, |c| c.field(at));
            let message = Message {
                kind: cur.kind(),
                version: field(&cur.version, piece.version_at),
                surface_id: field(&cur.surface, Some(piece.surface_at)),
                component_id: Field::None,
                bytes: Bytes::from(piece.bytes),
            };
            self.out.push_back(Ok(Event::Message(message)));
        }
    }

    /// A number or literal ended just before `chunk[pos]`.
    #[inline(never)]
    fn on_scalar_end(&mut self, chunk: &[u8], base: u64, pos: usize) {
        let depth = self.lex.depth();
        if self.cur.data.as_ref().is_some_and(|d| d.active()) {
            let end = base + pos as u64;
            self.with_data(chunk, base, |d, src, out| {
                d.on_scalar_end(depth, end, src, out)
            });
        }
    }

    /// Returns `true` when the message closed.
    #[inline(never)]
    fn on_close(&mut self, object: bool, chunk: &Chunk<'_>, base: u64, pos: usize) -> bool {
        let end = base + pos as u64;
        let depth = self.lex.depth();
        if depth >= DATA_DEPTH - 1 && self.cur.data.as_ref().is_some_and(|d| d.active()) {
            self.with_data(chunk, base, |d, src, out| d.on_close(depth, end, src, out));
        }
        match depth {
            0 => {
                self.message_done(chunk, base, end);
                return true;
            }
            1 if self.cur.in_body => {
                self.cur.in_body = false;
                self.mode = Mode::Json(Phase::InMessage);
            }
            2 if self.phase() == Phase::InComponent => {
                self.cur.array.1 = Some(end - 1);
                self.mode = Mode::Json(Phase::SeekingComponents);
            }
            3 if object && self.cur.in_component => {
                self.cur.in_component = false;
                if !self.cur.discard {
                    let start = self.cur.component_start;
                    let id = self
                        .cur
                        .component_id
                        .take()
                        .map(|(from, to)| ((from - start) as usize, (to - start) as usize));
                    if self.cur.released() {
                        let (earlier, here) = self.parts(chunk, base, start, end);
                        let built = component_message(&self.cur, earlier, here);
                        self.emit_component(built, id);
                    } else {
                        self.cur.pending.push((start..end, id));
                    }
                }
            }
            _ => {}
        }
        false
    }

    /// A string began; its opening quote is at stream offset `at`.
    fn on_string_start(&mut self, at: u64) {
        let depth = self.lex.depth();
        let cur = &mut self.cur;
        if depth >= DATA_DEPTH {
            if let Some(d) = cur.data.as_mut().filter(|d| d.active()) {
                if d.on_string_start(depth, self.lex.in_key()) != data::Capture::None {
                    self.capture = Capture::Data;
                    self.lex.capture(KEY_CAPTURE_LIMIT);
                }
                return;
            }
        }
        let cur = &self.cur;
        self.capture = match (self.lex.in_key(), depth) {
            (true, 1) => Capture::MessageKey,
            (true, 2) if cur.in_body => Capture::BodyKey,
            (true, 4) if cur.in_component => Capture::ComponentKey,
            (false, 1) if cur.message_key == Key::Version => Capture::Version,
            (false, 2) if cur.in_body && cur.body_key == Key::SurfaceId => Capture::SurfaceId,
            (false, 2) if cur.in_body && cur.body_key == Key::Path => Capture::Path,
            (false, 4) if cur.in_component && cur.component_key == Key::Id => Capture::ComponentId,
            _ => Capture::None,
        };
        if self.capture != Capture::None {
            self.cur.string_start = at;
            // A component's id stays in the component's bytes; only where it is matters. A key
            // longer than any the splitter looks for is not kept whole; a value (`surfaceId`,
            // `version`) is, as it is part of a message held whole anyway (one too long to be
            // copied into each component keeps the message whole: `Current::released`).
            match self.capture {
                Capture::ComponentId => {}
                Capture::SurfaceId | Capture::Version | Capture::Path => {
                    self.lex.capture(self.config.max_message_bytes)
                }
                _ => self.lex.capture(KEY_CAPTURE_LIMIT),
            }
        }
    }

    /// A string ended just before `chunk[pos]` (`chunk` begins at stream offset `base`).
    #[inline(never)]
    fn on_string_end(&mut self, chunk: &[u8], base: u64, pos: usize) {
        let end = base + pos as u64;
        let target = std::mem::replace(&mut self.capture, Capture::None);
        let depth = self.lex.depth();
        if depth >= DATA_DEPTH && self.cur.data.as_ref().is_some_and(|d| d.active()) {
            let key = self.lex.in_key();
            let raw = match target {
                Capture::Data => self.lex.take_capture().map(<[u8]>::to_vec),
                _ => None,
            };
            self.with_data(chunk, base, |d, src, out| {
                d.on_string_end(depth, key, raw.as_deref(), end, src, out)
            });
            return;
        }
        match target {
            Capture::None => return,
            Capture::ComponentId => {
                self.cur.component_id = Some((self.cur.string_start, end));
                return;
            }
            _ => {}
        }
        let raw = self.lex.take_capture();
        let inner = raw.and_then(|r| r.get(1..r.len() - 1)).unwrap_or_default();
        let cur = &mut self.cur;
        let was_released = cur.released();
        if let (Some(d), Capture::Version | Capture::SurfaceId | Capture::Path) =
            (cur.data.as_mut(), target)
        {
            // Read after the pieces were made from an earlier one: the whole message decides.
            d.whole = true;
        }
        match target {
            Capture::MessageKey => {
                cur.message_key = match MessageKind::from_key(inner) {
                    _ if inner == b"version" => Key::Version,
                    Some(kind) if cur.kind.is_none() => {
                        cur.kind = Some(kind);
                        Key::Kind
                    }
                    _ => {
                        cur.extra_keys = true;
                        Key::Other
                    }
                }
            }
            Capture::BodyKey => {
                let kind = cur.kind();
                let data = matches!(
                    kind,
                    MessageKind::DataModelUpdate | MessageKind::UpdateDataModel
                );
                cur.body_key = match inner {
                    b"surfaceId" => Key::SurfaceId,
                    b"components" if kind.has_components() => Key::Components,
                    b"path" if data => Key::Path,
                    b"value" if kind == MessageKind::UpdateDataModel => Key::Data,
                    b"contents" if kind == MessageKind::DataModelUpdate => Key::Data,
                    _ => {
                        cur.extra_keys = true;
                        Key::Other
                    }
                }
            }
            Capture::ComponentKey => {
                cur.component_key = if inner == b"id" {
                    // A repeated `id` replaces the earlier one, even when it is not a string.
                    cur.component_id = None;
                    Key::Id
                } else {
                    Key::Other
                };
            }
            Capture::Version => cur.version = raw.map(|r| Captured::new(r, cur.string_start)),
            Capture::SurfaceId => cur.surface = raw.map(|r| Captured::new(r, cur.string_start)),
            Capture::Path => cur.path = raw.map(|r| Captured::new(r, cur.string_start)),
            Capture::ComponentId | Capture::Data | Capture::None => {}
        }
        if !was_released && self.cur.released() {
            for (range, id) in std::mem::take(&mut self.cur.pending) {
                let (earlier, here) = self.parts(chunk, base, range.start, range.end);
                let built = component_message(&self.cur, earlier, here);
                self.emit_component(built, id);
            }
        }
    }

    /// The stream bytes `[from, to)` of the open message, `to` inside `chunk`, as the part kept
    /// from earlier chunks and the part in this one.
    fn parts<'a>(&'a self, chunk: &'a [u8], base: u64, from: u64, to: u64) -> (&'a [u8], &'a [u8]) {
        message_parts(&self.acc, chunk, self.cur.start, base, from..to)
    }

    /// Hands out a split-out component, unless it repeats one already sent on its surface.
    /// `id` is where the component's raw `id` string lies inside the component.
    #[inline(never)]
    fn emit_component(&mut self, built: Built, id: Option<(usize, usize)>) {
        let cur = &mut self.cur;
        cur.split = true;
        let component = built.bytes.get(built.at..).unwrap_or_default();
        let component = component.get(..built.len).unwrap_or_default();
        let raw_id = id.and_then(|(from, to)| Some((from, component.get(from..to)?)));
        if let (true, Some((_, raw))) = (self.config.dedup_components, raw_id) {
            if self.sent.is_repeat(cur.surface_raw(), raw, component) {
                return;
            }
        }
        let component_id = match raw_id {
            None => Field::None,
            Some((_, raw)) if raw.contains(&b'\\') => {
                decode(raw).map_or(Field::None, Field::Decoded)
            }
            Some((from, raw)) => Field::Raw {
                start: built.at + from,
                end: built.at + from + raw.len(),
            },
        };
        let field = |c: &Option<Captured>, at| c.as_ref().map_or(Field::None, |c| c.field(at));
        let message = Message {
            bytes: Bytes::from(built.bytes),
            kind: cur.kind(),
            version: field(&cur.version, built.version_at),
            surface_id: field(&cur.surface, Some(built.surface_at)),
            component_id,
        };
        self.out.push_back(Ok(Event::Message(message)));
    }

    #[inline(never)]
    fn message_done(&mut self, chunk: &Chunk<'_>, base: u64, end: u64) {
        self.mode = Mode::Json(Phase::SeekingMessage);
        // A data-model update split in pieces is followed by the whole one when a piece could
        // not be made faithfully, or when the message holds keys the pieces do not carry.
        let data_whole = self
            .cur
            .data
            .as_ref()
            .is_some_and(|d| d.whole || self.cur.extra_keys);
        self.end_data();
        let cur = std::mem::take(&mut self.cur);
        if cur.discard {
            return;
        }
        let size = end - cur.start;
        if size > self.config.max_message_bytes as u64 {
            self.cur = cur;
            self.too_large();
            self.cur = Current::default();
            return;
        }
        let kind = cur.kind();
        // `offset` maps a stream offset in the message to one in the bytes handed out.
        let message = |bytes: Bytes, offset: &dyn Fn(u64) -> Option<usize>| {
            let field =
                |c: &Option<Captured>| c.as_ref().map_or(Field::None, |c| c.field(offset(c.at)));
            Message {
                version: field(&cur.version),
                surface_id: field(&cur.surface),
                bytes,
                kind,
                component_id: Field::None,
            }
        };
        if cur.split && !data_whole {
            // The components went out one by one; what else the message held goes out with an
            // empty list. The message itself is not needed whole.
            if let (true, (Some(open), Some(close))) = (cur.extra_keys, cur.array) {
                let at = |range| message_parts(&self.acc, chunk, cur.start, base, range);
                let (head, tail) = (at(cur.start..open + 1), at(close..end));
                let mut v =
                    Vec::with_capacity(head.0.len() + head.1.len() + tail.0.len() + tail.1.len());
                for part in [head.0, head.1, tail.0, tail.1] {
                    v.extend_from_slice(part);
                }
                // What lay after the list moved back by the list's length.
                let offset = |at: u64| match at {
                    _ if at <= open => Some((at - cur.start) as usize),
                    _ if at >= close => Some((open + 1 - cur.start + (at - close)) as usize),
                    _ => None,
                };
                self.out
                    .push_back(Ok(Event::Message(message(Bytes::from(v), &offset))));
            }
        } else {
            let bytes = if cur.start >= base {
                chunk.bytes((cur.start - base) as usize..(end - base) as usize)
            } else {
                self.acc
                    .extend_from_slice(chunk.get(..(end - base) as usize).unwrap_or_default());
                self.acc.split().freeze()
            };
            let offset = |at: u64| Some((at - cur.start) as usize);
            self.out
                .push_back(Ok(Event::Message(message(bytes, &offset))));
        }
        self.acc.clear();
        if kind == MessageKind::DeleteSurface && cur.surface.is_some() {
            self.sent.forget(cur.surface_raw());
        }
    }
}
