//! Runs the Express response-parser suite `agent/express/response_parser.yaml` from
//! `../shared/a2ui-express/conformance` (or `$A2UI_SHARED/a2ui-express/conformance`) through
//! the crate's Express API, prints `N passed, N failed`, and fails on any failure.
//!
//! How a case is read, by its `action`:
//! * `unwrap_response`: [`express::unwrap`], its parts compared with `expect` (`text`, or
//!   `a2ui_raw` with `is_final: false` for a block left open). The text runs must also be those
//!   [`ExpressParser`] hands out for the same response, fed whole and a byte at a time.
//! * `wrap_response`: [`express::wrap`] of `parts`; `expect_output` is the text,
//!   `expect_contains` pieces of it, `expect_round_trip` that it unwraps to `parts` again.
//! * `compile_payload`: [`express::compile`] with the case's catalogs and default options.
//! * `decompile_payload`: [`express::decompile`] of `messages`; `expect_contains` pieces of the
//!   text, `expect_round_trip` that it compiles back to `messages`.
//! * `parse_response`: [`express::parse_response`] (`args.wrapped`, true unless false). The
//!   same response through [`ExpressParser`] (whole, and in 1- and 7-byte chunks) must give the
//!   same text runs and leave a renderer with the same surfaces before each text run and at
//!   the end, or meet the same first error (kind and byte).
//!
//! `args.catalog` (or the list `args.catalogs`) names catalog files under `test_data/`, looked
//! up under `a2ui-express/conformance`, else under `a2ui-v1/conformance` (where
//! `simplified_catalog_v1_0.json` lives); a catalog's `protocolVersion` picks the message and
//! common-type schemas (for v1.0 those the released SDK enforces, `a2ui-v1/sdk-derived/v1_0/`).
//! This revision of the suite writes v1.0 bindings as `path` / `call`, the released SDK and
//! the v1.0 schemas as `@path` / `@call`: messages are compared with the `@` dropped.
//! `expect_error: {category}` is `ParseError` or `ValidationError`.
//!
//! Without the shared data: code fences in a response read as white space by both parsers.
#![cfg(feature = "express")]

#[path = "conformance/suite.rs"]
mod suite;

mod support;

use support::express::*;
use support::parts::{raw_part, suite_part, suite_raw};

use std::path::Path;

use a2ui_stream::express::{self, CompileOptions, ExpressError, ExpressErrorKind, ExpressParser};
use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::direct::{Part, RawPart};
use a2ui_stream::renderer::RendererState;
use serde_json::Value;

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn express_response_parser_suite() {
    let Some(shared) = shared() else {
        support::say("skipping response_parser.yaml: ../shared/a2ui-express not found");
        return;
    };
    let file = shared.join("a2ui-express/conformance/agent/express/response_parser.yaml");
    suite::check_file(&file, 44, |case| response_case(case, &shared));
}

/// Code fences around and inside a block, cut by a chunk or by the end of the response:
/// [`ExpressParser`] and [`express::parse_response`] read them as white space, and place an
/// error after one at its byte in the response.
#[test]
fn fences_are_white_space_in_both_parsers() {
    let catalogs = [Catalog::builtin(Version::V10)];
    let options = CompileOptions::default();
    for (content, wrapped) in [
        ("```\nroot = Text(\"a\")\n```", false),
        ("```express\nroot = Text(\"a\")\n```express", false),
        ("Hi.\n<a2ui>\n```\nroot = Text(\"a\")\n```\n</a2ui>", true),
    ] {
        let whole = express::parse_response(content, &catalogs, &options, wrapped).unwrap();
        let whole = checkpoints(&whole.into_iter().map(Ok).collect::<Vec<_>>()).unwrap();
        for size in [content.len(), 3, 1] {
            let parts = streamed(content, &catalogs, wrapped, size).unwrap();
            assert_eq!(
                checkpoints(&parts).unwrap(),
                whole,
                "{content:?} in {size}-byte chunks"
            );
        }
    }
    // A statement the block ends inside, a fence after it: the error is at the close tag.
    let content = "<a2ui>\nroot = Text(\"Hi\"\n```\n</a2ui>";
    let at = content.find("</a2ui>").map(|at| at as u64);
    let err = express::parse_response(content, &catalogs, &options, true).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ExpressErrorKind::Parse, at));
    for size in [content.len(), 1] {
        let parts = streamed(content, &catalogs, true, size).unwrap();
        let err = parts.into_iter().find_map(Result::err).unwrap();
        assert_eq!((err.kind(), err.offset()), (ExpressErrorKind::Parse, at));
    }
}

