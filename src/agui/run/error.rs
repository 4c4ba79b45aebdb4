//! [`RunBuilderError`]: why the builder refused a call.

#[cfg(doc)]
use super::INVALID_TOOL_ARGUMENTS;
use std::fmt;

/// Why the builder refused a call. Nothing was sent for it, unless stated; the first call on a
/// builder starts the run (`RUN_STARTED`) even when it is refused.
///
/// ```
/// use a2ui_stream::agui::{RunBuilder, RunBuilderError};
///
/// let mut run = RunBuilder::new("t", "r");
/// run.step_started("plan").unwrap();
/// assert_eq!(run.step_started("plan"), Err(RunBuilderError::DuplicateStep("plan".into())));
/// assert_eq!(run.tool_call_args("c1", "{}"), Err(RunBuilderError::UnknownToolCall("c1".into())));
/// run.finish().unwrap();
/// let err = run.text("too late").unwrap_err();
/// assert_eq!(err, RunBuilderError::RunOver);
/// assert_eq!(err.to_string(), "the run is over");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunBuilderError {
    /// The run already finished or failed.
    RunOver,
    /// A tool call with this id was already started in this run.
    DuplicateToolCall(String),
    /// No open tool call has this id (args or end), or none was ever started (result).
    UnknownToolCall(String),
    /// A step with this name is already active.
    DuplicateStep(String),
    /// No active step has this name.
    UnknownStep(String),
    /// The tool call's arguments are not JSON at its end; the run was failed with `RUN_ERROR`
    /// (code [`INVALID_TOOL_ARGUMENTS`]), since a `TOOL_CALL_END` would have been invalid.
    InvalidToolArguments {
        /// The call's id.
        id: String,
        /// What the JSON parser said.
        error: String,
    },
    /// An A2UI message could not be parsed as JSON.
    InvalidA2ui(String),
}

impl fmt::Display for RunBuilderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunBuilderError::RunOver => f.write_str("the run is over"),
            RunBuilderError::DuplicateToolCall(id) => write!(f, "tool call '{id}' already started"),
            RunBuilderError::UnknownToolCall(id) => write!(f, "no such tool call '{id}'"),
            RunBuilderError::DuplicateStep(n) => write!(f, "step '{n}' is already active"),
            RunBuilderError::UnknownStep(n) => write!(f, "no active step '{n}'"),
            RunBuilderError::InvalidToolArguments { id, error } => {
                write!(
                    f,
                    "arguments of tool call '{id}' are not valid JSON: {error}"
                )
            }
            RunBuilderError::InvalidA2ui(e) => write!(f, "A2UI message is not valid JSON: {e}"),
        }
    }
}

impl std::error::Error for RunBuilderError {}
