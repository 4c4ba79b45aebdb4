//! The SQLite backend: one file (or memory), for a server that runs as one process.

use super::{
    RunLog, RunStatus, SERVER_RESTARTED, StoreError, Stored, append_batch, backend, decode_message,
    encode_messages, encode_start, start_conflict, stored_from,
};
use crate::agui::events::{ChatMessage, Event, RunError};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The schema this build writes, kept in `PRAGMA user_version`: the number of [`MIGRATIONS`]
/// applied.
const SCHEMA_VERSION: i64 = 2;

/// How long a statement waits for another connection's write lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// How often [`SqliteRunLog::wait_after`](RunLog::wait_after) reads again while it waits, to see
/// what another process wrote to the same file.
const POLL: Duration = Duration::from_millis(100);

/// The steps from an empty file to the schema this build writes: step `i` takes a file of
/// schema version `i` to version `i + 1`, so a file written by an older build is brought up to
/// date in place, and a new file passes through the same steps.
const MIGRATIONS: [&str; 2] = [
    // Version 1: runs, their events, threads' messages.
    "
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
",
    // Version 2: the claim `RunLog::start` stores with a run (NULL for runs begun by `append`).
    "ALTER TABLE runs ADD COLUMN claim TEXT;",
];

/// A [`RunLog`] in SQLite: a file that survives a restart, or memory for tests.
///
/// One connection, guarded by a mutex; the file is in WAL mode, so readers in other processes
/// do not block the writer. [`wait_after`](RunLog::wait_after) is woken by every append made
/// through this value, and reads again every 100 ms to see appends that another process (or
/// another `SqliteRunLog` on the same file) made.
///
/// A server that starts on a file left by a previous process should call
/// [`end_open_runs`](SqliteRunLog::end_open_runs) first: runs that process was writing when it
/// stopped would otherwise stay open forever, and clients following them would wait in vain.
///
/// ```
/// use a2ui_stream::agui::{RunLog, SqliteRunLog};
/// use a2ui_stream::agui::events::{Event, RunStarted};
///
/// let dir = std::env::temp_dir().join(format!("a2ui-store-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("runs.sqlite");
/// {
///     let log = SqliteRunLog::open(&path)?;
///     log.append("t", "r", 1, &[Event::from(RunStarted::new("t", "r"))])?;
/// }
/// // After a restart the run is still there.
/// let log = SqliteRunLog::open(&path)?;
/// assert_eq!(log.read_after("t", "r", 0, 10)?.len(), 1);
/// # drop(log);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), a2ui_stream::agui::StoreError>(())
/// ```
pub struct SqliteRunLog {
    conn: Mutex<Connection>,
    appended: Appended,
    path: Option<PathBuf>,
}

impl fmt::Debug for SqliteRunLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteRunLog")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// Counts the appends made through one [`SqliteRunLog`], so that waiters can sleep until the
/// count moves.
#[derive(Default)]
struct Appended {
    count: Mutex<u64>,
    moved: Condvar,
}

impl Appended {
    fn current(&self) -> u64 {
        *self.count.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn bump(&self) {
        let mut count = self.count.lock().unwrap_or_else(PoisonError::into_inner);
        *count = count.wrapping_add(1);
        self.moved.notify_all();
    }

    /// Sleeps until the count is no longer `seen`, or `at_most` has passed.
    fn wait_past(&self, seen: u64, at_most: Duration) {
        let count = self.count.lock().unwrap_or_else(PoisonError::into_inner);
        // Whether it moved or timed out, the caller reads again.
        drop(
            self.moved
                .wait_timeout_while(count, at_most, |count| *count == seen)
                .unwrap_or_else(PoisonError::into_inner),
        );
    }
}

impl SqliteRunLog {
    /// Opens the log in the file at `path`, creating the file and its tables if needed, and
    /// bringing a file written by an older version of this crate up to date.
    ///
    /// Fails with [`StoreErrorKind::Backend`](crate::agui::StoreErrorKind::Backend) if the file cannot be opened, is not a SQLite
    /// database, or was written by a newer version of this crate (its schema version is higher
    /// than this build knows).
    ///
    /// ```
    /// use a2ui_stream::agui::{SqliteRunLog, StoreError, StoreErrorKind};
    ///
    /// let missing = std::env::temp_dir().join("no-such-dir-a2ui").join("runs.sqlite");
    /// let err = SqliteRunLog::open(&missing).unwrap_err();
    /// assert_eq!(err.kind(), StoreErrorKind::Backend);
    /// assert!(err.message().contains("runs.sqlite"));
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let path = path.as_ref();
        let failed = |e: rusqlite::Error| {
            StoreError::backend(format!("opening the run log {}: {e}", path.display()))
        };
        let conn = Connection::open(path).map_err(failed)?;
        Self::set_up(conn, Some(path.to_owned()))
    }

