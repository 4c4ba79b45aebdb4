use super::*;
use crate::limits::{Deadlines, Retries};
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post as route_post;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// An OpenAI-compatible upstream that misbehaves as its path says:
/// `/{mode}/v1/chat/completions` with mode `hang` (accepts, never answers), `stall` (answers a
/// few tokens, then nothing), `cut` (a few tokens, then the connection breaks), `slow` (a token
/// every 100 ms), `fail` (500 every time), `ok` (the scripted answer at once).
#[derive(Clone, Default)]
pub struct Upstream {
    pub requests: Arc<AtomicUsize>,
    /// Every request body, in order.
    pub bodies: Arc<std::sync::Mutex<Vec<Value>>>,
}

fn payload(text: &str) -> String {
    json!({"id": "u", "object": "chat.completion.chunk", "created": 0, "model": "u",
           "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": null}]})
    .to_string()
}

async fn completions(
    State(up): State<Upstream>,
    Path(mode): Path<String>,
    body: String,
) -> Response {
    up.requests.fetch_add(1, Ordering::SeqCst);
    if let Ok(mut b) = up.bodies.lock() {
        b.push(serde_json::from_str(&body).unwrap_or(Value::Null));
    }
    // The first tokens, 20 bytes in 4 chunks, 20 ms apart.
    let head = futures::stream::iter(["Here ", "are ", "some ", "places"]).then(|t| async move {
        tokio::time::sleep(Duration::from_millis(20)).await;
        Ok::<_, std::io::Error>(format!("data: {}\n\n", payload(t)))
    });
    let sse = |s: futures::stream::BoxStream<'static, Result<String, std::io::Error>>| {
        Response::builder()
            .header(header::CONTENT_TYPE, "text/event-stream")
            .body(Body::from_stream(s))
            .unwrap()
    };
    match mode.as_str() {
        "hang" => {
            std::future::pending::<()>().await;
            StatusCode::OK.into_response()
        }
        "stall" => sse(head.chain(futures::stream::pending()).boxed()),
        "cut" => sse(head
            .chain(futures::stream::once(async {
                tokio::time::sleep(Duration::from_millis(50)).await;
                Err(std::io::Error::other("upstream connection cut"))
            }))
            .boxed()),
        "slow" => sse(futures::stream::iter(0..10_000)
            .then(|i| async move {
                tokio::time::sleep(Duration::from_millis(100)).await;
                Ok(format!("data: {}\n\n", payload(&format!("word{i} "))))
            })
            .boxed()),
        "fail" => (StatusCode::INTERNAL_SERVER_ERROR, "upstream exploded").into_response(),
        _ => {
            let request: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
            let payloads = scripted::sse_payloads(&scripted::answer(&request));
            let frames: Vec<Result<String, std::io::Error>> = payloads
                .into_iter()
                .map(|p| Ok(format!("data: {p}\n\n")))
                .collect();
            sse(futures::stream::iter(frames).boxed())
        }
    }
}

pub async fn start_upstream() -> (Upstream, String) {
    let up = Upstream::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = Router::new()
        .route("/{mode}/v1/chat/completions", route_post(completions))
        .with_state(up.clone());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (up, format!("http://{addr}"))
}

fn short() -> Deadlines {
    Deadlines {
        connect: Duration::from_secs(2),
        first_token: Duration::from_millis(400),
        silence: Duration::from_millis(400),
        total: Duration::from_millis(1500),
    }
}

/// One run against `mode`; returns its frames and how long it took.
async fn run_against(base: &str, mode: &str) -> (Vec<Frame>, Duration) {
    let t = std::time::Instant::now();
    let frames = whole(post(base, &input("t", mode, QUERY), None).await).await;
    assert_whole_run(&frames);
    (frames, t.elapsed())
}

