//! The run builder: what an agent produces in, a compliant AG-UI sequence out.
//!
//! [`RunBuilder`] keeps the bookkeeping the protocol needs so the caller cannot get it wrong:
//!
//! - exactly one `RUN_STARTED`, before anything else (sent with the first output);
//! - each run of prose is one text message (`TEXT_MESSAGE_START`, its `TEXT_MESSAGE_CONTENT`
//!   deltas, `TEXT_MESSAGE_END`) with one `messageId`; empty deltas are never sent. Prose ends at
//!   reasoning, a tool call, an A2UI message, the end of a step or nested run, or
//!   [`text_end`](RunBuilder::text_end);
//! - tool calls go `TOOL_CALL_START`, `TOOL_CALL_ARGS`*, `TOOL_CALL_END`, then `TOOL_CALL_RESULT`;
//!   several may be open at once (parallel calls). Arguments are checked to be JSON at the end;
//! - reasoning goes `REASONING_START`, `REASONING_MESSAGE_START/CONTENT/END`, `REASONING_END`;
//! - whatever is open is closed before `RUN_FINISHED`; a failure sends `RUN_ERROR` and nothing
//!   after it;
//! - nested runs (a sub-agent, a workflow step running an agent) send no lifecycle events of
//!   their own: only the outermost `RUN_STARTED`/`RUN_FINISHED` are sent, while a failure at any
//!   depth sends `RUN_ERROR`;
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
pub const A2UI_ERROR_EVENT: &str = "a2ui-stream.error";

/// The `RUN_ERROR.code` sent when a tool call's arguments are not JSON at its end.
pub const INVALID_TOOL_ARGUMENTS: &str = "INVALID_TOOL_ARGUMENTS";

/// One thing an agent produced, for [`RunBuilder::push`].
///
/// `RunStarted`/`RunFinished` mark runs, possibly nested: the first `RunStarted` is this run
/// (whether or not `RUN_STARTED` was already sent), later ones open nested runs, and the
/// `RunFinished` that closes the outermost finishes it.
#[derive(Debug, Clone, PartialEq)]
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
    /// An application event.
    Custom {
        /// Its name.
        name: String,
        /// Its payload.
        value: Value,
    },
    /// Output of the splitter.
    Splitter(Result<crate::Event, crate::Error>),
}

/// Why the builder refused a call. Nothing was sent for it, unless stated.
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
    steps: Vec<String>,
    pending_utf8: Vec<u8>,
    surfaces: A2uiActivities,
}

impl RunBuilder {
    /// A builder for run `run_id` of thread `thread_id`. Nothing is sent until the first output
    /// (or [`start`](RunBuilder::start)).
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
    pub fn from_input(input: RunAgentInput) -> Self {
        let mut b = RunBuilder::new(input.thread_id.clone(), input.run_id.clone());
        b.parent_run_id = input.parent_run_id.clone();
        b.input = Some(Box::new(input));
        b
    }

    /// Sets `RUN_STARTED.parentRunId` (before the run starts).
    pub fn with_parent_run_id(mut self, parent: impl Into<String>) -> Self {
        self.parent_run_id = Some(parent.into());
        self
    }

    /// The run id.
    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    /// The thread id.
    pub fn thread_id(&self) -> &str {
        &self.thread_id
    }

    /// Whether `RUN_FINISHED` or `RUN_ERROR` was sent.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// How many nested runs are open inside the outermost one.
    pub fn depth(&self) -> usize {
        self.entered.saturating_sub(1)
    }

