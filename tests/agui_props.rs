//! Property tests: the run builder always produces a sequence the verifier accepts, and SSE
//! encoding survives any split of the byte stream.
#![cfg(feature = "agui")]

use a2ui_stream::agui::events::{ChatMessage, Event, EventType, PatchOp};
use a2ui_stream::agui::{RunBuilder, SseReader, sse, verify};
use proptest::prelude::*;
use serde_json::json;

mod support;
use support::outputs::{Output, push};

/// What a test agent does: an output, or an A2UI message for a surface.
#[derive(Debug, Clone)]
enum Op {
    Out(Output),
    A2ui(Option<&'static str>, u8),
    TextBytes(Vec<u8>),
}

fn id() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "c"]).prop_map(String::from)
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-z \n\"\\\\é😀]{0,6}",
        Just("\r\n".to_owned())
    ]
}

fn args() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "", "{", "}", "\"k\":", "1", "[1,2]", "{}", " ", "\"x\"",
    ])
    .prop_map(String::from)
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => text().prop_map(|t| Op::Out(Output::Text(t))),
        1 => Just(Op::Out(Output::TextEnd)),
        2 => text().prop_map(|t| Op::Out(Output::Reasoning(t))),
        1 => Just(Op::Out(Output::ReasoningEnd)),
        2 => (id(), prop::sample::select(vec!["search", "weather"]))
            .prop_map(|(id, name)| Op::Out(Output::ToolCallStart { id, name: name.into() })),
        3 => (id(), args()).prop_map(|(id, delta)| Op::Out(Output::ToolCallArgs { id, delta })),
        2 => id().prop_map(|id| Op::Out(Output::ToolCallEnd { id })),
        2 => (id(), text()).prop_map(|(id, content)| Op::Out(Output::ToolCallResult { id, content })),
        1 => any::<u8>().prop_map(|n| Op::Out(Output::StateSnapshot(json!({"n": n})))),
        1 => any::<u8>().prop_map(|n| Op::Out(Output::StateDelta(vec![PatchOp::Replace { path: "/n".into(), value: json!(n) }]))),
        1 => prop::sample::select(vec!["s1", "s2"]).prop_map(|s| Op::Out(Output::StepStarted(s.into()))),
        1 => prop::sample::select(vec!["s1", "s2"]).prop_map(|s| Op::Out(Output::StepFinished(s.into()))),
        1 => Just(Op::Out(Output::RunStarted)),
        1 => Just(Op::Out(Output::RunFinished)),
        1 => Just(Op::Out(Output::RunError { message: "failed".into(), code: None })),
        1 => Just(Op::Out(Output::Custom { name: "x".into(), value: json!([1]) })),
        1 => Just(Op::Out(Output::Raw { event: json!({"type": "ping"}), source: None })),
        1 => Just(Op::Out(Output::MessagesSnapshot(vec![user_message()]))),
        1 => any::<u8>().prop_map(|n| Op::Out(Output::A2ui {
            surface_id: Some("u".into()),
            message: json!({"surfaceUpdate": {"surfaceId": "u", "components": [{"id": format!("c{n}")}]}}),
        })),
        2 => (prop::option::of(prop::sample::select(vec!["s", "t"])), any::<u8>()).prop_map(|(s, n)| Op::A2ui(s, n)),
        2 => prop::collection::vec(any::<u8>(), 0..6).prop_map(Op::TextBytes),
    ]
}

fn user_message() -> ChatMessage {
    serde_json::from_value(json!({"id": "m1", "role": "user", "content": "hi"}))
        .expect("a user message")
}

