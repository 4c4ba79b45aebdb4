//! The hot path: a resumable, validating JSON lexer over bytes.
//!
//! [`Lexer::next`] walks a chunk and stops only at the tokens the splitter cares about (containers
//! opening and closing, strings starting and ending, scalars ending). Everything else — string
//! interiors, whitespace, digits, literal letters — is consumed in place. All state (the container
//! stack, whether we are inside a string or an escape, a half-read UTF-8 character, a half-read
//! number) lives in the lexer, so a chunk boundary may fall anywhere and no byte is ever looked at
//! twice. String interiors are skipped with `memchr2` and checked for control characters and UTF-8
//! in one pass over the skipped span.
//!
//! Why one file: the lexer is one state machine whose `next` is a single `match` over its
//! states, read best whole.

use crate::ErrorKind;
use memchr::memchr2;
use std::borrow::Cow;

/// The text of a JSON string the lexer has checked, from its raw bytes (quotes included):
/// borrowed when it has no escapes, decoded otherwise.
/// A raw control character (read by a [lenient](Lexer::lenient) lexer) stays as it is.
pub(crate) fn decode_string(raw: &[u8]) -> Option<Cow<'_, str>> {
    let inner = raw.get(1..raw.len().checked_sub(1)?)?;
    if inner.contains(&b'\\') {
        decode_json_string(raw).map(Cow::Owned)
    } else {
        std::str::from_utf8(inner).ok().map(Cow::Borrowed)
    }
}

/// A JSON string (quotes included) with escapes, decoded; one holding raw control characters (as
/// a [lenient](Lexer::lenient) lexer reads them) is decoded after its [`repair`], and only then,
/// so that strict input pays nothing for it.
fn decode_json_string(raw: &[u8]) -> Option<String> {
    serde_json::from_slice::<String>(raw)
        .ok()
        .or_else(|| serde_json::from_slice::<String>(&repair(raw)).ok())
}

/// What a [lenient](Lexer::lenient) lexer read, made valid JSON with the same value: each comma
/// before a closing bracket left out, each raw control character (below U+0020) inside a string
/// written as a `\u00XX` escape. Borrowed when there is nothing to repair.
pub(crate) fn repair(json: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut i = 0;
    // The byte at `at` written as `with`.
    let fix = |out: &mut Option<Vec<u8>>, copied: &mut usize, at: usize, with: &[u8]| {
        let buf = out.get_or_insert_with(Vec::new);
        buf.extend_from_slice(json.get(*copied..at).unwrap_or_default());
        buf.extend_from_slice(with);
        *copied = at + 1;
    };
    while let Some(at) = json
        .get(i..)
        .and_then(|rest| crate::find::find_either(b'"', b',', rest))
    {
        i += at;
        if json.get(i) == Some(&b'"') {
            let start = i + 1;
            let mut escaped = false;
            let end = crate::find::string_end(json.get(start..).unwrap_or_default(), &mut escaped)
                .map_or(json.len(), |end| start + end);
            for (k, &b) in json.get(start..end).unwrap_or_default().iter().enumerate() {
                if b < 0x20 {
                    fix(
                        &mut out,
                        &mut copied,
                        start + k,
                        format!("\\u{b:04x}").as_bytes(),
                    );
                }
            }
            i = end + 1;
            continue;
        }
        let rest = json.get(i + 1..).unwrap_or_default();
        if rest
            .iter()
            .find(|c| !is_ws(**c))
            .is_some_and(|c| matches!(c, b'}' | b']'))
        {
            fix(&mut out, &mut copied, i, b"");
        }
        i += 1;
    }
    match out {
        None => Cow::Borrowed(json),
        Some(mut buf) => {
            buf.extend_from_slice(json.get(copied..).unwrap_or_default());
            Cow::Owned(buf)
        }
    }
}

#[cfg(feature = "official")]
/// The text of a string's body (what lies between its quotes) as written so far. With `cut`,
/// the body may end inside an escape sequence (`\`, `\u12`), which is left out.
pub(crate) fn decode_body(body: &str, cut: bool) -> Option<Cow<'_, str>> {
    if !body.contains('\\') {
        return Some(Cow::Borrowed(body));
    }
    let body = if cut { without_cut_escape(body) } else { body };
    let mut quoted = Vec::with_capacity(body.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(body.as_bytes());
    quoted.push(b'"');
    decode_json_string(&quoted).map(Cow::Owned)
}

#[cfg(feature = "official")]
/// `body` without an escape sequence its end cut short.
fn without_cut_escape(body: &str) -> &str {
    let Some(pos) = body.rfind('\\') else {
        return body;
    };
    let (head, tail) = body.split_at_checked(pos).unwrap_or((body, ""));
    let backslashes = 1 + head.bytes().rev().take_while(|&b| b == b'\\').count();
    let tail = tail.get(1..).unwrap_or("");
    let cut =
        backslashes % 2 == 1 && (tail.is_empty() || (tail.starts_with('u') && tail.len() < 5));
    if cut { head } else { body }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The eight bytes of `b` from `at` as a little-endian word. Callers check that they are there
/// (`at + 8 <= b.len()`); past the end the word is zero.
#[inline(always)]
fn word(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8)
        .and_then(|w| <[u8; 8]>::try_from(w).ok())
        .map_or(0, u64::from_le_bytes)
}

/// Bytes of `w` below 0x20 or above 0x7F (the lowest flagged byte is exact).
#[inline]
fn control_or_high(w: u64) -> u64 {
    (w.wrapping_sub(ONES * 0x20) & !w & HIGHS) | (w & HIGHS)
}