fn response_case(case: &Value, shared: &Path) -> Result<(), String> {
    let args = case.get("args").ok_or("a case has args")?;
    if args.get("format").and_then(Value::as_str) != Some("express") {
        return Err(format!("not an Express case: {args}"));
    }
    match case.get("action").and_then(Value::as_str) {
        Some("unwrap_response") => unwrap_case(case),
        Some("wrap_response") => wrap_case(case),
        Some("compile_payload") => compile_case(case, &case_catalogs(args, shared)?),
        Some("decompile_payload") => decompile_case(case, &case_catalogs(args, shared)?),
        Some("parse_response") => parse_case(case, &case_catalogs(args, shared)?),
        other => Err(format!("unknown action {other:?}")),
    }
}

fn input(case: &Value) -> Result<&str, String> {
    case.get("input")
        .and_then(Value::as_str)
        .ok_or_else(|| "a case has an input".to_owned())
}

fn unwrap_case(case: &Value) -> Result<(), String> {
    let content = input(case)?;
    let parts = express::unwrap(content);
    let got: Vec<Value> = parts.iter().map(raw_part).collect();
    let want = case
        .get("expect")
        .and_then(Value::as_array)
        .ok_or("an unwrap case expects parts")?;
    if &got != want {
        return Err(format!("got  {got:?}\nwant {want:?}"));
    }
    // The text runs are the streaming parser's.
    let texts: Vec<String> = parts
        .iter()
        .filter_map(|part| match part {
            RawPart::Text(text) => Some(text.clone()),
            RawPart::A2uiRaw { .. } => None,
        })
        .collect();
    let catalogs = [Catalog::builtin(Version::V10)];
    for size in [content.len().max(1), 1] {
        let runs = text_runs(&streamed(content, &catalogs, true, size)?);
        if runs != texts {
            return Err(format!(
                "in {size}-byte chunks the streaming parser's text is {runs:?}, unwrap's {texts:?}"
            ));
        }
    }
    Ok(())
}

fn wrap_case(case: &Value) -> Result<(), String> {
    let parts: Vec<RawPart> = case
        .get("parts")
        .and_then(Value::as_array)
        .ok_or("a wrap case has parts")?
        .iter()
        .map(suite_raw)
        .collect::<Result<_, _>>()?;
    let out = express::wrap(&parts);
    if let Some(want) = case.get("expect_output").and_then(Value::as_str)
        && out != want
    {
        return Err(format!("wrote {out:?}, want {want:?}"));
    }
    expect_contains(case, &out)?;
    if case.get("expect_round_trip") == Some(&Value::Bool(true)) && express::unwrap(&out) != parts {
        return Err(format!(
            "{out:?} unwraps to {:?}, not {parts:?}",
            express::unwrap(&out)
        ));
    }
    Ok(())
}

fn compile_case(case: &Value, catalogs: &[Catalog]) -> Result<(), String> {
    let result = express::compile(input(case)?, catalogs, &CompileOptions::default());
    if let Some(expect) = case.get("expect_error") {
        return expect_error(expect, result.map(Value::Array));
    }
    let messages = result.map_err(|e| format!("{:?}: {e}", e.kind()))?;
    let want = case.get("expect").ok_or("a case expects messages")?;
    same_messages(&messages, want)
}

fn decompile_case(case: &Value, catalogs: &[Catalog]) -> Result<(), String> {
    let messages = case
        .get("messages")
        .and_then(Value::as_array)
        .ok_or("a decompile case has messages")?;
    let text =
        express::decompile(messages, catalogs).map_err(|e| format!("decompile failed: {e}"))?;
    expect_contains(case, &text)?;
    if case.get("expect_round_trip") == Some(&Value::Bool(true)) {
        let compiled = express::compile(&text, catalogs, &CompileOptions::default())
            .map_err(|e| format!("the decompiled text does not compile ({e}):\n{text}"))?;
        same_messages(&compiled, &Value::Array(messages.clone()))
            .map_err(|e| format!("the decompiled text compiles to other messages:\n{text}\n{e}"))?;
    }
    Ok(())
}

