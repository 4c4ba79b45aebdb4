//! Unit tests of the parser that look at its insides: limits, growing in place against
//! snapshots, and what one step may send.

use serde_json::Value;

use super::form::map_messages;
use super::*;

/// A v0.8 parser on a catalog with only `Text` and `Column`, and no message schema.
fn small_parser(limits: Limits) -> ProgressiveParser {
    let catalog = Catalog::new(
        Version::V08,
        Value::Null,
        serde_json::json!({"components": {"Text": {"type": "object"}, "Column": {"type": "object"}}}),
        Value::Null,
    );
    ProgressiveParser::new(&catalog)
        .expect("the small catalog compiles")
        .with_limits(limits)
}

/// What feeding some chunks gave: the prose, the messages and the errors, each in order.
#[derive(Default)]
struct Fed {
    prose: String,
    messages: Vec<Value>,
    errors: Vec<Error>,
}

/// Feeds `chunks` one after the other, going on after errors.
fn feed_all(parser: &mut ProgressiveParser, chunks: &[&str]) -> Fed {
    let mut fed = Fed::default();
    for chunk in chunks {
        match parser.step_as::<Value>(chunk) {
            Ok(parts) => {
                for part in parts {
                    fed.prose.push_str(part.text.as_deref().unwrap_or(""));
                    fed.messages.extend(part.a2ui.into_iter().flatten());
                }
            }
            Err(e) => fed.errors.push(e),
        }
    }
    fed
}

/// ASCII `text` in chunks of `size` bytes.
fn ascii_chunks(text: &str, size: usize) -> Vec<&str> {
    text.as_bytes()
        .chunks(size)
        .map(|c| std::str::from_utf8(c).expect("ASCII"))
        .collect()
}

#[test]
fn nesting_past_the_depth_limit_is_an_error_and_the_text_after_the_block_still_comes() {
    // 200,000 levels: copying, checking or freeing such a tree would overflow the stack of
    // this (test) thread.
    let deep = 200_000;
    let heads = [
        "<a2ui-json>",
        r#"<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"a"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":{"literalString":"#,
        r#"<a2ui-json>[{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"k","valueMap":"#,
    ];
    for head in heads {
        let text = format!(
            "Before. {head}{}{}}}}}]}}}}]</a2ui-json> After.",
            "[".repeat(deep),
            "]".repeat(deep)
        );
        let mut parser = small_parser(Limits::default());
        let Fed { prose, errors, .. } = feed_all(&mut parser, &ascii_chunks(&text, 4096));
        assert_eq!(errors.len(), 1, "{head}: {errors:?}");
        assert_eq!(errors[0].kind(), ErrorKind::Limit);
        assert!(errors[0].message().contains("deeper than 128 levels"));
        assert_eq!(prose, "Before.  After.", "{head}");
    }
}

#[test]
fn what_a_chunk_completed_before_a_limit_comes_out_of_the_next_call_in_either_form() {
    let limits = Limits {
        max_depth: 8,
        ..Limits::default()
    };
    let first = format!(
        r#"One. <a2ui-json>[{{"beginRendering":{{"surfaceId":"u","root":"t"}}}}]</a2ui-json> Two. <a2ui-json>[{}"#,
        "[".repeat(20)
    );
    let second = format!("{}]</a2ui-json> Three.", "]".repeat(20));
    let began = r#"{"beginRendering":{"root":"t","surfaceId":"u"}}"#;
    let want = vec![
        ResponsePart {
            text: Some("One. ".to_owned()),
            a2ui: Some(vec![began.to_owned()]),
        },
        ResponsePart {
            text: Some(" Two. ".to_owned()),
            a2ui: None,
        },
        ResponsePart {
            text: Some(" Three.".to_owned()),
            a2ui: None,
        },
    ];
    let mut trees = small_parser(limits);
    let err = trees
        .step_as::<Value>(&first)
        .expect_err("past the depth limit");
    assert_eq!(err.kind(), ErrorKind::Limit);
    let parts = trees
        .step_as::<Value>(&second)
        .expect("the next block is fine");
    assert_eq!(map_messages(parts, |m| m.to_string()), want);
    let mut texts = small_parser(limits);
    let err = texts
        .step_as::<String>(&first)
        .expect_err("past the depth limit");
    assert_eq!(err.kind(), ErrorKind::Limit);
    assert_eq!(texts.step_as::<String>(&second).expect("fine"), want);
}

