//! Express spellings of single values: strings (escaped, raw or triple-quoted), numbers, map
//! keys, variable names and data paths, each written so that the grammar reads it back as the
//! same value.

use serde_json::Number;

/// Words that read as something other than a name: the skip placeholder and the literals.
const RESERVED: [&str; 4] = ["_", "true", "false", "null"];

/// Whether `text` is an identifier of the grammar (`[a-zA-Z_][a-zA-Z0-9_]*`).
pub(crate) fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `text` can be written as a name (a variable, a bare map key): an identifier that
/// does not read as a literal or as the placeholder `_`.
pub(crate) fn is_name(text: &str) -> bool {
    is_identifier(text) && !RESERVED.contains(&text)
}

/// A map key: bare when it is a name, quoted otherwise (`"item-id"`).
pub(crate) fn key(text: &str) -> String {
    if is_name(text) {
        text.to_owned()
    } else {
        string(text)
    }
}

/// A string literal holding `text`, in the plainest form that reads back as `text`:
///
/// * backslashes but no quote, line break or tab: a raw string (`r"C:\temp"`), so that the
///   backslashes show once;
/// * line breaks: a triple-quoted string (raw when it has backslashes), when `text` neither
///   holds `"""` nor ends in `"`;
/// * otherwise `"..."` with `\\`, `\"`, `\n`, `\r` and `\t` escaped.
pub(crate) fn string(text: &str) -> String {
    let backslash = text.contains('\\');
    let quote = text.contains('"');
    let tab = text.contains('\t');
    let line_break = text.contains('\n');
    let carriage_return = text.contains('\r');
    if backslash && !quote && !tab && !line_break && !carriage_return {
        return format!("r\"{text}\"");
    }
    let triple_safe = !text.contains("\"\"\"") && !text.ends_with('"') && !carriage_return;
    if line_break && triple_safe {
        return if backslash && !tab {
            format!("r\"\"\"{text}\"\"\"")
        } else {
            format!("\"\"\"{}\"\"\"", escaped(text, false))
        };
    }
    format!("\"{}\"", escaped(text, true))
}

/// `text` with backslashes and tabs escaped, and quotes, line feeds and carriage returns too
/// when `single_line`.
fn escaped(text: &str, single_line: bool) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '"' if single_line => out.push_str("\\\""),
            '\n' if single_line => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            other => out.push(other),
        }
    }
    out
}

/// A number as the grammar writes it (`-?[0-9]+(\.[0-9]+)?`): integers as they are, other
/// numbers in plain decimal notation, never with an exponent, and with a fraction when the
/// value is not an integer type (`2.0`), so that it reads back as the same JSON number.
pub(crate) fn number(n: &Number) -> String {
    if n.is_f64() {
        let value = n.as_f64().unwrap_or_default();
        let text = value.to_string();
        if text.contains('.') {
            text
        } else {
            format!("{text}.0")
        }
    } else {
        n.to_string()
    }
}

/// Whether `c` may appear in a data path (`$` followed by `[a-zA-Z0-9_/]*`).
fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '/'
}

/// A data binding's path written as Express (`/user/name` as `$/user/name`, `name` as
/// `$name`, the empty path as `$`), or `None` when the path holds a character a path cannot.
pub(crate) fn path(pointer: &str) -> Option<String> {
    pointer
        .chars()
        .all(is_path_char)
        .then(|| format!("${pointer}"))
}

/// Whether a data model key can be one segment of a written path: an identifier (a key of
/// digits alone would read as a list index).
pub(crate) fn is_path_segment(key: &str) -> bool {
    is_identifier(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_take_the_plainest_form() {
        assert_eq!(string("Hello"), r#""Hello""#);
        assert_eq!(string(r#"He said "hello"."#), r#""He said \"hello\".""#);
        assert_eq!(string(r"C:\temp\notes"), r#"r"C:\temp\notes""#);
        assert_eq!(string("a\\\"b"), r#""a\\\"b""#);
        assert_eq!(string("one\ntwo"), "\"\"\"one\ntwo\"\"\"");
        assert_eq!(string("one\n\\two"), "r\"\"\"one\n\\two\"\"\"");
        assert_eq!(string("one\n\"two\""), "\"one\\n\\\"two\\\"\"");
        assert_eq!(string("tab\there"), r#""tab\there""#);
        assert_eq!(string("cr\r\n"), r#""cr\r\n""#);
    }

    #[test]
    fn keys_and_names() {
        assert_eq!(key("itemId"), "itemId");
        assert_eq!(key("item-id"), r#""item-id""#);
        assert_eq!(key("true"), r#""true""#);
        assert_eq!(key("_"), r#""_""#);
        assert!(is_name("_private") && !is_name("9lives") && !is_name(""));
    }

    #[test]
    fn numbers_never_use_exponents() {
        let n = |v: serde_json::Value| number(v.as_number().unwrap_or(&Number::from(0)));
        assert_eq!(n(json!(42)), "42");
        assert_eq!(n(json!(-7)), "-7");
        assert_eq!(n(json!(2.5)), "2.5");
        assert_eq!(n(json!(2.0)), "2.0");
        assert_eq!(n(json!(1e21)), "1000000000000000000000.0");
        assert_eq!(n(json!(1.5e-7)), "0.00000015");
    }

    #[test]
    fn paths() {
        assert_eq!(path("/user/name").as_deref(), Some("$/user/name"));
        assert_eq!(path("name").as_deref(), Some("$name"));
        assert_eq!(path("").as_deref(), Some("$"));
        assert_eq!(path("/user-name"), None);
    }
}