    /// A log in memory, gone when the value is dropped (for tests and examples).
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, SqliteRunLog};
    ///
    /// let log = SqliteRunLog::in_memory()?;
    /// assert_eq!(log.status("t", "r")?, None);
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    pub fn in_memory() -> Result<Self, StoreError> {
        let conn = Connection::open_in_memory()
            .map_err(|e| StoreError::backend(format!("opening a run log in memory: {e}")))?;
        Self::set_up(conn, None)
    }

    /// Sets the connection's options, checks the schema version and creates the tables.
    fn set_up(mut conn: Connection, path: Option<PathBuf>) -> Result<Self, StoreError> {
        let place = path
            .as_deref()
            .map_or_else(|| "in memory".to_owned(), |p| p.display().to_string());
        let failed = |e: rusqlite::Error| {
            StoreError::backend(format!("setting up the run log {place}: {e}"))
        };
        conn.busy_timeout(BUSY_TIMEOUT).map_err(failed)?;
        // A file becomes "wal"; memory stays "memory", which is as good for one connection.
        conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))
            .map_err(failed)?;
        // With WAL, NORMAL loses no committed transaction when the process dies, only
        // (possibly) the last ones when the machine loses power.
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(failed)?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(failed)?;
        let version: i64 = tx
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(failed)?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::backend(format!(
                "the run log {place} has schema version {version}, newer than version \
                 {SCHEMA_VERSION} that this build knows; open it with a newer build"
            )));
        }
        if version < SCHEMA_VERSION {
            // A negative version is no schema of ours: start from the beginning.
            let done = usize::try_from(version).unwrap_or(0);
            for step in MIGRATIONS.iter().skip(done) {
                tx.execute_batch(step).map_err(failed)?;
            }
            tx.pragma_update(None, "user_version", SCHEMA_VERSION)
                .map_err(failed)?;
        }
        tx.commit().map_err(failed)?;
        Ok(SqliteRunLog {
            conn: Mutex::new(conn),
            appended: Appended::default(),
            path,
        })
    }

    /// Ends every run that has not ended, by appending a `RUN_ERROR` with `message` and code
    /// [`SERVER_RESTARTED`]; returns how many runs it ended.
    ///
    /// For a server that starts on a file a previous process left behind: if that process
    /// crashed or was killed, the runs it was writing have no terminal event, and a client
    /// reconnecting to one would wait for events that never come. Call it once at startup,
    /// before serving; not while another process is writing to the same file, whose runs it
    /// would end too.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, SqliteRunLog, SERVER_RESTARTED};
    /// use a2ui_stream::agui::events::{Event, RunStarted};
    ///
    /// let log = SqliteRunLog::in_memory()?;
    /// log.append("t", "r", 1, &[Event::from(RunStarted::new("t", "r"))])?;
    /// assert_eq!(log.end_open_runs("the server restarted")?, 1);
    /// let last = log.read_after("t", "r", 1, 10)?;
    /// let Ok(Event::RunError(error)) = last[0].event() else { panic!() };
    /// assert_eq!(error.code.as_deref(), Some(SERVER_RESTARTED));
    /// assert!(log.status("t", "r")?.unwrap().ended);
    /// assert_eq!(log.end_open_runs("again")?, 0);
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    pub fn end_open_runs(&self, message: &str) -> Result<usize, StoreError> {
        let failed = |e: rusqlite::Error| StoreError::backend(format!("ending open runs: {e}"));
        let mut error = RunError::new(message);
        error.code = Some(SERVER_RESTARTED.to_owned());
        let json = serde_json::to_string(&Event::from(error))
            .map_err(|e| StoreError::backend(format!("ending open runs: {e}")))?;
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(failed)?;
        let open: Vec<(String, String, i64)> = {
            let mut stmt = tx
                .prepare("SELECT thread_id, run_id, last_seq FROM runs WHERE ended = 0")
                .map_err(failed)?;
            let rows = stmt
                .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
                .map_err(failed)?;
            rows.collect::<Result<_, _>>().map_err(failed)?
        };
        for (thread_id, run_id, last_seq) in &open {
            let seq = last_seq.checked_add(1).ok_or_else(|| {
                backend(
                    "ending open runs",
                    thread_id,
                    Some(run_id),
                    "the sequence number is out of range",
                )
            })?;
            tx.execute(
                "INSERT INTO events (thread_id, run_id, seq, json) VALUES (?1, ?2, ?3, ?4)",
                params![thread_id, run_id, seq, json],
            )
            .map_err(failed)?;
            tx.execute(
                "UPDATE runs SET last_seq = ?3, ended = 1 WHERE thread_id = ?1 AND run_id = ?2",
                params![thread_id, run_id, seq],
            )
            .map_err(failed)?;
        }
        tx.commit().map_err(failed)?;
        drop(conn);
        if !open.is_empty() {
            self.appended.bump();
        }
        Ok(open.len())
    }

    /// The connection. A thread that panicked while holding it left no transaction open (a
    /// transaction rolls back when dropped), so the connection is still good.
    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A run's `(last_seq, ended)`, if it has a row.
