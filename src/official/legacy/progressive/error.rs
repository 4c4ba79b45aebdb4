//! What can go wrong while a response is parsed: [`Error`], its [`ErrorKind`], and the [`Limits`]
//! that bound what one response may make the parser hold.

use crate::official::validator::ValidationError;
use std::fmt;

/// What went wrong while parsing a response: the rule (its [`kind`](Error::kind) and the
/// reference implementation's [`message`](Error::message)) and where
/// ([`offset`](Error::offset)). The parser goes on after it; see
/// [`ProgressiveParser::feed`](super::ProgressiveParser::feed).
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::legacy::{ErrorKind, ProgressiveParser};
/// let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
/// let err = ProgressiveParser::new(&catalog).unwrap().feed("<a2ui-json>oops</a2ui-json>").into_iter().find_map(Result::err).unwrap();
/// assert_eq!(err.kind(), ErrorKind::Json);
/// assert!(err.message().starts_with("Failed to parse JSON"));
/// assert!(err.to_string().starts_with("at byte 15: Failed to parse JSON"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub(super) kind: ErrorKind,
    pub(super) message: String,
    /// `None` until the error is placed (see [`Error::at`]).
    pub(super) offset: Option<u64>,
}

/// The kind of an [`Error`].
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::legacy::{ErrorKind, Limits, ProgressiveParser};
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V08, json!(null), json!({"components": {
///     "Card": {"type": "object", "properties": {"child": {"type": "string", "title": "ComponentId"}}}}}), json!(null));
/// let kind = |parser: &mut ProgressiveParser, text: &str| parser.feed(text).into_iter().find_map(Result::err).unwrap().kind();
///
/// let mut parser = ProgressiveParser::new(&catalog)?;
/// assert_eq!(kind(&mut parser, "<a2ui-json>[{]</a2ui-json>"), ErrorKind::Json);
///
/// let mut parser = ProgressiveParser::new(&catalog)?;
/// let itself = r#"<a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "c"}},
///     {"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "c", "component": {"Card": {"child": "c"}}}]}}]</a2ui-json>"#;
/// assert_eq!(kind(&mut parser, itself), ErrorKind::Topology);
///
/// let mut parser = ProgressiveParser::new(&catalog)?.with_limits(Limits { max_block_bytes: 16, ..Limits::default() });
/// assert_eq!(kind(&mut parser, "<a2ui-json>[{\"deleteSurface\": {\"surfaceId\": \"s\"}}]"), ErrorKind::Limit);
/// # Ok::<(), a2ui_stream::official::legacy::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The JSON in a block is malformed or absent.
    Json,
    /// A message does not satisfy the catalog or the protocol.
    Validation,
    /// Components refer to themselves or form a cycle, or a surface lacks its root.
    Topology,
    /// The catalog's schemas do not compile.
    Schema,
    /// A block passed one of the parser's [`Limits`].
    Limit,
}

/// Bounds on what one response can make a [`ProgressiveParser`](super::ProgressiveParser) hold. Passing one is an error
/// ([`ErrorKind::Limit`]), never unbounded memory or a crash; the defaults are far above what a
/// UI needs.
///
/// ```
/// use a2ui_stream::official::legacy::Limits;
/// let strict = Limits { max_depth: 32, ..Limits::default() };
/// assert_eq!(Limits::default().max_depth, 128);
/// assert_eq!(strict.max_block_bytes, 16 << 20);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of objects and lists inside a block's top-level list (default 128, as
    /// `serde_json`'s parser allows). Trees nested deeper would take deeper recursion to copy,
    /// check, write and free than a thread's stack may have.
    pub max_depth: usize,
    /// Most bytes of one `<a2ui-json>` block (default 16 MiB).
    pub max_block_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 128,
            max_block_bytes: 16 << 20,
        }
    }
}

impl Error {
    pub(super) fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            offset: None,
        }
    }

    /// The error, placed at byte `offset` of the response unless it was placed already (a
    /// fault in a component is placed where that component begins, wherever it was found).
    pub(super) fn at(mut self, offset: u64) -> Error {
        self.offset.get_or_insert(offset);
        self
    }

    /// The kind of problem.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::legacy::{ErrorKind, ProgressiveParser};
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let err = ProgressiveParser::new(&catalog).unwrap().feed("<a2ui-json>[{]</a2ui-json>").into_iter().find_map(Result::err).unwrap();
    /// assert_eq!(err.kind(), ErrorKind::Json);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message, worded as the reference implementation words it.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::legacy::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let err = ProgressiveParser::new(&catalog).unwrap().feed("<a2ui-json></a2ui-json>").into_iter().find_map(Result::err).unwrap();
    /// assert!(err.message().contains("No valid JSON object"));
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where in the response the problem is: a number of bytes of the response (all chunks fed
    /// so far, counted from the first). A component that refers to itself, closes a cycle or
    /// ends a chain too deep is named by the byte where it begins (its `{`); any other fault by
    /// the byte after the message or block that broke a rule, or after the bracket that passed
    /// a limit. For well-formed JSON, it does not depend on how the response was cut into
    /// chunks (of several faults in one message, the one written first is reported). Catalog
    /// errors from a constructor are at 0.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use a2ui_stream::official::legacy::ProgressiveParser;
    /// # let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
    /// let mut parser = ProgressiveParser::new(&catalog)?;
    /// parser.feed("Hello <a2ui-json>oops").into_iter().collect::<Result<Vec<_>, _>>()?;
    /// let err = parser.feed("</a2ui-json>").into_iter().find_map(Result::err).unwrap();
    /// assert_eq!(err.offset(), 21); // the block ends where `</a2ui-json>` starts
    /// assert_eq!(err.to_string(), "at byte 21: Failed to parse JSON: No valid JSON object found in A2UI block.");
    /// # Ok::<(), a2ui_stream::official::legacy::Error>(())
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset.unwrap_or_default()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == ErrorKind::Schema {
            return f.write_str(&self.message);
        }
        write!(f, "at byte {}: {}", self.offset(), self.message)
    }
}

impl std::error::Error for Error {}

/// The error for component `id` referring to itself in `field`, worded as the reference words it.
pub(super) fn self_reference(id: &str, field: &str) -> Error {
    Error::new(
        ErrorKind::Topology,
        format!("Self-reference detected: Component '{id}' references itself in field '{field}'"),
    )
}

/// The kind of a catalog's verdict: a fault that is one component's (a self-reference, a cycle,
/// a chain too deep) is about the topology; any other rule is the catalog's.
pub(super) fn classify(e: &ValidationError) -> ErrorKind {
    if e.component().is_some() {
        ErrorKind::Topology
    } else {
        ErrorKind::Validation
    }
}
