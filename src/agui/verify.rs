//! Checks an AG-UI event sequence against the client's rules and names the first violation.
//!
//! Chunk events (`TEXT_MESSAGE_CHUNK`, `TOOL_CALL_CHUNK`, `REASONING_MESSAGE_CHUNK`) are first
//! expanded into start/content/end the way the AG-UI client expands them: a chunk continues the
//! stream a previous chunk opened when its id is absent or the same, and any other event except
//! `RAW`, `ACTIVITY_*`, `REASONING_ENCRYPTED_VALUE` and `SUBAGENT_*` closes it. So a chunk-only
//! stream is read as the messages it means, not as one message per token.
//!
//! The rules:
//! - the first event is `RUN_STARTED` (or `RUN_ERROR`, for a run that failed before starting);
//! - nothing follows `RUN_ERROR`; only `RUN_STARTED` (a new run) or `RUN_ERROR` follows
//!   `RUN_FINISHED`; no `RUN_STARTED` while a run is active;
//! - text messages, tool calls, reasoning spans, reasoning messages and steps are started before
//!   their content and end, by id (steps by name), and not started twice while active;
//! - nothing is active at `RUN_FINISHED`;
//! - `TOOL_CALL_RESULT` answers a tool call started earlier in the stream;
//! - a tool call's arguments, concatenated, are valid JSON at `TOOL_CALL_END` (no arguments at
//!   all is accepted as a call without arguments);
//! - the stream does not end while a run is active ([`Verifier::finish`]).
//!
//! ```
//! use a2ui_stream::agui::verify;
//! use a2ui_stream::agui::events::{Event, TextMessageContent, RunStarted};
//! let events: Vec<Event> = vec![RunStarted::new("t", "r").into(), TextMessageContent::new("m", "hi").into()];
//! let err = verify(&events).unwrap_err();
//! assert_eq!(err.to_string(), "event 1 (TEXT_MESSAGE_CONTENT): no active text message 'm'");
//! ```

use super::events::{Event, EventType, ReasoningMessageChunk, TextMessageChunk, ToolCallChunk};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Something with a start and an end, tracked by id.
///
/// ```
/// use a2ui_stream::agui::{verify, Span, Rule};
/// use a2ui_stream::agui::events::{Event, RunStarted, StepFinished};
/// let events: Vec<Event> = vec![RunStarted::new("t", "r").into(), StepFinished::new("plan").into()];
/// let rule = verify(&events).unwrap_err().rule;
/// assert_eq!(rule, Rule::NotActive { span: Span::Step, id: "plan".into() });
/// assert_eq!(rule.to_string(), "no active step 'plan'");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Span {
    /// `TEXT_MESSAGE_START` … `TEXT_MESSAGE_END`, by `messageId`.
    TextMessage,
    /// `TOOL_CALL_START` … `TOOL_CALL_END`, by `toolCallId`.
    ToolCall,
    /// `REASONING_START` … `REASONING_END`, by `messageId`.
    Reasoning,
    /// `REASONING_MESSAGE_START` … `REASONING_MESSAGE_END`, by `messageId`.
    ReasoningMessage,
    /// `STEP_STARTED` … `STEP_FINISHED`, by `stepName`.
    Step,
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Span::TextMessage => "text message",
            Span::ToolCall => "tool call",
            Span::Reasoning => "reasoning",
            Span::ReasoningMessage => "reasoning message",
            Span::Step => "step",
        })
    }
}

