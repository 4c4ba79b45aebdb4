//! A run log for AG-UI event streams: in memory, in SQLite (feature `store`) or in Redis

use super::events::{ChatMessage, Event};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

mod history;
mod memory;
#[cfg(feature = "store-redis")]
mod redis;
#[cfg(feature = "store")]
mod sqlite;

pub use history::{messages_of_run, upsert_messages};
pub use memory::MemoryRunLog;
#[cfg(feature = "store-redis")]
pub use redis::RedisRunLog;
#[cfg(feature = "store")]
pub use sqlite::SqliteRunLog;

/// The `RUN_ERROR.code` of the event [`SqliteRunLog::end_open_runs`] appends to the runs a
/// previous server process left open.
///
/// ```
/// assert_eq!(a2ui_stream::agui::SERVER_RESTARTED, "SERVER_RESTARTED");
/// ```
pub const SERVER_RESTARTED: &str = "SERVER_RESTARTED";

/// One stored event: its sequence number in the run (1, 2, 3, … with no gap) and its JSON.
///
/// ```
/// use a2ui_stream::agui::Stored;
/// use a2ui_stream::agui::events::{Event, StepStarted};
///
/// let stored = Stored { seq: 7, json: r#"{"type":"STEP_STARTED","stepName":"plan"}"#.into() };
/// assert_eq!(stored.event().unwrap(), Event::from(StepStarted::new("plan")));
/// assert!(!stored.is_terminal());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The event's place in its run, from 1; the SSE `id:`.
    pub seq: u64,
    /// The event, serialised as it is sent (`serde_json::to_string` of the [`Event`]).
    pub json: String,
}

/// The `type` field of an event's JSON, read without parsing the rest.
#[derive(Deserialize)]
struct TypeOnly<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
}

impl Stored {
    /// The event, parsed from [`json`](Stored::json).
    ///
    /// ```
    /// use a2ui_stream::agui::Stored;
    ///
    /// let stored = Stored { seq: 1, json: r#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#.into() };
    /// assert_eq!(stored.event().unwrap().event_type().as_str(), "TEXT_MESSAGE_END");
    /// let broken = Stored { seq: 2, json: "{".into() };
    /// assert!(broken.event().is_err());
    /// ```
    pub fn event(&self) -> serde_json::Result<Event> {
        serde_json::from_str(&self.json)
    }

    /// The SSE frame: `id: {seq}`, then the JSON as `data:`, then a blank line.
    ///
    /// The JSON the log stores is on one line; should a `json` set by hand span several lines,
    /// each becomes its own `data:` line, which a reader joins back with line breaks.
    ///
    /// ```
    /// use a2ui_stream::agui::Stored;
    /// use a2ui_stream::agui::sse;
    /// use a2ui_stream::agui::events::{Event, StepStarted};
    ///
    /// let stored = Stored { seq: 12, json: r#"{"type":"STEP_STARTED","stepName":"plan"}"#.into() };
    /// let frame = stored.to_sse();
    /// assert_eq!(frame, "id: 12\ndata: {\"type\":\"STEP_STARTED\",\"stepName\":\"plan\"}\n\n");
    /// // Readers skip the id line and read the event.
    /// assert_eq!(sse::read_all(frame.as_bytes()).unwrap(), [Event::from(StepStarted::new("plan"))]);
    /// ```
    pub fn to_sse(&self) -> String {
        super::sse::frame(&self.json, Some(self.seq))
    }

    /// Whether this event ends its run: `RUN_FINISHED` or `RUN_ERROR`, read from the JSON's
    /// top-level `type` field (a `type` nested inside the event does not count). Only that
    /// field is parsed. JSON that is not an event object is not terminal.
    ///
    /// ```
    /// use a2ui_stream::agui::Stored;
    ///
    /// let finished = Stored { seq: 9, json: r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#.into() };
    /// let failed = Stored { seq: 3, json: r#"{"type":"RUN_ERROR","message":"model timed out"}"#.into() };
    /// let nested = Stored { seq: 4, json: r#"{"type":"CUSTOM","name":"n","value":{"type":"RUN_ERROR"}}"#.into() };
    /// assert!(finished.is_terminal());
    /// assert!(failed.is_terminal());
    /// assert!(!nested.is_terminal());
    /// ```
    pub fn is_terminal(&self) -> bool {
        serde_json::from_str::<TypeOnly<'_>>(&self.json)
            .is_ok_and(|t| t.kind == "RUN_FINISHED" || t.kind == "RUN_ERROR")
    }
}

