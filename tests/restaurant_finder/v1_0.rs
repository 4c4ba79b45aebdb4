//! The restaurant finder in A2UI v1.0: the scripted flow over AG-UI and on the console, a retry
//! of a UI written with v0.9 habits, and the messages checked against the schemas the A2UI SDK
//! enforces for v1.0.

use super::*;

/// The v1.0 schemas beside the crate (`<shared>/a2ui-v1/sdk-derived/v1_0`), or `None` after
/// saying that the test is skipped.
fn v10_schema_dir_or_skip() -> Option<std::path::PathBuf> {
    let dir = support::shared_root()
        .map(|root| root.join("a2ui-v1/sdk-derived/v1_0"))
        .filter(|d| d.is_dir());
    if dir.is_none() {
        support::say(
            "skipped: the A2UI v1.0 schemas (../shared/a2ui-v1/sdk-derived/v1_0) were not found",
        );
    }
    dir
}

/// The v1.0 message schema (`agent_to_renderer.json`: one of the six messages, each component
/// against the basic catalog with no property left unchecked), compiled with the JSON Schema
/// crate alone.
fn v10_message_schema(dir: &std::path::Path) -> jsonschema::Validator {
    use jsonschema::{Draft, Registry, Resource};
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
    };
    let messages = read("agent_to_renderer.json");
    let common = read("common_types.json");
    let common_id = common["$id"].as_str().unwrap().to_owned();
    let mut catalog = read("basic_catalog.json");
    let messages_id = messages["$id"].as_str().unwrap().to_owned();
    let base = &messages_id[..=messages_id.rfind('/').unwrap()];
    // The message schema and the common types name the catalog `catalog.json` beside them, and
    // the catalog names the common types relative to itself: it is put where they look for it.
    let catalog_id = format!("{base}catalog.json");
    catalog["$id"] = json!(catalog_id);
    let registry = Registry::new()
        .draft(Draft::Draft202012)
        .add(messages_id.as_str(), Resource::from_contents(messages))
        .unwrap()
        .add(common_id.as_str(), Resource::from_contents(common))
        .unwrap()
        .add(catalog_id.as_str(), Resource::from_contents(catalog))
        .unwrap()
        .prepare()
        .unwrap();
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .with_registry(&registry)
        .build(&json!({ "$ref": messages_id }))
        .unwrap()
}

/// Each error of `message` against `schema`, one line each.
fn schema_errors(schema: &jsonschema::Validator, message: &Value) -> Vec<String> {
    schema
        .iter_errors(message)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Every component in `op` (inline in a `createSurface` or in an `updateComponents`).
fn components_of(op: &Value) -> Vec<&Value> {
    ["createSurface", "updateComponents"]
        .iter()
        .filter_map(|key| op.get(*key)?.get("components")?.as_array())
        .flatten()
        .collect()
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
                for c in components_of(op) {
                    let id = c["id"].as_str().unwrap();
                    assert!(surface::is_identifier(id), "{id} in {op}");
                    assert!(surface::old_style_bindings(c).is_empty(), "{c}");
                }
            }
            // Bindings are written `@path`, and the list's template still names its data `path`.
            let text: String = ops.iter().map(Value::to_string).collect();
            assert!(!text.contains(r#""path":{"#), "{text}");
            let ui = rebuild(&ops);
            assert!(ui.problems().is_empty(), "{:?}", ui.problems());
            assert_eq!(ui.surfaces[surface].version, "v1.0");
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
    // Whichever check ran (the official validator or the structural one), it names the id.
    assert!(
        reason["reason"].as_str().unwrap().contains("`first-name`"),
        "{reason}"
    );
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

#[tokio::test]
#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
async fn every_v10_message_of_the_demo_is_one_the_sdk_schema_accepts() {
    let Some(dir) = v10_schema_dir_or_skip() else {
        return;
    };
    let schema = v10_message_schema(&dir);
    // The schema bites: the v0.9 spellings the demo left behind are refused.
    let good = v10_ui("first_name", json!({"@path": "/first"}));
    for m in &good {
        assert_eq!(schema_errors(&schema, m), Vec::<String>::new(), "{m}");
    }
    let v09_binding = v10_ui("first_name", json!({"path": "/first"}));
    assert!(!schema.is_valid(&v09_binding[1]));
    let mut heading = good[1].clone();
    heading["updateComponents"]["components"][1]["variant"] = json!("h1");
    assert!(!schema.is_valid(&heading));
    let mut themed = good[0].clone();
    themed["createSurface"]["theme"] = json!({"primaryColor": "#B3261E"});
    assert!(!schema.is_valid(&themed));
    let no_value = json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/x"}});
    assert!(!schema.is_valid(&no_value));

    // What the builders write, whole, and what the client received over AG-UI, split per
    // component and per record, for the list, the booking form and the confirmation.
    let found = tools::get_restaurants("Chinese", "New York", 3);
    let mut messages: Vec<Value> = [
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
    ]
    .concat();
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
        assert_eq!(schema_errors(&schema, m), Vec::<String>::new(), "{m}");
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

#[test]
#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
fn the_v10_check_is_the_official_validator_once_it_reads_v10() {
    let Some(dir) = v10_schema_dir_or_skip() else {
        return;
    };
    let nowhere = std::env::temp_dir().join("a2ui-no-spec-here");
    let validators = official::Official::load_from(&nowhere, &dir);
    let good = ui::restaurant_list(Version::V10, "T", &tools::get_restaurants("", "", 2));
    match official::load_v10(&dir) {
        Ok(validator) => {
            // The validator reads v1.0: the demo's answers pass, v0.9 habits do not.
            assert!(validators.has(Version::V10));
            assert!(validators.check(Version::V10, &good).unwrap().is_ok());
            let bad = v10_ui("first-name", json!({"@path": "/first"}));
            let err = validators.check(Version::V10, &bad).unwrap().unwrap_err();
            assert!(err.contains("`first-name`"), "{err}");
            assert!(
                validator
                    .validate(&json!(v10_ui("a", json!({"path": "/x"}))))
                    .is_err()
            );
        }
        Err(why) => {
            // It does not yet: the run gets the structural check, and says why.
            assert!(why.contains("does not read v1.0 yet"), "{why}");
            assert!(!validators.has(Version::V10));
            assert!(validators.check(Version::V10, &good).is_none());
            let said = validators.describe(Version::V10);
            assert!(
                said.starts_with("structural UI check (official validator unavailable: "),
                "{said}"
            );
        }
    }
    let absent = official::Official::load_from(&nowhere, &nowhere);
    assert!(!absent.has(Version::V10));
    assert!(
        absent
            .describe(Version::V10)
            .contains("set A2UI_V10_SCHEMA_DIR")
    );
}
