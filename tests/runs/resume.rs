use super::*;
use futures::StreamExt;

/// Drops the client after `n` events of run `run`, reconnects (by `POST` with the same input
/// when `n` is even, by `GET /agent/runs/…` when odd) with the last id it saw, and returns the
/// joined frames and how long the reconnect took to its first event.
pub async fn cut_and_resume(
    base: &str,
    resume_base: &str,
    thread: &str,
    run: &str,
    n: usize,
) -> (Vec<Frame>, Duration) {
    let input = input(thread, run, QUERY);
    let (mut got, _) = frames(post(base, &input, None).await, Some(n)).await;
    assert_eq!(got.len(), n, "run {run} had fewer than {n} events");
    let last = got.last().and_then(|(id, _)| id.clone()).unwrap();
    let asked = std::time::Instant::now();
    let again = if n % 2 == 0 {
        post(resume_base, &input, Some(&last)).await
    } else {
        reqwest::Client::new()
            .get(format!("{resume_base}/agent/runs/{thread}/{run}"))
            .header("last-event-id", &last)
            .send()
            .await
            .unwrap()
    };
    let mut body = again.bytes_stream();
    let mut reader = SseReader::new();
    let mut first = None;
    while let Some(chunk) = body.next().await {
        for f in reader.feed_frames(&chunk.unwrap()) {
            let f = f.unwrap();
            first.get_or_insert_with(|| asked.elapsed());
            got.push((f.id, f.event));
        }
    }
    (got, first.unwrap_or_default())
}

/// The uninterrupted run, then for every N a run cut after N events and resumed: the joined
/// sequence equals the uninterrupted one, event for event, with ids 1..=K. Each run has a
/// thread of its own (`{thread}-{run}`), so that none is answered from another's history.
/// Returns K and the median time from a reconnect to its first event.
pub async fn every_cut_resumes(base: &str, resume_base: &str, thread: &str) -> (usize, Duration) {
    let full_thread = format!("{thread}-full");
    let full = whole(post(base, &input(&full_thread, "full", QUERY), None).await).await;
    assert_whole_run(&full);
    assert!(matches!(full.last(), Some((_, Event::RunFinished(_)))));
    let want: Vec<String> = normalized(&full, "full")
        .into_iter()
        .map(|e| e.replace(&full_thread, "THREAD"))
        .collect();
    let k = full.len();
    let cuts: Vec<usize> = (1..k).collect();
    let mut latencies = Vec::new();
    for batch in cuts.chunks(12) {
        let joined = futures::future::join_all(batch.iter().map(|&n| {
            let run = format!("cut-{n}");
            let thread = format!("{thread}-{run}");
            async move { (n, cut_and_resume(base, resume_base, &thread, &run, n).await) }
        }))
        .await;
        for (n, (frames, latency)) in joined {
            latencies.push(latency);
            assert_whole_run(&frames);
            let got: Vec<String> = normalized(&frames, &format!("cut-{n}"))
                .into_iter()
                .map(|e| e.replace(&format!("{thread}-cut-{n}"), "THREAD"))
                .collect();
            assert_eq!(
                got, want,
                "run cut after {n} events and resumed differs from the uninterrupted run"
            );
        }
    }
    latencies.sort();
    (k, latencies[latencies.len() / 2])
}

#[tokio::test]
async fn every_cut_resumes_from_memory() {
    let (agent, _model) = scripted(Duration::from_millis(1)).await;
    let server = Server::start(agent, config()).await;
    let (k, latency) = every_cut_resumes(&server.base, &server.base, "t-memory").await;
    support::say(&format!(
        "resume (memory): {} cuts of a {k}-event run resumed, first resumed event after {latency:?} (median)",
        k - 1
    ));
}

