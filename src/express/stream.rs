//! Streaming a model's response written in Express: the text around `<a2ui>` blocks, and each
//! statement of a block compiled the moment it ends, its messages handed out at once.
//!
//! A statement becomes standalone messages: a component (and the components written inline in
//! it) an `updateComponents` of its surface, a data assignment an `updateDataModel` at its
//! path, `deleteSurface(...)` and a call the messages they stand for. A surface the block
//! creates (one whose components include `root`) goes out as a `createSurface` of its own when
//! `root` is read, before the messages of its statements, which wait for it until then; those
//! of a surface that is only updated (`surface(..., update=true)`, or a block of data
//! assignments) go out as they come, or at the close tag when the block turns out to create
//! nothing. At the close tag the whole block is checked as [`compile`](super::compile) checks it.
//!
//! What a renderer holds at the close tag is what the whole compile's messages leave, though the
//! compile learns every name of a surface before it compiles any statement and a stream knows
//! only what came before:
//! * a component that uses a name a later statement gives an id of its own (`id="..."`) or
//!   makes a definition (itself or through other definitions) goes out again then, compiled as
//!   the whole compile has it;
//! * a surface the block only updates gets the whole compile's messages at the close tag in
//!   place of those that waited, and, when it went out live, the compile's data update where
//!   that one sets the whole data model.
//!
//! Each byte is read once: the [statement reader](super::reader) finds where statements end
//! and stops only at a `<` or `` ` `` outside strings and comments, which this module tells
//! apart (the close tag, a code fence, or a stray byte for the parser to report).

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde_json::{Map, Value, json};

use super::block::{self, CompileOptions};
use super::compile::{self, Compiler, Output};
use super::parse::{self, ExprKind, Statement};
use super::reader::{Piece, StatementReader, StatementText};
use super::{ExpressError, ExpressErrorKind};
use crate::framing::{self, Act, Class, Dialect, Tag};
use crate::official::catalog::{Catalog, Version};
use crate::official::direct::Part;
use crate::official::direct::text::{Run, open_tag};

/// Longest info string after a code fence's three backticks.
const MAX_FENCE_LANG: usize = 32;

/// Streams a response written in A2UI Express: conversational text, and the messages each
/// statement of an `<a2ui>` block compiles to, the moment the statement ends. It takes chunks and
/// finishes as the crate's other parsers do ([`feed`](ExpressParser::feed) and
/// [`finish`](ExpressParser::finish)). A surface the block creates goes out as a
/// `createSurface` of its own when `root` is read, and the block is checked whole at its close
/// tag, as [`compile`](super::compile) checks it; [`parse_response`](super::parse_response)
/// answers a whole response with each block's whole compile instead.
///
/// ```
/// use a2ui_stream::express::{CompileOptions, ExpressParser};
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::direct::Part;
///
/// let catalogs = [Catalog::builtin(Version::V09)];
/// let mut parser = ExpressParser::new(&catalogs, CompileOptions::default().with_surface_id("main"))?;
/// let mut parts = parser.feed("Here you go.\n<a2ui>\nroot = Column([title])\ntitle = Text(\"Hel");
/// // `root` is read: the surface and its first component are out before the block ends.
/// let Some(Ok(Part::A2ui(first))) = parts.pop() else { panic!() };
/// assert_eq!(first[0]["createSurface"]["surfaceId"], "main");
/// assert_eq!(first[1]["updateComponents"]["components"][0]["id"], "root");
/// let parts = parser.feed("lo\")\n</a2ui>\nEnjoy.");
/// let Ok(Part::A2ui(next)) = &parts[0] else { panic!() };
/// assert_eq!(next[0]["updateComponents"]["components"][0]["text"], "Hello");
/// assert_eq!(parts[1], Ok(Part::Text("Enjoy.".into())));
/// assert!(parser.finish().is_empty());
/// # Ok::<(), a2ui_stream::express::ExpressError>(())
/// ```
#[derive(Debug)]
pub struct ExpressParser<'c> {
    catalogs: &'c [Catalog],
    options: CompileOptions,
    /// Whether blocks are framed by tags (else the whole response is one block).
    wrapped: bool,
    block: Option<Block<'c>>,
    /// Bytes held back from the last chunk: a possible tag or fence start.
    held: String,
    run: Run,
    /// Bytes of the response taken so far.
    fed: u64,
    /// The surfaces created so far, by earlier blocks.
    created: Vec<String>,
}

