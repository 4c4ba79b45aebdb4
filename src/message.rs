//! One standalone A2UI message, as bytes, with what the splitter learned about it on the way.

use bytes::Bytes;
use std::fmt;
use std::sync::Arc;

/// What an A2UI message does, from its top-level key.
///
/// ```
/// use a2ui_stream::{Config, Event, MessageKind, Splitter};
/// let mut splitter = Splitter::with_config(Config::bare());
/// let input = br#"[{"beginRendering":{"surfaceId":"s","root":"r"}},{"dataModelUpdate":{"surfaceId":"s","contents":[]}},{"other":{}}]"#;
/// let kinds: Vec<_> = splitter.feed(input).map(|e| match e.unwrap() {
///     Event::Message(m) => m.kind(),
///     Event::Text(_) => unreachable!(),
/// }).collect();
/// assert_eq!(kinds, [MessageKind::BeginRendering, MessageKind::DataModelUpdate, MessageKind::Unknown]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageKind {
    /// v0.8 `beginRendering`.
    BeginRendering,
    /// v0.8 `surfaceUpdate`.
    SurfaceUpdate,
    /// v0.8 `dataModelUpdate`.
    DataModelUpdate,
    /// `deleteSurface` (v0.8 and later).
    DeleteSurface,
    /// v0.9 and v1.0 `createSurface`.
    CreateSurface,
    /// v0.9 and v1.0 `updateComponents` (split component by component, whatever its `version`).
    UpdateComponents,
    /// v0.9 `updateDataModel`.
    UpdateDataModel,
    /// v1.0 `callRendererFunction`: the agent asks the renderer to run a function.
    CallRendererFunction,
    /// v1.0 `agentFunctionResponse`: the agent answers a function call of the renderer.
    AgentFunctionResponse,
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
            b"callRendererFunction" => MessageKind::CallRendererFunction,
            b"agentFunctionResponse" => MessageKind::AgentFunctionResponse,
            _ => return None,
        })
    }

    /// The top-level key of this kind (`""` for [`MessageKind::Unknown`]).
    ///
    /// ```
    /// use a2ui_stream::MessageKind;
    /// assert_eq!(MessageKind::UpdateComponents.key(), "updateComponents");
    /// ```
    pub const fn key(self) -> &'static str {
        match self {
            MessageKind::BeginRendering => "beginRendering",
            MessageKind::SurfaceUpdate => "surfaceUpdate",
            MessageKind::DataModelUpdate => "dataModelUpdate",
            MessageKind::DeleteSurface => "deleteSurface",
            MessageKind::CreateSurface => "createSurface",
            MessageKind::UpdateComponents => "updateComponents",
            MessageKind::UpdateDataModel => "updateDataModel",
            MessageKind::CallRendererFunction => "callRendererFunction",
            MessageKind::AgentFunctionResponse => "agentFunctionResponse",
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

    /// Whether a message of this kind may hold a `components` list: those of
    /// [`has_components`](MessageKind::has_components), and a `createSurface` (whose inline list
    /// only v1.0 speaks: [`Version::inline_surface`]).
    pub(crate) fn may_list_components(self) -> bool {
        self.has_components() || self == MessageKind::CreateSurface
    }
}

/// An A2UI protocol version, and the message kinds it speaks.
///
/// ```
/// use a2ui_stream::Version;
/// assert!(Version::V08 < Version::V09);
/// assert_eq!(Version::V08.to_string(), "0.8");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Version {
    /// v0.8: `beginRendering`, `surfaceUpdate`, `dataModelUpdate`, `deleteSurface`; components are
    /// `{"id": .., "component": {"Type": {props}}}`.
    V08,
    /// v0.9: `createSurface`, `updateComponents`, `updateDataModel`, `deleteSurface`, each with
    /// `"version": "v0.9"`; components are flat, `{"id": .., "component": "Type", props..}`.
    V09,
    /// v1.0: the v0.9 messages (`createSurface` may carry inline `components` and a `dataModel`)
    /// plus `callRendererFunction` and `agentFunctionResponse`, each with `"version": "v1.0"`.
    V10,
}

