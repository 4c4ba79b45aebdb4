use super::*;

/// Runs up to the limit all start and finish; one more while they are open gets 503 with
/// `Retry-After` and a message saying why; once they are done, a new run is taken again.
#[tokio::test]
async fn runs_past_the_limit_get_503_then_room_again() {
    let (agent, _model) = scripted(Duration::from_millis(3)).await;
    let mut c = config();
    c.limits.max_runs = 6;
    let server = Server::start(agent, c).await;
    let mut open = Vec::new();
    for i in 0..6 {
        let resp = post(&server.base, &input("t", &format!("r{i}"), QUERY), None).await;
        assert_eq!(resp.status(), 200);
        open.push(tokio::spawn(frames(resp, None)));
    }
    let refused = post(&server.base, &input("t", "one-more", QUERY), None).await;
    assert_eq!(refused.status(), 503);
    assert_eq!(refused.headers()["retry-after"], "1");
    let why = refused.text().await.unwrap();
    assert!(why.contains("limit of 6 runs"), "{why}");
    for run in open {
        let (frames, clean) = run.await.unwrap();
        assert!(clean);
        assert_whole_run(&frames);
        assert!(matches!(frames.last(), Some((_, Event::RunFinished(_)))));
    }
    // The permits come back once each run's last event is recorded.
    let mut again = post(&server.base, &input("t", "later", QUERY), None).await;
    for _ in 0..50 {
        if again.status() == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        again = post(&server.base, &input("t", "later", QUERY), None).await;
    }
    assert_eq!(again.status(), 200);
    assert_whole_run(&whole(again).await);
}

/// `RUN_STARTED` does not carry the request back unless the server is asked to.
#[tokio::test]
async fn the_request_is_echoed_only_when_asked() {
    let (agent, _model) = scripted(Duration::ZERO).await;
    let quiet = Server::start(agent.clone(), config()).await;
    let mut c = config();
    c.limits.echo_input = true;
    let echo = Server::start(agent, c).await;
    for (server, echoed) in [(&quiet, false), (&echo, true)] {
        let frames = whole(post(&server.base, &input("t", "r", QUERY), None).await).await;
        let Some((_, Event::RunStarted(started))) = frames.first() else {
            panic!("{frames:?}")
        };
        assert_eq!(started.input.is_some(), echoed);
    }
}
