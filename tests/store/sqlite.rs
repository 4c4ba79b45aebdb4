//! What only the SQLite backend has: a file that is reopened, and `end_open_runs`.

use super::{TempDir, assistant, ended, seqs, steps, user};
use a2ui_stream::agui::events::{Event, RunFinished};
use a2ui_stream::agui::{RunLog, RunStatus, SERVER_RESTARTED, SqliteRunLog, StoreErrorKind};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

#[test]
fn a_reopened_sqlite_file_keeps_everything() {
    let dir = TempDir::new();
    let events = steps(&["a", "b"]);
    {
        let log = SqliteRunLog::open(dir.file()).unwrap();
        log.append("t", "r", 1, &events).unwrap();
        log.append("t", "done", 1, &[RunFinished::new("t", "done").into()])
            .unwrap();
        log.save_messages("t", &[user("u1", "Hi"), assistant("a1", "Hello")])
            .unwrap();
    }
    let log = SqliteRunLog::open(dir.file()).unwrap();
    let stored = log.read_after("t", "r", 0, 10).unwrap();
    assert_eq!(
        stored
            .iter()
            .map(|s| s.event().unwrap())
            .collect::<Vec<_>>(),
        events
    );
    assert_eq!(
        log.status("t", "r").unwrap(),
        Some(RunStatus {
            last_seq: 2,
            ended: false
        })
    );
    assert!(log.status("t", "done").unwrap().unwrap().ended);
    assert_eq!(
        log.thread_messages("t").unwrap(),
        [user("u1", "Hi"), assistant("a1", "Hello")]
    );
    log.append("t", "r", 3, &steps(&["c"])).unwrap();
}

/// Two open runs and an ended one, as a process leaves them when it stops.
fn leave_runs(log: &SqliteRunLog) {
    log.append("t", "open-1", 1, &steps(&["a"])).unwrap();
    log.append("t", "open-2", 1, &steps(&["a", "b"])).unwrap();
    log.append("t", "done", 1, &[RunFinished::new("t", "done").into()])
        .unwrap();
}

#[test]
fn end_open_runs_closes_what_a_stopped_process_left_open() {
    let dir = TempDir::new();
    leave_runs(&SqliteRunLog::open(dir.file()).unwrap());
    // The process that wrote them is gone; a new one opens the file.
    let in_file = SqliteRunLog::open(dir.file()).unwrap();
    let in_memory = SqliteRunLog::in_memory().unwrap();
    leave_runs(&in_memory);
    for log in [in_file, in_memory] {
        assert_eq!(log.end_open_runs("the server restarted").unwrap(), 2);
        for (run, last) in [("open-1", 2), ("open-2", 3)] {
            assert_eq!(
                log.status("t", run).unwrap(),
                Some(RunStatus {
                    last_seq: last,
                    ended: true
                })
            );
            let end = log.read_after("t", run, last - 1, 10).unwrap();
            assert_eq!(seqs(&end), [last]);
            assert!(end[0].is_terminal());
            let Ok(Event::RunError(error)) = end[0].event() else {
                panic!("{end:?}")
            };
            assert_eq!(error.message, "the server restarted");
            assert_eq!(error.code.as_deref(), Some(SERVER_RESTARTED));
            assert_eq!(
                log.append("t", run, last + 1, &steps(&["late"])),
                Err(ended("t", run))
            );
        }
        assert_eq!(log.read_after("t", "done", 0, 10).unwrap().len(), 1);
        assert_eq!(log.end_open_runs("again").unwrap(), 0);
    }
}

#[test]
fn a_wait_wakes_for_end_open_runs() {
    let log = Arc::new(SqliteRunLog::in_memory().unwrap());
    log.append("t", "r", 1, &steps(&["a"])).unwrap();
    let ender = log.clone();
    let handle = thread::spawn(move || {
        thread::sleep(Duration::from_millis(200));
        ender.end_open_runs("restarted").unwrap()
    });
    let got = log
        .wait_after("t", "r", 1, 10, Duration::from_secs(30))
        .unwrap();
    assert_eq!(handle.join().unwrap(), 1);
    assert!(got[0].is_terminal());
}

