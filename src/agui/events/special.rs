//! Special events: `RAW` (a provider-native event passed through) and `CUSTOM`.

use super::Meta;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_with::skip_serializing_none;

/// `RAW` fields.
///
/// ```
/// use a2ui_stream::agui::{Event, Raw};
/// use serde_json::json;
///
/// let raw = Raw {
///     event: json!({"object": "chat.completion.chunk"}),
///     source: Some("openai".into()),
///     ..Default::default()
/// };
/// assert_eq!(
///     serde_json::to_value(Event::from(raw)).unwrap(),
///     json!({"type": "RAW", "event": {"object": "chat.completion.chunk"}, "source": "openai"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Raw {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// The provider's own event (any JSON value).
    pub event: Value,
    /// Which provider or framework the event came from.
    pub source: Option<String>,
}

/// `CUSTOM` fields.
///
/// ```
/// use a2ui_stream::agui::{Custom, Event};
/// use serde_json::json;
///
/// let custom = Custom { name: "confetti".into(), value: json!({"colour": "gold"}), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(Event::from(custom)).unwrap(),
///     json!({"type": "CUSTOM", "name": "confetti", "value": {"colour": "gold"}})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Custom {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The subagent invocation this belongs to.
    pub subagent_run_id: Option<String>,
    /// What this custom event is.
    pub name: String,
    /// The payload (any JSON value).
    pub value: Value,
}
