//! How long the agent waits for the model, how often it asks again, and how much load the
//! server takes: every limit has a default, an environment variable and a command-line option.
//!
//! | limit | default | variable | option |
//! |---|---|---|---|
//! | connecting to the model | 10 s | `A2UI_CONNECT_TIMEOUT` | `--connect-timeout` |
//! | request sent → first token | 60 s | `A2UI_FIRST_TOKEN_TIMEOUT` | `--first-token-timeout` |
//! | silence between tokens | 30 s | `A2UI_SILENCE_TIMEOUT` | `--silence-timeout` |
//! | a whole run | 300 s | `A2UI_RUN_TIMEOUT` | `--run-timeout` |
//! | retries of a failed model request | 2 | `A2UI_MODEL_RETRIES` | `--model-retries` |
//! | concurrent runs (server) | 256 | `A2UI_MAX_RUNS` | `--max-runs` |
//! | open runs at shutdown (server) | 10 s | `A2UI_SHUTDOWN_TIMEOUT` | `--shutdown-timeout` |
//!
//! Durations are seconds (`2.5` works too).

use std::time::Duration;

/// The deadlines of one run's model calls. Each one that passes ends the run with an error
/// naming it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Deadlines {
    /// Establishing the TCP (and TLS) connection to the model.
    pub connect: Duration,
    /// From sending a request to the first token of the answer.
    pub first_token: Duration,
    /// Between one token and the next.
    pub silence: Duration,
    /// The whole run, every model call, tool call and retry included.
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

/// One deadline by name, for the messages that say which one passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deadline {
    Connect,
    FirstToken,
    Silence,
    Total,
}

impl Deadline {
    /// The deadline's name, its value and where it is set, as an error message says it.
    pub fn describe(self, d: &Deadlines) -> String {
        let (what, value, var) = match self {
            Deadline::Connect => ("connect deadline", d.connect, "A2UI_CONNECT_TIMEOUT"),
            Deadline::FirstToken => (
                "first-token deadline",
                d.first_token,
                "A2UI_FIRST_TOKEN_TIMEOUT",
            ),
            Deadline::Silence => ("silence deadline", d.silence, "A2UI_SILENCE_TIMEOUT"),
            Deadline::Total => ("run deadline", d.total, "A2UI_RUN_TIMEOUT"),
        };
        format!("{what} of {} ({var})", seconds(value))
    }
}

/// `1.5 s`, `30 s`, `250 ms`.
pub fn seconds(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// How a failed model request is asked again: only before any of its answer has arrived, only
/// for failures another try may mend (5xx, 429, a refused or reset connection), after a pause
/// that doubles each time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Retries {
    /// Retries after the first request (0: none).
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

impl Retries {
    /// The pause before retry `n` (1-based): the first pause, doubled for each retry before,
    /// at most 8 s.
    pub fn pause(&self, n: u32) -> Duration {
        self.first_pause
            .saturating_mul(1 << n.saturating_sub(1).min(16))
            .min(Duration::from_secs(8))
    }
}

/// The server's limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ServerLimits {
    /// Runs at once; one more is refused with 503 and `Retry-After`.
    pub max_runs: usize,
    /// How long open runs may go on after a shutdown is asked for; then they end with
    /// `RUN_ERROR`.
    pub shutdown: Duration,
    /// Whether a run goes on when its client disconnects, so that a reconnect finds it.
    pub keep_runs_on_disconnect: bool,
    /// Whether `RUN_STARTED` carries the request back (`input`).
    pub echo_input: bool,
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            max_runs: 256,
            shutdown: Duration::from_secs(10),
            keep_runs_on_disconnect: true,
            echo_input: false,
        }
    }
}

/// Reads a duration in seconds (`10`, `2.5`).
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

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|s| !s.trim().is_empty())
}

