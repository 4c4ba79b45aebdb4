//! The minimal agent server, `examples/agent_server.rs`, run as its README shows: it serves, a
//! run streams its card, and a request with `Last-Event-ID` gets exactly the rest (by re-POST
//! and by `GET /agent/runs/{thread}/{run}`).

use a2ui_stream::agui::events::Event;
use a2ui_stream::agui::{SseReader, verify};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};

/// The example binary `cargo test` built beside this test.
fn binary() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    dir.join("examples").join("agent_server")
}

/// Reads a response's SSE frames: (id, event).
async fn frames(resp: reqwest::Response) -> Vec<(u64, Event)> {
    assert_eq!(resp.status(), 200);
    let body = resp.bytes().await.unwrap();
    SseReader::new()
        .feed_frames(&body)
        .into_iter()
        .map(|f| {
            let f = f.unwrap();
            (f.id.unwrap().parse().unwrap(), f.event)
        })
        .collect()
}

#[tokio::test]
async fn the_minimal_server_streams_a_card_and_resumes_after_an_id() {
    let mut child = tokio::process::Command::new(binary())
        .args(["--addr", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the agent_server example (built by `cargo test`)");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let base = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(rest) = line.strip_prefix("AG-UI endpoint: POST ") {
                return rest.trim_end_matches("/agent").to_owned();
            }
        }
        panic!("the server exited");
    })
    .await
    .expect("the server did not start");
    let _ = rustls::crypto::ring::default_provider().install_default();
    let http = reqwest::Client::new();
    let body =
        r#"{"threadId":"t1","runId":"r1","messages":[{"id":"u1","role":"user","content":"Ada"}]}"#;
    let post = |last: Option<&'static str>| {
        let mut req = http
            .post(format!("{base}/agent"))
            .header("content-type", "application/json")
            .body(body);
        if let Some(id) = last {
            req = req.header("last-event-id", id);
        }
        req.send()
    };
    let whole = frames(post(None).await.unwrap()).await;
    let ids: Vec<u64> = whole.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, (1..=whole.len() as u64).collect::<Vec<_>>());
    let events: Vec<Event> = whole.iter().map(|(_, e)| e.clone()).collect();
    verify(&events).unwrap();
    assert!(matches!(events.last(), Some(Event::RunFinished(_))));
    let card = serde_json::to_string(&events).unwrap();
    assert!(card.contains("Hello, Ada!"), "{card}");
    let rest = frames(post(Some("3")).await.unwrap()).await;
    assert_eq!(rest, whole[3..].to_vec());
    let got = http
        .get(format!("{base}/agent/runs/t1/r1"))
        .header("last-event-id", "3")
        .send()
        .await
        .unwrap();
    assert_eq!(frames(got).await, whole[3..].to_vec());
}
