//! A2UI Express, the compact notation the model writes instead of JSON with `--format express`:
//! the catalog it writes against, the parser its answers stream through, and the demo's UIs
//! written in it (for the prompt's examples and the scripted model).
//!
//! Express compiles to A2UI v0.9 and v1.0; there is no Express for v0.8.
//!
//! The UIs are the messages the [`ui`] builders make, decompiled with
//! [`a2ui_stream::express::decompile`], after two changes that keep the UI the same:
//!
//! * component ids are identifiers (`card_book`, as v1.0 writes them), since an Express name is
//!   one: a hyphenated id would need `id="card-book"`, and a parent written before such a child
//!   (top-down, for streaming) could not name it yet;
//! * the surface's theme is left out: Express's `surface(...)` has none.
//!
//! A data list stays one statement (`$/items = [{..}, ..]`): the parser hands out each record as
//! it closes, so each card shows the moment its record is written. A block holds one surface's
//! statements under one `surface("id")` line: decompiling writes a data update after the
//! surface's creation under a `surface("id")` line of its own, which would make it an update of
//! the whole data model.

use crate::ui::{self, Version};
use a2ui_stream::express::{CompileOptions, ExpressParser};
use a2ui_stream::official::catalog::{Catalog, Version as SpecVersion};
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The tag that opens an Express block; the Express system prompt names it, the JSON one does
/// not (it has `<a2ui-json>`).
pub const OPEN_TAG: &str = "<a2ui>";
/// The tag that closes an Express block.
pub const CLOSE_TAG: &str = "</a2ui>";

/// The components the demo's UIs use: the catalog the model is taught is narrowed to them.
const COMPONENTS: [&str; 10] = [
    "Text",
    "Image",
    "Row",
    "Column",
    "List",
    "Card",
    "Divider",
    "Button",
    "TextField",
    "DateTimeInput",
];
/// The functions the demo's UIs use (v1.0 headings put data into text with `formatString`).
const FUNCTIONS: [&str; 1] = ["formatString"];

/// Why a version has no Express.
pub fn no_v08() -> String {
    "A2UI Express compiles to v0.9 and v1.0 messages, not v0.8".into()
}

/// The catalog Express answers of version `v` are written against and checked with: the
/// built-in basic catalog narrowed to the demo's components, v0.9 without strict validation as
/// the after-answer check reads it (see [`crate::official`]).
pub fn catalogs(v: Version) -> Result<&'static [Catalog], String> {
    static V09: OnceLock<[Catalog; 1]> = OnceLock::new();
    static V10: OnceLock<[Catalog; 1]> = OnceLock::new();
    let narrowed = |c: Catalog| {
        [c.with_only_components(&COMPONENTS)
            .with_only_functions(&FUNCTIONS)]
    };
    match v {
        Version::V08 => Err(no_v08()),
        Version::V09 => Ok(V09.get_or_init(|| {
            narrowed(Catalog::builtin(SpecVersion::V09).without_strict_validation())
        })),
        _ => Ok(V10.get_or_init(|| narrowed(Catalog::builtin(SpecVersion::V10)))),
    }
}

/// A parser for one answer of version `v`: a block without `surface(...)` is for the result
/// list.
pub fn parser(v: Version) -> Result<ExpressParser<'static>, String> {
    let options = CompileOptions::default().with_surface_id(ui::LIST_SURFACE);
    ExpressParser::new(catalogs(v)?, options).map_err(|e| e.to_string())
}

/// Whether a system prompt asks for Express (it names the Express block's tag).
pub fn asks_for_express(system_prompt: &str) -> bool {
    system_prompt.contains(OPEN_TAG)
}

/// The messages of one answer as the `<a2ui>` block a model writes (see the module
/// documentation).
pub fn block(v: Version, messages: &[Value]) -> Result<String, String> {
    let written = as_written(messages);
    let text =
        a2ui_stream::express::decompile(&written, catalogs(v)?).map_err(|e| e.to_string())?;
    Ok(format!(
        "{OPEN_TAG}\n{}\n{CLOSE_TAG}",
        one_header_per_surface(&text)
    ))
}

/// `messages` as Express writes them: identifier ids, no theme.
pub fn as_written(messages: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for m in messages {
        let mut m = m.clone();
        if let Some(create) = m.get_mut("createSurface").and_then(Value::as_object_mut) {
            create.remove("theme");
        }
        if let Some(components) = m
            .get_mut("updateComponents")
            .and_then(|b| b.get_mut("components"))
            .and_then(Value::as_array_mut)
        {
            components.iter_mut().for_each(identifier_ids);
        }
        out.push(m);
    }
    out
}

/// Rewrites the id of a component and the ids it refers to (`child`, `children`, a template's
/// `componentId`) as identifiers.
fn identifier_ids(component: &mut Value) {
    let id = |v: &mut Value| {
        if let Some(s) = v.as_str() {
            *v = json!(ui::component_id(Version::V10, s));
        }
    };
    let Some(c) = component.as_object_mut() else {
        return;
    };
    for key in ["id", "child"] {
        if let Some(v) = c.get_mut(key) {
            id(v);
        }
    }
    match c.get_mut("children") {
        Some(Value::Array(kids)) => kids.iter_mut().for_each(id),
        Some(Value::Object(template)) => {
            if let Some(v) = template.get_mut("componentId") {
                id(v);
            }
        }
        _ => {}
    }
}