fn env_seconds(name: &str, into: &mut Duration) -> Result<(), String> {
    if let Some(v) = env(name) {
        *into = parse_seconds(&v).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

fn env_count<T: std::str::FromStr>(name: &str, into: &mut T) -> Result<(), String> {
    if let Some(v) = env(name) {
        *into = v
            .trim()
            .parse()
            .map_err(|_| format!("{name}: `{v}` is not a whole number"))?;
    }
    Ok(())
}

/// The command-line options of the limits, each followed by its value.
pub const OPTIONS: [&str; 7] = [
    "--connect-timeout",
    "--first-token-timeout",
    "--silence-timeout",
    "--run-timeout",
    "--shutdown-timeout",
    "--model-retries",
    "--max-runs",
];

/// Every limit, from the defaults and the environment; the command line overrides them.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Limits {
    pub deadlines: Deadlines,
    pub retries: Retries,
    pub server: ServerLimits,
}

impl Limits {
    /// The defaults, overridden by the environment variables in the module's table.
    pub fn from_env() -> Result<Limits, String> {
        let mut l = Limits::default();
        env_seconds("A2UI_CONNECT_TIMEOUT", &mut l.deadlines.connect)?;
        env_seconds("A2UI_FIRST_TOKEN_TIMEOUT", &mut l.deadlines.first_token)?;
        env_seconds("A2UI_SILENCE_TIMEOUT", &mut l.deadlines.silence)?;
        env_seconds("A2UI_RUN_TIMEOUT", &mut l.deadlines.total)?;
        env_seconds("A2UI_SHUTDOWN_TIMEOUT", &mut l.server.shutdown)?;
        env_count("A2UI_MODEL_RETRIES", &mut l.retries.max)?;
        env_count("A2UI_MAX_RUNS", &mut l.server.max_runs)?;
        Ok(l)
    }

    /// Applies command-line option `opt` with its value; `Ok(false)` when `opt` is not a
    /// limit's option.
    pub fn option(&mut self, opt: &str, value: Option<String>) -> Result<bool, String> {
        let slot = match opt {
            "--connect-timeout" => Some(&mut self.deadlines.connect),
            "--first-token-timeout" => Some(&mut self.deadlines.first_token),
            "--silence-timeout" => Some(&mut self.deadlines.silence),
            "--run-timeout" => Some(&mut self.deadlines.total),
            "--shutdown-timeout" => Some(&mut self.server.shutdown),
            "--model-retries" | "--max-runs" => None,
            _ => return Ok(false),
        };
        let value = value.ok_or_else(|| format!("{opt} needs a value"))?;
        match slot {
            Some(d) => *d = parse_seconds(&value).map_err(|e| format!("{opt}: {e}"))?,
            None if opt == "--model-retries" => {
                self.retries.max = value
                    .parse()
                    .map_err(|_| format!("{opt}: `{value}` is not a whole number"))?;
            }
            None => {
                self.server.max_runs =
                    value.parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                        format!("{opt}: `{value}` is not a positive whole number")
                    })?;
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_parse_and_print() {
        assert_eq!(parse_seconds("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_seconds("10s"), Ok(Duration::from_secs(10)));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("soon").is_err());
        assert_eq!(seconds(Duration::from_millis(250)), "250 ms");
        assert_eq!(seconds(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(seconds(Duration::from_secs(30)), "30 s");
    }

    #[test]
    fn retry_pauses_double_up_to_a_cap() {
        let r = Retries::default();
        let pauses: Vec<_> = (1..=7).map(|n| r.pause(n).as_millis()).collect();
        assert_eq!(pauses, [250, 500, 1000, 2000, 4000, 8000, 8000]);
    }

    #[test]
    fn options_override_and_name_themselves_in_errors() {
        let mut l = Limits::default();
        assert_eq!(l.option("--silence-timeout", Some("3".into())), Ok(true));
        assert_eq!(l.deadlines.silence, Duration::from_secs(3));
        assert_eq!(l.option("--max-runs", Some("8".into())), Ok(true));
        assert_eq!(l.server.max_runs, 8);
        assert!(l.option("--max-runs", Some("0".into())).is_err());
        assert_eq!(l.option("--addr", Some("x".into())), Ok(false));
        let e = l.option("--run-timeout", None).unwrap_err();
        assert!(e.contains("--run-timeout"), "{e}");
        assert_eq!(
            Deadline::Silence.describe(&l.deadlines),
            "silence deadline of 3 s (A2UI_SILENCE_TIMEOUT)"
        );
    }
}
