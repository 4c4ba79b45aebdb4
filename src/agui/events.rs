//! The AG-UI 1.0 event catalogue, request body, messages and tools, as serde types.
//!
//! Field names are camelCase on the wire, the `type` tag is SCREAMING_SNAKE_CASE, and an
//! optional field that is `None` is left out rather than written as `null`:
//!
//! ```
//! use a2ui_stream::agui::{Event, TextMessageStart};
//!
//! let ev = Event::from(TextMessageStart::new("m1"));
//! assert_eq!(
//!     serde_json::to_string(&ev).unwrap(),
//!     r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#
//! );
//! let back: Event = serde_json::from_str(r#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#).unwrap();
//! assert_eq!(back.event_type().as_str(), "TEXT_MESSAGE_END");
//! ```

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

/// The protocol version this crate speaks, sent in `RUN_STARTED.protocolVersion`.
///
/// ```
/// use a2ui_stream::agui::{RunStarted, PROTOCOL_VERSION};
///
/// assert_eq!(PROTOCOL_VERSION, "1.0");
/// let started = RunStarted::new("thread-1", "run-1");
/// assert_eq!(started.protocol_version.as_deref(), Some(PROTOCOL_VERSION));
/// ```
pub const PROTOCOL_VERSION: &str = "1.0";

/// Extra information attached to an event, message, tool call, tool or interrupt (open by key).
///
/// ```
/// use a2ui_stream::agui::{Event, Metadata, TextMessageEnd};
/// use serde_json::json;
///
/// let mut metadata = Metadata::new();
/// metadata.insert("traceId".into(), json!("abc123"));
/// let mut end = TextMessageEnd::new("m1");
/// end.meta.metadata = Some(metadata);
/// assert_eq!(
///     serde_json::to_value(Event::from(end)).unwrap(),
///     json!({"type": "TEXT_MESSAGE_END", "messageId": "m1", "metadata": {"traceId": "abc123"}})
/// );
/// ```
pub type Metadata = Map<String, Value>;

/// Fields every event may carry.
///
/// ```
/// use a2ui_stream::agui::{Event, Meta, TextMessageEnd};
/// use serde_json::json;
///
/// // The common fields sit beside the event's own fields, not in a nested object.
/// let meta = Meta { timestamp: Some(1_700_000_000_000), raw_event: Some(json!({"id": 7})), metadata: None };
/// let end = TextMessageEnd { meta, ..TextMessageEnd::new("m1") };
/// assert_eq!(
///     serde_json::to_value(Event::from(end)).unwrap(),
///     json!({"type": "TEXT_MESSAGE_END", "messageId": "m1",
///            "timestamp": 1_700_000_000_000_i64, "rawEvent": {"id": 7}})
/// );
/// // An empty `Meta` adds nothing to the wire.
/// assert_eq!(serde_json::to_value(Meta::default()).unwrap(), json!({}));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    /// When the event was created (milliseconds since the Unix epoch by convention).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
    /// The provider-native event this one was translated from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_event: Option<Value>,
    /// Extra information attached to the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

macro_rules! events {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal ),* $(,)?) => {
        /// The discriminator carried by every event in its `type` field.
        ///
        /// ```
        /// use a2ui_stream::agui::EventType;
        ///
        /// let ty: EventType = serde_json::from_str(r#""TOOL_CALL_START""#).unwrap();
        /// assert_eq!(ty, EventType::ToolCallStart);
        /// assert_eq!(serde_json::to_string(&EventType::RunFinished).unwrap(), r#""RUN_FINISHED""#);
        /// assert_eq!(EventType::StateDelta.to_string(), "STATE_DELTA");
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum EventType {
            $( $(#[$doc])* #[serde(rename = $name)] $variant, )*
        }

        impl EventType {
            /// The wire name, e.g. `"TEXT_MESSAGE_START"`.
            ///
            /// ```
            /// use a2ui_stream::agui::EventType;
            /// assert_eq!(EventType::ToolCallResult.as_str(), "TOOL_CALL_RESULT");
            /// ```
            pub fn as_str(self) -> &'static str {
                match self { $( EventType::$variant => $name, )* }
            }
        }

        /// Any AG-UI event, tagged by `type`.
        ///
        /// ```
        /// use a2ui_stream::agui::{Event, StepStarted};
        ///
        /// let ev: Event = serde_json::from_str(r#"{"type":"STEP_STARTED","stepName":"search"}"#).unwrap();
        /// assert_eq!(ev, Event::StepStarted(StepStarted::new("search")));
        /// assert_eq!(
        ///     serde_json::to_string(&ev).unwrap(),
        ///     r#"{"type":"STEP_STARTED","stepName":"search"}"#
        /// );
        /// // An unknown `type` is an error, not a catch-all variant.
        /// assert!(serde_json::from_str::<Event>(r#"{"type":"NOT_AN_EVENT"}"#).is_err());
        /// ```
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "type")]
        pub enum Event {
            $( $(#[$doc])* #[serde(rename = $name)] $variant($variant), )*
        }

        impl Event {
            /// Which event this is.
            ///
            /// ```
            /// use a2ui_stream::agui::{Event, EventType, ToolCallEnd};
            ///
            /// let ev = Event::from(ToolCallEnd::new("call-1"));
            /// assert_eq!(ev.event_type(), EventType::ToolCallEnd);
            /// assert_eq!(ev.event_type().as_str(), "TOOL_CALL_END");
            /// ```
            pub fn event_type(&self) -> EventType {
                match self { $( Event::$variant(_) => EventType::$variant, )* }
            }

            /// The fields every event may carry.
            ///
            /// ```
            /// use a2ui_stream::agui::Event;
            ///
            /// let ev: Event = serde_json::from_str(
            ///     r#"{"type":"TEXT_MESSAGE_END","messageId":"m1","timestamp":1700000000000}"#,
            /// ).unwrap();
            /// assert_eq!(ev.meta().timestamp, Some(1_700_000_000_000));
            /// assert_eq!(ev.meta().metadata, None);
            /// ```
            pub fn meta(&self) -> &Meta {
                match self { $( Event::$variant(e) => &e.meta, )* }
            }

            /// The fields every event may carry, for editing (e.g. to set a timestamp).
            ///
            /// ```
            /// use a2ui_stream::agui::{Event, StepFinished};
            /// use serde_json::json;
            ///
            /// let mut ev = Event::from(StepFinished::new("search"));
            /// ev.meta_mut().timestamp = Some(1_700_000_000_000);
            /// assert_eq!(
            ///     serde_json::to_value(&ev).unwrap(),
            ///     json!({"type": "STEP_FINISHED", "stepName": "search", "timestamp": 1_700_000_000_000_i64})
            /// );
            /// ```
            pub fn meta_mut(&mut self) -> &mut Meta {
                match self { $( Event::$variant(e) => &mut e.meta, )* }
            }
        }

        $(
            impl From<$variant> for Event {
                fn from(e: $variant) -> Event { Event::$variant(e) }
            }
        )*
    };
}

