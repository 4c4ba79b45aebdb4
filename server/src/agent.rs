//! What an agent is to the server: one async method that answers a run by writing into it.

use crate::{Deadlines, RunWriter};
use a2ui_stream::agui::RunBuilderError;
use a2ui_stream::agui::events::{ChatMessage, RunAgentInput};
use std::fmt;
use std::future::Future;
use tokio_util::sync::CancellationToken;

/// An agent: answers one run at a time per call, any number of runs at once.
///
/// The server has already sent `RUN_STARTED` and recorded it; whatever the agent writes into
/// `out` is recorded in the run log and sent to the client as it is written. Returning `Ok`
/// ends the run with `RUN_FINISHED`, an error ends it with `RUN_ERROR` carrying the error's
/// message and code. When the run must end early (the run deadline, a shutdown, or a client that
/// left and did not come back), [`Run::cancel`] fires, then the future is dropped.
///
/// ```
/// use a2ui_stream_server::{Agent, AgentError, Run, RunWriter};
///
/// struct Echo;
///
/// impl Agent for Echo {
///     async fn run(&self, run: Run, out: &mut RunWriter) -> Result<(), AgentError> {
///         let said = run.input.user_text().ok_or("say something")?;
///         out.text(&format!("You said: {said}"))?;
///         Ok(())
///     }
/// }
/// ```
pub trait Agent: Send + Sync + 'static {
    /// Answers `run`, writing into `out`.
    fn run(
        &self,
        run: Run,
        out: &mut RunWriter,
    ) -> impl Future<Output = Result<(), AgentError>> + Send;
}

/// Who is calling, as the application's authentication layer says: put it in the request's
/// extensions (`request.extensions_mut().insert(Caller::new("alice"))`) before the router.
///
/// Runs and threads are kept per caller: a run started by one caller does not exist for any
/// other (404 on resume and replay), and a thread's stored history is only ever given to runs of
/// the caller that wrote it. Requests without a `Caller` share one anonymous space.
///
/// ```
/// use a2ui_stream_server::Caller;
/// assert_eq!(Caller::new("alice").as_str(), "alice");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Caller(String);

impl Caller {
    /// The caller named `id` (a user id, an API key's id, …).
    pub fn new(id: impl Into<String>) -> Caller {
        Caller(id.into())
    }

    /// The id.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// One run, as the agent gets it.
#[derive(Debug, Clone)]
pub struct Run {
    /// The request. Its `messages` are the thread's stored conversation with the messages the
    /// client sent laid over it by id, so a client may send only its newest message.
    pub input: RunAgentInput,
    /// The thread's stored conversation before this run (what `input.messages` was built on).
    pub history: Vec<ChatMessage>,
    /// Fires when the run is over: when it must end early, just before the agent's future is
    /// dropped, and after the agent returned. Hand it to tasks the agent spawns.
    pub cancel: CancellationToken,
    /// The deadlines the server runs with: the agent applies the connect, first-token and
    /// silence deadlines to its model calls (see [`Arrival`](crate::Arrival)); the server
    /// applies the run deadline.
    pub deadlines: Deadlines,
    /// Who started the run, if the application says.
    pub caller: Option<Caller>,
}

/// Why a run failed: the `RUN_ERROR` message and code.
///
/// ```
/// use a2ui_stream_server::AgentError;
///
/// let e = AgentError::from("the model is unavailable");
/// assert_eq!((e.message(), e.code()), ("the model is unavailable", "AGENT_ERROR"));
/// let e = AgentError::new("quota exhausted").with_code("QUOTA");
/// assert_eq!(e.to_string(), "quota exhausted (QUOTA)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentError {
    message: String,
    code: String,
}

impl AgentError {
    /// A failure with code `AGENT_ERROR`.
    pub fn new(message: impl Into<String>) -> AgentError {
        AgentError {
            message: message.into(),
            code: "AGENT_ERROR".into(),
        }
    }

    /// The same failure with another `RUN_ERROR.code`.
    pub fn with_code(mut self, code: impl Into<String>) -> AgentError {
        self.code = code.into();
        self
    }

    /// The `RUN_ERROR.message`.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The `RUN_ERROR.code`.
    pub fn code(&self) -> &str {
        &self.code
    }
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for AgentError {}

impl From<String> for AgentError {
    fn from(message: String) -> Self {
        AgentError::new(message)
    }
}

impl From<&str> for AgentError {
    fn from(message: &str) -> Self {
        AgentError::new(message)
    }
}

impl From<crate::DeadlinePassed> for AgentError {
    fn from(e: crate::DeadlinePassed) -> Self {
        AgentError::new(e.to_string())
    }
}

/// A request that failed for good: its error, and how many retries came before.
///
/// ```
/// use a2ui_stream_server::{AgentError, GaveUp};
/// let e = AgentError::from(GaveUp { error: "503 Service Unavailable", retries: 2 });
/// assert_eq!(e.message(), "503 Service Unavailable (after 2 retries)");
/// ```
impl<E: fmt::Display> From<crate::GaveUp<E>> for AgentError {
    fn from(g: crate::GaveUp<E>) -> Self {
        match g.retries {
            0 => AgentError::new(g.error.to_string()),
            n => AgentError::new(format!("{} (after {n} retries)", g.error)),
        }
    }
}

impl From<RunBuilderError> for AgentError {
    fn from(e: RunBuilderError) -> Self {
        AgentError::new(format!("the agent wrote an invalid event sequence: {e}"))
    }
}
