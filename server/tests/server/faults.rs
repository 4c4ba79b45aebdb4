use super::agents::{Streamer, Stuck};
use super::*;
use a2ui_stream_server::Caller;
use std::sync::atomic::Ordering;

/// Clients that connect and leave do not hold a run's place: their runs wait without a client
/// (bounded apart), new runs are admitted, and a run nobody reconnects to ends after the grace
/// with a `RUN_ERROR` naming why, its agent cancelled.
#[tokio::test]
async fn clients_that_leave_do_not_hold_the_run_limit() {
    let agent = Stuck::default();
    let (started, cancelled) = (agent.started.clone(), agent.cancelled.clone());
    let options = Options {
        max_runs: 2,
        max_detached_runs: 2,
        reconnect_grace: Duration::from_millis(500),
        ..Options::default()
    };
    let server = Server::start(agent, options).await;
    let handle = server.handle.clone();
    // Four clients in turn start a run, read its first event and leave.
    for i in 0..4 {
        let resp = post(&server.base, &input("t", &format!("gone-{i}"), "hm"), None).await;
        assert_eq!(resp.status(), 200, "run {i} was refused");
        frames(resp, Some(1)).await;
        eventually("the client to count as gone", || handle.open_runs().0 == 0).await;
    }
    eventually("every run to have started", || {
        started.load(Ordering::SeqCst) == 4
    })
    .await;
    // Two wait for a reconnect; two more had no room to wait and ended at once.
    assert_eq!(handle.open_runs(), (0, 2));
    // Nobody comes back (following a run is coming back: read them only once they ended).
    eventually("the grace to pass", || handle.open_runs() == (0, 0)).await;
    let replay = |run: &'static str| {
        let url = format!("{}/agent/runs/t/{run}", server.base);
        async move { whole(client().get(url).send().await.unwrap()).await }
    };
    for (run, why) in [
        (
            "gone-0",
            "did not reconnect within the reconnect grace of 500 ms",
        ),
        (
            "gone-1",
            "did not reconnect within the reconnect grace of 500 ms",
        ),
        (
            "gone-2",
            "already keeps its limit of 2 runs without a client",
        ),
        (
            "gone-3",
            "already keeps its limit of 2 runs without a client",
        ),
    ] {
        let (message, code) = run_error(&replay(run).await).unwrap();
        assert_eq!(code.as_deref(), Some("CLIENT_GONE"), "{run}");
        assert!(message.contains(why), "{run}: {message}");
    }
    eventually("every agent to be cancelled", || {
        cancelled.load(Ordering::SeqCst) == 4
    })
    .await;
}

/// A client that comes back within the grace finds its run going on, and the run finishes.
#[tokio::test]
async fn a_client_that_reconnects_in_time_keeps_its_run() {
    let agent = Streamer {
        pace: Duration::from_millis(20),
        ..Streamer::default()
    };
    let options = Options {
        reconnect_grace: Duration::from_millis(300),
        ..Options::default()
    };
    let server = Server::start(agent, options).await;
    let body = input("t", "back", "tacos");
    let (first, _) = frames(post(&server.base, &body, None).await, Some(2)).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let rest = whole(post(&server.base, &body, Some("2")).await).await;
    let mut all = first;
    all.extend(rest);
    assert_whole_run(&all);
    assert!(
        matches!(all.last(), Some((_, Event::RunFinished(_)))),
        "{all:?}"
    );
}

