//! The offline model: a tiny OpenAI-compatible chat-completions server on 127.0.0.1 that streams a
//! scripted answer token by token. The agent talks to it with the same client, the same streaming
//! loop and the same splitter as to a real model; only the answers are written here instead of
//! generated.
//!
//! It answers a query with a sentence and a `get_restaurants` tool call; the tool result with a
//! sentence and an `<a2ui-json>` block built from the restaurants it got; a "Book" action with the
//! booking form; the form's submit action with a confirmation.
//!
//! When the system prompt is the Express one (it names the `<a2ui>` tag) it writes the same UIs
//! in A2UI Express, decompiled from the same messages ([`express::block`]), in an `<a2ui>` block
//! between the same sentences, streamed in the same token pieces.

use crate::tools::{self, GetRestaurantsArgs, Restaurant};
use crate::ui::block;
use crate::ui::{self, Version};
use crate::{express, prompt};
use axum::body::Body;
use axum::extract::State;
use axum::http::header;
use axum::response::Response;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;

/// Default pause between two streamed tokens.
pub const DEFAULT_DELAY_MS: u64 = 5;

/// The pause between tokens: `A2UI_SCRIPTED_DELAY_MS` (0 streams as fast as possible), else
/// [`DEFAULT_DELAY_MS`].
pub fn delay_from_env() -> Duration {
    let ms = std::env::var("A2UI_SCRIPTED_DELAY_MS")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(DEFAULT_DELAY_MS);
    Duration::from_millis(ms)
}

/// A running scripted model. Dropping it stops the server.
pub struct ScriptedModel {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for ScriptedModel {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl ScriptedModel {
    /// Starts the server on an ephemeral port of 127.0.0.1.
    pub async fn start(delay: Duration) -> std::io::Result<ScriptedModel> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let app = Router::new()
            .route("/v1/chat/completions", post(completions))
            .with_state(delay);
        let task = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                eprintln!("scripted model server stopped: {e}");
            }
        });
        Ok(ScriptedModel { addr, task })
    }

    /// The base URL to give an OpenAI client (`http://127.0.0.1:PORT/v1`).
    pub fn api_base(&self) -> String {
        format!("http://{}/v1", self.addr)
    }
}

/// One piece of a scripted answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    /// Text the model writes.
    Text(String),
    /// A tool call with its JSON arguments.
    ToolCall {
        id: String,
        name: String,
        arguments: String,
    },
}