impl Version {
    /// Reads a version as written in catalogs and messages: `"0.8"`, `"v0.8"`, `"0.9"`, `"v0.9"`
    /// (and `"0.9.1"`, which speaks the v0.9 message set).
    ///
    /// ```
    /// use a2ui_stream::Version;
    /// assert_eq!(Version::parse("v0.9"), Some(Version::V09));
    /// assert_eq!(Version::parse("0.8"), Some(Version::V08));
    /// assert_eq!(Version::parse("1.0"), Some(Version::V10));
    /// assert_eq!(Version::parse("2.0"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Version> {
        match text.trim().trim_start_matches('v') {
            "0.8" => Some(Version::V08),
            "0.9" | "0.9.1" => Some(Version::V09),
            "1.0" => Some(Version::V10),
            _ => None,
        }
    }

    /// The version as catalogs write it: `"0.8"`, `"0.9"` or `"1.0"`.
    ///
    /// ```
    /// use a2ui_stream::Version;
    /// assert_eq!(Version::V09.as_str(), "0.9");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Version::V08 => "0.8",
            Version::V09 => "0.9",
            Version::V10 => "1.0",
        }
    }

    /// The version as v0.9 messages carry it in their `version` field (`"v0.8"` / `"v0.9"`).
    ///
    /// ```
    /// use a2ui_stream::Version;
    /// assert_eq!(Version::V09.message_tag(), "v0.9");
    /// ```
    pub fn message_tag(self) -> &'static str {
        match self {
            Version::V08 => "v0.8",
            Version::V09 => "v0.9",
            Version::V10 => "v1.0",
        }
    }
}

impl Version {
    /// The version a message's `version` field names, compared as messages write it: `"v0.8"`,
    /// `"v0.9"` or `"v1.0"`.
    pub(crate) fn from_tag(tag: &str) -> Option<Version> {
        [Version::V08, Version::V09, Version::V10]
            .into_iter()
            .find(|v| v.message_tag() == tag)
    }

    /// Whether this version's `createSurface` may carry the surface's first `components` and
    /// `dataModel` inline (v1.0).
    pub(crate) fn inline_surface(self) -> bool {
        self >= Version::V10
    }

