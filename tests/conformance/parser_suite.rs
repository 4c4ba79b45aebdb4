//! Runs `suites/parser.yaml`: whole-response parsing (`parse_full`), the payload fixer
//! (`fix_payload`) and tag detection (`has_parts`).

use std::path::Path;

use a2ui_stream::official::legacy::response::{has_a2ui_parts, parse_and_fix, parse_response};
use serde_json::{Value, json};

use crate::suite;

/// Runs every case of `parser.yaml` under `conformance_dir`; one result per case.
pub fn run(conformance_dir: &Path) -> Vec<(String, Result<(), String>)> {
    suite::run(conformance_dir, "parser.yaml", run_case)
}

fn run_case(case: &Value) -> Result<(), String> {
    let input = case
        .get("input")
        .and_then(Value::as_str)
        .ok_or("case has no string input")?;
    let expect = case.get("expect");
    let expect_error = case.get("expect_error").and_then(Value::as_str);
    let outcome: Result<Value, String> = match case.get("action").and_then(Value::as_str) {
        Some("parse_full") => parse_response(input)
            .map(|parts| {
                Value::Array(
                    parts
                        .into_iter()
                        .map(|p| match p.a2ui_json {
                            Some(list) => json!({"text": p.text, "a2ui": list}),
                            None => json!({"text": p.text}),
                        })
                        .collect(),
                )
            })
            .map_err(|e| e.to_string()),
        Some("fix_payload") => parse_and_fix(input)
            .map(Value::Array)
            .map_err(|e| e.to_string()),
        Some("has_parts") => Ok(Value::Bool(has_a2ui_parts(input))),
        other => return Err(format!("unexpected action {other:?}")),
    };
    match (outcome, expect_error) {
        (Ok(got), None) => match expect {
            Some(want) if *want == got => Ok(()),
            Some(want) => Err(format!("expected {want}, got {got}")),
            None => Err("case has neither expect nor expect_error".to_owned()),
        },
        (Ok(got), Some(pattern)) => {
            Err(format!("got {got}, expected an error matching {pattern:?}"))
        }
        (Err(e), None) => Err(format!("unexpected error: {e}")),
        (Err(e), Some(pattern)) => suite::error_matches(pattern, &e),
    }
}
