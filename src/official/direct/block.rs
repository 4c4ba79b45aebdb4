//! The payload of one block, read as it arrives: the top-level list (or single message) is
//! walked here, each message runs through the core's lexer, and the message still arriving can
//! be read as it stands ([`Block::standing`]) by closing what is open.
//!
//! Every byte is lexed once, and every value is built once, when it closes, into the
//! container it belongs to: the open message is a stack of partly built containers. The
//! message as it stands is a copy of that stack folded up, made only when the caller asks,
//! which it does only after a chunk that can change it ([`Block::changed`]). What went into the
//! message, and where, can be noted as it happens ([`Block::note_inserts`]) for a reader that
//! wants only what is new.

use serde_json::{Map, Value};

use crate::find::{find_either, string_end};
use crate::framing::{self, Act, Class};
use crate::path;
use crate::scan::{Cut, KEY_CAPTURE_LIMIT, Lexer, Tok, decode_body, decode_string, straighten};

/// Deepest nesting read in a message.
const MAX_DEPTH: usize = 128;

/// Where the reader is in the payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before the payload: white space, then maybe a markdown fence line.
    Start,
    /// In a fence line before the payload, up to its line break.
    Fence,
    /// In the top-level list, between messages.
    List { after_comma: bool, any: bool },
    /// Inside a message.
    Message,
    /// After the payload: white space and a closing fence only.
    After { ticks: u8, lang: bool },
    /// The payload cannot be read; only the close tag is looked for.
    Broken { in_string: bool, escaped: bool },
}

/// An open container of the message being read.
#[derive(Debug)]
struct Frame {
    /// What closed in it so far: an object or a list.
    value: Value,
    /// The key of the member being read (objects).
    member: Option<String>,
    /// A list whose items are shown only once they close (`components` from v1.0).
    whole_items: bool,
}

/// A value that went into the open message: where (from the message's top), and what (a
/// container that just opened is noted empty).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Insert {
    /// The index of the message in the block.
    pub(super) message: usize,
    pub(super) path: Vec<path::Step>,
    pub(super) value: Value,
}

/// What [`Block::feed`] found in a chunk.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Fed {
    /// All of the chunk is payload.
    Payload,
    /// The close tag starts at this offset and is this long; the bytes after it are not read.
    Closed { at: usize, len: usize },
    /// The chunk's last bytes from this offset may begin the close tag: they are not read and
    /// come back with the next chunk.
    Hold(usize),
}

/// The payload of one block being read.
#[derive(Debug)]
pub(super) struct Block {
    phase: Phase,
    /// The payload is one message, not a list.
    single: bool,
    lex: Lexer,
    /// The bytes of the open message, from its `{`.
    msg: Vec<u8>,
    frames: Vec<Frame>,
    /// Where the string value being read starts in `msg` (its opening quote).
    string_at: usize,
    /// Messages that closed, in order, not yet taken, each with the revision it closed at.
    closed: Vec<(Value, u64)>,
    /// Counts the changes to what the open message shows (a value, a container or an item that
    /// went in where it shows): two looks at the same revision show the same message, but for
    /// the string still arriving.
    revision: u64,
    /// How many messages closed in this block.
    count: usize,
    /// The message as it stands may have changed since [`Block::standing`] last looked.
    changed: bool,
    /// `components` lists are read item by item (v1.0).
    whole_components: bool,
    /// Why the payload cannot be read, with its offset in the block.
    broken: Option<(u64, String)>,
    /// What went into the open message since the last look, when noted.
    inserts: Option<Vec<Insert>>,
    /// Bytes of the block read so far.
    read: u64,
}

impl Block {
    pub(super) fn new(whole_components: bool) -> Block {
        let mut lex = Lexer::new(MAX_DEPTH);
        // The SDK reads a comma before a closing bracket and raw control characters in strings.
        lex.lenient();
        lex.report(usize::MAX, u64::MAX);
        lex.report_scalars(u64::MAX);
        Block {
            phase: Phase::Start,
            single: false,
            lex,
            msg: Vec::new(),
            frames: Vec::new(),
            string_at: 0,
            closed: Vec::new(),
            revision: 0,
            count: 0,
            changed: false,
            whole_components,
            broken: None,
            inserts: None,
            read: 0,
        }
    }