events! {
    /// `TEXT_MESSAGE_START`: opens a streamed text message.
    TextMessageStart => "TEXT_MESSAGE_START",
    /// `TEXT_MESSAGE_CONTENT`: appends a fragment to a text message.
    TextMessageContent => "TEXT_MESSAGE_CONTENT",
    /// `TEXT_MESSAGE_END`: closes a text message.
    TextMessageEnd => "TEXT_MESSAGE_END",
    /// `TEXT_MESSAGE_CHUNK`: shorthand for start/content/end.
    TextMessageChunk => "TEXT_MESSAGE_CHUNK",
    /// `TOOL_CALL_START`: opens a tool call.
    ToolCallStart => "TOOL_CALL_START",
    /// `TOOL_CALL_ARGS`: appends a fragment of a tool call's arguments.
    ToolCallArgs => "TOOL_CALL_ARGS",
    /// `TOOL_CALL_END`: closes a tool call (its arguments are complete).
    ToolCallEnd => "TOOL_CALL_END",
    /// `TOOL_CALL_CHUNK`: shorthand for a tool call's start/args/end.
    ToolCallChunk => "TOOL_CALL_CHUNK",
    /// `TOOL_CALL_RESULT`: what a tool returned.
    ToolCallResult => "TOOL_CALL_RESULT",
    /// `STATE_SNAPSHOT`: replaces the agent state.
    StateSnapshot => "STATE_SNAPSHOT",
    /// `STATE_DELTA`: changes the agent state with an RFC 6902 patch.
    StateDelta => "STATE_DELTA",
    /// `MESSAGES_SNAPSHOT`: the complete message list.
    MessagesSnapshot => "MESSAGES_SNAPSHOT",
    /// `ACTIVITY_SNAPSHOT`: structured progress that is not conversation text.
    ActivitySnapshot => "ACTIVITY_SNAPSHOT",
    /// `ACTIVITY_DELTA`: changes an activity's content with an RFC 6902 patch.
    ActivityDelta => "ACTIVITY_DELTA",
    /// `RAW`: a provider-native event passed through.
    Raw => "RAW",
    /// `CUSTOM`: an application's own event.
    Custom => "CUSTOM",
    /// `RUN_STARTED`: opens a run.
    RunStarted => "RUN_STARTED",
    /// `RUN_FINISHED`: closes a run that did not fail.
    RunFinished => "RUN_FINISHED",
    /// `RUN_ERROR`: ends a run that failed.
    RunError => "RUN_ERROR",
    /// `STEP_STARTED`: opens a named step.
    StepStarted => "STEP_STARTED",
    /// `STEP_FINISHED`: closes a named step.
    StepFinished => "STEP_FINISHED",
    /// `REASONING_START`: opens a span of reasoning.
    ReasoningStart => "REASONING_START",
    /// `REASONING_MESSAGE_START`: opens a streamed reasoning message.
    ReasoningMessageStart => "REASONING_MESSAGE_START",
    /// `REASONING_MESSAGE_CONTENT`: appends a fragment to a reasoning message.
    ReasoningMessageContent => "REASONING_MESSAGE_CONTENT",
    /// `REASONING_MESSAGE_END`: closes a reasoning message.
    ReasoningMessageEnd => "REASONING_MESSAGE_END",
    /// `REASONING_MESSAGE_CHUNK`: shorthand for a reasoning message's start/content/end.
    ReasoningMessageChunk => "REASONING_MESSAGE_CHUNK",
    /// `REASONING_END`: closes a span of reasoning.
    ReasoningEnd => "REASONING_END",
    /// `REASONING_ENCRYPTED_VALUE`: a provider's opaque reasoning artefact.
    ReasoningEncryptedValue => "REASONING_ENCRYPTED_VALUE",
    /// `SUBAGENT_STARTED`: a subagent invocation began.
    SubagentStarted => "SUBAGENT_STARTED",
    /// `SUBAGENT_FINISHED`: a subagent invocation's segment ended.
    SubagentFinished => "SUBAGENT_FINISHED",
    /// `SUBAGENT_ERROR`: a subagent invocation failed (the run may continue).
    SubagentError => "SUBAGENT_ERROR",
}

impl fmt::Display for EventType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The roles a streamed text message may take.
///
/// ```
/// use a2ui_stream::agui::TextMessageRole;
///
/// assert_eq!(TextMessageRole::default(), TextMessageRole::Assistant);
/// assert_eq!(serde_json::to_string(&TextMessageRole::Developer).unwrap(), r#""developer""#);
/// let role: TextMessageRole = serde_json::from_str(r#""user""#).unwrap();
/// assert_eq!(role, TextMessageRole::User);
/// // `"tool"` and `"reasoning"` are not text message roles.
/// assert!(serde_json::from_str::<TextMessageRole>(r#""tool""#).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TextMessageRole {
    /// Instructions from the application developer.
    Developer,
    /// Instructions from the system.
    System,
    /// The agent (the default when absent).
    #[default]
    Assistant,
    /// The person using the application.
    User,
}

/// The fixed role `"reasoning"`.
///
/// ```
/// use a2ui_stream::agui::ReasoningRole;
///
/// assert_eq!(serde_json::to_string(&ReasoningRole::Reasoning).unwrap(), r#""reasoning""#);
/// assert!(serde_json::from_str::<ReasoningRole>(r#""assistant""#).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReasoningRole {
    /// `"reasoning"`.
    #[default]
    Reasoning,
}

/// The fixed role `"tool"`.
///
/// ```
/// use a2ui_stream::agui::ToolRole;
///
/// assert_eq!(serde_json::to_string(&ToolRole::Tool).unwrap(), r#""tool""#);
/// assert!(serde_json::from_str::<ToolRole>(r#""user""#).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolRole {
    /// `"tool"`.
    #[default]
    Tool,
}

/// `TEXT_MESSAGE_START` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, TextMessageRole, TextMessageStart};
/// use serde_json::json;
///
/// let start = TextMessageStart {
///     role: Some(TextMessageRole::User),
///     name: Some("Ada".into()),
///     ..TextMessageStart::new("m1")
/// };
/// assert_eq!(
///     serde_json::to_value(Event::from(start)).unwrap(),
///     json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "user", "name": "Ada"})
/// );
/// // When reading, a missing role stays `None` (which the protocol reads as assistant).
/// let ev: Event = serde_json::from_str(r#"{"type":"TEXT_MESSAGE_START","messageId":"m2"}"#).unwrap();
/// let Event::TextMessageStart(start) = ev else { unreachable!() };
/// assert_eq!(start.role, None);
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessageStart {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// Identifies the message; content and end events carry the same id.
    pub message_id: String,
    /// Who the message is from; absent means assistant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<TextMessageRole>,
    /// Display name for the author.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl TextMessageStart {
    /// An assistant message with this id.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, TextMessageRole, TextMessageStart};
    /// use serde_json::json;
    ///
    /// let start = TextMessageStart::new("m1");
    /// assert_eq!(start.role, Some(TextMessageRole::Assistant));
    /// // The role is written out even though it is the default.
    /// assert_eq!(
    ///     serde_json::to_value(Event::from(start)).unwrap(),
    ///     json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"})
    /// );
    /// ```
    pub fn new(message_id: impl Into<String>) -> Self {
        TextMessageStart {
            message_id: message_id.into(),
            role: Some(TextMessageRole::Assistant),
            ..Default::default()
        }
    }
}

