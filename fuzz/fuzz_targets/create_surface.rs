//! A v1.0 `createSurface` carrying its components (and a data model) inline: generated with its
//! members in any order (missing, repeated or unknown ones included, a `version` first, last,
//! escaped or v0.9, a message key after the body), in tagged or bare framing, at fuzzer-chosen
//! split depths, limits and cuts. The messages are the same at every cut; each is one valid
//! message; the surface goes out before its components, which are the inline list's, in order;
//! and a model of the renderer's surfaces that applies the messages ends where the whole message
//! leaves it.
#![no_main]

mod common;
use a2ui_stream::renderer::RendererState;

use a2ui_stream::{Config, Event, MessageKind, MAX_SPLIT_FIELD_BYTES};
use arbitrary::Arbitrary;
use bytes::Bytes;
use common::{check_events, cut_points, merge, run};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Map, Value};

const KEYS: [&str; 6] = ["a", "items", "0", "a~b/c", "q\"\u{e9}", "__proto__"];
const OTHER_KEYS: [&str; 3] = ["theme", "metadata", "agentNote"];
/// Raw `surfaceId` strings: plain, escaped, and one too long to be copied into each piece.
fn surface(i: u8) -> String {
    match i % 4 {
        0 => "\"s\"".to_owned(),
        1 => "\"a\\/b\"".to_owned(),
        2 => "\"\\u0073\"".to_owned(),
        _ => format!("\"{}\"", "s".repeat(MAX_SPLIT_FIELD_BYTES)),
    }
}
const VERSIONS: [&str; 3] = ["\"v1.0\"", "\"v1\\u002e0\"", "\"v0.9\""];

#[derive(Arbitrary, Debug)]
enum Node {
    Null,
    Bool(bool),
    Int(i32),
    Str(u8),
    Arr(Vec<Node>),
    Obj(Vec<(u8, Node)>),
}

fn value(n: &Node, depth: u32) -> Value {
    match n {
        _ if depth > 5 => Value::Null,
        Node::Null => Value::Null,
        Node::Bool(b) => json!(b),
        Node::Int(i) => json!(i),
        Node::Str(s) => json!(format!("</a2ui-json>{{\\\"{s}")),
        Node::Arr(items) => Value::Array(items.iter().map(|i| value(i, depth + 1)).collect()),
        Node::Obj(kv) => Value::Object(
            kv.iter()
                .map(|(k, v)| {
                    (
                        KEYS[*k as usize % KEYS.len()].to_owned(),
                        value(v, depth + 1),
                    )
                })
                .collect::<Map<_, _>>(),
        ),
    }
}

#[derive(Arbitrary, Debug)]
struct Component {
    /// The same as the component before it (a repeat).
    repeat: bool,
    props: Vec<(u8, Node)>,
}

#[derive(Arbitrary, Debug)]
enum Member {
    SurfaceId(u8),
    CatalogId(u8),
    SendDataModel(bool),
    Components(Vec<Component>),
    DataModel(Node),
    Other(u8, Node),
}

#[derive(Arbitrary, Debug)]
struct Input {
    /// The body's members, in the order they are written.
    members: Vec<Member>,
    version: u8,
    version_last: bool,
    /// A message key after the body.
    note: bool,
    pretty: bool,
    bare: bool,
    depth: u8,
    limit: u8,
    dedup: bool,
    copy: bool,
    cuts: Vec<u16>,
}

/// The message as written, its inline components (of its first list), and the surface a later
/// message names.
fn render(input: &Input) -> (String, Vec<Value>, String) {
    let text = |v: &Value| {
        if input.pretty {
            serde_json::to_string_pretty(v).unwrap()
        } else {
            v.to_string()
        }
    };
    let sep = if input.pretty { ",\n  " } else { "," };
    let mut next_id = 0;
    let mut first_list = None;
    let mut last_surface = "\"s\"".to_owned();
    let members: Vec<String> = input
        .members
        .iter()
        .map(|m| match m {
            Member::SurfaceId(s) => {
                last_surface = surface(*s);
                format!("\"surfaceId\":{last_surface}")
            }
            Member::CatalogId(c) => format!("\"catalogId\":\"c{c}\""),
            Member::SendDataModel(b) => format!("\"sendDataModel\":{b}"),
            Member::DataModel(d) => format!("\"dataModel\":{}", text(&value(d, 0))),
            Member::Other(k, v) => format!(
                "\"{}\":{}",
                OTHER_KEYS[*k as usize % OTHER_KEYS.len()],
                text(&value(v, 0))
            ),
            Member::Components(list) => {
                let mut comps: Vec<Value> = Vec::new();
                for c in list {
                    let again = comps.last().cloned().filter(|_| c.repeat);
                    comps.push(again.unwrap_or_else(|| {
                        next_id += 1;
                        let mut props: Map<String, Value> = c
                            .props
                            .iter()
                            .map(|(k, v)| (format!("p{k}"), value(v, 2)))
                            .collect();
                        props.insert("id".into(), json!(format!("c{next_id}")));
                        props.insert("component".into(), json!("Text"));
                        Value::Object(props)
                    }));
                }
                let items: Vec<String> = comps.iter().map(text).collect();
                first_list.get_or_insert(comps);
                format!("\"components\":[{}]", items.join(sep))
            }
        })
        .collect();
    let create = format!("\"createSurface\":{{{}}}", members.join(sep));
    let version = format!(
        "\"version\":{}",
        VERSIONS[input.version as usize % VERSIONS.len()]
    );
    let mut top = if input.version_last {
        vec![create, version]
    } else {
        vec![version, create]
    };
    if input.note {
        top.push("\"note\":[1]".to_owned());
    }
    let message = format!("{{{}}}", top.join(sep));
    (message, first_list.unwrap_or_default(), last_surface)
}