/// Bytes of `w` equal to `c` (the lowest flagged byte is exact).
#[inline]
fn equal(w: u64, c: u8) -> u64 {
    let x = w ^ (ONES * c as u64);
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The first byte at or after `p` inside a string that needs a look: `"`, `\`, a control byte or
/// a non-ASCII byte (or `buf.len()`). Short strings are checked a word at a time; past 16 bytes
/// `memchr2` finds the end and the span before it is checked a word at a time.
#[inline]
fn scan_string(buf: &[u8], mut p: usize) -> usize {
    for _ in 0..2 {
        if p + 8 > buf.len() {
            break;
        }
        let w = word(buf, p);
        let m = control_or_high(w) | equal(w, b'"') | equal(w, b'\\');
        if m != 0 {
            return p + (m.trailing_zeros() / 8) as usize;
        }
        p += 8;
    }
    let rest = buf.get(p..).unwrap_or_default();
    if rest.len() < crate::find::SHORT {
        // Too short for memchr2 to pay for its call.
        return rest
            .iter()
            .position(|&b| matches!(b, b'"' | b'\\' | 0..=0x1F | 0x80..=0xFF))
            .map_or(buf.len(), |k| p + k);
    }
    let end = memchr2(b'"', b'\\', rest).map_or(buf.len(), |k| p + k);
    while p + 8 <= end {
        let m = control_or_high(word(buf, p));
        if m != 0 {
            return p + (m.trailing_zeros() / 8) as usize;
        }
        p += 8;
    }
    buf.get(p..end)
        .unwrap_or_default()
        .iter()
        .position(|&b| !(0x20..0x80).contains(&b))
        .map_or(end, |k| p + k)
}

/// Skips JSON whitespace. Runs of spaces (indentation) go eight bytes at a time: the first byte
/// that is not a space is the lowest non-zero byte of the word XOR eight spaces.
#[inline]
fn skip_ws(buf: &[u8], pos: &mut usize) {
    let mut p = *pos;
    loop {
        if p + 8 <= buf.len() {
            let x = word(buf, p) ^ (ONES * 0x20);
            if x == 0 {
                p += 8;
                continue;
            }
            p += (x.trailing_zeros() / 8) as usize;
        }
        match buf.get(p) {
            Some(&b) if is_ws(b) => p += 1,
            _ => break,
        }
    }
    *pos = p;
}

/// What [`Lexer::next`] stopped at. After a token, the position points just past its last byte;
/// after [`Tok::Err`], at the offending byte (not consumed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    ObjOpen,
    ArrOpen,
    ObjClose,
    ArrClose,
    /// A string began (its opening quote was consumed). [`Lexer::in_key`] tells whether it is a key.
    StrStart,
    /// A string ended (its closing quote was consumed).
    StrEnd,
    /// A number or literal (`true`, `false`, `null`) ended just before the position: reported
    /// only at the depths set with [`Lexer::report_scalars`].
    ScalarEnd,
    /// The chunk is exhausted; feed more.
    End,
    /// The grammar was broken at the current position.
    Err(ErrorKind),
}

#[cfg(feature = "official")]
/// Where the input stopped (see [`Lexer::cut`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cut {
    /// Between tokens: closing the open containers makes the value read so far whole.
    Clean,
    /// Inside a string value (not a key).
    InValueString,
    /// Inside a key, a number or a literal, or after a key before its value.
    Unfinished,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpInt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    /// A value must come (after `:` or `,` in an array).
    Value,
    /// After `[`: a value or `]`.
    ValueOrClose,
    /// After `{`: a key or `}`.
    KeyOrClose,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value: `,` or the closing bracket.
    Comma,
    Str,
    Esc,
    /// Inside `\uXXXX`, `n` digits read; `low` when this escape must be a low surrogate.
    Uni {
        n: u8,
        low: bool,
    },
    /// After a high surrogate escape: `\` must follow.
    LowBackslash,
    /// After a high surrogate escape and `\`: `u` must follow.
    LowU,
    Num(Num),
    Lit {
        word: &'static [u8],
        at: u8,
    },
    /// A curly double quote begun where a key (`key`) or a value must come, its first bytes
    /// cut by the end of a chunk (they wait in `utf8`): a [lenient](Lexer::lenient) lexer reads
    /// it as a quote.
    Quote {
        key: bool,
    },
    /// The top-level value is complete.
    Done,
}

/// `“` and `”` in UTF-8: a [lenient](Lexer::lenient) lexer reads them as JSON quotes.
const CURLY_DOUBLE: [[u8; 3]; 2] = [[0xE2, 0x80, 0x9C], [0xE2, 0x80, 0x9D]];
/// `‘` and `’` in UTF-8: inside the strings of a [straightened](Lexer::straightened) block they
/// stand for `'`.
const CURLY_SINGLE: [[u8; 3]; 2] = [[0xE2, 0x80, 0x98], [0xE2, 0x80, 0x99]];

fn curly_double(c: &[u8]) -> bool {
    CURLY_DOUBLE.iter().any(|q| q == c)
}

/// `bytes` with every curly quote straightened: `“` and `”` as `"`, `‘` and `’` as `'`, as the
/// official SDK reads a block that uses curly quotes for JSON quotes. Borrowed when there is none.
pub(crate) fn straighten(bytes: &[u8]) -> Cow<'_, [u8]> {
    let curly = |at: usize| {
        let c = bytes.get(at..at + 3)?;
        if curly_double(c) {
            Some(b'"')
        } else if CURLY_SINGLE.iter().any(|q| q == c) {
            Some(b'\'')
        } else {
            None
        }
    };
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut from = 0;
    while let Some(k) = bytes
        .get(from..)
        .and_then(|rest| memchr::memchr(0xE2, rest))
    {
        let at = from + k;
        from = at + 1;
        if let Some(quote) = curly(at) {
            let buf = out.get_or_insert_with(Vec::new);
            buf.extend_from_slice(bytes.get(copied..at).unwrap_or_default());
            buf.push(quote);
            copied = at + 3;
            from = copied;
        }
    }
    match out {
        None => Cow::Borrowed(bytes),
        Some(mut buf) => {
            buf.extend_from_slice(bytes.get(copied..).unwrap_or_default());
            Cow::Owned(buf)
        }
    }
}

