//! Messages, tools and the request body ([`RunAgentInput`]).

use super::Metadata;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use serde_with::skip_serializing_none;

/// Any message in a conversation, tagged by `role`.
///
/// ```
/// use a2ui_stream::agui::events::ChatMessage;
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

impl ChatMessage {
    /// The message's id, whatever its role.
    ///
    /// ```
    /// use a2ui_stream::agui::events::ChatMessage;
    /// let m: ChatMessage = serde_json::from_str(r#"{"id":"t1","role":"tool","toolCallId":"c","content":"[]"}"#).unwrap();
    /// assert_eq!(m.id(), "t1");
    /// ```
    pub fn id(&self) -> &str {
        match self {
            ChatMessage::Developer(m) | ChatMessage::System(m) => &m.id,
            ChatMessage::Assistant(m) => &m.id,
            ChatMessage::User(m) => &m.id,
            ChatMessage::Tool(m) => &m.id,
            ChatMessage::Activity(m) => &m.id,
            ChatMessage::Reasoning(m) => &m.id,
        }
    }
}

/// A developer or system message.
///
/// ```
/// use a2ui_stream::agui::events::{ChatMessage, TextMessage};
/// use serde_json::json;
///
/// let system = TextMessage::new("s1", "Be brief.");
/// assert_eq!(
///     serde_json::to_value(ChatMessage::System(system)).unwrap(),
///     json!({"role": "system", "id": "s1", "content": "Be brief."})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

impl TextMessage {
    /// Developer or system message `id` with instructions `content`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{ChatMessage, TextMessage};
    /// use serde_json::json;
    ///
    /// let mut developer = TextMessage::new("d1", "Answer in French.");
    /// developer.name = Some("ops".into());
    /// assert_eq!(
    ///     serde_json::to_value(ChatMessage::Developer(developer)).unwrap(),
    ///     json!({"role": "developer", "id": "d1", "name": "ops", "content": "Answer in French."})
    /// );
    /// ```
    pub fn new(id: impl Into<String>, content: impl Into<String>) -> Self {
        TextMessage {
            id: id.into(),
            content: content.into(),
            ..Default::default()
        }
    }
}

/// A message from the agent.
///
/// ```
/// use a2ui_stream::agui::events::{AssistantMessage, ChatMessage, FunctionCall, ToolCall};
/// use serde_json::json;
///
/// // A turn that only calls a tool has no `content` at all.
/// let call = ToolCall::new("call-1", FunctionCall::new("search", r#"{"q":"pizza"}"#));
/// let mut msg = AssistantMessage::new("m1");
/// msg.tool_calls = Some(vec![call]);
/// assert_eq!(
///     serde_json::to_value(ChatMessage::Assistant(msg)).unwrap(),
///     json!({"role": "assistant", "id": "m1", "toolCalls": [{"id": "call-1", "type": "function",
///            "function": {"name": "search", "arguments": "{\"q\":\"pizza\"}"}}]})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

impl AssistantMessage {
    /// Assistant message `id`, with no content and no tool calls yet.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{AssistantMessage, ChatMessage};
    /// use serde_json::json;
    ///
    /// let mut msg = AssistantMessage::new("m1");
    /// assert_eq!(msg.tool_calls, None);
    /// msg.content = Some("Here are three places.".into());
    /// assert_eq!(
    ///     serde_json::to_value(ChatMessage::Assistant(msg)).unwrap(),
    ///     json!({"role": "assistant", "id": "m1", "content": "Here are three places."})
    /// );
    /// ```
    pub fn new(id: impl Into<String>) -> Self {
        AssistantMessage {
            id: id.into(),
            ..Default::default()
        }
    }
}

/// A message from the person using the application.
///
/// ```
/// use a2ui_stream::agui::events::{ChatMessage, UserContent, UserMessage};
/// use serde_json::json;
///
/// let mut msg = UserMessage::new("u1", UserContent::Text("Find food".into()));
/// msg.name = Some("Ada".into());
/// assert_eq!(
///     serde_json::to_value(ChatMessage::User(msg)).unwrap(),
///     json!({"role": "user", "id": "u1", "name": "Ada", "content": "Find food"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

impl UserMessage {
    /// User message `id` saying `content`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{ChatMessage, InputContent, UserContent, UserMessage};
    /// use serde_json::json;
    ///
    /// let parts = vec![InputContent::Text { text: "Find food".into() }];
    /// let msg = UserMessage::new("u1", UserContent::Parts(parts));
    /// assert_eq!(msg.name, None);
    /// assert_eq!(
    ///     serde_json::to_value(ChatMessage::User(msg)).unwrap(),
    ///     json!({"role": "user", "id": "u1", "content": [{"type": "text", "text": "Find food"}]})
    /// );
    /// ```
    pub fn new(id: impl Into<String>, content: UserContent) -> Self {
        UserMessage {
            subagent_run_id: None,
            id: id.into(),
            name: None,
            encrypted_value: None,
            metadata: None,
            content,
        }
    }
}

