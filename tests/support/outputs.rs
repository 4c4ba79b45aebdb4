//! One thing an agent produced, as a value: the property tests generate sequences of them and
//! feed each to the `RunBuilder` method that writes it.

use a2ui_stream::agui::events::{ChatMessage, PatchOp};
use a2ui_stream::agui::{RunBuilder, RunBuilderError};
use serde_json::Value;

/// One thing an agent produced. `RunStarted`/`RunFinished` mark runs, possibly nested: the first
/// `RunStarted` is this run, later ones open nested runs.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
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
    Splitter(Result<a2ui_stream::Event, a2ui_stream::Error>),
    /// An A2UI message built as JSON (see `RunBuilder::a2ui_value`).
    A2ui {
        /// The surface it is for, when known.
        surface_id: Option<String>,
        /// The message.
        message: Value,
    },
}

/// Feeds one output to the method of `run` that writes it.
pub fn push(run: &mut RunBuilder, output: Output) -> Result<(), RunBuilderError> {
    match output {
        Output::RunStarted => run.enter_run(),
        Output::RunFinished => run.exit_run(),
        Output::RunError { message, code } => run.fail(message, code),
        Output::Text(t) => run.text(&t),
        Output::TextEnd => run.text_end(),
        Output::Reasoning(t) => run.reasoning(&t),
        Output::ReasoningEnd => run.reasoning_end(),
        Output::ToolCallStart { id, name } => run.tool_call_start(&id, &name),
        Output::ToolCallArgs { id, delta } => run.tool_call_args(&id, &delta),
        Output::ToolCallEnd { id } => run.tool_call_end(&id),
        Output::ToolCallResult { id, content } => run.tool_call_result(&id, &content),
        Output::StateSnapshot(v) => run.state_snapshot(v),
        Output::StateDelta(ops) => run.state_delta(ops),
        Output::StepStarted(n) => run.step_started(&n),
        Output::StepFinished(n) => run.step_finished(&n),
        Output::MessagesSnapshot(m) => run.messages_snapshot(m),
        Output::Custom { name, value } => run.custom(&name, value),
        Output::Raw { event, source } => run.raw(event, source),
        Output::Splitter(r) => run.splitter(r),
        Output::A2ui {
            surface_id,
            message,
        } => run.a2ui_value(surface_id.as_deref(), message),
    }
}
