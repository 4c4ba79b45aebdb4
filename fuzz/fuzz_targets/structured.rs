//! Structure-aware: an arbitrary model of an LLM response (prose, `<a2ui-json>` blocks in several
//! spellings, fences, the legacy delimiter, messages of every v0.8 and v0.9 kind with nested
//! values and tricky strings, in array, JSON-lines and concatenated forms) is rendered to bytes
//! and fed in arbitrary pieces. The model says exactly what must come out: no error, the prose,
//! each component as its own message in order, the other messages whole, and the same for every
//! split.
#![no_main]

mod common;

use a2ui_stream::{Config, Event, MessageKind};
use arbitrary::Arbitrary;
use bytes::Bytes;
use common::{check_events, cut_points, merge, run};
use libfuzzer_sys::fuzz_target;

// ---- strings ---------------------------------------------------------------------------------

/// A piece of a JSON string, with the way it is written.
#[derive(Arbitrary, Debug)]
enum Piece {
    /// Any text, escaped only where JSON requires it.
    Text(String),
    Braces,
    Brackets,
    Quote,
    Backslash,
    OpenTag,
    CloseTag,
    Fence,
    Delimiter,
    /// A character written as a `\u` escape (surrogates become a pair or are replaced).
    Escaped(char),
    /// A control character, escaped.
    Control(u8),
    ShortEscape(u8),
    Solidus,
    MultiByte,
}

/// A JSON string: its bytes as written (quotes included) and its decoded value.
#[derive(Debug, Clone, PartialEq)]
struct Str {
    raw: String,
    value: String,
}

fn escape_into(raw: &mut String, value: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '"' => raw.push_str("\\\""),
            '\\' => raw.push_str("\\\\"),
            c if (c as u32) < 0x20 => raw.push_str(&format!("\\u{:04x}", c as u32)),
            c => raw.push(c),
        }
        value.push(c);
    }
}

fn render_str(pieces: &[Piece], suffix: &str) -> Str {
    let mut raw = String::from("\"");
    let mut value = String::new();
    for p in pieces {
        match p {
            Piece::Text(s) => escape_into(&mut raw, &mut value, s),
            Piece::Braces => escape_into(&mut raw, &mut value, "{}}{"),
            Piece::Brackets => escape_into(&mut raw, &mut value, "[]]["),
            Piece::Quote => escape_into(&mut raw, &mut value, "\""),
            Piece::Backslash => escape_into(&mut raw, &mut value, "\\"),
            Piece::OpenTag => escape_into(&mut raw, &mut value, "<a2ui-json>"),
            Piece::CloseTag => escape_into(&mut raw, &mut value, "</a2ui-json>"),
            Piece::Fence => escape_into(&mut raw, &mut value, "```json\n"),
            Piece::Delimiter => escape_into(&mut raw, &mut value, "---a2ui_JSON---"),
            Piece::Escaped(c) => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    raw.push_str(&format!("\\u{:04X}", u));
                }
                value.push(*c);
            }
            Piece::Control(b) => {
                let c = char::from(b % 0x20);
                raw.push_str(&format!("\\u{:04x}", c as u32));
                value.push(c);
            }
            Piece::ShortEscape(b) => {
                let (r, v) = match b % 5 {
                    0 => ("\\n", '\n'),
                    1 => ("\\t", '\t'),
                    2 => ("\\r", '\r'),
                    3 => ("\\b", '\u{8}'),
                    _ => ("\\f", '\u{c}'),
                };
                raw.push_str(r);
                value.push(v);
            }
            Piece::Solidus => {
                raw.push_str("\\/");
                value.push('/');
            }
            Piece::MultiByte => escape_into(&mut raw, &mut value, "caf\u{e9} \u{4e2d} \u{1F600}"),
        }
    }
    raw.push_str(suffix);
    value.push_str(suffix);
    raw.push('"');
    Str { raw, value }
}

// ---- values ----------------------------------------------------------------------------------

