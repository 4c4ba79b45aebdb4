//! [`AgentOutput`], one thing an agent produced, and [`RunBuilder::push`], which feeds it in.

use super::{RunBuilder, RunBuilderError};
use crate::agui::events::{ChatMessage, PatchOp};
use serde_json::Value;

/// One thing an agent produced, for [`RunBuilder::push`].
///
/// `RunStarted`/`RunFinished` mark runs, possibly nested: the first `RunStarted` is this run
/// (whether or not `RUN_STARTED` was already sent), later ones open nested runs, and the
/// `RunFinished` that closes the outermost finishes it.
///
/// ```
/// use a2ui_stream::agui::{AgentOutput, RunBuilder};
///
/// let mut run = RunBuilder::new("t", "r");
/// for output in [
///     AgentOutput::RunStarted,
///     AgentOutput::Text("Let me look.".into()),
///     AgentOutput::ToolCallStart { id: "c1".into(), name: "search".into() },
///     AgentOutput::ToolCallArgs { id: "c1".into(), delta: "{}".into() },
///     AgentOutput::ToolCallResult { id: "c1".into(), content: "[]".into() },
///     AgentOutput::RunFinished,
/// ] {
///     run.push(output)?;
/// }
/// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
/// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
///                    "TEXT_MESSAGE_END", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
///                    "TOOL_CALL_RESULT", "RUN_FINISHED"]);
/// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AgentOutput {
    /// A run (outermost or nested) began.
    RunStarted,
    /// A run (outermost or nested) ended.
    RunFinished,
    /// A run at any depth failed.
    RunError {
        /// What went wrong.
        message: String,
        /// A machine-readable code.
        code: Option<String>,
    },
    /// An LLM text delta.
    Text(String),
    /// The current prose message is complete.
    TextEnd,
    /// A reasoning delta.
    Reasoning(String),
    /// The current reasoning span is complete.
    ReasoningEnd,
    /// A tool call began.
    ToolCallStart {
        /// The call's id.
        id: String,
        /// The tool's name.
        name: String,
    },
    /// A fragment of a tool call's JSON arguments.
    ToolCallArgs {
        /// The call's id.
        id: String,
        /// The fragment.
        delta: String,
    },
    /// A tool call's arguments are complete.
    ToolCallEnd {
        /// The call's id.
        id: String,
    },
    /// What a tool returned.
    ToolCallResult {
        /// The call's id.
        id: String,
        /// The result, as text.
        content: String,
    },
    /// The whole agent state.
    StateSnapshot(Value),
    /// An RFC 6902 change to the agent state.
    StateDelta(Vec<PatchOp>),
    /// A named step began.
    StepStarted(String),
    /// A named step ended.
    StepFinished(String),
    /// The complete message list.
    MessagesSnapshot(Vec<ChatMessage>),
    /// An application event.
    Custom {
        /// Its name.
        name: String,
        /// Its payload.
        value: Value,
    },
    /// A provider-native event passed through.
    Raw {
        /// The event.
        event: Value,
        /// Where it came from.
        source: Option<String>,
    },
    /// Output of the splitter.
    Splitter(Result<crate::Event, crate::Error>),
    /// An A2UI message built as JSON (see [`RunBuilder::a2ui_value`]).
    A2ui {
        /// The surface it is for, when known.
        surface_id: Option<String>,
        /// The message.
        message: Value,
    },
}

impl RunBuilder {
    /// Feeds one agent output; see [`AgentOutput`].
    ///
    /// ```
    /// use a2ui_stream::agui::{AgentOutput, RunBuilder, RunBuilderError, RunBuilderErrorKind};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.push(AgentOutput::Text("Hi".into()))?;
    /// run.push(AgentOutput::TextEnd)?;
    /// let end = AgentOutput::ToolCallEnd { id: "c9".into() };
    /// assert_eq!(run.push(end).unwrap_err().kind(), RunBuilderErrorKind::UnknownToolCall);
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_END"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn push(&mut self, output: AgentOutput) -> Result<(), RunBuilderError> {
        match output {
            AgentOutput::RunStarted => self.enter_run(),
            AgentOutput::RunFinished => self.exit_run(),
            AgentOutput::RunError { message, code } => self.fail(message, code),
            AgentOutput::Text(t) => self.text(&t),
            AgentOutput::TextEnd => self.text_end(),
            AgentOutput::Reasoning(t) => self.reasoning(&t),
            AgentOutput::ReasoningEnd => self.reasoning_end(),
            AgentOutput::ToolCallStart { id, name } => self.tool_call_start(&id, &name),
            AgentOutput::ToolCallArgs { id, delta } => self.tool_call_args(&id, &delta),
            AgentOutput::ToolCallEnd { id } => self.tool_call_end(&id),
            AgentOutput::ToolCallResult { id, content } => self.tool_call_result(&id, &content),
            AgentOutput::StateSnapshot(v) => self.state_snapshot(v),
            AgentOutput::StateDelta(ops) => self.state_delta(ops),
            AgentOutput::StepStarted(n) => self.step_started(&n),
            AgentOutput::StepFinished(n) => self.step_finished(&n),
            AgentOutput::MessagesSnapshot(m) => self.messages_snapshot(m),
            AgentOutput::Custom { name, value } => self.custom(&name, value),
            AgentOutput::Raw { event, source } => self.raw(event, source),
            AgentOutput::Splitter(r) => self.splitter(r),
            AgentOutput::A2ui {
                surface_id,
                message,
            } => self.a2ui_value(surface_id.as_deref(), message),
        }
    }
}
