//! Official A2UI semantics: component catalogs, message validation with the wording of the
//! reference implementation, and whole-response parsing.
//!
//! * [`catalog`]: a [`Catalog`](catalog::Catalog) holds the message schema, the component catalog
//!   and the common types, and knows which component properties refer to other components.
//! * [`validator`]: a [`Validator`](validator::Validator) checks a list of messages against a
//!   catalog (JSON Schema, unique ids, root present, no dangling references, no cycles, no
//!   orphans, depth limits, data path syntax).
//! * [`progressive`]: a [`ProgressiveParser`](progressive::ProgressiveParser) turns a response
//!   arriving in chunks into what a renderer should show after each chunk, following the
//!   official streaming rules.
//! * [`direct`]: a [`DirectJsonParser`](direct::DirectJsonParser) streams the direct-JSON
//!   format of the current SDK (`a2ui-agent-sdk` 0.9.0): each message once it reads, each
//!   v1.0 component once it closes, on the core's lexer.
//! * [`response`]: splits a complete model response into prose and A2UI parts, repairing common
//!   slips in the JSON (smart quotes, trailing commas, a single object instead of a list).
//!
//! Enabled by the `official` cargo feature.

pub mod catalog;
mod data_delta;
pub mod direct;
#[cfg(test)]
mod json_trees;
mod partial_json;
pub mod progressive;
pub mod response;
pub mod validator;