/// The content of a user message.
///
/// ```
/// use a2ui_stream::agui::events::{InputContent, UserContent};
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

impl UserContent {
    /// The text: plain text as it is, or the text parts joined by line breaks (`None` when
    /// there are none).
    ///
    /// ```
    /// use a2ui_stream::agui::events::{InputContent, UserContent};
    ///
    /// assert_eq!(UserContent::Text("Hi".into()).text().as_deref(), Some("Hi"));
    /// let parts = UserContent::Parts(vec![InputContent::Text { text: "a".into() }, InputContent::Text { text: "b".into() }]);
    /// assert_eq!(parts.text().as_deref(), Some("a\nb"));
    /// assert_eq!(UserContent::Parts(vec![]).text(), None);
    /// ```
    pub fn text(&self) -> Option<String> {
        match self {
            UserContent::Text(t) => Some(t.clone()),
            UserContent::Parts(parts) => {
                let texts: Vec<&str> = parts
                    .iter()
                    .filter_map(|p| match p {
                        InputContent::Text { text } => Some(text.as_str()),
                        _ => None,
                    })
                    .collect();
                (!texts.is_empty()).then(|| texts.join("\n"))
            }
        }
    }
}

/// One part of a multimodal user message, tagged by `type`.
///
/// ```
/// use a2ui_stream::agui::events::{InputContent, InputContentSource, MediaContent};
/// use serde_json::json;
///
/// let text = InputContent::Text { text: "What is this?".into() };
/// assert_eq!(serde_json::to_value(text).unwrap(), json!({"type": "text", "text": "What is this?"}));
/// let image = InputContent::Image(MediaContent::new(InputContentSource::Url {
///     value: "https://example.com/a.png".into(),
///     mime_type: None,
/// }));
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
/// use a2ui_stream::agui::events::{InputContentSource, MediaContent};
/// use serde_json::json;
///
/// let mut pdf = MediaContent::new(InputContentSource::Data {
///     value: "JVBERi0=".into(),
///     mime_type: "application/pdf".into(),
/// });
/// pdf.metadata = Some(json!({"pages": 1}));
/// assert_eq!(
///     serde_json::to_value(pdf).unwrap(),
///     json!({"source": {"type": "data", "value": "JVBERi0=", "mimeType": "application/pdf"},
///            "metadata": {"pages": 1}})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct MediaContent {
    /// Where the bytes come from.
    pub source: InputContentSource,
    /// Extra information about this part.
    pub metadata: Option<Value>,
}

impl MediaContent {
    /// A media part whose bytes come from `source`, with no metadata.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{InputContentSource, MediaContent};
    /// use serde_json::json;
    ///
    /// let audio = MediaContent::new(InputContentSource::Url {
    ///     value: "https://example.com/a.mp3".into(),
    ///     mime_type: Some("audio/mpeg".into()),
    /// });
    /// assert_eq!(audio.metadata, None);
    /// assert_eq!(
    ///     serde_json::to_value(audio).unwrap(),
    ///     json!({"source": {"type": "url", "value": "https://example.com/a.mp3", "mimeType": "audio/mpeg"}})
    /// );
    /// ```
    pub fn new(source: InputContentSource) -> Self {
        MediaContent {
            source,
            metadata: None,
        }
    }
}

/// Where a media part's bytes come from, tagged by `type`.
///
/// ```
/// use a2ui_stream::agui::events::InputContentSource;
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
/// use a2ui_stream::agui::events::{ChatMessage, ToolMessage};
/// use serde_json::json;
///
/// let msg = ToolMessage::new("t1", "call-1", "3 results");
/// assert_eq!(
///     serde_json::to_value(ChatMessage::Tool(msg)).unwrap(),
///     json!({"role": "tool", "id": "t1", "content": "3 results", "toolCallId": "call-1"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

impl ToolMessage {
    /// Tool message `id`: what call `tool_call_id` returned, `content`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{ChatMessage, ToolMessage};
    /// use serde_json::json;
    ///
    /// let mut msg = ToolMessage::new("t1", "call-1", "");
    /// msg.error = Some("timed out".into());
    /// assert_eq!(
    ///     serde_json::to_value(ChatMessage::Tool(msg)).unwrap(),
    ///     json!({"role": "tool", "id": "t1", "content": "", "toolCallId": "call-1", "error": "timed out"})
    /// );
    /// ```
    pub fn new(
        id: impl Into<String>,
        tool_call_id: impl Into<String>,
        content: impl Into<String>,
    ) -> Self {
        ToolMessage {
            id: id.into(),
            content: content.into(),
            tool_call_id: tool_call_id.into(),
            ..Default::default()
        }
    }
}

