//! Writing a step over the parts handed back from an earlier one changes nothing but where the
//! step is made: after every chunk, a parser handed back parts (`recycle`) returns from `feed`
//! exactly what a parser handed back nothing returns, in both forms (trees, and JSON text from
//! `json()`) and either emission mode, whatever the caller handed back: the parts of the step
//! before, parts of another response or another mode, nothing, or random JSON trees.
//!
//! Inputs: the restaurant-finder examples in several chunk sizes and on random cuts, and every
//! input sequence of the official streaming suite (its errors included), from `../shared/a2ui`
//! (or `$A2UI_SHARED/a2ui`); without it each test prints one line and returns.
#![cfg(feature = "legacy")]

use std::sync::{Arc, Once};

use a2ui_stream::official::Emission;
use a2ui_stream::official::legacy::{ProgressiveParser, ResponsePart};
use a2ui_stream::official::validator::Validator;
use proptest::prelude::*;
use serde_json::{Value, json};

mod support;

use support::chunks::chunks;
use support::progressive::{MODES, restaurant_responses, shared, streaming_suite, written};

/// What the caller hands back before a step.
#[derive(Debug, Clone)]
enum HandBack {
    /// The parts of the step before, as they were left.
    Previous,
    /// Nothing.
    Nothing,
    /// These parts, whatever they are.
    These(Vec<ResponsePart>),
}

/// Feeds `pieces` to four parsers in `mode`: one handed back nothing, one handed back what
/// `hand_back` gives before each step, and the two text forms likewise; after every piece the
/// steps of the parsers handed back parts equal those of the others, and so do the ends.
/// Returns the number of messages compared.
fn same_written_over(
    validator: &Arc<Validator>,
    mode: Emission,
    pieces: &[&str],
    label: &str,
    hand_back: &mut dyn FnMut(usize) -> HandBack,
) -> usize {
    let new = || ProgressiveParser::with_validator(Arc::clone(validator), mode);
    let (mut trees, mut trees_into) = (new(), new());
    let (mut texts, mut texts_into) = (new().json(), new().json());
    let (mut tree_parts, mut text_parts) = (Vec::new(), Vec::new());
    let mut compared = 0;
    for (i, piece) in pieces.iter().enumerate() {
        match hand_back(i) {
            HandBack::Previous => {
                trees_into.recycle(std::mem::take(&mut tree_parts));
                texts_into.recycle(std::mem::take(&mut text_parts));
            }
            HandBack::Nothing => {}
            HandBack::These(parts) => {
                texts_into.recycle(parts.iter().map(|p| Ok(written(p))).collect());
                trees_into.recycle(parts.into_iter().map(Ok).collect());
            }
        }
        let step = format!("{label} ({mode:?}): step {i}");
        let made = trees.feed(piece);
        tree_parts = trees_into.feed(piece);
        assert_eq!(made, tree_parts, "{step}");
        let made_text = texts.feed(piece);
        text_parts = texts_into.feed(piece);
        assert_eq!(made_text, text_parts, "{step}, as text");
        compared += made
            .iter()
            .flatten()
            .filter_map(|p| p.a2ui.as_ref())
            .map(Vec::len)
            .sum::<usize>();
    }
    assert_eq!(trees.finish(), trees_into.finish(), "{label}: the ends");
    assert_eq!(texts.finish(), texts_into.finish(), "{label}: the ends");
    compared
}

