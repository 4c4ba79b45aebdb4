//! The restaurant finder with `--format express`: the model is prompted to write A2UI Express
//! and its answer streams through the crate's Express parser. The same checks as the JSON runs:
//! the UI the client rebuilds, the official validator, the run's events verified; and the model
//! request carrying the Express prompt, an Express error reported and retried, and v0.8 refused.

use super::*;
use a2ui_stream::agui::A2UI_ERROR_EVENT;

/// The query the console runs answer.
const QUERY: &str = "Top 5 Chinese restaurants in New York";

/// The console's list for [`QUERY`] in version `v` (`0.9`, `1.0`), written in `format`.
async fn console_list(v: &str, format: &str) -> demo::Console {
    let args = ["--format", format, "--a2ui", v, "--messages", QUERY];
    demo::console(&args, Model::Scripted(1)).await
}

/// The types of the components of surface `id`, sorted.
fn component_types(ui: &RendererState, id: &str) -> Vec<String> {
    let surface = ui.surface(id).unwrap_or_else(|| panic!("no surface {id}"));
    let mut types: Vec<String> = surface
        .components()
        .map(|c| c.component_type().to_owned())
        .collect();
    types.sort();
    types
}

#[tokio::test]
async fn express_console_runs_draw_the_list_the_json_runs_draw() {
    for (v, version) in [("0.9", Version::V09), ("1.0", Version::V10)] {
        let out = console_list(v, "express").await;
        let text = out.text();
        assert!(!out.failed(), "{text}");
        assert!(
            out.stderr.contains(&format!("(A2UI {v}, in Express)")),
            "{text}"
        );
        let stdout = &out.stdout;
        assert!(
            stdout.contains("Let me look up the best Chinese restaurants in New York."),
            "{text}"
        );
        assert!(stdout.contains("tool call get_restaurants"), "{text}");
        assert!(stdout.contains("tool result: 5 results"), "{text}");
        assert!(
            stdout.contains("Here are 5 Chinese restaurants in New York, best rated first."),
            "{text}"
        );
        assert!(stdout.contains("Press Book to reserve a table."), "{text}");
        // The Express never reaches the screen: only its messages do.
        for written in ["<a2ui>", "</a2ui>", "surface(", "$/items", "_template("] {
            assert!(!stdout.contains(written), "{written} in\n{text}");
        }
        let messages = out.messages();
        for m in &messages {
            assert_eq!(m["version"], version.message_tag(), "{m}");
        }
        assert!(
            messages
                .iter()
                .any(|m| m["createSurface"]["surfaceId"] == LIST_SURFACE),
            "{text}"
        );
        for id in ["root", "list_items", "card_book"] {
            assert!(
                messages
                    .iter()
                    .any(|m| updates_component(m, LIST_SURFACE, id)),
                "{id}: {text}"
            );
        }
        // 1 surface + the title (inline in the v1.0 surface) + 13 components, one a message, +
        // `/items` set to `[]` and each of the five records.
        let expected = if version == Version::V10 { 20 } else { 21 };
        let summary = out.summary();
        assert_eq!(summary.messages, expected, "{text}");
        assert_eq!(messages.len(), expected, "{text}");
        assert_eq!(summary.checked_by, UI_CHECKS, "{text}");
        let first_component = summary.first_component_ms.unwrap();
        let first_content = summary.first_content_ms.unwrap();
        assert!(first_component < first_content, "{text}");
        // The first card's record goes out while the later ones are still being written.
        assert!(first_content < summary.total_ms, "{text}");
        assert_eq!(problems(version, &messages), Vec::<String>::new(), "{text}");

        // The same UI as the JSON run: the same data, the same components (ids written as
        // identifiers, as Express names are).
        let express = rebuild(&messages);
        let json = console_list(v, "json").await;
        assert!(!json.failed(), "{}", json.text());
        let json = rebuild(&json.messages());
        let data_model =
            |ui: &RendererState| ui.surface(LIST_SURFACE).unwrap().data_model().clone();
        assert_eq!(data_model(&express), data_model(&json));
        assert_eq!(
            data(&express, LIST_SURFACE, "/items/4/name"),
            "Jade Garden Kitchen"
        );
        assert_eq!(
            component_types(&express, LIST_SURFACE),
            component_types(&json, LIST_SURFACE)
        );
    }
}

