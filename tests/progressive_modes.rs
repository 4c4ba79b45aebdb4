//! The two emission modes of the progressive parser tell a renderer the same thing: after every
//! chunk, a renderer that merges components by id and data by key (at the path a message names)
//! holds the same surfaces and data whether it was fed the official stream (every reachable
//! component, every data entry, again and again) or the changed-only stream.
//!
//! However a response is cut into chunks, it ends, in either mode, with the prose, the
//! components drawn from each surface's root and the data of the response fed in one chunk, but
//! for two of the reference's rules (see [`ends_alike`] and [`PARTIAL_STAYS`]).
//!
//! In either mode, the JSON text form (`ProgressiveParser::json`) hands out, after every chunk,
//! the prose of the tree form and for each message exactly the text `serde_json` writes for its
//! tree, on fixed chunk sizes and on random cuts, and still does when both parsers are handed
//! back their parts after every step (`recycle`).
//!
//! In official mode, a v0.8 data-model update being written is sent the same whether its entries
//! are checked one by one as they finish or the update is checked whole on every step (forced by a
//! schema keyword that accepts every list), on the examples and on an update with a rejected entry.
//!
//! Inputs: the restaurant-finder examples in several chunk sizes, and every input sequence of
//! the official streaming suite, from `../shared/a2ui` (or `$A2UI_SHARED/a2ui`); without it the
//! test prints one line and returns.
#![cfg(feature = "legacy")]

use std::collections::BTreeMap;

use std::sync::{Arc, Once};

use a2ui_stream::official::Emission;
use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::legacy::{ProgressiveError, ProgressiveParser, ResponsePart};
use a2ui_stream::official::validator::Validator;
use proptest::prelude::*;
use serde_json::{Map, Value};

mod support;

use support::chunks::chunks;
use support::progressive::{
    MODES, SdkSteps, restaurant_responses, shared, streaming_suite, written,
};

/// What a renderer holds: components by surface and id, data by surface, and each surface's
/// root (the id a UI is drawn from).
#[derive(Debug, Default, PartialEq)]
struct Screen {
    components: BTreeMap<String, BTreeMap<String, Value>>,
    data: BTreeMap<String, Value>,
    roots: BTreeMap<String, String>,
}

/// A v0.8 entry list as a map (value maps nested).
fn entries(list: &[Value]) -> Map<String, Value> {
    let mut out = Map::new();
    for entry in list {
        let Some(key) = entry.get("key").and_then(Value::as_str) else {
            continue;
        };
        let value = ["value", "valueString", "valueNumber", "valueBoolean"]
            .iter()
            .find_map(|f| entry.get(*f).cloned())
            .or_else(|| match entry.get("valueMap") {
                Some(Value::Array(inner)) => Some(Value::Object(entries(inner))),
                _ => None,
            });
        if let Some(value) = value {
            out.insert(key.to_owned(), value);
        }
    }
    out
}

/// The slot at JSON pointer `path` under `root`, made on the way.
fn slot<'a>(root: &'a mut Value, path: &str) -> &'a mut Value {
    let mut node = root;
    for raw in path.split('/').filter(|s| !s.is_empty()) {
        let seg = raw.replace("~1", "/").replace("~0", "~");
        node = match (node.is_array(), seg.parse::<usize>()) {
            (true, Ok(i)) => {
                let items = node.as_array_mut().unwrap();
                if items.len() <= i {
                    items.resize(i + 1, Value::Null);
                }
                &mut items[i]
            }
            _ => {
                if !node.is_object() {
                    *node = Value::Object(Map::new());
                }
                node.as_object_mut()
                    .unwrap()
                    .entry(seg)
                    .or_insert(Value::Null)
            }
        };
    }
    node
}

fn merge(target: &mut Value, members: Map<String, Value>) {
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let map = target.as_object_mut().unwrap();
    for (k, v) in members {
        map.insert(k, v);
    }
}

