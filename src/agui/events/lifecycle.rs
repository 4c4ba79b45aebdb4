//! Lifecycle events: runs (`RUN_STARTED`, `RUN_FINISHED` with its outcome, interrupts and token
//! usage, `RUN_ERROR`) and steps (`STEP_STARTED`, `STEP_FINISHED`).

use super::{Meta, Metadata, PROTOCOL_VERSION, RunAgentInput};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use serde_with::skip_serializing_none;

/// `RUN_STARTED` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, RunAgentInput, RunStarted};
/// use serde_json::json;
///
/// let input = RunAgentInput::new("t", "r");
/// let mut started = RunStarted::new("t", "r");
/// started.input = Some(Box::new(input));
/// assert_eq!(
///     serde_json::to_value(Event::from(started)).unwrap(),
///     json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "protocolVersion": "1.0",
///            "input": {"threadId": "t", "runId": "r", "messages": []}})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RunStarted {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The conversation this run belongs to.
    pub thread_id: String,
    /// Identifies this run.
    pub run_id: String,
    /// The run that spawned this one.
    pub parent_run_id: Option<String>,
    /// The request this run was started from.
    pub input: Option<Box<RunAgentInput>>,
    /// The protocol version the producer speaks ([`PROTOCOL_VERSION`]).
    pub protocol_version: Option<String>,
}

impl RunStarted {
    /// Opens run `run_id` of thread `thread_id`, declaring protocol version "1.0".
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, RunStarted};
    /// let json = serde_json::to_string(&Event::from(RunStarted::new("t", "r"))).unwrap();
    /// assert_eq!(json, r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"1.0"}"#);
    /// ```
    pub fn new(thread_id: impl Into<String>, run_id: impl Into<String>) -> Self {
        RunStarted {
            thread_id: thread_id.into(),
            run_id: run_id.into(),
            protocol_version: Some(PROTOCOL_VERSION.to_owned()),
            ..Default::default()
        }
    }
}

/// Why a run ended, tagged by `type`.
///
/// ```
/// use a2ui_stream::agui::events::{Interrupt, RunOutcome};
/// use serde_json::json;
///
/// assert_eq!(serde_json::to_value(RunOutcome::Success).unwrap(), json!({"type": "success"}));
/// let paused = RunOutcome::Interrupt { interrupts: vec![Interrupt::new("i1", "approval")] };
/// assert_eq!(
///     serde_json::to_value(paused).unwrap(),
///     json!({"type": "interrupt", "interrupts": [{"id": "i1", "reason": "approval"}]})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum RunOutcome {
    /// The run completed.
    Success,
    /// The run is paused, waiting for answers to these interrupts.
    Interrupt {
        /// What the run is waiting for (at least one).
        interrupts: Vec<Interrupt>,
    },
}

/// Something a run needs from outside before it can continue.
///
/// ```
/// use a2ui_stream::agui::events::Interrupt;
/// use serde_json::json;
///
/// let mut interrupt = Interrupt::new("i1", "approval");
/// interrupt.message = Some("Book this table?".into());
/// interrupt.tool_call_id = Some("call-1".into());
/// interrupt.expires_at = Some("2030-01-01T00:00:00Z".into());
/// assert_eq!(
///     serde_json::to_value(interrupt).unwrap(),
///     json!({"id": "i1", "reason": "approval", "message": "Book this table?",
///            "toolCallId": "call-1", "expiresAt": "2030-01-01T00:00:00Z"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Interrupt {
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// Identifies the interrupt; a resume entry answers it by this id.
    pub id: String,
    /// Why the run stopped (open string).
    pub reason: String,
    /// A human-readable prompt.
    pub message: Option<String>,
    /// The tool call this interrupt concerns.
    pub tool_call_id: Option<String>,
    /// A JSON Schema for the expected answer.
    pub response_schema: Option<Map<String, Value>>,
    /// When the interrupt stops being answerable (ISO 8601 by convention).
    pub expires_at: Option<String>,
    /// Extra information attached to this interrupt.
    pub metadata: Option<Metadata>,
}

impl Interrupt {
    /// Interrupt `id`, raised because of `reason`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::Interrupt;
    /// use serde_json::json;
    ///
    /// let interrupt = Interrupt::new("i1", "approval");
    /// assert_eq!(interrupt.message, None);
    /// assert_eq!(serde_json::to_value(interrupt).unwrap(), json!({"id": "i1", "reason": "approval"}));
    /// ```
    pub fn new(id: impl Into<String>, reason: impl Into<String>) -> Self {
        Interrupt {
            id: id.into(),
            reason: reason.into(),
            ..Default::default()
        }
    }
}

/// Token counts for one provider and model.
///
/// ```
/// use a2ui_stream::agui::events::TokenUsage;
/// use serde_json::json;
///
/// let mut usage = TokenUsage::default();
/// usage.model = Some("gpt-4o".into());
/// usage.input_tokens = Some(120);
/// usage.output_tokens = Some(30);
/// usage.cached_input_tokens = Some(100);
/// assert_eq!(
///     serde_json::to_value(usage).unwrap(),
///     json!({"model": "gpt-4o", "inputTokens": 120, "outputTokens": 30, "cachedInputTokens": 100})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TokenUsage {
    /// Which provider served the request.
    pub provider: Option<String>,
    /// Which model served the request.
    pub model: Option<String>,
    /// Prompt tokens consumed.
    pub input_tokens: Option<u64>,
    /// Completion tokens produced.
    pub output_tokens: Option<u64>,
    /// Total tokens, as the provider reports it.
    pub total_tokens: Option<u64>,
    /// Tokens spent on reasoning.
    pub reasoning_tokens: Option<u64>,
    /// Prompt tokens served from a provider cache.
    pub cached_input_tokens: Option<u64>,
}

