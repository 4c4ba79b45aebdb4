//! Whole responses written in Express: split into text and raw blocks ([`unwrap`]), written
//! back ([`wrap`]), and parsed with every block compiled and checked ([`parse_response`]).
//!
//! Blocks are framed as [`ExpressParser`](super::ExpressParser) frames them, by the same
//! reading ([`read_block`]): `<a2ui>` tags in any case, with attributes or white space before
//! `>`; a close tag in a string or a comment is payload; code fences between tokens vanish.

use std::ops::Range;

use super::block::CompileOptions;
use super::compile::Compiler;
use super::reader::StatementReader;
use super::stream::{BlockEnd, read_block};
use super::{ExpressError, ExpressErrorKind};
use crate::framing::Tag;
use crate::official::catalog::Catalog;
use crate::official::direct::text::open_tag;
use crate::official::direct::{Part, RawPart};

/// A run of a response: text, or a block.
enum Piece {
    /// Text outside blocks, where it is in the response.
    Text(Range<usize>),
    /// A block.
    Block(Block),
}

/// Where a block is in a response.
struct Block {
    /// Its payload: from the end of the open tag to the close tag, or to the end of the
    /// response for a block left open.
    body: Range<usize>,
    /// The code fences in the payload, which vanish from it.
    fences: Vec<Range<usize>>,
    /// Whether the close tag came.
    closed: bool,
}

/// A block's payload as the compiler reads it, and where its bytes are in the response.
struct Payload {
    /// The payload less its fences, trimmed.
    raw: String,
    /// Where the bytes of `raw` are in the response, in order.
    spans: Vec<Range<usize>>,
    /// Where the payload ends in the response (the close tag, or the end).
    end: usize,
}

impl Block {
    /// The payload of this block of `content`.
    fn payload(&self, content: &str) -> Payload {
        let mut kept = Vec::with_capacity(self.fences.len() + 1);
        let mut from = self.body.start;
        for fence in &self.fences {
            kept.push(from..fence.start);
            from = fence.end;
        }
        kept.push(from..self.body.end);
        let whole: String = kept
            .iter()
            .filter_map(|span| content.get(span.clone()))
            .collect();
        let lead = whole.len() - whole.trim_start().len();
        let raw = whole.trim();
        // The spans of `whole` less the `lead` bytes before `raw` and those after it.
        let mut skip = lead;
        let mut left = raw.len();
        let mut spans = Vec::with_capacity(kept.len());
        for span in kept {
            let start = span.start + skip.min(span.len());
            skip = skip.saturating_sub(span.len());
            let len = left.min(span.end.saturating_sub(start));
            if len > 0 {
                spans.push(start..start + len);
            }
            left -= len;
        }
        Payload {
            raw: raw.to_owned(),
            spans,
            end: self.body.end,
        }
    }
}

impl Payload {
    /// Where byte `offset` of the raw payload is in the response; its end (where the compiler
    /// finds a statement or the block cut short) is where the payload ends, at the close tag.
    fn offset(&self, offset: u64) -> u64 {
        let mut left = offset;
        for span in &self.spans {
            let len = span.len() as u64;
            if left < len {
                return span.start as u64 + left;
            }
            left -= len;
        }
        self.end as u64 + left
    }
}

/// The runs of `content`, in order: text, and blocks framed by `<a2ui>` tags. With `in_block`
/// the response starts inside a block (that needs no open tag).
fn pieces(content: &str, in_block: bool) -> Vec<Piece> {
    let bytes = content.as_bytes();
    let mut pieces = Vec::new();
    let mut i = 0;
    let mut open = in_block.then_some(0);
    loop {
        if let Some(start) = open.take() {
            let mut fences = Vec::new();
            let (read, end) = read_block(
                &mut StatementReader::new(),
                bytes.get(start..).unwrap_or_default(),
                true,
                &mut Vec::new(),
                &mut fences,
            );
            let fences = fences
                .into_iter()
                .map(|f| start + f.start..start + f.end)
                .collect();
            let body = start..start + read;
            let BlockEnd::Close(len) = end else {
                pieces.push(Piece::Block(Block {
                    body: start..content.len(),
                    fences,
                    closed: false,
                }));
                return pieces;
            };
            pieces.push(Piece::Block(Block {
                body,
                fences,
                closed: true,
            }));
            i = start + read + len;
            continue;
        }
        match bytes.get(i..).and_then(|rest| open_tag(rest, Tag::Express)) {
            Some((pos, Some(len))) => {
                pieces.push(Piece::Text(i..i + pos));
                open = Some(i + pos + len);
            }
            // No open tag, or one the end of the response cuts: text.
            _ => {
                pieces.push(Piece::Text(i..content.len()));
                return pieces;
            }
        }
    }
}

