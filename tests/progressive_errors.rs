//! The progressive parser after an error: every error names its rule and the byte where it was
//! found, the parser goes on, and only what broke the rule is lost. Later messages of the same
//! block, later blocks and the prose between them still arrive, and so does what the chunk that
//! failed had completed before the error.
//!
//! Each case runs on the whole response as one chunk and on random cuts of it: the errors (their
//! rules and their offsets: where the faulty component begins, or where the message or block
//! that broke a rule ends), the prose and the screen at the end are the same for every cut.
#![cfg(feature = "legacy")]

use std::collections::BTreeMap;

use a2ui_stream::official::Emission;
use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::legacy::{
    ProgressiveError, ProgressiveErrorKind, ProgressiveParser, ResponsePart,
};
use proptest::prelude::*;
use serde_json::{Value, json};

mod support;

/// A v0.8 catalog: a `Text` whose `text` must be a string, a `Card` with one child, a `Column`
/// with a list of children, and the `Row` that placeholders are.
fn catalog() -> Catalog {
    Catalog::new(
        Version::V08,
        Value::Null,
        json!({"components": {
            "Text": {"type": "object", "properties": {"text": {"type": "string"}}},
            "Row": {"type": "object"},
            "Card": {"type": "object", "properties": {"child": {"type": "string", "title": "ComponentId"}}},
            "Column": {"type": "object", "properties": {"children": {"type": "object", "properties": {
                "explicitList": {"type": "array", "items": {"type": "string", "title": "ComponentId"}}}}}}
        }}),
        Value::Null,
    )
}

/// What a run of the parser gave: every error, the prose, and the components each surface
/// showed last (official mode sends every reachable component at each step).
#[derive(Debug, PartialEq)]
struct Run {
    errors: Vec<ProgressiveError>,
    prose: String,
    screen: BTreeMap<String, Value>,
}

/// Feeds `chunks` in `mode`, going on after every error, then ends the response.
fn run(chunks: &[&str], mode: Emission) -> Run {
    let mut parser = ProgressiveParser::new(&catalog()).expect("the catalog compiles");
    let mut out = Run {
        errors: Vec::new(),
        prose: String::new(),
        screen: BTreeMap::new(),
    };
    let take = |out: &mut Run, parts: Vec<ResponsePart>| {
        for part in parts {
            out.prose.push_str(part.text.as_deref().unwrap_or_default());
            for msg in part.a2ui.into_iter().flatten() {
                show(&mut out.screen, msg, mode);
            }
        }
    };
    let results: Vec<_> = chunks.iter().flat_map(|chunk| parser.feed(chunk)).collect();
    for result in results.into_iter().chain(parser.finish()) {
        match result {
            Ok(part) => take(&mut out, vec![part]),
            Err(e) => out.errors.push(e),
        }
    }
    // Nothing is left after the end.
    assert!(parser.finish().is_empty());
    out
}

/// Applies a message to the screen: official mode replaces a surface's components with each
/// update, changed-only mode merges them by id.
fn show(screen: &mut BTreeMap<String, Value>, msg: Value, mode: Emission) {
    let Some(update) = msg.get("surfaceUpdate") else {
        return;
    };
    let sid = update["surfaceId"].as_str().unwrap_or_default().to_owned();
    let shown = screen.entry(sid).or_insert_with(|| json!({}));
    if mode == Emission::Official {
        *shown = json!({});
    }
    for comp in update["components"].as_array().into_iter().flatten() {
        shown[comp["id"].as_str().unwrap_or_default()] = comp["component"].clone();
    }
}

/// The byte range of the first `needle` in `text`.
fn span(text: &str, needle: &str) -> std::ops::Range<u64> {
    let start = text.find(needle).expect("the needle is in the text");
    start as u64..(start + needle.len()) as u64
}

/// Where the first `needle` in `text` begins.
fn start(text: &str, needle: &str) -> u64 {
    span(text, needle).start
}

/// Where the first `needle` in `text` ends.
fn end(text: &str, needle: &str) -> u64 {
    span(text, needle).end
}

const BEGIN: &str = r#"{"beginRendering": {"surfaceId": "s", "root": "col"}}"#;

fn column(children: &str) -> String {
    format!(
        r#"{{"id": "col", "component": {{"Column": {{"children": {{"explicitList": [{children}]}}}}}}}}"#
    )
}

