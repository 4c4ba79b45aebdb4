//! Whole-response parsing: a finished model response split into prose and A2UI JSON parts, with
//! the usual slips in the JSON repaired.
//!
//! A response holds A2UI JSON between `<a2ui-json>` and `</a2ui-json>` tags, with prose around
//! the blocks. [`parse_response`] returns one [`ResponsePart`] per block (the prose before it
//! and the block's messages) and a last text-only part for prose after the last block.
//! [`parse_and_fix`] reads one block: it turns smart quotes into plain ones, drops trailing commas
//! when the JSON does not parse as written, and wraps a single message in a list.
//!
//! ```
//! use a2ui_stream::official::legacy::response::{has_a2ui_parts, parse_response};
//! use serde_json::json;
//!
//! let reply = "Here it is:\n<a2ui-json>\n```json\n[{\"deleteSurface\": {\"surfaceId\": \"s\"},},]\n```\n</a2ui-json>\nBye";
//! assert!(has_a2ui_parts(reply));
//! let parts = parse_response(reply)?;
//! assert_eq!(parts[0].text, "Here it is:");
//! assert_eq!(parts[0].a2ui_json, Some(vec![json!({"deleteSurface": {"surfaceId": "s"}})]));
//! assert_eq!((parts[1].text.as_str(), parts[1].a2ui_json.is_none()), ("Bye", true));
//! # Ok::<(), a2ui_stream::official::legacy::response::ResponseError>(())
//! ```

use crate::find::{find_either, string_end};
use crate::framing::{self, Act, Class, Dialect};

use serde_json::Value;

/// The tag that opens an A2UI JSON block.
///
/// ```
/// use a2ui_stream::official::legacy::response::{has_a2ui_parts, CLOSE_TAG, OPEN_TAG};
/// let reply = format!("Hi {OPEN_TAG}[]{CLOSE_TAG}");
/// assert_eq!(OPEN_TAG, "<a2ui-json>");
/// assert!(has_a2ui_parts(&reply));
/// ```
pub const OPEN_TAG: &str = framing::OPEN_TAG;
/// The tag that closes an A2UI JSON block.
///
/// ```
/// use a2ui_stream::official::legacy::response::{has_a2ui_parts, CLOSE_TAG, OPEN_TAG};
/// assert_eq!(CLOSE_TAG, "</a2ui-json>");
/// assert!(!has_a2ui_parts(OPEN_TAG)); // a block needs both tags
/// ```
pub const CLOSE_TAG: &str = framing::CLOSE_TAG;

/// One part of a response: prose, and the A2UI messages of the block that follows it.
///
/// ```
/// use a2ui_stream::official::legacy::response::{parse_response, ResponsePart};
/// use serde_json::json;
/// let parts = parse_response("Done. <a2ui-json>{\"deleteSurface\": {\"surfaceId\": \"s\"}}</a2ui-json> Bye.")?;
/// assert_eq!(parts, vec![
///     // A single message is wrapped in a list; the prose after the last block is a part of
///     // its own.
///     ResponsePart { text: "Done.".into(), a2ui_json: Some(vec![json!({"deleteSurface": {"surfaceId": "s"}})]) },
///     ResponsePart { text: "Bye.".into(), a2ui_json: None },
/// ]);
/// # Ok::<(), a2ui_stream::official::legacy::response::ResponseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResponsePart {
    /// The prose before the block, trimmed (may be empty).
    pub text: String,
    /// The block's messages; `None` for prose after the last block.
    pub a2ui_json: Option<Vec<Value>>,
}

/// A response could not be parsed: its kind and, in the reference implementation's words, what
/// happened (it has no offset).
///
/// ```
/// use a2ui_stream::official::legacy::response::{ResponseErrorKind, parse_response};
/// let err = parse_response("<a2ui-json>[{\"a\": </a2ui-json>").unwrap_err();
/// assert!(err.to_string().starts_with("Failed to parse JSON"));
/// assert_eq!((err.kind(), err.offset()), (ResponseErrorKind::NotJson, None));
/// assert_eq!(err.to_string(), err.message());
/// assert_eq!(parse_response("Only text.").unwrap_err().kind(), ResponseErrorKind::NoBlock);
/// ```
pub type ResponseError = crate::Error<ResponseErrorKind>;

