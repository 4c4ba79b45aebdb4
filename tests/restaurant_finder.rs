//! End-to-end tests of the restaurant finder example, run through its own entry point: the
//! binary `cargo test` builds (`target/<profile>/examples/restaurant_finder`), on the console or
//! as a server (`serve --addr 127.0.0.1:0`). A slow OpenAI-compatible mock in this test process
//! stands behind the demo's async-openai loop and AG-UI server; without it the demo's scripted
//! model answers. No module of the example is included: what the client receives is rebuilt
//! with the crate's `RendererState` and checked with the official validator of the crate's
//! built-in catalogs.

mod support;

/// The after-stream check: the official validator of every version, and the retry.
#[path = "restaurant_finder/checks.rs"]
mod checks;
/// The demo with its model writing A2UI Express (`--format express`).
#[path = "restaurant_finder/express.rs"]
mod express;
/// The demo in A2UI v1.0.
#[path = "restaurant_finder/v1_0.rs"]
mod v1_0;

use a2ui_stream::Version;
use a2ui_stream::agui::events::{Event, PatchOp};
use a2ui_stream::agui::{self, A2UI_ACTIVITY_TYPE, A2UI_OPERATIONS, SseReader};
use a2ui_stream::renderer::RendererState;
use axum::body::Body;
use axum::extract::State;
use axum::http::header;
use axum::response::Response;
use axum::routing::post;
use axum::{Json, Router};
use checks::problems;
use futures::StreamExt;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use support::demo::{self, Model, Server};

/// The demo's surfaces, actions and events, as a client sees them.
const LIST_SURFACE: &str = "restaurant-list";
const BOOKING_SURFACE: &str = "booking-form";
const CONFIRMATION_SURFACE: &str = "confirmation";
const BOOK_ACTION: &str = "book_restaurant";
const SUBMIT_ACTION: &str = "submit_booking";
/// The `CUSTOM` event the demo sends when it rejects a UI and asks the model again.
const RETRY_EVENT: &str = "a2ui-retry";
/// How the demo's message asking the model to correct a UI begins.
const RETRY_PREFIX: &str = "[ui rejected]";
const BASIC_CATALOG_V09: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
const BASIC_CATALOG_V10: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";
/// What the demo says checks its UIs, on the console and when it starts serving.
const UI_CHECKS: &str = "official A2UI validator (built-in basic catalogs of v0.8, v0.9 and v1.0)";

// ---------------------------------------------------------------------------------------------
// A slow OpenAI-compatible mock

/// What the mock answers to a request (its JSON body), as SSE `data:` payloads.
type Script = Arc<dyn Fn(&Value) -> Vec<String> + Send + Sync>;

#[derive(Clone)]
struct Mock {
    script: Script,
    delay: Duration,
    /// Set when the mock has written the last chunk of a response that carried A2UI.
    ui_stream_done: Arc<AtomicBool>,
    requests: Arc<AtomicUsize>,
    bodies: Arc<std::sync::Mutex<Vec<Value>>>,
}