#[derive(Arbitrary, Debug)]
enum Node {
    Null,
    Bool(bool),
    Int(i64),
    Float(u8),
    Str(Vec<Piece>),
    Arr(Vec<Node>),
    Obj(Vec<(Vec<Piece>, Node)>),
}

const FLOATS: [&str; 6] = ["2.5", "-0.0", "1e10", "3.25E-3", "0", "-12.75e+2"];

/// Whitespace style: compact, spaced, or broken over lines.
#[derive(Clone, Copy)]
struct Ws(u8);

impl Ws {
    fn open(self) -> &'static str {
        ["", " ", "\n  ", "\r\n\t"][self.0 as usize % 4]
    }
    fn colon(self) -> &'static str {
        ["", " ", " ", "\t"][self.0 as usize % 4]
    }
}

struct Out8 {
    buf: String,
    ws: Ws,
}

impl Out8 {
    fn value(&mut self, n: &Node, depth: usize) {
        if depth > 6 {
            self.buf.push_str("null");
            return;
        }
        match n {
            Node::Null => self.buf.push_str("null"),
            Node::Bool(b) => self.buf.push_str(if *b { "true" } else { "false" }),
            Node::Int(i) => self.buf.push_str(&i.to_string()),
            Node::Float(f) => self.buf.push_str(FLOATS[*f as usize % FLOATS.len()]),
            Node::Str(p) => self.buf.push_str(&render_str(p, "").raw),
            Node::Arr(items) => {
                self.buf.push('[');
                for (i, item) in items.iter().enumerate() {
                    self.sep(i);
                    self.value(item, depth + 1);
                }
                self.close(']');
            }
            Node::Obj(fields) => {
                self.buf.push('{');
                for (i, (k, v)) in fields.iter().enumerate() {
                    self.sep(i);
                    self.key(&render_str(k, "").raw);
                    self.value(v, depth + 1);
                }
                self.close('}');
            }
        }
    }

    fn sep(&mut self, i: usize) {
        if i > 0 {
            self.buf.push(',');
        }
        self.buf.push_str(self.ws.open());
    }

    fn close(&mut self, c: char) {
        self.buf.push_str(self.ws.open());
        self.buf.push(c);
    }

    fn key(&mut self, raw: &str) {
        self.buf.push_str(raw);
        self.buf.push(':');
        self.buf.push_str(self.ws.colon());
    }
}

// ---- messages --------------------------------------------------------------------------------

#[derive(Arbitrary, Debug)]
struct Component {
    has_id: bool,
    id: Vec<Piece>,
    /// Where the `id` key goes among the others.
    id_pos: u8,
    type_name: u8,
    props: Vec<(Vec<Piece>, Node)>,
}

#[derive(Arbitrary, Debug)]
struct Components {
    surface: Option<Vec<Piece>>,
    components: Vec<Component>,
    /// Order of the body's keys.
    order: u8,
    body_extra: Option<Node>,
    message_extra: Option<Node>,
}

#[derive(Arbitrary, Debug)]
enum Msg {
    BeginRendering {
        surface: Vec<Piece>,
        root: Vec<Piece>,
        styles: Option<Node>,
    },
    SurfaceUpdate(Components),
    DataModelUpdate {
        surface: Vec<Piece>,
        path: Option<Vec<Piece>>,
        contents: Vec<(Vec<Piece>, Node)>,
    },
    DeleteSurface {
        surface: Vec<Piece>,
        v09: bool,
    },
    CreateSurface {
        surface: Vec<Piece>,
        catalog: Vec<Piece>,
        theme: Option<Node>,
    },
    UpdateComponents {
        body: Components,
        version: Option<bool>,
        version_last: bool,
    },
    UpdateDataModel {
        surface: Vec<Piece>,
        path: Vec<Piece>,
        value: Node,
    },
    Unknown {
        key: u8,
        value: Node,
    },
}

const TYPES: [&str; 4] = ["Text", "Column", "Button", "Image"];
const UNKNOWN_KEYS: [&str; 4] = ["agentNote", "surfaceupdate", "toolCall", "beginRendering2"];

