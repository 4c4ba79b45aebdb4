//! The four deadlines of a run, and the clock of one model answer
//! (the table is on [`Deadlines`]).

use futures_util::{Stream, StreamExt};
use std::fmt;
use std::time::{Duration, Instant};

/// The deadlines of one run; each that passes ends the run with an error naming it.
///
/// | deadline | default | variable | covers |
/// |---|---|---|---|
/// | connect | 10 s | `A2UI_CONNECT_TIMEOUT` | opening the connection to the model (the agent's HTTP client) |
/// | first token | 60 s | `A2UI_FIRST_TOKEN_TIMEOUT` | from a model request to the first chunk of its answer |
/// | silence | 30 s | `A2UI_SILENCE_TIMEOUT` | between one chunk of the answer and the next |
/// | run | 300 s | `A2UI_RUN_TIMEOUT` | the whole run: every model call, tool call and retry |
///
/// The server enforces the run deadline itself. The other three are about the model, which only
/// the agent talks to: it sets the connect deadline on its HTTP client and reads its answer
/// through an [`Arrival`], which applies the first-token and silence deadlines to any stream.
///
/// ```
/// use a2ui_stream_server::Deadlines;
/// use std::time::Duration;
///
/// let d = Deadlines::default();
/// assert_eq!((d.connect, d.first_token, d.silence, d.total),
///            (Duration::from_secs(10), Duration::from_secs(60), Duration::from_secs(30), Duration::from_secs(300)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Deadlines {
    /// Opening the TCP (and TLS) connection to the model.
    pub connect: Duration,
    /// From sending a model request to the first chunk of its answer.
    pub first_token: Duration,
    /// Between one chunk of an answer and the next.
    pub silence: Duration,
    /// The whole run.
    pub total: Duration,
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            connect: Duration::from_secs(10),
            first_token: Duration::from_secs(60),
            silence: Duration::from_secs(30),
            total: Duration::from_secs(300),
        }
    }
}

impl Deadlines {
    /// The defaults, overridden by `A2UI_CONNECT_TIMEOUT`, `A2UI_FIRST_TOKEN_TIMEOUT`,
    /// `A2UI_SILENCE_TIMEOUT` and `A2UI_RUN_TIMEOUT` (seconds, `2.5` works too).
    ///
    /// ```
    /// let d = a2ui_stream_server::Deadlines::from_env().unwrap();
    /// assert!(d.total > std::time::Duration::ZERO);
    /// ```
    pub fn from_env() -> Result<Deadlines, String> {
        let mut d = Deadlines::default();
        for which in Deadline::ALL {
            if let Some(v) = std::env::var(which.env_var())
                .ok()
                .filter(|v| !v.trim().is_empty())
            {
                *d.get_mut(which) =
                    parse_seconds(&v).map_err(|e| format!("{}: {e}", which.env_var()))?;
            }
        }
        Ok(d)
    }

    /// The value of one deadline.
    ///
    /// ```
    /// use a2ui_stream_server::{Deadline, Deadlines};
    /// assert_eq!(Deadlines::default().get(Deadline::Silence).as_secs(), 30);
    /// ```
    pub fn get(&self, which: Deadline) -> Duration {
        match which {
            Deadline::Connect => self.connect,
            Deadline::FirstToken => self.first_token,
            Deadline::Silence => self.silence,
            Deadline::Total => self.total,
        }
    }

    fn get_mut(&mut self, which: Deadline) -> &mut Duration {
        match which {
            Deadline::Connect => &mut self.connect,
            Deadline::FirstToken => &mut self.first_token,
            Deadline::Silence => &mut self.silence,
            Deadline::Total => &mut self.total,
        }
    }

    /// The deadline's name, value and variable, as errors say it.
    ///
    /// ```
    /// use a2ui_stream_server::{Deadline, Deadlines};
    /// assert_eq!(Deadlines::default().describe(Deadline::FirstToken),
    ///            "first-token deadline of 60 s (A2UI_FIRST_TOKEN_TIMEOUT)");
    /// ```
    pub fn describe(&self, which: Deadline) -> String {
        format!(
            "{} of {} ({})",
            which.name(),
            seconds(self.get(which)),
            which.env_var()
        )
    }
}

/// One of the four deadlines.
///
/// ```
/// use a2ui_stream_server::Deadline;
/// assert_eq!(Deadline::Total.env_var(), "A2UI_RUN_TIMEOUT");
/// assert_eq!(Deadline::Total.name(), "run deadline");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deadline {
    /// Connecting to the model.
    Connect,
    /// The first chunk of a model answer.
    FirstToken,
    /// A pause inside a model answer.
    Silence,
    /// The whole run.
    Total,
}

impl Deadline {
    /// The four: connect, first token, silence, run.
    pub const ALL: [Deadline; 4] = [
        Deadline::Connect,
        Deadline::FirstToken,
        Deadline::Silence,
        Deadline::Total,
    ];

    /// How messages name it: `connect deadline`, `first-token deadline`, `silence deadline`,
    /// `run deadline`.
    pub fn name(self) -> &'static str {
        match self {
            Deadline::Connect => "connect deadline",
            Deadline::FirstToken => "first-token deadline",
            Deadline::Silence => "silence deadline",
            Deadline::Total => "run deadline",
        }
    }

    /// The environment variable that sets it.
    pub fn env_var(self) -> &'static str {
        match self {
            Deadline::Connect => "A2UI_CONNECT_TIMEOUT",
            Deadline::FirstToken => "A2UI_FIRST_TOKEN_TIMEOUT",
            Deadline::Silence => "A2UI_SILENCE_TIMEOUT",
            Deadline::Total => "A2UI_RUN_TIMEOUT",
        }
    }
}

