//! The hot path: a resumable, validating JSON lexer over bytes.
//!
//! [`Lexer::next`] walks a chunk and stops only at the tokens the splitter cares about (containers
//! opening and closing, strings starting and ending, scalars ending). Everything else — string
//! interiors, whitespace, digits, literal letters — is consumed in place. All state (the container
//! stack, whether we are inside a string or an escape, a half-read UTF-8 character, a half-read
//! number) lives in the lexer, so a chunk boundary may fall anywhere and no byte is ever looked at
//! twice. String interiors are skipped with `memchr2` and checked for control characters and UTF-8
//! in one pass over the skipped span.

use crate::ErrorKind;
use memchr::memchr2;

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
    /// A number or literal ended.
    Scalar,
    /// The chunk is exhausted; feed more.
    End,
    /// The grammar was broken at the current position.
    Err(ErrorKind),
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
    /// The top-level value is complete.
    Done,
}

/// Most bytes kept of a captured string (keys, ids, surface ids, versions). Longer ones are
/// marked as overflowed and never match.
const CAPTURE_LIMIT: usize = 4096;

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
    /// A UTF-8 character cut by the end of a chunk.
    utf8: [u8; 4],
    utf8_have: u8,
    /// The digits of the number being read (to reject numbers `serde_json` cannot hold).
    num: Vec<u8>,
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
            utf8: [0; 4],
            utf8_have: 0,
            num: Vec::new(),
        }
    }

    /// Starts a new top-level object; the caller has consumed its `{`.
    pub(crate) fn begin_object(&mut self) {
        self.stack.clear();
        self.stack.push(b'{');
        self.st = St::KeyOrClose;
        self.utf8_have = 0;
        self.capturing = false;
    }

    /// Nesting depth (1 inside the top-level object).
    #[inline]
    pub(crate) fn depth(&self) -> usize {
        self.stack.len()
    }

    /// Whether the string being read (or just ended) is an object key.
    #[inline]
    pub(crate) fn in_key(&self) -> bool {
        self.key
    }

    /// Keeps the raw bytes of the string that just started (call right after [`Tok::StrStart`]).
    pub(crate) fn capture(&mut self) {
        self.capturing = true;
        self.cap_overflow = false;
        self.cap.clear();
        self.cap.push(b'"');
    }

    /// The captured string's raw bytes, quotes included; `None` if it overflowed the limit.
    /// Valid after [`Tok::StrEnd`]; ends the capture.
    pub(crate) fn take_capture(&mut self) -> Option<&[u8]> {
        let was = std::mem::replace(&mut self.capturing, false);
        (was && !self.cap_overflow).then_some(self.cap.as_slice())
    }

    #[inline]
    fn cap_push(&mut self, bytes: &[u8]) {
        if self.capturing {
            if self.cap.len() + bytes.len() > CAPTURE_LIMIT {
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

    /// Checks a span of string interior (no `"` or `\` inside). `more` says whether the chunk
    /// ended inside the string (a cut UTF-8 character may then be completed later).
    fn check_span(&mut self, s: &[u8], more: bool) -> Result<(), (usize, ErrorKind)> {
        let mut from = 0;
        if self.utf8_have > 0 {
            let width = utf8_width(self.utf8[0]) as usize;
            let have = self.utf8_have as usize;
            let take = (width - have).min(s.len());
            for (k, &b) in s[..take].iter().enumerate() {
                if b & 0xC0 != 0x80 {
                    return Err((k, ErrorKind::InvalidUtf8));
                }
                self.utf8[have + k] = b;
            }
            if have + take < width {
                self.utf8_have += take as u8;
                return if more {
                    Ok(())
                } else {
                    Err((take, ErrorKind::InvalidUtf8))
                };
            }
            self.utf8_have = 0;
            if std::str::from_utf8(&self.utf8[..width]).is_err() {
                return Err((0, ErrorKind::InvalidUtf8));
            }
            from = take;
        }
        let s = &s[from..];
        // One pass: any byte below 0x20 or above 0x7F sets the high bit.
        if s.iter().fold(0u8, |acc, &b| acc | b | b.wrapping_sub(0x20)) & 0x80 == 0 {
            return Ok(());
        }
        let ctrl = s.iter().position(|&b| b < 0x20);
        let bad = match std::str::from_utf8(s) {
            Ok(_) => None,
            Err(e) if e.error_len().is_none() && more => {
                let tail = &s[e.valid_up_to()..];
                self.utf8[..tail.len()].copy_from_slice(tail);
                self.utf8_have = tail.len() as u8;
                None
            }
            Err(e) => Some(e.valid_up_to()),
        };
        match (ctrl, bad) {
            (Some(c), Some(u)) if u < c => Err((from + u, ErrorKind::InvalidUtf8)),
            (Some(c), _) => Err((from + c, ErrorKind::ControlCharacterInString)),
            (None, Some(u)) => Err((from + u, ErrorKind::InvalidUtf8)),
            (None, None) => Ok(()),
        }
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
    fn start_value(&mut self, b: u8, pos: &mut usize) -> Option<Tok> {
        match b {
            b'{' => match self.push(b'{') {
                Ok(()) => {
                    *pos += 1;
                    Some(Tok::ObjOpen)
                }
                Err(e) => Some(Tok::Err(e)),
            },
            b'[' => match self.push(b'[') {
                Ok(()) => {
                    *pos += 1;
                    Some(Tok::ArrOpen)
                }
                Err(e) => Some(Tok::Err(e)),
            },
            b'"' => {
                *pos += 1;
                self.key = false;
                self.st = St::Str;
                Some(Tok::StrStart)
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
    pub(crate) fn next(&mut self, buf: &[u8], pos: &mut usize) -> Tok {
        loop {
            let Some(&b) = buf.get(*pos) else {
                return Tok::End;
            };
            match self.st {
                St::Str => {
                    let rest = &buf[*pos..];
                    let found = memchr2(b'"', b'\\', rest);
                    let span = &rest[..found.unwrap_or(rest.len())];
                    if let Err((at, kind)) = self.check_span(span, found.is_none()) {
                        *pos += at;
                        return Tok::Err(kind);
                    }
                    self.cap_push(span);
                    *pos += span.len();
                    let Some(k) = found else {
                        return Tok::End;
                    };
                    let q = rest[k];
                    self.cap_push(&[q]);
                    *pos += 1;
                    if q == b'"' {
                        if self.key {
                            self.st = St::Colon;
                        } else {
                            self.after_value();
                        }
                        return Tok::StrEnd;
                    }
                    self.st = St::Esc;
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
                        self.st = St::Str;
                        return Tok::StrStart;
                    } else if b == b'}' && self.st == St::KeyOrClose {
                        *pos += 1;
                        self.stack.pop();
                        self.after_value();
                        return Tok::ObjClose;
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
                    } else if b == b']' && self.st == St::ValueOrClose {
                        *pos += 1;
                        self.stack.pop();
                        self.after_value();
                        return Tok::ArrClose;
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
                            return match self.end_number() {
                                Ok(()) => Tok::Scalar,
                                Err(e) => Tok::Err(e),
                            };
                        }
                        None => {
                            return Tok::Err(ErrorKind::UnexpectedByte {
                                byte: b,
                                expected: "a digit",
                            })
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
                        return Tok::Scalar;
                    }
                    self.st = St::Lit { word, at: at + 1 };
                }
                St::Done => {
                    return Tok::Err(ErrorKind::UnexpectedByte {
                        byte: b,
                        expected: "end of value",
                    })
                }
            }
        }
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
                Some(&Tok::Err(kind.clone())),
                "{}",
                String::from_utf8_lossy(input)
            );
        }
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
        lx.capture();
        assert_eq!(lx.next(b"\"ab", &mut pos), Tok::End);
        let mut pos = 0;
        assert_eq!(lx.next(b"\\n\"", &mut pos), Tok::StrEnd);
        assert!(lx.in_key());
        assert_eq!(lx.take_capture(), Some(&b"\"ab\\n\""[..]));
    }
}
