//! Every AG-UI 1.0 event type, with its required and optional fields, round-trips through the
//! serde types unchanged, and absent optional fields stay absent.
#![cfg(feature = "agui")]

use a2ui_stream::agui::events::{ChatMessage, Event, RunAgentInput};
use serde_json::{Value, json};

fn catalogue() -> Vec<Value> {
    vec![
        json!({"type":"TEXT_MESSAGE_START","messageId":"m","role":"user","name":"Ann","subagentRunId":"s",
               "timestamp":1,"rawEvent":{"x":1},"metadata":{"k":null}}),
        json!({"type":"TEXT_MESSAGE_START","messageId":"m"}),
        json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}),
        json!({"type":"TEXT_MESSAGE_END","messageId":"m"}),
        json!({"type":"TEXT_MESSAGE_CHUNK","messageId":"m","role":"assistant","delta":"d","name":"n"}),
        json!({"type":"TEXT_MESSAGE_CHUNK"}),
        json!({"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}),
        json!({"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{"}),
        json!({"type":"TOOL_CALL_END","toolCallId":"c"}),
        json!({"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"f","parentMessageId":"m","delta":"{}"}),
        json!({"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":"ok","role":"tool"}),
        json!({"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":"ok"}),
        json!({"type":"STATE_SNAPSHOT","snapshot":[1,"two",null]}),
        json!({"type":"STATE_DELTA","delta":[
            {"op":"add","path":"/a","value":null},{"op":"remove","path":"/b"},
            {"op":"replace","path":"/c","value":1},{"op":"move","from":"/d","path":"/e"},
            {"op":"copy","from":"/f","path":"/g"},{"op":"test","path":"/h","value":"x"}]}),
        json!({"type":"MESSAGES_SNAPSHOT","messages":[
            {"id":"1","role":"developer","content":"be brief"},
            {"id":"2","role":"system","content":"sys","name":"s"},
            {"id":"3","role":"user","content":[{"type":"text","text":"look"},
                {"type":"image","source":{"type":"url","value":"https://x/y.png","mimeType":"image/png"}},
                {"type":"document","source":{"type":"data","value":"AAAA","mimeType":"application/pdf"}}]},
            {"id":"4","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},
            {"id":"5","role":"tool","content":"ok","toolCallId":"c","error":"partial"},
            {"id":"6","role":"activity","activityType":"a2ui-surface","content":{"a2ui_operations":[]}},
            {"id":"7","role":"reasoning","content":"hmm","encryptedValue":"zz"}]}),
        json!({"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"a2ui-surface","content":{"a2ui_operations":[]},"replace":false}),
        json!({"type":"ACTIVITY_DELTA","messageId":"a","activityType":"a2ui-surface","patch":[{"op":"add","path":"/a2ui_operations/-","value":{}}]}),
        json!({"type":"RAW","event":{"anything":true},"source":"openai"}),
        json!({"type":"CUSTOM","name":"n","value":null}),
        json!({"type":"RUN_STARTED","threadId":"t","runId":"r","parentRunId":"p","protocolVersion":"1.0",
               "input":{"threadId":"t","runId":"r","state":{"a":1},"messages":[],"tools":[{"name":"f","description":"d","parameters":{"type":"object"}}],
                        "context":[{"description":"d","value":"v"}],"forwardedProps":{"x":1},
                        "resume":[{"interruptId":"i","status":"resolved","payload":{"ok":true}}]}}),
        json!({"type":"RUN_FINISHED","threadId":"t","runId":"r","result":{"x":1},"outcome":{"type":"success"},
               "usage":[{"provider":"p","model":"m","inputTokens":1,"outputTokens":2,"totalTokens":3,"reasoningTokens":0,"cachedInputTokens":0}]}),
        json!({"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[
            {"id":"i","reason":"approval","message":"OK?","toolCallId":"c","responseSchema":{"type":"object"},"expiresAt":"2030-01-01T00:00:00Z"}]}}),
        json!({"type":"RUN_ERROR","message":"boom","code":"E1","usage":[]}),
        json!({"type":"STEP_STARTED","stepName":"s"}),
        json!({"type":"STEP_FINISHED","stepName":"s"}),
        json!({"type":"REASONING_START","messageId":"r"}),
        json!({"type":"REASONING_MESSAGE_START","messageId":"m","role":"reasoning"}),
        json!({"type":"REASONING_MESSAGE_CONTENT","messageId":"m","delta":"d"}),
        json!({"type":"REASONING_MESSAGE_END","messageId":"m"}),
        json!({"type":"REASONING_MESSAGE_CHUNK","messageId":"m","delta":"d"}),
        json!({"type":"REASONING_END","messageId":"r"}),
        json!({"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c","encryptedValue":"zz"}),
        json!({"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"researcher","description":"d",
               "parentSubagentRunId":"p","parentToolCallId":"c","parentMessageId":"m"}),
        json!({"type":"SUBAGENT_FINISHED","subagentRunId":"s","result":1,"outcome":{"type":"suspended","interruptIds":["i"]}}),
        json!({"type":"SUBAGENT_FINISHED","subagentRunId":"s","outcome":{"type":"success"}}),
        json!({"type":"SUBAGENT_ERROR","subagentRunId":"s","message":"m","code":"c"}),
    ]
}

#[test]
fn every_event_round_trips_exactly() {
    let mut types = std::collections::BTreeSet::new();
    for wire in catalogue() {
        let ev: Event =
            serde_json::from_value(wire.clone()).unwrap_or_else(|e| panic!("{wire}: {e}"));
        assert_eq!(ev.event_type().as_str(), wire["type"]);
        types.insert(ev.event_type().as_str());
        assert_eq!(serde_json::to_value(&ev).unwrap(), wire);
    }
    assert_eq!(types.len(), 31, "every AG-UI 1.0 event type is covered");
}

#[test]
fn missing_required_fields_are_rejected() {
    for bad in [
        json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m"}),
        json!({"type":"TOOL_CALL_START","toolCallId":"c"}),
        json!({"type":"TOOL_CALL_RESULT","toolCallId":"c","content":"x"}),
        json!({"type":"RUN_STARTED","threadId":"t"}),
        json!({"type":"RUN_ERROR"}),
        json!({"type":"STEP_STARTED"}),
        json!({"type":"ACTIVITY_DELTA","messageId":"a","activityType":"x"}),
        json!({"type":"NOT_AN_EVENT"}),
    ] {
        assert!(
            serde_json::from_value::<Event>(bad.clone()).is_err(),
            "{bad} should be rejected"
        );
    }
}

#[test]
fn request_body() {
    let body = json!({"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"hi"}],
                      "tools":[],"context":[]});
    let input: RunAgentInput = serde_json::from_value(body).unwrap();
    assert!(matches!(&input.messages[0], ChatMessage::User(_)));
    // Empty tool and context lists mean the same as absent ones, and are left out.
    assert_eq!(
        serde_json::to_value(&input).unwrap(),
        json!({"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"hi"}]})
    );
}
