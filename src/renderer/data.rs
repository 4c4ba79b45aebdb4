//! A surface's data model: a value set at a JSON Pointer (v0.9 and later, and the renderer's
//! own writes), and v0.8's key/value `contents` set at a slash-separated path, both as
//! `@a2ui/web_core` applies them.
//!
//! - JSON Pointer (`set`): `""` and `"/"` are the whole model; `~1` and `~0` are unescaped;
//!   a missing (or `null`) parent is made, a list when the next segment is an index (`0`, `12`),
//!   else an object; an index past the end pads the list with `null`s; `null` deletes a member
//!   (and empties a list item), and the whole model becomes `{}`. Every check is made before
//!   the model changes, so a path that fails leaves it as it was.
//! - v0.8 (`set_v08`): `contents` becomes a map (a `valueMap` a nested map), one entry with key
//!   `.` the value itself; at the root the whole model is replaced by the map, elsewhere the
//!   value at the path is, and levels that are missing or not maps become maps.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::error::RenderErrorKind;

/// The largest list index a path may name: a path cannot make the model pad a list without
/// bound.
pub(super) const MAX_INDEX: usize = 10_000;

/// The unescaped segments of a JSON Pointer; none for the whole model. A path without its
/// leading `/` is read as if it had one.
fn segments(path: &str) -> Vec<Cow<'_, str>> {
    if path.is_empty() || path == "/" {
        return Vec::new();
    }
    path.strip_prefix('/')
        .unwrap_or(path)
        .split('/')
        .map(|s| {
            if s.contains('~') {
                Cow::Owned(s.replace("~1", "/").replace("~0", "~"))
            } else {
                Cow::Borrowed(s)
            }
        })
        .collect()
}

/// The list index a segment names: `0` or digits without a leading zero (a number too large
/// for `usize` reads as `usize::MAX`, past any limit).
fn index(segment: &str) -> Option<usize> {
    let digits = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
    if !digits || (segment.len() > 1 && segment.starts_with('0')) {
        return None;
    }
    Some(segment.parse().unwrap_or(usize::MAX))
}

/// The value at `path`, if there is one.
pub(super) fn get<'a>(root: &'a Value, path: &str) -> Option<&'a Value> {
    let mut at = root;
    for segment in segments(path) {
        at = match at {
            Value::Object(m) => m.get(segment.as_ref())?,
            Value::Array(a) => a.get(index(&segment)?)?,
            _ => return None,
        };
    }
    Some(at)
}

/// Where a `set` lands: how many of the parents exist (as containers), or that there is
/// nothing to do.
enum Plan {
    /// The first `depth` parents are containers; the next one (if any) is missing or `null`.
    At { depth: usize },
    /// A `null` for a path that holds nothing: nothing to delete.
    Nothing,
}

/// Sets `value` at `path` (see the module's documentation), or says why not, leaving `root` as
/// it was.
pub(super) fn set(root: &mut Value, path: &str, value: Value) -> Result<(), RenderErrorKind> {
    let segments = segments(path);
    let Some((last, parents)) = segments.split_last() else {
        *root = if value.is_null() {
            Value::Object(Map::new())
        } else {
            value
        };
        return Ok(());
    };
    let depth = match plan(root, parents, last, value.is_null(), path)? {
        Plan::Nothing => return Ok(()),
        Plan::At { depth } => depth,
    };
    let (walked, rest) = parents.split_at(depth);
    let container = descend(root, walked).ok_or_else(|| through_scalar(path))?;
    match rest.split_first() {
        None => put(container, last, value, path),
        Some((missing, below)) => {
            // Everything from `missing` down is new: build it, then put it in place in one step.
            let mut fresh = value;
            for segment in below.iter().chain(std::iter::once(last)).rev() {
                fresh = wrap(segment, fresh, path)?;
            }
            put(container, missing, fresh, path)
        }
    }
}