    /// Notes from now on what goes into the open message ([`Block::take_inserts`]).
    pub(super) fn note_inserts(&mut self) {
        self.inserts.get_or_insert_with(Vec::new);
    }

    /// What went into messages since the last call, in order; with `open_too` false, what
    /// went into the open message stays for a later call.
    pub(super) fn take_inserts(&mut self, open_too: bool) -> Vec<Insert> {
        let open = self.open_index();
        let Some(inserts) = self.inserts.as_mut() else {
            return Vec::new();
        };
        match open {
            Some(index) if !open_too => {
                let keep = inserts
                    .iter()
                    .position(|i| i.message >= index)
                    .unwrap_or(inserts.len());
                let rest = inserts.split_off(keep);
                std::mem::replace(inserts, rest)
            }
            _ => std::mem::take(inserts),
        }
    }

    /// Whether the open message reads as it stands (see [`Block::standing`]), without making it.
    pub(super) fn readable(&self, progressive: &dyn Fn(&str) -> bool) -> bool {
        self.reading(progressive).is_some()
    }

    /// The messages that closed since the last call, and the index in the block of the first.
    pub(super) fn take_closed(&mut self) -> (usize, Vec<(Value, u64)>) {
        let taken = std::mem::take(&mut self.closed);
        (self.count - taken.len(), taken)
    }

    /// The revision of what the open message shows (see the field).
    pub(super) fn revision(&self) -> u64 {
        self.revision
    }

    /// Whether a message is open, and its index in the block.
    pub(super) fn open_index(&self) -> Option<usize> {
        (self.phase == Phase::Message).then_some(self.count)
    }

    /// Whether the payload can still be read, and if not why (with the offset in the block).
    pub(super) fn broken(&self) -> Option<&(u64, String)> {
        self.broken.as_ref()
    }

    /// Whether the payload so far is whole: its list (or its one message) closed, or nothing
    /// but white space and fences.
    pub(super) fn complete(&self) -> bool {
        matches!(self.phase, Phase::After { .. })
    }

    /// Whether nothing but white space and fences came.
    pub(super) fn empty(&self) -> bool {
        matches!(self.phase, Phase::Start | Phase::Fence)
    }

    /// Whether the open message may read differently than when [`Block::standing`] last looked;
    /// clears the mark.
    pub(super) fn changed(&mut self) -> bool {
        std::mem::take(&mut self.changed)
    }

    /// Reads `chunk` (block text with no close tag before the returned point).
    pub(super) fn feed(&mut self, chunk: &[u8]) -> Fed {
        let mut i = 0;
        while i < chunk.len() {
            let rest = chunk.get(i..).unwrap_or_default();
            let step = match self.phase {
                Phase::Message => self.message(rest),
                Phase::Broken { .. } => self.broken_text(rest),
                _ => self.between(rest),
            };
            match step {
                Step::Read(n) => i += n.max(1).min(rest.len()),
                Step::Tag(class) => match class {
                    Class::Match(len, _) => {
                        self.read += i as u64;
                        return Fed::Closed { at: i, len };
                    }
                    _ => {
                        self.read += i as u64;
                        return Fed::Hold(i);
                    }
                },
            }
        }
        self.read += chunk.len() as u64;
        Fed::Payload
    }

    fn fail(&mut self, at: usize, why: impl Into<String>) {
        if self.broken.is_none() {
            self.broken = Some((self.read + at as u64, why.into()));
        }
        let in_string = self.phase == Phase::Message && self.lex.cut() == Cut::InValueString;
        self.phase = Phase::Broken {
            in_string,
            escaped: false,
        };
        self.frames.clear();
        self.msg.clear();
    }

