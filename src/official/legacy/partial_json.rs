//! Incremental JSON tree building with "healing" of cut values.
//!
//! [`PartialJson`] takes the text inside a top-level JSON list one character at a time and never
//! looks at a character twice. Scalars are decoded when they end and moved into their parent
//! container at once, so a container that closes is already a finished [`Value`]. While a
//! container is still open, [`PartialJson::snapshot`] builds the value it would have if the
//! stream stopped here: finished members are kept, a cut string is kept only under a key whose
//! prose may be shown while it grows (see [`CUTTABLE_KEYS`], which the owner may replace) and
//! not cut inside an escape, and everything else that is unfinished (a key, an id, a path, a
//! number, `true`) is left out until it ends.
//!
//! Why a second JSON reader beside `scan.rs`: the SDK's streaming parser reads leniently (it
//! skips what does not belong and carries on) and shows strings while they are written, where
//! the lexer is strict and never holds a string's interior; `docs/architecture.md` says more.
//! It shares the core's byte kernels and string decoder. One file: one state machine over one
//! stack, read best whole.

use serde_json::{Map, Value};

pub(crate) use crate::official::validator::Slot;

use std::borrow::Cow;
use std::sync::Arc;

use crate::find::find_either;
use crate::scan::decode_body;

/// Keys whose string values may be shown while still being written.
pub(crate) const CUTTABLE_KEYS: [&str; 7] = [
    "literalString",
    "valueString",
    "label",
    "hint",
    "caption",
    "altText",
    "text",
];

/// Open containers the stack has room for from the start (a v0.8 component in a list is at
/// depth 5, its properties deeper).
const STACK_ROOM: usize = 16;

/// The room a string token starts with.
const STRING_START: usize = 16;

/// An open container on the stack.
#[derive(Debug)]
pub(crate) struct Frame {
    /// The key under which this container sits in its parent object (`None` in an array).
    pub(crate) key: Option<String>,
    pub(crate) body: Body,
    /// Something malformed was skipped inside: the value is not handed over.
    pub(crate) broken: bool,
    /// An object or list that opened where no value belonged (no key, inside an object).
    pub(crate) anonymous: bool,
    /// Keys of the members put into this object since [`Frame::fresh`] was last drained, in
    /// order (an object's map is sorted, so the order of arrival is kept here); kept only where
    /// a reader uses them (see [`tracks_fresh`]).
    pub(crate) fresh: Vec<String>,
    /// How many items of this list a reader has already looked at.
    pub(crate) seen: usize,
    /// A reader has looked at this container since it opened.
    pub(crate) visited: bool,
    /// Counts the containers opened before this one since the builder was made: tells apart
    /// two containers that opened at the same place, so a reader can keep what it made of one.
    pub(crate) serial: u64,
    /// Where its opening bracket stands: [`PartialJson::pos`] when it opened.
    pub(crate) at: u64,
}

impl Frame {
    fn new(key: Option<String>, body: Body, anonymous: bool, serial: u64, at: u64) -> Frame {
        Frame {
            key,
            body,
            broken: false,
            anonymous,
            fresh: Vec::new(),
            seen: 0,
            visited: false,
            serial,
            at,
        }
    }

    /// What a box kept for reuse holds (nothing allocated).
    fn spare() -> Frame {
        Frame::new(None, Body::Array(Vec::new()), false, 0, 0)
    }
}

/// The content built so far of an open container.
#[derive(Debug)]
pub(crate) enum Body {
    Object {
        map: Map<String, Value>,
        /// A finished key waiting for its value.
        key: Option<String>,
        /// True right after `{` or `,`: a key must come next.
        want_key: bool,
    },
    Array(Vec<Value>),
}

#[derive(Debug, Default)]
enum Token {
    #[default]
    None,
    /// A string in progress; `raw` holds its text with escapes as written.
    Str {
        raw: String,
        escaped: bool,
        /// A string where none belongs; read past and dropped.
        junk: bool,
        /// A value under a cuttable key ([`PartialJson::set_cuttable_keys`]): a snapshot may
        /// show it while it grows.
        shows: bool,
    },
    /// A number or literal in progress.
    Bare(String),
}

/// What feeding one character finished.
#[derive(Debug, PartialEq)]
pub(crate) enum Step {
    /// Nothing of note.
    Nothing,
    /// A container at stack depth `depth` (the top-level list is depth 0), opened at `at` (see
    /// [`Frame::at`]), closed. Containers at depth 1 (the messages) are handed over whole and
    /// not kept; deeper ones are kept in their parent and handed over as a copy only when
    /// `wanted` said so.
    Closed {
        depth: usize,
        value: Option<Value>,
        at: u64,
    },
    /// The top-level list closed.
    ListClosed,
}

/// The open containers, outermost first. Each frame is boxed, so that the list itself stays
/// small (a pointer per frame) and no allocation of the builder reaches 1 KiB: glibc's `malloc`
/// tidies every small block freed so far into its general lists before it serves such a
/// request, and small requests then take its slow path. Frames popped are kept for reuse.
// The boxes are the point: a list of frames inline would reach 1 KiB.
#[allow(clippy::vec_box)]
#[derive(Debug, Default)]
pub(crate) struct Stack {
    frames: Vec<Box<Frame>>,
    spare: Vec<Box<Frame>>,
}

