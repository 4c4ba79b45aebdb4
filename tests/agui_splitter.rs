//! The splitter's output through the run builder: prose becomes text messages, A2UI messages
//! become `a2ui-surface` activities, one snapshot per surface and then appends.
#![cfg(feature = "agui")]

use a2ui_stream::Splitter;
use a2ui_stream::agui::events::{Event, EventType};
use a2ui_stream::agui::{RunBuilder, verify};
use serde_json::{Value, json};

const STREAM: &str = concat!(
    "Here are two places: <a2ui-json>[",
    r#"{"beginRendering":{"surfaceId":"main","root":"list"}},"#,
    r#"{"surfaceUpdate":{"surfaceId":"main","components":[{"id":"list","component":{"Column":{}}},{"id":"t1","component":{"Text":{"text":{"literalString":"Ramen"}}}}]}}"#,
    "]</a2ui-json> Enjoy your meal – ¡buen provecho!"
);

fn run_through_splitter(chunk_size: usize) -> Vec<Event> {
    let mut splitter = Splitter::new();
    let mut run = RunBuilder::new("t", "r");
    for chunk in STREAM.as_bytes().chunks(chunk_size) {
        for item in splitter.feed(chunk) {
            run.splitter(item).unwrap();
        }
    }
    for item in splitter.finish() {
        run.splitter(item).unwrap();
    }
    run.finish().unwrap();
    let events: Vec<Event> = run.drain().collect();
    verify(&events).unwrap();
    events
}

#[test]
fn splitter_output_becomes_text_and_activities() {
    for chunk_size in [1, 2, 3, 7, 64, STREAM.len()] {
        let events = run_through_splitter(chunk_size);
        let wire: Vec<Value> = events
            .iter()
            .map(|e| serde_json::to_value(e).unwrap())
            .collect();
        let activities: Vec<&Value> = wire
            .iter()
            .filter(|e| e["type"] == "ACTIVITY_SNAPSHOT" || e["type"] == "ACTIVITY_DELTA")
            .collect();
        assert_eq!(
            activities[0],
            &json!({"type":"ACTIVITY_SNAPSHOT","messageId":"r-a2ui-main","activityType":"a2ui-surface",
                    "content":{"a2ui_operations":[{"beginRendering":{"surfaceId":"main","root":"list"}}]}})
        );
        // Each component arrives as its own surfaceUpdate, appended to the same activity.
        assert_eq!(activities.len(), 3, "chunk size {chunk_size}");
        assert_eq!(
            activities[2],
            &json!({"type":"ACTIVITY_DELTA","messageId":"r-a2ui-main","activityType":"a2ui-surface",
                    "patch":[{"op":"add","path":"/a2ui_operations/-","value":
                        {"surfaceUpdate":{"surfaceId":"main","components":[{"id":"t1","component":{"Text":{"text":{"literalString":"Ramen"}}}}]}}}]})
        );
        // Two prose runs, two text messages; the text survives any chunking, UTF-8 included.
        let starts = events
            .iter()
            .filter(|e| e.event_type() == EventType::TextMessageStart)
            .count();
        assert_eq!(starts, 2);
        let text: String = events
            .iter()
            .filter_map(|e| match e {
                Event::TextMessageContent(c) => Some(c.delta.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(
            text,
            "Here are two places:  Enjoy your meal – ¡buen provecho!"
        );
    }
}

#[test]
fn splitter_errors_are_reported_and_the_run_goes_on() {
    let mut splitter = Splitter::new();
    let mut run = RunBuilder::new("t", "r");
    let input = br#"<a2ui-json>{"beginRendering": }</a2ui-json> fine <a2ui-json>{"deleteSurface":{"surfaceId":"x"}}</a2ui-json>"#;
    for item in splitter.feed(input) {
        run.splitter(item).unwrap();
    }
    for item in splitter.finish() {
        run.splitter(item).unwrap();
    }
    run.finish().unwrap();
    let events: Vec<Event> = run.drain().collect();
    verify(&events).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Custom(c) if c.name == "a2ui-stream.error"))
    );
    assert!(
        events
            .iter()
            .any(|e| e.event_type() == EventType::ActivitySnapshot)
    );
}