/// What happened to the messages of a surface so far.
#[derive(Debug)]
enum Shown {
    /// The surface may still be created (by `root`): its messages wait.
    Waiting(Vec<Value>),
    /// Only updated: its messages go out as they come.
    Live,
    /// Created by this block: its messages go out as they come, and the whole compile has
    /// nothing for it they did not carry.
    Created,
}

/// One block being read.
#[derive(Debug)]
struct Block<'c> {
    reader: StatementReader,
    compiler: Compiler<'c>,
    /// Where the payload starts in the response.
    at: u64,
    /// Everything compiled so far, for the check of the whole block at its end.
    outputs: Vec<Output>,
    /// Per surface of the block (by scope index).
    shown: Vec<Shown>,
    /// Statements read.
    statements: usize,
    /// An item of the list being split did not compile: the list goes out whole at its end.
    list_failed: bool,
    /// The surfaces created so far, in this block or before it: statements for them go out
    /// as they come.
    created: Vec<String>,
    /// The component statements of the open surface scope that compiled, and the components
    /// each showed last: compiled again when a later statement gives a name they use an id of
    /// its own (`id=`) or a definition, which the whole compile learns before it compiles any.
    earlier: Vec<(Statement, Vec<Value>)>,
    /// Which of `earlier` use a name, by name.
    uses: HashMap<String, Vec<usize>>,
    /// The definitions whose value uses a name, by name.
    named_in: HashMap<String, Vec<String>>,
}

/// A code fence at the start of a probe.
enum Fence {
    /// Its length, info string included: bytes that vanish.
    Is(usize),
    /// The probe ends inside what may still be one.
    Partial,
    /// Not a fence.
    No,
}

/// What `probe`, which starts with a backtick, is; with `eof` no byte comes after it, and a
/// fence it ends inside is one.
fn fence(probe: &[u8], eof: bool) -> Fence {
    let ticks = probe.iter().take(3).take_while(|&&b| b == b'`').count();
    if ticks < 3 {
        return if ticks == probe.len() && !eof {
            Fence::Partial
        } else {
            Fence::No
        };
    }
    let lang = probe
        .iter()
        .skip(3)
        .take(MAX_FENCE_LANG)
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+' | b'.'))
        .count();
    if 3 + lang == probe.len() && lang < MAX_FENCE_LANG && !eof {
        Fence::Partial
    } else {
        Fence::Is(3 + lang)
    }
}

/// Where [`read_block`] stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BlockEnd {
    /// At the block's close tag, this many bytes long.
    Close(usize),
    /// Where the end of the bytes cut what may still be a close tag or a code fence.
    Cut,
    /// At the end of the bytes, the block still open.
    Open,
}

/// Reads block text `bytes` with `reader` up to the block's close tag: the statements they
/// complete go to `statements`, and the code fences that stand between tokens vanish, read as
/// white space (their places in `bytes` go to `fences`). A `<` or `` ` `` in a string or a
/// comment is text; one between tokens that is neither a close tag nor a fence is a byte for
/// the parser to report. With `eof` no byte comes after `bytes`: a fence the end cuts is one,
/// a close tag it cuts is text. [`ExpressParser`] reads its blocks with it, and
/// [`unwrap`](super::unwrap) finds them with it.
///
/// Returns how many bytes were read (up to the close tag, or up to the cut) and where it
/// stopped.
pub(crate) fn read_block(
    reader: &mut StatementReader,
    bytes: &[u8],
    eof: bool,
    statements: &mut Vec<Result<StatementText, ExpressError>>,
    fences: &mut Vec<Range<usize>>,
) -> (usize, BlockEnd) {
    let mut i = 0;
    loop {
        i += reader.read(bytes.get(i..).unwrap_or_default(), true, statements);
        let Some(probe) = bytes.get(i..).filter(|p| !p.is_empty()) else {
            return (i, BlockEnd::Open);
        };
        if probe.first() == Some(&b'`') {
            match fence(probe, eof) {
                Fence::Is(len) => {
                    // As many spaces: a statement's text keeps the offsets of its bytes.
                    reader.read(&vec![b' '; len], false, statements);
                    fences.push(i..i + len);
                    i += len;
                }
                Fence::Partial => return (i, BlockEnd::Cut),
                Fence::No => i += reader.read(b"`", false, statements),
            }
            continue;
        }
        match framing::tag_at(probe, Act::CloseBlock, Dialect::Lenient, Tag::Express) {
            Class::Match(len, _) => return (i, BlockEnd::Close(len)),
            Class::Partial if !eof => return (i, BlockEnd::Cut),
            Class::Partial | Class::No => i += reader.read(b"<", false, statements),
        }
    }
}