/// What the log knows about a run.
///
/// ```
/// use a2ui_stream::agui::{RunLog, RunStatus, MemoryRunLog};
/// use a2ui_stream::agui::events::{Event, RunFinished, RunStarted};
///
/// let log = MemoryRunLog::new();
/// assert_eq!(log.status("t", "r")?, None);
/// log.append("t", "r", 1, &[Event::from(RunStarted::new("t", "r"))])?;
/// assert_eq!(log.status("t", "r")?, Some(RunStatus { last_seq: 1, ended: false }));
/// log.append("t", "r", 2, &[Event::from(RunFinished::new("t", "r"))])?;
/// assert_eq!(log.status("t", "r")?, Some(RunStatus { last_seq: 2, ended: true }));
/// # Ok::<(), a2ui_stream::agui::StoreError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunStatus {
    /// The sequence number of the run's last event (the next append starts at `last_seq + 1`).
    pub last_seq: u64,
    /// Whether the run's terminal event (`RUN_FINISHED` or `RUN_ERROR`) is stored.
    pub ended: bool,
}

/// Why the store refused or failed: its kind, and what happened naming the thread and run (it
/// has no offset).
///
/// ```
/// use a2ui_stream::agui::{RunLog, MemoryRunLog, StoreErrorKind};
/// use a2ui_stream::agui::events::{Event, StepStarted};
///
/// let log = MemoryRunLog::new();
/// let step = [Event::from(StepStarted::new("plan"))];
/// log.append("t", "r", 1, &step)?;
/// let err = log.append("t", "r", 1, &step).unwrap_err(); // sent twice
/// assert_eq!(err.kind(), StoreErrorKind::Conflict { expected: 2, got: 1 });
/// assert_eq!(err.to_string(), r#"run "r" of thread "t": append at seq 1, but the next seq is 2"#);
/// # Ok::<(), a2ui_stream::agui::StoreError>(())
/// ```
pub type StoreError = crate::Error<StoreErrorKind>;

/// Why the store refused or failed.
///
/// ```
/// use a2ui_stream::agui::{StoreError, StoreErrorKind};
/// assert_eq!(StoreError::ended("t", "r").kind(), StoreErrorKind::Ended);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreErrorKind {
    /// An append's first sequence number is not the run's `last_seq + 1`: a second writer, or
    /// an append sent twice. Nothing was stored.
    Conflict {
        /// The sequence number the next append must start at.
        expected: u64,
        /// The one it started at.
        got: u64,
    },
    /// The run has ended (its `RUN_FINISHED` or `RUN_ERROR` is stored), or the batch had events
    /// after its own terminal event. Nothing was stored.
    Ended,
    /// The backend failed (I/O, SQL, Redis, a corrupt row); the message names the operation and
    /// the thread and run it concerned.
    Backend,
}

impl StoreError {
    /// The append of run `run_id` of thread `thread_id` at `got` conflicts: the next one must
    /// start at `expected` (what a [`RunLog`] backend answers).
    ///
    /// ```
    /// use a2ui_stream::agui::StoreError;
    /// let err = StoreError::conflict("t", "r", 2, 1);
    /// assert_eq!(err.to_string(), r#"run "r" of thread "t": append at seq 1, but the next seq is 2"#);
    /// ```
    pub fn conflict(thread_id: &str, run_id: &str, expected: u64, got: u64) -> StoreError {
        StoreError::of(
            StoreErrorKind::Conflict { expected, got },
            None,
            format!(
                "run {run_id:?} of thread {thread_id:?}: append at seq {got}, but the next seq is {expected}"
            ),
        )
    }

    /// Run `run_id` of thread `thread_id` has ended: nothing can be appended to it.
    ///
    /// ```
    /// use a2ui_stream::agui::StoreError;
    /// assert!(StoreError::ended("t", "r").to_string().contains("has ended"));
    /// ```
    pub fn ended(thread_id: &str, run_id: &str) -> StoreError {
        StoreError::of(
            StoreErrorKind::Ended,
            None,
            format!(
                "run {run_id:?} of thread {thread_id:?} has ended: nothing can follow its RUN_FINISHED or RUN_ERROR"
            ),
        )
    }

    /// The backend failed, as `message` says (naming the operation, the thread and the run).
    ///
    /// ```
    /// use a2ui_stream::agui::StoreError;
    /// assert_eq!(StoreError::backend("disk full").to_string(), "run log backend failed: disk full");
    /// ```
    pub fn backend(message: impl std::fmt::Display) -> StoreError {
        StoreError::of(
            StoreErrorKind::Backend,
            None,
            format!("run log backend failed: {message}"),
        )
    }
}

