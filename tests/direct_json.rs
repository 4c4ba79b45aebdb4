//! Runs the direct-JSON suites of the A2UI project (`direct_json/response_streaming.yaml`,
//! `direct_json/response_parser.yaml`) from `../shared/a2ui-v1/conformance/agent` (or
//! `$A2UI_SHARED/...`), prints `N passed, N failed` for each, and fails on any failure.
#![cfg(feature = "official")]

#[path = "conformance/suite.rs"]
mod suite;
mod support;

use support::parts::{raw_part, suite_part, suite_raw};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use a2ui_stream::Version;
use a2ui_stream::official::Emission;
use a2ui_stream::official::catalog::Catalog;
use a2ui_stream::official::direct::{self, DirectError, DirectJsonParser, Part, RawPart};
use a2ui_stream::official::validator::Validator;
use serde_json::{Value, json};

fn v1_dir() -> Option<PathBuf> {
    let dir = support::shared_root()?.join("a2ui-v1");
    dir.join("conformance/agent/direct_json")
        .is_dir()
        .then_some(dir)
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The catalog a case names (a path under `conformance/`), on the v1.0 message schema.
fn validator(v1: &Path, case: &Value) -> Arc<Validator> {
    let file = case["args"]["catalog"].as_str().unwrap();
    let catalog = read(&v1.join("conformance").join(file));
    let derived = v1.join("sdk-derived/v1_0");
    let catalog = Catalog::new(
        Version::V10,
        read(&derived.join("agent_to_renderer.json")),
        catalog,
        read(&derived.join("common_types.json")),
    );
    Arc::new(Validator::new(&catalog).unwrap())
}

/// A chunk as the SDK's `parse_chunk` answers it: what it made ready, or its first error (the
/// SDK raises, and what the chunk made ready before the error is lost with it).
fn sdk_step(p: &mut DirectJsonParser, input: &str) -> Result<Vec<Part>, DirectError> {
    p.feed(input).into_iter().collect()
}

fn parser(v1: &Path, case: &Value, mode: Emission) -> DirectJsonParser {
    let keys: Vec<String> = case["args"]["progressive_keys"]
        .as_array()
        .map(|keys| {
            keys.iter()
                .filter_map(|k| k.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let parser = DirectJsonParser::new(validator(v1, case), keys, mode);
    if case["args"]["wrapped"] == json!(false) {
        parser.unwrapped()
    } else {
        parser
    }
}

fn streaming_case(v1: &Path, case: &Value) -> Result<(), String> {
    let mut p = parser(v1, case, Emission::Official);
    let steps = case["steps"].as_array().ok_or("no steps")?;
    let mut all = Vec::new();
    for (n, step) in steps.iter().enumerate() {
        let input = step["input"].as_str().ok_or("step without input")?;
        let got = sdk_step(&mut p, input);
        match (&got, step.get("expect_error")) {
            (Err(e), Some(want)) => {
                let category = want["category"].as_str().unwrap_or_default();
                let kind = match category {
                    "ParseError" => direct::DirectErrorKind::Parse,
                    _ => direct::DirectErrorKind::Validation,
                };
                if e.kind() != kind {
                    return Err(format!("step {n}: {e} is not a {category}"));
                }
                return Ok(());
            }
            (Err(e), None) => return Err(format!("step {n}: unexpected error {e}")),
            (Ok(parts), Some(_)) => {
                return Err(format!("step {n}: expected an error, got {parts:?}"));
            }
            (Ok(parts), None) => {
                let got: Vec<Value> = parts.iter().map(suite_part).collect();
                let want = step["expect"].as_array().cloned().unwrap_or_default();
                if got != want {
                    return Err(format!(
                        "step {n}: got {}\nwant {}",
                        Value::Array(got),
                        Value::Array(want)
                    ));
                }
                all.extend(got);
            }
        }
    }
    if case["expect_matches_single_shot"] == json!(true) {
        let whole: String = steps.iter().filter_map(|s| s["input"].as_str()).collect();
        let mut one = parser(v1, case, Emission::Official);
        let got: Vec<Value> = sdk_step(&mut one, &whole)
            .map_err(|e| format!("single shot: {e}"))?
            .iter()
            .map(suite_part)
            .collect();
        if got != all {
            return Err(format!(
                "single shot: got {}\nsteps gave {}",
                Value::Array(got),
                Value::Array(all)
            ));
        }
    }
    Ok(())
}

fn parser_case(v1: &Path, case: &Value) -> Result<(), String> {
    match case["action"].as_str() {
        Some("unwrap") => {
            let got: Vec<Value> = direct::unwrap(case["input"].as_str().unwrap_or_default())
                .iter()
                .map(raw_part)
                .collect();
            let want = case["expect"].as_array().cloned().unwrap_or_default();
            (got == want)
                .then_some(())
                .ok_or_else(|| format!("got {got:?}\nwant {want:?}"))
        }
        Some("wrap") => {
            let parts: Vec<RawPart> = case["parts"]
                .as_array()
                .map(|p| p.iter().map(suite_raw).collect::<Result<_, _>>())
                .transpose()?
                .unwrap_or_default();
            let out = direct::wrap(&parts);
            if let Some(want) = case.get("expect_output").and_then(Value::as_str)
                && out != want
            {
                return Err(format!("wrote {out:?}, want {want:?}"));
            }
            for piece in case["expect_contains"].as_array().into_iter().flatten() {
                let piece = piece.as_str().unwrap_or_default();
                if !out.contains(piece) {
                    return Err(format!("{out:?} lacks {piece:?}"));
                }
            }
            if case["expect_round_trip"] == json!(true) && direct::unwrap(&out) != parts {
                return Err(format!("{out:?} does not unwrap to {parts:?}"));
            }
            Ok(())
        }
        Some("parse_response") => {
            let validator = validator(v1, case);
            let wrapped = case["args"]["wrapped"] != json!(false);
            let input = case["input"].as_str().unwrap_or_default();
            match (
                direct::parse_response(input, &validator, wrapped),
                case.get("expect_error"),
            ) {
                (Err(e), Some(want)) => (want["category"] == json!("ParseError")
                    && e.kind() == direct::DirectErrorKind::Parse)
                    .then_some(())
                    .ok_or_else(|| format!("{e} is not {want}")),
                (Err(e), None) => Err(format!("unexpected error {e}")),
                (Ok(parts), Some(_)) => Err(format!("expected an error, got {parts:?}")),
                (Ok(parts), None) => {
                    let got: Vec<Value> = parts.iter().map(suite_part).collect();
                    let want = case["expect"].as_array().cloned().unwrap_or_default();
                    (got == want)
                        .then_some(())
                        .ok_or_else(|| format!("got {got:?}\nwant {want:?}"))
                }
            }
        }
        other => Err(format!("unknown action {other:?}")),
    }
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn direct_json_suites() {
    let Some(v1) = v1_dir() else {
        support::say("skipping direct-JSON suites: ../shared/a2ui-v1 not found");
        return;
    };
    let dir = v1.join("conformance/agent/direct_json");
    let streaming = suite::run_file(&dir.join("response_streaming.yaml"), |c| {
        streaming_case(&v1, c)
    });
    let parsing = suite::run_file(&dir.join("response_parser.yaml"), |c| parser_case(&v1, c));
    assert_eq!(
        streaming.len(),
        29,
        "response_streaming.yaml should hold 29 cases"
    );
    assert_eq!(
        parsing.len(),
        17,
        "response_parser.yaml should hold 17 cases"
    );
    let failures = suite::report("direct_json/response_streaming.yaml", &streaming)
        + suite::report("direct_json/response_parser.yaml", &parsing);
    assert_eq!(failures, 0, "direct-JSON suite failures");
}
