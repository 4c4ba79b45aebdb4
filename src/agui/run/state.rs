//! Events sent as given: state and message snapshots, state deltas, `CUSTOM` and `RAW`.

use super::{RunBuilder, RunBuilderError};
use crate::agui::events::{
    ChatMessage, Custom, MessagesSnapshot, PatchOp, Raw, StateDelta, StateSnapshot,
};
use serde_json::Value;

impl RunBuilder {
    /// The whole agent state.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use a2ui_stream::agui::events::Event;
    /// use serde_json::json;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.state_snapshot(json!({"count": 1}))?;
    /// let events: Vec<_> = run.drain().collect();
    /// let Event::StateSnapshot(state) = &events[1] else { panic!() };
    /// assert_eq!(state.snapshot, json!({"count": 1}));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn state_snapshot(&mut self, snapshot: Value) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(StateSnapshot {
            snapshot,
            ..Default::default()
        });
        Ok(())
    }

    /// An RFC 6902 change to the agent state.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use a2ui_stream::agui::events::PatchOp;
    /// use serde_json::json;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.state_delta(vec![PatchOp::Replace { path: "/count".into(), value: json!(2) }])?;
    /// let events: Vec<_> = run.drain().collect();
    /// assert_eq!(serde_json::to_value(&events[1]).unwrap(), json!({
    ///     "type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/count", "value": 2}]
    /// }));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn state_delta(&mut self, delta: Vec<PatchOp>) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(StateDelta {
            delta,
            ..Default::default()
        });
        Ok(())
    }

    /// The complete message list.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use a2ui_stream::agui::events::{ChatMessage, Event};
    ///
    /// let hi: ChatMessage =
    ///     serde_json::from_str(r#"{"id":"m1","role":"user","content":"hi"}"#).unwrap();
    /// let mut run = RunBuilder::new("t", "r");
    /// run.messages_snapshot(vec![hi.clone()])?;
    /// let events: Vec<_> = run.drain().collect();
    /// let Event::MessagesSnapshot(snapshot) = &events[1] else { panic!() };
    /// assert_eq!(snapshot.messages, [hi]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn messages_snapshot(&mut self, messages: Vec<ChatMessage>) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(MessagesSnapshot {
            messages,
            ..Default::default()
        });
        Ok(())
    }

    /// An application event (`CUSTOM`).
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use serde_json::json;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.custom("progress", json!({"percent": 50}))?;
    /// let events: Vec<_> = run.drain().collect();
    /// assert_eq!(serde_json::to_value(&events[1]).unwrap(),
    ///            json!({"type": "CUSTOM", "name": "progress", "value": {"percent": 50}}));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn custom(&mut self, name: &str, value: Value) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(Custom {
            name: name.to_owned(),
            value,
            ..Default::default()
        });
        Ok(())
    }

    /// A provider-native event passed through (`RAW`).
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use serde_json::json;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.raw(json!({"type": "ping"}), Some("openai".into()))?;
    /// let events: Vec<_> = run.drain().collect();
    /// assert_eq!(serde_json::to_value(&events[1]).unwrap(),
    ///            json!({"type": "RAW", "event": {"type": "ping"}, "source": "openai"}));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn raw(&mut self, event: Value, source: Option<String>) -> Result<(), RunBuilderError> {
        self.start()?;
        self.emit(Raw {
            event,
            source,
            ..Default::default()
        });
        Ok(())
    }
}