/// Each misbehaving upstream ends its run with a `RUN_ERROR` that names what happened, within
/// the deadline that covers it; the server stays healthy and answers the next run.
#[tokio::test]
async fn every_misbehaving_upstream_ends_its_run_as_the_deadlines_say() {
    let (up, upstream) = start_upstream().await;
    let mut servers = Vec::new();
    for mode in ["hang", "stall", "cut", "slow", "fail", "ok"] {
        let agent = agent_at(&format!("{upstream}/{mode}/v1"))
            .with_deadlines(short())
            .with_retries(Retries {
                max: 2,
                first_pause: Duration::from_millis(20),
            });
        servers.push((mode, Server::start(agent, config()).await));
    }
    let runs = futures::future::join_all(
        servers
            .iter()
            .map(|(mode, s)| async move { (*mode, run_against(&s.base, mode).await) }),
    )
    .await;
    for (mode, (frames, took)) in runs {
        let error = run_error(&frames);
        let message = error.clone().map(|(m, _)| m).unwrap_or_default();
        let want = match mode {
            "hang" => "first-token deadline of 400 ms (A2UI_FIRST_TOKEN_TIMEOUT)",
            "stall" => {
                "silence deadline of 400 ms (A2UI_SILENCE_TIMEOUT), after 20 bytes of its answer in 4 chunks"
            }
            "cut" => "connection to the model was cut after 20 bytes of its answer in 4 chunks",
            "slow" => "did not finish within the run deadline of 1.5 s (A2UI_RUN_TIMEOUT)",
            "fail" => "500 Internal Server Error",
            _ => {
                assert_eq!(error, None, "{frames:?}");
                continue;
            }
        };
        assert!(message.contains(want), "{mode}: {message:?} lacks {want:?}");
        assert_eq!(error.and_then(|(_, c)| c).as_deref(), Some("AGENT_ERROR"));
        // Each ends at the deadline that covers it (a cut at once, without waiting for one).
        let (at_least, before) = match mode {
            "slow" => (Duration::from_millis(1500), Duration::from_secs(4)),
            "fail" => (Duration::from_millis(60), Duration::from_secs(3)),
            "cut" => (Duration::from_millis(80), Duration::from_millis(400)),
            _ => (Duration::from_millis(400), Duration::from_secs(3)),
        };
        assert!(
            took >= at_least && took < before,
            "{mode} ended after {took:?}, want {at_least:?} to {before:?}"
        );
        let retries = customs(&frames, server::MODEL_RETRY_EVENT);
        if mode == "fail" {
            // Two retries, each visible, then the error says how many there were.
            assert_eq!(retries.len(), 2, "{retries:?}");
            assert_eq!(retries[0]["attempt"], 1);
            assert_eq!(retries[1]["maxRetries"], 2);
            assert!(retries[0]["reason"].as_str().unwrap().contains("500"));
            assert!(message.contains("after 2 retries"), "{message}");
        } else {
            assert!(retries.is_empty(), "{mode}: {retries:?}");
        }
    }
    // Three requests to `fail` (one and two retries); one each to the others but `ok`, which
    // answers with a tool round.
    assert!(up.requests.load(Ordering::SeqCst) >= 3 + 4 + 2);
    for (mode, s) in &servers {
        let health = reqwest::get(format!("{}/healthz", s.base)).await.unwrap();
        assert_eq!(health.status(), 200, "{mode}");
    }
}

/// A model that refuses connections: each retry is visible, then the run says it could not
/// connect, and where.
#[tokio::test]
async fn a_refused_connection_is_retried_visibly_then_named() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let agent = agent_at(&format!("http://127.0.0.1:{port}/v1")).with_retries(Retries {
        max: 1,
        first_pause: Duration::from_millis(10),
    });
    let server = Server::start(agent, config()).await;
    let frames = whole(post(&server.base, &input("t", "r", QUERY), None).await).await;
    assert_whole_run(&frames);
    let (message, _) = run_error(&frames).unwrap();
    assert!(
        message.contains(&format!(
            "could not connect to the model at http://127.0.0.1:{port}/v1"
        )),
        "{message}"
    );
    assert_eq!(customs(&frames, server::MODEL_RETRY_EVENT).len(), 1);
}

/// A shutdown with a run stuck on a hanging model: the run ends with `RUN_ERROR`
/// (`SERVER_SHUTDOWN`) at the shutdown deadline, and the server returns.
#[tokio::test]
async fn shutdown_ends_stuck_runs_at_its_deadline() {
    let (_up, upstream) = start_upstream().await;
    let agent = agent_at(&format!("{upstream}/hang/v1"));
    let mut c = config();
    c.limits.shutdown = Duration::from_millis(300);
    let mut server = Server::start(agent, c).await;
    let resp = post(&server.base, &input("t", "stuck", QUERY), None).await;
    let reading = tokio::spawn(frames(resp, None));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let t = std::time::Instant::now();
    server.shut_down();
    let (frames, _) = tokio::time::timeout(Duration::from_secs(5), reading)
        .await
        .expect("the run did not end")
        .unwrap();
    let (message, code) = run_error(&frames).unwrap();
    assert_eq!(code.as_deref(), Some("SERVER_SHUTDOWN"));
    assert!(message.contains("shutdown deadline of 300 ms"), "{message}");
    assert!(t.elapsed() >= Duration::from_millis(300));
    tokio::time::timeout(Duration::from_secs(5), &mut server.done)
        .await
        .expect("the server did not return")
        .unwrap();
}

/// A model whose host takes no more connections (its accept queue is full, so the handshake is
/// never answered): the run ends at the connect deadline, saying so, without retrying.
#[tokio::test]
async fn a_model_that_never_accepts_ends_the_run_at_the_connect_deadline() {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = socket.local_addr().unwrap();
    let listener = socket.listen(1).unwrap();
    // Fill the accept queue; nothing ever accepts.
    let mut held = Vec::new();
    for _ in 0..4 {
        if let Ok(Ok(s)) = tokio::time::timeout(
            Duration::from_millis(200),
            tokio::net::TcpStream::connect(addr),
        )
        .await
        {
            held.push(s);
        }
    }
    let mut deadlines = short();
    deadlines.connect = Duration::from_millis(300);
    deadlines.first_token = Duration::from_secs(10);
    deadlines.total = Duration::from_secs(10);
    let agent = agent_at(&format!("http://{addr}/v1"))
        .with_deadlines(deadlines)
        .with_retries(Retries::default());
    let server = Server::start(agent, config()).await;
    let t = std::time::Instant::now();
    let frames = whole(post(&server.base, &input("t", "r", QUERY), None).await).await;
    let took = t.elapsed();
    assert_whole_run(&frames);
    let (message, _) = run_error(&frames).unwrap();
    assert!(
        message.contains("within the connect deadline of 300 ms (A2UI_CONNECT_TIMEOUT)"),
        "{message}"
    );
    assert!(customs(&frames, server::MODEL_RETRY_EVENT).is_empty());
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(3),
        "{took:?}"
    );
    drop((listener, held));
}
