//! Reasoning events (`REASONING_START`/`_END`, `REASONING_MESSAGE_*`, `REASONING_ENCRYPTED_VALUE`)
//! and the reasoning role.

use super::Meta;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The fixed role `"reasoning"`.
///
/// ```
/// use a2ui_stream::agui::events::ReasoningRole;
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

/// `REASONING_START` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, ReasoningStart};
/// use serde_json::json;
///
/// let start = ReasoningStart::new("r1");
/// assert_eq!(
///     serde_json::to_value(Event::from(start)).unwrap(),
///     json!({"type": "REASONING_START", "messageId": "r1"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReasoningStart {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The span being opened.
    pub message_id: String,
}

impl ReasoningStart {
    /// Opens reasoning span `message_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, EventType, ReasoningStart};
    ///
    /// let ev = Event::from(ReasoningStart::new("r1"));
    /// assert_eq!(ev.event_type(), EventType::ReasoningStart);
    /// assert_eq!(ev, serde_json::from_str(r#"{"type":"REASONING_START","messageId":"r1"}"#).unwrap());
    /// ```
    pub fn new(message_id: impl Into<String>) -> Self {
        ReasoningStart {
            message_id: message_id.into(),
            ..Default::default()
        }
    }
}

/// `REASONING_MESSAGE_START` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, ReasoningMessageStart};
/// use serde_json::json;
///
/// // The role is always written, and may be left out when reading.
/// let start = ReasoningMessageStart::new("r1");
/// assert_eq!(
///     serde_json::to_value(Event::from(start.clone())).unwrap(),
///     json!({"type": "REASONING_MESSAGE_START", "messageId": "r1", "role": "reasoning"})
/// );
/// let ev: Event = serde_json::from_str(r#"{"type":"REASONING_MESSAGE_START","messageId":"r1"}"#).unwrap();
/// assert_eq!(ev, Event::from(start));
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReasoningMessageStart {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The reasoning message this stream builds.
    pub message_id: String,
    /// Always `"reasoning"`.
    #[serde(default)]
    pub role: ReasoningRole,
}

impl ReasoningMessageStart {
    /// Opens reasoning message `message_id` (its role is always `"reasoning"`).
    ///
    /// ```
    /// use a2ui_stream::agui::events::{ReasoningMessageStart, ReasoningRole};
    ///
    /// let start = ReasoningMessageStart::new("r1");
    /// assert_eq!(start.message_id, "r1");
    /// assert_eq!(start.role, ReasoningRole::Reasoning);
    /// ```
    pub fn new(message_id: impl Into<String>) -> Self {
        ReasoningMessageStart {
            message_id: message_id.into(),
            ..Default::default()
        }
    }
}

/// `REASONING_MESSAGE_CONTENT` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, ReasoningMessageContent};
/// use serde_json::json;
///
/// let content = ReasoningMessageContent::new("r1", "Check the map first.");
/// assert_eq!(
///     serde_json::to_value(Event::from(content)).unwrap(),
///     json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1", "delta": "Check the map first."})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReasoningMessageContent {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The reasoning message this fragment belongs to.
    pub message_id: String,
    /// The fragment to append.
    pub delta: String,
}

impl ReasoningMessageContent {
    /// A fragment of reasoning message `message_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::ReasoningMessageContent;
    ///
    /// // The deltas of one message concatenate into its text.
    /// let fragments = [
    ///     ReasoningMessageContent::new("r1", "Check "),
    ///     ReasoningMessageContent::new("r1", "the map."),
    /// ];
    /// let text: String = fragments.iter().map(|f| f.delta.as_str()).collect();
    /// assert_eq!(text, "Check the map.");
    /// ```
    pub fn new(message_id: impl Into<String>, delta: impl Into<String>) -> Self {
        ReasoningMessageContent {
            message_id: message_id.into(),
            delta: delta.into(),
            ..Default::default()
        }
    }
}