async fn mock_completions(State(mock): State<Mock>, Json(request): Json<Value>) -> Response {
    mock.requests.fetch_add(1, Ordering::SeqCst);
    if let Ok(mut b) = mock.bodies.lock() {
        b.push(request.clone());
    }
    let payloads = (mock.script)(&request);
    let written: String = payloads
        .iter()
        .filter_map(|p| serde_json::from_str::<Value>(p).ok())
        .filter_map(|c| {
            c["choices"][0]["delta"]["content"]
                .as_str()
                .map(str::to_owned)
        })
        .collect();
    let carries_ui = written.contains("<a2ui-json>") || written.contains("<a2ui>");
    let done = mock.ui_stream_done.clone();
    let delay = mock.delay;
    let stream = futures::stream::unfold(payloads.into_iter(), move |mut it| {
        let done = done.clone();
        async move {
            let p = it.next()?;
            tokio::time::sleep(delay).await;
            if carries_ui && it.len() == 0 {
                // The last chunk is being handed over: the mock has finished streaming.
                done.store(true, Ordering::SeqCst);
            }
            Some((
                Ok::<_, std::convert::Infallible>(format!("data: {p}\n\n")),
                it,
            ))
        }
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .body(Body::from_stream(stream))
        .unwrap()
}

async fn start_mock(script: Script, delay: Duration) -> (Mock, String) {
    let mock = Mock {
        script,
        delay,
        ui_stream_done: Arc::new(AtomicBool::new(false)),
        requests: Arc::new(AtomicUsize::new(0)),
        bodies: Arc::new(std::sync::Mutex::new(Vec::new())),
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = Router::new()
        .route("/v1/chat/completions", post(mock_completions))
        .with_state(mock.clone());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (mock, format!("http://{addr}/v1"))
}

/// One chat-completion chunk payload.
fn chunk(delta: Value, finish: Option<&str>) -> String {
    json!({"id": "mock", "object": "chat.completion.chunk", "created": 1, "model": "mock",
           "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    .to_string()
}

/// Payloads streaming `text` in pieces of `size` bytes (on character boundaries).
fn text_payloads(text: &str, size: usize) -> Vec<String> {
    let mut out = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
    let mut cur = String::new();
    for ch in text.chars() {
        cur.push(ch);
        if cur.len() >= size {
            out.push(chunk(json!({"content": std::mem::take(&mut cur)}), None));
        }
    }
    if !cur.is_empty() {
        out.push(chunk(json!({"content": cur}), None));
    }
    out.push(chunk(json!({}), Some("stop")));
    out.push("[DONE]".into());
    out
}

/// Payloads of one `get_restaurants` call whose arguments arrive in three pieces.
fn tool_call_payloads() -> Vec<String> {
    vec![
        chunk(
            json!({"role": "assistant", "content": "Looking that up. "}),
            None,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "id": "call_mock_1", "type": "function",
                                      "function": {"name": "get_restaurants", "arguments": ""}}]}),
            None,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"cuisine\":\"Chi"}}]}),
            None,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": "nese\",\"location\":\"New York\","}}]}),
            None,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": "\"count\":3}"}}]}),
            None,
        ),
        chunk(json!({}), Some("tool_calls")),
        "[DONE]".into(),
    ]
}

/// The UI the mock writes (v0.9): a surface, four components top-down, data.
fn mock_ui() -> Vec<Value> {
    vec![
        json!({"version": "v0.9", "createSurface": {"surfaceId": "results", "catalogId": BASIC_CATALOG_V09}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "results", "components": [
            {"id": "root", "component": "Column", "children": ["heading", "first"]},
            {"id": "heading", "component": "Text", "variant": "h1", "text": {"path": "/title"}},
            {"id": "first", "component": "Card", "child": "first-name"},
            {"id": "first-name", "component": "Text", "text": {"path": "/first"}}
        ]}}),
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "results", "path": "/",
               "value": {"title": "Chinese in New York", "first": "Red Pepper Pavilion"}}}),
    ]
}

/// An answer with `messages` as the block a model writes: compact JSON in streaming key order,
/// one message a line, in a list between `<a2ui-json>` tags, with prose around it.
fn ui_answer(messages: &[Value]) -> String {
    let body: Vec<String> = messages
        .iter()
        .map(a2ui_stream::to_streaming_json)
        .collect();
    format!(
        "Here is what I found.\n<a2ui-json>\n[\n{}\n]\n</a2ui-json>\nEnjoy!",
        body.join(",\n")
    )
}

