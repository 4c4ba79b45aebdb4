//! The AG-UI 1.0 event catalogue, request body, messages and tools, as serde types.
//!
//! Field names are camelCase on the wire, the `type` tag is SCREAMING_SNAKE_CASE, and an
//! optional field that is `None` is left out rather than written as `null`:
//!
//! ```
//! use a2ui_stream::agui::events::{Event, TextMessageStart};
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
use serde_with::skip_serializing_none;
use std::fmt;

// One file per event family; the types they define are re-exported here, so each keeps its
// path `agui::events::Xxx` (and `agui::Xxx`). A type with optional fields carries
// `#[skip_serializing_none]`, which gives every `Option` field
// `#[serde(skip_serializing_if = "Option::is_none")]`; when reading, a missing `Option` field is
// `None` without `#[serde(default)]`.
mod activity;
mod input;
mod lifecycle;
mod reasoning;
mod special;
mod state;
mod subagent;
mod text;
mod tool;

pub use activity::*;
pub use input::*;
pub use lifecycle::*;
pub use reasoning::*;
pub use special::*;
pub use state::*;
pub use subagent::*;
pub use text::*;
pub use tool::*;

/// The protocol version this crate speaks, sent in `RUN_STARTED.protocolVersion`.
///
/// ```
/// use a2ui_stream::agui::events::{RunStarted, PROTOCOL_VERSION};
///
/// assert_eq!(PROTOCOL_VERSION, "1.0");
/// let started = RunStarted::new("thread-1", "run-1");
/// assert_eq!(started.protocol_version.as_deref(), Some(PROTOCOL_VERSION));
/// ```
pub const PROTOCOL_VERSION: &str = "1.0";

/// Extra information attached to an event, message, tool call, tool or interrupt (open by key).
///
/// ```
/// use a2ui_stream::agui::events::{Event, Metadata, TextMessageEnd};
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
/// use a2ui_stream::agui::events::{Event, Meta, TextMessageEnd};
/// use serde_json::json;
///
/// // The common fields sit beside the event's own fields, not in a nested object.
/// let mut meta = Meta::default();
/// meta.timestamp = Some(1_700_000_000_000);
/// meta.raw_event = Some(json!({"id": 7}));
/// let mut end = TextMessageEnd::new("m1");
/// end.meta = meta;
/// assert_eq!(
///     serde_json::to_value(Event::from(end)).unwrap(),
///     json!({"type": "TEXT_MESSAGE_END", "messageId": "m1",
///            "timestamp": 1_700_000_000_000_i64, "rawEvent": {"id": 7}})
/// );
/// // An empty `Meta` adds nothing to the wire.
/// assert_eq!(serde_json::to_value(Meta::default()).unwrap(), json!({}));
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Meta {
    /// When the event was created (milliseconds since the Unix epoch by convention).
    pub timestamp: Option<i64>,
    /// The provider-native event this one was translated from.
    pub raw_event: Option<Value>,
    /// Extra information attached to the event.
    pub metadata: Option<Metadata>,
}

macro_rules! events {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal ),* $(,)?) => {
        /// The discriminator carried by every event in its `type` field.
        ///
        /// ```
        /// use a2ui_stream::agui::events::EventType;
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
            /// use a2ui_stream::agui::events::EventType;
            /// assert_eq!(EventType::ToolCallResult.as_str(), "TOOL_CALL_RESULT");
            /// ```
            pub fn as_str(self) -> &'static str {
                match self { $( EventType::$variant => $name, )* }
            }
        }

        /// Any AG-UI event, tagged by `type`.
        ///
        /// ```
        /// use a2ui_stream::agui::events::{Event, StepStarted};
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
            /// use a2ui_stream::agui::events::{Event, EventType, ToolCallEnd};
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
            /// use a2ui_stream::agui::events::Event;
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
            /// use a2ui_stream::agui::events::{Event, StepFinished};
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
