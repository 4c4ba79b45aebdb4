//! The run builder: what an agent produces in, a compliant AG-UI sequence out.
//!
//! [`RunBuilder`] keeps the bookkeeping the protocol needs so the caller cannot get it wrong:
//!
//! - exactly one `RUN_STARTED`, before anything else (sent with the first output);
//! - each run of prose is one text message (`TEXT_MESSAGE_START`, its `TEXT_MESSAGE_CONTENT`
//!   deltas, `TEXT_MESSAGE_END`) with one `messageId`; empty deltas are never sent. Prose ends at
//!   reasoning, a tool call, an A2UI message, the start or end of a step, the end of a nested
//!   run, or [`text_end`](RunBuilder::text_end);
//! - tool calls go `TOOL_CALL_START`, `TOOL_CALL_ARGS`*, `TOOL_CALL_END`, then `TOOL_CALL_RESULT`;
//!   several may be open at once (parallel calls). Arguments are checked to be JSON at the end;
//! - reasoning goes `REASONING_START`, `REASONING_MESSAGE_START/CONTENT/END`, `REASONING_END`;
//! - whatever is open is closed before `RUN_FINISHED`; a failure sends `RUN_ERROR` and nothing
//!   after it;
//! - nested runs (a sub-agent, a workflow step running an agent) send no lifecycle events of
//!   their own: only the outermost `RUN_STARTED`/`RUN_FINISHED` are sent, while a failure at any
//!   depth sends `RUN_ERROR`. What a nested run left open (tool calls, steps, prose) is closed
//!   when it ends;
//! - the splitter's output goes in as is: prose becomes text (UTF-8 cut mid-character is
//!   reassembled), A2UI messages become `a2ui-surface` activities (see [`super::a2ui`]).
//!
//! A call that would break the protocol (an unknown tool call id, anything after the run ended)
//! sends nothing and returns an error; the sequence sent so far stays valid.
//!
//! ```
//! use a2ui_stream::agui::{verify, RunBuilder};
//!
//! let mut run = RunBuilder::new("thread-1", "run-1");
//! run.tool_call_start("call-1", "get_weather").unwrap();
//! run.tool_call_args("call-1", "{\"city\":").unwrap();
//! run.tool_call_args("call-1", "\"Paris\"}").unwrap();
//! run.tool_call_result("call-1", "{\"temp\":22}").unwrap();
//! run.text("It is 22°C in Paris.").unwrap();
//! run.finish().unwrap();
//! let events: Vec<_> = run.drain().collect();
//! verify(&events).unwrap();
//! assert_eq!(events.len(), 10);
//! assert!(run.text("more").is_err()); // the run is over
//! ```

use super::a2ui::A2uiActivities;
use super::events::{
    ChatMessage, Custom, Event, MessagesSnapshot, PatchOp, Raw, ReasoningEnd,
    ReasoningMessageContent, ReasoningMessageEnd, ReasoningMessageStart, ReasoningStart,
    RunAgentInput, RunError, RunFinished, RunStarted, StateDelta, StateSnapshot, StepFinished,
    StepStarted, TextMessageContent, TextMessageEnd, TextMessageStart, ToolCallArgs, ToolCallEnd,
    ToolCallResult, ToolCallStart,
};
use serde_json::Value;
use std::collections::HashSet;
use std::fmt;

/// The `CUSTOM` event name under which splitter errors are reported (value:
/// `{"offset": <byte offset>, "message": <text>}`); the run continues.
///
/// ```
/// use a2ui_stream::agui::{Event, RunBuilder, A2UI_ERROR_EVENT};
/// use a2ui_stream::Splitter;
///
/// let mut splitter = Splitter::new();
/// let mut run = RunBuilder::new("t", "r");
/// for item in splitter.feed(br#"<a2ui-json>{"beginRendering": }</a2ui-json>"#) {
///     run.splitter(item)?; // the bad message is reported, not fatal
/// }
/// let events: Vec<_> = run.drain().collect();
/// let Event::Custom(c) = &events[1] else { panic!() };
/// assert_eq!(c.name, A2UI_ERROR_EVENT);
/// assert_eq!(c.value["offset"], 30);
/// assert!(!run.is_over());
/// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
/// ```
pub const A2UI_ERROR_EVENT: &str = "a2ui-stream.error";

/// The `RUN_ERROR.code` sent when a tool call's arguments are not JSON at its end.
///
/// ```
/// use a2ui_stream::agui::{Event, RunBuilder, INVALID_TOOL_ARGUMENTS};
///
/// let mut run = RunBuilder::new("t", "r");
/// run.tool_call_start("c1", "search").unwrap();
/// run.tool_call_args("c1", r#"{"q": "#).unwrap();
/// assert!(run.tool_call_end("c1").is_err());
/// let Some(Event::RunError(e)) = run.drain().last() else { panic!() };
/// assert_eq!(e.code.as_deref(), Some(INVALID_TOOL_ARGUMENTS));
/// ```
pub const INVALID_TOOL_ARGUMENTS: &str = "INVALID_TOOL_ARGUMENTS";

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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    NotStarted,
    Running,
    Over,
}

