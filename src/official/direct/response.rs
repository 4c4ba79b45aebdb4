//! Whole responses in the direct-JSON format: split into text and raw blocks ([`unwrap`]),
//! written back ([`wrap`]), and parsed with every block read and checked ([`parse_response`]).

use std::sync::Arc;

use serde_json::Value;

use super::block::{Block, Fed};
use super::{DirectErrorKind, Error, Part, error, text};
use crate::Version;
use crate::official::validator::Validator;

/// One part of a response split by [`unwrap`]: text, or the raw text of a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawPart {
    /// Text outside blocks, trimmed, fences removed.
    Text(String),
    /// A block's payload as written, trimmed, fences removed; `is_final` is false for a block
    /// the response left open.
    A2uiRaw {
        /// The payload text.
        raw: String,
        /// Whether the block closed.
        is_final: bool,
    },
}

/// `text` trimmed, with a markdown fence line at its start and a fence at its end removed.
fn clean(text: &str) -> &str {
    let mut t = text.trim();
    if let Some(rest) = t.strip_prefix("```") {
        let lang = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphabetic() || *b == b'-')
            .count();
        t = rest.get(lang..).unwrap_or_default().trim_start();
    }
    if let Some(head) = before_closing_fence(t) {
        t = head;
    }
    t.trim()
}

/// The text before a closing fence (three backticks and an optional language) at its end.
fn before_closing_fence(t: &str) -> Option<&str> {
    let lang = t
        .bytes()
        .rev()
        .take_while(|b| b.is_ascii_alphabetic() || *b == b'-')
        .count();
    let head = t.get(..t.len() - lang)?.strip_suffix("```")?;
    Some(head.trim_end())
}

/// Where the close tag that ends a block starting at `from` is, outside the payload's strings:
/// its offset and length.
fn close_of(content: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut block = Block::new(false);
    match block.feed(content.get(from..)?) {
        Fed::Closed { at, len } => Some((from + at, len)),
        _ => None,
    }
}

/// Splits a whole response into text and the raw payloads of its blocks, in order. A response
/// with no block is one text part; an empty one has no parts.
///
/// ```
/// use a2ui_stream::official::direct::{RawPart, unwrap};
/// let parts = unwrap("Here.\n<a2ui-json>\n```json\n[]\n```\n</a2ui-json>\nBye.");
/// assert_eq!(parts, [
///     RawPart::Text("Here.".into()),
///     RawPart::A2uiRaw { raw: "[]".into(), is_final: true },
///     RawPart::Text("Bye.".into()),
/// ]);
/// ```
pub fn unwrap(content: &str) -> Vec<RawPart> {
    let mut parts = Vec::new();
    let bytes = content.as_bytes();
    let mut i = 0;
    while let Some((pos, Some(len))) = bytes
        .get(i..)
        .and_then(|rest| text::open_tag(rest, crate::framing::Tag::Json))
    {
        let open = i + pos;
        add_text(&mut parts, content.get(i..open).unwrap_or_default());
        let body = open + len;
        let Some((close, close_len)) = close_of(bytes, body) else {
            parts.push(RawPart::A2uiRaw {
                raw: clean(content.get(body..).unwrap_or_default()).to_owned(),
                is_final: false,
            });
            return parts;
        };
        parts.push(RawPart::A2uiRaw {
            raw: clean(content.get(body..close).unwrap_or_default()).to_owned(),
            is_final: true,
        });
        i = close + close_len;
    }
    add_text(&mut parts, content.get(i..).unwrap_or_default());
    parts
}

fn add_text(parts: &mut Vec<RawPart>, text: &str) {
    let text = clean(text);
    if !text.is_empty() {
        parts.push(RawPart::Text(text.to_owned()));
    }
}

/// Writes parts back as a response: text as it is, a payload between tags on lines of its
/// own, parts joined by line breaks.
///
/// ```
/// use a2ui_stream::official::direct::{RawPart, unwrap, wrap};
/// let parts = vec![RawPart::Text("Hi.".into()), RawPart::A2uiRaw { raw: "[]".into(), is_final: true }];
/// assert_eq!(wrap(&parts), "Hi.\n<a2ui-json>\n[]\n</a2ui-json>");
/// assert_eq!(unwrap(&wrap(&parts)), parts);
/// ```
pub fn wrap(parts: &[RawPart]) -> String {
    parts
        .iter()
        .map(|part| match part {
            RawPart::Text(text) => text.clone(),
            RawPart::A2uiRaw { raw, .. } => format!("<a2ui-json>\n{raw}\n</a2ui-json>"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads one payload whole and checks it as one: its messages.
fn compile(raw: &str, validator: &Validator, at: u64) -> Result<Vec<Value>, Error> {
    let raw = clean(raw);
    if raw.is_empty() {
        return Err(error(
            DirectErrorKind::Parse,
            at,
            "The direct JSON block is empty.",
        ));
    }
    let mut block = Block::new(validator.catalog().version() >= Version::V10);
    let fed = block.feed(raw.as_bytes());
    if let Some((offset, why)) = block.broken() {
        return Err(error(
            DirectErrorKind::Parse,
            at + offset,
            format!("The direct JSON block is not JSON: {why}"),
        ));
    }
    if fed != Fed::Payload || !block.complete() {
        return Err(error(
            DirectErrorKind::Parse,
            at,
            "The direct JSON block is not JSON: unexpected end of the JSON text",
        ));
    }
    let messages: Vec<Value> = block.take_closed().1.into_iter().map(|(m, _)| m).collect();
    validator
        .validate(&Value::Array(messages.clone()))
        .map_err(|e| error(DirectErrorKind::Validation, at, e.message()))?;
    Ok(messages)
}

/// Parses a whole response: its text, and each block read and checked against `validator`'s
/// catalog. With `wrapped` false the whole response is one payload.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::direct::{DirectErrorKind, Part, parse_response};
/// use a2ui_stream::official::validator::Validator;
/// use serde_json::json;
/// use std::sync::Arc;
/// let catalog = Catalog::new(Version::V09, json!(null), json!({}), json!(null));
/// let validator = Arc::new(Validator::new(&catalog)?);
/// let reply = "Done.\n<a2ui-json>[{\"version\": \"v0.9\", \"deleteSurface\": {\"surfaceId\": \"s\"}}]</a2ui-json>";
/// let parts = parse_response(reply, &validator, true)?;
/// assert_eq!(parts[0], Part::Text("Done.".into()));
/// let err = parse_response("<a2ui-json>no</a2ui-json>", &validator, true).unwrap_err();
/// assert_eq!(err.kind(), DirectErrorKind::Parse);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_response(
    content: &str,
    validator: &Arc<Validator>,
    wrapped: bool,
) -> Result<Vec<Part>, Error> {
    if !wrapped {
        return Ok(vec![Part::A2ui(compile(content, validator, 0)?)]);
    }
    let mut out = Vec::new();
    for part in unwrap(content) {
        match part {
            RawPart::Text(text) => out.push(Part::Text(text)),
            RawPart::A2uiRaw { raw, .. } => {
                let at = content.find(raw.as_str()).unwrap_or(0) as u64;
                out.push(Part::A2ui(compile(&raw, validator, at)?));
            }
        }
    }
    Ok(out)
}
