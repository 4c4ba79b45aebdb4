//! The run log, for async code: calls that may block run on the blocking pool, and followers
//! of a run wake when this process appends to it.

use a2ui_stream::agui::events::{ChatMessage, Event};
use a2ui_stream::agui::sse;
use a2ui_stream::agui::{RunLog, RunStatus, StoreError, Stored};
use axum::body::Bytes;
use futures_util::Stream;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How often a follower looks in a log that other processes may write (SQLite, Redis) when
/// this process appended nothing to it. A log in this process's memory is only ever read on a
/// wake-up.
pub const POLL: Duration = Duration::from_millis(100);

/// Events read from the log per call while following.
const PAGE: usize = 256;

/// A [`RunLog`] for async code.
///
/// The trait's methods are plain blocking calls. Here each is `async`: on a log that may block
/// ([`RunLog::blocks`]) it runs on tokio's blocking pool, else in place. Appends made through
/// this handle (or its clones) wake every [`follow`](SharedLog::follow) stream at once; for a
/// log other processes may write, followers also look every [`POLL`]. Nothing here ever calls
/// the blocking [`RunLog::wait_after`], so following a run holds no thread.
///
/// ```
/// use a2ui_stream::agui::MemoryRunLog;
/// use a2ui_stream::agui::events::{Event, RunFinished, RunStarted};
/// use a2ui_stream_server::SharedLog;
/// use futures::StreamExt;
/// use std::sync::Arc;
/// use std::time::Duration;
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let log = SharedLog::new(Arc::new(MemoryRunLog::new()));
/// log.append("t", "r", 1, vec![RunStarted::new("t", "r").into()]).await.1?;
/// let follower = log.follow("t", "r", 0, Duration::from_secs(15), None);
/// let writer = log.clone();
/// tokio::spawn(async move { writer.append("t", "r", 2, vec![RunFinished::new("t", "r").into()]).await });
/// let frames: Vec<_> = follower.collect().await;
/// assert!(frames[0].starts_with(b"id: 1\ndata: {\"type\":\"RUN_STARTED\""));
/// assert!(frames[1].starts_with(b"id: 2\ndata: {\"type\":\"RUN_FINISHED\""));
/// # Ok::<(), a2ui_stream::agui::StoreError>(())
/// # }).unwrap();
/// ```
#[derive(Clone)]
pub struct SharedLog {
    log: Arc<dyn RunLog>,
    appended: Arc<watch::Sender<u64>>,
}

impl std::fmt::Debug for SharedLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedLog")
            .field("blocks", &self.log.blocks())
            .finish_non_exhaustive()
    }
}

impl SharedLog {
    /// Wraps `log`.
    pub fn new(log: Arc<dyn RunLog>) -> SharedLog {
        SharedLog {
            log,
            appended: Arc::new(watch::channel(0).0),
        }
    }

    /// The log itself.
    pub fn inner(&self) -> &Arc<dyn RunLog> {
        &self.log
    }