#[derive(Debug)]
struct OpenTool {
    id: String,
    args: String,
    /// The value of `entered` when it was started (the run it belongs to).
    run: usize,
}

/// An active step, with the value of `entered` when it was started (the run it belongs to).
#[derive(Debug)]
struct OpenStep {
    name: String,
    run: usize,
}

#[derive(Debug)]
struct OpenReasoning {
    span: String,
    message: Option<String>,
}

/// Builds one AG-UI run from agent outputs; see the [module docs](self).
///
/// Every method appends the events it produces to an internal queue; take them with
/// [`drain`](RunBuilder::drain) and send them in order.
///
/// ```
/// use a2ui_stream::agui::RunBuilder;
///
/// let mut run = RunBuilder::new("thread-1", "run-1");
/// run.text("Let me check.")?;
/// run.tool_call_start("c1", "search")?; // ends the prose first
/// run.finish()?;                        // closes the open call
/// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
/// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
///                    "TEXT_MESSAGE_END", "TOOL_CALL_START", "TOOL_CALL_END", "RUN_FINISHED"]);
/// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
/// ```
#[derive(Debug)]
pub struct RunBuilder {
    thread_id: String,
    run_id: String,
    parent_run_id: Option<String>,
    input: Option<Box<RunAgentInput>>,
    phase: Phase,
    entered: usize,
    out: Vec<Event>,
    next_id: u64,
    text: Option<String>,
    last_text: Option<String>,
    reasoning: Option<OpenReasoning>,
    tools: Vec<OpenTool>,
    known_tools: HashSet<String>,
    steps: Vec<OpenStep>,
    pending_utf8: Vec<u8>,
    surfaces: A2uiActivities,
}