/// Messages ready, and errors in their place, in the order they came.
#[derive(Default)]
struct Out {
    parts: Vec<Result<Part, ExpressError>>,
    messages: Vec<Value>,
}

impl Out {
    fn error(&mut self, error: ExpressError) {
        self.flush();
        self.parts.push(Err(error));
    }

    fn text(&mut self, text: String) {
        self.flush();
        self.parts.push(Ok(Part::Text(text)));
    }

    fn flush(&mut self) {
        if !self.messages.is_empty() {
            self.parts
                .push(Ok(Part::A2ui(std::mem::take(&mut self.messages))));
        }
    }

    fn done(mut self) -> Vec<Result<Part, ExpressError>> {
        self.flush();
        self.parts
    }
}

impl<'c> ExpressParser<'c> {
    /// A parser for responses written against `catalogs` (the first is the one a surface uses
    /// unless `surface("id", "catalogId")` names another), compiled as `options` say.
    ///
    /// Errors when there is no catalog, or the version is v0.8 (Express compiles to v0.9 and
    /// v1.0).
    ///
    /// ```
    /// use a2ui_stream::express::{CompileOptions, ExpressParser};
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// assert!(ExpressParser::new(&[], CompileOptions::default()).is_err());
    /// assert!(ExpressParser::new(&[Catalog::builtin(Version::V08)], CompileOptions::default()).is_err());
    /// ```
    pub fn new(catalogs: &'c [Catalog], options: CompileOptions) -> Result<Self, ExpressError> {
        Compiler::new(catalogs, options.version(), options.surface_id())?;
        Ok(ExpressParser {
            catalogs,
            options,
            wrapped: true,
            block: None,
            held: String::new(),
            run: Run::default(),
            fed: 0,
            created: Vec::new(),
        })
    }

    /// This parser reading the whole response as one block, with no tags around it.
    ///
    /// ```
    /// use a2ui_stream::express::{CompileOptions, ExpressParser};
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use a2ui_stream::official::direct::Part;
    /// let catalogs = [Catalog::builtin(Version::V10)];
    /// let mut parser = ExpressParser::new(&catalogs, CompileOptions::default())?.unwrapped();
    /// let mut parts = parser.feed("$/name = \"Ada\"\n");
    /// parts.extend(parser.finish());
    /// // A block of data only: at its end, the data update of the whole compile.
    /// let Ok(Part::A2ui(messages)) = &parts[0] else { panic!() };
    /// assert_eq!(messages[0]["updateDataModel"]["path"], "/");
    /// assert_eq!(messages[0]["updateDataModel"]["value"]["name"], "Ada");
    /// # Ok::<(), a2ui_stream::express::ExpressError>(())
    /// ```
    pub fn unwrapped(mut self) -> Self {
        self.wrapped = false;
        self.block = self.new_block(0).ok();
        self
    }