/// Structured progress materialised as a message.
///
/// ```
/// use a2ui_stream::agui::events::ChatMessage;
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
#[non_exhaustive]
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
/// use a2ui_stream::agui::events::{ChatMessage, ReasoningMessage};
/// use serde_json::json;
///
/// let msg = ReasoningMessage::new("r1", "Check the map first.");
/// assert_eq!(
///     serde_json::to_value(ChatMessage::Reasoning(msg)).unwrap(),
///     json!({"role": "reasoning", "id": "r1", "content": "Check the map first."})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

impl ReasoningMessage {
    /// Reasoning message `id` with text `content`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::ReasoningMessage;
    ///
    /// let msg = ReasoningMessage::new("r1", "Check the map first.");
    /// assert_eq!(msg.content, "Check the map first.");
    /// assert_eq!(msg.encrypted_value, None);
    /// ```
    pub fn new(id: impl Into<String>, content: impl Into<String>) -> Self {
        ReasoningMessage {
            id: id.into(),
            content: content.into(),
            ..Default::default()
        }
    }
}

/// The only kind of tool call the protocol models: `"function"`.
///
/// ```
/// use a2ui_stream::agui::events::ToolCallType;
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
/// use a2ui_stream::agui::events::{ToolCall, ToolCallType};
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
#[non_exhaustive]
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

impl ToolCall {
    /// Call `id` of a function: `function` names it and carries its arguments.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{FunctionCall, ToolCall, ToolCallType};
    /// use serde_json::json;
    ///
    /// let call = ToolCall::new("call-1", FunctionCall::new("search", "{}"));
    /// assert_eq!(call.kind, ToolCallType::Function);
    /// assert_eq!(
    ///     serde_json::to_value(call).unwrap(),
    ///     json!({"id": "call-1", "type": "function", "function": {"name": "search", "arguments": "{}"}})
    /// );
    /// ```
    pub fn new(id: impl Into<String>, function: FunctionCall) -> Self {
        ToolCall {
            id: id.into(),
            function,
            ..Default::default()
        }
    }
}

/// The name and arguments of a tool call.
///
/// ```
/// use a2ui_stream::agui::events::FunctionCall;
/// use serde_json::json;
///
/// // The arguments stay a string, exactly as written, not a nested object.
/// let call = FunctionCall::new("search", r#"{"q": "pizza"}"#);
/// assert_eq!(
///     serde_json::to_value(&call).unwrap(),
///     json!({"name": "search", "arguments": "{\"q\": \"pizza\"}"})
/// );
/// let args: serde_json::Value = serde_json::from_str(&call.arguments).unwrap();
/// assert_eq!(args["q"], "pizza");
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FunctionCall {
    /// Which tool is being called.
    pub name: String,
    /// The arguments as a JSON string, kept as written.
    pub arguments: String,
}

impl FunctionCall {
    /// A call of tool `name` with `arguments`, a JSON document kept as written.
    ///
    /// ```
    /// use a2ui_stream::agui::events::FunctionCall;
    ///
    /// let call = FunctionCall::new("search", "{}");
    /// assert_eq!(call.name, "search");
    /// assert_eq!(call.arguments, "{}");
    /// ```
    pub fn new(name: impl Into<String>, arguments: impl Into<String>) -> Self {
        FunctionCall {
            name: name.into(),
            arguments: arguments.into(),
        }
    }
}

/// A tool the agent may call.
///
/// ```
/// use a2ui_stream::agui::events::Tool;
/// use serde_json::json;
///
/// let mut tool = Tool::new("search", "Find restaurants");
/// tool.parameters = Some(json!({"type": "object", "properties": {"q": {"type": "string"}}}));
/// assert_eq!(
///     serde_json::to_value(tool).unwrap(),
///     json!({"name": "search", "description": "Find restaurants",
///            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[non_exhaustive]
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

impl Tool {
    /// Tool `name`, described by `description`, with no parameter schema.
    ///
    /// ```
    /// use a2ui_stream::agui::events::Tool;
    /// use serde_json::json;
    ///
    /// let tool = Tool::new("now", "The current time");
    /// assert_eq!(tool.parameters, None);
    /// assert_eq!(
    ///     serde_json::to_value(tool).unwrap(),
    ///     json!({"name": "now", "description": "The current time"})
    /// );
    /// ```
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Tool {
            name: name.into(),
            description: description.into(),
            ..Default::default()
        }
    }
}