#[test]
fn nesting_up_to_the_depth_limit_is_taken() {
    let limits = Limits {
        max_depth: 4,
        ..Limits::default()
    };
    // The message is level 1, `beginRendering` 2, `styles` 3, `x` 4.
    let fits = r#"<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"a","styles":{"x":{}}}}]</a2ui-json>"#;
    let errors = feed_all(&mut small_parser(limits), &[fits]).errors;
    assert!(
        errors.iter().all(|e| e.kind() != ErrorKind::Limit),
        "{errors:?}"
    );
    let deeper = fits.replace(r#"{"x":{}}"#, r#"{"x":{"y":[]}}"#);
    let errors = feed_all(&mut small_parser(limits), &[&deeper]).errors;
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].kind(), ErrorKind::Limit);
}

#[test]
fn a_block_longer_than_its_limit_is_read_past_and_later_blocks_still_come() {
    let limits = Limits {
        max_block_bytes: 200,
        ..Limits::default()
    };
    let long = format!(
        r#"One. <a2ui-json>[{{"beginRendering":{{"surfaceId":"s","root":"t"}}}},{{"surfaceUpdate":{{"surfaceId":"s","components":[{{"id":"t","component":{{"Text":{{"text":{{"literalString":"{}"}}}}}}}}]}}}}]</a2ui-json> Two. "#,
        "x".repeat(500)
    );
    let short =
        r#"<a2ui-json>[{"beginRendering":{"surfaceId":"u","root":"t"}}]</a2ui-json> Three."#;
    let text = long + short;
    let Fed {
        prose,
        messages,
        errors,
    } = feed_all(&mut small_parser(limits), &ascii_chunks(&text, 7));
    let began: Vec<&Value> = messages
        .iter()
        .filter_map(|m| m.pointer("/beginRendering/surfaceId"))
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].kind(), ErrorKind::Limit);
    assert!(errors[0].message().contains("longer than 200 bytes"));
    assert_eq!(prose, "One.  Two.  Three.");
    // The first block's beginRendering came before the limit; the second block's after it.
    assert_eq!(began, [&Value::from("s"), &Value::from("u")]);
}

