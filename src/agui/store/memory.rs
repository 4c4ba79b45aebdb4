//! [`MemoryRunLog`]: runs kept in the server's memory, the most recent ones only.

use super::{
    ChatMessage, Event, RunLog, RunStatus, StoreError, Stored, encode_batch, stored_from,
    upsert_messages,
};
use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A run log in memory: nothing to install and nothing kept across a restart, for a server that
/// only needs a client to resume after a broken connection.
///
/// Bounded: it keeps the most recent runs, up to a number of runs and of bytes of event JSON
/// (by default 200 runs and 64 MiB), and the most recent 1,000 threads' conversations. Past a
/// bound the oldest run that has ended is forgotten (a run still being written is never
/// dropped), and the oldest thread's conversation likewise.
///
/// ```
/// use a2ui_stream::agui::store::{MemoryRunLog, RunLog};
/// use a2ui_stream::agui::{Event, RunFinished, StepStarted};
///
/// let log = MemoryRunLog::with_capacity(2, 10);
/// for run in ["r1", "r2", "r3"] {
///     log.append("t", run, 1, &[Event::from(StepStarted::new("plan")),
///                               Event::from(RunFinished::new("t", run))])?;
/// }
/// // Only the two most recent runs are kept.
/// assert_eq!(log.status("t", "r1")?, None);
/// assert_eq!(log.read_after("t", "r3", 1, 10)?.len(), 1);
/// # Ok::<(), a2ui_stream::agui::store::StoreError>(())
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
    threads: HashMap<String, Vec<ChatMessage>>,
    /// Threads, oldest first.
    thread_order: VecDeque<String>,
    max_runs: usize,
    max_threads: usize,
    /// Bytes of event JSON held, and the bound on them.
    bytes: usize,
    max_bytes: usize,
}

#[derive(Debug, Default)]
struct Run {
    events: Vec<String>,
    ended: bool,
}

impl Default for MemoryRunLog {
    fn default() -> Self {
        MemoryRunLog::new()
    }
}

impl MemoryRunLog {
    /// A log keeping the 200 most recent runs (at most 64 MiB of events) and 1,000 threads.
    ///
    /// ```
    /// use a2ui_stream::agui::store::{MemoryRunLog, RunLog};
    /// assert_eq!(MemoryRunLog::new().status("t", "r")?, None);
    /// # Ok::<(), a2ui_stream::agui::store::StoreError>(())
    /// ```
    pub fn new() -> Self {
        MemoryRunLog::with_capacity(200, 1_000).with_max_bytes(64 << 20)
    }

    /// The same log holding at most `bytes` of event JSON in ended runs and the runs being
    /// written (runs being written are never dropped, so they may pass it).
    ///
    /// ```
    /// use a2ui_stream::agui::store::{MemoryRunLog, RunLog};
    /// use a2ui_stream::agui::{Event, RunFinished};
    ///
    /// let log = MemoryRunLog::with_capacity(100, 100).with_max_bytes(100);
    /// for run in ["r1", "r2", "r3"] {
    ///     log.append("t", run, 1, &[Event::from(RunFinished::new("t", run))])?;
    /// }
    /// assert_eq!(log.status("t", "r1")?, None);
    /// assert!(log.status("t", "r3")?.is_some());
    /// # Ok::<(), a2ui_stream::agui::store::StoreError>(())
    /// ```
    pub fn with_max_bytes(self, bytes: usize) -> Self {
        self.lock().max_bytes = bytes;
        self
    }

    /// A log keeping the `runs` most recent runs and the `threads` most recent threads (each
    /// at least 1).
    ///
    /// ```
    /// use a2ui_stream::agui::store::MemoryRunLog;
    /// let log = MemoryRunLog::with_capacity(100, 100);
    /// # drop(log);
    /// ```
    pub fn with_capacity(runs: usize, threads: usize) -> Self {
        MemoryRunLog {
            inner: Mutex::new(Inner {
                max_runs: runs.max(1),
                max_threads: threads.max(1),
                max_bytes: usize::MAX,
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
                let size: usize = gone.events.iter().map(String::len).sum();
                self.bytes = self.bytes.saturating_sub(size);
            }
        }
    }
}

impl RunLog for MemoryRunLog {
    fn append(
        &self,
        thread_id: &str,
        run_id: &str,
        first_seq: u64,
        events: &[Event],
    ) -> Result<Vec<Stored>, StoreError> {
        if events.is_empty() {
            return Ok(Vec::new());
        }
        let (jsons, ends) = encode_batch(thread_id, run_id, events)?;
        let mut inner = self.lock();
        let k = key(thread_id, run_id);
        let (last, ended) = inner
            .runs
            .get(&k)
            .map_or((0, false), |r| (r.events.len() as u64, r.ended));
        if ended {
            return Err(StoreError::Ended {
                thread_id: thread_id.to_owned(),
                run_id: run_id.to_owned(),
            });
        }
        if first_seq != last + 1 {
            return Err(StoreError::Conflict {
                thread_id: thread_id.to_owned(),
                run_id: run_id.to_owned(),
                expected: last + 1,
                got: first_seq,
            });
        }
        let bytes: usize = jsons.iter().map(String::len).sum();
        let new_run = usize::from(!inner.runs.contains_key(&k));
        inner.make_room(new_run, bytes);
        inner.bytes = inner.bytes.saturating_add(bytes);
        if ends {
            inner.ended_order.push_back(k.clone());
        }
        let run = inner.runs.entry(k).or_default();
        run.events.extend(jsons.iter().cloned());
        run.ended = ends;
        drop(inner);
        self.appended.notify_all();
        Ok(stored_from(first_seq, jsons))
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
            .cloned()
            .unwrap_or_default())
    }

    fn blocks(&self) -> bool {
        false
    }

    fn save_messages(&self, thread_id: &str, messages: &[ChatMessage]) -> Result<(), StoreError> {
        let mut inner = self.lock();
        if !inner.threads.contains_key(thread_id) {
            while inner.threads.len() >= inner.max_threads {
                let Some(oldest) = inner.thread_order.pop_front() else {
                    break;
                };
                inner.threads.remove(&oldest);
            }
            inner.thread_order.push_back(thread_id.to_owned());
        }
        upsert_messages(
            inner.threads.entry(thread_id.to_owned()).or_default(),
            messages,
        );
        Ok(())
    }
}
