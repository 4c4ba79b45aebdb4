//! Writing A2UI messages in the order a streaming reader needs.
//!
//! The splitter hands a component out the moment its object closes, but it can only do so once
//! it knows what the message is: a v0.9 `updateComponents` is recognised by its key, and it must
//! come after `version` and `surfaceId` for the components that follow to go out one by one.
//! `serde_json` writes object keys sorted (`{"updateComponents":…,"version":"v0.9"}`), so a
//! message built with `json!` and streamed as text would show nothing until its last bytes.
//! [`to_streaming_json`] writes the identifying keys first and the long lists last.

use serde_json::Value;

/// Where a key goes: identification first, long lists last, the rest in between (by name).
fn key_rank(key: &str) -> u8 {
    match key {
        "version" => 0,
        "surfaceId" => 1,
        "id" => 2,
        "component" => 3,
        "components" | "contents" | "value" => 9,
        _ => 5,
    }
}

/// Compact JSON of an A2UI message with its keys in streaming order: `version`, `surfaceId`,
/// `id` and `component` first, the message's kind and other fields next, and `components`,
/// `contents` and `value` (the bulk) last, at every depth. Equal to the input as JSON; only the
/// order of keys differs.
///
/// ```
/// use a2ui_stream::{to_streaming_json, Event, Splitter};
/// use serde_json::json;
///
/// let card = json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
///     {"id": "root", "component": "Card", "child": "t"},
///     {"id": "t", "component": "Text", "text": "Hello"}]}});
/// let text = to_streaming_json(&card);
/// assert!(text.starts_with(r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root""#));
/// assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), card);
///
/// // Streamed, the first component goes out before the second is written.
/// let cut = text.find(r#"{"id":"t""#).unwrap();
/// let mut splitter = a2ui_stream::Splitter::with_config(a2ui_stream::Config::bare());
/// let early: Vec<_> = splitter.feed(text[..cut].as_bytes()).collect();
/// assert!(matches!(&early[0], Ok(Event::Message(m)) if m.as_str().contains(r#""id":"root""#)));
/// ```
pub fn to_streaming_json(message: &Value) -> String {
    let mut out = String::new();
    write(message, &mut out);
    out
}

fn write(v: &Value, out: &mut String) {
    match v {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| key_rank(a.0).cmp(&key_rank(b.0)).then(a.0.cmp(b.0)));
            out.push('{');
            for (i, (k, val)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write(val, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}
