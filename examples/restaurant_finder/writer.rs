//! How the demo writes A2UI as a model would: compact JSON with the keys that say what a message
//! is first, and the messages of one answer as a JSON array between `<a2ui-json>` tags.

use serde_json::Value;

/// Where a key goes when a message is written out: identification first, long lists last, so a
/// streaming reader learns what a message is before its bulk arrives.
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

/// Compact JSON text of `v` with object keys in reading order (see [`key_rank`]), as a model
/// writing A2UI would put them.
pub fn to_json(v: &Value) -> String {
    let mut out = String::new();
    write_json(v, &mut out);
    out
}

fn write_json(v: &Value, out: &mut String) {
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
                write_json(val, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// The messages of one answer as the block a model writes: a JSON array between
/// `<a2ui-json>` tags, one message a line.
pub fn block(messages: &[Value]) -> String {
    let body: Vec<String> = messages.iter().map(to_json).collect();
    format!("<a2ui-json>\n[\n{}\n]\n</a2ui-json>", body.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::{self, Version};

    #[test]
    fn writes_identifying_keys_first() {
        let text = to_json(&ui::delete_surface(Version::V09, "s"));
        assert_eq!(
            text,
            r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}"#
        );
        let list = ui::restaurant_list(Version::V09, "T", &[]);
        assert!(to_json(&list[1]).starts_with(r#"{"version":"v0.9","updateComponents":{"surfaceId":"restaurant-list","components":[{"id":"root","component":"Column""#));
        let heading = ui::restaurant_list(Version::V10, "T", &[]);
        assert!(to_json(&heading[1]).contains(
            r##"{"id":"list_title","component":"Text","text":{"@call":"formatString","args":{"value":"# ${/title}"}}}"##
        ));
        assert_eq!(
            block(&[ui::delete_surface(Version::V08, "s")]),
            "<a2ui-json>\n[\n{\"deleteSurface\":{\"surfaceId\":\"s\"}}\n]\n</a2ui-json>"
        );
    }
}