impl Screen {
    /// What is drawn: per surface, the components reachable from its root through the
    /// references `catalog` reads (placeholders a step showed for children that had not arrived
    /// yet are no longer reachable once they have).
    fn drawn(&self, catalog: &Catalog) -> BTreeMap<&str, BTreeMap<&str, &Value>> {
        let mut out = BTreeMap::new();
        for (sid, comps) in &self.components {
            let mut seen: BTreeMap<&str, &Value> = BTreeMap::new();
            let mut todo: Vec<&str> = self
                .roots
                .get(sid)
                .map(String::as_str)
                .into_iter()
                .collect();
            while let Some(id) = todo.pop() {
                let Some((id, comp)) = comps.get_key_value(id) else {
                    continue;
                };
                if seen.insert(id, comp).is_none() {
                    todo.extend(catalog.references(comp).iter().map(|r| r.id));
                }
            }
            out.insert(sid.as_str(), seen);
        }
        out
    }

    fn apply(&mut self, msg: &Value) {
        let (kind, body) = msg
            .as_object()
            .unwrap()
            .iter()
            .find(|(k, _)| *k != "version")
            .unwrap();
        let sid = body
            .get("surfaceId")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        match kind.as_str() {
            "beginRendering" | "createSurface" => {
                // v0.9 draws from the component named `root`.
                let root = body.get("root").and_then(Value::as_str).unwrap_or("root");
                self.roots.insert(sid.clone(), root.to_owned());
                self.components.entry(sid).or_default();
            }
            "surfaceUpdate" | "updateComponents" => {
                let comps = self.components.entry(sid).or_default();
                for c in body["components"].as_array().unwrap() {
                    comps.insert(c["id"].as_str().unwrap().to_owned(), c.clone());
                }
            }
            "dataModelUpdate" => {
                let contents = entries(body["contents"].as_array().unwrap());
                if contents.is_empty() {
                    return;
                }
                let root = self.data.entry(sid).or_insert(Value::Null);
                let path = body.get("path").and_then(Value::as_str).unwrap_or("/");
                merge(slot(root, path), contents);
            }
            "updateDataModel" => {
                let root = self.data.entry(sid).or_insert(Value::Null);
                match (body.get("path").and_then(Value::as_str), body.get("value")) {
                    (Some(path), Some(value)) => *slot(root, path) = value.clone(),
                    (None, Some(Value::Object(members))) => merge(root, members.clone()),
                    _ => {}
                }
            }
            "deleteSurface" => {
                self.components.remove(&sid);
                self.data.remove(&sid);
                self.roots.remove(&sid);
            }
            other => panic!("unexpected message {other}"),
        }
    }
}

/// Feeds `pieces` to both modes in step; after every piece both screens must agree. Returns the
/// bytes of messages each mode sent, or `None` when the input is an error case.
fn compare(validator: &Arc<Validator>, pieces: &[&str], label: &str) -> Option<(usize, usize)> {
    let mut official = ProgressiveParser::with_validator(Arc::clone(validator), Emission::Official);
    let mut changed =
        ProgressiveParser::with_validator(Arc::clone(validator), Emission::ChangedOnly);
    let (mut a, mut b) = (Screen::default(), Screen::default());
    let (mut bytes_a, mut bytes_b) = (0, 0);
    for (i, piece) in pieces.iter().enumerate() {
        let step = |out: Vec<Result<ResponsePart, ProgressiveError>>| {
            out.into_iter().collect::<Result<Vec<_>, _>>()
        };
        let (Ok(parts_a), Ok(parts_b)) = (step(official.feed(piece)), step(changed.feed(piece)))
        else {
            return None;
        };
        let texts = |parts: &[ResponsePart]| {
            parts
                .iter()
                .filter_map(|p| p.text.clone())
                .collect::<String>()
        };
        assert_eq!(
            texts(&parts_a),
            texts(&parts_b),
            "{label}: prose differs at step {i}"
        );
        for msg in parts_a.iter().filter_map(|p| p.a2ui.as_ref()).flatten() {
            bytes_a += msg.to_string().len();
            a.apply(msg);
        }
        for msg in parts_b.iter().filter_map(|p| p.a2ui.as_ref()).flatten() {
            bytes_b += msg.to_string().len();
            b.apply(msg);
        }
        assert_eq!(
            a.components, b.components,
            "{label}: components differ after step {i} ({piece:?})"
        );
        assert_eq!(
            a.data, b.data,
            "{label}: data differs after step {i} ({piece:?})"
        );
    }
    Some((bytes_a, bytes_b))
}