/// `TEXT_MESSAGE_CONTENT` fields.
///
/// ```
/// use a2ui_stream::agui::Event;
/// use serde_json::json;
///
/// let ev: Event = serde_json::from_value(json!({
///     "type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hel", "subagentRunId": "sub-1"
/// })).unwrap();
/// let Event::TextMessageContent(content) = ev else { unreachable!() };
/// assert_eq!(content.message_id, "m1");
/// assert_eq!(content.delta, "Hel");
/// assert_eq!(content.subagent_run_id.as_deref(), Some("sub-1"));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessageContent {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The message this fragment belongs to.
    pub message_id: String,
    /// The fragment to append.
    pub delta: String,
}

impl TextMessageContent {
    /// A fragment of message `message_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, TextMessageContent};
    /// use serde_json::json;
    ///
    /// let ev = Event::from(TextMessageContent::new("m1", "Hello"));
    /// assert_eq!(
    ///     serde_json::to_value(&ev).unwrap(),
    ///     json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hello"})
    /// );
    /// ```
    pub fn new(message_id: impl Into<String>, delta: impl Into<String>) -> Self {
        TextMessageContent {
            message_id: message_id.into(),
            delta: delta.into(),
            ..Default::default()
        }
    }
}

/// `TEXT_MESSAGE_END` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, TextMessageEnd};
/// use serde_json::json;
///
/// let end = TextMessageEnd { subagent_run_id: Some("sub-1".into()), ..TextMessageEnd::new("m1") };
/// assert_eq!(
///     serde_json::to_value(Event::from(end)).unwrap(),
///     json!({"type": "TEXT_MESSAGE_END", "subagentRunId": "sub-1", "messageId": "m1"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessageEnd {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The message being closed.
    pub message_id: String,
}

impl TextMessageEnd {
    /// Closes message `message_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, TextMessageEnd};
    /// use serde_json::json;
    ///
    /// let end = TextMessageEnd::new("m1");
    /// assert_eq!(end.message_id, "m1");
    /// assert_eq!(
    ///     serde_json::to_value(Event::from(end)).unwrap(),
    ///     json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"})
    /// );
    /// ```
    pub fn new(message_id: impl Into<String>) -> Self {
        TextMessageEnd {
            message_id: message_id.into(),
            ..Default::default()
        }
    }
}

/// `TEXT_MESSAGE_CHUNK` fields (every field optional: a continuation omits what is unchanged).
///
/// ```
/// use a2ui_stream::agui::{Event, TextMessageChunk, TextMessageRole};
/// use serde_json::json;
///
/// // The first chunk names the message; a continuation carries only the new text.
/// let first = TextMessageChunk {
///     message_id: Some("m1".into()),
///     role: Some(TextMessageRole::Assistant),
///     delta: Some("Hel".into()),
///     ..Default::default()
/// };
/// let next = TextMessageChunk { delta: Some("lo".into()), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(Event::from(first)).unwrap(),
///     json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "role": "assistant", "delta": "Hel"})
/// );
/// assert_eq!(
///     serde_json::to_value(Event::from(next)).unwrap(),
///     json!({"type": "TEXT_MESSAGE_CHUNK", "delta": "lo"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessageChunk {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The message this chunk belongs to; absent continues the open one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// Who the message is from, on the chunk that opens it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<TextMessageRole>,
    /// The fragment to append.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<String>,
    /// Display name for the author.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `TOOL_CALL_START` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, ToolCallStart};
/// use serde_json::json;
///
/// let start = ToolCallStart {
///     parent_message_id: Some("m1".into()),
///     ..ToolCallStart::new("call-1", "search")
/// };
/// assert_eq!(
///     serde_json::to_value(Event::from(start)).unwrap(),
///     json!({"type": "TOOL_CALL_START", "toolCallId": "call-1", "toolCallName": "search",
///            "parentMessageId": "m1"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallStart {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// Identifies the call; args, end and result events carry the same id.
    pub tool_call_id: String,
    /// Which tool is being called.
    pub tool_call_name: String,
    /// The assistant message that holds this call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_message_id: Option<String>,
}

impl ToolCallStart {
    /// Opens call `tool_call_id` of tool `name`.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, ToolCallStart};
    /// use serde_json::json;
    ///
    /// let start = ToolCallStart::new("call-1", "search");
    /// assert_eq!(start.tool_call_name, "search");
    /// assert_eq!(start.parent_message_id, None);
    /// assert_eq!(
    ///     serde_json::to_value(Event::from(start)).unwrap(),
    ///     json!({"type": "TOOL_CALL_START", "toolCallId": "call-1", "toolCallName": "search"})
    /// );
    /// ```
    pub fn new(tool_call_id: impl Into<String>, name: impl Into<String>) -> Self {
        ToolCallStart {
            tool_call_id: tool_call_id.into(),
            tool_call_name: name.into(),
            ..Default::default()
        }
    }
}

/// `TOOL_CALL_ARGS` fields.
///
/// ```
/// use a2ui_stream::agui::ToolCallArgs;
///
/// // The deltas of one call concatenate into the arguments' JSON document.
/// let fragments = [
///     ToolCallArgs::new("call-1", r#"{"query":"#),
///     ToolCallArgs::new("call-1", r#""pizza"}"#),
/// ];
/// let args: String = fragments.iter().map(|f| f.delta.as_str()).collect();
/// let args: serde_json::Value = serde_json::from_str(&args).unwrap();
/// assert_eq!(args["query"], "pizza");
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallArgs {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The call these arguments belong to.
    pub tool_call_id: String,
    /// A fragment of the arguments; the fragments concatenate into a JSON document.
    pub delta: String,
}

impl ToolCallArgs {
    /// A fragment of the arguments of `tool_call_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, ToolCallArgs};
    /// use serde_json::json;
    ///
    /// let ev = Event::from(ToolCallArgs::new("call-1", r#"{"q":"#));
    /// assert_eq!(
    ///     serde_json::to_value(&ev).unwrap(),
    ///     json!({"type": "TOOL_CALL_ARGS", "toolCallId": "call-1", "delta": "{\"q\":"})
    /// );
    /// ```
    pub fn new(tool_call_id: impl Into<String>, delta: impl Into<String>) -> Self {
        ToolCallArgs {
            tool_call_id: tool_call_id.into(),
            delta: delta.into(),
            ..Default::default()
        }
    }
}

/// `TOOL_CALL_END` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, ToolCallEnd};
///
/// let ev: Event = serde_json::from_str(r#"{"type":"TOOL_CALL_END","toolCallId":"call-1"}"#).unwrap();
/// assert_eq!(ev, Event::ToolCallEnd(ToolCallEnd::new("call-1")));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallEnd {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The call being closed.
    pub tool_call_id: String,
}

impl ToolCallEnd {
    /// Closes call `tool_call_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, ToolCallEnd};
    /// use serde_json::json;
    ///
    /// let ev = Event::from(ToolCallEnd::new("call-1"));
    /// assert_eq!(
    ///     serde_json::to_value(&ev).unwrap(),
    ///     json!({"type": "TOOL_CALL_END", "toolCallId": "call-1"})
    /// );
    /// ```
    pub fn new(tool_call_id: impl Into<String>) -> Self {
        ToolCallEnd {
            tool_call_id: tool_call_id.into(),
            ..Default::default()
        }
    }
}

