//! Console mode: the run's prose as it arrives and its UI drawn as text, redrawn in place as it
//! grows on a terminal (appended when the output is not one), then a summary line with the
//! timings. `--messages` adds each A2UI message as a JSON line.

use crate::agent::{RETRY_EVENT, RestaurantAgent};
use crate::view::{self, Screen};
use a2ui_stream::agui::events::{Event, PatchOp, RunAgentInput};
use a2ui_stream::agui::{A2UI_ERROR_EVENT, A2UI_OPERATIONS};
use a2ui_stream::renderer::RendererState;
use a2ui_stream_server::{Agent, CancellationToken, Deadlines, MODEL_RETRY_EVENT, Run, RunWriter};
use serde_json::Value;
use std::io::Write;
use std::time::Instant;

/// Counts of one console run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Milliseconds from the request to the first component.
    pub first_component_ms: Option<u128>,
    /// Milliseconds from the request to the first record a card shows (`/items/...`).
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

/// Whether a data-model message puts a record of the card list (`/items/...`) in place.
fn shows_a_record(m: &Value) -> bool {
    let Some(body) = m
        .get("updateDataModel")
        .or_else(|| m.get("dataModelUpdate"))
    else {
        return false;
    };
    let path = body.get("path").and_then(Value::as_str).unwrap_or("/");
    let value = body.get("value").or_else(|| body.get("contents"));
    let empty = match value {
        Some(Value::Array(a)) => a.is_empty(),
        Some(Value::Object(o)) => o.is_empty(),
        Some(_) => false,
        None => true,
    };
    let holds_items = |v: &Value| match v {
        Value::Object(o) => o.contains_key("items"),
        Value::Array(a) => a.iter().any(|e| e.get("key") == Some(&"items".into())),
        _ => false,
    };
    match path {
        p if p == "/items" || p.starts_with("/items/") => !empty,
        "/" | "" => value.is_some_and(holds_items),
        _ => false,
    }
}

/// Whether a message carries components.
fn has_components(m: &Value) -> bool {
    ["surfaceUpdate", "updateComponents", "createSurface"]
        .iter()
        .any(|k| m.get(k).and_then(|b| b.get("components")).is_some())
}

/// Shortens `s` to at most `max` characters, marking the cut.
fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// How the console prints.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Columns lines are cut at.
    pub width: usize,
    /// Print each A2UI message as a JSON line (whole, not cut at `width`).
    pub messages: bool,
    /// The output is a terminal: redraw the UI in place.
    pub terminal: bool,
}

struct Printer<W: Write> {
    screen: Screen<W>,
    start: Instant,
    style: Style,
    at_line_start: bool,
    ui: RendererState,
    summary: Summary,
}

impl<W: Write> Printer<W> {
    fn out(&mut self) -> &mut W {
        self.screen.detach();
        self.screen.out()
    }

    fn line(&mut self, text: &str) {
        let ms = self.start.elapsed().as_millis();
        let fresh = self.at_line_start;
        let out = self.out();
        if !fresh {
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "[{ms:>6} ms] {text}");
        self.at_line_start = true;
    }

    fn a2ui(&mut self, m: &Value) {
        let ms = self.start.elapsed().as_millis();
        let json = m.to_string();
        self.summary.messages += 1;
        self.summary.bytes += json.len();
        if has_components(m) {
            self.summary.first_component_ms.get_or_insert(ms);
        }
        if shows_a_record(m) {
            self.summary.first_content_ms.get_or_insert(ms);
        }
        if self.style.messages {
            self.line(&format!("a2ui {json}"));
        }
        if let Err(e) = self.ui.apply(m) {
            self.line(&format!("the UI refuses a message: {e}"));
        }
        if !self.at_line_start {
            let _ = writeln!(self.out());
            self.at_line_start = true;
        }
        let width = self.style.width;
        let lines: Vec<String> = view::draw(&self.ui)
            .into_iter()
            .map(|l| clip(&l, width))
            .collect();
        self.screen.show(&lines);
    }