    /// Reads the next chunk of the response: the text and messages it made ready, in order, and
    /// an error in place of a statement that does not read or compile (the statements after it
    /// still arrive).
    pub fn feed(&mut self, chunk: &str) -> Vec<Result<Part, ExpressError>> {
        let mut out = Out::default();
        let joined;
        let input: &str = if self.held.is_empty() {
            chunk
        } else {
            joined = std::mem::take(&mut self.held) + chunk;
            &joined
        };
        let base = self.fed.saturating_sub((input.len() - chunk.len()) as u64);
        self.fed = self.fed.saturating_add(chunk.len() as u64);
        let mut rest = input;
        while !rest.is_empty() {
            let at = base + (input.len() - rest.len()) as u64;
            if self.block.is_some() {
                rest = self.in_block(rest, at, &mut out);
                continue;
            }
            match open_tag(rest.as_bytes(), Tag::Express) {
                Some((pos, Some(len))) => {
                    if let Some(t) = rest.get(..pos).and_then(|t| self.run.take(t)) {
                        out.text(t);
                    }
                    self.run.reset();
                    match self.new_block(at + (pos + len) as u64) {
                        Ok(block) => self.block = Some(block),
                        Err(e) => out.error(e),
                    }
                    rest = rest.get(pos + len..).unwrap_or_default();
                }
                found => {
                    let hold = found.map_or(rest.len(), |(pos, _)| pos);
                    if let Some(t) = rest.get(..hold).and_then(|t| self.run.take(t)) {
                        out.text(t);
                    }
                    self.held = rest.get(hold..).unwrap_or_default().to_owned();
                    rest = "";
                }
            }
        }
        out.done()
    }

    /// Ends the response: the statement still open is compiled, the text held back goes out,
    /// and a block left open is closed there (an error too when blocks are framed by tags).
    pub fn finish(&mut self) -> Vec<Result<Part, ExpressError>> {
        let mut out = Out::default();
        if let Some(block) = self.block.take() {
            let held = std::mem::take(&mut self.held);
            let mut block = block;
            block.read(held.as_bytes(), true, &mut out);
            let end = self.fed;
            self.close(block, end, &mut out);
            if self.wrapped {
                out.error(ExpressError::of(
                    ExpressErrorKind::Parse,
                    Some(end),
                    "the response ended inside an <a2ui> block",
                ));
            }
        } else {
            let held = std::mem::take(&mut self.held);
            if let Some(t) = self.run.take(&held) {
                out.text(t);
            }
        }
        self.run.reset();
        out.done()
    }

    fn new_block(&self, at: u64) -> Result<Block<'c>, ExpressError> {
        Ok(Block {
            reader: StatementReader::splitting_lists(),
            compiler: Compiler::new(
                self.catalogs,
                self.options.version(),
                self.options.surface_id(),
            )?,
            at,
            outputs: Vec::new(),
            shown: Vec::new(),
            statements: 0,
            list_failed: false,
            created: self.created.clone(),
            earlier: Vec::new(),
            uses: HashMap::new(),
            named_in: HashMap::new(),
        })
    }

    /// Block text from response offset `at`: statements read and compiled up to the close tag
    /// (after which the block is checked whole and the text after it returned) or a possible
    /// start of it, held for the next chunk.
    fn in_block<'a>(&mut self, rest: &'a str, at: u64, out: &mut Out) -> &'a str {
        let Some(block) = self.block.as_mut() else {
            return "";
        };
        match block.read(rest.as_bytes(), false, out) {
            (i, BlockEnd::Close(len)) => {
                if let Some(block) = self.block.take() {
                    self.close(block, at + i as u64, out);
                }
                rest.get(i + len..).unwrap_or_default()
            }
            (i, BlockEnd::Cut) => {
                // A possible close tag or fence, cut by the end of the chunk.
                self.held = rest.get(i..).unwrap_or_default().to_owned();
                ""
            }
            (_, BlockEnd::Open) => "",
        }
    }

    /// The block ends at response offset `at`: its last statement is compiled, and the whole
    /// block checked; the messages of surfaces it did not create go out.
    fn close(&mut self, mut block: Block<'c>, at: u64, out: &mut Out) {
        let mut last = Vec::new();
        last.extend(block.reader.finish());
        for statement in last {
            block.statement(statement, out);
        }
        if block.statements == 0 {
            out.error(ExpressError::of(
                ExpressErrorKind::Parse,
                Some(at),
                "expected a statement: the block is empty",
            ));
            return;
        }
        let Block {
            compiler,
            outputs,
            shown,
            created,
            ..
        } = block;
        self.created = created;
        let scopes = compiler.scopes();
        let version = compiler.version();
        // Each surface's outputs, for the messages the whole compile has for it (none needed
        // for a surface this block created: what went out is what the compile has).
        let mut by_scope: Vec<Vec<Output>> = shown.iter().map(|_| Vec::new()).collect();
        for output in &outputs {
            let scope = match output {
                Output::Opened(scope)
                | Output::Components { scope, .. }
                | Output::Data { scope, .. } => *scope,
                Output::Message { .. } => continue,
            };
            if matches!(shown.get(scope), Some(Shown::Created)) {
                continue;
            }
            if let Some(mine) = by_scope.get_mut(scope) {
                mine.push(output.clone());
            }
        }
        let whole = compile::assemble(outputs, scopes, version, self.catalogs)
            .and_then(|messages| block::validate(messages, self.catalogs))
            .and_then(|_| {
                by_scope
                    .into_iter()
                    .map(|outputs| compile::assemble(outputs, scopes, version, self.catalogs))
                    .collect::<Result<Vec<_>, _>>()
            });
        match whole {
            Ok(compiled) => {
                for (shown, compiled) in shown.into_iter().zip(compiled) {
                    let messages = compiled.into_iter().map(|(message, _)| message);
                    if messages.clone().any(|m| m.get("createSurface").is_some()) {
                        if let Shown::Waiting(waiting) = shown {
                            out.messages.extend(waiting);
                        }
                        continue;
                    }
                    // A surface the block only updates: the whole compile's messages replace
                    // those that waited; of those shown live, the data update that sets the
                    // whole model (the compile's, for a top-level path or several) is not.
                    match shown {
                        Shown::Waiting(_) => out.messages.extend(messages),
                        Shown::Created => {}
                        Shown::Live => out.messages.extend(messages.filter(|m| {
                            m.get("updateDataModel")
                                .and_then(|u| u.get("path"))
                                .and_then(Value::as_str)
                                == Some("/")
                        })),
                    }
                }
            }
            Err(e) => out.error(e.at(at)),
        }
    }
}

