//! Data-model updates split per entry: the `value` of a v0.9 `updateDataModel` and the
//! `contents` of a v0.8 `dataModelUpdate` go out member by member as they close.
//!
//! A renderer *replaces* what is at an update's path (`@a2ui/web_core`: v0.8 sets the path to the
//! map built from `contents`, v0.9 `DataModel.set` replaces the value). So a split never repeats
//! a path: the update's path is first set to an empty container, then each member goes out at its
//! own, longer path the moment it closes, recursing into containers down to
//! [`Config::split_data_depth`](crate::Config::split_data_depth) segments of the data model's
//! pointer. A renderer that applied the pieces holds what the whole update would have left.
//!
//! - v0.9 and later: `{"version":V,"updateDataModel":{"surfaceId":S,"path":P,"value":{}}}` (or
//!   `[]`), then each member at `P/key` (RFC 6901: `~` as `~0`, `/` as `~1`) or `P/index`, its
//!   value the input bytes verbatim.
//! - v0.8: `{"dataModelUpdate":{"surfaceId":S,"path":P,"contents":[]}}`, then each entry at
//!   `P/key`: a `valueMap` entry with its map as `contents`, a scalar entry as
//!   `[{"key":".","valueString":…}]`, the form `web_core` reads as the value at the path itself.
//!
//! Where no faithful split exists the update goes out whole, as before: its path, surface or
//! version arrives after its value, a key cannot be written as a path segment, an entry is not
//! one key with one value, or the message holds other keys. When that is found after pieces went
//! out, or when a message reaches [`Config::max_split_data_entries`](crate::Config) pieces, the
//! rest is not split and the whole update follows the pieces, which leaves the same state.

use crate::MessageKind;

/// Where a piece's bytes come from: the open message's bytes from earlier chunks and the chunk.
pub(crate) trait Source {
    /// The stream bytes `[from, to)` of the open message, as its part from earlier chunks and
    /// its part in the chunk.
    fn parts(&self, from: u64, to: u64) -> (&[u8], &[u8]);
}

/// A piece ready to go out: the JSON text of a standalone message, and where the raw
/// `surfaceId` and `version` strings start in it.
#[derive(Debug)]
pub(crate) struct Piece {
    pub(crate) bytes: Vec<u8>,
    pub(crate) surface_at: usize,
    pub(crate) version_at: Option<usize>,
}

/// The v0.8 entry field whose value is being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Key,
    /// `valueString`, `valueNumber`, `valueBoolean`: the raw field name is kept in `Entry`.
    Scalar,
    Map,
    Other,
}

/// What is known of the v0.8 entry being read.
#[derive(Debug, Default)]
struct Entry {
    /// The decoded `key`, when it was a string.
    key: Option<String>,
    /// Keys seen: `key` and the value fields; anything else makes the entry unsplittable.
    keys: u32,
    values: u32,
    field: Option<Field>,
    /// Raw name of the scalar field (`valueString`, …).
    scalar: &'static str,
    /// Where the region of the value being read starts (just after its key).
    from: u64,
    /// The value's region, once it closed, and whether it is a map.
    value: Option<(u64, u64, bool)>,
    /// Its `valueMap` was split into pieces of its own.
    recursed: bool,
    /// Something in it rules out a faithful split.
    odd: bool,
}

/// One container being split.
#[derive(Debug)]
struct Frame {
    /// Lexer depth of the container's members (v0.9) or entries' fields minus one (v0.8: the
    /// depth inside the entries array).
    depth: usize,
    /// Decoded JSON pointer of the container (`""` for the root).
    pointer: String,
    /// Segments in `pointer`.
    segments: usize,
    /// v0.9: the container is an array (members are indexed).
    array: bool,
    index: usize,
    /// v0.9 object: the decoded key of the member being read (`None` when it was unusable).
    key: Option<String>,
    /// v0.9: where the region of the member being read starts.
    from: u64,
    /// v0.8: the entry being read.
    entry: Entry,
}

