//! [`MemoryRunLog`]: runs kept in the server's memory, the most recent ones only.

use super::{
    ChatMessage, Event, RunLog, RunStatus, StoreError, Stored, append_batch, encode_start,
    start_conflict, stored_from, upsert_messages,
};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::io;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A run log in memory: nothing to install and nothing kept across a restart, for a server that
/// only needs a client to resume after a broken connection.
///
/// Bounded, by default to 200 runs, 64 MiB of runs, 1,000 threads and 64 MiB of threads:
///
/// - Runs: at most a number of runs and of bytes (each event's JSON and each run's claim).
///   Past a bound the run that ended first is forgotten, with its claim: it is then unknown
///   (`status` and `claim` say `None`) and can be started again. A run still being written is
///   never dropped, so open runs may pass the bounds.
/// - Threads' conversations: at most a number of threads and of bytes (each stored message's
///   JSON). Past a bound the thread saved least recently is forgotten whole. A thread whose
///   own messages are more than the byte bound keeps only its last messages: the longest
///   stretch at the end of the conversation that fits. When even its last message is too large
///   it keeps none, as if never saved.
///
/// ```
/// use a2ui_stream::agui::{MemoryRunLog, RunLog};
/// use a2ui_stream::agui::events::{Event, RunFinished, StepStarted};
///
/// let log = MemoryRunLog::with_capacity(2, 10);
/// for run in ["r1", "r2", "r3"] {
///     log.append("t", run, 1, &[Event::from(StepStarted::new("plan")),
///                               Event::from(RunFinished::new("t", run))])?;
/// }
/// // Only the two most recent runs are kept.
/// assert_eq!(log.status("t", "r1")?, None);
/// assert_eq!(log.read_after("t", "r3", 1, 10)?.len(), 1);
/// # Ok::<(), a2ui_stream::agui::StoreError>(())
/// ```
#[derive(Debug)]
pub struct MemoryRunLog {
    inner: Mutex<Inner>,
    appended: Condvar,
}

#[derive(Debug, Default)]
struct Inner {
    runs: HashMap<(String, String), Run>,
    /// Runs that have ended, in the order they ended: the ones to forget first.
    ended_order: VecDeque<(String, String)>,
    threads: HashMap<String, Thread>,
    /// Each thread under the number of its last save: the first is the one to forget first.
    thread_order: BTreeMap<u64, String>,
    /// The number of the next save.
    next_save: u64,
    max_runs: usize,
    max_threads: usize,
    /// Bytes of runs held (event JSON and claims), and the bound on them.
    bytes: usize,
    max_bytes: usize,
    /// Bytes of message JSON held in threads, and the bound on them.
    thread_bytes: usize,
    max_thread_bytes: usize,
}

#[derive(Debug, Default)]
struct Run {
    events: Vec<String>,
    ended: bool,
    claim: Option<String>,
}

impl Run {
    /// The bytes the run counts for in the bound.
    fn size(&self) -> usize {
        let events: usize = self.events.iter().map(String::len).sum();
        events.saturating_add(self.claim.as_ref().map_or(0, String::len))
    }
}

#[derive(Debug, Default)]
struct Thread {
    messages: Vec<ChatMessage>,
    /// The JSON length of `messages`, summed.
    bytes: usize,
    /// The number of its last save, its key in `thread_order`.
    saved: u64,
}

impl Default for MemoryRunLog {
    fn default() -> Self {
        MemoryRunLog::new()
    }
}

impl MemoryRunLog {
    /// A log keeping the 200 most recent runs (at most 64 MiB of them) and the 1,000 threads
    /// saved most recently (at most 64 MiB of messages).
    ///
    /// ```
    /// use a2ui_stream::agui::{MemoryRunLog, RunLog};
    /// assert_eq!(MemoryRunLog::new().status("t", "r")?, None);
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    pub fn new() -> Self {
        MemoryRunLog::with_capacity(200, 1_000)
            .with_max_bytes(64 << 20)
            .with_max_thread_bytes(64 << 20)
    }

    /// The same log holding at most `bytes` of runs (event JSON and claims) in ended runs and
    /// the runs being written (runs being written are never dropped, so they may pass it).
    ///
    /// ```
    /// use a2ui_stream::agui::{MemoryRunLog, RunLog};
    /// use a2ui_stream::agui::events::{Event, RunFinished};
    ///
    /// let log = MemoryRunLog::with_capacity(100, 100).with_max_bytes(100);
    /// for run in ["r1", "r2", "r3"] {
    ///     log.append("t", run, 1, &[Event::from(RunFinished::new("t", run))])?;
    /// }
    /// assert_eq!(log.status("t", "r1")?, None);
    /// assert!(log.status("t", "r3")?.is_some());
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    pub fn with_max_bytes(self, bytes: usize) -> Self {
        self.lock().max_bytes = bytes;
        self
    }