impl<'c> Block<'c> {
    /// Reads block text `bytes` as [`read_block`] does (`eof` at the end of the response), and
    /// compiles the statements they complete.
    fn read(&mut self, bytes: &[u8], eof: bool, out: &mut Out) -> (usize, BlockEnd) {
        let mut done = Vec::new();
        let read = read_block(&mut self.reader, bytes, eof, &mut done, &mut Vec::new());
        for statement in done {
            self.statement(statement, out);
        }
        read
    }

    /// One statement (or list item) read: parsed, compiled, its messages shown.
    fn statement(&mut self, statement: Result<StatementText, ExpressError>, out: &mut Out) {
        let text = match statement {
            Ok(text) => text,
            Err(e) => return out.error(e.shifted(self.at)),
        };
        if let Piece::Item { target, index } = &text.piece {
            return self.item(target, *index, &text, out);
        }
        self.statements += 1;
        // A list that went out item by item is not shown again, unless an item failed.
        let shown_whole = text.piece == Piece::Whole || self.list_failed;
        self.list_failed = false;
        let compiled = parse::statement(&text.text, text.offset).and_then(|statement| {
            self.compiler.learn(&statement);
            let outputs = self.compiler.statement(&statement)?;
            Ok((statement, outputs))
        });
        match compiled {
            Ok((statement, outputs)) => {
                let components = outputs.iter().find_map(|output| match output {
                    Output::Components { components, .. } => Some(components.clone()),
                    _ => None,
                });
                for output in outputs {
                    if shown_whole || !matches!(output, Output::Data { .. }) {
                        self.show(&output, out);
                    }
                    self.outputs.push(output);
                }
                self.follow(statement, &text.text, components, out);
            }
            Err(e) => out.error(e.shifted(self.at)),
        }
    }

