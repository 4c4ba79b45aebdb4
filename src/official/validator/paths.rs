//! Limits and syntax that hold for every message: how deep it nests, how deep function calls
//! nest, and data-binding paths.

use serde_json::Value;

use super::{ErrorKind, MAX_FUNC_CALL_DEPTH, MAX_GLOBAL_DEPTH, ValidationError};
use crate::official::catalog::Version;

/// Whether `path` is acceptable as a data path: absolute (`/a/b`) or relative (`a/b`), where
/// every `~` is an escape `~0` or `~1` as in JSON Pointer.
fn is_valid_data_path(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes
        .iter()
        .enumerate()
        .all(|(i, b)| *b != b'~' || matches!(bytes.get(i + 1), Some(b'0' | b'1')))
}

/// Checks one message for nesting deeper than [`MAX_GLOBAL_DEPTH`], `functionCall`s (objects
/// with `call` and `args`) nested deeper than [`MAX_FUNC_CALL_DEPTH`], and `path` strings that
/// are not valid data paths.
#[cfg(test)]
pub(crate) fn check_depth_and_paths(message: &Value) -> Result<(), ValidationError> {
    traverse(message, 0, 0, Keys::Plain)
}

/// The keys that hold a data path and name a function: `path` and `call` (v0.8, v0.9), and
/// also `@path` and `@call` (v1.0, whose bindings are `{"@path": ..}` and
/// `{"@call": .., "args": ..}`; a list template's `path` stays).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Keys {
    Plain,
    At,
}

impl Keys {
    pub(super) fn of(version: Version) -> Keys {
        match version {
            Version::V08 | Version::V09 => Keys::Plain,
            Version::V10 => Keys::At,
        }
    }

    fn is_path(self, key: &str) -> bool {
        key == "path" || (self == Keys::At && key == "@path")
    }

    fn is_call(self, key: &str) -> bool {
        key == "call" || (self == Keys::At && key == "@call")
    }
}

/// Checks `item`, found `depth` levels down and inside `calls` function calls, as
/// [`check_depth_and_paths`] does; the error is the first one a walk in key order meets.
pub(super) fn traverse(
    item: &Value,
    depth: usize,
    calls: usize,
    keys: Keys,
) -> Result<(), ValidationError> {
    // Nearly every message passes: one quick look says so, and only one that may not is walked
    // again, for its first error.
    if passes(item, depth, calls, keys) {
        return Ok(());
    }
    first_fault(item, depth, calls, keys)
}

/// True when [`first_fault`] finds nothing in `item`: one pass over each object (its `path`
/// checked where it is met), counting every `args` as a call's arguments. That counts some
/// calls that are not (an `args` without `call` beside it), so it may say no where
/// [`first_fault`] would pass, never the other way round.
fn passes(item: &Value, depth: usize, calls: usize, keys: Keys) -> bool {
    if depth > MAX_GLOBAL_DEPTH {
        return false;
    }
    match item {
        Value::Array(items) => items.iter().all(|x| passes(x, depth + 1, calls, keys)),
        Value::Object(map) => {
            let (mut call, mut args) = (false, false);
            for (k, v) in map {
                let inner = match (k.as_str(), v) {
                    (key, Value::String(path)) if keys.is_path(key) => {
                        if !is_valid_data_path(path) {
                            return false;
                        }
                        calls
                    }
                    (key, _) if keys.is_call(key) => {
                        call = true;
                        calls
                    }
                    ("args", _) => {
                        args = true;
                        calls + 1
                    }
                    _ => calls,
                };
                let ok = match v {
                    Value::Array(_) | Value::Object(_) => passes(v, depth + 1, inner, keys),
                    _ => depth < MAX_GLOBAL_DEPTH,
                };
                if !ok {
                    return false;
                }
            }
            !(call && args && calls >= MAX_FUNC_CALL_DEPTH)
        }
        _ => true,
    }
}

/// The first fault in `item` (see [`traverse`]).
fn first_fault(
    item: &Value,
    depth: usize,
    calls: usize,
    keys: Keys,
) -> Result<(), ValidationError> {
    if depth > MAX_GLOBAL_DEPTH {
        return Err(ValidationError::new(
            ErrorKind::TooDeep,
            format!("Global recursion limit exceeded: Depth > {MAX_GLOBAL_DEPTH}"),
        ));
    }
    match item {
        Value::Array(items) => {
            for x in items {
                first_fault(x, depth + 1, calls, keys)?;
            }
        }
        Value::Object(map) => {
            // One look at each key finds the three that matter (cheaper than three look-ups in
            // the small objects messages are made of).
            let (mut call, mut args) = (false, false);
            for (k, v) in map {
                if keys.is_path(k) {
                    if let Value::String(path) = v {
                        if !is_valid_data_path(path) {
                            return Err(ValidationError::new(
                                ErrorKind::PathSyntax,
                                format!("Invalid path syntax: '{path}'"),
                            ));
                        }
                    }
                } else if keys.is_call(k) {
                    call = true;
                } else if k == "args" {
                    args = true;
                }
            }
            let is_call = call && args;
            if is_call && calls >= MAX_FUNC_CALL_DEPTH {
                return Err(ValidationError::new(
                    ErrorKind::TooDeep,
                    format!("Recursion limit exceeded: functionCall depth > {MAX_FUNC_CALL_DEPTH}"),
                ));
            }
            for (k, v) in map {
                let inner = if is_call && k == "args" {
                    calls + 1
                } else {
                    calls
                };
                first_fault(v, depth + 1, inner, keys)?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::official::json_trees::json_trees;
    use proptest::prelude::*;

    /// Small trees of the keys the check looks at, with paths good and bad.
    fn tree() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            (0..3i64).prop_map(Value::from),
            prop_oneof![Just("/ok"), Just("a~0b"), Just("~2"), Just("end~")].prop_map(Value::from),
        ];
        let key = prop_oneof![
            3 => Just("args"),
            3 => Just("call"),
            2 => Just("@call"),
            1 => Just("path"),
            1 => Just("@path"),
            1 => Just("a"),
        ];
        json_trees(leaf, key, 6, 48)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]
        /// The quick look never passes what the full walk rejects, and the check reports the
        /// walk's first error; started near both limits, so that shallow trees reach them.
        #[test]
        fn the_quick_look_agrees_with_the_walk(
            item in tree(),
            depth in (MAX_GLOBAL_DEPTH - 4)..=(MAX_GLOBAL_DEPTH + 1),
            calls in 0..=(MAX_FUNC_CALL_DEPTH + 1),
            at in any::<bool>(),
        ) {
            let keys = if at { Keys::At } else { Keys::Plain };
            let walked = first_fault(&item, depth, calls, keys).map_err(|e| e.message().to_owned());
            if passes(&item, depth, calls, keys) {
                prop_assert!(walked.is_ok());
            }
            let checked = traverse(&item, depth, calls, keys).map_err(|e| e.message().to_owned());
            prop_assert_eq!(checked, walked);
        }
    }
}