/// A run log for AG-UI event streams: in memory, in SQLite (feature `store`) or in Redis
/// (feature `store-redis`).
///
/// An agent server streams a run's events to the browser over SSE. If the connection drops, the
/// browser reconnects and sends the `Last-Event-ID` header; if the server is restarted or a
/// reconnect lands on another server process, the events must still be there. The run log keeps
/// every event of every run, in order, each under a sequence number, so that:
///
/// - a client that lost its connection gets exactly the events after the last one it saw, then
///   the live tail ([`RunLog::read_after`], [`RunLog::wait_after`]);
/// - a finished run can be replayed whole (`read_after(.., 0, ..)`);
/// - each thread's conversation is kept ([`RunLog::thread_messages`],
///   [`RunLog::save_messages`]), so a new run can be answered from stored history;
///   [`messages_of_run`] turns a run's events into the messages it added.
///
/// # Sequence numbers and SSE
///
/// A run's events are numbered 1, 2, 3, … with no gap. [`Stored::to_sse`] writes that number as
/// the frame's `id:` line; the browser's `EventSource` remembers the last id it received and
/// sends it back as `Last-Event-ID` when it reconnects. The server parses the header as a `u64`
/// and answers with `read_after(thread, run, last_event_id, ..)`, then follows the live tail until
/// it sends an event for which [`Stored::is_terminal`] holds. The header's rule: absent or empty,
/// the run is replayed from the beginning (after 0); a whole number, the events after it;
/// anything else, the request is refused (HTTP 400).
///
/// # Writing
///
/// One writer per run: [`RunRecorder`] numbers the events and calls [`RunLog::append`], which
/// stores a batch atomically and only at the next number (a second writer, or an append sent
/// twice, is refused with [`StoreErrorKind::Conflict`]). `RUN_FINISHED` or `RUN_ERROR` ends the run;
/// nothing can be appended after it ([`StoreErrorKind::Ended`]).
///
/// A server that must know later who started a run, and with what input, starts it with
/// [`RunLog::start`] (or [`RunRecorder::start`]): the first batch and a *claim*, an opaque string
/// such as the caller's identity and a digest of the request body, are stored together or not at
/// all. A second request for the same run gets [`StoreErrorKind::Conflict`], and the server compares
/// its own claim with [`RunLog::claim`] to tell a reconnect of the owner (same claim: follow the
/// run) from a different request reusing the run id (refuse it, with HTTP 409).
///
/// # Backends
///
/// - [`MemoryRunLog`]: one server process, nothing kept across a restart; the most recent runs
///   only, within a bound. For resuming after a broken connection. No feature needed.
/// - [`SqliteRunLog`] (feature `store`): one server process. A single file (or memory), nothing
///   to install, SQLite is compiled in. Survives a restart; [`SqliteRunLog::end_open_runs`]
///   closes the runs a crashed process left open.
/// - `RedisRunLog` (feature `store-redis`): several server processes behind a load balancer
///   sharing one Redis. A run written by one process can be read and followed from any other, so
///   a reconnect that lands on another process resumes where it stopped.
///
/// All three implement [`RunLog`]; a server holds an `Arc<dyn RunLog>` and does not care which.
/// `docs/storage.md` describes the schemas, keys and guarantees in detail.
///
/// ```
/// use a2ui_stream::agui::{RunLog, RunRecorder, MemoryRunLog};
/// use a2ui_stream::agui::RunBuilder;
/// use std::sync::Arc;
/// use std::time::Duration;
///
/// let log: Arc<dyn RunLog> = Arc::new(MemoryRunLog::new());
/// let mut recorder = RunRecorder::new(log.clone(), "thread-1", "run-1")?;
/// let mut run = RunBuilder::new("thread-1", "run-1");
/// run.text("Hello").unwrap();
/// let events: Vec<_> = run.drain().collect();
/// let mut body = String::new();
/// for stored in recorder.record(&events)? {
///     body.push_str(&stored.to_sse()); // "id: 1\ndata: {...}\n\n", …
/// }
/// assert!(body.starts_with("id: 1\ndata: {\"type\":\"RUN_STARTED\""));
///
/// // The browser saw id 1 and reconnects with `Last-Event-ID: 1`.
/// let missed = log.read_after("thread-1", "run-1", 1, 100)?;
/// assert_eq!(missed.iter().map(|s| s.seq).collect::<Vec<_>>(), [2, 3]);
///
/// // Then it follows the live tail.
/// run.finish().unwrap();
/// let end: Vec<_> = run.drain().collect();
/// recorder.record(&end)?;
/// let tail = log.wait_after("thread-1", "run-1", 3, 100, Duration::from_secs(5))?;
/// assert!(tail.last().is_some_and(|s| s.is_terminal()));
/// # Ok::<(), a2ui_stream::agui::StoreError>(())
/// ```
///
/// Stores each run's events in order and each thread's conversation.
///
/// Every method is safe to call from several threads at once; a backend shared by several
/// processes keeps the same guarantees across them.
pub trait RunLog: Send + Sync {
    /// Appends `events` as seq `first_seq`, `first_seq + 1`, …, atomically (all or none), and
    /// returns the stored records, so that a server can send them as SSE frames without
    /// serialising twice.
    ///
    /// `first_seq` must be the run's `last_seq + 1` (1 for a new run), else
    /// [`StoreErrorKind::Conflict`]. A terminal event (`RUN_FINISHED` or `RUN_ERROR`) ends the run:
    /// later appends, and a batch with events after its own terminal event, get
    /// [`StoreErrorKind::Ended`]. An empty `events` stores nothing and returns an empty vector.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, MemoryRunLog, StoreError, StoreErrorKind};
    /// use a2ui_stream::agui::events::{Event, RunStarted, StepStarted};
    ///
    /// let log = MemoryRunLog::new();
    /// let stored = log.append("t", "r", 1, &[RunStarted::new("t", "r").into(), StepStarted::new("plan").into()])?;
    /// assert_eq!(stored.iter().map(|s| s.seq).collect::<Vec<_>>(), [1, 2]);
    /// assert_eq!(stored[1].json, r#"{"type":"STEP_STARTED","stepName":"plan"}"#);
    /// // A gap is refused.
    /// let gap = log.append("t", "r", 4, &[Event::from(StepStarted::new("x"))]);
    /// assert!(matches!(gap, Err(ref e) if e.kind() == StoreErrorKind::Conflict { expected: 3, got: 4 }));
    /// # Ok::<(), StoreError>(())
    /// ```
    fn append(
        &self,
        thread_id: &str,
        run_id: &str,
        first_seq: u64,
        events: &[Event],
    ) -> Result<Vec<Stored>, StoreError>;

