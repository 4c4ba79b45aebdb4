//! The restaurant finder in A2UI v1.0: the scripted flow over AG-UI and on the console, a retry
//! of a UI written with v0.9 habits, and the messages checked by the official v1.0 validator
//! (the built-in basic catalog, as the A2UI SDK enforces it).

use super::checks::official_check;
use super::*;
use a2ui_stream::official::validator::rejoin;

/// The official v1.0 validator of the built-in basic catalog, the one the demo checks with.
fn v10_validator() -> std::sync::Arc<a2ui_stream::official::validator::Validator> {
    use a2ui_stream::official::catalog::{Catalog, Version as SpecVersion};
    Catalog::builtin(SpecVersion::V10).validator().unwrap()
}

/// What the validator says of one message on its own (schema, identifier ids, paths; no root or
/// reference check, as the message may be one piece of a surface), or nothing.
fn said_of(message: &Value) -> String {
    v10_validator()
        .validate_with(message, false)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

/// The v1.0 list, its Book action, the booking form and its submit action, over AG-UI, asking
/// for `version`; the events of each run. Run ids start with `version`, so that the flow can
/// run again on the same server (a run id sent again with another request is refused).
async fn v10_flow(base: &str, version: &str) -> Vec<Vec<Event>> {
    let asked = json!({ "a2uiVersion": version });
    let list = post_run(
        base,
        &run_input(
            &format!("{version}-list"),
            "Top 3 Italian restaurants in New York",
            asked.clone(),
        ),
        |_| {},
    )
    .await;
    let first = data(
        &rebuild(&received_operations(&list)),
        LIST_SURFACE,
        "/items/0",
    );
    let mut book = json!({"a2uiAction": {"userAction": {
        "name": BOOK_ACTION, "surfaceId": LIST_SURFACE, "sourceComponentId": "card_book",
        "context": {"restaurantName": first["name"], "address": first["address"], "imageUrl": first["imageUrl"]}
    }}});
    book["a2uiVersion"] = json!(version);
    let form = post_run(
        base,
        &run_input(&format!("{version}-book"), "", book),
        |_| {},
    )
    .await;
    let mut submit = json!({"a2uiAction": {"userAction": {
        "name": SUBMIT_ACTION, "surfaceId": BOOKING_SURFACE, "sourceComponentId": "booking_submit",
        "context": {"restaurantName": first["name"], "partySize": "3",
                    "reservationTime": "2026-03-04T20:00", "dietary": "", "imageUrl": first["imageUrl"]}
    }}});
    submit["a2uiVersion"] = json!(version);
    let done = post_run(
        base,
        &run_input(&format!("{version}-submit"), "", submit),
        |_| {},
    )
    .await;
    vec![list, form, done]
}

/// Property `name` of component `id` of surface `surface`.
fn property(ui: &RendererState, surface: &str, id: &str, name: &str) -> Value {
    ui.surface(surface)
        .and_then(|s| s.component(id))
        .and_then(|c| c.property(name))
        .cloned()
        .unwrap_or(Value::Null)
}

#[tokio::test]
async fn scripted_v10_list_booking_confirmation_over_ag_ui() {
    let server = scripted_server(&[]).await;
    // `1.0` and `v1.0` are both read as v1.0.
    for asked in ["v1.0", "1.0"] {
        let runs = v10_flow(&server.base, asked).await;
        let mut kinds = std::collections::BTreeSet::new();
        for (events, surface) in
            runs.iter()
                .zip([LIST_SURFACE, BOOKING_SURFACE, CONFIRMATION_SURFACE])
        {
            agui::verify(events).unwrap();
            assert_eq!(
                types(events).last().map(String::as_str),
                Some("RUN_FINISHED")
            );
            let ops = received_operations(events);
            for op in &ops {
                assert_eq!(op["version"], "v1.0", "{op}");
                kinds.extend(op.as_object().unwrap().keys().cloned());
            }
            // Identifier ids, `@path` bindings, every reference sent, every surface opened: the
            // official validator takes what the client received.
            assert_eq!(problems(Version::V10, &ops), Vec::<String>::new());
            // Bindings are written `@path`, and the list's template still names its data `path`.
            let text: String = ops.iter().map(Value::to_string).collect();
            assert!(!text.contains(r#""path":{"#), "{text}");
            assert_eq!(
                rebuild(&ops).surface(surface).unwrap().version(),
                Version::V10
            );
        }
        assert_eq!(
            kinds.into_iter().collect::<Vec<_>>(),
            [
                "createSurface",
                "updateComponents",
                "updateDataModel",
                "version"
            ]
        );
        let list = rebuild(&received_operations(&runs[0]));
        assert_eq!(
            data(&list, LIST_SURFACE, "/items")
                .as_array()
                .unwrap()
                .len(),
            3
        );
        let title = property(&list, LIST_SURFACE, "list_title", "text");
        assert_eq!(title["@call"], "formatString");
        assert_eq!(
            property(&list, LIST_SURFACE, "card_book", "action")["event"]["context"]["address"],
            json!({"@path": "address"})
        );
        let form = rebuild(&received_operations(&runs[1]));
        assert_eq!(
            data(&form, BOOKING_SURFACE, "/restaurantName"),
            "Trattoria Ponte Vecchio"
        );
        assert_eq!(
            property(&form, BOOKING_SURFACE, "booking_party", "value"),
            json!({"@path": "/partySize"})
        );
        let done = rebuild(&received_operations(&runs[2]));
        assert_eq!(
            data(&done, CONFIRMATION_SURFACE, "/details"),
            "Table for 3 at 2026-03-04T20:00"
        );
        assert!(text_of(&runs[2]).contains("is booked"));
    }
}

#[tokio::test]
async fn scripted_v10_path_in_the_console() {
    let out = demo::console(
        &[
            "--a2ui",
            "1.0",
            "--messages",
            "Top 5 Chinese restaurants in New York",
        ],
        Model::Scripted(1),
    )
    .await;
    let text = out.text();
    assert!(!out.failed(), "{text}");
    let messages = out.messages();
    let opened = messages
        .iter()
        .find(|m| m.get("createSurface").is_some())
        .expect("a createSurface line");
    assert_eq!(opened["createSurface"]["surfaceId"], LIST_SURFACE, "{text}");
    assert_eq!(opened["version"], "v1.0", "{text}");
    assert!(
        messages
            .iter()
            .any(|m| updates_component(m, LIST_SURFACE, "card_book")),
        "{text}"
    );
    assert!(
        !messages
            .iter()
            .any(|m| updates_component(m, LIST_SURFACE, "card-book")),
        "{text}"
    );
    // The same streaming as in v0.9: 1 surface, 13 components, the data model in 8 pieces.
    let summary = out.summary();
    assert_eq!(summary.messages, 22, "{text}");
    assert_eq!(messages.len(), 22, "{text}");
    assert!(summary.first_component_ms.unwrap() < summary.first_content_ms.unwrap());
    let last = out.stdout.lines().last().unwrap();
    assert!(last.contains("22 A2UI messages, "), "{last}");
}

/// What the mock writes for v1.0 with two v0.9 habits: a hyphenated id and a `{"path": ..}` binding.
fn v10_ui(id: &str, binding: Value) -> Vec<Value> {
    vec![
        json!({"version": "v1.0", "createSurface": {"surfaceId": "results", "catalogId": BASIC_CATALOG_V10}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "results", "components": [
            {"id": "root", "component": "Card", "child": id},
            {"id": id, "component": "Text", "text": binding}
        ]}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "results", "path": "/",
               "value": {"first": "Red Pepper Pavilion"}}}),
    ]
}

/// A mock that writes `broken` first and `good` when asked again, and the demo serving v1.0
/// with it; the events of one run.
async fn run_with_v09_habits(broken: Vec<Value>, good: Vec<Value>) -> (Mock, Vec<Event>) {
    let script: Script = Arc::new(move |req: &Value| {
        let ui = if last_content(req).starts_with(RETRY_PREFIX) {
            &good
        } else {
            &broken
        };
        text_payloads(&ui_answer(ui), 16)
    });
    let (mock, api_base) = start_mock(script, Duration::from_millis(1)).await;
    let server = mock_server(&api_base, &["--a2ui", "1.0"]).await;
    let events = post_run(
        &server.base,
        &run_input("run-v10", "anything", json!({})),
        |_| {},
    )
    .await;
    (mock, events)
}

#[tokio::test]
async fn a_v10_ui_with_v09_habits_is_deleted_and_retried_in_v10() {
    let broken = v10_ui("first-name", json!({"path": "/first"}));
    let good = v10_ui("first_name", json!({"@path": "/first"}));
    let (mock, events) = run_with_v09_habits(broken, good.clone()).await;
    agui::verify(&events).unwrap();
    assert_eq!(mock.requests.load(Ordering::SeqCst), 2);
    let reason = custom(&events, RETRY_EVENT).expect("a retry event");
    // The official validator names both habits, in its words.
    let reason = reason["reason"].as_str().unwrap();
    for habit in [ID_SAID, BINDING_SAID] {
        assert!(reason.contains(habit), "{reason}");
    }
    let ops = received_operations(&events);
    let deleted: Vec<&Value> = ops
        .iter()
        .filter(|o| o.get("deleteSurface").is_some())
        .collect();
    assert_eq!(
        deleted,
        [&json!({"version": "v1.0", "deleteSurface": {"surfaceId": "results"}})]
    );
    assert_eq!(rebuild(&ops), rebuild(&good));
    assert_eq!(
        types(&events).last().map(String::as_str),
        Some("RUN_FINISHED")
    );
}

/// What the official validator says of a v1.0 component id that is not an identifier.
const ID_SAID: &str = "Component id 'first-name' must be a valid UAX #31 identifier";
/// What it says of a text bound the v0.9 way, `{"path": ..}`.
const BINDING_SAID: &str = "text: {'path': '/first'} is not valid under any of the given schemas";

#[test]
fn the_v10_check_is_the_official_validator_and_it_bites() {
    let good = v10_ui("first_name", json!({"@path": "/first"}));
    assert_eq!(official_check(Version::V10, &good), Ok(()));
    for m in &good {
        assert_eq!(said_of(m), "", "{m}");
    }
    // The v0.9 spellings the demo left behind are refused, and so is what v1.0 dropped.
    let err = official_check(
        Version::V10,
        &v10_ui("first-name", json!({"@path": "/first"})),
    )
    .unwrap_err();
    assert!(err.contains(ID_SAID), "{err}");
    let v09_binding = v10_ui("first_name", json!({"path": "/first"}));
    assert!(
        said_of(&v09_binding[1]).contains(BINDING_SAID),
        "{}",
        said_of(&v09_binding[1])
    );
    let mut heading = good[1].clone();
    heading["updateComponents"]["components"][1]["variant"] = json!("h1");
    assert_ne!(said_of(&heading), "");
    let mut themed = good[0].clone();
    themed["createSurface"]["theme"] = json!({"primaryColor": "#B3261E"});
    assert_ne!(said_of(&themed), "");
    let no_value = json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/x"}});
    assert_ne!(said_of(&no_value), "");
}

#[tokio::test]
async fn every_v10_message_of_the_demo_is_one_the_official_validator_accepts() {
    // What the client received over AG-UI, split per component and per record, for the list,
    // the booking form and the confirmation; each answer whole (its components put back
    // together); and the `deleteSurface` the demo sends before a retry.
    let server = scripted_server(&["--a2ui", "1.0"]).await;
    let runs = v10_flow(&server.base, "v1.0").await;
    let mut messages: Vec<Value> = Vec::new();
    for run in &runs {
        let received = received_operations(run);
        let whole = rejoin(&received);
        assert_eq!(official_check(Version::V10, &whole), Ok(()));
        messages.extend(received);
        messages.extend(whole);
    }
    assert!(messages.len() > 40, "{}", messages.len());
    let (_mock, retried) = run_with_v09_habits(
        v10_ui("first-name", json!({"path": "/first"})),
        v10_ui("first_name", json!({"@path": "/first"})),
    )
    .await;
    let deleted: Vec<Value> = received_operations(&retried)
        .into_iter()
        .filter(|o| o.get("deleteSurface").is_some())
        .collect();
    assert_eq!(deleted.len(), 1, "{deleted:?}");
    messages.extend(deleted);
    let mut kinds = std::collections::BTreeSet::new();
    for m in &messages {
        assert_eq!(said_of(m), "", "{m}");
        kinds.extend(m.as_object().unwrap().keys().cloned());
    }
    let expected = [
        "createSurface",
        "deleteSurface",
        "updateComponents",
        "updateDataModel",
        "version",
    ];
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), expected);
}
