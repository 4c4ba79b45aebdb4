//! Data-model updates split per entry: any chunking gives the same pieces, and a renderer that
//! applies the pieces (the library's `renderer::RendererState`) holds what the whole update
//! would have left, whatever it held before.

use a2ui_stream::renderer::RendererState;
use a2ui_stream::{Config, ErrorKind, Event, MessageKind, Splitter};
use proptest::prelude::*;
use serde_json::{Value, json};

/// The messages (as JSON) and errors of `input` fed at the cut points given.
fn split(config: &Config, input: &[u8], cuts: &[usize]) -> (Vec<Value>, Vec<(u64, ErrorKind)>) {
    let mut s = Splitter::with_config(config.clone());
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (input.len() + 1)).collect();
    points.extend([0, input.len()]);
    points.sort_unstable();
    let (mut messages, mut errors) = (Vec::new(), Vec::new());
    let mut take = |ev: Result<Event, a2ui_stream::Error>| match ev {
        Ok(Event::Message(m)) => messages.push(m.to_value().expect("a piece is JSON")),
        Ok(Event::Text(_)) => {}
        Err(e) => errors.push((e.offset().expect("a splitter error has a place"), e.kind())),
    };
    for w in points.windows(2) {
        s.feed(&input[w[0]..w[1]]).for_each(&mut take);
    }
    s.finish().for_each(&mut take);
    (messages, errors)
}

fn tagged(messages: &[Value]) -> Vec<u8> {
    let body: Vec<String> = messages.iter().map(Value::to_string).collect();
    format!("Here: <a2ui-json>{}</a2ui-json> done", body.join("\n")).into_bytes()
}

fn path_of(m: &Value) -> Option<&str> {
    let body = m
        .get("updateDataModel")
        .or_else(|| m.get("dataModelUpdate"))?;
    body.get("path").and_then(Value::as_str)
}

/// A renderer holding surface `s`, of the version `update` speaks, whose data model is `data`.
fn renderer_with(update: &Value, data: Value) -> RendererState {
    let begin = if update.get("dataModelUpdate").is_some() {
        json!({"beginRendering": {"surfaceId": "s", "root": "root"}})
    } else {
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic"}})
    };
    let mut state = RendererState::new();
    state.apply(&begin).expect("the surface is made");
    state
        .surface_mut("s")
        .expect("made above")
        .set_data("/", data)
        .expect("any value can be the whole data model");
    state
}

/// Applies `messages` to `state`.
fn state_after(mut state: RendererState, messages: &[Value]) -> RendererState {
    for m in messages {
        state.apply(m).expect("the renderer applies every piece");
    }
    state
}

// ---- generated data ---------------------------------------------------------------------------

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => "[a-z]{1,6}",
        1 => Just("0".to_owned()),
        1 => Just("a~b/c".to_owned()),
        1 => Just("q\"u\\o\u{e9}".to_owned()),
        1 => Just(String::new()),
        1 => Just("a.b".to_owned()),
        1 => Just("__proto__".to_owned()),
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        "[a-zA-Z {}\\[\\]\",:\\\\\u{e9}\u{1F600}]{0,12}".prop_map(Value::from),
    ]
}

/// A v0.9 value; `null` only sometimes (a `null` member cannot be set apart faithfully).
fn value09() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![8 => scalar(), 1 => Just(Value::Null)];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// A v0.8 `contents` entry list, nested `valueMap`s included.
fn entries08(depth: u32) -> BoxedStrategy<Value> {
    let scalar_entry = (
        key(),
        prop_oneof![
            "[a-zA-Z {}\",\u{e9}]{0,10}".prop_map(|s| ("valueString", Value::from(s))),
            any::<i32>().prop_map(|n| ("valueNumber", Value::from(n))),
            any::<bool>().prop_map(|b| ("valueBoolean", Value::from(b))),
        ],
    )
        .prop_map(|(k, (field, v))| json!({ "key": k, field: v }));
    if depth == 0 {
        return prop::collection::vec(scalar_entry, 0..4)
            .prop_map(Value::Array)
            .boxed();
    }
    let map_entry =
        (key(), entries08(depth - 1)).prop_map(|(k, m)| json!({ "key": k, "valueMap": m }));
    prop::collection::vec(prop_oneof![scalar_entry, map_entry], 0..4)
        .prop_map(Value::Array)
        .boxed()
}