fn parse_case(case: &Value, catalogs: &[Catalog]) -> Result<(), String> {
    let content = input(case)?;
    let wrapped = case.pointer("/args/wrapped") != Some(&Value::Bool(false));
    let options = CompileOptions::default();
    let result = express::parse_response(content, catalogs, &options, wrapped);
    if let Some(expect) = case.get("expect_error") {
        let offset = result.as_ref().err().map(ExpressError::offset);
        expect_error(
            expect,
            result.map(|parts| Value::Array(parts.iter().map(suite_part).collect())),
        )?;
        // The streaming parser meets the same first error.
        for size in [content.len().max(1), 7, 1] {
            let first = streamed(content, catalogs, wrapped, size)?
                .into_iter()
                .find_map(Result::err)
                .ok_or_else(|| format!("in {size}-byte chunks the stream meets no error"))?;
            expect_error(expect, Err(first.clone()))?;
            if Some(first.offset()) != offset {
                return Err(format!(
                    "in {size}-byte chunks the stream's error is at {:?}, parse_response's at {offset:?}",
                    first.offset()
                ));
            }
        }
        return Ok(());
    }
    let parts = result.map_err(|e| format!("{:?}: {e}", e.kind()))?;
    let got: Vec<Value> = parts.iter().map(suite_part).collect();
    let want = case
        .get("expect")
        .and_then(Value::as_array)
        .ok_or("a parse case expects parts")?;
    if without_at(&Value::Array(got.clone())) != Value::Array(want.clone()) {
        return Err(format!("got  {got:?}\nwant {want:?}"));
    }
    // A renderer fed the stream holds the same surfaces before each text run and at the end.
    let whole = checkpoints(&parts.into_iter().map(Ok).collect::<Vec<_>>())?;
    for size in [content.len().max(1), 7, 1] {
        let streamed = checkpoints(&streamed(content, catalogs, wrapped, size)?)?;
        if streamed != whole {
            return Err(format!(
                "in {size}-byte chunks the stream leads to\n{streamed:?}\nparse_response to\n{whole:?}"
            ));
        }
    }
    Ok(())
}

/// Every part [`ExpressParser`] hands out for `content` fed in chunks of `size` bytes, and
/// those of `finish`.
fn streamed(
    content: &str,
    catalogs: &[Catalog],
    wrapped: bool,
    size: usize,
) -> Result<Vec<Result<Part, ExpressError>>, String> {
    let mut parser = ExpressParser::new(catalogs, CompileOptions::default())
        .map_err(|e| format!("no parser: {e}"))?;
    if !wrapped {
        parser = parser.unwrapped();
    }
    let mut parts = Vec::new();
    for chunk in support::chunks::chunks(content, size) {
        parts.extend(parser.feed(chunk));
    }
    parts.extend(parser.finish());
    Ok(parts)
}

/// The text runs of `parts`, each run's pieces joined.
fn text_runs(parts: &[Result<Part, ExpressError>]) -> Vec<String> {
    let mut runs: Vec<String> = Vec::new();
    let mut in_text = false;
    for part in parts {
        match (part, runs.last_mut()) {
            (Ok(Part::Text(text)), Some(run)) if in_text => run.push_str(text),
            (Ok(Part::Text(text)), _) => {
                runs.push(text.clone());
                in_text = true;
            }
            _ => in_text = false,
        }
    }
    runs
}

/// What a renderer fed `parts` holds before each text run (the run, its pieces joined) and at
/// the end (with no run). The first error stops it.
fn checkpoints(
    parts: &[Result<Part, ExpressError>],
) -> Result<Vec<(RendererState, Option<String>)>, String> {
    let mut state = RendererState::new();
    let mut points: Vec<(RendererState, Option<String>)> = Vec::new();
    let mut in_text = false;
    for part in parts {
        match part {
            Ok(Part::Text(text)) => match points.last_mut() {
                Some((_, Some(run))) if in_text => run.push_str(text),
                _ => {
                    points.push((state.clone(), Some(text.clone())));
                    in_text = true;
                }
            },
            Ok(Part::A2ui(messages)) => {
                for message in messages {
                    state
                        .apply(message)
                        .map_err(|e| format!("the renderer refuses {message}: {e}"))?;
                }
                in_text = false;
            }
            Err(e) => return Err(format!("{:?}: {e}", e.kind())),
        }
    }
    points.push((state, None));
    Ok(points)
}

/// `Ok` when `result` is the error `expect` names (`{category: ParseError | ValidationError}`).
fn expect_error(expect: &Value, result: Result<Value, ExpressError>) -> Result<(), String> {
    let category = expect.get("category").and_then(Value::as_str).unwrap_or("");
    let want = match category {
        "ParseError" => ExpressErrorKind::Parse,
        "ValidationError" => ExpressErrorKind::Validation,
        other => return Err(format!("unknown error category {other}")),
    };
    match result {
        Err(e) if e.kind() == want => Ok(()),
        Err(e) => Err(format!("expected a {category}, got {:?}: {e}", e.kind())),
        Ok(got) => Err(format!("expected a {category}, got {got}")),
    }
}

fn expect_contains(case: &Value, text: &str) -> Result<(), String> {
    for piece in case
        .get("expect_contains")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let piece = piece.as_str().ok_or("expect_contains holds strings")?;
        if !text.contains(piece) {
            return Err(format!("{text:?} lacks {piece:?}"));
        }
    }
    Ok(())
}

/// `got` is `want`, bindings compared without their `@`.
fn same_messages(got: &[Value], want: &Value) -> Result<(), String> {
    let (got, want) = (without_at(&Value::Array(got.to_vec())), without_at(want));
    if got == want {
        Ok(())
    } else {
        Err(format!("got  {got}\nwant {want}"))
    }
}