/// Splits text into token-sized pieces (1 to 6 bytes, on character boundaries), the same way
/// every time.
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut seed: u32 = 0x2545_f491;
    let mut cur = String::new();
    let mut target = 1;
    for ch in text.chars() {
        cur.push(ch);
        if cur.len() >= target {
            out.push(std::mem::take(&mut cur));
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            target = 1 + ((seed >> 16) % 6) as usize;
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The JSON of one streamed chunk.
fn chunk(delta: Value, finish: Option<&str>) -> String {
    json!({
        "id": "chatcmpl-scripted",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "scripted",
        "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }]
    })
    .to_string()
}

/// The SSE chunks (`data:` payloads, without framing) for a scripted answer, ending with `[DONE]`.
pub fn sse_payloads(pieces: &[Piece]) -> Vec<String> {
    let mut out = vec![chunk(json!({ "role": "assistant", "content": "" }), None)];
    let mut called = false;
    let mut index = 0;
    for p in pieces {
        match p {
            Piece::Text(t) => out.extend(
                tokens(t)
                    .into_iter()
                    .map(|tok| chunk(json!({ "content": tok }), None)),
            ),
            Piece::ToolCall {
                id,
                name,
                arguments,
            } => {
                called = true;
                out.push(chunk(
                    json!({ "tool_calls": [{ "index": index, "id": id, "type": "function",
                                             "function": { "name": name, "arguments": "" } }] }),
                    None,
                ));
                for tok in tokens(arguments) {
                    out.push(chunk(json!({ "tool_calls": [{ "index": index, "function": { "arguments": tok } }] }), None));
                }
                index += 1;
            }
        }
    }
    out.push(chunk(
        json!({}),
        Some(if called { "tool_calls" } else { "stop" }),
    ));
    out.push("[DONE]".into());
    out
}

async fn completions(State(delay): State<Duration>, Json(request): Json<Value>) -> Response {
    let pieces = answer(&request);
    let payloads = sse_payloads(&pieces);
    let stream = futures::stream::unfold(payloads.into_iter(), move |mut it| async move {
        let payload = it.next()?;
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        Some((
            Ok::<_, std::convert::Infallible>(format!("data: {payload}\n\n")),
            it,
        ))
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(Body::from_stream(stream))
        .unwrap_or_else(|_| Response::new(Body::empty()))
}

fn content_text(m: &Value) -> String {
    match m.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    }
}

/// What the user asked for, read from a free-text query.
pub fn parse_query(query: &str) -> GetRestaurantsArgs {
    let q = query.to_lowercase();
    let cuisine = tools::cuisines()
        .into_iter()
        .find(|c| q.contains(&c.to_lowercase()))
        .unwrap_or_default();
    let location = tools::cities()
        .into_iter()
        .find(|c| q.contains(&c.to_lowercase()))
        .or_else(|| {
            q.split(|c: char| !c.is_alphanumeric())
                .find_map(|w| match w {
                    "nyc" | "manhattan" | "brooklyn" => Some("New York".to_owned()),
                    "sf" => Some("San Francisco".to_owned()),
                    _ => None,
                })
        })
        .unwrap_or_else(|| "New York".to_owned());
    const WORDS: [&str; 10] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    let count = q.split(|c: char| !c.is_alphanumeric()).find_map(|w| {
        w.parse::<u64>()
            .ok()
            .filter(|n| (1..=tools::MAX_COUNT as u64).contains(n))
            .or_else(|| WORDS.iter().position(|x| *x == w).map(|i| i as u64 + 1))
    });
    GetRestaurantsArgs {
        cuisine,
        location,
        count: Some(count.unwrap_or(5)),
    }
}

fn ctx<'a>(context: &'a Value, key: &str) -> &'a str {
    context.get(key).and_then(Value::as_str).unwrap_or("")
}

/// How the scripted model writes a UI: in the version and the notation its system prompt asks
/// for.
#[derive(Debug, Clone, Copy)]
struct Writer {
    version: Version,
    express: bool,
}

impl Writer {
    /// The block a UI's messages are written as.
    fn block(self, messages: &[Value]) -> String {
        if !self.express {
            return block(messages);
        }
        express::block(self.version, messages)
            .unwrap_or_else(|e| format!("(this UI has no A2UI Express form: {e})"))
    }
}

/// The scripted answer to a chat-completions request.
pub fn answer(request: &Value) -> Vec<Piece> {
    let empty = Vec::new();
    let messages = request
        .get("messages")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let system: Vec<String> = messages
        .iter()
        .filter(|m| m.get("role").and_then(Value::as_str) == Some("system"))
        .map(content_text)
        .collect();
    let writer = Writer {
        version: system
            .iter()
            .find_map(|s| prompt::version_of_prompt(s))
            .unwrap_or(Version::V09),
        express: system.iter().any(|s| express::asks_for_express(s)),
    };
    answer_to(writer, messages)
}

fn answer_to(writer: Writer, messages: &[Value]) -> Vec<Piece> {
    let Some((last, earlier)) = messages.split_last() else {
        return vec![Piece::Text(
            "Ask me for restaurants, for example: top 5 Chinese restaurants in New York.".into(),
        )];
    };
    let role = last.get("role").and_then(Value::as_str).unwrap_or("");
    let text = content_text(last);
    if role == "user" && text.starts_with(prompt::RETRY_PREFIX) {
        // Answer the turn again: drop the rejected answer and the complaint.
        let cut = earlier.len().saturating_sub(1);
        return answer_to(writer, earlier.get(..cut).unwrap_or_default());
    }
    if role == "tool" {
        return answer_tool_result(writer, earlier, &text);
    }
    if let Some((name, context)) = prompt::parse_action_message(&text) {
        return answer_action(writer, &name, &context);
    }
    let args = parse_query(&text);
    let what = if args.cuisine.is_empty() {
        "restaurants".to_owned()
    } else {
        format!("{} restaurants", args.cuisine)
    };
    vec![
        Piece::Text(format!(
            "Let me look up the best {what} in {}.",
            args.location
        )),
        Piece::ToolCall {
            id: format!("call_{}", messages.len()),
            name: tools::GET_RESTAURANTS.into(),
            arguments: serde_json::to_string(&args).unwrap_or_else(|_| "{}".into()),
        },
    ]
}

fn answer_tool_result(writer: Writer, earlier: &[Value], result: &str) -> Vec<Piece> {
    // The arguments of the call this result answers, for the title.
    let args: GetRestaurantsArgs = earlier
        .iter()
        .rev()
        .find_map(|m| {
            m.get("tool_calls")?
                .get(0)?
                .get("function")?
                .get("arguments")?
                .as_str()
                .map(str::to_owned)
        })
        .and_then(|a| serde_json::from_str(&a).ok())
        .unwrap_or(GetRestaurantsArgs {
            cuisine: String::new(),
            location: String::new(),
            count: None,
        });
    let found: Vec<Restaurant> = serde_json::from_str(result).unwrap_or_default();
    let what = if args.cuisine.is_empty() {
        "restaurants".to_owned()
    } else {
        format!("{} restaurants", args.cuisine)
    };
    let place = if args.location.is_empty() {
        "town".to_owned()
    } else {
        args.location.clone()
    };
    if found.is_empty() {
        return vec![Piece::Text(format!(
            "I couldn't find any {what} in {place}. Try another cuisine or city, for example Italian in New York."
        ))];
    }
    let n = found.len();
    let kind = if args.cuisine.is_empty() {
        String::new()
    } else {
        format!("{} ", args.cuisine)
    };
    let noun = if n == 1 { "restaurant" } else { "restaurants" };
    let title = format!("Top {n} {kind}{noun} in {place}");
    let lead = if n == 1 {
        format!(" I found one {kind}{noun} in {place}.")
    } else {
        format!(" Here are {n} {kind}{noun} in {place}, best rated first.")
    };
    vec![Piece::Text(format!(
        "{lead}\n{}\nPress Book to reserve a table.",
        writer.block(&ui::restaurant_list(writer.version, &title, &found))
    ))]
}

fn answer_action(writer: Writer, name: &str, context: &Value) -> Vec<Piece> {
    let version = writer.version;
    let restaurant = ctx(context, "restaurantName");
    match name {
        ui::BOOK_ACTION => vec![Piece::Text(format!(
            "Let's get you a table at {restaurant}.\n{}\nFill in the details and press Reserve.",
            writer.block(&ui::booking_form(
                version,
                restaurant,
                ctx(context, "address"),
                ctx(context, "imageUrl")
            ))
        ))],
        ui::SUBMIT_ACTION => {
            let party = match context.get("partySize") {
                Some(Value::Number(n)) => n.to_string(),
                Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
                _ => "2".to_owned(),
            };
            vec![Piece::Text(format!(
                "Done: your table at {restaurant} is booked.\n{}",
                writer.block(&ui::confirmation(
                    version,
                    restaurant,
                    &party,
                    ctx(context, "reservationTime"),
                    ctx(context, "dietary"),
                    ctx(context, "imageUrl"),
                ))
            ))]
        }
        other => vec![Piece::Text(format!(
            "I don't know how to handle the action `{other}` yet."
        ))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_small_and_rejoin_to_the_text() {
        let text = "Here are 5 Chinese restaurants — «best» first. <a2ui-json>[]</a2ui-json>";
        let toks = tokens(text);
        assert!(toks.len() > 10);
        assert!(toks.iter().all(|t| !t.is_empty() && t.len() <= 8));
        assert_eq!(toks.concat(), text);
    }

    #[test]
    fn reads_cuisine_place_and_count_from_a_query() {
        let a = parse_query("Top 3 Italian restaurants in New York");
        assert_eq!(
            (a.cuisine.as_str(), a.location.as_str(), a.count),
            ("Italian", "New York", Some(3))
        );
        let b = parse_query("some mexican food in SF, maybe two");
        assert_eq!(
            (b.cuisine.as_str(), b.location.as_str(), b.count),
            ("Mexican", "San Francisco", Some(2))
        );
        let c = parse_query("hungry");
        assert_eq!((c.cuisine.as_str(), c.count), ("", Some(5)));
    }

    #[test]
    fn a_query_gets_a_tool_call_and_a_result_gets_a_ui() {
        let system = json!({"role": "system", "content": prompt::system_prompt(Version::V08)});
        let user = json!({"role": "user", "content": "Top 2 Japanese restaurants in New York"});
        let first = answer(&json!({"messages": [system, user]}));
        let Some(Piece::ToolCall {
            name, arguments, ..
        }) = first.last()
        else {
            panic!("{first:?}")
        };
        assert_eq!(name, tools::GET_RESTAURANTS);
        let result = tools::call_tool(name, arguments).unwrap();
        let call = json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": name, "arguments": arguments}}]});
        let tool = json!({"role": "tool", "tool_call_id": "c", "content": result});
        let second = answer(&json!({"messages": [system, user, call, tool]}));
        let Some(Piece::Text(t)) = second.first() else {
            panic!("{second:?}")
        };
        assert!(
            t.contains("<a2ui-json>")
                && t.contains("beginRendering")
                && t.contains("Sakura Counter")
        );
        let payloads = sse_payloads(&second);
        assert_eq!(payloads.last().map(String::as_str), Some("[DONE]"));
    }

    /// The text of the scripted list for "Top 5 Chinese restaurants in New York" under
    /// `system`, and the requests before it.
    fn list_answer(system: &str) -> String {
        let system = json!({"role": "system", "content": system});
        let user = json!({"role": "user", "content": "Top 5 Chinese restaurants in New York"});
        let Some(Piece::ToolCall { arguments, .. }) =
            answer(&json!({"messages": [system, user]})).pop()
        else {
            panic!("no tool call")
        };
        let result = tools::call_tool(tools::GET_RESTAURANTS, &arguments).unwrap();
        let call = json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": tools::GET_RESTAURANTS, "arguments": arguments}}]});
        let tool = json!({"role": "tool", "tool_call_id": "c", "content": result});
        let answer = answer(&json!({"messages": [system, user, call, tool]}));
        let [Piece::Text(text)] = &answer[..] else {
            panic!("{answer:?}")
        };
        text.clone()
    }

    /// The bytes and tokens of `text` streamed until the data-model update of `path` is out.
    fn until(
        tokens: &[String],
        mut out: impl FnMut(&str) -> Vec<Value>,
        path: &str,
    ) -> (usize, usize) {
        let mut bytes = 0;
        for (n, token) in tokens.iter().enumerate() {
            bytes += token.len();
            let done = out(token)
                .iter()
                .any(|m| m["updateDataModel"]["path"] == path);
            if done {
                return (bytes, n + 1);
            }
        }
        panic!("{path} never went out")
    }

    #[test]
    fn the_express_list_is_the_json_list_in_fewer_bytes_streamed_card_by_card() {
        for v in [Version::V09, Version::V10] {
            let json_text = list_answer(&prompt::system_prompt(v));
            let express_text = list_answer(prompt::express_system_prompt(v).unwrap());
            assert!(json_text.contains("<a2ui-json>") && !json_text.contains("<a2ui>"));
            assert!(express_text.contains("<a2ui>") && !express_text.contains("<a2ui-json>"));
            // The same sentences around the block.
            let around = |t: &str, open: &str, close: &str| {
                let (before, rest) = t.split_once(open).unwrap();
                (
                    before.to_owned(),
                    rest.split_once(close).unwrap().1.to_owned(),
                )
            };
            assert_eq!(
                around(&json_text, "<a2ui-json>", "</a2ui-json>"),
                around(&express_text, "<a2ui>", "</a2ui>")
            );
            let (jt, et) = (tokens(&json_text), tokens(&express_text));
            let json_at = |path| {
                let mut splitter = a2ui_stream::Splitter::new();
                until(
                    &jt,
                    |t| {
                        splitter
                            .feed(t.as_bytes())
                            .filter_map(|e| match e {
                                Ok(a2ui_stream::Event::Message(m)) => m.to_value().ok(),
                                _ => None,
                            })
                            .collect()
                    },
                    path,
                )
            };
            let express_at = |path| {
                let mut parser = express::parser(v).unwrap();
                until(
                    &et,
                    |t| {
                        parser
                            .feed(t)
                            .into_iter()
                            .flat_map(|p| match p.unwrap() {
                                a2ui_stream::official::direct::Part::A2ui(m) => m,
                                _ => Vec::new(),
                            })
                            .collect()
                    },
                    path,
                )
            };
            let (json_first, express_first) = (json_at("/items/0"), express_at("/items/0"));
            let (json_last, express_last) = (json_at("/items/4"), express_at("/items/4"));
            println!(
                "{}: JSON answer {} bytes in {} tokens, first card in at byte {} (token {}), last at {} (token {}); \
                 Express answer {} bytes in {} tokens, first card in at byte {} (token {}), last at {} (token {})",
                v.message_tag(),
                json_text.len(),
                jt.len(),
                json_first.0,
                json_first.1,
                json_last.0,
                json_last.1,
                express_text.len(),
                et.len(),
                express_first.0,
                express_first.1,
                express_last.0,
                express_last.1,
            );
            assert!(express_text.len() < json_text.len());
            assert!(express_first.0 < express_last.0 && express_first.0 < json_first.0);
            // The booking form and the confirmation are shorter in Express too.
            let context = json!({"restaurantName": "Red Pepper Pavilion", "address": "315 E 14th St",
                                 "imageUrl": "https://picsum.photos/seed/red-pepper/320/200",
                                 "partySize": "2", "reservationTime": "2026-01-02T19:30", "dietary": ""});
            for action in [ui::BOOK_ACTION, ui::SUBMIT_ACTION] {
                let text = |express| {
                    let writer = Writer {
                        version: v,
                        express,
                    };
                    let [Piece::Text(t)] = &answer_action(writer, action, &context)[..] else {
                        panic!("{action}")
                    };
                    t.clone()
                };
                let (json_text, express_text) = (text(false), text(true));
                println!(
                    "{}: {action}: JSON answer {} bytes in {} tokens, Express answer {} bytes in {} tokens",
                    v.message_tag(),
                    json_text.len(),
                    tokens(&json_text).len(),
                    express_text.len(),
                    tokens(&express_text).len()
                );
                assert!(express_text.len() < json_text.len() && express_text.contains("<a2ui>"));
            }
        }
    }
}
