//! The messages a run added to its thread, rebuilt from the run's events.

use crate::agui::events::{
    AssistantMessage, ChatMessage, Event, FunctionCall, TextMessage, TextMessageRole, ToolCall,
    ToolMessage, UserContent, UserMessage,
};
use std::collections::HashMap;

/// Lays `messages` over a conversation by message id, as [`RunLog::save_messages`] does: a
/// message whose id is there replaces it in place, a new id is appended, in the order given.
/// The messages are moved in (pass `slice.iter().cloned()` to keep them): a user message may be
/// megabytes.
///
/// [`RunLog::save_messages`]: super::RunLog::save_messages
///
/// ```
/// use a2ui_stream::agui::upsert_messages;
/// use a2ui_stream::agui::events::{ChatMessage, UserContent, UserMessage};
///
/// let user = |id: &str, text: &str| ChatMessage::User(UserMessage::new(id, UserContent::Text(text.into())));
/// let mut thread = vec![user("a", "one"), user("b", "two")];
/// upsert_messages(&mut thread, [user("b", "two, edited"), user("c", "three")]);
/// assert_eq!(thread, [user("a", "one"), user("b", "two, edited"), user("c", "three")]);
/// ```
pub fn upsert_messages(
    conversation: &mut Vec<ChatMessage>,
    messages: impl IntoIterator<Item = ChatMessage>,
) {
    let mut at: HashMap<String, usize> = conversation
        .iter()
        .enumerate()
        .map(|(i, m)| (m.id().to_owned(), i))
        .collect();
    for m in messages {
        match at.get(m.id()).and_then(|&i| conversation.get_mut(i)) {
            Some(slot) => *slot = m,
            None => {
                at.insert(m.id().to_owned(), conversation.len());
                conversation.push(m);
            }
        }
    }
}

/// The messages a run added to its thread, built from its events, in the order each first
/// appears; save them with [`RunLog::save_messages`](super::RunLog::save_messages) so that the
/// next run of the thread can be answered from its history.
///
/// - A text message (`TEXT_MESSAGE_START`, its `TEXT_MESSAGE_CONTENT` deltas, `TEXT_MESSAGE_END`)
///   becomes one message with the start's `messageId` and the concatenated deltas: an
///   [`AssistantMessage`], or a user, system or developer message if the start says that role.
/// - A tool call (`TOOL_CALL_START`, its `TOOL_CALL_ARGS` deltas, `TOOL_CALL_END`) becomes a
///   [`ToolCall`] of the assistant message its `parentMessageId` names (created if no text
///   message has that id); without a parent, of an assistant message of its own whose id is the
///   tool call's id.
/// - `TOOL_CALL_RESULT` becomes a [`ToolMessage`].
/// - `TEXT_MESSAGE_CHUNK` and `TOOL_CALL_CHUNK` count as the start (when they name a new id) and
///   the delta; a chunk without an id continues the message or call the previous chunk named.
///
/// Other events (reasoning, activities, state, steps, lifecycle) add no message. Content and
/// arguments that arrive for an id never started still make a message or are left out as the
/// rules above allow; a result whose message id belongs to another kind of message is left out.
///
/// ```
/// use a2ui_stream::agui::messages_of_run;
/// use a2ui_stream::agui::RunBuilder;
/// use a2ui_stream::agui::events::ChatMessage;
///
/// let mut run = RunBuilder::new("t", "r");
/// run.text("Let me look.").unwrap();
/// run.tool_call("c1", "search", r#"{"q":"pizza"}"#).unwrap();
/// run.tool_call_result("c1", "3 places").unwrap();
/// run.text("Found three.").unwrap();
/// run.finish().unwrap();
/// let events: Vec<_> = run.drain().collect();
///
/// let messages = messages_of_run(&events);
/// let [ChatMessage::Assistant(first), ChatMessage::Tool(result), ChatMessage::Assistant(last)] =
///     &messages[..] else { panic!("{messages:?}") };
/// assert_eq!(first.content.as_deref(), Some("Let me look."));
/// let calls = first.tool_calls.as_deref().unwrap();
/// assert_eq!((calls[0].id.as_str(), calls[0].function.arguments.as_str()), ("c1", r#"{"q":"pizza"}"#));
/// assert_eq!((result.tool_call_id.as_str(), result.content.as_str()), ("c1", "3 places"));
/// assert_eq!(last.content.as_deref(), Some("Found three."));
/// ```
pub fn messages_of_run<'a>(events: impl IntoIterator<Item = &'a Event>) -> Vec<ChatMessage> {
    let mut history = History::default();
    for event in events {
        history.add(event);
    }
    history.messages
}

