//! What a server is configured with.

use crate::Deadlines;
use a2ui_stream::agui::{MemoryRunLog, RunLog};
use axum::http::HeaderValue;
use std::sync::Arc;
use std::time::Duration;

/// The server's options; [`Options::default`] is a safe start, [`Options::from_env`] reads
/// the environment.
///
/// ```
/// use a2ui_stream_server::Options;
/// use std::time::Duration;
///
/// let o = Options { max_runs: 32, echo_input: true, ..Options::default() };
/// assert_eq!(o.max_detached_runs, 256);
/// assert_eq!(o.reconnect_grace, Duration::from_secs(30));
/// ```
#[derive(Clone)]
pub struct Options {
    /// Where runs are kept for resuming and threads for their history: by default the most
    /// recent ones in memory ([`MemoryRunLog`]); a SQLite or Redis log survives a restart.
    pub log: Arc<dyn RunLog>,
    /// The deadlines; the server applies `total`, the agent the others.
    pub deadlines: Deadlines,
    /// Runs with a client at once (`A2UI_MAX_RUNS`, 256); one more new run gets 503 with
    /// `Retry-After`.
    pub max_runs: usize,
    /// Runs whose client left, waiting for it to reconnect (256); past it, a run that loses
    /// its client ends at once.
    pub max_detached_runs: usize,
    /// How long a run whose client left goes on waiting for a reconnect (30 s); then it ends
    /// with `RUN_ERROR` (`CLIENT_GONE`) and its model request is cancelled.
    pub reconnect_grace: Duration,
    /// End a run as soon as its client leaves, without waiting for a reconnect.
    pub cancel_on_disconnect: bool,
    /// Send the request back in `RUN_STARTED.input`.
    pub echo_input: bool,
    /// Origins whose pages may call the server, besides its own and loopback ones.
    pub origins: Origins,
    /// The largest request body (16 MiB); a larger one gets 413.
    pub max_body_bytes: usize,
    /// Requests being handled at once (1,024), the streaming of their answers not counted;
    /// past it, 503 with `Retry-After`.
    pub max_requests: usize,
    /// Silence after which a keep-alive comment is sent (15 s).
    pub keep_alive: Duration,
    /// How long open runs may go on after a shutdown is asked for (`A2UI_SHUTDOWN_TIMEOUT`,
    /// 10 s); then they end with `RUN_ERROR` (`SERVER_SHUTDOWN`).
    pub shutdown_timeout: Duration,
    /// Breaks each new run's first response after this many events (the run goes on), so that
    /// resuming can be watched and tested.
    pub cut_after: Option<usize>,
    /// How the runs' [`RunWriter`](crate::RunWriter)s read model output (the splitter's
    /// defaults); [`Config::lenient`](a2ui_stream::Config::lenient) reads the slips models make.
    pub splitter: a2ui_stream::Config,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            log: Arc::new(MemoryRunLog::new()),
            deadlines: Deadlines::default(),
            max_runs: 256,
            max_detached_runs: 256,
            reconnect_grace: Duration::from_secs(30),
            cancel_on_disconnect: false,
            echo_input: false,
            origins: Origins::default(),
            max_body_bytes: 16 << 20,
            max_requests: 1024,
            keep_alive: a2ui_stream::agui::sse::DEFAULT_KEEP_ALIVE,
            shutdown_timeout: Duration::from_secs(10),
            cut_after: None,
            splitter: a2ui_stream::Config::default(),
        }
    }
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("deadlines", &self.deadlines)
            .field("max_runs", &self.max_runs)
            .field("max_detached_runs", &self.max_detached_runs)
            .field("reconnect_grace", &self.reconnect_grace)
            .field("cancel_on_disconnect", &self.cancel_on_disconnect)
            .field("echo_input", &self.echo_input)
            .field("origins", &self.origins)
            .finish_non_exhaustive()
    }
}

impl Options {
    /// The defaults, with the deadlines, `A2UI_MAX_RUNS`, `A2UI_SHUTDOWN_TIMEOUT` and
    /// `A2UI_ALLOWED_ORIGINS` read from the environment.
    ///
    /// ```
    /// assert!(a2ui_stream_server::Options::from_env().is_ok());
    /// ```
    pub fn from_env() -> Result<Options, String> {
        let mut o = Options {
            deadlines: Deadlines::from_env()?,
            ..Options::default()
        };
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        if let Some(v) = var("A2UI_MAX_RUNS") {
            o.max_runs =
                v.trim().parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                    format!("A2UI_MAX_RUNS: `{v}` is not a positive whole number")
                })?;
        }
        if let Some(v) = var("A2UI_SHUTDOWN_TIMEOUT") {
            o.shutdown_timeout =
                crate::parse_seconds(&v).map_err(|e| format!("A2UI_SHUTDOWN_TIMEOUT: {e}"))?;
        }
        if let Some(v) = var("A2UI_ALLOWED_ORIGINS") {
            o.origins.add(&v);
        }
        Ok(o)
    }
}

/// The origins a browser page may call the server from: its own and loopback ones always, and
/// those added (`*`: any).
///
/// ```
/// use a2ui_stream_server::Origins;
///
/// let mut o = Origins::default();
/// assert!(o.allows("http://localhost:5173", None));
/// assert!(o.allows("https://app.example.com", Some("app.example.com")));
/// assert!(!o.allows("https://evil.example", Some("app.example.com")));
/// o.add("https://evil.example, https://other.example/");
/// assert!(o.allows("https://other.example", None));
/// ```
#[derive(Debug, Clone, Default)]
pub struct Origins {
    extra: Vec<String>,
}

impl Origins {
    /// Adds comma-separated origins (`https://app.example.com`; `*` for any).
    pub fn add(&mut self, list: &str) {
        self.extra.extend(
            list.split(',')
                .map(|s| s.trim().trim_end_matches('/'))
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
        );
    }

    /// Whether a page at `origin` may call a server it reaches as `host` (the `Host` header).
    pub fn allows(&self, origin: &str, host: Option<&str>) -> bool {
        let Some((scheme, authority)) = origin.split_once("://") else {
            return false;
        };
        if self.extra.iter().any(|o| o == "*" || o == origin) {
            return true;
        }
        if !matches!(scheme, "http" | "https") {
            return false;
        }
        if host == Some(authority) {
            return true;
        }
        let hostname = match authority.rsplit_once(':') {
            Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
            _ => authority,
        };
        matches!(hostname, "localhost" | "127.0.0.1" | "[::1]")
    }

    pub(crate) fn allows_header(&self, origin: &HeaderValue, host: Option<&HeaderValue>) -> bool {
        match origin.to_str() {
            Ok(o) => self.allows(o, host.and_then(|h| h.to_str().ok())),
            Err(_) => false,
        }
    }
}
