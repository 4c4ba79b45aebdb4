//! The router: `POST /agent`, `GET /agent/runs/{thread}/{run}`, `GET /healthz` over [`Runs`],
//! standing on tower's layers, and serving it until a shutdown.

use crate::log::SharedLog;
use crate::registry::{Registry, RunLimits, Stop};
use crate::runs::{Answer, Runs, Shared, busy};
use crate::{Agent, Caller, Options};
use a2ui_stream::agui::events::RunAgentInput;
use a2ui_stream::agui::sse;
use axum::body::Body;
use axum::error_handling::HandleErrorLayer;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Extension, Path, Query, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tower::ServiceBuilder;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::trace::TraceLayer;

const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");

/// An AG-UI server for one agent.
///
/// ```no_run
/// use a2ui_stream_server::{Agent, AgentError, AgentServer, Options, Run, RunWriter};
///
/// struct Echo;
/// impl Agent for Echo {
///     async fn run(&self, run: Run, out: &mut RunWriter) -> Result<(), AgentError> {
///         out.text(&run.input.user_text().unwrap_or_default())?;
///         Ok(())
///     }
/// }
///
/// # async fn serve() -> std::io::Result<()> {
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
/// AgentServer::new(Echo, Options::default())
///     .serve(listener, a2ui_stream_server::shutdown_signals())
///     .await
/// # }
/// ```
pub struct AgentServer<A> {
    agent: Arc<A>,
    options: Options,
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        match self {
            Answer::Events(body) => event_stream(Body::from_stream(body)),
            Answer::Refused(r) => {
                let status =
                    StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                let mut response = (status, r.message).into_response();
                if let Some(seconds) = r.retry_after {
                    response
                        .headers_mut()
                        .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
                }
                response
            }
        }
    }
}

/// A handle on a running server's runs, for shutting down and for tests.
#[derive(Clone)]
pub struct Handle {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (with, without) = self.open_runs();
        f.debug_struct("Handle")
            .field("runs_with_client", &with)
            .field("runs_without_client", &without)
            .finish()
    }
}

impl Handle {
    /// Runs open now: with a client, and waiting for one to reconnect.
    pub fn open_runs(&self) -> (usize, usize) {
        self.shared.registry.counts()
    }

    /// Ends every open run now with `RUN_ERROR` (`SERVER_SHUTDOWN`), and every follower.
    pub fn end_runs(&self) {
        self.shared
            .registry
            .stop_all(Stop::Shutdown(self.shared.options.shutdown_timeout));
        self.shared.ended.cancel();
    }

    /// Returns once no run is open.
    pub async fn wait_for_runs(&self) {
        self.shared.registry.wait_idle().await;
    }

    /// The run log, for async code.
    pub fn log(&self) -> &SharedLog {
        &self.shared.log
    }
}

impl<A: Agent> AgentServer<A> {
    /// A server for `agent` with `options`.
    pub fn new(agent: A, options: Options) -> AgentServer<A> {
        AgentServer {
            agent: Arc::new(agent),
            options,
        }
    }

    /// The runs without a router, for another web framework, and a handle on them.
    pub fn into_runs(self) -> (Runs<A>, Handle) {
        let o = &self.options;
        let log = SharedLog::new(o.log.clone());
        let shared = Arc::new(Shared {
            log: log.clone(),
            registry: Arc::new(Registry::new(
                RunLimits {
                    attached: o.max_runs,
                    detached: o.max_detached_runs,
                    grace: o.reconnect_grace,
                    cancel_on_disconnect: o.cancel_on_disconnect,
                },
                log.clone(),
            )),
            options: o.clone(),
            ended: CancellationToken::new(),
        });
        let runs = Runs {
            agent: self.agent,
            shared: shared.clone(),
        };
        (runs, Handle { shared })
    }

