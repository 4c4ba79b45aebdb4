//! Parts as the official suites write them (`{"text": ...}`, `{"a2ui": [...]}`,
//! `{"a2ui_raw": ..., "is_final": false}`), for the direct-JSON and Express runners.

use a2ui_stream::official::direct::{Part, RawPart};
use serde_json::{Value, json};

/// A parsed part as the suites write it.
pub fn suite_part(part: &Part) -> Value {
    match part {
        Part::Text(text) => json!({"text": text}),
        Part::A2ui(messages) => json!({"a2ui": messages}),
    }
}

/// A raw part (of `unwrap`) as the suites write it: `is_final` only when false.
pub fn raw_part(part: &RawPart) -> Value {
    match part {
        RawPart::Text(text) => json!({"text": text}),
        RawPart::A2uiRaw {
            raw,
            is_final: true,
        } => json!({"a2ui_raw": raw}),
        RawPart::A2uiRaw {
            raw,
            is_final: false,
        } => json!({"a2ui_raw": raw, "is_final": false}),
    }
}

/// A raw part the suites write.
pub fn suite_raw(part: &Value) -> Result<RawPart, String> {
    if let Some(text) = part.get("text").and_then(Value::as_str) {
        return Ok(RawPart::Text(text.to_owned()));
    }
    let raw = part
        .get("a2ui_raw")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{part} is neither text nor a payload"))?;
    Ok(RawPart::A2uiRaw {
        raw: raw.to_owned(),
        is_final: part.get("is_final") != Some(&Value::Bool(false)),
    })
}