fn run_row(
    conn: &Connection,
    thread_id: &str,
    run_id: &str,
) -> rusqlite::Result<Option<(i64, bool)>> {
    conn.prepare_cached("SELECT last_seq, ended FROM runs WHERE thread_id = ?1 AND run_id = ?2")?
        .query_row(params![thread_id, run_id], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .optional()
}

/// A run's events after `after`, at most `limit`.
fn read_rows(
    conn: &Connection,
    thread_id: &str,
    run_id: &str,
    after: u64,
    limit: usize,
) -> Result<Vec<Stored>, StoreError> {
    let failed = |e| backend("reading events", thread_id, Some(run_id), e);
    // Stored numbers fit in an i64, so nothing follows a larger one.
    let Ok(after) = i64::try_from(after) else {
        return Ok(Vec::new());
    };
    if limit == 0 {
        return Ok(Vec::new());
    }
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut stmt = conn
        .prepare_cached(
            "SELECT seq, json FROM events WHERE thread_id = ?1 AND run_id = ?2 AND seq > ?3 \
             ORDER BY seq LIMIT ?4",
        )
        .map_err(failed)?;
    let rows = stmt
        .query_map(params![thread_id, run_id, after, limit], |row| {
            Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
        })
        .map_err(failed)?;
    let mut out = Vec::new();
    for row in rows {
        let (seq, json) = row.map_err(failed)?;
        let seq = u64::try_from(seq).map_err(|_| failed_corrupt(thread_id, run_id, seq))?;
        out.push(Stored { seq, json });
    }
    Ok(out)
}

fn failed_corrupt(thread_id: &str, run_id: &str, seq: i64) -> StoreError {
    backend(
        "reading events",
        thread_id,
        Some(run_id),
        format_args!("a stored event has the invalid sequence number {seq}"),
    )
}

impl SqliteRunLog {
    /// Stores a batch at `first_seq` after the checks of [`RunLog::append`], or, with a claim,
    /// of [`RunLog::start`], in one transaction.
    fn store(
        &self,
        thread_id: &str,
        run_id: &str,
        first_seq: u64,
        claim: Option<&str>,
        (jsons, ends): (Vec<String>, bool),
    ) -> Result<Vec<Stored>, StoreError> {
        let failed = |e| backend("appending events", thread_id, Some(run_id), e);
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(failed)?;
        let row = run_row(&tx, thread_id, run_id).map_err(failed)?;
        let (last_seq, ended) = row.unwrap_or((0, false));
        let last =
            u64::try_from(last_seq).map_err(|_| failed_corrupt(thread_id, run_id, last_seq))?;
        if claim.is_some() && row.is_some() {
            return Err(start_conflict(thread_id, run_id, last));
        }
        if ended {
            return Err(StoreError::ended(thread_id, run_id));
        }
        let expected = last.saturating_add(1);
        if first_seq != expected {
            return Err(StoreError::conflict(thread_id, run_id, expected, first_seq));
        }
        let out_of_range = || {
            backend(
                "appending events",
                thread_id,
                Some(run_id),
                "the sequence number is out of range",
            )
        };
        let mut seq = last_seq;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO events (thread_id, run_id, seq, json) VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(failed)?;
            for json in &jsons {
                seq = seq.checked_add(1).ok_or_else(out_of_range)?;
                insert
                    .execute(params![thread_id, run_id, seq, json])
                    .map_err(failed)?;
            }
        }
        // A new run gets its claim (NULL without one); a known run keeps the one it has.
        tx.execute(
            "INSERT INTO runs (thread_id, run_id, last_seq, ended, claim) VALUES (?1, ?2, ?3, ?4, ?5) \
             ON CONFLICT (thread_id, run_id) DO UPDATE SET last_seq = ?3, ended = ?4",
            params![thread_id, run_id, seq, ends, claim],
        )
        .map_err(failed)?;
        tx.commit().map_err(failed)?;
        drop(conn);
        self.appended.bump();
        Ok(stored_from(first_seq, jsons))
    }
}

