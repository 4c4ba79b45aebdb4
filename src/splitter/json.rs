//! Inside a message: the lexer's tokens, what the splitter keeps of the message being read, the
//! data-model split's hooks, and the end of a message.

use super::*;

/// Which string the lexer is capturing, and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Capture {
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
pub(super) enum Key {
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
pub(super) type Pending = (std::ops::Range<u64>, Option<(usize, usize)>);

/// What is known about the message being read.
#[derive(Debug, Default)]
pub(super) struct Current {
    /// Stream offset of its `{`.
    pub(super) start: u64,
    pub(super) kind: Option<MessageKind>,
    pub(super) message_key: Key,
    pub(super) body_key: Key,
    pub(super) component_key: Key,
    pub(super) in_body: bool,
    pub(super) in_component: bool,
    pub(super) version: Option<Captured>,
    pub(super) surface: Option<Captured>,
    /// A data-model update's `path`.
    pub(super) path: Option<Captured>,
    /// The split of a data-model update, once its value opened.
    pub(super) data: Option<Box<DataSplit>>,
    /// Stream offset of the opening quote of the string being captured.
    pub(super) string_start: u64,
    /// Keys besides the kind, `version`, `surfaceId` and `components`.
    pub(super) extra_keys: bool,
    /// Stream offsets of the components array's `[` and `]`.
    pub(super) array: (Option<u64>, Option<u64>),
    pub(super) component_start: u64,
    /// Stream offsets of the component's raw `id` string, quotes included.
    pub(super) component_id: Option<(u64, u64)>,
    /// Components read before `surfaceId` (or `version`) arrived, with where their raw `id` is.
    /// (Their stream offsets: their bytes stay in the message's buffer or the chunk.)
    pub(super) pending: Vec<Pending>,
    /// At least one component (or data-model piece) went out (or was dropped as a repeat) on
    /// its own.
    pub(super) split: bool,
    /// The message outgrew the size limit: read to its end, then drop it.
    pub(super) discard: bool,
    /// A `createSurface`, once its body opened: what its split needs.
    pub(super) create: Option<Box<Create>>,
}

impl Current {
    pub(super) fn kind(&self) -> MessageKind {
        self.kind.unwrap_or(MessageKind::Unknown)
    }

    /// The raw `surfaceId` string (quotes included), or nothing.
    pub(super) fn surface_raw(&self) -> &[u8] {
        self.surface.as_ref().map_or(&[], |c| &c.raw[..])
    }

    /// Whether a data-model split is going on (its pieces may still go out).
    pub(super) fn splitting_data(&self) -> bool {
        self.data.as_ref().is_some_and(|d| d.active())
    }

