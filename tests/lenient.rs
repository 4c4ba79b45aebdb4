//! The direct-JSON parser on what models write that is not strict JSON (a comma before a closing
//! bracket, raw line breaks and other control characters in strings, curly quotes), against the
//! answers of the official SDK 0.9.0 recorded in `tests/lenient/golden.json` by
//! `tests/lenient/record.py`:
//!
//! - the whole response in one chunk gives the SDK's parts, or an error where the SDK raises;
//! - every chunking (the SDK's 1, 3 and 7 characters, and arbitrary ones) gives the same verdict
//!   and leaves a renderer with the same surfaces as the whole response.
//!
//! A splitter with [`Config::lenient`] reads the same slips and hands out valid JSON that leaves
//! a renderer where the SDK's messages leave it, in every chunking.
//!
//! Curly double quotes used as JSON quotes are read as the SDK reads them, with two exceptions
//! ([`DIVERGES`]) where the SDK rewrites what it already read, which a reader that never looks
//! back does not.
#![cfg(feature = "official")]

mod support;

use std::sync::Arc;

use a2ui_stream::official::Emission;
use a2ui_stream::official::catalog::Catalog;
use a2ui_stream::official::direct::{DirectJsonParser, Part};
use a2ui_stream::official::validator::Validator;
use a2ui_stream::renderer::RendererState;
use a2ui_stream::{Config, Event, Splitter, Version};
use proptest::prelude::*;
use serde_json::{Value, json};
use support::parts::suite_part;

/// The cases read differently from the SDK, and why. The SDK straightens every curly quote of a
/// block that does not read, rereading it from its start; this parser straightens a block from
/// the first curly quote that stands for a JSON quote on.
const DIVERGES: [(&str, &str); 2] = [
    (
        "curly_apostrophe_then_curly_key_in_later_message",
        "a message that closed before the block's first curly JSON quote keeps its `’` \
         (the SDK shows it so too, then shows it again with `'`)",
    ),
    (
        "close_tag_inside_curly_string",
        "a close tag inside a string in curly quotes is text of the string (the SDK, \
         which looks for the tag by straight quotes only, ends the block there)",
    ),
];

/// One recorded case.
struct Case {
    name: String,
    response: String,
    version: Version,
    wrapped: bool,
    keys: Vec<String>,
    /// The SDK's parts for the whole response, or `None` when it raised.
    whole: Option<Vec<Value>>,
    /// Whether the SDK raised on some chunking.
    chunked_error: bool,
}

impl Case {
    /// Why this case is read differently from the SDK, if it is (see [`DIVERGES`]).
    fn diverges(&self) -> Option<&'static str> {
        DIVERGES
            .iter()
            .find(|(name, _)| *name == self.name)
            .map(|(_, why)| *why)
    }
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/lenient/golden.json");
    let golden: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let golden = golden.as_array().unwrap();
    assert!(
        golden.len() >= 50,
        "the corpus holds {} cases",
        golden.len()
    );
    golden
        .iter()
        .map(|c| {
            let outcome = |chunking: &str| {
                c.get("outcome")
                    .or_else(|| c["chunkings"].get(chunking))
                    .cloned()
                    .unwrap()
            };
            let whole = outcome("whole");
            Case {
                name: c["name"].as_str().unwrap().to_owned(),
                response: c["response"].as_str().unwrap().to_owned(),
                version: Version::parse(c["version"].as_str().unwrap()).unwrap(),
                wrapped: c["wrapped"] != json!(false),
                keys: c["progressive_keys"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|k| k.as_str().unwrap().to_owned())
                    .collect(),
                whole: whole["error"]
                    .is_null()
                    .then(|| whole["parts"].as_array().unwrap().clone()),
                chunked_error: ["1", "3", "7"]
                    .iter()
                    .any(|n| !outcome(n)["error"].is_null()),
            }
        })
        .collect()
}

fn validator(version: Version) -> Arc<Validator> {
    Catalog::builtin(version).validator().unwrap()
}

fn parser(case: &Case) -> DirectJsonParser {
    let p = DirectJsonParser::new(validator(case.version), &case.keys, Emission::Official);
    if case.wrapped { p } else { p.unwrapped() }
}

/// The response fed in `pieces`, then the end: every part, and whether any error came.
fn run(case: &Case, pieces: &[&str]) -> (Vec<Part>, bool) {
    let (parts, errors) = run_to(case, pieces, true);
    (parts, !errors.is_empty())
}

