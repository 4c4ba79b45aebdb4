//! Runs the streaming-parser suites: `suites/streaming_parser.yaml` (80 cases, snake_case keys)
//! and its successor `agent/legacy/streaming_parser.yaml` (84 cases, camelCase keys). Every case
//! feeds its steps' chunks to one [`ProgressiveParser`] built on the case's catalog and compares
//! what each chunk returns (or the error it raises) with the step's expectation.
//!
//! The two suites spell the same things differently; a case is read in either spelling:
//!
//! | what | 80-case suite | 84-case suite |
//! |---|---|---|
//! | protocol version | `catalog.version: "0.8"` | `catalog.protocolVersion: "v0.8"` |
//! | schemas | `s2c_schema`, `catalog_schema`, `common_types_schema` | `s2cSchema`, `catalogSchema`, `commonTypesSchema` |
//! | expected error | `expect_error: "pattern"` | `expectError: "pattern"` or `{category, message}` |
//!
//! The 84-case suite adds: `disableValidation: true` (no check against the catalog:
//! [`ProgressiveParser::without_validation`]), `catalog.customCuttableKeys` (the keys whose cut
//! strings are shown, in place of the default ones: [`ProgressiveParser::with_cuttable_keys`]),
//! and `catalogs` (several catalogs of the case's `protocolVersion`, each component checked
//! against the one it or its surface names: [`ProgressiveParser::with_catalogs`]) in place of
//! `catalog`. Its expectations are compared as the old ones are (the reference's harness
//! compares each step's parts exactly too). A lone UTF-16 surrogate in an expectation is read
//! as U+FFFD (see `suite.rs`).

use std::path::Path;

use a2ui_stream::official::Emission;
use a2ui_stream::official::catalog::Catalog;
use a2ui_stream::official::legacy::{ProgressiveErrorKind, ProgressiveParser, ResponsePart};
use serde_json::{Map, Value};

use crate::suite;
use crate::support::progressive::SdkSteps;

/// Runs every case of `suites/streaming_parser.yaml` under `conformance_dir` (the 80-case
/// suite); one result per case.
pub fn run(conformance_dir: &Path) -> Vec<(String, Result<(), String>)> {
    suite::run(conformance_dir, "streaming_parser.yaml", |case| {
        run_case(case, conformance_dir)
    })
}

/// Runs every case of `agent/legacy/streaming_parser.yaml` under `conformance_dir` (the 84-case
/// suite, whose test data is under the same folder); one result per case.
pub fn run_legacy(conformance_dir: &Path) -> Vec<(String, Result<(), String>)> {
    let file = conformance_dir.join("agent/legacy/streaming_parser.yaml");
    suite::run_file(&file, |case| run_case(case, conformance_dir))
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

/// The first of `keys` that `value` has.
fn either<'a>(value: &'a Value, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().find_map(|key| value.get(*key))
}

/// A catalog entry of a case, in either spelling, as [`Catalog::from_config`] reads it.
/// `version` stands in for an entry that names no version (a `catalogs` entry may rely on the
/// case's `protocolVersion`).
fn catalog_config(entry: &Value, version: Option<&Value>) -> Value {
    let mut config = Map::new();
    for (key, keys) in [
        ("version", &["version", "protocolVersion"][..]),
        ("s2c_schema", &["s2c_schema", "s2cSchema"]),
        ("catalog_schema", &["catalog_schema", "catalogSchema"]),
        (
            "common_types_schema",
            &["common_types_schema", "commonTypesSchema"],
        ),
    ] {
        if let Some(value) = either(entry, keys) {
            config.insert(key.to_owned(), value.clone());
        }
    }
    if let Some(version) = version {
        config.entry("version").or_insert_with(|| version.clone());
    }
    Value::Object(config)
}

