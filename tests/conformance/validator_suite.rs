//! Runs `suites/validator.yaml`: every case builds a catalog from its `catalog:` block and
//! validates each payload, expecting success or an error matching `expect_error` (a regular
//! expression, searched in the error message).

use std::path::Path;

use a2ui_stream::official::catalog::Catalog;
use a2ui_stream::official::validator::{ValidationError, ValidationErrorKind, Validator};
use serde_json::Value;

use crate::suite;

/// Runs every case of `validator.yaml` under `conformance_dir`; one result per case.
pub fn run(conformance_dir: &Path) -> Vec<(String, Result<(), String>)> {
    suite::run(conformance_dir, "validator.yaml", |case| {
        run_case(case, conformance_dir)
    })
}

fn run_case(case: &Value, conformance_dir: &Path) -> Result<(), String> {
    let action = case.get("action").and_then(Value::as_str);
    if action != Some("validate") {
        return Err(format!("unexpected action {action:?}"));
    }
    let config = case.get("catalog").ok_or("case has no catalog")?;
    let catalog = Catalog::from_config(config, conformance_dir).map_err(|e| e.to_string())?;
    let validator =
        Validator::new(&catalog).map_err(|e| format!("catalog does not compile: {e}"))?;
    let steps: Vec<&Value> = match case.get("steps").and_then(Value::as_array) {
        Some(steps) => steps.iter().collect(),
        None => vec![case],
    };
    if steps.is_empty() {
        return Err("case has no steps".to_owned());
    }
    for (n, step) in steps.iter().enumerate() {
        let payload = step
            .get("payload")
            .ok_or_else(|| format!("step {n} has no payload"))?;
        let expect = step.get("expect_error").and_then(Value::as_str);
        check(validator.validate(payload), expect).map_err(|e| format!("step {n}: {e}"))?;
    }
    Ok(())
}

fn check(outcome: Result<(), ValidationError>, expect: Option<&str>) -> Result<(), String> {
    match (outcome, expect) {
        (Ok(()), None) => Ok(()),
        (Ok(()), Some(pattern)) => Err(format!(
            "passed, but expected an error matching {pattern:?}"
        )),
        (Err(e), None) => Err(format!("expected success, got error: {e}")),
        (Err(e), Some(pattern)) => {
            suite::error_matches(pattern, e.message())?;
            kind_fits(&e)
        }
    }
}

/// The error's kind is the rule its words name (the words are the reference implementation's;
/// the kind is what a program reads).
pub fn kind_fits(e: &ValidationError) -> Result<(), String> {
    let words = [
        ("Validation failed", ValidationErrorKind::Schema),
        ("Dangling reference", ValidationErrorKind::DanglingReference),
        ("Circular component reference", ValidationErrorKind::Cycle),
        ("Duplicate component ID", ValidationErrorKind::DuplicateId),
        ("Missing root component", ValidationErrorKind::MissingRoot),
        (
            "Self-reference detected",
            ValidationErrorKind::SelfReference,
        ),
        ("Circular reference detected", ValidationErrorKind::Cycle),
        ("Global recursion limit", ValidationErrorKind::TooDeep),
        ("Recursion limit exceeded", ValidationErrorKind::TooDeep),
        ("Invalid path syntax", ValidationErrorKind::PathSyntax),
        ("Invalid schema", ValidationErrorKind::InvalidSchema),
    ];
    let want = words
        .iter()
        .find(|(start, _)| e.message().starts_with(start))
        .map(|&(_, kind)| kind)
        .or_else(|| {
            let m = e.message();
            if m.contains("references non-existent component") {
                Some(ValidationErrorKind::DanglingReference)
            } else if m.contains("is not reachable from") {
                Some(ValidationErrorKind::Unreachable)
            } else {
                None
            }
        });
    match want {
        Some(kind) if kind != e.kind() => Err(format!("{e:?}: kind should be {kind:?}")),
        Some(_) => Ok(()),
        None => Err(format!("no rule known for {:?}", e.message())),
    }
}
