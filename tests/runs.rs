//! The restaurant finder's server as a process, through its command line: each way a model can
//! misbehave ends the run with a `RUN_ERROR` that names it within the deadline that covers it;
//! a run resumes after a broken connection (`--cut-after`), after a restart on its SQLite file
//! (`--store FILE`) and on another process sharing Redis (`--store redis://…`); runs past
//! `--max-runs` get 503; the memory stays bounded under load; Ctrl-C ends stuck runs at
//! `--shutdown-timeout`, and a second Ctrl-C exits at once.
//!
//! Every test runs the example binary (`target/<profile>/examples/restaurant_finder`), which
//! `cargo test` builds with the examples; with `--test runs` alone build it first:
//! `cargo build --all-features --example restaurant_finder`. Its model is either its own
//! scripted one or the fake OpenAI-compatible upstream of `runs/upstream.rs`. Nothing here
//! includes the example's modules: the library server's own behaviour (resume on every cut for
//! each run log, limits, echo, shutdown, tails) is tested in `server/tests`.

mod support;

/// A fake OpenAI-compatible model that hangs, stalls, cuts, crawls, fails or sends garbage.
#[path = "runs/upstream.rs"]
mod upstream;

/// The example binary as a server process.
#[path = "runs/process.rs"]
mod process;

/// Each misbehaving model ends its run as the deadline flags say.
#[path = "runs/deadlines.rs"]
mod deadlines;

/// Resuming: after a cut connection, after a restart on SQLite, on another process over Redis.
#[path = "runs/resume.rs"]
mod resume;

/// `--max-runs` and the memory under load.
#[path = "runs/load.rs"]
mod load;

/// Ctrl-C, once and twice.
#[path = "runs/shutdown.rs"]
mod shutdown;

pub use a2ui_stream::agui::events::Event;
use serde_json::{Value, json};
pub use support::runs::*;

/// The `CUSTOM` event the server writes before each retry of a model request.
pub const MODEL_RETRY_EVENT: &str = "a2ui-stream.model-retry";

/// A run request for thread `thread`, run `run`, with one user message.
pub fn input(thread: &str, run: &str, user: &str) -> Value {
    json!({
        "threadId": thread, "runId": run,
        "messages": [{"id": format!("{run}-user"), "role": "user", "content": user}],
        "forwardedProps": {"a2uiVersion": "v0.9"}
    })
}

pub const QUERY: &str = "Top 3 Chinese restaurants in New York";