/// Decompiled `text` with a `surface("id")` line left out when it names the surface the
/// statements before it already address.
fn one_header_per_surface(text: &str) -> String {
    let mut current = None;
    let lines: Vec<&str> = text
        .lines()
        .filter(|line| {
            if !line.starts_with("surface(") {
                return true;
            }
            let repeated = current == Some(*line);
            current = Some(*line);
            !repeated
        })
        .collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2ui_stream::official::direct::Part;

    /// What a renderer holds after `messages` written as Express writes them.
    fn same_ui(messages: &[Value]) -> a2ui_stream::renderer::RendererState {
        let mut ui = a2ui_stream::renderer::RendererState::new();
        for m in as_written(messages) {
            ui.apply(&m).unwrap();
        }
        ui
    }

    /// The demo's three UIs of version `v`, as the scripted model writes them.
    fn uis(v: Version) -> Vec<Vec<Value>> {
        let five = crate::tools::get_restaurants("Chinese", "New York", 5);
        vec![
            ui::restaurant_list(v, "Top 5 Chinese restaurants in New York", &five),
            ui::booking_form(v, "A", "1 Street", "https://example.com/a.jpg"),
            ui::confirmation(
                v,
                "A",
                "2",
                "2026-01-01T19:00",
                "",
                "https://example.com/a.jpg",
            ),
        ]
    }

    /// Streams `text` through a parser in token-sized pieces: the messages, with the byte of
    /// the answer each went out at, and the prose.
    fn stream(v: Version, text: &str) -> (Vec<(usize, Value)>, Vec<String>) {
        let mut parser = parser(v).unwrap();
        let (mut messages, mut prose, mut at) = (Vec::new(), Vec::new(), 0);
        let mut take = |parts: Vec<Result<Part, _>>, at: usize| {
            for part in parts {
                match part.unwrap() {
                    Part::Text(t) => prose.push(t),
                    Part::A2ui(ms) => messages.extend(ms.into_iter().map(|m| (at, m))),
                }
            }
        };
        for token in crate::scripted::tokens(text) {
            at += token.len();
            take(parser.feed(&token), at);
        }
        take(parser.finish(), at);
        (messages, prose)
    }

    #[test]
    fn every_ui_round_trips_through_express_whole_and_streamed() {
        for v in [Version::V09, Version::V10] {
            for messages in uis(v) {
                let block = block(v, &messages).unwrap();
                let inner = &block[OPEN_TAG.len()..block.len() - CLOSE_TAG.len()];
                assert_eq!(inner.matches("surface(").count(), 1, "{block}");
                // The block compiles whole too (into the surface's messages, its data model
                // assembled in one piece).
                let options = CompileOptions::default();
                a2ui_stream::express::compile(inner, catalogs(v).unwrap(), &options).unwrap();
                let (streamed, prose) = stream(v, &format!("Here.\n{block}\nDone."));
                assert_eq!(prose.concat(), "Here.Done.");
                let streamed: Vec<Value> = streamed.into_iter().map(|(_, m)| m).collect();
                let mut ui = a2ui_stream::renderer::RendererState::new();
                for m in &streamed {
                    ui.apply(m).unwrap();
                }
                assert_eq!(ui, same_ui(&messages), "{block}");
                let official = crate::official::Official::builtin();
                assert_eq!(official.check(v, &streamed), Ok(()), "{block}");
            }
        }
    }

    #[test]
    fn the_list_streams_root_first_and_card_by_card() {
        for v in [Version::V09, Version::V10] {
            let five = &uis(v)[0];
            let text = block(v, five).unwrap();
            let (messages, _) = stream(v, &text);
            let body = |m: &Value, key: &str| m.get(key).cloned().unwrap_or(Value::Null);
            let component = |m: &Value| body(m, "updateComponents")["components"][0]["id"].clone();
            let kinds: Vec<String> = messages
                .iter()
                .map(|(_, m)| {
                    let path = body(m, "updateDataModel")["path"]
                        .as_str()
                        .map(str::to_owned);
                    let id = component(m).as_str().map(str::to_owned);
                    path.or(id).unwrap_or_else(|| "createSurface".into())
                })
                .collect();
            // The surface with its title (inline in v1.0, one update of the new model in v0.9),
            // root, the list, the card's components, then the records.
            let title = |m: &Value| {
                body(m, "createSurface")["dataModel"]["title"].is_string()
                    || body(m, "updateDataModel")["value"]["title"].is_string()
            };
            let opening = if v == Version::V09 { 2 } else { 1 };
            assert!(messages[..opening].iter().any(|(_, m)| title(m)));
            assert_eq!(
                kinds[opening..opening + 3],
                ["root", "list_title", "list_items"]
            );
            let records: Vec<&str> = kinds[kinds.len() - 6..]
                .iter()
                .map(String::as_str)
                .collect();
            assert_eq!(
                records,
                [
                    "/items", "/items/0", "/items/1", "/items/2", "/items/3", "/items/4"
                ]
            );
            // Each record goes out on its own, the first well before the answer ends.
            let at = |path: &str| {
                messages
                    .iter()
                    .find(|(_, m)| body(m, "updateDataModel")["path"] == path)
                    .unwrap()
                    .0
            };
            assert!(at("/items/0") < at("/items/1") && at("/items/3") < at("/items/4"));
            assert!(
                at("/items/0") < text.len() * 3 / 4,
                "{} of {}",
                at("/items/0"),
                text.len()
            );
        }
    }

    #[test]
    fn the_express_prompt_marks_itself_and_v08_has_none() {
        assert!(asks_for_express(
            "Put each block between <a2ui> and </a2ui>."
        ));
        assert!(!asks_for_express(&crate::prompt::system_prompt(
            Version::V09
        )));
        assert!(catalogs(Version::V08).is_err() && parser(Version::V08).is_err());
        let names: Vec<&str> = catalogs(Version::V09).unwrap()[0]
            .component_names()
            .collect();
        assert_eq!(names.len(), COMPONENTS.len(), "{names:?}");
    }
}
