//! Limits and syntax that hold for every message: how deep it nests, how deep function calls
//! nest, and data-binding paths.

use serde_json::Value;

use super::{ValidationError, MAX_FUNC_CALL_DEPTH, MAX_GLOBAL_DEPTH};

/// Whether `path` is acceptable as a data path: absolute (`/a/b`) or relative (`a/b`), where
/// every `~` is an escape `~0` or `~1` as in JSON Pointer.
///
/// ```
/// use a2ui_stream::official::validator::is_valid_data_path;
/// assert!(is_valid_data_path("/items/0/name"));
/// assert!(is_valid_data_path("name"));
/// assert!(is_valid_data_path("/a~1b"));
/// assert!(!is_valid_data_path("/invalid/escape/~2"));
/// ```
pub fn is_valid_data_path(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes
        .iter()
        .enumerate()
        .all(|(i, b)| *b != b'~' || matches!(bytes.get(i + 1), Some(b'0' | b'1')))
}

/// Checks one message for nesting deeper than [`MAX_GLOBAL_DEPTH`], `functionCall`s (objects
/// with `call` and `args`) nested deeper than [`MAX_FUNC_CALL_DEPTH`], and `path` strings that
/// are not valid data paths.
///
/// ```
/// use a2ui_stream::official::validator::check_depth_and_paths;
/// use serde_json::json;
/// assert!(check_depth_and_paths(&json!({"text": {"path": "/ok"}})).is_ok());
/// let mut deep = json!({});
/// for _ in 0..60 { deep = json!({"next": deep}); }
/// assert!(check_depth_and_paths(&deep).unwrap_err().message().starts_with("Global recursion limit exceeded"));
/// ```
pub fn check_depth_and_paths(message: &Value) -> Result<(), ValidationError> {
    traverse(message, 0, 0)
}

pub(super) fn traverse(item: &Value, depth: usize, calls: usize) -> Result<(), ValidationError> {
    if depth > MAX_GLOBAL_DEPTH {
        return Err(ValidationError::new(format!(
            "Global recursion limit exceeded: Depth > {MAX_GLOBAL_DEPTH}"
        )));
    }
    match item {
        Value::Array(items) => {
            for x in items {
                traverse(x, depth + 1, calls)?;
            }
        }
        Value::Object(map) => {
            // One look at each key finds the three that matter (cheaper than three look-ups in
            // the small objects messages are made of).
            let (mut path, mut call, mut args) = (None, false, false);
            for (k, v) in map {
                match k.as_str() {
                    "path" => path = Some(v),
                    "call" => call = true,
                    "args" => args = true,
                    _ => {}
                }
            }
            if let Some(Value::String(path)) = path {
                if !is_valid_data_path(path) {
                    return Err(ValidationError::new(format!(
                        "Invalid path syntax: '{path}'"
                    )));
                }
            }
            let is_call = call && args;
            if is_call && calls >= MAX_FUNC_CALL_DEPTH {
                return Err(ValidationError::new(format!(
                    "Recursion limit exceeded: functionCall depth > {MAX_FUNC_CALL_DEPTH}"
                )));
            }
            for (k, v) in map {
                let inner = if is_call && k == "args" {
                    calls + 1
                } else {
                    calls
                };
                traverse(v, depth + 1, inner)?;
            }
        }
        _ => {}
    }
    Ok(())
}
