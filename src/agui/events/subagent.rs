//! Subagent events: `SUBAGENT_STARTED`, `SUBAGENT_FINISHED` with its outcome, `SUBAGENT_ERROR`.

use super::Meta;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_with::skip_serializing_none;

/// `SUBAGENT_STARTED` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, SubagentStarted};
/// use serde_json::json;
///
/// let mut started = SubagentStarted::new("sub-1", "researcher");
/// started.parent_tool_call_id = Some("call-1".into());
/// assert_eq!(
///     serde_json::to_value(Event::from(started)).unwrap(),
///     json!({"type": "SUBAGENT_STARTED", "subagentRunId": "sub-1", "name": "researcher",
///            "parentToolCallId": "call-1"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubagentStarted {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The invocation being announced.
    pub subagent_run_id: String,
    /// The subagent's (reusable) name.
    pub name: String,
    /// What this subagent is for.
    pub description: Option<String>,
    /// The subagent invocation that spawned this one.
    pub parent_subagent_run_id: Option<String>,
    /// The tool call that spawned this subagent.
    pub parent_tool_call_id: Option<String>,
    /// The message that held the spawning tool call.
    pub parent_message_id: Option<String>,
}

impl SubagentStarted {
    /// Announces invocation `subagent_run_id` of the subagent called `name`.
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, SubagentStarted};
    /// use serde_json::json;
    ///
    /// let started = SubagentStarted::new("sub-1", "researcher");
    /// assert_eq!(started.parent_tool_call_id, None);
    /// assert_eq!(
    ///     serde_json::to_value(Event::from(started)).unwrap(),
    ///     json!({"type": "SUBAGENT_STARTED", "subagentRunId": "sub-1", "name": "researcher"})
    /// );
    /// ```
    pub fn new(subagent_run_id: impl Into<String>, name: impl Into<String>) -> Self {
        SubagentStarted {
            subagent_run_id: subagent_run_id.into(),
            name: name.into(),
            ..Default::default()
        }
    }
}

/// Why a subagent's segment ended, tagged by `type`.
///
/// ```
/// use a2ui_stream::agui::events::SubagentOutcome;
/// use serde_json::json;
///
/// assert_eq!(serde_json::to_value(SubagentOutcome::Success).unwrap(), json!({"type": "success"}));
/// let suspended = SubagentOutcome::Suspended { interrupt_ids: Some(vec!["i1".into()]) };
/// assert_eq!(
///     serde_json::to_value(suspended).unwrap(),
///     json!({"type": "suspended", "interruptIds": ["i1"]})
/// );
/// let bare: SubagentOutcome = serde_json::from_value(json!({"type": "suspended"})).unwrap();
/// assert_eq!(bare, SubagentOutcome::Suspended { interrupt_ids: None });
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum SubagentOutcome {
    /// The subagent completed its work.
    Success,
    /// The subagent is paused awaiting outside input.
    Suspended {
        /// The run-level interrupts this subagent raised itself.
        #[serde(rename = "interruptIds")]
        interrupt_ids: Option<Vec<String>>,
    },
}

/// `SUBAGENT_FINISHED` fields.
///
/// ```
/// use a2ui_stream::agui::events::{Event, SubagentFinished};
/// use serde_json::json;
///
/// let mut finished = SubagentFinished::new("sub-1");
/// finished.result = Some(json!("3 venues found"));
/// assert_eq!(
///     serde_json::to_value(Event::from(finished)).unwrap(),
///     json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "sub-1", "result": "3 venues found"})
/// );
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubagentFinished {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The invocation being closed.
    pub subagent_run_id: String,
    /// The subagent's return value.
    pub result: Option<Value>,
    /// Why the segment ended; absent means success.
    pub outcome: Option<SubagentOutcome>,
}

impl SubagentFinished {
    /// Closes invocation `subagent_run_id`, with no result and no outcome (which means success).
    ///
    /// ```
    /// use a2ui_stream::agui::events::{Event, SubagentFinished};
    /// use serde_json::json;
    ///
    /// let finished = SubagentFinished::new("sub-1");
    /// assert_eq!(finished.outcome, None);
    /// assert_eq!(
    ///     serde_json::to_value(Event::from(finished)).unwrap(),
    ///     json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "sub-1"})
    /// );
    /// ```
    pub fn new(subagent_run_id: impl Into<String>) -> Self {
        SubagentFinished {
            subagent_run_id: subagent_run_id.into(),
            ..Default::default()
        }
    }
}

/// `SUBAGENT_ERROR` fields.
///
/// ```
/// use a2ui_stream::agui::events::Event;
///
/// let ev: Event = serde_json::from_str(
///     r#"{"type":"SUBAGENT_ERROR","subagentRunId":"sub-1","message":"timed out","code":"timeout"}"#,
/// ).unwrap();
/// let Event::SubagentError(error) = ev else { unreachable!() };
/// assert_eq!(error.subagent_run_id, "sub-1");
/// assert_eq!(error.message, "timed out");
/// assert_eq!(error.code.as_deref(), Some("timeout"));
/// ```
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubagentError {
    /// Common event fields.
    #[serde(flatten)]
    pub meta: Meta,
    /// The invocation that failed.
    pub subagent_run_id: String,
    /// What went wrong.
    pub message: String,
    /// A machine-readable error code.
    pub code: Option<String>,
}
