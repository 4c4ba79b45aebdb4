//! Runs the Express compiler suite `agent/express/compiler.yaml` from
//! `../shared/a2ui-express/conformance` (or `$A2UI_SHARED/a2ui-express/conformance`), prints
//! `N passed, N failed`, and fails on any failure; and compiles the restaurant card.
//!
//! How a case is read:
//! * `args.catalog` (or the list `args.catalogs`) names catalog files under `test_data/`, looked
//!   up under `a2ui-express/conformance`, else under `a2ui-v1/conformance` (where
//!   `simplified_catalog_v1_0.json` lives). A catalog's `protocolVersion` picks the message and
//!   common-type schemas: for v1.0 those the released SDK enforces (`a2ui-v1/sdk-derived/v1_0/`).
//! * `expect`: the messages, compared as JSON values. This revision of the suite writes v1.0
//!   bindings as `path` / `call`, the released SDK and the v1.0 schemas as `@path` / `@call`;
//!   both sides are compared with the `@` dropped.
//! * `expect_present`: JSON Pointers into the messages that must be there (a check's message,
//!   whose wording is the implementation's).
//! * `expect_error: {category}`: `ParseError` or `ValidationError`.
#![cfg(feature = "express")]

#[path = "conformance/suite.rs"]
mod suite;

mod support;

use support::express::*;

use std::path::Path;

use a2ui_stream::express::{CompileOptions, ExpressErrorKind, compile};
use a2ui_stream::official::catalog::{Catalog, Version};
use serde_json::{Value, json};

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn express_compiler_suite() {
    let Some(shared) = shared() else {
        support::say("skipping compiler.yaml: ../shared/a2ui-express not found");
        return;
    };
    let file = shared.join("a2ui-express/conformance/agent/express/compiler.yaml");
    suite::check_file(&file, 45, |case| compiler_case(case, &shared));
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn restaurant_card_compiles_as_the_sdk_does() {
    let Some(shared) = shared() else {
        support::say("skipping the restaurant card: ../shared/a2ui-express not found");
        return;
    };
    let dir = shared.join("a2ui-express");
    let text = std::fs::read_to_string(dir.join("20_restaurant-card.underscore.a2ui")).unwrap();
    let sdk: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("20_restaurant-card.compiled_by_sdk_0.9.0.json"))
            .unwrap(),
    )
    .unwrap();
    let sdk = match sdk {
        Value::Array(messages) => messages,
        other => vec![other],
    };
    // The built-in catalog and the SDK's own catalog file compile it alike, and as the SDK does.
    let file = shared.join("a2ui-v1/sdk-derived/v1_0/basic_catalog.json");
    let from_file = load_catalog_file(&shared, &file, Version::V10).unwrap();
    for catalog in [Catalog::builtin(Version::V10), from_file] {
        let messages = compile(&text, &[catalog], &CompileOptions::default()).unwrap();
        assert_eq!(messages.len(), 1);
        let mut got = messages[0].clone();
        let mut want = sdk[0].clone();
        // The surface id is the caller's.
        got["createSurface"]["surfaceId"] = json!("s");
        want["createSurface"]["surfaceId"] = json!("s");
        assert_eq!(got, want);
    }
}

fn compiler_case(case: &Value, shared: &Path) -> Result<(), String> {
    let args = case.get("args").ok_or("a case has args")?;
    let catalogs = case_catalogs(args, shared)?;
    let input = case
        .get("input")
        .and_then(Value::as_str)
        .ok_or("a case has an input")?;
    let result = compile(input, &catalogs, &CompileOptions::default());
    if let Some(expect) = case.get("expect_error") {
        let category = expect.get("category").and_then(Value::as_str).unwrap_or("");
        let want = match category {
            "ParseError" => ExpressErrorKind::Parse,
            "ValidationError" => ExpressErrorKind::Validation,
            other => return Err(format!("unknown error category {other}")),
        };
        return match result {
            Err(e) if e.kind() == want => Ok(()),
            Err(e) => Err(format!("expected a {category}, got {:?}: {e}", e.kind())),
            Ok(messages) => Err(format!(
                "expected a {category}, got {}",
                Value::Array(messages)
            )),
        };
    }
    let messages = result.map_err(|e| format!("{:?}: {e}", e.kind()))?;
    let got = without_at(&Value::Array(messages));
    if let Some(present) = case.get("expect_present").and_then(Value::as_array) {
        for pointer in present.iter().filter_map(Value::as_str) {
            if got.pointer(pointer).is_none() {
                return Err(format!("{pointer} is missing from {got}"));
            }
        }
    }
    let want = case
        .get("expect")
        .ok_or("a case expects messages or an error")?;
    let got = match case.get("expect_present").and_then(Value::as_array) {
        // What the pointers name is the implementation's: compare the rest.
        Some(present) => {
            let mut pruned = got.clone();
            for pointer in present.iter().filter_map(Value::as_str) {
                remove_at(&mut pruned, pointer);
            }
            pruned
        }
        None => got,
    };
    if &got == want {
        Ok(())
    } else {
        Err(format!("got  {got}\nwant {want}"))
    }
}

/// Removes the member at JSON Pointer `pointer`.
fn remove_at(value: &mut Value, pointer: &str) {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return;
    };
    if let Some(Value::Object(map)) = value.pointer_mut(parent) {
        map.remove(last);
    }
}
