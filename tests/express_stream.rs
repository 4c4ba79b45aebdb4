//! The streaming Express parser ([`ExpressParser`]) against the whole compile
//! ([`express::compile`]), on every chunking of a set of responses: the restaurant card of
//! `a2ui-express/` wrapped in prose (v1.0 and v0.9 built-in catalogs), the v0.9 and v1.0
//! restaurant examples of the A2UI project decompiled into Express, and responses written here
//! (comments, strings and triple-quoted strings holding `</a2ui>` and `#`, code fences, tags
//! with attributes and in upper case, several blocks in one response, a bad statement in the
//! middle of a block, statements that overwrite earlier ones, names used before the statement
//! that defines them or gives them an id of their own).
//!
//! What is checked, for any cut points (on character boundaries: the parser takes `&str`):
//!
//! * after every chunk, a renderer that applied every message so far holds a state the whole
//!   compile leads to: outside a block, exactly the state of the whole compile of the blocks
//!   before; inside one, every surface, component and data value it shows is the one the
//!   compile of the blocks up to this one has, or the one of the blocks before (not yet
//!   replaced), or a value the case names as written again by a later statement (a statement
//!   written twice, a component compiled before a name it uses was defined); a component
//!   that refers to a variable a later statement gives an id of its own (`id="..."`) is
//!   compared with the variable in place of the id;
//! * the state after a chunk depends only on how many bytes were fed, not on how they were
//!   cut (it is the state after feeding the same bytes one character at a time);
//! * at the end, exactly the state of the whole compile's messages applied to a fresh
//!   renderer, block after block;
//! * the same errors (kind, byte offset, message) whatever the chunking, and the ones the
//!   whole compile reports, at their byte in the response;
//! * the text parts joined are the text of the whole response fed in one chunk, the prose
//!   around the blocks.
//!
//! The cases that read the A2UI project's data (`../shared` or `$A2UI_SHARED`) are left out,
//! with one printed line, when it is not there.
#![cfg(feature = "express")]

mod support;

use std::path::Path;
use std::sync::OnceLock;

use a2ui_stream::express::{self, CompileOptions, ExpressError, ExpressErrorKind, ExpressParser};
use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::direct::Part;
use a2ui_stream::renderer::{RendererState, Surface};
use proptest::prelude::*;
use serde_json::Value;

/// The built-in catalogs, one per version.
fn catalogs(version: Version) -> &'static [Catalog] {
    static V09: OnceLock<[Catalog; 1]> = OnceLock::new();
    static V10: OnceLock<[Catalog; 1]> = OnceLock::new();
    match version {
        Version::V09 => V09.get_or_init(|| [Catalog::builtin(Version::V09)]),
        _ => V10.get_or_init(|| [Catalog::builtin(Version::V10)]),
    }
}

/// An error as compared: kind, byte offset, message.
type Fault = (ExpressErrorKind, Option<u64>, String);

fn fault(e: &ExpressError) -> Fault {
    (e.kind(), e.offset(), e.message().to_owned())
}

/// One block of a response, as the whole compile sees it.
struct Block {
    /// Where its payload starts in the response (just past the open tag).
    body: usize,
    /// Just past its close tag.
    end: usize,
    /// The renderer's state after the whole compile of this block and those before it.
    after: RendererState,
}

/// A response and what the whole compile of its blocks says.
struct Case {
    name: String,
    version: Version,
    response: String,
    blocks: Vec<Block>,
    /// Component ids and data pointers written by more than one statement: their earlier
    /// values may show until the later statement arrives.
    overwritten: Vec<String>,
    /// The errors the whole compile reports, at their byte in the response.
    errors: Vec<Fault>,
    /// The prose around the blocks, trimmed and joined.
    text: String,
    /// Variables whose component takes an id of its own (`id="..."`), and that id: a
    /// component compiled before the statement that says so refers to the variable.
    renamed: Vec<(String, String)>,
    /// The state after each byte fed one character at a time (`None` inside a character).
    by_char: Vec<Option<RendererState>>,
    /// Whether the response comes from the shared data.
    shared: bool,
}