    /// After `statement` (written `text`) compiled (to `components`, for a component): keeps
    /// a component statement, and what a definition names; and when `statement` gives a name an
    /// id of its own or makes it a definition, compiles again the earlier statements of the
    /// surface that use the name (themselves or through definitions), and shows those that
    /// change, so that they end as the whole compile has them.
    fn follow(
        &mut self,
        statement: Statement,
        text: &str,
        components: Option<Vec<Value>>,
        out: &mut Out,
    ) {
        let named = match &statement {
            Statement::Surface(_) => {
                self.earlier.clear();
                self.uses.clear();
                self.named_in.clear();
                return;
            }
            Statement::Definition { name, .. } => Some(name.text.clone()),
            Statement::Component { id, call } => {
                let renamed = call.args.iter().any(|arg| {
                    arg.key.as_ref().is_some_and(|k| k.text == "id")
                        && !matches!(&arg.value.kind, ExprKind::String(own) if *own == id.text)
                });
                (components.is_none() || renamed).then(|| id.text.clone())
            }
            _ => None,
        };
        let mut names = words(text);
        names.sort_unstable();
        names.dedup();
        match (&statement, components) {
            (Statement::Component { .. }, Some(components)) => {
                for name in names {
                    self.uses
                        .entry(name.to_owned())
                        .or_default()
                        .push(self.earlier.len());
                }
                self.earlier.push((statement, components));
            }
            _ => {
                if let Some(defined) = &named {
                    for name in names.into_iter().filter(|n| n != defined) {
                        self.named_in
                            .entry(name.to_owned())
                            .or_default()
                            .push(defined.clone());
                    }
                }
            }
        }
        let Some(name) = named else { return };
        // The names whose meaning changed: this one, and the definitions that use it.
        let mut changed = vec![name];
        let mut seen: HashSet<String> = changed.iter().cloned().collect();
        let mut next = 0;
        while let Some(name) = changed.get(next) {
            let more = self.named_in.get(name).cloned().unwrap_or_default();
            changed.extend(more.into_iter().filter(|d| seen.insert(d.clone())));
            next += 1;
        }
        let mut users: Vec<usize> = changed
            .iter()
            .filter_map(|name| self.uses.get(name))
            .flatten()
            .copied()
            .collect();
        users.sort_unstable();
        users.dedup();
        for index in users {
            let Some((statement, shown)) = self.earlier.get(index) else {
                continue;
            };
            let (statement, shown) = (statement.clone(), shown.clone());
            let Ok(outputs) = self.compiler.statement(&statement) else {
                continue;
            };
            for output in outputs {
                if let Output::Components { components, .. } = &output {
                    if *components == shown {
                        continue;
                    }
                    self.show(&output, out);
                    if let Some(slot) = self.earlier.get_mut(index) {
                        slot.1 = components.clone();
                    }
                    self.outputs.push(output);
                }
            }
        }
    }

    /// Item `index` of the list assigned to `target`, shown at its own path (after the list set
    /// empty, for the first): what the whole assignment leaves, a piece at a time. An item that
    /// does not compile stops the split; the statement's own error comes at its end.
    fn item(&mut self, target: &str, index: usize, text: &StatementText, out: &mut Out) {
        if self.list_failed {
            return;
        }
        let mut pieces = Vec::new();
        if index == 0 {
            pieces.push(format!("{target} = []"));
        }
        pieces.push(format!("{target}/{index} = {}", text.text));
        for piece in pieces {
            let compiled = parse::statement(&piece, text.offset)
                .and_then(|statement| self.compiler.statement(&statement));
            match compiled {
                Ok(outputs) => {
                    for output in outputs {
                        self.show(&output, out);
                        if matches!(output, Output::Opened(_)) {
                            // The surface the statement is for, opened by its first item.
                            self.outputs.push(output);
                        }
                    }
                }
                Err(_) => {
                    self.list_failed = true;
                    return;
                }
            }
        }
    }

