//! Runs the Express suites `agent/express/decompiler.yaml` and
//! `agent/express/prompt_generator.yaml` from `../shared/a2ui-express/conformance` (or
//! `$A2UI_SHARED/a2ui-express/conformance`), prints `N passed, N failed` for each, and fails on
//! any failure.
//!
//! How a case is read:
//! * A catalog path (`test_data/catalogs/...`) is looked up under `a2ui-express/conformance`,
//!   else under `a2ui-v1/conformance` (where `simplified_catalog_v1_0.json` lives). Its
//!   `protocolVersion` picks the message and common-type schemas: for v1.0 those the released
//!   SDK enforces (`a2ui-v1/sdk-derived/v1_0/`).
//! * A transformer `component_pruning: [names]` or `function_pruning: [names]` narrows the
//!   catalog with [`Catalog::with_only_components`] or [`Catalog::with_only_functions`].
//! * `expect_round_trip`: the decompiled text compiles back to the case's messages. This
//!   revision of the suite writes v1.0 bindings as `path` / `call`, the released SDK and the
//!   v1.0 schemas as `@path` / `@call`; both sides are compared with the `@` dropped.
//! * `expect_error: {category: CatalogError}`: the prompt is refused for want of a catalog.
#![cfg(feature = "express")]

#[path = "conformance/suite.rs"]
mod suite;

mod support;

use support::express::*;

use std::path::Path;

use a2ui_stream::MessageKind;
use a2ui_stream::express::{self, CompileOptions, ExpressErrorKind};
use a2ui_stream::official::catalog::Catalog;
use serde_json::Value;

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn express_decompiler_suite() {
    let Some(shared) = shared() else {
        support::say("skipping decompiler.yaml: ../shared/a2ui-express not found");
        return;
    };
    let file = shared.join("a2ui-express/conformance/agent/express/decompiler.yaml");
    suite::check_file(&file, 12, |case| decompiler_case(case, &shared));
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn express_prompt_generator_suite() {
    let Some(shared) = shared() else {
        support::say("skipping prompt_generator.yaml: ../shared/a2ui-express not found");
        return;
    };
    let file = shared.join("a2ui-express/conformance/agent/express/prompt_generator.yaml");
    suite::check_file(&file, 12, |case| prompt_case(case, &shared));
}

fn decompiler_case(case: &Value, shared: &Path) -> Result<(), String> {
    expect_action(case, "decompile")?;
    let args = case.get("args").ok_or("case has no args")?;
    let catalog = args
        .get("catalog")
        .and_then(Value::as_str)
        .ok_or("case names no catalog")?;
    let catalogs = [load_catalog(shared, catalog)?];
    let messages = case
        .get("messages")
        .and_then(Value::as_array)
        .ok_or("case has no messages")?;
    let text =
        express::decompile(messages, &catalogs).map_err(|e| format!("decompile failed: {e}"))?;
    expect_contains(case, &text)?;
    if case.get("expect_round_trip") == Some(&Value::Bool(true)) {
        round_trip(&text, messages, &catalogs)?;
    }
    Ok(())
}

/// The text compiles back to `messages`, bindings compared without their `@`.
fn round_trip(text: &str, messages: &[Value], catalogs: &[Catalog]) -> Result<(), String> {
    let compiled = express::compile(text, catalogs, &CompileOptions::default())
        .map_err(|e| format!("the decompiled text does not compile ({e}):\n{text}"))?;
    let (got, want) = (
        without_at(&Value::Array(compiled)),
        without_at(&Value::Array(messages.to_vec())),
    );
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "the decompiled text compiles to other messages:\n{text}\ngot  {got}\nwant {want}"
        ))
    }
}

