//! The AG-UI endpoint: `POST /agent` takes a `RunAgentInput` and answers with the run as
//! `text/event-stream`; `GET /healthz` answers `ok`.
//!
//! Each run has its own task, run builder and channel; nothing is shared between runs but the
//! model client. Every event is written to the response the moment the agent loop produces it.
//!
//! The run's A2UI version comes from `forwardedProps.a2uiVersion` (`"v0.8"`, `"v0.9"` or
//! `"v1.0"`), else the server's default. A button press arrives as `forwardedProps.a2uiAction.userAction`
//! (`{name, surfaceId, sourceComponentId, context}`) and is passed to the model as a user message.
//! A surface's catalog is named by the id the client renders it under, when the client says
//! ([`ClientCatalogs`]: `forwardedProps.a2uiClientCapabilities`, or CopilotKit's context entry).
//!
//! Browsers: a page may call `/agent` only from an allowed origin (by default the server's own
//! and loopback origins; `--allow-origin` / `A2UI_ALLOWED_ORIGINS` add others, `*` allows any).
//! Preflight requests are answered; a request from any other origin is refused with 403 before a
//! run starts, and `POST /agent` takes `application/json` only (415 otherwise), so a foreign page
//! cannot start a run with a form or a `text/plain` request.

use crate::llm::{Agent, AgentEvent, RunRequest};
use crate::prompt;
use crate::ui::Version;
use a2ui_stream::agui::{ClientCatalogs, RunAgentInput, RunBuilder, sse};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// How long the response may stay silent before a keep-alive comment is sent.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The `CUSTOM` event sent when the UI was rejected and the model is asked again.
pub const RETRY_EVENT: &str = "a2ui-retry";

struct AppState {
    agent: Agent,
    default_version: Version,
}

/// The origins a browser page may call the server from, besides its own and loopback ones.
#[derive(Debug, Clone, Default)]
pub struct Origins {
    /// Exact origins (`https://app.example.com`); `*` allows any.
    pub extra: Vec<String>,
}

impl Origins {
    /// The origins in `A2UI_ALLOWED_ORIGINS` (comma-separated), if any.
    pub fn from_env() -> Origins {
        let mut o = Origins::default();
        if let Ok(list) = std::env::var("A2UI_ALLOWED_ORIGINS") {
            o.add(&list);
        }
        o
    }

    /// Adds comma-separated origins.
    pub fn add(&mut self, list: &str) {
        self.extra.extend(
            list.split(',')
                .map(|s| s.trim().trim_end_matches('/'))
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
        );
    }

    /// Whether a request from `origin` to a server reached as `host` (its `Host` header) may go on.
    pub fn allows(&self, origin: &str, host: Option<&str>) -> bool {
        let Some((scheme, authority)) = origin.split_once("://") else {
            return false;
        };
        if self.extra.iter().any(|o| o == "*" || o == origin) {
            return true;
        }
        if matches!(scheme, "http" | "https") && host == Some(authority) {
            return true; // the page's own origin
        }
        let hostname = match authority.rsplit_once(':') {
            Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
            _ => authority,
        };
        matches!(scheme, "http" | "https")
            && matches!(hostname, "localhost" | "127.0.0.1" | "[::1]")
    }
}

/// The router: `POST /agent`, `GET /healthz`, the page; origins from `A2UI_ALLOWED_ORIGINS`.
#[allow(dead_code)] // the binary serves with `router_with`; the tests use this
pub fn router(agent: Agent, default_version: Version) -> Router {
    router_with(agent, default_version, Origins::from_env())
}

/// Answers preflight requests and refuses requests from origins not allowed; adds the CORS
/// headers to the others.
async fn cors(origins: Arc<Origins>, req: Request, next: Next) -> Response {
    let origin = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .map(str::to_owned);
    let Some(origin) = origin else {
        return next.run(req).await; // not a cross-origin browser request
    };
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    if !origins.allows(&origin, host) {
        return (
            StatusCode::FORBIDDEN,
            format!("origin {origin} is not allowed (see --allow-origin)"),
        )
            .into_response();
    }
    let mut response = if req.method() == Method::OPTIONS {
        let mut r = StatusCode::NO_CONTENT.into_response();
        let h = r.headers_mut();
        h.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET, POST, OPTIONS"),
        );
        h.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static("content-type, accept, last-event-id"),
        );
        h.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("600"),
        );
        r
    } else {
        next.run(req).await
    };
    let h = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&origin) {
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, v);
    }
    h.append(header::VARY, HeaderValue::from_static("origin"));
    response
}

/// Whether a request says its body is JSON.
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// The router with the given allowed origins.
pub fn router_with(agent: Agent, default_version: Version, origins: Origins) -> Router {
    let origins = Arc::new(origins);
    Router::new()
        .route("/agent", post(run_agent))
        .route("/healthz", get(|| async { "ok" }))
        // The browser page (`/`, `/app.js`, `/dist/...`), see page.rs.
        .merge(crate::page::router())
        .with_state(Arc::new(AppState {
            agent,
            default_version,
        }))
        .layer(middleware::from_fn(move |req: Request, next: Next| {
            cors(origins.clone(), req, next)
        }))
}

/// Serves the router on `listener` until `shutdown` completes (in-flight runs are finished first).
pub async fn serve(
    listener: tokio::net::TcpListener,
    agent: Agent,
    default_version: Version,
    origins: Origins,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router_with(agent, default_version, origins))
        .with_graceful_shutdown(shutdown)
        .await
}