impl RunBuilder {
    /// A builder for run `run_id` of thread `thread_id`. Nothing is sent until the first output
    /// (or [`start`](RunBuilder::start)).
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunBuilder};
    ///
    /// let mut run = RunBuilder::new("thread-1", "run-1");
    /// assert!(run.pending().is_empty()); // nothing sent yet
    /// run.start()?;
    /// let Some(Event::RunStarted(ev)) = run.drain().next() else { panic!() };
    /// assert_eq!((ev.thread_id.as_str(), ev.run_id.as_str()), ("thread-1", "run-1"));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn new(thread_id: impl Into<String>, run_id: impl Into<String>) -> Self {
        let run_id = run_id.into();
        RunBuilder {
            thread_id: thread_id.into(),
            surfaces: A2uiActivities::new(run_id.clone()),
            run_id,
            parent_run_id: None,
            input: None,
            phase: Phase::NotStarted,
            entered: 0,
            out: Vec::new(),
            next_id: 0,
            text: None,
            last_text: None,
            reasoning: None,
            tools: Vec::new(),
            known_tools: HashSet::new(),
            steps: Vec::new(),
            pending_utf8: Vec::new(),
        }
    }

    /// A builder for the run a client requested, echoing the request in `RUN_STARTED.input`.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunAgentInput, RunBuilder};
    ///
    /// let input: RunAgentInput = serde_json::from_str(
    ///     r#"{"threadId":"t1","runId":"r2","parentRunId":"r1","messages":[]}"#).unwrap();
    /// let mut run = RunBuilder::from_input(input.clone());
    /// assert_eq!((run.thread_id(), run.run_id()), ("t1", "r2"));
    /// run.start()?;
    /// let Some(Event::RunStarted(ev)) = run.drain().next() else { panic!() };
    /// assert_eq!(ev.parent_run_id.as_deref(), Some("r1"));
    /// assert_eq!(ev.input.as_deref(), Some(&input));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn from_input(input: RunAgentInput) -> Self {
        let mut b = RunBuilder::new(input.thread_id.clone(), input.run_id.clone());
        b.parent_run_id = input.parent_run_id.clone();
        b.input = Some(Box::new(input));
        b
    }

    /// Sets `RUN_STARTED.parentRunId`. Only before the run starts: once `RUN_STARTED` is sent,
    /// this changes nothing.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunBuilder};
    ///
    /// let mut run = RunBuilder::new("t", "run-2").with_parent_run_id("run-1");
    /// run.start()?;
    /// let Some(Event::RunStarted(ev)) = run.drain().next() else { panic!() };
    /// assert_eq!(ev.parent_run_id.as_deref(), Some("run-1"));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn with_parent_run_id(mut self, parent: impl Into<String>) -> Self {
        self.parent_run_id = Some(parent.into());
        self
    }

    /// The run id.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("thread-1", "run-1");
    /// assert_eq!(run.run_id(), "run-1");
    /// run.text("Hi")?;
    /// // The ids the builder makes start with the run id.
    /// assert!(run.text_message_id().unwrap().starts_with("run-1-"));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    /// The thread id.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let run = RunBuilder::new("thread-1", "run-1");
    /// assert_eq!(run.thread_id(), "thread-1");
    /// ```
    pub fn thread_id(&self) -> &str {
        &self.thread_id
    }

    /// Whether `RUN_FINISHED` or `RUN_ERROR` was sent.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Hi")?;
    /// assert!(!run.is_over());
    /// run.fail("model timed out", None)?;
    /// assert!(run.is_over());
    /// assert_eq!(run.text("more"), Err(RunBuilderError::RunOver));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// How many nested runs are open inside the outermost one.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.enter_run()?; // this run
    /// assert_eq!(run.depth(), 0);
    /// run.enter_run()?; // a sub-agent's run inside it
    /// assert_eq!(run.depth(), 1);
    /// run.exit_run()?;
    /// assert_eq!(run.depth(), 0);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn depth(&self) -> usize {
        self.entered.saturating_sub(1)
    }

    /// The id of the open text message, if prose is being streamed.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// assert_eq!(run.text_message_id(), None);
    /// run.text("Hel")?;
    /// let id = run.text_message_id().unwrap().to_owned();
    /// run.text("lo")?;
    /// assert_eq!(run.text_message_id(), Some(id.as_str())); // the same message
    /// run.text_end()?;
    /// assert_eq!(run.text_message_id(), None);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn text_message_id(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// Events produced and not yet taken.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Hi")?;
    /// let types: Vec<_> = run.pending().iter().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]);
    /// run.drain().for_each(drop);
    /// assert!(run.pending().is_empty());
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn pending(&self) -> &[Event] {
        &self.out
    }

    /// Takes the events produced so far, in order.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Hi")?;
    /// let first: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(first, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]);
    /// run.finish()?;
    /// let rest: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(rest, ["TEXT_MESSAGE_END", "RUN_FINISHED"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn drain(&mut self) -> std::vec::Drain<'_, Event> {
        self.out.drain(..)
    }

    fn id(&mut self, kind: &str) -> String {
        self.next_id += 1;
        format!("{}-{}-{}", self.run_id, kind, self.next_id)
    }

    fn emit(&mut self, e: impl Into<Event>) {
        self.out.push(e.into());
    }

    /// Sends `RUN_STARTED` if it was not sent yet; refuses once the run is over.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.start()?;
    /// run.start()?; // already started: sends nothing
    /// run.finish()?;
    /// assert_eq!(run.start(), Err(RunBuilderError::RunOver));
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "RUN_FINISHED"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn start(&mut self) -> Result<(), RunBuilderError> {
        match self.phase {
            Phase::Over => Err(RunBuilderError::RunOver),
            Phase::Running => Ok(()),
            Phase::NotStarted => {
                let mut ev = RunStarted::new(self.thread_id.clone(), self.run_id.clone());
                ev.parent_run_id = self.parent_run_id.clone();
                ev.input = self.input.take();
                self.emit(ev);
                self.phase = Phase::Running;
                Ok(())
            }
        }
    }

    /// Feeds one agent output; see [`AgentOutput`].
    ///
    /// ```
    /// use a2ui_stream::agui::{AgentOutput, RunBuilder, RunBuilderError};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.push(AgentOutput::Text("Hi".into()))?;
    /// run.push(AgentOutput::TextEnd)?;
    /// let end = AgentOutput::ToolCallEnd { id: "c9".into() };
    /// assert_eq!(run.push(end), Err(RunBuilderError::UnknownToolCall("c9".into())));
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

    /// A run begins. The first one is this run (sending `RUN_STARTED` if that was not sent
    /// yet, e.g. by [`start`](RunBuilder::start)); later ones are nested and send nothing.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.enter_run()?; // the outer run: RUN_STARTED
    /// run.enter_run()?; // a nested run: nothing
    /// run.text("From the sub-agent")?;
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn enter_run(&mut self) -> Result<(), RunBuilderError> {
        self.start()?;
        self.entered += 1;
        Ok(())
    }

    /// A run ends: a nested one sends no lifecycle event, but what it left open is closed in
    /// the order [`finish`](RunBuilder::finish) closes things: the tool calls it started, open
    /// reasoning and prose, then the steps it started (latest first). What the runs around it
    /// opened stays open. The outermost one [finishes](RunBuilder::finish) this run. A tool
    /// call of the nested run whose arguments are not JSON fails the run, as at
    /// [`tool_call_end`](RunBuilder::tool_call_end).
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.enter_run()?;
    /// run.tool_call_start("outer", "delegate")?;
    /// run.enter_run()?;
    /// run.step_started("look-up")?;
    /// run.tool_call_start("inner", "search")?;
    /// run.text("From the sub-agent")?;
    /// run.exit_run()?; // the nested run: its call, its prose, its step end
    /// run.tool_call_result("outer", "done")?; // the outer call was still open
    /// run.exit_run()?; // the outermost run: RUN_FINISHED
    /// assert!(run.is_over());
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TOOL_CALL_START", "STEP_STARTED", "TOOL_CALL_START",
    ///                    "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TOOL_CALL_END",
    ///                    "TEXT_MESSAGE_END", "STEP_FINISHED", "TOOL_CALL_END",
    ///                    "TOOL_CALL_RESULT", "RUN_FINISHED"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn exit_run(&mut self) -> Result<(), RunBuilderError> {
        if self.phase == Phase::Over {
            return Err(RunBuilderError::RunOver);
        }
        if self.entered > 1 {
            self.close_open(self.entered)?;
            self.entered -= 1;
            Ok(())
        } else {
            self.finish()
        }
    }

    /// An LLM text delta. Empty deltas send nothing; the first delta of a prose run opens a
    /// text message, and later ones continue it. Splitter prose held back as the start of a
    /// character cut by a chunk (see [`a2ui`](RunBuilder::a2ui)) is sent first, as U+FFFD: text
    /// given here cannot be the rest of that character.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunBuilder};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Hel")?;
    /// run.text("")?; // sends nothing
    /// run.text("lo")?;
    /// let events: Vec<_> = run.drain().collect();
    /// let types: Vec<_> = events.iter().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_CONTENT"]);
    /// let Event::TextMessageContent(c) = &events[3] else { panic!() };
    /// assert_eq!(c.delta, "lo");
    ///
    /// // The first byte of "é" from the splitter, then text of the agent's own.
    /// run.a2ui(a2ui_stream::Event::Text(bytes::Bytes::from_static(b"caf\xC3")))?;
    /// run.text("!")?;
    /// let deltas: Vec<_> = run.drain().filter_map(|e| match e {
    ///     Event::TextMessageContent(c) => Some(c.delta),
    ///     _ => None,
    /// }).collect();
    /// assert_eq!(deltas, ["caf", "\u{FFFD}", "!"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn text(&mut self, delta: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        if delta.is_empty() {
            return Ok(());
        }
        // Splitter prose held back as the start of a cut character never got its end.
        self.flush_utf8();
        self.send_text(delta);
        Ok(())
    }

    /// Sends non-empty prose: continues the open text message or opens one.
    fn send_text(&mut self, delta: &str) {
        self.close_reasoning();
        let id = match &self.text {
            Some(id) => id.clone(),
            None => {
                let id = self.id("msg");
                self.emit(TextMessageStart::new(id.clone()));
                self.text = Some(id.clone());
                self.last_text = Some(id.clone());
                id
            }
        };
        self.emit(TextMessageContent::new(id, delta));
    }

    /// Ends the current prose message, if one is open (the next delta opens a new one).
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("One.")?;
    /// run.text_end()?;
    /// run.text_end()?; // nothing open: sends nothing
    /// run.text("Two.")?;
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_END", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn text_end(&mut self) -> Result<(), RunBuilderError> {
        self.start()?;
        self.flush_utf8();
        self.close_text();
        Ok(())
    }

    fn close_text(&mut self) {
        if let Some(id) = self.text.take() {
            self.emit(TextMessageEnd::new(id));
        }
    }

    /// A reasoning delta. Ends open prose; empty deltas send nothing.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Hmm.")?;
    /// run.reasoning("The user wants")?; // ends the prose
    /// run.reasoning(" a table.")?;
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_END", "REASONING_START", "REASONING_MESSAGE_START",
    ///                    "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn reasoning(&mut self, delta: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        if delta.is_empty() {
            return Ok(());
        }
        self.flush_utf8();
        self.close_text();
        if self.reasoning.is_none() {
            let span = self.id("reasoning");
            self.emit(ReasoningStart {
                message_id: span.clone(),
                ..Default::default()
            });
            self.reasoning = Some(OpenReasoning {
                span,
                message: None,
            });
        }
        let existing = self.reasoning.as_ref().and_then(|r| r.message.clone());
        let message = match existing {
            Some(m) => m,
            None => {
                let m = self.id("reasoning-msg");
                self.emit(ReasoningMessageStart {
                    message_id: m.clone(),
                    ..Default::default()
                });
                if let Some(r) = self.reasoning.as_mut() {
                    r.message = Some(m.clone());
                }
                m
            }
        };
        self.emit(ReasoningMessageContent {
            message_id: message,
            delta: delta.to_owned(),
            ..Default::default()
        });
        Ok(())
    }

    /// Ends the current reasoning span, if one is open.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.reasoning("Think first.")?;
    /// run.reasoning_end()?;
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "REASONING_START", "REASONING_MESSAGE_START",
    ///                    "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END", "REASONING_END"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn reasoning_end(&mut self) -> Result<(), RunBuilderError> {
        self.start()?;
        self.close_reasoning();
        Ok(())
    }

    fn close_reasoning(&mut self) {
        if let Some(r) = self.reasoning.take() {
            if let Some(m) = r.message {
                self.emit(ReasoningMessageEnd {
                    message_id: m,
                    ..Default::default()
                });
            }
            self.emit(ReasoningEnd {
                message_id: r.span,
                ..Default::default()
            });
        }
    }

    /// A tool call begins. Ends open prose (the call's `parentMessageId`) and reasoning.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunBuilder, RunBuilderError};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Let me search.")?;
    /// let message = run.text_message_id().unwrap().to_owned();
    /// run.tool_call_start("c1", "search")?;
    /// assert_eq!(run.tool_call_start("c1", "search"),
    ///            Err(RunBuilderError::DuplicateToolCall("c1".into())));
    /// let events: Vec<_> = run.drain().collect();
    /// assert_eq!(events[3].event_type().as_str(), "TEXT_MESSAGE_END");
    /// let Event::ToolCallStart(start) = &events[4] else { panic!() };
    /// assert_eq!(start.tool_call_name, "search");
    /// assert_eq!(start.parent_message_id, Some(message));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn tool_call_start(&mut self, id: &str, name: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        if self.known_tools.contains(id) || self.tools.iter().any(|t| t.id == id) {
            return Err(RunBuilderError::DuplicateToolCall(id.to_owned()));
        }
        self.flush_utf8();
        let parent = self.text.clone();
        self.close_text();
        self.close_reasoning();
        let mut ev = ToolCallStart::new(id, name);
        ev.parent_message_id = parent;
        self.emit(ev);
        self.tools.push(OpenTool {
            id: id.to_owned(),
            args: String::new(),
            run: self.entered,
        });
        Ok(())
    }

    /// A fragment of an open tool call's arguments (empty fragments send nothing).
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.tool_call_start("c1", "search")?;
    /// run.tool_call_args("c1", r#"{"q":"#)?;
    /// run.tool_call_args("c1", "")?; // sends nothing
    /// run.tool_call_args("c1", r#""rust"}"#)?;
    /// assert_eq!(run.tool_call_args("c2", "{}"),
    ///            Err(RunBuilderError::UnknownToolCall("c2".into())));
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_ARGS"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn tool_call_args(&mut self, id: &str, delta: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        let Some(tool) = self.tools.iter_mut().find(|t| t.id == id) else {
            return Err(RunBuilderError::UnknownToolCall(id.to_owned()));
        };
        if delta.is_empty() {
            return Ok(());
        }
        tool.args.push_str(delta);
        self.emit(ToolCallArgs::new(id, delta));
        Ok(())
    }

    /// An open tool call's arguments are complete. If they are not JSON, the run fails
    /// instead (see [`RunBuilderError::InvalidToolArguments`]).
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.tool_call_start("c1", "search")?;
    /// run.tool_call_args("c1", r#"{"q":"rust"}"#)?;
    /// run.tool_call_end("c1")?;
    /// run.tool_call_start("c2", "search")?;
    /// run.tool_call_args("c2", r#"{"q":"#)?;
    /// let err = run.tool_call_end("c2").unwrap_err(); // not JSON: the run fails
    /// assert!(matches!(err, RunBuilderError::InvalidToolArguments { ref id, .. } if id == "c2"));
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
    ///                    "TOOL_CALL_START", "TOOL_CALL_ARGS", "RUN_ERROR"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn tool_call_end(&mut self, id: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        let Some(pos) = self.tools.iter().position(|t| t.id == id) else {
            return Err(RunBuilderError::UnknownToolCall(id.to_owned()));
        };
        self.close_tool(pos)
    }

    fn close_tool(&mut self, pos: usize) -> Result<(), RunBuilderError> {
        if pos >= self.tools.len() {
            return Ok(());
        }
        let tool = self.tools.remove(pos);
        if !tool.args.trim().is_empty() {
            if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(&tool.args) {
                let error = e.to_string();
                self.emit_error(
                    format!(
                        "arguments of tool call '{}' are not valid JSON: {error}",
                        tool.id
                    ),
                    Some(INVALID_TOOL_ARGUMENTS.to_owned()),
                );
                return Err(RunBuilderError::InvalidToolArguments { id: tool.id, error });
            }
        }
        self.emit(ToolCallEnd::new(tool.id.clone()));
        self.known_tools.insert(tool.id);
        Ok(())
    }

    /// A complete tool call in one go: start, the arguments as one delta, end.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.tool_call("c1", "search", r#"{"q":"rust"}"#)?;
    /// run.tool_call("c2", "now", "")?; // no arguments: no TOOL_CALL_ARGS
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
    ///                    "TOOL_CALL_START", "TOOL_CALL_END"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn tool_call(
        &mut self,
        id: &str,
        name: &str,
        arguments: &str,
    ) -> Result<(), RunBuilderError> {
        self.tool_call_start(id, name)?;
        self.tool_call_args(id, arguments)?;
        self.tool_call_end(id)
    }

    /// What a tool returned. Ends the call first if it is still open.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunBuilder, RunBuilderError};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.tool_call_start("c1", "clock")?;
    /// run.tool_call_result("c1", "12:00")?; // ends the call first
    /// assert_eq!(run.tool_call_result("c9", "?"),
    ///            Err(RunBuilderError::UnknownToolCall("c9".into())));
    /// let events: Vec<_> = run.drain().collect();
    /// let types: Vec<_> = events.iter().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_END", "TOOL_CALL_RESULT"]);
    /// let Event::ToolCallResult(result) = &events[3] else { panic!() };
    /// assert_eq!((result.tool_call_id.as_str(), result.content.as_str()), ("c1", "12:00"));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn tool_call_result(&mut self, id: &str, content: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        if let Some(pos) = self.tools.iter().position(|t| t.id == id) {
            self.close_tool(pos)?;
        }
        if !self.known_tools.contains(id) {
            return Err(RunBuilderError::UnknownToolCall(id.to_owned()));
        }
        let message_id = self.id("result");
        self.emit(ToolCallResult::new(message_id, id, content));
        Ok(())
    }

    /// The whole agent state.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunBuilder};
    /// use serde_json::json;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.state_snapshot(json!({"count": 1}))?;
    /// let events: Vec<_> = run.drain().collect();
    /// let Event::StateSnapshot(state) = &events[1] else { panic!() };
    /// assert_eq!(state.snapshot, json!({"count": 1}));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn state_snapshot(&mut self, snapshot: Value) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(StateSnapshot {
            snapshot,
            ..Default::default()
        });
        Ok(())
    }

    /// An RFC 6902 change to the agent state.
    ///
    /// ```
    /// use a2ui_stream::agui::{PatchOp, RunBuilder};
    /// use serde_json::json;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.state_delta(vec![PatchOp::Replace { path: "/count".into(), value: json!(2) }])?;
    /// let events: Vec<_> = run.drain().collect();
    /// assert_eq!(serde_json::to_value(&events[1]).unwrap(), json!({
    ///     "type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/count", "value": 2}]
    /// }));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn state_delta(&mut self, delta: Vec<PatchOp>) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(StateDelta {
            delta,
            ..Default::default()
        });
        Ok(())
    }

    /// The complete message list.
    ///
    /// ```
    /// use a2ui_stream::agui::{ChatMessage, Event, RunBuilder};
    ///
    /// let hi: ChatMessage =
    ///     serde_json::from_str(r#"{"id":"m1","role":"user","content":"hi"}"#).unwrap();
    /// let mut run = RunBuilder::new("t", "r");
    /// run.messages_snapshot(vec![hi.clone()])?;
    /// let events: Vec<_> = run.drain().collect();
    /// let Event::MessagesSnapshot(snapshot) = &events[1] else { panic!() };
    /// assert_eq!(snapshot.messages, [hi]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn messages_snapshot(&mut self, messages: Vec<ChatMessage>) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(MessagesSnapshot {
            messages,
            ..Default::default()
        });
        Ok(())
    }

    /// A named step begins. Open prose and reasoning end first: they belong to what came
    /// before the step.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Planning.")?;
    /// run.step_started("plan")?; // ends the prose first
    /// assert_eq!(run.step_started("plan"), Err(RunBuilderError::DuplicateStep("plan".into())));
    /// run.finish()?; // closes the active step
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_END", "STEP_STARTED", "STEP_FINISHED", "RUN_FINISHED"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn step_started(&mut self, name: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        if self.steps.iter().any(|s| s.name == name) {
            return Err(RunBuilderError::DuplicateStep(name.to_owned()));
        }
        self.end_prose();
        self.steps.push(OpenStep {
            name: name.to_owned(),
            run: self.entered,
        });
        self.emit(StepStarted::new(name));
        Ok(())
    }

    /// An active step ends.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.step_started("write")?;
    /// run.text("Draft")?;
    /// run.step_finished("write")?; // ends the step's prose first
    /// assert_eq!(run.step_finished("write"), Err(RunBuilderError::UnknownStep("write".into())));
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "STEP_STARTED", "TEXT_MESSAGE_START",
    ///                    "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "STEP_FINISHED"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn step_finished(&mut self, name: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        let Some(pos) = self.steps.iter().position(|s| s.name == name) else {
            return Err(RunBuilderError::UnknownStep(name.to_owned()));
        };
        self.steps.remove(pos);
        self.end_prose();
        self.emit(StepFinished::new(name));
        Ok(())
    }

    /// An application event (`CUSTOM`).
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use serde_json::json;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.custom("progress", json!({"percent": 50}))?;
    /// let events: Vec<_> = run.drain().collect();
    /// assert_eq!(serde_json::to_value(&events[1]).unwrap(),
    ///            json!({"type": "CUSTOM", "name": "progress", "value": {"percent": 50}}));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn custom(&mut self, name: &str, value: Value) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(Custom {
            name: name.to_owned(),
            value,
            ..Default::default()
        });
        Ok(())
    }

    /// A provider-native event passed through (`RAW`).
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use serde_json::json;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.raw(json!({"type": "ping"}), Some("openai".into()))?;
    /// let events: Vec<_> = run.drain().collect();
    /// assert_eq!(serde_json::to_value(&events[1]).unwrap(),
    ///            json!({"type": "RAW", "event": {"type": "ping"}, "source": "openai"}));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn raw(&mut self, event: Value, source: Option<String>) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(Raw {
            event,
            source,
            ..Default::default()
        });
        Ok(())
    }

    /// One item of the splitter's output: prose becomes text, an A2UI message becomes an
    /// `a2ui-surface` activity event, and an error is reported as a `CUSTOM` event named
    /// [`A2UI_ERROR_EVENT`] (the splitter recovers, so the run goes on).
    ///
    /// ```
    /// use a2ui_stream::{agui::RunBuilder, Splitter};
    ///
    /// let mut splitter = Splitter::new();
    /// let mut run = RunBuilder::new("t", "r");
    /// let chunks = [r#"Here: <a2ui-json>{"beginRendering":"#,
    ///               r#"{"surfaceId":"s","root":"r"}}</a2ui-json>"#];
    /// for chunk in chunks {
    ///     for item in splitter.feed(chunk.as_bytes()) {
    ///         run.splitter(item)?;
    ///     }
    /// }
    /// run.finish()?;
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_END", "ACTIVITY_SNAPSHOT", "RUN_FINISHED"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn splitter(
        &mut self,
        item: Result<crate::Event, crate::Error>,
    ) -> Result<(), RunBuilderError> {
        match item {
            Ok(event) => self.a2ui(event),
            Err(e) => self.custom(
                A2UI_ERROR_EVENT,
                serde_json::json!({ "offset": e.offset(), "message": e.kind().to_string() }),
            ),
        }
    }

    /// One event from the splitter.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunBuilder};
    /// use bytes::Bytes;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// // "café" cut inside the "é" (0xC3 0xA9): the cut character is held back until complete.
    /// run.a2ui(a2ui_stream::Event::Text(Bytes::from_static(b"caf\xC3")))?;
    /// run.a2ui(a2ui_stream::Event::Text(Bytes::from_static(b"\xA9")))?;
    /// let deltas: Vec<_> = run.drain().filter_map(|e| match e {
    ///     Event::TextMessageContent(c) => Some(c.delta),
    ///     _ => None,
    /// }).collect();
    /// assert_eq!(deltas, ["caf", "é"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn a2ui(&mut self, event: crate::Event) -> Result<(), RunBuilderError> {
        self.start()?;
        match event {
            crate::Event::Text(bytes) => {
                self.pending_utf8.extend_from_slice(&bytes);
                let text = take_utf8(&mut self.pending_utf8, false);
                if !text.is_empty() {
                    self.send_text(&text);
                }
                Ok(())
            }
            crate::Event::Message(m) => {
                let event = self
                    .surfaces
                    .push(&m)
                    .map_err(|e| RunBuilderError::InvalidA2ui(e.to_string()))?;
                self.end_prose();
                self.emit(event);
                Ok(())
            }
        }
    }

    /// An A2UI message given as JSON (for agents that build messages without the splitter).
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunBuilder};
    /// use serde_json::json;
    ///
    /// let mut run = RunBuilder::new("t", "run-1");
    /// run.text("Here is the form:")?;
    /// let begin = json!({"beginRendering": {"surfaceId": "form", "root": "r"}});
    /// run.a2ui_value(Some("form"), begin)?;
    /// run.a2ui_value(Some("form"), json!({"deleteSurface": {"surfaceId": "form"}}))?;
    /// let events: Vec<_> = run.drain().collect();
    /// let types: Vec<_> = events.iter().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_END", "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA"]);
    /// let Event::ActivitySnapshot(surface) = &events[4] else { panic!() };
    /// assert_eq!(surface.message_id, "run-1-a2ui-form");
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn a2ui_value(
        &mut self,
        surface_id: Option<&str>,
        message: Value,
    ) -> Result<(), RunBuilderError> {
        self.start()?;
        self.end_prose();
        let event = self.surfaces.push_value(surface_id, message);
        self.emit(event);
        Ok(())
    }

    /// Ends open prose and reasoning (at UI, at the end of a step or of a nested run).
    fn end_prose(&mut self) {
        self.flush_utf8();
        self.close_text();
        self.close_reasoning();
    }

    /// Sends any bytes of an incomplete UTF-8 character as U+FFFD.
    fn flush_utf8(&mut self) {
        if self.pending_utf8.is_empty() || self.phase != Phase::Running {
            return;
        }
        let text = take_utf8(&mut self.pending_utf8, true);
        if !text.is_empty() {
            self.send_text(&text);
        }
    }

    /// Closes whatever is open and sends `RUN_FINISHED`.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.step_started("answer")?;
    /// run.text("Done.")?;
    /// run.finish()?; // ends the prose, then the step
    /// assert_eq!(run.finish(), Err(RunBuilderError::RunOver));
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "STEP_STARTED", "TEXT_MESSAGE_START",
    ///                    "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "STEP_FINISHED",
    ///                    "RUN_FINISHED"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn finish(&mut self) -> Result<(), RunBuilderError> {
        self.finish_with(None)
    }

    /// Like [`finish`](RunBuilder::finish), with the run's return value in `RUN_FINISHED.result`.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunBuilder};
    /// use serde_json::json;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.finish_with(Some(json!({"answer": 42})))?;
    /// let Some(Event::RunFinished(finished)) = run.drain().last() else { panic!() };
    /// assert_eq!(finished.result, Some(json!({"answer": 42})));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn finish_with(&mut self, result: Option<Value>) -> Result<(), RunBuilderError> {
        self.start()?;
        self.close_open(0)?;
        let mut ev = RunFinished::new(self.thread_id.clone(), self.run_id.clone());
        ev.result = result;
        self.emit(ev);
        self.phase = Phase::Over;
        Ok(())
    }

    /// Closes what is open that runs at depth `run` (as counted by `entered`) or deeper started:
    /// their tool calls (failing the run if one's arguments are not JSON), then open reasoning
    /// and prose, then their steps, latest first.
    fn close_open(&mut self, run: usize) -> Result<(), RunBuilderError> {
        self.flush_utf8();
        while let Some(pos) = self.tools.iter().position(|t| t.run >= run) {
            self.close_tool(pos)?;
        }
        self.close_reasoning();
        self.close_text();
        while let Some(pos) = self.steps.iter().rposition(|s| s.run >= run) {
            let step = self.steps.remove(pos);
            self.emit(StepFinished::new(step.name));
        }
        Ok(())
    }

    /// The run (or a nested run at any depth) failed: sends `RUN_ERROR`; nothing follows it.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunBuilder, RunBuilderError};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Partial answer")?;
    /// run.fail("model timed out", Some("TIMEOUT".into()))?;
    /// assert_eq!(run.text("more"), Err(RunBuilderError::RunOver));
    /// let events: Vec<_> = run.drain().collect();
    /// let types: Vec<_> = events.iter().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "RUN_ERROR"]);
    /// let Event::RunError(error) = &events[3] else { panic!() };
    /// assert_eq!(error.message, "model timed out");
    /// assert_eq!(error.code.as_deref(), Some("TIMEOUT"));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn fail(
        &mut self,
        message: impl Into<String>,
        code: Option<String>,
    ) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit_error(message.into(), code);
        Ok(())
    }

    fn emit_error(&mut self, message: String, code: Option<String>) {
        let mut ev = RunError::new(message);
        ev.code = code;
        self.emit(ev);
        self.phase = Phase::Over;
    }
}

/// Decodes the valid UTF-8 prefix of `pending`, replacing invalid sequences with U+FFFD and
/// keeping an incomplete character at the end unless `flush`.
fn take_utf8(pending: &mut Vec<u8>, flush: bool) -> String {
    let mut out = String::new();
    loop {
        match std::str::from_utf8(pending) {
            Ok(s) => {
                out.push_str(s);
                pending.clear();
                return out;
            }
            Err(e) => {
                let valid = e.valid_up_to();
                out.push_str(
                    std::str::from_utf8(pending.get(..valid).unwrap_or_default())
                        .unwrap_or_default(),
                );
                match e.error_len() {
                    Some(n) => {
                        out.push(char::REPLACEMENT_CHARACTER);
                        pending.drain(..(valid + n).min(pending.len()));
                    }
                    None if flush => {
                        out.push(char::REPLACEMENT_CHARACTER);
                        pending.clear();
                        return out;
                    }
                    None => {
                        pending.drain(..valid);
                        return out;
                    }
                }
            }
        }
    }
}
