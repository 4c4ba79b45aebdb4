//! Official A2UI semantics: component catalogs, message validation with the wording of the
//! reference implementation, and the direct-JSON streaming parser of the current SDK.
//!
//! * [`catalog`]: a [`Catalog`](catalog::Catalog) holds the message schema, the component catalog
//!   and the common types, and knows which component properties refer to other components.
//! * [`validator`]: a [`Validator`](validator::Validator) checks a list of messages against a
//!   catalog (JSON Schema, unique ids, root present, no dangling references, no cycles, no
//!   orphans, depth limits, data path syntax).
//! * [`direct`]: a [`DirectJsonParser`](direct::DirectJsonParser) streams the direct-JSON
//!   format of the current SDK (`a2ui-agent-sdk` 0.9.0): each message once it reads, each
//!   v1.0 component once it closes, on the core's lexer.
//! * `legacy` (cargo feature `legacy`): the progressive parser and whole-response parser of
//!   SDK 0.2.4-0.8.0 (release 0.9.0 ships the direct-JSON parser in their place).
//!
//! Enabled by the `official` cargo feature.

pub mod catalog;
pub mod direct;
#[cfg(test)]
mod json_trees;
#[cfg(feature = "legacy")]
pub mod legacy;
pub mod validator;

/// How much each step repeats.
///
/// ```
/// use a2ui_stream::official::Emission;
/// assert_ne!(Emission::Official, Emission::ChangedOnly);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Emission {
    /// Every step carries all reachable components of the surface that changed, as the
    /// reference implementation and the conformance suite expect.
    #[default]
    Official,
    /// Every step carries only the components and data values that are new or changed since
    /// the last step, a data value nested in a map at its own `path` (v0.8: the entries of the
    /// map it sits in; v0.9: the value itself): what a renderer that merges components by id
    /// and data by key needs; output grows linearly with the UI.
    ChangedOnly,
}
