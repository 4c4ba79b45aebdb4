//! The splitter's output and A2UI messages: prose bytes reassembled into UTF-8 text, messages
//! sent as `a2ui-surface` activities, errors reported as `CUSTOM` events.

use super::{Phase, RunBuilder, RunBuilderError, RunBuilderErrorKind, refused};
use serde_json::Value;

/// The `CUSTOM` event name under which splitter errors are reported (value:
/// `{"offset": <byte offset>, "message": <text>}`); the run continues.
///
/// ```
/// use a2ui_stream::agui::{RunBuilder, A2UI_ERROR_EVENT};
/// use a2ui_stream::agui::events::Event;
/// use a2ui_stream::Splitter;
///
/// let mut splitter = Splitter::new();
/// let mut run = RunBuilder::new("t", "r");
/// for item in splitter.feed(br#"<a2ui-json>{"beginRendering": }</a2ui-json>"#) {
///     run.splitter(item)?; // the bad message is reported, not fatal
/// }
/// let events: Vec<_> = run.drain().collect();
/// let Event::Custom(c) = &events[1] else { panic!() };
/// assert_eq!(c.name, A2UI_ERROR_EVENT);
/// assert_eq!(c.value["offset"], 30);
/// assert!(!run.is_over());
/// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
/// ```
pub const A2UI_ERROR_EVENT: &str = "a2ui-stream.error";

impl RunBuilder {
    /// One item of the splitter's output: prose becomes text, an A2UI message becomes an
    /// `a2ui-surface` activity event, and an error is reported as a `CUSTOM` event named
    /// [`A2UI_ERROR_EVENT`] (the splitter recovers, so the run goes on).
    ///
    /// ```
    /// use a2ui_stream::{agui::RunBuilder, Splitter};
    ///
    /// let mut splitter = Splitter::new();
    /// let mut run = RunBuilder::new("t", "r");
    /// let chunks = [r#"Here: <a2ui-json>{"beginRendering":"#,
    ///               r#"{"surfaceId":"s","root":"r"}}</a2ui-json>"#];
    /// for chunk in chunks {
    ///     for item in splitter.feed(chunk.as_bytes()) {
    ///         run.splitter(item)?;
    ///     }
    /// }
    /// run.finish()?;
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_END", "ACTIVITY_SNAPSHOT", "RUN_FINISHED"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn splitter(
        &mut self,
        item: Result<crate::Event, crate::Error>,
    ) -> Result<(), RunBuilderError> {
        match item {
            Ok(event) => self.a2ui(event),
            Err(e) => self.custom(
                A2UI_ERROR_EVENT,
                serde_json::json!({ "offset": e.offset(), "message": e.kind().to_string() }),
            ),
        }
    }

    /// One event from the splitter.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use a2ui_stream::agui::events::Event;
    /// use bytes::Bytes;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// // "café" cut inside the "é" (0xC3 0xA9): the cut character is held back until complete.
    /// run.a2ui(a2ui_stream::Event::Text(Bytes::from_static(b"caf\xC3")))?;
    /// run.a2ui(a2ui_stream::Event::Text(Bytes::from_static(b"\xA9")))?;
    /// let deltas: Vec<_> = run.drain().filter_map(|e| match e {
    ///     Event::TextMessageContent(c) => Some(c.delta),
    ///     _ => None,
    /// }).collect();
    /// assert_eq!(deltas, ["caf", "é"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn a2ui(&mut self, event: crate::Event) -> Result<(), RunBuilderError> {
        self.start()?;
        match event {
            crate::Event::Text(bytes) => {
                self.pending_utf8.extend_from_slice(&bytes);
                let text = take_utf8(&mut self.pending_utf8, false);
                if !text.is_empty() {
                    self.send_text(&text);
                }
                Ok(())
            }
            crate::Event::Message(m) => {
                let event = self.surfaces.push(&m).map_err(|e| {
                    refused(
                        RunBuilderErrorKind::InvalidA2ui,
                        format!("A2UI message is not valid JSON: {e}"),
                    )
                })?;
                self.end_prose();
                self.emit(event);
                Ok(())
            }
        }
    }

    /// An A2UI message given as JSON (for agents that build messages without the splitter).
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use a2ui_stream::agui::events::Event;
    /// use serde_json::json;
    ///
    /// let mut run = RunBuilder::new("t", "run-1");
    /// run.text("Here is the form:")?;
    /// let begin = json!({"beginRendering": {"surfaceId": "form", "root": "r"}});
    /// run.a2ui_value(Some("form"), begin)?;
    /// run.a2ui_value(Some("form"), json!({"deleteSurface": {"surfaceId": "form"}}))?;
    /// let events: Vec<_> = run.drain().collect();
    /// let types: Vec<_> = events.iter().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_END", "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA"]);
    /// let Event::ActivitySnapshot(surface) = &events[4] else { panic!() };
    /// assert_eq!(surface.message_id, "run-1-a2ui-form");
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn a2ui_value(
        &mut self,
        surface_id: Option<&str>,
        message: Value,
    ) -> Result<(), RunBuilderError> {
        self.start()?;
        self.end_prose();
        let event = self.surfaces.push_value(surface_id, message);
        self.emit(event);
        Ok(())
    }

    /// Sends any bytes of an incomplete UTF-8 character as U+FFFD.
    pub(super) fn flush_utf8(&mut self) {
        if self.pending_utf8.is_empty() || self.phase != Phase::Running {
            return;
        }
        let text = take_utf8(&mut self.pending_utf8, true);
        if !text.is_empty() {
            self.send_text(&text);
        }
    }
}

/// Decodes the valid UTF-8 prefix of `pending`, replacing invalid sequences with U+FFFD and
/// keeping an incomplete character at the end unless `flush`.
fn take_utf8(pending: &mut Vec<u8>, flush: bool) -> String {
    let mut out = String::new();
    loop {
        match std::str::from_utf8(pending) {
            Ok(s) => {
                out.push_str(s);
                pending.clear();
                return out;
            }
            Err(e) => {
                let valid = e.valid_up_to();
                out.push_str(
                    std::str::from_utf8(pending.get(..valid).unwrap_or_default())
                        .unwrap_or_default(),
                );
                match e.error_len() {
                    Some(n) => {
                        out.push(char::REPLACEMENT_CHARACTER);
                        pending.drain(..(valid + n).min(pending.len()));
                    }
                    None if flush => {
                        out.push(char::REPLACEMENT_CHARACTER);
                        pending.clear();
                        return out;
                    }
                    None => {
                        pending.drain(..valid);
                        return out;
                    }
                }
            }
        }
    }
}
