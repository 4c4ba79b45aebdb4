//! Finding where Express statements end while the text streams in, byte by byte.
//!
//! Newlines and `;` are white space in Express, so a statement ends where its expression is
//! complete and the next token cannot continue it, not at a line end. [`StatementReader`]
//! tracks just enough of the grammar's lexical structure to decide that: strings (`"..."`,
//! `"""..."""`, `r"..."`, `r"""..."""`), comments (`#`, `//`, `/* */`), the current token
//! (identifier, path, check, number) and bracket depth. It reads every byte once, whatever
//! the chunking (a chunk may end inside a UTF-8 character, a string, a comment, an
//! identifier, a `"""` or a `/*`), and keeps only the statement that is still open.
//!
//! A statement is complete
//! * at the bracket that closes its outermost `(`, `[` or `{` (`title = Text("Hi")`,
//!   `surface("s")`, `$/items = [1, 2]`);
//! * at the end of a string, number or path that is its value (`$/name = "Ada"`);
//! * after an identifier or a bracket-less check (`header = title`, `rule = ?required`,
//!   a lone `root`), once the next significant byte is there and is not `(` (nor `=` after a
//!   statement's first identifier or path): that byte starts the next statement;
//! * at [`finish`](StatementReader::finish), whatever is open.
//!
//! Bytes that cannot start or continue anything (`@`, a stray `)`) make a statement of their
//! own, so that the parser reports them and the statements after them still arrive.

use memchr::{memchr, memchr2};

use super::{ExpressError, ExpressErrorKind};

/// One complete statement: its text, from its first byte to its last, comments inside it
/// included, and the byte offset of that first byte in the whole input. With
/// [`StatementReader::split_lists`], also each item of a list a path is assigned, as it closes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StatementText {
    /// Where the statement (or item) starts, counting from the first byte ever fed.
    pub(crate) offset: u64,
    /// The statement (or item).
    pub(crate) text: String,
    /// What the text is.
    pub(crate) piece: Piece,
}

/// What a [`StatementText`] holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    /// A whole statement.
    Whole,
    /// Item `index` of the list that the statement still open assigns to `target` (a path).
    Item {
        /// The path assigned, as written (`$/items`).
        target: String,
        /// The item's index in the list.
        index: usize,
    },
    /// A whole statement whose list went out item by item before it ended.
    Split,
}

/// A list assigned to a path, read item by item.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ListSplit {
    /// The path assigned, as written.
    target: String,
    /// Where the item being read starts (after `[` or `,`).
    item_start: u64,
    /// The index of the item being read.
    index: usize,
    /// Whether a byte of the item being read is not white space or a comment.
    nonblank: bool,
}

/// Splits streamed Express text into statements; see the [module documentation](self).
#[derive(Debug, Default)]
pub(crate) struct StatementReader {
    /// The lexical state: inside which token or comment the last byte left the reader.
    lex: Lex,
    /// Where the open statement stands, as far as deciding its end goes.
    phase: Phase,
    /// How many brackets of the open statement are open.
    depth: usize,
    /// The open statement's bytes, up to the start of the chunk being read.
    held: Vec<u8>,
    /// Where the open statement starts.
    start: u64,
    /// Just past the last token that completed the open statement as far as it goes; where
    /// the statement ends if the next significant byte cannot continue it.
    token_end: u64,
    /// How many bytes were fed before the chunk being read.
    base: u64,
    /// From where in the chunk being read the open statement's bytes still have to be held.
    run_from: usize,
    /// Whether lists assigned to paths are handed out item by item ([`Piece::Item`]).
    split_lists: bool,
    /// The open statement's first token is a path (`$/items = ...`).
    path_target: bool,
    /// The list of the open statement, read item by item.
    list: Option<ListSplit>,
}

/// The lexical state between two bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Lex {
    /// Between tokens.
    #[default]
    Code,
    /// After a `/` that may open a comment.
    Slash {
        /// Where the `/` is.
        at: u64,
    },
    /// In a `#` or `//` comment.
    LineComment,
    /// In a `/* */` comment.
    BlockComment {
        /// Whether the last byte was `*`.
        star: bool,
        /// Where the comment starts.
        at: u64,
    },
    /// In an identifier (or `true`, `false`, `null`, `_`).
    Word {
        /// Whether the word so far is a lone `r` or `R`, which a `"` turns into a raw string.
        lone_r: bool,
    },
    /// In a path: `$`, then letters, digits, `_` and `/`.
    Path,
    /// In a check: `?` and its name.
    Check {
        /// Whether the name has begun.
        named: bool,
    },
    /// In a number.
    Number(NumberPart),
    /// In a string.
    Quoted(StringPart),
}