/// A text run of `content` trimmed, or `None` when that leaves nothing.
fn text(content: &str, run: Range<usize>) -> Option<String> {
    let text = content.get(run)?.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// Splits a whole response written in Express into text and the raw payloads of its `<a2ui>`
/// blocks, in order, framed as [`ExpressParser`](super::ExpressParser) frames them: tags in
/// any case, with attributes or white space before `>`; a close tag in a string or a comment
/// belongs to the payload; code fences between its tokens are removed. Text runs and payloads
/// are trimmed, and a text run left empty is dropped. A response with no block is one text
/// part; an empty one has no parts. A block the response leaves open is the last part, with
/// `is_final` false.
///
/// ```
/// use a2ui_stream::express::unwrap;
/// use a2ui_stream::official::direct::RawPart;
///
/// let parts = unwrap("Here.\n<A2UI v=\"1\">\n```\nroot = Text(\"</a2ui>\")\n```\n</a2ui >\n\n<a2ui>x = Text(\"Hi\")");
/// assert_eq!(parts, [
///     RawPart::Text("Here.".into()),
///     RawPart::A2uiRaw { raw: "root = Text(\"</a2ui>\")".into(), is_final: true },
///     RawPart::A2uiRaw { raw: "x = Text(\"Hi\")".into(), is_final: false },
/// ]);
/// assert_eq!(unwrap("No interface this turn."), [RawPart::Text("No interface this turn.".into())]);
/// assert!(unwrap("").is_empty());
/// ```
pub fn unwrap(content: &str) -> Vec<RawPart> {
    pieces(content, false)
        .into_iter()
        .filter_map(|piece| match piece {
            Piece::Text(run) => text(content, run).map(RawPart::Text),
            Piece::Block(block) => Some(RawPart::A2uiRaw {
                raw: block.payload(content).raw,
                is_final: block.closed,
            }),
        })
        .collect()
}

/// Writes parts back as a response a model would have written: text as it is, a payload
/// between `<a2ui>` tags on lines of its own (with no close tag when `is_final` is false: the
/// block was left open), parts joined by line breaks. What [`unwrap`] returns it writes back to
/// a response that unwraps to the same parts.
///
/// ```
/// use a2ui_stream::express::{unwrap, wrap};
/// use a2ui_stream::official::direct::RawPart;
///
/// let parts = vec![
///     RawPart::Text("Here is the greeting.".into()),
///     RawPart::A2uiRaw { raw: "root = Text(\"Hello\")".into(), is_final: true },
/// ];
/// let response = wrap(&parts);
/// assert_eq!(response, "Here is the greeting.\n<a2ui>\nroot = Text(\"Hello\")\n</a2ui>");
/// assert_eq!(unwrap(&response), parts);
/// assert_eq!(wrap(&[]), "");
/// ```
pub fn wrap(parts: &[RawPart]) -> String {
    parts
        .iter()
        .map(|part| match part {
            RawPart::Text(text) => text.clone(),
            RawPart::A2uiRaw {
                raw,
                is_final: true,
            } => format!("<a2ui>\n{raw}\n</a2ui>"),
            RawPart::A2uiRaw {
                raw,
                is_final: false,
            } => format!("<a2ui>\n{raw}"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Parses a whole response written in Express: its text, and each `<a2ui>` block compiled and
/// checked against `catalogs` as [`compile`](super::compile) does it, as `options` say. With
/// `wrapped` false the response is one block with no tags around it (as
/// [`ExpressParser::unwrapped`](super::ExpressParser::unwrapped) reads it).
///
/// The parts are those [`unwrap`] finds, and each block's messages are its whole compile: per
/// surface one `createSurface` holding the components and the data model (v1.0), the
/// official compiler's shape, which the conformance suite asserts for a whole response. Fed
/// the same response, [`ExpressParser`](super::ExpressParser) finds the same text and blocks,
/// and hands each block's messages out statement by statement instead (a `createSurface` of
/// its own, then `updateComponents` and `updateDataModel`), which leave a renderer holding the
/// same surfaces once the block is closed.
///
/// Errors (the offset is the byte in `content`), for the first block that has one: what
/// [`compile`](super::compile) reports for it ([`ExpressErrorKind::Parse`] for text the
/// grammar does not admit or an empty block, [`ExpressErrorKind::Validation`] for what the
/// catalogs do not declare or messages their validators reject, at the close tag when the
/// whole block is at fault); [`ExpressErrorKind::Parse`] at the end for a response that ends
/// inside a block (after that block's own errors); and the error of
/// [`ExpressParser::new`](super::ExpressParser::new) when there is no catalog or the version
/// is v0.8.
///
/// ```
/// use a2ui_stream::express::{CompileOptions, ExpressErrorKind, parse_response};
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use a2ui_stream::official::direct::Part;
/// use serde_json::json;
///
/// let catalogs = [Catalog::builtin(Version::V10)];
/// let options = CompileOptions::default();
/// let reply = "First the greeting.\n<a2ui>\nsurface(\"s1\")\nroot = Text(\"Hello\")\n</a2ui>\nThen I take it away.\n<a2ui>deleteSurface(\"s1\")</a2ui>";
/// let parts = parse_response(reply, &catalogs, &options, true)?;
/// assert_eq!(parts.len(), 4);
/// assert_eq!(parts[0], Part::Text("First the greeting.".into()));
/// let Part::A2ui(messages) = &parts[1] else { panic!("a block") };
/// assert_eq!(messages[0]["createSurface"]["components"], json!([{"id": "root", "component": "Text", "text": "Hello"}]));
/// assert_eq!(parts[3], Part::A2ui(vec![json!({"version": "v1.0", "deleteSurface": {"surfaceId": "s1"}})]));
///
/// let parts = parse_response("$/name = \"Ada\"", &catalogs, &options, false)?;
/// assert_eq!(parts[0], Part::A2ui(vec![json!({"version": "v1.0",
///     "updateDataModel": {"surfaceId": "default_surface", "path": "/", "value": {"name": "Ada"}}})]));
///
/// let err = parse_response("Here:\n<a2ui>\nroot = Sparkline([1])\n</a2ui>", &catalogs, &options, true).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (ExpressErrorKind::Validation, Some(20)));
/// let err = parse_response("<a2ui>\nroot = Text(\"Hi\")", &catalogs, &options, true).unwrap_err();
/// assert_eq!(err.to_string(), "at byte 24: the response ended inside an <a2ui> block");
/// # Ok::<(), a2ui_stream::express::ExpressError>(())
/// ```
pub fn parse_response(
    content: &str,
    catalogs: &[Catalog],
    options: &CompileOptions,
    wrapped: bool,
) -> Result<Vec<Part>, ExpressError> {
    Compiler::new(catalogs, options.version(), options.surface_id())?;
    let mut parts = Vec::new();
    for piece in pieces(content, !wrapped) {
        let block = match piece {
            Piece::Text(run) => {
                parts.extend(text(content, run).map(Part::Text));
                continue;
            }
            Piece::Block(block) => block,
        };
        let payload = block.payload(content);
        let messages =
            super::compile(&payload.raw, catalogs, options).map_err(|e| match e.offset() {
                Some(at) => e.shifted(payload.offset(at).saturating_sub(at)),
                None => e.at(payload.end as u64),
            })?;
        parts.push(Part::A2ui(messages));
        if wrapped && !block.closed {
            return Err(ExpressError::of(
                ExpressErrorKind::Parse,
                Some(content.len() as u64),
                "the response ended inside an <a2ui> block",
            ));
        }
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::express::ExpressParser;
    use crate::official::catalog::Version;

    fn raw(raw: &str, is_final: bool) -> RawPart {
        RawPart::A2uiRaw {
            raw: raw.to_owned(),
            is_final,
        }
    }

    #[test]
    fn blocks_are_framed_as_the_stream_frames_them() {
        let cases: &[(&str, Vec<RawPart>)] = &[
            // A close tag in a comment, a string or a raw string is payload.
            (
                "<a2ui>x = Text(\"a\") # </a2ui>\ny = Text(r\"</A2UI>\")</a2ui>after",
                vec![
                    raw("x = Text(\"a\") # </a2ui>\ny = Text(r\"</A2UI>\")", true),
                    RawPart::Text("after".into()),
                ],
            ),
            (
                "<a2ui>/* </a2ui> */ x = Text(\"\"\"</a2ui>\"\"\")</a2ui>",
                vec![raw("/* </a2ui> */ x = Text(\"\"\"</a2ui>\"\"\")", true)],
            ),
            // A fence anywhere between tokens vanishes; a fence the end cuts is one.
            (
                "<a2ui>```express\nx = Text(\"a\")\n```\ny = Text(\"b\")\n```</a2ui>",
                vec![raw("x = Text(\"a\")\n\ny = Text(\"b\")", true)],
            ),
            (
                "<a2ui>\n```\nx = Text(\"a\")\n```",
                vec![raw("x = Text(\"a\")", false)],
            ),
            // A close tag the end cuts is payload; an open tag it cuts is text.
            (
                "<a2ui>x = Text(\"a\")</a2u",
                vec![raw("x = Text(\"a\")</a2u", false)],
            ),
            ("Hi <a2ui v=1", vec![RawPart::Text("Hi <a2ui v=1".into())]),
            ("<a2ui></a2ui>", vec![raw("", true)]),
            (" \n ", vec![]),
        ];
        for (content, want) in cases {
            assert_eq!(&unwrap(content), want, "{content:?}");
            if want.last().is_none_or(
                |p| !matches!(p, RawPart::A2uiRaw { raw, .. } if raw.ends_with("</a2u")),
            ) {
                assert_eq!(&unwrap(&wrap(want)), want, "{content:?} wrapped back");
            }
        }
    }

    #[test]
    fn errors_are_placed_in_the_response() {
        let catalogs = [Catalog::builtin(Version::V10)];
        let options = CompileOptions::default();
        let parse = |content: &str, wrapped: bool| {
            parse_response(content, &catalogs, &options, wrapped).unwrap_err()
        };
        // Past a fence that vanished: the byte of `Sparkline`.
        let content = "Hi.\n<a2ui>\n```\n  x = Text(\"a\")\n```\nroot = Sparkline([1])\n</a2ui>";
        let err = parse(content, true);
        assert_eq!(err.kind(), ExpressErrorKind::Validation);
        assert_eq!(err.offset(), content.find("Sparkline").map(|at| at as u64));
        // A statement the block ends inside: at the close tag.
        let content = "<a2ui>\nroot = Text(\"Hi\"\n```\n</a2ui>";
        let err = parse(content, true);
        assert_eq!(err.kind(), ExpressErrorKind::Parse);
        assert_eq!(err.offset(), Some(28));
        // An empty block: at its close tag, as the stream says it.
        let err = parse("Hi.\n<a2ui>\n``` \n</a2ui>", true);
        assert_eq!(
            (err.kind(), err.offset(), err.message()),
            (
                ExpressErrorKind::Parse,
                Some(16),
                "expected a statement: the block is empty"
            )
        );
        let err = parse("", false);
        assert_eq!(
            (err.kind(), err.offset()),
            (ExpressErrorKind::Parse, Some(0))
        );
        // A whole block the catalog rejects: at its close tag.
        let err = parse("<a2ui>x = 1</a2ui>", true);
        assert_eq!(
            (err.kind(), err.offset()),
            (ExpressErrorKind::Validation, Some(11))
        );
        assert!(parse_response("Hi", &[], &options, true).is_err());
    }

    #[test]
    fn the_stream_meets_the_same_first_error() {
        let catalogs = [Catalog::builtin(Version::V10)];
        let options = CompileOptions::default();
        for content in [
            "<a2ui>\nroot = Text(\"Hi\"\n</a2ui>",
            "<a2ui>\nroot = Text(\"Hi\"\n```\n</a2ui>",
            "Hi.\n<a2ui>\n```\n  x = Text(\"a\")\n```\nroot = Sparkline([1])\n</a2ui>",
            "Hi.\n<a2ui>\n``` \n</a2ui>",
            "<a2ui>\nroot = Text(\"Hi\")",
            "<a2ui>x = 1</a2ui>",
        ] {
            let whole = parse_response(content, &catalogs, &options, true).unwrap_err();
            let mut parser = ExpressParser::new(&catalogs, options.clone()).unwrap();
            let mut parts = parser.feed(content);
            parts.extend(parser.finish());
            let streamed = parts.into_iter().find_map(Result::err).unwrap();
            assert_eq!(
                (whole.kind(), whole.offset()),
                (streamed.kind(), streamed.offset()),
                "{content:?}: {whole} / {streamed}"
            );
        }
    }
}