fn prompt_case(case: &Value, shared: &Path) -> Result<(), String> {
    expect_action(case, "generate_prompt_snippet")?;
    let args = case.get("args").ok_or("case has no args")?;
    let catalogs = args
        .get("catalogs")
        .and_then(Value::as_array)
        .ok_or("case has no catalogs")?
        .iter()
        .map(|entry| transformed_catalog(entry, shared))
        .collect::<Result<Vec<_>, _>>()?;
    let examples = args
        .get("examples")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|path| load_example(shared, path))
        .collect::<Result<Vec<_>, _>>()?;
    let allowed = match args.get("allowed_messages").and_then(Value::as_array) {
        Some(names) => Some(message_kinds(names)?),
        None => None,
    };
    let render = || match &allowed {
        Some(kinds) => express::prompt_allowing(&catalogs, &examples, kinds),
        None => express::prompt(&catalogs, &examples),
    };
    let prompt = match (render(), case.get("expect_error")) {
        (Err(e), Some(expect)) => return catalog_error(&e, expect),
        (Ok(_), Some(expect)) => return Err(format!("expected the error {expect}, got a prompt")),
        (Err(e), None) => return Err(format!("prompt failed: {e}")),
        (Ok(prompt), None) => prompt,
    };
    expect_contains(case, &prompt)?;
    expect_absent(case, &prompt)?;
    if case.get("expect_deterministic") == Some(&Value::Bool(true)) {
        let again = render().map_err(|e| format!("the second prompt failed: {e}"))?;
        if again != prompt {
            return Err("two prompts for the same input differ".to_owned());
        }
    }
    Ok(())
}

/// The refusal a case expects: a `CatalogError` is a prompt with no catalog to describe, which
/// the crate reports as a validation error that says so.
fn catalog_error(error: &express::ExpressError, expect: &Value) -> Result<(), String> {
    let category = expect.get("category").and_then(Value::as_str);
    if category != Some("CatalogError") {
        return Err(format!("unknown error category {category:?}"));
    }
    if error.kind() == ExpressErrorKind::Validation && error.message().contains("catalog") {
        Ok(())
    } else {
        Err(format!("{error:?} is not a CatalogError"))
    }
}

fn message_kinds(names: &[Value]) -> Result<Vec<MessageKind>, String> {
    names
        .iter()
        .map(|name| {
            name.as_str()
                .and_then(|key| MessageKind::from_key(key.as_bytes()))
                .ok_or_else(|| format!("unknown message kind {name}"))
        })
        .collect()
}

fn expect_action(case: &Value, want: &str) -> Result<(), String> {
    match case.get("action").and_then(Value::as_str) {
        Some(action) if action == want => Ok(()),
        other => Err(format!("unexpected action {other:?}")),
    }
}

fn expect_contains(case: &Value, text: &str) -> Result<(), String> {
    for fragment in strings(case, "expect_contains") {
        if !text.contains(fragment) {
            return Err(format!("{fragment:?} is missing from:\n{text}"));
        }
    }
    Ok(())
}

fn expect_absent(case: &Value, text: &str) -> Result<(), String> {
    for fragment in strings(case, "expect_absent") {
        if text.contains(fragment) {
            return Err(format!("{fragment:?} should be absent from:\n{text}"));
        }
    }
    Ok(())
}

fn strings<'a>(case: &'a Value, key: &str) -> impl Iterator<Item = &'a str> {
    case.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// A catalog entry of a prompt case (`{catalog: path, transformers: [...]}`), transformed.
fn transformed_catalog(entry: &Value, shared: &Path) -> Result<Catalog, String> {
    let path = entry
        .get("catalog")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("catalog entry {entry} names no catalog"))?;
    let mut catalog = load_catalog(shared, path)?;
    for transformer in entry
        .get("transformers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        catalog = transformed(&catalog, transformer)?;
    }
    Ok(catalog)
}

fn transformed(catalog: &Catalog, transformer: &Value) -> Result<Catalog, String> {
    let names = |key: &str| -> Option<Vec<&str>> {
        let list = transformer.get(key)?.as_array()?;
        Some(list.iter().filter_map(Value::as_str).collect())
    };
    if let Some(keep) = names("component_pruning") {
        Ok(catalog.with_only_components(&keep))
    } else if let Some(keep) = names("function_pruning") {
        Ok(catalog.with_only_functions(&keep))
    } else {
        Err(format!("unknown transformer {transformer}"))
    }
}

/// The messages of one example turn.
fn load_example(shared: &Path, path: &Value) -> Result<Vec<Value>, String> {
    let path = path.as_str().ok_or("an example is named by a path")?;
    match read(&test_data(shared, path)?)? {
        Value::Array(messages) => Ok(messages),
        message @ Value::Object(_) => Ok(vec![message]),
        other => Err(format!("{path} holds no messages: {other}")),
    }
}
