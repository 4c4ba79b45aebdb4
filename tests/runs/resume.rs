//! Resuming the demo's runs: after a broken connection (`--cut-after`), after the server was
//! killed and restarted on its SQLite file, and on another server process sharing Redis.

use crate::process::Process;
use crate::*;

/// The page's way back after a broken connection: with `--cut-after 5` the first response of
/// a run breaks after 5 events (the run goes on); a re-POST of the same input with
/// `Last-Event-ID` (the last id seen) and `GET /agent/runs/{thread}/{run}` with it both give
/// the same rest, and the joined run has ids 1, 2, 3, … and passes the AG-UI verifier.
#[tokio::test]
async fn a_cut_run_resumes_by_re_post_and_by_get() {
    // At 2 ms per token the run is still open when the client comes back.
    let server = Process::start_with(process::Start {
        args: &["--cut-after", "5"],
        ms_per_token: Some(2),
        ..Default::default()
    })
    .await;
    let body = input("t-cut", "r", QUERY);
    let (head, clean) = frames(post(&server.base, &body, None).await, None).await;
    assert!(!clean, "the first response was not cut: {head:?}");
    // Exactly 5 events before the break.
    assert_eq!(head.len(), 5, "{head:?}");
    let last = head.last().and_then(|(id, _)| id.clone()).unwrap();
    assert_eq!(last, head.len().to_string());
    let (by_post, by_get) = tokio::join!(
        async { whole(post(&server.base, &body, Some(&last)).await).await },
        async { whole(get(&server.base, "/agent/runs/t-cut/r", Some(&last)).await).await },
    );
    assert_eq!(
        by_post, by_get,
        "the re-POST and the GET give the same rest"
    );
    let joined: Vec<Frame> = head.iter().chain(&by_post).cloned().collect();
    assert_whole_run(&joined);
    assert!(finished(&joined), "{joined:?}");
    // The joined run is the run as recorded, and it holds the answer's surface.
    let replay = whole(get(&server.base, "/agent/runs/t-cut/r", None).await).await;
    assert_eq!(joined, replay);
    assert!(
        joined
            .iter()
            .any(|(_, e)| matches!(e, Event::ActivitySnapshot(_))),
        "{joined:?}"
    );
    support::say(&format!(
        "resume (--cut-after 5): {} + {} events, by re-POST and by GET",
        head.len(),
        by_post.len()
    ));
}

