use proptest::prelude::*;
use serde_json::{Value, json};

use super::{RenderErrorKind, RendererState};
use crate::{MessageKind, Version};

/// A state holding the v0.9 surface `s` with the data model `data`.
fn with_data(data: Value) -> RendererState {
    let mut state = RendererState::new();
    state
        .apply(&json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}}))
        .unwrap();
    state.surface_mut("s").unwrap().set_data("/", data).unwrap();
    state
}

fn set(
    state: &mut RendererState,
    path: &str,
    value: Value,
) -> Result<MessageKind, RenderErrorKind> {
    let update = json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": path, "value": value}});
    state.apply(&update).map_err(|e| e.kind().clone())
}

fn model(state: &RendererState) -> &Value {
    state.surface("s").unwrap().data_model()
}

#[test]
fn a_path_makes_what_is_missing_and_unescapes_its_segments() {
    let mut state = with_data(json!({}));
    set(&mut state, "/a~1b/c~0d/2/e", json!(1)).unwrap();
    assert_eq!(
        model(&state),
        &json!({"a/b": {"c~d": [null, null, {"e": 1}]}})
    );
    // A `null` parent is made a container; an index one past the end appends.
    let mut state = with_data(json!({"x": null, "l": [0]}));
    set(&mut state, "/x/0", json!("y")).unwrap();
    set(&mut state, "/l/1", json!(1)).unwrap();
    assert_eq!(model(&state), &json!({"x": ["y"], "l": [0, 1]}));
    // An object's member may look like an index.
    let mut state = with_data(json!({"m": {}}));
    set(&mut state, "/m/0", json!(true)).unwrap();
    assert_eq!(model(&state), &json!({"m": {"0": true}}));
}

#[test]
fn null_deletes_and_deleting_nothing_makes_nothing() {
    let mut state = with_data(json!({"user": {"name": "A", "token": "t"}, "l": [1, 2]}));
    set(&mut state, "/user/token", Value::Null).unwrap();
    set(&mut state, "/l/0", Value::Null).unwrap();
    set(&mut state, "/gone/deeper", Value::Null).unwrap();
    set(&mut state, "/l/7", Value::Null).unwrap();
    assert_eq!(
        model(&state),
        &json!({"user": {"name": "A"}, "l": [null, 2]})
    );
    // No `value` deletes too; `null` for the whole model empties it.
    let remove = json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/user"}});
    state.apply(&remove).unwrap();
    assert_eq!(model(&state), &json!({"l": [null, 2]}));
    set(&mut state, "/", Value::Null).unwrap();
    assert_eq!(model(&state), &json!({}));
}

#[test]
fn a_path_that_fails_leaves_the_model_as_it_was() {
    let start = json!({"a": 1, "l": [{"k": 1}], "m": {}});
    for (path, kind) in [
        ("/a/b", "scalar"),
        ("/l/k", "index"),
        ("/l/01", "index"),
        ("/l/+1", "index"),
        ("/l/10001", "large"),
        ("/new/deeper/10001", "large"),
        ("/m/x/99999999999999999999999", "large"),
    ] {
        let mut state = with_data(start.clone());
        let err = set(&mut state, path, json!("v")).unwrap_err();
        let matches = match kind {
            "scalar" => matches!(err, RenderErrorKind::PathThroughScalar { .. }),
            "index" => matches!(err, RenderErrorKind::NotAnIndex { .. }),
            _ => matches!(err, RenderErrorKind::IndexTooLarge { .. }),
        };
        assert!(matches, "{path}: {err:?}");
        assert_eq!(model(&state), &start, "{path}");
    }
    // The limit itself is allowed.
    let mut state = with_data(json!({}));
    set(&mut state, "/l/10000", json!(1)).unwrap();
    assert_eq!(
        state.surface("s").unwrap().data("/l/10000"),
        Some(&json!(1))
    );
}

#[test]
fn v08_contents_are_maps_set_at_their_path() {
    let mut state = RendererState::new();
    let update = |path: &str, contents: Value| json!({"dataModelUpdate": {"surfaceId": "s", "path": path, "contents": contents}});
    state
        .apply(&update(
            "/",
            json!([{"key": "n", "valueNumber": 1}, {"key": "t", "valueString": "x"}]),
        ))
        .unwrap();
    state
        .apply(&update(
            "/n/deep",
            json!([{"key": "m", "valueMap": [{"key": "b", "valueBoolean": false}]}]),
        ))
        .unwrap();
    state
        .apply(&update("/t", json!([{"key": ".", "valueString": "y"}])))
        .unwrap();
    assert_eq!(
        model(&state),
        &json!({"n": {"deep": {"m": {"b": false}}}, "t": "y"})
    );
    let err = state
        .apply(&update("/", json!([{"key": ".", "valueString": "z"}])))
        .unwrap_err();
    assert_eq!(err.kind(), &RenderErrorKind::RootNotAMap);
    let err = state
        .apply(&update("/x", json!([{"key": "k"}])))
        .unwrap_err();
    assert_eq!(
        err.kind(),
        &RenderErrorKind::MissingField { field: "value" }
    );
    assert_eq!(
        model(&state),
        &json!({"n": {"deep": {"m": {"b": false}}}, "t": "y"})
    );
}

