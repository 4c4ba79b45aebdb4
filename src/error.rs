//! The one shape of the crate's errors: which rule was broken, where, and what happened.

use std::fmt;

/// A problem found: the rule that was broken ([`kind`](Error::kind)), where
/// ([`offset`](Error::offset): the byte in everything fed so far, counting from the first byte
/// ever fed, for errors that have a place) and what happened ([`message`](Error::message)).
/// `Display` writes `at byte N: message`, or the message alone for an error with no place.
///
/// Every error of the crate has this shape: the splitter's is `Error` (its kind an
/// [`ErrorKind`]); the others are `Error<K>` under a name of their own, `K` their kind
/// (`DirectError` is `Error<DirectErrorKind>`, `StoreError` is `Error<StoreErrorKind>`, …).
///
/// After an error the splitter resynchronises by itself: later messages still arrive.
///
/// ```
/// use a2ui_stream::{Config, Framing, Splitter, ErrorKind};
///
/// let mut splitter = Splitter::with_config(Config::bare());
/// let out: Vec<_> = splitter.feed(br#"{"beginRendering": } {"deleteSurface":{"surfaceId":"s"}}"#).collect();
/// let err = out[0].as_ref().unwrap_err();
/// assert_eq!(err.offset(), Some(19));
/// assert!(matches!(err.kind(), ErrorKind::UnexpectedByte { .. }));
/// assert_eq!(err.to_string(), "at byte 19: unexpected byte '}', expected a value");
/// assert!(out[1].is_ok()); // the next message still arrives
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error<K = ErrorKind> {
    kind: K,
    offset: Option<u64>,
    message: String,
}

/// The rule an [`Error`] says was broken.
///
/// ```
/// use a2ui_stream::{Config, ErrorKind, Splitter};
/// let mut splitter = Splitter::with_config(Config { max_depth: 2, ..Config::bare() });
/// let err = splitter.feed(br#"{"beginRendering":{"styles":{}}}"#).find_map(Result::err).unwrap();
/// assert_eq!(err.kind(), ErrorKind::TooDeep { limit: 2 });
/// assert_eq!(err.kind().to_string(), "nesting exceeds the limit of 2 levels");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A byte that JSON does not allow here; `expected` says what the grammar wanted.
    UnexpectedByte {
        /// The offending byte.
        byte: u8,
        /// What the grammar allowed at this point, in words.
        expected: &'static str,
    },
    /// A string holds a byte sequence that is not UTF-8.
    InvalidUtf8,
    /// A string holds a raw control character (below U+0020), which JSON forbids.
    ControlCharacterInString,
    /// A backslash escape that JSON does not define, or a malformed `\u` escape.
    InvalidEscape,
    /// A number too large for a 64-bit float (JSON parsers reject it).
    NumberOutOfRange,
    /// A value at the top level of an A2UI block that is not an object.
    NotAnObject,
    /// A message grew beyond [`Config::max_message_bytes`](crate::Config::max_message_bytes).
    MessageTooLarge {
        /// The configured limit.
        limit: usize,
    },
    /// Objects and arrays nested deeper than [`Config::max_depth`](crate::Config::max_depth).
    TooDeep {
        /// The configured limit.
        limit: usize,
    },
    /// A possible tag or fence grew beyond [`Config::max_held_bytes`](crate::Config::max_held_bytes);
    /// the held bytes were released as text.
    HeldTextTooLong {
        /// The configured limit.
        limit: usize,
    },
    /// A block or message was still open at its closing tag or at the end of the stream.
    Unterminated {
        /// What was left open ("message", "block", "string", ...).
        what: &'static str,
    },
}

impl Error {
    /// The splitter's error at `offset`: its message is what the kind says.
    pub(crate) fn new(offset: u64, kind: ErrorKind) -> Self {
        Error {
            kind,
            offset: Some(offset),
            message: kind.to_string(),
        }
    }
}