/// Builds a [`Case`]: prose and blocks in order.
struct Response {
    name: String,
    version: Version,
    response: String,
    blocks: Vec<Block>,
    overwritten: Vec<String>,
    errors: Vec<Fault>,
    text: String,
    renamed: Vec<(String, String)>,
    state: RendererState,
    shared: bool,
}

impl Response {
    fn new(name: &str, version: Version) -> Response {
        Response {
            name: name.to_owned(),
            version,
            response: String::new(),
            blocks: Vec::new(),
            overwritten: Vec::new(),
            errors: Vec::new(),
            text: String::new(),
            renamed: Vec::new(),
            state: RendererState::new(),
            shared: false,
        }
    }

    fn prose(mut self, text: &str) -> Response {
        self.response.push_str(text);
        self.text.push_str(text.trim());
        self
    }

    /// A block between `open` and `close` whose payload is `before`, `express` and `after`
    /// (a fence's lines, which vanish): it compiles as `express` does.
    fn block(self, open: &str, before: &str, express: &str, after: &str, close: &str) -> Response {
        self.block_with_error(open, before, express, "", "", after, close)
    }

    /// A block whose payload is `head`, `bad` and `tail`, where `bad` is a statement that does
    /// not compile: the error is the whole compile's, and the state the one of `head` and
    /// `tail` without it.
    #[allow(clippy::too_many_arguments)]
    fn block_with_error(
        mut self,
        open: &str,
        before: &str,
        head: &str,
        bad: &str,
        tail: &str,
        after: &str,
        close: &str,
    ) -> Response {
        let catalogs = catalogs(self.version);
        let options = CompileOptions::default();
        self.response.push_str(open);
        let body = self.response.len();
        self.response.push_str(before);
        let express_at = self.response.len();
        for piece in [head, bad, tail] {
            self.response.push_str(piece);
        }
        self.response.push_str(after);
        self.response.push_str(close);
        if !bad.is_empty() {
            let whole = format!("{head}{bad}{tail}");
            let err = express::compile(&whole, catalogs, &options)
                .expect_err("the bad statement should not compile");
            let at = err.offset().map(|o| o + express_at as u64);
            let bad_at = (express_at + head.len()) as u64;
            assert!(
                at.is_some_and(|at| (bad_at..bad_at + bad.len() as u64).contains(&at)),
                "{}: the whole compile's error {err} is not in the bad statement",
                self.name
            );
            self.errors.push((err.kind(), at, err.message().to_owned()));
        }
        let good = format!("{head}{tail}");
        let rename = regex::Regex::new(r#"(?m)^(\w+) = \w+\(.*\bid="([^"]+)""#).unwrap();
        for found in rename.captures_iter(&good) {
            self.renamed
                .push((found[1].to_owned(), found[2].to_owned()));
        }
        let messages = express::compile(&good, catalogs, &options)
            .unwrap_or_else(|e| panic!("{}: {e}\n{good}", self.name));
        for message in &messages {
            self.state
                .apply(message)
                .unwrap_or_else(|e| panic!("{}: {e}: {message}", self.name));
        }
        self.blocks.push(Block {
            body,
            end: self.response.len(),
            after: self.state.clone(),
        });
        self
    }

    /// The response comes from the shared data.
    fn shared(mut self) -> Response {
        self.shared = true;
        self
    }

    fn overwritten(mut self, keys: &[&str]) -> Response {
        self.overwritten
            .extend(keys.iter().map(|k| (*k).to_owned()));
        self
    }

    fn done(self) -> Case {
        let mut by_char = vec![None; self.response.len() + 1];
        let mut state = RendererState::new();
        by_char[0] = Some(state.clone());
        let mut parser = ExpressParser::new(catalogs(self.version), CompileOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", self.name));
        for (at, c) in self.response.char_indices() {
            let end = at + c.len_utf8();
            for part in parser.feed(&self.response[at..end]) {
                if let Ok(Part::A2ui(messages)) = part {
                    for message in &messages {
                        let _ = state.apply(message);
                    }
                }
            }
            by_char[end] = Some(state.clone());
        }
        Case {
            name: self.name,
            version: self.version,
            response: self.response,
            blocks: self.blocks,
            overwritten: self.overwritten,
            errors: self.errors,
            text: self.text,
            renamed: self.renamed,
            by_char,
            shared: self.shared,
        }
    }
}

/// What streaming a response in some pieces gave.
struct Streamed {
    state: RendererState,
    text: String,
    errors: Vec<Fault>,
    /// Messages the renderer refused.
    refused: Vec<String>,
}

/// Streams `case` in `pieces`; `check(fed, state)` runs after every piece (and after `finish`,
/// with `fed` the whole length).
fn stream(
    case: &Case,
    pieces: &[&str],
    mut check: impl FnMut(usize, &RendererState) -> Result<(), String>,
) -> Result<Streamed, String> {
    let mut parser = ExpressParser::new(catalogs(case.version), CompileOptions::default())
        .map_err(|e| e.to_string())?;
    let mut out = Streamed {
        state: RendererState::new(),
        text: String::new(),
        errors: Vec::new(),
        refused: Vec::new(),
    };
    let take = |parts: Vec<Result<Part, ExpressError>>, out: &mut Streamed| {
        for part in parts {
            match part {
                Ok(Part::Text(text)) => out.text.push_str(&text),
                Ok(Part::A2ui(messages)) => {
                    for message in &messages {
                        if let Err(e) = out.state.apply(message) {
                            out.refused.push(format!("{e}: {message}"));
                        }
                    }
                }
                Err(e) => out.errors.push(fault(&e)),
            }
        }
    };
    let mut fed = 0;
    for piece in pieces {
        take(parser.feed(piece), &mut out);
        fed += piece.len();
        check(fed, &out.state).map_err(|e| format!("after byte {fed}: {e}"))?;
    }
    take(parser.finish(), &mut out);
    check(fed, &out.state).map_err(|e| format!("after finish: {e}"))?;
    Ok(out)
}

/// The leaves of a data model, by JSON Pointer (an empty list or map is a leaf).
fn leaves<'a>(value: &'a Value, at: String, out: &mut Vec<(String, &'a Value)>) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                leaves(v, format!("{at}/{k}"), out);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for (i, v) in items.iter().enumerate() {
                leaves(v, format!("{at}/{i}"), out);
            }
        }
        _ => out.push((at, value)),
    }
}

