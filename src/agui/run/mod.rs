//! The run builder: what an agent produces in, a compliant AG-UI sequence out.

use super::a2ui::A2uiActivities;
use super::events::{
    Event, RunAgentInput, RunError, RunFinished, RunStarted, StepFinished, StepStarted,
};
use serde_json::Value;
use std::collections::HashSet;

mod a2ui;
mod error;
mod state;
mod text;
mod tools;

pub use a2ui::A2UI_ERROR_EVENT;
pub use error::{RunBuilderError, RunBuilderErrorKind};
use error::{refused, run_over};
pub use tools::INVALID_TOOL_ARGUMENTS;

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

/// The run builder: what an agent produces in, a compliant AG-UI sequence out.
///
/// [`RunBuilder`] keeps the bookkeeping the protocol needs so the caller cannot get it wrong:
///
/// - exactly one `RUN_STARTED`, before anything else (sent with the first output);
/// - each run of prose is one text message (`TEXT_MESSAGE_START`, its `TEXT_MESSAGE_CONTENT`
///   deltas, `TEXT_MESSAGE_END`) with one `messageId`; empty deltas are never sent. Prose ends at
///   reasoning, a tool call, an A2UI message, the start or end of a step, the end of a nested
///   run, or [`text_end`](RunBuilder::text_end);
/// - tool calls go `TOOL_CALL_START`, `TOOL_CALL_ARGS`*, `TOOL_CALL_END`, then `TOOL_CALL_RESULT`;
///   several may be open at once (parallel calls). Arguments are checked to be JSON at the end;
/// - reasoning goes `REASONING_START`, `REASONING_MESSAGE_START/CONTENT/END`, `REASONING_END`;
/// - whatever is open is closed before `RUN_FINISHED`; a failure sends `RUN_ERROR` and nothing
///   after it;
/// - nested runs (a sub-agent, a workflow step running an agent) send no lifecycle events of
///   their own: only the outermost `RUN_STARTED`/`RUN_FINISHED` are sent, while a failure at any
///   depth sends `RUN_ERROR`. What a nested run left open (tool calls, steps, prose) is closed
///   when it ends;
/// - the splitter's output goes in as is: prose becomes text (UTF-8 cut mid-character is
///   reassembled), A2UI messages become `a2ui-surface` activities (see [`A2uiActivities`](crate::agui::A2uiActivities)).
///
/// A call that would break the protocol (an unknown tool call id, anything after the run ended)
/// sends nothing and returns an error; the sequence sent so far stays valid.
///
/// ```
/// use a2ui_stream::agui::{verify, RunBuilder};
///
/// let mut run = RunBuilder::new("thread-1", "run-1");
/// run.tool_call_start("call-1", "get_weather").unwrap();
/// run.tool_call_args("call-1", "{\"city\":").unwrap();
/// run.tool_call_args("call-1", "\"Paris\"}").unwrap();
/// run.tool_call_result("call-1", "{\"temp\":22}").unwrap();
/// run.text("It is 22°C in Paris.").unwrap();
/// run.finish().unwrap();
/// let events: Vec<_> = run.drain().collect();
/// verify(&events).unwrap();
/// assert_eq!(events.len(), 10);
/// assert!(run.text("more").is_err()); // the run is over
/// ```
///
/// Builds one AG-UI run from agent outputs.
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
    /// use a2ui_stream::agui::RunBuilder;
    /// use a2ui_stream::agui::events::Event;
    ///
    /// let mut run = RunBuilder::new("thread-1", "run-1");
    /// assert_eq!(run.drain().count(), 0); // nothing sent yet
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

    /// A builder for the run a client requested: its thread, run and parent run ids.
    ///
    /// The request is not echoed in `RUN_STARTED.input` (a large conversation would be sent
    /// back whole and held for the run); ask for that with [`echo_input`](RunBuilder::echo_input).
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use a2ui_stream::agui::events::{Event, RunAgentInput};
    ///
    /// let input: RunAgentInput = serde_json::from_str(
    ///     r#"{"threadId":"t1","runId":"r2","parentRunId":"r1","messages":[]}"#).unwrap();
    /// let mut run = RunBuilder::from_input(&input);
    /// assert_eq!((run.thread_id(), run.run_id()), ("t1", "r2"));
    /// run.start()?;
    /// let Some(Event::RunStarted(ev)) = run.drain().next() else { panic!() };
    /// assert_eq!(ev.parent_run_id.as_deref(), Some("r1"));
    /// assert_eq!(ev.input, None);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn from_input(input: &RunAgentInput) -> Self {
        let mut b = RunBuilder::new(input.thread_id.clone(), input.run_id.clone());
        b.parent_run_id = input.parent_run_id.clone();
        b
    }

    /// Echoes `input` in `RUN_STARTED.input`. Only before the run starts.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use a2ui_stream::agui::events::{Event, RunAgentInput};
    ///
    /// let input = RunAgentInput::new("t1", "r1");
    /// let mut run = RunBuilder::from_input(&input).echo_input(input.clone());
    /// run.start()?;
    /// let Some(Event::RunStarted(ev)) = run.drain().next() else { panic!() };
    /// assert_eq!(ev.input.as_deref(), Some(&input));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn echo_input(mut self, input: RunAgentInput) -> Self {
        self.input = Some(Box::new(input));
        self
    }

    /// Sets `RUN_STARTED.parentRunId`. Only before the run starts: once `RUN_STARTED` is sent,
    /// this changes nothing.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use a2ui_stream::agui::events::Event;
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
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError, RunBuilderErrorKind};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Hi")?;
    /// assert!(!run.is_over());
    /// run.fail("model timed out", None)?;
    /// assert!(run.is_over());
    /// assert_eq!(run.text("more").unwrap_err().kind(), RunBuilderErrorKind::RunOver);
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
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError, RunBuilderErrorKind};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.start()?;
    /// run.start()?; // already started: sends nothing
    /// run.finish()?;
    /// assert_eq!(run.start().unwrap_err().kind(), RunBuilderErrorKind::RunOver);
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "RUN_FINISHED"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn start(&mut self) -> Result<(), RunBuilderError> {
        match self.phase {
            Phase::Over => Err(run_over()),
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
            return Err(run_over());
        }
        if self.entered > 1 {
            self.close_open(self.entered)?;
            self.entered -= 1;
            Ok(())
        } else {
            self.finish()
        }
    }

    /// A named step begins. Open prose and reasoning end first: they belong to what came
    /// before the step.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError, RunBuilderErrorKind};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Planning.")?;
    /// run.step_started("plan")?; // ends the prose first
    /// assert_eq!(run.step_started("plan").unwrap_err().kind(), RunBuilderErrorKind::DuplicateStep);
    /// run.finish()?; // closes the active step
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_END", "STEP_STARTED", "STEP_FINISHED", "RUN_FINISHED"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn step_started(&mut self, name: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        if self.steps.iter().any(|s| s.name == name) {
            return Err(refused(
                RunBuilderErrorKind::DuplicateStep,
                format!("step '{name}' is already active"),
            ));
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
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError, RunBuilderErrorKind};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.step_started("write")?;
    /// run.text("Draft")?;
    /// run.step_finished("write")?; // ends the step's prose first
    /// assert_eq!(run.step_finished("write").unwrap_err().kind(), RunBuilderErrorKind::UnknownStep);
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "STEP_STARTED", "TEXT_MESSAGE_START",
    ///                    "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "STEP_FINISHED"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn step_finished(&mut self, name: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        let Some(pos) = self.steps.iter().position(|s| s.name == name) else {
            return Err(refused(
                RunBuilderErrorKind::UnknownStep,
                format!("no active step '{name}'"),
            ));
        };
        self.steps.remove(pos);
        self.end_prose();
        self.emit(StepFinished::new(name));
        Ok(())
    }

    /// Closes whatever is open and sends `RUN_FINISHED`.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError, RunBuilderErrorKind};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.step_started("answer")?;
    /// run.text("Done.")?;
    /// run.finish()?; // ends the prose, then the step
    /// assert_eq!(run.finish().unwrap_err().kind(), RunBuilderErrorKind::RunOver);
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
    /// use a2ui_stream::agui::RunBuilder;
    /// use a2ui_stream::agui::events::Event;
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
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError, RunBuilderErrorKind};
    /// use a2ui_stream::agui::events::Event;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Partial answer")?;
    /// run.fail("model timed out", Some("TIMEOUT".into()))?;
    /// assert_eq!(run.text("more").unwrap_err().kind(), RunBuilderErrorKind::RunOver);
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
