//! Messages, tools and the request body ([`RunAgentInput`]).

use super::Metadata;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use serde_with::skip_serializing_none;

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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessage {
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// Identifies the message.
    pub id: String,
    /// Display name for the author.
    pub name: Option<String>,
    /// A provider's opaque artefact belonging to this message.
    pub encrypted_value: Option<String>,
    /// Extra information attached to this message.
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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssistantMessage {
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// Identifies the message.
    pub id: String,
    /// Display name for the author.
    pub name: Option<String>,
    /// A provider's opaque artefact belonging to this message.
    pub encrypted_value: Option<String>,
    /// Extra information attached to this message.
    pub metadata: Option<Metadata>,
    /// What the agent said, if anything.
    pub content: Option<String>,
    /// The tool calls this turn made.
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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserMessage {
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// Identifies the message.
    pub id: String,
    /// Display name for the author.
    pub name: Option<String>,
    /// A provider's opaque artefact belonging to this message.
    pub encrypted_value: Option<String>,
    /// Extra information attached to this message.
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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaContent {
    /// Where the bytes come from.
    pub source: InputContentSource,
    /// Extra information about this part.
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
#[skip_serializing_none]
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
        #[serde(rename = "mimeType")]
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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolMessage {
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// Identifies the message.
    pub id: String,
    /// What the tool returned.
    pub content: String,
    /// The call this answers.
    pub tool_call_id: String,
    /// Why the tool failed, when it did.
    pub error: Option<String>,
    /// A provider's opaque artefact belonging to this message.
    pub encrypted_value: Option<String>,
    /// Extra information attached to this message.
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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityMessage {
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// Identifies the message.
    pub id: String,
    /// What kind of activity this is.
    pub activity_type: String,
    /// The activity's payload.
    pub content: Map<String, Value>,
    /// Extra information attached to this message.
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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningMessage {
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// Identifies the message.
    pub id: String,
    /// The reasoning text.
    pub content: String,
    /// A provider's opaque reasoning artefact.
    pub encrypted_value: Option<String>,
    /// Extra information attached to this message.
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
#[skip_serializing_none]
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
    pub encrypted_value: Option<String>,
    /// Extra information attached to this call.
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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Tool {
    /// The tool's name.
    pub name: String,
    /// What the tool does.
    pub description: String,
    /// A JSON Schema describing the arguments.
    pub parameters: Option<Value>,
    /// Extra information about the tool.
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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResumeEntry {
    /// The interrupt being answered.
    pub interrupt_id: String,
    /// Whether the interrupt was answered or abandoned.
    pub status: String,
    /// The answer (any JSON value).
    pub payload: Option<Value>,
    /// Envelope information about the response.
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
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunAgentInput {
    /// The conversation this run belongs to.
    pub thread_id: String,
    /// Identifies this run.
    pub run_id: String,
    /// The run that spawned this one.
    pub parent_run_id: Option<String>,
    /// The state the run starts from.
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
    pub forwarded_props: Option<Value>,
    /// Answers to the interrupts that ended a previous run.
    pub resume: Option<Vec<ResumeEntry>>,
}