/// Why a response could not be parsed.
///
/// ```
/// use a2ui_stream::official::legacy::response::{ResponseErrorKind, parse_response};
/// let err = parse_response("<a2ui-json> </a2ui-json>").unwrap_err();
/// assert_eq!((err.kind(), err.message()), (ResponseErrorKind::EmptyBlock, "A2UI JSON part is empty."));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ResponseErrorKind {
    /// No block with both tags.
    NoBlock,
    /// A block holds nothing once markdown fences are removed.
    EmptyBlock,
    /// A block is not JSON, even after repair.
    NotJson,
}

type ErrorKind = ResponseErrorKind;

/// A response error saying `message`.
fn error(kind: ErrorKind, message: impl Into<String>) -> ResponseError {
    ResponseError::of(kind, None, message)
}

/// Whether `content` contains both an opening and a closing A2UI tag.
///
/// ```
/// use a2ui_stream::official::legacy::response::has_a2ui_parts;
/// assert!(has_a2ui_parts("a <a2ui-json>[]</a2ui-json> b"));
/// assert!(!has_a2ui_parts("a <a2ui-json> b"));
/// ```
pub fn has_a2ui_parts(content: &str) -> bool {
    find_exact(content, Act::OpenBlock).is_some() && find_exact(content, Act::CloseBlock).is_some()
}

/// Where the first whole tag `want` is in `text`, read as the SDK reads it.
fn find_exact(text: &str, want: Act) -> Option<usize> {
    match framing::find_tag(text.as_bytes(), want, Dialect::Exact)? {
        (at, Class::Match(..)) => Some(at),
        _ => None,
    }
}

/// Splits a complete response into parts; see the [module documentation](self).
///
/// Fails when the response has no complete tagged block (`A2UI tags '<a2ui-json>' and
/// '</a2ui-json>' not found in response.`), when a block is empty once markdown fences are
/// removed (`A2UI JSON part is empty.`), or when a block is not JSON even after repair
/// (`Failed to parse JSON: ...`).
///
/// ```
/// use a2ui_stream::official::legacy::response::parse_response;
/// let err = parse_response("Only text.").unwrap_err();
/// assert!(err.message().contains("not found in response"));
/// ```
pub fn parse_response(content: &str) -> Result<Vec<ResponsePart>, ResponseError> {
    let mut parts = Vec::new();
    let mut last_end = 0;
    let mut search = 0;
    while let Some(open) = content
        .get(search..)
        .and_then(|rest| find_exact(rest, Act::OpenBlock))
    {
        let body_start = search + open + OPEN_TAG.len();
        let Some(close) = content
            .get(body_start..)
            .and_then(|rest| find_exact(rest, Act::CloseBlock))
        else {
            break;
        };
        let body_end = body_start + close;
        let text = content
            .get(last_end..search + open)
            .unwrap_or_default()
            .trim();
        let body = strip_fences(content.get(body_start..body_end).unwrap_or_default());
        if body.is_empty() {
            return Err(error(ErrorKind::EmptyBlock, "A2UI JSON part is empty."));
        }
        parts.push(ResponsePart {
            text: text.to_owned(),
            a2ui_json: Some(parse_and_fix(body)?),
        });
        last_end = body_end + CLOSE_TAG.len();
        search = last_end;
    }
    if parts.is_empty() {
        return Err(error(
            ErrorKind::NoBlock,
            format!("A2UI tags '{OPEN_TAG}' and '{CLOSE_TAG}' not found in response."),
        ));
    }
    let trailing = content.get(last_end..).unwrap_or_default().trim();
    if !trailing.is_empty() {
        parts.push(ResponsePart {
            text: trailing.to_owned(),
            a2ui_json: None,
        });
    }
    Ok(parts)
}

/// Removes surrounding whitespace and a markdown code fence (` ```json ` or ` ``` `) around a
/// block's JSON.
fn strip_fences(block: &str) -> &str {
    let mut s = block.trim();
    if let Some(rest) = s.strip_prefix("```json") {
        s = rest;
    } else if let Some(rest) = s.strip_prefix("```") {
        s = rest;
    }
    if let Some(rest) = s.strip_suffix("```") {
        s = rest;
    }
    s.trim()
}

