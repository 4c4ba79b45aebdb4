//! State events (`STATE_SNAPSHOT`, `STATE_DELTA` and its JSON Patch operations) and
//! `MESSAGES_SNAPSHOT`.

use super::{ChatMessage, Meta};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_with::skip_serializing_none;

/// `STATE_SNAPSHOT` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, StateSnapshot};
/// use serde_json::json;
///
/// let snap = StateSnapshot::new(json!({"cart": [], "step": 1}));
/// assert_eq!(
///     serde_json::to_value(Event::from(snap)).unwrap(),
///     json!({"type": "STATE_SNAPSHOT", "snapshot": {"cart": [], "step": 1}})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct StateSnapshot {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The complete new state (any JSON value).
    pub snapshot: Value,
}

impl StateSnapshot {
    /// Replaces the agent state with `snapshot`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, StateSnapshot};
    /// use serde_json::json;
    ///
    /// let snap = StateSnapshot::new(json!({"step": 2}));
    /// assert_eq!(snap.subagent_run_id, None);
    /// assert_eq!(
    ///     serde_json::to_value(Event::from(snap)).unwrap(),
    ///     json!({"type": "STATE_SNAPSHOT", "snapshot": {"step": 2}})
    /// );
    /// ```
    pub fn new(snapshot: Value) -> Self {
        StateSnapshot {
            snapshot,
            ..Default::default()
        }
    }
}

/// One RFC 6902 JSON Patch operation, tagged by `op`.
///
/// ```
/// use a2ui_stream::agui::events::PatchOp;
/// let op = PatchOp::Add { path: "/items/-".into(), value: serde_json::json!(1) };
/// assert_eq!(serde_json::to_string(&op).unwrap(), r#"{"op":"add","path":"/items/-","value":1}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum PatchOp {
    /// Inserts `value` at `path`.
    Add {
        /// Where to insert (a JSON Pointer).
        path: String,
        /// The value to insert.
        value: Value,
    },
    /// Removes the value at `path`.
    Remove {
        /// What to remove.
        path: String,
    },
    /// Replaces the value at `path`.
    Replace {
        /// What to replace.
        path: String,
        /// The replacement.
        value: Value,
    },
    /// Moves the value at `from` to `path`.
    Move {
        /// Where the value is moved from.
        from: String,
        /// Where the value is moved to.
        path: String,
    },
    /// Copies the value at `from` to `path`.
    Copy {
        /// Where the value is copied from.
        from: String,
        /// Where the value is copied to.
        path: String,
    },
    /// Asserts that the value at `path` equals `value`.
    Test {
        /// What to compare.
        path: String,
        /// The value the target must equal.
        value: Value,
    },
}

/// `STATE_DELTA` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, PatchOp, StateDelta};
/// use serde_json::json;
///
/// let delta = StateDelta::new(vec![
///     PatchOp::Add { path: "/cart/-".into(), value: json!("pizza") },
///     PatchOp::Remove { path: "/draft".into() },
/// ]);
/// assert_eq!(
///     serde_json::to_value(Event::from(delta)).unwrap(),
///     json!({"type": "STATE_DELTA", "delta": [
///         {"op": "add", "path": "/cart/-", "value": "pizza"},
///         {"op": "remove", "path": "/draft"},
///     ]})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct StateDelta {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The change, as an RFC 6902 patch against the current state.
    pub delta: Vec<PatchOp>,
}

impl StateDelta {
    /// Changes the agent state by the RFC 6902 patch `delta`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, PatchOp, StateDelta};
    /// use serde_json::json;
    ///
    /// let delta = StateDelta::new(vec![PatchOp::Replace { path: "/step".into(), value: json!(3) }]);
    /// assert_eq!(
    ///     serde_json::to_value(Event::from(delta)).unwrap(),
    ///     json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/step", "value": 3}]})
    /// );
    /// ```
    pub fn new(delta: Vec<PatchOp>) -> Self {
        StateDelta {
            delta,
            ..Default::default()
        }
    }
}

/// `MESSAGES_SNAPSHOT` fields.
///
/// ```
/// use a2ui_stream::agui::events::{ChatMessage, Event};
/// use serde_json::json;
///
/// let ev: Event = serde_json::from_value(json!({"type": "MESSAGES_SNAPSHOT", "messages": [
///     {"id": "1", "role": "user", "content": "Find food"},
///     {"id": "2", "role": "assistant", "content": "Here are three places."},
/// ]})).unwrap();
/// let Event::MessagesSnapshot(snap) = ev else { unreachable!() };
/// assert_eq!(snap.messages.len(), 2);
/// assert!(matches!(&snap.messages[1], ChatMessage::Assistant(m) if m.id == "2"));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MessagesSnapshot {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The messages, in order.
    pub messages: Vec<ChatMessage>,
}