/// Most bytes kept of a captured key: a longer one is marked as overflowed and matches no key
/// the splitter looks for. (String values are captured up to the limit their caller gives.)
pub(crate) const KEY_CAPTURE_LIMIT: usize = 4096;

#[derive(Debug)]
pub(crate) struct Lexer {
    stack: Vec<u8>,
    max_depth: usize,
    st: St,
    key: bool,
    hex: u16,
    /// Raw bytes (quotes included) of the string being captured.
    cap: Vec<u8>,
    capturing: bool,
    cap_overflow: bool,
    /// Most bytes kept of the string being captured.
    cap_limit: usize,
    /// A UTF-8 character cut by the end of a chunk.
    utf8: [u8; 4],
    utf8_have: u8,
    /// See [`Lexer::take_back`].
    back: usize,
    /// Containers are reported while they leave the depth at most this (see [`Lexer::report`]).
    report_depth: usize,
    /// Bit `d` set: strings at depth `d` are reported.
    string_depths: u64,
    /// Bit `d` set: the ends of numbers and literals at depth `d` are reported.
    scalar_depths: u64,
    /// The digits of the number being read (to reject numbers `serde_json` cannot hold).
    num: Vec<u8>,
    /// Reads what models write and the official SDK's reader accepts: a comma before a closing
    /// bracket, and raw control characters inside strings (see [`Lexer::lenient`]).
    lenient: bool,
    /// Whether the lenient reading was needed since the last [`Lexer::begin_object`].
    tolerated: bool,
    /// A curly double quote stood for a JSON quote in this block (see [`Lexer::straightened`]).
    straight: bool,
    /// A curly double quote stood inside a string of this block before it was straightened.
    curly_inside: bool,
    /// The width of the quote that opened the string being read: 1, or 3 for a curly one.
    opened: u8,
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn utf8_width(lead: u8) -> u8 {
    match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 1,
    }
}

impl Lexer {
    pub(crate) fn new(max_depth: usize) -> Self {
        Lexer {
            stack: Vec::new(),
            max_depth: max_depth.max(1),
            st: St::Done,
            key: false,
            hex: 0,
            cap: Vec::new(),
            capturing: false,
            cap_overflow: false,
            cap_limit: KEY_CAPTURE_LIMIT,
            utf8: [0; 4],
            utf8_have: 0,
            back: 0,
            report_depth: usize::MAX,
            string_depths: u64::MAX,
            scalar_depths: 0,
            num: Vec::new(),
            lenient: false,
            tolerated: false,
            straight: false,
            curly_inside: false,
            opened: 1,
        }
    }

    /// Accepts, from now on, a comma before `}` or `]`, raw control characters (below U+0020)
    /// inside strings and curly double quotes for JSON quotes, as the official SDK's direct-JSON
    /// reader does; a caller that hands the bytes on makes them valid JSON ([`repair`]).
    /// [`Lexer::tolerated`] tells whether it had to.
    ///
    /// Curly quotes follow the SDK, which straightens every curly quote of a block that does
    /// not read: from the first `“` or `”` that stands where JSON wants a quote, the block is
    /// [straightened](Lexer::straightened) (a curly double quote ends a string, `‘` and `’` in a
    /// string read as `'`). A block whose earlier strings hold a curly double quote cannot be
    /// straightened (its strings would break, as they do for the SDK): the quote is an error.
    pub(crate) fn lenient(&mut self) {
        self.lenient = true;
    }

    /// Starts a new block: curly quotes read as in strict blocks again (see [`Lexer::lenient`]).
    pub(crate) fn begin_block(&mut self) {
        self.straight = false;
        self.curly_inside = false;
    }

    /// Whether this block uses curly double quotes for JSON quotes (see [`Lexer::lenient`]): its
    /// strings are read, and their bytes are to be decoded, [straightened](straighten).
    pub(crate) fn straightened(&self) -> bool {
        self.straight
    }

    /// The width of the quote that opened the string being read (or just ended): 1, or 3 for a
    /// curly one.
    #[cfg(feature = "official")]
    pub(crate) fn quote_width(&self) -> usize {
        usize::from(self.opened)
    }

    /// Whether the top-level value begun with the last [`Lexer::begin_object`] needed the
    /// [lenient](Lexer::lenient) reading, so that its bytes need a [`repair`].
    pub(crate) fn tolerated(&self) -> bool {
        self.tolerated
    }

    /// Limits what [`Lexer::next`] stops at: containers opening to, or closing back to, a depth of
    /// at most `containers`, and strings at the depths whose bits are set in `strings`. Everything
    /// deeper is consumed in place, which keeps the token count (and the caller's work) down.
    pub(crate) fn report(&mut self, containers: usize, strings: u64) {
        self.report_depth = containers;
        self.string_depths = strings;
    }

    /// Reports the ends of numbers and literals at the depths whose bits are set in `depths`
    /// ([`Tok::ScalarEnd`]); none by default.
    pub(crate) fn report_scalars(&mut self, depths: u64) {
        self.scalar_depths = depths;
    }

    #[inline(always)]
    fn reports_scalars(&self) -> bool {
        self.scalar_depths & (1u64 << self.stack.len().min(63)) != 0
    }

    #[inline(always)]
    fn reports_containers(&self) -> bool {
        // Opening: the new depth; closing: one less than the closed container's depth.
        self.stack.len() <= self.report_depth
    }

    #[inline(always)]
    fn reports_strings(&self) -> bool {
        self.string_depths & (1u64 << self.stack.len().min(63)) != 0
    }