impl<K> Error<K> {
    /// An error of kind `kind`, at `offset` when it has a place, saying `message`.
    #[cfg_attr(not(any(feature = "agui", feature = "official")), allow(dead_code))]
    pub(crate) fn of(kind: K, offset: Option<u64>, message: impl Into<String>) -> Self {
        Error {
            kind,
            offset,
            message: message.into(),
        }
    }

    /// The error placed at `offset`, unless it has a place already.
    #[cfg_attr(not(feature = "legacy"), allow(dead_code))]
    pub(crate) fn at(mut self, offset: u64) -> Self {
        self.offset.get_or_insert(offset);
        self
    }

    #[cfg(feature = "express")]
    /// This error with its offset moved `by` bytes on (an offset in a block made one in the
    /// response).
    pub(crate) fn shifted(mut self, by: u64) -> Self {
        if let Some(offset) = self.offset.as_mut() {
            *offset = offset.saturating_add(by);
        }
        self
    }
}

impl<K: Copy> Error<K> {
    /// The rule that was broken.
    ///
    /// ```
    /// use a2ui_stream::{ErrorKind, Splitter};
    /// let mut splitter = Splitter::new();
    /// let err = splitter.feed(b"<a2ui-json>[42]</a2ui-json>").find_map(Result::err).unwrap();
    /// assert_eq!(err.kind(), ErrorKind::NotAnObject);
    /// ```
    pub fn kind(&self) -> K {
        self.kind
    }

    /// Where the problem was found: the byte offset in everything fed, counting from the first
    /// byte ever fed; `None` for an error with no place in a stream (a catalog that does not
    /// compile, a run log that refused a write).
    ///
    /// ```
    /// use a2ui_stream::Splitter;
    /// let mut splitter = Splitter::new();
    /// splitter.feed(b"Hello <a2ui-json>").for_each(drop); // 17 bytes
    /// // Offsets count from the first byte ever fed: the bad `}` is byte 8 of this chunk.
    /// let err = splitter.feed(br#"{"x":tru}"#).find_map(Result::err).unwrap();
    /// assert_eq!(err.offset(), Some(17 + 8));
    /// ```
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    /// What happened, in words (for the official parsers, in the reference implementation's
    /// words).
    ///
    /// ```
    /// use a2ui_stream::Splitter;
    /// let mut splitter = Splitter::new();
    /// let err = splitter.feed(b"<a2ui-json>[42]</a2ui-json>").find_map(Result::err).unwrap();
    /// assert_eq!(err.message(), "A2UI message must be a JSON object");
    /// assert_eq!(err.to_string(), "at byte 12: A2UI message must be a JSON object");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedByte { byte, expected } => {
                if byte.is_ascii_graphic() || *byte == b' ' {
                    write!(
                        f,
                        "unexpected byte '{}', expected {}",
                        *byte as char, expected
                    )
                } else {
                    write!(f, "unexpected byte 0x{byte:02x}, expected {expected}")
                }
            }
            ErrorKind::InvalidUtf8 => f.write_str("string is not valid UTF-8"),
            ErrorKind::ControlCharacterInString => {
                f.write_str("raw control character in string (must be escaped)")
            }
            ErrorKind::InvalidEscape => f.write_str("invalid escape sequence in string"),
            ErrorKind::NumberOutOfRange => f.write_str("number out of range"),
            ErrorKind::NotAnObject => f.write_str("A2UI message must be a JSON object"),
            ErrorKind::MessageTooLarge { limit } => {
                write!(f, "message exceeds the limit of {limit} bytes")
            }
            ErrorKind::TooDeep { limit } => {
                write!(f, "nesting exceeds the limit of {limit} levels")
            }
            ErrorKind::HeldTextTooLong { limit } => {
                write!(
                    f,
                    "possible tag or fence exceeds the limit of {limit} held bytes"
                )
            }
            ErrorKind::Unterminated { what } => write!(f, "unterminated {what}"),
        }
    }
}

impl<K> fmt::Display for Error<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(offset) => write!(f, "at byte {offset}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl<K: fmt::Debug> std::error::Error for Error<K> {}