/// Parses one block of A2UI JSON into a list of messages, repairing what models commonly get
/// wrong: smart quotes (`“ ” ‘ ’`) become plain quotes, trailing commas before `]` or `}` are
/// dropped if the JSON does not parse as written, and a single object is wrapped in a list.
///
/// ```
/// use a2ui_stream::official::legacy::response::parse_and_fix;
/// use serde_json::json;
/// assert_eq!(parse_and_fix(r#"{"type": “Text”, "text": "It’s",}"#)?,
///            vec![json!({"type": "Text", "text": "It's"})]);
/// assert!(parse_and_fix("not json").unwrap_err().message().starts_with("Failed to parse JSON"));
/// # Ok::<(), a2ui_stream::official::legacy::response::ResponseError>(())
/// ```
pub fn parse_and_fix(payload: &str) -> Result<Vec<Value>, ResponseError> {
    let normalized =
        String::from_utf8_lossy(&crate::scan::straighten(payload.as_bytes())).into_owned();
    match parse_list(&normalized) {
        Ok(list) => Ok(list),
        Err(_) => parse_list(&remove_trailing_commas(&normalized)),
    }
}

fn parse_list(payload: &str) -> Result<Vec<Value>, ResponseError> {
    match serde_json::from_str::<Value>(payload) {
        Ok(Value::Array(list)) => Ok(list),
        Ok(single) => Ok(vec![single]),
        Err(e) => Err(error(
            ErrorKind::NotJson,
            format!("Failed to parse JSON: {e}"),
        )),
    }
}

/// Drops every comma that is followed (after optional whitespace) by `]` or `}`, outside
/// string literals.
///
/// ```
/// use a2ui_stream::official::legacy::response::remove_trailing_commas;
/// assert_eq!(remove_trailing_commas(r#"[1, {"a": "x,]",} ,]"#), r#"[1, {"a": "x,]"} ]"#);
/// ```
pub fn remove_trailing_commas(json: &str) -> String {
    let bytes = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let mut copied = 0;
    let mut i = 0;
    while let Some(at) = bytes
        .get(i..)
        .and_then(|rest| find_either(b'"', b',', rest))
    {
        i += at;
        if bytes.get(i) == Some(&b'"') {
            let mut escaped = false;
            let rest = bytes.get(i + 1..).unwrap_or_default();
            match string_end(rest, &mut escaped) {
                Some(end) => i += end + 2,
                None => break,
            }
            continue;
        }
        let next = bytes
            .get(i + 1..)
            .unwrap_or_default()
            .iter()
            .find(|c| !c.is_ascii_whitespace());
        if matches!(next, Some(b']' | b'}')) {
            out.push_str(json.get(copied..i).unwrap_or_default());
            copied = i + 1;
        }
        i += 1;
    }
    out.push_str(json.get(copied..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn multiple_blocks_and_unclosed_tail() {
        let parts =
            parse_response("a<a2ui-json>[1]</a2ui-json>b<a2ui-json>{}</a2ui-json> <a2ui-json>[")
                .unwrap();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[1].text, "b");
        assert_eq!(parts[1].a2ui_json, Some(vec![json!({})]));
        assert_eq!(parts[2].text, "<a2ui-json>[");
    }

    #[test]
    fn escaped_quote_in_string_keeps_comma() {
        assert_eq!(
            remove_trailing_commas(r#"["a\",]",]"#),
            r#"["a\",]"]"#.to_owned()
        );
    }

    #[test]
    fn smart_quotes_become_plain_ones() {
        assert_eq!(
            &*crate::scan::straighten("“a” ‘b’".as_bytes()),
            b"\"a\" 'b'"
        );
    }

    #[test]
    fn non_ascii_text_is_kept() {
        let parts = parse_response("café ☕<a2ui-json>[\"é\",]</a2ui-json>").unwrap();
        assert_eq!(parts[0].text, "café ☕");
        assert_eq!(parts[0].a2ui_json, Some(vec![json!("é")]));
    }
}
