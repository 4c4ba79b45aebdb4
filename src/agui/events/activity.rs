//! Activity events: `ACTIVITY_SNAPSHOT` and `ACTIVITY_DELTA`.

use super::{Meta, PatchOp};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use serde_with::skip_serializing_none;

/// `ACTIVITY_SNAPSHOT` fields.
///
/// ```
/// use a2ui_stream::agui::events::{ActivitySnapshot, Event};
/// use serde_json::json;
///
/// let mut content = serde_json::Map::new();
/// content.insert("progress".into(), json!(0.5));
/// let snap = ActivitySnapshot::new("a1", "search", content);
/// assert_eq!(
///     serde_json::to_value(Event::from(snap)).unwrap(),
///     json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a1", "activityType": "search",
///            "content": {"progress": 0.5}})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ActivitySnapshot {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The activity message this describes.
    pub message_id: String,
    /// What kind of activity this is (open string).
    pub activity_type: String,
    /// The activity's payload (open by key).
    pub content: Map<String, Value>,
    /// Whether this snapshot overwrites existing content; absent means it does.
    pub replace: Option<bool>,
}

impl ActivitySnapshot {
    /// The content of activity message `message_id`, of kind `activity_type`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{ActivitySnapshot, Event};
    /// use serde_json::json;
    ///
    /// let mut snap = ActivitySnapshot::new("a1", "search", serde_json::Map::new());
    /// assert_eq!(snap.replace, None); // absent, which means replace
    /// snap.replace = Some(false);
    /// assert_eq!(
    ///     serde_json::to_value(Event::from(snap)).unwrap(),
    ///     json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a1", "activityType": "search",
    ///            "content": {}, "replace": false})
    /// );
    /// ```
    pub fn new(
        message_id: impl Into<String>,
        activity_type: impl Into<String>,
        content: Map<String, Value>,
    ) -> Self {
        ActivitySnapshot {
            message_id: message_id.into(),
            activity_type: activity_type.into(),
            content,
            ..Default::default()
        }
    }
}

/// `ACTIVITY_DELTA` fields.
///
/// ```
/// use a2ui_stream::agui::events::{ActivityDelta, Event, PatchOp};
/// use serde_json::json;
///
/// let delta = ActivityDelta::new(
///     "a1",
///     "search",
///     vec![PatchOp::Replace { path: "/progress".into(), value: json!(1.0) }],
/// );
/// assert_eq!(
///     serde_json::to_value(Event::from(delta)).unwrap(),
///     json!({"type": "ACTIVITY_DELTA", "messageId": "a1", "activityType": "search",
///            "patch": [{"op": "replace", "path": "/progress", "value": 1.0}]})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ActivityDelta {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The activity message being changed.
    pub message_id: String,
    /// What kind of activity this is.
    pub activity_type: String,
    /// The change, as an RFC 6902 patch against the activity's content.
    pub patch: Vec<PatchOp>,
}

impl ActivityDelta {
    /// Changes the content of activity message `message_id`, of kind `activity_type`, by `patch`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{ActivityDelta, Event, PatchOp};
    /// use serde_json::json;
    ///
    /// let delta = ActivityDelta::new("a1", "search", vec![PatchOp::Remove { path: "/draft".into() }]);
    /// assert_eq!(delta.subagent_run_id, None);
    /// assert_eq!(
    ///     serde_json::to_value(Event::from(delta)).unwrap(),
    ///     json!({"type": "ACTIVITY_DELTA", "messageId": "a1", "activityType": "search",
    ///            "patch": [{"op": "remove", "path": "/draft"}]})
    /// );
    /// ```
    pub fn new(
        message_id: impl Into<String>,
        activity_type: impl Into<String>,
        patch: Vec<PatchOp>,
    ) -> Self {
        ActivityDelta {
            message_id: message_id.into(),
            activity_type: activity_type.into(),
            patch,
            ..Default::default()
        }
    }
}