/// Text of an AG-UI message's `content`: a string, or the text parts of a list.
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// What the client asked for: the version, and the conversation for the model (user and assistant
/// text, then the UI action if there is one).
pub fn run_request(input: &RunAgentInput, default_version: Version) -> Result<RunRequest, String> {
    let props = input.forwarded_props.clone().unwrap_or(Value::Null);
    let version = match props.get("a2uiVersion").and_then(Value::as_str) {
        Some(v) => Version::parse(v)
            .ok_or_else(|| format!("unknown A2UI version `{v}` in forwardedProps.a2uiVersion"))?,
        None => default_version,
    };
    let mut history = Vec::new();
    for m in &input.messages {
        let m = serde_json::to_value(m).unwrap_or(Value::Null);
        let role = m.get("role").and_then(Value::as_str).unwrap_or("");
        let text = content_text(m.get("content"));
        if matches!(role, "user" | "assistant") && !text.trim().is_empty() {
            history.push(json!({ "role": role, "content": text }));
        }
    }
    if let Some(action) = props.get("a2uiAction").and_then(|a| a.get("userAction")) {
        let name = action
            .get("name")
            .and_then(Value::as_str)
            .ok_or("forwardedProps.a2uiAction.userAction has no name")?;
        let context = action.get("context").cloned().unwrap_or_else(|| json!({}));
        history.push(json!({ "role": "user", "content": prompt::action_message(name, &context) }));
    }
    if history
        .last()
        .and_then(|m| m.get("role"))
        .and_then(Value::as_str)
        != Some("user")
    {
        return Err("the run has no user message or UI action to answer".into());
    }
    Ok(RunRequest { version, history })
}

/// Feeds one agent event to the run builder. Refusals cannot happen for a well-behaved loop; if
/// one does, it is reported in the stream instead of breaking it.
fn feed(run: &mut RunBuilder, catalogs: &ClientCatalogs, ev: AgentEvent) {
    let result = match ev {
        AgentEvent::Text(t) => run.text(&t),
        AgentEvent::A2ui(m) if m.kind() == a2ui_stream::MessageKind::CreateSurface => {
            match m.to_value() {
                Ok(mut v) => {
                    catalogs.rename(&mut v);
                    run.a2ui_value(m.surface_id(), v)
                }
                Err(_) => run.a2ui(a2ui_stream::Event::Message(m)),
            }
        }
        AgentEvent::A2ui(m) => run.a2ui(a2ui_stream::Event::Message(m)),
        AgentEvent::StreamProblem(e) => run.splitter(Err(e)),
        AgentEvent::ToolCallStart { id, name } => run.tool_call_start(&id, &name),
        AgentEvent::ToolCallArgs { id, delta } => run.tool_call_args(&id, &delta),
        AgentEvent::ToolCallEnd { id } => run.tool_call_end(&id),
        AgentEvent::ToolCallResult { id, content } => run.tool_call_result(&id, &content),
        AgentEvent::ResponseEnd => run.text_end(),
        AgentEvent::Retry { reason } => run.custom(RETRY_EVENT, json!({ "reason": reason })),
    };
    if let Err(e) = result {
        let _ = run.custom(
            "a2ui-stream.agent-error",
            json!({ "message": e.to_string() }),
        );
    }
}

/// Sends every event the builder has ready, as SSE frames. `false` once the client has gone.
fn flush(run: &mut RunBuilder, tx: &mpsc::UnboundedSender<Bytes>) -> bool {
    let mut open = true;
    for event in run.drain() {
        match sse::encode(&event) {
            Ok(frame) => open &= tx.send(Bytes::from(frame)).is_ok(),
            Err(e) => eprintln!("could not encode an AG-UI event: {e}"),
        }
    }
    open
}

async fn run_agent(State(app): State<Arc<AppState>>, headers: HeaderMap, body: Bytes) -> Response {
    if !is_json(&headers) {
        return (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "POST /agent takes a RunAgentInput as application/json",
        )
            .into_response();
    }
    let input: RunAgentInput = match serde_json::from_slice(&body) {
        Ok(i) => i,
        Err(e) => {
            return (
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("not a RunAgentInput: {e}"),
            )
                .into_response();
        }
    };
    let request = run_request(&input, app.default_version);
    let catalogs = ClientCatalogs::from_input(&input);
    let (tx, rx) = mpsc::unbounded_channel::<Bytes>();
    let app2 = app.clone();
    tokio::spawn(async move {
        let mut run = RunBuilder::from_input(input);
        let _ = run.start();
        flush(&mut run, &tx);
        let request = match request {
            Ok(r) => r,
            Err(e) => {
                let _ = run.fail(e, Some("BAD_REQUEST".into()));
                flush(&mut run, &tx);
                return;
            }
        };
        let watch = tx.clone();
        let mut sink = |ev: AgentEvent| {
            feed(&mut run, &catalogs, ev);
            flush(&mut run, &tx);
        };
        // Stop working for a client that has gone away.
        let outcome = tokio::select! {
            r = app2.agent.run(&request, &mut sink) => Some(r),
            _ = watch.closed() => None,
        };
        match outcome {
            Some(Ok(())) => {
                let _ = run.finish();
            }
            Some(Err(reason)) => {
                let _ = run.fail(reason, Some("AGENT_ERROR".into()));
            }
            None => return,
        }
        flush(&mut run, &watch);
    });
    let stream = futures::stream::unfold(rx, |mut rx| async move {
        match tokio::time::timeout(KEEP_ALIVE, rx.recv()).await {
            Ok(Some(frame)) => Some((Ok::<_, std::convert::Infallible>(frame), rx)),
            Ok(None) => None,
            Err(_) => Some((Ok(Bytes::from_static(sse::KEEP_ALIVE.as_bytes())), rx)),
        }
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .header("x-accel-buffering", "no")
        .body(Body::from_stream(stream))
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}