#[cfg(feature = "store")]
#[tokio::test]
async fn every_cut_resumes_from_sqlite() {
    let dir = std::env::temp_dir().join(format!("a2ui-runs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("resume.db");
    let _ = std::fs::remove_file(&file);
    let log = a2ui_stream::agui::store::SqliteRunLog::open(&file).unwrap();
    let (agent, _model) = scripted(Duration::from_millis(1)).await;
    let mut c = config();
    c.log = std::sync::Arc::new(log);
    let server = Server::start(agent, c).await;
    let (k, latency) = every_cut_resumes(&server.base, &server.base, "t-sqlite").await;
    support::say(&format!(
        "resume (SQLite): {} cuts of a {k}-event run resumed, first resumed event after {latency:?} (median)",
        k - 1
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A finished run replays whole, by `GET` without `Last-Event-ID` and by `?after=`.
#[tokio::test]
async fn a_finished_run_replays_whole_or_after_an_id() {
    let (agent, _model) = scripted(Duration::ZERO).await;
    let server = Server::start(agent, config()).await;
    let full = whole(post(&server.base, &input("t", "r", QUERY), None).await).await;
    let get = |q: &'static str| {
        let url = format!("{}/agent/runs/t/r{q}", server.base);
        async move { whole(reqwest::get(url).await.unwrap()).await }
    };
    assert_eq!(get("").await, full);
    assert_eq!(get("?after=5").await, full[5..].to_vec());
    let missing = reqwest::get(format!("{}/agent/runs/t/nope", server.base))
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    let bad = reqwest::Client::new()
        .get(format!("{}/agent/runs/t/r", server.base))
        .header("last-event-id", "r:5")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
}

/// A new run in a thread is answered from the stored conversation: the client sends only its
/// new message, and the model is asked with the whole history.
#[tokio::test]
async fn a_new_run_sees_the_threads_history() {
    let (agent, _model) = scripted(Duration::ZERO).await;
    let c = config();
    let log = c.log.clone();
    let server = Server::start(agent, c).await;
    whole(post(&server.base, &input("t", "r1", QUERY), None).await).await;
    let stored = log.thread_messages("t").unwrap();
    let roles: Vec<String> = stored
        .iter()
        .map(|m| {
            serde_json::to_value(m).unwrap()["role"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(roles.first().map(String::as_str), Some("user"));
    assert!(roles.iter().any(|r| r == "assistant"), "{roles:?}");
    let second = whole(
        post(
            &server.base,
            &input("t", "r2", "Top 2 Italian restaurants in New York"),
            None,
        )
        .await,
    )
    .await;
    assert_whole_run(&second);
    let after = log.thread_messages("t").unwrap();
    assert!(after.len() > stored.len());
    assert_eq!(
        &after[..stored.len()],
        &stored[..],
        "the earlier turns stay first"
    );
}

/// A server built with `router_with` and no shutdown signal at all, as embedders and the browser
/// test build it, on a runtime of one thread: while a resumed run is silent, its tail waits
/// without spinning (the server's thread uses almost no CPU), and its events still arrive.
#[tokio::test]
async fn a_resumed_tail_waits_without_spinning() {
    let (up, upstream) = crate::deadlines::start_upstream().await;
    let (tx, rx) = std::sync::mpsc::channel();
    let (cpu_tx, mut cpu_rx) =
        tokio::sync::mpsc::unbounded_channel::<tokio::sync::oneshot::Sender<Duration>>();
    let model = format!("{upstream}/stall/v1");
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            // Answers with the CPU time of this thread, where every task of the server runs.
            tokio::spawn(async move {
                while let Some(reply) = cpu_rx.recv().await {
                    let _ = reply.send(cpu_time::ThreadTime::now().as_duration());
                }
            });
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let no_shutdown = tokio::sync::watch::channel(false).1;
            let app = server::router_with(agent_at(&model), config(), no_shutdown);
            axum::serve(listener, app).await.unwrap();
        });
    });
    let cpu = || {
        let (reply, answer) = tokio::sync::oneshot::channel();
        cpu_tx.send(reply).unwrap();
        async {
            tokio::time::timeout(Duration::from_secs(2), answer)
                .await
                .expect("the server's thread is too busy to answer")
                .unwrap()
        }
    };
    let base = format!("http://{}", rx.recv().unwrap());
    // The model writes four tokens, then nothing (the silence deadline is 30 s).
    let (seen, _) = frames(post(&base, &input("t", "r", QUERY), None).await, Some(2)).await;
    while up.requests.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let last = seen.last().and_then(|(id, _)| id.clone()).unwrap();
    // The run is silent for 30 s more: what was recorded arrives now, not when it ends.
    let resumed = async {
        let resp = reqwest::Client::new()
            .get(format!("{base}/agent/runs/t/r"))
            .header("last-event-id", &last)
            .send()
            .await
            .unwrap();
        frames(resp, Some(1)).await
    };
    let (got, _) = tokio::time::timeout(Duration::from_secs(10), resumed)
        .await
        .expect("the resumed tail delivered nothing while the run was open");
    assert_eq!(got.len(), 1);
    // Then the tail waits for more, quietly.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = cpu().await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let used = cpu().await.saturating_sub(before);
    assert!(
        used < Duration::from_millis(250),
        "the server's thread used {used:?} of CPU in 1 s of waiting"
    );
}

/// Two requests that start the same new run at the same moment: one runs it, the other follows
/// it; both see the same whole run, once.
#[tokio::test]
async fn two_requests_for_one_new_run_share_it() {
    let (agent, _model) = scripted(Duration::from_millis(1)).await;
    let server = Server::start(agent, config()).await;
    for i in 0..10 {
        let run = format!("twice-{i}");
        let body = input("t-twice", &run, QUERY);
        let (a, b) = tokio::join!(
            async { whole(post(&server.base, &body, None).await).await },
            async { whole(post(&server.base, &body, None).await).await },
        );
        assert_whole_run(&a);
        assert_eq!(a, b, "both requests see the one run");
        assert!(matches!(a.last(), Some((_, Event::RunFinished(_)))));
    }
}
