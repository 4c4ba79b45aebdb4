//! Runs `suites/streaming_parser.yaml`: every case feeds its steps' chunks to one
//! [`ProgressiveParser`] built on the case's catalog and compares what each chunk returns (or
//! the error it raises) with the step's expectation.

use std::path::Path;

use a2ui_stream::official::catalog::Catalog;
use a2ui_stream::official::progressive::{ProgressiveParser, ResponsePart};
use serde_json::Value;

use crate::suite;

/// Runs every case of `streaming_parser.yaml` under `conformance_dir`; one result per case.
pub fn run(conformance_dir: &Path) -> Vec<(String, Result<(), String>)> {
    suite::run(conformance_dir, "streaming_parser.yaml", |case| {
        run_case(case, conformance_dir)
    })
}

/// A part as the suite writes it: `text` and `a2ui` members, each only when present.
fn part_to_value(part: &ResponsePart) -> Value {
    let mut obj = serde_json::Map::new();
    if let Some(text) = &part.text {
        obj.insert("text".into(), Value::String(text.clone()));
    }
    if let Some(list) = &part.a2ui {
        obj.insert("a2ui".into(), Value::Array(list.clone()));
    }
    Value::Object(obj)
}

/// Runs one case; `Err` says which step went wrong and how.
fn run_case(case: &Value, conformance_dir: &Path) -> Result<(), String> {
    let config = case.get("catalog").ok_or("case has no catalog")?;
    let catalog = Catalog::from_config(config, conformance_dir).map_err(|e| e.to_string())?;
    let mut parser = ProgressiveParser::new(&catalog).map_err(|e| e.to_string())?;
    let steps = case
        .get("steps")
        .and_then(Value::as_array)
        .ok_or("case has no steps")?;
    for (i, step) in steps.iter().enumerate() {
        let input = step
            .get("input")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("step {i} has no input"))?;
        let result = parser.process_chunk(input);
        match (step.get("expect_error").and_then(Value::as_str), result) {
            // An expected error ends the case.
            (Some(want), Err(e)) => {
                return suite::error_matches(want, &e.to_string())
                    .map_err(|why| format!("step {i}: {why}"));
            }
            (Some(want), Ok(parts)) => {
                let got: Vec<Value> = parts.iter().map(part_to_value).collect();
                return Err(format!(
                    "step {i}: expected an error matching {want:?}, got {}",
                    Value::Array(got)
                ));
            }
            (None, Err(e)) => return Err(format!("step {i}: unexpected error {e}")),
            (None, Ok(parts)) => {
                let got = Value::Array(parts.iter().map(part_to_value).collect());
                let want = step
                    .get("expect")
                    .cloned()
                    .unwrap_or(Value::Array(Vec::new()));
                if got != want {
                    return Err(format!("step {i}:\n   got  {got}\n   want {want}"));
                }
            }
        }
    }
    Ok(())
}