fn last_role(request: &Value) -> String {
    request["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["role"].as_str())
        .unwrap_or("")
        .to_owned()
}

fn last_content(request: &Value) -> String {
    request["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or("")
        .to_owned()
}

// ---------------------------------------------------------------------------------------------
// The AG-UI side

/// The demo serving with the scripted model at full speed.
async fn scripted_server(args: &[&str]) -> Server {
    Server::start(args, Model::Scripted(0)).await
}

/// The demo serving with the mock at `api_base` as its model.
async fn mock_server(api_base: &str, args: &[&str]) -> Server {
    Server::start(args, Model::At(api_base)).await
}

fn run_input(run_id: &str, user: &str, forwarded: Value) -> Value {
    json!({
        "threadId": "thread-1", "runId": run_id, "state": {}, "tools": [], "context": [],
        "messages": [{"id": format!("{run_id}-user"), "role": "user", "content": user}],
        "forwardedProps": forwarded
    })
}

/// Posts a run as [`post_run`] does, and says whether its first A2UI surface event arrived
/// while the mock model was still streaming (`done` not yet set); `None` when none arrived.
async fn post_run_timing_first_ui(
    base: &str,
    input: &Value,
    done: &AtomicBool,
) -> (Vec<Event>, Option<bool>) {
    let mut first_ui_before_mock_done = None;
    let events = post_run(base, input, |ev| {
        if let Event::ActivitySnapshot(s) = ev
            && s.activity_type == A2UI_ACTIVITY_TYPE
            && first_ui_before_mock_done.is_none()
        {
            first_ui_before_mock_done = Some(!done.load(Ordering::SeqCst));
        }
    })
    .await;
    (events, first_ui_before_mock_done)
}

/// Posts a run and reads its events as they arrive; `on_event` sees each one on arrival.
async fn post_run(base: &str, input: &Value, mut on_event: impl FnMut(&Event)) -> Vec<Event> {
    let client = demo::http();
    let resp = client
        .post(format!("{base}/agent"))
        .header("content-type", "application/json")
        .body(input.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let mut reader = SseReader::new();
    let mut events = Vec::new();
    let mut body = resp.bytes_stream();
    while let Some(chunk) = body.next().await {
        for ev in reader.feed(&chunk.unwrap()) {
            let ev = ev.unwrap();
            on_event(&ev);
            events.push(ev);
        }
    }
    events
}

fn types(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| e.event_type().as_str().to_owned())
        .collect()
}

/// The A2UI operations of every `a2ui-surface` activity, in arrival order, rebuilt from the
/// snapshots and `add` patches the client received.
fn received_operations(events: &[Event]) -> Vec<Value> {
    let mut per_activity: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut order = Vec::new();
    for e in events {
        match e {
            Event::ActivitySnapshot(s) if s.activity_type == A2UI_ACTIVITY_TYPE => {
                let ops = s
                    .content
                    .get(A2UI_OPERATIONS)
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                order.extend(ops.iter().cloned());
                per_activity.insert(s.message_id.clone(), ops);
            }
            Event::ActivityDelta(d) if d.activity_type == A2UI_ACTIVITY_TYPE => {
                let ops = per_activity
                    .get_mut(&d.message_id)
                    .expect("delta for an activity with no snapshot");
                for p in &d.patch {
                    match p {
                        PatchOp::Add { path, value }
                            if path == &format!("/{A2UI_OPERATIONS}/-") =>
                        {
                            ops.push(value.clone());
                            order.push(value.clone());
                        }
                        other => panic!("unexpected patch {other:?}"),
                    }
                }
            }
            _ => {}
        }
    }
    order
}

/// What a renderer holds after `ops`, each applied as it arrived.
fn rebuild(ops: &[Value]) -> RendererState {
    let mut ui = RendererState::new();
    for op in ops {
        ui.apply(op)
            .unwrap_or_else(|e| panic!("a renderer refuses {op}: {e}"));
    }
    ui
}

/// The value at `pointer` of surface `id`'s data model.
fn data(ui: &RendererState, id: &str, pointer: &str) -> Value {
    let surface = ui.surface(id).unwrap_or_else(|| panic!("no surface {id}"));
    surface.data(pointer).cloned().unwrap_or(Value::Null)
}

fn text_of(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TextMessageContent(c) => Some(c.delta.clone()),
            _ => None,
        })
        .collect()
}

/// The `RUN_ERROR` a run ended with: its message and code.
fn run_error(events: &[Event]) -> Option<(String, Option<String>)> {
    match events.last() {
        Some(Event::RunError(e)) => Some((e.message.clone(), e.code.clone())),
        _ => None,
    }
}

/// The value of the `CUSTOM` event named `name`.
fn custom(events: &[Event], name: &str) -> Option<Value> {
    events.iter().find_map(|e| match e {
        Event::Custom(c) if c.name == name => Some(c.value.clone()),
        _ => None,
    })
}