/// `TOOL_CALL_CHUNK` fields (every field optional, as for [`TextMessageChunk`]).
///
/// ```
/// use a2ui_stream::agui::{Event, ToolCallChunk};
/// use serde_json::json;
///
/// let first = ToolCallChunk {
///     tool_call_id: Some("call-1".into()),
///     tool_call_name: Some("search".into()),
///     delta: Some(r#"{"q":"#.into()),
///     ..Default::default()
/// };
/// let next = ToolCallChunk { delta: Some(r#""pizza"}"#.into()), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(Event::from(first)).unwrap(),
///     json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "call-1", "toolCallName": "search",
///            "delta": "{\"q\":"})
/// );
/// assert_eq!(
///     serde_json::to_value(Event::from(next)).unwrap(),
///     json!({"type": "TOOL_CALL_CHUNK", "delta": "\"pizza\"}"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallChunk {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The call this chunk belongs to; absent continues the open one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// Which tool is being called, on the chunk that opens it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_name: Option<String>,
    /// The assistant message that holds this call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_message_id: Option<String>,
    /// A fragment of the arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<String>,
}

/// `TOOL_CALL_RESULT` fields.
///
/// ```
/// use a2ui_stream::agui::Event;
///
/// let ev: Event = serde_json::from_str(
///     r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"call-1","content":"3 results"}"#,
/// ).unwrap();
/// let Event::ToolCallResult(result) = ev else { unreachable!() };
/// assert_eq!(result.tool_call_id, "call-1");
/// assert_eq!(result.content, "3 results");
/// assert_eq!(result.role, None); // optional on the wire
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallResult {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The tool message this result becomes.
    pub message_id: String,
    /// The call being answered.
    pub tool_call_id: String,
    /// What the tool returned, as a string.
    pub content: String,
    /// Always `"tool"` when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<ToolRole>,
}

impl ToolCallResult {
    /// The result of `tool_call_id`, becoming tool message `message_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, ToolCallResult};
    /// use serde_json::json;
    ///
    /// let ev = Event::from(ToolCallResult::new("t1", "call-1", "3 results"));
    /// assert_eq!(
    ///     serde_json::to_value(&ev).unwrap(),
    ///     json!({"type": "TOOL_CALL_RESULT", "messageId": "t1", "toolCallId": "call-1",
    ///            "content": "3 results", "role": "tool"})
    /// );
    /// ```
    pub fn new(
        message_id: impl Into<String>,
        tool_call_id: impl Into<String>,
        content: impl Into<String>,
    ) -> Self {
        ToolCallResult {
            message_id: message_id.into(),
            tool_call_id: tool_call_id.into(),
            content: content.into(),
            role: Some(ToolRole::Tool),
            ..Default::default()
        }
    }
}

/// `STATE_SNAPSHOT` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, StateSnapshot};
/// use serde_json::json;
///
/// let snap = StateSnapshot { snapshot: json!({"cart": [], "step": 1}), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(Event::from(snap)).unwrap(),
///     json!({"type": "STATE_SNAPSHOT", "snapshot": {"cart": [], "step": 1}})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StateSnapshot {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The complete new state (any JSON value).
    pub snapshot: Value,
}

/// One RFC 6902 JSON Patch operation, tagged by `op`.
///
/// ```
/// use a2ui_stream::agui::PatchOp;
/// let op = PatchOp::Add { path: "/items/-".into(), value: serde_json::json!(1) };
/// assert_eq!(serde_json::to_string(&op).unwrap(), r#"{"op":"add","path":"/items/-","value":1}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum PatchOp {
    /// Inserts `value` at `path`.
    Add {
        /// Where to insert (a JSON Pointer).
        path: String,
        /// The value to insert.
        value: Value,
    },
    /// Removes the value at `path`.
    Remove {
        /// What to remove.
        path: String,
    },
    /// Replaces the value at `path`.
    Replace {
        /// What to replace.
        path: String,
        /// The replacement.
        value: Value,
    },
    /// Moves the value at `from` to `path`.
    Move {
        /// Where the value is moved from.
        from: String,
        /// Where the value is moved to.
        path: String,
    },
    /// Copies the value at `from` to `path`.
    Copy {
        /// Where the value is copied from.
        from: String,
        /// Where the value is copied to.
        path: String,
    },
    /// Asserts that the value at `path` equals `value`.
    Test {
        /// What to compare.
        path: String,
        /// The value the target must equal.
        value: Value,
    },
}

/// `STATE_DELTA` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, PatchOp, StateDelta};
/// use serde_json::json;
///
/// let delta = StateDelta {
///     delta: vec![
///         PatchOp::Add { path: "/cart/-".into(), value: json!("pizza") },
///         PatchOp::Remove { path: "/draft".into() },
///     ],
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(Event::from(delta)).unwrap(),
///     json!({"type": "STATE_DELTA", "delta": [
///         {"op": "add", "path": "/cart/-", "value": "pizza"},
///         {"op": "remove", "path": "/draft"},
///     ]})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StateDelta {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The change, as an RFC 6902 patch against the current state.
    pub delta: Vec<PatchOp>,
}

/// `MESSAGES_SNAPSHOT` fields.
///
/// ```
/// use a2ui_stream::agui::{ChatMessage, Event};
/// use serde_json::json;
///
/// let ev: Event = serde_json::from_value(json!({"type": "MESSAGES_SNAPSHOT", "messages": [
///     {"id": "1", "role": "user", "content": "Find food"},
///     {"id": "2", "role": "assistant", "content": "Here are three places."},
/// ]})).unwrap();
/// let Event::MessagesSnapshot(snap) = ev else { unreachable!() };
/// assert_eq!(snap.messages.len(), 2);
/// assert!(matches!(&snap.messages[1], ChatMessage::Assistant(m) if m.id == "2"));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessagesSnapshot {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The messages, in order.
    pub messages: Vec<ChatMessage>,
}

/// `ACTIVITY_SNAPSHOT` fields.
///
/// ```
/// use a2ui_stream::agui::{ActivitySnapshot, Event};
/// use serde_json::json;
///
/// let mut content = serde_json::Map::new();
/// content.insert("progress".into(), json!(0.5));
/// let snap = ActivitySnapshot {
///     message_id: "a1".into(),
///     activity_type: "search".into(),
///     content,
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(Event::from(snap)).unwrap(),
///     json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a1", "activityType": "search",
///            "content": {"progress": 0.5}})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivitySnapshot {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The activity message this describes.
    pub message_id: String,
    /// What kind of activity this is (open string).
    pub activity_type: String,
    /// The activity's payload (open by key).
    pub content: Map<String, Value>,
    /// Whether this snapshot overwrites existing content; absent means it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replace: Option<bool>,
}

/// `ACTIVITY_DELTA` fields.
///
/// ```
/// use a2ui_stream::agui::{ActivityDelta, Event, PatchOp};
/// use serde_json::json;
///
/// let delta = ActivityDelta {
///     message_id: "a1".into(),
///     activity_type: "search".into(),
///     patch: vec![PatchOp::Replace { path: "/progress".into(), value: json!(1.0) }],
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(Event::from(delta)).unwrap(),
///     json!({"type": "ACTIVITY_DELTA", "messageId": "a1", "activityType": "search",
///            "patch": [{"op": "replace", "path": "/progress", "value": 1.0}]})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityDelta {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The activity message being changed.
    pub message_id: String,
    /// What kind of activity this is.
    pub activity_type: String,
    /// The change, as an RFC 6902 patch against the activity's content.
    pub patch: Vec<PatchOp>,
}