/// The split of one data-model update in progress.
#[derive(Debug)]
pub(crate) struct DataSplit {
    v08: bool,
    /// `{"version":V,"updateDataModel":{"surfaceId":S,"path":` or
    /// `{"dataModelUpdate":{"surfaceId":S,"path":`.
    head: Vec<u8>,
    surface_at: usize,
    version_at: Option<usize>,
    frames: Vec<Frame>,
    /// Deepest pointer (in segments) whose container is split into members.
    max_segments: usize,
    /// Pieces this message may still send.
    budget: usize,
    /// The rest is not split; the whole update follows the pieces.
    pub(crate) whole: bool,
    /// What the lexer capture is for.
    capture: Capture,
}

/// What a captured string is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Capture {
    None,
    /// A key of the object being split (v0.9) or of an entry (v0.8).
    Key,
    /// The value of a v0.8 entry's `key`.
    EntryKey,
}

/// Decodes a raw JSON string (quotes included, checked by the lexer).
fn decode(raw: &[u8]) -> Option<String> {
    crate::scan::decode_string(raw).map(std::borrow::Cow::into_owned)
}

/// The pointer an update's path names, when it can be extended faithfully: `""` for the root
/// (`/` or an empty path), else a path that starts with `/` and does not end with one.
fn base_pointer(path: &str) -> Option<String> {
    match path {
        "" | "/" => Some(String::new()),
        p if p.starts_with('/') && !p.ends_with('/') => Some(p.to_owned()),
        _ => None,
    }
}

/// Appends a member's segment to a pointer: RFC 6901 for v0.9; v0.8 paths have no escapes, so a
/// key that cannot stand as a segment there (`/`, `.`) has no path of its own; nor has an empty
/// key in any version.
fn child(pointer: &str, key: &str, v08: bool) -> Option<String> {
    let mut p = String::with_capacity(pointer.len() + key.len() + 1);
    p.push_str(pointer);
    p.push('/');
    if v08 {
        // web_core reads `/`, `.` and `[n]` in a v0.8 key as separators of a path.
        if key.is_empty() || key.contains(['/', '.', '[', ']']) {
            return None;
        }
        p.push_str(key);
    } else {
        // web_core refuses these as segments, while the whole value may hold them as keys. An
        // empty key would make `/` (the root in A2UI) or a path ending in `/`.
        if key.is_empty() || matches!(key, "__proto__" | "constructor" | "prototype") {
            return None;
        }
        for c in key.chars() {
            match c {
                '~' => p.push_str("~0"),
                '/' => p.push_str("~1"),
                c => p.push(c),
            }
        }
    }
    Some(p)
}

/// The bytes of a member's region without what precedes the value (whitespace, `:` or `,`).
pub(crate) fn trim_front<'a>(parts: (&'a [u8], &'a [u8])) -> (&'a [u8], &'a [u8]) {
    let skip = |s: &'a [u8]| {
        let n = s
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b':' | b','))
            .count();
        s.get(n..).unwrap_or_default()
    };
    let earlier = skip(parts.0);
    if earlier.is_empty() {
        (earlier, skip(parts.1))
    } else {
        (earlier, parts.1)
    }
}

