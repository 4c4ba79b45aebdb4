//! A client of an AG-UI server's runs: requests, SSE frames with their ids, and checks on a
//! whole run. Shared by the demo's process tests and the server crate's tests.

use a2ui_stream::agui::events::Event;
use a2ui_stream::agui::{SseReader, verify};
use futures::StreamExt;
use serde_json::Value;

/// An HTTP client.
pub fn client() -> reqwest::Client {
    // Built with the whole workspace, reqwest has the demo's TLS backend, which needs a crypto
    // provider before the first client, even for plain HTTP. Installed already is as good.
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

/// `GET {base}{path}`, with `Last-Event-ID` when given.
pub async fn get(base: &str, path: &str, last_event_id: Option<&str>) -> reqwest::Response {
    let mut req = client().get(format!("{base}{path}"));
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
            out.push((f.id, f.event));
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
    assert!(clean, "the stream broke after {} frames: {f:?}", f.len());
    f
}

/// The events of frames.
pub fn events(frames: &[Frame]) -> Vec<Event> {
    frames.iter().map(|(_, e)| e.clone()).collect()
}

/// The run's events as JSON with its run id, then its thread id replaced, to compare runs.
pub fn normalized(frames: &[Frame], thread: &str, run: &str) -> Vec<String> {
    frames
        .iter()
        .map(|(_, e)| {
            serde_json::to_string(e)
                .unwrap()
                .replace(run, "RUN")
                .replace(thread, "THREAD")
        })
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

/// Whether the run ended with `RUN_FINISHED`.
pub fn finished(frames: &[Frame]) -> bool {
    matches!(frames.last(), Some((_, Event::RunFinished(_))))
}

/// The `RUN_ERROR` that ends a run, if it ends with one: (message, code).
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