/// Where in a number the reader is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NumberPart {
    /// After the leading `-`.
    Sign,
    /// In the digits before any `.`.
    Whole,
    /// After the `.`, before any fraction digit.
    Point,
    /// In the fraction digits.
    Fraction,
}

/// Where in a string the reader is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StringPart {
    /// After the opening `"` (of `r"` when `raw`): a string, or the start of `"""`.
    Opened {
        /// Whether an `r` came before.
        raw: bool,
    },
    /// After `""`: an empty string, or the start of `"""`.
    Doubled {
        /// Whether an `r` came before.
        raw: bool,
    },
    /// In a standard string.
    Standard {
        /// Whether the last byte was an escaping `\`.
        escaped: bool,
    },
    /// In a raw string, where `\` is a plain character.
    Raw,
    /// In a triple-quoted string.
    Triple {
        /// Whether the last byte was an escaping `\`.
        escaped: bool,
        /// How many `"` in a row end what was read.
        quotes: u8,
    },
    /// In a raw triple-quoted string.
    RawTriple {
        /// How many `"` in a row end what was read.
        quotes: u8,
    },
}

/// Where the statement being read stands (at bracket depth 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Phase {
    /// No statement is open.
    #[default]
    Between,
    /// A statement began with the token being read.
    Head,
    /// The statement's first token was an identifier (`callable`) or a path: `=` makes it an
    /// assignment, `(` (after an identifier) a call; anything else starts the next statement.
    AfterTarget {
        /// Whether the first token was an identifier, which `(` may follow.
        callable: bool,
    },
    /// After the `=` of an assignment: the value comes next.
    Value,
    /// The value was an identifier or a check: `(` makes it a call; anything else starts the
    /// next statement.
    AfterName,
    /// Inside brackets: the statement ends when they close.
    Nested,
}

/// What a completed token was, which decides what may follow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// An identifier or keyword.
    Word,
    /// A `$` path.
    Path,
    /// A `?check` name.
    Check,
    /// A string or number: a complete value.
    Literal,
    /// A byte no rule admits here: a statement of its own.
    Stray,
}

/// What a byte did to the token or comment being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    /// It belongs to it.
    Consumed,
    /// It ended the token before it, and is read again between tokens.
    Ends(Token),
    /// It is between tokens.
    Between,
    /// It is in a string.
    Quoted(StringPart),
}

/// The statements completed so far by one call, and the chunk being read.
struct Cursor<'a, 'o> {
    chunk: &'a [u8],
    out: &'o mut Vec<Result<StatementText, ExpressError>>,
}

fn is_word_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_' || byte >= 0x80
}

fn is_word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80
}

fn is_path_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'/'
}

impl StatementReader {
    /// A reader at the start of a text.
    pub(crate) fn new() -> StatementReader {
        StatementReader::default()
    }

    /// Reads `chunk`, the next bytes of the text, and returns the statements it completed, in
    /// order (and an error for a statement that is not UTF-8).
    pub(crate) fn feed(&mut self, chunk: &[u8]) -> Vec<Result<StatementText, ExpressError>> {
        let mut out = Vec::new();
        self.feed_into(chunk, &mut out);
        out
    }

    /// A reader that hands out each item of a list assigned to a path as the item closes
    /// ([`Piece::Item`]), then the whole statement as [`Piece::Split`].
    pub(crate) fn splitting_lists() -> StatementReader {
        StatementReader {
            split_lists: true,
            ..StatementReader::default()
        }
    }

    /// [`feed`](Self::feed), appending to `out`.
    pub(crate) fn feed_into(
        &mut self,
        chunk: &[u8],
        out: &mut Vec<Result<StatementText, ExpressError>>,
    ) {
        self.read(chunk, false, out);
    }