/// Kill the server after a run finished, start it again on the same SQLite file: the run
/// replays whole, and a new run in the thread is answered with its history. A run that was
/// open when its server was killed ends with `RUN_ERROR` (`SERVER_RESTARTED`) when the next
/// server starts on its file.
#[cfg(feature = "store")]
#[tokio::test]
async fn a_killed_server_restarts_on_its_sqlite_file() {
    let dir = process::temp_dir("restart");
    let file = dir.join("runs.db");
    let file = file.to_str().unwrap();
    let open_file = format!("{file}.open");
    let up = upstream::Upstream::start().await;
    let ok = up.api("ok");
    let first = Process::start(&["--store", file], Some(&ok)).await;
    let run = whole(post(&first.base, &input("t", "r1", QUERY), None).await).await;
    assert_whole_run(&run);
    assert!(finished(&run), "{run:?}");
    // A second run left open: its model answers one word every 100 ms.
    let slow = Process::start(&["--store", &open_file], Some(&up.api("slow"))).await;
    let (open, _) = frames(
        post(&slow.base, &input("t", "open", QUERY), None).await,
        Some(3),
    )
    .await;
    first.signal("KILL");
    slow.signal("KILL");
    first.kill().await;
    slow.kill().await;

    let again = Process::start(&["--store", file], Some(&ok)).await;
    let replay = whole(get(&again.base, "/agent/runs/t/r1", None).await).await;
    assert_eq!(
        replay, run,
        "the finished run replays whole after the restart"
    );
    let second = whole(
        post(
            &again.base,
            &input("t", "r2", "Top 2 Italian restaurants in New York"),
            None,
        )
        .await,
    )
    .await;
    assert_whole_run(&second);
    assert!(finished(&second), "{second:?}");
    // The model was asked with the thread's history, which only the file kept.
    let asked = up.requests("ok");
    assert_eq!(asked.len(), 2, "{asked:?}");
    let said: Vec<String> = asked[1]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] != "system")
        .map(|m| {
            format!(
                "{}: {}",
                m["role"].as_str().unwrap(),
                m["content"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(said.len(), 3, "{said:?}");
    assert_eq!(said[0], format!("user: {QUERY}"));
    assert!(
        said[1].starts_with("assistant: ") && said[1].contains(upstream::SENTENCE),
        "{said:?}"
    );
    assert_eq!(said[2], "user: Top 2 Italian restaurants in New York");

    let reopened = Process::start(&["--store", &open_file], Some(&ok)).await;
    let ended = whole(get(&reopened.base, "/agent/runs/t/open", None).await).await;
    assert_eq!(&ended[..open.len()], &open[..]);
    assert_whole_run(&ended);
    let (message, code) = run_error(&ended).unwrap();
    assert_eq!(code.as_deref(), Some("SERVER_RESTARTED"), "{message}");
    drop((again, reopened));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Drops the client after `n` events of a new run on `base` (thread `thread-cut-{n}`, run
/// `run-cut-{n}`), and takes the rest from `resume_base` with the last id it saw: by re-POST
/// when `n` is even, by `GET` when odd.
#[cfg(feature = "store-redis")]
async fn cut_and_resume(base: &str, resume_base: &str, n: usize) -> Vec<Frame> {
    let (thread, run) = (format!("thread-cut-{n}"), format!("run-cut-{n}"));
    let body = input(&thread, &run, QUERY);
    let (mut got, _) = frames(post(base, &body, None).await, Some(n)).await;
    assert_eq!(got.len(), n, "run {run} had fewer than {n} events");
    let last = got.last().and_then(|(id, _)| id.clone()).unwrap();
    let rest = if n % 2 == 0 {
        post(resume_base, &body, Some(&last)).await
    } else {
        let path = format!("/agent/runs/{thread}/{run}");
        get(resume_base, &path, Some(&last)).await
    };
    got.extend(whole(rest).await);
    got
}

/// Two server processes on one Redis: runs on the first, cut at the start, the middle and the
/// end, resume on the second and equal the uninterrupted run event for event.
#[cfg(feature = "store-redis")]
#[tokio::test]
async fn a_run_resumes_on_another_process_sharing_redis() {
    let Some(redis) = support::redis::RedisServer::start_or_skip() else {
        return;
    };
    let url = redis.url();
    let args = ["--store", url.as_str()];
    let (a, b) = tokio::join!(Process::start(&args, None), Process::start(&args, None));
    let body = input("thread-full", "run-full", QUERY);
    let full = whole(post(&a.base, &body, None).await).await;
    assert_whole_run(&full);
    assert!(finished(&full), "{full:?}");
    let want = normalized(&full, "thread-full", "run-full");
    let k = full.len();
    let mut cuts = vec![1, 2, 3, k / 4, k / 2, k / 2 + 1, 3 * k / 4, k - 2, k - 1];
    cuts.dedup();
    let t = std::time::Instant::now();
    let joined = futures::future::join_all(cuts.iter().map(|&n| {
        let (a, b) = (&a.base, &b.base);
        async move { (n, cut_and_resume(a, b, n).await) }
    }))
    .await;
    let took = t.elapsed();
    for (n, frames) in joined {
        assert_whole_run(&frames);
        assert_eq!(
            normalized(&frames, &format!("thread-cut-{n}"), &format!("run-cut-{n}")),
            want,
            "the run cut after {n} events on one process and resumed on the other differs \
             from the uninterrupted run"
        );
    }
    support::say(&format!(
        "resume (Redis, two processes): {} cuts of a {k}-event run resumed on the other process \
         in {took:?}",
        cuts.len(),
    ));
}