/// `RAW` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, Raw};
/// use serde_json::json;
///
/// let raw = Raw {
///     event: json!({"object": "chat.completion.chunk"}),
///     source: Some("openai".into()),
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(Event::from(raw)).unwrap(),
///     json!({"type": "RAW", "event": {"object": "chat.completion.chunk"}, "source": "openai"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Raw {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The provider's own event (any JSON value).
    pub event: Value,
    /// Which provider or framework the event came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// `CUSTOM` fields.
///
/// ```
/// use a2ui_stream::agui::{Custom, Event};
/// use serde_json::json;
///
/// let custom = Custom { name: "confetti".into(), value: json!({"colour": "gold"}), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(Event::from(custom)).unwrap(),
///     json!({"type": "CUSTOM", "name": "confetti", "value": {"colour": "gold"}})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Custom {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// What this custom event is.
    pub name: String,
    /// The payload (any JSON value).
    pub value: Value,
}

/// `RUN_STARTED` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, RunAgentInput, RunStarted};
/// use serde_json::json;
///
/// let input = RunAgentInput { thread_id: "t".into(), run_id: "r".into(), ..Default::default() };
/// let started = RunStarted { input: Some(Box::new(input)), ..RunStarted::new("t", "r") };
/// assert_eq!(
///     serde_json::to_value(Event::from(started)).unwrap(),
///     json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "protocolVersion": "1.0",
///            "input": {"threadId": "t", "runId": "r", "messages": []}})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunStarted {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The conversation this run belongs to.
    pub thread_id: String,
    /// Identifies this run.
    pub run_id: String,
    /// The run that spawned this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_run_id: Option<String>,
    /// The request this run was started from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Box<RunAgentInput>>,
    /// The protocol version the producer speaks ([`PROTOCOL_VERSION`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
}

impl RunStarted {
    /// Opens run `run_id` of thread `thread_id`, declaring protocol version "1.0".
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunStarted};
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
/// use a2ui_stream::agui::{Interrupt, RunOutcome};
/// use serde_json::json;
///
/// assert_eq!(serde_json::to_value(RunOutcome::Success).unwrap(), json!({"type": "success"}));
/// let paused = RunOutcome::Interrupt {
///     interrupts: vec![Interrupt { id: "i1".into(), reason: "approval".into(), ..Default::default() }],
/// };
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
/// use a2ui_stream::agui::Interrupt;
/// use serde_json::json;
///
/// let interrupt = Interrupt {
///     id: "i1".into(),
///     reason: "approval".into(),
///     message: Some("Book this table?".into()),
///     tool_call_id: Some("call-1".into()),
///     expires_at: Some("2030-01-01T00:00:00Z".into()),
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(interrupt).unwrap(),
///     json!({"id": "i1", "reason": "approval", "message": "Book this table?",
///            "toolCallId": "call-1", "expiresAt": "2030-01-01T00:00:00Z"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Interrupt {
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// Identifies the interrupt; a resume entry answers it by this id.
    pub id: String,
    /// Why the run stopped (open string).
    pub reason: String,
    /// A human-readable prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The tool call this interrupt concerns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// A JSON Schema for the expected answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_schema: Option<Map<String, Value>>,
    /// When the interrupt stops being answerable (ISO 8601 by convention).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// Extra information attached to this interrupt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// Token counts for one provider and model.
///
/// ```
/// use a2ui_stream::agui::TokenUsage;
/// use serde_json::json;
///
/// let usage = TokenUsage {
///     model: Some("gpt-4o".into()),
///     input_tokens: Some(120),
///     output_tokens: Some(30),
///     cached_input_tokens: Some(100),
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(usage).unwrap(),
///     json!({"model": "gpt-4o", "inputTokens": 120, "outputTokens": 30, "cachedInputTokens": 100})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenUsage {
    /// Which provider served the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Which model served the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Prompt tokens consumed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Completion tokens produced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// Total tokens, as the provider reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u64>,
    /// Tokens spent on reasoning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u64>,
    /// Prompt tokens served from a provider cache.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_input_tokens: Option<u64>,
}

/// `RUN_FINISHED` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, RunFinished, RunOutcome, TokenUsage};
/// use serde_json::json;
///
/// let finished = RunFinished {
///     result: Some(json!({"booked": true})),
///     outcome: Some(RunOutcome::Success),
///     usage: Some(vec![TokenUsage { total_tokens: Some(150), ..Default::default() }]),
///     ..RunFinished::new("t", "r")
/// };
/// assert_eq!(
///     serde_json::to_value(Event::from(finished)).unwrap(),
///     json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "result": {"booked": true},
///            "outcome": {"type": "success"}, "usage": [{"totalTokens": 150}]})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunFinished {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The conversation this run belongs to.
    pub thread_id: String,
    /// The run being closed.
    pub run_id: String,
    /// The run's return value (any JSON value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// Why the run ended; absent means success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<RunOutcome>,
    /// Token usage, one entry per provider and model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Vec<TokenUsage>>,
}

impl RunFinished {
    /// Closes run `run_id` of thread `thread_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, RunFinished};
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
/// use a2ui_stream::agui::{Event, RunError};
/// use serde_json::json;
///
/// let error = RunError { code: Some("rate_limited".into()), ..RunError::new("Too many requests") };
/// assert_eq!(
///     serde_json::to_value(Event::from(error)).unwrap(),
///     json!({"type": "RUN_ERROR", "message": "Too many requests", "code": "rate_limited"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunError {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// What went wrong, for a person to read.
    pub message: String,
    /// A machine-readable error code (open string).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Token usage accrued before the failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Vec<TokenUsage>>,
}

impl RunError {
    /// A failure described by `message`.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, EventType, RunError};
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
/// use a2ui_stream::agui::Event;
///
/// let ev: Event = serde_json::from_str(
///     r#"{"type":"STEP_STARTED","stepName":"plan","subagentRunId":"sub-1"}"#,
/// ).unwrap();
/// let Event::StepStarted(step) = ev else { unreachable!() };
/// assert_eq!(step.step_name, "plan");
/// assert_eq!(step.subagent_run_id.as_deref(), Some("sub-1"));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepStarted {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The step's name; the matching `STEP_FINISHED` carries the same name.
    pub step_name: String,
}

impl StepStarted {
    /// Opens step `step_name`.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, StepStarted};
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
/// use a2ui_stream::agui::{Event, StepFinished};
///
/// let ev: Event = serde_json::from_str(r#"{"type":"STEP_FINISHED","stepName":"plan"}"#).unwrap();
/// assert_eq!(ev, Event::StepFinished(StepFinished::new("plan")));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepFinished {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The step being closed.
    pub step_name: String,
}

impl StepFinished {
    /// Closes step `step_name`.
    ///
    /// ```
    /// use a2ui_stream::agui::{Event, StepFinished};
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

/// `REASONING_START` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, ReasoningStart};
/// use serde_json::json;
///
/// let start = ReasoningStart { message_id: "r1".into(), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(Event::from(start)).unwrap(),
///     json!({"type": "REASONING_START", "messageId": "r1"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningStart {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The span being opened.
    pub message_id: String,
}