    /// Reads `chunk` as [`feed_into`](Self::feed_into) does; with `stop_at_marks`, stops before
    /// a `<` or `` ` `` that stands between tokens (not in a string or comment), which may begin
    /// a block's close tag or a code fence: what it is is the caller's to tell. Returns how many
    /// bytes were read.
    pub(crate) fn read(
        &mut self,
        chunk: &[u8],
        stop_at_marks: bool,
        out: &mut Vec<Result<StatementText, ExpressError>>,
    ) -> usize {
        let mut cursor = Cursor { chunk, out };
        self.run_from = 0;
        let mut i = 0;
        while i < chunk.len() {
            i = self.skip_plain(chunk, i);
            let Some(&byte) = chunk.get(i) else { break };
            if stop_at_marks && matches!(byte, b'<' | b'`') && self.between_tokens() {
                break;
            }
            self.step(byte, i, &mut cursor);
            i += 1;
        }
        let read = i.min(chunk.len());
        if self.phase != Phase::Between {
            if let Some(rest) = chunk.get(self.run_from..read) {
                self.held.extend_from_slice(rest);
            }
        }
        self.base += read as u64;
        self.run_from = 0;
        read
    }

    /// Whether the next byte stands outside strings and comments.
    fn between_tokens(&self) -> bool {
        !matches!(
            self.lex,
            Lex::LineComment
                | Lex::BlockComment { .. }
                | Lex::Quoted(
                    StringPart::Opened { .. }
                        | StringPart::Standard { .. }
                        | StringPart::Raw
                        | StringPart::Triple { .. }
                        | StringPart::RawTriple { .. }
                )
        )
    }

    /// Ends the text: hands out the statement still open, if any, and readies the reader for
    /// a new text.
    pub(crate) fn finish(&mut self) -> Vec<Result<StatementText, ExpressError>> {
        let mut out = Vec::new();
        let mut cursor = Cursor {
            chunk: &[],
            out: &mut out,
        };
        let end = self.base;
        match self.lex {
            Lex::Word { .. } => self.token_done(Token::Word, end, &mut cursor),
            Lex::Path => self.token_done(Token::Path, end, &mut cursor),
            Lex::Check { named: true } => self.token_done(Token::Check, end, &mut cursor),
            Lex::Check { named: false } | Lex::Number(NumberPart::Sign | NumberPart::Point) => {
                self.token_done(Token::Stray, end, &mut cursor);
            }
            Lex::Number(_) | Lex::Quoted(StringPart::Doubled { .. }) => {
                self.token_done(Token::Literal, end, &mut cursor);
            }
            Lex::Slash { at } => self.stray_slash(at, &mut cursor),
            Lex::BlockComment { at, .. } if self.phase == Phase::Between => {
                cursor.out.push(Err(ExpressError::of(
                    ExpressErrorKind::Parse,
                    Some(at),
                    "expected '*/' to close the comment",
                )));
            }
            Lex::Code | Lex::LineComment | Lex::BlockComment { .. } | Lex::Quoted(_) => {}
        }
        match self.phase {
            Phase::Between => {}
            Phase::AfterTarget { .. } | Phase::AfterName => {
                let end = self.token_end;
                self.end_at(end, &mut cursor);
            }
            Phase::Head | Phase::Value | Phase::Nested => self.end_at(end, &mut cursor),
        }
        *self = StatementReader::default();
        out
    }