impl RunLog for SqliteRunLog {
    fn append(
        &self,
        thread_id: &str,
        run_id: &str,
        first_seq: u64,
        events: &[Event],
    ) -> Result<Vec<Stored>, StoreError> {
        append_batch(thread_id, run_id, events, |batch| {
            self.store(thread_id, run_id, first_seq, None, batch)
        })
    }

    fn start(
        &self,
        thread_id: &str,
        run_id: &str,
        claim: &str,
        events: &[Event],
    ) -> Result<Vec<Stored>, StoreError> {
        let batch = encode_start(thread_id, run_id, events)?;
        self.store(thread_id, run_id, 1, Some(claim), batch)
    }

    fn claim(&self, thread_id: &str, run_id: &str) -> Result<Option<String>, StoreError> {
        let claim: Option<Option<String>> = self
            .conn()
            .prepare_cached("SELECT claim FROM runs WHERE thread_id = ?1 AND run_id = ?2")
            .and_then(|mut stmt| {
                stmt.query_row(params![thread_id, run_id], |row| row.get(0))
                    .optional()
            })
            .map_err(|e| backend("reading a run's claim", thread_id, Some(run_id), e))?;
        Ok(claim.flatten())
    }

    fn read_after(
        &self,
        thread_id: &str,
        run_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Stored>, StoreError> {
        read_rows(&self.conn(), thread_id, run_id, after, limit)
    }

    fn wait_after(
        &self,
        thread_id: &str,
        run_id: &str,
        after: u64,
        limit: usize,
        timeout: Duration,
    ) -> Result<Vec<Stored>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let deadline = Instant::now().checked_add(timeout);
        loop {
            // Taken before reading, so that an append between the read and the wait still
            // wakes the wait.
            let seen = self.appended.current();
            {
                let conn = self.conn();
                let rows = read_rows(&conn, thread_id, run_id, after, limit)?;
                if !rows.is_empty() {
                    return Ok(rows);
                }
                let ended = run_row(&conn, thread_id, run_id)
                    .map_err(|e| backend("waiting for events", thread_id, Some(run_id), e))?
                    .is_some_and(|(_, ended)| ended);
                if ended {
                    return Ok(rows);
                }
            }
            let left = deadline.map_or(POLL, |d| d.saturating_duration_since(Instant::now()));
            if left.is_zero() {
                return Ok(Vec::new());
            }
            self.appended.wait_past(seen, left.min(POLL));
        }
    }

    fn status(&self, thread_id: &str, run_id: &str) -> Result<Option<RunStatus>, StoreError> {
        let row = run_row(&self.conn(), thread_id, run_id)
            .map_err(|e| backend("reading run status", thread_id, Some(run_id), e))?;
        row.map(|(last_seq, ended)| {
            let last_seq =
                u64::try_from(last_seq).map_err(|_| failed_corrupt(thread_id, run_id, last_seq))?;
            Ok(RunStatus { last_seq, ended })
        })
        .transpose()
    }