    /// Outside messages: the list's brackets and commas, fences, white space.
    fn between(&mut self, rest: &[u8]) -> Step {
        let Some(&b) = rest.first() else {
            return Step::Read(0);
        };
        if b == b'<' {
            match close_tag(rest) {
                Class::No => {}
                class => return Step::Tag(class),
            }
        }
        if matches!(b, b' ' | b'\t' | b'\n' | b'\r') && !matches!(self.phase, Phase::Fence) {
            if let Phase::After { ticks, lang } = self.phase
                && (ticks > 0 || lang)
                && b == b'\n'
            {
                // A closing fence is followed only by white space.
                self.phase = Phase::After {
                    ticks: 3,
                    lang: true,
                };
            }
            return Step::Read(1);
        }
        match (self.phase, b) {
            (Phase::Start, b'`') => {
                self.phase = Phase::Fence;
                Step::Read(1)
            }
            (Phase::Fence, b'\n') => {
                self.phase = Phase::Start;
                Step::Read(1)
            }
            (Phase::Fence, _) => Step::Read(1),
            (Phase::Start, b'[') => {
                self.phase = Phase::List {
                    after_comma: false,
                    any: false,
                };
                Step::Read(1)
            }
            (Phase::Start, b'{') => {
                self.single = true;
                self.open_message();
                Step::Read(1)
            }
            (Phase::List { after_comma, any }, b'{') if after_comma || !any => {
                self.open_message();
                Step::Read(1)
            }
            (Phase::List { any: true, .. }, b',') => {
                self.phase = Phase::List {
                    after_comma: true,
                    any: true,
                };
                Step::Read(1)
            }
            (Phase::List { .. }, b']') => {
                // A trailing comma before `]` is read as the SDK reads it.
                self.phase = Phase::After {
                    ticks: 0,
                    lang: false,
                };
                Step::Read(1)
            }
            (Phase::After { ticks, lang: false }, b'`') if ticks < 3 => {
                self.phase = Phase::After {
                    ticks: ticks + 1,
                    lang: false,
                };
                Step::Read(1)
            }
            (Phase::After { ticks, .. }, c)
                if ticks > 0 && ticks < 3 + 1 && (c.is_ascii_alphabetic() || c == b'-') =>
            {
                self.phase = Phase::After { ticks, lang: true };
                Step::Read(1)
            }
            (phase, c) => {
                let why = match phase {
                    Phase::After { .. } => "unexpected text after the JSON value".to_owned(),
                    Phase::List { .. } => {
                        format!("expected a message, ',' or ']', found {}", shown(c))
                    }
                    _ => format!("expected '[' or '{{', found {}", shown(c)),
                };
                self.fail(0, why);
                Step::Read(0)
            }
        }
    }

    fn open_message(&mut self) {
        self.phase = Phase::Message;
        self.msg.clear();
        self.msg.push(b'{');
        self.lex.begin_object();
        self.frames.clear();
        self.frames.push(Frame {
            value: Value::Object(Map::new()),
            member: None,
            whole_items: false,
        });
        self.changed = true;
    }

    /// The path of the next value that goes into the innermost open container.
    fn path(&self) -> Vec<path::Step> {
        self.frames
            .iter()
            .map(|f| match &f.value {
                Value::Array(items) => path::Step::Index(items.len()),
                _ => path::Step::Key(f.member.clone().unwrap_or_default()),
            })
            .collect()
    }

    /// Puts `value` into the innermost open container (under the key being read), noting it
    /// when `note` (what is noted piece by piece is not noted again whole).
    fn insert(&mut self, value: Value, note: bool) {
        if note && self.inserts.is_some() {
            let note = Insert {
                message: self.count,
                path: self.path(),
                value: value.clone(),
            };
            if let Some(inserts) = self.inserts.as_mut() {
                inserts.push(note);
            }
        }
        if let Some(frame) = self.frames.last_mut() {
            put(frame, value);
        }
    }