impl DataSplit {
    /// Starts splitting the update whose value (v0.9) or `contents` (v0.8) just opened at lexer
    /// depth `depth` (the depth of its members), at stream offset `after` (just past the bracket).
    /// `surface`, `version` and `path` are raw JSON strings. `None` when the path cannot be
    /// extended; otherwise the first piece (the path set to an empty container) is pushed.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn start(
        kind: MessageKind,
        surface: &[u8],
        version: Option<&[u8]>,
        path: &[u8],
        array: bool,
        depth: usize,
        after: u64,
        max_segments: usize,
        budget: usize,
        out: &mut Vec<Piece>,
    ) -> Option<DataSplit> {
        let v08 = kind == MessageKind::DataModelUpdate;
        let pointer = base_pointer(&decode(path)?)?;
        if v08 && pointer.contains(['.', '[', ']']) {
            return None;
        }
        let segments = pointer.matches('/').count();
        if segments >= max_segments || budget == 0 {
            return None;
        }
        let mut head = Vec::with_capacity(64 + surface.len());
        let version_at = match (v08, version) {
            (true, _) => {
                head.extend_from_slice(b"{\"dataModelUpdate\":{\"surfaceId\":");
                None
            }
            (false, Some(v)) => {
                head.extend_from_slice(b"{\"version\":");
                let at = head.len();
                head.extend_from_slice(v);
                head.extend_from_slice(b",\"updateDataModel\":{\"surfaceId\":");
                Some(at)
            }
            (false, None) => return None,
        };
        let surface_at = head.len();
        head.extend_from_slice(surface);
        head.extend_from_slice(b",\"path\":");
        let mut split = DataSplit {
            v08,
            head,
            surface_at,
            version_at,
            frames: Vec::new(),
            max_segments,
            budget,
            whole: false,
            capture: Capture::None,
        };
        split.open(pointer, segments, array || v08, depth, after, out);
        Some(split)
    }

    /// Whether a split is still going on (pieces may still go out).
    pub(crate) fn active(&self) -> bool {
        !self.whole && !self.frames.is_empty()
    }

    /// Lexer depths to report: containers up to the first, strings and scalar ends at the depths
    /// whose bits are set in the second.
    pub(crate) fn reporting(&self, base: usize) -> (usize, u64) {
        let levels = if self.v08 {
            2 * self.max_segments + 2
        } else {
            self.max_segments + 1
        };
        let top = (base + levels).min(62);
        let bits = (base..=top).fold(0u64, |m, d| m | 1 << d);
        (top + 1, bits)
    }

    /// Stops splitting: the whole update follows the pieces.
    fn give_up(&mut self) {
        self.whole = true;
        self.frames.clear();
    }

    /// Pushes the piece setting `pointer` to `value` (given as parts of the input, or literal).
    fn piece(&mut self, pointer: &str, value: (&[u8], &[u8]), out: &mut Vec<Piece>) {
        if self.budget == 0 {
            self.give_up();
            return;
        }
        self.budget -= 1;
        let pointer = if pointer.is_empty() { "/" } else { pointer };
        let Ok(path) = serde_json::to_string(pointer) else {
            self.give_up();
            return;
        };
        let field: &[u8] = if self.v08 {
            b",\"contents\":"
        } else {
            b",\"value\":"
        };
        let mut bytes = Vec::with_capacity(
            self.head.len() + path.len() + field.len() + value.0.len() + value.1.len() + 2,
        );
        bytes.extend_from_slice(&self.head);
        bytes.extend_from_slice(path.as_bytes());
        bytes.extend_from_slice(field);
        bytes.extend_from_slice(value.0);
        bytes.extend_from_slice(value.1);
        bytes.extend_from_slice(b"}}");
        out.push(Piece {
            bytes,
            surface_at: self.surface_at,
            version_at: self.version_at,
        });
    }

    /// A container to split opened: its path is set to an empty one, and a frame is pushed.
    fn open(
        &mut self,
        pointer: String,
        segments: usize,
        array: bool,
        depth: usize,
        after: u64,
        out: &mut Vec<Piece>,
    ) {
        let empty: &[u8] = if array { b"[]" } else { b"{}" };
        self.piece(&pointer, (empty, &[]), out);
        if self.whole {
            return;
        }
        self.frames.push(Frame {
            depth,
            pointer,
            segments,
            array,
            index: 0,
            key: None,
            from: after,
            entry: Entry::default(),
        });
    }

    /// A string began at lexer depth `depth`; returns what to capture of it.
    pub(crate) fn on_string_start(&mut self, depth: usize, key: bool) -> Capture {
        let Some(f) = self.frames.last() else {
            return Capture::None;
        };
        self.capture = match (self.v08, key) {
            (false, true) if depth == f.depth && !f.array => Capture::Key,
            (true, true) if depth == f.depth + 1 => Capture::Key,
            (true, false) if depth == f.depth + 1 && f.entry.field == Some(Field::Key) => {
                Capture::EntryKey
            }
            _ => Capture::None,
        };
        self.capture
    }

    /// A string ended at stream offset `end` (just past its quote), at lexer depth `depth`;
    /// `raw` is the captured string when one was asked for (`None` if it overflowed).
    pub(crate) fn on_string_end(
        &mut self,
        depth: usize,
        key: bool,
        raw: Option<&[u8]>,
        end: u64,
        src: &dyn Source,
        out: &mut Vec<Piece>,
    ) {
        let capture = std::mem::replace(&mut self.capture, Capture::None);
        let v08 = self.v08;
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        match capture {
            Capture::Key if !v08 => {
                f.key = raw.and_then(decode);
                f.from = end;
            }
            Capture::Key => {
                let e = &mut f.entry;
                let name = raw.and_then(|r| r.get(1..r.len().saturating_sub(1)));
                let field = match name.unwrap_or_default() {
                    b"key" => Field::Key,
                    b"valueString" => {
                        e.scalar = "valueString";
                        Field::Scalar
                    }
                    b"valueNumber" => {
                        e.scalar = "valueNumber";
                        Field::Scalar
                    }
                    b"valueBoolean" => {
                        e.scalar = "valueBoolean";
                        Field::Scalar
                    }
                    b"valueMap" => Field::Map,
                    _ => Field::Other,
                };
                match field {
                    Field::Key => e.keys += 1,
                    Field::Scalar | Field::Map => e.values += 1,
                    _ => e.odd = true,
                }
                e.field = Some(field);
                e.from = end;
            }
            Capture::EntryKey => {
                f.entry.key = raw.and_then(decode);
                if f.entry.key.is_none() {
                    f.entry.odd = true;
                }
            }
            Capture::None if key => {}
            Capture::None => {
                if !v08 && depth == f.depth {
                    self.member_end(end, src, out);
                } else if v08 && depth == f.depth + 1 {
                    self.entry_value_end(end, false);
                }
            }
        }
    }

    /// A number or literal ended at stream offset `end`, at lexer depth `depth`.
    pub(crate) fn on_scalar_end(
        &mut self,
        depth: usize,
        end: u64,
        src: &dyn Source,
        out: &mut Vec<Piece>,
    ) {
        let Some(f) = self.frames.last() else {
            return;
        };
        if !self.v08 && depth == f.depth {
            self.member_end(end, src, out);
        } else if self.v08 && depth == f.depth + 1 {
            self.entry_value_end(end, false);
        }
    }

    /// A v0.8 entry's value field ended at `end`.
    fn entry_value_end(&mut self, end: u64, map: bool) {
        if let Some(f) = self.frames.last_mut() {
            let e = &mut f.entry;
            match e.field {
                Some(Field::Scalar) if !map => e.value = Some((e.from, end, false)),
                Some(Field::Map) if map => e.value = Some((e.from, end, true)),
                Some(Field::Key) if e.key.is_none() => e.odd = true,
                Some(Field::Key) => {}
                _ => e.odd = true,
            }
            e.field = None;
        }
    }

    /// A v0.9 member of the top frame ended at `end`: it goes out whole at its own path.
    fn member_end(&mut self, end: u64, src: &dyn Source, out: &mut Vec<Piece>) {
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        let key = if f.array {
            Some(f.index.to_string())
        } else {
            f.key.take()
        };
        let from = std::mem::replace(&mut f.from, end);
        f.index += 1;
        let pointer = key.and_then(|k| child(&f.pointer, &k, false));
        let value = trim_front(src.parts(from, end));
        // A `null` member sets nothing apart: v1.0 reads `null` at a path as "delete".
        let null = [value.0, value.1].concat() == b"null";
        match pointer {
            Some(p) if !null => self.piece(&p, value, out),
            _ => self.give_up(),
        }
    }

    /// A container opened; the lexer is now at depth `depth`, `after` just past the bracket.
    pub(crate) fn on_open(&mut self, object: bool, depth: usize, after: u64, out: &mut Vec<Piece>) {
        let v08 = self.v08;
        let max = self.max_segments;
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        if v08 {
            if depth == f.depth + 1 && object {
                f.entry = Entry::default();
            } else if depth == f.depth + 2 && !object && f.entry.field == Some(Field::Map) {
                let e = &f.entry;
                if e.key.is_some() && !e.odd && e.values == 1 && f.segments + 1 < max {
                    let key = e.key.as_deref().unwrap_or_default();
                    if let Some(p) = child(&f.pointer, key, true) {
                        let segments = f.segments + 1;
                        f.entry.recursed = true;
                        self.open(p, segments, true, depth, after, out);
                    }
                }
            }
            return;
        }
        if depth != f.depth + 1 || f.segments + 1 >= max {
            return;
        }
        let key = if f.array {
            Some(f.index.to_string())
        } else {
            f.key.clone()
        };
        let segments = f.segments + 1;
        match key.and_then(|k| child(&f.pointer, &k, false)) {
            Some(p) => self.open(p, segments, !object, depth, after, out),
            None => self.give_up(),
        }
    }

    /// A container closed; the lexer is back at depth `depth`, `end` just past the bracket.
    pub(crate) fn on_close(
        &mut self,
        depth: usize,
        end: u64,
        src: &dyn Source,
        out: &mut Vec<Piece>,
    ) {
        let v08 = self.v08;
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        if depth + 1 == f.depth {
            // The container of the top frame closed: its members all went out.
            self.frames.pop();
            if let Some(parent) = self.frames.last_mut() {
                if v08 {
                    parent.entry.value = Some((parent.entry.from, end, true));
                    parent.entry.field = None;
                } else {
                    parent.from = end;
                    parent.index += 1;
                    parent.key = None;
                }
            }
            return;
        }
        if !v08 {
            if depth == f.depth {
                self.member_end(end, src, out);
            }
            return;
        }
        if depth == f.depth + 1 && f.entry.field == Some(Field::Map) {
            self.entry_value_end(end, true);
        } else if depth == f.depth {
            self.entry_end(src, out);
        }
    }

    /// A v0.8 entry closed: unless its map went out in pieces, it goes out at its own path.
    fn entry_end(&mut self, src: &dyn Source, out: &mut Vec<Piece>) {
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        let e = std::mem::take(&mut f.entry);
        if e.recursed && !e.odd && e.keys == 1 && e.values == 1 {
            return;
        }
        let (Some(key), Some((from, to, map)), false, 1, 1) =
            (e.key, e.value, e.odd, e.keys, e.values)
        else {
            self.give_up();
            return;
        };
        let Some(pointer) = child(&f.pointer, &key, true) else {
            self.give_up();
            return;
        };
        let value = trim_front(src.parts(from, to));
        if map {
            self.piece(&pointer, value, out);
        } else {
            let mut v = Vec::with_capacity(value.0.len() + value.1.len() + 32);
            v.extend_from_slice(b"[{\"key\":\".\",\"");
            v.extend_from_slice(e.scalar.as_bytes());
            v.extend_from_slice(b"\":");
            v.extend_from_slice(value.0);
            v.extend_from_slice(value.1);
            v.extend_from_slice(b"}]");
            self.piece(&pointer, (&v, &[]), out);
        }
    }
}