    fn thread_messages(&self, thread_id: &str) -> Result<Vec<ChatMessage>, StoreError> {
        let failed = |e| backend("reading messages", thread_id, None, e);
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached("SELECT id, json FROM messages WHERE thread_id = ?1 ORDER BY pos")
            .map_err(failed)?;
        let rows = stmt
            .query_map(params![thread_id], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
            })
            .map_err(failed)?;
        let mut out = Vec::new();
        for row in rows {
            let (id, json) = row.map_err(failed)?;
            out.push(decode_message(thread_id, &id, &json)?);
        }
        Ok(out)
    }

    fn save_messages(&self, thread_id: &str, messages: &[ChatMessage]) -> Result<(), StoreError> {
        if messages.is_empty() {
            return Ok(());
        }
        let encoded = encode_messages(thread_id, messages)?;
        let failed = |e| backend("saving messages", thread_id, None, e);
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(failed)?;
        {
            let mut update = tx
                .prepare_cached("UPDATE messages SET json = ?3 WHERE thread_id = ?1 AND id = ?2")
                .map_err(failed)?;
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO messages (thread_id, pos, id, json) VALUES (?1, \
                     (SELECT COALESCE(MAX(pos), 0) + 1 FROM messages WHERE thread_id = ?1), ?2, ?3)",
                )
                .map_err(failed)?;
            for (id, json) in &encoded {
                if update
                    .execute(params![thread_id, id, json])
                    .map_err(failed)?
                    == 0
                {
                    insert
                        .execute(params![thread_id, id, json])
                        .map_err(failed)?;
                }
            }
        }
        tx.commit().map_err(failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agui::StoreErrorKind;
    use crate::agui::events::StepStarted;

    fn temp_file(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("a2ui-store-unit-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("runs.sqlite")
    }

    #[test]
    fn refuses_a_file_of_a_newer_schema() {
        let path = temp_file("newer");
        drop(SqliteRunLog::open(&path).unwrap());
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        drop(conn);
        let err = SqliteRunLog::open(&path).unwrap_err();
        assert_eq!(err.kind(), StoreErrorKind::Backend, "{err:?}");
        let message = err.message();
        let newer = format!("schema version {}", SCHEMA_VERSION + 1);
        assert!(message.contains(&newer), "{message}");
        assert!(message.contains("runs.sqlite"), "{message}");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn sets_the_schema_version_and_wal() {
        let path = temp_file("version");
        let log = SqliteRunLog::open(&path).unwrap();
        let conn = log.conn();
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        let mode: String = conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!((version, mode.as_str()), (SCHEMA_VERSION, "wal"));
        drop(conn);
        drop(log);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_corrupt_message_is_a_backend_error_naming_it() {
        let log = SqliteRunLog::in_memory().unwrap();
        log.conn()
            .execute(
                "INSERT INTO messages (thread_id, pos, id, json) VALUES ('t', 1, 'm1', '{')",
                [],
            )
            .unwrap();
        let err = log.thread_messages("t").unwrap_err();
        assert_eq!(err.kind(), StoreErrorKind::Backend, "{err:?}");
        let message = err.message();
        assert!(message.contains("reading messages"), "{message}");
        assert!(message.contains("\"m1\""), "{message}");
    }

    #[test]
    fn a_negative_sequence_number_is_a_backend_error() {
        let log = SqliteRunLog::in_memory().unwrap();
        log.conn()
            .execute(
                "INSERT INTO events (thread_id, run_id, seq, json) VALUES ('t', 'r', -3, '{}')",
                [],
            )
            .unwrap();
        // `seq > 0` leaves the row out of reads; the run's row is what is checked.
        assert_eq!(log.read_after("t", "r", 0, 10).unwrap(), []);
        log.conn()
            .execute(
                "INSERT INTO runs (thread_id, run_id, last_seq, ended) VALUES ('t', 'r', -3, 0)",
                [],
            )
            .unwrap();
        let err = log.status("t", "r").unwrap_err();
        assert!(err.to_string().contains("-3"), "{err}");
    }

    #[test]
    fn survives_a_thread_that_panicked_holding_the_connection() {
        let log = std::sync::Arc::new(SqliteRunLog::in_memory().unwrap());
        let held = log.clone();
        let result = std::thread::spawn(move || {
            let _conn = held.conn.lock().unwrap();
            panic!("while holding the connection");
        })
        .join();
        assert!(result.is_err());
        assert!(log.conn.is_poisoned());
        let stored = log
            .append("t", "r", 1, &[Event::from(StepStarted::new("plan"))])
            .unwrap();
        assert_eq!(stored[0].seq, 1);
        assert_eq!(log.read_after("t", "r", 0, 10).unwrap(), stored);
    }
}