/// One expected output message.
#[derive(Debug, PartialEq)]
struct Expected {
    bytes: String,
    kind: MessageKind,
    version: Option<String>,
    surface: Option<String>,
    component: Option<String>,
}

/// Renders messages and says what the splitter must make of them.
struct Renderer {
    out: Out8,
    /// Numbers component ids so that no component is a repeat of an earlier one.
    next_id: usize,
    expected: Vec<Expected>,
}

impl Renderer {
    fn fields(&mut self, fields: Vec<(&str, &dyn Fn(&mut Renderer))>) {
        self.out.buf.push('{');
        for (i, (k, f)) in fields.into_iter().enumerate() {
            self.out.sep(i);
            self.out.key(k);
            f(self);
        }
        self.out.close('}');
    }

    fn message(&mut self, m: &Msg) {
        let start = self.out.buf.len();
        let whole =
            |r: &mut Renderer, kind: MessageKind, version: Option<&str>, surface: Option<Str>| {
                r.expected.push(Expected {
                    bytes: r.out.buf[start..].to_string(),
                    kind,
                    version: version.map(str::to_string),
                    surface: surface.map(|s| s.value),
                    component: None,
                });
            };
        match m {
            Msg::BeginRendering {
                surface,
                root,
                styles,
            } => {
                let s = render_str(surface, "");
                let root = render_str(root, "");
                let sf = |r: &mut Renderer| r.out.buf.push_str(&s.raw);
                let rf = |r: &mut Renderer| r.out.buf.push_str(&root.raw);
                let stf = |r: &mut Renderer| {
                    if let Some(st) = styles {
                        r.out.value(st, 3)
                    }
                };
                let body = |r: &mut Renderer| {
                    let mut f: Vec<(&str, &dyn Fn(&mut Renderer))> =
                        vec![("\"surfaceId\"", &sf), ("\"root\"", &rf)];
                    if styles.is_some() {
                        f.push(("\"styles\"", &stf));
                    }
                    r.fields(f);
                };
                self.fields(vec![("\"beginRendering\"", &body)]);
                whole(self, MessageKind::BeginRendering, None, Some(s));
            }
            Msg::DataModelUpdate {
                surface,
                path,
                contents,
            } => {
                let s = render_str(surface, "");
                let path = path.as_ref().map(|p| render_str(p, ""));
                let sf = |r: &mut Renderer| r.out.buf.push_str(&s.raw);
                let pf = |r: &mut Renderer| {
                    if let Some(p) = &path {
                        r.out.buf.push_str(&p.raw)
                    }
                };
                let cf = |r: &mut Renderer| {
                    r.out.buf.push('[');
                    for (i, (k, v)) in contents.iter().enumerate() {
                        r.out.sep(i);
                        let k = render_str(k, "");
                        let kf = |r: &mut Renderer| r.out.buf.push_str(&k.raw);
                        let vf = |r: &mut Renderer| r.out.value(v, 4);
                        r.fields(vec![("\"key\"", &kf), ("\"value\"", &vf)]);
                    }
                    r.out.close(']');
                };
                let body = |r: &mut Renderer| {
                    let mut f: Vec<(&str, &dyn Fn(&mut Renderer))> = vec![("\"surfaceId\"", &sf)];
                    if path.is_some() {
                        f.push(("\"path\"", &pf));
                    }
                    f.push(("\"contents\"", &cf));
                    r.fields(f);
                };
                self.fields(vec![("\"dataModelUpdate\"", &body)]);
                whole(self, MessageKind::DataModelUpdate, None, Some(s));
            }
            Msg::DeleteSurface { surface, v09 } => {
                let s = render_str(surface, "");
                let body = |r: &mut Renderer| {
                    r.fields(vec![("\"surfaceId\"", &|r: &mut Renderer| {
                        r.out.buf.push_str(&s.raw)
                    })])
                };
                let mut f: Vec<(&str, &dyn Fn(&mut Renderer))> = Vec::new();
                if *v09 {
                    f.push(("\"version\"", &|r: &mut Renderer| {
                        r.out.buf.push_str("\"v0.9\"")
                    }));
                }
                f.push(("\"deleteSurface\"", &body));
                self.fields(f);
                whole(
                    self,
                    MessageKind::DeleteSurface,
                    v09.then_some("v0.9"),
                    Some(s),
                );
            }
            Msg::CreateSurface {
                surface,
                catalog,
                theme,
            } => {
                let s = render_str(surface, "");
                let c = render_str(catalog, "");
                let vf = |r: &mut Renderer| r.out.buf.push_str("\"v0.9\"");
                let sf = |r: &mut Renderer| r.out.buf.push_str(&s.raw);
                let cf = |r: &mut Renderer| r.out.buf.push_str(&c.raw);
                let tf = |r: &mut Renderer| {
                    if let Some(t) = theme {
                        r.out.value(t, 3)
                    }
                };
                let body = |r: &mut Renderer| {
                    let mut f: Vec<(&str, &dyn Fn(&mut Renderer))> =
                        vec![("\"surfaceId\"", &sf), ("\"catalogId\"", &cf)];
                    if theme.is_some() {
                        f.push(("\"theme\"", &tf));
                    }
                    r.fields(f);
                };
                self.fields(vec![("\"version\"", &vf), ("\"createSurface\"", &body)]);
                whole(self, MessageKind::CreateSurface, Some("v0.9"), Some(s));
            }
            Msg::UpdateDataModel {
                surface,
                path,
                value,
            } => {
                let s = render_str(surface, "");
                let p = render_str(path, "");
                self.fields(vec![
                    ("\"version\"", &|r: &mut Renderer| {
                        r.out.buf.push_str("\"v0.9\"")
                    }),
                    ("\"updateDataModel\"", &|r: &mut Renderer| {
                        r.fields(vec![
                            ("\"surfaceId\"", &|r: &mut Renderer| {
                                r.out.buf.push_str(&s.raw)
                            }),
                            ("\"path\"", &|r: &mut Renderer| r.out.buf.push_str(&p.raw)),
                            ("\"value\"", &|r: &mut Renderer| r.out.value(value, 3)),
                        ])
                    }),
                ]);
                whole(self, MessageKind::UpdateDataModel, Some("v0.9"), Some(s));
            }
            Msg::Unknown { key, value } => {
                let k = format!("\"{}\"", UNKNOWN_KEYS[*key as usize % UNKNOWN_KEYS.len()]);
                self.fields(vec![(k.as_str(), &|r: &mut Renderer| {
                    r.out.value(value, 2)
                })]);
                whole(self, MessageKind::Unknown, None, None);
            }
            Msg::SurfaceUpdate(body) => self.components(start, body, None, false),
            Msg::UpdateComponents {
                body,
                version,
                version_last,
            } => {
                // `Some(true)`: the version is written with an escape.
                let v = version.map(|escaped| {
                    if escaped {
                        "\"v0\\u002e9\""
                    } else {
                        "\"v0.9\""
                    }
                });
                self.components(start, body, Some(v), *version_last)
            }
        }
    }

