//! The surfaces as text, for a person at the console: [`draw`] turns a [`RendererState`] into
//! lines (a heading with a rule under it, each Card framed, a Button as `[ label ]`, a field as
//! `label: value`, no images), and a [`Screen`] shows each new drawing. Templates repeat over
//! their data-model list; bindings (literals, absolute paths, paths relative to a template's
//! item, v1.0 `formatString`) resolve against the data model. What has not arrived yet (a
//! component, or the data a text shows) draws nothing, so the drawing grows with the messages.

use a2ui_stream::renderer::{Component, RendererState, Surface};
use serde_json::Value;
use std::io::Write;

/// The lines of every surface of `state`, in the order of their ids, a blank line between two.
pub fn draw(state: &RendererState) -> Vec<String> {
    let mut out = Vec::new();
    for surface in state.surfaces() {
        let mut lines = Vec::new();
        let root = surface.root().unwrap_or_default();
        node(surface, root, "", 0, &mut lines);
        if !lines.is_empty() && !out.is_empty() {
            out.push(String::new());
        }
        out.extend(lines);
    }
    out
}

/// Draws component `id`; `item` is the pointer of the template item it is drawn for ("": none).
fn node(s: &Surface, id: &str, item: &str, depth: usize, out: &mut Vec<String>) {
    // Past 50 levels (more than the renderer allows) there is a cycle.
    let Some(c) = s.component(id).filter(|_| depth < 50) else {
        return;
    };
    let prop = |name| c.property(name).and_then(|v| text(s, c, v, item));
    match c.component_type() {
        "Text" => {
            let Some(t) = prop("text").filter(|t| !t.is_empty()) else {
                return;
            };
            // v1.0 writes headings as Markdown, `# Title`; earlier versions as `h1`, `h2`, ...
            let hint = c.property("variant").or_else(|| c.property("usageHint"));
            let hinted = hint.and_then(|h| h.as_str()?.strip_prefix('h')?.parse().ok());
            let hashes = t.len() - t.trim_start_matches('#').len();
            let (level, t) = match t[hashes..].strip_prefix(' ') {
                Some(rest) if hashes > 0 => (Some(hashes), rest.to_owned()),
                _ => (hinted, t),
            };
            let rule = level.filter(|l| (1..=2).contains(l));
            let rule = rule.map(|l| ["=", "-"][l - 1].repeat(t.chars().count()));
            out.push(t);
            out.extend(rule);
        }
        "Button" => {
            let mut label = Vec::new();
            let child = c.property("child").and_then(Value::as_str);
            node(s, child.unwrap_or_default(), item, depth + 1, &mut label);
            out.extend(label.first().map(|l| format!("[ {l} ]")));
        }
        "TextField" | "DateTimeInput" => {
            // A v0.8 DateTimeInput has no label.
            let label = prop("label").unwrap_or_else(|| "Date and time".into());
            let value = prop("value").or_else(|| prop("text")).unwrap_or_default();
            out.push(format!("{label}: {value}").trim_end().to_owned());
        }
        "Divider" => out.push("─".repeat(24)),
        "Image" | "Icon" | "Video" | "AudioPlayer" => {}
        "Card" => {
            let mut inner = Vec::new();
            children(s, c, item, depth, &mut inner);
            let width = inner.iter().map(|l| l.chars().count() + 1).max();
            if let Some(rule) = width.map(|w| "─".repeat(w)) {
                out.push(format!("┌{rule}"));
                out.extend(inner.iter().map(|l| format!("│ {l}")));
                out.push(format!("└{rule}"));
            }
        }
        _ => children(s, c, item, depth, out),
    }
}

/// Draws the children of `c`: its template once per item of the list it is bound to (v0.8
/// `children.template`, later `children: {componentId, path}`), or the components it names.
fn children(s: &Surface, c: &Component, item: &str, depth: usize, out: &mut Vec<String>) {
    let kids = c.property("children");
    let template = kids.map(|k| k.get("template").unwrap_or(k));
    let Some(id) = template.and_then(|t| t.get("componentId")?.as_str()) else {
        for id in c.child_ids() {
            node(s, id, item, depth + 1, out);
        }
        return;
    };
    let path = template.and_then(|t| t.get("dataBinding").or_else(|| t.get("path")));
    let base = pointer(s, c, path.and_then(Value::as_str).unwrap_or("/"), item);
    let keys: Vec<String> = match s.data(&base) {
        Some(Value::Array(list)) => (0..list.len()).map(|i| i.to_string()).collect(),
        Some(Value::Object(map)) => {
            // v0.8 keys the entries of a list `item1`, `item2`, ...: `item10` after `item9`.
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by_key(|k| (k.len(), *k));
            keys.iter()
                .map(|k| k.replace('~', "~0").replace('/', "~1"))
                .collect()
        }
        _ => Vec::new(),
    };
    for key in keys {
        node(s, id, &join(&base, &key), depth + 1, out);
    }
}