/// Follows `path`'s parents without changing anything, and finds every reason it would fail.
fn plan(
    root: &Value,
    parents: &[Cow<'_, str>],
    last: &str,
    deleting: bool,
    path: &str,
) -> Result<Plan, RenderErrorKind> {
    let mut at = root;
    for (depth, segment) in parents.iter().enumerate() {
        let child = match at {
            Value::Object(m) => m.get(segment.as_ref()),
            Value::Array(a) => {
                let i = list_index(segment, path)?;
                a.get(i)
            }
            _ => return Err(through_scalar(path)),
        };
        match child {
            Some(c @ (Value::Object(_) | Value::Array(_))) => at = c,
            Some(Value::Null) | None => {
                if deleting {
                    return Ok(Plan::Nothing);
                }
                // The new levels below: each index within the limit.
                for s in parents.iter().skip(depth + 1).map(AsRef::as_ref) {
                    if index(s).is_some() {
                        list_index(s, path)?;
                    }
                }
                if index(last).is_some() {
                    list_index(last, path)?;
                }
                return Ok(Plan::At { depth });
            }
            Some(_) => return Err(through_scalar(path)),
        }
    }
    match at {
        Value::Object(m) if deleting && !m.contains_key(last) => Ok(Plan::Nothing),
        Value::Object(_) => Ok(Plan::At {
            depth: parents.len(),
        }),
        Value::Array(a) => {
            let i = list_index(last, path)?;
            if deleting && i >= a.len() {
                Ok(Plan::Nothing)
            } else {
                Ok(Plan::At {
                    depth: parents.len(),
                })
            }
        }
        _ => Err(through_scalar(path)),
    }
}

fn through_scalar(path: &str) -> RenderErrorKind {
    RenderErrorKind::PathThroughScalar {
        path: path.to_owned(),
    }
}

/// `segment` as an index into a list, within the limit.
fn list_index(segment: &str, path: &str) -> Result<usize, RenderErrorKind> {
    match index(segment) {
        None => Err(RenderErrorKind::NotAnIndex {
            path: path.to_owned(),
        }),
        Some(i) if i > MAX_INDEX => Err(RenderErrorKind::IndexTooLarge {
            path: path.to_owned(),
        }),
        Some(i) => Ok(i),
    }
}

/// The container `segments` lead to from `root`.
fn descend<'a>(root: &'a mut Value, segments: &[Cow<'_, str>]) -> Option<&'a mut Value> {
    let mut at = root;
    for segment in segments {
        at = match at {
            Value::Object(m) => m.get_mut(segment.as_ref())?,
            Value::Array(a) => a.get_mut(index(segment)?)?,
            _ => return None,
        };
    }
    Some(at)
}

/// A new level holding `inner` under `segment`: a list when it is an index, else an object.
fn wrap(segment: &str, inner: Value, path: &str) -> Result<Value, RenderErrorKind> {
    if index(segment).is_some() {
        let i = list_index(segment, path)?;
        let mut list = vec![Value::Null; i];
        list.push(inner);
        Ok(Value::Array(list))
    } else {
        let mut map = Map::new();
        map.insert(segment.to_owned(), inner);
        Ok(Value::Object(map))
    }
}

/// Sets member `segment` of `container` to `value` (`null` deletes).
fn put(
    container: &mut Value,
    segment: &str,
    value: Value,
    path: &str,
) -> Result<(), RenderErrorKind> {
    match container {
        Value::Object(m) => {
            if value.is_null() {
                m.remove(segment);
            } else {
                m.insert(segment.to_owned(), value);
            }
            Ok(())
        }
        Value::Array(a) => {
            let i = list_index(segment, path)?;
            if value.is_null() && i >= a.len() {
                return Ok(());
            }
            if a.len() <= i {
                a.resize(i + 1, Value::Null);
            }
            if let Some(slot) = a.get_mut(i) {
                *slot = value;
            }
            Ok(())
        }
        _ => Err(through_scalar(path)),
    }
}

/// The value a v0.8 `contents` list stands for.
pub(super) fn contents(entries: &[Value]) -> Result<Value, RenderErrorKind> {
    if let [only] = entries {
        if only.get("key").and_then(Value::as_str) == Some(".") {
            return entry_value(only);
        }
    }
    let mut map = Map::new();
    for entry in entries {
        let key = match entry.get("key") {
            Some(Value::String(k)) => k,
            Some(_) => {
                return Err(RenderErrorKind::WrongType {
                    field: "key",
                    expected: "a string",
                });
            }
            None => return Err(RenderErrorKind::MissingField { field: "key" }),
        };
        map.insert(key.clone(), entry_value(entry)?);
    }
    Ok(Value::Object(map))
}

/// The value of one v0.8 `contents` entry.
fn entry_value(entry: &Value) -> Result<Value, RenderErrorKind> {
    for field in ["valueString", "valueNumber", "valueBoolean"] {
        if let Some(v) = entry.get(field) {
            return Ok(v.clone());
        }
    }
    match entry.get("valueMap") {
        Some(Value::Array(inner)) => contents(inner),
        Some(_) => Err(RenderErrorKind::WrongType {
            field: "valueMap",
            expected: "a list of entries",
        }),
        None => Err(RenderErrorKind::MissingField { field: "value" }),
    }
}

/// Sets a v0.8 update's value at its path (see the module's documentation).
pub(super) fn set_v08(root: &mut Value, path: &str, value: Value) -> Result<(), RenderErrorKind> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let Some((last, parents)) = segments.split_last() else {
        if !value.is_object() {
            return Err(RenderErrorKind::RootNotAMap);
        }
        *root = value;
        return Ok(());
    };
    let mut at = root;
    for segment in parents {
        at = map_of(at)
            .ok_or(RenderErrorKind::RootNotAMap)?
            .entry((*segment).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    map_of(at)
        .ok_or(RenderErrorKind::RootNotAMap)?
        .insert((*last).to_owned(), value);
    Ok(())
}

/// The map `value` holds, after making it one if it was not (always `Some`).
fn map_of(value: &mut Value) -> Option<&mut Map<String, Value>> {
    if !value.is_object() {
        *value = Value::Object(Map::new());
    }
    value.as_object_mut()
}