#[test]
fn opening_a_file_that_is_not_a_database_fails() {
    let dir = TempDir::new();
    std::fs::write(
        dir.file(),
        b"this is not a SQLite database, just some text that is long enough",
    )
    .unwrap();
    let err = SqliteRunLog::open(dir.file()).unwrap_err();
    assert_eq!(err.kind(), StoreErrorKind::Backend, "{err:?}");
    let message = err.message();
    assert!(
        message.contains(&*dir.file().to_string_lossy()),
        "{message}"
    );
}

/// The tables as schema version 1, before run claims, created them.
const SCHEMA_V1: &str = "
CREATE TABLE runs (
    thread_id TEXT NOT NULL,
    run_id    TEXT NOT NULL,
    last_seq  INTEGER NOT NULL,
    ended     INTEGER NOT NULL,
    PRIMARY KEY (thread_id, run_id)
);
CREATE TABLE events (
    thread_id TEXT NOT NULL,
    run_id    TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    json      TEXT NOT NULL,
    PRIMARY KEY (thread_id, run_id, seq)
);
CREATE TABLE messages (
    thread_id TEXT NOT NULL,
    pos       INTEGER NOT NULL,
    id        TEXT NOT NULL,
    json      TEXT NOT NULL,
    PRIMARY KEY (thread_id, pos),
    UNIQUE (thread_id, id)
);
PRAGMA user_version = 1;
";

#[test]
fn a_file_of_the_schema_before_claims_is_brought_up_to_date_in_place() {
    let dir = TempDir::new();
    let events = steps(&["a", "b"]);
    {
        // A file as a build of schema version 1 left it: an open run, an ended one, messages.
        let conn = rusqlite::Connection::open(dir.file()).unwrap();
        conn.execute_batch(SCHEMA_V1).unwrap();
        for (seq, event) in (1..).zip(&events) {
            conn.execute(
                "INSERT INTO events VALUES ('t', 'r', ?1, ?2)",
                rusqlite::params![seq, serde_json::to_string(event).unwrap()],
            )
            .unwrap();
        }
        let end = serde_json::to_string(&Event::from(RunFinished::new("t", "done"))).unwrap();
        conn.execute(
            "INSERT INTO events VALUES ('t', 'done', 1, ?1)",
            rusqlite::params![end],
        )
        .unwrap();
        conn.execute_batch(
            "INSERT INTO runs VALUES ('t', 'r', 2, 0); INSERT INTO runs VALUES ('t', 'done', 1, 1);",
        )
        .unwrap();
        conn.execute(
            "INSERT INTO messages VALUES ('t', 1, 'u1', ?1)",
            rusqlite::params![serde_json::to_string(&user("u1", "Hi")).unwrap()],
        )
        .unwrap();
    }
    {
        let log = SqliteRunLog::open(dir.file()).unwrap();
        let stored = log.read_after("t", "r", 0, 10).unwrap();
        let read: Vec<Event> = stored.iter().map(|s| s.event().unwrap()).collect();
        assert_eq!(read, events);
        assert_eq!(
            log.status("t", "r").unwrap(),
            Some(RunStatus {
                last_seq: 2,
                ended: false
            })
        );
        assert!(log.status("t", "done").unwrap().unwrap().ended);
        assert_eq!(log.thread_messages("t").unwrap(), [user("u1", "Hi")]);
        // Runs of the old file have no claim, and go on as before.
        assert_eq!(log.claim("t", "r").unwrap(), None);
        assert_eq!(seqs(&log.append("t", "r", 3, &steps(&["c"])).unwrap()), [3]);
        assert_eq!(
            log.start("t", "r", "alice", &steps(&["x"])),
            Err(super::conflict("t", "r", 4, 1))
        );
        log.start("t", "new", "alice", &steps(&["a"])).unwrap();
    }
    // Opened again, the file is of the current schema and keeps the claim.
    let log = SqliteRunLog::open(dir.file()).unwrap();
    assert_eq!(log.claim("t", "new").unwrap().as_deref(), Some("alice"));
    assert_eq!(log.status("t", "r").unwrap().unwrap().last_seq, 3);
    drop(log);
    let conn = rusqlite::Connection::open(dir.file()).unwrap();
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .unwrap();
    assert_eq!(version, 2);
    let columns: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info('runs')")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        columns,
        ["thread_id", "run_id", "last_seq", "ended", "claim"]
    );
}
