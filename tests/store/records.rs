//! The recorder, the stored records and the errors, on one backend (what they do does not depend
//! on it).

use super::{conflict, ended, seqs, steps};
use a2ui_stream::agui::RunBuilder;
use a2ui_stream::agui::events::{ChatMessage, Event};
use a2ui_stream::agui::{
    RunLog, RunRecorder, RunStatus, SqliteRunLog, StoreError, StoreErrorKind, Stored,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Counts the appends and starts that reach the log it wraps.
struct CountingLog {
    inner: SqliteRunLog,
    appends: AtomicUsize,
    starts: AtomicUsize,
}

impl CountingLog {
    fn new() -> Arc<CountingLog> {
        Arc::new(CountingLog {
            inner: SqliteRunLog::in_memory().unwrap(),
            appends: AtomicUsize::new(0),
            starts: AtomicUsize::new(0),
        })
    }
}

impl RunLog for CountingLog {
    fn append(
        &self,
        thread_id: &str,
        run_id: &str,
        first_seq: u64,
        events: &[Event],
    ) -> Result<Vec<Stored>, StoreError> {
        self.appends.fetch_add(1, Ordering::SeqCst);
        self.inner.append(thread_id, run_id, first_seq, events)
    }
    fn start(
        &self,
        thread_id: &str,
        run_id: &str,
        claim: &str,
        events: &[Event],
    ) -> Result<Vec<Stored>, StoreError> {
        self.starts.fetch_add(1, Ordering::SeqCst);
        self.inner.start(thread_id, run_id, claim, events)
    }
    fn claim(&self, thread_id: &str, run_id: &str) -> Result<Option<String>, StoreError> {
        self.inner.claim(thread_id, run_id)
    }
    fn read_after(
        &self,
        thread_id: &str,
        run_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Stored>, StoreError> {
        self.inner.read_after(thread_id, run_id, after, limit)
    }
    fn wait_after(
        &self,
        thread_id: &str,
        run_id: &str,
        after: u64,
        limit: usize,
        timeout: Duration,
    ) -> Result<Vec<Stored>, StoreError> {
        self.inner
            .wait_after(thread_id, run_id, after, limit, timeout)
    }
    fn status(&self, thread_id: &str, run_id: &str) -> Result<Option<RunStatus>, StoreError> {
        self.inner.status(thread_id, run_id)
    }
    fn thread_messages(&self, thread_id: &str) -> Result<Vec<ChatMessage>, StoreError> {
        self.inner.thread_messages(thread_id)
    }
    fn save_messages(&self, thread_id: &str, messages: &[ChatMessage]) -> Result<(), StoreError> {
        self.inner.save_messages(thread_id, messages)
    }
}

#[test]
fn the_recorder_numbers_batches_and_stops_at_a_second_writer() {
    let counting = CountingLog::new();
    let log: Arc<dyn RunLog> = counting.clone();
    let mut recorder = RunRecorder::new(log.clone(), "t", "r").unwrap();
    assert_eq!(recorder.last_seq(), 0);
    assert_eq!(recorder.record(&[]).unwrap(), []);
    assert_eq!(
        counting.appends.load(Ordering::SeqCst),
        0,
        "no backend call"
    );
    assert_eq!(seqs(&recorder.record(&steps(&["a", "b"])).unwrap()), [1, 2]);
    assert_eq!(seqs(&recorder.record(&steps(&["c"])).unwrap()), [3]);
    assert_eq!(recorder.last_seq(), 3);
    assert_eq!(counting.appends.load(Ordering::SeqCst), 2);

    // The run has events: a second recorder is refused.
    assert_eq!(
        RunRecorder::new(log.clone(), "t", "r").unwrap_err(),
        conflict("t", "r", 4, 1)
    );
    // Someone else appends anyway: the recorder's next batch is refused, and it stays where it was.
    log.append("t", "r", 4, &steps(&["intruder"])).unwrap();
    assert_eq!(
        recorder.record(&steps(&["d"])).unwrap_err(),
        conflict("t", "r", 5, 4)
    );
    assert_eq!(recorder.last_seq(), 3);
    assert!(format!("{recorder:?}").contains("next_seq: 4"));
}

#[test]
fn a_started_recorder_starts_once_then_appends_and_stops_at_a_second_writer() {
    let counting = CountingLog::new();
    let log: Arc<dyn RunLog> = counting.clone();
    let (mut recorder, stored) =
        RunRecorder::start(log.clone(), "t", "r", "alice", &steps(&["a", "b"])).unwrap();
    assert_eq!(seqs(&stored), [1, 2]);
    assert_eq!(recorder.last_seq(), 2);
    assert_eq!(counting.starts.load(Ordering::SeqCst), 1);
    assert_eq!(counting.appends.load(Ordering::SeqCst), 0, "no append yet");
    assert_eq!(seqs(&recorder.record(&steps(&["c"])).unwrap()), [3]);
    assert_eq!(counting.appends.load(Ordering::SeqCst), 1);
    assert!(format!("{recorder:?}").contains("next_seq: 4"));
    // A refused start makes no recorder and stores nothing.
    assert_eq!(
        RunRecorder::start(log.clone(), "t", "r", "bob", &steps(&["x"])).unwrap_err(),
        conflict("t", "r", 4, 1)
    );
    assert!(matches!(
        RunRecorder::start(log.clone(), "t", "empty", "bob", &[]),
        Err(e) if e.kind() == StoreErrorKind::Backend
    ));
    assert_eq!(log.status("t", "empty").unwrap(), None);
    // Someone else appends anyway: the recorder's next batch is refused.
    log.append("t", "r", 4, &steps(&["intruder"])).unwrap();
    assert_eq!(
        recorder.record(&steps(&["d"])).unwrap_err(),
        conflict("t", "r", 5, 4)
    );
    assert_eq!(recorder.last_seq(), 3);
    assert_eq!(log.claim("t", "r").unwrap().as_deref(), Some("alice"));
}

#[test]
fn errors_say_what_and_where() {
    assert_eq!(
        conflict("t1", "r1", 4, 2).to_string(),
        r#"run "r1" of thread "t1": append at seq 2, but the next seq is 4"#
    );
    assert_eq!(
        ended("t1", "r1").to_string(),
        r#"run "r1" of thread "t1" has ended: nothing can follow its RUN_FINISHED or RUN_ERROR"#
    );
    let err: Box<dyn std::error::Error> = Box::new(StoreError::backend("reading events"));
    assert_eq!(err.to_string(), "run log backend failed: reading events");
}

#[test]
fn stored_frames_carry_the_sequence_number_as_the_sse_id() {
    let log = SqliteRunLog::in_memory().unwrap();
    let mut run = RunBuilder::new("t", "r");
    run.text("line one\nline two").unwrap();
    run.finish().unwrap();
    let events: Vec<_> = run.drain().collect();
    let stored = log.append("t", "r", 1, &events).unwrap();
    let body: String = stored.iter().map(Stored::to_sse).collect();
    let ids: Vec<_> = body
        .lines()
        .filter_map(|l| l.strip_prefix("id: "))
        .collect();
    assert_eq!(ids, ["1", "2", "3", "4", "5"]);
    assert_eq!(
        a2ui_stream::agui::sse::read_all(body.as_bytes()).unwrap(),
        events
    );
    // A frame whose JSON was written over several lines still reads back.
    let spread = Stored {
        seq: 9,
        json: "{\"type\":\"STEP_STARTED\",\r\n\"stepName\":\"a\"}".into(),
    };
    assert_eq!(
        spread.to_sse(),
        "id: 9\ndata: {\"type\":\"STEP_STARTED\",\ndata: \ndata: \"stepName\":\"a\"}\n\n"
    );
    assert_eq!(
        a2ui_stream::agui::sse::read_all(spread.to_sse().as_bytes()).unwrap(),
        steps(&["a"])
    );
    let not_json = Stored {
        seq: 1,
        json: "RUN_FINISHED".into(),
    };
    assert!(!not_json.is_terminal());
}