/// The rule a [`Violation`] broke.
///
/// ```
/// use a2ui_stream::agui::{verify, Rule};
/// use a2ui_stream::agui::events::{Event, RunStarted, ToolCallArgs, ToolCallEnd, ToolCallStart};
/// let events: Vec<Event> = vec![
///     RunStarted::new("t", "r").into(),
///     ToolCallStart::new("c1", "search").into(),
///     ToolCallArgs::new("c1", "{\"q\": ").into(),
///     ToolCallEnd::new("c1").into(),
/// ];
/// let rule = verify(&events).unwrap_err().rule;
/// assert!(matches!(rule, Rule::InvalidToolArguments { ref id, .. } if id == "c1"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rule {
    /// The first event is neither `RUN_STARTED` nor `RUN_ERROR`.
    FirstEventNotRunStarted,
    /// An event after `RUN_ERROR`.
    AfterRunError,
    /// An event other than `RUN_STARTED` / `RUN_ERROR` after `RUN_FINISHED`.
    AfterRunFinished,
    /// `RUN_STARTED` while a run is active.
    RunAlreadyActive,
    /// A start for an id that is already active.
    AlreadyActive {
        /// What was started.
        span: Span,
        /// Its id (or step name).
        id: String,
    },
    /// A content or end event for an id that is not active.
    NotActive {
        /// What the event belongs to.
        span: Span,
        /// Its id (or step name).
        id: String,
    },
    /// `RUN_FINISHED` while something is still active (the first one opened is named).
    OpenAtRunFinished {
        /// What is still active.
        span: Span,
        /// Its id (or step name).
        id: String,
    },
    /// `TOOL_CALL_RESULT` for a tool call never started in this stream.
    UnknownToolCall {
        /// The unknown `toolCallId`.
        id: String,
    },
    /// A tool call's arguments are not valid JSON at its end.
    InvalidToolArguments {
        /// The `toolCallId`.
        id: String,
        /// What the JSON parser said.
        error: String,
    },
    /// A chunk that opens a stream carries no id.
    ChunkWithoutId,
    /// A `TOOL_CALL_CHUNK` that opens a call carries no `toolCallName`.
    ChunkWithoutName,
    /// The stream ended while a run was active.
    RunNotTerminated,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::FirstEventNotRunStarted => f.write_str("the first event must be RUN_STARTED"),
            Rule::AfterRunError => f.write_str("no event may follow RUN_ERROR"),
            Rule::AfterRunFinished => {
                f.write_str("only RUN_STARTED or RUN_ERROR may follow RUN_FINISHED")
            }
            Rule::RunAlreadyActive => f.write_str("RUN_STARTED while a run is still active"),
            Rule::AlreadyActive { span, id } => write!(f, "{span} '{id}' is already active"),
            Rule::NotActive { span, id } => write!(f, "no active {span} '{id}'"),
            Rule::OpenAtRunFinished { span, id } => {
                write!(f, "RUN_FINISHED while {span} '{id}' is still active")
            }
            Rule::UnknownToolCall { id } => write!(f, "result for unknown tool call '{id}'"),
            Rule::InvalidToolArguments { id, error } => {
                write!(
                    f,
                    "arguments of tool call '{id}' are not valid JSON at its end: {error}"
                )
            }
            Rule::ChunkWithoutId => f.write_str("a chunk that opens a stream must carry its id"),
            Rule::ChunkWithoutName => {
                f.write_str("a TOOL_CALL_CHUNK that opens a call must carry toolCallName")
            }
            Rule::RunNotTerminated => {
                f.write_str("the stream ended before RUN_FINISHED or RUN_ERROR")
            }
        }
    }
}

/// The first rule a sequence broke: where, which event, and what rule.
///
/// ```
/// use a2ui_stream::agui::{verify, Rule};
/// use a2ui_stream::agui::events::{Event, EventType, RunStarted, StepStarted};
/// let events: Vec<Event> = vec![StepStarted::new("plan").into(), RunStarted::new("t", "r").into()];
/// let v = verify(&events).unwrap_err();
/// assert_eq!(v.index, 0);
/// assert_eq!(v.event_type, Some(EventType::StepStarted));
/// assert_eq!(v.rule, Rule::FirstEventNotRunStarted);
/// assert_eq!(v.to_string(), "event 0 (STEP_STARTED): the first event must be RUN_STARTED");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Index of the offending event in the sequence (the sequence length for
    /// [`Rule::RunNotTerminated`]).
    pub index: usize,
    /// Type of the offending event (`None` at the end of the stream).
    pub event_type: Option<EventType>,
    /// The rule broken.
    pub rule: Rule,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.event_type {
            Some(t) => write!(f, "event {} ({}): {}", self.index, t, self.rule),
            None => write!(
                f,
                "end of stream after {} events: {}",
                self.index, self.rule
            ),
        }
    }
}

impl std::error::Error for Violation {}