    /// Inside a message: its bytes go through the lexer.
    fn message(&mut self, rest: &[u8]) -> Step {
        let start = self.msg.len();
        self.msg.extend_from_slice(rest);
        let mut pos = start;
        loop {
            let tok = self.lex.next(&self.msg, &mut pos);
            match tok {
                Tok::End => {
                    if self.lex.cut() == Cut::InValueString && pos > start {
                        self.mark_changed();
                    }
                    return Step::Read(rest.len());
                }
                Tok::ObjOpen | Tok::ArrOpen => {
                    let object = tok == Tok::ObjOpen;
                    let whole_items = !object
                        && self.whole_components
                        && self
                            .frames
                            .last()
                            .and_then(|f| f.member.as_deref())
                            .is_some_and(|k| k == "components");
                    // An item of a whole-items list shows nothing until it closes.
                    if !self.frames.last().is_some_and(|f| f.whole_items) {
                        self.mark_changed();
                        self.bump();
                        if self.inserts.is_some() && !self.inside_item() {
                            let empty = if object {
                                Value::Object(Map::new())
                            } else {
                                Value::Array(Vec::new())
                            };
                            let note = Insert {
                                message: self.count,
                                path: self.path(),
                                value: empty,
                            };
                            if let Some(inserts) = self.inserts.as_mut() {
                                inserts.push(note);
                            }
                        }
                    }
                    self.frames.push(Frame {
                        value: if object {
                            Value::Object(Map::new())
                        } else {
                            Value::Array(Vec::new())
                        },
                        member: None,
                        whole_items,
                    });
                }
                Tok::ObjClose | Tok::ArrClose => {
                    let Some(frame) = self.frames.pop() else {
                        return Step::Read(rest.len());
                    };
                    if self.frames.is_empty() {
                        self.message_closed(frame.value);
                        let used = pos - start;
                        return Step::Read(used);
                    }
                    // A container's content was noted as it came, except an item of a
                    // whole-items list, which is noted whole as it closes.
                    let whole_item = self.frames.last().is_some_and(|f| f.whole_items);
                    if whole_item {
                        // The item shows now.
                        self.mark_changed();
                        self.bump();
                    }
                    self.insert(frame.value, whole_item);
                }
                Tok::StrStart => {
                    if self.lex.in_key() {
                        self.lex.capture(KEY_CAPTURE_LIMIT);
                    } else {
                        self.string_at = pos.saturating_sub(self.lex.quote_width());
                        self.mark_changed();
                    }
                }
                Tok::StrEnd => {
                    if self.lex.in_key() {
                        let key = self
                            .lex
                            .take_capture()
                            .and_then(decode_string)
                            .map(|k| k.into_owned());
                        if let Some(frame) = self.frames.last_mut() {
                            frame.member = key;
                        }
                    } else {
                        let raw = self.msg.get(self.string_at..pos).unwrap_or_default();
                        let raw = if self.lex.straightened() {
                            straighten(raw)
                        } else {
                            raw.into()
                        };
                        let text = decode_string(&raw).map(|t| Value::String(t.into_owned()));
                        self.value_done(text);
                    }
                }
                Tok::ScalarEnd => {
                    let bytes = self.msg.get(..pos).unwrap_or_default();
                    let len = bytes
                        .iter()
                        .rev()
                        .take_while(|b| {
                            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+')
                        })
                        .count();
                    let scalar = bytes
                        .get(pos - len..)
                        .and_then(|b| serde_json::from_slice(b).ok());
                    self.value_done(scalar);
                }
                Tok::Err(kind) => {
                    let at = pos.saturating_sub(self.lex.take_back());
                    let offending = self.msg.get(at..).unwrap_or_default();
                    if offending.first() == Some(&b'<') {
                        match close_tag(offending) {
                            Class::No => {}
                            class => {
                                // The bytes before the tag are read; the tag is the caller's.
                                let read = at.saturating_sub(start);
                                self.msg.truncate(at);
                                return if read == 0 {
                                    Step::Tag(class)
                                } else {
                                    Step::Read(read)
                                };
                            }
                        }
                    }
                    // A straightened block is looked through for its close tag as the SDK
                    // looks through it: by its straight quotes alone.
                    let raw_string = self.lex.straightened()
                        && in_straight_string(self.msg.get(..at).unwrap_or_default());
                    let local = at.saturating_sub(start);
                    self.fail(local, kind.to_string());
                    if raw_string {
                        self.phase = Phase::Broken {
                            in_string: true,
                            escaped: false,
                        };
                    }
                    return Step::Read(local);
                }
            }
        }
    }