    fn event(&mut self, ev: &Event) {
        match ev {
            Event::TextMessageContent(t) => {
                let _ = write!(self.out(), "{}", t.delta);
                self.at_line_start = t.delta.ends_with('\n');
            }
            Event::TextMessageEnd(_) if !self.at_line_start => {
                let _ = writeln!(self.out());
                self.at_line_start = true;
            }
            Event::ActivitySnapshot(s) => {
                let ops = s.content.get(A2UI_OPERATIONS).and_then(Value::as_array);
                for m in ops.into_iter().flatten() {
                    self.a2ui(m);
                }
            }
            Event::ActivityDelta(d) => {
                // Each later message of a surface is appended to its operations.
                for op in &d.patch {
                    if let PatchOp::Add { value, .. } = op {
                        self.a2ui(value);
                    }
                }
            }
            Event::ToolCallStart(c) => self.line(&format!(
                "tool call {} ({})",
                c.tool_call_name, c.tool_call_id
            )),
            Event::ToolCallResult(r) => {
                let n = serde_json::from_str::<Value>(&r.content)
                    .ok()
                    .and_then(|v| v.as_array().map(Vec::len));
                let what = n.map_or_else(|| clip(&r.content, 60), |n| format!("{n} results"));
                self.line(&format!("tool result: {what} ({} bytes)", r.content.len()));
            }
            Event::Custom(c) if c.name == RETRY_EVENT => {
                self.line(&format!("UI rejected, retrying: {}", c.value["reason"]))
            }
            Event::Custom(c) if c.name == MODEL_RETRY_EVENT => self.line(&format!(
                "model request failed ({}); retry {} of {} in {} ms",
                c.value["reason"], c.value["attempt"], c.value["maxRetries"], c.value["retryInMs"]
            )),
            Event::Custom(c) if c.name == A2UI_ERROR_EVENT => self.line(&format!(
                "malformed A2UI at byte {}: {}",
                c.value["offset"], c.value["message"]
            )),
            _ => {}
        }
        let _ = self.screen.out().flush();
    }
}

/// Answers `input` with `agent`, printing it to `out` as it happens. Write errors are ignored
/// (a closed pipe must not stop the run).
pub async fn run<W: Write>(
    agent: &RestaurantAgent,
    input: RunAgentInput,
    deadlines: Deadlines,
    out: W,
    style: Style,
) -> Summary {
    let (mut writer, mut events) = RunWriter::new(&input);
    writer.set_splitter_config(a2ui_stream::Config {
        lenient: true,
        ..a2ui_stream::Config::default()
    });
    let mut p = Printer {
        screen: Screen::new(out, style.terminal),
        start: Instant::now(),
        style,
        at_line_start: true,
        ui: RendererState::new(),
        summary: Summary::default(),
    };
    let run = Run {
        input,
        history: Vec::new(),
        cancel: CancellationToken::new(),
        deadlines,
        caller: None,
    };
    let result = {
        let answer = tokio::time::timeout(deadlines.total, agent.run(run, &mut writer));
        tokio::pin!(answer);
        loop {
            tokio::select! {
                r = &mut answer => break r,
                Some(batch) = events.recv() => batch.iter().for_each(|e| p.event(e)),
            }
        }
    };
    drop(writer);
    while let Some(batch) = events.recv().await {
        batch.iter().for_each(|e| p.event(e));
    }
    p.summary.total_ms = p.start.elapsed().as_millis();
    let error = match result {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(e.message().to_owned()),
        Err(_) => Some(format!(
            "the run did not finish within the {}",
            deadlines.describe(a2ui_stream_server::Deadline::Total)
        )),
    };
    if let Some(e) = error {
        p.summary.failed = true;
        let _ = writeln!(p.out(), "\nerror: {e}");
    }
    let after = |ms: Option<u128>| ms.map_or_else(|| "none".into(), |ms| format!("{ms} ms"));
    let s = p.summary.clone();
    let _ = writeln!(
        p.out(),
        "\nsummary: first component after {}, first content after {}, total {} ms, {} A2UI messages, {} bytes, UI checked by {}",
        after(s.first_component_ms),
        after(s.first_content_ms),
        s.total_ms,
        s.messages,
        s.bytes,
        agent.ui_checks()
    );
    let _ = p.out().flush();
    s
}