#[derive(Default)]
struct History {
    messages: Vec<ChatMessage>,
    /// Message id → index in `messages`.
    by_id: HashMap<String, usize>,
    /// Tool call id → (index in `messages`, index in its `tool_calls`).
    calls: HashMap<String, (usize, usize)>,
    /// The text message a `TEXT_MESSAGE_CHUNK` without an id continues.
    chunk_message: Option<String>,
    /// The tool call a `TOOL_CALL_CHUNK` without an id continues.
    chunk_call: Option<String>,
}

/// Who wrote a text message, and the fields its first event gave.
struct Opening<'a> {
    role: Option<TextMessageRole>,
    name: Option<&'a String>,
    subagent_run_id: Option<&'a String>,
}

impl History {
    fn add(&mut self, event: &Event) {
        match event {
            Event::TextMessageStart(e) => self.text_start(
                &e.message_id,
                Opening {
                    role: e.role,
                    name: e.name.as_ref(),
                    subagent_run_id: e.subagent_run_id.as_ref(),
                },
            ),
            Event::TextMessageContent(e) => {
                self.text_delta(&e.message_id, &e.delta, e.subagent_run_id.as_ref())
            }
            Event::TextMessageChunk(e) => {
                if let Some(id) = &e.message_id {
                    self.chunk_message = Some(id.clone());
                    self.text_start(
                        id,
                        Opening {
                            role: e.role,
                            name: e.name.as_ref(),
                            subagent_run_id: e.subagent_run_id.as_ref(),
                        },
                    );
                }
                if let (Some(id), Some(delta)) = (self.chunk_message.clone(), &e.delta) {
                    self.text_delta(&id, delta, e.subagent_run_id.as_ref());
                }
            }
            Event::ToolCallStart(e) => self.tool_start(
                &e.tool_call_id,
                &e.tool_call_name,
                e.parent_message_id.as_deref(),
                e.subagent_run_id.as_ref(),
            ),
            Event::ToolCallArgs(e) => self.tool_args(&e.tool_call_id, &e.delta),
            Event::ToolCallChunk(e) => {
                if let Some(id) = &e.tool_call_id {
                    self.chunk_call = Some(id.clone());
                    self.tool_start(
                        id,
                        e.tool_call_name.as_deref().unwrap_or_default(),
                        e.parent_message_id.as_deref(),
                        e.subagent_run_id.as_ref(),
                    );
                }
                if let (Some(id), Some(delta)) = (self.chunk_call.clone(), &e.delta) {
                    self.tool_args(&id, delta);
                }
            }
            Event::ToolCallResult(e) => {
                let mut message = ToolMessage::new(&e.message_id, &e.tool_call_id, &e.content);
                message.subagent_run_id.clone_from(&e.subagent_run_id);
                match self.by_id.get(&e.message_id).copied() {
                    None => {
                        self.push(ChatMessage::Tool(message));
                    }
                    Some(i) => {
                        if let Some(ChatMessage::Tool(old)) = self.messages.get_mut(i) {
                            *old = message;
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn push(&mut self, message: ChatMessage) -> usize {
        let index = self.messages.len();
        self.by_id.insert(message.id().to_owned(), index);
        self.messages.push(message);
        index
    }

    /// Opens text message `id`, unless it exists (an assistant message a tool call created
    /// gets its content from now on).
    fn text_start(&mut self, id: &str, opening: Opening<'_>) {
        if let Some(&i) = self.by_id.get(id) {
            if let Some(ChatMessage::Assistant(m)) = self.messages.get_mut(i) {
                m.content.get_or_insert_with(String::new);
            }
            return;
        }
        let name = opening.name.cloned();
        let subagent_run_id = opening.subagent_run_id.cloned();
        let message = match opening.role.unwrap_or_default() {
            TextMessageRole::Assistant => {
                let mut m = AssistantMessage::new(id);
                m.content = Some(String::new());
                m.name = name;
                m.subagent_run_id = subagent_run_id;
                ChatMessage::Assistant(m)
            }
            TextMessageRole::User => {
                let mut m = UserMessage::new(id, UserContent::Text(String::new()));
                m.name = name;
                m.subagent_run_id = subagent_run_id;
                ChatMessage::User(m)
            }
            role @ (TextMessageRole::System | TextMessageRole::Developer) => {
                let mut m = TextMessage::new(id, "");
                m.name = name;
                m.subagent_run_id = subagent_run_id;
                if role == TextMessageRole::System {
                    ChatMessage::System(m)
                } else {
                    ChatMessage::Developer(m)
                }
            }
        };
        self.push(message);
    }

    fn text_delta(&mut self, id: &str, delta: &str, subagent_run_id: Option<&String>) {
        if !self.by_id.contains_key(id) {
            self.text_start(
                id,
                Opening {
                    role: None,
                    name: None,
                    subagent_run_id,
                },
            );
        }
        let Some(&i) = self.by_id.get(id) else {
            return;
        };
        match self.messages.get_mut(i) {
            Some(ChatMessage::Assistant(m)) => {
                m.content.get_or_insert_with(String::new).push_str(delta)
            }
            Some(ChatMessage::User(m)) => {
                if let UserContent::Text(text) = &mut m.content {
                    text.push_str(delta);
                }
            }
            Some(ChatMessage::System(m) | ChatMessage::Developer(m)) => m.content.push_str(delta),
            _ => {}
        }
    }

    /// The index of assistant message `id`, created (without content) if no message has that
    /// id; `None` if another kind of message has it.
    fn assistant(&mut self, id: &str, subagent_run_id: Option<&String>) -> Option<usize> {
        match self.by_id.get(id).copied() {
            Some(i) => matches!(self.messages.get(i), Some(ChatMessage::Assistant(_))).then_some(i),
            None => {
                let mut m = AssistantMessage::new(id);
                m.subagent_run_id = subagent_run_id.cloned();
                Some(self.push(ChatMessage::Assistant(m)))
            }
        }
    }

    fn tool_start(
        &mut self,
        call_id: &str,
        name: &str,
        parent: Option<&str>,
        subagent_run_id: Option<&String>,
    ) {
        if self.calls.contains_key(call_id) {
            return;
        }
        let holder = match parent {
            Some(parent) => self.assistant(parent, subagent_run_id),
            None => None,
        };
        let Some(holder) = holder.or_else(|| self.assistant(call_id, subagent_run_id)) else {
            return;
        };
        if let Some(ChatMessage::Assistant(m)) = self.messages.get_mut(holder) {
            let calls = m.tool_calls.get_or_insert_with(Vec::new);
            calls.push(ToolCall::new(call_id, FunctionCall::new(name, "")));
            self.calls
                .insert(call_id.to_owned(), (holder, calls.len() - 1));
        }
    }

    fn tool_args(&mut self, call_id: &str, delta: &str) {
        let Some(&(message, call)) = self.calls.get(call_id) else {
            return;
        };
        if let Some(ChatMessage::Assistant(m)) = self.messages.get_mut(message) {
            if let Some(c) = m.tool_calls.as_mut().and_then(|calls| calls.get_mut(call)) {
                c.function.arguments.push_str(delta);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agui::events::{
        TextMessageChunk, TextMessageContent, TextMessageStart, ToolCallArgs, ToolCallChunk,
        ToolCallResult, ToolCallStart,
    };

    fn assistant(m: &ChatMessage) -> &AssistantMessage {
        match m {
            ChatMessage::Assistant(a) => a,
            other => panic!("not an assistant message: {other:?}"),
        }
    }

    #[test]
    fn a_call_without_a_parent_gets_a_message_named_after_it() {
        let mut start = ToolCallStart::new("c1", "clock");
        start.subagent_run_id = Some("sub".into());
        let events = [
            Event::from(start),
            ToolCallArgs::new("c1", "{}").into(),
            ToolCallResult::new("t1", "c1", "12:00").into(),
        ];
        let messages = messages_of_run(&events);
        assert_eq!(messages.len(), 2);
        let holder = assistant(&messages[0]);
        assert_eq!(holder.id, "c1");
        assert_eq!(holder.content, None);
        assert_eq!(holder.subagent_run_id.as_deref(), Some("sub"));
        let calls = holder.tool_calls.as_deref().unwrap();
        assert_eq!(calls[0].function, FunctionCall::new("clock", "{}"));
        assert_eq!(
            messages[1],
            ChatMessage::Tool(ToolMessage::new("t1", "c1", "12:00"))
        );
    }

    #[test]
    fn a_parent_named_before_its_text_keeps_the_first_place() {
        let mut start = ToolCallStart::new("c1", "search");
        start.parent_message_id = Some("m1".into());
        let mut second = ToolCallStart::new("c2", "map");
        second.parent_message_id = Some("m1".into());
        let events = [
            Event::from(start),
            second.into(),
            TextMessageStart::new("m1").into(),
            TextMessageContent::new("m1", "Looking").into(),
        ];
        let messages = messages_of_run(&events);
        assert_eq!(messages.len(), 1);
        let m = assistant(&messages[0]);
        assert_eq!(m.content.as_deref(), Some("Looking"));
        let ids: Vec<_> = m
            .tool_calls
            .iter()
            .flatten()
            .map(|c| c.id.as_str())
            .collect();
        assert_eq!(ids, ["c1", "c2"]);
    }

    #[test]
    fn roles_other_than_assistant_are_kept() {
        let mut user = TextMessageStart::new("u1");
        user.role = Some(TextMessageRole::User);
        let mut system = TextMessageStart::new("s1");
        system.role = Some(TextMessageRole::System);
        let mut developer = TextMessageStart::new("d1");
        developer.role = Some(TextMessageRole::Developer);
        let events = [
            Event::from(user),
            TextMessageContent::new("u1", "Hi").into(),
            system.into(),
            TextMessageContent::new("s1", "Be brief.").into(),
            developer.into(),
            TextMessageContent::new("d1", "Use metric.").into(),
        ];
        assert_eq!(
            messages_of_run(&events),
            [
                ChatMessage::User(UserMessage::new("u1", UserContent::Text("Hi".into()))),
                ChatMessage::System(TextMessage::new("s1", "Be brief.")),
                ChatMessage::Developer(TextMessage::new("d1", "Use metric.")),
            ]
        );
    }

    #[test]
    fn chunks_open_and_continue_messages_and_calls() {
        let first = TextMessageChunk {
            message_id: Some("m1".into()),
            delta: Some("Hel".into()),
            ..Default::default()
        };
        let next = TextMessageChunk {
            delta: Some("lo".into()),
            ..Default::default()
        };
        let call = ToolCallChunk {
            tool_call_id: Some("c1".into()),
            tool_call_name: Some("search".into()),
            parent_message_id: Some("m1".into()),
            delta: Some(r#"{"q":"#.into()),
            ..Default::default()
        };
        let more = ToolCallChunk {
            delta: Some(r#""x"}"#.into()),
            ..Default::default()
        };
        let events = [Event::from(first), next.into(), call.into(), more.into()];
        let messages = messages_of_run(&events);
        assert_eq!(messages.len(), 1);
        let m = assistant(&messages[0]);
        assert_eq!(m.content.as_deref(), Some("Hello"));
        let calls = m.tool_calls.as_deref().unwrap();
        assert_eq!(
            calls[0].function,
            FunctionCall::new("search", r#"{"q":"x"}"#)
        );
    }

    #[test]
    fn a_chunk_with_no_open_message_adds_nothing() {
        let orphan = TextMessageChunk {
            delta: Some("lost".into()),
            ..Default::default()
        };
        let call = ToolCallChunk {
            delta: Some("{}".into()),
            ..Default::default()
        };
        assert_eq!(messages_of_run(&[Event::from(orphan), call.into()]), []);
    }

    #[test]
    fn a_result_never_overwrites_another_kind_of_message() {
        let events = [
            Event::from(TextMessageStart::new("m1")),
            TextMessageContent::new("m1", "Hi").into(),
            ToolCallStart::new("c1", "x").into(),
            ToolCallResult::new("m1", "c1", "clash").into(),
            ToolCallResult::new("t1", "c1", "first").into(),
            ToolCallResult::new("t1", "c1", "second").into(),
        ];
        let messages = messages_of_run(&events);
        assert_eq!(assistant(&messages[0]).content.as_deref(), Some("Hi"));
        assert_eq!(
            messages[2],
            ChatMessage::Tool(ToolMessage::new("t1", "c1", "second"))
        );
        assert_eq!(messages.len(), 3);
    }

    #[test]
    fn content_for_a_message_never_started_still_counts() {
        let events = [
            Event::from(TextMessageContent::new("m1", "a")),
            TextMessageContent::new("m1", "b").into(),
        ];
        let messages = messages_of_run(&events);
        assert_eq!(assistant(&messages[0]).content.as_deref(), Some("ab"));
    }
}