#[test]
fn nesting_past_fifty_levels_is_refused_however_deep() {
    // Built by hand: `json!` would copy the value recursively.
    let update = |levels: usize| {
        let mut value = json!("leaf");
        for _ in 0..levels {
            value = Value::Array(vec![value]);
        }
        let mut update =
            json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/x"}});
        update["updateDataModel"]["value"] = value;
        update
    };
    // Below the message, its body and `value` (the outermost list): 48 lists put the leaf 50
    // keys and indexes below the message.
    let mut state = with_data(json!({}));
    state.apply(&update(48)).unwrap();
    let err = state.apply(&update(49)).unwrap_err();
    assert_eq!(err.kind(), &RenderErrorKind::TooDeep { limit: 50 });
    assert!(err.to_string().contains("Global recursion limit exceeded"));
    // Far deeper than a parser would build: refused, without walking it recursively.
    assert_eq!(
        state.apply(&update(2_000)).unwrap_err().kind(),
        &RenderErrorKind::TooDeep { limit: 50 }
    );
}

#[test]
fn a_create_surface_that_fails_leaves_no_surface() {
    let mut state = RendererState::new();
    let create = json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
        "dataModel": {"a": 1}, "components": [{"id": "root", "component": "Text"}, {"id": "x"}]}});
    let err = state.apply(&create).unwrap_err();
    assert_eq!(
        err.kind(),
        &RenderErrorKind::MissingField { field: "component" }
    );
    assert_eq!(
        (err.surface_id(), err.component_id()),
        (Some("s"), Some("x"))
    );
    assert!(state.surface("s").is_none());
    // v1.0: a component needs a catalog, its own or the surface's.
    let bare = json!({"version": "v1.0", "createSurface": {"surfaceId": "s",
        "components": [{"id": "root", "component": "Text"}]}});
    assert_eq!(
        state.apply(&bare).unwrap_err().kind(),
        &RenderErrorKind::NoCatalog
    );
    assert!(state.surface("s").is_none());
}

#[test]
fn versions_and_actions_are_read_as_the_suites_say() {
    let mut state = RendererState::new();
    let err = |state: &mut RendererState, m: Value| state.apply(&m).unwrap_err().kind().clone();
    assert_eq!(
        err(
            &mut state,
            json!({"version": 1, "deleteSurface": {"surfaceId": "s"}})
        ),
        RenderErrorKind::UnsupportedVersion("1".into())
    );
    assert_eq!(
        err(&mut state, json!({"updateDataModel": {"surfaceId": "s"}})),
        RenderErrorKind::MissingVersion(MessageKind::UpdateDataModel)
    );
    assert_eq!(
        err(
            &mut state,
            json!({"version": "v0.9", "createSurface": {"surfaceId": 7}})
        ),
        RenderErrorKind::WrongType {
            field: "surfaceId",
            expected: "a string"
        }
    );
    assert_eq!(
        err(&mut state, json!({"version": "v0.9", "createSurface": "s"})),
        RenderErrorKind::WrongType {
            field: "createSurface",
            expected: "an object"
        }
    );
    // No action at all, or only another version's: left alone.
    assert_eq!(
        state.apply(&json!({"hello": 1})).unwrap(),
        MessageKind::Unknown
    );
    assert_eq!(
        state
            .apply(
                &json!({"version": "v0.9", "surfaceUpdate": {"surfaceId": "s", "components": []}})
            )
            .unwrap(),
        MessageKind::Unknown
    );
    // v0.9.1 speaks v0.9; function messages change nothing.
    state
        .apply(&json!({"version": "v0.9.1", "createSurface": {"surfaceId": "s", "catalogId": "c"}}))
        .unwrap();
    assert_eq!(state.surface("s").unwrap().version(), Version::V09);
    let call =
        json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": "f", "value": 1}});
    let before = state.clone();
    assert_eq!(
        state.apply(&call).unwrap(),
        MessageKind::AgentFunctionResponse
    );
    assert_eq!(state, before);
}

