//! The agent server against small agents: every cut resumed on the three run logs, the run
//! deadline, the model's deadlines and retries, shutdown, limits, clients that leave, reused run
//! ids, callers kept apart, a tail that waits without spinning, and two requests for one run.
//!
//! Every server is started here on 127.0.0.1 and stopped by the test.

/// A redis-server of the test's own (shared with the library's run log tests).
#[path = "../../tests/support/redis.rs"]
#[allow(dead_code)] // restarting Redis is for the run log's own tests
mod redis;

/// One line of a test's findings on the output.
pub fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// [`say`] once per `once`.
pub fn say_once(once: &std::sync::Once, line: &str) {
    once.call_once(|| say(line));
}

/// Agents that answer, stall, fail and misbehave as model clients.
#[path = "server/agents.rs"]
mod agents;
/// Clients that leave, run ids used twice, callers, CORS.
#[path = "server/faults.rs"]
mod faults;
/// The model's deadlines and retries, the run deadline, shutdown, the run limit.
#[path = "server/limits.rs"]
mod limits;
/// Resuming after every cut, on every run log.
#[path = "server/resume.rs"]
mod resume;

use a2ui_stream::agui::{Event, SseReader, verify};
use a2ui_stream_server::{AgentServer, Handle, Options};
use futures::StreamExt;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::sync::oneshot;

/// An in-process server; dropping it asks it to shut down.
pub struct Server {
    pub base: String,
    pub handle: Handle,
    stop: Option<oneshot::Sender<()>>,
    pub done: tokio::task::JoinHandle<()>,
}

impl Server {
    pub async fn start<A: a2ui_stream_server::Agent>(agent: A, options: Options) -> Server {
        Server::start_with(agent, options, |r| r).await
    }

    /// With `wrap` applied to the router (an auth layer, say).
    pub async fn start_with<A: a2ui_stream_server::Agent>(
        agent: A,
        options: Options,
        wrap: impl FnOnce(axum::Router) -> axum::Router,
    ) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (router, handle) = AgentServer::new(agent, options).router();
        let router = wrap(router);
        let (stop, stopped) = oneshot::channel::<()>();
        let h = handle.clone();
        let done = tokio::spawn(async move {
            let shutdown = async move {
                let _ = stopped.await;
            };
            a2ui_stream_server::serve_router(listener, router, h, shutdown)
                .await
                .unwrap();
        });
        Server {
            base,
            handle,
            stop: Some(stop),
            done,
        }
    }

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

/// A run request: thread, run, one user message.
pub fn input(thread: &str, run: &str, user: &str) -> Value {
    json!({
        "threadId": thread, "runId": run,
        "messages": [{"id": format!("{run}-user"), "role": "user", "content": user}],
    })
}

pub fn client() -> reqwest::Client {
    // Fails only when a provider is installed already, which is as good.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}

/// `POST /agent` with `input`, and `Last-Event-ID` when given.
pub async fn post(base: &str, input: &Value, last_event_id: Option<&str>) -> reqwest::Response {
    let mut req = client()
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

/// Reads frames, at most `limit` (then drops the connection), until the stream ends or breaks;
/// says whether it ended cleanly.
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

pub async fn whole(resp: reqwest::Response) -> Vec<Frame> {
    let (f, clean) = frames(resp, None).await;
    assert!(clean, "the stream broke");
    f
}

pub fn events(frames: &[Frame]) -> Vec<Event> {
    frames.iter().map(|(_, e)| e.clone()).collect()
}

/// Ids 1, 2, 3, … with no gap or duplicate, and a sequence the AG-UI verifier accepts.
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

/// The `RUN_ERROR` ending a run: (message, code).
pub fn run_error(frames: &[Frame]) -> Option<(String, Option<String>)> {
    match frames.last().map(|(_, e)| e) {
        Some(Event::RunError(e)) => Some((e.message.clone(), e.code.clone())),
        _ => None,
    }
}

/// The values of the `CUSTOM` events named `name`.
pub fn customs(frames: &[Frame], name: &str) -> Vec<Value> {
    frames
        .iter()
        .filter_map(|(_, e)| match e {
            Event::Custom(c) if c.name == name => Some(c.value.clone()),
            _ => None,
        })
        .collect()
}

/// Waits until `f` holds, at most 5 s.
pub async fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    for _ in 0..500 {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{what} did not happen within 5 s");
}