/// The parser a case asks for: on its `catalog` (or its `catalogs`), checking messages against
/// them unless `disableValidation` is set, showing cut strings under the `customCuttableKeys`
/// instead of the default keys when they are given.
fn parser_for(case: &Value, conformance_dir: &Path) -> Result<ProgressiveParser, String> {
    let version = case.get("protocolVersion");
    let entries: Vec<&Value> = match (case.get("catalog"), case.get("catalogs")) {
        (Some(one), None) => vec![one],
        (None, Some(Value::Array(many))) if !many.is_empty() => many.iter().collect(),
        _ => return Err("case has no catalog (or a non-empty list of catalogs)".into()),
    };
    let catalogs = entries
        .iter()
        .map(|entry| {
            Catalog::from_config(&catalog_config(entry, version), conformance_dir)
                .map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, _>>()?;
    let validate = !case
        .get("disableValidation")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    // The keys replace the default ones, as the reference's harness passes them; named on
    // the catalog, or on the case when it has several catalogs.
    let keys = match case.get("catalog") {
        Some(one) => one.get("customCuttableKeys"),
        None => case.get("customCuttableKeys"),
    };
    let cuttable: Option<Vec<String>> = match keys {
        None => None,
        Some(Value::Array(keys)) => Some(
            keys.iter()
                .map(|key| key.as_str().map(str::to_owned))
                .collect::<Option<_>>()
                .ok_or("a custom cuttable key is not a string")?,
        ),
        Some(other) => return Err(format!("customCuttableKeys is not a list: {other}")),
    };
    let mut parser = ProgressiveParser::with_catalogs(&catalogs, Emission::Official)
        .map_err(|e| e.to_string())?;
    if !validate {
        parser = parser.without_validation();
    }
    if let Some(keys) = cuttable {
        parser = parser.with_cuttable_keys(keys);
    }
    Ok(parser)
}

/// The suite's names (`expectError.category`) that an error of `kind` answers to. As in the
/// reference, where the recursion and integrity errors are validation errors too, a
/// `ValidationError` is any fault found in a message; the parser's topology errors are the
/// reference's recursion (self-references, cycles) and integrity (a missing root) errors.
fn categories(kind: ProgressiveErrorKind) -> &'static [&'static str] {
    match kind {
        ProgressiveErrorKind::Json => &["ParseError"],
        ProgressiveErrorKind::Validation => &["ValidationError"],
        ProgressiveErrorKind::Topology => &["ValidationError", "RecursionError", "IntegrityError"],
        ProgressiveErrorKind::Schema => &["CatalogError", "CompileError"],
        _ => &[],
    }
}

/// `Ok` when the error `got` is what `want` (a pattern, or `{category, message}`) expects.
fn error_expected(
    want: &Value,
    got: &a2ui_stream::official::legacy::ProgressiveError,
) -> Result<(), String> {
    match want {
        Value::String(pattern) => suite::error_matches(pattern, &got.to_string()),
        Value::Object(spec) => {
            if let Some(want) = spec.get("category").and_then(Value::as_str) {
                if !categories(got.kind()).contains(&want) {
                    return Err(format!(
                        "error {:?} ({:?}) is not a {want}",
                        got.to_string(),
                        got.kind()
                    ));
                }
            }
            match spec.get("message").and_then(Value::as_str) {
                Some(pattern) => suite::error_matches(pattern, &got.to_string()),
                None => Ok(()),
            }
        }
        other => Err(format!("unreadable expected error {other}")),
    }
}

/// Runs one case; `Err` says which step went wrong and how.
fn run_case(case: &Value, conformance_dir: &Path) -> Result<(), String> {
    let mut parser = SdkSteps::new(parser_for(case, conformance_dir)?);
    let steps = case
        .get("steps")
        .and_then(Value::as_array)
        .ok_or("case has no steps")?;
    for (i, step) in steps.iter().enumerate() {
        let input = step
            .get("input")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("step {i} has no input"))?;
        let result = parser.chunk(input);
        match (either(step, &["expect_error", "expectError"]), result) {
            // An expected error ends the case.
            (Some(want), Err(e)) => {
                return error_expected(want, &e).map_err(|why| format!("step {i}: {why}"));
            }
            (Some(want), Ok(parts)) => {
                let got: Vec<Value> = parts.iter().map(part_to_value).collect();
                return Err(format!(
                    "step {i}: expected an error matching {want}, got {}",
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