impl Stack {
    fn with_capacity(room: usize) -> Stack {
        Stack {
            frames: Vec::with_capacity(room),
            spare: Vec::with_capacity(room),
        }
    }

    /// The frame at `index` (0 is the top-level list).
    pub(crate) fn get(&self, index: usize) -> Option<&Frame> {
        self.frames.get(index).map(|f| &**f)
    }

    /// The frame at `index`, to change.
    pub(crate) fn get_mut(&mut self, index: usize) -> Option<&mut Frame> {
        self.frames.get_mut(index).map(|f| &mut **f)
    }

    /// How many containers are open.
    pub(crate) fn len(&self) -> usize {
        self.frames.len()
    }

    /// No container is open.
    pub(crate) fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The frames, outermost first.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = &Frame> + ExactSizeIterator {
        self.frames.iter().map(|f| &**f)
    }

    /// The frames as boxed, outermost first (what a `wanted` test of [`PartialJson::feed`] is
    /// given).
    pub(crate) fn boxed(&self) -> &[Box<Frame>] {
        &self.frames
    }

    /// The innermost frame.
    pub(crate) fn last(&self) -> Option<&Frame> {
        self.frames.last().map(|f| &**f)
    }

    /// The innermost frame, to change.
    pub(crate) fn last_mut(&mut self) -> Option<&mut Frame> {
        self.frames.last_mut().map(|f| &mut **f)
    }

    /// The frames, outermost first, to change.
    pub(crate) fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut Frame> {
        self.frames.iter_mut().map(|f| &mut **f)
    }

    fn push(&mut self, frame: Frame) {
        match self.spare.pop() {
            Some(mut spare) => {
                *spare = frame;
                self.frames.push(spare);
            }
            None => self.frames.push(Box::new(frame)),
        }
    }

    /// Takes the innermost frame off; its box is kept for the next push.
    fn pop(&mut self) -> Option<Frame> {
        let mut boxed = self.frames.pop()?;
        let frame = std::mem::replace(&mut *boxed, Frame::spare());
        self.spare.push(boxed);
        Some(frame)
    }

    fn clear(&mut self) {
        while self.pop().is_some() {}
    }
}

/// See the [module documentation](self).
#[derive(Debug, Default)]
pub(crate) struct PartialJson {
    pub(crate) stack: Stack,
    token: Token,
    /// Set whenever what a snapshot would show may have changed: a value or container was
    /// finished or opened, or a string that a snapshot shows grew. Characters of keys, of
    /// strings that are not shown while cut, of numbers and of white space leave it alone.
    pub(crate) dirty: bool,
    /// Set once a well-formed object has closed.
    pub(crate) closed_object: bool,
    /// Containers opened so far (see [`Frame::serial`]).
    opened: u64,
    /// The position a container opening now is recorded at ([`Frame::at`]): the reader sets it
    /// to the byte of the response it feeds next (it is not counted here).
    pub(crate) pos: u64,
    /// Moves on every character fed that is not the text of a string in progress (and when
    /// the builder is reset): while it stands still, the stack is as it was and only the
    /// string in progress grew.
    pub(crate) shape: u64,
    /// The keys whose cut strings a snapshot may show, when not [`CUTTABLE_KEYS`].
    cuttable: Option<Arc<[String]>>,
    /// Lists open directly inside the top-level list (and only in lists), which are not
    /// frames: the objects in them are messages, as the top-level list's own are (the
    /// reference takes an object as a message wherever only lists enclose it).
    inner_lists: usize,
}

impl PartialJson {
    /// A builder with room for the nesting of a typical message, so that the stack does not
    /// grow while a response is read.
    pub(crate) fn with_room() -> PartialJson {
        PartialJson {
            stack: Stack::with_capacity(STACK_ROOM),
            ..PartialJson::default()
        }
    }

    /// Shows cut strings under `keys` (none shown when it is empty) instead of under
    /// [`CUTTABLE_KEYS`]; `None` goes back to those.
    pub(crate) fn set_cuttable_keys(&mut self, keys: Option<Arc<[String]>>) {
        self.cuttable = keys;
    }

    /// Whether a cut string under `key` may be shown (see [`PartialJson::set_cuttable_keys`]).
    fn is_cuttable(&self, key: &str) -> bool {
        match &self.cuttable {
            None => CUTTABLE_KEYS.contains(&key),
            Some(keys) => keys.iter().any(|k| k == key),
        }
    }

    /// How deep the innermost open container is nested, the top-level list counted as 1 (lists
    /// in it that hold messages count too, though they are not on the stack).
    pub(crate) fn depth(&self) -> usize {
        self.stack.len() + self.inner_lists
    }

    /// True while the top-level list is open.
    pub(crate) fn in_list(&self) -> bool {
        !self.stack.is_empty()
    }

    /// Opens the top-level list (the caller saw `[` outside any list).
    pub(crate) fn open_list(&mut self) {
        self.shape += 1;
        self.stack.clear();
        self.token = Token::None;
        self.inner_lists = 0;
        self.push_frame(None, Body::Array(Vec::new()), false);
    }

