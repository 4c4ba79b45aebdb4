//! # a2ui-stream
//!
//! Turns what an LLM streams into A2UI messages while it is still streaming.
//!
//! Feed every chunk to a [`Splitter`]; in the same call it hands back every piece the chunk
//! completed: prose [`Event::Text`], whole A2UI messages, each component of a `surfaceUpdate`
//! / `updateComponents` (or of a v1.0 `createSurface`'s inline list, after the surface) as its
//! own standalone [`Message`] the moment its closing brace arrives,
//! and each entry of a data-model update as an update of its own path (the list's records show
//! while later ones are still being written; see [`Config::split_data_depth`]).
//!
//! ```
//! use a2ui_stream::{Event, Splitter};
//!
//! let mut splitter = Splitter::new();
//! let mut text = String::new();
//! let mut messages = Vec::new();
//! for chunk in ["Here you go: <a2ui-js", "on>[{\"beginRendering\":{\"surfaceId\":\"s\",\"root\":\"r\"}},",
//!               "{\"surfaceUpdate\":{\"surfaceId\":\"s\",\"components\":[{\"id\":\"r\",\"com", "ponent\":{}}]}}]</a2ui-json> Enjoy!"] {
//!     for event in splitter.feed(chunk.as_bytes()) {
//!         match event.unwrap() {
//!             Event::Text(t) => text.push_str(std::str::from_utf8(&t).unwrap()),
//!             Event::Message(m) => messages.push(m.as_str().to_owned()),
//!         }
//!     }
//! }
//! assert!(splitter.finish().all(|e| e.is_ok()));
//! assert_eq!(text, "Here you go:  Enjoy!");
//! assert_eq!(messages[1], r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"r","component":{}}]}}"#);
//! ```
//!
//! # The parsers, one shape
//!
//! [`Splitter`] (this crate's semantics), `official::direct::DirectJsonParser` (the official
//! SDK 0.9.0's), `official::legacy::ProgressiveParser` (SDK 0.2.4-0.8.0's, feature `legacy`) and
//! `express::ExpressParser` (A2UI Express, feature `express`) are driven alike: `feed(chunk)` returns, in order, what the chunk completed and the errors
//! it met, each an [`Error`] with a `kind()`, an `offset()` and a `message()`, and the parser
//! goes on after an error; `finish()` returns what is left. The splitter hands out each message
//! as its text ([`Message::as_str`], or [`Message::to_value`]); the others hand out
//! `serde_json::Value`s (the two official ones also text, from a parser made with `json()`).
//!
//! # Features
//!
//! | feature | default | adds |
//! |---|---|---|
//! | (none) | | [`Splitter`], [`Config`], [`Message`], [`Event`], [`Error`], and [`renderer`] (what a renderer holds after the messages): needs only `memchr`, `bytes` and `serde_json` |
//! | `agui` | yes | `agui`: AG-UI events, SSE, a run builder, A2UI surfaces as activities, a verifier |
//! | `official` | yes | `official`: the current SDK's direct-JSON parser, validator and catalogs |
//! | `express` | no | `express`: A2UI Express, compiled whole or as it streams (`ExpressParser`), decompiled, and its system prompt |
//! | `legacy` | no | `official::legacy`: the progressive and whole-response parsers of SDK 0.2.4-0.8.0 |
//! | `async` | no | `stream`: a `futures::Stream` adapter and a `tokio_util` `Decoder` |
#![deny(missing_docs)]
#![forbid(unsafe_code)]
// Input never makes the library panic: no indexing or slicing that could be out of range, no
// `unwrap`/`expect`, no explicit panics (tests may).
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::todo,
        clippy::unimplemented,
        clippy::unreachable
    )
)]

#[cfg(feature = "agui")]
pub mod agui;
mod config;
mod data;
mod error;
#[cfg(feature = "express")]
pub mod express;
mod find;
mod framing;
mod hash;
mod message;
#[cfg(feature = "official")]
mod path;
pub mod renderer;
mod scan;
mod splitter;
#[cfg(feature = "async")]
pub mod stream;
mod writer;

#[cfg(feature = "official")]
pub mod official;

pub use config::{Config, Framing};
pub use error::{Error, ErrorKind};
pub use message::{Event, Message, MessageKind, Version};
pub use splitter::{Events, MAX_SPLIT_FIELD_BYTES, Splitter};
pub use writer::to_streaming_json;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The examples of `docs/agui.md`, compiled and run as doctests.
#[cfg(all(doctest, feature = "agui"))]
#[doc = include_str!("../docs/agui.md")]
pub struct AguiDocDoctests;

/// The examples of `docs/storage.md`, compiled and run as doctests.
#[cfg(all(doctest, feature = "store"))]
#[doc = include_str!("../docs/storage.md")]
pub struct StorageDocDoctests;

/// The examples of `docs/official.md`, compiled as doctests.
#[cfg(all(doctest, feature = "legacy"))]
#[doc = include_str!("../docs/official.md")]
pub struct OfficialDocDoctests;
