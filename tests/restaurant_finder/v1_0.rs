//! The restaurant finder in A2UI v1.0: the scripted flow over AG-UI and on the console, a retry
//! of a UI written with v0.9 habits, and the messages checked by the official v1.0 validator
//! (the built-in basic catalog, as the A2UI SDK enforces it).

use super::*;

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

/// The v1.0 list, its Book action, the booking form and its submit action, over AG-UI; the
/// events of each run.
async fn v10_flow(base: &str, version: &str) -> Vec<Vec<Event>> {
    let asked = json!({ "a2uiVersion": version });
    let list = post_run(
        base,
        &run_input(
            "v10-list",
            "Top 3 Italian restaurants in New York",
            asked.clone(),
        ),
        |_| {},
    )
    .await;
    let first =
        rebuild(&received_operations(&list)).surfaces[ui::LIST_SURFACE].data["items"][0].clone();
    let mut book = json!({"a2uiAction": {"userAction": {
        "name": ui::BOOK_ACTION, "surfaceId": ui::LIST_SURFACE, "sourceComponentId": "card_book",
        "context": {"restaurantName": first["name"], "address": first["address"], "imageUrl": first["imageUrl"]}
    }}});
    book["a2uiVersion"] = json!(version);
    let form = post_run(base, &run_input("v10-book", "", book), |_| {}).await;
    let mut submit = json!({"a2uiAction": {"userAction": {
        "name": ui::SUBMIT_ACTION, "surfaceId": ui::BOOKING_SURFACE, "sourceComponentId": "booking_submit",
        "context": {"restaurantName": first["name"], "partySize": "3",
                    "reservationTime": "2026-03-04T20:00", "dietary": "", "imageUrl": first["imageUrl"]}
    }}});
    submit["a2uiVersion"] = json!(version);
    let done = post_run(base, &run_input("v10-submit", "", submit), |_| {}).await;
    vec![list, form, done]
}

#[tokio::test]
async fn scripted_v10_list_booking_confirmation_over_ag_ui() {
    let (agent, _model) = scripted_agent().await;
    let base = start_server(agent, Version::V09).await;
    // `1.0` and `v1.0` are both read as v1.0.
    for asked in ["v1.0", "1.0"] {
        let runs = v10_flow(&base, asked).await;
        let mut kinds = std::collections::BTreeSet::new();
        for (events, surface) in runs.iter().zip([
            ui::LIST_SURFACE,
            ui::BOOKING_SURFACE,
            ui::CONFIRMATION_SURFACE,
        ]) {
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
            assert_eq!(rebuild(&ops).surfaces[surface].version, "v1.0");
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
        let list = &list.surfaces[ui::LIST_SURFACE];
        assert_eq!(list.data["items"].as_array().unwrap().len(), 3);
        let title = &list.components["list_title"]["text"];
        assert_eq!(title["@call"], "formatString");
        assert_eq!(
            list.components["card_book"]["action"]["event"]["context"]["address"],
            json!({"@path": "address"})
        );
        let form = rebuild(&received_operations(&runs[1]));
        let form = &form.surfaces[ui::BOOKING_SURFACE];
        assert_eq!(form.data["restaurantName"], "Trattoria Ponte Vecchio");
        assert_eq!(
            form.components["booking_party"]["value"],
            json!({"@path": "/partySize"})
        );
        let done = rebuild(&received_operations(&runs[2]));
        assert_eq!(
            done.surfaces[ui::CONFIRMATION_SURFACE].data["details"],
            "Table for 3 at 2026-03-04T20:00"
        );
        assert!(text_of(&runs[2]).contains("is booked"));
    }
}

#[tokio::test]
async fn scripted_v10_path_in_the_console() {
    let (agent, _model) = scripted_agent().await;
    let mut out = Vec::new();
    let req = llm::RunRequest::query(Version::V10, "Top 5 Chinese restaurants in New York");
    let summary = console::run(&agent, &req, &mut out, 160).await;
    let out = String::from_utf8(out).unwrap();
    assert!(!summary.failed, "{out}");
    assert!(
        out.contains("a2ui createSurface restaurant-list {\"version\":\"v1.0\""),
        "{out}"
    );
    assert!(
        out.contains("a2ui updateComponents restaurant-list#card_book "),
        "{out}"
    );
    assert!(!out.contains("#card-book"), "{out}");
    // The same streaming as in v0.9: 1 surface, 13 components, the data model in 8 pieces.
    assert_eq!(summary.messages, 22, "{out}");
    assert!(summary.first_component_ms.unwrap() < summary.first_content_ms.unwrap());
    let last = out.lines().last().unwrap();
    assert!(last.contains("22 A2UI messages, "), "{last}");
}

/// What the mock writes for v1.0 with two v0.9 habits: a hyphenated id and a `{"path": ..}` binding.
fn v10_ui(id: &str, binding: Value) -> Vec<Value> {
    let catalog = ui::BASIC_CATALOG_V10;
    vec![
        json!({"version": "v1.0", "createSurface": {"surfaceId": "results", "catalogId": catalog}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "results", "components": [
            {"id": "root", "component": "Card", "child": id},
            {"id": id, "component": "Text", "text": binding}
        ]}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "results", "path": "/",
               "value": {"first": "Red Pepper Pavilion"}}}),
    ]
}