/// Feeds `pieces` to a parser handing out trees and one handing out text, in `mode`: after every
/// piece both return the same prose and the same messages (the text form's being exactly what
/// `serde_json` writes for the tree form's), and the same errors in the same places. With
/// `recycled`, both are handed back their parts after every step. Returns the messages
/// compared (up to the first error).
fn same_as_text(
    validator: &Arc<Validator>,
    mode: Emission,
    pieces: &[&str],
    label: &str,
    recycled: bool,
) -> usize {
    let mut trees = ProgressiveParser::with_validator(Arc::clone(validator), mode);
    let mut texts = ProgressiveParser::with_validator(Arc::clone(validator), mode).json();
    let mut compared = 0;
    let mut failed = false;
    for (i, piece) in pieces.iter().enumerate() {
        let made = trees.feed(piece);
        let sent = texts.feed(piece);
        let want: Vec<Result<ResponsePart<String>, ProgressiveError>> = made
            .iter()
            .map(|r| r.as_ref().map(written).map_err(Clone::clone))
            .collect();
        assert_eq!(
            want, sent,
            "{label} ({mode:?}, recycled: {recycled}): step {i}"
        );
        failed |= want.iter().any(Result::is_err);
        if !failed {
            compared += want
                .iter()
                .flatten()
                .filter_map(|p| p.a2ui.as_ref())
                .map(Vec::len)
                .sum::<usize>();
        }
        if recycled {
            trees.recycle(made);
            texts.recycle(sent);
        }
    }
    compared
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn both_modes_show_the_same_on_the_restaurant_examples() {
    let Some(shared) = shared() else {
        support::say("skipping mode comparison: ../shared/a2ui not found");
        return;
    };
    for (name, validator, text) in restaurant_responses(&shared) {
        for size in [1, 4, 7, 64, text.len()] {
            let label = format!("{name} in {size} B chunks");
            let pieces = chunks(&text, size);
            let (official, changed) = compare(&validator, &pieces, &label).expect("example parses");
            assert!(official > 0, "{label}: nothing sent");
            assert!(
                changed <= official,
                "{label}: changed-only sent more ({changed} > {official})"
            );
            for mode in MODES {
                for recycled in [false, true] {
                    assert!(same_as_text(&validator, mode, &pieces, &label, recycled) > 0);
                }
            }
        }
    }
}

/// What a renderer shows once every piece is fed in `mode`: the prose, and the screen its
/// messages built; `None` when a piece gives an error.
fn finished(
    validator: &Arc<Validator>,
    mode: Emission,
    pieces: &[&str],
) -> Option<(String, Screen)> {
    let mut parser = ProgressiveParser::with_validator(Arc::clone(validator), mode);
    let mut prose = String::new();
    let mut screen = Screen::default();
    for piece in pieces {
        for part in parser
            .feed(piece)
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .ok()?
        {
            prose.push_str(part.text.as_deref().unwrap_or_default());
            for msg in part.a2ui.iter().flatten() {
                screen.apply(msg);
            }
        }
    }
    Some((prose, screen))
}

/// Whether `v` is a value the official parser does not count as new data in a finished v0.8
/// update: an empty string, zero, `false` or `null` (the reference picks an entry's value with
/// Python's `or`).
fn falsy(v: &Value) -> bool {
    match v {
        Value::String(s) => s.is_empty(),
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::Bool(b) => !b,
        Value::Null => true,
        _ => false,
    }
}

/// `whole` without the members `streamed` lacks whose value is [`falsy`], at any depth.
fn without_falsy_missing(whole: &Value, streamed: &Value) -> Value {
    match (whole, streamed) {
        (Value::Object(w), Value::Object(s)) => Value::Object(
            w.iter()
                .filter(|(k, v)| s.contains_key(*k) || !falsy(v))
                .map(|(k, v)| {
                    let inner = s
                        .get(k)
                        .map_or(v.clone(), |sv| without_falsy_missing(v, sv));
                    (k.clone(), inner)
                })
                .collect(),
        ),
        _ => whole.clone(),
    }
}

/// Asserts that `cut`, what a run on pieces ended with, is what `whole`, the run on the same
/// text in one piece, ended with: the same prose, the same components drawn from each
/// surface's root and the same data, except that the cut run may lack data entries whose value
/// is [`falsy`]. That is the reference's rule: a v0.8 entry with such a value is sent only with
/// other entries, so when it is the last one written and its update finishes in the chunk that
/// finishes it, no step sends it, while the update fed whole is sent whole.
fn ends_alike(catalog: &Catalog, cut: &(String, Screen), whole: &(String, Screen), label: &str) {
    let ((prose, screen), (whole_prose, whole_screen)) = (cut, whole);
    assert_eq!(prose, whole_prose, "{label}: prose");
    assert_eq!(
        screen.drawn(catalog),
        whole_screen.drawn(catalog),
        "{label}: components drawn"
    );
    let whole_data: BTreeMap<String, Value> = whole_screen
        .data
        .iter()
        .map(|(sid, data)| {
            let streamed = screen.data.get(sid).unwrap_or(&Value::Null);
            (sid.clone(), without_falsy_missing(data, streamed))
        })
        .collect();
    assert_eq!(screen.data, whole_data, "{label}: data");
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn drawn_from_the_root_the_restaurant_examples_end_the_same_in_any_chunk_size() {
    let Some(shared) = shared() else {
        support::say("skipping chunking comparison: ../shared/a2ui not found");
        return;
    };
    for (name, validator, text) in restaurant_responses(&shared) {
        let catalog = validator.catalog();
        for mode in MODES {
            let whole = finished(&validator, mode, &[text.as_str()]).expect("example parses");
            // The screen is not empty: the comparison compares something.
            assert!(
                whole.1.drawn(catalog).values().any(|drawn| drawn.len() > 1),
                "{name} ({mode:?}): nothing drawn"
            );
            for size in [1, 2, 3, 4, 5, 8, 13, 64] {
                let cut = finished(&validator, mode, &chunks(&text, size)).expect("example parses");
                ends_alike(
                    catalog,
                    &cut,
                    &whole,
                    &format!("{name} ({mode:?}) in {size} B chunks"),
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[cfg_attr(not(a2ui_shared), ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED")]
    /// Any cuts of a response, in either mode: the text form matches the tree form after every
    /// piece, and the run ends with what the response fed whole ends with.
    #[test]
    fn any_cuts_give_the_same_text_and_end_the_same(
        which in 0usize..8,
        cuts in prop::collection::vec(0.0f64..1.0, 0..600),
        official in any::<bool>(),
    ) {
        let Some(shared) = shared() else {
            static SAID: Once = Once::new();
            support::say_once(&SAID, "skipping comparison on random cuts: ../shared/a2ui not found");
            return Ok(());
        };
        let responses = restaurant_responses(&shared);
        let (name, validator, text) = &responses[which % responses.len()];
        let mode = if official { Emission::Official } else { Emission::ChangedOnly };
        let pieces = support::cut(text, &cuts);
        prop_assert!(same_as_text(validator, mode, &pieces, name, false) > 0);
        let cut = finished(validator, mode, &pieces).expect("example parses");
        let whole = finished(validator, mode, &[text.as_str()]).expect("example parses");
        let label = format!("{name} ({mode:?}, {} pieces)", pieces.len());
        ends_alike(validator.catalog(), &cut, &whole, &label);
    }
}

/// Streaming-suite cases whose end, fed byte by byte, differs from their end fed whole, by the
/// reference's rules that these cases check: an early form of a component (shown before its
/// children were written) stays on the renderer when every later form is held back (one
/// holding an empty object such as `"children": {}` is skipped; a step whose placeholders the
/// catalog rejects is not sent), while the input fed whole never shows that early form.
const PARTIAL_STAYS: [&str; 3] = [
    "test_partial_children_lists_v09",
    "test_sniff_partial_component_discards_empty_children_dict",
    "test_sniff_partial_component_discards_empty_children_dict_v09",
];

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
/// Each case's inputs, fed in the case's steps: both modes show the same after every step and
/// the text form matches the tree form; and they end the same fed in those steps, fed byte by
/// byte (but for [`PARTIAL_STAYS`]) and fed whole.
#[test]
fn the_streaming_suite_inputs_show_the_same_in_both_modes_and_end_the_same_on_any_cuts() {
    let Some(shared) = shared() else {
        support::say("skipping comparisons on the suite's inputs: ../shared/a2ui not found");
        return;
    };
    let (mut both_modes, mut compared) = (0, 0);
    for (name, validator, inputs) in &streaming_suite(&shared) {
        let (name, inputs) = (
            name.as_str(),
            inputs.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        if compare(validator, &inputs, name).is_some() {
            both_modes += 1;
        }
        let text = inputs.concat();
        let bytes = chunks(&text, 1);
        let catalog = validator.catalog();
        for mode in MODES {
            same_as_text(validator, mode, &inputs, name, false);
            // Only inputs that run without an error are compared; fed byte by byte, they must
            // still run without one.
            let (Some(whole), Some(in_steps)) = (
                finished(validator, mode, &[text.as_str()]),
                finished(validator, mode, &inputs),
            ) else {
                continue;
            };
            let in_bytes = finished(validator, mode, &bytes)
                .unwrap_or_else(|| panic!("{name} ({mode:?}): an error byte by byte"));
            compared += 1;
            ends_alike(
                catalog,
                &in_steps,
                &whole,
                &format!("{name} ({mode:?}) in its steps"),
            );
            if PARTIAL_STAYS.contains(&name) {
                // Still so: the byte-by-byte run draws something else.
                assert_ne!(
                    in_bytes.1.drawn(catalog),
                    whole.1.drawn(catalog),
                    "{name}: drawn the same now"
                );
                continue;
            }
            ends_alike(
                catalog,
                &in_bytes,
                &whole,
                &format!("{name} ({mode:?}) byte by byte"),
            );
        }
    }
    assert!(
        both_modes >= 60,
        "only {both_modes} cases ran without an error"
    );
    assert!(
        compared >= 100,
        "only {compared} runs were without an error"
    );
}

/// The catalog of `validator` with the keyword `name: value` added to the message schema's
/// object at `pointer`.
fn with_keyword(validator: &Validator, pointer: &str, name: &str, value: Value) -> Arc<Validator> {
    let catalog = validator.catalog();
    let mut s2c = catalog.s2c_schema().clone();
    if let Some(Value::Object(schema)) = s2c.pointer_mut(pointer) {
        schema.insert(name.into(), value);
    }
    let changed = Catalog::new(
        catalog.version(),
        s2c,
        catalog.catalog_schema().clone(),
        catalog.common_types_schema().clone(),
    );
    Arc::new(Validator::new(&changed).unwrap())
}

const CONTENTS: &str = "/properties/dataModelUpdate/properties/contents";

/// The v0.8 catalog of `validator` with its data-model `contents` list given a keyword that
/// accepts every list (`minItems: 0`), so that updates are checked whole instead of entry by
/// entry.
fn checked_whole(validator: &Validator) -> Arc<Validator> {
    with_keyword(validator, CONTENTS, "minItems", Value::from(0))
}

/// The v0.8 catalog of `validator` with the `valueString` of a data-model entry limited to
/// `limit` characters (so that the catalog tells texts apart), and with `whole`, updates checked
/// whole as in [`checked_whole`].
fn texts_limited(validator: &Validator, limit: u64, whole: bool) -> Arc<Validator> {
    let text = format!("{CONTENTS}/items/properties/valueString");
    let limited = with_keyword(validator, &text, "maxLength", Value::from(limit));
    if whole {
        checked_whole(&limited)
    } else {
        limited
    }
}

/// What every step of a response returns (parts or error), in both forms, official mode.
type Steps = Vec<(
    Result<Vec<ResponsePart>, ProgressiveError>,
    Result<Vec<ResponsePart<String>>, ProgressiveError>,
)>;

fn official_steps(validator: &Arc<Validator>, pieces: &[&str]) -> Steps {
    let parser = || ProgressiveParser::with_validator(Arc::clone(validator), Emission::Official);
    let mut trees = SdkSteps::new(parser());
    let mut texts = SdkSteps::new(parser().json());
    pieces
        .iter()
        .map(|piece| (trees.chunk(piece), texts.chunk(piece)))
        .collect()
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn kept_data_entries_send_what_checking_whole_updates_sends() {
    let Some(shared) = shared() else {
        support::say("skipping kept-entries comparison: ../shared/a2ui not found");
        return;
    };
    let mut responses: Vec<(String, Arc<Validator>, String)> = restaurant_responses(&shared)
        .into_iter()
        .filter(|(_, validator, _)| validator.catalog().version() == Version::V08)
        .collect();
    // An entry the catalog rejects (a number written as text) between accepted ones, and an
    // update that names its path after its entries.
    let validator = Arc::clone(&responses[0].1);
    responses.push((
        "a rejected entry".into(),
        validator,
        concat!(
            r#"Data: <a2ui-json>[{"beginRendering": {"surfaceId": "s", "root": "r"}}, "#,
            r#"{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "a", "valueString": "first value"}, "#,
            r#"{"key": "n", "valueNumber": "not a number"}, {"key": "b", "valueString": "second"}], "path": "/x"}}, "#,
            r#"{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "c", "valueMap": [{"key": "d", "valueString": "deep"}]}]}}"#,
            "]</a2ui-json> Done."
        )
        .into(),
    ));
    for (name, validator, text) in responses {
        // The basic catalog checks entries apart; `whole` checks whole updates (both proved
        // by the validator's unit tests).
        let whole = checked_whole(&validator);
        let mut sent = 0;
        for size in [1, 3, 4, 7, 64, text.len()] {
            let pieces = chunks(&text, size);
            let kept = official_steps(&validator, &pieces);
            let checked = official_steps(&whole, &pieces);
            for (step, (a, b)) in kept.iter().zip(&checked).enumerate() {
                assert_eq!(a, b, "{name} in {size} B chunks, step {step}");
            }
            sent += kept
                .iter()
                .filter_map(|(parts, _)| parts.as_ref().ok())
                .flatten()
                .filter(|part| part.a2ui.is_some())
                .count();
        }
        assert!(sent > 0, "{name}: nothing sent");
    }
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn a_growing_text_is_checked_again_when_the_catalog_tells_texts_apart() {
    let Some(shared) = shared() else {
        support::say("skipping growing-text comparison: ../shared/a2ui not found");
        return;
    };
    let responses: Vec<(String, Arc<Validator>, String)> = restaurant_responses(&shared)
        .into_iter()
        .filter(|(_, validator, _)| validator.catalog().version() == Version::V08)
        .collect();
    let mut bitten = 0;
    for (name, validator, text) in responses {
        // The basic catalog accepts any text: the entry being written is checked again only
        // when more than its text changed. `limited` tells texts apart but checks entries
        // apart; `whole` checks whole updates (both proved by the validator's unit tests).
        let limited = texts_limited(&validator, 8, false);
        let whole = texts_limited(&validator, 8, true);
        for size in [1, 4, 7, text.len()] {
            let pieces = chunks(&text, size);
            let kept = official_steps(&limited, &pieces);
            let checked = official_steps(&whole, &pieces);
            for (step, (a, b)) in kept.iter().zip(&checked).enumerate() {
                assert_eq!(a, b, "{name} in {size} B chunks, step {step}");
            }
            // The limit can only hold data-model updates back.
            let updates = |steps: &Steps| {
                steps
                    .iter()
                    .filter_map(|(parts, _)| parts.as_ref().ok())
                    .flatten()
                    .filter_map(|part| part.a2ui.as_ref())
                    .flatten()
                    .filter(|m| m.get("dataModelUpdate").is_some())
                    .count()
            };
            let free = official_steps(&validator, &pieces);
            let (held, sent) = (updates(&kept), updates(&free));
            assert!(held <= sent, "{name} in {size} B chunks");
            bitten += usize::from(held < sent);
        }
    }
    // Responses with texts over the limit at the top of an entry (the confirmation and the
    // booking form): at every chunk size.
    assert!(
        bitten >= 8,
        "the limit held back updates in only {bitten} cases"
    );
}