    /// The run's events with seq greater than `after`, in order, at most `limit` of them (empty
    /// for a run never appended to).
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, MemoryRunLog};
    /// use a2ui_stream::agui::events::{Event, StepStarted};
    ///
    /// let log = MemoryRunLog::new();
    /// let steps: Vec<Event> = (1..=5).map(|i| StepStarted::new(format!("s{i}")).into()).collect();
    /// log.append("t", "r", 1, &steps)?;
    /// let page = log.read_after("t", "r", 2, 2)?;
    /// assert_eq!(page.iter().map(|s| s.seq).collect::<Vec<_>>(), [3, 4]);
    /// assert_eq!(page[0].event().unwrap(), steps[2]);
    /// assert!(log.read_after("t", "r", 5, 10)?.is_empty());
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    fn read_after(
        &self,
        thread_id: &str,
        run_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Stored>, StoreError>;

    /// Like [`read_after`](RunLog::read_after), but if nothing follows `after` yet, waits up to
    /// `timeout` for an append (from this process, or another process sharing the backend) and
    /// returns what arrived; empty when the timeout passes first. Returns at once, empty, when
    /// the run has ended and nothing follows `after`, since nothing ever will.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, MemoryRunLog};
    /// use a2ui_stream::agui::events::{Event, StepStarted};
    /// use std::sync::Arc;
    /// use std::time::Duration;
    ///
    /// let log = Arc::new(MemoryRunLog::new());
    /// let writer = log.clone();
    /// let handle = std::thread::spawn(move || {
    ///     std::thread::sleep(Duration::from_millis(50));
    ///     writer.append("t", "r", 1, &[Event::from(StepStarted::new("plan"))]).map(|_| ())
    /// });
    /// let arrived = log.wait_after("t", "r", 0, 10, Duration::from_secs(10))?;
    /// assert_eq!(arrived.len(), 1);
    /// handle.join().unwrap()?;
    /// // Nothing more comes: empty after the timeout.
    /// assert!(log.wait_after("t", "r", 1, 10, Duration::from_millis(20))?.is_empty());
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    fn wait_after(
        &self,
        thread_id: &str,
        run_id: &str,
        after: u64,
        limit: usize,
        timeout: Duration,
    ) -> Result<Vec<Stored>, StoreError>;

    /// What the log knows about the run; `None` for a run never appended to.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, RunStatus, MemoryRunLog};
    /// use a2ui_stream::agui::events::{Event, RunError};
    ///
    /// let log = MemoryRunLog::new();
    /// log.append("t", "r", 1, &[Event::from(RunError::new("model unavailable"))])?;
    /// assert_eq!(log.status("t", "r")?, Some(RunStatus { last_seq: 1, ended: true }));
    /// assert_eq!(log.status("t", "other")?, None);
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    fn status(&self, thread_id: &str, run_id: &str) -> Result<Option<RunStatus>, StoreError>;

    /// The thread's conversation, in order; empty for an unknown thread.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, MemoryRunLog};
    ///
    /// let log = MemoryRunLog::new();
    /// assert!(log.thread_messages("never-seen")?.is_empty());
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    fn thread_messages(&self, thread_id: &str) -> Result<Vec<ChatMessage>, StoreError>;

    /// Saves messages of the thread, by message id: a message whose id is stored replaces it in
    /// place; new ids are appended in the order given. Atomic (all or none).
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, MemoryRunLog};
    /// use a2ui_stream::agui::events::{AssistantMessage, ChatMessage, UserContent, UserMessage};
    ///
    /// let log = MemoryRunLog::new();
    /// let question = ChatMessage::User(UserMessage::new("u1", UserContent::Text("Hi".into())));
    /// let mut answer = AssistantMessage::new("a1");
    /// answer.content = Some("Hel".into());
    /// log.save_messages("t", &[question.clone(), ChatMessage::Assistant(answer.clone())])?;
    /// // The answer grows; saving it again replaces it where it was.
    /// answer.content = Some("Hello!".into());
    /// log.save_messages("t", &[ChatMessage::Assistant(answer.clone())])?;
    /// assert_eq!(log.thread_messages("t")?, [question, ChatMessage::Assistant(answer)]);
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    fn save_messages(&self, thread_id: &str, messages: &[ChatMessage]) -> Result<(), StoreError>;

    /// Appends the first batch of a new run at seq 1, 2, … together with `claim`, an opaque
    /// string kept with the run (an agent server stores who started the run and a digest of its
    /// input), atomically: either the run did not exist and now has both, or nothing changed.
    ///
    /// A run that has events, ended or not, is refused with [`StoreErrorKind::Conflict`]
    /// (`expected` is its next seq, `got` is 1); the caller reads [`claim`](RunLog::claim) to
    /// see whose run it is. `events` must hold at least one event, else the call fails with
    /// [`StoreErrorKind::Backend`] ("a run starts with at least one event") and stores nothing. As
    /// with [`append`](RunLog::append), a terminal event ends the run, and a batch with events
    /// after its own terminal event is refused with [`StoreErrorKind::Ended`].
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, MemoryRunLog, StoreError, StoreErrorKind};
    /// use a2ui_stream::agui::events::{Event, RunStarted, StepStarted};
    ///
    /// let log = MemoryRunLog::new();
    /// let first = [Event::from(RunStarted::new("t", "r")), StepStarted::new("plan").into()];
    /// let stored = log.start("t", "r", "alice sha256:9f2c", &first)?;
    /// assert_eq!(stored.iter().map(|s| s.seq).collect::<Vec<_>>(), [1, 2]);
    /// assert_eq!(log.claim("t", "r")?.as_deref(), Some("alice sha256:9f2c"));
    /// // A second start of the same run changes nothing.
    /// let again = log.start("t", "r", "bob sha256:0b7e", &first);
    /// assert!(matches!(again, Err(ref e) if e.kind() == StoreErrorKind::Conflict { expected: 3, got: 1 }));
    /// assert_eq!(log.claim("t", "r")?.as_deref(), Some("alice sha256:9f2c"));
    /// // The run continues with plain appends.
    /// log.append("t", "r", 3, &[Event::from(StepStarted::new("answer"))])?;
    /// // A run starts with at least one event.
    /// let err = log.start("t", "empty", "alice", &[]).unwrap_err();
    /// assert_eq!(err.kind(), StoreErrorKind::Backend);
    /// # Ok::<(), StoreError>(())
    /// ```
    fn start(
        &self,
        thread_id: &str,
        run_id: &str,
        claim: &str,
        events: &[Event],
    ) -> Result<Vec<Stored>, StoreError>;

    /// The claim stored by [`start`](RunLog::start); `None` for a run never appended to, or
    /// started with plain [`append`](RunLog::append).
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, MemoryRunLog};
    /// use a2ui_stream::agui::events::{Event, RunStarted};
    ///
    /// let log = MemoryRunLog::new();
    /// log.start("t", "claimed", "alice", &[Event::from(RunStarted::new("t", "claimed"))])?;
    /// log.append("t", "plain", 1, &[Event::from(RunStarted::new("t", "plain"))])?;
    /// assert_eq!(log.claim("t", "claimed")?.as_deref(), Some("alice"));
    /// assert_eq!(log.claim("t", "plain")?, None);
    /// assert_eq!(log.claim("t", "unknown")?, None);
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    fn claim(&self, thread_id: &str, run_id: &str) -> Result<Option<String>, StoreError>;

    /// Records that a client in this process is following the run now, for the process writing
    /// it: with several server processes sharing the log, a client may reconnect to another
    /// process than the one whose agent runs, and that one must not take the run for
    /// abandoned. A no-op for a log no other process reads (the default).
    ///
    /// ```
    /// use a2ui_stream::agui::{MemoryRunLog, RunLog};
    ///
    /// let log = MemoryRunLog::new();
    /// log.touch("t", "r")?; // one process: nothing to tell
    /// assert_eq!(log.touched("t", "r")?, None);
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    fn touch(&self, thread_id: &str, run_id: &str) -> Result<(), StoreError> {
        let _ = (thread_id, run_id);
        Ok(())
    }

    /// When a client last followed the run from any process ([`touch`](RunLog::touch)), in
    /// milliseconds since the Unix epoch; `None` when never, or when the log is not shared.
    fn touched(&self, thread_id: &str, run_id: &str) -> Result<Option<u64>, StoreError> {
        let _ = (thread_id, run_id);
        Ok(None)
    }

    /// Whether any method other than [`wait_after`](RunLog::wait_after) may block the thread on
    /// I/O (a file, the network), so that an async server should call it off its event loop
    /// (`tokio::task::spawn_blocking`). `true` unless a backend says otherwise; [`MemoryRunLog`]
    /// says `false`, since its calls only take a lock for a moment.
    ///
    /// [`wait_after`](RunLog::wait_after) is not covered: it blocks in every backend, by design
    /// (it waits), whatever `blocks()` says. An async server follows a run by reading again
    /// with [`read_after`](RunLog::read_after) when it is woken, and calls `wait_after` only
    /// from threads that may block.
    ///
    /// ```
    /// use a2ui_stream::agui::{MemoryRunLog, RunLog};
    /// use std::time::{Duration, Instant};
    ///
    /// let log = MemoryRunLog::new();
    /// assert!(!log.blocks());
    /// // Yet wait_after waits, here for its whole timeout.
    /// let begun = Instant::now();
    /// assert!(log.wait_after("t", "r", 0, 10, Duration::from_millis(50))?.is_empty());
    /// assert!(begun.elapsed() >= Duration::from_millis(50));
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    fn blocks(&self) -> bool {
        true
    }
}