#[test]
fn strict_checks_refuse_trees_that_do_not_hold_together() {
    let create = json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}});
    let update = |components: Value| json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}});
    let cases = [
        (
            json!([{"id": "a", "component": "Text"}]),
            RenderErrorKind::MissingRoot("root".into()),
        ),
        (
            json!([{"id": "root", "component": "Card", "child": "nowhere"}]),
            RenderErrorKind::DanglingReference {
                to: "nowhere".into(),
            },
        ),
        (
            json!([{"id": "root", "component": "Card", "child": "root"}]),
            RenderErrorKind::Cycle,
        ),
        (
            json!([{"id": "root", "component": "Text"}, {"id": "alone", "component": "Text"}]),
            RenderErrorKind::Unreachable,
        ),
        (
            json!([{"id": "root", "component": "Text"}, {"id": "root", "component": "Text"}]),
            RenderErrorKind::DuplicateComponent,
        ),
    ];
    for (components, kind) in cases {
        let mut state = RendererState::new().strict();
        state.apply(&create).unwrap();
        let err = state.apply(&update(components.clone())).unwrap_err();
        assert_eq!(err.kind(), &kind, "{components}");
        assert_eq!(state.surface("s").unwrap().components().count(), 0);
        // A permissive renderer takes the same update.
        let mut open = RendererState::new();
        open.apply(&create).unwrap();
        open.apply(&update(components)).unwrap();
    }
    // A chain deeper than 50 from the root.
    let mut chain: Vec<Value> = (0..52)
        .map(
            |i| json!({"id": format!("c{i}"), "component": "Card", "child": format!("c{}", i + 1)}),
        )
        .collect();
    chain.push(json!({"id": "c52", "component": "Text"}));
    chain.push(json!({"id": "root", "component": "Card", "child": "c0"}));
    let mut state = RendererState::new().strict();
    state.apply(&create).unwrap();
    assert_eq!(
        state
            .apply(&update(Value::Array(chain)))
            .unwrap_err()
            .kind(),
        &RenderErrorKind::TooDeep { limit: 50 }
    );
}

// ---- generated messages ----------------------------------------------------------------------

fn small_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i32..3).prop_map(Value::from),
        prop::sample::select(vec!["x", "root", "a", ""]).prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec!["a", "0", "child", "children"]),
                    inner
                ),
                0..3
            )
            .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

fn component() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(vec!["root", "a", "b"]),
        prop_oneof![
            Just(json!("Text")),
            Just(json!("Column")),
            Just(json!({"Text": {}})),
            Just(json!({"Card": {"child": "a"}})),
            Just(json!(3)),
        ],
        prop::option::of(prop::sample::select(vec!["a", "b"])),
        small_value(),
    )
        .prop_map(|(id, kind, child, extra)| {
            let mut c = json!({"id": id, "component": kind, "children": extra});
            if let Some(child) = child {
                c["child"] = json!(child);
            }
            c
        })
}

fn message() -> impl Strategy<Value = Value> {
    let version = prop::sample::select(vec![
        None,
        Some(json!("v0.8")),
        Some(json!("v0.9")),
        Some(json!("v1.0")),
        Some(json!("v2")),
        Some(json!(1)),
    ]);
    let action = prop::sample::select(vec![
        "createSurface",
        "updateComponents",
        "updateDataModel",
        "deleteSurface",
        "beginRendering",
        "surfaceUpdate",
        "dataModelUpdate",
    ]);
    let body = (
        prop::sample::select(vec![json!("s"), json!("t"), json!(1)]),
        prop::option::of(prop::sample::select(vec![
            "/", "/a", "/a/0", "/a/b/c", "", "/0",
        ])),
        small_value(),
        prop::collection::vec(component(), 0..3),
        prop::option::of(prop::sample::select(vec!["c", "d"])),
    );
    (version, action, body).prop_map(|(version, action, (sid, path, value, components, catalog))| {
        let mut body = json!({"surfaceId": sid, "value": value, "components": components, "root": "root",
            "contents": [{"key": "k", "valueString": "v"}], "dataModel": {"n": 1}});
        if let Some(path) = path {
            body["path"] = json!(path);
        }
        if let Some(catalog) = catalog {
            body["catalogId"] = json!(catalog);
        }
        let mut m = json!({ action: body });
        if let Some(v) = version {
            m["version"] = v;
        }
        m
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Whatever it is sent, the renderer does not panic, and a message it refuses changes
    /// nothing.
    #[test]
    fn a_refused_message_changes_nothing(
        messages in prop::collection::vec(message(), 1..10), strict in any::<bool>(), known in any::<bool>(),
    ) {
        let mut state = RendererState::new();
        if known {
            state = state.with_catalog("c", Version::V09).with_catalog("d", Version::V10);
        }
        if strict {
            state = state.strict();
        }
        for m in &messages {
            let before = state.clone();
            if let Err(e) = state.apply(m) {
                prop_assert_eq!(&state, &before, "{} refused ({}) but changed the state", m, e);
            }
        }
    }
}