/// `value` with every string that is an id of its own (see [`Case::renamed`]) written as its
/// variable.
fn unrenamed(value: &Value, renamed: &[(String, String)]) -> Value {
    match value {
        Value::String(s) => renamed
            .iter()
            .find(|(_, id)| id == s)
            .map_or_else(|| value.clone(), |(var, _)| Value::String(var.clone())),
        Value::Array(items) => items.iter().map(|v| unrenamed(v, renamed)).collect(),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| (k.clone(), unrenamed(v, renamed)))
            .collect(),
        _ => value.clone(),
    }
}

fn same_surface_settings(a: &Surface, b: &Surface) -> bool {
    a.version() == b.version()
        && a.catalog_id() == b.catalog_id()
        && a.root() == b.root()
        && a.theme() == b.theme()
        && a.metadata() == b.metadata()
        && a.send_data_model() == b.send_data_model()
}

/// Whether `shown` is a state between `before` and `after`: every surface, component and data
/// value it holds is one of theirs, or written again later (`overwritten`).
fn within(
    shown: &RendererState,
    before: &RendererState,
    after: &RendererState,
    case: &Case,
) -> Result<(), String> {
    let overwritten = &case.overwritten;
    for surface in shown.surfaces() {
        let id = surface.id();
        let known: Vec<&Surface> = [after.surface(id), before.surface(id)]
            .into_iter()
            .flatten()
            .collect();
        if known.is_empty() {
            return Err(format!("surface {id} is not one the compile makes"));
        }
        if !known.iter().any(|k| same_surface_settings(surface, k)) {
            return Err(format!("surface {id}'s settings are not the compile's"));
        }
        for component in surface.components() {
            let value = component.as_value();
            let same = known.iter().any(|k| {
                k.component(component.id()).is_some_and(|c| {
                    c.as_value() == value
                        || unrenamed(c.as_value(), &case.renamed) == unrenamed(value, &case.renamed)
                })
            });
            if !same && !overwritten.iter().any(|o| o == component.id()) {
                return Err(format!(
                    "surface {id} shows component {value}, which the compile does not have"
                ));
            }
        }
        let mut data = Vec::new();
        leaves(surface.data_model(), String::new(), &mut data);
        for (pointer, value) in data {
            if pointer.is_empty() && value.as_object().is_some_and(|m| m.is_empty()) {
                continue;
            }
            let same = known.iter().any(|k| match (k.data(&pointer), value) {
                // A list assigned item by item starts empty.
                (Some(Value::Array(_)), Value::Array(items)) => items.is_empty(),
                (found, value) => found == Some(value),
            });
            let later = overwritten
                .iter()
                .any(|o| pointer == *o || pointer.starts_with(&format!("{o}/")));
            if !same && !later {
                return Err(format!(
                    "surface {id} shows {value} at {pointer}, which the compile does not have"
                ));
            }
        }
    }
    Ok(())
}

