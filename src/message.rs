//! One standalone A2UI message, as bytes, with what the splitter learned about it on the way.

use bytes::Bytes;
use std::fmt;
use std::sync::Arc;

/// What an A2UI message does, from its top-level key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageKind {
    /// v0.8 `beginRendering`.
    BeginRendering,
    /// v0.8 `surfaceUpdate`.
    SurfaceUpdate,
    /// v0.8 `dataModelUpdate`.
    DataModelUpdate,
    /// `deleteSurface` (v0.8 and v0.9).
    DeleteSurface,
    /// v0.9 `createSurface`.
    CreateSurface,
    /// v0.9 `updateComponents`.
    UpdateComponents,
    /// v0.9 `updateDataModel`.
    UpdateDataModel,
    /// Any other top-level key (or none): passed through whole.
    Unknown,
}

impl MessageKind {
    /// The kind named by a top-level key, compared byte for byte.
    ///
    /// ```
    /// use a2ui_stream::MessageKind;
    /// assert_eq!(MessageKind::from_key(b"surfaceUpdate"), Some(MessageKind::SurfaceUpdate));
    /// assert_eq!(MessageKind::from_key(b"version"), None);
    /// ```
    pub fn from_key(key: &[u8]) -> Option<MessageKind> {
        Some(match key {
            b"beginRendering" => MessageKind::BeginRendering,
            b"surfaceUpdate" => MessageKind::SurfaceUpdate,
            b"dataModelUpdate" => MessageKind::DataModelUpdate,
            b"deleteSurface" => MessageKind::DeleteSurface,
            b"createSurface" => MessageKind::CreateSurface,
            b"updateComponents" => MessageKind::UpdateComponents,
            b"updateDataModel" => MessageKind::UpdateDataModel,
            _ => return None,
        })
    }

    /// The top-level key of this kind (`""` for [`MessageKind::Unknown`]).
    ///
    /// ```
    /// use a2ui_stream::MessageKind;
    /// assert_eq!(MessageKind::UpdateComponents.key(), "updateComponents");
    /// ```
    pub fn key(self) -> &'static str {
        match self {
            MessageKind::BeginRendering => "beginRendering",
            MessageKind::SurfaceUpdate => "surfaceUpdate",
            MessageKind::DataModelUpdate => "dataModelUpdate",
            MessageKind::DeleteSurface => "deleteSurface",
            MessageKind::CreateSurface => "createSurface",
            MessageKind::UpdateComponents => "updateComponents",
            MessageKind::UpdateDataModel => "updateDataModel",
            MessageKind::Unknown => "",
        }
    }

    /// Whether this kind carries a component list that the splitter emits component by component.
    ///
    /// ```
    /// use a2ui_stream::MessageKind;
    /// assert!(MessageKind::SurfaceUpdate.has_components());
    /// assert!(!MessageKind::BeginRendering.has_components());
    /// ```
    pub fn has_components(self) -> bool {
        matches!(
            self,
            MessageKind::SurfaceUpdate | MessageKind::UpdateComponents
        )
    }
}

/// One standalone A2UI message: [`as_bytes`](Message::as_bytes) is the valid JSON of exactly one
/// message.
///
/// A message that arrived whole in one [`Bytes`] chunk shares that chunk's memory. A component
/// split out of a `surfaceUpdate` / `updateComponents` is wrapped as a message of its own:
///
/// ```
/// use a2ui_stream::{Event, MessageKind, Splitter};
///
/// let mut splitter = Splitter::new();
/// let input = br#"<a2ui-json>{"surfaceUpdate":{"surfaceId":"main","components":[{"id":"t","component":{"Text":{"text":{"literalString":"Hi"}}}}]}}</a2ui-json>"#;
/// let msg = splitter.feed(input).find_map(|e| match e { Ok(Event::Message(m)) => Some(m), _ => None }).unwrap();
/// assert_eq!(msg.kind(), MessageKind::SurfaceUpdate);
/// assert_eq!(msg.surface_id(), Some("main"));
/// assert_eq!(msg.component_id(), Some("t"));
/// assert_eq!(msg.as_bytes(), br#"{"surfaceUpdate":{"surfaceId":"main","components":[{"id":"t","component":{"Text":{"text":{"literalString":"Hi"}}}}]}}"#);
/// ```
#[derive(Clone)]
pub struct Message {
    pub(crate) bytes: Bytes,
    pub(crate) kind: MessageKind,
    pub(crate) version: Field,
    pub(crate) surface_id: Field,
    pub(crate) component_id: Field,
}

