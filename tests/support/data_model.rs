//! A small model of a renderer's data model, as `@a2ui/web_core` 0.11.0 applies data-model
//! updates, to compare the state split updates leave with the state whole ones leave.
//!
//! - v0.9 and later (`DataModel.set`): the value at `path` (a JSON Pointer, `~1` and `~0`
//!   unescaped; absent or `/` for the root) is replaced; a missing parent is created (an array
//!   when the next segment is an index, else an object); an index one past the end appends;
//!   `null` deletes (message_processor_v1_0.yaml).
//! - v0.8 (`setDataByPath`): `contents` becomes a map (a `valueMap` a nested map); one entry with
//!   key `.` is the value itself; at the root the whole model is replaced by the map, elsewhere
//!   the value at the path is (missing levels are created as maps).

use serde_json::{Map, Value};

/// A message's effect, or `None` when the model cannot apply it (the test then fails).
pub fn apply(state: &mut Value, message: &Value) -> Option<()> {
    if let Some(body) = message.get("updateDataModel") {
        let path = body.get("path").and_then(Value::as_str).unwrap_or("/");
        let value = body.get("value").cloned().unwrap_or(Value::Null);
        return set_v09(state, path, value);
    }
    let body = message.get("dataModelUpdate")?;
    let path = body.get("path").and_then(Value::as_str).unwrap_or("/");
    let value = contents(body.get("contents")?.as_array()?)?;
    set_v08(state, path, value)
}

fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

fn set_v09(state: &mut Value, path: &str, value: Value) -> Option<()> {
    let segments: Vec<String> = path
        .split('/')
        .skip(1)
        .filter(|s| !s.is_empty() || path.len() > 1)
        .map(unescape)
        .collect();
    if path == "/" || path.is_empty() {
        *state = value;
        return Some(());
    }
    let (last, parents) = segments.split_last()?;
    let mut at = state;
    for (i, seg) in parents.iter().enumerate() {
        let next_is_index = segments
            .get(i + 1)
            .is_some_and(|s| s.parse::<usize>().is_ok());
        let fresh = || {
            if next_is_index {
                Value::Array(Vec::new())
            } else {
                Value::Object(Map::new())
            }
        };
        at = match at {
            Value::Object(m) => m.entry(seg.clone()).or_insert_with(fresh),
            Value::Array(a) => {
                let i: usize = seg.parse().ok()?;
                while a.len() <= i {
                    a.push(Value::Null);
                }
                let slot = a.get_mut(i)?;
                if slot.is_null() {
                    *slot = fresh();
                }
                slot
            }
            _ => return None,
        };
    }
    match at {
        Value::Object(m) => {
            if value.is_null() {
                m.remove(last);
            } else {
                m.insert(last.clone(), value);
            }
        }
        Value::Array(a) => {
            let i: usize = last.parse().ok()?;
            while a.len() <= i {
                a.push(Value::Null);
            }
            *a.get_mut(i)? = value;
        }
        _ => return None,
    }
    Some(())
}

/// The value a v0.8 `contents` list stands for.
fn contents(entries: &[Value]) -> Option<Value> {
    if let [only] = entries {
        if only.get("key").and_then(Value::as_str) == Some(".") {
            return entry_value(only);
        }
    }
    let mut map = Map::new();
    for e in entries {
        let key = e.get("key")?.as_str()?;
        map.insert(key.to_owned(), entry_value(e)?);
    }
    Some(Value::Object(map))
}

fn entry_value(e: &Value) -> Option<Value> {
    for field in ["valueString", "valueNumber", "valueBoolean"] {
        if let Some(v) = e.get(field) {
            return Some(v.clone());
        }
    }
    contents(e.get("valueMap")?.as_array()?)
}

fn set_v08(state: &mut Value, path: &str, value: Value) -> Option<()> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let Some((last, parents)) = segments.split_last() else {
        if !value.is_object() {
            return None;
        }
        *state = value;
        return Some(());
    };
    let mut at = state;
    for seg in parents {
        if !at.is_object() {
            *at = Value::Object(Map::new());
        }
        at = at
            .as_object_mut()?
            .entry((*seg).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    if !at.is_object() {
        *at = Value::Object(Map::new());
    }
    at.as_object_mut()?.insert((*last).to_owned(), value);
    Some(())
}
