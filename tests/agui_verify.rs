//! One test per verifier rule: a sequence that breaks it, and the exact error.
#![cfg(feature = "agui")]

use a2ui_stream::agui::Span;
use a2ui_stream::agui::events::*;
use a2ui_stream::agui::*;

/// An event built from the defaults of its fields and the fields given (wire structs are
/// `#[non_exhaustive]`, so they are not written as struct expressions outside the crate).
macro_rules! ev {
    ($t:ident { $($f:ident: $v:expr),* $(,)? }) => {{
        let mut e = $t::default();
        $(e.$f = $v;)*
        Event::from(e)
    }};
}

fn rs() -> Event {
    RunStarted::new("t", "r").into()
}
fn rf() -> Event {
    RunFinished::new("t", "r").into()
}
fn re() -> Event {
    RunError::new("boom").into()
}
fn tms(id: &str) -> Event {
    TextMessageStart::new(id).into()
}
fn tmc(id: &str, d: &str) -> Event {
    TextMessageContent::new(id, d).into()
}
fn tme(id: &str) -> Event {
    TextMessageEnd::new(id).into()
}
fn tcs(id: &str) -> Event {
    ToolCallStart::new(id, "f").into()
}
fn tca(id: &str, d: &str) -> Event {
    ToolCallArgs::new(id, d).into()
}
fn tce(id: &str) -> Event {
    ToolCallEnd::new(id).into()
}
fn tcr(id: &str) -> Event {
    ToolCallResult::new("res", id, "ok").into()
}
fn text_chunk(id: Option<&str>, d: Option<&str>) -> Event {
    ev!(TextMessageChunk {
        message_id: id.map(Into::into),
        delta: d.map(Into::into),
    })
}
fn tool_chunk(id: Option<&str>, name: Option<&str>, d: Option<&str>) -> Event {
    ev!(ToolCallChunk {
        tool_call_id: id.map(Into::into),
        tool_call_name: name.map(Into::into),
        delta: d.map(Into::into),
    })
}
fn reasoning_chunk(id: Option<&str>, d: Option<&str>) -> Event {
    ev!(ReasoningMessageChunk {
        message_id: id.map(Into::into),
        delta: d.map(Into::into),
    })
}

#[track_caller]
fn fails(events: &[Event], index: usize, ty: Option<EventType>, rule: Rule, text: &str) {
    let v = verify(events).unwrap_err();
    assert_eq!(
        v,
        Violation {
            index,
            event_type: ty,
            rule
        }
    );
    assert_eq!(v.to_string(), text);
}

#[test]
fn valid_sequences_pass() {
    verify(&[
        rs(),
        tms("m"),
        tmc("m", "hi"),
        tme("m"),
        tcs("c"),
        tca("c", "{}"),
        tce("c"),
        tcr("c"),
        rf(),
    ])
    .unwrap();
    // A second run after the first finished, answering a call from the first.
    verify(&[rs(), tcs("c"), tce("c"), rf(), rs(), tcr("c"), rf()]).unwrap();
    // A run that fails before it starts.
    verify(&[re()]).unwrap();
    // An empty stream.
    verify(&[]).unwrap();
}

#[test]
fn first_event_must_be_run_started() {
    fails(
        &[tms("m")],
        0,
        Some(EventType::TextMessageStart),
        Rule::FirstEventNotRunStarted,
        "event 0 (TEXT_MESSAGE_START): the first event must be RUN_STARTED",
    );
}

#[test]
fn nothing_after_run_error() {
    fails(
        &[rs(), re(), rs()],
        2,
        Some(EventType::RunStarted),
        Rule::AfterRunError,
        "event 2 (RUN_STARTED): no event may follow RUN_ERROR",
    );
}

#[test]
fn only_run_started_after_run_finished() {
    fails(
        &[rs(), rf(), tms("m")],
        2,
        Some(EventType::TextMessageStart),
        Rule::AfterRunFinished,
        "event 2 (TEXT_MESSAGE_START): only RUN_STARTED or RUN_ERROR may follow RUN_FINISHED",
    );
}

#[test]
fn no_run_started_during_a_run() {
    fails(
        &[rs(), rs()],
        1,
        Some(EventType::RunStarted),
        Rule::RunAlreadyActive,
        "event 1 (RUN_STARTED): RUN_STARTED while a run is still active",
    );
}

#[test]
fn text_message_pairing() {
    fails(
        &[rs(), tms("m"), tms("m")],
        2,
        Some(EventType::TextMessageStart),
        Rule::AlreadyActive {
            span: Span::TextMessage,
            id: "m".into(),
        },
        "event 2 (TEXT_MESSAGE_START): text message 'm' is already active",
    );
    fails(
        &[rs(), tms("m"), tmc("x", "a")],
        2,
        Some(EventType::TextMessageContent),
        Rule::NotActive {
            span: Span::TextMessage,
            id: "x".into(),
        },
        "event 2 (TEXT_MESSAGE_CONTENT): no active text message 'x'",
    );
    fails(
        &[rs(), tms("m"), tme("m"), tme("m")],
        3,
        Some(EventType::TextMessageEnd),
        Rule::NotActive {
            span: Span::TextMessage,
            id: "m".into(),
        },
        "event 3 (TEXT_MESSAGE_END): no active text message 'm'",
    );
}