    /// The same log holding at most `bytes` of thread messages (the JSON length of each stored
    /// message). Past it the threads saved least recently are forgotten whole; a thread whose
    /// own messages are more than `bytes` keeps only its last messages that fit (none, if its
    /// last message alone is larger).
    ///
    /// ```
    /// use a2ui_stream::agui::{MemoryRunLog, RunLog};
    /// use a2ui_stream::agui::events::{ChatMessage, UserContent, UserMessage};
    ///
    /// let user = |id: &str| ChatMessage::User(UserMessage::new(id, UserContent::Text("x".repeat(100))));
    /// let log = MemoryRunLog::with_capacity(10, 10).with_max_thread_bytes(300);
    /// log.save_messages("old", &[user("a"), user("b")])?;
    /// log.save_messages("new", &[user("c")])?;
    /// // Two messages of the old thread and one of the new are more than 300 bytes.
    /// assert!(log.thread_messages("old")?.is_empty());
    /// assert_eq!(log.thread_messages("new")?.len(), 1);
    /// // A thread larger than the bound keeps its last messages that fit.
    /// log.save_messages("long", &[user("d"), user("e"), user("f")])?;
    /// assert_eq!(log.thread_messages("long")?, [user("e"), user("f")]);
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    pub fn with_max_thread_bytes(self, bytes: usize) -> Self {
        self.lock().max_thread_bytes = bytes;
        self
    }

    /// A log keeping the `runs` most recent runs and the `threads` threads saved most recently
    /// (each at least 1), with no bound on bytes.
    ///
    /// ```
    /// use a2ui_stream::agui::MemoryRunLog;
    /// let log = MemoryRunLog::with_capacity(100, 100);
    /// # drop(log);
    /// ```
    pub fn with_capacity(runs: usize, threads: usize) -> Self {
        MemoryRunLog {
            inner: Mutex::new(Inner {
                max_runs: runs.max(1),
                max_threads: threads.max(1),
                max_bytes: usize::MAX,
                max_thread_bytes: usize::MAX,
                ..Inner::default()
            }),
            appended: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere while holding the lock leaves consistent data: every change below
        // is made after its checks.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stores a batch at `first_seq` after the checks of [`RunLog::append`], or, with a claim,
    /// of [`RunLog::start`].
    fn store(
        &self,
        thread_id: &str,
        run_id: &str,
        first_seq: u64,
        claim: Option<&str>,
        (jsons, ends): (Vec<String>, bool),
    ) -> Result<Vec<Stored>, StoreError> {
        let mut inner = self.lock();
        let k = key(thread_id, run_id);
        let (last, ended) = match inner.runs.get(&k) {
            Some(run) if claim.is_some() => {
                return Err(start_conflict(thread_id, run_id, run.events.len() as u64));
            }
            Some(run) => (run.events.len() as u64, run.ended),
            None => (0, false),
        };
        if ended {
            return Err(StoreError::ended(thread_id, run_id));
        }
        if first_seq != last + 1 {
            return Err(StoreError::conflict(thread_id, run_id, last + 1, first_seq));
        }
        let events: usize = jsons.iter().map(String::len).sum();
        let bytes = events.saturating_add(claim.map_or(0, str::len));
        let new_run = usize::from(!inner.runs.contains_key(&k));
        inner.make_room(new_run, bytes);
        inner.bytes = inner.bytes.saturating_add(bytes);
        if ends {
            inner.ended_order.push_back(k.clone());
        }
        let run = inner.runs.entry(k).or_default();
        run.events.extend(jsons.iter().cloned());
        run.ended = ends;
        if let Some(claim) = claim {
            run.claim = Some(claim.to_owned());
        }
        drop(inner);
        self.appended.notify_all();
        Ok(stored_from(first_seq, jsons))
    }
}

fn key(thread_id: &str, run_id: &str) -> (String, String) {
    (thread_id.to_owned(), run_id.to_owned())
}

impl Inner {
    fn after(&self, thread_id: &str, run_id: &str, after: u64, limit: usize) -> Vec<Stored> {
        let Some(run) = self.runs.get(&key(thread_id, run_id)) else {
            return Vec::new();
        };
        let start = usize::try_from(after).unwrap_or(usize::MAX);
        run.events
            .iter()
            .enumerate()
            .skip(start)
            .take(limit)
            .map(|(i, json)| Stored {
                seq: i as u64 + 1,
                json: json.clone(),
            })
            .collect()
    }

    fn ended(&self, thread_id: &str, run_id: &str) -> bool {
        self.runs
            .get(&key(thread_id, run_id))
            .is_some_and(|r| r.ended)
    }

    /// Forgets the runs that ended first until there is room for `new_runs` more runs and
    /// `bytes` more bytes, or no ended run is left. Each run is forgotten once, so the work is
    /// constant per append, however many runs are open.
    fn make_room(&mut self, new_runs: usize, bytes: usize) {
        while self.runs.len() + new_runs > self.max_runs
            || self.bytes.saturating_add(bytes) > self.max_bytes
        {
            let Some(k) = self.ended_order.pop_front() else {
                return; // every run is still being written
            };
            if let Some(gone) = self.runs.remove(&k) {
                self.bytes = self.bytes.saturating_sub(gone.size());
            }
        }
    }

    /// Lays `messages` over the thread's conversation, makes it the thread saved most recently,
    /// then keeps the threads within their bounds: the thread drops its first messages while
    /// it alone is over the byte bound (and is forgotten if none is left), and the threads
    /// saved least recently are forgotten while there are too many or too many bytes.
    fn save(&mut self, thread_id: &str, messages: &[ChatMessage]) {
        let save = self.next_save;
        self.next_save = save.wrapping_add(1);
        let thread = match self.threads.get_mut(thread_id) {
            Some(thread) => {
                self.thread_order.remove(&thread.saved);
                thread
            }
            None => self.threads.entry(thread_id.to_owned()).or_default(),
        };
        thread.saved = save;
        self.thread_order.insert(save, thread_id.to_owned());
        let before = thread.bytes;
        // Only the messages with these ids change: their bytes are counted before and after.
        let ids: HashSet<&str> = messages.iter().map(ChatMessage::id).collect();
        let replaced = bytes_of(thread.messages.iter().filter(|m| ids.contains(m.id())));
        upsert_messages(&mut thread.messages, messages.iter().cloned());
        let saved = bytes_of(thread.messages.iter().filter(|m| ids.contains(m.id())));
        thread.bytes = thread.bytes.saturating_sub(replaced).saturating_add(saved);
        // The thread alone is over the bound: only its last messages that fit stay.
        let mut first_kept = 0;
        for message in &thread.messages {
            if thread.bytes <= self.max_thread_bytes {
                break;
            }
            thread.bytes = thread.bytes.saturating_sub(json_len(message));
            first_kept += 1;
        }
        thread.messages.drain(..first_kept);
        let empty = thread.messages.is_empty();
        self.thread_bytes = self
            .thread_bytes
            .saturating_sub(before)
            .saturating_add(thread.bytes);
        if empty {
            self.forget_thread(save);
        }
        while self.threads.len() > self.max_threads || self.thread_bytes > self.max_thread_bytes {
            let Some((&oldest, _)) = self.thread_order.first_key_value() else {
                break;
            };
            self.forget_thread(oldest);
        }
    }

    /// Forgets the thread whose last save is number `save`.
    fn forget_thread(&mut self, save: u64) {
        let gone = self
            .thread_order
            .remove(&save)
            .and_then(|thread_id| self.threads.remove(&thread_id));
        if let Some(gone) = gone {
            self.thread_bytes = self.thread_bytes.saturating_sub(gone.bytes);
        }
    }
}

/// The length of a message's JSON, counted without building it.
fn json_len(message: &ChatMessage) -> usize {
    struct Count(usize);
    impl io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0 = self.0.saturating_add(bytes.len());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Serialising a message to a writer that never fails does not fail.
    serde_json::to_writer(&mut count, message).map_or(0, |()| count.0)
}

fn bytes_of<'a>(messages: impl Iterator<Item = &'a ChatMessage>) -> usize {
    messages.map(json_len).fold(0, usize::saturating_add)
}

impl RunLog for MemoryRunLog {
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
        Ok(self
            .lock()
            .runs
            .get(&key(thread_id, run_id))
            .and_then(|r| r.claim.clone()))
    }