    /// Opens a container, numbered by [`Frame::serial`].
    fn push_frame(&mut self, key: Option<String>, body: Body, anonymous: bool) {
        self.opened += 1;
        self.stack
            .push(Frame::new(key, body, anonymous, self.opened, self.pos));
    }

    /// Forgets everything.
    pub(crate) fn reset(&mut self) {
        self.shape += 1;
        self.closed_object = false;
        self.stack.clear();
        self.token = Token::None;
        self.inner_lists = 0;
    }

    /// Takes the longest start of `text` that goes on with a string in progress without ending
    /// it or starting an escape, all at once, and returns its length in bytes: 0 when no such
    /// string is in progress or `text` starts with `"` or `\`. The same as feeding those
    /// characters one by one.
    pub(crate) fn feed_string_run(&mut self, text: &str) -> usize {
        let Token::Str {
            raw,
            escaped: false,
            shows,
            ..
        } = &mut self.token
        else {
            return 0;
        };
        let end = find_either(b'"', b'\\', text.as_bytes()).unwrap_or(text.len());
        // `"` and `\` are ASCII, so `end` is a character boundary.
        let Some(run) = text.get(..end) else {
            return 0;
        };
        raw.push_str(run);
        self.dirty |= shows_change(*shows, run);
        end
    }

    /// Takes in all of `text` at once when it provably changes nothing a snapshot shows: white
    /// space between tokens, or text that goes on with a string in progress without ending it or
    /// starting an escape (and, in a string a snapshot shows, is only white space, which is not
    /// shown while it trails). Returns false, taking nothing, otherwise, and also when `text`
    /// holds a `<` (a tag may start there: the caller looks). The same as feeding those
    /// characters one by one, which would leave [`PartialJson::dirty`] alone.
    #[inline]
    pub(crate) fn absorb_quiet(&mut self, text: &str) -> bool {
        if self.stack.is_empty() || self.dirty {
            return false;
        }
        let bytes = text.as_bytes();
        match &mut self.token {
            Token::None => bytes.iter().all(is_blank),
            Token::Str {
                raw,
                escaped: false,
                shows,
                ..
            } => {
                let plain = !bytes.iter().any(|b| matches!(b, b'"' | b'\\' | b'<'));
                let quiet = plain && !shows_change(*shows, text);
                if quiet {
                    raw.push_str(text);
                }
                quiet
            }
            _ => false,
        }
    }

    /// Takes the next character to [`feed`](Self::feed) off the front of `rest`, first taking
    /// in any run of plain string characters there (see [`feed_string_run`](Self::feed_string_run))
    /// and passing over white space between tokens (which [`feed`](Self::feed) ignores).
    /// `None` when `rest` is used up.
    #[inline(always)]
    pub(crate) fn next_char(&mut self, rest: &mut &str) -> Option<char> {
        loop {
            let &first = rest.as_bytes().first()?;
            match self.token {
                Token::None if is_blank(&first) => {
                    // White space between tokens changes nothing: skipped at once.
                    let blank = rest.bytes().take_while(is_blank).count();
                    *rest = rest.get(blank..).unwrap_or_default();
                    continue;
                }
                Token::Str { escaped: false, .. } => {
                    let run = self.feed_string_run(rest);
                    if run > 0 {
                        *rest = rest.get(run..).unwrap_or_default();
                        continue;
                    }
                }
                _ => {}
            }
            // Most characters are ASCII (every one that is not the text of a string).
            if first.is_ascii() {
                *rest = rest.get(1..).unwrap_or_default();
                return Some(char::from(first));
            }
            let c = rest.chars().next()?;
            *rest = rest.get(c.len_utf8()..).unwrap_or_default();
            return Some(c);
        }
    }

