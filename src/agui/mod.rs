//! AG-UI transport: compliant event streams for A2UI agents (feature `agui`).
//!
//! - [`events`]: every AG-UI 1.0 event, [`RunAgentInput`](events::RunAgentInput), messages
//!   and tools, as serde types.
//! - [`RunBuilder`]: turns what an agent produces into a sequence the AG-UI client accepts,
//!   whatever order the agent produces it in.
//! - [`verify()`] and [`Verifier`]: check any event sequence against the client's rules and
//!   name the first violation.
//! - [`sse`]: `text/event-stream` framing with ids and keep-alives, `Last-Event-ID`, and
//!   [`SseReader`] for the other side.
//! - [`A2uiActivities`]: A2UI surfaces as `a2ui-surface` activities (one snapshot, then appends),
//!   v0.8 updates completed by [`SelfContained`] so that each defines every id it references.
//! - [`ClientCatalogs`]: names a surface's catalog by the id the client renders it under.
//! - [`RunLog`]: a run log that keeps every event of a run under a sequence number, so a client
//!   resumes after a reconnect (`Last-Event-ID`) or replays a finished run, and keeps each
//!   thread's conversation; in memory ([`MemoryRunLog`]), in SQLite (feature `store`) or in
//!   Redis (feature `store-redis`).
//!
//! ```
//! use a2ui_stream::agui::{verify, RunBuilder};
//!
//! let mut run = RunBuilder::new("thread-1", "run-1");
//! run.text("Hello").unwrap();
//! run.text(", world").unwrap();
//! run.finish().unwrap();
//! let events: Vec<_> = run.drain().collect();
//! let types: Vec<_> = events.iter().map(|e| e.event_type().as_str()).collect();
//! assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
//!                    "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
//! assert!(verify(&events).is_ok());
//! ```

mod a2ui;
mod catalogs;
mod closure;
pub mod events;
mod run;
pub mod sse;
mod store;
mod verify;

pub use a2ui::{A2UI_ACTIVITY_TYPE, A2UI_OPERATIONS, A2uiActivities};
pub use catalogs::ClientCatalogs;
pub use closure::SelfContained;
pub use run::{
    A2UI_ERROR_EVENT, INVALID_TOOL_ARGUMENTS, RunBuilder, RunBuilderError, RunBuilderErrorKind,
};
pub use sse::{SseError, SseErrorKind, SseReader};
#[cfg(feature = "store-redis")]
pub use store::RedisRunLog;
#[cfg(feature = "store")]
pub use store::SqliteRunLog;
pub use store::{
    MemoryRunLog, RunLog, RunRecorder, RunStatus, SERVER_RESTARTED, StoreError, StoreErrorKind,
    Stored, messages_of_run, upsert_messages,
};
pub use verify::{Rule, Span, Verifier, Violation, verify};