/// The check after `fed` bytes: exactly the state of the blocks closed so far, or inside a
/// block a state between it and the state after the block.
fn leads_where_the_compile_does(
    case: &Case,
    fed: usize,
    shown: &RendererState,
) -> Result<(), String> {
    let empty = RendererState::new();
    let closed = case.blocks.iter().take_while(|b| b.end <= fed).count();
    let before = closed
        .checked_sub(1)
        .and_then(|i| case.blocks.get(i))
        .map_or(&empty, |b| &b.after);
    match case.blocks.get(closed) {
        Some(open) if fed > open.body => within(shown, before, &open.after, case),
        _ if shown == before => Ok(()),
        _ => Err(format!(
            "outside a block, the state is not the compile's of the {closed} blocks before:\n{shown:?}\n{before:?}"
        )),
    }
}

/// Every check of one chunking.
fn check_chunking(case: &Case, pieces: &[&str]) -> Result<(), String> {
    let streamed = stream(case, pieces, |fed, shown| {
        leads_where_the_compile_does(case, fed, shown)?;
        match case.by_char.get(fed) {
            Some(Some(by_char)) if by_char != shown => Err(format!(
                "the state differs from the one after the same bytes fed one character at a time:\n{shown:?}\n{by_char:?}"
            )),
            _ => Ok(()),
        }
    })?;
    let last = case.blocks.last().map(|b| &b.after);
    if Some(&streamed.state) != last {
        return Err(format!(
            "the final state is not the whole compile's:\n{:?}\n{last:?}",
            streamed.state
        ));
    }
    if streamed.errors != case.errors {
        return Err(format!(
            "errors {:?}, the whole compile's {:?}",
            streamed.errors, case.errors
        ));
    }
    if streamed.text != case.text {
        return Err(format!(
            "text {:?}, expected {:?}",
            streamed.text, case.text
        ));
    }
    if !streamed.refused.is_empty() {
        return Err(format!("the renderer refused {:?}", streamed.refused));
    }
    Ok(())
}

/// `text` cut at `cuts` (moved back to character boundaries), with no empty piece.
fn pieces<'a>(text: &'a str, cuts: &[prop::sample::Index]) -> Vec<&'a str> {
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|c| {
            let mut k = c.index(text.len() + 1);
            while !text.is_char_boundary(k) {
                k -= 1;
            }
            k
        })
        .collect();
    at.extend([0, text.len()]);
    at.sort_unstable();
    at.dedup();
    at.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

/// The restaurant card of `a2ui-express/`, or `None` without the shared data.
fn restaurant_card(shared: &Path) -> Option<String> {
    std::fs::read_to_string(shared.join("a2ui-express/20_restaurant-card.underscore.a2ui")).ok()
}

/// The card wrapped in prose.
fn card_response(card: &str, version: Version) -> Response {
    Response::new(&format!("restaurant card {version:?}"), version)
        .shared()
        .prose("Here is a place you might like — it’s close by 🍝.\n\n")
        .block("<a2ui>", "\n", card, "\n", "</a2ui>")
        .prose("\n\nShall I book a table?")
}

/// The messages of an example file: a list, or an object with `messages`.
fn example_messages(file: &Path) -> Option<Vec<Value>> {
    let value: Value = serde_json::from_str(&std::fs::read_to_string(file).ok()?).ok()?;
    match value {
        Value::Array(messages) => Some(messages),
        Value::Object(mut map) => match map.remove("messages") {
            Some(Value::Array(messages)) => Some(messages),
            _ => None,
        },
        _ => None,
    }
}

