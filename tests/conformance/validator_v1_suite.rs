//! Runs `core/validator_v1_0.yaml` of the A2UI project's v1.0 conformance data
//! (`../shared/a2ui-v1/conformance`): every case builds its catalog, validates each step's
//! messages and expects success or the error the step describes.
//!
//! How a case is read:
//! * `protocolVersion` (`"v1.0"`; a case without one targets v0.9, the protocol's default). A
//!   v1.0 case checks messages against the message and common-type schemas that the released
//!   SDK enforces (`sdk-derived/v1_0/`); a v0.9 case against the specification's
//!   (`../shared/a2ui/spec/v0_9/json/`).
//! * `catalog` (inline) or `catalogPaths` (files under `a2ui-v1/`). The basic v1.0 catalog the
//!   cases name (`specification/v1_0/catalogs/basic/catalog.json`) is the one the released SDK
//!   ships (`sdk-derived/v1_0/basic_catalog.json`): the published file predates the
//!   `"@path"`/`"@call"` bindings that the SDK and the suites use.
//! * `strictMode`: integrity checked strictly (root, dangling references, orphans), the
//!   default.
//! * `expectError`: a string is a regular expression searched in the error's words; an object
//!   names a `category` (the rules it covers are listed in [`category_kinds`]), maybe a
//!   `message` pattern, and `details`, each of which must be among the error's details with
//!   the same `path` and `code`.

use std::path::Path;

use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::validator::{ValidationError, ValidationErrorKind};
use serde_json::Value;

use crate::{suite, validator_suite};

/// The suite's file, under the shared folder.
pub const FILE: &str = "a2ui-v1/conformance/core/validator_v1_0.yaml";

/// The basic v1.0 catalog as the cases name it.
const BASIC_V10: &str = "specification/v1_0/catalogs/basic/catalog.json";

/// Runs every case of the suite under `shared` (the folder holding `a2ui/` and `a2ui-v1/`);
/// one result per case.
pub fn run(shared: &Path) -> Vec<(String, Result<(), String>)> {
    suite::run_file(&shared.join(FILE), |case| run_case(case, shared))
}

fn read(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))
}

/// The catalog a case names, with the message and common-type schemas of its version.
pub fn catalog_of(case: &Value, shared: &Path) -> Result<Catalog, String> {
    let version = match case.get("protocolVersion").and_then(Value::as_str) {
        Some(v) => Version::parse(v).ok_or_else(|| format!("unknown version {v}"))?,
        None => Version::V09,
    };
    let v1 = shared.join("a2ui-v1");
    let catalog = match (case.get("catalog"), case.get("catalogPaths")) {
        (Some(inline), _) => inline.clone(),
        (None, Some(Value::Array(paths))) => {
            let [Value::String(path)] = paths.as_slice() else {
                return Err(format!("expected one catalog path, got {paths:?}"));
            };
            if path == BASIC_V10 {
                read(&v1.join("sdk-derived/v1_0/basic_catalog.json"))?
            } else {
                read(&v1.join(path))?
            }
        }
        _ => return Err("case names no catalog".to_owned()),
    };
    let (s2c, common) = match version {
        Version::V10 => (
            read(&v1.join("sdk-derived/v1_0/agent_to_renderer.json"))?,
            read(&v1.join("sdk-derived/v1_0/common_types.json"))?,
        ),
        Version::V09 => (
            read(&shared.join("a2ui/spec/v0_9/json/server_to_client.json"))?,
            read(&shared.join("a2ui/spec/v0_9/json/common_types.json"))?,
        ),
        other => return Err(format!("no v1.0 suite case speaks {other}")),
    };
    Ok(Catalog::new(version, s2c, catalog, common))
}

fn run_case(case: &Value, shared: &Path) -> Result<(), String> {
    let action = case.get("action").and_then(Value::as_str);
    if action != Some("validate") {
        return Err(format!("unexpected action {action:?}"));
    }
    let catalog = catalog_of(case, shared)?;
    let validator = catalog
        .validator()
        .map_err(|e| format!("catalog does not compile: {e}"))?;
    let strict = case
        .get("strictMode")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let steps = case
        .get("steps")
        .and_then(Value::as_array)
        .filter(|steps| !steps.is_empty())
        .ok_or("case has no steps")?;
    for (n, step) in steps.iter().enumerate() {
        let messages = step
            .get("messages")
            .ok_or_else(|| format!("step {n} has no messages"))?;
        let outcome = validator.validate_with(messages, strict);
        check(outcome, step.get("expectError")).map_err(|e| format!("step {n}: {e}"))?;
    }
    Ok(())
}

/// The rules an error `category` of the suites covers.
pub fn category_kinds(category: &str) -> Option<&'static [ValidationErrorKind]> {
    Some(match category {
        "ValidationError" => &[ValidationErrorKind::Schema, ValidationErrorKind::PathSyntax],
        "IntegrityError" => &[
            ValidationErrorKind::DuplicateId,
            ValidationErrorKind::MissingRoot,
            ValidationErrorKind::DanglingReference,
            ValidationErrorKind::Unreachable,
        ],
        "RecursionError" => &[
            ValidationErrorKind::SelfReference,
            ValidationErrorKind::Cycle,
            ValidationErrorKind::TooDeep,
        ],
        "CatalogError" => &[ValidationErrorKind::InvalidSchema],
        _ => return None,
    })
}

fn check(outcome: Result<(), ValidationError>, expect: Option<&Value>) -> Result<(), String> {
    let e = match (outcome, expect) {
        (Ok(()), None) => return Ok(()),
        (Ok(()), Some(expect)) => return Err(format!("passed, but expected an error {expect}")),
        (Err(e), None) => return Err(format!("expected success, got error: {e}")),
        (Err(e), Some(_)) => e,
    };
    validator_suite::kind_fits(&e)?;
    match expect {
        Some(Value::String(pattern)) => suite::error_matches(pattern, e.message()),
        Some(Value::Object(spec)) => {
            if let Some(category) = spec.get("category").and_then(Value::as_str) {
                let kinds = category_kinds(category)
                    .ok_or_else(|| format!("unknown category {category}"))?;
                if !kinds.contains(&e.kind()) {
                    return Err(format!("{e:?} is not a {category}"));
                }
            }
            if let Some(pattern) = spec.get("message").and_then(Value::as_str) {
                suite::error_matches(pattern, e.message())?;
            }
            for want in spec
                .get("details")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let (path, code) = (want.get("path"), want.get("code"));
                let found = e.details().iter().any(|d| {
                    path.and_then(Value::as_str) == Some(d.path())
                        && code.and_then(Value::as_str) == Some(d.code().as_str())
                });
                if !found {
                    let have: Vec<String> = e.details().iter().map(ToString::to_string).collect();
                    return Err(format!("no detail {want} among {have:?} ({e})"));
                }
            }
            Ok(())
        }
        other => Err(format!("unreadable expectError {other:?}")),
    }
}