fn state_after(messages: &[Value]) -> Option<RendererState> {
    let mut state = RendererState::new();
    for m in messages {
        state.apply(m).ok()?;
    }
    Some(state)
}

fuzz_target!(|input: Input| {
    let (message, list, surface) = render(&input);
    let later = format!(
        r#"{{"version":"v1.0","updateComponents":{{"surfaceId":{surface},"components":[{{"id":"late","component":"Divider"}}]}}}}"#
    );
    let text = if input.bare {
        format!("{message}\n{later}")
    } else {
        format!("Here:<a2ui-json>{message}\n{later}</a2ui-json> done.")
    };
    let base = if input.bare {
        Config::bare()
    } else {
        Config::default()
    };
    let config = Config {
        split_data_depth: input.depth as usize % 4,
        max_split_data_entries: if input.limit < 128 {
            input.limit as usize % 6
        } else {
            base.max_split_data_entries
        },
        dedup_components: input.dedup,
        ..base
    };
    let data = Bytes::from(text);

    let one_shot = run(&config, &data, &[0, data.len()], false);
    check_events(&config, &data, &one_shot);
    let points = cut_points(data.len(), &input.cuts);
    let split = run(&config, &data, &points, input.copy);
    assert_eq!(merge(&split), merge(&one_shot), "cut at {points:?}");

    let mut out = Vec::new();
    for ev in &one_shot {
        match ev {
            Ok(Event::Message(m)) => out.push(m.clone()),
            Ok(Event::Text(_)) => {}
            Err(e) => panic!("error on well-formed input: {e}\n{message}"),
        }
    }
    let values: Vec<Value> = out.iter().map(|m| m.to_value().unwrap()).collect();
    // Every message's accessors say what its bytes say.
    for (m, v) in out.iter().zip(&values) {
        let body = &v[m.kind().key()];
        assert_eq!(m.surface_id(), body["surfaceId"].as_str(), "{v}");
        assert_eq!(m.version(), v["version"].as_str(), "{v}");
    }
    let later: Value = serde_json::from_str(&later).unwrap();
    assert_eq!(values.last(), Some(&later));
    let first = out.first().unwrap();
    if first.as_str() == message {
        // Whole, as before: nothing else of it went out.
        assert_eq!(out.len(), 2, "{out:#?}");
    } else {
        // The surface first, without its list; then the inline list's components, in order
        // (repeats dropped); nothing but a v1.0 message is split.
        assert_eq!(first.kind(), MessageKind::CreateSurface);
        assert_eq!(first.version(), Some("v1.0"));
        let body = &values[0]["createSurface"];
        assert_eq!(first.surface_id(), body["surfaceId"].as_str());
        assert!(values[0]["createSurface"].get("components").is_none());
        let sent: Vec<&Value> = values[1..values.len() - 1]
            .iter()
            .take_while(|v| v.get("deleteSurface").is_none())
            .filter_map(|v| v.get("updateComponents"))
            .map(|b| &b["components"][0])
            .collect();
        let mut want: Vec<&Value> = Vec::new();
        for c in &list {
            if !(input.dedup && want.contains(&c)) {
                want.push(c);
            }
        }
        assert_eq!(sent, want);
    }
    let whole: Value = serde_json::from_str(&message).unwrap();
    if let Some(state) = state_after(&[whole, later]) {
        let mut got = RendererState::new();
        for v in &values {
            assert!(
                got.apply(v).is_ok(),
                "the renderer refuses {v}\nall: {values:#?}"
            );
        }
        assert_eq!(got, state, "{values:#?}");
    }
});