/// The restaurant examples of the A2UI project (v0.9 and v1.0), decompiled into Express and
/// wrapped in prose, one per version and shape.
fn decompiled_examples(shared: &Path) -> Vec<Case> {
    // The lists' data comes in two updates, which decompile as two blocks of data for the
    // surface, `$/title = ...` and `$/items = [...]`; the compile sends each as the whole data
    // model, so the second replaces the first's `/title`, shown until then.
    let list = &["/title"][..];
    let files = [
        (
            "a2ui/restaurant_finder/examples/0.9/single_column_list.json",
            Version::V09,
            list,
        ),
        (
            "a2ui/restaurant_finder/examples/0.9/two_column_list.json",
            Version::V09,
            &[],
        ),
        (
            "a2ui/restaurant_finder/examples/0.9/booking_form.json",
            Version::V09,
            &[],
        ),
        (
            "a2ui/restaurant_finder/examples/0.9/confirmation.json",
            Version::V09,
            &[],
        ),
        (
            "a2ui/spec/v0_9/catalogs/basic/examples/20_restaurant-card.json",
            Version::V09,
            &[],
        ),
        (
            "a2ui-v1/samples/agent/adk/restaurant_finder/examples/1.0/single_column_list.json",
            Version::V10,
            list,
        ),
        (
            "a2ui-v1/specification/v1_0/catalogs/basic/examples/20_restaurant-card.json",
            Version::V10,
            &[],
        ),
    ];
    // v1.0 component ids are identifiers: the examples' hyphenated ones (`id="card-image"`)
    // give way to the variable names.
    let hyphenated_id = regex::Regex::new(r#", id="[^"]*-[^"]*""#).unwrap();
    let mut cases = Vec::new();
    for (i, (file, version, overwritten)) in files.into_iter().enumerate() {
        let Some(messages) = example_messages(&shared.join(file)) else {
            support::say(&format!("skipping {file}: not found"));
            continue;
        };
        let express = express::decompile(&messages, catalogs(version))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let express = match version {
            Version::V10 => hyphenated_id.replace_all(&express, "").into_owned(),
            _ => express,
        };
        let name = format!("decompiled {file}");
        let response = Response::new(&name, version)
            .shared()
            .prose("I found these for you:\n");
        // Every other one in a code fence, as models often write it.
        let response = if i % 2 == 0 {
            response.block("<a2ui>", "\n", &express, "\n", "</a2ui>")
        } else {
            response.block("<a2ui>", "\n```a2ui\n", &express, "\n```\n", "</a2ui>")
        };
        cases.push(
            response
                .prose("\nAnything else?")
                .overwritten(overwritten)
                .done(),
        );
    }
    cases
}

/// Comments, strings and triple-quoted strings holding the close tag and `#`, a fence, a tag
/// with attributes and in upper case, characters of several bytes.
fn tricky() -> Case {
    let express = r#"# a comment with </a2ui> and # in it
/* a block comment: </a2ui> # `not a fence` */
$/note = "a string with </a2ui> and # in it, and ``` too"
$/long = """triple "quoted" </a2ui>
# not a comment, but text"""
$/raw = r"raw \ </A2UI> é"
root = Column([title, body, note_text, raw_text]) // trailing </a2ui>
title = Text("Crème brûlée 🍮 <b>", "caption")
body = Text($/long);note_text = Text($/note)
raw_text = Text($/raw, "caption")"#;
    Response::new("strings, comments and a fence", Version::V10)
        .prose("Dessert < dinner? Never 🍰. ")
        .block(
            "<A2UI data-kind=\"card\" >",
            "\n```a2ui\n",
            express,
            "\n```\n",
            "</A2UI >",
        )
        .prose(" That is all.")
        .done()
}

/// Three blocks for one surface: it is made, then updated, then its data replaced by a block
/// of data only.
fn three_blocks(version: Version) -> Case {
    let first = r#"surface("menu")
$/title = "Menu"
root = Column([heading, dishes])
heading = Text($/title, "caption")
dishes = List(_template($/items, dish), "vertical")
dish = Text($name)
$/items = [{name: "Pasta"}, {name: "Pizza"}]"#;
    let second = r#"surface("menu", update=true)
heading = Text("Today's menu", "caption")
$/items/1/name = "Calzone""#;
    let third = r#"surface("menu")
$/title = "Dinner"
$/items = [{name: "Risotto"}]"#;
    Response::new(&format!("three blocks {version:?}"), version)
        .prose("First the menu.\n")
        .block("<a2ui>", "\n", first, "\n", "</a2ui>")
        .prose("\nNow an update:\n")
        .block("<a2ui>", "\n", second, "\n", "</a2ui>")
        .prose("\nAnd new data:")
        .block("<a2ui>", "", third, "", "</a2ui>")
        .done()
}

/// A bad statement in the middle of a block: the statements after it still arrive.
fn bad_statement(version: Version) -> Case {
    let head = "$/name = \"Trattoria\"\nroot = Card(column)\ncolumn = Column([name, stars])\n";
    let bad = "oops = Text(\"a\" \"b\")";
    let tail = "\nname = Text($/name, \"caption\")\nstars = Text(\"★★★★☆\")\n$/extra = 1";
    Response::new(&format!("a bad statement {version:?}"), version)
        .prose("Here it is:")
        .block_with_error("<a2ui>", "\n", head, bad, tail, "\n", "</a2ui>")
        .prose("Sorry about the typo.")
        .done()
}

/// A name that is not in the catalog, between good statements.
fn unknown_component() -> Case {
    let head = "root = Column([a, b])\na = Text(\"A\")\n";
    let bad = "sparkle = Sparkle(\"✨\")";
    let tail = "\nb = Text(\"B\")";
    Response::new("an unknown component", Version::V10)
        .block_with_error("<a2ui>\n", "", head, bad, tail, "\n", "</a2ui>")
        .done()
}

/// A bad statement first in a block, before anything opened the surface: the surface still
/// opens with the statements after it.
fn bad_first() -> Case {
    let bad = "sparkle = Sparkle(\"✨\")";
    let tail = "\nroot = Column([a])\na = Text(\"A\")";
    Response::new("a bad first statement", Version::V10)
        .prose("Look:")
        .block_with_error("<a2ui>\n", "", "", bad, tail, "\n", "</a2ui>")
        .done()
}

/// Statements written again: the earlier values show until the later ones arrive.
fn overwrites(version: Version) -> Case {
    let express = r#"$/name = "Old"
root = Card(title)
title = Text($/name)
title = Text($/name, "caption")
$/name = "New"
$/user/first = "Ada"
$/user/last = "Lovelace""#;
    Response::new(&format!("overwrites {version:?}"), version)
        .block("<a2ui>", "\n", express, "\n", "</a2ui>")
        .overwritten(&["title", "/name"])
        .done()
}

/// Names used before the statement that defines them, or gives them an id of their own: the
/// whole compile learns them first.
fn names_defined_later(version: Version) -> Case {
    let express = r#"root = Column(kids)
kids = [title, go_button]
title = Text("Hi", id="greeting")
go_button = Button(label, _, go)
label = Text("Go")
go = Event("go", ctx)
ctx = {who: $/name}
$/name = "Ada""#;
    Response::new(&format!("names defined later {version:?}"), version)
        .block("<a2ui>", "\n", express, "\n", "</a2ui>")
        // Shown before the names they use are known, then again.
        .overwritten(&["root", "go_button"])
        .done()
}

/// A surface made, then its data given by two statements of data only for it, in the same
/// block: the compile sends each as the whole data model, the second replacing the first.
fn data_updates_in_one_block(version: Version) -> Case {
    let express = r#"surface("s")
root = Text($/title)
surface("s")
$/title = "A"
surface("s")
$/items = [1, 2]"#;
    Response::new(&format!("data updates in one block {version:?}"), version)
        .block("<a2ui>", "\n", express, "\n", "</a2ui>")
        .overwritten(&["/title"])
        .done()
}

/// Every case: those written here, and those of the shared data when it is there.
fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut cases = vec![
            tricky(),
            three_blocks(Version::V10),
            three_blocks(Version::V09),
            bad_statement(Version::V10),
            bad_statement(Version::V09),
            unknown_component(),
            bad_first(),
            overwrites(Version::V10),
            overwrites(Version::V09),
            names_defined_later(Version::V10),
            names_defined_later(Version::V09),
            data_updates_in_one_block(Version::V10),
            data_updates_in_one_block(Version::V09),
        ];
        match support::shared_root() {
            Some(shared) => {
                if let Some(card) = restaurant_card(&shared) {
                    cases.push(card_response(&card, Version::V10).done());
                    cases.push(card_response(&card, Version::V09).done());
                }
                cases.extend(decompiled_examples(&shared));
            }
            None => support::say(
                "express_stream: the shared A2UI data (../shared or $A2UI_SHARED) was not found; \
                 the restaurant card and examples are skipped",
            ),
        }
        cases
    })
}