/// Writes one run's events with consecutive sequence numbers.
///
/// The run's only writer: it remembers the next number, so each [`record`](RunRecorder::record)
/// continues where the last stopped. Should another writer append to the same run, the next
/// `record` fails with [`StoreErrorKind::Conflict`] rather than interleave.
///
/// ```
/// use a2ui_stream::agui::{RunLog, RunRecorder, MemoryRunLog, StoreError, StoreErrorKind};
/// use a2ui_stream::agui::events::{Event, RunFinished, RunStarted};
/// use std::sync::Arc;
///
/// let log: Arc<dyn RunLog> = Arc::new(MemoryRunLog::new());
/// let mut recorder = RunRecorder::new(log.clone(), "t", "r")?;
/// recorder.record(&[Event::from(RunStarted::new("t", "r"))])?;
/// let last = recorder.record(&[Event::from(RunFinished::new("t", "r"))])?;
/// assert_eq!(last[0].seq, 2);
/// assert_eq!(recorder.last_seq(), 2);
/// // The run has events: a second recorder for it is refused.
/// assert!(matches!(RunRecorder::new(log, "t", "r"), Err(ref e) if matches!(e.kind(), StoreErrorKind::Conflict { .. })));
/// # Ok::<(), StoreError>(())
/// ```
pub struct RunRecorder {
    log: Arc<dyn RunLog>,
    thread_id: String,
    run_id: String,
    next_seq: u64,
}