/// A duration as messages say it: `250 ms`, `1.5 s`, `30 s`.
///
/// ```
/// use std::time::Duration;
/// assert_eq!(a2ui_stream_server::seconds(Duration::from_millis(250)), "250 ms");
/// assert_eq!(a2ui_stream_server::seconds(Duration::from_millis(1500)), "1.5 s");
/// assert_eq!(a2ui_stream_server::seconds(Duration::from_secs(30)), "30 s");
/// ```
pub fn seconds(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// Reads a duration in seconds (`10`, `2.5`, `10s`): more than 0, at most a day.
///
/// ```
/// use std::time::Duration;
/// use a2ui_stream_server::parse_seconds;
/// assert_eq!(parse_seconds("2.5"), Ok(Duration::from_millis(2500)));
/// assert_eq!(parse_seconds("10s"), Ok(Duration::from_secs(10)));
/// assert!(parse_seconds("0").is_err());
/// assert!(parse_seconds("soon").is_err());
/// ```
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .trim()
        .trim_end_matches('s')
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !v.is_finite() || v <= 0.0 || v > 86_400.0 {
        return Err(format!(
            "`{s}`: a duration must be more than 0 and at most a day"
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

/// The clock of one model answer: when its request was sent, whether anything has arrived, and
/// how many chunks and bytes the agent counted ([`add_chunk`](Arrival::add_chunk)).
/// [`next`](Arrival::next) reads the next item of any stream within the first-token deadline
/// (for the first) or the silence deadline (for the others).
///
/// ```
/// use a2ui_stream_server::{Arrival, Deadline, Deadlines};
/// use std::time::Duration;
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let deadlines = Deadlines { silence: Duration::from_millis(50), ..Deadlines::default() };
/// let mut answer = futures::stream::iter(["Here ", "you go"]).chain(futures::stream::pending());
/// let mut arrival = Arrival::new(&deadlines);
/// while let Ok(Some(chunk)) = arrival.next(&mut answer).await {
///     arrival.add_chunk(chunk.len());
/// }
/// let err = arrival.next(&mut answer).await.unwrap_err();
/// assert_eq!(err.deadline(), Deadline::Silence);
/// assert!(err.to_string().starts_with(
///     "the model went silent for longer than the silence deadline of 50 ms (A2UI_SILENCE_TIMEOUT), after 11 bytes of its answer in 2 chunks"));
/// # });
/// # use futures::StreamExt;
/// ```
#[derive(Debug, Clone)]
pub struct Arrival {
    deadlines: Deadlines,
    sent: Instant,
    started: bool,
    chunks: u64,
    bytes: u64,
}

impl Arrival {
    /// The clock of an answer whose request is sent now.
    pub fn new(deadlines: &Deadlines) -> Arrival {
        Arrival {
            deadlines: *deadlines,
            sent: Instant::now(),
            started: false,
            chunks: 0,
            bytes: 0,
        }
    }

    /// The stream's next item; `Ok(None)` when the stream ends; an error when the deadline that
    /// covers the wait passes first.
    pub async fn next<S: Stream + Unpin>(
        &mut self,
        stream: &mut S,
    ) -> Result<Option<S::Item>, DeadlinePassed> {
        let (which, wait) = if !self.started {
            let left = self
                .deadlines
                .first_token
                .saturating_sub(self.sent.elapsed());
            (Deadline::FirstToken, left)
        } else {
            (Deadline::Silence, self.deadlines.silence)
        };
        match tokio::time::timeout(wait, stream.next()).await {
            Ok(Some(item)) => {
                self.started = true;
                Ok(Some(item))
            }
            Ok(None) => Ok(None),
            Err(_) => Err(DeadlinePassed {
                deadline: which,
                message: match which {
                    Deadline::FirstToken => format!(
                        "the model sent no answer within the {}",
                        self.deadlines.describe(which)
                    ),
                    _ => format!(
                        "the model went silent for longer than the {}, after {}",
                        self.deadlines.describe(which),
                        self.describe()
                    ),
                },
            }),
        }
    }

    /// Counts one chunk of the answer holding `bytes` bytes (the agent knows what a chunk holds;
    /// the stream does not).
    pub fn add_chunk(&mut self, bytes: usize) {
        self.chunks += 1;
        self.bytes = self.bytes.saturating_add(bytes as u64);
    }

    /// Chunks counted so far.
    pub fn chunks(&self) -> u64 {
        self.chunks
    }

    /// `"20 bytes of its answer in 4 chunks, 93 ms after the request"`.
    pub fn describe(&self) -> String {
        format!(
            "{} bytes of its answer in {} chunks, {} after the request",
            self.bytes,
            self.chunks,
            seconds(self.sent.elapsed())
        )
    }
}

/// A deadline passed while waiting for a model answer; see [`Arrival::next`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadlinePassed {
    deadline: Deadline,
    message: String,
}

impl DeadlinePassed {
    /// Which deadline passed.
    pub fn deadline(&self) -> Deadline {
        self.deadline
    }
}

impl fmt::Display for DeadlinePassed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DeadlinePassed {}
