//! Golden AG-UI sequences for the scenarios the transport was designed around.
#![cfg(feature = "agui")]

use a2ui_stream::agui::events::{Event, EventType, PatchOp};
use a2ui_stream::agui::{RunBuilder, RunBuilderErrorKind, verify};
use serde_json::{Value, json};

mod support;
use support::outputs::{Output, push};

fn wire(events: &[Event]) -> Vec<Value> {
    events
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect()
}

fn take(run: &mut RunBuilder) -> Vec<Event> {
    let events: Vec<Event> = run.drain().collect();
    verify(&events).unwrap();
    events
}

/// A tool call, its result, then the final answer streamed token by token.
#[test]
fn tool_call_then_final_answer() {
    let mut run = RunBuilder::new("thread-1", "run-1");
    run.tool_call_start("call_123", "get_weather").unwrap();
    run.tool_call_args("call_123", "{\"location\":").unwrap();
    run.tool_call_args("call_123", " \"San Francisco\"}")
        .unwrap();
    run.tool_call_end("call_123").unwrap();
    run.tool_call_result(
        "call_123",
        "{\"temperature\": 68, \"condition\": \"sunny\"}",
    )
    .unwrap();
    for token in ["The weather", " in San Francisco", " is sunny", ", 68°F."] {
        run.text(token).unwrap();
    }
    run.finish().unwrap();
    assert_eq!(
        wire(&take(&mut run)),
        [
            json!({"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1","protocolVersion":"1.0"}),
            json!({"type":"TOOL_CALL_START","toolCallId":"call_123","toolCallName":"get_weather"}),
            json!({"type":"TOOL_CALL_ARGS","toolCallId":"call_123","delta":"{\"location\":"}),
            json!({"type":"TOOL_CALL_ARGS","toolCallId":"call_123","delta":" \"San Francisco\"}"}),
            json!({"type":"TOOL_CALL_END","toolCallId":"call_123"}),
            json!({"type":"TOOL_CALL_RESULT","messageId":"run-1-result-1","toolCallId":"call_123",
                   "content":"{\"temperature\": 68, \"condition\": \"sunny\"}","role":"tool"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"run-1-msg-2","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"run-1-msg-2","delta":"The weather"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"run-1-msg-2","delta":" in San Francisco"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"run-1-msg-2","delta":" is sunny"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"run-1-msg-2","delta":", 68°F."}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"run-1-msg-2"}),
            json!({"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1"}),
        ]
    );
}

/// Reasoning deltas, then the answer: the reasoning span closes before the text opens.
#[test]
fn reasoning_then_text() {
    let mut run = RunBuilder::new("t", "r");
    run.reasoning("Let me break down quantum").unwrap();
    run.reasoning("").unwrap();
    run.reasoning(" computing.").unwrap();
    run.text("Quantum computers use qubits.").unwrap();
    run.finish().unwrap();
    assert_eq!(
        wire(&take(&mut run)),
        [
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"1.0"}),
            json!({"type":"REASONING_START","messageId":"r-reasoning-1"}),
            json!({"type":"REASONING_MESSAGE_START","messageId":"r-reasoning-msg-2","role":"reasoning"}),
            json!({"type":"REASONING_MESSAGE_CONTENT","messageId":"r-reasoning-msg-2","delta":"Let me break down quantum"}),
            json!({"type":"REASONING_MESSAGE_CONTENT","messageId":"r-reasoning-msg-2","delta":" computing."}),
            json!({"type":"REASONING_MESSAGE_END","messageId":"r-reasoning-msg-2"}),
            json!({"type":"REASONING_END","messageId":"r-reasoning-1"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"r-msg-3","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"r-msg-3","delta":"Quantum computers use qubits."}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"r-msg-3"}),
            json!({"type":"RUN_FINISHED","threadId":"t","runId":"r"}),
        ]
    );
}

/// Two tool calls open at once, arguments interleaved, results in completion order.
#[test]
fn two_parallel_tool_calls() {
    let mut run = RunBuilder::new("t", "r");
    run.text("Comparing both cities.").unwrap();
    run.tool_call_start("sf", "get_weather").unwrap();
    run.tool_call_start("nyc", "get_weather").unwrap();
    run.tool_call_args("sf", "{\"city\":").unwrap();
    run.tool_call_args("nyc", "{\"city\":\"NYC\"}").unwrap();
    run.tool_call_args("sf", "\"SF\"}").unwrap();
    run.tool_call_end("nyc").unwrap();
    run.tool_call_end("sf").unwrap();
    run.tool_call_result("nyc", "rain").unwrap();
    run.tool_call_result("sf", "sun").unwrap();
    run.text("Visit SF.").unwrap();
    run.finish().unwrap();
    assert_eq!(
        wire(&take(&mut run)),
        [
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"1.0"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"r-msg-1","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"r-msg-1","delta":"Comparing both cities."}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"r-msg-1"}),
            json!({"type":"TOOL_CALL_START","toolCallId":"sf","toolCallName":"get_weather","parentMessageId":"r-msg-1"}),
            json!({"type":"TOOL_CALL_START","toolCallId":"nyc","toolCallName":"get_weather"}),
            json!({"type":"TOOL_CALL_ARGS","toolCallId":"sf","delta":"{\"city\":"}),
            json!({"type":"TOOL_CALL_ARGS","toolCallId":"nyc","delta":"{\"city\":\"NYC\"}"}),
            json!({"type":"TOOL_CALL_ARGS","toolCallId":"sf","delta":"\"SF\"}"}),
            json!({"type":"TOOL_CALL_END","toolCallId":"nyc"}),
            json!({"type":"TOOL_CALL_END","toolCallId":"sf"}),
            json!({"type":"TOOL_CALL_RESULT","messageId":"r-result-2","toolCallId":"nyc","content":"rain","role":"tool"}),
            json!({"type":"TOOL_CALL_RESULT","messageId":"r-result-3","toolCallId":"sf","content":"sun","role":"tool"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"r-msg-4","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"r-msg-4","delta":"Visit SF."}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"r-msg-4"}),
            json!({"type":"RUN_FINISHED","threadId":"t","runId":"r"}),
        ]
    );
}

/// A tool that throws: RUN_ERROR, and the builder refuses everything after it.
#[test]
fn failing_tool() {
    let mut run = RunBuilder::new("t", "r");
    run.text("Checking.").unwrap();
    run.tool_call("c1", "get_weather", "{\"city\":\"SF\"}")
        .unwrap();
    run.fail(
        "tool get_weather failed: upstream timeout",
        Some("TOOL_ERROR".into()),
    )
    .unwrap();
    assert_eq!(
        run.text("too late").map_err(|e| e.kind()),
        Err(RunBuilderErrorKind::RunOver)
    );
    assert_eq!(
        run.tool_call_result("c1", "x").map_err(|e| e.kind()),
        Err(RunBuilderErrorKind::RunOver)
    );
    assert_eq!(
        run.finish().map_err(|e| e.kind()),
        Err(RunBuilderErrorKind::RunOver)
    );
    assert_eq!(
        wire(&take(&mut run)),
        [
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"1.0"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"r-msg-1","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"r-msg-1","delta":"Checking."}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"r-msg-1"}),
            json!({"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"get_weather","parentMessageId":"r-msg-1"}),
            json!({"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"city\":\"SF\"}"}),
            json!({"type":"TOOL_CALL_END","toolCallId":"c1"}),
            json!({"type":"RUN_ERROR","message":"tool get_weather failed: upstream timeout","code":"TOOL_ERROR"}),
        ]
    );
}

/// A model that emits arguments that are not JSON: no invalid TOOL_CALL_END is sent, the run
/// fails instead.
#[test]
fn tool_with_broken_arguments_fails_the_run() {
    let mut run = RunBuilder::new("t", "r");
    run.tool_call_start("c1", "search").unwrap();
    run.tool_call_args("c1", "{\"q\": ").unwrap();
    let err = run.tool_call_end("c1").unwrap_err();
    assert_eq!(err.kind(), RunBuilderErrorKind::InvalidToolArguments);
    assert!(err.message().contains("'c1'"), "{err}");
    let events = take(&mut run);
    let last = wire(&events).pop().unwrap();
    assert_eq!(last["type"], "RUN_ERROR");
    assert_eq!(last["code"], "INVALID_TOOL_ARGUMENTS");
}

/// Seed 004's six event types, but with the model's own tokens streamed as they arrive
/// instead of the finished answer cut into 50-character pieces.
#[test]
fn six_event_run_with_token_streaming() {
    let tokens = [
        "Confidence",
        " score",
        ":",
        " 92",
        "%.",
        "",
        " High",
        " source",
        " agreement",
        " (95%).",
    ];
    let mut run = RunBuilder::new("thread-9", "uuid-1");
    let mut sent = Vec::new();
    for token in tokens {
        run.text(token).unwrap();
        // Each token is on its way before the next one exists.
        sent.extend(run.drain());
    }
    run.text_end().unwrap();
    run.state_snapshot(json!({"current_work_id": "uuid-3", "confidence_score": 92, "explanation_text": "High source agreement"}))
        .unwrap();
    run.finish().unwrap();
    sent.extend(run.drain());
    verify(&sent).unwrap();

    let types: Vec<EventType> = sent.iter().map(Event::event_type).collect();
    let mut distinct = types.clone();
    distinct.dedup();
    assert_eq!(
        distinct,
        [
            EventType::RunStarted,
            EventType::TextMessageStart,
            EventType::TextMessageContent,
            EventType::TextMessageEnd,
            EventType::StateSnapshot,
            EventType::RunFinished
        ]
    );
    let deltas: Vec<&str> = sent
        .iter()
        .filter_map(|e| match e {
            Event::TextMessageContent(c) => Some(c.delta.as_str()),
            _ => None,
        })
        .collect();
    let non_empty: Vec<&str> = tokens.iter().copied().filter(|t| !t.is_empty()).collect();
    assert_eq!(deltas, non_empty, "one content event per token, none empty");
    assert_eq!(
        wire(&sent)[1],
        json!({"type":"TEXT_MESSAGE_START","messageId":"uuid-1-msg-1","role":"assistant"})
    );
    assert_eq!(
        wire(&sent)[sent.len() - 2],
        json!({"type":"STATE_SNAPSHOT","snapshot":{"current_work_id":"uuid-3","confidence_score":92,"explanation_text":"High source agreement"}})
    );
}

/// Seed 002: a workflow whose step runs an agent. Only the outermost run has lifecycle events.
#[test]
fn nested_workflow() {
    let mut run = RunBuilder::new("t", "wf");
    let outputs = vec![
        Output::RunStarted,
        Output::StateSnapshot(json!({"progress": 0})),
        Output::StepStarted("research".into()),
        Output::RunStarted,
        Output::Text("Looking it up.".into()),
        Output::ToolCallStart {
            id: "c1".into(),
            name: "search".into(),
        },
        Output::ToolCallArgs {
            id: "c1".into(),
            delta: "{\"q\":\"ramen\"}".into(),
        },
        Output::ToolCallResult {
            id: "c1".into(),
            content: "3 results".into(),
        },
        Output::Text("Found 3.".into()),
        Output::RunFinished,
        Output::StepFinished("research".into()),
        Output::StateDelta(vec![PatchOp::Replace {
            path: "/progress".into(),
            value: json!(100),
        }]),
        Output::Custom {
            name: "workflow.route_selected".into(),
            value: json!({"route": "done"}),
        },
        Output::RunFinished,
    ];
    for o in outputs {
        push(&mut run, o).unwrap();
    }
    assert!(run.is_over());
    assert_eq!(
        wire(&take(&mut run)),
        [
            json!({"type":"RUN_STARTED","threadId":"t","runId":"wf","protocolVersion":"1.0"}),
            json!({"type":"STATE_SNAPSHOT","snapshot":{"progress":0}}),
            json!({"type":"STEP_STARTED","stepName":"research"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"wf-msg-1","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"wf-msg-1","delta":"Looking it up."}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"wf-msg-1"}),
            json!({"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search","parentMessageId":"wf-msg-1"}),
            json!({"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":\"ramen\"}"}),
            json!({"type":"TOOL_CALL_END","toolCallId":"c1"}),
            json!({"type":"TOOL_CALL_RESULT","messageId":"wf-result-2","toolCallId":"c1","content":"3 results","role":"tool"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"wf-msg-3","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"wf-msg-3","delta":"Found 3."}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"wf-msg-3"}),
            json!({"type":"STEP_FINISHED","stepName":"research"}),
            json!({"type":"STATE_DELTA","delta":[{"op":"replace","path":"/progress","value":100}]}),
            json!({"type":"CUSTOM","name":"workflow.route_selected","value":{"route":"done"}}),
            json!({"type":"RUN_FINISHED","threadId":"t","runId":"wf"}),
        ]
    );
}

/// An error two levels down surfaces as RUN_ERROR, and nothing follows it.
#[test]
fn nested_error_surfaces_at_any_depth() {
    let mut run = RunBuilder::new("t", "wf");
    for o in [Output::RunStarted, Output::RunStarted, Output::RunStarted] {
        push(&mut run, o).unwrap();
    }
    assert_eq!(run.depth(), 2);
    push(&mut run, Output::Text("partial".into())).unwrap();
    push(
        &mut run,
        Output::RunError {
            message: "sub-agent crashed".into(),
            code: None,
        },
    )
    .unwrap();
    assert_eq!(
        push(&mut run, Output::RunFinished).map_err(|e| e.kind()),
        Err(RunBuilderErrorKind::RunOver)
    );
    assert_eq!(
        wire(&take(&mut run)),
        [
            json!({"type":"RUN_STARTED","threadId":"t","runId":"wf","protocolVersion":"1.0"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"wf-msg-1","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"wf-msg-1","delta":"partial"}),
            json!({"type":"RUN_ERROR","message":"sub-agent crashed"}),
        ]
    );
}

/// Whatever is open (steps, tool calls, reasoning, text) is closed before RUN_FINISHED.
#[test]
fn finish_closes_everything() {
    let mut run = RunBuilder::new("t", "r");
    run.step_started("outer").unwrap();
    run.step_started("inner").unwrap();
    run.tool_call_start("c", "f").unwrap();
    run.tool_call_args("c", "{}").unwrap();
    run.reasoning("hmm").unwrap();
    run.finish_with(Some(json!({"ok": true}))).unwrap();
    let types: Vec<&str> = take(&mut run)
        .iter()
        .map(|e| e.event_type().as_str())
        .collect();
    assert_eq!(
        types,
        [
            "RUN_STARTED",
            "STEP_STARTED",
            "STEP_STARTED",
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "REASONING_START",
            "REASONING_MESSAGE_START",
            "REASONING_MESSAGE_CONTENT",
            "TOOL_CALL_END",
            "REASONING_MESSAGE_END",
            "REASONING_END",
            "STEP_FINISHED",
            "STEP_FINISHED",
            "RUN_FINISHED"
        ]
    );
}

/// A2UI messages become one snapshot per surface, then appends; prose around them stays prose.
#[test]
fn a2ui_surfaces_as_activities() {
    let mut run = RunBuilder::new("t", "r");
    run.text("Here are restaurants:").unwrap();
    run.a2ui_value(
        Some("main"),
        json!({"beginRendering":{"surfaceId":"main","root":"list"}}),
    )
    .unwrap();
    run.a2ui_value(
        Some("main"),
        json!({"surfaceUpdate":{"surfaceId":"main","components":[{"id":"list","component":{}}]}}),
    )
    .unwrap();
    run.a2ui_value(
        Some("side"),
        json!({"beginRendering":{"surfaceId":"side","root":"x"}}),
    )
    .unwrap();
    run.text(" Enjoy!").unwrap();
    run.finish().unwrap();
    assert_eq!(
        wire(&take(&mut run)),
        [
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"1.0"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"r-msg-1","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"r-msg-1","delta":"Here are restaurants:"}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"r-msg-1"}),
            json!({"type":"ACTIVITY_SNAPSHOT","messageId":"r-a2ui-main","activityType":"a2ui-surface",
                   "content":{"a2ui_operations":[{"beginRendering":{"surfaceId":"main","root":"list"}}]}}),
            json!({"type":"ACTIVITY_DELTA","messageId":"r-a2ui-main","activityType":"a2ui-surface",
                   "patch":[{"op":"add","path":"/a2ui_operations/-",
                             "value":{"surfaceUpdate":{"surfaceId":"main","components":[{"id":"list","component":{}}]}}}]}),
            json!({"type":"ACTIVITY_SNAPSHOT","messageId":"r-a2ui-side","activityType":"a2ui-surface",
                   "content":{"a2ui_operations":[{"beginRendering":{"surfaceId":"side","root":"x"}}]}}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"r-msg-2","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"r-msg-2","delta":" Enjoy!"}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"r-msg-2"}),
            json!({"type":"RUN_FINISHED","threadId":"t","runId":"r"}),
        ]
    );
}

/// Sending a surface's messages as appends costs bytes linear in the UI, where re-sending
/// snapshots would be quadratic.
#[test]
fn a2ui_bytes_grow_linearly() {
    let mut run = RunBuilder::new("t", "r");
    let n = 200;
    let mut message_bytes = 0;
    for i in 0..n {
        let m = json!({"surfaceUpdate":{"surfaceId":"s","components":[{"id":format!("c{i}"),"component":{"Text":{}}}]}});
        message_bytes += serde_json::to_string(&m).unwrap().len();
        run.a2ui_value(Some("s"), m).unwrap();
    }
    run.finish().unwrap();
    let events = take(&mut run);
    let sent: usize = events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap().len())
        .sum();
    // Each message is sent once plus a bounded envelope per event.
    assert!(
        sent < message_bytes + 200 * (n + 2),
        "sent {sent} bytes for {message_bytes} bytes of UI"
    );
    assert_eq!(
        events
            .iter()
            .filter(|e| e.event_type() == EventType::ActivitySnapshot)
            .count(),
        1
    );
    assert_eq!(
        events
            .iter()
            .filter(|e| e.event_type() == EventType::ActivityDelta)
            .count(),
        n - 1
    );
}

/// After deleteSurface, a surface with the same id is a new activity.
#[test]
fn a2ui_delete_surface_starts_a_new_activity() {
    let mut run = RunBuilder::new("t", "r");
    run.a2ui_value(
        Some("s"),
        json!({"beginRendering":{"surfaceId":"s","root":"a"}}),
    )
    .unwrap();
    run.a2ui_value(Some("s"), json!({"deleteSurface":{"surfaceId":"s"}}))
        .unwrap();
    run.a2ui_value(
        Some("s"),
        json!({"beginRendering":{"surfaceId":"s","root":"b"}}),
    )
    .unwrap();
    run.finish().unwrap();
    let w = wire(&take(&mut run));
    assert_eq!(
        (w[1]["type"].as_str(), w[1]["messageId"].as_str()),
        (Some("ACTIVITY_SNAPSHOT"), Some("r-a2ui-s"))
    );
    assert_eq!(
        (w[2]["type"].as_str(), w[2]["messageId"].as_str()),
        (Some("ACTIVITY_DELTA"), Some("r-a2ui-s"))
    );
    assert_eq!(
        (w[3]["type"].as_str(), w[3]["messageId"].as_str()),
        (Some("ACTIVITY_SNAPSHOT"), Some("r-a2ui-s-2"))
    );
}

/// Misuse is refused without sending anything.
#[test]
fn misuse_is_refused() {
    let mut run = RunBuilder::new("t", "r");
    assert_eq!(
        run.tool_call_args("nope", "{}").map_err(|e| e.kind()),
        Err(RunBuilderErrorKind::UnknownToolCall)
    );
    assert_eq!(
        run.tool_call_end("nope").map_err(|e| e.kind()),
        Err(RunBuilderErrorKind::UnknownToolCall)
    );
    assert_eq!(
        run.tool_call_result("nope", "").map_err(|e| e.kind()),
        Err(RunBuilderErrorKind::UnknownToolCall)
    );
    assert_eq!(
        run.step_finished("s").map_err(|e| e.kind()),
        Err(RunBuilderErrorKind::UnknownStep)
    );
    run.step_started("s").unwrap();
    assert_eq!(
        run.step_started("s").map_err(|e| e.kind()),
        Err(RunBuilderErrorKind::DuplicateStep)
    );
    run.tool_call("c", "f", "").unwrap();
    assert_eq!(
        run.tool_call_start("c", "f").map_err(|e| e.kind()),
        Err(RunBuilderErrorKind::DuplicateToolCall)
    );
    run.finish().unwrap();
    let types: Vec<&str> = take(&mut run)
        .iter()
        .map(|e| e.event_type().as_str())
        .collect();
    assert_eq!(
        types,
        [
            "RUN_STARTED",
            "STEP_STARTED",
            "TOOL_CALL_START",
            "TOOL_CALL_END",
            "STEP_FINISHED",
            "RUN_FINISHED"
        ]
    );
}

/// The request body is echoed in RUN_STARTED.input only when asked for.
#[test]
fn run_from_input() {
    let input: a2ui_stream::agui::events::RunAgentInput = serde_json::from_value(json!({
        "threadId": "th", "runId": "ru", "parentRunId": "p",
        "messages": [{"id": "u1", "role": "user", "content": "Find ramen"}],
        "tools": [{"name": "search", "description": "Search places"}]
    }))
    .unwrap();
    let mut quiet = RunBuilder::from_input(&input);
    quiet.finish().unwrap();
    assert_eq!(
        wire(&take(&mut quiet))[0],
        json!({"type":"RUN_STARTED","threadId":"th","runId":"ru","parentRunId":"p","protocolVersion":"1.0"})
    );
    let mut run = RunBuilder::from_input(&input).echo_input(input.clone());
    run.finish().unwrap();
    let w = wire(&take(&mut run));
    assert_eq!(
        w[0],
        json!({"type":"RUN_STARTED","threadId":"th","runId":"ru","parentRunId":"p","protocolVersion":"1.0",
               "input":{"threadId":"th","runId":"ru","parentRunId":"p",
                        "messages":[{"id":"u1","role":"user","content":"Find ramen"}],
                        "tools":[{"name":"search","description":"Search places"}]}})
    );
}

/// An explicit start followed by the framework's own run markers: the first marker is the
/// outermost run, so its end finishes the run.
#[test]
fn explicit_start_then_run_markers() {
    let mut run = RunBuilder::new("t", "r");
    run.start().unwrap();
    push(&mut run, Output::RunStarted).unwrap();
    push(&mut run, Output::RunStarted).unwrap();
    assert_eq!(run.depth(), 1);
    push(&mut run, Output::Text("hi".into())).unwrap();
    push(&mut run, Output::RunFinished).unwrap();
    assert!(!run.is_over());
    push(&mut run, Output::RunFinished).unwrap();
    assert!(run.is_over());
    let types: Vec<&str> = take(&mut run)
        .iter()
        .map(|e| e.event_type().as_str())
        .collect();
    assert_eq!(
        types,
        [
            "RUN_STARTED",
            "TEXT_MESSAGE_START",
            "TEXT_MESSAGE_CONTENT",
            "TEXT_MESSAGE_END",
            "RUN_FINISHED"
        ]
    );
}