impl fmt::Debug for RunRecorder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunRecorder")
            .field("thread_id", &self.thread_id)
            .field("run_id", &self.run_id)
            .field("next_seq", &self.next_seq)
            .finish_non_exhaustive()
    }
}

impl RunRecorder {
    /// A recorder for a new run; fails with [`StoreErrorKind::Conflict`] if the run already has
    /// events (`expected` is its next seq, `got` is 1).
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, RunRecorder, MemoryRunLog};
    /// use std::sync::Arc;
    ///
    /// let log: Arc<dyn RunLog> = Arc::new(MemoryRunLog::new());
    /// let recorder = RunRecorder::new(log, "thread-1", "run-1")?;
    /// assert_eq!(recorder.last_seq(), 0);
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    pub fn new(
        log: Arc<dyn RunLog>,
        thread_id: impl Into<String>,
        run_id: impl Into<String>,
    ) -> Result<RunRecorder, StoreError> {
        let thread_id = thread_id.into();
        let run_id = run_id.into();
        if let Some(status) = log.status(&thread_id, &run_id)? {
            return Err(start_conflict(&thread_id, &run_id, status.last_seq));
        }
        Ok(RunRecorder {
            log,
            thread_id,
            run_id,
            next_seq: 1,
        })
    }

    /// Starts a new run with [`RunLog::start`]: stores `events` as its first batch, at seq 1,
    /// 2, …, together with `claim`, and returns a recorder that continues after them, with the
    /// stored records. Fails as `start` does: [`StoreErrorKind::Conflict`] if the run already has
    /// events, [`StoreErrorKind::Backend`] if `events` is empty.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, RunRecorder, MemoryRunLog, StoreError, StoreErrorKind};
    /// use a2ui_stream::agui::events::{Event, RunFinished, RunStarted};
    /// use std::sync::Arc;
    ///
    /// let log: Arc<dyn RunLog> = Arc::new(MemoryRunLog::new());
    /// let started = [Event::from(RunStarted::new("t", "r"))];
    /// let (mut recorder, stored) = RunRecorder::start(log.clone(), "t", "r", "alice", &started)?;
    /// assert_eq!(stored[0].seq, 1);
    /// assert_eq!(recorder.record(&[Event::from(RunFinished::new("t", "r"))])?[0].seq, 2);
    /// assert_eq!(log.claim("t", "r")?.as_deref(), Some("alice"));
    /// // The run exists: starting it again is refused.
    /// let again = RunRecorder::start(log, "t", "r", "alice", &started);
    /// assert!(matches!(again, Err(ref e) if e.kind() == StoreErrorKind::Conflict { expected: 3, got: 1 }));
    /// # Ok::<(), StoreError>(())
    /// ```
    pub fn start(
        log: Arc<dyn RunLog>,
        thread_id: impl Into<String>,
        run_id: impl Into<String>,
        claim: &str,
        events: &[Event],
    ) -> Result<(RunRecorder, Vec<Stored>), StoreError> {
        let thread_id = thread_id.into();
        let run_id = run_id.into();
        let stored = log.start(&thread_id, &run_id, claim, events)?;
        let next_seq = stored.last().map_or(1, |s| s.seq.saturating_add(1));
        let recorder = RunRecorder {
            log,
            thread_id,
            run_id,
            next_seq,
        };
        Ok((recorder, stored))
    }

    /// Appends `events` after those recorded so far and returns the stored records. An empty
    /// slice returns an empty vector without calling the backend. On an error nothing was
    /// stored, and the next call starts at the same number.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, RunRecorder, MemoryRunLog};
    /// use a2ui_stream::agui::RunBuilder;
    /// use std::sync::Arc;
    ///
    /// let log: Arc<dyn RunLog> = Arc::new(MemoryRunLog::new());
    /// let mut recorder = RunRecorder::new(log, "t", "r")?;
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Hi").unwrap();
    /// let events: Vec<_> = run.drain().collect();
    /// let stored = recorder.record(&events)?;
    /// assert_eq!(stored.iter().map(|s| s.seq).collect::<Vec<_>>(), [1, 2, 3]);
    /// assert!(recorder.record(&[])?.is_empty());
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    pub fn record(&mut self, events: &[Event]) -> Result<Vec<Stored>, StoreError> {
        if events.is_empty() {
            return Ok(Vec::new());
        }
        let stored = self
            .log
            .append(&self.thread_id, &self.run_id, self.next_seq, events)?;
        self.next_seq = stored
            .last()
            .map_or(self.next_seq, |s| s.seq.saturating_add(1));
        Ok(stored)
    }

    /// The sequence number of the last event recorded (0 before the first).
    ///
    /// ```
    /// use a2ui_stream::agui::{RunLog, RunRecorder, MemoryRunLog};
    /// use a2ui_stream::agui::events::{Event, StepStarted};
    /// use std::sync::Arc;
    ///
    /// let log: Arc<dyn RunLog> = Arc::new(MemoryRunLog::new());
    /// let mut recorder = RunRecorder::new(log, "t", "r")?;
    /// recorder.record(&[Event::from(StepStarted::new("a")), Event::from(StepStarted::new("b"))])?;
    /// assert_eq!(recorder.last_seq(), 2);
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    pub fn last_seq(&self) -> u64 {
        self.next_seq.saturating_sub(1)
    }
}