    /// The router (to merge with an application's own routes, or to serve with any server),
    /// and a handle on its runs.
    pub fn router(self) -> (Router, Handle) {
        let o = self.options.clone();
        let (runs, handle) = self.into_runs();
        let origins = o.origins.clone();
        let cors = CorsLayer::new()
            .allow_origin(AllowOrigin::predicate(move |origin, parts| {
                origins.allows_header(origin, parts.headers.get(header::HOST))
            }))
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([
                header::CONTENT_TYPE,
                header::ACCEPT,
                header::AUTHORIZATION,
                LAST_EVENT_ID,
            ])
            .max_age(Duration::from_secs(600));
        let max_runs = o.max_runs;
        let state = Arc::new(runs);
        let router = Router::new()
            .route("/agent", post(post_agent::<A>))
            .route("/agent/runs/{thread_id}/{run_id}", get(get_run::<A>))
            .route("/healthz", get(|| async { "ok" }))
            .with_state(state)
            // The body limit below is the one that counts.
            .layer(DefaultBodyLimit::disable())
            .layer(
                ServiceBuilder::new()
                    .layer(TraceLayer::new_for_http())
                    .layer(HandleErrorLayer::new(move |e: tower::BoxError| async move {
                        tracing::warn!("request refused: {e}");
                        busy(format!(
                            "the server is handling its limit of requests; try again shortly (runs: at most {max_runs})"
                        ))
                    }))
                    .load_shed()
                    .concurrency_limit(o.max_requests)
                    .layer(RequestBodyLimitLayer::new(o.max_body_bytes))
                    .layer(cors),
            );
        (router, handle)
    }

    /// Serves on `listener` until `shutdown` completes; then no new connection is taken, open
    /// runs have [`Options::shutdown_timeout`] to finish before they end with `RUN_ERROR`
    /// (`SERVER_SHUTDOWN`), and this returns once every run has ended.
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let (router, handle) = self.router();
        serve_router(listener, router, handle, shutdown).await
    }
}

/// [`AgentServer::serve`] for a router merged with other routes.
pub async fn serve_router(
    listener: tokio::net::TcpListener,
    router: Router,
    handle: Handle,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let grace = handle.shared.options.shutdown_timeout;
    let on_stop = handle.clone();
    let result = axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            tokio::spawn(async move {
                tokio::time::sleep(grace).await;
                on_stop.end_runs();
            });
        })
        .await;
    // Runs whose clients left are not connections: wait for them too.
    handle.wait_for_runs().await;
    result
}

/// Resolves at the first Ctrl-C or SIGTERM, and from then on a second one exits the process at
/// once with status 130.
pub async fn shutdown_signals() {
    signal().await;
    tracing::warn!("shutting down: open runs get the shutdown deadline (stop again to exit now)");
    tokio::spawn(async {
        signal().await;
        tracing::warn!("exiting now");
        std::process::exit(130);
    });
}

/// Ctrl-C, or (on Unix) SIGTERM.
async fn signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

fn event_stream(body: Body) -> Response {
    let mut r = Response::new(body);
    for (name, value) in sse::HEADERS {
        if let (Ok(n), Ok(v)) = (HeaderName::try_from(name), HeaderValue::from_str(value)) {
            r.headers_mut().insert(n, v);
        }
    }
    r
}

/// `POST /agent`: a new run, or the rest of a known one.
async fn post_agent<A: Agent>(
    State(runs): State<Arc<Runs<A>>>,
    caller: Option<Extension<Caller>>,
    headers: HeaderMap,
    input: Result<Json<RunAgentInput>, JsonRejection>,
) -> Response {
    let input = match input {
        Ok(Json(input)) => input,
        Err(rejection) => return rejection.into_response(),
    };
    let last_event_id = headers.get(LAST_EVENT_ID).map(HeaderValue::as_bytes);
    runs.post(input, last_event_id, caller.map(|Extension(c)| c))
        .await
        .into_response()
}

#[derive(serde::Deserialize)]
struct After {
    after: Option<String>,
}

/// `GET /agent/runs/{thread}/{run}`: the run's events after `Last-Event-ID` (or `?after=N`;
/// neither: the whole run), then its live tail; 404 for a run the caller does not have.
async fn get_run<A: Agent>(
    State(runs): State<Arc<Runs<A>>>,
    caller: Option<Extension<Caller>>,
    Path((thread_id, run)): Path<(String, String)>,
    Query(query): Query<After>,
    headers: HeaderMap,
) -> Response {
    let last_event_id = headers.get(LAST_EVENT_ID).map(HeaderValue::as_bytes);
    let caller = caller.map(|Extension(c)| c);
    runs.get(
        &thread_id,
        &run,
        last_event_id,
        query.after.as_deref(),
        caller,
    )
    .await
    .into_response()
}
