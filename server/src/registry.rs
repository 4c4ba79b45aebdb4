//! The runs open in this process: which have a client, which wait for one to come back, and
//! the signal that ends each early.
//!
//! Hand-written rather than a tower concurrency limit: tower's limit releases its permit when
//! the response head is sent, while a run lasts as long as its streamed body and beyond it.

use crate::log::SharedLog;
use crate::seconds;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{Notify, watch};

/// Why a run is ended early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The server is shutting down and the shutdown deadline passed.
    Shutdown(Duration),
    /// The client left and the server cancels runs without a client.
    ClientGone,
    /// The client left and did not come back within the reconnect grace.
    NoReconnect(Duration),
    /// The client left and there is no room for another run without a client.
    DetachedFull(usize),
}

impl Stop {
    /// The `RUN_ERROR` message and code.
    pub(crate) fn describe(&self) -> (String, &'static str) {
        match self {
            Stop::Shutdown(d) => (
                format!(
                    "the server shut down; the run was ended at the shutdown deadline of {}",
                    seconds(*d)
                ),
                "SERVER_SHUTDOWN",
            ),
            Stop::ClientGone => (
                "the client disconnected and the server cancels runs without a client".into(),
                "CLIENT_GONE",
            ),
            Stop::NoReconnect(d) => (
                format!(
                    "the client disconnected and did not reconnect within the reconnect grace of {}",
                    seconds(*d)
                ),
                "CLIENT_GONE",
            ),
            Stop::DetachedFull(n) => (
                format!(
                    "the client disconnected and the server already keeps its limit of {n} runs without a client"
                ),
                "CLIENT_GONE",
            ),
        }
    }
}

/// The limits on open runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunLimits {
    pub attached: usize,
    pub detached: usize,
    pub grace: Duration,
    pub cancel_on_disconnect: bool,
}

type Key = (String, String);

struct Entry {
    followers: usize,
    /// Bumped on every change of `followers`, so a grace timer knows whether it still holds.
    generation: u64,
    stop: watch::Sender<Option<Stop>>,
}

#[derive(Default)]
struct Inner {
    runs: HashMap<Key, Entry>,
    attached: usize,
    detached: usize,
}

/// The open runs of this process.
pub(crate) struct Registry {
    inner: Mutex<Inner>,
    limits: RunLimits,
    idle: Notify,
    /// Where clients of other processes say they follow a run.
    log: SharedLog,
}

/// One client following a run; dropping it (the response body ends or the client leaves)
/// detaches the run when it was the last one.
pub(crate) struct Follower {
    registry: Arc<Registry>,
    key: Key,
}