#[tokio::test]
async fn express_runs_over_ag_ui_list_booking_confirmation() {
    let server = scripted_server(&["--format", "express"]).await;
    assert!(
        server.log_text().contains("the model writes A2UI Express"),
        "{}",
        server.log_text()
    );
    for (asked, version) in [("v0.9", Version::V09), ("v1.0", Version::V10)] {
        let props = json!({ "a2uiVersion": asked });
        let run = |name: &str| format!("{asked}-{name}");
        let events = post_run(
            &server.base,
            &run_input(
                &run("list"),
                "Top 3 Italian restaurants in New York",
                props.clone(),
            ),
            |_| {},
        )
        .await;
        agui::verify(&events).unwrap();
        assert_eq!(
            types(&events).last().map(String::as_str),
            Some("RUN_FINISHED")
        );
        let text = text_of(&events);
        assert!(text.contains("Here are 3 Italian restaurants"), "{text}");
        assert!(
            !text.contains("<a2ui>") && !text.contains("surface("),
            "{text}"
        );
        let ops = received_operations(&events);
        assert!(ops.iter().all(|o| o["version"] == version.message_tag()));
        assert_eq!(problems(version, &ops), Vec::<String>::new());
        // Each component and each record arrives on its own.
        let components = ops.iter().filter(|o| o.get("updateComponents").is_some());
        assert_eq!(components.count(), 13, "{ops:?}");
        let ui = rebuild(&ops);
        assert_eq!(ui.surface(LIST_SURFACE).unwrap().version(), version);
        let items = data(&ui, LIST_SURFACE, "/items");
        assert_eq!(items.as_array().unwrap().len(), 3, "{items}");
        let first = items[0].clone();
        assert_eq!(first["name"], "Trattoria Ponte Vecchio");

        let mut book = json!({"a2uiAction": {"userAction": {
            "name": BOOK_ACTION, "surfaceId": LIST_SURFACE, "sourceComponentId": "card_book",
            "context": {"restaurantName": first["name"], "address": first["address"], "imageUrl": first["imageUrl"]}
        }}});
        book["a2uiVersion"] = json!(asked);
        let events = post_run(&server.base, &run_input(&run("book"), "", book), |_| {}).await;
        agui::verify(&events).unwrap();
        let ops = received_operations(&events);
        assert_eq!(problems(version, &ops), Vec::<String>::new());
        let form = rebuild(&ops);
        assert_eq!(
            data(&form, BOOKING_SURFACE, "/restaurantName"),
            "Trattoria Ponte Vecchio"
        );
        assert!(
            form.surface(BOOKING_SURFACE)
                .unwrap()
                .component("booking_submit")
                .is_some()
        );

        let mut submit = json!({"a2uiAction": {"userAction": {
            "name": SUBMIT_ACTION, "surfaceId": BOOKING_SURFACE, "sourceComponentId": "booking_submit",
            "context": {"restaurantName": first["name"], "partySize": "4",
                        "reservationTime": "2026-01-02T19:30", "dietary": "vegetarian", "imageUrl": first["imageUrl"]}
        }}});
        submit["a2uiVersion"] = json!(asked);
        let events = post_run(&server.base, &run_input(&run("submit"), "", submit), |_| {}).await;
        agui::verify(&events).unwrap();
        let ops = received_operations(&events);
        assert_eq!(problems(version, &ops), Vec::<String>::new());
        let done = rebuild(&ops);
        assert_eq!(
            data(&done, CONFIRMATION_SURFACE, "/details"),
            "Table for 4 at 2026-01-02T19:30"
        );
        assert!(text_of(&events).contains("is booked"));
    }
}

#[tokio::test]
async fn express_is_refused_for_v08() {
    // On the command line, before anything starts.
    let out = demo::console(
        &["--format", "express", "--a2ui", "0.8", QUERY],
        Model::Scripted(0),
    )
    .await;
    assert_eq!(out.status.code(), Some(2), "{}", out.text());
    assert!(
        out.stderr
            .contains("A2UI Express compiles to v0.9 and v1.0 messages, not v0.8"),
        "{}",
        out.text()
    );
    // A run asking for v0.8 from a server whose model writes Express ends with the reason.
    let server = scripted_server(&["--format", "express"]).await;
    let events = post_run(
        &server.base,
        &run_input("run-v08", QUERY, json!({"a2uiVersion": "v0.8"})),
        |_| {},
    )
    .await;
    agui::verify(&events).unwrap();
    let (message, _) = run_error(&events).expect("RUN_ERROR");
    assert!(message.contains("not v0.8"), "{message}");
}