/// The pointer `segment` under the pointer `base`.
fn join(base: &str, segment: &str) -> String {
    let base = base.trim_end_matches('/');
    format!("{base}/{}", segment.trim_start_matches('/'))
}

/// The data-model pointer `path` means in `c` drawn for `item`: a relative path is the item's,
/// and so is an absolute one in v0.8 (whose `component` is an object) when the item has it.
fn pointer(s: &Surface, c: &Component, path: &str, item: &str) -> String {
    let v08 = c.as_value().get("component").is_some_and(Value::is_object);
    let own = join(item, path);
    let items = v08 && !item.is_empty() && s.data(&own).is_some();
    if !path.starts_with('/') || items {
        own
    } else {
        path.to_owned()
    }
}

/// What a property shows: a literal, a bound value or a v1.0 `formatString`; `None` while its
/// data has not arrived.
fn text(s: &Surface, c: &Component, v: &Value, item: &str) -> Option<String> {
    let Value::Object(o) = v else {
        return plain(v);
    };
    let kinds = ["literalString", "literalNumber", "literalBoolean"];
    let literal = kinds.iter().find_map(|k| o.get(*k)).and_then(plain);
    let bound = |path| s.data(&pointer(s, c, path, item)).and_then(plain);
    if let Some(path) = o.get("path").or_else(|| o.get("@path")) {
        path.as_str().and_then(bound).or(literal)
    } else if o.get("@call").and_then(Value::as_str) == Some("formatString") {
        let (mut rest, mut out) = (o.get("args")?.get("value")?.as_str()?, String::new());
        while let Some((before, after)) = rest.split_once("${") {
            let (path, after) = after.split_once('}')?;
            out = out + before + &bound(path)?;
            rest = after;
        }
        Some(out + rest)
    } else {
        literal
    }
}

/// A string, number or boolean as text.
fn plain(v: &Value) -> Option<String> {
    match v {
        Value::String(t) => Some(t.clone()),
        Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
        _ => None,
    }
}

/// Where the drawings go. On a terminal each drawing replaces the last in place; elsewhere (a
/// pipe, a log file) only the lines the last drawing did not have are appended, so the output
/// reads as the UI growing.
pub struct Screen<W: Write> {
    out: W,
    terminal: bool,
    /// The last drawing shown.
    shown: Vec<String>,
    /// How many of its lines are on the terminal, right above the cursor.
    height: usize,
}

impl<W: Write> Screen<W> {
    /// A screen writing to `out`, a terminal when `is_terminal`
    /// (`std::io::IsTerminal::is_terminal(&std::io::stdout())`).
    pub fn new(out: W, is_terminal: bool) -> Screen<W> {
        Screen {
            out,
            terminal: is_terminal,
            shown: Vec::new(),
            height: 0,
        }
    }

    /// Shows `lines`, the latest drawing. Write errors are ignored (a closed pipe must not stop
    /// a run).
    pub fn show(&mut self, lines: &[String]) {
        if lines == self.shown {
            return;
        }
        let mut new: Vec<&String> = lines.iter().collect();
        if !self.terminal {
            // Each line of the last drawing stands for one equal line of this one.
            let mut old = self.shown.clone();
            new.retain(|l| {
                old.iter()
                    .position(|o| o == *l)
                    .map(|i| old.remove(i))
                    .is_none()
            });
        } else if self.height > 0 {
            // Up to the start of the last drawing's first line, and clear to the end.
            let _ = write!(self.out, "\r\x1b[{}A\x1b[J", self.height);
        }
        for line in new {
            let _ = writeln!(self.out, "{line}");
        }
        let _ = self.out.flush();
        self.shown = lines.to_vec();
        self.height = lines.len();
    }