/// A string the message carries (`version`, `surfaceId`, a component's `id`). Most have no
/// escapes, so they are read straight out of the message's bytes and cost nothing until asked
/// for.
#[derive(Debug, Clone, Default)]
pub(crate) enum Field {
    /// Absent (or not a string).
    #[default]
    None,
    /// The raw JSON string, quotes included, is `bytes[start..end]` of the message; it has no
    /// escapes.
    Raw { start: usize, end: usize },
    /// A string with escapes (or one not among the message's bytes), decoded.
    Decoded(Arc<str>),
}

impl Field {
    fn get<'a>(&'a self, bytes: &'a [u8]) -> Option<&'a str> {
        match self {
            Field::None => None,
            Field::Raw { start, end } => bytes
                .get(start + 1..end.saturating_sub(1))
                .and_then(|s| std::str::from_utf8(s).ok()),
            Field::Decoded(s) => Some(s),
        }
    }
}

impl PartialEq for Message {
    fn eq(&self, other: &Message) -> bool {
        self.bytes == other.bytes
            && self.kind == other.kind
            && self.version() == other.version()
            && self.surface_id() == other.surface_id()
            && self.component_id() == other.component_id()
    }
}

impl Eq for Message {}

impl Message {
    /// The JSON text of this one message.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The JSON text as a `&str` (always valid UTF-8: the splitter checks every string).
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes).unwrap_or_default()
    }

    /// The JSON text as shared [`Bytes`], without copying.
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// Consumes the message, returning its JSON text.
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// What the message does.
    pub fn kind(&self) -> MessageKind {
        self.kind
    }

    /// The `version` field (`"v0.9"`), when the message has one.
    pub fn version(&self) -> Option<&str> {
        self.version.get(&self.bytes)
    }

    /// The `surfaceId` of the message body, when it has one.
    pub fn surface_id(&self) -> Option<&str> {
        self.surface_id.get(&self.bytes)
    }

    /// For a component split out of a `surfaceUpdate` / `updateComponents`, its `id`.
    pub fn component_id(&self) -> Option<&str> {
        self.component_id.get(&self.bytes)
    }

    /// Parses the message into a [`serde_json::Value`].
    ///
    /// ```
    /// use a2ui_stream::{Event, Splitter};
    /// let mut s = Splitter::new();
    /// let ev: Vec<_> = s.feed(br#"<a2ui-json>{"deleteSurface":{"surfaceId":"x"}}</a2ui-json>"#).collect();
    /// let Ok(Event::Message(m)) = &ev[0] else { panic!() };
    /// assert_eq!(m.to_value().unwrap()["deleteSurface"]["surfaceId"], "x");
    /// ```
    pub fn to_value(&self) -> serde_json::Result<serde_json::Value> {
        serde_json::from_slice(&self.bytes)
    }
}

impl fmt::Debug for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Message")
            .field("kind", &self.kind)
            .field("surface_id", &self.surface_id())
            .field("component_id", &self.component_id())
            .field("json", &String::from_utf8_lossy(&self.bytes))
            .finish()
    }
}

/// What the splitter hands back: prose, or one complete A2UI message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Prose outside A2UI JSON. Tag and fence bytes never appear here. Text may be cut anywhere,
    /// even inside a UTF-8 character: concatenate the pieces.
    Text(Bytes),
    /// One standalone A2UI message.
    Message(Message),
}
