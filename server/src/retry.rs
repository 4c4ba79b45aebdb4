//! Asking the model again, visibly.
//!
//! A model request that fails before any of its answer arrived may be sent again when another
//! try can mend it (a 5xx, a rate limit, a refused connection; the agent decides). Each retry is
//! a log line and a `CUSTOM` event named [`MODEL_RETRY_EVENT`] in the run, so the person
//! waiting sees why nothing has arrived yet. Written here rather than as a tower retry policy:
//! the retry has to write into the run, which a policy on the HTTP client cannot see.

use crate::{RunWriter, seconds};
use serde_json::json;
use std::future::Future;
use std::time::Duration;

/// The `CUSTOM` event written before each retry:
/// `{"attempt": 1, "maxRetries": 2, "reason": "...", "retryInMs": 250}`.
///
/// ```
/// assert_eq!(a2ui_stream_server::MODEL_RETRY_EVENT, "a2ui-stream.model-retry");
/// ```
pub const MODEL_RETRY_EVENT: &str = "a2ui-stream.model-retry";

/// How often and after what pause a failed request is sent again: at most `max` retries, the
/// first after `first_pause`, each pause twice the one before, at most 8 s.
///
/// ```
/// use a2ui_stream_server::Retries;
/// use std::time::Duration;
///
/// let r = Retries::default();
/// assert_eq!(r.max, 2);
/// let pauses: Vec<_> = (1..=7).map(|n| r.pause(n).as_millis()).collect();
/// assert_eq!(pauses, [250, 500, 1000, 2000, 4000, 8000, 8000]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Retries {
    /// Retries after the first request (0: none). `A2UI_MODEL_RETRIES`.
    pub max: u32,
    /// The pause before the first retry.
    pub first_pause: Duration,
}

impl Default for Retries {
    fn default() -> Self {
        Retries {
            max: 2,
            first_pause: Duration::from_millis(250),
        }
    }
}

/// A request that failed for good: the last error, and how many retries were made.
#[derive(Debug)]
pub struct GaveUp<E> {
    /// The last attempt's error.
    pub error: E,
    /// Retries made before giving up.
    pub retries: u32,
}

impl Retries {
    /// The defaults, with `max` from `A2UI_MODEL_RETRIES` when set.
    ///
    /// ```
    /// assert!(a2ui_stream_server::Retries::from_env().is_ok());
    /// ```
    pub fn from_env() -> Result<Retries, String> {
        let mut r = Retries::default();
        if let Some(v) = std::env::var("A2UI_MODEL_RETRIES")
            .ok()
            .filter(|v| !v.trim().is_empty())
        {
            r.max = v
                .trim()
                .parse()
                .map_err(|_| format!("A2UI_MODEL_RETRIES: `{v}` is not a whole number"))?;
        }
        Ok(r)
    }

    /// The pause before retry `n` (from 1).
    pub fn pause(&self, n: u32) -> Duration {
        self.first_pause
            .saturating_mul(1 << n.saturating_sub(1).min(16))
            .min(Duration::from_secs(8))
    }

    /// Runs `attempt` until it succeeds, or fails with an error `retry` gives no reason to try
    /// again for, or `max` retries are spent. Before each retry: a log line, a
    /// [`MODEL_RETRY_EVENT`] in `out`, and the pause.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, RunAgentInput};
    /// use a2ui_stream_server::{Retries, RunWriter, MODEL_RETRY_EVENT};
    /// use std::time::Duration;
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let (mut out, mut events) = RunWriter::new(&RunAgentInput::new("t", "r"));
    /// let retries = Retries { max: 2, first_pause: Duration::from_millis(1) };
    /// let mut calls = 0;
    /// let got = retries.run(&mut out, || { calls += 1; let n = calls; async move {
    ///     if n < 3 { Err("503 Service Unavailable") } else { Ok("answer") }
    /// }}, |e| Some(format!("the model request failed: {e}"))).await;
    /// assert_eq!(got.unwrap(), "answer");
    /// let mut retry_events = 0;
    /// while let Ok(batch) = events.try_recv() {
    ///     retry_events += batch.iter().filter(|e| matches!(e, Event::Custom(c) if c.name == MODEL_RETRY_EVENT)).count();
    /// }
    /// assert_eq!(retry_events, 2);
    /// # });
    /// ```
    pub async fn run<T, E, F, Fut>(
        &self,
        out: &mut RunWriter,
        mut attempt: F,
        retry: impl Fn(&E) -> Option<String>,
    ) -> Result<T, GaveUp<E>>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, E>>,
    {
        let mut retries = 0;
        loop {
            let error = match attempt().await {
                Ok(v) => return Ok(v),
                Err(e) => e,
            };
            let reason = match retry(&error) {
                Some(reason) if retries < self.max => reason,
                _ => return Err(GaveUp { error, retries }),
            };
            retries += 1;
            let pause = self.pause(retries);
            tracing::warn!(
                run = out.run_id(),
                "{reason}; retry {retries} of {} in {}",
                self.max,
                seconds(pause)
            );
            let _ = out.custom(
                MODEL_RETRY_EVENT,
                json!({ "attempt": retries, "maxRetries": self.max, "reason": reason,
                        "retryInMs": u64::try_from(pause.as_millis()).unwrap_or(u64::MAX) }),
            );
            tokio::time::sleep(pause).await;
        }
    }
}
