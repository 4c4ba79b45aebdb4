//! A2UI Express: the compact format a model can write instead of JSON, one statement per
//! component (`title = Text($/name, "h3")`), compiled to A2UI v0.9 and v1.0 messages.
//!
//! Enabled by the `express` cargo feature.

/// The error of every Express operation: its kind, the byte where it went wrong, and what
/// happened.
pub type ExpressError = crate::Error<ExpressErrorKind>;

/// The rule an [`ExpressError`] says was broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExpressErrorKind {
    /// Text the format cannot read (the grammar's rule is in the message).
    Parse,
    /// Text that reads but names something the catalog does not declare, or compiles to
    /// messages the catalog rejects.
    Validation,
}