    /// A `surfaceUpdate` (`v09` is `None`) or an `updateComponents` (`Some(version)`).
    fn components(
        &mut self,
        start: usize,
        body: &Components,
        v09: Option<Option<&str>>,
        version_last: bool,
    ) {
        let kind = if v09.is_some() {
            MessageKind::UpdateComponents
        } else {
            MessageKind::SurfaceUpdate
        };
        let version = v09.flatten();
        let surface = body.surface.as_ref().map(|s| render_str(s, ""));
        let comps: Vec<(Option<Str>, String)> = body
            .components
            .iter()
            .map(|c| self.component(c, v09.is_some()))
            .collect();
        let array = std::cell::Cell::new((0usize, 0usize));
        let list = |r: &mut Renderer| {
            let open = r.out.buf.len();
            r.out.buf.push('[');
            for (i, (_, c)) in comps.iter().enumerate() {
                r.out.sep(i);
                r.out.buf.push_str(c);
            }
            r.out.close(']');
            array.set((open, r.out.buf.len() - 1));
        };
        let surface_f = |r: &mut Renderer| {
            if let Some(s) = &surface {
                r.out.buf.push_str(&s.raw)
            }
        };
        let extra_f = |r: &mut Renderer| {
            if let Some(e) = &body.body_extra {
                r.out.value(e, 3)
            }
        };
        let mut keys: Vec<(&str, &dyn Fn(&mut Renderer))> = vec![("\"components\"", &list)];
        if surface.is_some() {
            keys.push(("\"surfaceId\"", &surface_f));
        }
        if body.body_extra.is_some() {
            keys.push(("\"note\"", &extra_f));
        }
        let rot = body.order as usize % keys.len();
        keys.rotate_left(rot);
        if body.order & 0x80 != 0 {
            keys.reverse();
        }
        let kind_key = format!("\"{}\"", kind.key());
        let body_f = |r: &mut Renderer| r.fields(keys.clone());
        let version_f = |r: &mut Renderer| r.out.buf.push_str(version.unwrap_or_default());
        let message_extra_f = |r: &mut Renderer| {
            if let Some(e) = &body.message_extra {
                r.out.value(e, 2)
            }
        };
        let mut top: Vec<(&str, &dyn Fn(&mut Renderer))> = vec![(kind_key.as_str(), &body_f)];
        if version.is_some() {
            if version_last {
                top.push(("\"version\"", &version_f));
            } else {
                top.insert(0, ("\"version\"", &version_f));
            }
        }
        if body.message_extra.is_some() {
            top.push(("\"meta\"", &message_extra_f));
        }
        self.fields(top);

        let message = self.out.buf[start..].to_string();
        // Components are split out once the surface (and the version) is known, unless it is too
        // long to be copied into each of them.
        let released = surface
            .as_ref()
            .is_some_and(|s| s.raw.len() <= a2ui_stream::MAX_SPLIT_FIELD_BYTES)
            && (kind == MessageKind::SurfaceUpdate || version.is_some());
        let version_value = version.map(|_| "v0.9".to_string());
        let surface_value = surface.as_ref().map(|s| s.value.clone());
        if !released || comps.is_empty() {
            self.expected.push(Expected {
                bytes: message,
                kind,
                version: version_value,
                surface: surface_value,
                component: None,
            });
            return;
        }
        let s = surface.as_ref().map(|s| s.raw.as_str()).unwrap_or_default();
        for (id, c) in &comps {
            let bytes = match version {
                Some(v) => format!("{{\"version\":{v},\"updateComponents\":{{\"surfaceId\":{s},\"components\":[{c}]}}}}"),
                None => format!("{{\"surfaceUpdate\":{{\"surfaceId\":{s},\"components\":[{c}]}}}}"),
            };
            self.expected.push(Expected {
                bytes,
                kind,
                version: version_value.clone(),
                surface: surface_value.clone(),
                component: id.as_ref().map(|i| i.value.clone()),
            });
        }
        if body.body_extra.is_some() || body.message_extra.is_some() {
            let (open, close) = array.get();
            let (open, close) = (open - start, close - start);
            self.expected.push(Expected {
                bytes: format!("{}{}", &message[..open + 1], &message[close..]),
                kind,
                version: version_value,
                surface: surface_value,
                component: None,
            });
        }
    }

