//! Each way a model can misbehave ends the demo's run with a `RUN_ERROR` that names it, within
//! the deadline that covers it, as the command line's deadline flags set them.

use crate::process::Process;
use crate::upstream::{MISTYPED, TRUNCATED, Upstream};
use crate::*;
use std::time::{Duration, Instant};

/// The deadlines of these tests: 400 ms to the first token and between two, 1.5 s a run, two
/// retries (250 ms, then 500 ms apart).
const SHORT: [&str; 10] = [
    "--connect-timeout",
    "2",
    "--first-token-timeout",
    "0.4",
    "--silence-timeout",
    "0.4",
    "--run-timeout",
    "1.5",
    "--model-retries",
    "2",
];

/// A server process per mode of the upstream, all started at once.
async fn servers(up: &Upstream, modes: &[&'static str]) -> Vec<(&'static str, Process)> {
    futures::future::join_all(
        modes
            .iter()
            .map(|&mode| async move { (mode, Process::start(&SHORT, Some(&up.api(mode))).await) }),
    )
    .await
}

/// One run on each server at once: its frames and how long it took.
async fn run_each(
    servers: &[(&'static str, Process)],
) -> Vec<(&'static str, Vec<Frame>, Duration)> {
    futures::future::join_all(servers.iter().map(|(mode, p)| async move {
        let t = Instant::now();
        let frames = whole(post(&p.base, &input("t", mode, QUERY), None).await).await;
        let took = t.elapsed();
        assert_whole_run(&frames);
        (*mode, frames, took)
    }))
    .await
}

/// Hang, stall, cut, crawl, fail: each ends its run with a `RUN_ERROR` that says what happened,
/// within the deadline that covers it (a cut at once, without waiting for one); only `fail`
/// is retried, visibly; an answer that behaves finishes; every server stays healthy.
///
/// The upper bounds are loose (a busy machine is slow); what shows which deadline ended a run
/// is its message: the run deadline (1.5 s) would have said so had it come first.
#[tokio::test]
async fn every_misbehaving_model_ends_its_run_as_the_deadline_flags_say() {
    let up = Upstream::start().await;
    let servers = servers(&up, &["hang", "stall", "cut", "slow", "fail", "ok"]).await;
    for (mode, frames, took) in run_each(&servers).await {
        let error = run_error(&frames);
        let retries = customs(&frames, MODEL_RETRY_EVENT);
        if mode == "ok" {
            assert_eq!(error, None, "{frames:?}");
            assert!(finished(&frames), "{frames:?}");
            // The block became a surface, and the validator took it (no second attempt).
            assert!(
                frames
                    .iter()
                    .any(|(_, e)| matches!(e, Event::ActivitySnapshot(_))),
                "{frames:?}"
            );
            assert!(customs(&frames, "a2ui-retry").is_empty(), "{frames:?}");
            assert!(retries.is_empty(), "{retries:?}");
            continue;
        }
        let (message, code) = error.unwrap_or_else(|| panic!("{mode}: no RUN_ERROR: {frames:?}"));
        let (want, want_code, at_least) = match mode {
            "hang" => (
                "first-token deadline of 400 ms (A2UI_FIRST_TOKEN_TIMEOUT)",
                "AGENT_ERROR",
                400,
            ),
            "stall" => (
                "silence deadline of 400 ms (A2UI_SILENCE_TIMEOUT), after 20 bytes of its answer in 4 chunks",
                "AGENT_ERROR",
                80 + 400,
            ),
            "cut" => (
                "connection to the model was cut after 20 bytes of its answer in 4 chunks",
                "AGENT_ERROR",
                80 + 50,
            ),
            "slow" => (
                "did not finish within the run deadline of 1.5 s (A2UI_RUN_TIMEOUT)",
                "RUN_DEADLINE",
                1500,
            ),
            // Two pauses before the retries: 250 ms and 500 ms.
            _ => ("500 Internal Server Error", "AGENT_ERROR", 750),
        };
        assert!(message.contains(want), "{mode}: {message:?} lacks {want:?}");
        assert_eq!(code.as_deref(), Some(want_code), "{mode}: {message}");
        let at_least = Duration::from_millis(at_least);
        assert!(
            took >= at_least && took < Duration::from_secs(6),
            "{mode} ended after {took:?}, want {at_least:?} to 6 s: {message}"
        );
        if mode == "fail" {
            // Two retries, each visible, then the error says how many there were.
            assert_eq!(retries.len(), 2, "{retries:?}");
            for (i, r) in retries.iter().enumerate() {
                assert_eq!(r["attempt"], i + 1, "{r}");
                assert_eq!(r["maxRetries"], 2, "{r}");
                assert!(r["reason"].as_str().unwrap().contains("500"), "{r}");
            }
            assert!(message.contains("after 2 retries"), "{message}");
        } else {
            assert!(retries.is_empty(), "{mode}: {retries:?}");
        }
    }
    // Three requests to `fail` (one and two retries), one to each of the others: nothing that
    // began to answer is asked again, and `ok` needed no second attempt.
    for (mode, _) in &servers {
        let want = if *mode == "fail" { 3 } else { 1 };
        assert_eq!(up.requests(mode).len(), want, "requests to {mode}");
    }
    for (mode, p) in &servers {
        let health = get(&p.base, "/healthz", None).await;
        assert_eq!(health.status(), 200, "{mode}");
    }
}

/// A chunk that is not a chat-completion chunk (JSON broken off, or JSON of another shape)
/// after four good ones: the run's `RUN_ERROR` names that, quoting the bytes around the fault,
/// rather than calling it a cut connection; it is not retried.
#[tokio::test]
async fn a_chunk_that_is_not_a_chat_completion_chunk_is_named_and_quoted() {
    let up = Upstream::start().await;
    let servers = servers(&up, &["garbage", "mistyped"]).await;
    for (mode, frames, took) in run_each(&servers).await {
        let (message, code) =
            run_error(&frames).unwrap_or_else(|| panic!("{mode}: no RUN_ERROR: {frames:?}"));
        support::say(&format!("{mode}: RUN_ERROR after {took:?}: {message}"));
        assert!(
            !message.contains("connection to the model was cut"),
            "{mode}: a bad chunk is not a cut connection: {message}"
        );
        assert!(
            message.contains("the model's answer is not a chat-completion chunk after 20 bytes of its answer in 4 chunks"),
            "{mode}: {message}"
        );
        // The bytes around the fault: the end of the broken-off JSON, the mistyped index.
        let quoted = match mode {
            "garbage" => &TRUNCATED[TRUNCATED.len() - 30..],
            _ => &MISTYPED[..30],
        };
        assert!(
            message.contains(quoted),
            "{mode}: {message:?} lacks {quoted:?}"
        );
        assert_eq!(code.as_deref(), Some("AGENT_ERROR"));
        assert!(customs(&frames, MODEL_RETRY_EVENT).is_empty(), "{frames:?}");
        // At the bad chunk, not at a deadline (the silence deadline is 400 ms).
        assert!(took < Duration::from_secs(6), "{mode}: {took:?}");
        assert_eq!(up.requests(mode).len(), 1, "requests to {mode}");
    }
}

/// A model that refuses connections: the retry is visible, then the run says it could not
/// connect, and where.
#[tokio::test]
async fn a_refused_connection_is_retried_visibly_then_named() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let model = format!("http://127.0.0.1:{port}/v1");
    let server = Process::start(&["--model-retries", "1"], Some(&model)).await;
    let frames = whole(post(&server.base, &input("t", "r", QUERY), None).await).await;
    assert_whole_run(&frames);
    let (message, code) = run_error(&frames).unwrap();
    assert!(
        message.contains(&format!("could not connect to the model at {model}")),
        "{message}"
    );
    assert!(message.contains("after 1 retries"), "{message}");
    assert_eq!(code.as_deref(), Some("AGENT_ERROR"));
    let retries = customs(&frames, MODEL_RETRY_EVENT);
    assert_eq!(retries.len(), 1, "{retries:?}");
    assert_eq!(retries[0]["maxRetries"], 1);
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
    let flags = [
        "--connect-timeout",
        "0.3",
        "--first-token-timeout",
        "10",
        "--run-timeout",
        "10",
    ];
    let server = Process::start(&flags, Some(&format!("http://{addr}/v1"))).await;
    let t = Instant::now();
    let frames = whole(post(&server.base, &input("t", "r", QUERY), None).await).await;
    let took = t.elapsed();
    assert_whole_run(&frames);
    let (message, _) = run_error(&frames).unwrap();
    assert!(
        message.contains("within the connect deadline of 300 ms (A2UI_CONNECT_TIMEOUT)"),
        "{message}"
    );
    // A connection that timed out is not retried (the default is two retries).
    assert!(customs(&frames, MODEL_RETRY_EVENT).is_empty(), "{frames:?}");
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(6),
        "{took:?}"
    );
    drop((listener, held));
}
