//! A2UI over AG-UI: each surface is one activity message of type `a2ui-surface`.
//!
//! The first A2UI message for a surface becomes an `ACTIVITY_SNAPSHOT` whose content is
//! `{"a2ui_operations": [message]}`; every later message for that surface is an
//! `ACTIVITY_DELTA` appending it with `{"op":"add","path":"/a2ui_operations/-","value":message}`.
//! So each message crosses the wire once and the bytes sent grow linearly with the UI, and a
//! renderer that applies the patches holds the surface's full operation list. A v0.8
//! `surfaceUpdate` goes out completed by [`SelfContained`], so that a
//! renderer checking each message on its own accepts it.
//!
//! ```
//! use a2ui_stream::agui::A2uiActivities;
//! use a2ui_stream::agui::events::Event;
//! use serde_json::json;
//!
//! let mut surfaces = A2uiActivities::new("run-1");
//! let first = surfaces.push_value(Some("main"), json!({"beginRendering": {"surfaceId": "main", "root": "r"}}));
//! let second = surfaces.push_value(Some("main"), json!({"surfaceUpdate": {"surfaceId": "main", "components": []}}));
//! assert_eq!(serde_json::to_value(&first).unwrap(), json!({
//!     "type": "ACTIVITY_SNAPSHOT", "messageId": "run-1-a2ui-main", "activityType": "a2ui-surface",
//!     "content": {"a2ui_operations": [{"beginRendering": {"surfaceId": "main", "root": "r"}}]}
//! }));
//! assert_eq!(serde_json::to_value(&second).unwrap(), json!({
//!     "type": "ACTIVITY_DELTA", "messageId": "run-1-a2ui-main", "activityType": "a2ui-surface",
//!     "patch": [{"op": "add", "path": "/a2ui_operations/-",
//!                "value": {"surfaceUpdate": {"surfaceId": "main", "components": []}}}]
//! }));
//! ```

use super::closure::SelfContained;
use super::events::{ActivityDelta, ActivitySnapshot, Event, PatchOp};
use crate::{Message, MessageKind};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The `activityType` of an A2UI surface activity.
///
/// ```
/// use a2ui_stream::agui::{A2uiActivities, A2UI_ACTIVITY_TYPE};
/// use a2ui_stream::agui::events::Event;
/// use serde_json::json;
///
/// let mut surfaces = A2uiActivities::new("run-1");
/// let begin = json!({"beginRendering": {"surfaceId": "main", "root": "r"}});
/// let Event::ActivitySnapshot(s) = surfaces.push_value(Some("main"), begin) else { panic!() };
/// assert_eq!(s.activity_type, A2UI_ACTIVITY_TYPE);
/// assert_eq!(A2UI_ACTIVITY_TYPE, "a2ui-surface");
/// ```
pub const A2UI_ACTIVITY_TYPE: &str = "a2ui-surface";

/// The content key holding a surface's A2UI messages, in order.
///
/// ```
/// use a2ui_stream::agui::{A2uiActivities, A2UI_OPERATIONS};
/// use a2ui_stream::agui::events::{Event, PatchOp};
/// use serde_json::json;
///
/// let mut surfaces = A2uiActivities::new("run-1");
/// let begin = json!({"beginRendering": {"surfaceId": "main", "root": "r"}});
/// let event = surfaces.push_value(Some("main"), begin.clone());
/// let Event::ActivitySnapshot(s) = event else { panic!() };
/// assert_eq!(s.content[A2UI_OPERATIONS], json!([begin]));
/// let delete = json!({"deleteSurface": {"surfaceId": "main"}});
/// let event = surfaces.push_value(Some("main"), delete.clone());
/// let Event::ActivityDelta(d) = event else { panic!() };
/// assert_eq!(d.patch, [PatchOp::Add { path: format!("/{A2UI_OPERATIONS}/-"), value: delete }]);
/// ```
pub const A2UI_OPERATIONS: &str = "a2ui_operations";

/// Maps A2UI messages to activity events, one activity message per surface.
///
/// Activity message ids are `"{prefix}-a2ui-{surfaceId}"`, stable for the life of the surface;
/// pass the run id as the prefix so ids stay unique across a thread. A message with no
/// `surfaceId` belongs to the surface named `""`. After `deleteSurface` (which is appended to
/// the surface like any other message), a new surface with the same id starts a new activity
/// with a fresh snapshot and a new id (`"…-2"`, `"…-3"`, …).
///
/// ```
/// use a2ui_stream::agui::A2uiActivities;
/// use a2ui_stream::agui::events::Event;
/// use serde_json::json;
///
/// let begin = json!({"beginRendering": {"surfaceId": "main", "root": "r"}});
/// let mut surfaces = A2uiActivities::new("run-1");
/// surfaces.push_value(Some("main"), begin.clone());
/// surfaces.push_value(Some("main"), json!({"deleteSurface": {"surfaceId": "main"}}));
/// // The same surface id again: a new activity, with a fresh snapshot and a new id.
/// let event = surfaces.push_value(Some("main"), begin);
/// let Event::ActivitySnapshot(s) = event else { panic!() };
/// assert_eq!(s.message_id, "run-1-a2ui-main-2");
/// ```
#[derive(Debug, Clone, Default)]
pub struct A2uiActivities {
    prefix: String,
    open: HashMap<String, String>,
    generations: HashMap<String, u32>,
    v08: SelfContained,
}

