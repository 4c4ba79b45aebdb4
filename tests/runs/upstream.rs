//! An OpenAI-compatible upstream that misbehaves as its path says:
//! `/{mode}/v1/chat/completions`, where mode is
//!
//! - `hang`: accepts the request, never answers;
//! - `stall`: the first tokens (20 bytes in 4 chunks, 20 ms apart), then nothing;
//! - `cut`: the first tokens, then the connection breaks;
//! - `slow`: a token every 100 ms, for ever;
//! - `fail`: 500 every time;
//! - `garbage`: the first tokens, then a `data:` line whose JSON breaks off in the middle, then
//!   a proper end;
//! - `mistyped`: the first tokens, then a `data:` line that is JSON but not a chat-completion
//!   chunk (its choice's index is a string), then a proper end;
//! - `ok`: [`ANSWER`] at once: a sentence and a small A2UI v0.9 block.

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use futures::StreamExt;
use futures::stream::BoxStream;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What `ok` answers: a sentence, then one surface with one Text component, in the basic
/// catalog of v0.9 (the demo's validator accepts it).
pub const ANSWER: &str = concat!(
    "Golden Dragon on Mott Street is the best rated place nearby.\n",
    "<a2ui-json>\n[\n",
    r#"{"version": "v0.9", "createSurface": {"surfaceId": "canned", "catalogId": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}},"#,
    "\n",
    r#"{"version": "v0.9", "updateComponents": {"surfaceId": "canned", "components": [{"id": "root", "component": "Text", "text": "Golden Dragon, 4.8 stars"}]}}"#,
    "\n]\n</a2ui-json>"
);

/// The first sentence of [`ANSWER`], which a thread's history holds once it was said.
#[cfg(feature = "store")]
pub const SENTENCE: &str = "Golden Dragon on Mott Street is the best rated place nearby.";

/// What `garbage` sends after the first tokens: a chunk whose JSON breaks off.
pub const TRUNCATED: &str = r#"{"id": "u", "object": "chat.completion.chunk", "created": 0, "model": "u", "choices": [{"index": 0, "delta": {"content": "in New Yo"#;

/// What `mistyped` sends after the first tokens: JSON, but not a chat-completion chunk.
pub const MISTYPED: &str = r#"{"choices": [{"index": "zero", "delta": {"content": "nearby"}}]}"#;

/// Keeps every request: its mode and its body.
#[derive(Clone, Default)]
pub struct Upstream {
    requests: Arc<Mutex<Vec<(String, Value)>>>,
    /// The address, `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Upstream {
    /// Starts it on a free port of 127.0.0.1.
    pub async fn start() -> Upstream {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let up = Upstream {
            base: format!("http://{}", listener.local_addr().unwrap()),
            ..Upstream::default()
        };
        let app = Router::new()
            .route("/{mode}/v1/chat/completions", post(completions))
            .with_state(up.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        up
    }

    /// The API base of one mode, for `OPENAI_BASE_URL`.
    pub fn api(&self, mode: &str) -> String {
        format!("{}/{mode}/v1", self.base)
    }

    /// The bodies of the requests to `mode` so far, in order.
    pub fn requests(&self, mode: &str) -> Vec<Value> {
        let all = self.requests.lock().unwrap();
        all.iter()
            .filter(|(m, _)| m == mode)
            .map(|(_, body)| body.clone())
            .collect()
    }
}

/// One chunk's JSON carrying `delta`.
fn chunk(delta: Value, finish: Option<&str>) -> String {
    json!({"id": "u", "object": "chat.completion.chunk", "created": 0, "model": "u",
           "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    .to_string()
}

fn data(payload: &str) -> Result<String, std::io::Error> {
    Ok(format!("data: {payload}\n\n"))
}

/// The end of an answer: a chunk with its finish reason, then `[DONE]`.
fn end() -> Vec<Result<String, std::io::Error>> {
    vec![data(&chunk(json!({}), Some("stop"))), data("[DONE]")]
}

type Sse = BoxStream<'static, Result<String, std::io::Error>>;

/// The first tokens, 20 bytes in 4 chunks, 20 ms apart.
fn head() -> Sse {
    futures::stream::iter(["Here ", "are ", "some ", "places"])
        .then(|t| async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            data(&chunk(json!({"content": t}), None))
        })
        .boxed()
}

fn sse(s: Sse) -> Response {
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .body(Body::from_stream(s))
        .unwrap()
}

async fn completions(
    State(up): State<Upstream>,
    Path(mode): Path<String>,
    body: String,
) -> Response {
    up.requests.lock().unwrap().push((
        mode.clone(),
        serde_json::from_str(&body).unwrap_or(Value::Null),
    ));
    let then = |bad: &'static str| {
        let rest = std::iter::once(data(bad)).chain(end());
        head().chain(futures::stream::iter(rest)).boxed()
    };
    match mode.as_str() {
        "hang" => {
            std::future::pending::<()>().await;
            StatusCode::OK.into_response()
        }
        "stall" => sse(head().chain(futures::stream::pending()).boxed()),
        "cut" => sse(head()
            .chain(futures::stream::once(async {
                tokio::time::sleep(Duration::from_millis(50)).await;
                Err(std::io::Error::other("upstream connection cut"))
            }))
            .boxed()),
        "slow" => sse(futures::stream::iter(0..10_000)
            .then(|i| async move {
                tokio::time::sleep(Duration::from_millis(100)).await;
                data(&chunk(json!({"content": format!("word{i} ")}), None))
            })
            .boxed()),
        "fail" => (StatusCode::INTERNAL_SERVER_ERROR, "upstream exploded").into_response(),
        "garbage" => sse(then(TRUNCATED)),
        "mistyped" => sse(then(MISTYPED)),
        "ok" => {
            let mut frames = vec![data(&chunk(
                json!({"role": "assistant", "content": ""}),
                None,
            ))];
            // Pieces of 16 bytes (the answer is ASCII).
            frames.extend(ANSWER.as_bytes().chunks(16).map(|p| {
                data(&chunk(
                    json!({"content": std::str::from_utf8(p).unwrap()}),
                    None,
                ))
            }));
            frames.extend(end());
            sse(futures::stream::iter(frames).boxed())
        }
        other => (StatusCode::NOT_FOUND, format!("no mode `{other}`")).into_response(),
    }
}