    /// Feeds one character; `wanted(depth, key_of_parent_array)` says whether a closing container
    /// at `depth` should be handed over (as a copy) even though it stays in its parent.
    pub(crate) fn feed(&mut self, c: char, wanted: impl Fn(&[Box<Frame>]) -> bool) -> Step {
        // Inside a string.
        if let Token::Str {
            raw,
            escaped,
            junk,
            shows,
        } = &mut self.token
        {
            if *escaped {
                *escaped = false;
                raw.push(c);
                self.dirty |= *shows;
            } else if c == '\\' {
                *escaped = true;
                raw.push(c);
            } else if c == '"' {
                self.shape += 1;
                let raw = std::mem::take(raw);
                let junk = *junk;
                self.token = Token::None;
                // Without escapes the text is the string itself: moved, not copied.
                let text = if raw.contains('\\') {
                    decode_body(&raw, false).map(Cow::into_owned)
                } else {
                    Some(raw)
                };
                match (junk, text) {
                    (false, Some(text)) => self.finish_string(text),
                    _ => self.mark_broken(),
                }
            } else {
                raw.push(c);
                // Trailing white space is not shown, so it changes nothing yet.
                self.dirty |= *shows && !c.is_whitespace();
            }
            return Step::Nothing;
        }
        self.shape += 1;
        // Inside a number or literal.
        if let Token::Bare(text) = &mut self.token {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+') {
                text.push(c);
                return Step::Nothing;
            }
            let text = std::mem::take(text);
            self.token = Token::None;
            match serde_json::from_str::<Value>(&text) {
                Ok(value) => self.put_value(value),
                Err(_) => self.mark_broken(),
            }
        }
        match c {
            '"' => {
                let junk = !(self.wants_key() || self.wants_value());
                if junk {
                    self.mark_broken();
                }
                let shows = !junk
                    && self
                        .pending_value_key()
                        .is_some_and(|k| self.is_cuttable(k));
                self.token = Token::Str {
                    // Room for a typical key or id at once: written a few bytes per chunk, a
                    // string would otherwise grow two or three times.
                    raw: String::with_capacity(STRING_START),
                    escaped: false,
                    junk,
                    shows,
                };
                // A shown string already shows (empty) as soon as it opens.
                self.dirty |= shows;
                Step::Nothing
            }
            '[' if self.stack.len() == 1 && self.wants_value() => {
                // A list in the top-level list: its objects are messages all the same.
                self.inner_lists += 1;
                Step::Nothing
            }
            ']' if self.stack.len() == 1 && self.inner_lists > 0 => {
                self.inner_lists -= 1;
                Step::Nothing
            }
            '{' | '[' => {
                let key = if self.wants_value() {
                    self.pending_key()
                } else {
                    // Out of place: kept apart so a message written inside it is still found.
                    self.mark_broken();
                    None
                };
                let anonymous = key.is_none()
                    && matches!(
                        self.stack.last(),
                        Some(Frame {
                            body: Body::Object { .. },
                            ..
                        })
                    );
                let body = if c == '{' {
                    Body::Object {
                        map: Map::new(),
                        key: None,
                        want_key: true,
                    }
                } else {
                    Body::Array(Vec::new())
                };
                self.push_frame(key, body, anonymous);
                self.dirty = true;
                Step::Nothing
            }
            '}' | ']' => self.close(c, wanted),
            ',' => {
                if let Some(Frame {
                    body: Body::Object { key, want_key, .. },
                    ..
                }) = self.stack.last_mut()
                {
                    *key = None;
                    *want_key = true;
                }
                Step::Nothing
            }
            c if c.is_ascii_alphanumeric() || c == '-' => {
                if self.wants_value() {
                    self.token = Token::Bare(c.to_string());
                } else {
                    self.mark_broken();
                }
                Step::Nothing
            }
            _ => Step::Nothing,
        }
    }

    fn mark_broken(&mut self) {
        if let Some(frame) = self.stack.last_mut() {
            frame.broken = true;
            // The slot the bad text stood in is used up.
            if let Body::Object { key, want_key, .. } = &mut frame.body {
                if !*want_key {
                    *key = None;
                }
            }
        }
    }

    fn wants_key(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame {
                body: Body::Object { want_key: true, .. },
                ..
            })
        )
    }

    fn wants_value(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame {
                body: Body::Object {
                    key: Some(_),
                    want_key: false,
                    ..
                },
                ..
            }) | Some(Frame {
                body: Body::Array(_),
                ..
            })
        )
    }

    /// The key whose value comes next in the innermost object, if a value is due there.
    fn pending_value_key(&self) -> Option<&str> {
        match self.stack.last() {
            Some(Frame {
                body:
                    Body::Object {
                        key: Some(k),
                        want_key: false,
                        ..
                    },
                ..
            }) => Some(k),
            _ => None,
        }
    }

    fn pending_key(&self) -> Option<String> {
        match self.stack.last() {
            Some(Frame {
                body: Body::Object { key, .. },
                ..
            }) => key.clone(),
            _ => None,
        }
    }

    fn finish_string(&mut self, text: String) {
        match self.stack.last_mut() {
            Some(Frame {
                body: Body::Object { key, want_key, .. },
                ..
            }) if *want_key => {
                *key = Some(text);
                *want_key = false;
            }
            _ => self.put_value(Value::String(text)),
        }
    }

    fn put_value(&mut self, value: Value) {
        self.dirty = true;
        let index = self.stack.len().saturating_sub(1);
        match self.stack.last_mut() {
            Some(Frame {
                body: Body::Object { map, key, want_key },
                broken,
                fresh,
                visited,
                ..
            }) => match (key.take(), *want_key) {
                (Some(k), false) => {
                    if tracks_fresh(index, *visited) {
                        fresh.push(k.clone());
                    }
                    map.insert(k, value);
                }
                _ => *broken = true,
            },
            Some(Frame {
                body: Body::Array(items),
                ..
            }) => items.push(value),
            None => {}
        }
    }

    fn close(&mut self, c: char, wanted: impl Fn(&[Box<Frame>]) -> bool) -> Step {
        let top_is_array = matches!(
            self.stack.last(),
            Some(Frame {
                body: Body::Array(_),
                ..
            })
        );
        if c == ']' && !top_is_array {
            // A stray `]` inside an object is skipped.
            return Step::Nothing;
        }
        if c == '}' && top_is_array && self.stack.len() == 1 {
            return Step::Nothing;
        }
        let want = wanted(self.stack.boxed());
        let Some(frame) = self.stack.pop() else {
            return Step::Nothing;
        };
        let depth = self.stack.len();
        if depth == 0 {
            return Step::ListClosed;
        }
        let at = frame.at;
        // A `}` closing a list breaks everything around it.
        let broken = frame.broken || (c == '}' && top_is_array);
        // A container that closes was already shown as it stood, so a snapshot changes only
        // when it is dropped (broken), handed over, or was an empty list of children (shown
        // with a placeholder while open).
        let empty_children = matches!(&frame.body, Body::Array(items) if items.is_empty())
            && matches!(frame.key.as_deref(), Some("children" | "explicitList"));
        self.dirty |= broken || depth == 1 || frame.anonymous || empty_children;
        let value = match frame.body {
            Body::Object { map, .. } => Value::Object(map),
            Body::Array(items) => Value::Array(items),
        };
        if broken {
            self.mark_broken();
            return Step::Closed {
                depth,
                value: None,
                at,
            };
        }
        self.closed_object |= value.is_object();
        if depth == 1 || frame.anonymous {
            // A message (or an object out of place): handed over, not kept.
            return Step::Closed {
                depth,
                value: Some(value),
                at,
            };
        }
        let copy = if want { Some(value.clone()) } else { None };
        let index = self.stack.len().saturating_sub(1);
        match self.stack.last_mut() {
            Some(Frame {
                body: Body::Object { map, key, .. },
                fresh,
                visited,
                ..
            }) => {
                if let Some(k) = frame.key {
                    if tracks_fresh(index, *visited) {
                        fresh.push(k.clone());
                    }
                    map.insert(k, value);
                }
                *key = None;
            }
            Some(Frame {
                body: Body::Array(items),
                ..
            }) => items.push(value),
            None => {}
        }
        Step::Closed {
            depth,
            value: copy,
            at,
        }
    }

    /// The cut string being written as the value of the innermost object's pending key, as a
    /// snapshot would show it: `(key, text)`, or `None` when there is none, its key is not
    /// cuttable ([`PartialJson::set_cuttable_keys`]), it ends inside an escape, or
    /// `heal_string` (called as in [`PartialJson::snapshot`]) says it waits.
    pub(crate) fn cut_string(
        &self,
        heal_string: impl Fn(&str, &str, &Map<String, Value>) -> bool,
    ) -> Option<(&str, String)> {
        let Token::Str {
            raw,
            junk: false,
            shows: true,
            ..
        } = &self.token
        else {
            return None;
        };
        let Some(Frame {
            body:
                Body::Object {
                    map,
                    key: Some(k),
                    want_key: false,
                },
            ..
        }) = self.stack.last()
        else {
            return None;
        };
        let text = decode_cut(raw.trim_end())?.into_owned();
        heal_string(k, &text, map).then_some((k.as_str(), text))
    }

    /// Whether a member of the innermost open object has begun and not ended: its key is being
    /// written or waits for its value, or its value (a string, a number, a literal) is being
    /// written. Such an object, cut here, is not JSON the reference can heal unless the member
    /// is a cut string it shows ([`PartialJson::cut_string`]).
    pub(crate) fn member_in_progress(&self) -> bool {
        match self.stack.last() {
            Some(Frame {
                body: Body::Object { key, want_key, .. },
                ..
            }) => !matches!(self.token, Token::None) || (key.is_some() && !*want_key),
            _ => false,
        }
    }

    /// Where a [`snapshot`](Self::snapshot) from stack index `from` puts the cut string in
    /// progress, found in `root` (such a snapshot, or a value of the same shape): the member
    /// under the innermost object's pending key, reached through the open containers as the
    /// snapshot nests them. `None` when the snapshot would not hold it there (an open container
    /// sits where no key is pending) or `root` has nothing at that place.
    pub(crate) fn cut_string_slot<'v>(
        &self,
        from: usize,
        root: &'v mut Value,
    ) -> Option<&'v mut Value> {
        let value = self.open_slot(from, root)?;
        match &self.stack.last()?.body {
            Body::Object {
                key: Some(k),
                want_key: false,
                ..
            } => value.as_object_mut()?.get_mut(k),
            _ => None,
        }
    }

    /// The way from the container at stack index `from` to the innermost open container, as a
    /// [`snapshot`](Self::snapshot) from `from` nests them (see [`PartialJson::open_slot`], which
    /// follows it at once); `None` when the snapshot would not hold it.
    pub(crate) fn open_path(&self, from: usize) -> Option<Vec<Slot>> {
        self.open_steps(from)?
            .map(|step| match step? {
                Some(k) => Some(Slot::Key(k.to_owned())),
                None => Some(Slot::Last),
            })
            .collect()
    }

    /// The steps of [`PartialJson::open_path`]: under the parent object's pending key (`Some`),
    /// or to the last item of the parent list (`None`); `None` for a step the snapshot would
    /// not take (an open container where no key is pending).
    fn open_steps(&self, from: usize) -> Option<impl Iterator<Item = Option<Option<&str>>>> {
        let frames = self.stack.boxed().get(from..).filter(|f| !f.is_empty())?;
        Some(frames.windows(2).map(|pair| match &pair.first()?.body {
            Body::Object { key: Some(k), .. } => Some(Some(k.as_str())),
            Body::Object { key: None, .. } => None,
            Body::Array(_) => Some(None),
        }))
    }

    /// Where a [`snapshot`](Self::snapshot) from stack index `from` puts the innermost open
    /// container, found in `root` (such a snapshot, or a value of the same shape), reached
    /// through the open containers as the snapshot nests them. `None` when the snapshot would
    /// not hold it (an open container sits where no key is pending) or `root` has nothing
    /// there.
    pub(crate) fn open_slot<'v>(&self, from: usize, root: &'v mut Value) -> Option<&'v mut Value> {
        follow(root, self.open_steps(from)?)
    }

    /// The value the container at stack index `from` would have if the stream stopped now, with
    /// cut values healed or left out as described in the [module documentation](self).
    /// `heal_string(key, text_so_far, enclosing_object)` decides whether a cut string is shown.
    pub(crate) fn snapshot(
        &self,
        from: usize,
        heal_string: impl Fn(&str, &str, &Map<String, Value>) -> bool,
    ) -> Option<Value> {
        if from >= self.stack.len() {
            return None;
        }
        // What the innermost frame gains from the token in progress.
        // Trailing white space of a cut string is not shown (the reference trims the fragment
        // before closing it), so a chunk of spaces changes nothing.
        let cut = self.cut_string(heal_string).map(|(_, text)| text);
        self.snapshot_with(from, cut)
    }

    /// [`PartialJson::snapshot`] with the text of the cut string in progress already known:
    /// `cut` is what [`PartialJson::cut_string`] gives now (with the same judge), so that a
    /// caller that has looked at it spares decoding and judging it again.
    pub(crate) fn snapshot_with(&self, from: usize, cut: Option<String>) -> Option<Value> {
        if from >= self.stack.len() {
            return None;
        }
        let mut carry: Option<Value> = cut.map(Value::String);
        let mut result = None;
        for (i, frame) in self.stack.iter().enumerate().rev() {
            if i < from {
                break;
            }
            let value = match &frame.body {
                Body::Object { map, key, .. } => {
                    let mut map = map.clone();
                    if let (Some(v), Some(k)) = (carry.take(), key) {
                        map.insert(k.clone(), v);
                    }
                    Value::Object(map)
                }
                Body::Array(items) => {
                    let mut items = items.clone();
                    if let Some(v) = carry.take() {
                        items.push(v);
                    }
                    Value::Array(items)
                }
            };
            if i == from {
                result = Some(value);
            } else {
                carry = Some(value);
                // An open container becomes the parent's pending member.
                if let Some(parent) = self.stack.get(i - 1) {
                    if let Body::Object { key: None, .. } = parent.body {
                        carry = None;
                    }
                }
            }
        }
        result
    }
}

