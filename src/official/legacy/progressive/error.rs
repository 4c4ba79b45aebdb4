//! What can go wrong while a response is parsed: [`Error`], its [`ErrorKind`], and the [`Limits`]
//! that bound what one response may make the parser hold.

use super::{Error, ErrorKind};
use crate::official::validator::ValidationError;

/// What went wrong while parsing a response: the rule (its [`kind`](Error::kind) and the
/// reference implementation's [`message`](crate::Error::message)) and where
/// ([`offset`](crate::Error::offset)). The parser goes on after it; see
/// [`ProgressiveParser::feed`](super::ProgressiveParser::feed).
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::legacy::{ProgressiveErrorKind, ProgressiveParser};
/// let catalog = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({"components": {}}), serde_json::json!({}));
/// let err = ProgressiveParser::new(&catalog).unwrap().feed("<a2ui-json>oops</a2ui-json>").into_iter().find_map(Result::err).unwrap();
/// assert_eq!(err.kind(), ProgressiveErrorKind::Json);
/// assert!(err.message().starts_with("Failed to parse JSON"));
/// assert!(err.to_string().starts_with("at byte 15: Failed to parse JSON"));
/// ```
pub type ProgressiveError = crate::Error<ProgressiveErrorKind>;

/// The kind of a [`ProgressiveError`].
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::legacy::{ProgressiveErrorKind, Limits, ProgressiveParser};
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V08, json!(null), json!({"components": {
///     "Card": {"type": "object", "properties": {"child": {"type": "string", "title": "ComponentId"}}}}}), json!(null));
/// let kind = |parser: &mut ProgressiveParser, text: &str| parser.feed(text).into_iter().find_map(Result::err).unwrap().kind();
///
/// let mut parser = ProgressiveParser::new(&catalog)?;
/// assert_eq!(kind(&mut parser, "<a2ui-json>[{]</a2ui-json>"), ProgressiveErrorKind::Json);
///
/// let mut parser = ProgressiveParser::new(&catalog)?;
/// let itself = r#"<a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "c"}},
///     {"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "c", "component": {"Card": {"child": "c"}}}]}}]</a2ui-json>"#;
/// assert_eq!(kind(&mut parser, itself), ProgressiveErrorKind::Topology);
///
/// let mut parser = ProgressiveParser::new(&catalog)?.with_limits(Limits { max_block_bytes: 16, ..Limits::default() });
/// assert_eq!(kind(&mut parser, "<a2ui-json>[{\"deleteSurface\": {\"surfaceId\": \"s\"}}]"), ProgressiveErrorKind::Limit);
/// # Ok::<(), a2ui_stream::official::legacy::ProgressiveError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProgressiveErrorKind {
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
/// ([`ProgressiveErrorKind::Limit`]), never unbounded memory or a crash; the defaults are far above what a
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

/// An error of `kind` saying `message`, placed later ([`crate::Error::at`]).
pub(super) fn error(kind: ErrorKind, message: impl Into<String>) -> Error {
    Error::of(kind, None, message)
}

/// The error for component `id` referring to itself in `field`, worded as the reference words it.
pub(super) fn self_reference(id: &str, field: &str) -> Error {
    error(
        ProgressiveErrorKind::Topology,
        format!("Self-reference detected: Component '{id}' references itself in field '{field}'"),
    )
}

/// The kind of a catalog's verdict: a fault that is one component's (a self-reference, a cycle,
/// a chain too deep) is about the topology; any other rule is the catalog's.
pub(super) fn classify(e: &ValidationError) -> ErrorKind {
    if e.component().is_some() {
        ProgressiveErrorKind::Topology
    } else {
        ProgressiveErrorKind::Validation
    }
}
