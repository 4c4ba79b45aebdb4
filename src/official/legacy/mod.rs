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
//! Inside, a chunk goes through three parts, each owning its state: reading (`feed`, `block`,
//! the partial-JSON reader `partial_json` and the data-model differ `data_delta`), surfaces
//! (`surface`, `components`, `writing`, `message`, `data_model`) and emitting (`flush`,
//! `form`, `reuse`).

mod data_delta;
mod partial_json;
mod progressive;
pub mod response;

pub use progressive::{
    Limits, ProgressiveError, ProgressiveErrorKind, ProgressiveParser, ResponsePart,
};