    /// Starts a new top-level object; the caller has consumed its `{`.
    pub(crate) fn begin_object(&mut self) {
        self.stack.clear();
        self.stack.push(b'{');
        self.st = St::KeyOrClose;
        self.utf8_have = 0;
        self.capturing = false;
        self.tolerated = false;
    }

    /// Nesting depth (1 inside the top-level object).
    #[inline]
    pub(crate) fn depth(&self) -> usize {
        self.stack.len()
    }

    #[cfg(feature = "official")]
    /// Where the input stopped, for a reader that shows the value as it stands: between tokens
    /// where the value read so far is whole once its containers are closed, inside a string
    /// value, or somewhere nothing can be closed early (a key, a number, a literal, a key
    /// waiting for its value).
    pub(crate) fn cut(&self) -> Cut {
        match self.st {
            St::KeyOrClose | St::Key | St::Comma | St::ValueOrClose | St::Done => Cut::Clean,
            St::Value if self.stack.last() == Some(&b'[') => Cut::Clean,
            St::Str | St::Esc | St::Uni { .. } | St::LowBackslash | St::LowU if !self.key => {
                Cut::InValueString
            }
            _ => Cut::Unfinished,
        }
    }

    /// Whether the string being read (or just ended) is an object key.
    #[inline]
    pub(crate) fn in_key(&self) -> bool {
        self.key
    }

    /// Keeps the raw bytes of the string that just started (call right after [`Tok::StrStart`]),
    /// quotes included, up to `limit` bytes.
    pub(crate) fn capture(&mut self, limit: usize) {
        self.capturing = true;
        self.cap_overflow = false;
        self.cap_limit = limit;
        if self.cap.capacity() > KEY_CAPTURE_LIMIT {
            // The room of a long value is not kept for the strings after it.
            self.cap = Vec::new();
        }
        self.cap.clear();
        self.cap.push(b'"');
    }

    /// The captured string's raw bytes, quotes included; `None` if it overflowed the limit.
    /// Valid after [`Tok::StrEnd`]; ends the capture.
    pub(crate) fn take_capture(&mut self) -> Option<&[u8]> {
        let was = std::mem::replace(&mut self.capturing, false);
        (was && !self.cap_overflow).then_some(self.cap.as_slice())
    }

    #[inline(always)]
    fn cap_push(&mut self, bytes: &[u8]) {
        if self.capturing {
            if self.cap.len() + bytes.len() > self.cap_limit {
                self.cap_overflow = true;
            } else {
                self.cap.extend_from_slice(bytes);
            }
        }
    }

    #[inline]
    fn after_value(&mut self) {
        self.st = match self.stack.last() {
            None => St::Done,
            Some(_) => St::Comma,
        };
    }

    fn push(&mut self, kind: u8) -> Result<(), ErrorKind> {
        if self.stack.len() >= self.max_depth {
            return Err(ErrorKind::TooDeep {
                limit: self.max_depth,
            });
        }
        self.stack.push(kind);
        self.st = if kind == b'{' {
            St::KeyOrClose
        } else {
            St::ValueOrClose
        };
        Ok(())
    }

    /// Completes a UTF-8 character cut by the previous chunk end. `None` when done and valid.
    /// An invalid character is reported at its first byte, wherever the cut fell.
    fn finish_cut_char(&mut self, buf: &[u8], pos: &mut usize) -> Option<Tok> {
        let width = utf8_width(self.utf8[0]) as usize;
        while (self.utf8_have as usize) < width {
            let &b = buf.get(*pos)?;
            if b & 0xC0 != 0x80 {
                self.back = self.utf8_have as usize;
                self.utf8_have = 0;
                return Some(Tok::Err(ErrorKind::InvalidUtf8));
            }
            if let Some(slot) = self.utf8.get_mut(self.utf8_have as usize) {
                *slot = b;
            }
            self.utf8_have += 1;
            self.cap_push(&[b]);
            *pos += 1;
        }
        self.utf8_have = 0;
        if self
            .utf8
            .get(..width)
            .is_none_or(|c| std::str::from_utf8(c).is_err())
        {
            self.back = width;
            return Some(Tok::Err(ErrorKind::InvalidUtf8));
        }
        None
    }

    /// After [`Tok::Err`]: how many bytes before the reported position the error really began
    /// (a cut UTF-8 character starts in an earlier chunk). Resets to 0.
    pub(crate) fn take_back(&mut self) -> usize {
        std::mem::take(&mut self.back)
    }

    fn end_number(&mut self) -> Result<(), ErrorKind> {
        // Integers of up to 18 digits always fit; anything else must be a finite f64 for serde_json.
        let plain =
            self.num.len() <= 18 && self.num.iter().all(|&b| b == b'-' || b.is_ascii_digit());
        if !plain {
            let finite = std::str::from_utf8(&self.num)
                .ok()
                .and_then(|s| s.parse::<f64>().ok())
                .is_some_and(f64::is_finite);
            if !finite {
                return Err(ErrorKind::NumberOutOfRange);
            }
        }
        self.after_value();
        Ok(())
    }

    /// Begins the value starting with `b`: `Some(token)` for a token to report, `None` when the
    /// value (a number or literal) continues in place.
    #[inline]
    fn start_value(&mut self, b: u8, pos: &mut usize) -> Option<Tok> {
        match b {
            b'{' => match self.push(b'{') {
                Ok(()) => {
                    *pos += 1;
                    self.reports_containers().then_some(Tok::ObjOpen)
                }
                Err(e) => Some(Tok::Err(e)),
            },
            b'[' => match self.push(b'[') {
                Ok(()) => {
                    *pos += 1;
                    self.reports_containers().then_some(Tok::ArrOpen)
                }
                Err(e) => Some(Tok::Err(e)),
            },
            b'"' => {
                *pos += 1;
                self.key = false;
                self.opened = 1;
                self.st = St::Str;
                self.reports_strings().then_some(Tok::StrStart)
            }
            b'-' | b'0'..=b'9' => {
                self.num.clear();
                self.num.push(b);
                *pos += 1;
                self.st = St::Num(match b {
                    b'-' => Num::Minus,
                    b'0' => Num::Zero,
                    _ => Num::Int,
                });
                None
            }
            b't' | b'f' | b'n' => {
                let word: &'static [u8] = match b {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                *pos += 1;
                self.st = St::Lit { word, at: 1 };
                None
            }
            _ => Some(Tok::Err(ErrorKind::UnexpectedByte {
                byte: b,
                expected: "a value",
            })),
        }
    }