/// `REASONING_MESSAGE_END` fields.
///
/// ```
/// use a2ui_stream::agui::events::Event;
///
/// let ev: Event = serde_json::from_str(r#"{"type":"REASONING_MESSAGE_END","messageId":"r1"}"#).unwrap();
/// let Event::ReasoningMessageEnd(end) = ev else { unreachable!() };
/// assert_eq!(end.message_id, "r1");
/// assert_eq!(end.subagent_run_id, None);
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReasoningMessageEnd {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The reasoning message being closed.
    pub message_id: String,
}

/// `REASONING_MESSAGE_CHUNK` fields (every field optional).
///
/// ```
/// use a2ui_stream::agui::events::{Event, ReasoningMessageChunk};
/// use serde_json::json;
///
/// let mut first = ReasoningMessageChunk::default();
/// first.message_id = Some("r1".into());
/// first.delta = Some("Check ".into());
/// let mut next = ReasoningMessageChunk::default();
/// next.delta = Some("the map.".into());
/// assert_eq!(
///     serde_json::to_value(Event::from(first)).unwrap(),
///     json!({"type": "REASONING_MESSAGE_CHUNK", "messageId": "r1", "delta": "Check "})
/// );
/// assert_eq!(
///     serde_json::to_value(Event::from(next)).unwrap(),
///     json!({"type": "REASONING_MESSAGE_CHUNK", "delta": "the map."})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReasoningMessageChunk {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The reasoning message this chunk belongs to; absent continues the open one.
    pub message_id: Option<String>,
    /// The fragment to append.
    pub delta: Option<String>,
}

/// `REASONING_END` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, ReasoningEnd};
/// use serde_json::json;
///
/// let end = ReasoningEnd::new("r1");
/// assert_eq!(
///     serde_json::to_value(Event::from(end)).unwrap(),
///     json!({"type": "REASONING_END", "messageId": "r1"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReasoningEnd {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The span being closed.
    pub message_id: String,
}

impl ReasoningEnd {
    /// Closes reasoning span `message_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, ReasoningEnd};
    ///
    /// let ev: Event = serde_json::from_str(r#"{"type":"REASONING_END","messageId":"r1"}"#).unwrap();
    /// assert_eq!(ev, Event::from(ReasoningEnd::new("r1")));
    /// ```
    pub fn new(message_id: impl Into<String>) -> Self {
        ReasoningEnd {
            message_id: message_id.into(),
            ..Default::default()
        }
    }
}

/// Whether a `REASONING_ENCRYPTED_VALUE` belongs to a message or a tool call.
///
/// ```
/// use a2ui_stream::agui::events::EncryptedValueSubtype;
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
/// use a2ui_stream::agui::events::{EncryptedValueSubtype, Event, ReasoningEncryptedValue};
/// use serde_json::json;
///
/// let value = ReasoningEncryptedValue::new(EncryptedValueSubtype::ToolCall, "call-1", "gAAAAB...");
/// assert_eq!(
///     serde_json::to_value(Event::from(value)).unwrap(),
///     json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "tool-call", "entityId": "call-1",
///            "encryptedValue": "gAAAAB..."})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReasoningEncryptedValue {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// What kind of thing `entity_id` names.
    pub subtype: EncryptedValueSubtype,
    /// A message id or tool call id, according to `subtype`.
    pub entity_id: String,
    /// The provider's opaque artefact.
    pub encrypted_value: String,
}

impl ReasoningEncryptedValue {
    /// The opaque artefact `encrypted_value` of the message or tool call `entity_id`, as `subtype` says.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{EncryptedValueSubtype, Event, ReasoningEncryptedValue};
    /// use serde_json::json;
    ///
    /// let value = ReasoningEncryptedValue::new(EncryptedValueSubtype::Message, "m1", "gAAAAB...");
    /// assert_eq!(
    ///     serde_json::to_value(Event::from(value)).unwrap(),
    ///     json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "message", "entityId": "m1",
    ///            "encryptedValue": "gAAAAB..."})
    /// );
    /// ```
    pub fn new(
        subtype: EncryptedValueSubtype,
        entity_id: impl Into<String>,
        encrypted_value: impl Into<String>,
    ) -> Self {
        ReasoningEncryptedValue {
            subtype,
            entity_id: entity_id.into(),
            encrypted_value: encrypted_value.into(),
            ..Default::default()
        }
    }
}
