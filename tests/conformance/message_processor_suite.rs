//! The runner of the A2UI project's `core/message_processor_v1_0.yaml`: each case's messages
//! applied to a [`RendererState`], then its expectations checked. The suite's header names the
//! actions and expectations; they are read as the project's reference harnesses read them:
//!
//! - `process_messages` and `validate`: the case's `messages` (a list or a `{"messages": [...]}`
//!   wrapper) go to [`RendererState::apply_batch`]; with `steps`, each step's in turn. A step's
//!   `expectError` is for that step, the case's for the last one; a step's `expect` is checked
//!   after it, the case's after all of them.
//! - `get_renderer_capabilities`: [`RendererState::capabilities`] for `args.version`, equal to
//!   `expect`.
//! - The renderer's catalogs: a case's `catalogs`, each of its `protocolVersion`. A case that
//!   names a catalog document instead (`catalogPaths`), or none, gets the catalogs its
//!   `createSurface` messages name, of the case's protocol version (its `protocolVersion`,
//!   else its first message's, else v0.9): the harnesses register the document under those
//!   ids, and the model holds no catalog schemas. `strictMode: true` makes it
//!   [`RendererState::strict`].
//! - `expectError`: the error's [`Category`](a2ui_stream::renderer::Category) is the
//!   `category`, and its text matches `message` (a regular expression, searched).
//! - `expect.surfaces`: `exists: false`, no such surface; otherwise the surface exists, and
//!   each of `sendDataModel`, `catalogId`, `theme`, `metadata` and `dataModel` given is equal;
//!   `components` lists the surface's component ids, and each property given is the
//!   component's (`component` its type).

use std::collections::BTreeSet;
use std::path::Path;

use a2ui_stream::Version;
use a2ui_stream::renderer::{RenderError, RendererState, Surface};
use serde_json::Value;

/// The suite's path under `<shared>/a2ui-v1/conformance`.
pub const FILE: &str = "core/message_processor_v1_0.yaml";

/// One result per case of the suite under `conformance_dir` (`<shared>/a2ui-v1/conformance`).
pub fn run(conformance_dir: &Path) -> Vec<(String, Result<(), String>)> {
    crate::suite::run_path(&conformance_dir.join(FILE), FILE, run_case)
}

fn run_case(case: &Value) -> Result<(), String> {
    match case.get("action").and_then(Value::as_str) {
        Some("process_messages" | "validate") => process(case),
        Some("get_renderer_capabilities") => capabilities(case),
        other => Err(format!("action {other:?} is not one of this suite's")),
    }
}

fn process(case: &Value) -> Result<(), String> {
    let mut state = renderer_for(case);
    let steps: Vec<&Value> = match case.get("steps") {
        Some(Value::Array(steps)) => steps.iter().collect(),
        Some(_) => return Err("steps is not a list".into()),
        None => vec![case],
    };
    for (i, step) in steps.iter().enumerate() {
        let last = i + 1 == steps.len();
        let expect_error = step
            .get("expectError")
            .or_else(|| last.then(|| case.get("expectError")).flatten());
        let messages = step
            .get("messages")
            .or_else(|| step.get("payload"))
            .ok_or_else(|| format!("step {i} has no messages"))?;
        match (state.apply_batch(messages), expect_error) {
            (Ok(()), None) => {}
            (Ok(()), Some(want)) => return Err(format!("step {i}: no error, expected {want}")),
            (Err(err), None) => return Err(format!("step {i}: {err}")),
            (Err(err), Some(want)) => {
                check_error(&err, want).map_err(|w| format!("step {i}: {w}"))?
            }
        }
        let own_expect = !std::ptr::eq(*step, case);
        if let Some(expect) = step.get("expect").filter(|_| own_expect) {
            check_expect(&state, expect).map_err(|w| format!("after step {i}: {w}"))?;
        }
    }
    match case.get("expect") {
        Some(expect) => check_expect(&state, expect),
        None => Ok(()),
    }
}

fn capabilities(case: &Value) -> Result<(), String> {
    let args = case.get("args").ok_or("no args")?;
    if args.get("includeInlineCatalogs") == Some(&Value::Bool(true)) {
        return Err("inline catalogs are not modelled".into());
    }
    let version = args
        .get("version")
        .and_then(Value::as_str)
        .and_then(Version::parse)
        .ok_or("no version this model speaks in args")?;
    let got = renderer_for(case).capabilities(version);
    let want = case.get("expect").ok_or("no expect")?;
    if &got == want {
        Ok(())
    } else {
        Err(format!("capabilities {got}, expected {want}"))
    }
}

/// The renderer a case runs against (see the module's documentation).
fn renderer_for(case: &Value) -> RendererState {
    let mut state = RendererState::new();
    let version = case_version(case);
    if let Some(Value::Array(catalogs)) = case.get("catalogs") {
        for catalog in catalogs {
            let id = catalog.get("catalogId").and_then(Value::as_str);
            let speaks = catalog
                .get("protocolVersion")
                .and_then(Value::as_str)
                .and_then(Version::parse)
                .or(version);
            if let (Some(id), Some(speaks)) = (id, speaks) {
                state = state.with_catalog(id, speaks);
            }
        }
    } else if let Some(version) = version {
        let named: BTreeSet<&str> = messages(case)
            .into_iter()
            .filter_map(|m| m.get("createSurface")?.get("catalogId")?.as_str())
            .collect();
        for id in named {
            state = state.with_catalog(id, version);
        }
    }
    if case.get("strictMode") == Some(&Value::Bool(true)) {
        state = state.strict();
    }
    state
}

