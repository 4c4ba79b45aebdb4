//! The agent server against small agents: every cut resumed on the three run logs, the run
//! deadline, the model's deadlines and retries, shutdown, limits, clients that leave, reused run
//! ids, callers kept apart, a tail that waits without spinning, and two requests for one run.
//!
//! Every server is started here on 127.0.0.1 and stopped by the test.

/// A client of the server's runs (shared with the demo's process tests).
#[path = "../../tests/support/runs.rs"]
#[allow(dead_code)] // not every helper is used here
mod runs;
pub use runs::*;

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

use a2ui_stream::agui::events::Event;
use a2ui_stream_server::{AgentServer, Handle, Options};
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