fn run_ops(ops: &[Op], close: bool) -> Vec<Event> {
    let mut run = RunBuilder::new("thread", "run");
    for op in ops {
        // Refusals are part of the contract: they send nothing.
        let _ = match op {
            Op::Out(o) => push(&mut run, o.clone()),
            Op::A2ui(surface, n) => {
                let sid = surface.unwrap_or("");
                run.a2ui_value(*surface, json!({"surfaceUpdate": {"surfaceId": sid, "components": [{"id": format!("c{n}")}]}}))
            }
            Op::TextBytes(b) => run.a2ui(a2ui_stream::Event::Text(bytes::Bytes::from(b.clone()))),
        };
    }
    if close {
        let _ = run.finish();
    }
    run.drain().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_agent_outputs_give_a_valid_sequence(ops in prop::collection::vec(op(), 0..40)) {
        let events = run_ops(&ops, true);
        if let Err(v) = verify(&events) {
            let types: Vec<&str> = events.iter().map(|e| e.event_type().as_str()).collect();
            prop_assert!(false, "{v}\nops: {ops:?}\nevents: {types:?}");
        }
        // Exactly one RUN_STARTED, first; exactly one terminal event, last.
        prop_assert_eq!(events.iter().filter(|e| e.event_type() == EventType::RunStarted).count(), 1);
        prop_assert_eq!(events.first().map(Event::event_type), Some(EventType::RunStarted));
        let terminal = |e: &Event| matches!(e.event_type(), EventType::RunFinished | EventType::RunError);
        prop_assert_eq!(events.iter().filter(|e| terminal(e)).count(), 1);
        prop_assert!(events.last().is_some_and(terminal));
        // No empty deltas.
        for e in &events {
            match e {
                Event::TextMessageContent(c) => prop_assert!(!c.delta.is_empty()),
                Event::ReasoningMessageContent(c) => prop_assert!(!c.delta.is_empty()),
                Event::ToolCallArgs(c) => prop_assert!(!c.delta.is_empty()),
                _ => {}
            }
        }
    }

    /// Prose in, prose out: the text deltas of a run concatenate to the text given to it.
    #[test]
    fn text_is_preserved(parts in prop::collection::vec(text(), 0..20), ends in prop::collection::vec(any::<bool>(), 20)) {
        let mut run = RunBuilder::new("t", "r");
        for (p, end) in parts.iter().zip(&ends) {
            run.text(p).unwrap();
            if *end { run.text_end().unwrap(); }
        }
        run.finish().unwrap();
        let events: Vec<Event> = run.drain().collect();
        let got: String = events.iter().filter_map(|e| match e {
            Event::TextMessageContent(c) => Some(c.delta.as_str()),
            _ => None,
        }).collect();
        prop_assert_eq!(got, parts.concat());
    }

    /// Splitter prose (bytes, cut anywhere, even inside a character) mixed with the agent's
    /// own text: the deltas are each run of splitter bytes decoded as one, with any character
    /// left cut when the agent's text comes shown as U+FFFD, and the agent's text, in order.
    #[test]
    fn splitter_bytes_and_agent_text_keep_their_order(
        items in prop::collection::vec(prop_oneof![
            "[a-z é😀]{0,5}".prop_map(|s| (true, s.into_bytes())),
            prop::collection::vec(prop_oneof![Just(0xC3u8), Just(0xA9), Just(0xF0), Just(0x9F), Just(b'x')], 0..4)
                .prop_map(|b| (true, b)),
            "[A-Z!]{1,3}".prop_map(|s| (false, s.into_bytes())),
        ], 0..16),
    ) {
        let mut run = RunBuilder::new("t", "r");
        let mut expected = String::new();
        let mut bytes_run: Vec<u8> = Vec::new();
        for (from_splitter, bytes) in &items {
            if *from_splitter {
                run.a2ui(a2ui_stream::Event::Text(bytes::Bytes::from(bytes.clone()))).unwrap();
                bytes_run.extend_from_slice(bytes);
            } else {
                let text = std::str::from_utf8(bytes).unwrap();
                run.text(text).unwrap();
                expected.push_str(&String::from_utf8_lossy(&bytes_run));
                bytes_run.clear();
                expected.push_str(text);
            }
        }
        run.finish().unwrap();
        expected.push_str(&String::from_utf8_lossy(&bytes_run));
        let events: Vec<Event> = run.drain().collect();
        prop_assert!(verify(&events).is_ok());
        let got: String = events.iter().filter_map(|e| match e {
            Event::TextMessageContent(c) => Some(c.delta.as_str()),
            _ => None,
        }).collect();
        prop_assert_eq!(got, expected);
    }

    /// When a nested run ends, nothing it opened is still open, and what the runs around it
    /// opened still is.
    #[test]
    fn a_nested_run_closes_what_it_opened_and_only_that(ops in prop::collection::vec(op(), 0..40)) {
        let mut run = RunBuilder::new("thread", "run");
        run.enter_run().unwrap();
        // Per run, outermost first: the tool calls and steps it started that are still open.
        let mut open: Vec<(Vec<String>, Vec<String>)> = vec![(Vec::new(), Vec::new())];
        let mut log: Vec<Event> = run.drain().collect();
        for (i, op) in ops.iter().enumerate() {
            let Op::Out(o) = op else { continue };
            if matches!(o, Output::RunStarted | Output::RunFinished | Output::RunError { .. }) {
                continue;
            }
            let _ = push(&mut run, o.clone());
            if run.is_over() {
                return Ok(());
            }
            for e in run.drain() {
                match &e {
                    Event::ToolCallStart(t) => open.last_mut().unwrap().0.push(t.tool_call_id.clone()),
                    Event::ToolCallEnd(t) => open.iter_mut().for_each(|(ts, _)| ts.retain(|x| x != &t.tool_call_id)),
                    Event::StepStarted(s) => open.last_mut().unwrap().1.push(s.step_name.clone()),
                    Event::StepFinished(s) => open.iter_mut().for_each(|(_, ss)| ss.retain(|x| x != &s.step_name)),
                    _ => {}
                }
                log.push(e);
            }
            // Now and then a nested run begins or ends.
            if i % 5 == 4 {
                run.enter_run().unwrap();
                open.push((Vec::new(), Vec::new()));
            } else if i % 7 == 6 && open.len() > 1 {
                let (tools, steps) = open.pop().unwrap();
                if run.exit_run().is_err() {
                    prop_assert!(run.is_over());
                    return Ok(());
                }
                let after: Vec<Event> = run.drain().collect();
                let ended: Vec<&str> = after.iter().filter_map(|e| match e {
                    Event::ToolCallEnd(t) => Some(t.tool_call_id.as_str()),
                    _ => None,
                }).collect();
                let finished: Vec<&str> = after.iter().filter_map(|e| match e {
                    Event::StepFinished(s) => Some(s.step_name.as_str()),
                    _ => None,
                }).collect();
                let mut tools_sorted: Vec<&str> = tools.iter().map(String::as_str).collect();
                let mut ended_sorted = ended.clone();
                tools_sorted.sort_unstable();
                ended_sorted.sort_unstable();
                prop_assert_eq!(ended_sorted, tools_sorted, "tool calls ended by the nested run's end");
                let latest_first: Vec<&str> = steps.iter().rev().map(String::as_str).collect();
                prop_assert_eq!(finished, latest_first, "steps ended by the nested run's end");
                log.extend(after);
            }
        }
        let _ = run.finish();
        log.extend(run.drain());
        prop_assert!(verify(&log).is_ok());
    }

    /// Splitter prose cut anywhere, even inside a UTF-8 character, comes out whole.
    #[test]
    fn utf8_split_anywhere_is_reassembled(s in "[a-zé😀 ]{0,20}", cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..5)) {
        let bytes = s.as_bytes();
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
        points.sort_unstable();
        let mut run = RunBuilder::new("t", "r");
        let mut prev = 0;
        for p in points.into_iter().chain([bytes.len()]) {
            run.a2ui(a2ui_stream::Event::Text(bytes::Bytes::copy_from_slice(&bytes[prev..p]))).unwrap();
            prev = p;
        }
        run.finish().unwrap();
        let got: String = run.drain().filter_map(|e| match e {
            Event::TextMessageContent(c) => Some(c.delta),
            _ => None,
        }).collect();
        prop_assert_eq!(got, s);
    }

    /// Encode, interleave keep-alive pings, split at arbitrary byte boundaries, read back:
    /// the same events, in order.
    #[test]
    fn sse_round_trip_is_lossless(
        ops in prop::collection::vec(op(), 0..30),
        pings in prop::collection::vec(any::<bool>(), 64),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
    ) {
        let events = run_ops(&ops, true);
        let mut body = Vec::new();
        for (i, e) in events.iter().enumerate() {
            if pings.get(i).copied().unwrap_or(false) {
                body.extend_from_slice(sse::KEEP_ALIVE.as_bytes());
            }
            let id = (i % 3 != 0).then_some(i as u64 + 1);
            body.extend_from_slice(sse::frame(&serde_json::to_string(e).unwrap(), id).as_bytes());
        }
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(body.len() + 1)).collect();
        points.sort_unstable();
        let mut reader = SseReader::new();
        let mut back = Vec::new();
        let mut prev = 0;
        for p in points.into_iter().chain([body.len()]) {
            for r in reader.feed(&body[prev..p]) {
                back.push(r.unwrap());
            }
            prev = p;
        }
        prop_assert_eq!(back, events);
    }

    /// The same with CRLF line ends and the JSON spread over several `data:` lines.
    #[test]
    fn sse_reader_accepts_crlf_and_multiline_data(
        ops in prop::collection::vec(op(), 0..20),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
    ) {
        let events = run_ops(&ops, true);
        let mut body = Vec::new();
        for e in &events {
            let pretty = serde_json::to_string_pretty(e).unwrap();
            body.extend_from_slice(b": comment\r\n");
            for line in pretty.split('\n') {
                body.extend_from_slice(b"data:");
                body.extend_from_slice(line.as_bytes());
                body.extend_from_slice(b"\r\n");
            }
            body.extend_from_slice(b"\r\n");
        }
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(body.len() + 1)).collect();
        points.sort_unstable();
        let mut reader = SseReader::new();
        let mut back = Vec::new();
        let mut prev = 0;
        for p in points.into_iter().chain([body.len()]) {
            for r in reader.feed(&body[prev..p]) {
                back.push(r.unwrap());
            }
            prev = p;
        }
        prop_assert_eq!(back, events);
    }

    /// Whatever the body (frames of any size, over-long lines, comments, stray bytes, any line
    /// ends) and whatever the limit, the reader gives the same events and the same errors, at
    /// the same offsets, however the body is cut.
    #[test]
    fn sse_reader_gives_the_same_on_every_cut(
        pieces in prop::collection::vec(sse_piece(), 0..16),
        max in 0usize..48,
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
    ) {
        let body = pieces.concat();
        let read = |points: &[usize]| -> Vec<String> {
            let mut reader = SseReader::with_max_frame_bytes(max);
            let mut out = Vec::new();
            let mut prev = 0;
            for &p in points.iter().chain([&body.len()]) {
                out.extend(reader.feed(&body[prev..p]).into_iter().map(|r| match r {
                    Ok(event) => format!("event {}", serde_json::to_string(&event).unwrap()),
                    Err(e) => format!("error {e}"),
                }));
                prev = p;
            }
            out
        };
        let whole = read(&[]);
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(body.len() + 1)).collect();
        points.sort_unstable();
        prop_assert_eq!(read(&points), whole.clone());
        let bytewise: Vec<usize> = (1..body.len()).collect();
        prop_assert_eq!(read(&bytewise), whole);
    }
}

