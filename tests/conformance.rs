//! Runs the official A2UI conformance suites (`streaming_parser.yaml`, `parser.yaml`,
//! `validator.yaml`) from `../shared/a2ui/conformance` (or `$A2UI_SHARED/a2ui/conformance`),
//! prints `N passed, N failed` for each, and fails on any failure.
#![cfg(feature = "official")]

#[path = "conformance/parser_suite.rs"]
mod parser_suite;
#[path = "conformance/validator_suite.rs"]
mod validator_suite;

use std::path::{Path, PathBuf};

use a2ui_stream::official::catalog::Catalog;
use a2ui_stream::official::progressive::{ProgressiveParser, ResponsePart};
use serde_json::Value;

mod support;

fn conformance_dir() -> Option<PathBuf> {
    let dir = support::shared_root()?.join("a2ui/conformance");
    dir.join("suites").is_dir().then_some(dir)
}

fn load_suite(dir: &Path, name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("suites").join(name)).unwrap();
    let value: Value = serde_norway::from_str(&text).unwrap();
    value.as_array().cloned().unwrap_or_default()
}

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

/// Runs one streaming case; `Err` says which step went wrong and how.
fn run_streaming_case(dir: &Path, case: &Value) -> Result<(), String> {
    let catalog = Catalog::from_config(&case["catalog"], dir).map_err(|e| e.to_string())?;
    let mut parser = ProgressiveParser::new(&catalog).map_err(|e| e.to_string())?;
    let steps = case["steps"].as_array().ok_or("case without steps")?;
    for (i, step) in steps.iter().enumerate() {
        let input = step["input"].as_str().ok_or("step without input")?;
        let result = parser.process_chunk(input);
        match (step.get("expect_error").and_then(Value::as_str), result) {
            (Some(want), Err(e)) => {
                let pattern = regex::Regex::new(want).map_err(|e| e.to_string())?;
                if !pattern.is_match(&e.to_string()) {
                    return Err(format!("step {i}: error {e:?} does not contain {want:?}"));
                }
                return Ok(());
            }
            (Some(want), Ok(parts)) => {
                let got: Vec<Value> = parts.iter().map(part_to_value).collect();
                return Err(format!(
                    "step {i}: expected error {want:?}, got {}",
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

fn run_streaming(dir: &Path) -> Vec<(String, Result<(), String>)> {
    load_suite(dir, "streaming_parser.yaml")
        .iter()
        .map(|case| {
            let name = case["name"].as_str().unwrap_or("?").to_owned();
            (name, run_streaming_case(dir, case))
        })
        .collect()
}

/// Prints the tally of one suite and its failures; returns the number of failures.
fn report(suite: &str, results: &[(String, Result<(), String>)]) -> usize {
    let failed: Vec<_> = results.iter().filter(|(_, r)| r.is_err()).collect();
    for (name, result) in &failed {
        if let Err(why) = result {
            println!("FAIL {suite} {name}: {why}");
        }
    }
    println!(
        "{suite}: {} passed, {} failed",
        results.len() - failed.len(),
        failed.len()
    );
    failed.len()
}

#[test]
fn official_conformance_suites() {
    let Some(dir) = conformance_dir() else {
        println!("skipping conformance suites: ../shared/a2ui/conformance not found");
        return;
    };
    let streaming = run_streaming(&dir);
    assert_eq!(
        streaming.len(),
        80,
        "streaming_parser.yaml should hold 80 cases"
    );
    let parser = parser_suite::run(&dir);
    let validator = validator_suite::run(&dir);
    assert_eq!(parser.len(), 17, "parser.yaml should hold 17 cases");
    assert_eq!(validator.len(), 45, "validator.yaml should hold 45 cases");
    let failures = report("streaming_parser.yaml", &streaming)
        + report("parser.yaml", &parser)
        + report("validator.yaml", &validator);
    assert_eq!(failures, 0, "conformance failures");
}