/// `RUN_FINISHED` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, RunFinished, RunOutcome, TokenUsage};
/// use serde_json::json;
///
/// let mut usage = TokenUsage::default();
/// usage.total_tokens = Some(150);
/// let mut finished = RunFinished::new("t", "r");
/// finished.result = Some(json!({"booked": true}));
/// finished.outcome = Some(RunOutcome::Success);
/// finished.usage = Some(vec![usage]);
/// assert_eq!(
///     serde_json::to_value(Event::from(finished)).unwrap(),
///     json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "result": {"booked": true},
///            "outcome": {"type": "success"}, "usage": [{"totalTokens": 150}]})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RunFinished {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The conversation this run belongs to.
    pub thread_id: String,
    /// The run being closed.
    pub run_id: String,
    /// The run's return value (any JSON value).
    pub result: Option<Value>,
    /// Why the run ended; absent means success.
    pub outcome: Option<RunOutcome>,
    /// Token usage, one entry per provider and model.
    pub usage: Option<Vec<TokenUsage>>,
}

impl RunFinished {
    /// Closes run `run_id` of thread `thread_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, RunFinished};
    /// use serde_json::json;
    ///
    /// let finished = RunFinished::new("t", "r");
    /// assert_eq!(finished.outcome, None); // absent, which means success
    /// assert_eq!(
    ///     serde_json::to_value(Event::from(finished)).unwrap(),
    ///     json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"})
    /// );
    /// ```
    pub fn new(thread_id: impl Into<String>, run_id: impl Into<String>) -> Self {
        RunFinished {
            thread_id: thread_id.into(),
            run_id: run_id.into(),
            ..Default::default()
        }
    }
}

/// `RUN_ERROR` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, RunError};
/// use serde_json::json;
///
/// let mut error = RunError::new("Too many requests");
/// error.code = Some("rate_limited".into());
/// assert_eq!(
///     serde_json::to_value(Event::from(error)).unwrap(),
///     json!({"type": "RUN_ERROR", "message": "Too many requests", "code": "rate_limited"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RunError {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// What went wrong, for a person to read.
    pub message: String,
    /// A machine-readable error code (open string).
    pub code: Option<String>,
    /// Token usage accrued before the failure.
    pub usage: Option<Vec<TokenUsage>>,
}

impl RunError {
    /// A failure described by `message`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, EventType, RunError};
    /// use serde_json::json;
    ///
    /// let ev = Event::from(RunError::new("The model is unavailable"));
    /// assert_eq!(ev.event_type(), EventType::RunError);
    /// assert_eq!(
    ///     serde_json::to_value(&ev).unwrap(),
    ///     json!({"type": "RUN_ERROR", "message": "The model is unavailable"})
    /// );
    /// ```
    pub fn new(message: impl Into<String>) -> Self {
        RunError {
            message: message.into(),
            ..Default::default()
        }
    }
}

/// `STEP_STARTED` fields.
///
/// ```
/// use a2ui_stream::agui::events::Event;
///
/// let ev: Event = serde_json::from_str(
///     r#"{"type":"STEP_STARTED","stepName":"plan","subagentRunId":"sub-1"}"#,
/// ).unwrap();
/// let Event::StepStarted(step) = ev else { unreachable!() };
/// assert_eq!(step.step_name, "plan");
/// assert_eq!(step.subagent_run_id.as_deref(), Some("sub-1"));
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct StepStarted {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The step's name; the matching `STEP_FINISHED` carries the same name.
    pub step_name: String,
}

impl StepStarted {
    /// Opens step `step_name`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, StepStarted};
    /// use serde_json::json;
    ///
    /// let ev = Event::from(StepStarted::new("plan"));
    /// assert_eq!(
    ///     serde_json::to_value(&ev).unwrap(),
    ///     json!({"type": "STEP_STARTED", "stepName": "plan"})
    /// );
    /// ```
    pub fn new(step_name: impl Into<String>) -> Self {
        StepStarted {
            step_name: step_name.into(),
            ..Default::default()
        }
    }
}

/// `STEP_FINISHED` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, StepFinished};
///
/// let ev: Event = serde_json::from_str(r#"{"type":"STEP_FINISHED","stepName":"plan"}"#).unwrap();
/// assert_eq!(ev, Event::StepFinished(StepFinished::new("plan")));
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct StepFinished {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The step being closed.
    pub step_name: String,
}

impl StepFinished {
    /// Closes step `step_name`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, StepFinished};
    /// use serde_json::json;
    ///
    /// let ev = Event::from(StepFinished::new("plan"));
    /// assert_eq!(
    ///     serde_json::to_value(&ev).unwrap(),
    ///     json!({"type": "STEP_FINISHED", "stepName": "plan"})
    /// );
    /// ```
    pub fn new(step_name: impl Into<String>) -> Self {
        StepFinished {
            step_name: step_name.into(),
            ..Default::default()
        }
    }
}
