//! Tool calls: start, argument fragments (checked to be JSON at the end), end and result.

use super::{OpenTool, RunBuilder, RunBuilderError, RunBuilderErrorKind, refused};
use crate::agui::events::{ToolCallArgs, ToolCallEnd, ToolCallResult, ToolCallStart};

/// The `RUN_ERROR.code` sent when a tool call's arguments are not JSON at its end.
///
/// ```
/// use a2ui_stream::agui::{RunBuilder, INVALID_TOOL_ARGUMENTS};
/// use a2ui_stream::agui::events::Event;
///
/// let mut run = RunBuilder::new("t", "r");
/// run.tool_call_start("c1", "search").unwrap();
/// run.tool_call_args("c1", r#"{"q": "#).unwrap();
/// assert!(run.tool_call_end("c1").is_err());
/// let Some(Event::RunError(e)) = run.drain().last() else { panic!() };
/// assert_eq!(e.code.as_deref(), Some(INVALID_TOOL_ARGUMENTS));
/// ```
pub const INVALID_TOOL_ARGUMENTS: &str = "INVALID_TOOL_ARGUMENTS";

impl RunBuilder {
    /// A tool call begins. Ends open prose (the call's `parentMessageId`) and reasoning.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError, RunBuilderErrorKind};
    /// use a2ui_stream::agui::events::Event;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.text("Let me search.")?;
    /// let message = run.text_message_id().unwrap().to_owned();
    /// run.tool_call_start("c1", "search")?;
    /// assert_eq!(run.tool_call_start("c1", "search").unwrap_err().kind(),
    ///            RunBuilderErrorKind::DuplicateToolCall);
    /// let events: Vec<_> = run.drain().collect();
    /// assert_eq!(events[3].event_type().as_str(), "TEXT_MESSAGE_END");
    /// let Event::ToolCallStart(start) = &events[4] else { panic!() };
    /// assert_eq!(start.tool_call_name, "search");
    /// assert_eq!(start.parent_message_id, Some(message));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn tool_call_start(&mut self, id: &str, name: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        if self.known_tools.contains(id) || self.tools.iter().any(|t| t.id == id) {
            return Err(refused(
                RunBuilderErrorKind::DuplicateToolCall,
                format!("tool call '{id}' already started"),
            ));
        }
        self.flush_utf8();
        let parent = self.text.clone();
        self.close_text();
        self.close_reasoning();
        let mut ev = ToolCallStart::new(id, name);
        ev.parent_message_id = parent;
        self.emit(ev);
        self.tools.push(OpenTool {
            id: id.to_owned(),
            args: String::new(),
            run: self.entered,
        });
        Ok(())
    }

    /// A fragment of an open tool call's arguments (empty fragments send nothing).
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError, RunBuilderErrorKind};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.tool_call_start("c1", "search")?;
    /// run.tool_call_args("c1", r#"{"q":"#)?;
    /// run.tool_call_args("c1", "")?; // sends nothing
    /// run.tool_call_args("c1", r#""rust"}"#)?;
    /// assert_eq!(run.tool_call_args("c2", "{}").unwrap_err().kind(),
    ///            RunBuilderErrorKind::UnknownToolCall);
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_ARGS"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn tool_call_args(&mut self, id: &str, delta: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        let Some(tool) = self.tools.iter_mut().find(|t| t.id == id) else {
            return Err(refused(
                RunBuilderErrorKind::UnknownToolCall,
                format!("no such tool call '{id}'"),
            ));
        };
        if delta.is_empty() {
            return Ok(());
        }
        tool.args.push_str(delta);
        self.emit(ToolCallArgs::new(id, delta));
        Ok(())
    }

    /// An open tool call's arguments are complete. If they are not JSON, the run fails
    /// instead (see [`RunBuilderErrorKind::InvalidToolArguments`]).
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError, RunBuilderErrorKind};
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.tool_call_start("c1", "search")?;
    /// run.tool_call_args("c1", r#"{"q":"rust"}"#)?;
    /// run.tool_call_end("c1")?;
    /// run.tool_call_start("c2", "search")?;
    /// run.tool_call_args("c2", r#"{"q":"#)?;
    /// let err = run.tool_call_end("c2").unwrap_err(); // not JSON: the run fails
    /// assert_eq!(err.kind(), RunBuilderErrorKind::InvalidToolArguments);
    /// assert!(err.message().contains("'c2'"));
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
    ///                    "TOOL_CALL_START", "TOOL_CALL_ARGS", "RUN_ERROR"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn tool_call_end(&mut self, id: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        let Some(pos) = self.tools.iter().position(|t| t.id == id) else {
            return Err(refused(
                RunBuilderErrorKind::UnknownToolCall,
                format!("no such tool call '{id}'"),
            ));
        };
        self.close_tool(pos)
    }

    pub(super) fn close_tool(&mut self, pos: usize) -> Result<(), RunBuilderError> {
        if pos >= self.tools.len() {
            return Ok(());
        }
        let tool = self.tools.remove(pos);
        if !tool.args.trim().is_empty() {
            if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(&tool.args) {
                let error = e.to_string();
                self.emit_error(
                    format!(
                        "arguments of tool call '{}' are not valid JSON: {error}",
                        tool.id
                    ),
                    Some(INVALID_TOOL_ARGUMENTS.to_owned()),
                );
                return Err(refused(
                    RunBuilderErrorKind::InvalidToolArguments,
                    format!(
                        "arguments of tool call '{}' are not valid JSON: {error}",
                        tool.id
                    ),
                ));
            }
        }
        self.emit(ToolCallEnd::new(tool.id.clone()));
        self.known_tools.insert(tool.id);
        Ok(())
    }

    /// A complete tool call in one go: start, the arguments as one delta, end.
    ///
    /// ```
    /// use a2ui_stream::agui::RunBuilder;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.tool_call("c1", "search", r#"{"q":"rust"}"#)?;
    /// run.tool_call("c2", "now", "")?; // no arguments: no TOOL_CALL_ARGS
    /// let types: Vec<_> = run.drain().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
    ///                    "TOOL_CALL_START", "TOOL_CALL_END"]);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn tool_call(
        &mut self,
        id: &str,
        name: &str,
        arguments: &str,
    ) -> Result<(), RunBuilderError> {
        self.tool_call_start(id, name)?;
        self.tool_call_args(id, arguments)?;
        self.tool_call_end(id)
    }

    /// What a tool returned. Ends the call first if it is still open.
    ///
    /// ```
    /// use a2ui_stream::agui::{RunBuilder, RunBuilderError, RunBuilderErrorKind};
    /// use a2ui_stream::agui::events::Event;
    ///
    /// let mut run = RunBuilder::new("t", "r");
    /// run.tool_call_start("c1", "clock")?;
    /// run.tool_call_result("c1", "12:00")?; // ends the call first
    /// assert_eq!(run.tool_call_result("c9", "?").unwrap_err().kind(),
    ///            RunBuilderErrorKind::UnknownToolCall);
    /// let events: Vec<_> = run.drain().collect();
    /// let types: Vec<_> = events.iter().map(|e| e.event_type().as_str()).collect();
    /// assert_eq!(types, ["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_END", "TOOL_CALL_RESULT"]);
    /// let Event::ToolCallResult(result) = &events[3] else { panic!() };
    /// assert_eq!((result.tool_call_id.as_str(), result.content.as_str()), ("c1", "12:00"));
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn tool_call_result(&mut self, id: &str, content: &str) -> Result<(), RunBuilderError> {
        self.start()?;
        if let Some(pos) = self.tools.iter().position(|t| t.id == id) {
            self.close_tool(pos)?;
        }
        if !self.known_tools.contains(id) {
            return Err(refused(
                RunBuilderErrorKind::UnknownToolCall,
                format!("no such tool call '{id}'"),
            ));
        }
        let message_id = self.id("result");
        self.emit(ToolCallResult::new(message_id, id, content));
        Ok(())
    }
}
