use super::agents::Streamer;
use super::*;
use a2ui_stream::agui::RunLog;
use std::sync::Arc;

/// Drops the client after `n` events, reconnects (re-POST when `n` is even, `GET
/// /agent/runs/…` when odd) with the last id seen, and returns the joined frames.
async fn cut_and_resume(base: &str, thread: &str, run: &str, n: usize) -> Vec<Frame> {
    let input = input(thread, run, "tacos");
    let (mut got, _) = frames(post(base, &input, None).await, Some(n)).await;
    assert_eq!(got.len(), n, "run {run} had fewer than {n} events");
    let last = got.last().and_then(|(id, _)| id.clone()).unwrap();
    let again = if n % 2 == 0 {
        post(base, &input, Some(&last)).await
    } else {
        client()
            .get(format!("{base}/agent/runs/{thread}/{run}"))
            .header("last-event-id", &last)
            .send()
            .await
            .unwrap()
    };
    got.extend(whole(again).await);
    got
}

/// The uninterrupted run, then a run cut after every N and resumed: each joined run equals
/// the uninterrupted one, event for event, ids 1..=K.
async fn every_cut_resumes(log: Arc<dyn RunLog>, name: &str) {
    let agent = Streamer {
        pace: Duration::from_millis(2),
        ..Streamer::default()
    };
    let server = Server::start(
        agent,
        Options {
            log,
            ..Options::default()
        },
    )
    .await;
    let normalized = |frames: &[Frame], thread: &str, run: &str| -> Vec<String> {
        frames
            .iter()
            .map(|(_, e)| {
                serde_json::to_string(e)
                    .unwrap()
                    .replace(thread, "THREAD")
                    .replace(run, "RUN")
            })
            .collect()
    };
    let full = whole(post(&server.base, &input("t-full", "full", "tacos"), None).await).await;
    assert_whole_run(&full);
    assert!(matches!(full.last(), Some((_, Event::RunFinished(_)))));
    let want = normalized(&full, "t-full", "full");
    let k = full.len();
    assert!(k > 10, "{k} events");
    for batch in (1..k).collect::<Vec<_>>().chunks(8) {
        let runs = futures::future::join_all(batch.iter().map(|&n| {
            let base = server.base.clone();
            async move {
                let (t, r) = (format!("t-cut-{n}"), format!("cut-{n}"));
                let frames = cut_and_resume(&base, &t, &r, n).await;
                (n, t, r, frames)
            }
        }))
        .await;
        for (n, t, r, frames) in runs {
            assert_whole_run(&frames);
            assert_eq!(normalized(&frames, &t, &r), want, "{name}: cut after {n}");
        }
    }
    crate::say(&format!(
        "resume ({name}): {} cuts of a {k}-event run resumed",
        k - 1
    ));
}

#[tokio::test]
async fn every_cut_resumes_from_memory() {
    let log = Arc::new(a2ui_stream::agui::MemoryRunLog::new());
    every_cut_resumes(log, "memory").await;
}

#[tokio::test]
async fn every_cut_resumes_from_sqlite() {
    let file = std::env::temp_dir().join(format!("a2ui-server-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let log = Arc::new(a2ui_stream::agui::SqliteRunLog::open(&file).unwrap());
    every_cut_resumes(log, "SQLite").await;
    let _ = std::fs::remove_file(&file);
}

#[tokio::test]
async fn every_cut_resumes_from_redis() {
    let Some(redis) = crate::redis::RedisServer::start_or_skip() else {
        return;
    };
    let log = Arc::new(a2ui_stream::agui::RedisRunLog::open(&redis.url()).unwrap());
    every_cut_resumes(log, "Redis").await;
}

/// A finished run replays whole, by `GET` without `Last-Event-ID` and after `?after=`; an
/// unknown run is 404, an id that is not a number 400.
#[tokio::test]
async fn a_finished_run_replays_whole_or_after_an_id() {
    let server = Server::start(Streamer::default(), Options::default()).await;
    let full = whole(post(&server.base, &input("t", "r", "tacos"), None).await).await;
    let get = |q: &'static str| {
        let url = format!("{}/agent/runs/t/r{q}", server.base);
        async move { whole(client().get(url).send().await.unwrap()).await }
    };
    assert_eq!(get("").await, full);
    assert_eq!(get("?after=5").await, full[5..].to_vec());
    let status = |url: String, id: Option<&'static str>| async move {
        let mut req = client().get(url);
        if let Some(id) = id {
            req = req.header("last-event-id", id);
        }
        req.send().await.unwrap().status()
    };
    assert_eq!(
        status(format!("{}/agent/runs/t/nope", server.base), None).await,
        404
    );
    assert_eq!(
        status(format!("{}/agent/runs/t/r", server.base), Some("r:5")).await,
        400
    );
    assert_eq!(
        status(format!("{}/agent/runs/t/r?after=x", server.base), None).await,
        400
    );
}