    fn value_done(&mut self, value: Option<Value>) {
        self.mark_changed();
        self.bump();
        match value {
            Some(value) => {
                let note = !self.inside_item();
                self.insert(value, note);
            }
            None => self.fail(0, "a value the lexer accepted does not read"),
        }
    }

    /// Whether the innermost open container lies inside an item of a whole-items list.
    fn inside_item(&self) -> bool {
        self.frames.iter().rev().skip(1).any(|f| f.whole_items)
    }

    /// Notes a change at the innermost open container, unless it lies inside an item of a
    /// whole-items list that is still arriving (which shows nothing until the item closes).
    /// Counts a change to what the open message shows, unless it lies inside an item still
    /// arriving.
    fn bump(&mut self) {
        if !self.inside_item() {
            self.revision += 1;
        }
    }

    fn mark_changed(&mut self) {
        self.changed |= !self.inside_item();
    }

    fn message_closed(&mut self, value: Value) {
        self.closed.push((value, self.revision));
        self.count += 1;
        self.phase = if self.single {
            Phase::After {
                ticks: 0,
                lang: false,
            }
        } else {
            Phase::List {
                after_comma: false,
                any: true,
            }
        };
        self.msg.clear();
    }

    /// After the payload broke: only the close tag matters, outside strings.
    fn broken_text(&mut self, rest: &[u8]) -> Step {
        let Phase::Broken {
            mut in_string,
            mut escaped,
        } = self.phase
        else {
            return Step::Read(rest.len());
        };
        let mut k = 0;
        while k < rest.len() {
            let tail = rest.get(k..).unwrap_or_default();
            if in_string {
                match string_end(tail, &mut escaped) {
                    Some(end) => {
                        in_string = false;
                        k += end + 1;
                    }
                    None => k = rest.len(),
                }
                continue;
            }
            let Some(at) = find_either(b'"', b'<', tail) else {
                break;
            };
            k += at;
            if rest.get(k) == Some(&b'"') {
                in_string = true;
                k += 1;
                continue;
            }
            match close_tag(rest.get(k..).unwrap_or_default()) {
                Class::No => k += 1,
                class => {
                    self.phase = Phase::Broken { in_string, escaped };
                    return if k == 0 {
                        Step::Tag(class)
                    } else {
                        Step::Read(k)
                    };
                }
            }
        }
        self.phase = Phase::Broken { in_string, escaped };
        Step::Read(rest.len())
    }

    /// The open message as it stands: what has closed in it, with its open containers closed
    /// and a string value still arriving under one of `progressive` keys closed where it
    /// stands. `None` when it cannot be read yet (a key, an id, a number cut; a key waiting
    /// for its value). With it, the string still arriving as shown, if any.
    pub(super) fn standing(
        &self,
        progressive: &dyn Fn(&str) -> bool,
    ) -> Option<(Value, Option<String>)> {
        let (upto, cut) = self.reading(progressive)?;
        let value = self.folded(upto, cut.clone().map(Value::String));
        Some((value, cut))
    }