    async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn RunLog) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        if !self.log.blocks() {
            return f(&*self.log);
        }
        let log = self.log.clone();
        tokio::task::spawn_blocking(move || f(&*log))
            .await
            .unwrap_or_else(|e| Err(StoreError::backend(format!("a run log call failed: {e}"))))
    }

    fn woke(&self) {
        self.appended.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// [`RunLog::start`], then wakes followers. The events come back with the result, so that
    /// a caller can still send them when the log fails.
    pub async fn start(
        &self,
        thread_id: &str,
        run_id: &str,
        claim: &str,
        events: Vec<Event>,
    ) -> (Vec<Event>, Result<Vec<Stored>, StoreError>) {
        let (t, r, c) = (thread_id.to_owned(), run_id.to_owned(), claim.to_owned());
        self.write(events, move |log, events| log.start(&t, &r, &c, events))
            .await
    }

    /// [`RunLog::append`], then wakes followers; the events come back as with
    /// [`start`](SharedLog::start).
    pub async fn append(
        &self,
        thread_id: &str,
        run_id: &str,
        first_seq: u64,
        events: Vec<Event>,
    ) -> (Vec<Event>, Result<Vec<Stored>, StoreError>) {
        let (t, r) = (thread_id.to_owned(), run_id.to_owned());
        self.write(events, move |log, events| {
            log.append(&t, &r, first_seq, events)
        })
        .await
    }

    /// Stores `events` with `store`, then wakes followers; the events come back.
    async fn write(
        &self,
        events: Vec<Event>,
        store: impl FnOnce(&dyn RunLog, &[Event]) -> Result<Vec<Stored>, StoreError> + Send + 'static,
    ) -> (Vec<Event>, Result<Vec<Stored>, StoreError>) {
        let out = self
            .call(move |log| {
                let stored = store(log, &events);
                Ok((events, stored))
            })
            .await;
        self.woke();
        out.unwrap_or_else(|e| (Vec::new(), Err(e)))
    }

    /// [`RunLog::read_after`].
    pub async fn read_after(
        &self,
        thread_id: &str,
        run_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Stored>, StoreError> {
        let (t, r) = (thread_id.to_owned(), run_id.to_owned());
        self.call(move |log| log.read_after(&t, &r, after, limit))
            .await
    }

    /// [`RunLog::status`].
    pub async fn status(
        &self,
        thread_id: &str,
        run_id: &str,
    ) -> Result<Option<RunStatus>, StoreError> {
        let (t, r) = (thread_id.to_owned(), run_id.to_owned());
        self.call(move |log| log.status(&t, &r)).await
    }

    /// [`RunLog::claim`].
    pub async fn claim(&self, thread_id: &str, run_id: &str) -> Result<Option<String>, StoreError> {
        let (t, r) = (thread_id.to_owned(), run_id.to_owned());
        self.call(move |log| log.claim(&t, &r)).await
    }

    /// [`RunLog::touch`].
    pub async fn touch(&self, thread_id: &str, run_id: &str) -> Result<(), StoreError> {
        let (t, r) = (thread_id.to_owned(), run_id.to_owned());
        self.call(move |log| log.touch(&t, &r)).await
    }

    /// [`RunLog::touched`].
    pub async fn touched(&self, thread_id: &str, run_id: &str) -> Result<Option<u64>, StoreError> {
        let (t, r) = (thread_id.to_owned(), run_id.to_owned());
        self.call(move |log| log.touched(&t, &r)).await
    }

    /// [`RunLog::thread_messages`].
    pub async fn thread_messages(&self, thread_id: &str) -> Result<Vec<ChatMessage>, StoreError> {
        let t = thread_id.to_owned();
        self.call(move |log| log.thread_messages(&t)).await
    }

    /// [`RunLog::save_messages`]; the messages come back with the result (they are not
    /// copied to cross to the blocking pool).
    pub async fn save_messages(
        &self,
        thread_id: &str,
        messages: Vec<ChatMessage>,
    ) -> (Vec<ChatMessage>, Result<(), StoreError>) {
        let t = thread_id.to_owned();
        let out = self
            .call(move |log| {
                let saved = log.save_messages(&t, &messages);
                Ok((messages, saved))
            })
            .await;
        match out {
            Ok(pair) => pair,
            Err(e) => (Vec::new(), Err(e)),
        }
    }

    /// The run's events after `after` as SSE frames (`id:` = sequence number), then its live
    /// tail until its terminal event, with a keep-alive comment after each `keep_alive` of
    /// silence. Ends early when `stop` fires or the log fails (logged). Holds no thread while
    /// it waits.
    pub fn follow(
        &self,
        thread_id: &str,
        run_id: &str,
        after: u64,
        keep_alive: Duration,
        stop: Option<CancellationToken>,
    ) -> impl Stream<Item = Bytes> + Send + 'static {
        let tail = Tail {
            log: self.clone(),
            woken: self.appended.subscribe(),
            thread: thread_id.to_owned(),
            run: run_id.to_owned(),
            after,
            pending: Vec::new().into_iter(),
            done: false,
            open: false,
            last_sent: Instant::now(),
            keep_alive,
            stop: stop.unwrap_or_default(),
        };
        futures_util::stream::unfold(tail, |mut t| async move {
            let frame = t.next().await?;
            Some((frame, t))
        })
    }
}

struct Tail {
    log: SharedLog,
    woken: watch::Receiver<u64>,
    thread: String,
    run: String,
    after: u64,
    pending: std::vec::IntoIter<Stored>,
    done: bool,
    /// The log said the run goes on past `after`: from then on its terminal event ends the tail.
    open: bool,
    last_sent: Instant,
    keep_alive: Duration,
    stop: CancellationToken,
}

impl Tail {
    async fn next(&mut self) -> Option<Bytes> {
        loop {
            if let Some(s) = self.pending.next() {
                self.after = s.seq;
                self.done |= s.is_terminal();
                self.last_sent = Instant::now();
                return Some(Bytes::from(s.to_sse()));
            }
            if self.done || self.stop.is_cancelled() {
                return None;
            }
            // Seen before reading, so an append between the read and the wait still wakes us.
            self.woken.borrow_and_update();
            let read = self
                .log
                .read_after(&self.thread, &self.run, self.after, PAGE)
                .await;
            match read {
                Ok(batch) if !batch.is_empty() => {
                    self.pending = batch.into_iter();
                    continue;
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(run = self.run, "following the run: the run log failed: {e}");
                    return None;
                }
            }
            // Nothing new: a run that has ended has nothing more to give. Asked once; a run
            // that goes on ends the tail with its own terminal event.
            if !self.open {
                match self.log.status(&self.thread, &self.run).await {
                    Ok(Some(s)) if s.ended && s.last_seq <= self.after => return None,
                    Ok(None) => return None,
                    Err(e) => {
                        tracing::warn!(
                            run = self.run,
                            "following the run: the run log failed: {e}"
                        );
                        return None;
                    }
                    Ok(Some(_)) => self.open = true,
                }
            }
            let ping_at = self.last_sent + self.keep_alive;
            let blocks = self.log.log.blocks();
            let poll = async move {
                if blocks {
                    tokio::time::sleep(POLL).await
                } else {
                    std::future::pending().await
                }
            };
            tokio::select! {
                _ = self.woken.changed() => {}
                _ = poll => {}
                _ = self.stop.cancelled() => return None,
                _ = tokio::time::sleep_until(ping_at) => {
                    self.last_sent = Instant::now();
                    return Some(Bytes::from_static(sse::KEEP_ALIVE.as_bytes()));
                }
            }
        }
    }
}
