//! The streaming semantics of the official SDK's releases 0.2.4 to 0.8.0 (`A2uiStreamParser`),
//! which release 0.9.0 removed in favour of the direct-JSON parser
//! ([`DirectJsonParser`](super::direct::DirectJsonParser)); enabled by the cargo feature
//! `legacy`.
//!
//! * [`ProgressiveParser`]: what a renderer should show after every chunk of a response, as
//!   the suite `legacy/streaming_parser.yaml` states it (placeholders for children still to
//!   come, cut prose shown as it grows, components repeated in official mode).
//! * [`response`]: a finished response split into prose and A2UI parts, with common slips in
//!   the JSON repaired (`parse_response`, `parse_and_fix`).
//!
//! Inside, a chunk goes through reading (`feed` splits prose from block text, `block` runs the
//! block through the partial-JSON reader `partial_json`), the surfaces (`components`,
//! `writing`, `message`, `data_model` with the differ `data_delta`, and the state in
//! `surface`) and emitting (`flush`, `form`, `reuse`).

mod data_delta;
mod partial_json;
mod progressive;
pub mod response;

pub use progressive::{
    Limits, ProgressiveError, ProgressiveErrorKind, ProgressiveParser, ResponsePart,
};