/// Whether `event` ends its run.
fn is_terminal_event(event: &Event) -> bool {
    matches!(event, Event::RunFinished(_) | Event::RunError(_))
}

/// The JSON of each event, and whether the batch ends the run. A batch with anything after its
/// terminal event is refused with [`StoreErrorKind::Ended`].
fn encode_batch(
    thread_id: &str,
    run_id: &str,
    events: &[Event],
) -> Result<(Vec<String>, bool), StoreError> {
    let mut jsons = Vec::with_capacity(events.len());
    let mut ended = false;
    for event in events {
        if ended {
            return Err(StoreError::ended(thread_id, run_id));
        }
        ended = is_terminal_event(event);
        let json = serde_json::to_string(event)
            .map_err(|e| backend("serialising an event", thread_id, Some(run_id), e))?;
        jsons.push(json);
    }
    Ok((jsons, ended))
}

/// What every backend's [`RunLog::append`] does: nothing for no events, else the events
/// encoded ([`encode_batch`]) and handed to the backend's `store`.
fn append_batch(
    thread_id: &str,
    run_id: &str,
    events: &[Event],
    store: impl FnOnce((Vec<String>, bool)) -> Result<Vec<Stored>, StoreError>,
) -> Result<Vec<Stored>, StoreError> {
    if events.is_empty() {
        return Ok(Vec::new());
    }
    store(encode_batch(thread_id, run_id, events)?)
}