/// With `cancel_on_disconnect`, a run ends as soon as its client leaves.
#[tokio::test]
async fn cancel_on_disconnect_ends_the_run_at_once() {
    let agent = Stuck::default();
    let cancelled = agent.cancelled.clone();
    let options = Options {
        cancel_on_disconnect: true,
        ..Options::default()
    };
    let server = Server::start(agent, options).await;
    frames(
        post(&server.base, &input("t", "r", "hm"), None).await,
        Some(1),
    )
    .await;
    eventually("the agent to be cancelled", || {
        cancelled.load(Ordering::SeqCst) == 1
    })
    .await;
    let run = whole(
        client()
            .get(format!("{}/agent/runs/t/r", server.base))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(run_error(&run).unwrap().1.as_deref(), Some("CLIENT_GONE"));
}

/// A run id used again with another input is refused with 409; the same input, or a
/// `Last-Event-ID`, resumes it.
#[tokio::test]
async fn a_reused_run_id_with_another_input_is_refused() {
    let server = Server::start(Streamer::default(), Options::default()).await;
    let full = whole(post(&server.base, &input("t", "r", "tacos"), None).await).await;
    let other = post(&server.base, &input("t", "r", "ramen"), None).await;
    assert_eq!(other.status(), 409);
    let why = other.text().await.unwrap();
    assert!(why.contains("was started with another input"), "{why}");
    let invalid = json!({"threadId": "t", "runId": "r", "messages": []});
    assert_eq!(post(&server.base, &invalid, None).await.status(), 409);
    assert_eq!(
        whole(post(&server.base, &input("t", "r", "tacos"), None).await).await,
        full
    );
    let rest = whole(post(&server.base, &input("t", "r", "ramen"), Some("3")).await).await;
    assert_eq!(rest, full[3..].to_vec());
}

/// Behind an auth layer that names the caller: runs and threads are the caller's own; anyone
/// else gets 404 on resume and replay, and their runs never see another caller's history.
#[tokio::test]
#[allow(clippy::result_large_err)] // tower-http's validator answers with a whole response
async fn runs_and_threads_belong_to_their_caller() {
    use tower_http::validate_request::ValidateRequestHeaderLayer;
    let agent = Streamer::default();
    let seen = agent.seen.clone();
    // The application's auth: a bearer token per user, checked, then the user named.
    let auth = |router: axum::Router| {
        router
            .layer(axum::middleware::from_fn(
                |mut req: axum::extract::Request, next: axum::middleware::Next| async move {
                    let user = req
                        .headers()
                        .get("authorization")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.strip_prefix("Bearer token-"))
                        .map(str::to_owned);
                    if let Some(user) = user {
                        req.extensions_mut().insert(Caller::new(user));
                    }
                    next.run(req).await
                },
            ))
            .layer(ValidateRequestHeaderLayer::custom(
                |req: &mut axum::extract::Request| {
                    let ok = req
                        .headers()
                        .get("authorization")
                        .and_then(|v| v.to_str().ok())
                        .is_some_and(|v| v == "Bearer token-alice" || v == "Bearer token-bob");
                    if ok {
                        Ok(())
                    } else {
                        Err(axum::http::StatusCode::UNAUTHORIZED.into_response())
                    }
                },
            ))
    };
    use axum::response::IntoResponse;
    let server = Server::start_with(agent, Options::default(), auth).await;
    let as_user = |user: &str, req: reqwest::RequestBuilder| {
        req.header("authorization", format!("Bearer token-{user}"))
    };
    let post_as = |user: &'static str, body: Value, id: Option<&'static str>| {
        let base = server.base.clone();
        async move {
            let mut req = as_user(user, client().post(format!("{base}/agent")))
                .header("content-type", "application/json")
                .body(body.to_string());
            if let Some(id) = id {
                req = req.header("last-event-id", id);
            }
            req.send().await.unwrap()
        }
    };
    let alice = whole(post_as("alice", input("t", "r", "tacos"), None).await).await;
    assert_whole_run(&alice);
    // Without a token: 401 before anything else.
    assert_eq!(
        post(&server.base, &input("t", "r", "tacos"), None)
            .await
            .status(),
        401
    );
    // Bob cannot read Alice's run…
    let bob_get = as_user(
        "bob",
        client().get(format!("{}/agent/runs/t/r", server.base)),
    )
    .send()
    .await
    .unwrap();
    assert_eq!(bob_get.status(), 404);
    // …nor resume it by POST: under his name the ids are a run of his own, on an empty thread.
    let bob = whole(post_as("bob", input("t", "r", "ramen"), Some("2")).await).await;
    assert_whole_run(&bob);
    assert_eq!(
        *seen.lock().unwrap(),
        [1, 1],
        "Bob's run saw none of Alice's thread"
    );
    // Alice still reads her own.
    let again = as_user(
        "alice",
        client().get(format!("{}/agent/runs/t/r", server.base)),
    )
    .send()
    .await
    .unwrap();
    assert_eq!(whole(again).await, alice);
}

/// CORS: a page of the server's own, a loopback or an allowed origin may call it; any other
/// gets no `Access-Control-Allow-Origin`, so its browser sends no JSON request.
#[tokio::test]
async fn only_allowed_origins_may_call_from_a_browser() {
    let mut options = Options::default();
    options.origins.add("https://app.example.com");
    let server = Server::start(Streamer::default(), options).await;
    let preflight = |origin: &'static str| {
        let url = format!("{}/agent", server.base);
        async move {
            client()
                .request(reqwest::Method::OPTIONS, url)
                .header("origin", origin)
                .header("access-control-request-method", "POST")
                .header(
                    "access-control-request-headers",
                    "content-type,last-event-id",
                )
                .send()
                .await
                .unwrap()
        }
    };
    for origin in ["https://app.example.com", "http://localhost:5173"] {
        let r = preflight(origin).await;
        assert!(r.status().is_success(), "{origin}: {}", r.status());
        assert_eq!(r.headers()["access-control-allow-origin"], origin);
        let allowed = r.headers()["access-control-allow-headers"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(allowed.contains("last-event-id"), "{allowed}");
    }
    let foreign = preflight("https://evil.example").await;
    assert!(
        foreign
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
}
