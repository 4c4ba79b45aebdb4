//! A2UI v1.0 through the splitter: its messages are known by kind, `updateComponents` and
//! `updateDataModel` are split as in v0.9 with `"version":"v1.0"` on every piece, and the new
//! function messages pass whole.

use a2ui_stream::{Config, Event, MessageKind, Splitter};
use serde_json::{Value, json};

fn messages(input: &str) -> Vec<(MessageKind, Value)> {
    let mut s = Splitter::with_config(Config::bare());
    let mut out = Vec::new();
    for chunk in input.as_bytes().chunks(5) {
        for e in s.feed(chunk) {
            let Event::Message(m) = e.unwrap() else {
                panic!("text in bare framing")
            };
            out.push((m.kind(), m.to_value().unwrap()));
        }
    }
    assert!(s.finish().next().is_none());
    out
}

#[test]
fn v1_0_updates_are_split_with_their_version() {
    // As a model writes them: `version` first (a piece needs it before the body's value opens).
    let input = r#"[{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[
        {"id":"root","component":"Column","children":["t"]},
        {"id":"t","component":"Text","text":{"@path":"/title"}}]}},
        {"version":"v1.0","updateDataModel":{"surfaceId":"s","path":"/","value":{"title":"Hi","items":[{"n":1}]}}}]"#;
    let out = messages(input);
    let kinds: Vec<_> = out.iter().map(|(k, _)| *k).collect();
    use MessageKind::*;
    assert_eq!(
        kinds,
        [
            UpdateComponents,
            UpdateComponents,
            UpdateDataModel,
            UpdateDataModel,
            UpdateDataModel,
            UpdateDataModel
        ]
    );
    for (_, m) in &out {
        assert_eq!(m["version"], "v1.0", "{m}");
    }
    assert_eq!(
        out[1].1["updateComponents"]["components"][0]["text"],
        json!({"@path": "/title"})
    );
    assert_eq!(
        out[5].1["updateDataModel"],
        json!({"surfaceId": "s", "path": "/items/0", "value": {"n": 1}})
    );
}

#[test]
fn v1_0_function_messages_pass_whole() {
    let call = json!({"version": "v1.0", "callRendererFunction": {"surfaceId": "s", "functionCallId": "c1",
        "callFunction": {"call": "formatDate", "args": {"value": "2026-01-01"}}}});
    let answer =
        json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": "r1", "value": 42}});
    let out = messages(&format!("{call}\n{answer}"));
    assert_eq!(
        out,
        [
            (MessageKind::CallRendererFunction, call),
            (MessageKind::AgentFunctionResponse, answer)
        ]
    );
    assert_eq!(
        MessageKind::CallRendererFunction.key(),
        "callRendererFunction"
    );
    assert_eq!(
        MessageKind::from_key(b"agentFunctionResponse"),
        Some(MessageKind::AgentFunctionResponse)
    );
}