/// The JSON of each event of a run's first batch, and whether it ends the run; as
/// [`encode_batch`], and an empty batch is refused (a run starts with at least one event).
fn encode_start(
    thread_id: &str,
    run_id: &str,
    events: &[Event],
) -> Result<(Vec<String>, bool), StoreError> {
    if events.is_empty() {
        return Err(backend(
            "starting a run",
            thread_id,
            Some(run_id),
            "a run starts with at least one event",
        ));
    }
    encode_batch(thread_id, run_id, events)
}

/// The [`StoreErrorKind::Conflict`] of a [`RunLog::start`] for a run whose last seq is `last_seq`.
fn start_conflict(thread_id: &str, run_id: &str, last_seq: u64) -> StoreError {
    StoreError::conflict(thread_id, run_id, last_seq.saturating_add(1), 1)
}

/// The stored records of a batch appended at `first_seq`.
fn stored_from(first_seq: u64, jsons: Vec<String>) -> Vec<Stored> {
    (first_seq..)
        .zip(jsons)
        .map(|(seq, json)| Stored { seq, json })
        .collect()
}

/// Each message's id and JSON.
#[cfg(feature = "store")]
fn encode_messages(
    thread_id: &str,
    messages: &[ChatMessage],
) -> Result<Vec<(String, String)>, StoreError> {
    messages
        .iter()
        .map(|m| {
            serde_json::to_string(m)
                .map(|json| (m.id().to_owned(), json))
                .map_err(|e| backend("serialising a message", thread_id, None, e))
        })
        .collect()
}

/// A stored message, parsed.
#[cfg(feature = "store")]
fn decode_message(thread_id: &str, id: &str, json: &str) -> Result<ChatMessage, StoreError> {
    serde_json::from_str(json).map_err(|e| {
        backend(
            "reading messages",
            thread_id,
            None,
            format_args!("message {id:?} is not a valid message: {e}"),
        )
    })
}

/// A [`StoreErrorKind::Backend`] naming the operation, the thread and (if any) the run.
fn backend(
    operation: &str,
    thread_id: &str,
    run_id: Option<&str>,
    error: impl fmt::Display,
) -> StoreError {
    match run_id {
        Some(run_id) => StoreError::backend(format!(
            "{operation} (thread {thread_id:?}, run {run_id:?}): {error}"
        )),
        None => StoreError::backend(format!("{operation} (thread {thread_id:?}): {error}")),
    }
}