fn path() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(Some("/".to_owned())),
        Just(Some("/data".to_owned())),
        Just(Some("/a/b".to_owned())),
        Just(None),
    ]
}

fn update(v08: bool, path: Option<String>, value: Value) -> Value {
    let mut body = json!({ "surfaceId": "s" });
    if let Some(p) = path {
        body["path"] = json!(p);
    }
    if v08 {
        body["contents"] = value;
        json!({ "dataModelUpdate": body })
    } else {
        body["value"] = value;
        json!({ "version": "v0.9", "updateDataModel": body })
    }
}

fn initial_state() -> impl Strategy<Value = Value> {
    prop::collection::vec(("[a-d]", value09()), 0..4)
        .prop_map(|kv| Value::Object(kv.into_iter().collect()))
}

/// Checks one update through the splitter: the same pieces at every chunking, pieces that leave
/// the whole update's state, no path set twice unless the whole update follows, and the message
/// after it still arriving.
fn check(update: Value, data: Value, cuts: &[usize], depth: usize) -> Result<(), TestCaseError> {
    let state = renderer_with(&update, data);
    let mut whole_state = state.clone();
    prop_assume!(whole_state.apply(&update).is_ok());
    let after = json!({"deleteSurface": {"surfaceId": "s"}});
    let input = tagged(&[update.clone(), after.clone()]);
    let config = Config {
        split_data_depth: depth,
        ..Config::default()
    };
    let (one_shot, errors) = split(&config, &input, &[]);
    prop_assert!(errors.is_empty(), "{errors:?}");
    let (cut, _) = split(&config, &input, cuts);
    prop_assert_eq!(&one_shot, &cut);
    prop_assert_eq!(one_shot.last(), Some(&after));
    let pieces = &one_shot[..one_shot.len() - 1];
    prop_assert_eq!(state_after(state, pieces), whole_state);
    // Every piece names the surface; a path is set once, but for the whole update sent after
    // pieces that could not say everything.
    let whole_follows = pieces.len() > 1 && pieces.last() == Some(&update);
    let shown = if whole_follows {
        &pieces[..pieces.len() - 1]
    } else {
        pieces
    };
    let mut paths: Vec<&str> = shown.iter().map(|m| path_of(m).unwrap_or("/")).collect();
    paths.sort_unstable();
    let n = paths.len();
    paths.dedup();
    prop_assert_eq!(paths.len(), n, "a path set twice: {:?}", shown);
    for p in pieces {
        let body = p
            .get("updateDataModel")
            .or_else(|| p.get("dataModelUpdate"));
        prop_assert_eq!(&body.unwrap()["surfaceId"], "s");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn v09_pieces_leave_the_whole_updates_state(
        path in path(), value in value09(), state in initial_state(),
        depth in 0usize..4, cuts in prop::collection::vec(any::<usize>(), 0..30),
    ) {
        check(update(false, path, value), state, &cuts, depth)?;
    }

    #[test]
    fn v08_pieces_leave_the_whole_updates_state(
        path in path(), contents in entries08(3), state in initial_state(),
        depth in 0usize..4, cuts in prop::collection::vec(any::<usize>(), 0..30),
    ) {
        check(update(true, path, contents), state, &cuts, depth)?;
    }

    /// Broken input: the same messages and errors at every chunking, and the message after the
    /// broken one arrives.
    #[test]
    fn a_broken_value_loses_nothing_after_it(
        value in value09(), cut_at in any::<prop::sample::Index>(),
        junk in prop::sample::select(vec!["}", "]", ",,", "\"\u{1}\"", "tru", "01"]),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
    ) {
        let text = update(false, Some("/".into()), json!({"items": [value]})).to_string();
        let at = cut_at.index(text.len());
        prop_assume!(text.is_char_boundary(at));
        let broken = format!("{}{}{}", &text[..at], junk, &text[at..]);
        let input = format!("<a2ui-json>{broken}\n{}</a2ui-json>", json!({"deleteSurface": {"surfaceId": "z"}}));
        let config = Config::default();
        let one = split(&config, input.as_bytes(), &[]);
        let cut = split(&config, input.as_bytes(), &cuts);
        prop_assert_eq!(&one, &cut);
        prop_assert!(one.0.iter().any(|m| m["deleteSurface"]["surfaceId"] == "z"));
    }
}

fn pieces(input: &str, config: &Config) -> Vec<String> {
    let mut s = Splitter::with_config(config.clone());
    let mut out: Vec<String> = s
        .feed(input.as_bytes())
        .map(|e| match e.unwrap() {
            Event::Message(m) => m.as_str().to_owned(),
            Event::Text(t) => panic!("text {t:?}"),
        })
        .collect();
    out.extend(s.finish().map(|e| format!("{e:?}")));
    out
}

#[test]
fn each_record_of_a_list_goes_out_as_it_closes() {
    let input = r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"title":"Top 2","items":[{"name":"A","rating":4.8},{"name":"B","tags":["x",{"y":null}]}],"n":5,"ok":true}}}"#;
    assert_eq!(
        pieces(input, &Config::bare()),
        [
            r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{}}}"#,
            r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/title","value":"Top 2"}}"#,
            r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/items","value":[]}}"#,
            r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/items/0","value":{"name":"A","rating":4.8}}}"#,
            r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/items/1","value":{"name":"B","tags":["x",{"y":null}]}}}"#,
            r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/n","value":5}}"#,
            r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/ok","value":true}}"#,
        ]
    );
}

