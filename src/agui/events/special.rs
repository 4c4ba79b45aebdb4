//! Special events: `RAW` (a provider-native event passed through) and `CUSTOM`.

use super::Meta;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_with::skip_serializing_none;

/// `RAW` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, Raw};
/// use serde_json::json;
///
/// let mut raw = Raw::new(json!({"object": "chat.completion.chunk"}));
/// raw.source = Some("openai".into());
/// assert_eq!(
///     serde_json::to_value(Event::from(raw)).unwrap(),
///     json!({"type": "RAW", "event": {"object": "chat.completion.chunk"}, "source": "openai"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

impl Raw {
    /// Passes the provider-native `event` through, with no source named.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, Raw};
    /// use serde_json::json;
    ///
    /// let raw = Raw::new(json!({"id": 7}));
    /// assert_eq!(raw.source, None);
    /// assert_eq!(
    ///     serde_json::to_value(Event::from(raw)).unwrap(),
    ///     json!({"type": "RAW", "event": {"id": 7}})
    /// );
    /// ```
    pub fn new(event: Value) -> Self {
        Raw {
            event,
            ..Default::default()
        }
    }
}

/// `CUSTOM` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Custom, Event};
/// use serde_json::json;
///
/// let custom = Custom::new("confetti", json!({"colour": "gold"}));
/// assert_eq!(
///     serde_json::to_value(Event::from(custom)).unwrap(),
///     json!({"type": "CUSTOM", "name": "confetti", "value": {"colour": "gold"}})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

impl Custom {
    /// The application's own event `name`, carrying `value`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Custom, Event, EventType};
    /// use serde_json::json;
    ///
    /// let ev = Event::from(Custom::new("ping", json!(null)));
    /// assert_eq!(ev.event_type(), EventType::Custom);
    /// assert_eq!(
    ///     serde_json::to_value(&ev).unwrap(),
    ///     json!({"type": "CUSTOM", "name": "ping", "value": null})
    /// );
    /// ```
    pub fn new(name: impl Into<String>, value: Value) -> Self {
        Custom {
            name: name.into(),
            value,
            ..Default::default()
        }
    }
}