impl Registry {
    pub(crate) fn new(limits: RunLimits, log: SharedLog) -> Registry {
        Registry {
            inner: Mutex::new(Inner::default()),
            limits,
            idle: Notify::new(),
            log,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves the counts as they were; keep going.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs with a client, runs waiting for one.
    pub(crate) fn counts(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.attached, inner.detached)
    }

    /// Admits a new run with its first client, or `None` when the attached runs are at their
    /// limit. The receiver says when the run must end early.
    pub(crate) fn admit(
        self: &Arc<Self>,
        thread: &str,
        run: &str,
    ) -> Option<(Follower, watch::Receiver<Option<Stop>>)> {
        let mut inner = self.lock();
        let key = (thread.to_owned(), run.to_owned());
        if inner.attached >= self.limits.attached || inner.runs.contains_key(&key) {
            return None;
        }
        let (tx, rx) = watch::channel(None);
        inner.runs.insert(
            key.clone(),
            Entry {
                followers: 1,
                generation: 0,
                stop: tx,
            },
        );
        inner.attached += 1;
        Some((
            Follower {
                registry: self.clone(),
                key,
            },
            rx,
        ))
    }

    /// Whether the run is open in this process.
    pub(crate) fn is_open(&self, thread: &str, run: &str) -> bool {
        self.lock()
            .runs
            .contains_key(&(thread.to_owned(), run.to_owned()))
    }

    /// One more client of a run open in this process (`None` when it is not).
    pub(crate) fn attach(self: &Arc<Self>, thread: &str, run: &str) -> Option<Follower> {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let key = (thread.to_owned(), run.to_owned());
        let entry = inner.runs.get_mut(&key)?;
        if entry.followers == 0 {
            inner.detached = inner.detached.saturating_sub(1);
            inner.attached += 1;
        }
        entry.followers += 1;
        entry.generation += 1;
        Some(Follower {
            registry: self.clone(),
            key,
        })
    }

    fn detach(self: &Arc<Self>, key: &Key) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(entry) = inner.runs.get_mut(key) else {
            return;
        };
        entry.followers = entry.followers.saturating_sub(1);
        entry.generation += 1;
        if entry.followers > 0 {
            return;
        }
        inner.attached = inner.attached.saturating_sub(1);
        let room = inner.detached < self.limits.detached;
        inner.detached += 1;
        if self.limits.cancel_on_disconnect {
            entry.stop.send_if_modified(|s| set(s, Stop::ClientGone));
        } else if !room {
            let n = self.limits.detached;
            entry
                .stop
                .send_if_modified(|s| set(s, Stop::DetachedFull(n)));
        } else if let Ok(rt) = tokio::runtime::Handle::try_current() {
            let generation = entry.generation;
            let (registry, key, grace) = (self.clone(), key.clone(), self.limits.grace);
            rt.spawn(async move {
                loop {
                    tokio::time::sleep(grace).await;
                    if !registry.still_without_client(&key, generation) {
                        return;
                    }
                    // A client following it from another process sharing the log counts too.
                    let touched = registry.log.touched(&key.0, &key.1).await;
                    let followed = touched.ok().flatten().is_some_and(|ms| {
                        unix_ms().saturating_sub(ms)
                            < grace.as_millis().try_into().unwrap_or(u64::MAX)
                    });
                    if followed {
                        continue;
                    }
                    let inner = registry.lock();
                    if let Some(e) = inner.runs.get(&key).filter(|e| e.generation == generation) {
                        e.stop
                            .send_if_modified(|s| set(s, Stop::NoReconnect(grace)));
                    }
                    return;
                }
            });
        }
    }

    /// Whether the run is still open without a client since `generation`.
    fn still_without_client(&self, key: &Key, generation: u64) -> bool {
        self.lock()
            .runs
            .get(key)
            .is_some_and(|e| e.followers == 0 && e.generation == generation)
    }

    /// The run ended: forget it.
    pub(crate) fn end(&self, thread: &str, run: &str) {
        let mut inner = self.lock();
        let key = (thread.to_owned(), run.to_owned());
        if let Some(entry) = inner.runs.remove(&key) {
            if entry.followers > 0 {
                inner.attached = inner.attached.saturating_sub(1);
            } else {
                inner.detached = inner.detached.saturating_sub(1);
            }
        }
        if inner.runs.is_empty() {
            self.idle.notify_waiters();
        }
    }

    /// Ends every open run early.
    pub(crate) fn stop_all(&self, why: Stop) {
        let inner = self.lock();
        for entry in inner.runs.values() {
            entry.stop.send_if_modified(|s| set(s, why.clone()));
        }
    }

    /// Returns once no run is open.
    pub(crate) async fn wait_idle(&self) {
        loop {
            let notified = self.idle.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.lock().runs.is_empty() {
                return;
            }
            notified.await;
        }
    }
}

/// Now, in milliseconds since the Unix epoch (as [`RunLog::touched`] says it).
///
/// [`RunLog::touched`]: a2ui_stream::agui::RunLog::touched
fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Sets the stop reason unless one is set already.
fn set(slot: &mut Option<Stop>, why: Stop) -> bool {
    if slot.is_some() {
        return false;
    }
    *slot = Some(why);
    true
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.registry.detach(&self.key);
    }
}