#[test]
fn tool_call_pairing() {
    fails(
        &[rs(), tcs("c"), tcs("c")],
        2,
        Some(EventType::ToolCallStart),
        Rule::AlreadyActive {
            span: Span::ToolCall,
            id: "c".into(),
        },
        "event 2 (TOOL_CALL_START): tool call 'c' is already active",
    );
    fails(
        &[rs(), tca("c", "{}")],
        1,
        Some(EventType::ToolCallArgs),
        Rule::NotActive {
            span: Span::ToolCall,
            id: "c".into(),
        },
        "event 1 (TOOL_CALL_ARGS): no active tool call 'c'",
    );
    fails(
        &[rs(), tce("c")],
        1,
        Some(EventType::ToolCallEnd),
        Rule::NotActive {
            span: Span::ToolCall,
            id: "c".into(),
        },
        "event 1 (TOOL_CALL_END): no active tool call 'c'",
    );
}

#[test]
fn reasoning_pairing() {
    let start: Event = ev!(ReasoningStart {
        message_id: "r1".into(),
    });
    let end: Event = ev!(ReasoningEnd {
        message_id: "r1".into(),
    });
    let mstart: Event = ev!(ReasoningMessageStart {
        message_id: "m1".into(),
    });
    let mcontent: Event = ev!(ReasoningMessageContent {
        message_id: "m1".into(),
        delta: "x".into(),
    });
    let mend: Event = ev!(ReasoningMessageEnd {
        message_id: "m1".into(),
    });
    verify(&[
        rs(),
        start.clone(),
        mstart.clone(),
        mcontent.clone(),
        mend.clone(),
        end.clone(),
        rf(),
    ])
    .unwrap();
    fails(
        &[rs(), start.clone(), start.clone()],
        2,
        Some(EventType::ReasoningStart),
        Rule::AlreadyActive {
            span: Span::Reasoning,
            id: "r1".into(),
        },
        "event 2 (REASONING_START): reasoning 'r1' is already active",
    );
    fails(
        &[rs(), end],
        1,
        Some(EventType::ReasoningEnd),
        Rule::NotActive {
            span: Span::Reasoning,
            id: "r1".into(),
        },
        "event 1 (REASONING_END): no active reasoning 'r1'",
    );
    fails(
        &[rs(), start, mcontent],
        2,
        Some(EventType::ReasoningMessageContent),
        Rule::NotActive {
            span: Span::ReasoningMessage,
            id: "m1".into(),
        },
        "event 2 (REASONING_MESSAGE_CONTENT): no active reasoning message 'm1'",
    );
    fails(
        &[rs(), mstart.clone(), mstart],
        2,
        Some(EventType::ReasoningMessageStart),
        Rule::AlreadyActive {
            span: Span::ReasoningMessage,
            id: "m1".into(),
        },
        "event 2 (REASONING_MESSAGE_START): reasoning message 'm1' is already active",
    );
    fails(
        &[rs(), mend],
        1,
        Some(EventType::ReasoningMessageEnd),
        Rule::NotActive {
            span: Span::ReasoningMessage,
            id: "m1".into(),
        },
        "event 1 (REASONING_MESSAGE_END): no active reasoning message 'm1'",
    );
}

#[test]
fn step_pairing() {
    fails(
        &[
            rs(),
            StepStarted::new("plan").into(),
            StepStarted::new("plan").into(),
        ],
        2,
        Some(EventType::StepStarted),
        Rule::AlreadyActive {
            span: Span::Step,
            id: "plan".into(),
        },
        "event 2 (STEP_STARTED): step 'plan' is already active",
    );
    fails(
        &[rs(), StepFinished::new("plan").into()],
        1,
        Some(EventType::StepFinished),
        Rule::NotActive {
            span: Span::Step,
            id: "plan".into(),
        },
        "event 1 (STEP_FINISHED): no active step 'plan'",
    );
}

#[test]
fn nothing_open_at_run_finished() {
    fails(
        &[rs(), StepStarted::new("plan").into(), tms("m"), rf()],
        3,
        Some(EventType::RunFinished),
        Rule::OpenAtRunFinished {
            span: Span::Step,
            id: "plan".into(),
        },
        "event 3 (RUN_FINISHED): RUN_FINISHED while step 'plan' is still active",
    );
    fails(
        &[rs(), tcs("c"), rf()],
        2,
        Some(EventType::RunFinished),
        Rule::OpenAtRunFinished {
            span: Span::ToolCall,
            id: "c".into(),
        },
        "event 2 (RUN_FINISHED): RUN_FINISHED while tool call 'c' is still active",
    );
}