/// A new run of a thread is answered from the stored conversation: the client sends only its
/// new message, the agent gets the whole history.
#[tokio::test]
async fn a_new_run_sees_the_threads_history() {
    let agent = Streamer::default();
    let seen = agent.seen.clone();
    let server = Server::start(agent, Options::default()).await;
    let log = server.handle.log().inner().clone();
    whole(post(&server.base, &input("t", "r1", "tacos"), None).await).await;
    let stored = log.thread_messages("t").unwrap();
    // The question, and the answer's two text messages (before and after its UI).
    assert_eq!(stored.len(), 3, "{stored:?}");
    let second = whole(post(&server.base, &input("t", "r2", "ramen"), None).await).await;
    assert_whole_run(&second);
    assert_eq!(*seen.lock().unwrap(), [1, 4]);
    let after = log.thread_messages("t").unwrap();
    assert_eq!(after.len(), 6);
    assert_eq!(&after[..3], &stored[..], "the earlier turns stay first");
}

/// Two requests starting the same new run at once: one runs it, the other follows; both see
/// the same whole run, once.
#[tokio::test]
async fn two_requests_for_one_new_run_share_it() {
    let agent = Streamer {
        pace: Duration::from_millis(1),
        ..Streamer::default()
    };
    let seen = agent.seen.clone();
    let server = Server::start(agent, Options::default()).await;
    for i in 0..10 {
        let body = input("t-twice", &format!("twice-{i}"), "tacos");
        let (a, b) = tokio::join!(
            async { whole(post(&server.base, &body, None).await).await },
            async { whole(post(&server.base, &body, None).await).await },
        );
        assert_whole_run(&a);
        assert_eq!(a, b, "both requests see the one run");
    }
    assert_eq!(seen.lock().unwrap().len(), 10, "each run ran once");
}

/// A server on a runtime of one thread, resumed while its run is silent: the tail waits
/// without spinning (the thread uses almost no CPU) and what was recorded still arrives.
#[tokio::test]
async fn a_resumed_tail_waits_without_spinning() {
    let (tx, rx) = std::sync::mpsc::channel();
    let (cpu_tx, mut cpu_rx) = tokio::sync::mpsc::unbounded_channel::<oneshot::Sender<Duration>>();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            tokio::spawn(async move {
                while let Some(reply) = cpu_rx.recv().await {
                    let _ = reply.send(cpu_time::ThreadTime::now().as_duration());
                }
            });
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let (app, _handle) =
                AgentServer::new(super::agents::Stuck::default(), Options::default()).router();
            axum::serve(listener, app).await.unwrap();
        });
    });
    let cpu = || {
        let (reply, answer) = oneshot::channel();
        cpu_tx.send(reply).unwrap();
        async {
            tokio::time::timeout(Duration::from_secs(2), answer)
                .await
                .expect("the server's thread is too busy to answer")
                .unwrap()
        }
    };
    let base = format!("http://{}", rx.recv().unwrap());
    let (seen, _) = frames(post(&base, &input("t", "r", "hm"), None).await, Some(1)).await;
    let last = seen.last().and_then(|(id, _)| id.clone()).unwrap();
    let resumed = async {
        let resp = client()
            .get(format!("{base}/agent/runs/t/r"))
            .header("last-event-id", &last)
            .send()
            .await
            .unwrap();
        frames(resp, Some(2)).await
    };
    let (got, _) = tokio::time::timeout(Duration::from_secs(10), resumed)
        .await
        .expect("the resumed tail delivered nothing while the run was open");
    assert_eq!(got.len(), 2);
    let follow = client()
        .get(format!("{base}/agent/runs/t/r"))
        .header("last-event-id", "3")
        .send()
        .await
        .unwrap();
    let waiting = tokio::spawn(frames(follow, Some(1)));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = cpu().await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let used = cpu().await.saturating_sub(before);
    assert!(
        used < Duration::from_millis(250),
        "the server's thread used {used:?} of CPU in 1 s of waiting"
    );
    waiting.abort();
}

/// Two servers sharing Redis: a client that leaves the server running its run and follows it
/// from the other keeps the run going past the reconnect grace; a run nobody follows ends at the
/// grace.
#[tokio::test]
async fn a_client_following_from_another_process_keeps_the_run() {
    let Some(redis) = crate::redis::RedisServer::start_or_skip() else {
        return;
    };
    let open = || -> Arc<dyn RunLog> {
        Arc::new(a2ui_stream::agui::RedisRunLog::open(&redis.url()).unwrap())
    };
    let options = |log| Options {
        log,
        reconnect_grace: Duration::from_secs(3),
        ..Options::default()
    };
    // About 35 pieces 150 ms apart: the run lasts some 5 s, past the grace.
    let slow = Streamer {
        pace: Duration::from_millis(150),
        ..Streamer::default()
    };
    let a = Server::start(slow.clone(), options(open())).await;
    let b = Server::start(slow, options(open())).await;
    let watched = async {
        frames(
            post(&a.base, &input("t", "watched", "tacos"), None).await,
            Some(1),
        )
        .await;
        let rest = get(&b.base, "/agent/runs/t/watched", Some("1")).await;
        whole(rest).await
    };
    let left = async {
        frames(
            post(&a.base, &input("t", "left", "tacos"), None).await,
            Some(1),
        )
        .await;
        tokio::time::sleep(Duration::from_secs(6)).await;
        whole(get(&b.base, "/agent/runs/t/left", None).await).await
    };
    let (watched, left) = tokio::join!(watched, left);
    assert!(finished(&watched), "{:?}", run_error(&watched));
    let (message, code) = run_error(&left).unwrap();
    assert_eq!(code.as_deref(), Some("CLIENT_GONE"), "{message}");
    assert!(message.contains("reconnect grace of 3 s"), "{message}");
}