/// One piece of an SSE body: a data line (an event's JSON, short or long), a comment, another
/// field, a blank line, a byte-order mark or stray bytes, with LF, CR or CRLF line ends.
fn sse_piece() -> impl Strategy<Value = Vec<u8>> {
    let end = prop_oneof![Just("\n"), Just("\r"), Just("\r\n")];
    let line = prop_oneof![
        "[a-z]{0,30}"
            .prop_map(|name| format!(r#"data: {{"type":"STEP_STARTED","stepName":"{name}"}}"#)),
        "[a-z ]{0,40}".prop_map(|text| format!("data:{text}")),
        "[a-z ]{0,20}".prop_map(|text| format!(": {text}")),
        Just("event: message".to_owned()),
        Just(String::new()),
    ];
    prop_oneof![
        4 => (line, end).prop_map(|(line, end)| format!("{line}{end}").into_bytes()),
        1 => Just(b"\xEF\xBB\xBF".to_vec()),
        1 => prop::collection::vec(any::<u8>(), 0..6),
    ]
}

#[test]
fn read_all_of_an_encoded_run() {
    let events = run_ops(&[Op::Out(Output::Text("hi".into()))], true);
    let body: String = events.iter().map(|e| sse::encode(e).unwrap()).collect();
    assert_eq!(sse::read_all(body.as_bytes()).unwrap(), events);
}