/// Checks a whole sequence, including that it ends with the run closed.
///
/// ```
/// use a2ui_stream::agui::verify;
/// use a2ui_stream::agui::events::{Event, RunFinished, RunStarted, TextMessageChunk};
/// // A chunk-only stream: read as one message, closed before RUN_FINISHED.
/// let chunk = |d: &str| {
///     let mut chunk = TextMessageChunk::default();
///     chunk.message_id = Some("m".into());
///     chunk.delta = Some(d.into());
///     Event::from(chunk)
/// };
/// let events = vec![RunStarted::new("t", "r").into(), chunk("Hel"), chunk("lo"), RunFinished::new("t", "r").into()];
/// assert!(verify(&events).is_ok());
/// ```
pub fn verify(events: &[Event]) -> Result<(), Violation> {
    let mut v = Verifier::new();
    for e in events {
        v.push(e)?;
    }
    v.finish()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChunkMode {
    Text,
    Tool,
    Reasoning,
}

/// What one (possibly expanded) event does to the state.
enum Action<'a> {
    Open(Span, &'a str),
    Append(Span, &'a str, Option<&'a str>),
    Close(Span, &'a str),
    ToolResult(&'a str),
    RunStarted,
    RunFinished,
    RunError,
    Other,
}

/// Incremental verifier: [`push`](Verifier::push) each event as it is sent or received.
///
/// ```
/// use a2ui_stream::agui::{Span, Rule, Verifier};
/// use a2ui_stream::agui::events::{RunFinished, RunStarted, TextMessageStart};
/// let mut v = Verifier::new();
/// v.push(&RunStarted::new("t", "r").into()).unwrap();
/// v.push(&TextMessageStart::new("m").into()).unwrap();
/// let err = v.push(&RunFinished::new("t", "r").into()).unwrap_err();
/// assert_eq!(err.index, 2);
/// assert_eq!(err.rule, Rule::OpenAtRunFinished { span: Span::TextMessage, id: "m".into() });
/// ```
#[derive(Debug, Default)]
pub struct Verifier {
    count: usize,
    first_seen: bool,
    run_active: bool,
    run_finished: bool,
    run_error: bool,
    open: Vec<(Span, String)>,
    tool_args: HashMap<String, String>,
    known_tool_calls: HashSet<String>,
    chunk: Option<(ChunkMode, String)>,
}

impl Verifier {
    /// A verifier at the start of a stream.
    ///
    /// ```
    /// use a2ui_stream::agui::{Rule, Verifier};
    /// use a2ui_stream::agui::events::TextMessageContent;
    /// assert!(Verifier::new().finish().is_ok()); // an empty stream may end
    /// let mut v = Verifier::new();
    /// let err = v.push(&TextMessageContent::new("m", "hi").into()).unwrap_err();
    /// assert_eq!(err.rule, Rule::FirstEventNotRunStarted);
    /// ```
    pub fn new() -> Self {
        Verifier::default()
    }

    /// Checks the next event.
    ///
    /// ```
    /// use a2ui_stream::agui::{Span, Rule, Verifier};
    /// use a2ui_stream::agui::events::{RunStarted, StepStarted};
    /// let mut v = Verifier::new();
    /// v.push(&RunStarted::new("t", "r").into())?;
    /// v.push(&StepStarted::new("plan").into())?;
    /// let err = v.push(&StepStarted::new("plan").into()).unwrap_err();
    /// assert_eq!(err.index, 2);
    /// assert_eq!(err.rule, Rule::AlreadyActive { span: Span::Step, id: "plan".into() });
    /// # Ok::<(), a2ui_stream::agui::Violation>(())
    /// ```
    pub fn push(&mut self, event: &Event) -> Result<(), Violation> {
        let index = self.count;
        self.count += 1;
        self.check(event).map_err(|rule| Violation {
            index,
            event_type: Some(event.event_type()),
            rule,
        })
    }

    /// Checks that the stream may end here: no run is left active.
    ///
    /// ```
    /// use a2ui_stream::agui::{Rule, Verifier};
    /// use a2ui_stream::agui::events::{RunFinished, RunStarted};
    /// let mut v = Verifier::new();
    /// v.push(&RunStarted::new("t", "r").into()).unwrap();
    /// let err = v.finish().unwrap_err();
    /// assert_eq!((err.index, err.event_type, err.rule), (1, None, Rule::RunNotTerminated));
    /// v.push(&RunFinished::new("t", "r").into()).unwrap();
    /// assert!(v.finish().is_ok());
    /// ```
    pub fn finish(&self) -> Result<(), Violation> {
        if self.run_active && !self.run_finished && !self.run_error {
            return Err(Violation {
                index: self.count,
                event_type: None,
                rule: Rule::RunNotTerminated,
            });
        }
        Ok(())
    }

    fn check(&mut self, event: &Event) -> Result<(), Rule> {
        match event {
            Event::TextMessageChunk(c) => return self.text_chunk(c),
            Event::ToolCallChunk(c) => return self.tool_chunk(c),
            Event::ReasoningMessageChunk(c) => return self.reasoning_chunk(c),
            Event::Raw(_)
            | Event::ActivitySnapshot(_)
            | Event::ActivityDelta(_)
            | Event::ReasoningEncryptedValue(_)
            | Event::SubagentStarted(_)
            | Event::SubagentFinished(_)
            | Event::SubagentError(_) => {}
            _ => self.close_chunk()?,
        }
        let action = match event {
            Event::TextMessageStart(e) => Action::Open(Span::TextMessage, &e.message_id),
            Event::TextMessageContent(e) => Action::Append(Span::TextMessage, &e.message_id, None),
            Event::TextMessageEnd(e) => Action::Close(Span::TextMessage, &e.message_id),
            Event::ToolCallStart(e) => Action::Open(Span::ToolCall, &e.tool_call_id),
            Event::ToolCallArgs(e) => {
                Action::Append(Span::ToolCall, &e.tool_call_id, Some(&e.delta))
            }
            Event::ToolCallEnd(e) => Action::Close(Span::ToolCall, &e.tool_call_id),
            Event::ToolCallResult(e) => Action::ToolResult(&e.tool_call_id),
            Event::ReasoningStart(e) => Action::Open(Span::Reasoning, &e.message_id),
            Event::ReasoningEnd(e) => Action::Close(Span::Reasoning, &e.message_id),
            Event::ReasoningMessageStart(e) => Action::Open(Span::ReasoningMessage, &e.message_id),
            Event::ReasoningMessageContent(e) => {
                Action::Append(Span::ReasoningMessage, &e.message_id, None)
            }
            Event::ReasoningMessageEnd(e) => Action::Close(Span::ReasoningMessage, &e.message_id),
            Event::StepStarted(e) => Action::Open(Span::Step, &e.step_name),
            Event::StepFinished(e) => Action::Close(Span::Step, &e.step_name),
            Event::RunStarted(_) => Action::RunStarted,
            Event::RunFinished(_) => Action::RunFinished,
            Event::RunError(_) => Action::RunError,
            _ => Action::Other,
        };
        self.apply(event.event_type(), action)
    }

    /// Closes a stream opened by chunks, as the client does before most other events.
    fn close_chunk(&mut self) -> Result<(), Rule> {
        let Some((mode, id)) = self.chunk.take() else {
            return Ok(());
        };
        match mode {
            ChunkMode::Text => self.apply(
                EventType::TextMessageEnd,
                Action::Close(Span::TextMessage, &id),
            ),
            ChunkMode::Tool => {
                self.apply(EventType::ToolCallEnd, Action::Close(Span::ToolCall, &id))
            }
            ChunkMode::Reasoning => self.apply(
                EventType::ReasoningMessageEnd,
                Action::Close(Span::ReasoningMessage, &id),
            ),
        }
    }

    /// Returns the id of the chunk stream to continue or open, closing any other.
    fn chunk_target(
        &mut self,
        mode: ChunkMode,
        id: Option<&String>,
    ) -> Result<Option<String>, Rule> {
        let continues = match (&self.chunk, id) {
            (Some((m, _)), None) => *m == mode,
            (Some((m, open)), Some(id)) => *m == mode && open == id,
            (None, _) => false,
        };
        if continues {
            return Ok(None);
        }
        self.close_chunk()?;
        match id {
            Some(id) => Ok(Some(id.clone())),
            None => Err(Rule::ChunkWithoutId),
        }
    }

    fn text_chunk(&mut self, c: &TextMessageChunk) -> Result<(), Rule> {
        if let Some(id) = self.chunk_target(ChunkMode::Text, c.message_id.as_ref())? {
            self.apply(
                EventType::TextMessageStart,
                Action::Open(Span::TextMessage, &id),
            )?;
            self.chunk = Some((ChunkMode::Text, id));
        }
        if c.delta.is_some() {
            let id = self.chunk_id();
            self.apply(
                EventType::TextMessageContent,
                Action::Append(Span::TextMessage, &id, None),
            )?;
        }
        Ok(())
    }

    fn tool_chunk(&mut self, c: &ToolCallChunk) -> Result<(), Rule> {
        if let Some(id) = self.chunk_target(ChunkMode::Tool, c.tool_call_id.as_ref())? {
            if c.tool_call_name.is_none() {
                return Err(Rule::ChunkWithoutName);
            }
            self.apply(EventType::ToolCallStart, Action::Open(Span::ToolCall, &id))?;
            self.chunk = Some((ChunkMode::Tool, id));
        }
        if let Some(delta) = &c.delta {
            let id = self.chunk_id();
            self.apply(
                EventType::ToolCallArgs,
                Action::Append(Span::ToolCall, &id, Some(delta)),
            )?;
        }
        Ok(())
    }

    fn reasoning_chunk(&mut self, c: &ReasoningMessageChunk) -> Result<(), Rule> {
        if let Some(id) = self.chunk_target(ChunkMode::Reasoning, c.message_id.as_ref())? {
            self.apply(
                EventType::ReasoningMessageStart,
                Action::Open(Span::ReasoningMessage, &id),
            )?;
            self.chunk = Some((ChunkMode::Reasoning, id));
        }
        if c.delta.is_some() {
            let id = self.chunk_id();
            self.apply(
                EventType::ReasoningMessageContent,
                Action::Append(Span::ReasoningMessage, &id, None),
            )?;
        }
        Ok(())
    }

    fn chunk_id(&self) -> String {
        self.chunk
            .as_ref()
            .map(|(_, id)| id.clone())
            .unwrap_or_default()
    }

    fn is_open(&self, span: Span, id: &str) -> bool {
        self.open.iter().any(|(s, i)| *s == span && i == id)
    }

    fn apply(&mut self, ty: EventType, action: Action<'_>) -> Result<(), Rule> {
        if self.run_error {
            return Err(Rule::AfterRunError);
        }
        if self.run_finished && ty != EventType::RunError && ty != EventType::RunStarted {
            return Err(Rule::AfterRunFinished);
        }
        if !self.first_seen {
            self.first_seen = true;
            if ty != EventType::RunStarted && ty != EventType::RunError {
                return Err(Rule::FirstEventNotRunStarted);
            }
        }
        match action {
            Action::RunStarted => {
                if self.run_active && !self.run_finished {
                    return Err(Rule::RunAlreadyActive);
                }
                self.run_active = true;
                self.run_finished = false;
                self.open.clear();
                self.tool_args.clear();
            }
            Action::RunFinished => {
                if let Some((span, id)) = self.open.first() {
                    return Err(Rule::OpenAtRunFinished {
                        span: *span,
                        id: id.clone(),
                    });
                }
                self.run_finished = true;
            }
            Action::RunError => self.run_error = true,
            Action::Open(span, id) => {
                if self.is_open(span, id) {
                    return Err(Rule::AlreadyActive {
                        span,
                        id: id.to_owned(),
                    });
                }
                self.open.push((span, id.to_owned()));
                if span == Span::ToolCall {
                    self.known_tool_calls.insert(id.to_owned());
                    self.tool_args.insert(id.to_owned(), String::new());
                }
            }
            Action::Append(span, id, args) => {
                if !self.is_open(span, id) {
                    return Err(Rule::NotActive {
                        span,
                        id: id.to_owned(),
                    });
                }
                if let (Some(delta), Some(buf)) = (args, self.tool_args.get_mut(id)) {
                    buf.push_str(delta);
                }
            }
            Action::Close(span, id) => {
                let Some(pos) = self.open.iter().position(|(s, i)| *s == span && i == id) else {
                    return Err(Rule::NotActive {
                        span,
                        id: id.to_owned(),
                    });
                };
                if span == Span::ToolCall {
                    let args = self.tool_args.remove(id).unwrap_or_default();
                    if !args.trim().is_empty() {
                        if let Err(e) = serde_json::from_str::<serde_json::Value>(&args) {
                            return Err(Rule::InvalidToolArguments {
                                id: id.to_owned(),
                                error: e.to_string(),
                            });
                        }
                    }
                }
                self.open.remove(pos);
            }
            Action::ToolResult(id) => {
                if !self.known_tool_calls.contains(id) {
                    return Err(Rule::UnknownToolCall { id: id.to_owned() });
                }
            }
            Action::Other => {}
        }
        Ok(())
    }
}