    /// Where the next byte that matters is, from `i`: inside a comment or string only a few
    /// bytes can end it, so the bytes between are passed over in one search.
    fn skip_plain(&self, chunk: &[u8], i: usize) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        let found = match self.lex {
            Lex::LineComment => memchr(b'\n', rest),
            Lex::BlockComment { star: false, .. } => memchr(b'*', rest),
            Lex::Quoted(StringPart::Standard { escaped: false })
            | Lex::Quoted(StringPart::Triple {
                escaped: false,
                quotes: 0,
            }) => memchr2(b'"', b'\\', rest),
            Lex::Quoted(StringPart::Raw | StringPart::RawTriple { quotes: 0 }) => {
                memchr(b'"', rest)
            }
            _ => return i,
        };
        i + found.unwrap_or(rest.len())
    }

    /// Reads `byte`, at index `i` of the chunk.
    fn step(&mut self, byte: u8, i: usize, cursor: &mut Cursor<'_, '_>) {
        let at = self.base + i as u64;
        match self.lex_step(byte, cursor) {
            Read::Consumed => {}
            Read::Ends(token) => {
                self.token_done(token, at, cursor);
                self.code(byte, at, i, cursor);
            }
            Read::Between => self.code(byte, at, i, cursor),
            Read::Quoted(part) => self.quoted(part, byte, at, i, cursor),
        }
    }

    /// What `byte` does to the token or comment being read.
    fn lex_step(&mut self, byte: u8, cursor: &mut Cursor<'_, '_>) -> Read {
        match self.lex {
            Lex::Code => Read::Between,
            Lex::Slash { at: slash } => match byte {
                b'/' => {
                    self.lex = Lex::LineComment;
                    Read::Consumed
                }
                b'*' => {
                    self.lex = Lex::BlockComment {
                        star: false,
                        at: slash,
                    };
                    Read::Consumed
                }
                _ => {
                    self.lex = Lex::Code;
                    self.stray_slash(slash, cursor);
                    Read::Between
                }
            },
            Lex::LineComment => {
                if byte == b'\n' {
                    self.lex = Lex::Code;
                }
                Read::Consumed
            }
            Lex::BlockComment { star, at: open } => {
                self.lex = match byte {
                    b'/' if star => Lex::Code,
                    _ => Lex::BlockComment {
                        star: byte == b'*',
                        at: open,
                    },
                };
                Read::Consumed
            }
            Lex::Word { lone_r } => {
                if is_word_byte(byte) {
                    self.lex = Lex::Word { lone_r: false };
                    Read::Consumed
                } else if lone_r && byte == b'"' {
                    self.lex = Lex::Quoted(StringPart::Opened { raw: true });
                    Read::Consumed
                } else {
                    Read::Ends(Token::Word)
                }
            }
            Lex::Path if is_path_byte(byte) => Read::Consumed,
            Lex::Path => Read::Ends(Token::Path),
            Lex::Check { named: true } if byte.is_ascii_alphanumeric() || byte == b'_' => {
                Read::Consumed
            }
            Lex::Check { named: true } => Read::Ends(Token::Check),
            Lex::Check { named: false } if byte.is_ascii_alphabetic() || byte == b'_' => {
                self.lex = Lex::Check { named: true };
                Read::Consumed
            }
            Lex::Check { named: false } => Read::Ends(Token::Stray),
            Lex::Number(part) => {
                let next = match (part, byte) {
                    (NumberPart::Sign | NumberPart::Whole, b'0'..=b'9') => NumberPart::Whole,
                    (NumberPart::Whole, b'.') => NumberPart::Point,
                    (NumberPart::Point | NumberPart::Fraction, b'0'..=b'9') => NumberPart::Fraction,
                    (NumberPart::Sign | NumberPart::Point, _) => return Read::Ends(Token::Stray),
                    (NumberPart::Whole | NumberPart::Fraction, _) => {
                        return Read::Ends(Token::Literal);
                    }
                };
                self.lex = Lex::Number(next);
                Read::Consumed
            }
            Lex::Quoted(part) => Read::Quoted(part),
        }
    }

    /// Reads `byte` inside a string.
    fn quoted(
        &mut self,
        part: StringPart,
        byte: u8,
        at: u64,
        i: usize,
        cursor: &mut Cursor<'_, '_>,
    ) {
        let next = match part {
            StringPart::Opened { raw } => match (byte, raw) {
                (b'"', _) => StringPart::Doubled { raw },
                (_, true) => StringPart::Raw,
                (_, false) => StringPart::Standard {
                    escaped: byte == b'\\',
                },
            },
            StringPart::Doubled { raw } => {
                if byte == b'"' {
                    if raw {
                        StringPart::RawTriple { quotes: 0 }
                    } else {
                        StringPart::Triple {
                            escaped: false,
                            quotes: 0,
                        }
                    }
                } else {
                    self.token_done(Token::Literal, at, cursor);
                    return self.code(byte, at, i, cursor);
                }
            }
            StringPart::Standard { escaped: true } => StringPart::Standard { escaped: false },
            StringPart::Standard { escaped: false } => match byte {
                b'\\' => StringPart::Standard { escaped: true },
                b'"' => return self.token_done(Token::Literal, at + 1, cursor),
                _ => part,
            },
            StringPart::Raw => {
                if byte == b'"' {
                    return self.token_done(Token::Literal, at + 1, cursor);
                }
                part
            }
            StringPart::Triple { escaped: true, .. } => StringPart::Triple {
                escaped: false,
                quotes: 0,
            },
            StringPart::Triple { quotes, .. } => match byte {
                b'\\' => StringPart::Triple {
                    escaped: true,
                    quotes: 0,
                },
                b'"' if quotes >= 2 => return self.token_done(Token::Literal, at + 1, cursor),
                b'"' => StringPart::Triple {
                    escaped: false,
                    quotes: quotes + 1,
                },
                _ => StringPart::Triple {
                    escaped: false,
                    quotes: 0,
                },
            },
            StringPart::RawTriple { quotes } => match byte {
                b'"' if quotes >= 2 => return self.token_done(Token::Literal, at + 1, cursor),
                b'"' => StringPart::RawTriple { quotes: quotes + 1 },
                _ => StringPart::RawTriple { quotes: 0 },
            },
        };
        self.lex = Lex::Quoted(next);
    }

    /// Reads `byte` between tokens.
    fn code(&mut self, byte: u8, at: u64, i: usize, cursor: &mut Cursor<'_, '_>) {
        self.lex = Lex::Code;
        if self.list.is_some() && self.depth >= 1 {
            match byte {
                b',' if self.depth == 1 => {
                    self.item_done(at, cursor);
                    if let Some(list) = self.list.as_mut() {
                        list.item_start = at + 1;
                    }
                    return;
                }
                b']' if self.depth == 1 => self.item_done(at, cursor),
                b' ' | b'\t' | b'\r' | b'\n' | b';' | b'#' | b'/' => {}
                _ => {
                    if let Some(list) = self.list.as_mut() {
                        list.nonblank = true;
                    }
                }
            }
        }
        match byte {
            b' ' | b'\t' | b'\r' | b'\n' | b';' => {}
            b'#' => self.lex = Lex::LineComment,
            b'/' => self.lex = Lex::Slash { at },
            b'"' => {
                self.begin(at, i, cursor);
                self.lex = Lex::Quoted(StringPart::Opened { raw: false });
            }
            b'$' => {
                self.begin(at, i, cursor);
                self.lex = Lex::Path;
            }
            b'?' => {
                self.begin(at, i, cursor);
                self.lex = Lex::Check { named: false };
            }
            b'-' => {
                self.begin(at, i, cursor);
                self.lex = Lex::Number(NumberPart::Sign);
            }
            b'0'..=b'9' => {
                self.begin(at, i, cursor);
                self.lex = Lex::Number(NumberPart::Whole);
            }
            b'(' | b'[' | b'{' => self.open(byte, at, i, cursor),
            b')' | b']' | b'}' => {
                if self.depth > 0 {
                    self.depth -= 1;
                    if self.depth == 0 {
                        self.end_at(at + 1, cursor);
                    }
                } else {
                    self.stray(at, i, cursor);
                }
            }
            b'=' if self.depth == 0 => match self.phase {
                Phase::AfterTarget { .. } => self.phase = Phase::Value,
                _ => self.stray(at, i, cursor),
            },
            _ if is_word_start(byte) => {
                self.begin(at, i, cursor);
                self.lex = Lex::Word {
                    lone_r: byte == b'r' || byte == b'R',
                };
            }
            _ if self.depth > 0 => {}
            _ => self.stray(at, i, cursor),
        }
    }

    /// An opening bracket: a call's `(` after a name, or a list or map.
    fn open(&mut self, byte: u8, at: u64, i: usize, cursor: &mut Cursor<'_, '_>) {
        if self.depth == 0 {
            let calls = matches!(
                self.phase,
                Phase::AfterTarget { callable: true } | Phase::AfterName
            );
            let list =
                self.split_lists && byte == b'[' && self.phase == Phase::Value && self.path_target;
            if !(calls && byte == b'(') {
                self.begin(at, i, cursor);
            }
            if list {
                let head = self.slice(self.start, at, cursor);
                let head = String::from_utf8_lossy(&head);
                let target = head.split('=').next().unwrap_or_default().trim().to_owned();
                self.list = Some(ListSplit {
                    target,
                    item_start: at + 1,
                    index: 0,
                    nonblank: false,
                });
            }
            self.phase = Phase::Nested;
        }
        self.depth += 1;
    }

    /// The open statement's bytes `[from, to)` (offsets in the whole input), from those held
    /// and the chunk being read.
    fn slice(&self, from: u64, to: u64, cursor: &Cursor<'_, '_>) -> Vec<u8> {
        let mut all = self.held.clone();
        let upto = usize::try_from(to.saturating_sub(self.base)).unwrap_or(usize::MAX);
        if let Some(run) = cursor
            .chunk
            .get(self.run_from..upto.min(cursor.chunk.len()))
        {
            all.extend_from_slice(run);
        }
        let lo = usize::try_from(from.saturating_sub(self.start)).unwrap_or(usize::MAX);
        let hi = usize::try_from(to.saturating_sub(self.start)).unwrap_or(usize::MAX);
        all.get(lo.min(all.len())..hi.min(all.len()))
            .unwrap_or_default()
            .to_vec()
    }

    /// The item of the split list that ends before `end` (a `,` or the list's `]`) is handed
    /// out, if it holds anything.
    fn item_done(&mut self, end: u64, cursor: &mut Cursor<'_, '_>) {
        let Some(list) = self.list.as_ref() else {
            return;
        };
        if !list.nonblank {
            return;
        }
        let (from, target, index) = (list.item_start, list.target.clone(), list.index);
        let bytes = self.slice(from, end, cursor);
        cursor.out.push(match String::from_utf8(bytes) {
            Ok(text) => Ok(StatementText {
                offset: from,
                text,
                piece: Piece::Item { target, index },
            }),
            Err(err) => Err(ExpressError::of(
                ExpressErrorKind::Parse,
                Some(from + err.utf8_error().valid_up_to() as u64),
                "the text is not UTF-8",
            )),
        });
        if let Some(list) = self.list.as_mut() {
            list.index += 1;
            list.nonblank = false;
        }
    }

    /// A byte no rule admits at bracket depth 0: a statement of its own.
    fn stray(&mut self, at: u64, i: usize, cursor: &mut Cursor<'_, '_>) {
        self.begin(at, i, cursor);
        self.token_done(Token::Stray, at + 1, cursor);
    }

    /// A `/` that opened no comment: a stray byte, maybe in an earlier chunk.
    fn stray_slash(&mut self, at: u64, cursor: &mut Cursor<'_, '_>) {
        if self.depth > 0 {
            return;
        }
        if matches!(self.phase, Phase::AfterTarget { .. } | Phase::AfterName) {
            let end = self.token_end;
            self.end_at(end, cursor);
        }
        if self.phase == Phase::Between {
            self.start_at(at);
            if at < self.base {
                self.held.push(b'/');
            }
        }
        self.token_done(Token::Stray, at + 1, cursor);
    }

    /// A token starts at `at` (index `i` of the chunk): at bracket depth 0 it opens a
    /// statement, after ending the one before when that one was only waiting for what follows.
    fn begin(&mut self, at: u64, i: usize, cursor: &mut Cursor<'_, '_>) {
        if self.depth > 0 {
            return;
        }
        match self.phase {
            Phase::Between => {}
            Phase::AfterTarget { .. } | Phase::AfterName => {
                let end = self.token_end;
                self.end_at(end, cursor);
            }
            Phase::Head | Phase::Value | Phase::Nested => return,
        }
        self.start_at(at);
        self.run_from = i;
    }

    /// Opens a statement at `at`.
    fn start_at(&mut self, at: u64) {
        self.held.clear();
        self.start = at;
        self.phase = Phase::Head;
        self.run_from = usize::try_from(at.saturating_sub(self.base)).unwrap_or(usize::MAX);
    }

    /// A token ended just before `end`.
    fn token_done(&mut self, token: Token, end: u64, cursor: &mut Cursor<'_, '_>) {
        self.lex = Lex::Code;
        if self.depth > 0 {
            return;
        }
        let next = match (self.phase, token) {
            (Phase::Head, Token::Word) => Phase::AfterTarget { callable: true },
            (Phase::Head, Token::Path) => {
                self.path_target = true;
                Phase::AfterTarget { callable: false }
            }
            (Phase::Head | Phase::Value, Token::Check) | (Phase::Value, Token::Word) => {
                Phase::AfterName
            }
            _ => return self.end_at(end, cursor),
        };
        self.phase = next;
        self.token_end = end;
    }

    /// The open statement ends just before `end`: hands it out.
    fn end_at(&mut self, end: u64, cursor: &mut Cursor<'_, '_>) {
        let upto = usize::try_from(end.saturating_sub(self.base)).unwrap_or(usize::MAX);
        if let Some(run) = cursor
            .chunk
            .get(self.run_from..upto.min(cursor.chunk.len()))
        {
            self.held.extend_from_slice(run);
        }
        let len = usize::try_from(end.saturating_sub(self.start)).unwrap_or(usize::MAX);
        self.held.truncate(len);
        let bytes = std::mem::take(&mut self.held);
        let offset = self.start;
        cursor.out.push(match String::from_utf8(bytes) {
            Ok(text) => Ok(StatementText {
                offset,
                text,
                piece: if self.list.take().is_some_and(|l| l.index > 0) {
                    Piece::Split
                } else {
                    Piece::Whole
                },
            }),
            Err(err) => Err(ExpressError::of(
                ExpressErrorKind::Parse,
                Some(offset + err.utf8_error().valid_up_to() as u64),
                "the text is not UTF-8",
            )),
        });
        self.phase = Phase::Between;
        self.depth = 0;
        self.path_target = false;
        self.list = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every statement of `text` read in one chunk, then finished: `(offset, text)`, or the
    /// error's offset with an empty text.
    fn whole(text: &str) -> Vec<(u64, String)> {
        chunked(text.as_bytes(), &[])
    }

    fn chunked(bytes: &[u8], cuts: &[usize]) -> Vec<(u64, String)> {
        let mut reader = StatementReader::new();
        let mut out = Vec::new();
        let mut from = 0;
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
        cuts.sort_unstable();
        for cut in cuts.into_iter().chain([bytes.len()]) {
            reader.feed_into(&bytes[from..cut], &mut out);
            from = cut;
        }
        out.extend(reader.finish());
        out.into_iter()
            .map(|r| match r {
                Ok(s) => (s.offset, s.text),
                Err(e) => (e.offset().unwrap_or(0), String::new()),
            })
            .collect()
    }

    fn texts(text: &str) -> Vec<String> {
        whole(text).into_iter().map(|(_, t)| t).collect()
    }

    #[test]
    fn statements_end_where_their_expression_does() {
        assert_eq!(
            texts("root = Card(\n  body\n)\nbody = Text(\"Hello\")"),
            ["root = Card(\n  body\n)", "body = Text(\"Hello\")"]
        );
        assert_eq!(
            texts("root = Column([first, second,]); first = Text(\"One\"); second = Text(\"Two\")"),
            [
                "root = Column([first, second,])",
                "first = Text(\"One\")",
                "second = Text(\"Two\")"
            ]
        );
        assert_eq!(
            texts("$/a = 1 $/b = -2.5\n$/c = \"x\" $/d = [1, 2] $/e = {k: true}"),
            [
                "$/a = 1",
                "$/b = -2.5",
                "$/c = \"x\"",
                "$/d = [1, 2]",
                "$/e = {k: true}"
            ]
        );
    }

    #[test]
    fn a_name_waits_for_what_follows_it() {
        assert_eq!(
            texts("a = b\n/* c */ (x)\nd = e f = ?required g = ?regex(\"x\") h"),
            [
                "a = b\n/* c */ (x)",
                "d = e",
                "f = ?required",
                "g = ?regex(\"x\")",
                "h"
            ]
        );
        assert_eq!(
            texts("root # the root\n= Text($/x) deleteSurface(\"s\")"),
            ["root # the root\n= Text($/x)", "deleteSurface(\"s\")"]
        );
    }

    #[test]
    fn brackets_inside_strings_and_comments_do_not_count() {
        assert_eq!(
            texts("a = T(\")\", r\"\\\", \"\"\")\"\"\" # )\n, /* ) */ \"\\\")\") b = 1"),
            [
                "a = T(\")\", r\"\\\", \"\"\")\"\"\" # )\n, /* ) */ \"\\\")\")",
                "b = 1"
            ]
        );
        assert_eq!(
            texts("x = \"\" y = \"\"\"\"\"\""),
            ["x = \"\"", "y = \"\"\"\"\"\""]
        );
    }

    #[test]
    fn offsets_count_from_the_first_byte_ever_fed() {
        assert_eq!(
            whole("  # c\n a = 1;\n  b = f()"),
            [(7, "a = 1".to_owned()), (16, "b = f()".to_owned())]
        );
    }

    #[test]
    fn stray_bytes_make_statements_of_their_own() {
        assert_eq!(
            texts("root = @Text(\"Hello\")"),
            ["root = @", "Text(\"Hello\")"]
        );
        assert_eq!(texts("a = b / c"), ["a = b", "/", "c"]);
        assert_eq!(texts(") x"), [")", "x"]);
        assert_eq!(texts("root = Text(\"Hello\""), ["root = Text(\"Hello\""]);
    }

    #[test]
    fn an_unclosed_comment_between_statements_is_an_error() {
        let mut reader = StatementReader::new();
        assert_eq!(reader.feed(b"a = 1 /* open").len(), 1);
        let out = reader.finish();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].as_ref().map_err(|e| e.offset()), Err(Some(6)));
    }

    #[test]
    fn memory_holds_only_the_open_statement() {
        let mut reader = StatementReader::new();
        let mut text = String::new();
        for i in 0..1000 {
            text.push_str(&format!("# comment {i}\n$/v{i} = {i}\n"));
        }
        let out = reader.feed(text.as_bytes());
        assert_eq!(out.len(), 1000);
        assert!(reader.held.capacity() < 64, "{}", reader.held.capacity());
    }

    #[test]
    fn a_character_cut_in_two_is_joined() {
        let text = "a = Text(\"café\") b = é";
        let bytes = text.as_bytes();
        let cut = text.find('é').unwrap() + 1;
        assert_eq!(chunked(bytes, &[cut]), whole(text));
        let bad = chunked(b"a = \"\xff\"", &[]);
        assert_eq!(bad, [(5, String::new())]);
    }

    const SAMPLE: &str = "surface(\"s\")\n$/items = [{name: \"A\", n: -1.5}, {\"name\": r\"B\\\"}]\n\
        root = Column(_template($/items, row), ?x)\n/* block\n comment */ row = Row([Text($name), \
        Text(\"\"\"multi\n\"line\" \\\"\"\"\")]) // trailing\n ok = ?required # c\nsend = Event(\"go\", \
        {k: $}); call_it(a = 1, b = [1,2,],)\nlast = Text(r\"\"\"raw \\ \"\"\") tail x.y @ ) = 12.";

    proptest! {
        #[test]
        fn any_chunking_reads_the_same_statements(cuts in proptest::collection::vec(0usize..400, 0..12)) {
            let bytes = SAMPLE.as_bytes();
            prop_assert_eq!(chunked(bytes, &cuts), whole(SAMPLE));
        }

        #[test]
        fn any_chunking_of_any_bytes_reads_the_same_statements(
            bytes in proptest::collection::vec(any::<u8>(), 0..80),
            cuts in proptest::collection::vec(0usize..81, 0..8),
        ) {
            prop_assert_eq!(chunked(&bytes, &cuts), chunked(&bytes, &[]));
        }

        #[test]
        fn any_chunking_of_any_text_reads_the_same_statements(
            text in "[a-z$/?=(){}\\[\\]\"r#*\\\\ \n;.0-9-]{0,60}",
            cuts in proptest::collection::vec(0usize..61, 0..8),
        ) {
            prop_assert_eq!(chunked(text.as_bytes(), &cuts), whole(&text));
        }
    }

    #[test]
    fn the_sample_reads_as_expected() {
        let got = texts(SAMPLE);
        assert_eq!(got.first().map(String::as_str), Some("surface(\"s\")"));
        assert!(got.iter().any(|t| t == "ok = ?required"));
        assert!(
            got.iter()
                .any(|t| t.starts_with("call_it(") && t.ends_with(",)"))
        );
        assert_eq!(got.last().map(String::as_str), Some("12."));
    }
}
