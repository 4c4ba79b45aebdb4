//! The AG-UI endpoint: `POST /agent` takes a `RunAgentInput` and answers with the run as
//! `text/event-stream`; `GET /healthz` answers `ok`.
//!
//! Each run has its own task, run builder and channel; nothing is shared between runs but the
//! model client and the run log. Every event is written to the response the moment the agent
//! loop produces it, with its sequence number as the SSE `id:` (see runs.rs for resuming,
//! deadlines, limits and shutdown).
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

use crate::limits::ServerLimits;
use crate::llm::{Agent, RunRequest};
use crate::prompt;
use crate::runs::{self, AppState};
use crate::ui::Version;
use a2ui_stream::agui::RunAgentInput;
use a2ui_stream::agui::store::{MemoryRunLog, RunLog};
use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use std::sync::Arc;
use tokio::sync::watch;

#[allow(unused_imports)] // the binary does not name them; the tests do
pub use crate::runs::{MODEL_RETRY_EVENT, RETRY_EVENT};

/// How the server runs: the default A2UI version, who may call it, its limits and its run log.
#[derive(Clone)]
pub struct ServerConfig {
    pub default_version: Version,
    pub origins: Origins,
    pub limits: ServerLimits,
    /// Where runs are kept for resuming; by default in memory (the most recent runs).
    pub log: Arc<dyn RunLog>,
    /// Ends each new run's first response after this many events (the run goes on), so that
    /// resuming can be watched: `--cut-after`.
    pub cut_after: Option<usize>,
}

impl ServerConfig {
    /// Version `default_version`, origins from `A2UI_ALLOWED_ORIGINS`, default limits, runs
    /// kept in memory.
    pub fn new(default_version: Version) -> ServerConfig {
        ServerConfig {
            default_version,
            origins: Origins::from_env(),
            limits: ServerLimits::default(),
            log: Arc::new(MemoryRunLog::new()),
            cut_after: None,
        }
    }
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
#[allow(dead_code)] // the binary serves with `serve`; the tests use this
pub fn router(agent: Agent, default_version: Version) -> Router {
    router_with(
        agent,
        ServerConfig::new(default_version),
        watch::channel(false).1,
    )
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
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// The router with the given configuration; open runs end when `abort` turns true.
pub fn router_with(agent: Agent, config: ServerConfig, abort: watch::Receiver<bool>) -> Router {
    router_and_state(agent, config, abort).0
}

fn router_and_state(
    agent: Agent,
    config: ServerConfig,
    abort: watch::Receiver<bool>,
) -> (Router, Arc<AppState>) {
    let origins = Arc::new(config.origins.clone());
    let state = Arc::new(AppState::new(agent, config, abort));
    let router = Router::new()
        .route("/agent", post(runs::run_agent))
        .route("/agent/runs/{thread_id}/{run_id}", get(runs::resume_run))
        .route("/healthz", get(|| async { "ok" }))
        // The browser page (`/`, `/app.js`, `/dist/...`), see page.rs.
        .merge(crate::page::router())
        .with_state(state.clone())
        .layer(middleware::from_fn(move |req: Request, next: Next| {
            cors(origins.clone(), req, next)
        }));
    (router, state)
}

/// Serves the router on `listener` until `shutdown` completes. Then no new connection is taken;
/// open runs have the shutdown deadline to finish, after which they end with `RUN_ERROR`
/// (`SERVER_SHUTDOWN`), and this returns once every run has ended.
pub async fn serve(
    listener: tokio::net::TcpListener,
    agent: Agent,
    config: ServerConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (abort_tx, abort_rx) = watch::channel(false);
    let grace = config.limits.shutdown;
    let (router, state) = router_and_state(agent, config, abort_rx);
    let abort_tx = Arc::new(abort_tx);
    let on_stop = abort_tx.clone();
    let result = axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            tokio::spawn(async move {
                tokio::time::sleep(grace).await;
                let _ = on_stop.send(true);
            });
        })
        .await;
    // Runs whose clients went away are not connections: wait for them too (they end at the
    // deadline at the latest).
    state.wait_for_runs().await;
    drop(abort_tx);
    result
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