fn text(id: &str, words: &str) -> String {
    format!(r#"{{"id": "{id}", "component": {{"Text": {{"text": "{words}"}}}}}}"#)
}

fn card(id: &str, child: &str) -> String {
    format!(r#"{{"id": "{id}", "component": {{"Card": {{"child": "{child}"}}}}}}"#)
}

fn update(components: &[String]) -> String {
    format!(
        r#"{{"surfaceUpdate": {{"surfaceId": "s", "components": [{}]}}}}"#,
        components.join(", ")
    )
}

/// One faulty response: its text, the rule of each error it must give (kind and the start of
/// the message) and its offset, and what the screen of surface `s` must show at the end.
struct Case {
    name: &'static str,
    text: String,
    errors: Vec<(ProgressiveErrorKind, &'static str, u64)>,
    shows: Value,
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();

    // A component that refers to itself, then more components in the same message.
    let bad = update(&[
        column(r#""a", "b""#),
        card("a", "a"),
        text("b", "after the fault"),
    ]);
    let body = format!("Look: <a2ui-json>[{BEGIN}, {bad}]</a2ui-json> Done.");
    cases.push(Case {
        name: "self-reference",
        errors: vec![(
            ProgressiveErrorKind::Topology,
            "Self-reference detected: Component 'a' references itself in field 'child'",
            start(&body, &card("a", "a")),
        )],
        shows: json!({
            "col": {"Column": {"children": {"explicitList": ["loading_a", "b"]}}},
            "loading_a": {"Row": {"children": {"explicitList": []}}},
            "b": {"Text": {"text": "after the fault"}},
        }),
        text: body,
    });

    // Two components that show each other: the one that closes the cycle is set aside (the
    // error, worded as the reference words it, names where the walk from the root came back
    // to), and the next message's components still arrive.
    let bad = update(&[column(r#""a""#), card("a", "b"), card("b", "a")]);
    let good = update(&[column(r#""b", "c""#), text("c", "next message")]);
    let body = format!("<a2ui-json>[{BEGIN}, {bad}, {good}]</a2ui-json>");
    cases.push(Case {
        name: "cycle",
        errors: vec![(
            ProgressiveErrorKind::Topology,
            "Circular reference detected involving component 'a'",
            start(&body, &card("b", "a")),
        )],
        shows: json!({
            "col": {"Column": {"children": {"explicitList": ["loading_b", "c"]}}},
            "loading_b": {"Row": {"children": {"explicitList": []}}},
            "c": {"Text": {"text": "next message"}},
        }),
        text: body,
    });

    // A block that holds no JSON object, then prose and a good block.
    let good = format!(
        "[{BEGIN}, {}]",
        update(&[column(r#""t""#), text("t", "hi")])
    );
    let body =
        format!("One <a2ui-json>not json</a2ui-json> two <a2ui-json>{good}</a2ui-json> three");
    cases.push(Case {
        name: "no JSON object",
        errors: vec![(
            ProgressiveErrorKind::Json,
            "Failed to parse JSON: No valid JSON object",
            end(&body, "not json"),
        )],
        shows: json!({
            "col": {"Column": {"children": {"explicitList": ["t"]}}},
            "t": {"Text": {"text": "hi"}},
        }),
        text: body,
    });

    // A component update without the root, then one with it.
    let rootless = update(&[text("x", "no root yet")]);
    let rooted = update(&[column(r#""x""#)]);
    let body = format!("<a2ui-json>[{BEGIN}, {rootless}, {rooted}]</a2ui-json>");
    cases.push(Case {
        name: "missing root",
        errors: vec![(
            ProgressiveErrorKind::Topology,
            "No root component (id='col') found in surfaceUpdate",
            end(&body, &rootless),
        )],
        shows: json!({
            "col": {"Column": {"children": {"explicitList": ["x"]}}},
            "x": {"Text": {"text": "no root yet"}},
        }),
        text: body,
    });

    // A message the catalog rejects (two components with one id); the next one mends it.
    let bad = update(&[column(r#""t""#), text("t", "first"), text("t", "second")]);
    let good = update(&[text("t", "mended")]);
    let body = format!("<a2ui-json>[{BEGIN}, {bad}, {good}]</a2ui-json>");
    cases.push(Case {
        name: "rejected message",
        errors: vec![(
            ProgressiveErrorKind::Validation,
            "Duplicate component ID: t",
            end(&body, &bad),
        )],
        shows: json!({
            "col": {"Column": {"children": {"explicitList": ["t"]}}},
            "t": {"Text": {"text": "mended"}},
        }),
        text: body,
    });

    // A chain of cards one deeper than the limit: its last card (the one that refers past the
    // limit) is set aside, and the card before it shows its placeholder.
    // The validator's nesting limit (`MAX_GLOBAL_DEPTH` of the reference implementation).
    let depth = 50;
    let mut chain = vec![column(r#""c0""#)];
    chain.extend((0..=depth).map(|i| card(&format!("c{i}"), &format!("c{}", i + 1))));
    let body = format!("<a2ui-json>[{BEGIN}, {}]</a2ui-json>", update(&chain));
    let last = depth - 1;
    let mut shows = json!({
        "col": {"Column": {"children": {"explicitList": ["c0"]}}},
        format!("loading_c{last}"): {"Row": {"children": {"explicitList": []}}},
    });
    for i in 0..last {
        let child = if i + 1 == last {
            format!("loading_c{last}")
        } else {
            format!("c{}", i + 1)
        };
        shows[format!("c{i}")] = json!({"Card": {"child": child}});
    }
    cases.push(Case {
        name: "chain too deep",
        errors: vec![(
            ProgressiveErrorKind::Topology,
            "Global recursion limit exceeded: logical depth > 50",
            start(&body, &card(&format!("c{last}"), &format!("c{depth}"))),
        )],
        shows,
        text: body,
    });
    cases
}

/// Checks one run of `case` in `mode` against what the case expects. A changed-only renderer
/// also keeps what it was sent while the faulty message was being written (placeholders, say),
/// so there every component the case expects must be shown as expected.
fn check(case: &Case, got: &Run, mode: Emission, how: &str) {
    let rules: Vec<_> = got.errors.iter().map(|e| (e.kind(), e.message())).collect();
    assert_eq!(
        got.errors.len(),
        case.errors.len(),
        "{} ({how}): errors {rules:?}",
        case.name
    );
    for (e, (kind, start, offset)) in got.errors.iter().zip(&case.errors) {
        assert_eq!(e.kind(), *kind, "{} ({how}): {e}", case.name);
        assert!(e.message().starts_with(start), "{} ({how}): {e}", case.name);
        assert_eq!(e.offset(), Some(*offset), "{} ({how}): {e}", case.name);
        assert!(e.to_string().starts_with(&format!("at byte {offset}: ")));
    }
    let screen = got.screen.get("s").cloned().unwrap_or_default();
    match mode {
        Emission::Official => assert_eq!(screen, case.shows, "{} ({how}): the screen", case.name),
        Emission::ChangedOnly => {
            for (id, shown) in case.shows.as_object().into_iter().flatten() {
                assert_eq!(
                    &screen[id], shown,
                    "{} ({how}): {id} in {screen}",
                    case.name
                );
            }
        }
    }
}

#[test]
fn each_fault_costs_only_what_broke_the_rule() {
    for case in cases() {
        for mode in [Emission::Official, Emission::ChangedOnly] {
            let whole = run(&[&case.text], mode);
            check(&case, &whole, mode, &format!("{mode:?}, one chunk"));
            let bytes: Vec<&str> = case.text.split_inclusive(|_| true).collect();
            let by_byte = run(&bytes, mode);
            check(
                &case,
                &by_byte,
                mode,
                &format!("{mode:?}, one character a chunk"),
            );
            assert_eq!(by_byte.prose, whole.prose, "{}: prose", case.name);
            assert_eq!(by_byte.errors, whole.errors, "{}: errors", case.name);
        }
    }
}

#[test]
fn the_prose_around_a_faulty_block_arrives() {
    let case = &cases()[2];
    let got = run(&[&case.text], Emission::Official);
    assert_eq!(got.prose, "One  two  three");
}

#[test]
fn what_a_chunk_completed_around_an_error_comes_in_the_same_call() {
    let mut parser = ProgressiveParser::new(&catalog()).expect("the catalog compiles");
    let chunk = "Before. <a2ui-json>[]</a2ui-json> After.";
    let out = parser.feed(chunk);
    let err = out.iter().find_map(|r| r.as_ref().err()).expect("an error");
    assert_eq!(err.kind(), ProgressiveErrorKind::Json);
    assert_eq!(err.offset(), Some(span(chunk, "[]").end));
    let prose: Vec<_> = out
        .iter()
        .filter_map(|r| r.as_ref().ok()?.text.as_deref())
        .collect();
    assert_eq!(prose, ["Before. ", " After."]);
}

#[test]
fn finishing_hands_out_a_held_tag_start_as_prose_but_not_the_tail_of_an_open_block() {
    // Prose ending in what could have begun a tag: it was prose after all.
    let mut parser = ProgressiveParser::new(&catalog()).expect("the catalog compiles");
    let parts = parser
        .feed("See <a2ui-j")
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .expect("prose");
    assert_eq!(parts[0].text.as_deref(), Some("See "));
    let parts: Vec<_> = parser
        .finish()
        .into_iter()
        .collect::<Result<_, _>>()
        .expect("no error");
    let prose: Vec<_> = parts.iter().filter_map(|p| p.text.as_deref()).collect();
    assert_eq!(prose, ["<a2ui-j"]);

    // A block cut off (a model stopped mid-block): what it showed stays, nothing more comes,
    // and what could have begun its closing tag is not prose.
    let mut parser = ProgressiveParser::new(&catalog()).expect("the catalog compiles");
    let whole = update(&[text("r", "Hi")]);
    let cut = format!(
        r#"<a2ui-json>[{{"beginRendering": {{"surfaceId": "s", "root": "r"}}}}, {}</a2ui"#,
        &whole[..whole.find("Hi").expect("the text") + 1]
    );
    let shown = run(&[&cut], Emission::Official);
    assert!(shown.errors.is_empty(), "{:?}", shown.errors);
    assert_eq!(shown.prose, "");
    assert_eq!(shown.screen["s"]["r"]["Text"]["text"], "H");
    parser
        .feed(&cut)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .expect("a block being written");
    assert!(parser.finish().is_empty());
}

#[test]
fn offsets_count_every_chunk_fed() {
    let mut parser = ProgressiveParser::new(&catalog()).expect("the catalog compiles");
    for _ in 0..3 {
        parser
            .feed("0123456789")
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .expect("prose");
    }
    let err = parser
        .feed("<a2ui-json>{</a2ui-json>")
        .into_iter()
        .find_map(Result::err)
        .unwrap();
    assert_eq!(err.offset(), Some(30 + "<a2ui-json>{".len() as u64));
    let err = parser
        .feed("ab<a2ui-json></a2ui-json>")
        .into_iter()
        .find_map(Result::err)
        .unwrap();
    assert_eq!(err.offset(), Some(30 + 24 + "ab<a2ui-json>".len() as u64));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_cut_gives_the_same_errors_prose_and_screen(
        which in 0..6usize,
        cuts in proptest::collection::vec(0.0..1.0f64, 0..40),
        official in any::<bool>(),
    ) {
        let case = &cases()[which];
        let mode = if official { Emission::Official } else { Emission::ChangedOnly };
        let whole = run(&[&case.text], mode);
        let pieces = support::cut(&case.text, &cuts);
        let got = run(&pieces, mode);
        check(case, &got, mode, &format!("{mode:?}, cut into {pieces:?}"));
        prop_assert_eq!(got.prose, whole.prose);
        prop_assert_eq!(got.errors, whole.errors);
    }
}

/// A column `id` showing `children`.
fn node(id: &str, children: &[&str]) -> String {
    let list: Vec<String> = children.iter().map(|c| format!("\"{c}\"")).collect();
    format!(
        r#"{{"id": "{id}", "component": {{"Column": {{"children": {{"explicitList": [{}]}}}}}}}}"#,
        list.join(", ")
    )
}

/// Six columns, each showing up to three of them (itself included), in any order, sent in two
/// component updates split anywhere: any mix of self-references, cycles and missing roots,
/// several in one message.
fn tangle() -> impl Strategy<Value = String> {
    const IDS: [&str; 6] = ["col", "a", "b", "c", "d", "e"];
    let kids = proptest::collection::vec(proptest::sample::select(&IDS[..]), 0..3);
    (
        proptest::collection::vec(kids, IDS.len()),
        Just((0..IDS.len()).collect::<Vec<_>>()).prop_shuffle(),
        0..=IDS.len(),
    )
        .prop_map(|(kids, order, split)| {
            let comps: Vec<String> = order.iter().map(|&i| node(IDS[i], &kids[i])).collect();
            let (first, second) = comps.split_at(split);
            format!(
                "Here: <a2ui-json>[{BEGIN}, {}, {}]</a2ui-json> Done.",
                update(first),
                update(second)
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// However the response is cut, the same faults are reported (rule, words and offset), in
    /// the same order: each check finds the fault that was written first, as a check after
    /// every reference would. The screen is the same too, unless the faults leave nothing to
    /// show (the root set aside): then a renderer fed in pieces still shows what it was sent
    /// before the fault was written, which the protocol has no message to take back.
    #[test]
    fn tangled_components_give_the_same_errors_for_any_cut(
        text in tangle(),
        cuts in proptest::collection::vec(0.0..1.0f64, 0..40),
        official in any::<bool>(),
    ) {
        let mode = if official { Emission::Official } else { Emission::ChangedOnly };
        let whole = run(&[&text], mode);
        let bytes: Vec<&str> = text.split_inclusive(|_| true).collect();
        for got in [run(&support::cut(&text, &cuts), mode), run(&bytes, mode)] {
            prop_assert_eq!(&got.errors, &whole.errors);
            prop_assert_eq!(&got.prose, &whole.prose);
            let shown = whole.screen.get("s").and_then(Value::as_object);
            if mode == Emission::Official && shown.is_some_and(|s| !s.is_empty()) {
                prop_assert_eq!(&got.screen, &whole.screen);
            }
        }
    }
}
