//! Ctrl-C: open runs get `--shutdown-timeout`, a second Ctrl-C exits at once.

use crate::process::Process;
use crate::upstream::Upstream;
use crate::*;
use std::time::{Duration, Instant};

/// Ctrl-C with a run stuck on a hanging model: the run ends with `RUN_ERROR`
/// (`SERVER_SHUTDOWN`) at the shutdown deadline and the process exits cleanly; with a long
/// shutdown deadline the first Ctrl-C waits for the run, and a second one exits at once with
/// status 130.
#[tokio::test]
async fn ctrl_c_ends_stuck_runs_and_a_second_one_exits() {
    let up = Upstream::start().await;
    let hang = up.api("hang");
    let (mut graceful, mut patient) = tokio::join!(
        Process::start(&["--shutdown-timeout", "0.5"], Some(&hang)),
        Process::start(&["--shutdown-timeout", "60"], Some(&hang)),
    );
    let reading = tokio::spawn(frames(
        post(&graceful.base, &input("t", "stuck", QUERY), None).await,
        None,
    ));
    let held = post(&patient.base, &input("t", "stuck", QUERY), None).await;
    // Both runs are waiting for the model.
    while up.requests("hang").len() < 2 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    let signalled = Instant::now();
    graceful.signal("INT");
    let (got, _) = tokio::time::timeout(Duration::from_secs(10), reading)
        .await
        .expect("the run did not end")
        .unwrap();
    let ended = signalled.elapsed();
    assert_whole_run(&got);
    let (message, code) = run_error(&got).unwrap();
    assert_eq!(code.as_deref(), Some("SERVER_SHUTDOWN"), "{message}");
    assert!(message.contains("shutdown deadline of 500 ms"), "{message}");
    assert!(ended >= Duration::from_millis(500), "{ended:?}");
    let status = graceful.exit_within(Duration::from_secs(10)).await;
    assert!(
        status.success(),
        "{status:?} {:?}",
        graceful.log.lock().unwrap()
    );

    patient.signal("INT");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        patient.child.try_wait().unwrap().is_none(),
        "the first Ctrl-C waits for the run"
    );
    patient.signal("INT");
    let status = patient.exit_within(Duration::from_secs(5)).await;
    assert_eq!(status.code(), Some(130), "{status:?}");
    drop(held);
}
