//! # a2ui-stream-server
//!
//! An [AG-UI](https://docs.ag-ui.com) agent server as a library call: write an [`Agent`], get an
//! `axum::Router` that serves it with everything a run needs to survive production.
//!
//! ```no_run
//! use a2ui_stream_server::{Agent, AgentError, AgentServer, Options, Run, RunWriter};
//!
//! struct Echo;
//!
//! impl Agent for Echo {
//!     async fn run(&self, run: Run, out: &mut RunWriter) -> Result<(), AgentError> {
//!         let said = run.input.user_text().ok_or("say something")?;
//!         out.text(&format!("You said: {said}"))?;
//!         Ok(())
//!     }
//! }
//!
//! #[tokio::main]
//! async fn main() -> std::io::Result<()> {
//!     let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
//!     AgentServer::new(Echo, Options::default())
//!         .serve(listener, a2ui_stream_server::shutdown_signals())
//!         .await
//! }
//! ```
//!
//! The router answers `POST /agent` (a `RunAgentInput`, answered as `text/event-stream`),
//! `GET /agent/runs/{thread}/{run}` (resume or replay) and `GET /healthz`. Every event is
//! recorded in the run log before it is sent, with its sequence number as the SSE `id:`, so a
//! client that loses its connection resumes with `Last-Event-ID`. Runs outlive their client
//! for [`Options::reconnect_grace`]; the run deadline, a shutdown or a client that does not
//! come back end a run with a `RUN_ERROR` that says which. CORS, the body limit, request
//! load shedding and tracing are tower layers. `docs/server.md` describes the behaviour.
//!
//! The pieces stand alone for other frameworks: [`Runs`] (the two routes' answers without a
//! router, from [`AgentServer::into_runs`]), [`RunWriter`] (a run's events from an agent's
//! output), [`SharedLog`] (the run log for async code, and following a run as a stream of SSE
//! frames), [`Arrival`] and [`Retries`] (the model's deadlines and visible retries), and in
//! `a2ui_stream`: `agui::sse::last_event_id`, `RunAgentInput::user_text`,
//! `to_streaming_json`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic
    )
)]

mod agent;
mod deadlines;
mod log;
mod options;
mod registry;
mod retry;
mod runs;
mod server;
mod writer;

pub use agent::{Agent, AgentError, Caller, Run};
pub use deadlines::{Arrival, Deadline, DeadlinePassed, Deadlines, parse_seconds, seconds};
pub use log::{POLL, SharedLog};
pub use options::{Options, Origins};
pub use retry::{GaveUp, MODEL_RETRY_EVENT, Retries};
pub use runs::{Answer, EventStream, Refusal, Runs};
pub use server::{AgentServer, Handle, serve_router, shutdown_signals};
pub use tokio_util::sync::CancellationToken;
pub use writer::{RunWriter, Split};

/// The examples of `docs/server.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/server.md")]
pub struct ServerDocDoctests;