    /// Advances through `buf` from `*pos` to the next token of interest.
    #[inline]
    pub(crate) fn next(&mut self, buf: &[u8], pos: &mut usize) -> Tok {
        loop {
            if matches!(
                self.st,
                St::Comma | St::Colon | St::Key | St::KeyOrClose | St::Value | St::ValueOrClose
            ) {
                skip_ws(buf, pos);
            }
            let Some(&b) = buf.get(*pos) else {
                return Tok::End;
            };
            match self.st {
                St::Str => {
                    if self.utf8_have > 0 {
                        if let Some(tok) = self.finish_cut_char(buf, pos) {
                            return tok;
                        }
                        let [a, b, c, _] = self.utf8;
                        // Still cut (`utf8_have` > 0): the rest comes with the next chunk.
                        if self.utf8_have == 0 && self.lenient && self.curly_closes(&[a, b, c]) {
                            if let Some(tok) = self.string_closed(buf, pos) {
                                return tok;
                            }
                            continue;
                        }
                    }
                    let q = scan_string(buf, *pos);
                    self.cap_push(buf.get(*pos..q).unwrap_or_default());
                    *pos = q;
                    let Some(&b) = buf.get(q) else {
                        return Tok::End;
                    };
                    match b {
                        b'"' => {
                            self.cap_push(b"\"");
                            *pos += 1;
                            if let Some(tok) = self.string_closed(buf, pos) {
                                return tok;
                            }
                        }
                        b'\\' => {
                            self.cap_push(b"\\");
                            *pos += 1;
                            self.st = St::Esc;
                        }
                        0..=0x1F if self.lenient => {
                            self.tolerated = true;
                            self.cap_push(&[b]);
                            *pos += 1;
                        }
                        0..=0x1F => return Tok::Err(ErrorKind::ControlCharacterInString),
                        _ => {
                            let width = utf8_width(b) as usize;
                            let got = buf.get(q..(q + width).min(buf.len())).unwrap_or_default();
                            let Some((_, continuation)) = got.split_first() else {
                                return Tok::Err(ErrorKind::InvalidUtf8);
                            };
                            if width == 1 || continuation.iter().any(|&c| c & 0xC0 != 0x80) {
                                return Tok::Err(ErrorKind::InvalidUtf8);
                            }
                            if got.len() < width {
                                // Cut by the end of the chunk: finished by the next one.
                                if let Some(kept) = self.utf8.get_mut(..got.len()) {
                                    kept.copy_from_slice(got);
                                }
                                self.utf8_have = got.len() as u8;
                                self.cap_push(got);
                                *pos = buf.len();
                                return Tok::End;
                            }
                            if std::str::from_utf8(got).is_err() {
                                return Tok::Err(ErrorKind::InvalidUtf8);
                            }
                            self.cap_push(got);
                            *pos += width;
                            if width == 3 && self.lenient && self.curly_closes(got) {
                                if let Some(tok) = self.string_closed(buf, pos) {
                                    return tok;
                                }
                            }
                        }
                    }
                }
                St::Esc => {
                    self.st = match b {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => St::Str,
                        b'u' => {
                            self.hex = 0;
                            St::Uni { n: 0, low: false }
                        }
                        _ => return Tok::Err(ErrorKind::InvalidEscape),
                    };
                    self.cap_push(&[b]);
                    *pos += 1;
                }
                St::Uni { n, low } => {
                    let Some(d) = (b as char).to_digit(16) else {
                        return Tok::Err(ErrorKind::InvalidEscape);
                    };
                    self.hex = (self.hex << 4) | d as u16;
                    self.cap_push(&[b]);
                    *pos += 1;
                    if n < 3 {
                        self.st = St::Uni { n: n + 1, low };
                        continue;
                    }
                    let is_high = (0xD800..0xDC00).contains(&self.hex);
                    let is_low = (0xDC00..0xE000).contains(&self.hex);
                    self.st = match (low, is_high, is_low) {
                        (true, _, true) => St::Str,
                        (true, _, false) => {
                            *pos -= 1;
                            return Tok::Err(ErrorKind::InvalidEscape);
                        }
                        (false, true, _) => St::LowBackslash,
                        (false, _, true) => {
                            *pos -= 1;
                            return Tok::Err(ErrorKind::InvalidEscape);
                        }
                        _ => St::Str,
                    };
                }
                St::LowBackslash | St::LowU => {
                    let want = if self.st == St::LowBackslash {
                        b'\\'
                    } else {
                        b'u'
                    };
                    if b != want {
                        return Tok::Err(ErrorKind::InvalidEscape);
                    }
                    self.cap_push(&[b]);
                    *pos += 1;
                    if self.st == St::LowBackslash {
                        self.st = St::LowU;
                    } else {
                        self.hex = 0;
                        self.st = St::Uni { n: 0, low: true };
                    }
                }
                St::Comma => {
                    if is_ws(b) {
                        *pos += 1;
                        continue;
                    }
                    let top = self.stack.last().copied();
                    match (b, top) {
                        (b',', Some(b'{')) => {
                            *pos += 1;
                            self.st = St::Key;
                        }
                        (b',', Some(_)) => {
                            *pos += 1;
                            self.st = St::Value;
                        }
                        (b'}', Some(b'{')) | (b']', Some(b'[')) => {
                            *pos += 1;
                            self.stack.pop();
                            self.after_value();
                            return if b == b'}' {
                                Tok::ObjClose
                            } else {
                                Tok::ArrClose
                            };
                        }
                        _ => {
                            let expected = if top == Some(b'{') {
                                "',' or '}'"
                            } else {
                                "',' or ']'"
                            };
                            return Tok::Err(ErrorKind::UnexpectedByte { byte: b, expected });
                        }
                    }
                }
                St::Colon => {
                    if is_ws(b) {
                        *pos += 1;
                    } else if b == b':' {
                        *pos += 1;
                        self.st = St::Value;
                    } else {
                        return Tok::Err(ErrorKind::UnexpectedByte {
                            byte: b,
                            expected: "':'",
                        });
                    }
                }
                St::KeyOrClose | St::Key => {
                    if is_ws(b) {
                        *pos += 1;
                    } else if b == b'"' {
                        *pos += 1;
                        self.key = true;
                        self.opened = 1;
                        self.st = St::Str;
                        if self.reports_strings() {
                            return Tok::StrStart;
                        }
                    } else if b == 0xE2 && self.lenient {
                        if let Some(tok) = self.curly_quote(buf, pos, true) {
                            return tok;
                        }
                    } else if b == b'}' && (self.st == St::KeyOrClose || self.lenient) {
                        self.tolerated |= self.st == St::Key;
                        *pos += 1;
                        self.stack.pop();
                        self.after_value();
                        if self.reports_containers() {
                            return Tok::ObjClose;
                        }
                    } else {
                        let expected = if self.st == St::Key {
                            "a string key"
                        } else {
                            "a string key or '}'"
                        };
                        return Tok::Err(ErrorKind::UnexpectedByte { byte: b, expected });
                    }
                }
                St::Value | St::ValueOrClose => {
                    if is_ws(b) {
                        *pos += 1;
                    } else if b == b']'
                        && (self.st == St::ValueOrClose
                            || (self.lenient && self.stack.last() == Some(&b'[')))
                    {
                        self.tolerated |= self.st == St::Value;
                        *pos += 1;
                        self.stack.pop();
                        self.after_value();
                        if self.reports_containers() {
                            return Tok::ArrClose;
                        }
                    } else if b == 0xE2 && self.lenient {
                        if let Some(tok) = self.curly_quote(buf, pos, false) {
                            return tok;
                        }
                    } else if let Some(tok) = self.start_value(b, pos) {
                        return tok;
                    }
                }
                St::Num(n) => {
                    let next = match (n, b) {
                        (Num::Minus, b'0') => Some(Num::Zero),
                        (Num::Minus, b'1'..=b'9') => Some(Num::Int),
                        (Num::Int, b'0'..=b'9') => Some(Num::Int),
                        (Num::Zero | Num::Int, b'.') => Some(Num::Dot),
                        (Num::Dot | Num::Frac, b'0'..=b'9') => Some(Num::Frac),
                        (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Some(Num::Exp),
                        (Num::Exp, b'+' | b'-') => Some(Num::ExpSign),
                        (Num::Exp | Num::ExpSign | Num::ExpInt, b'0'..=b'9') => Some(Num::ExpInt),
                        _ => None,
                    };
                    match next {
                        Some(n) => {
                            self.num.push(b);
                            *pos += 1;
                            self.st = St::Num(n);
                        }
                        None if matches!(n, Num::Zero | Num::Int | Num::Frac | Num::ExpInt) => {
                            // The number ended at `b`, which is not consumed.
                            if let Err(e) = self.end_number() {
                                return Tok::Err(e);
                            }
                            if self.reports_scalars() {
                                return Tok::ScalarEnd;
                            }
                        }
                        None => {
                            return Tok::Err(ErrorKind::UnexpectedByte {
                                byte: b,
                                expected: "a digit",
                            });
                        }
                    }
                }
                St::Lit { word, at } => {
                    if word.get(at as usize) != Some(&b) {
                        return Tok::Err(ErrorKind::UnexpectedByte {
                            byte: b,
                            expected: "a literal (true, false or null)",
                        });
                    }
                    *pos += 1;
                    if at as usize + 1 == word.len() {
                        self.after_value();
                        if self.reports_scalars() {
                            return Tok::ScalarEnd;
                        }
                    } else {
                        self.st = St::Lit { word, at: at + 1 };
                    }
                }
                St::Quote { key } => {
                    if let Some(tok) = self.curly_quote(buf, pos, key) {
                        return tok;
                    }
                }
                St::Done => {
                    return Tok::Err(ErrorKind::UnexpectedByte {
                        byte: b,
                        expected: "end of value",
                    });
                }
            }
        }
    }

    /// After a string's closing quote (consumed): on to the colon of a key or past a value.
    #[inline]
    fn string_closed(&mut self, buf: &[u8], pos: &mut usize) -> Option<Tok> {
        let report = self.reports_strings();
        if self.key {
            // Straight on to the value: whitespace, `:`, whitespace.
            self.st = St::Colon;
            skip_ws(buf, pos);
            if buf.get(*pos) == Some(&b':') {
                *pos += 1;
                self.st = St::Value;
                skip_ws(buf, pos);
            }
        } else {
            self.after_value();
        }
        report.then_some(Tok::StrEnd)
    }

    /// A curly quote `c` read (and captured) inside a string: whether it ends the string (a
    /// double one in a straightened block). In a straightened block the capture holds the
    /// straight quote in its place.
    fn curly_closes(&mut self, c: &[u8]) -> bool {
        let double = curly_double(c);
        if !self.straight {
            self.curly_inside |= double;
            return false;
        }
        if double || CURLY_SINGLE.iter().any(|q| q == c) {
            self.tolerated = true;
            if self.capturing && !self.cap_overflow {
                self.cap.truncate(self.cap.len().saturating_sub(3));
                self.cap.push(if double { b'"' } else { b'\'' });
            }
        }
        double
    }

    /// A byte 0xE2 where a key (`key`) or a value must come, or the rest of it ([`St::Quote`]):
    /// a curly double quote opens a string and straightens the block; anything else is the
    /// error strict JSON gives.
    fn curly_quote(&mut self, buf: &[u8], pos: &mut usize, key: bool) -> Option<Tok> {
        if !matches!(self.st, St::Quote { .. }) {
            self.utf8_have = 0;
        }
        while self.utf8_have < 3 {
            let Some(&b) = buf.get(*pos) else {
                self.st = St::Quote { key };
                return Some(Tok::End);
            };
            if let Some(slot) = self.utf8.get_mut(usize::from(self.utf8_have)) {
                *slot = b;
            }
            self.utf8_have += 1;
            *pos += 1;
        }
        self.utf8_have = 0;
        let [a, b, c, _] = self.utf8;
        if !curly_double(&[a, b, c]) || self.curly_inside {
            // Reported at the 0xE2, which may lie in an earlier chunk.
            self.back = 3;
            let expected = match (curly_double(&[a, b, c]), key) {
                (true, _) => "a straight quote (this block's strings hold curly quotes)",
                (false, true) => "a string key",
                (false, false) => "a value",
            };
            self.st = if key { St::Key } else { St::Value };
            return Some(Tok::Err(ErrorKind::UnexpectedByte {
                byte: 0xE2,
                expected,
            }));
        }
        self.straight = true;
        self.tolerated = true;
        self.key = key;
        self.opened = 3;
        self.st = St::Str;
        self.reports_strings().then_some(Tok::StrStart)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lexes `input` as one top-level object, split at `cut`, and returns the tokens.
    fn lex(input: &[u8], cut: usize) -> Vec<Tok> {
        let mut lx = Lexer::new(128);
        assert_eq!(input[0], b'{');
        lx.begin_object();
        let mut toks = vec![Tok::ObjOpen];
        for part in [&input[1..cut.max(1)], &input[cut.max(1)..]] {
            let mut pos = 0;
            loop {
                match lx.next(part, &mut pos) {
                    Tok::End => break,
                    t @ Tok::Err(_) => {
                        toks.push(t);
                        return toks;
                    }
                    t => toks.push(t),
                }
            }
        }
        toks
    }

    #[test]
    fn tokens_are_the_same_at_every_cut() {
        let input = br#"{"a":[1,-2.5e+3,true,null,{"b":"x\"\u00e9\ud83d\ude00y"}],"c":false}"#;
        let whole = lex(input, input.len());
        assert!(!whole.iter().any(|t| matches!(t, Tok::Err(_))), "{whole:?}");
        for cut in 1..input.len() {
            assert_eq!(lex(input, cut), whole, "cut at {cut}");
        }
    }

    #[test]
    fn multibyte_utf8_cut_inside_a_character() {
        let input = "{\"k\":\"h\u{e9}\u{1F600}llo\"}".as_bytes();
        for cut in 1..input.len() {
            let toks = lex(input, cut);
            assert!(
                !toks.iter().any(|t| matches!(t, Tok::Err(_))),
                "cut {cut}: {toks:?}"
            );
        }
    }

    #[test]
    fn a_lenient_lexer_reads_the_sdks_slips_and_repair_makes_them_json() {
        let slips: [(&[u8], &[u8]); 4] = [
            (b"{\"a\":[1,2,],}", b"{\"a\":[1,2]}"),
            (b"{\"a\":\"x\ny\",\n}", b"{\"a\":\"x\\u000ay\"\n}"),
            (b"{\"a,}\":\"b\\\",]\" , }", b"{\"a,}\":\"b\\\",]\"  }"),
            (b"{\"a\":{\"b\":[],\t},}", b"{\"a\":{\"b\":[]\t}}"),
        ];
        for (input, want) in slips {
            let mut strict = Lexer::new(8);
            strict.begin_object();
            let mut pos = 1;
            let refused = loop {
                match strict.next(input, &mut pos) {
                    Tok::End => break false,
                    Tok::Err(_) => break true,
                    _ => {}
                }
            };
            assert!(refused, "{}", String::from_utf8_lossy(input));
            let mut lenient = Lexer::new(8);
            lenient.lenient();
            lenient.begin_object();
            let mut pos = 1;
            loop {
                match lenient.next(input, &mut pos) {
                    Tok::End => break,
                    Tok::Err(e) => panic!("{e:?} in {}", String::from_utf8_lossy(input)),
                    _ => {}
                }
            }
            assert!(lenient.tolerated());
            let repaired = repair(input);
            assert_eq!(&*repaired, want, "{}", String::from_utf8_lossy(&repaired));
            assert!(serde_json::from_slice::<serde_json::Value>(&repaired).is_ok());
        }
        // Valid JSON needs no repair, and a comma inside a string stays.
        let fine = br#"{"a":"x,]","b":[1,2]}"#;
        assert!(matches!(repair(fine), Cow::Borrowed(_)));
    }

    /// Lexes `input` (from after its `{`) leniently in two pieces cut at `cut`: the keys and
    /// strings read (captured, so straightened), or the error.
    fn lenient_strings(input: &[u8], cut: usize) -> Result<Vec<String>, ErrorKind> {
        let mut lx = Lexer::new(8);
        lx.lenient();
        lx.begin_object();
        let mut out = Vec::new();
        for part in [&input[1..cut], &input[cut..]] {
            let mut pos = 0;
            loop {
                match lx.next(part, &mut pos) {
                    Tok::End => break,
                    Tok::Err(e) => return Err(e),
                    Tok::StrStart => lx.capture(64),
                    Tok::StrEnd => {
                        let raw = lx.take_capture().unwrap().to_vec();
                        out.push(decode_string(&raw).unwrap().into_owned());
                    }
                    _ => {}
                }
            }
        }
        Ok(out)
    }

    #[test]
    fn curly_quotes_straighten_the_block_from_the_first_that_stands_for_a_quote() {
        // A curly quote inside a strict string is text; one where a key must come is a quote,
        // and from there on `’` in a string reads as `'`.
        let input = "{\"a\":\"It’s\",“b”:”c’d“}".as_bytes();
        for cut in 1..input.len() {
            assert_eq!(
                lenient_strings(input, cut),
                Ok(vec!["a".into(), "It’s".into(), "b".into(), "c'd".into()]),
                "cut at {cut}"
            );
        }
        let input = "{\"a\":\"“x”\"}".as_bytes();
        assert_eq!(
            lenient_strings(input, 3),
            Ok(vec!["a".into(), "“x”".into()])
        );
        assert_eq!(&*straighten("“b”:”c’d“".as_bytes()), b"\"b\":\"c'd\"");
        // A block whose strings hold a curly double quote cannot be straightened.
        let input = "{\"a\":\"“x”\",“b”:1}".as_bytes();
        for cut in 1..input.len() {
            assert_eq!(
                lenient_strings(input, cut),
                Err(ErrorKind::UnexpectedByte {
                    byte: 0xE2,
                    expected: "a straight quote (this block's strings hold curly quotes)"
                }),
                "cut at {cut}"
            );
        }
        // `‘` is no JSON quote.
        assert!(lenient_strings("{‘a’:1}".as_bytes(), 2).is_err());
    }

    #[test]
    fn errors_name_the_rule() {
        let cases: &[(&[u8], ErrorKind)] = &[
            (b"{\"a\":\"x\ny\"}", ErrorKind::ControlCharacterInString),
            (b"{\"a\":\"\\q\"}", ErrorKind::InvalidEscape),
            (b"{\"a\":\"\\ud800x\"}", ErrorKind::InvalidEscape),
            (b"{\"a\":\"\\udc00\"}", ErrorKind::InvalidEscape),
            (b"{\"a\":\"\xff\"}", ErrorKind::InvalidUtf8),
            (b"{\"a\":\"\xe2\x82\"}", ErrorKind::InvalidUtf8),
            (b"{\"a\":1e999}", ErrorKind::NumberOutOfRange),
            (
                b"{\"a\":01}",
                ErrorKind::UnexpectedByte {
                    byte: b'1',
                    expected: "',' or '}'",
                },
            ),
            (
                b"{\"a\":-}",
                ErrorKind::UnexpectedByte {
                    byte: b'}',
                    expected: "a digit",
                },
            ),
            (
                b"{\"a\":tru}",
                ErrorKind::UnexpectedByte {
                    byte: b'}',
                    expected: "a literal (true, false or null)",
                },
            ),
            (
                b"{\"a\" 1}",
                ErrorKind::UnexpectedByte {
                    byte: b'1',
                    expected: "':'",
                },
            ),
            (
                b"{\"a\":1,}",
                ErrorKind::UnexpectedByte {
                    byte: b'}',
                    expected: "a string key",
                },
            ),
            (
                b"{\"a\":]",
                ErrorKind::UnexpectedByte {
                    byte: b']',
                    expected: "a value",
                },
            ),
            (
                b"{\"a\":[1}",
                ErrorKind::UnexpectedByte {
                    byte: b'}',
                    expected: "',' or ']'",
                },
            ),
            (
                b"{1}",
                ErrorKind::UnexpectedByte {
                    byte: b'1',
                    expected: "a string key or '}'",
                },
            ),
        ];
        for (input, kind) in cases {
            let toks = lex(input, input.len());
            assert_eq!(
                toks.last(),
                Some(&Tok::Err(*kind)),
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn a_cut_escape_is_left_out() {
        assert_eq!(decode_body(r"ab\u00", true).as_deref(), Some("ab"));
        assert_eq!(decode_body(r"ab\", true).as_deref(), Some("ab"));
        assert_eq!(decode_body(r"ab\\", true).as_deref(), Some("ab\\"));
        assert_eq!(decode_body(r"ab\u00e9", true).as_deref(), Some("abé"));
        assert_eq!(decode_body(r"a\n", false).as_deref(), Some("a\n"));
        assert_eq!(decode_body(r"ab\", false), None);
        assert_eq!(decode_string(br#""a\"b""#).as_deref(), Some("a\"b"));
        assert!(matches!(
            decode_string(br#""plain""#),
            Some(Cow::Borrowed("plain"))
        ));
    }

    #[test]
    fn depth_limit() {
        let mut lx = Lexer::new(3);
        lx.begin_object();
        let mut pos = 0;
        let buf = br#""a":[[["#;
        let mut last = Tok::End;
        while pos < buf.len() {
            last = lx.next(buf, &mut pos);
            if matches!(last, Tok::Err(_)) {
                break;
            }
        }
        assert_eq!(last, Tok::Err(ErrorKind::TooDeep { limit: 3 }));
        assert_eq!(pos, 6);
    }

    #[test]
    fn capture_keeps_raw_string_across_chunks() {
        let mut lx = Lexer::new(8);
        lx.begin_object();
        let mut pos = 0;
        assert_eq!(lx.next(b"\"ab", &mut pos), Tok::StrStart);
        lx.capture(KEY_CAPTURE_LIMIT);
        assert_eq!(lx.next(b"\"ab", &mut pos), Tok::End);
        let mut pos = 0;
        assert_eq!(lx.next(b"\\n\"", &mut pos), Tok::StrEnd);
        assert!(lx.in_key());
        assert_eq!(lx.take_capture(), Some(&b"\"ab\\n\""[..]));
    }
}