    /// How the open message reads as it stands, if it does: the innermost open container that
    /// is shown, and the string still arriving that it shows.
    fn reading(&self, progressive: &dyn Fn(&str) -> bool) -> Option<(usize, Option<String>)> {
        if self.phase != Phase::Message {
            return None;
        }
        let cut = self.lex.cut();
        let last = self.frames.len().checked_sub(1)?;
        // An item of a whole-items list that is still arriving is left out with all it holds.
        for (i, frame) in self.frames.iter().enumerate() {
            if frame.whole_items && (i < last || cut != Cut::Clean) {
                return Some((i, None));
            }
        }
        match cut {
            Cut::Clean => Some((last, None)),
            Cut::InValueString => Some((last, Some(self.cut_string(progressive)?))),
            Cut::Unfinished => None,
        }
    }

    /// The string value still arriving, closed where it stands, when its key is one of
    /// `progressive` and it is not an address.
    pub(super) fn cut_string(&self, progressive: &dyn Fn(&str) -> bool) -> Option<String> {
        if self.phase != Phase::Message || self.lex.cut() != Cut::InValueString {
            return None;
        }
        let frame = self.frames.last()?;
        let key = frame
            .member
            .as_deref()
            .filter(|_| frame.value.is_object())?;
        if !progressive(key) {
            return None;
        }
        let raw = self.msg.get(self.string_at + self.lex.quote_width()..)?;
        let raw = if self.lex.straightened() {
            straighten(raw)
        } else {
            raw.into()
        };
        let valid = match std::str::from_utf8(&raw) {
            Ok(text) => text,
            Err(e) => std::str::from_utf8(raw.get(..e.valid_up_to())?).ok()?,
        };
        let text = decode_body(valid, true)?;
        // A cut address names another resource: it waits for its closing quote.
        if ["http://", "https://", "data:"]
            .iter()
            .any(|p| text.starts_with(p))
        {
            return None;
        }
        Some(text.into_owned())
    }

    /// Where the string value still arriving goes in the message.
    pub(super) fn cut_string_path(&self) -> Vec<path::Step> {
        self.path()
    }

    /// The open containers `frames[..=upto]` folded into one value, with `extra` put into the
    /// innermost.
    fn folded(&self, upto: usize, extra: Option<Value>) -> Value {
        let mut frames = self.frames.get(..=upto).unwrap_or_default().iter().rev();
        let Some(inner) = frames.next() else {
            return Value::Null;
        };
        let mut value = inner.value.clone();
        if let Some(extra) = extra {
            put_into(&mut value, inner.member.as_deref(), extra);
        }
        for frame in frames {
            let mut outer = frame.value.clone();
            put_into(&mut outer, frame.member.as_deref(), value);
            value = outer;
        }
        value
    }
}

/// Puts `value` into `frame`'s container, under the key being read.
fn put(frame: &mut Frame, value: Value) {
    let key = frame.member.take();
    put_into(&mut frame.value, key.as_deref(), value);
}

fn put_into(container: &mut Value, key: Option<&str>, value: Value) {
    match container {
        Value::Object(map) => {
            if let Some(key) = key {
                map.insert(key.to_owned(), value);
            }
        }
        Value::Array(items) => items.push(value),
        _ => {}
    }
}

/// What one step of [`Block::feed`] did.
enum Step {
    /// This many bytes were read.
    Read(usize),
    /// A close tag, or what may begin one, at the start of what is left.
    Tag(Class),
}

/// `</a2ui-json>` (any case, white space before `>`) at the start of `p`.
/// Whether `bytes` end inside a string, counting straight quotes only.
fn in_straight_string(bytes: &[u8]) -> bool {
    let mut from = 0;
    while let Some(q) = bytes
        .get(from..)
        .and_then(|rest| memchr::memchr(b'"', rest))
    {
        let start = from + q + 1;
        let mut escaped = false;
        match string_end(bytes.get(start..).unwrap_or_default(), &mut escaped) {
            Some(end) => from = start + end + 1,
            None => return true,
        }
    }
    false
}

fn close_tag(p: &[u8]) -> Class {
    framing::tag_at(
        p,
        Act::CloseBlock,
        framing::Dialect::Lenient,
        framing::Tag::Json,
    )
}

fn shown(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}
