//! Text message events (`TEXT_MESSAGE_START`, `_CONTENT`, `_END`, `_CHUNK`) and their roles.

use super::Meta;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The roles a streamed text message may take.
///
/// ```
/// use a2ui_stream::agui::events::TextMessageRole;
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

/// `TEXT_MESSAGE_START` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, TextMessageRole, TextMessageStart};
/// use serde_json::json;
///
/// let mut start = TextMessageStart::new("m1");
/// start.role = Some(TextMessageRole::User);
/// start.name = Some("Ada".into());
/// assert_eq!(
///     serde_json::to_value(Event::from(start)).unwrap(),
///     json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "user", "name": "Ada"})
/// );
/// // When reading, a missing role stays `None` (which the protocol reads as assistant).
/// let ev: Event = serde_json::from_str(r#"{"type":"TEXT_MESSAGE_START","messageId":"m2"}"#).unwrap();
/// let Event::TextMessageStart(start) = ev else { unreachable!() };
/// assert_eq!(start.role, None);
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TextMessageStart {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// Identifies the message; content and end events carry the same id.
    pub message_id: String,
    /// Who the message is from; absent means assistant.
    pub role: Option<TextMessageRole>,
    /// Display name for the author.
    pub name: Option<String>,
}

impl TextMessageStart {
    /// An assistant message with this id.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, TextMessageRole, TextMessageStart};
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
/// use a2ui_stream::agui::events::Event;
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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TextMessageContent {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
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
    /// use a2ui_stream::agui::events::{Event, TextMessageContent};
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
/// use a2ui_stream::agui::events::{Event, TextMessageEnd};
/// use serde_json::json;
///
/// let mut end = TextMessageEnd::new("m1");
/// end.subagent_run_id = Some("sub-1".into());
/// assert_eq!(
///     serde_json::to_value(Event::from(end)).unwrap(),
///     json!({"type": "TEXT_MESSAGE_END", "subagentRunId": "sub-1", "messageId": "m1"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TextMessageEnd {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The message being closed.
    pub message_id: String,
}

impl TextMessageEnd {
    /// Closes message `message_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, TextMessageEnd};
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
/// use a2ui_stream::agui::events::{Event, TextMessageChunk, TextMessageRole};
/// use serde_json::json;
///
/// // The first chunk names the message; a continuation carries only the new text.
/// let mut first = TextMessageChunk::default();
/// first.message_id = Some("m1".into());
/// first.role = Some(TextMessageRole::Assistant);
/// first.delta = Some("Hel".into());
/// let mut next = TextMessageChunk::default();
/// next.delta = Some("lo".into());
/// assert_eq!(
///     serde_json::to_value(Event::from(first)).unwrap(),
///     json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "role": "assistant", "delta": "Hel"})
/// );
/// assert_eq!(
///     serde_json::to_value(Event::from(next)).unwrap(),
///     json!({"type": "TEXT_MESSAGE_CHUNK", "delta": "lo"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TextMessageChunk {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The message this chunk belongs to; absent continues the open one.
    pub message_id: Option<String>,
    /// Who the message is from, on the chunk that opens it.
    pub role: Option<TextMessageRole>,
    /// The fragment to append.
    pub delta: Option<String>,
    /// Display name for the author.
    pub name: Option<String>,
}