#[tokio::test]
async fn a_v10_ui_with_v09_habits_is_deleted_and_retried_in_v10() {
    let broken = v10_ui("first-name", json!({"path": "/first"}));
    let good = v10_ui("first_name", json!({"@path": "/first"}));
    let answer = good.clone();
    let script: Script = Arc::new(move |req: &Value| {
        let ui = if last_content(req).starts_with(prompt::RETRY_PREFIX) {
            &answer
        } else {
            &broken
        };
        text_payloads(&ui_answer(ui), 16)
    });
    let (mock, api_base) = start_mock(script, Duration::from_millis(1)).await;
    let agent = Agent::new(&ModelConfig {
        api_base,
        api_key: "k".into(),
        model: "m".into(),
    });
    let base = start_server(agent, Version::V10).await;
    let events = post_run(&base, &run_input("run-v10", "anything", json!({})), |_| {}).await;
    agui::verify(&events).unwrap();
    assert_eq!(mock.requests.load(Ordering::SeqCst), 2);
    let reason = events
        .iter()
        .find_map(|e| match e {
            Event::Custom(c) if c.name == server::RETRY_EVENT => Some(c.value.clone()),
            _ => None,
        })
        .expect("a retry event");
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
    let validators = official::Official::builtin();
    assert_eq!(
        validators.describe(Version::V10),
        "official A2UI validator (built-in v1.0 basic catalog)"
    );
    let good = v10_ui("first_name", json!({"@path": "/first"}));
    assert_eq!(validators.check(Version::V10, &good), Ok(()));
    for m in &good {
        assert_eq!(said_of(m), "", "{m}");
    }
    // The v0.9 spellings the demo left behind are refused, and so is what v1.0 dropped.
    let err = validators
        .check(
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
    // What the builders write, whole, and what the client received over AG-UI, split per
    // component and per record, for the list, the booking form and the confirmation.
    let found = tools::get_restaurants("Chinese", "New York", 3);
    let answers = [
        ui::restaurant_list(Version::V10, "Top 3", &found),
        ui::booking_form(Version::V10, "A", "1 Street", "https://example.com/a.jpg"),
        ui::confirmation(
            Version::V10,
            "A",
            "2",
            "",
            "none",
            "https://example.com/a.jpg",
        ),
    ];
    for answer in &answers {
        assert_eq!(
            official::Official::builtin().check(Version::V10, answer),
            Ok(())
        );
    }
    let mut messages: Vec<Value> = answers.concat();
    messages.push(ui::delete_surface(Version::V10, ui::LIST_SURFACE));
    let (agent, _model) = scripted_agent().await;
    let base = start_server(agent, Version::V10).await;
    let runs = v10_flow(&base, "v1.0").await;
    let received: Vec<Value> = runs.iter().flat_map(|r| received_operations(r)).collect();
    assert!(received.len() > 40, "{}", received.len());
    messages.extend(received.iter().cloned());
    messages.extend(official::regroup(&received));
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