impl A2uiActivities {
    /// A mapper whose activity ids start with `prefix`.
    ///
    /// ```
    /// use a2ui_stream::agui::A2uiActivities;
    /// use serde_json::json;
    ///
    /// let mut surfaces = A2uiActivities::new("run-7");
    /// let begin = json!({"beginRendering": {"surfaceId": "main", "root": "r"}});
    /// surfaces.push_value(Some("main"), begin);
    /// assert_eq!(surfaces.message_id("main"), Some("run-7-a2ui-main"));
    /// ```
    pub fn new(prefix: impl Into<String>) -> Self {
        A2uiActivities {
            prefix: prefix.into(),
            ..Default::default()
        }
    }

    /// The activity message id of an open surface, if it has one.
    ///
    /// ```
    /// use a2ui_stream::agui::A2uiActivities;
    /// use serde_json::json;
    ///
    /// let mut surfaces = A2uiActivities::new("run-1");
    /// assert_eq!(surfaces.message_id("main"), None); // not opened yet
    /// let begin = json!({"beginRendering": {"surfaceId": "main", "root": "r"}});
    /// surfaces.push_value(Some("main"), begin);
    /// assert_eq!(surfaces.message_id("main"), Some("run-1-a2ui-main"));
    /// surfaces.push_value(Some("main"), json!({"deleteSurface": {"surfaceId": "main"}}));
    /// assert_eq!(surfaces.message_id("main"), None); // closed
    /// ```
    pub fn message_id(&self, surface_id: &str) -> Option<&str> {
        self.open.get(surface_id).map(String::as_str)
    }

    /// The event for one message from the splitter (parsed with [`Message::to_value`]).
    ///
    /// ```
    /// use a2ui_stream::agui::A2uiActivities;
    /// use a2ui_stream::{Event, Splitter};
    ///
    /// let mut splitter = Splitter::new();
    /// let mut surfaces = A2uiActivities::new("run-1");
    /// let mut sent = Vec::new();
    /// let input = br#"<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"r"}},
    /// {"surfaceUpdate":{"surfaceId":"s","components":[{"id":"r","component":{}}]}}]</a2ui-json>"#;
    /// for item in splitter.feed(input) {
    ///     if let Event::Message(m) = item.unwrap() {
    ///         sent.push(surfaces.push(&m).unwrap().event_type().as_str());
    ///     }
    /// }
    /// assert_eq!(sent, ["ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA"]);
    /// assert_eq!(surfaces.message_id("s"), Some("run-1-a2ui-s"));
    /// ```
    pub fn push(&mut self, message: &Message) -> serde_json::Result<Event> {
        let value = message.to_value()?;
        let delete = message.kind() == MessageKind::DeleteSurface;
        Ok(self.push_parts(message.surface_id(), value, delete))
    }

    /// The event for one A2UI message given as JSON, belonging to `surface_id`.
    ///
    /// A value whose top level has a `deleteSurface` key closes the surface.
    ///
    /// ```
    /// use a2ui_stream::agui::A2uiActivities;
    /// use a2ui_stream::agui::events::EventType;
    /// use serde_json::json;
    ///
    /// let mut surfaces = A2uiActivities::new("run-1");
    /// let first = surfaces.push_value(None, json!({"beginRendering": {"root": "r"}}));
    /// let second = surfaces.push_value(None, json!({"deleteSurface": {}}));
    /// assert_eq!(first.event_type(), EventType::ActivitySnapshot);
    /// assert_eq!(second.event_type(), EventType::ActivityDelta);
    /// assert_eq!(surfaces.message_id(""), None); // closed by deleteSurface
    /// let third = surfaces.push_value(None, json!({"beginRendering": {"root": "r"}}));
    /// assert_eq!(third.event_type(), EventType::ActivitySnapshot);
    /// ```
    pub fn push_value(&mut self, surface_id: Option<&str>, value: Value) -> Event {
        let delete = value.get(MessageKind::DeleteSurface.key()).is_some();
        self.push_parts(surface_id, value, delete)
    }

    fn push_parts(&mut self, surface_id: Option<&str>, value: Value, delete: bool) -> Event {
        let value = self.v08.complete(value);
        let surface = surface_id.unwrap_or_default();
        let event = match self.open.get(surface) {
            Some(id) => ActivityDelta {
                message_id: id.clone(),
                activity_type: A2UI_ACTIVITY_TYPE.to_owned(),
                patch: vec![PatchOp::Add {
                    path: format!("/{A2UI_OPERATIONS}/-"),
                    value,
                }],
                ..Default::default()
            }
            .into(),
            None => {
                let generation = self.generations.entry(surface.to_owned()).or_insert(0);
                *generation += 1;
                let mut id = format!("{}-a2ui-{}", self.prefix, surface);
                if *generation > 1 {
                    id.push_str(&format!("-{generation}"));
                }
                self.open.insert(surface.to_owned(), id.clone());
                let mut content = Map::new();
                content.insert(A2UI_OPERATIONS.to_owned(), Value::Array(vec![value]));
                ActivitySnapshot {
                    message_id: id,
                    activity_type: A2UI_ACTIVITY_TYPE.to_owned(),
                    content,
                    ..Default::default()
                }
                .into()
            }
        };
        if delete {
            self.open.remove(surface);
        }
        event
    }
}
