//! [`RunBuilderError`]: why the builder refused a call.

#[cfg(doc)]
use super::INVALID_TOOL_ARGUMENTS;

/// Why the builder refused a call: its kind and what happened, naming the tool call or step
/// (it has no offset). Nothing was sent for it, unless stated; the first call on a builder
/// starts the run (`RUN_STARTED`) even when it is refused.
///
/// ```
/// use a2ui_stream::agui::{RunBuilder, RunBuilderErrorKind};
///
/// let mut run = RunBuilder::new("t", "r");
/// run.step_started("plan").unwrap();
/// let err = run.step_started("plan").unwrap_err();
/// assert_eq!((err.kind(), err.message()), (RunBuilderErrorKind::DuplicateStep, "step 'plan' is already active"));
/// assert_eq!(run.tool_call_args("c1", "{}").unwrap_err().kind(), RunBuilderErrorKind::UnknownToolCall);
/// run.finish().unwrap();
/// let err = run.text("too late").unwrap_err();
/// assert_eq!(err.kind(), RunBuilderErrorKind::RunOver);
/// assert_eq!(err.to_string(), "the run is over");
/// ```
pub type RunBuilderError = crate::Error<RunBuilderErrorKind>;

/// Why the builder refused a call.
///
/// ```
/// use a2ui_stream::agui::{RunBuilder, RunBuilderErrorKind};
/// let mut run = RunBuilder::new("t", "r");
/// assert_eq!(run.step_finished("s").unwrap_err().kind(), RunBuilderErrorKind::UnknownStep);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunBuilderErrorKind {
    /// The run already finished or failed.
    RunOver,
    /// A tool call with this id was already started in this run.
    DuplicateToolCall,
    /// No open tool call has this id (args or end), or none was ever started (result).
    UnknownToolCall,
    /// A step with this name is already active.
    DuplicateStep,
    /// No active step has this name.
    UnknownStep,
    /// The tool call's arguments are not JSON at its end; the run was failed with `RUN_ERROR`
    /// (code [`INVALID_TOOL_ARGUMENTS`]), since a `TOOL_CALL_END` would have been invalid.
    InvalidToolArguments,
    /// An A2UI message could not be parsed as JSON.
    InvalidA2ui,
}

/// A refusal of kind `kind`, saying `message`.
pub(super) fn refused(kind: RunBuilderErrorKind, message: impl Into<String>) -> RunBuilderError {
    RunBuilderError::of(kind, None, message)
}

/// The run is over.
pub(super) fn run_over() -> RunBuilderError {
    refused(RunBuilderErrorKind::RunOver, "the run is over")
}