/// The response fed in `pieces`, with the end (`finish`) or without it (as the SDK, which has
/// no end call): every part, and every error.
fn run_to(case: &Case, pieces: &[&str], end: bool) -> (Vec<Part>, Vec<String>) {
    let mut p = parser(case);
    let mut parts = Vec::new();
    let mut errors = Vec::new();
    let mut results: Vec<_> = pieces.iter().flat_map(|piece| p.feed(piece)).collect();
    if end {
        results.extend(p.finish());
    }
    for result in results {
        match result {
            Ok(part) => parts.push(part),
            Err(e) => errors.push(e.to_string()),
        }
    }
    (parts, errors)
}

/// What a renderer holds after `parts`.
fn rendered(parts: &[Part]) -> RendererState {
    let mut state = RendererState::new();
    for part in parts {
        if let Part::A2ui(messages) = part {
            for m in messages {
                let _ = state.apply(m);
            }
        }
    }
    state
}

/// `text` cut into pieces of `n` characters.
fn pieces(text: &str, n: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let end = rest.char_indices().nth(n).map_or(rest.len(), |(k, _)| k);
        let (head, tail) = rest.split_at(end);
        out.push(head);
        rest = tail;
    }
    out
}

#[test]
fn the_whole_response_reads_as_the_sdk_reads_it() {
    let mut wrong = Vec::new();
    for case in cases() {
        if let Some(why) = case.diverges() {
            let (parts, errors) = run_to(&case, &[&case.response], true);
            let shown =
                serde_json::to_string(&parts.iter().map(suite_part).collect::<Vec<_>>()).unwrap();
            let read = ["\"It\u{2019}s open\"", "\"end </a2ui-json> here\""]
                .iter()
                .any(|text| shown.contains(text));
            if !errors.is_empty() || !read {
                wrong.push(format!(
                    "{}: not read as documented ({why}): {shown} {errors:?}",
                    case.name
                ));
            }
            continue;
        }
        let (parts, errors) = run_to(&case, &[&case.response], false);
        let ours = errors
            .is_empty()
            .then(|| parts.iter().map(suite_part).collect::<Vec<_>>());
        if ours != case.whole {
            wrong.push(format!(
                "{}: the SDK gives {:?}\n  this parser gives {:?} {errors:?}",
                case.name, case.whole, ours
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_recorded_chunking_gives_the_verdict_and_surfaces_of_the_whole() {
    for case in cases() {
        let (whole, whole_failed) = run(&case, &[&case.response]);
        if case.diverges().is_none() {
            // Before the end, which the SDK has no call for: its verdict on its chunkings.
            let (_, errors) = run_to(&case, &[&case.response], false);
            assert_eq!(!errors.is_empty(), case.chunked_error, "{}", case.name);
        }
        for n in [1, 3, 7] {
            let (parts, failed) = run(&case, &pieces(&case.response, n));
            assert_eq!(
                failed, whole_failed,
                "{} in {n}-character pieces",
                case.name
            );
            if whole_failed {
                // Streamed, what read before the fault was shown, as the SDK shows it.
                continue;
            }
            assert_eq!(
                rendered(&parts),
                rendered(&whole),
                "{} in {n}-character pieces",
                case.name
            );
        }
    }
}

proptest! {
    #[test]
    fn any_chunking_gives_the_verdict_and_surfaces_of_the_whole(
        pick in any::<prop::sample::Index>(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..24),
    ) {
        let cases = cases();
        let case = &cases[pick.index(cases.len())];
        let text = case.response.as_str();
        let mut at: Vec<usize> = cuts
            .iter()
            .map(|c| c.index(text.len() + 1))
            .filter(|&k| text.is_char_boundary(k))
            .collect();
        at.extend([0, text.len()]);
        at.sort_unstable();
        at.dedup();
        let pieces: Vec<&str> = at.windows(2).map(|w| &text[w[0]..w[1]]).collect();
        let (whole, whole_failed) = run(case, &[text]);
        let (parts, failed) = run(case, &pieces);
        prop_assert_eq!(failed, whole_failed, "{}", &case.name);
        if !whole_failed {
            prop_assert_eq!(rendered(&parts), rendered(&whole), "{}", &case.name);
        }
    }
}

/// The cases whose every block the SDK and the direct parser read, to the end.
fn read_whole() -> Vec<Case> {
    cases()
        .into_iter()
        .filter(|c| c.whole.is_some() && c.diverges().is_none() && !run(c, &[&c.response]).1)
        .collect()
}

/// What a renderer holds after the SDK's messages for the whole response.
fn rendered_by_sdk(case: &Case) -> RendererState {
    let mut state = RendererState::new();
    for part in case.whole.iter().flatten() {
        for m in part["a2ui"].as_array().into_iter().flatten() {
            let _ = state.apply(m);
        }
    }
    state
}

/// The response through a lenient splitter in `pieces`: what a renderer holds after its
/// messages, each of which must be valid JSON, and its errors.
fn split(case: &Case, pieces: &[&str]) -> (RendererState, Vec<String>) {
    let mut splitter = Splitter::with_config(Config {
        lenient: true,
        ..config_of(case)
    });
    let mut state = RendererState::new();
    let mut errors = Vec::new();
    let mut take = |event: Result<Event, a2ui_stream::Error>| match event {
        Ok(Event::Message(m)) => {
            let value: Value = serde_json::from_slice(m.as_bytes())
                .unwrap_or_else(|e| panic!("{}: {e}: {}", case.name, m.as_str()));
            let _ = state.apply(&value);
        }
        Ok(Event::Text(_)) => {}
        Err(e) => errors.push(e.to_string()),
    };
    for piece in pieces {
        splitter.feed(piece.as_bytes()).for_each(&mut take);
    }
    splitter.finish().for_each(&mut take);
    (state, errors)
}

#[test]
fn a_lenient_splitter_hands_out_valid_json_with_the_sdks_result() {
    let cases = read_whole();
    assert!(cases.len() >= 20, "{} cases", cases.len());
    for case in &cases {
        for n in [0, 1, 3, 7] {
            let pieces = if n == 0 {
                vec![case.response.as_str()]
            } else {
                pieces(&case.response, n)
            };
            let (state, errors) = split(case, &pieces);
            assert!(errors.is_empty(), "{} in {n}: {errors:?}", case.name);
            assert_eq!(state, rendered_by_sdk(case), "{} in {n}", case.name);
        }
    }
}

#[test]
fn a_strict_splitter_reports_the_slips_a_lenient_one_repairs() {
    let case = cases()
        .into_iter()
        .find(|c| c.name == "comma_before_brace")
        .unwrap();
    let mut splitter = Splitter::new();
    let errors: Vec<_> = splitter
        .feed(case.response.as_bytes())
        .filter_map(Result::err)
        .collect();
    assert!(!errors.is_empty());
}

proptest! {
    #[test]
    fn a_lenient_splitter_gives_the_same_in_any_chunking(
        pick in any::<prop::sample::Index>(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..24),
    ) {
        let cases = read_whole();
        let case = &cases[pick.index(cases.len())];
        let text = case.response.as_str();
        let mut at: Vec<usize> = cuts.iter().map(|c| c.index(text.len() + 1)).collect();
        at.extend([0, text.len()]);
        at.sort_unstable();
        at.dedup();
        // The splitter takes bytes: a cut may fall inside a character.
        let pieces: Vec<&[u8]> = at.windows(2).map(|w| &text.as_bytes()[w[0]..w[1]]).collect();
        let mut splitter = Splitter::with_config(Config { lenient: true, ..config_of(case) });
        let mut events = Vec::new();
        for piece in pieces {
            events.extend(splitter.feed(piece));
        }
        events.extend(splitter.finish());
        let mut whole = Splitter::with_config(Config { lenient: true, ..config_of(case) });
        let mut expected: Vec<_> = whole.feed(text.as_bytes()).collect();
        expected.extend(whole.finish());
        let messages = |events: &[Result<Event, a2ui_stream::Error>]| -> Vec<String> {
            events
                .iter()
                .filter_map(|e| match e {
                    Ok(Event::Message(m)) => Some(m.as_str().to_owned()),
                    _ => None,
                })
                .collect()
        };
        prop_assert_eq!(messages(&events), messages(&expected), "{}", &case.name);
        prop_assert!(events.iter().all(Result::is_ok), "{}", &case.name);
    }
}

fn config_of(case: &Case) -> Config {
    if case.wrapped {
        Config::default()
    } else {
        Config::bare()
    }
}