    fn read_after(
        &self,
        thread_id: &str,
        run_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Stored>, StoreError> {
        Ok(self.lock().after(thread_id, run_id, after, limit))
    }

    fn wait_after(
        &self,
        thread_id: &str,
        run_id: &str,
        after: u64,
        limit: usize,
        timeout: Duration,
    ) -> Result<Vec<Stored>, StoreError> {
        let deadline = Instant::now() + timeout;
        let mut inner = self.lock();
        loop {
            let got = inner.after(thread_id, run_id, after, limit);
            if !got.is_empty() || inner.ended(thread_id, run_id) {
                return Ok(got);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(got);
            }
            inner = match self.appended.wait_timeout(inner, left) {
                Ok((guard, _)) => guard,
                Err(p) => p.into_inner().0,
            };
        }
    }

    fn status(&self, thread_id: &str, run_id: &str) -> Result<Option<RunStatus>, StoreError> {
        Ok(self
            .lock()
            .runs
            .get(&key(thread_id, run_id))
            .map(|r| RunStatus {
                last_seq: r.events.len() as u64,
                ended: r.ended,
            }))
    }

    fn thread_messages(&self, thread_id: &str) -> Result<Vec<ChatMessage>, StoreError> {
        Ok(self
            .lock()
            .threads
            .get(thread_id)
            .map(|t| t.messages.clone())
            .unwrap_or_default())
    }

    fn blocks(&self) -> bool {
        false
    }

    fn save_messages(&self, thread_id: &str, messages: &[ChatMessage]) -> Result<(), StoreError> {
        if !messages.is_empty() {
            self.lock().save(thread_id, messages);
        }
        Ok(())
    }
}