#[test]
fn the_first_record_goes_out_before_the_second_arrives() {
    let mut s = Splitter::with_config(Config::bare());
    let head = r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/items","value":[{"name":"A"}"#;
    let got: Vec<_> = s.feed(head.as_bytes()).map(Result::unwrap).collect();
    assert_eq!(got.len(), 2, "{got:?}");
    let Event::Message(m) = &got[1] else { panic!() };
    assert_eq!(m.kind(), MessageKind::UpdateDataModel);
    assert_eq!(m.surface_id(), Some("s"));
    assert_eq!(m.version(), Some("v0.9"));
    assert_eq!(m.to_value().unwrap()["updateDataModel"]["path"], "/items/0");
}

#[test]
fn keys_are_escaped_as_json_pointer_segments() {
    let input = r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/m","value":{"a~b/c":1,"\u00e9\"":2}}}"#;
    let out = pieces(input, &Config::bare());
    assert_eq!(out.len(), 3);
    assert!(
        out[1].contains(r#""path":"/m/a~0b~1c","value":1"#),
        "{}",
        out[1]
    );
    assert!(
        out[2].contains("\"path\":\"/m/é\\\"\",\"value\":2"),
        "{}",
        out[2]
    );
}

#[test]
fn v08_entries_go_out_at_their_own_paths() {
    let input = r#"{"dataModelUpdate":{"surfaceId":"s","path":"/","contents":[{"key":"title","valueString":"Hi"},{"key":"items","valueMap":[{"key":"r1","valueMap":[{"key":"name","valueString":"A"}]},{"key":"r2","valueMap":[]}]}]}}"#;
    assert_eq!(
        pieces(input, &Config::bare()),
        [
            r#"{"dataModelUpdate":{"surfaceId":"s","path":"/","contents":[]}}"#,
            r#"{"dataModelUpdate":{"surfaceId":"s","path":"/title","contents":[{"key":".","valueString":"Hi"}]}}"#,
            r#"{"dataModelUpdate":{"surfaceId":"s","path":"/items","contents":[]}}"#,
            r#"{"dataModelUpdate":{"surfaceId":"s","path":"/items/r1","contents":[{"key":"name","valueString":"A"}]}}"#,
            r#"{"dataModelUpdate":{"surfaceId":"s","path":"/items/r2","contents":[]}}"#,
        ]
    );
}