    /// Whether split-out components can go out now: the surface (and, for v0.9, the version)
    /// is known and short enough to be copied into each ([`MAX_SPLIT_FIELD_BYTES`]).
    pub(super) fn released(&self) -> bool {
        if let Some(create) = &self.create {
            // A `createSurface`'s components go out once the surface itself went out.
            return create.streaming();
        }
        let short = |c: &Captured| c.raw.len() <= MAX_SPLIT_FIELD_BYTES;
        self.surface.as_ref().is_some_and(short)
            && (self.kind() == MessageKind::SurfaceUpdate
                || self.version.as_ref().is_some_and(short))
    }
}

/// A string value of the message kept for what follows: `version` or `surfaceId`.
#[derive(Debug)]
pub(super) struct Captured {
    /// The raw JSON string, quotes included.
    pub(super) raw: Vec<u8>,
    /// Stream offset of its opening quote.
    pub(super) at: u64,
    /// Decoded, when it has escapes (otherwise its raw bytes are its text).
    pub(super) decoded: Option<Arc<str>>,
}

impl Captured {
    pub(super) fn new(raw: &[u8], at: u64) -> Captured {
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

    /// The string's text.
    pub(super) fn text(&self) -> Option<&str> {
        match &self.decoded {
            Some(text) => Some(text),
            None => std::str::from_utf8(self.raw.get(1..self.raw.len().saturating_sub(1))?).ok(),
        }
    }

    /// The message field for this string, when a copy of its raw bytes starts at `offset` in the
    /// message's bytes (`None`: they are not there).
    pub(super) fn field(&self, offset: Option<usize>) -> Field {
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

/// Decodes the raw bytes of a JSON string (quotes included; the lexer has checked them).
pub(super) fn decode(raw: &[u8]) -> Option<Arc<str>> {
    crate::scan::decode_string(raw).map(|text| Arc::from(text.as_ref()))
}

impl Splitter {
    #[inline]
    pub(super) fn in_message(&mut self, chunk: &Chunk<'_>, base: u64, i: usize) -> usize {
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

    pub(super) fn on_open(&mut self, object: bool, at: u64) {
        let depth = self.lex.depth();
        let phase = self.phase();
        let cur = &mut self.cur;
        match depth {
            2 if object && cur.message_key == Key::Kind => {
                cur.in_body = true;
                cur.body_key = Key::Other;
                if cur.kind().may_list_components() {
                    self.mode = Mode::Json(Phase::SeekingComponents);
                }
                if cur.kind() == MessageKind::CreateSurface {
                    cur.create = Some(Box::new(Create::new(at, cur.extra_keys)));
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
            _ if depth > DATA_DEPTH && cur.splitting_data() => {
                self.with_data(&[], 0, |d, _, out| d.on_open(object, depth, at + 1, out));
            }
            _ => {}
        }
    }

    /// The value of a data-model update opened (a container, at stream offset `at`): starts
    /// splitting it when everything its pieces need is known.
    #[inline(never)]
    pub(super) fn start_data(&mut self, object: bool, at: u64) {
        if self.cur.create.is_some() {
            self.start_inline_data(object, at);
            return;
        }
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
        self.install_data(split, pieces);
    }

    /// Puts a data-model split that started (or not) in place, and sends the pieces it made.
    pub(super) fn install_data(&mut self, split: Option<DataSplit>, mut pieces: Vec<Piece>) {
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
    pub(super) fn with_data(
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
    pub(super) fn emit_pieces(&mut self, pieces: &mut Vec<Piece>) {
        // A `createSurface`'s inline data model goes out as updates of the surface's data model.
        let kind = match self.cur.kind() {
            MessageKind::CreateSurface => MessageKind::UpdateDataModel,
            kind => kind,
        };
        for piece in pieces.drain(..) {
            self.cur.split = true;
            let cur = &self.cur;
            let field = |c: &Option<Captured>, at| c.as_ref().map_or(Field::None, |c| c.field(at));
            let message = Message {
                kind,
                version: field(&cur.version, piece.version_at),
                surface_id: field(&cur.surface, Some(piece.surface_at)),
                component_id: Field::None,
                bytes: Bytes::from(piece.bytes),
            };
            self.emit(message);
        }
    }

    /// A number or literal ended just before `chunk[pos]`.
    #[inline(never)]
    pub(super) fn on_scalar_end(&mut self, chunk: &[u8], base: u64, pos: usize) {
        let depth = self.lex.depth();
        if self.cur.splitting_data() {
            let end = base + pos as u64;
            self.with_data(chunk, base, |d, src, out| {
                d.on_scalar_end(depth, end, src, out)
            });
        }
    }

    /// Returns `true` when the message closed.
    #[inline(never)]
    pub(super) fn on_close(
        &mut self,
        object: bool,
        chunk: &Chunk<'_>,
        base: u64,
        pos: usize,
    ) -> bool {
        let end = base + pos as u64;
        let depth = self.lex.depth();
        if depth >= DATA_DEPTH - 1 && self.cur.splitting_data() {
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
                if let Some(create) = self.cur.create.as_mut() {
                    create.body_close = Some(end - 1);
                }
            }
            2 if self.phase() == Phase::InComponent => {
                self.cur.array.1 = Some(end - 1);
                self.mode = Mode::Json(Phase::SeekingComponents);
            }
            2 if object && self.cur.body_key == Key::Data && self.cur.create.is_some() => {
                self.end_inline_data(chunk, base, end);
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
                        if self.cur.create.is_some() {
                            self.release_create(chunk, base, end);
                        }
                    }
                }
            }
            _ => {}
        }
        false
    }

    /// A string began; its opening quote is at stream offset `at`.
    pub(super) fn on_string_start(&mut self, at: u64) {
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
    pub(super) fn on_string_end(&mut self, chunk: &[u8], base: u64, pos: usize) {
        let end = base + pos as u64;
        let target = std::mem::replace(&mut self.capture, Capture::None);
        let depth = self.lex.depth();
        if depth >= DATA_DEPTH && self.cur.splitting_data() {
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
                };
                if let Some(create) = cur.create.as_mut() {
                    create.message_key(inner);
                }
            }
            Capture::BodyKey if cur.create.is_some() => {
                let at = cur.string_start;
                if let Some(create) = cur.create.as_mut() {
                    cur.body_key = create.body_key(inner, at);
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
            self.flush_pending(chunk, base);
        }
    }

    /// Sends the components that waited for their message's surface (or version).
    pub(super) fn flush_pending(&mut self, chunk: &[u8], base: u64) {
        for (range, id) in std::mem::take(&mut self.cur.pending) {
            let (earlier, here) = self.parts(chunk, base, range.start, range.end);
            let built = component_message(&self.cur, earlier, here);
            self.emit_component(built, id);
        }
    }

    /// The stream bytes `[from, to)` of the open message, `to` inside `chunk`, as the part kept
    /// from earlier chunks and the part in this one.
    pub(super) fn parts<'a>(
        &'a self,
        chunk: &'a [u8],
        base: u64,
        from: u64,
        to: u64,
    ) -> (&'a [u8], &'a [u8]) {
        message_parts(&self.acc, chunk, self.cur.start, base, from..to)
    }

    #[inline(never)]
    pub(super) fn message_done(&mut self, chunk: &Chunk<'_>, base: u64, end: u64) {
        self.mode = Mode::Json(Phase::SeekingMessage);
        // A data-model update split in pieces is followed by the whole one when a piece could
        // not be made faithfully, or when the message holds keys the pieces do not carry.
        let data_whole = self
            .cur
            .data
            .as_ref()
            .is_some_and(|d| d.whole || self.cur.extra_keys);
        self.end_data();
        if self.cur.discard {
            self.cur = Current::default();
            return;
        }
        if end - self.cur.start > self.config.max_message_bytes as u64 {
            self.too_large();
            self.cur = Current::default();
            return;
        }
        if self.cur.create.is_some() {
            // A `createSurface`'s components that waited (for its `surfaceId` or `version`) go
            // out now that all of it is known, unless it goes out whole.
            self.release_create(chunk, base, end);
        }
        let cur = std::mem::take(&mut self.cur);
        let kind = cur.kind();
        if cur.create.as_ref().is_some_and(|c| c.sent()) {
            self.create_done(&cur, chunk, base, end);
        } else if cur.split && !data_whole {
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
                let message = message_of(&cur, Bytes::from(v), &offset);
                self.emit(message);
            }
        } else {
            let whole = self.whole_message(&cur, chunk, base, end);
            self.emit(whole);
        }
        self.acc.clear();
        if kind == MessageKind::DeleteSurface && cur.surface.is_some() {
            self.sent.forget(cur.surface_raw());
        }
    }

    /// The message that closed at stream offset `end`, whole: a slice of the chunk when it lies
    /// in it, else its bytes from earlier chunks joined once to those in this one.
    pub(super) fn whole_message(
        &mut self,
        cur: &Current,
        chunk: &Chunk<'_>,
        base: u64,
        end: u64,
    ) -> Message {
        let bytes = if cur.start >= base {
            chunk.bytes((cur.start - base) as usize..(end - base) as usize)
        } else {
            self.acc
                .extend_from_slice(chunk.get(..(end - base) as usize).unwrap_or_default());
            self.acc.split().freeze()
        };
        let offset = |at: u64| Some((at - cur.start) as usize);
        message_of(cur, bytes, &offset)
    }
}

/// The message `cur` was read into, as `bytes`; `offset` maps a stream offset in the message to
/// one in `bytes` (`None`: not there).
pub(super) fn message_of(
    cur: &Current,
    bytes: Bytes,
    offset: &dyn Fn(u64) -> Option<usize>,
) -> Message {
    let field = |c: &Option<Captured>| c.as_ref().map_or(Field::None, |c| c.field(offset(c.at)));
    Message {
        version: field(&cur.version),
        surface_id: field(&cur.surface),
        bytes,
        kind: cur.kind(),
        component_id: Field::None,
    }
}