/// A v0.8 response: a column (written first, or after its children) of components with
/// cut strings under cuttable keys, beside ids, paths and child references (missing while
/// their component is written, or there already).
fn growing_texts_response(texts: &[(u8, String)], column_last: bool) -> String {
    let ids: Vec<String> = (0..texts.len()).map(|i| format!("\"t{i}\"")).collect();
    let column = format!(
        r#"{{"id": "root", "component": {{"Column": {{"children": {{"explicitList": [{}]}}}}}}}}"#,
        ids.join(", ")
    );
    let mut comps = Vec::new();
    for (i, (kind, text)) in texts.iter().enumerate() {
        let next = (i + 1) % texts.len().max(1);
        comps.push(match kind % 5 {
            0 => format!(r#"{{"id": "t{i}", "component": {{"Text": {{"text": {{"literalString": "{text}"}}, "usageHint": "h2"}}}}}}"#),
            1 => format!(r#"{{"id": "t{i}", "component": {{"Button": {{"label": "{text}", "child": "t{next}x"}}}}}}"#),
            2 => format!(r#"{{"id": "t{i}", "component": {{"Text": {{"text": {{"path": "p{i}", "literalString": "{text}"}}}}}}}}"#),
            3 => format!(r#"{{"id": "t{i}", "component": {{"Image": {{"url": {{"valueString": "{text}"}}, "altText": "{text}"}}}}}}"#),
            // Its child, written just before it, is there when it is written.
            _ => format!(r#"{{"id": "t{i}c", "component": {{"Text": {{"text": "c"}}}}}}, {{"id": "t{i}", "component": {{"Card": {{"child": "t{i}c", "caption": "{text}", "text": "{text}"}}}}}}"#),
        });
    }
    if column_last {
        comps.push(column);
    } else {
        comps.insert(0, column);
    }
    format!(
        r#"Here: <a2ui-json>[{{"beginRendering": {{"surfaceId": "s", "root": "root"}}}}, {{"surfaceUpdate": {{"surfaceId": "s", "components": [{}]}}}}]</a2ui-json> Done."#,
        comps.join(", ")
    )
}

/// Cuts `text` at the given distances (taken in turn), moved forward to character
/// boundaries.
fn cut_at<'a>(text: &'a str, sizes: &[usize]) -> Vec<&'a str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut sizes = sizes.iter().cycle();
    while start < text.len() {
        let mut end = (start + sizes.next().copied().unwrap_or(1)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        pieces.extend(text.get(start..end));
        start = end;
    }
    pieces
}

proptest::proptest! {
    /// Growing a cut string or a list of children in place gives, step by step, what making
    /// a snapshot on every chunk gives, in both modes and both output forms.
    #[test]
    fn cut_strings_and_lists_grown_in_place_give_what_snapshots_give(
        texts in proptest::collection::vec(
            (0u8..5, r#"([a-z \u{e9}\u{4e16}]|\\n|\\u00e9|\\"|http://x){0,12}"#), 1..5),
        column_last in proptest::bool::ANY,
        sizes in proptest::collection::vec(1usize..9, 1..8),
    ) {
        let response = growing_texts_response(&texts, column_last);
        let pieces = cut_at(&response, &sizes);
        let catalog = Catalog::new(
            Version::V08,
            Value::Null,
            serde_json::json!({"components": {"Text": {}, "Column": {}, "Image": {}, "Button": {
                "properties": {"child": {"type": "string", "title": "ComponentId"}}},
                "Card": {"properties": {"child": {"type": "string", "title": "ComponentId"}}}}}),
            Value::Null,
        );
        let (mut grown, mut appended, mut formed) = (0, 0, 0);
        for mode in [Emission::Official, Emission::ChangedOnly] {
            let mut fast = ProgressiveParser::with_emission(&catalog, mode).expect("compiles");
            let mut slow = ProgressiveParser::with_emission(&catalog, mode).expect("compiles");
            slow.writing.in_place = false;
            for (i, piece) in pieces.iter().enumerate() {
                if i % 2 == 0 {
                    let (a, b) = (fast.step_as::<Value>(piece), slow.step_as::<Value>(piece));
                    proptest::prop_assert_eq!(format!("{a:?}"), format!("{b:?}"), "chunk {}", i);
                } else {
                    let (a, b) = (fast.step_as::<String>(piece), slow.step_as::<String>(piece));
                    proptest::prop_assert_eq!(format!("{a:?}"), format!("{b:?}"), "chunk {}", i);
                }
            }
            proptest::prop_assert_eq!(format!("{:?}", fast.finish_as::<Value>()), format!("{:?}", slow.finish_as::<Value>()));
            proptest::prop_assert_eq!(slow.writing.grown + slow.writing.appended, 0);
            grown += fast.writing.grown;
            appended += fast.writing.appended;
            formed += fast.surfaces.values().map(|s| s.appended_to_form()).sum::<usize>();
        }
        // A text of several letters, shown (its column came first) and cut into pieces of at
        // most three bytes, grows in place.
        let long = texts.iter().any(|(kind, t)| kind % 5 == 0 && t.chars().filter(|c| c.is_ascii_lowercase()).count() > 8);
        if long && !column_last && sizes.iter().all(|&s| s < 4) {
            proptest::prop_assert!(grown > 0);
        }
        // A column written first, its ids cut into pieces of at most three bytes, takes an
        // id after its first in place (one that does not come with the end of the list).
        if texts.len() >= 3 && !column_last && sizes.iter().all(|&s| s < 4) {
            proptest::prop_assert!(appended > 0);
            // Its children are all still to come: the placeholder of each is added to the
            // emitted form in place.
            proptest::prop_assert!(formed > 0);
        }
    }
}

#[test]
fn a_step_never_sends_two_components_with_one_id() {
    // The column shows a component named `loading_b` and `b`, whose placeholder would take
    // that same id while `b` is missing: until `b` arrives, no step sends the column.
    let catalog = Catalog::new(
        Version::V08,
        Value::Null,
        serde_json::json!({"components": {
            "Text": {"type": "object"}, "Column": {"type": "object"}, "Row": {"type": "object"}}}),
        Value::Null,
    );
    let text = r#"<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"col"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"loading_b","component":{"Text":{"text":{"literalString":"real"}}}},{"id":"col","component":{"Column":{"children":{"explicitList":["loading_b","b"]}}}},{"id":"b","component":{"Text":{"text":{"literalString":"late"}}}}]}}]</a2ui-json>"#;
    for mode in [Emission::Official, Emission::ChangedOnly] {
        for size in 1..=9 {
            let mut parser =
                ProgressiveParser::with_emission(&catalog, mode).expect("the catalog compiles");
            let fed = feed_all(&mut parser, &ascii_chunks(text, size));
            assert!(fed.errors.is_empty(), "{:?}", fed.errors);
            let mut last_column = None;
            for message in &fed.messages {
                let Some(list) = message
                    .pointer("/surfaceUpdate/components")
                    .and_then(Value::as_array)
                else {
                    continue;
                };
                let ids: Vec<&str> = list
                    .iter()
                    .filter_map(|c| c.get("id").and_then(Value::as_str))
                    .collect();
                let mut unique = ids.clone();
                unique.sort_unstable();
                unique.dedup();
                assert_eq!(
                    unique.len(),
                    ids.len(),
                    "{mode:?}, {size}-byte chunks: {ids:?}"
                );
                if let Some(col) = list.iter().find(|c| c["id"] == "col") {
                    last_column = Some(col["component"]["Column"]["children"].clone());
                }
            }
            assert_eq!(
                last_column,
                Some(serde_json::json!({"explicitList": ["loading_b", "b"]})),
                "{mode:?}, {size}-byte chunks"
            );
        }
    }
}

#[test]
fn a_parser_can_be_sent_and_shared_between_threads() {
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<ProgressiveParser>();
}

/// A v0.9 catalog with `catalogId` `id` and `components`, and no message schema.
fn v09_catalog(id: &str, components: Value) -> Catalog {
    Catalog::new(
        Version::V09,
        Value::Null,
        serde_json::json!({"catalogId": id, "components": components}),
        Value::Null,
    )
}

/// The components of every component update in `messages`, in order, each list as one value.
fn component_lists(messages: &[Value]) -> Vec<Value> {
    messages
        .iter()
        .filter_map(|m| m.pointer("/updateComponents/components").cloned())
        .collect()
}

const CREATE: &str = r#"<a2ui-json>[{"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic"}}, "#;

#[test]
fn a_component_waits_while_a_member_it_cannot_show_is_written() {
    let catalog = v09_catalog("basic", serde_json::json!({"Text": {"type": "object"}}));
    let mut parser = ProgressiveParser::new(&catalog).expect("compiles");
    feed_all(&mut parser, &[CREATE]);
    let steps = [
        r#"{"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": "Hi""#,
        r#", "value": "#,
        "-4",
        r#"2, "url": "https://"#,
        r#"x", "text2"#,
        r#"": "#,
        r#""a"}]}}]</a2ui-json>"#,
    ];
    let shown: Vec<Vec<Value>> = steps
        .iter()
        .map(|step| component_lists(&feed_all(&mut parser, &[step]).messages))
        .collect();
    let root = |extra: Value| {
        let mut comp = serde_json::json!({"id": "root", "component": "Text", "text": "Hi"});
        if let (Value::Object(comp), Value::Object(extra)) = (&mut comp, extra) {
            comp.extend(extra);
        }
        vec![Value::Array(vec![comp])]
    };
    assert_eq!(shown[0], root(serde_json::json!({})));
    // The number, then the link, then the key: each waits, and the component with it.
    for (i, step) in shown.iter().enumerate().take(6).skip(1) {
        assert!(step.is_empty(), "step {i}: {step:?}");
    }
    assert_eq!(
        shown[6],
        root(serde_json::json!({"value": -42, "url": "https://x", "text2": "a"}))
    );
}

#[test]
fn without_validation_every_component_passes_and_placeholders_need_their_type() {
    for (components, placeholders) in [
        (serde_json::json!({"Text": {"type": "object"}}), false),
        (
            serde_json::json!({"Text": {"type": "object"}, "Row": {"type": "object"}}),
            true,
        ),
    ] {
        let catalog = v09_catalog("basic", components);
        let mut parser = ProgressiveParser::new(&catalog)
            .expect("compiles")
            .without_validation();
        feed_all(&mut parser, &[CREATE]);
        let fed = feed_all(
            &mut parser,
            &[
                r#"{"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Stack", "children": ["a"]}"#,
            ],
        );
        let lists = component_lists(&fed.messages);
        if placeholders {
            assert_eq!(
                lists,
                [serde_json::json!([
                    {"id": "root", "component": "Stack", "children": ["loading_a"]},
                    {"id": "loading_a", "component": "Row", "children": []}])]
            );
        } else {
            assert!(lists.is_empty(), "{lists:?}");
        }
        let fed = feed_all(
            &mut parser,
            &[r#", {"id": "a", "component": "Gauge"}]}}]</a2ui-json>"#],
        );
        assert!(fed.errors.is_empty(), "{:?}", fed.errors);
        assert_eq!(
            component_lists(&fed.messages),
            [serde_json::json!([
                {"id": "a", "component": "Gauge"},
                {"id": "root", "component": "Stack", "children": ["a"]}])]
        );
    }
}

#[test]
fn with_several_catalogs_a_component_is_checked_against_the_one_it_or_its_surface_names() {
    let basic = v09_catalog(
        "basic",
        serde_json::json!({"Text": {"type": "object"}, "Column": {"type": "object"}}),
    );
    let custom = v09_catalog("custom", serde_json::json!({"Gauge": {"type": "object"}}));
    let update = |components: &str| {
        format!(
            r#"{{"version": "v0.9", "updateComponents": {{"surfaceId": "s", "components": [{components}]}}}}]</a2ui-json>"#
        )
    };
    // The Gauge names its catalog; the others are the surface's.
    let mut parser =
        ProgressiveParser::with_catalogs(&[basic.clone(), custom.clone()], Emission::Official)
            .expect("compiles");
    let fed = feed_all(
        &mut parser,
        &[
            CREATE,
            &update(
                r#"{"id": "root", "component": "Column", "children": ["g"]}, {"id": "g", "catalogId": "custom", "component": "Gauge"}"#,
            ),
        ],
    );
    assert!(fed.errors.is_empty(), "{:?}", fed.errors);
    assert_eq!(component_lists(&fed.messages).len(), 1);
    // Naming no catalog, a Gauge is the surface's, which has none: the update is rejected.
    let mut parser =
        ProgressiveParser::with_catalogs(&[basic.clone(), custom.clone()], Emission::Official)
            .expect("compiles");
    let fed = feed_all(
        &mut parser,
        &[CREATE, &update(r#"{"id": "root", "component": "Gauge"}"#)],
    );
    assert_eq!(fed.errors.len(), 1, "{:?}", fed.messages);
    assert!(fed.errors[0].message().contains("Unknown component: Gauge"));
    // A surface made with the custom catalog takes it.
    let mut parser =
        ProgressiveParser::with_catalogs(&[basic, custom], Emission::Official).expect("compiles");
    let fed = feed_all(
        &mut parser,
        &[
            &CREATE.replace("basic", "custom"),
            &update(r#"{"id": "root", "component": "Gauge"}"#),
        ],
    );
    assert!(fed.errors.is_empty(), "{:?}", fed.errors);
    // Catalogs of different protocol versions cannot be held together.
    let old = Catalog::new(
        Version::V08,
        Value::Null,
        serde_json::json!({"catalogId": "old"}),
        Value::Null,
    );
    let new = v09_catalog("new", serde_json::json!({}));
    assert!(ProgressiveParser::with_catalogs(&[new, old], Emission::Official).is_err());
    assert!(ProgressiveParser::with_catalogs(&[], Emission::Official).is_err());
}

#[test]
fn the_inline_components_of_a_create_surface_count_as_sent() {
    let catalog = Catalog::new(
        Version::V10,
        Value::Null,
        serde_json::json!({"catalogId": "basic", "components": {"Text": {"type": "object"}, "Column": {"type": "object"}}}),
        Value::Null,
    );
    for mode in [Emission::Official, Emission::ChangedOnly] {
        let mut parser = ProgressiveParser::with_emission(&catalog, mode).expect("compiles");
        let create = r#"<a2ui-json>[{"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "basic", "components": [{"id": "root", "component": "Column", "children": ["t"]}, {"id": "t", "component": "Text", "text": "Hi"}]}}, "#;
        let fed = feed_all(&mut parser, &[create]);
        assert!(fed.errors.is_empty(), "{:?}", fed.errors);
        assert_eq!(fed.messages.len(), 1, "{mode:?}: {:?}", fed.messages);
        assert!(fed.messages[0].get("createSurface").is_some());
        // A later update of one of them is sent, in v1.0's words.
        let fed = feed_all(
            &mut parser,
            &[
                r#"{"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [{"id": "t", "component": "Text", "text": "Bye"}]}}]</a2ui-json>"#,
            ],
        );
        assert!(fed.errors.is_empty(), "{:?}", fed.errors);
        let last = fed.messages.last().expect("an update");
        assert_eq!(last["version"], "v1.0");
        let texts: Vec<&Value> = last["updateComponents"]["components"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c.get("text"))
            .collect();
        assert_eq!(texts, [&Value::from("Bye")], "{mode:?}");
    }
}