    /// Renders a component on its own; returns its id and its bytes.
    fn component(&mut self, c: &Component, v09: bool) -> (Option<Str>, String) {
        let saved = std::mem::take(&mut self.out.buf);
        let id = c.has_id.then(|| {
            self.next_id += 1;
            render_str(&c.id, &format!("#{}", self.next_id))
        });
        let type_name = format!("\"{}\"", TYPES[c.type_name as usize % TYPES.len()]);
        // Property keys get a prefix so that none is `id` or `component`.
        let props: Vec<(String, &Node)> = c
            .props
            .iter()
            .map(|(k, v)| (format!("\"p{}", &render_str(k, "").raw[1..]), v))
            .collect();
        let id_f = |r: &mut Renderer| {
            if let Some(id) = &id {
                r.out.buf.push_str(&id.raw)
            }
        };
        let prop_fs: Vec<(&str, Box<dyn Fn(&mut Renderer) + '_>)> = props
            .iter()
            .map(|(k, v)| {
                let f: Box<dyn Fn(&mut Renderer) + '_> =
                    Box::new(move |r: &mut Renderer| r.out.value(v, 5));
                (k.as_str(), f)
            })
            .collect();
        let prop_fields = || -> Vec<(&str, &dyn Fn(&mut Renderer))> {
            prop_fs
                .iter()
                .map(|(k, f)| (*k, f.as_ref() as &dyn Fn(&mut Renderer)))
                .collect()
        };
        let v08_inner = |r: &mut Renderer| r.fields(prop_fields());
        let v08_component = |r: &mut Renderer| r.fields(vec![(type_name.as_str(), &v08_inner)]);
        let type_f = |r: &mut Renderer| r.out.buf.push_str(&type_name);
        let mut keys: Vec<(&str, &dyn Fn(&mut Renderer))> = if v09 {
            let mut k: Vec<(&str, &dyn Fn(&mut Renderer))> = vec![("\"component\"", &type_f)];
            k.extend(prop_fields());
            k
        } else {
            vec![("\"component\"", &v08_component)]
        };
        if id.is_some() {
            let pos = c.id_pos as usize % (keys.len() + 1);
            keys.insert(pos, ("\"id\"", &id_f));
        }
        self.fields(keys);
        let bytes = std::mem::replace(&mut self.out.buf, saved);
        (id, bytes)
    }
}

// ---- responses -------------------------------------------------------------------------------

/// Prose pieces, including near-misses of every framing token. No concatenation of them forms a
/// real tag, fence-before-tag or delimiter.
#[derive(Arbitrary, Debug)]
enum Prose {
    Words(Vec<u8>),
    Html,
    Dashes,
    Backticks,
    CodeFence,
    TagLike,
    JsonLike,
    MultiByte,
    AlmostDelimiter,
    AlmostClose,
    SpacedTag,
}

fn render_prose(parts: &[Prose], out: &mut String) {
    const WORD_CHARS: &[u8] =
        b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,!?\n";
    for p in parts {
        out.push_str(match p {
            Prose::Words(w) => {
                out.extend(
                    w.iter()
                        .map(|b| char::from(WORD_CHARS[*b as usize % WORD_CHARS.len()])),
                );
                continue;
            }
            Prose::Html => "<b>bold</b> <p>",
            Prose::Dashes => "a - b -- c --- d",
            Prose::Backticks => "`x` and ``y``",
            Prose::CodeFence => "```python\nprint(1)\n``` done.",
            Prose::TagLike => "<a2ui-jsonx> <a2ui-json-like> <a2ui",
            Prose::JsonLike => "{\"not\": \"json\"} [1] }",
            Prose::MultiByte => "caf\u{e9} \u{1F37D}\u{FE0F} \u{4e2d}\u{6587}",
            Prose::AlmostDelimiter => "---a2ui_JSON-- x",
            Prose::AlmostClose => "</a2ui-jsonx> </a2ui",
            Prose::SpacedTag => "< a2ui-json >",
        });
    }
}

#[derive(Arbitrary, Debug)]
struct Block {
    messages: Vec<Msg>,
    /// Array, JSON lines, concatenated, or whitespace-separated.
    form: u8,
    ws: u8,
    inner_fence: bool,
    outer_fence: bool,
    open_tag: u8,
    close_tag: u8,
}

const OPEN_TAGS: [&str; 4] = [
    "<a2ui-json>",
    "<A2UI-Json>",
    "<a2ui-json data-x=\"a>b\" y='c'>",
    "<a2ui-json\n>",
];
const CLOSE_TAGS: [&str; 3] = ["</a2ui-json>", "</A2UI-JSON >", "</a2ui-json\n\t>"];

#[derive(Arbitrary, Debug)]
struct Response {
    bare: bool,
    parts: Vec<(Vec<Prose>, Block)>,
    tail: Vec<Prose>,
    /// A final `---a2ui_JSON---` section.
    delimited: Option<Block>,
}

impl Renderer {
    fn block_body(&mut self, b: &Block, out: &mut String) {
        self.out.ws = Ws(b.ws);
        if b.inner_fence {
            out.push_str("\n```json\n");
        }
        let array = b.form % 4 == 0;
        if array {
            out.push('[');
        }
        for (i, m) in b.messages.iter().enumerate() {
            if i > 0 {
                out.push_str(match b.form % 4 {
                    0 => ",\n",
                    1 => "\n",
                    2 => "",
                    _ => " \r\n\t ",
                });
            }
            self.out.buf.clear();
            self.message(m);
            out.push_str(&self.out.buf);
        }
        if array {
            out.push(']');
        }
        if b.inner_fence {
            out.push_str("\n```\n");
        }
    }
}

/// The response's bytes, the prose that must come out, and the messages.
fn render(r: &Response) -> (String, String, Vec<Expected>) {
    let mut rr = Renderer {
        out: Out8 {
            buf: String::new(),
            ws: Ws(0),
        },
        next_id: 0,
        expected: Vec::new(),
    };
    let mut out = String::new();
    let mut text = String::new();
    if r.bare {
        for (_, b) in &r.parts {
            rr.block_body(b, &mut out);
            out.push('\n');
        }
        return (out, text, rr.expected);
    }
    for (prose, b) in &r.parts {
        let before = out.len();
        render_prose(prose, &mut out);
        out.push(' ');
        text.push_str(&out[before..]);
        if b.outer_fence {
            out.push_str("```json\n");
        }
        out.push_str(OPEN_TAGS[b.open_tag as usize % OPEN_TAGS.len()]);
        rr.block_body(b, &mut out);
        out.push_str(CLOSE_TAGS[b.close_tag as usize % CLOSE_TAGS.len()]);
        if b.outer_fence {
            out.push_str("\n```");
        }
        // Not whitespace: a fence right after a closing tag would belong to the block.
        out.push('.');
        text.push('.');
    }
    let before = out.len();
    render_prose(&r.tail, &mut out);
    text.push_str(&out[before..]);
    if let Some(b) = &r.delimited {
        out.push_str(" ---a2ui_JSON---\n");
        text.push(' ');
        rr.block_body(b, &mut out);
    }
    (out, text, rr.expected)
}

#[derive(Arbitrary, Debug)]
struct Input {
    response: Response,
    cuts: Vec<u16>,
    copy: bool,
}

fuzz_target!(|input: Input| {
    let (rendered, want_text, expected) = render(&input.response);
    // Data-model updates are expected whole here; their split has its own target (data_split).
    let config = Config {
        split_data_depth: 0,
        ..if input.response.bare {
            Config::bare()
        } else {
            Config::default()
        }
    };
    let data = Bytes::from(rendered);

    let one_shot = run(&config, &data, &[0, data.len()], false);
    check_events(&config, &data, &one_shot);
    let mut text = Vec::new();
    let mut got = Vec::new();
    for ev in &one_shot {
        match ev {
            Ok(Event::Text(t)) => text.extend_from_slice(t),
            Ok(Event::Message(m)) => got.push(Expected {
                bytes: m.as_str().to_string(),
                kind: m.kind(),
                version: m.version().map(str::to_string),
                surface: m.surface_id().map(str::to_string),
                component: m.component_id().map(str::to_string),
            }),
            Err(e) => panic!(
                "error on well-formed input: {e}\ninput: {:?}",
                String::from_utf8_lossy(&data)
            ),
        }
    }
    assert_eq!(String::from_utf8_lossy(&text), want_text.as_str(), "text");
    assert_eq!(
        got.len(),
        expected.len(),
        "message count\n got: {got:#?}\nwant: {expected:#?}"
    );
    for (g, w) in got.iter().zip(&expected) {
        assert_eq!(g, w);
    }

    let want = merge(&one_shot);
    let points = cut_points(data.len(), &input.cuts);
    let split = run(&config, &data, &points, input.copy);
    assert_eq!(merge(&split), want, "cut at {points:?}");
});