/// `REASONING_MESSAGE_START` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, ReasoningMessageStart};
/// use serde_json::json;
///
/// // The role is always written, and may be left out when reading.
/// let start = ReasoningMessageStart { message_id: "r1".into(), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(Event::from(start.clone())).unwrap(),
///     json!({"type": "REASONING_MESSAGE_START", "messageId": "r1", "role": "reasoning"})
/// );
/// let ev: Event = serde_json::from_str(r#"{"type":"REASONING_MESSAGE_START","messageId":"r1"}"#).unwrap();
/// assert_eq!(ev, Event::from(start));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningMessageStart {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The reasoning message this stream builds.
    pub message_id: String,
    /// Always `"reasoning"`.
    #[serde(default)]
    pub role: ReasoningRole,
}

/// `REASONING_MESSAGE_CONTENT` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, ReasoningMessageContent};
/// use serde_json::json;
///
/// let content = ReasoningMessageContent {
///     message_id: "r1".into(),
///     delta: "Check the map first.".into(),
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(Event::from(content)).unwrap(),
///     json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1", "delta": "Check the map first."})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningMessageContent {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The reasoning message this fragment belongs to.
    pub message_id: String,
    /// The fragment to append.
    pub delta: String,
}

/// `REASONING_MESSAGE_END` fields.
///
/// ```
/// use a2ui_stream::agui::Event;
///
/// let ev: Event = serde_json::from_str(r#"{"type":"REASONING_MESSAGE_END","messageId":"r1"}"#).unwrap();
/// let Event::ReasoningMessageEnd(end) = ev else { unreachable!() };
/// assert_eq!(end.message_id, "r1");
/// assert_eq!(end.subagent_run_id, None);
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningMessageEnd {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The reasoning message being closed.
    pub message_id: String,
}

/// `REASONING_MESSAGE_CHUNK` fields (every field optional).
///
/// ```
/// use a2ui_stream::agui::{Event, ReasoningMessageChunk};
/// use serde_json::json;
///
/// let first = ReasoningMessageChunk {
///     message_id: Some("r1".into()),
///     delta: Some("Check ".into()),
///     ..Default::default()
/// };
/// let next = ReasoningMessageChunk { delta: Some("the map.".into()), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(Event::from(first)).unwrap(),
///     json!({"type": "REASONING_MESSAGE_CHUNK", "messageId": "r1", "delta": "Check "})
/// );
/// assert_eq!(
///     serde_json::to_value(Event::from(next)).unwrap(),
///     json!({"type": "REASONING_MESSAGE_CHUNK", "delta": "the map."})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningMessageChunk {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The reasoning message this chunk belongs to; absent continues the open one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// The fragment to append.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<String>,
}

/// `REASONING_END` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, ReasoningEnd};
/// use serde_json::json;
///
/// let end = ReasoningEnd { message_id: "r1".into(), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(Event::from(end)).unwrap(),
///     json!({"type": "REASONING_END", "messageId": "r1"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningEnd {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The span being closed.
    pub message_id: String,
}

/// Whether a `REASONING_ENCRYPTED_VALUE` belongs to a message or a tool call.
///
/// ```
/// use a2ui_stream::agui::EncryptedValueSubtype;
///
/// assert_eq!(EncryptedValueSubtype::default(), EncryptedValueSubtype::Message);
/// assert_eq!(serde_json::to_string(&EncryptedValueSubtype::ToolCall).unwrap(), r#""tool-call""#);
/// let subtype: EncryptedValueSubtype = serde_json::from_str(r#""message""#).unwrap();
/// assert_eq!(subtype, EncryptedValueSubtype::Message);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum EncryptedValueSubtype {
    /// `"tool-call"`.
    #[serde(rename = "tool-call")]
    ToolCall,
    /// `"message"`.
    #[default]
    #[serde(rename = "message")]
    Message,
}

/// `REASONING_ENCRYPTED_VALUE` fields.
///
/// ```
/// use a2ui_stream::agui::{EncryptedValueSubtype, Event, ReasoningEncryptedValue};
/// use serde_json::json;
///
/// let value = ReasoningEncryptedValue {
///     subtype: EncryptedValueSubtype::ToolCall,
///     entity_id: "call-1".into(),
///     encrypted_value: "gAAAAB...".into(),
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(Event::from(value)).unwrap(),
///     json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "tool-call", "entityId": "call-1",
///            "encryptedValue": "gAAAAB..."})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningEncryptedValue {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// What kind of thing `entity_id` names.
    pub subtype: EncryptedValueSubtype,
    /// A message id or tool call id, according to `subtype`.
    pub entity_id: String,
    /// The provider's opaque artefact.
    pub encrypted_value: String,
}

/// `SUBAGENT_STARTED` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, SubagentStarted};
/// use serde_json::json;
///
/// let started = SubagentStarted {
///     subagent_run_id: "sub-1".into(),
///     name: "researcher".into(),
///     parent_tool_call_id: Some("call-1".into()),
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(Event::from(started)).unwrap(),
///     json!({"type": "SUBAGENT_STARTED", "subagentRunId": "sub-1", "name": "researcher",
///            "parentToolCallId": "call-1"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubagentStarted {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The invocation being announced.
    pub subagent_run_id: String,
    /// The subagent's (reusable) name.
    pub name: String,
    /// What this subagent is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The subagent invocation that spawned this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_subagent_run_id: Option<String>,
    /// The tool call that spawned this subagent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_tool_call_id: Option<String>,
    /// The message that held the spawning tool call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_message_id: Option<String>,
}

/// Why a subagent's segment ended, tagged by `type`.
///
/// ```
/// use a2ui_stream::agui::SubagentOutcome;
/// use serde_json::json;
///
/// assert_eq!(serde_json::to_value(SubagentOutcome::Success).unwrap(), json!({"type": "success"}));
/// let suspended = SubagentOutcome::Suspended { interrupt_ids: Some(vec!["i1".into()]) };
/// assert_eq!(
///     serde_json::to_value(suspended).unwrap(),
///     json!({"type": "suspended", "interruptIds": ["i1"]})
/// );
/// let bare: SubagentOutcome = serde_json::from_value(json!({"type": "suspended"})).unwrap();
/// assert_eq!(bare, SubagentOutcome::Suspended { interrupt_ids: None });
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum SubagentOutcome {
    /// The subagent completed its work.
    Success,
    /// The subagent is paused awaiting outside input.
    Suspended {
        /// The run-level interrupts this subagent raised itself.
        #[serde(
            default,
            rename = "interruptIds",
            skip_serializing_if = "Option::is_none"
        )]
        interrupt_ids: Option<Vec<String>>,
    },
}

/// `SUBAGENT_FINISHED` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, SubagentFinished};
/// use serde_json::json;
///
/// let finished = SubagentFinished {
///     subagent_run_id: "sub-1".into(),
///     result: Some(json!("3 venues found")),
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(Event::from(finished)).unwrap(),
///     json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "sub-1", "result": "3 venues found"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubagentFinished {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The invocation being closed.
    pub subagent_run_id: String,
    /// The subagent's return value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// Why the segment ended; absent means success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<SubagentOutcome>,
}

