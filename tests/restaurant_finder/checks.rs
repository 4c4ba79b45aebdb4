//! The after-stream check of the restaurant finder: the official validator of the built-in basic
//! catalog of every version, with no file at hand, and the retry an invalid UI gets.

use super::*;
use a2ui_stream::official::catalog::Catalog;
use a2ui_stream::official::validator::{Validator, rejoin};
use std::sync::OnceLock;

/// The official validator of the built-in basic catalog of `v`, checking as the demo says it
/// checks: v0.8 and v0.9 with strict validation removed (the strict v0.8 schema closes off
/// properties valid examples of the specification use), v1.0 as the A2UI SDK checks it, strict
/// schemas and identifier ids included.
pub fn validator(v: Version) -> Arc<Validator> {
    static CELLS: [OnceLock<Arc<Validator>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let (cell, strict) = match v {
        Version::V08 => (&CELLS[0], false),
        Version::V09 => (&CELLS[1], false),
        _ => (&CELLS[2], true),
    };
    cell.get_or_init(|| {
        let catalog = Catalog::builtin(v);
        let catalog = if strict {
            catalog
        } else {
            catalog.without_strict_validation()
        };
        catalog.validator().expect("the built-in catalog compiles")
    })
    .clone()
}

/// The official validator's words on `messages` of version `v`, all integrity checks on, the
/// components sent one by one put back into one list per surface.
pub fn official_check(v: Version, messages: &[Value]) -> Result<(), String> {
    validator(v)
        .validate_with(&Value::Array(rejoin(messages)), true)
        .map_err(|e| e.to_string())
}

/// `ops` as a client ends up holding them: each surface's components in one list, a component
/// sent again in place of the one before (a v0.8 stream sends stand-ins for components still to
/// come, then the components).
pub fn as_held(ops: &[Value]) -> Vec<Value> {
    let mut out = rejoin(ops);
    for list in out.iter_mut().filter_map(|m| {
        ["surfaceUpdate", "updateComponents"]
            .into_iter()
            .find(|key| m.get(*key).is_some())
            .and_then(|key| m[key].get_mut("components")?.as_array_mut())
    }) {
        let mut held: Vec<Value> = Vec::new();
        for c in list.drain(..) {
            match held.iter_mut().find(|h| h["id"] == c["id"]) {
                Some(earlier) => *earlier = c,
                None => held.push(c),
            }
        }
        *list = held;
    }
    out
}

/// What is wrong with the UI in `ops` (what a client received, or a model wrote): the official
/// validator's words on what the client holds, and any surface drawn on but never opened (a
/// renderer refuses updates of a v0.9 or v1.0 surface never created; a v0.8 surface is opened
/// by `beginRendering`, which names its root). Empty when it is whole.
pub fn problems(v: Version, ops: &[Value]) -> Vec<String> {
    let mut out: Vec<String> = official_check(v, &as_held(ops)).err().into_iter().collect();
    out.extend(
        rebuild(ops)
            .surfaces()
            .filter(|s| s.root().is_none())
            .map(|s| format!("surface {} was drawn on but never opened", s.id())),
    );
    out
}

#[tokio::test]
async fn an_invalid_ui_is_retried_once_with_the_reason() {
    let broken = {
        let mut ui = mock_ui();
        ui[1]["updateComponents"]["components"][0]["children"] =
            json!(["heading", "first", "missing"]);
        ui
    };
    let script: Script = Arc::new(move |req: &Value| {
        if last_content(req).starts_with(RETRY_PREFIX) {
            assert!(
                last_content(req).contains("missing"),
                "the retry should name the problem"
            );
            text_payloads(&ui_answer(&mock_ui()), 16)
        } else {
            text_payloads(&ui_answer(&broken), 16)
        }
    });
    let (mock, api_base) = start_mock(script, Duration::from_millis(1)).await;
    let server = mock_server(&api_base, &[]).await;
    let events = post_run(
        &server.base,
        &run_input("run-r", "anything", json!({})),
        |_| {},
    )
    .await;
    agui::verify(&events).unwrap();
    assert_eq!(mock.requests.load(Ordering::SeqCst), 2);
    let retry = custom(&events, RETRY_EVENT).expect("a retry event");
    assert!(retry["reason"].as_str().unwrap().contains("missing"));
    assert_eq!(
        types(&events).last().map(String::as_str),
        Some("RUN_FINISHED")
    );
    // The rejected surface was deleted before the corrected one came.
    let ops = received_operations(&events);
    assert!(ops.iter().any(|o| o.get("deleteSurface").is_some()));
    assert_eq!(rebuild(&ops), rebuild(&mock_ui()));
}

#[tokio::test]
async fn a_ui_invalid_twice_ends_the_run_with_run_error() {
    let script: Script = Arc::new(|_req: &Value| {
        text_payloads(
            "Here:\n<a2ui-json>[{\"version\":\"v0.9\",\"createSurface\":{\"surfaceId\":\"s\",\"catalogId\":\"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json\"}},{\"version\":\"v0.9\",\"updateComponents\":{\"surfaceId\":\"s\",\"components\":[{\"id\":\"root\",\"component\":\"Card\",\"child\":\"nowhere\"}]}}]</a2ui-json>",
            8,
        )
    });
    let (mock, api_base) = start_mock(script, Duration::from_millis(1)).await;
    let server = mock_server(&api_base, &[]).await;
    let events = post_run(
        &server.base,
        &run_input("run-e", "anything", json!({})),
        |_| {},
    )
    .await;
    agui::verify(&events).unwrap();
    assert_eq!(mock.requests.load(Ordering::SeqCst), 2);
    match events.last() {
        Some(Event::RunError(e)) => assert!(e.message.contains("nowhere"), "{}", e.message),
        other => panic!("expected RUN_ERROR last, got {other:?}"),
    }
}

#[tokio::test]
async fn the_official_validator_rejects_an_invalid_ui_in_its_own_words_and_the_run_retries() {
    // A text variant the basic catalog does not have.
    let broken = {
        let mut ui = mock_ui();
        ui[1]["updateComponents"]["components"][1]["variant"] = json!("huge");
        ui
    };
    let official_wording = "'huge' is not one of ['h1', 'h2', 'h3', 'h4', 'h5', 'caption', 'body']";
    let retried_with = Arc::new(std::sync::Mutex::new(String::new()));
    let seen = retried_with.clone();
    let script: Script = Arc::new(move |req: &Value| {
        if last_content(req).starts_with(RETRY_PREFIX) {
            *seen.lock().unwrap() = last_content(req);
            text_payloads(&ui_answer(&mock_ui()), 16)
        } else {
            text_payloads(&ui_answer(&broken), 16)
        }
    });
    let (mock, api_base) = start_mock(script, Duration::from_millis(1)).await;
    let server = mock_server(&api_base, &[]).await;
    // The server says which check its answers get.
    let page_line = server.log_text();
    assert!(
        page_line.contains(&format!("UI checked by {UI_CHECKS}")),
        "{page_line}"
    );
    let events = post_run(
        &server.base,
        &run_input("run-o", "anything", json!({})),
        |_| {},
    )
    .await;
    agui::verify(&events).unwrap();
    assert_eq!(mock.requests.load(Ordering::SeqCst), 2);
    let reason = custom(&events, RETRY_EVENT).expect("a retry event");
    let reason = reason["reason"].as_str().unwrap();
    assert!(reason.starts_with("Validation failed:"), "{reason}");
    assert!(
        reason.contains(&format!(
            "messages[1].updateComponents.components[id='heading'].variant: {official_wording}"
        )),
        "{reason}"
    );
    assert!(
        retried_with.lock().unwrap().contains(official_wording),
        "the model should be told the validator's words"
    );
    assert_eq!(
        types(&events).last().map(String::as_str),
        Some("RUN_FINISHED")
    );
    assert_eq!(rebuild(&received_operations(&events)), rebuild(&mock_ui()));
}

/// `ui` with its second component (the list's title) made a component the basic catalog does
/// not have, and the validator's words for it in version `v`.
fn with_an_unknown_component(v: Version, ui: &[Value]) -> (Vec<Value>, &'static str) {
    let mut bad = ui.to_vec();
    let (key, marquee, said) = match v {
        Version::V08 => (
            "surfaceUpdate",
            json!({"Marquee": {"text": {"literalString": "x"}}}),
            "Additional properties are not allowed ('Marquee' was unexpected)",
        ),
        _ => (
            "updateComponents",
            json!("Marquee"),
            "Unknown component: Marquee",
        ),
    };
    let update = bad.iter_mut().find_map(|m| m.get_mut(key)).unwrap();
    update["components"][1]["component"] = marquee;
    (bad, said)
}

/// The demo's list for `query` in version `v`, as its console printed it (`--messages`), run
/// from an empty folder with no A2UI data named in the environment.
async fn console_list(v: Version, query: &str) -> demo::Console {
    let empty = std::env::temp_dir().join(format!(
        "a2ui-no-files-{}-{}",
        std::process::id(),
        v.as_str()
    ));
    std::fs::create_dir_all(&empty).unwrap();
    let args = ["--a2ui", v.as_str(), "--messages", query];
    let out = demo::console_in(&empty, &args, Model::Scripted(0)).await;
    let _ = std::fs::remove_dir_all(&empty);
    out
}

#[tokio::test]
async fn every_version_is_checked_by_the_official_validator_with_no_file_at_hand() {
    // The validators come from the catalogs built into the crate: they read no file and no
    // environment, so this holds on a fresh clone, without `../shared` or `$A2UI_SHARED`; the
    // demo, run from an empty folder, says it checks with them.
    for v in [Version::V08, Version::V09, Version::V10] {
        let out = console_list(v, "Top 2 Chinese restaurants in New York").await;
        assert!(!out.failed(), "{v:?}: {}", out.text());
        assert_eq!(out.summary().checked_by, UI_CHECKS, "{v:?}");
        let good = as_held(&out.messages());
        assert!(good.len() >= 4, "{v:?}: {good:?}");
        assert_eq!(official_check(v, &good), Ok(()), "{v:?}");
        let (bad, wording) = with_an_unknown_component(v, &good);
        let err = official_check(v, &bad).unwrap_err();
        assert!(err.contains(wording), "{v:?}: {err}");
    }
}

#[tokio::test]
async fn the_console_summary_says_the_official_validator_checked_every_version() {
    for v in ["0.8", "0.9", "1.0"] {
        let out = demo::console(
            &["--a2ui", v, "Top 3 Chinese restaurants in New York"],
            Model::Scripted(0),
        )
        .await;
        assert!(!out.failed(), "{}", out.text());
        let last = out.stdout.lines().last().unwrap();
        assert!(
            last.ends_with(&format!("UI checked by {UI_CHECKS}")),
            "{last}"
        );
        assert!(
            out.stderr.contains(&format!("(A2UI {v})")),
            "{}",
            out.text()
        );
    }
}
