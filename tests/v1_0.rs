//! A2UI v1.0 through the splitter: its messages are known by kind, `updateComponents` and
//! `updateDataModel` are split as in v0.9 with `"version":"v1.0"` on every piece, a
//! `createSurface` with inline components goes out as the surface and then each component, and
//! the new function messages pass whole.

mod support;

use a2ui_stream::renderer::RendererState;
use a2ui_stream::{Config, Event, MessageKind, Splitter};
use proptest::prelude::*;
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

// ---- createSurface with inline components ----------------------------------------------------

/// String content that stresses the lexer and the framing.
fn tricky() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("{}[]".to_owned()),
            Just("\"\\".to_owned()),
            Just("</a2ui-json>".to_owned()),
            Just("```".to_owned()),
            Just("\u{e9}\u{1F600}\n".to_owned()),
            "[a-zA-Z0-9 ,:]{0,8}",
        ],
        0..4,
    )
    .prop_map(|p| p.concat())
}

/// A data model value: objects, arrays and scalars, `null` and keys that cannot be path
/// segments now and then.
fn data_value() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        6 => "[a-e]{1,3}",
        1 => Just("a~b/c".to_owned()),
        1 => Just(String::new()),
        1 => Just("__proto__".to_owned()),
    ];
    let leaf = prop_oneof![
        6 => any::<i32>().prop_map(Value::from),
        6 => tricky().prop_map(Value::from),
        2 => any::<bool>().prop_map(Value::from),
        1 => Just(Value::Null),
    ];
    leaf.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// A v1.0 `createSurface` with inline components, as written: its members in any order.
#[derive(Debug, Clone)]
struct Create {
    /// The body's members, in the order they are written.
    members: Vec<(&'static str, Value)>,
    version_last: bool,
    /// A message key besides `version` and `createSurface`, after the body.
    note: bool,
    pretty: bool,
}

impl Create {
    fn text(&self) -> String {
        let sep = if self.pretty { ",\n  " } else { "," };
        let value = |v: &Value| {
            if self.pretty {
                serde_json::to_string_pretty(v).unwrap()
            } else {
                v.to_string()
            }
        };
        let members: Vec<String> = self
            .members
            .iter()
            .map(|(k, v)| format!("\"{k}\":{}", value(v)))
            .collect();
        let mut top = vec![format!("\"createSurface\":{{{}}}", members.join(sep))];
        let version = "\"version\":\"v1.0\"".to_owned();
        if self.version_last {
            top.push(version);
        } else {
            top.insert(0, version);
        }
        if self.note {
            top.push("\"note\":{\"a\":[1]}".to_owned());
        }
        format!("{{{}}}", top.join(sep))
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.members.iter().position(|(k, _)| *k == key)
    }

    fn components(&self) -> usize {
        self.members
            .iter()
            .find(|(k, _)| *k == "components")
            .and_then(|(_, v)| v.as_array())
            .map_or(0, Vec::len)
    }

    /// Written as the schema lists it: `version` first, and every member of the body but a
    /// `dataModel` object before the list. The surface then goes out before its first component,
    /// and is never taken back.
    fn in_schema_order(&self) -> bool {
        let list = self.position("components").unwrap_or(0);
        !self.version_last
            && !self.note
            && self.components() > 0
            && self
                .members
                .iter()
                .enumerate()
                .all(|(i, (k, v))| i <= list || (*k == "dataModel" && v.is_object()))
    }
}

fn create() -> impl Strategy<Value = Create> {
    let component = |i: usize| {
        (tricky(), any::<bool>(), 0usize..3).prop_map(move |(text, bound, children)| {
            let id = format!("cmp-{i}");
            let kids: Vec<String> = (0..children)
                .map(|k| format!("cmp-{}", i + k + 1))
                .collect();
            if bound {
                json!({"id": id, "component": "Text", "text": {"path": "/title"}, "note": text})
            } else {
                json!({"id": id, "component": "Column", "children": kids, "label": text})
            }
        })
    };
    let components = (0usize..6).prop_flat_map(move |n| (0..n).map(component).collect::<Vec<_>>());
    let data = prop_oneof![
        8 => prop::collection::vec(("[a-e]{1,4}", data_value()), 0..5)
            .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        1 => data_value(),
    ];
    (
        components,
        prop::option::of(tricky()),
        prop::option::of(any::<bool>()),
        prop::option::of(data),
        any::<bool>(),
        prop::sample::select(vec![0u8, 1, 2, 3, 4, 5, 6, 7]),
        any::<bool>(),
        any::<prop::sample::Index>(),
    )
        .prop_flat_map(|(comps, catalog, send, data, metadata, mode, pretty, _)| {
            let mut members: Vec<(&'static str, Value)> = vec![
                ("surfaceId", json!("s")),
                ("components", Value::Array(comps)),
            ];
            if let Some(c) = catalog {
                members.push(("catalogId", json!(c)));
            }
            if let Some(b) = send {
                members.push(("sendDataModel", json!(b)));
            }
            if metadata {
                members.push(("metadata", json!({"extensions": {"x": {"on": true}}})));
            }
            if let Some(d) = data {
                members.push(("dataModel", d));
            }
            (Just(members).prop_shuffle(), Just(mode), Just(pretty))
        })
        .prop_map(|(members, mode, pretty)| Create {
            members,
            // Mostly `version` first, as models write it.
            version_last: mode == 0,
            note: mode == 1,
            pretty,
        })
}

/// The messages and errors of `input` fed at the cut points given.
fn split_at(config: &Config, input: &[u8], cuts: &[usize]) -> (Vec<Value>, Vec<String>) {
    let mut s = Splitter::with_config(config.clone());
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (input.len() + 1)).collect();
    points.extend([0, input.len()]);
    points.sort_unstable();
    let (mut messages, mut errors) = (Vec::new(), Vec::new());
    let mut take = |e: Result<Event, a2ui_stream::Error>| match e {
        Ok(Event::Message(m)) => messages.push(m.to_value().expect("a message is JSON")),
        Ok(Event::Text(_)) => {}
        Err(e) => errors.push(e.to_string()),
    };
    for w in points.windows(2) {
        s.feed(&input[w[0]..w[1]]).for_each(&mut take);
    }
    s.finish().for_each(&mut take);
    (messages, errors)
}