/// Runs `check` on every case, and fails with the failures of all of them.
fn for_every_case(check: impl Fn(&Case) -> Result<(), String>) {
    let failures: Vec<String> = cases()
        .iter()
        .filter_map(|case| check(case).err().map(|e| format!("{}: {e}", case.name)))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_whole_response_in_one_chunk() {
    for_every_case(|case| check_chunking(case, &[&case.response]));
}

#[test]
fn one_character_at_a_time() {
    for_every_case(|case| {
        let chars: Vec<&str> = case.response.split_inclusive(|_| true).collect();
        check_chunking(case, &chars)
    });
}

/// Every cut in two of the responses written here (those of the shared data are long: the
/// property test cuts them).
#[test]
fn every_single_cut() {
    for_every_case(|case| {
        if case.shared {
            return Ok(());
        }
        let text = case.response.as_str();
        text.char_indices().skip(1).try_for_each(|(at, _)| {
            check_chunking(case, &[&text[..at], &text[at..]])
                .map_err(|e| format!("cut at {at}: {e}"))
        })
    });
}

#[test]
fn the_bad_statement_is_reported_at_its_byte_and_the_rest_arrives() {
    let case = bad_statement(Version::V10);
    let streamed = stream(&case, &[&case.response], |_, _| Ok(())).unwrap();
    let at = case.response.find("oops").unwrap() as u64;
    assert_eq!(streamed.errors.len(), 1, "{:?}", streamed.errors);
    let (kind, offset, message) = &streamed.errors[0];
    assert_eq!(*kind, ExpressErrorKind::Parse);
    let offset = offset.unwrap();
    assert!(
        (at..at + 21).contains(&offset),
        "the error is at byte {offset}, the statement at {at}: {message}"
    );
    let surface = streamed.state.surface("default_surface").unwrap();
    assert!(surface.component("stars").is_some());
    assert_eq!(surface.data("/extra"), Some(&serde_json::json!(1)));
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn the_first_component_of_the_card_shows_before_the_card_ends() {
    let Some(shared) = support::shared_root() else {
        support::say("skipped: the shared A2UI data (../shared or $A2UI_SHARED) was not found");
        return;
    };
    let Some(card) = restaurant_card(&shared) else {
        support::say("skipped: a2ui-express/20_restaurant-card.underscore.a2ui was not found");
        return;
    };
    for version in [Version::V10, Version::V09] {
        let case = card_response(&card, version).done();
        let start = case.blocks[0].body + 1;
        let end = start + card.len();
        let mut first = None;
        stream(
            &case,
            &case.response.split_inclusive(|_| true).collect::<Vec<_>>(),
            |fed, state| {
                if first.is_none() && state.surfaces().any(|s| s.components().next().is_some()) {
                    first = Some(fed);
                }
                Ok(())
            },
        )
        .unwrap();
        let first = first.expect("no component was ever shown");
        support::say(&format!(
            "restaurant card ({version:?}): the first component shows after byte {first} of the \
             response, byte {} of the {}-byte card",
            first - start,
            card.len()
        ));
        assert!(
            first < end,
            "the first component shows at {first}, the card ends at {end}"
        );
    }
}

proptest! {
    #[test]
    fn any_chunking_leads_where_the_whole_compile_does(
        pick in any::<prop::sample::Index>(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..24),
    ) {
        let cases = cases();
        let case = &cases[pick.index(cases.len())];
        let pieces = pieces(&case.response, &cuts);
        if let Err(e) = check_chunking(case, &pieces) {
            prop_assert!(false, "{}: {} in {:?}", case.name, e, pieces);
        }
    }
}