/// `SUBAGENT_ERROR` fields.
///
/// ```
/// use a2ui_stream::agui::Event;
///
/// let ev: Event = serde_json::from_str(
///     r#"{"type":"SUBAGENT_ERROR","subagentRunId":"sub-1","message":"timed out","code":"timeout"}"#,
/// ).unwrap();
/// let Event::SubagentError(error) = ev else { unreachable!() };
/// assert_eq!(error.subagent_run_id, "sub-1");
/// assert_eq!(error.message, "timed out");
/// assert_eq!(error.code.as_deref(), Some("timeout"));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubagentError {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The invocation that failed.
    pub subagent_run_id: String,
    /// What went wrong.
    pub message: String,
    /// A machine-readable error code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// Messages, tools and the request body.

/// Any message in a conversation, tagged by `role`.
///
/// ```
/// use a2ui_stream::agui::ChatMessage;
/// let m: ChatMessage = serde_json::from_str(r#"{"id":"1","role":"user","content":"hi"}"#).unwrap();
/// assert!(matches!(m, ChatMessage::User(_)));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "lowercase")]
pub enum ChatMessage {
    /// Instructions from the application developer.
    Developer(TextMessage),
    /// Instructions from the system.
    System(TextMessage),
    /// A message from the agent.
    Assistant(AssistantMessage),
    /// A message from the person using the application.
    User(UserMessage),
    /// What a tool returned.
    Tool(ToolMessage),
    /// Structured progress materialised as a message.
    Activity(ActivityMessage),
    /// A span of reasoning materialised as a message.
    Reasoning(ReasoningMessage),
}

/// A developer or system message.
///
/// ```
/// use a2ui_stream::agui::{ChatMessage, TextMessage};
/// use serde_json::json;
///
/// let system = TextMessage { id: "s1".into(), content: "Be brief.".into(), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(ChatMessage::System(system)).unwrap(),
///     json!({"role": "system", "id": "s1", "content": "Be brief."})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessage {
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// Identifies the message.
    pub id: String,
    /// Display name for the author.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A provider's opaque artefact belonging to this message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
    /// Extra information attached to this message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
    /// The instructions.
    pub content: String,
}

/// A message from the agent.
///
/// ```
/// use a2ui_stream::agui::{AssistantMessage, ChatMessage, FunctionCall, ToolCall};
/// use serde_json::json;
///
/// // A turn that only calls a tool has no `content` at all.
/// let call = ToolCall {
///     id: "call-1".into(),
///     function: FunctionCall { name: "search".into(), arguments: r#"{"q":"pizza"}"#.into() },
///     ..Default::default()
/// };
/// let msg = AssistantMessage { id: "m1".into(), tool_calls: Some(vec![call]), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(ChatMessage::Assistant(msg)).unwrap(),
///     json!({"role": "assistant", "id": "m1", "toolCalls": [{"id": "call-1", "type": "function",
///            "function": {"name": "search", "arguments": "{\"q\":\"pizza\"}"}}]})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssistantMessage {
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// Identifies the message.
    pub id: String,
    /// Display name for the author.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A provider's opaque artefact belonging to this message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
    /// Extra information attached to this message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
    /// What the agent said, if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// The tool calls this turn made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCall>>,
}

/// A message from the person using the application.
///
/// ```
/// use a2ui_stream::agui::{ChatMessage, UserContent, UserMessage};
/// use serde_json::json;
///
/// let msg = UserMessage {
///     subagent_run_id: None,
///     id: "u1".into(),
///     name: Some("Ada".into()),
///     encrypted_value: None,
///     metadata: None,
///     content: UserContent::Text("Find food".into()),
/// };
/// assert_eq!(
///     serde_json::to_value(ChatMessage::User(msg)).unwrap(),
///     json!({"role": "user", "id": "u1", "name": "Ada", "content": "Find food"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserMessage {
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// Identifies the message.
    pub id: String,
    /// Display name for the author.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A provider's opaque artefact belonging to this message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
    /// Extra information attached to this message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
    /// Plain text or an ordered list of parts.
    pub content: UserContent,
}

/// The content of a user message.
///
/// ```
/// use a2ui_stream::agui::{InputContent, UserContent};
/// use serde_json::json;
///
/// let text: UserContent = serde_json::from_value(json!("Find food")).unwrap();
/// assert_eq!(text, UserContent::Text("Find food".into()));
/// let parts: UserContent = serde_json::from_value(json!([{"type": "text", "text": "Find food"}])).unwrap();
/// assert_eq!(parts, UserContent::Parts(vec![InputContent::Text { text: "Find food".into() }]));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum UserContent {
    /// Plain text.
    Text(String),
    /// A multimodal message: an ordered list of parts.
    Parts(Vec<InputContent>),
}

/// One part of a multimodal user message, tagged by `type`.
///
/// ```
/// use a2ui_stream::agui::{InputContent, InputContentSource, MediaContent};
/// use serde_json::json;
///
/// let text = InputContent::Text { text: "What is this?".into() };
/// assert_eq!(serde_json::to_value(text).unwrap(), json!({"type": "text", "text": "What is this?"}));
/// let image = InputContent::Image(MediaContent {
///     source: InputContentSource::Url { value: "https://example.com/a.png".into(), mime_type: None },
///     metadata: None,
/// });
/// assert_eq!(
///     serde_json::to_value(image).unwrap(),
///     json!({"type": "image", "source": {"type": "url", "value": "https://example.com/a.png"}})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum InputContent {
    /// A text part.
    Text {
        /// The text.
        text: String,
    },
    /// An image part.
    Image(MediaContent),
    /// An audio part.
    Audio(MediaContent),
    /// A video part.
    Video(MediaContent),
    /// A document part.
    Document(MediaContent),
}

/// An image, audio, video or document part.
///
/// ```
/// use a2ui_stream::agui::{InputContentSource, MediaContent};
/// use serde_json::json;
///
/// let pdf = MediaContent {
///     source: InputContentSource::Data { value: "JVBERi0=".into(), mime_type: "application/pdf".into() },
///     metadata: Some(json!({"pages": 1})),
/// };
/// assert_eq!(
///     serde_json::to_value(pdf).unwrap(),
///     json!({"source": {"type": "data", "value": "JVBERi0=", "mimeType": "application/pdf"},
///            "metadata": {"pages": 1}})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaContent {
    /// Where the bytes come from.
    pub source: InputContentSource,
    /// Extra information about this part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
}