fn state_after(messages: &[Value]) -> Option<RendererState> {
    let mut state = RendererState::new();
    for m in messages {
        state.apply(m).ok()?;
    }
    Some(state)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// A v1.0 `createSurface` with inline components, its members in any order: the same
    /// messages at every chunking; a renderer that applies them accepts each one (the surface
    /// exists before its components and data arrive) and ends where the whole message leaves it;
    /// written in the schema's order, the surface and its first component go out before the
    /// second component is read, and the surface is never taken back.
    #[test]
    fn inline_components_leave_the_whole_messages_state(
        create in create(), depth in 0usize..4, cuts in prop::collection::vec(any::<usize>(), 0..30),
    ) {
        let text = create.text();
        let later = json!({"version": "v1.0", "updateComponents": {"surfaceId": "s",
            "components": [{"id": "late", "component": "Divider"}]}});
        let input = format!("Here: <a2ui-json>{text}\n{later}</a2ui-json> done");
        let config = Config { split_data_depth: depth, ..Config::default() };
        let (one_shot, errors) = split_at(&config, input.as_bytes(), &[]);
        prop_assert!(errors.is_empty(), "{errors:?}");
        prop_assert_eq!(&split_at(&config, input.as_bytes(), &cuts), &(one_shot.clone(), vec![]));

        let whole: Value = serde_json::from_str(&text).unwrap();
        let want = state_after(&[whole, later.clone()]);
        prop_assume!(want.is_some());
        let mut got = RendererState::new();
        for m in &one_shot {
            prop_assert!(got.apply(m).is_ok(), "refused: {}\nall: {:#?}", m, one_shot);
        }
        prop_assert_eq!(Some(got), want);
        prop_assert_eq!(one_shot.last(), Some(&later));

        if create.in_schema_order() {
            prop_assert!(one_shot.iter().all(|m| m.get("deleteSurface").is_none()), "{:#?}", one_shot);
            prop_assert!(one_shot[0]["createSurface"].get("components").is_none());
            if create.components() > 1 {
                // Where the second component's `id` is written (its children may name it earlier).
                let second = ["\"id\":\"cmp-1\"", "\"id\": \"cmp-1\""]
                    .iter()
                    .find_map(|id| input.find(id))
                    .unwrap();
                let (early, _) = split_at(&config, &input.as_bytes()[..second], &[]);
                prop_assert!(early.len() >= 2, "{:#?}", early);
                prop_assert_eq!(&early[..2], &one_shot[..2]);
                prop_assert_eq!(&early[1]["updateComponents"]["components"][0]["id"], "cmp-0");
            }
        }
    }
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn the_restaurant_list_created_with_its_components_streams_them() {
    // The A2UI project's v1.0 list, with its components moved into the createSurface.
    let Some(root) = support::shared_root() else {
        return;
    };
    let path = root
        .join("a2ui-v1/samples/agent/adk/restaurant_finder/examples/1.0/single_column_list.json");
    let messages: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let created = &messages[0]["createSurface"];
    let list = &messages[1]["updateComponents"]["components"];
    let rest = &messages[2..];
    // Written as the schema lists the members (serde_json would sort them).
    let create = format!(
        r#"{{"version":"v1.0","createSurface":{{"surfaceId":{},"catalogId":{},"components":{list}}}}}"#,
        created["surfaceId"], created["catalogId"]
    );
    let whole: Vec<Value> = std::iter::once(serde_json::from_str(&create).unwrap())
        .chain(rest.iter().cloned())
        .collect();
    let body: Vec<String> = std::iter::once(create)
        .chain(rest.iter().map(Value::to_string))
        .collect();
    let input = format!("<a2ui-json>[{}]</a2ui-json>", body.join(",\n"));
    let (out, errors) = split_at(&Config::default(), input.as_bytes(), &[7, 300, 301, 2000]);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(out[0], messages[0]);
    let components: Vec<&Value> = out
        .iter()
        .filter_map(|m| m.get("updateComponents"))
        .map(|b| &b["components"][0])
        .collect();
    assert_eq!(
        components,
        list.as_array().unwrap().iter().collect::<Vec<_>>()
    );
    assert!(state_after(&whole).is_some());
    assert_eq!(state_after(&out), state_after(&whole));
}
