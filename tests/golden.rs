//! Golden tests over the A2UI project's examples (restaurant finder and the spec catalogs),
//! wrapped as LLM responses and fed in several chunk sizes. They read `../shared/a2ui` at run time
//! (or `$A2UI_SHARED/a2ui`) and skip with a notice when it is absent.

use a2ui_stream::{Config, Event, Splitter};
use serde_json::Value;
use std::path::{Path, PathBuf};

mod support;

fn shared() -> Option<PathBuf> {
    support::a2ui_or_skip()
}

fn examples(a2ui: &Path) -> Vec<PathBuf> {
    let dirs = [
        "restaurant_finder/examples/0.8",
        "restaurant_finder/examples/0.9",
        "spec/v0_8/json/catalogs/basic/examples",
        "spec/v0_8/json/catalogs/minimal/examples",
        "spec/v0_9/catalogs/basic/examples",
        "spec/v0_9/catalogs/minimal/examples",
    ];
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(a2ui.join(d)).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// The message list of an example file: a bare array, or `{"messages": [...]}`.
fn messages(path: &Path) -> Vec<Value> {
    let v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    match v {
        Value::Array(list) => list,
        Value::Object(mut o) => match o.remove("messages") {
            Some(Value::Array(list)) => list,
            _ => panic!("{}: no message list", path.display()),
        },
        _ => panic!("{}: not a message list", path.display()),
    }
}

/// What the splitter must produce for `messages`: one message per component for component lists
/// with a surface id, every other message whole.
fn expected(messages: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for m in messages {
        let (key, body) = match (m.get("surfaceUpdate"), m.get("updateComponents")) {
            (Some(b), _) => ("surfaceUpdate", b),
            (_, Some(b)) => ("updateComponents", b),
            _ => {
                out.push(m.clone());
                continue;
            }
        };
        let (Some(surface), Some(list)) = (
            body.get("surfaceId"),
            body.get("components").and_then(Value::as_array),
        ) else {
            out.push(m.clone());
            continue;
        };
        if list.is_empty() {
            out.push(m.clone());
        }
        for c in list {
            let mut one = serde_json::json!({ key: { "surfaceId": surface, "components": [c] } });
            if let Some(v) = m.get("version") {
                one["version"] = v.clone();
            }
            out.push(one);
        }
    }
    out
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn examples_wrapped_as_responses() {
    let Some(a2ui) = shared() else { return };
    let files = examples(&a2ui);
    assert!(
        files.len() >= 8,
        "expected the example folders in {}",
        a2ui.display()
    );
    for path in files {
        let msgs = messages(&path);
        let want = expected(&msgs);
        let pretty = serde_json::to_string_pretty(&msgs).unwrap();
        let response = format!(
            "Here is what I found \u{2014} enjoy!\n<a2ui-json>\n{pretty}\n</a2ui-json>\nAnything else?"
        );
        for chunk in [1, 4, 16, 256, 65536] {
            let config = Config {
                dedup_components: false,
                ..Config::default()
            };
            let mut splitter = Splitter::with_config(config);
            let mut text = String::new();
            let mut got = Vec::new();
            let mut take = |ev: Result<Event, a2ui_stream::Error>| match ev {
                Ok(Event::Text(t)) => text.push_str(std::str::from_utf8(&t).unwrap()),
                Ok(Event::Message(m)) => got.push(m.to_value().unwrap()),
                Err(e) => panic!("{}: {e}", path.display()),
            };
            for part in response.as_bytes().chunks(chunk) {
                splitter.feed(part).for_each(&mut take);
            }
            splitter.finish().for_each(&mut take);
            assert_eq!(
                text,
                "Here is what I found \u{2014} enjoy!\n\nAnything else?",
                "{}",
                path.display()
            );
            assert_eq!(got, want, "{} in {chunk}-byte chunks", path.display());
        }
    }
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn restaurant_examples_in_the_legacy_and_bare_forms() {
    let Some(a2ui) = shared() else { return };
    for version in ["0.8", "0.9"] {
        let path = a2ui
            .join("restaurant_finder/examples")
            .join(version)
            .join("single_column_list.json");
        let msgs = messages(&path);
        let want = expected(&msgs);
        let lines: Vec<String> = msgs
            .iter()
            .map(|m| serde_json::to_string(m).unwrap())
            .collect();
        let legacy = format!("Results below.\n---a2ui_JSON---\n{}\n", lines.join("\n"));
        for (config, input) in [
            (Config::default(), legacy),
            (Config::bare(), lines.concat()),
        ] {
            let mut splitter = Splitter::with_config(config);
            let mut got = Vec::new();
            for part in input.as_bytes().chunks(7) {
                for ev in splitter.feed(part) {
                    if let Event::Message(m) = ev.unwrap() {
                        got.push(m.to_value().unwrap());
                    }
                }
            }
            assert!(splitter.finish().all(|e| e.is_ok()));
            assert_eq!(got, want);
        }
    }
}