#[test]
fn without_a_faithful_split_the_update_goes_out_whole() {
    let bare = Config::bare();
    // Path after the value, no path, a scalar value, an object `contents`, depth 0.
    for input in [
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"a":1},"path":"/x"}}"#,
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"a":1}}}"#,
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/t","value":"x"}}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","path":"/","contents":{"a":1}}}"#,
        r#"{"version":"v0.9","extra":1,"updateDataModel":{"surfaceId":"s","path":"/","value":{"a":1}}}"#,
    ] {
        assert_eq!(pieces(input, &bare), [input]);
    }
    let input =
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"a":1}}}"#;
    let off = Config {
        split_data_depth: 0,
        ..Config::bare()
    };
    assert_eq!(pieces(input, &off), [input]);
}

#[test]
fn pieces_that_cannot_say_everything_are_followed_by_the_whole_update() {
    let bare = Config::bare();
    // A key after the value; a v0.8 key web_core would read as a path; a `null` member.
    for input in [
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"a":1},"note":"x"}}"#,
        r#"{"dataModelUpdate":{"surfaceId":"s","path":"/","contents":[{"key":"a","valueNumber":1},{"key":"b.c","valueNumber":2}]}}"#,
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"a":1,"b":null}}}"#,
    ] {
        let out = pieces(input, &bare);
        assert!(out.len() > 2, "{out:?}");
        assert_eq!(out.last().map(String::as_str), Some(input));
    }
    // Past the limit on pieces, the rest is not split.
    let limited = Config {
        max_split_data_entries: 3,
        ..Config::bare()
    };
    let input =
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/l","value":[1,2,3,4,5]}}"#;
    let out = pieces(input, &limited);
    assert_eq!(out.len(), 4, "{out:?}");
    assert_eq!(out[3], input);
}

#[test]
fn a_malformed_value_names_its_offset_and_the_next_message_arrives() {
    let input = r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"a":1,"b":tru}}} {"deleteSurface":{"surfaceId":"s"}}"#;
    let mut s = Splitter::with_config(Config::bare());
    let out: Vec<_> = s.feed(input.as_bytes()).collect();
    let err = out.iter().find_map(|e| e.as_ref().err()).unwrap();
    assert_eq!(err.offset(), Some(input.find("tru}").unwrap() as u64 + 3));
    let last = out.last().unwrap().as_ref().unwrap();
    let Event::Message(m) = last else { panic!() };
    assert_eq!(m.kind(), MessageKind::DeleteSurface);
}

#[test]
fn an_empty_key_never_gets_a_path_of_its_own() {
    // `/` is the whole data model in A2UI, so the member `""` of the root cannot go out at
    // `/`: a renderer would set the whole model to it. The update is not split from there on.
    let input = r#"{"version":"v1.0","updateDataModel":{"surfaceId":"s","path":"/","value":{"a":1,"":false,"d":[2]}}}"#;
    let out = pieces(input, &Config::bare());
    assert!(
        out.iter()
            .all(|m| !m.contains(r#""path":"/","value":false"#)),
        "{out:?}"
    );
    let messages: Vec<Value> = out
        .iter()
        .map(|m| serde_json::from_str(m).unwrap())
        .collect();
    let whole: Value = serde_json::from_str(input).unwrap();
    let data = |messages: &[Value]| {
        let mut state = RendererState::new();
        state
            .apply(
                &json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c"}}),
            )
            .unwrap();
        for m in messages {
            state.apply(m).unwrap();
        }
        state.surface("s").unwrap().data_model().clone()
    };
    assert_eq!(data(&messages), data(&[whole]));
}