    /// The kinds of message this version speaks, in the order the official SDK looks for a
    /// message's kind among its keys.
    pub(crate) fn kinds(self) -> &'static [MessageKind] {
        match self {
            Version::V08 => &[
                MessageKind::SurfaceUpdate,
                MessageKind::BeginRendering,
                MessageKind::DeleteSurface,
                MessageKind::DataModelUpdate,
            ],
            Version::V09 => &[
                MessageKind::CreateSurface,
                MessageKind::UpdateComponents,
                MessageKind::DeleteSurface,
                MessageKind::UpdateDataModel,
            ],
            Version::V10 => &[
                MessageKind::CreateSurface,
                MessageKind::UpdateComponents,
                MessageKind::DeleteSurface,
                MessageKind::UpdateDataModel,
                MessageKind::CallRendererFunction,
                MessageKind::AgentFunctionResponse,
            ],
        }
    }

    /// The message that carries components: `surfaceUpdate` or `updateComponents`.
    #[cfg(feature = "official")]
    pub(crate) fn components(self) -> MessageKind {
        match self {
            Version::V08 => MessageKind::SurfaceUpdate,
            Version::V09 | Version::V10 => MessageKind::UpdateComponents,
        }
    }

    /// The message that updates the data model: `dataModelUpdate` or `updateDataModel`.
    #[cfg(feature = "legacy")]
    pub(crate) fn data(self) -> MessageKind {
        match self {
            Version::V08 => MessageKind::DataModelUpdate,
            Version::V09 | Version::V10 => MessageKind::UpdateDataModel,
        }
    }

    /// The kind of `message` and its payload: the first of [`kinds`](Version::kinds) that is
    /// one of its keys.
    #[cfg(feature = "legacy")]
    pub(crate) fn kind_of(
        self,
        message: &serde_json::Value,
    ) -> Option<(MessageKind, &serde_json::Value)> {
        self.kinds()
            .iter()
            .find_map(|&kind| message.get(kind.key()).map(|payload| (kind, payload)))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
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
    /// This message with its bytes [repaired](crate::scan::repair) to valid JSON (what a lenient
    /// lexer read), [straightened](crate::scan::straighten) first when its block uses curly
    /// quotes for JSON quotes; its fields decoded from the bytes as they were, or read again
    /// from the repaired JSON when straightened (their places moved).
    pub(crate) fn repaired(self, straightened: bool) -> Message {
        if straightened {
            let bytes = crate::scan::straighten(&self.bytes);
            let bytes = crate::scan::repair(&bytes).into_owned();
            return Message::read_fields(self.kind, Bytes::from(bytes));
        }
        let std::borrow::Cow::Owned(bytes) = crate::scan::repair(&self.bytes) else {
            return self;
        };
        let decoded = |f: &Field| match f.get(&self.bytes) {
            Some(text) => Field::Decoded(Arc::from(text)),
            None => Field::None,
        };
        Message {
            version: decoded(&self.version),
            surface_id: decoded(&self.surface_id),
            component_id: decoded(&self.component_id),
            kind: self.kind,
            bytes: Bytes::from(bytes),
        }
    }

    /// A message of kind `kind` whose fields are read from its JSON `bytes` (a message made
    /// valid by [`Message::repaired`]).
    fn read_fields(kind: MessageKind, bytes: Bytes) -> Message {
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
        let body = value.get(kind.key());
        let text = |v: Option<&serde_json::Value>| {
            v.and_then(serde_json::Value::as_str)
                .map_or(Field::None, |t| Field::Decoded(Arc::from(t)))
        };
        let components = body
            .and_then(|b| b.get("components"))
            .and_then(serde_json::Value::as_array);
        let component_id = match components.map(Vec::as_slice) {
            Some([only]) => text(only.get("id")),
            _ => Field::None,
        };
        Message {
            version: text(value.get("version")),
            surface_id: text(body.and_then(|b| b.get("surfaceId"))),
            component_id,
            kind,
            bytes,
        }
    }

    /// The JSON text of this one message.
    ///
    /// ```
    /// use a2ui_stream::{Event, Splitter};
    /// let mut splitter = Splitter::new();
    /// let out: Vec<_> = splitter.feed(br#"<a2ui-json> {"deleteSurface": {"surfaceId": "s"}} </a2ui-json>"#).collect();
    /// let Ok(Event::Message(m)) = &out[0] else { panic!() };
    /// // The message as written, without the whitespace and tags around it.
    /// assert_eq!(m.as_bytes(), br#"{"deleteSurface": {"surfaceId": "s"}}"#);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The JSON text as a `&str` (always valid UTF-8: the splitter checks every string).
    ///
    /// ```
    /// use a2ui_stream::{Event, Splitter};
    /// let mut splitter = Splitter::new();
    /// let input = r#"<a2ui-json>{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{}},{"id":"b","component":{}}]}}</a2ui-json>"#;
    /// let out: Vec<_> = splitter.feed(input.as_bytes()).collect();
    /// let Ok(Event::Message(m)) = &out[1] else { panic!() };
    /// // The second component, wrapped as a message of its own.
    /// assert_eq!(m.as_str(), r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"b","component":{}}]}}"#);
    /// ```
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes).unwrap_or_default()
    }

    /// The JSON text as shared [`Bytes`], without copying.
    ///
    /// ```
    /// use a2ui_stream::{Event, Splitter};
    /// let chunk = bytes::Bytes::from_static(br#"<a2ui-json>{"deleteSurface":{"surfaceId":"s"}}</a2ui-json>"#);
    /// let mut splitter = Splitter::new();
    /// let out: Vec<_> = splitter.feed_bytes(chunk.clone()).collect();
    /// let Ok(Event::Message(m)) = &out[0] else { panic!() };
    /// assert_eq!(m.bytes(), &chunk.slice(11..46));
    /// assert_eq!(m.bytes().as_ptr(), chunk[11..].as_ptr()); // the chunk's memory, not a copy
    /// ```
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// What the message does.
    ///
    /// ```
    /// use a2ui_stream::{Config, Event, MessageKind, Splitter};
    /// let mut splitter = Splitter::with_config(Config::bare());
    /// let out: Vec<_> = splitter.feed(br#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{}}}"#).collect();
    /// let Ok(Event::Message(m)) = &out[0] else { panic!() };
    /// assert_eq!(m.kind(), MessageKind::UpdateDataModel);
    /// assert!(!m.kind().has_components()); // passed through whole
    /// ```
    pub fn kind(&self) -> MessageKind {
        self.kind
    }

    /// The `version` field (`"v0.9"`), when the message has one.
    ///
    /// ```
    /// use a2ui_stream::{Config, Event, Splitter};
    /// let mut splitter = Splitter::with_config(Config::bare());
    /// let input = br#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"t","component":"Text"}]}}"#;
    /// let out: Vec<_> = splitter.feed(input).collect();
    /// let Ok(Event::Message(m)) = &out[0] else { panic!() };
    /// assert_eq!(m.component_id(), Some("t"));
    /// assert_eq!(m.version(), Some("v0.9")); // a split-out component keeps its message's version
    /// ```
    pub fn version(&self) -> Option<&str> {
        self.version.get(&self.bytes)
    }

    /// The `surfaceId` of the message body, when it has one.
    ///
    /// ```
    /// use a2ui_stream::{Event, Splitter};
    /// let mut splitter = Splitter::new();
    /// let mut out = Vec::new();
    /// for chunk in [r#"<a2ui-json>{"beginRendering":{"surfaceId":"a\u002F"#, r#"b","root":"r"}}</a2ui-json>"#] {
    ///     out.extend(splitter.feed(chunk.as_bytes()));
    /// }
    /// let Ok(Event::Message(m)) = &out[0] else { panic!() };
    /// assert_eq!(m.surface_id(), Some("a/b")); // escapes decoded
    /// ```
    pub fn surface_id(&self) -> Option<&str> {
        self.surface_id.get(&self.bytes)
    }

    /// For a component split out of a `surfaceUpdate` / `updateComponents`, its `id`.
    ///
    /// ```
    /// use a2ui_stream::{Event, Splitter};
    /// let mut splitter = Splitter::new();
    /// let input = r#"<a2ui-json>[{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{}},{"id":"b","component":{}}]}},
    /// {"beginRendering":{"surfaceId":"s","root":"a"}}]</a2ui-json>"#;
    /// let ids: Vec<_> = splitter.feed(input.as_bytes()).filter_map(|e| match e.unwrap() {
    ///     Event::Message(m) => Some(m.component_id().map(str::to_owned)),
    ///     Event::Text(_) => None,
    /// }).collect();
    /// assert_eq!(ids, [Some("a".into()), Some("b".into()), None]);
    /// ```
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
///
/// ```
/// use a2ui_stream::{Event, MessageKind, Splitter};
/// let mut splitter = Splitter::new();
/// let mut out: Vec<Event> = Vec::new();
/// for chunk in ["Sure <a2ui-js", r#"on>{"deleteSurface":{"surfaceId":"s"}}</a2ui-json> done"#] {
///     out.extend(splitter.feed(chunk.as_bytes()).map(Result::unwrap));
/// }
/// out.extend(splitter.finish().map(Result::unwrap));
/// assert!(matches!(&out[..], [Event::Text(a), Event::Message(m), Event::Text(b)]
///     if a == "Sure " && m.kind() == MessageKind::DeleteSurface && b == " done"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Prose outside A2UI JSON. Tag and fence bytes never appear here. Text is never cut inside
    /// a UTF-8 character (a character a chunk cut waits for its last byte), so each piece of
    /// valid input decodes on its own.
    Text(Bytes),
    /// One standalone A2UI message.
    Message(Message),
}
