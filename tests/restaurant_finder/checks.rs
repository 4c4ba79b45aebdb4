//! The after-stream check of the restaurant finder: the official validator of the built-in basic
//! catalog of every version, with no file at hand, and the retry an invalid UI gets.

use super::*;

/// `ops` as a client ends up holding them: each surface's components in one list, a component
/// sent again in place of the one before (a v0.8 stream sends stand-ins for components still to
/// come, then the components).
pub fn as_held(ops: &[Value]) -> Vec<Value> {
    let mut out = official::regroup(ops);
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
/// validator's words on what the client holds, and any surface drawn on but never opened. Empty
/// when it is whole.
pub fn problems(v: Version, ops: &[Value]) -> Vec<String> {
    let mut out: Vec<String> = official::Official::builtin()
        .check(v, &as_held(ops))
        .err()
        .into_iter()
        .collect();
    out.extend(rebuild(ops).unopened());
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
        if last_content(req).starts_with(prompt::RETRY_PREFIX) {
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
    let agent = Agent::new(&ModelConfig {
        api_base,
        api_key: "k".into(),
        model: "m".into(),
    });
    let base = start_server(agent, Version::V09).await;
    let events = post_run(&base, &run_input("run-r", "anything", json!({})), |_| {}).await;
    agui::verify(&events).unwrap();
    assert_eq!(mock.requests.load(Ordering::SeqCst), 2);
    let retry = events.iter().find_map(|e| match e {
        Event::Custom(c) if c.name == server::RETRY_EVENT => Some(c.value.clone()),
        _ => None,
    });
    assert!(
        retry.unwrap()["reason"]
            .as_str()
            .unwrap()
            .contains("missing")
    );
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
    let agent = Agent::new(&ModelConfig {
        api_base,
        api_key: "k".into(),
        model: "m".into(),
    });
    let base = start_server(agent, Version::V09).await;
    let events = post_run(&base, &run_input("run-e", "anything", json!({})), |_| {}).await;
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
        if last_content(req).starts_with(prompt::RETRY_PREFIX) {
            *seen.lock().unwrap() = last_content(req);
            text_payloads(&ui_answer(&mock_ui()), 16)
        } else {
            text_payloads(&ui_answer(&broken), 16)
        }
    });
    let (mock, api_base) = start_mock(script, Duration::from_millis(1)).await;
    let agent = Agent::new(&ModelConfig {
        api_base,
        api_key: "k".into(),
        model: "m".into(),
    });
    assert!(
        agent
            .ui_check(Version::V09)
            .starts_with("official A2UI validator (built-in v0.9 basic catalog)")
    );
    let base = start_server(agent, Version::V09).await;
    let events = post_run(&base, &run_input("run-o", "anything", json!({})), |_| {}).await;
    agui::verify(&events).unwrap();
    assert_eq!(mock.requests.load(Ordering::SeqCst), 2);
    let reason = events
        .iter()
        .find_map(|e| match e {
            Event::Custom(c) if c.name == server::RETRY_EVENT => Some(c.value.clone()),
            _ => None,
        })
        .expect("a retry event");
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

/// For each version: the demo's list, a copy whose title is a component the basic catalog does
/// not have, and the validator's words for it.
fn answers_with_an_unknown_component(v: Version) -> (Vec<Value>, Vec<Value>, &'static str) {
    let good = ui::restaurant_list(
        v,
        "Top 2",
        &tools::get_restaurants("Chinese", "New York", 2),
    );
    let mut bad = good.clone();
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
    (good, bad, said)
}

#[test]
fn every_version_is_checked_by_the_official_validator_with_no_file_at_hand() {
    // The validators come from the catalogs built into the crate: they read no file and no
    // environment, so this holds on a fresh clone, without `../shared` or `$A2UI_SHARED`.
    let validators = official::Official::builtin();
    assert_eq!(
        validators.describe_all(),
        "official A2UI validator (built-in basic catalogs of v0.8, v0.9 and v1.0)"
    );
    for v in Version::ALL {
        let said = validators.describe(v);
        assert_eq!(
            said,
            format!(
                "official A2UI validator (built-in {} basic catalog)",
                v.as_str()
            )
        );
        let (good, bad, wording) = answers_with_an_unknown_component(v);
        assert_eq!(validators.check(v, &good), Ok(()), "{v:?}");
        let err = validators.check(v, &bad).unwrap_err();
        assert!(err.contains(wording), "{v:?}: {err}");
    }
}

#[tokio::test]
async fn the_console_summary_says_the_official_validator_checked_every_version() {
    let (agent, _model) = scripted_agent().await;
    for v in Version::ALL {
        let mut out = Vec::new();
        let req = llm::RunRequest::query(v, "Top 3 Chinese restaurants in New York");
        let summary = console::run(&agent, &req, &mut out, 160).await;
        let out = String::from_utf8(out).unwrap();
        assert!(!summary.failed, "{out}");
        let last = out.lines().last().unwrap();
        assert!(
            last.ends_with(&format!(
                "UI checked by official A2UI validator (built-in {} basic catalog) and the demo's check that every surface drawn on is opened",
                v.as_str()
            )),
            "{last}"
        );
    }
}