/// Whether `m` is a component update of surface `surface` holding a component `id`.
fn updates_component(m: &Value, surface: &str, id: &str) -> bool {
    ["updateComponents", "surfaceUpdate"].iter().any(|k| {
        m.get(*k).is_some_and(|b| {
            b["surfaceId"] == surface
                && b["components"]
                    .as_array()
                    .is_some_and(|cs| cs.iter().any(|c| c["id"] == id))
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Tests

#[tokio::test]
async fn ui_reaches_the_client_while_the_model_is_still_streaming() {
    let script: Script = Arc::new(|req: &Value| {
        if last_role(req) == "tool" {
            text_payloads(&ui_answer(&mock_ui()), 4)
        } else {
            tool_call_payloads()
        }
    });
    let (mock, api_base) = start_mock(script, Duration::from_millis(15)).await;
    // The server speaks v0.8 unless a run asks for another version; this one asks for v0.9.
    let server = mock_server(&api_base, &["--a2ui", "0.8"]).await;

    let input = run_input(
        "run-1",
        "Top 3 Chinese restaurants in New York",
        json!({"a2uiVersion": "v0.9"}),
    );
    let (events, first_ui_before_mock_done) =
        post_run_timing_first_ui(&server.base, &input, &mock.ui_stream_done).await;

    assert_eq!(
        first_ui_before_mock_done,
        Some(true),
        "the first surface event arrived only after the mock finished"
    );
    assert!(mock.ui_stream_done.load(Ordering::SeqCst));
    agui::verify(&events).unwrap();
    let t = types(&events);
    assert_eq!(t.first().map(String::as_str), Some("RUN_STARTED"));
    assert_eq!(t.last().map(String::as_str), Some("RUN_FINISHED"));

    // The tool call went out delta by delta, then its result, computed from the example's data.
    let pos = |name: &str| {
        t.iter()
            .position(|x| x == name)
            .unwrap_or_else(|| panic!("no {name} in {t:?}"))
    };
    assert!(pos("TOOL_CALL_START") < pos("TOOL_CALL_ARGS"));
    assert!(pos("TOOL_CALL_ARGS") < pos("TOOL_CALL_END"));
    assert!(pos("TOOL_CALL_END") < pos("TOOL_CALL_RESULT"));
    assert_eq!(t.iter().filter(|x| *x == "TOOL_CALL_ARGS").count(), 3);
    let result = events
        .iter()
        .find_map(|e| match e {
            Event::ToolCallResult(r) => Some(r.content.clone()),
            _ => None,
        })
        .unwrap();
    let found: Vec<Value> = serde_json::from_str(&result).unwrap();
    assert_eq!(found.len(), 3);
    assert!(
        found
            .iter()
            .all(|r| r["cuisine"] == "Chinese" && r["city"] == "New York"),
        "{result}"
    );
    // The second model call carried the tool result back.
    let bodies = mock.bodies.lock().unwrap().clone();
    assert_eq!(bodies.len(), 2);
    assert_eq!(last_role(&bodies[1]), "tool");
    assert!(bodies[0]["stream"].as_bool().unwrap());
    assert!(
        bodies[0]["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("A2UI protocol version: v0.9")
    );

    // Prose came through without the A2UI JSON.
    let text = text_of(&events);
    assert!(
        text.contains("Looking that up.")
            && text.contains("Here is what I found.")
            && text.contains("Enjoy!")
    );
    assert!(!text.contains("a2ui-json") && !text.contains("createSurface"));

    // The operations rebuild the UI the mock wrote, one component per operation.
    let ops = received_operations(&events);
    assert_eq!(rebuild(&ops), rebuild(&mock_ui()));
    assert_eq!(problems(Version::V09, &ops), Vec::<String>::new());
    let component_ops = ops
        .iter()
        .filter(|o| o.get("updateComponents").is_some())
        .count();
    assert_eq!(
        component_ops, 4,
        "each component should arrive as its own operation: {ops:?}"
    );
}

#[tokio::test]
async fn the_console_prints_components_while_the_model_is_still_streaming() {
    let script: Script = Arc::new(|_req: &Value| text_payloads(&ui_answer(&mock_ui()), 4));
    let (mock, api_base) = start_mock(script, Duration::from_millis(10)).await;
    // Notes, when the first component line is printed, whether the model was done.
    let done = mock.ui_stream_done.clone();
    let mut first_component_while_streaming = None;
    let out = demo::console_watched(&["--messages", "anything"], Model::At(&api_base), |line| {
        let component = demo::a2ui_line(line).is_some_and(|m| m.get("updateComponents").is_some());
        if component && first_component_while_streaming.is_none() {
            first_component_while_streaming = Some(!done.load(Ordering::SeqCst));
        }
    })
    .await;
    let text = out.text();
    assert!(!out.failed(), "{text}");
    assert_eq!(first_component_while_streaming, Some(true), "{text}");
    assert!(mock.ui_stream_done.load(Ordering::SeqCst));
    // 1 surface, 4 components, and the data model in 3 pieces: the root set to `{}`, then each
    // of its two values (the mock writes its messages in streaming key order).
    let summary = out.summary();
    assert_eq!(summary.messages, 8, "{text}");
    assert_eq!(out.messages().len(), 8, "{text}");
    assert!(out.stdout.contains("Here is what I found."), "{text}");
    assert!(
        out.messages()
            .iter()
            .any(|m| updates_component(m, "results", "first-name")),
        "{text}"
    );
}

#[tokio::test]
async fn scripted_default_path_in_the_console() {
    let out = demo::console(
        &["--messages", "Top 5 Chinese restaurants in New York"],
        Model::Scripted(1),
    )
    .await;
    let text = out.text();
    let stdout = &out.stdout;
    assert!(!out.failed(), "{text}");
    assert!(
        stdout.contains("Let me look up the best Chinese restaurants in New York."),
        "{text}"
    );
    assert!(stdout.contains("tool call get_restaurants"), "{text}");
    assert!(stdout.contains("tool result: 5 results"), "{text}");
    let messages = out.messages();
    assert!(
        messages
            .iter()
            .any(|m| m["createSurface"]["surfaceId"] == LIST_SURFACE),
        "{text}"
    );
    assert!(
        messages
            .iter()
            .any(|m| updates_component(m, LIST_SURFACE, "root")),
        "{text}"
    );
    assert!(
        messages
            .iter()
            .any(|m| updates_component(m, LIST_SURFACE, "card-book")),
        "{text}"
    );
    assert!(!stdout.contains("<a2ui-json>"), "{text}");
    // 1 surface + 13 components + the data model in 8 pieces: the root set to `{}`, the title,
    // `/items` set to `[]` and each of the five records.
    let summary = out.summary();
    assert_eq!(summary.messages, 22, "{text}");
    assert_eq!(messages.len(), 22, "{text}");
    let first_component = summary.first_component_ms.unwrap();
    let first_content = summary.first_content_ms.unwrap();
    assert!(first_component < first_content, "{text}");
    // The first card's record goes out while the later ones are still being written.
    assert!(first_content < summary.total_ms, "{text}");
    assert!(
        messages
            .iter()
            .any(|m| m["updateDataModel"]["surfaceId"] == LIST_SURFACE),
        "{text}"
    );
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with("summary: first component after "),
        "{last}"
    );
    assert!(last.contains("first content after "), "{last}");
    assert!(last.contains("22 A2UI messages"), "{last}");
}

#[tokio::test]
async fn scripted_default_path_over_ag_ui_list_booking_confirmation() {
    let server = scripted_server(&[]).await;
    let base = &server.base;
    let health = demo::http()
        .get(format!("{base}/healthz"))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
    assert_eq!(health.text().await.unwrap(), "ok");

    // The list.
    let events = post_run(
        base,
        &run_input(
            "run-list",
            "Top 3 Italian restaurants in New York",
            json!({}),
        ),
        |_| {},
    )
    .await;
    agui::verify(&events).unwrap();
    let ops = received_operations(&events);
    assert_eq!(problems(Version::V09, &ops), Vec::<String>::new());
    let ui = rebuild(&ops);
    assert_eq!(ui.surface(LIST_SURFACE).unwrap().version(), Version::V09);
    let items = data(&ui, LIST_SURFACE, "/items");
    assert_eq!(items.as_array().unwrap().len(), 3);
    let first = items[0].clone();
    assert_eq!(first["name"], "Trattoria Ponte Vecchio");

    // Press "Book" on the first card: the client sends the resolved action context.
    let book = json!({"a2uiAction": {"userAction": {
        "name": BOOK_ACTION, "surfaceId": LIST_SURFACE, "sourceComponentId": "card-book",
        "timestamp": "2026-01-01T12:00:00Z",
        "context": {"restaurantName": first["name"], "address": first["address"], "imageUrl": first["imageUrl"]}
    }}});
    let events = post_run(base, &run_input("run-book", "", book), |_| {}).await;
    agui::verify(&events).unwrap();
    let ops = received_operations(&events);
    assert_eq!(problems(Version::V09, &ops), Vec::<String>::new());
    let ui = rebuild(&ops);
    assert_eq!(
        data(&ui, BOOKING_SURFACE, "/restaurantName"),
        "Trattoria Ponte Vecchio"
    );
    let form = ui.surface(BOOKING_SURFACE).unwrap();
    assert!(form.component("booking-submit").is_some());

    // Submit the form.
    let submit = json!({"a2uiAction": {"userAction": {
        "name": SUBMIT_ACTION, "surfaceId": BOOKING_SURFACE, "sourceComponentId": "booking-submit",
        "context": {"restaurantName": "Trattoria Ponte Vecchio", "partySize": "4",
                    "reservationTime": "2026-01-02T19:30", "dietary": "vegetarian", "imageUrl": first["imageUrl"]}
    }}});
    let events = post_run(base, &run_input("run-submit", "", submit), |_| {}).await;
    agui::verify(&events).unwrap();
    let ui = rebuild(&received_operations(&events));
    assert_eq!(
        data(&ui, CONFIRMATION_SURFACE, "/details"),
        "Table for 4 at 2026-01-02T19:30"
    );
    assert_eq!(
        data(&ui, CONFIRMATION_SURFACE, "/dietary"),
        "Dietary requirements: vegetarian"
    );
    assert!(text_of(&events).contains("is booked"));
}

#[tokio::test]
async fn scripted_runs_in_v08_are_independent_when_concurrent() {
    let server = scripted_server(&[]).await;
    let base = &server.base;
    let a = run_input(
        "run-a",
        "Mexican food in San Francisco",
        json!({"a2uiVersion": "v0.8"}),
    );
    let b = run_input("run-b", "Top 2 Japanese restaurants in New York", json!({}));
    let (ea, eb) = tokio::join!(post_run(base, &a, |_| {}), post_run(base, &b, |_| {}));
    agui::verify(&ea).unwrap();
    agui::verify(&eb).unwrap();
    let (oa, ob) = (received_operations(&ea), received_operations(&eb));
    assert_eq!(problems(Version::V08, &oa), Vec::<String>::new());
    assert_eq!(problems(Version::V09, &ob), Vec::<String>::new());
    let (ua, ub) = (rebuild(&oa), rebuild(&ob));
    assert_eq!(ua.surface(LIST_SURFACE).unwrap().version(), Version::V08);
    assert_eq!(ub.surface(LIST_SURFACE).unwrap().version(), Version::V09);
    assert_eq!(
        data(&ua, LIST_SURFACE, "/items/item1/name"),
        "Mission Tortillería"
    );
    assert_eq!(
        data(&ub, LIST_SURFACE, "/items").as_array().unwrap().len(),
        2
    );
    // Each run's events carry its own run id only.
    for (events, id) in [(&ea, "run-a"), (&eb, "run-b")] {
        let started = events.iter().find_map(|e| match e {
            Event::RunStarted(s) => Some(s.run_id.clone()),
            _ => None,
        });
        assert_eq!(started.as_deref(), Some(id));
    }
}

#[tokio::test]
async fn a_bad_request_is_refused() {
    let server = scripted_server(&[]).await;
    let base = &server.base;
    let client = demo::http();
    let send = |body: &str, ctype: Option<&str>| {
        let mut req = client.post(format!("{base}/agent")).body(body.to_owned());
        if let Some(ctype) = ctype {
            req = req.header("content-type", ctype);
        }
        req.send()
    };
    // JSON that is not a RunAgentInput.
    let resp = send("{\"nope\":1}", Some("application/json"))
        .await
        .unwrap();
    assert_eq!(resp.status(), 422);
    // Not JSON at all, and a body that does not say it is JSON.
    let resp = send("{\"threadId\":", Some("application/json"))
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    let input = run_input("run-y", "hi", json!({})).to_string();
    let resp = send(&input, None).await.unwrap();
    assert_eq!(resp.status(), 415);

    // A version the demo does not speak: the agent refuses the run.
    let events = post_run(
        base,
        &run_input("run-x", "hi", json!({"a2uiVersion": "v7"})),
        |_| {},
    )
    .await;
    agui::verify(&events).unwrap();
    let (message, code) = run_error(&events).expect("RUN_ERROR last");
    assert!(message.contains("v7"), "{message}");
    assert_eq!(code.as_deref(), Some("AGENT_ERROR"), "{message}");
    // Nothing to answer: no user message and no UI action (in a thread of its own, as the
    // server lays a thread's earlier messages under a run's).
    let mut silent = run_input("run-z", "", json!({}));
    silent["threadId"] = json!("thread-silent");
    silent["messages"] = json!([]);
    let events = post_run(base, &silent, |_| {}).await;
    agui::verify(&events).unwrap();
    let (message, code) = run_error(&events).expect("RUN_ERROR last");
    assert!(message.contains("no user message"), "{message}");
    assert_eq!(code.as_deref(), Some("AGENT_ERROR"), "{message}");
    // The same run id with another request.
    let other = run_input("run-x", "something else", json!({})).to_string();
    let resp = send(&other, Some("application/json")).await.unwrap();
    assert_eq!(resp.status(), 409);
}

// ---------------------------------------------------------------------------------------------
// Browsers: origins, content types, catalogs

#[tokio::test]
async fn only_allowed_origins_and_json_bodies_start_runs() {
    let server = scripted_server(&[]).await;
    let base = &server.base;
    let client = demo::http();
    let input = |id: &str| run_input(id, "Top 2 Thai restaurants in Boston", json!({})).to_string();
    let allow_origin = |r: &reqwest::Response| {
        r.headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap().to_owned())
    };
    // Preflight from a loopback page: answered, with the origin allowed.
    let pre = client
        .request(reqwest::Method::OPTIONS, format!("{base}/agent"))
        .header("origin", "http://localhost:5173")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(pre.status().is_success(), "{}", pre.status());
    assert_eq!(allow_origin(&pre).as_deref(), Some("http://localhost:5173"));
    assert!(
        pre.headers()["access-control-allow-methods"]
            .to_str()
            .unwrap()
            .contains("POST")
    );
    assert!(
        pre.headers()["access-control-allow-headers"]
            .to_str()
            .unwrap()
            .to_lowercase()
            .contains("content-type")
    );
    // A foreign page: its preflight is answered without the origin allowed, so a browser sends
    // no JSON POST from it, and no response reaches it (no `access-control-allow-origin`).
    let pre = client
        .request(reqwest::Method::OPTIONS, format!("{base}/agent"))
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert_eq!(allow_origin(&pre), None);
    let r = client
        .post(format!("{base}/agent"))
        .header("origin", "https://evil.example")
        .header("content-type", "application/json")
        .body(input("run-evil-json"))
        .send()
        .await
        .unwrap();
    assert_eq!(allow_origin(&r), None);
    let _ = r.bytes().await;
    // What a page may send without a preflight (`text/plain`) is refused before any run starts.
    let r = client
        .post(format!("{base}/agent"))
        .header("origin", "https://evil.example")
        .header("content-type", "text/plain")
        .body(input("run-evil-text"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 415);
    assert_eq!(allow_origin(&r), None);
    assert!(!r.text().await.unwrap().contains("RUN_STARTED"));
    // A `text/plain` body (what a form or a no-preflight fetch sends) is refused, from anywhere.
    let r = client
        .post(format!("{base}/agent"))
        .header("content-type", "text/plain")
        .body(input("run-text"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 415);
    // The server's own origin is allowed, with the CORS header on the stream.
    let own = base.clone();
    let r = client
        .post(format!("{base}/agent"))
        .header("origin", own.as_str())
        .header("content-type", "application/json; charset=utf-8")
        .body(input("run-own"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(allow_origin(&r).as_deref(), Some(own.as_str()));
    assert!(r.text().await.unwrap().contains("RUN_FINISHED"));
}

#[tokio::test]
async fn allowed_origins_are_configurable() {
    // The rule the demo serves with (the server crate's).
    let mut origins = a2ui_stream_server::Origins::default();
    let host = Some("127.0.0.1:8000");
    assert!(origins.allows("http://127.0.0.1:8000", host));
    assert!(origins.allows("http://localhost:3000", host));
    assert!(origins.allows("http://[::1]:9", host));
    assert!(!origins.allows("https://app.example.com", host));
    assert!(!origins.allows("http://localhost.evil.example", host));
    assert!(!origins.allows("null", host));
    origins.add("https://app.example.com, https://other.example.com/");
    assert!(origins.allows("https://app.example.com", host));
    assert!(origins.allows("https://other.example.com", host));
    assert!(!origins.allows("https://third.example.com", host));
    origins.add("*");
    assert!(origins.allows("https://third.example.com", host));

    // And the demo's `--allow-origin`.
    let allowed = |base: String, origin: &'static str| async move {
        let pre = demo::http()
            .request(reqwest::Method::OPTIONS, format!("{base}/agent"))
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "content-type")
            .send()
            .await
            .unwrap();
        pre.headers().get("access-control-allow-origin").is_some()
    };
    let some = scripted_server(&[
        "--allow-origin",
        "https://app.example.com, https://other.example.com/",
    ])
    .await;
    assert!(allowed(some.base.clone(), "https://app.example.com").await);
    assert!(allowed(some.base.clone(), "https://other.example.com").await);
    assert!(allowed(some.base.clone(), "http://localhost:3000").await);
    assert!(!allowed(some.base.clone(), "https://third.example.com").await);
    let any = scripted_server(&["--allow-origin", "*"]).await;
    assert!(allowed(any.base.clone(), "https://third.example.com").await);
}

/// The catalog id of the list's `createSurface`, as the client received it.
fn list_catalog(events: &[Event]) -> String {
    received_operations(events)
        .iter()
        .find_map(|op| op["createSurface"]["catalogId"].as_str().map(str::to_owned))
        .unwrap()
}

#[tokio::test]
async fn the_basic_catalog_is_named_as_the_client_knows_it() {
    let server = scripted_server(&[]).await;
    let base = &server.base;
    let spec = BASIC_CATALOG_V09;
    let copilotkit = "https://a2ui.org/specification/v0_9/basic_catalog.json";
    // No capabilities: the spec's id.
    let events = post_run(
        base,
        &run_input("r1", "Top 2 pizza places in Rome", json!({})),
        |_| {},
    )
    .await;
    assert_eq!(list_catalog(&events), spec);
    // A2UI client capabilities (v0.9 form) naming CopilotKit's id.
    let caps = json!({"a2uiClientCapabilities": {"v0.9": {"supportedCatalogIds": [copilotkit]}}});
    let events = post_run(
        base,
        &run_input("r2", "Top 2 pizza places in Rome", caps),
        |_| {},
    )
    .await;
    assert_eq!(list_catalog(&events), copilotkit);
    // What CopilotKit sends: a context entry listing its catalog.
    let mut input = run_input(
        "r3",
        "Top 2 pizza places in Rome",
        json!({"a2uiCatalogAvailable": true}),
    );
    input["context"] = json!([{
        "description": "A2UI catalog capabilities: available catalog IDs and custom component definitions the client can render.",
        "value": format!("Available A2UI catalog:\n- {copilotkit} (basic catalog)")
    }]);
    let events = post_run(base, &input, |_| {}).await;
    assert_eq!(list_catalog(&events), copilotkit);
    agui::verify(&events).unwrap();
}

/// The page's own files are served, with their types; nothing else in its folder is (not
/// `node_modules`, the sources or the npm manifests), nor anything above it.
#[tokio::test]
async fn the_server_serves_the_page_and_nothing_else_of_its_folder() {
    let server = Server::start(&[], Model::Scripted(0)).await;
    let http = demo::http();
    let fetch = |path: &'static str| {
        let url = format!("{}{path}", server.base);
        let http = http.clone();
        async move {
            let r = http.get(url).send().await.unwrap();
            let kind = r
                .headers()
                .get("content-type")
                .map(|v| v.to_str().unwrap().to_owned());
            (r.status().as_u16(), kind)
        }
    };
    let (status, kind) = fetch("/").await;
    assert_eq!((status, kind.as_deref()), (200, Some("text/html")));
    for script in ["/app.js", "/resume.js", "/markdown.js", "/theme-v0_8.js"] {
        let (status, kind) = fetch(script).await;
        assert_eq!(status, 200, "{script}");
        assert!(
            kind.unwrap_or_default().starts_with("text/javascript"),
            "{script}"
        );
    }
    for hidden in [
        "/package.json",
        "/package-lock.json",
        "/build.mjs",
        "/src/a2ui-v0_9.js",
        "/node_modules/lit/index.js",
        "/../Cargo.toml",
        "/dist/../package.json",
    ] {
        assert_eq!(fetch(hidden).await.0, 404, "{hidden}");
    }
}
