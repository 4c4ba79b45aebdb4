//! Console mode: prose as it arrives, each A2UI message with the milliseconds since the request,
//! then a summary line.

use crate::llm::{Agent, AgentEvent, RunRequest};
use std::io::Write;
use std::time::Instant;

/// Counts of one console run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Milliseconds from the request to the first component.
    pub first_component_ms: Option<u128>,
    /// Milliseconds from the request to the first content: the first data entry a card shows
    /// (a record of the list the cards are bound to, `/items/...`).
    pub first_content_ms: Option<u128>,
    /// Milliseconds from the request to the end of the run.
    pub total_ms: u128,
    /// A2UI messages received.
    pub messages: usize,
    /// Bytes of those messages.
    pub bytes: usize,
    /// Whether the run ended with an error.
    pub failed: bool,
}

/// Whether a data-model message puts a record of the card list (`/items/...`) in place: an
/// update at a path under `/items` whose value is not an empty container.
fn shows_a_record(m: &a2ui_stream::Message) -> bool {
    let Ok(v) = m.to_value() else {
        return false;
    };
    let Some(body) = v
        .get("updateDataModel")
        .or_else(|| v.get("dataModelUpdate"))
    else {
        return false;
    };
    let path = body.get("path").and_then(|p| p.as_str()).unwrap_or("/");
    let value = body.get("value").or_else(|| body.get("contents"));
    let empty = match value {
        Some(serde_json::Value::Array(a)) => a.is_empty(),
        Some(serde_json::Value::Object(o)) => o.is_empty(),
        Some(_) => false,
        None => true,
    };
    // A whole update at the root or at `/items` counts when it holds records.
    let holds_items = |v: &serde_json::Value| match v {
        serde_json::Value::Object(o) => o.contains_key("items"),
        serde_json::Value::Array(a) => a
            .iter()
            .any(|e| e.get("key").and_then(|k| k.as_str()) == Some("items")),
        _ => false,
    };
    match path {
        "/items" => !empty,
        p if p.starts_with("/items/") => !empty,
        "/" | "" => value.is_some_and(holds_items),
        _ => false,
    }
}

/// Shortens `s` to at most `max` characters, marking the cut.
fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

/// Runs `req` and prints it to `out` as it happens. Write errors are ignored (a closed pipe must
/// not stop the run); the returned summary is what was printed last.
pub async fn run<W: Write + Send>(
    agent: &Agent,
    req: &RunRequest,
    out: &mut W,
    width: usize,
) -> Summary {
    let start = Instant::now();
    let mut summary = Summary::default();
    let mut at_line_start = true;
    let mut sink = |ev: AgentEvent| {
        let ms = start.elapsed().as_millis();
        let line = |out: &mut W, at_line_start: &mut bool, text: String| {
            if !*at_line_start {
                let _ = writeln!(out);
            }
            let _ = writeln!(out, "[{ms:>6} ms] {text}");
            *at_line_start = true;
        };
        match ev {
            AgentEvent::Text(t) => {
                let _ = write!(out, "{t}");
                at_line_start = t.ends_with('\n');
            }
            AgentEvent::A2ui(m) => {
                summary.messages += 1;
                summary.bytes += m.as_bytes().len();
                if m.kind().has_components() && summary.first_component_ms.is_none() {
                    summary.first_component_ms = Some(ms);
                }
                if summary.first_content_ms.is_none() && shows_a_record(&m) {
                    summary.first_content_ms = Some(ms);
                }
                let what = match (m.surface_id(), m.component_id()) {
                    (Some(s), Some(c)) => format!("{} {s}#{c}", m.kind().key()),
                    (Some(s), None) => format!("{} {s}", m.kind().key()),
                    _ => format!("{:?}", m.kind()),
                };
                let json = clip(m.as_str(), width.saturating_sub(what.len() + 14).max(20));
                line(out, &mut at_line_start, format!("a2ui {what} {json}"));
            }
            AgentEvent::StreamProblem(e) => {
                line(out, &mut at_line_start, format!("malformed A2UI {e}"))
            }
            AgentEvent::ToolCallStart { id, name } => {
                line(out, &mut at_line_start, format!("tool call {name} ({id})"))
            }
            AgentEvent::ToolCallArgs { .. } => {}
            AgentEvent::ToolCallEnd { .. } => {}
            AgentEvent::ToolCallResult { content, .. } => {
                let n = serde_json::from_str::<serde_json::Value>(&content)
                    .ok()
                    .and_then(|v| v.as_array().map(Vec::len));
                let what = n
                    .map(|n| format!("{n} results"))
                    .unwrap_or_else(|| clip(&content, 60));
                line(
                    out,
                    &mut at_line_start,
                    format!("tool result: {what} ({} bytes)", content.len()),
                );
            }
            AgentEvent::ResponseEnd => {
                if !at_line_start {
                    let _ = writeln!(out);
                    at_line_start = true;
                }
            }
            AgentEvent::Retry { reason } => line(
                out,
                &mut at_line_start,
                format!("UI rejected, retrying: {reason}"),
            ),
            AgentEvent::ModelRetry {
                attempt,
                max,
                reason,
                pause,
            } => line(
                out,
                &mut at_line_start,
                format!(
                    "model request failed ({reason}); retry {attempt} of {max} in {}",
                    crate::limits::seconds(pause)
                ),
            ),
        }
        let _ = out.flush();
    };
    let result = agent.run(req, &mut sink).await;
    summary.total_ms = start.elapsed().as_millis();
    if let Err(e) = &result {
        summary.failed = true;
        let _ = writeln!(out, "\nerror: {e}");
    }
    let after = |ms: Option<u128>| ms.map_or_else(|| "none".into(), |ms| format!("{ms} ms"));
    let _ = writeln!(
        out,
        "\nsummary: first component after {}, first content after {}, total {} ms, {} A2UI messages, {} bytes, UI checked by {}",
        after(summary.first_component_ms),
        after(summary.first_content_ms),
        summary.total_ms,
        summary.messages,
        summary.bytes,
        agent.ui_check(req.version)
    );
    let _ = out.flush();
    summary
}