/// Parts unlike any a step makes: prose, messages of every kind and shape, and plain values.
fn junk() -> Vec<ResponsePart> {
    vec![
        ResponsePart {
            text: Some("left over".into()),
            a2ui: Some(vec![
                json!({"surfaceUpdate": {"surfaceId": "elsewhere", "components": [
                    {"id": "x", "component": {"Text": {"text": {"literalString": "a much longer text than most"}}}},
                    {"id": "y", "component": {"Column": {"children": {"explicitList": ["x", "z"]}}}}]}}),
                json!({"dataModelUpdate": {"surfaceId": "s", "path": "/a/b", "contents": [{"key": "k", "valueNumber": 3}]}}),
                json!("a string"),
                json!([1, 2, {"three": null}]),
            ]),
        },
        ResponsePart {
            text: None,
            a2ui: Some(vec![
                json!({"updateComponents": {"surfaceId": 7}, "version": "v0.8", "extra": true}),
                json!(null),
            ]),
        },
    ]
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn written_over_the_step_before_the_examples_come_out_the_same_in_any_chunk_size() {
    let Some(shared) = shared() else {
        support::say("skipping comparisons written over: ../shared/a2ui not found");
        return;
    };
    let responses = restaurant_responses(&shared);
    let mut compared = 0;
    for (name, validator, text) in &responses {
        for size in [1, 4, 7, 16, 64] {
            let pieces = chunks(text, size);
            for mode in MODES {
                compared +=
                    same_written_over(validator, mode, &pieces, name, &mut |_| HandBack::Previous);
            }
        }
    }
    assert!(compared > 1000, "only {compared} messages compared");
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn whatever_is_handed_back_the_examples_come_out_the_same() {
    let Some(shared) = shared() else {
        support::say("skipping comparisons written over: ../shared/a2ui not found");
        return;
    };
    let responses = restaurant_responses(&shared);
    // The parts of another response, in the other mode, at each step.
    let others: Vec<Vec<ResponsePart>> = {
        let (_, validator, text) = &responses[responses.len() - 1];
        let mut parser =
            ProgressiveParser::with_validator(Arc::clone(validator), Emission::ChangedOnly);
        chunks(text, 4)
            .iter()
            .map(|piece| {
                parser
                    .feed(piece)
                    .into_iter()
                    .collect::<Result<Vec<_>, _>>()
                    .unwrap()
            })
            .filter(|parts| !parts.is_empty())
            .collect()
    };
    for (name, validator, text) in &responses {
        let pieces = chunks(text, 4);
        for mode in MODES {
            let compared =
                same_written_over(validator, mode, &pieces, name, &mut |i| match i % 5 {
                    0 => HandBack::These(junk()),
                    1 => HandBack::Nothing,
                    2 => HandBack::These(others[i % others.len()].clone()),
                    _ => HandBack::Previous,
                });
            assert!(compared > 0, "{name}: nothing compared");
        }
    }
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn the_streaming_suite_inputs_come_out_the_same_written_over() {
    let Some(shared) = shared() else {
        support::say(
            "skipping comparisons written over on the suite's inputs: ../shared/a2ui not found",
        );
        return;
    };
    let mut compared = 0;
    for (name, validator, inputs) in &streaming_suite(&shared) {
        let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
        let text = inputs.concat();
        for mode in MODES {
            compared +=
                same_written_over(validator, mode, &inputs, name, &mut |_| HandBack::Previous);
            compared += same_written_over(validator, mode, &chunks(&text, 1), name, &mut |i| {
                if i % 7 == 3 {
                    HandBack::These(junk())
                } else {
                    HandBack::Previous
                }
            });
        }
    }
    assert!(compared > 1000, "only {compared} messages compared");
}

/// Random JSON trees, shaped now and then like the messages a step makes.
fn tree() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("surfaceUpdate".to_owned()),
                    Just("dataModelUpdate".to_owned()),
                    Just("updateComponents".to_owned()),
                    Just("components".to_owned()),
                    Just("contents".to_owned()),
                    Just("surfaceId".to_owned()),
                    Just("id".to_owned()),
                    Just("component".to_owned()),
                    "[a-zA-Z]{1,8}",
                ],
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn parts() -> impl Strategy<Value = Vec<ResponsePart>> {
    prop::collection::vec(
        (
            prop::option::of(".{0,8}"),
            prop::option::of(prop::collection::vec(tree(), 0..4)),
        )
            .prop_map(|(text, a2ui)| ResponsePart { text, a2ui }),
        0..3,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[cfg_attr(not(a2ui_shared), ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED")]
    /// Any cuts of a response, either mode, random trees handed back before random steps.
    #[test]
    fn any_cuts_and_anything_handed_back_come_out_the_same(
        which in 0usize..8,
        cuts in prop::collection::vec(0.0f64..1.0, 0..400),
        official in any::<bool>(),
        handed in prop::collection::vec(prop::option::of(parts()), 1..8),
    ) {
        let Some(shared) = shared() else {
            static SAID: Once = Once::new();
            support::say_once(&SAID, "skipping comparisons written over on random cuts: ../shared/a2ui not found");
            return Ok(());
        };
        let responses = restaurant_responses(&shared);
        let (name, validator, text) = &responses[which % responses.len()];
        let mode = if official { Emission::Official } else { Emission::ChangedOnly };
        let pieces = support::cut(text, &cuts);
        let compared = same_written_over(validator, mode, &pieces, name, &mut |i| {
            match &handed[i % handed.len()] {
                Some(parts) => HandBack::These(parts.clone()),
                None => HandBack::Previous,
            }
        });
        prop_assert!(compared > 0);
    }
}