/// The case's protocol version: its `protocolVersion`, else its first message's, else v0.9
/// (`None` for one this model does not speak).
fn case_version(case: &Value) -> Option<Version> {
    let text = case
        .get("protocolVersion")
        .and_then(Value::as_str)
        .or_else(|| {
            messages(case)
                .into_iter()
                .find_map(|m| m.get("version")?.as_str())
        })
        .unwrap_or("v0.9");
    Version::parse(text)
}

/// Every message of the case, across its steps.
fn messages(case: &Value) -> Vec<&Value> {
    let batches: Vec<&Value> = match case.get("steps") {
        Some(Value::Array(steps)) => steps.iter().filter_map(|s| s.get("messages")).collect(),
        _ => case.get("messages").into_iter().collect(),
    };
    let mut out = Vec::new();
    for batch in batches {
        match batch {
            Value::Array(list) => out.extend(list),
            Value::Object(wrapper) => match wrapper.get("messages") {
                Some(Value::Array(list)) => out.extend(list),
                _ => out.push(batch),
            },
            _ => {}
        }
    }
    out
}

fn check_error(err: &RenderError, want: &Value) -> Result<(), String> {
    let (category, message) = match want {
        Value::String(pattern) => (None, Some(pattern.as_str())),
        Value::Object(fields) => {
            if let Some(key) = fields
                .keys()
                .find(|k| !matches!(k.as_str(), "category" | "message"))
            {
                return Err(format!("expectError.{key} is not checked by this runner"));
            }
            (
                fields.get("category").and_then(Value::as_str),
                fields.get("message").and_then(Value::as_str),
            )
        }
        _ => {
            return Err(format!(
                "expectError {want} is neither a pattern nor an object"
            ));
        }
    };
    if let Some(category) = category {
        let got = err.kind().category().as_str();
        if got != category {
            return Err(format!("{got} ({err}), expected {category}"));
        }
    }
    match message {
        Some(pattern) => crate::suite::error_matches(pattern, &err.to_string()),
        None => Ok(()),
    }
}

fn check_expect(state: &RendererState, expect: &Value) -> Result<(), String> {
    let Value::Object(fields) = expect else {
        return Err(format!("expect {expect} is not an object"));
    };
    for (key, value) in fields {
        match (key.as_str(), value) {
            ("surfaces", Value::Object(surfaces)) => {
                for (id, want) in surfaces {
                    check_surface(state, id, want).map_err(|w| format!("surface {id}: {w}"))?;
                }
            }
            _ => return Err(format!("expect.{key} is not checked by this runner")),
        }
    }
    Ok(())
}

fn check_surface(state: &RendererState, id: &str, want: &Value) -> Result<(), String> {
    let Value::Object(want) = want else {
        return Err(format!("expectation {want} is not an object"));
    };
    let surface = state.surface(id);
    if want.get("exists") == Some(&Value::Bool(false)) {
        return match surface {
            None => Ok(()),
            Some(_) => Err("exists, expected none".into()),
        };
    }
    let surface = surface.ok_or("does not exist")?;
    for (key, value) in want {
        let same = match key.as_str() {
            "exists" => value == &Value::Bool(true),
            "sendDataModel" => Some(surface.send_data_model()) == value.as_bool(),
            "catalogId" => surface.catalog_id() == value.as_str(),
            "theme" => surface.theme() == Some(value),
            "metadata" => surface.metadata() == Some(value),
            "dataModel" => surface.data_model() == value,
            "components" => {
                check_components(surface, value)?;
                true
            }
            other => return Err(format!("{other} is not checked by this runner")),
        };
        if !same {
            return Err(format!("{key} is not {value}"));
        }
    }
    Ok(())
}

/// The surface holds exactly the listed component ids, and each listed property is the
/// component's.
fn check_components(surface: &Surface, want: &Value) -> Result<(), String> {
    let listed: Vec<(&str, &serde_json::Map<String, Value>)> = match want {
        Value::Array(list) => list
            .iter()
            .map(|c| {
                let fields = c.as_object().ok_or("a listed component is not an object")?;
                let id = fields
                    .get("id")
                    .and_then(Value::as_str)
                    .ok_or("a listed component has no id")?;
                Ok((id, fields))
            })
            .collect::<Result<_, String>>()?,
        Value::Object(by_id) => by_id
            .iter()
            .map(|(id, c)| {
                Ok((
                    id.as_str(),
                    c.as_object().ok_or("a listed component is not an object")?,
                ))
            })
            .collect::<Result<_, String>>()?,
        _ => return Err("components is neither a list nor a map".into()),
    };
    let held: BTreeSet<&str> = surface.components().map(|c| c.id()).collect();
    let expected: BTreeSet<&str> = listed.iter().map(|(id, _)| *id).collect();
    if held != expected {
        return Err(format!("component ids {held:?}, expected {expected:?}"));
    }
    for (id, fields) in listed {
        let component = surface
            .component(id)
            .ok_or_else(|| format!("no component {id}"))?;
        for (key, value) in fields {
            let same = match key.as_str() {
                "id" => true,
                "component" => value.as_str() == Some(component.component_type()),
                _ => component.property(key) == Some(value),
            };
            if !same {
                return Err(format!("component {id}: {key} is not {value}"));
            }
        }
    }
    Ok(())
}