    /// The id of the open text message, if prose is being streamed.
    pub fn text_message_id(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// Events produced and not yet taken.
    pub fn pending(&self) -> &[Event] {
        &self.out
    }

    /// Takes the events produced so far, in order.
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
            AgentOutput::Custom { name, value } => self.custom(&name, value),
            AgentOutput::Splitter(r) => self.splitter(r),
        }
    }

    /// A run begins. The first one is this run (sending `RUN_STARTED` if that was not sent
    /// yet, e.g. by [`start`](RunBuilder::start)); later ones are nested and send nothing.
    pub fn enter_run(&mut self) -> Result<(), RunBuilderError> {
        self.start()?;
        self.entered += 1;
        Ok(())
    }

    /// A run ends: a nested one sends nothing (its open prose is ended); the outermost one
    /// [finishes](RunBuilder::finish) this run.
    pub fn exit_run(&mut self) -> Result<(), RunBuilderError> {
        if self.phase == Phase::Over {
            return Err(RunBuilderError::RunOver);
        }
        if self.entered > 1 {
            self.entered -= 1;
            self.end_prose();
            Ok(())
        } else {
            self.finish()
        }
    }

    /// An LLM text delta. Empty deltas send nothing; the first delta of a prose run opens a
    /// text message, and later ones continue it.
    pub fn text(&mut self, delta: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        if delta.is_empty() {
            return Ok(());
        }
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
        Ok(())
    }

    /// Ends the current prose message, if one is open (the next delta opens a new one).
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
        });
        Ok(())
    }

    /// A fragment of an open tool call's arguments (empty fragments send nothing).
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
    pub fn state_snapshot(&mut self, snapshot: Value) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(StateSnapshot {
            snapshot,
            ..Default::default()
        });
        Ok(())
    }

    /// An RFC 6902 change to the agent state.
    pub fn state_delta(&mut self, delta: Vec<PatchOp>) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(StateDelta {
            delta,
            ..Default::default()
        });
        Ok(())
    }

    /// The complete message list.
    pub fn messages_snapshot(&mut self, messages: Vec<ChatMessage>) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(MessagesSnapshot {
            messages,
            ..Default::default()
        });
        Ok(())
    }

    /// A named step begins.
    pub fn step_started(&mut self, name: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        if self.steps.iter().any(|s| s == name) {
            return Err(RunBuilderError::DuplicateStep(name.to_owned()));
        }
        self.steps.push(name.to_owned());
        self.emit(StepStarted::new(name));
        Ok(())
    }

    /// An active step ends.
    pub fn step_finished(&mut self, name: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        let Some(pos) = self.steps.iter().position(|s| s == name) else {
            return Err(RunBuilderError::UnknownStep(name.to_owned()));
        };
        self.steps.remove(pos);
        self.end_prose();
        self.emit(StepFinished::new(name));
        Ok(())
    }

    /// An application event (`CUSTOM`).
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
    pub fn a2ui(&mut self, event: crate::Event) -> Result<(), RunBuilderError> {
        self.start()?;
        match event {
            crate::Event::Text(bytes) => {
                self.pending_utf8.extend_from_slice(&bytes);
                let text = take_utf8(&mut self.pending_utf8, false);
                self.text(&text)
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
            // The run is running (checked above), so this cannot be refused.
            let _ = self.text(&text);
        }
    }

    /// Closes whatever is open and sends `RUN_FINISHED`.
    pub fn finish(&mut self) -> Result<(), RunBuilderError> {
        self.finish_with(None)
    }

    /// Like [`finish`](RunBuilder::finish), with the run's return value in `RUN_FINISHED.result`.
    pub fn finish_with(&mut self, result: Option<Value>) -> Result<(), RunBuilderError> {
        self.start()?;
        self.flush_utf8();
        while !self.tools.is_empty() {
            self.close_tool(0)?;
        }
        self.close_reasoning();
        self.close_text();
        while let Some(step) = self.steps.pop() {
            self.emit(StepFinished::new(step));
        }
        let mut ev = RunFinished::new(self.thread_id.clone(), self.run_id.clone());
        ev.result = result;
        self.emit(ev);
        self.phase = Phase::Over;
        Ok(())
    }

    /// The run (or a nested run at any depth) failed: sends `RUN_ERROR`; nothing follows it.
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