/// The text of the body of a cut string (what lies between its opening quote and the cut), as
/// the reference shows it once it closes the string where it was cut: `None` when the body ends
/// inside an escape sequence (`\`, `\u12`), which does not close into JSON; an escaped high
/// surrogate at the end, whose low half has not come yet, is U+FFFD (the reference shows the
/// lone surrogate, which a Rust string cannot hold). Only the end of the body is looked at
/// beyond what decoding it takes.
fn decode_cut(body: &str) -> Option<Cow<'_, str>> {
    let Some(pos) = body.rfind('\\') else {
        return Some(Cow::Borrowed(body));
    };
    let (head, tail) = body.split_at_checked(pos)?;
    let run = 1 + head.bytes().rev().take_while(|&b| b == b'\\').count();
    if run % 2 == 0 {
        // The last backslash is escaped: no escape is cut.
        return decode_body(body, false);
    }
    let escape = tail.get(1..).unwrap_or_default();
    let hex = escape.strip_prefix('u').map(|digits| digits.get(..4));
    match hex {
        None if escape.is_empty() => None,
        Some(None) => None,
        Some(Some(digits)) if escape.len() == 5 => {
            let unit = u16::from_str_radix(digits, 16).ok()?;
            if (0xD800..0xDC00).contains(&unit) {
                let mut text = decode_body(head, false)?.into_owned();
                text.push(char::REPLACEMENT_CHARACTER);
                Some(Cow::Owned(text))
            } else {
                decode_body(body, false)
            }
        }
        _ => decode_body(body, false),
    }
}

