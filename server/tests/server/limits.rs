use super::agents::{Model, Streamer, Stuck};
use super::*;
use a2ui_stream_server::{Deadlines, MODEL_RETRY_EVENT, Retries};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

fn short() -> Deadlines {
    Deadlines {
        connect: Duration::from_secs(2),
        first_token: Duration::from_millis(400),
        silence: Duration::from_millis(400),
        total: Duration::from_millis(1500),
    }
}

/// Each misbehaving model ends its run with a `RUN_ERROR` naming what happened, within the
/// deadline that covers it; a failing request is retried visibly first.
#[tokio::test]
async fn every_misbehaving_model_ends_its_run_as_the_deadlines_say() {
    let requests = Arc::new(AtomicUsize::new(0));
    let model = Model {
        retries: Retries {
            max: 2,
            first_pause: Duration::from_millis(20),
        },
        requests: requests.clone(),
    };
    let options = Options {
        deadlines: short(),
        ..Options::default()
    };
    let server = Server::start(model, options).await;
    let runs =
        futures::future::join_all(["hang", "stall", "cut", "slow", "fail", "ok"].map(|mode| {
            let base = server.base.clone();
            async move {
                let t = std::time::Instant::now();
                let frames = whole(post(&base, &input("t", mode, mode), None).await).await;
                (mode, frames, t.elapsed())
            }
        }))
        .await;
    for (mode, frames, took) in runs {
        assert_whole_run(&frames);
        let error = run_error(&frames);
        let (message, code) = error.clone().unwrap_or_default();
        let (want, want_code) = match mode {
            "hang" => (
                "first-token deadline of 400 ms (A2UI_FIRST_TOKEN_TIMEOUT)",
                "AGENT_ERROR",
            ),
            "stall" => (
                "silence deadline of 400 ms (A2UI_SILENCE_TIMEOUT), after 20 bytes of its answer in 4 chunks",
                "AGENT_ERROR",
            ),
            "cut" => (
                "the connection to the model was cut after 20 bytes of its answer in 4 chunks",
                "AGENT_ERROR",
            ),
            "slow" => (
                "did not finish within the run deadline of 1.5 s (A2UI_RUN_TIMEOUT)",
                "RUN_DEADLINE",
            ),
            "fail" => ("503 Service Unavailable (after 2 retries)", "AGENT_ERROR"),
            _ => {
                assert_eq!(error, None, "{frames:?}");
                continue;
            }
        };
        assert!(message.contains(want), "{mode}: {message:?} lacks {want:?}");
        assert_eq!(code.as_deref(), Some(want_code), "{mode}");
        let (at_least, before) = match mode {
            "slow" => (Duration::from_millis(1500), Duration::from_secs(4)),
            "fail" => (Duration::from_millis(60), Duration::from_secs(3)),
            "cut" => (Duration::from_millis(80), Duration::from_millis(400)),
            _ => (Duration::from_millis(400), Duration::from_secs(3)),
        };
        assert!(
            took >= at_least && took < before,
            "{mode} ended after {took:?}"
        );
        let retries = customs(&frames, MODEL_RETRY_EVENT);
        if mode == "fail" {
            assert_eq!(retries.len(), 2, "{retries:?}");
            assert_eq!(retries[0]["attempt"], 1);
            assert_eq!(retries[1]["maxRetries"], 2);
            assert_eq!(retries[1]["retryInMs"], 40);
            assert!(retries[0]["reason"].as_str().unwrap().contains("503"));
        } else {
            assert!(retries.is_empty(), "{mode}: {retries:?}");
        }
    }
    assert_eq!(requests.load(Ordering::SeqCst), 3 + 5);
    let health = client()
        .get(format!("{}/healthz", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(health.text().await.unwrap(), "ok");
}

/// A shutdown with a stuck run: the run ends with `RUN_ERROR` (`SERVER_SHUTDOWN`) at the
/// shutdown deadline, the agent's cancellation fires, and the server returns.
#[tokio::test]
async fn shutdown_ends_stuck_runs_at_its_deadline() {
    let agent = Stuck::default();
    let cancelled = agent.cancelled.clone();
    let options = Options {
        shutdown_timeout: Duration::from_millis(300),
        ..Options::default()
    };
    let mut server = Server::start(agent, options).await;
    let resp = post(&server.base, &input("t", "stuck", "hm"), None).await;
    let reading = tokio::spawn(frames(resp, None));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let t = std::time::Instant::now();
    server.shut_down();
    let (frames, clean) = tokio::time::timeout(Duration::from_secs(5), reading)
        .await
        .expect("the run did not end")
        .unwrap();
    assert!(clean);
    let (message, code) = run_error(&frames).unwrap();
    assert_eq!(code.as_deref(), Some("SERVER_SHUTDOWN"));
    assert!(message.contains("shutdown deadline of 300 ms"), "{message}");
    assert!(t.elapsed() >= Duration::from_millis(300));
    tokio::time::timeout(Duration::from_secs(5), &mut server.done)
        .await
        .expect("the server did not return")
        .unwrap();
    assert_eq!(cancelled.load(Ordering::SeqCst), 1);
}

/// Runs up to the limit start; one more while they are open gets 503 with `Retry-After`; once
/// they are done, a new run is taken again.
#[tokio::test]
async fn runs_past_the_limit_get_503_then_room_again() {
    let agent = Streamer {
        pace: Duration::from_millis(3),
        ..Streamer::default()
    };
    let server = Server::start(
        agent,
        Options {
            max_runs: 4,
            ..Options::default()
        },
    )
    .await;
    let mut open = Vec::new();
    for i in 0..4 {
        let resp = post(&server.base, &input("t", &format!("r{i}"), "tacos"), None).await;
        assert_eq!(resp.status(), 200);
        open.push(tokio::spawn(frames(resp, None)));
    }
    let refused = post(&server.base, &input("t", "one-more", "tacos"), None).await;
    assert_eq!(refused.status(), 503);
    assert_eq!(refused.headers()["retry-after"], "1");
    let why = refused.text().await.unwrap();
    assert!(why.contains("limit of 4 runs"), "{why}");
    for run in open {
        let (frames, clean) = run.await.unwrap();
        assert!(clean);
        assert_whole_run(&frames);
    }
    let handle = server.handle.clone();
    eventually("the runs to end", || handle.open_runs() == (0, 0)).await;
    let again = post(&server.base, &input("t", "later", "tacos"), None).await;
    assert_eq!(again.status(), 200);
    assert_whole_run(&whole(again).await);
}

/// `RUN_STARTED` carries the request back only when asked to.
#[tokio::test]
async fn the_request_is_echoed_only_when_asked() {
    let quiet = Server::start(Streamer::default(), Options::default()).await;
    let echo = Server::start(
        Streamer::default(),
        Options {
            echo_input: true,
            ..Options::default()
        },
    )
    .await;
    for (server, echoed) in [(&quiet, false), (&echo, true)] {
        let frames = whole(post(&server.base, &input("t", "r", "tacos"), None).await).await;
        let Some((_, Event::RunStarted(started))) = frames.first() else {
            panic!("{frames:?}")
        };
        assert_eq!(started.input.is_some(), echoed);
        if let Some(i) = &started.input {
            assert_eq!(i.messages.len(), 1);
        }
    }
}

/// A body over the limit gets 413; one that is not JSON 415; not a `RunAgentInput` 422.
#[tokio::test]
async fn bodies_are_bounded_and_must_be_run_inputs() {
    let server = Server::start(
        Streamer::default(),
        Options {
            max_body_bytes: 4096,
            ..Options::default()
        },
    )
    .await;
    let big = input("t", "big", &"x".repeat(8192));
    assert_eq!(post(&server.base, &big, None).await.status(), 413);
    let send = |ct: &'static str, body: &'static str| {
        let url = format!("{}/agent", server.base);
        async move {
            client()
                .post(url)
                .header("content-type", ct)
                .body(body)
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    assert_eq!(send("text/plain", "{}").await, 415);
    assert_eq!(send("application/json", "{").await, 400);
    assert_eq!(send("application/json", "{\"threadId\":1}").await, 422);
}