    /// The output, to write other things to (call [`detach`](Screen::detach) first).
    pub fn out(&mut self) -> &mut W {
        &mut self.out
    }

    /// Leaves the drawing on the terminal as it is: call it before writing anything else to the
    /// output, so that the next [`show`](Screen::show) draws below that instead of over it.
    pub fn detach(&mut self) {
        self.height = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::Restaurant;
    use crate::ui;

    use a2ui_stream::{Event, Splitter};

    /// The inside of each card of a drawing.
    fn cards(drawing: &[String]) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = Vec::new();
        for l in drawing {
            if l.starts_with('┌') {
                out.push(Vec::new());
            } else if let (Some(inner), Some(card)) = (l.strip_prefix("│ "), out.last_mut()) {
                card.push(inner.to_owned());
            }
        }
        out
    }

    fn card(r: &Restaurant) -> Vec<String> {
        let lines = [
            &r.name,
            &ui::stars(r.rating),
            &r.detail,
            &r.address,
            "[ Book ]",
        ];
        lines.map(str::to_owned).to_vec()
    }

    #[test]
    fn the_list_grows_card_by_card_under_its_title_in_every_version() {
        let found = crate::tools::get_restaurants("Chinese", "New York", 3);
        for v in crate::ui::VERSIONS {
            let messages = ui::restaurant_list(v, "Title", &found);
            let mut whole = RendererState::new();
            for m in &messages {
                whole.apply(m).unwrap();
            }
            let drawing = draw(&whole);
            assert_eq!(drawing[..2], ["Title", "====="], "{v:?}");
            assert_eq!(cards(&drawing), found.iter().map(card).collect::<Vec<_>>());
            // Streamed as the console gets it: a card shows whole, under the title, once its
            // record is there.
            let text = ui::block(&messages);
            let mut splitter = Splitter::new();
            let mut events: Vec<_> = splitter.feed(text.as_bytes()).collect();
            events.extend(splitter.finish());
            let (mut state, mut shown) = (RendererState::new(), 0);
            for event in events {
                let Event::Message(m) = event.unwrap() else {
                    continue;
                };
                state.apply_message(&m).unwrap();
                let now = draw(&state);
                let drawn = cards(&now);
                assert!(drawn.len() - shown <= 1, "{v:?} {now:?}");
                shown = drawn.len();
                assert_eq!(drawn, found[..shown].iter().map(card).collect::<Vec<_>>());
                assert!(shown == 0 || now[0] == "Title", "{v:?} {now:?}");
            }
            assert_eq!(draw(&state), drawing, "{v:?}");
        }
    }

    #[test]
    fn forms_show_their_fields_and_button() {
        for v in crate::ui::VERSIONS {
            let (mut state, mut messages) = (
                RendererState::new(),
                ui::booking_form(v, "A", "1 Street", "u"),
            );
            messages.extend(ui::confirmation(v, "B", "4", "", "", "u"));
            for m in &messages {
                state.apply(m).unwrap();
            }
            let text = draw(&state).join("\n");
            let form = "Book a table at A\n-----------------\n1 Street\nParty size: 2\n\
                        Date and time:\nDietary requirements:\n[ Reserve a table ]\n\n┌";
            assert!(text.starts_with(form), "{v:?}\n{text}");
            let card = "\n│ Booked: B\n│ ---------\n│ ────────────────────────\n│ Table for 4";
            assert!(
                text.contains(card) && text.contains("│ See you soon!"),
                "{text}"
            );
        }
    }

    #[test]
    fn a_log_gets_only_the_new_lines_and_a_terminal_redraws() {
        let lines = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let mut log = Screen::new(Vec::new(), false);
        log.show(&lines("T ┌ a └"));
        log.show(&lines("T ┌ a └ ┌ b └"));
        log.show(&lines("T ┌ a └ ┌ b └"));
        log.show(&lines("T ┌ A └ ┌ b └"));
        assert_eq!(
            String::from_utf8(log.out).unwrap(),
            "T\n┌\na\n└\n┌\nb\n└\nA\n"
        );
        let mut tty = Screen::new(Vec::new(), true);
        tty.show(&lines("a"));
        tty.show(&lines("a b"));
        let text = String::from_utf8(tty.out).unwrap();
        assert_eq!(text, "a\n\r\x1b[1A\x1b[Ja\nb\n");
    }
}
