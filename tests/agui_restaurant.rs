//! End to end over the restaurant-finder examples: an LLM response wrapping each example is
//! split, turned into an AG-UI run, sent as SSE and read back, and the activity events are
//! applied the way a renderer does. The surfaces rebuilt on the client hold every component of
//! the example. Reads `../shared/a2ui` (or `$A2UI_SHARED/a2ui`) at run time; skips when absent.
#![cfg(feature = "agui")]

use a2ui_stream::Splitter;
use a2ui_stream::agui::events::{Event, PatchOp};
use a2ui_stream::agui::{A2UI_ACTIVITY_TYPE, RunBuilder, SseReader, sse, verify};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

mod support;

fn shared() -> Option<PathBuf> {
    support::a2ui_or_skip()
}

/// Component ids per surface in a list of A2UI messages.
fn components(messages: &[Value]) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for m in messages {
        for key in ["surfaceUpdate", "updateComponents"] {
            if let Some(body) = m.get(key) {
                let sid = body["surfaceId"].as_str().unwrap().to_owned();
                for c in body["components"].as_array().unwrap() {
                    out.entry(sid.clone())
                        .or_default()
                        .insert(c["id"].as_str().unwrap().to_owned());
                }
            }
        }
    }
    out
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn restaurant_examples_end_to_end() {
    let Some(a2ui) = shared() else { return };
    let mut checked = 0;
    for version in ["0.8", "0.9"] {
        let dir = a2ui.join("restaurant_finder/examples").join(version);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            let example = std::fs::read_to_string(&path).unwrap();
            let messages: Vec<Value> = serde_json::from_str(&example).unwrap();
            assert!(
                !components(&messages).is_empty(),
                "{} has components",
                path.display()
            );
            let response =
                format!("Here is what I found: <a2ui-json>{example}</a2ui-json> Anything else?");
            for chunk_size in [1, 5, 64, response.len()] {
                let mut splitter = Splitter::new();
                let mut run = RunBuilder::new("thread", "run");
                let mut body = Vec::new();
                for chunk in response.as_bytes().chunks(chunk_size) {
                    for item in splitter.feed(chunk) {
                        run.splitter(item).unwrap();
                    }
                    for e in run.drain() {
                        body.extend_from_slice(sse::encode(&e).unwrap().as_bytes());
                    }
                }
                for item in splitter.finish() {
                    run.splitter(item).unwrap();
                }
                run.finish().unwrap();
                for e in run.drain() {
                    body.extend_from_slice(sse::encode(&e).unwrap().as_bytes());
                }

                // The client side: read the SSE body back in odd-sized pieces.
                let mut reader = SseReader::new();
                let events: Vec<Event> = body
                    .chunks(7)
                    .flat_map(|c| reader.feed(c))
                    .collect::<Result<_, _>>()
                    .unwrap();
                verify(&events).unwrap_or_else(|v| panic!("{}: {v}", path.display()));

                // Apply the activities like a renderer: snapshot, then appends.
                let mut surfaces: BTreeMap<String, Vec<Value>> = BTreeMap::new();
                let mut text = String::new();
                for e in &events {
                    match e {
                        Event::ActivitySnapshot(s) => {
                            assert_eq!(s.activity_type, A2UI_ACTIVITY_TYPE);
                            assert!(
                                !surfaces.contains_key(&s.message_id),
                                "one snapshot per surface"
                            );
                            let ops = s.content["a2ui_operations"].as_array().unwrap().clone();
                            surfaces.insert(s.message_id.clone(), ops);
                        }
                        Event::ActivityDelta(d) => {
                            let ops = surfaces
                                .get_mut(&d.message_id)
                                .expect("delta after its snapshot");
                            for p in &d.patch {
                                match p {
                                    PatchOp::Add { path, value }
                                        if path == "/a2ui_operations/-" =>
                                    {
                                        ops.push(value.clone())
                                    }
                                    other => panic!("unexpected patch {other:?}"),
                                }
                            }
                        }
                        Event::TextMessageContent(c) => text.push_str(&c.delta),
                        _ => {}
                    }
                }
                assert_eq!(text, "Here is what I found:  Anything else?");
                let rebuilt: Vec<Value> = surfaces.into_values().flatten().collect();
                assert_eq!(
                    components(&rebuilt),
                    components(&messages),
                    "{}",
                    path.display()
                );
                checked += 1;
            }
        }
    }
    assert!(
        checked > 0,
        "no restaurant examples found under {}",
        a2ui.display()
    );
}
