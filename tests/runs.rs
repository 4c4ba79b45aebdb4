//! Runs that survive: the restaurant finder's server resumes a run after a broken connection
//! (`Last-Event-ID`), keeps runs and conversations in its run log (in memory, SQLite, Redis),
//! ends every run a deadline or a shutdown cuts short with a `RUN_ERROR` that says which, and
//! refuses runs past its limit with 503.
//!
//! Every server here is started by the test on 127.0.0.1 and stopped by it: in-process servers
//! for most checks, and the example binary itself (`target/*/examples/restaurant_finder`, built
//! by `cargo test`) where a process must be killed, restarted, signalled or shared.

#![allow(dead_code)]

#[path = "../examples/restaurant_finder/console.rs"]
mod console;
#[path = "../examples/restaurant_finder/limits.rs"]
mod limits;
#[path = "../examples/restaurant_finder/llm.rs"]
mod llm;
#[path = "../examples/restaurant_finder/official.rs"]
mod official;
#[path = "../examples/restaurant_finder/page.rs"]
mod page;
#[path = "../examples/restaurant_finder/prompt.rs"]
mod prompt;
#[path = "../examples/restaurant_finder/runs.rs"]
mod runs;
#[path = "../examples/restaurant_finder/scripted.rs"]
mod scripted;
#[path = "../examples/restaurant_finder/server.rs"]
mod server;
#[path = "../examples/restaurant_finder/surface.rs"]
mod surface;
#[path = "../examples/restaurant_finder/tools.rs"]
mod tools;
#[path = "../examples/restaurant_finder/trim.rs"]
mod trim;
#[path = "../examples/restaurant_finder/ui.rs"]
mod ui;

mod support;

/// Fake upstreams that hang, stall, cut, crawl and fail.
#[path = "runs/deadlines.rs"]
mod deadlines;
/// The concurrency limit and memory under load.
#[path = "runs/load.rs"]
mod load;
/// Server processes: killed and restarted on SQLite, sharing Redis, shut down.
#[path = "runs/process.rs"]
mod process;
/// Dropping the client after every number of events, and resuming.
#[path = "runs/resume.rs"]
mod resume;

use a2ui_stream::agui::{Event, SseReader, verify};
use futures::StreamExt;
use llm::{Agent, ModelConfig};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::sync::oneshot;
use ui::Version;

/// An in-process server; dropping it asks it to shut down.
pub struct Server {
    pub base: String,
    stop: Option<oneshot::Sender<()>>,
    pub done: tokio::task::JoinHandle<()>,
}

impl Server {
    pub async fn start(agent: Agent, config: server::ServerConfig) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = oneshot::channel::<()>();
        let done = tokio::spawn(async move {
            let shutdown = async move {
                let _ = stopped.await;
            };
            server::serve(listener, agent, config, shutdown)
                .await
                .unwrap();
        });
        Server {
            base,
            stop: Some(stop),
            done,
        }
    }

    /// Asks the server to shut down (open runs get the shutdown deadline).
    pub fn shut_down(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shut_down();
    }
}

/// The demo's server configuration for tests: v0.9, loopback origins, runs in memory.
pub fn config() -> server::ServerConfig {
    let mut c = server::ServerConfig::new(Version::V09);
    c.origins = server::Origins::default();
    c
}

/// An agent on the scripted model pacing its tokens by `delay`.
pub async fn scripted(delay: Duration) -> (Agent, scripted::ScriptedModel) {
    let model = scripted::ScriptedModel::start(delay).await.unwrap();
    (agent_at(&model.api_base()), model)
}

/// An agent calling the OpenAI-compatible API at `api_base`.
pub fn agent_at(api_base: &str) -> Agent {
    Agent::new(&ModelConfig {
        api_base: api_base.to_owned(),
        api_key: "test".into(),
        model: "scripted".into(),
    })
}

/// A run request for thread `thread`, run `run`, with one user message.
pub fn input(thread: &str, run: &str, user: &str) -> Value {
    json!({
        "threadId": thread, "runId": run,
        "messages": [{"id": format!("{run}-user"), "role": "user", "content": user}],
        "forwardedProps": {"a2uiVersion": "v0.9"}
    })
}

pub const QUERY: &str = "Top 3 Chinese restaurants in New York";

/// `POST /agent` with `input`, and `Last-Event-ID` when given.
pub async fn post(base: &str, input: &Value, last_event_id: Option<&str>) -> reqwest::Response {
    // The TLS backend needs a crypto provider before the first client, even for plain HTTP.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut req = reqwest::Client::new()
        .post(format!("{base}/agent"))
        .header("content-type", "application/json")
        .body(input.to_string());
    if let Some(id) = last_event_id {
        req = req.header("last-event-id", id);
    }
    req.send().await.unwrap()
}

/// One SSE frame as read: its id and its event.
pub type Frame = (Option<String>, Event);

/// Reads frames from a response, at most `limit` of them (then drops the connection), until
/// the stream ends or breaks; says whether it ended cleanly.
pub async fn frames(resp: reqwest::Response, limit: Option<usize>) -> (Vec<Frame>, bool) {
    assert_eq!(resp.status(), 200, "{:?}", resp.headers());
    let mut reader = SseReader::new();
    let mut out = Vec::new();
    let mut body = resp.bytes_stream();
    while let Some(chunk) = body.next().await {
        let Ok(chunk) = chunk else {
            return (out, false);
        };
        for f in reader.feed_frames(&chunk) {
            let f = f.unwrap();
            out.push((f.id.clone(), f.event));
            if limit.is_some_and(|n| out.len() >= n) {
                return (out, false);
            }
        }
    }
    (out, true)
}

/// Reads a whole run.
pub async fn whole(resp: reqwest::Response) -> Vec<Frame> {
    let (f, clean) = frames(resp, None).await;
    assert!(clean, "the stream broke");
    f
}

pub fn events(frames: &[Frame]) -> Vec<Event> {
    frames.iter().map(|(_, e)| e.clone()).collect()
}

/// The run's events as JSON with the run's own id replaced, to compare runs.
pub fn normalized(frames: &[Frame], run: &str) -> Vec<String> {
    frames
        .iter()
        .map(|(_, e)| serde_json::to_string(e).unwrap().replace(run, "RUN"))
        .collect()
}

/// Ids 1, 2, 3, … with no gap and no duplicate, and a sequence the AG-UI verifier accepts.
pub fn assert_whole_run(frames: &[Frame]) {
    let ids: Vec<u64> = frames
        .iter()
        .map(|(id, _)| id.as_deref().unwrap().parse().unwrap())
        .collect();
    let want: Vec<u64> = (1..=frames.len() as u64).collect();
    assert_eq!(ids, want, "event ids");
    if let Err(v) = verify(&events(frames)) {
        panic!("the AG-UI verifier refuses the run: {v}");
    }
}

/// The `RUN_ERROR` that ends a run, if it ends with one: (message, code).
pub fn run_error(frames: &[Frame]) -> Option<(String, Option<String>)> {
    match frames.last().map(|(_, e)| e) {
        Some(Event::RunError(e)) => Some((e.message.clone(), e.code.clone())),
        _ => None,
    }
}

/// The `CUSTOM` events named `name`, their values.
pub fn customs(frames: &[Frame], name: &str) -> Vec<Value> {
    frames
        .iter()
        .filter_map(|(_, e)| match e {
            Event::Custom(c) if c.name == name => Some(c.value.clone()),
            _ => None,
        })
        .collect()
}