#[test]
fn tool_result_only_for_a_known_call() {
    fails(
        &[rs(), tcs("a"), tce("a"), tcr("b")],
        3,
        Some(EventType::ToolCallResult),
        Rule::UnknownToolCall { id: "b".into() },
        "event 3 (TOOL_CALL_RESULT): result for unknown tool call 'b'",
    );
}

#[test]
fn tool_arguments_are_json_at_their_end() {
    fails(
        &[
            rs(),
            tcs("c"),
            tca("c", "{\"city\":"),
            tca("c", " \"SF\""),
            tce("c"),
        ],
        4,
        Some(EventType::ToolCallEnd),
        Rule::InvalidToolArguments {
            id: "c".into(),
            error: "EOF while parsing an object at line 1 column 13".into(),
        },
        "event 4 (TOOL_CALL_END): arguments of tool call 'c' are not valid JSON at its end: \
         EOF while parsing an object at line 1 column 13",
    );
    // No arguments at all: a call without arguments.
    verify(&[rs(), tcs("c"), tce("c"), rf()]).unwrap();
}

#[test]
fn stream_must_not_end_inside_a_run() {
    fails(
        &[rs(), tms("m")],
        2,
        None,
        Rule::RunNotTerminated,
        "end of stream after 2 events: the stream ended before RUN_FINISHED or RUN_ERROR",
    );
}

#[test]
fn chunk_opening_a_stream_needs_an_id() {
    fails(
        &[rs(), text_chunk(None, Some("hi"))],
        1,
        Some(EventType::TextMessageChunk),
        Rule::ChunkWithoutId,
        "event 1 (TEXT_MESSAGE_CHUNK): a chunk that opens a stream must carry its id",
    );
    fails(
        &[rs(), tool_chunk(Some("c"), None, Some("{}"))],
        1,
        Some(EventType::ToolCallChunk),
        Rule::ChunkWithoutName,
        "event 1 (TOOL_CALL_CHUNK): a TOOL_CALL_CHUNK that opens a call must carry toolCallName",
    );
}

/// Seed 000: a chunk-only stream is one message, not one message per token.
#[test]
fn chunk_only_streams_are_expanded_like_the_client() {
    let events = [
        rs(),
        text_chunk(Some("msg_123"), Some("Hello")),
        text_chunk(None, Some(" world")),
        text_chunk(Some("msg_123"), Some("!")),
        // Activity events do not interrupt a chunked message.
        ev!(ActivityDelta {
            message_id: "a".into(),
            activity_type: "x".into(),
        }),
        text_chunk(None, Some("?")),
        tool_chunk(Some("c"), Some("f"), Some("{\"a\":")),
        tool_chunk(None, None, Some("1}")),
        reasoning_chunk(Some("th"), Some("hm")),
        rf(),
    ];
    verify(&events).unwrap();

    // The chunked tool call is closed by the reasoning chunk; bad arguments are caught there.
    fails(
        &[
            rs(),
            tool_chunk(Some("c"), Some("f"), Some("{")),
            reasoning_chunk(Some("th"), None),
        ],
        2,
        Some(EventType::ReasoningMessageChunk),
        Rule::InvalidToolArguments {
            id: "c".into(),
            error: "EOF while parsing an object at line 1 column 1".into(),
        },
        "event 2 (REASONING_MESSAGE_CHUNK): arguments of tool call 'c' are not valid JSON at its end: \
         EOF while parsing an object at line 1 column 1",
    );
    // A chunk for a message already opened explicitly is a second start.
    fails(
        &[rs(), tms("m"), text_chunk(Some("m"), Some("x"))],
        2,
        Some(EventType::TextMessageChunk),
        Rule::AlreadyActive {
            span: Span::TextMessage,
            id: "m".into(),
        },
        "event 2 (TEXT_MESSAGE_CHUNK): text message 'm' is already active",
    );
    // A chunk after RUN_FINISHED is still after RUN_FINISHED.
    fails(
        &[rs(), rf(), text_chunk(Some("m"), Some("x"))],
        2,
        Some(EventType::TextMessageChunk),
        Rule::AfterRunFinished,
        "event 2 (TEXT_MESSAGE_CHUNK): only RUN_STARTED or RUN_ERROR may follow RUN_FINISHED",
    );
}

/// The incremental verifier reports the same as the whole-sequence one.
#[test]
fn incremental_verifier() {
    let mut v = Verifier::new();
    v.push(&rs()).unwrap();
    v.push(&tms("m")).unwrap();
    assert!(v.finish().is_err());
    v.push(&tme("m")).unwrap();
    v.push(&rf()).unwrap();
    v.finish().unwrap();
}