    /// The messages for one output, out now or waiting for their surface.
    fn show(&mut self, output: &Output, out: &mut Out) {
        let tag = self.compiler.version().message_tag();
        let (scope, message, root) = match output {
            Output::Opened(scope) => {
                let update = self
                    .compiler
                    .scopes()
                    .get(*scope)
                    .is_some_and(|s| s.update || self.created.contains(&s.surface_id));
                let shown = if update {
                    Shown::Live
                } else {
                    Shown::Waiting(Vec::new())
                };
                self.set_shown(*scope, shown);
                return;
            }
            Output::Message { message, .. } => {
                out.messages.push(message.clone());
                return;
            }
            Output::Components { scope, components } => {
                let root = components
                    .iter()
                    .any(|c| c.get("id").and_then(Value::as_str) == Some("root"));
                let body = compile::object([
                    ("surfaceId", self.surface_id(*scope).into()),
                    ("components", Value::Array(components.clone())),
                ]);
                let message = compile::message(tag, "updateComponents", body);
                (*scope, message, root)
            }
            Output::Data { scope, path, value } => {
                let pointer = if path.starts_with('/') {
                    path.clone()
                } else {
                    format!("/{path}")
                };
                let body = compile::object([
                    ("surfaceId", self.surface_id(*scope).into()),
                    ("path", pointer.into()),
                    ("value", value.clone()),
                ]);
                let message = compile::message(tag, "updateDataModel", body);
                (*scope, message, false)
            }
        };
        match self.shown.get_mut(scope) {
            Some(Shown::Live | Shown::Created) => out.messages.push(message),
            Some(Shown::Waiting(waiting)) if root => {
                let mut waiting = std::mem::take(waiting);
                waiting.push(message);
                let opening = self.opening(scope, waiting);
                out.messages.extend(opening);
                self.set_shown(scope, Shown::Created);
                let id = self.surface_id(scope).to_owned();
                self.created.push(id);
            }
            Some(Shown::Waiting(waiting)) => waiting.push(message),
            None => {
                self.set_shown(scope, Shown::Waiting(vec![message]));
            }
        }
    }

    fn set_shown(&mut self, scope: usize, shown: Shown) {
        while self.shown.len() <= scope {
            self.shown.push(Shown::Waiting(Vec::new()));
        }
        if let Some(slot) = self.shown.get_mut(scope) {
            *slot = shown;
        }
    }

    fn surface_id(&self, scope: usize) -> &str {
        self.compiler
            .scopes()
            .get(scope)
            .map_or("", |s| s.surface_id.as_str())
    }

    /// What goes out when `root` creates surface `scope`, given the messages that waited for
    /// it (the root's last): the `createSurface`, the waiting components in one
    /// `updateComponents`, and the waiting data as one model: inline in the `createSurface`
    /// (v1.0), or one `updateDataModel` of the whole model, still empty (v0.9).
    fn opening(&self, scope: usize, waiting: Vec<Value>) -> Vec<Value> {
        let mut surface = self.create_surface(scope);
        let mut components = Vec::new();
        let mut data = Vec::new();
        for mut message in waiting {
            if let Some(Value::Array(list)) = message
                .get_mut("updateComponents")
                .and_then(|u| u.get_mut("components"))
            {
                components.append(list);
            } else if let Some(Value::Object(update)) = message.get_mut("updateDataModel") {
                let path = update
                    .get("path")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                data.push((path, update.remove("value").unwrap_or(Value::Null)));
            }
        }
        let tag = self.compiler.version().message_tag();
        let surface_id = self.surface_id(scope).to_owned();
        let mut out = Vec::new();
        let mut model_update = None;
        if !data.is_empty() {
            let model = compile::data_model(&data);
            match surface.get_mut("createSurface") {
                Some(Value::Object(create)) if self.compiler.version() >= Version::V10 => {
                    create.insert("dataModel".to_owned(), model);
                }
                _ => {
                    model_update = Some(json!({"version": tag, "updateDataModel": {
                        "surfaceId": surface_id, "path": "/", "value": model,
                    }}));
                }
            }
        }
        out.push(surface);
        out.extend(model_update);
        out.push(json!({"version": tag, "updateComponents": {
            "surfaceId": surface_id,
            "components": components,
        }}));
        out
    }

    /// The `createSurface` of surface `scope`, on its own.
    fn create_surface(&self, scope: usize) -> Value {
        let create = self
            .compiler
            .scopes()
            .get(scope)
            .map_or_else(Map::new, |scope| {
                compile::surface_opening(scope, self.compiler.catalog_id(scope.catalog))
            });
        json!({"version": self.compiler.version().message_tag(), "createSurface": create})
    }
}

/// The words of `text` that may be names: runs of letters, digits and `_`.
fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect()
}