/// The UI the Express mock writes: what [`mock_ui`] shows, in Express.
const MOCK_EXPRESS: &str = "surface(\"results\")
root = Column([heading, first])
heading = Text($/title, \"h1\")
first = Card(first_name)
first_name = Text($/first)
$/title = \"Chinese in New York\"
$/first = \"Red Pepper Pavilion\"";

/// An answer with `express` as its block, prose around it.
fn express_answer(express: &str) -> String {
    format!("Here is what I found.\n<a2ui>\n{express}\n</a2ui>\nEnjoy!")
}

/// What a client holds after the messages `express` compiles to.
fn compiled(express: &str) -> RendererState {
    use a2ui_stream::official::catalog::Catalog;
    let options = a2ui_stream::express::CompileOptions::default();
    let messages =
        a2ui_stream::express::compile(express, &[Catalog::builtin(Version::V09)], &options)
            .unwrap();
    rebuild(&messages)
}

#[tokio::test]
async fn an_express_model_gets_the_express_prompt_and_its_ui_streams_while_it_writes() {
    let script: Script = Arc::new(|req: &Value| {
        if last_role(req) == "tool" {
            text_payloads(&express_answer(MOCK_EXPRESS), 4)
        } else {
            tool_call_payloads()
        }
    });
    let (mock, api_base) = start_mock(script, Duration::from_millis(15)).await;
    let server = mock_server(&api_base, &["--format", "express"]).await;
    let input = run_input("run-x", QUERY, json!({}));
    let (events, first_ui_before_mock_done) =
        post_run_timing_first_ui(&server.base, &input, &mock.ui_stream_done).await;
    assert_eq!(
        first_ui_before_mock_done,
        Some(true),
        "the first surface event arrived only after the mock finished"
    );
    assert!(mock.ui_stream_done.load(Ordering::SeqCst));
    agui::verify(&events).unwrap();
    assert_eq!(
        types(&events).last().map(String::as_str),
        Some("RUN_FINISHED")
    );

    // The model was taught Express for its version, not JSON.
    let bodies = mock.bodies.lock().unwrap().clone();
    let system = bodies[0]["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("A2UI protocol version: v0.9"), "{system}");
    assert!(
        system.contains("<a2ui>") && system.contains("</a2ui>"),
        "{system}"
    );
    assert!(system.contains("A2UI Express") && system.contains("_template($/items, card)"));
    assert!(!system.contains("<a2ui-json>"), "{system}");

    let text = text_of(&events);
    assert!(
        text.contains("Here is what I found.") && text.contains("Enjoy!"),
        "{text}"
    );
    assert!(
        !text.contains("a2ui") && !text.contains("surface("),
        "{text}"
    );
    let ops = received_operations(&events);
    assert_eq!(rebuild(&ops), compiled(MOCK_EXPRESS));
    assert_eq!(problems(Version::V09, &ops), Vec::<String>::new());
    let component_ops = ops
        .iter()
        .filter(|o| o.get("updateComponents").is_some())
        .count();
    assert_eq!(component_ops, 4, "one operation per component: {ops:?}");
}

#[tokio::test]
async fn an_express_statement_that_does_not_compile_is_reported_and_the_ui_retried() {
    let broken = MOCK_EXPRESS.replace("Text($/title, \"h1\")", "Marquee($/title)");
    let retried_with = Arc::new(std::sync::Mutex::new(String::new()));
    let seen = retried_with.clone();
    let script: Script = Arc::new(move |req: &Value| {
        if last_content(req).starts_with(RETRY_PREFIX) {
            *seen.lock().unwrap() = last_content(req);
            text_payloads(&express_answer(MOCK_EXPRESS), 16)
        } else {
            text_payloads(&express_answer(&broken), 16)
        }
    });
    let (mock, api_base) = start_mock(script, Duration::from_millis(1)).await;
    let server = mock_server(&api_base, &["--format", "express"]).await;
    let events = post_run(
        &server.base,
        &run_input("run-m", "anything", json!({})),
        |_| {},
    )
    .await;
    agui::verify(&events).unwrap();
    assert_eq!(mock.requests.load(Ordering::SeqCst), 2);
    // The parser's error is reported where the splitter's are, and the parser went on.
    let error = custom(&events, A2UI_ERROR_EVENT).expect("an error event");
    assert!(
        error["message"].as_str().unwrap().contains("Marquee"),
        "{error}"
    );
    assert!(error["offset"].as_u64().is_some(), "{error}");
    let reason = custom(&events, RETRY_EVENT).expect("a retry event");
    assert!(
        reason["reason"].as_str().unwrap().contains("Marquee"),
        "{reason}"
    );
    let retried_with = retried_with.lock().unwrap().clone();
    assert!(
        retried_with.contains("Marquee") && retried_with.contains("<a2ui>"),
        "{retried_with}"
    );
    assert_eq!(
        types(&events).last().map(String::as_str),
        Some("RUN_FINISHED")
    );
    // The rejected surface was deleted before the corrected one came.
    let ops = received_operations(&events);
    assert!(ops.iter().any(|o| o.get("deleteSurface").is_some()));
    assert_eq!(rebuild(&ops), compiled(MOCK_EXPRESS));
}