/// A named piece of ambient information given to the agent for the run.
///
/// ```
/// use a2ui_stream::agui::events::Context;
/// use serde_json::json;
///
/// let ctx: Context =
///     serde_json::from_value(json!({"description": "The user's city", "value": "Lisbon"})).unwrap();
/// assert_eq!(ctx, Context::new("The user's city", "Lisbon"));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Context {
    /// What this context is.
    pub description: String,
    /// The context itself.
    pub value: String,
}

impl Context {
    /// Context `value`, described by `description`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::Context;
    /// use serde_json::json;
    ///
    /// let ctx = Context::new("The user's city", "Lisbon");
    /// assert_eq!(
    ///     serde_json::to_value(ctx).unwrap(),
    ///     json!({"description": "The user's city", "value": "Lisbon"})
    /// );
    /// ```
    pub fn new(description: impl Into<String>, value: impl Into<String>) -> Self {
        Context {
            description: description.into(),
            value: value.into(),
        }
    }
}

/// An answer to one interrupt, sent on the run that continues from it.
///
/// ```
/// use a2ui_stream::agui::events::ResumeEntry;
/// use serde_json::json;
///
/// let mut entry = ResumeEntry::new("i1", "resolved");
/// entry.payload = Some(json!({"approved": true}));
/// assert_eq!(
///     serde_json::to_value(entry).unwrap(),
///     json!({"interruptId": "i1", "status": "resolved", "payload": {"approved": true}})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

impl ResumeEntry {
    /// Answers interrupt `interrupt_id` with `status`, and no payload.
    ///
    /// ```
    /// use a2ui_stream::agui::events::ResumeEntry;
    /// use serde_json::json;
    ///
    /// let entry = ResumeEntry::new("i1", "cancelled");
    /// assert_eq!(entry.payload, None);
    /// assert_eq!(serde_json::to_value(entry).unwrap(), json!({"interruptId": "i1", "status": "cancelled"}));
    /// ```
    pub fn new(interrupt_id: impl Into<String>, status: impl Into<String>) -> Self {
        ResumeEntry {
            interrupt_id: interrupt_id.into(),
            status: status.into(),
            ..Default::default()
        }
    }
}

/// The request body that starts a run (the client POSTs it; `RUN_STARTED.input` echoes it).
///
/// ```
/// use a2ui_stream::agui::events::RunAgentInput;
/// let input: RunAgentInput = serde_json::from_str(
///     r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"Find food"}]}"#,
/// ).unwrap();
/// assert_eq!(input.messages.len(), 1);
/// assert!(input.tools.is_empty());
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

impl RunAgentInput {
    /// Run `run_id` of thread `thread_id`, with no messages, tools or context yet.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{ChatMessage, RunAgentInput, UserContent, UserMessage};
    /// use serde_json::json;
    ///
    /// let mut input = RunAgentInput::new("t", "r");
    /// input.messages.push(ChatMessage::User(UserMessage::new("u1", UserContent::Text("Hi".into()))));
    /// assert_eq!(
    ///     serde_json::to_value(input).unwrap(),
    ///     json!({"threadId": "t", "runId": "r",
    ///            "messages": [{"role": "user", "id": "u1", "content": "Hi"}]})
    /// );
    /// ```
    pub fn new(thread_id: impl Into<String>, run_id: impl Into<String>) -> Self {
        RunAgentInput {
            thread_id: thread_id.into(),
            run_id: run_id.into(),
            ..Default::default()
        }
    }

    /// The text of the conversation's last user message (its text parts joined by line
    /// breaks), or `None` when the last message is not the user's or holds no text: what an
    /// agent answers.
    ///
    /// ```
    /// use a2ui_stream::agui::events::RunAgentInput;
    ///
    /// let input: RunAgentInput = serde_json::from_str(r#"{"threadId":"t","runId":"r","messages":[
    ///     {"role":"user","id":"u1","content":"Hi"},
    ///     {"role":"assistant","id":"a1","content":"Hello!"},
    ///     {"role":"user","id":"u2","content":[{"type":"text","text":"Tacos"},{"type":"text","text":"in Austin"}]}
    /// ]}"#).unwrap();
    /// assert_eq!(input.user_text().as_deref(), Some("Tacos\nin Austin"));
    /// assert_eq!(RunAgentInput::new("t", "r").user_text(), None);
    /// ```
    pub fn user_text(&self) -> Option<String> {
        match self.messages.last()? {
            ChatMessage::User(m) => m.content.text().filter(|t| !t.trim().is_empty()),
            _ => None,
        }
    }
}
