//! Tool call events (`TOOL_CALL_START`, `_ARGS`, `_END`, `_CHUNK`, `_RESULT`) and the tool role.

use super::Meta;
#[cfg(doc)]
use super::TextMessageChunk;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The fixed role `"tool"`.
///
/// ```
/// use a2ui_stream::agui::events::ToolRole;
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

/// `TOOL_CALL_START` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, ToolCallStart};
/// use serde_json::json;
///
/// let mut start = ToolCallStart::new("call-1", "search");
/// start.parent_message_id = Some("m1".into());
/// assert_eq!(
///     serde_json::to_value(Event::from(start)).unwrap(),
///     json!({"type": "TOOL_CALL_START", "toolCallId": "call-1", "toolCallName": "search",
///            "parentMessageId": "m1"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolCallStart {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// Identifies the call; args, end and result events carry the same id.
    pub tool_call_id: String,
    /// Which tool is being called.
    pub tool_call_name: String,
    /// The assistant message that holds this call.
    pub parent_message_id: Option<String>,
}

impl ToolCallStart {
    /// Opens call `tool_call_id` of tool `name`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, ToolCallStart};
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
/// use a2ui_stream::agui::events::ToolCallArgs;
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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolCallArgs {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
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
    /// use a2ui_stream::agui::events::{Event, ToolCallArgs};
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
/// use a2ui_stream::agui::events::{Event, ToolCallEnd};
///
/// let ev: Event = serde_json::from_str(r#"{"type":"TOOL_CALL_END","toolCallId":"call-1"}"#).unwrap();
/// assert_eq!(ev, Event::ToolCallEnd(ToolCallEnd::new("call-1")));
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolCallEnd {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The call being closed.
    pub tool_call_id: String,
}

impl ToolCallEnd {
    /// Closes call `tool_call_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, ToolCallEnd};
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
/// use a2ui_stream::agui::events::{Event, ToolCallChunk};
/// use serde_json::json;
///
/// let mut first = ToolCallChunk::default();
/// first.tool_call_id = Some("call-1".into());
/// first.tool_call_name = Some("search".into());
/// first.delta = Some(r#"{"q":"#.into());
/// let mut next = ToolCallChunk::default();
/// next.delta = Some(r#""pizza"}"#.into());
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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolCallChunk {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The call this chunk belongs to; absent continues the open one.
    pub tool_call_id: Option<String>,
    /// Which tool is being called, on the chunk that opens it.
    pub tool_call_name: Option<String>,
    /// The assistant message that holds this call.
    pub parent_message_id: Option<String>,
    /// A fragment of the arguments.
    pub delta: Option<String>,
}

/// `TOOL_CALL_RESULT` fields.
///
/// ```
/// use a2ui_stream::agui::events::Event;
///
/// let ev: Event = serde_json::from_str(
///     r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"call-1","content":"3 results"}"#,
/// ).unwrap();
/// let Event::ToolCallResult(result) = ev else { unreachable!() };
/// assert_eq!(result.tool_call_id, "call-1");
/// assert_eq!(result.content, "3 results");
/// assert_eq!(result.role, None); // optional on the wire
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolCallResult {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The tool message this result becomes.
    pub message_id: String,
    /// The call being answered.
    pub tool_call_id: String,
    /// What the tool returned, as a string.
    pub content: String,
    /// Always `"tool"` when present.
    pub role: Option<ToolRole>,
}

impl ToolCallResult {
    /// The result of `tool_call_id`, becoming tool message `message_id`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, ToolCallResult};
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