/// Where a media part's bytes come from, tagged by `type`.
///
/// ```
/// use a2ui_stream::agui::InputContentSource;
/// use serde_json::json;
///
/// let data = InputContentSource::Data { value: "aGk=".into(), mime_type: "text/plain".into() };
/// assert_eq!(
///     serde_json::to_value(data).unwrap(),
///     json!({"type": "data", "value": "aGk=", "mimeType": "text/plain"})
/// );
/// let url: InputContentSource =
///     serde_json::from_value(json!({"type": "url", "value": "https://example.com/a.mp3"})).unwrap();
/// assert_eq!(url, InputContentSource::Url { value: "https://example.com/a.mp3".into(), mime_type: None });
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum InputContentSource {
    /// Bytes carried inline, base64-encoded.
    Data {
        /// The bytes, base64-encoded.
        value: String,
        /// What the bytes are.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// Bytes referenced by URL.
    Url {
        /// The URL.
        value: String,
        /// What the resource is, when known.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
}

/// What a tool returned, as a message.
///
/// ```
/// use a2ui_stream::agui::{ChatMessage, ToolMessage};
/// use serde_json::json;
///
/// let msg = ToolMessage {
///     id: "t1".into(),
///     content: "3 results".into(),
///     tool_call_id: "call-1".into(),
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(ChatMessage::Tool(msg)).unwrap(),
///     json!({"role": "tool", "id": "t1", "content": "3 results", "toolCallId": "call-1"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolMessage {
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// Identifies the message.
    pub id: String,
    /// What the tool returned.
    pub content: String,
    /// The call this answers.
    pub tool_call_id: String,
    /// Why the tool failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// A provider's opaque artefact belonging to this message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
    /// Extra information attached to this message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// Structured progress materialised as a message.
///
/// ```
/// use a2ui_stream::agui::ChatMessage;
/// use serde_json::json;
///
/// let msg: ChatMessage = serde_json::from_value(json!({
///     "role": "activity", "id": "a1", "activityType": "search", "content": {"progress": 1.0}
/// })).unwrap();
/// let ChatMessage::Activity(activity) = msg else { unreachable!() };
/// assert_eq!(activity.activity_type, "search");
/// assert_eq!(activity.content["progress"], 1.0);
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityMessage {
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// Identifies the message.
    pub id: String,
    /// What kind of activity this is.
    pub activity_type: String,
    /// The activity's payload.
    pub content: Map<String, Value>,
    /// Extra information attached to this message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// A span of reasoning materialised as a message.
///
/// ```
/// use a2ui_stream::agui::{ChatMessage, ReasoningMessage};
/// use serde_json::json;
///
/// let msg = ReasoningMessage { id: "r1".into(), content: "Check the map first.".into(), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(ChatMessage::Reasoning(msg)).unwrap(),
///     json!({"role": "reasoning", "id": "r1", "content": "Check the map first."})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningMessage {
    /// The subagent invocation this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// Identifies the message.
    pub id: String,
    /// The reasoning text.
    pub content: String,
    /// A provider's opaque reasoning artefact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
    /// Extra information attached to this message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// The only kind of tool call the protocol models: `"function"`.
///
/// ```
/// use a2ui_stream::agui::ToolCallType;
///
/// assert_eq!(serde_json::to_string(&ToolCallType::Function).unwrap(), r#""function""#);
/// assert!(serde_json::from_str::<ToolCallType>(r#""retrieval""#).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolCallType {
    /// `"function"`.
    #[default]
    Function,
}

/// A call an assistant message made.
///
/// ```
/// use a2ui_stream::agui::{ToolCall, ToolCallType};
/// use serde_json::json;
///
/// // The wire's `type` field is the `kind` field here.
/// let call: ToolCall = serde_json::from_value(json!({
///     "id": "call-1", "type": "function",
///     "function": {"name": "search", "arguments": "{\"q\":\"pizza\"}"}
/// })).unwrap();
/// assert_eq!(call.kind, ToolCallType::Function);
/// assert_eq!(call.function.name, "search");
/// assert_eq!(call.encrypted_value, None);
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    /// Identifies the call.
    pub id: String,
    /// Always `"function"`.
    #[serde(rename = "type")]
    pub kind: ToolCallType,
    /// What is being called, and with what.
    pub function: FunctionCall,
    /// A provider's opaque artefact belonging to this call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
    /// Extra information attached to this call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// The name and arguments of a tool call.
///
/// ```
/// use a2ui_stream::agui::FunctionCall;
/// use serde_json::json;
///
/// // The arguments stay a string, exactly as written, not a nested object.
/// let call = FunctionCall { name: "search".into(), arguments: r#"{"q": "pizza"}"#.into() };
/// assert_eq!(
///     serde_json::to_value(&call).unwrap(),
///     json!({"name": "search", "arguments": "{\"q\": \"pizza\"}"})
/// );
/// let args: serde_json::Value = serde_json::from_str(&call.arguments).unwrap();
/// assert_eq!(args["q"], "pizza");
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FunctionCall {
    /// Which tool is being called.
    pub name: String,
    /// The arguments as a JSON string, kept as written.
    pub arguments: String,
}

/// A tool the agent may call.
///
/// ```
/// use a2ui_stream::agui::Tool;
/// use serde_json::json;
///
/// let tool = Tool {
///     name: "search".into(),
///     description: "Find restaurants".into(),
///     parameters: Some(json!({"type": "object", "properties": {"q": {"type": "string"}}})),
///     metadata: None,
/// };
/// assert_eq!(
///     serde_json::to_value(tool).unwrap(),
///     json!({"name": "search", "description": "Find restaurants",
///            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Tool {
    /// The tool's name.
    pub name: String,
    /// What the tool does.
    pub description: String,
    /// A JSON Schema describing the arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
    /// Extra information about the tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// A named piece of ambient information given to the agent for the run.
///
/// ```
/// use a2ui_stream::agui::Context;
/// use serde_json::json;
///
/// let ctx: Context =
///     serde_json::from_value(json!({"description": "The user's city", "value": "Lisbon"})).unwrap();
/// assert_eq!(ctx, Context { description: "The user's city".into(), value: "Lisbon".into() });
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Context {
    /// What this context is.
    pub description: String,
    /// The context itself.
    pub value: String,
}

/// An answer to one interrupt, sent on the run that continues from it.
///
/// ```
/// use a2ui_stream::agui::ResumeEntry;
/// use serde_json::json;
///
/// let entry = ResumeEntry {
///     interrupt_id: "i1".into(),
///     status: "resolved".into(),
///     payload: Some(json!({"approved": true})),
///     metadata: None,
/// };
/// assert_eq!(
///     serde_json::to_value(entry).unwrap(),
///     json!({"interruptId": "i1", "status": "resolved", "payload": {"approved": true}})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResumeEntry {
    /// The interrupt being answered.
    pub interrupt_id: String,
    /// Whether the interrupt was answered or abandoned.
    pub status: String,
    /// The answer (any JSON value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
    /// Envelope information about the response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// The request body that starts a run (the client POSTs it; `RUN_STARTED.input` echoes it).
///
/// ```
/// use a2ui_stream::agui::RunAgentInput;
/// let input: RunAgentInput = serde_json::from_str(
///     r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"Find food"}]}"#,
/// ).unwrap();
/// assert_eq!(input.messages.len(), 1);
/// assert!(input.tools.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunAgentInput {
    /// The conversation this run belongs to.
    pub thread_id: String,
    /// Identifies this run.
    pub run_id: String,
    /// The run that spawned this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_run_id: Option<String>,
    /// The state the run starts from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Value>,
    /// The conversation so far.
    pub messages: Vec<ChatMessage>,
    /// The tools the agent may call (absent and empty mean the same).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Tool>,
    /// Ambient information for the run (absent and empty mean the same).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context: Vec<Context>,
    /// Application-specific values passed through untouched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forwarded_props: Option<Value>,
    /// Answers to the interrupts that ended a previous run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Vec<ResumeEntry>>,
}