/// The value reached from `root` by `path`, if there is one.
pub(crate) fn slot_at<'v>(root: &'v mut Value, path: &[Slot]) -> Option<&'v mut Value> {
    follow(
        root,
        path.iter().map(|step| match step {
            Slot::Key(k) => Some(Some(k.as_str())),
            Slot::Last => Some(None),
        }),
    )
}

/// The value reached from `root` by `steps`, each under a key (`Some`) or to the last item of a
/// list (`None`); `None` when a step is `None` or leads nowhere.
fn follow<'v, 'k>(
    root: &'v mut Value,
    steps: impl Iterator<Item = Option<Option<&'k str>>>,
) -> Option<&'v mut Value> {
    let mut value = root;
    for step in steps {
        value = match step? {
            Some(k) => value.as_object_mut()?.get_mut(k)?,
            None => value.as_array_mut()?.last_mut()?,
        };
    }
    Some(value)
}

/// White space between JSON tokens.
fn is_blank(b: &u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// Whether `text` going on with a string changes what a snapshot shows: only in a string that
/// shows while cut, and only when it is more than white space (trailing white space is not shown).
fn shows_change(shows: bool, text: &str) -> bool {
    shows && !text.trim_end().is_empty()
}

/// Whether the object at stack index `index` records the keys of members put into it in
/// [`Frame::fresh`]: the message and its payload always (a reader looks at them on every visit);
/// deeper objects only once a reader has looked at them (before that, a reader takes all their
/// members at its first look and then drops what was recorded).
fn tracks_fresh(index: usize, visited: bool) -> bool {
    index <= 2 || visited
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Feeds `s` one character at a time.
    fn feed(p: &mut PartialJson, s: &str) -> Vec<Value> {
        let mut out = Vec::new();
        for c in s.chars() {
            feed_char(p, c, &mut out);
        }
        out
    }

    /// Feeds `s` the way the progressive parser does: plain string characters in runs.
    fn feed_in_runs(p: &mut PartialJson, s: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let mut rest = s;
        while let Some(c) = p.next_char(&mut rest) {
            feed_char(p, c, &mut out);
        }
        out
    }

    /// Opens the top-level list at its `[`, then feeds `c`, keeping what it completed.
    fn feed_char(p: &mut PartialJson, c: char, out: &mut Vec<Value>) {
        if !p.in_list() {
            if c == '[' {
                p.open_list();
            }
            return;
        }
        if let Step::Closed { value: Some(v), .. } = p.feed(c, |_| false) {
            out.push(v);
        }
    }

    #[test]
    fn the_stack_reuses_the_boxes_of_popped_frames_and_holds_nothing_in_them() {
        let mut p = PartialJson::with_room();
        let out = feed(&mut p, r#"[{"a": {"b": [1]}}, {"c": {"d": "#);
        assert_eq!(out, vec![json!({"a": {"b": [1]}})]);
        // The list, the message, `c`'s object: the first message's three frames were popped,
        // and two of their boxes went back into use.
        assert_eq!(p.stack.len(), 3);
        assert_eq!(p.stack.spare.len(), 1);
        let boxes: Vec<*const Frame> = p.stack.iter().map(|f| f as *const Frame).collect();
        p.reset();
        assert!(p.stack.is_empty());
        assert_eq!(p.stack.spare.len(), 4);
        assert!(
            p.stack
                .spare
                .iter()
                .all(|f| f.key.is_none() && f.fresh.capacity() == 0)
        );
        // The next frames are those boxes again, the last popped first.
        feed(&mut p, r#"[{"e": {"#);
        let again: Vec<*const Frame> = p.stack.iter().map(|f| f as *const Frame).collect();
        assert_eq!(again, boxes);
        assert_eq!(p.stack.spare.len(), 1);
    }

    #[test]
    fn builds_messages_and_heals_cuttable_strings() {
        let mut p = PartialJson::default();
        let out = feed(
            &mut p,
            r#"[{"a": [1, true, null], "b": {"c": "d\n"}}, {"text": "hel"#,
        );
        assert_eq!(out, vec![json!({"a": [1, true, null], "b": {"c": "d\n"}})]);
        let heal = |k: &str, _: &str, _: &Map<String, Value>| CUTTABLE_KEYS.contains(&k);
        assert_eq!(p.snapshot(1, heal), Some(json!({"text": "hel"})));
        feed(&mut p, r#"lo", "path": "/a"#);
        assert_eq!(p.snapshot(1, heal), Some(json!({"text": "hello"})));
    }

    #[test]
    fn open_containers_show_as_members() {
        let mut p = PartialJson::default();
        feed(&mut p, r#"[{"x": {"y": [1, {"z": 2, "w": 3"#);
        let heal = |_: &str, _: &str, _: &Map<String, Value>| true;
        // The number still being written (3) is left out until it ends.
        assert_eq!(
            p.snapshot(1, heal),
            Some(json!({"x": {"y": [1, {"z": 2}]}}))
        );
        assert_eq!(p.snapshot(3, heal), Some(json!([1, {"z": 2}])));
    }

    #[test]
    fn string_runs_build_what_single_characters_build() {
        let heal = |k: &str, _: &str, _: &Map<String, Value>| CUTTABLE_KEYS.contains(&k);
        let text = r#"[{"text": "héllo \"wörld\" \\ \u00e9", "id": "a b"}, {"text": "cut here  "#;
        let (mut one, mut runs) = (PartialJson::default(), PartialJson::default());
        assert_eq!(feed(&mut one, text), feed_in_runs(&mut runs, text));
        assert_eq!(one.snapshot(1, heal), runs.snapshot(1, heal));
        assert_eq!(runs.snapshot(1, heal), Some(json!({"text": "cut here"})));
        // White space alone changes nothing a snapshot shows; anything else does.
        for (more, changes) in [("   ", false), (" x ", true)] {
            one.dirty = false;
            runs.dirty = false;
            feed(&mut one, more);
            feed_in_runs(&mut runs, more);
            assert_eq!((one.dirty, runs.dirty), (changes, changes), "{more:?}");
        }
        // Outside a string, or at a quote or backslash, nothing is taken.
        assert_eq!(runs.feed_string_run(r#"\n"#), 0);
        assert_eq!(PartialJson::default().feed_string_run("abc"), 0);
    }

    #[test]
    fn quiet_pieces_are_taken_whole_only_when_they_change_nothing() {
        let heal = |k: &str, _: &str, _: &Map<String, Value>| CUTTABLE_KEYS.contains(&k);
        let texts = [
            "[\n  {\n    \"id\": \"card-one\",\n    \"text\": \"Hello  there, wörld <b>\" ,\"n\": 12 }, \n\t{\"k\": \"a\\\"b\"}]",
            "[ {\"label\":   \"   x\", \"path\": \"/a/b\", \"list\": [ \"a\", \"bc d\" ] } ]",
        ];
        let mut taken = 0;
        for text in texts {
            for size in 1..8 {
                let (mut one, mut fast) = (PartialJson::default(), PartialJson::default());
                let (mut out_one, mut out_fast) = (Vec::new(), Vec::new());
                let chars: Vec<char> = text.chars().collect();
                for piece in chars.chunks(size) {
                    let piece: String = piece.iter().collect();
                    one.dirty = false;
                    for c in piece.chars() {
                        feed_char(&mut one, c, &mut out_one);
                    }
                    fast.dirty = false;
                    if fast.absorb_quiet(&piece) {
                        taken += 1;
                        assert!(!one.dirty, "{piece:?} taken whole changed what shows");
                        assert!(!piece.contains('<'));
                    } else {
                        for c in piece.chars() {
                            feed_char(&mut fast, c, &mut out_fast);
                        }
                    }
                    assert_eq!(one.snapshot(1, heal), fast.snapshot(1, heal), "{piece:?}");
                }
                assert_eq!(out_one, out_fast);
            }
        }
        assert!(taken > 40, "only {taken} pieces were quiet");
        // Before the top-level list opens, nothing is taken whole.
        assert!(!PartialJson::default().absorb_quiet("   "));
    }

    #[test]
    fn lists_in_the_top_level_list_hold_messages_and_count_towards_depth() {
        let mut p = PartialJson::default();
        let out = feed(
            &mut p,
            r#"[{"a": 1}, junk [[{"b": 2}], {"c": [3]}], {"d": "#,
        );
        assert_eq!(
            out,
            vec![json!({"a": 1}), json!({"b": 2}), json!({"c": [3]})]
        );
        // The top-level list and the message being written: the inner lists are closed.
        assert_eq!((p.stack.len(), p.depth()), (2, 2));
        feed(&mut p, r#"4}, [[{"e": "#);
        assert_eq!((p.stack.len(), p.depth()), (2, 4));
    }

    #[test]
    fn a_string_cut_inside_an_escape_waits_and_a_lone_high_surrogate_shows_as_replacement() {
        let heal = |_: &str, _: &str, _: &Map<String, Value>| true;
        for (cut, shown) in [
            (r"Line 1\", None),
            (r"Line 1\u00", None),
            (r"Line 1\n", Some("Line 1\n")),
            (r"a\\", Some("a\\")),
            (r"Rocket \ud83d", Some("Rocket \u{FFFD}")),
            (r"Rocket \ud83d\ude80", Some("Rocket \u{1F680}")),
            (r"Rocket \ud83d\u", None),
            (r"\u00e9", Some("\u{e9}")),
        ] {
            let mut p = PartialJson::default();
            feed(&mut p, &format!(r#"[{{"text": "{cut}"#));
            let got = p.cut_string(heal).map(|(_, text)| text);
            assert_eq!(got.as_deref(), shown, "{cut}");
        }
    }

    #[test]
    fn a_member_is_in_progress_from_its_key_to_the_end_of_its_value() {
        let mut p = PartialJson::default();
        let mut in_progress = Vec::new();
        for piece in [
            "[{",
            r#""id""#,
            ":",
            r#" "x""#,
            ",",
            r#" "val"#,
            r#"ue": "#,
            "-4",
            "2",
            ",",
            r#" "t": ["#,
        ] {
            feed(&mut p, piece);
            in_progress.push(p.member_in_progress());
        }
        assert_eq!(
            in_progress,
            [
                false, true, true, false, false, true, true, true, true, false, false
            ]
        );
    }

    #[test]
    fn cut_strings_show_only_under_the_cuttable_keys() {
        let heal = |_: &str, _: &str, _: &Map<String, Value>| true;
        let text = r#"[{"text": "a", "title": "b"#;
        let mut p = PartialJson::default();
        feed(&mut p, text);
        assert_eq!(p.snapshot(1, heal), Some(json!({"text": "a"})));
        let mut p = PartialJson::default();
        p.set_cuttable_keys(Some(vec!["title".to_owned()].into()));
        feed(&mut p, text);
        assert_eq!(
            p.snapshot(1, heal),
            Some(json!({"text": "a", "title": "b"}))
        );
        let mut p = PartialJson::default();
        p.set_cuttable_keys(Some(Vec::new().into()));
        feed(&mut p, r#"[{"text": "a"#);
        assert_eq!(p.snapshot(1, heal), Some(json!({})));
    }

    #[test]
    fn stray_closers_break_only_their_surroundings() {
        let mut p = PartialJson::default();
        let out = feed(&mut p, r#"[{"a": [1}}, {"b": 2}]"#);
        assert_eq!(out, vec![json!({"b": 2})]);
    }
}
