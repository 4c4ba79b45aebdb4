//! The offline model: a tiny OpenAI-compatible chat-completions server on 127.0.0.1 that streams a
//! scripted answer token by token. The agent talks to it with the same client, the same streaming
//! loop and the same splitter as to a real model; only the answers are written here instead of
//! generated.
//!
//! It answers a query with a sentence and a `get_restaurants` tool call; the tool result with a
//! sentence and an `<a2ui-json>` block built from the restaurants it got; a "Book" action with the
//! booking form; the form's submit action with a confirmation.

use crate::prompt;
use crate::tools::{self, GetRestaurantsArgs, Restaurant};
use crate::ui::block;
use crate::ui::{self, Version};
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

/// The scripted answer to a chat-completions request.
pub fn answer(request: &Value) -> Vec<Piece> {
    let empty = Vec::new();
    let messages = request
        .get("messages")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let version = messages
        .iter()
        .filter(|m| m.get("role").and_then(Value::as_str) == Some("system"))
        .find_map(|m| prompt::version_of_prompt(&content_text(m)))
        .unwrap_or(Version::V09);
    answer_to(version, messages)
}

fn answer_to(version: Version, messages: &[Value]) -> Vec<Piece> {
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
        return answer_to(version, earlier.get(..cut).unwrap_or_default());
    }
    if role == "tool" {
        return answer_tool_result(version, earlier, &text);
    }
    if let Some((name, context)) = prompt::parse_action_message(&text) {
        return answer_action(version, &name, &context);
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

fn answer_tool_result(version: Version, earlier: &[Value], result: &str) -> Vec<Piece> {
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
        block(&ui::restaurant_list(version, &title, &found))
    ))]
}

fn answer_action(version: Version, name: &str, context: &Value) -> Vec<Piece> {
    let restaurant = ctx(context, "restaurantName");
    match name {
        ui::BOOK_ACTION => vec![Piece::Text(format!(
            "Let's get you a table at {restaurant}.\n{}\nFill in the details and press Reserve.",
            block(&ui::booking_form(
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
                block(&ui::confirmation(
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
}
