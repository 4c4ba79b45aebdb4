//! Prose and reasoning: text messages and reasoning spans, opened and closed as the agent streams.

use super::{OpenReasoning, RunBuilder, RunBuilderError};
use crate::agui::events::{
    ReasoningEnd, ReasoningMessageContent, ReasoningMessageEnd, ReasoningMessageStart,
    ReasoningStart, TextMessageContent, TextMessageEnd, TextMessageStart,
};

impl RunBuilder {
    /// An LLM text delta. Empty deltas send nothing; the first delta of a prose run opens a
    /// text message, and later ones continue it. Splitter prose held back as the start of a
    /// character cut by a chunk (see [`a2ui`](RunBuilder::a2ui)) is sent first, as U+FFFD: text
    /// given here cannot be the rest of that character.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    /// use a2ui_stream::agui::events::Event;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Hel")?;
    /// run.text("")?; // sends nothing
    /// run.text("lo")?;
    /// let events: Vec<_> = run.drain().collect();
    /// let types: Vec<_> = events.iter().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_CONTENT"]);
    /// let Event::TextMessageContent(c) = &events[3] else { panic!() };
    /// assert_eq!(c.delta, "lo");
    ///
    /// // The first byte of "é" from the splitter, then text of the agent's own.
    /// run.a2ui(a2ui_stream::Event::Text(bytes::Bytes::from_static(b"caf\xC3")))?;
    /// run.text("!")?;
    /// let deltas: Vec<_> = run.drain().filter_map(|e| match e {
    ///     Event::TextMessageContent(c) => Some(c.delta),
    ///     _ => None,
    /// }).collect();
    /// assert_eq!(deltas, ["caf", "\u{FFFD}", "!"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn text(&mut self, delta: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        if delta.is_empty() {
            return Ok(());
        }
        // Splitter prose held back as the start of a cut character never got its end.
        self.flush_utf8();
        self.send_text(delta);
        Ok(())
    }

    /// Sends non-empty prose: continues the open text message or opens one.
    pub(super) fn send_text(&mut self, delta: &str) {
        self.close_reasoning();
        let id = match &self.text {
            Some(id) => id.clone(),
            None => {
                let id = self.id("msg");
                self.emit(TextMessageStart::new(id.clone()));
                self.text = Some(id.clone());
                self.last_text = Some(id.clone());
                id
            }
        };
        self.emit(TextMessageContent::new(id, delta));
    }

    /// Ends the current prose message, if one is open (the next delta opens a new one).
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("One.")?;
    /// run.text_end()?;
    /// run.text_end()?; // nothing open: sends nothing
    /// run.text("Two.")?;
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_END", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn text_end(&mut self) -> Result<(), RunBuilderError> {
        self.start()?;
        self.flush_utf8();
        self.close_text();
        Ok(())
    }

    pub(super) fn close_text(&mut self) {
        if let Some(id) = self.text.take() {
            self.emit(TextMessageEnd::new(id));
        }
    }

    /// A reasoning delta. Ends open prose; empty deltas send nothing.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Hmm.")?;
    /// run.reasoning("The user wants")?; // ends the prose
    /// run.reasoning(" a table.")?;
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
    ///                    "TEXT_MESSAGE_END", "REASONING_START", "REASONING_MESSAGE_START",
    ///                    "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn reasoning(&mut self, delta: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        if delta.is_empty() {
            return Ok(());
        }
        self.flush_utf8();
        self.close_text();
        if self.reasoning.is_none() {
            let span = self.id("reasoning");
            self.emit(ReasoningStart {
                message_id: span.clone(),
                ..Default::default()
            });
            self.reasoning = Some(OpenReasoning {
                span,
                message: None,
            });
        }
        let existing = self.reasoning.as_ref().and_then(|r| r.message.clone());
        let message = match existing {
            Some(m) => m,
            None => {
                let m = self.id("reasoning-msg");
                self.emit(ReasoningMessageStart {
                    message_id: m.clone(),
                    ..Default::default()
                });
                if let Some(r) = self.reasoning.as_mut() {
                    r.message = Some(m.clone());
                }
                m
            }
        };
        self.emit(ReasoningMessageContent {
            message_id: message,
            delta: delta.to_owned(),
            ..Default::default()
        });
        Ok(())
    }

    /// Ends the current reasoning span, if one is open.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.reasoning("Think first.")?;
    /// run.reasoning_end()?;
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "REASONING_START", "REASONING_MESSAGE_START",
    ///                    "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END", "REASONING_END"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn reasoning_end(&mut self) -> Result<(), RunBuilderError> {
        self.start()?;
        self.close_reasoning();
        Ok(())
    }

    pub(super) fn close_reasoning(&mut self) {
        if let Some(r) = self.reasoning.take() {
            if let Some(m) = r.message {
                self.emit(ReasoningMessageEnd {
                    message_id: m,
                    ..Default::default()
                });
            }
            self.emit(ReasoningEnd {
                message_id: r.span,
                ..Default::default()
            });
        }
    }

    /// Ends open prose and reasoning (at UI, at the end of a step or of a nested run).
    pub(super) fn end_prose(&mut self) {
        self.flush_utf8();
        self.close_text();
        self.close_reasoning();
    }
}
