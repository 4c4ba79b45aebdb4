//! What changed in a data-model update being written, found without re-reading what came before.
//!
//! The reader walks down the open containers of the [`PartialJson`] stack from the message's
//! data (the `contents` list of a v0.8 `dataModelUpdate`, the `value` object of a v0.9
//! `updateDataModel`). At every level it looks only at members finished since its last visit
//! ([`Frame::fresh`](super::partial_json::Frame::fresh), [`Frame::seen`]) and at the member still
//! being written, and compares each with what was emitted so far (a tree of plain JSON values,
//! v0.8 entries turned into maps). Only differences are reported, each with its path, so the work
//! per visit is proportional to what was written since the last one. A container seen for the
//! first time is compared whole, which also notices that it replaces something larger.

use serde_json::{Map, Value};

use super::partial_json::{Body, Frame, PartialJson};

pub(crate) use crate::path::Step;

/// A value that differs from what was emitted at its path.
#[derive(Debug)]
pub(crate) struct Change {
    /// Where, from the top of the data (never empty).
    pub(crate) path: Vec<Step>,
    /// v0.8: the entry as written (incomplete entries pruned), to send it on by itself.
    pub(crate) entry: Option<Value>,
}

/// How a cut string is judged: `(key, text so far, enclosing object)`.
pub(crate) type Heal = fn(&str, &str, &Map<String, Value>) -> bool;

/// The emitted data model and the walk's output.
pub(crate) struct Walk<'a> {
    pub(crate) emitted: &'a mut Map<String, Value>,
    pub(crate) changes: Vec<Change>,
    pub(crate) heal: Heal,
    /// Keep v0.8 entries as written in the changes (to send them on by themselves).
    pub(crate) want_entries: bool,
    /// Keep each change in `changes`; without it only `changed` counts them (a caller that only
    /// asks whether anything changed spares copying their paths).
    pub(crate) keep_changes: bool,
    /// How many values were found to differ.
    pub(crate) changed: usize,
    /// The cut string in progress as [`PartialJson::cut_string`] gives it with `heal`, when the
    /// walk looked at it (`Some(None)`: nothing shown), for [`PartialJson::snapshot_with`].
    pub(crate) cut: Option<Option<String>>,
}

/// The value at `path` in the emitted tree.
pub(crate) fn value_at<'v>(emitted: &'v Map<String, Value>, path: &[Step]) -> Option<&'v Value> {
    let (Step::Key(first), rest) = path.split_first()? else {
        return None;
    };
    let mut node = emitted.get(first)?;
    for seg in rest {
        node = match (seg, node) {
            (Step::Key(k), Value::Object(m)) => m.get(k)?,
            (Step::Index(i), Value::Array(a)) => a.get(*i)?,
            _ => return None,
        };
    }
    Some(node)
}

/// The member `key` of the object at `path` in the emitted tree (the value at `path` and `key`).
fn value_under<'v>(emitted: &'v Map<String, Value>, path: &[Step], key: &str) -> Option<&'v Value> {
    if path.is_empty() {
        return emitted.get(key);
    }
    value_at(emitted, path)?.as_object()?.get(key)
}

/// [`value_under`], to change.
fn value_under_mut<'v>(
    emitted: &'v mut Map<String, Value>,
    path: &[Step],
    key: &str,
) -> Option<&'v mut Value> {
    let Some((Step::Key(first), rest)) = path.split_first() else {
        return emitted.get_mut(key);
    };
    let mut node = emitted.get_mut(first)?;
    for seg in rest {
        node = match (seg, node) {
            (Step::Key(k), Value::Object(m)) => m.get_mut(k)?,
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    node.as_object_mut()?.get_mut(key)
}

/// Puts `value` at `path`, making the containers on the way what the path needs.
fn set(emitted: &mut Map<String, Value>, path: &[Step], value: Value) {
    if let Some(slot) = slot_at(emitted, path) {
        *slot = value;
    }
}

/// The member `key` of the object at `path` (the top when `path` is empty), made as by [`set`]
/// (`null` when it is new).
fn slot_under<'m>(
    emitted: &'m mut Map<String, Value>,
    path: &[Step],
    key: &str,
) -> Option<&'m mut Value> {
    if path.is_empty() {
        return member_slot(emitted, key);
    }
    let slot = slot_at(emitted, path)?;
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    member_slot(slot.as_object_mut()?, key)
}

/// The place at `path`, making the containers on the way what the path needs (`null` when it
/// is new); `None` for a path that does not start with a key.
fn slot_at<'m>(emitted: &'m mut Map<String, Value>, path: &[Step]) -> Option<&'m mut Value> {
    let (Step::Key(first), rest) = path.split_first()? else {
        return None;
    };
    let mut slot = member_slot(emitted, first)?;
    for seg in rest {
        slot = match seg {
            Step::Key(k) => {
                if !slot.is_object() {
                    *slot = Value::Object(Map::new());
                }
                match slot {
                    Value::Object(m) => member_slot(m, k)?,
                    _ => return None,
                }
            }
            Step::Index(i) => {
                if !slot.is_array() {
                    *slot = Value::Array(Vec::new());
                }
                match slot {
                    Value::Array(a) => {
                        if a.len() <= *i {
                            a.resize(*i + 1, Value::Null);
                        }
                        a.get_mut(*i)?
                    }
                    _ => return None,
                }
            }
        };
    }
    Some(slot)
}

/// The member `key` of `map`, made `null` first when it is missing (a key met before is not
/// copied again).
fn member_slot<'m>(map: &'m mut Map<String, Value>, key: &str) -> Option<&'m mut Value> {
    if !map.contains_key(key) {
        map.insert(key.to_owned(), Value::Null);
    }
    map.get_mut(key)
}

impl Walk<'_> {
    /// Records `value` at `path` if it differs from what was emitted there.
    fn record(&mut self, path: &[Step], value: Value, entry: Option<Value>) {
        if path.is_empty() || value_at(self.emitted, path) == Some(&value) {
            return;
        }
        self.put(path, value, entry);
    }

    /// Records `value` at a non-empty `path` where it is known to differ from what was emitted.
    fn put(&mut self, path: &[Step], value: Value, entry: Option<Value>) {
        set(self.emitted, path, value);
        self.changed += 1;
        if self.keep_changes {
            self.changes.push(Change {
                path: path.to_vec(),
                entry,
            });
        }
    }

    /// Walks a message frame (`stack[1]`) whose payload sits under `kind`; `data` is the
    /// payload member holding the data (`contents` or `value`), `entries` says it is a v0.8
    /// entry list.
    pub(crate) fn message(
        &mut self,
        json: &mut PartialJson,
        kind: &str,
        data: &str,
        entries: bool,
    ) {
        let fresh = match json.stack.get_mut(1) {
            Some(frame) => std::mem::take(&mut frame.fresh),
            None => return,
        };
        let payload_open = json
            .stack
            .get(2)
            .is_some_and(|f| f.key.as_deref() == Some(kind));
        if !payload_open {
            // Finished since the last visit: look at its data once, whole.
            if fresh.iter().any(|k| k == kind) {
                if let Some(Value::Object(payload)) = member(json, 1, kind) {
                    self.closed_data(payload.get(data), entries);
                }
            }
            return;
        }
        let fresh = match json.stack.get_mut(2) {
            Some(frame) => std::mem::take(&mut frame.fresh),
            None => return,
        };
        let data_open = json
            .stack
            .get(3)
            .is_some_and(|f| f.key.as_deref() == Some(data));
        if data_open {
            let mut path = Vec::new();
            if entries {
                if matches!(
                    json.stack.get(3),
                    Some(Frame {
                        body: Body::Array(_),
                        ..
                    })
                ) {
                    self.entries(json, 3, &mut path);
                }
            } else if matches!(
                json.stack.get(3),
                Some(Frame {
                    body: Body::Object { .. },
                    ..
                })
            ) {
                self.json_level(json, 3, &mut path, true);
            }
        } else if fresh.iter().any(|k| k == data) {
            let closed = member(json, 2, data).cloned();
            self.closed_data(closed.as_ref(), entries);
        }
    }

    /// The data of a payload that finished: every member compared once.
    fn closed_data(&mut self, data: Option<&Value>, entries: bool) {
        match (data, entries) {
            (Some(Value::Array(list)), true) => {
                for entry in list {
                    self.closed_entry(entry, &mut Vec::new());
                }
            }
            (Some(Value::Object(map)), false) => {
                for (k, v) in map {
                    self.record(&[Step::Key(k.clone())], v.clone(), None);
                }
            }
            _ => {}
        }
    }

    /// A finished v0.8 entry at `path`.
    fn closed_entry(&mut self, entry: &Value, path: &mut Vec<Step>) {
        if let Some((key, value)) = entry_value(entry) {
            path.push(Step::Key(key));
            if self.differs(path, &value) {
                let pruned = self.want_entries.then(|| prune_entry(entry)).flatten();
                self.put(path, value, pruned);
            }
            path.pop();
        }
    }

    /// Whether `value` differs from what was emitted at `path`.
    fn differs(&self, path: &[Step], value: &Value) -> bool {
        value_at(self.emitted, path) != Some(value)
    }

    /// A v0.8 entry list open at `stack[idx]`, the map at `path`.
    fn entries(&mut self, json: &mut PartialJson, idx: usize, path: &mut Vec<Step>) {
        let Some(frame) = json.stack.get_mut(idx) else {
            return;
        };
        frame.visited = true;
        let Body::Array(items) = &frame.body else {
            return;
        };
        let start = std::mem::replace(&mut frame.seen, items.len());
        for entry in items.get(start..).unwrap_or_default() {
            self.closed_entry(entry, path);
        }
        // The entry being written: its key, and its value as far as it can be shown (a
        // finished scalar, a cut string, or a value map).
        let open = idx + 1;
        let top = json.stack.len().saturating_sub(1);
        let Some(Frame {
            key: None,
            body: Body::Object { map, .. },
            ..
        }) = json.stack.get(open)
        else {
            return;
        };
        let Some(key) = map
            .get("key")
            .and_then(Value::as_str)
            .filter(|k| !k.is_empty())
        else {
            return;
        };
        let cut = if open == top {
            json.cut_string(self.heal)
        } else {
            None
        };
        // The value is the first scalar field there is, finished or (when none before it is
        // finished) the cut string. Usually unchanged since the last visit: then nothing is
        // copied.
        let cut_place = cut.as_ref().and_then(|(k, _)| scalar_place(k));
        let written = match (entry_fields(map).first_scalar, &cut) {
            (Some((place, value)), _) if cut_place.is_none_or(|c| place <= c) => {
                let valued = !value.is_null();
                if valued && value_under(self.emitted, path, key) != Some(value) {
                    self.put_under(json, open, path, key, value.clone());
                }
                valued
            }
            (_, Some((_, text))) if cut_place.is_some() => {
                self.put_text(json, open, path, key, text);
                true
            }
            _ => false,
        };
        if open == top {
            self.cut = Some(cut.map(|(_, text)| text));
        }
        if written {
            return;
        }
        path.push(Step::Key(key.to_owned()));
        let nested = json
            .stack
            .get(open + 1)
            .filter(|f| f.key.as_deref() == Some("valueMap") && matches!(f.body, Body::Array(_)));
        match (nested, map.get("valueMap")) {
            (Some(list), _) if list.visited => self.entries(json, open + 1, path),
            (Some(_), _) => {
                // A value map seen for the first time: compared whole.
                if let Some(Value::Array(items)) = json.snapshot(open + 1, self.heal) {
                    let value = Value::Object(contents_to_dict(&items));
                    if self.differs(path, &value) {
                        let entry = self.entry_as_written(json, open);
                        self.put(path, value, entry);
                    }
                }
                mark_visited(json, open + 1);
            }
            (None, Some(Value::Array(items))) => {
                let value = Value::Object(contents_to_dict(items));
                if self.differs(path, &value) {
                    let entry = self.entry_as_written(json, open);
                    self.put(path, value, entry);
                }
            }
            (None, Some(Value::Object(m))) => {
                let value = Value::Object(m.clone());
                if self.differs(path, &value) {
                    let entry = self.entry_as_written(json, open);
                    self.put(path, value, entry);
                }
            }
            _ => {}
        }
        path.pop();
    }

    /// Records `value`, the value of the entry being written at `stack[open]`, under `key` of
    /// the map at `path`, where it is known to differ from what was emitted.
    fn put_under(
        &mut self,
        json: &PartialJson,
        open: usize,
        path: &mut Vec<Step>,
        key: &str,
        value: Value,
    ) {
        if let Some(slot) = slot_under(self.emitted, path, key) {
            *slot = value;
        }
        self.note(json, open, path, key);
    }

    /// Records `text`, the cut string of the entry being written at `stack[open]`, under `key`
    /// of the map at `path` if it differs from what was emitted there (written over an emitted
    /// string in place).
    fn put_text(
        &mut self,
        json: &PartialJson,
        open: usize,
        path: &mut Vec<Step>,
        key: &str,
        text: &str,
    ) {
        match value_under_mut(self.emitted, path, key) {
            Some(Value::String(s)) if s == text => {}
            Some(Value::String(s)) => {
                s.clear();
                s.push_str(text);
                self.note(json, open, path, key);
            }
            _ => self.put_under(json, open, path, key, Value::String(text.to_owned())),
        }
    }

    /// Counts a change of the value of the entry being written at `stack[open]`, under `key`
    /// of the map at `path`, and keeps it when changes are kept.
    fn note(&mut self, json: &PartialJson, open: usize, path: &mut Vec<Step>, key: &str) {
        self.changed += 1;
        if self.keep_changes {
            let entry = self.entry_as_written(json, open);
            path.push(Step::Key(key.to_owned()));
            self.changes.push(Change {
                path: path.clone(),
                entry,
            });
            path.pop();
        }
    }

    /// The open entry at `stack[open]` as written so far, pruned, when entries are wanted.
    fn entry_as_written(&self, json: &PartialJson, open: usize) -> Option<Value> {
        if !self.want_entries {
            return None;
        }
        json.snapshot(open, self.heal)
            .and_then(|entry| prune_entry(&entry))
    }

    /// A v0.9 JSON container open at `stack[idx]`, the value at `path`. At the top (`root`),
    /// members are compared one by one; deeper, a container seen for the first time is compared
    /// whole.
    fn json_level(&mut self, json: &mut PartialJson, idx: usize, path: &mut Vec<Step>, root: bool) {
        let Some(frame) = json.stack.get_mut(idx) else {
            return;
        };
        if !frame.visited && !root {
            if let Some(whole) = json.snapshot(idx, self.heal) {
                self.record(path, whole, None);
            }
            mark_visited(json, idx);
            return;
        }
        let first = !frame.visited;
        frame.visited = true;
        let fresh = std::mem::take(&mut frame.fresh);
        let mut finished: Vec<(Step, Value)> = Vec::new();
        match &frame.body {
            Body::Object { map, .. } => {
                if first {
                    finished.extend(map.iter().map(|(k, v)| (Step::Key(k.clone()), v.clone())));
                } else {
                    for k in fresh {
                        if let Some(v) = map.get(&k) {
                            finished.push((Step::Key(k), v.clone()));
                        }
                    }
                }
            }
            Body::Array(items) => {
                let start = if first { 0 } else { frame.seen };
                frame.seen = items.len();
                for (i, v) in items.iter().enumerate().skip(start) {
                    finished.push((Step::Index(i), v.clone()));
                }
            }
        }
        for (seg, value) in finished {
            path.push(seg);
            self.record(path, value, None);
            path.pop();
        }
        // The member being written.
        let next = match (json.stack.get(idx), json.stack.get(idx + 1)) {
            (
                Some(Frame {
                    body: Body::Object { .. },
                    ..
                }),
                Some(child),
            ) => child.key.clone().map(Step::Key),
            (
                Some(Frame {
                    body: Body::Array(items),
                    ..
                }),
                Some(_),
            ) => Some(Step::Index(items.len())),
            _ => None,
        };
        if let Some(seg) = next {
            path.push(seg);
            self.json_level(json, idx + 1, path, false);
            path.pop();
        } else if idx + 1 == json.stack.len() {
            if let Some((key, text)) = json.cut_string(self.heal) {
                path.push(Step::Key(key.to_owned()));
                self.record(path, Value::String(text), None);
                path.pop();
            }
        }
    }
}

/// The member `key` of the object at `stack[idx]`.
fn member<'j>(json: &'j PartialJson, idx: usize, key: &str) -> Option<&'j Value> {
    match json.stack.get(idx) {
        Some(Frame {
            body: Body::Object { map, .. },
            ..
        }) => map.get(key),
        _ => None,
    }
}

/// Marks `stack[from..]` as looked at, as they stand now.
fn mark_visited(json: &mut PartialJson, from: usize) {
    for frame in json.stack.iter_mut().skip(from) {
        frame.visited = true;
        frame.fresh.clear();
        if let Body::Array(items) = &frame.body {
            frame.seen = items.len();
        }
    }
}

/// Value fields of a v0.8 entry, in the order the reference looks at them.
pub(crate) const SCALAR_FIELDS: [&str; 4] = ["value", "valueString", "valueNumber", "valueBoolean"];

/// The place of `name` in [`SCALAR_FIELDS`], if it is one of them.
pub(crate) fn scalar_place(name: &str) -> Option<usize> {
    SCALAR_FIELDS.iter().position(|f| *f == name)
}

/// What one pass over the members of a v0.8 entry finds (an entry has few, where looking each
/// field up would take several passes).
pub(crate) struct EntryFields<'a> {
    /// Its `key` member.
    pub(crate) key: Option<&'a Value>,
    /// The first of the [`SCALAR_FIELDS`] it has, with its place there.
    pub(crate) first_scalar: Option<(usize, &'a Value)>,
    /// It has a `valueMap` member.
    pub(crate) value_map: bool,
}

/// [`EntryFields`] of the v0.8 entry `map`.
pub(crate) fn entry_fields(map: &Map<String, Value>) -> EntryFields<'_> {
    let mut fields = EntryFields {
        key: None,
        first_scalar: None,
        value_map: false,
    };
    for (name, value) in map {
        if name == "key" {
            fields.key = Some(value);
        } else if name == "valueMap" {
            fields.value_map = true;
        } else if let Some(place) = scalar_place(name) {
            if fields.first_scalar.is_none_or(|(before, _)| place < before) {
                fields.first_scalar = Some((place, value));
            }
        }
    }
    fields
}

/// The key of a v0.8 entry and its value as a plain JSON value (a value map becomes an
/// object), or `None` while it has no key or no value.
pub(crate) fn entry_value(entry: &Value) -> Option<(String, Value)> {
    let key = entry.get("key")?.as_str().filter(|k| !k.is_empty())?;
    let value = SCALAR_FIELDS
        .iter()
        .find_map(|f| entry.get(*f))
        .filter(|v| !v.is_null())
        .cloned()
        .or_else(|| match entry.get("valueMap") {
            Some(Value::Array(inner)) => Some(Value::Object(contents_to_dict(inner))),
            Some(Value::Object(m)) => Some(Value::Object(m.clone())),
            _ => None,
        })?;
    Some((key.to_owned(), value))
}

/// Whether a v0.8 entry has a key and a value ([`entry_value`] without the copy).
pub(crate) fn has_value(entry: &Value) -> bool {
    let keyed = entry
        .get("key")
        .and_then(Value::as_str)
        .is_some_and(|k| !k.is_empty());
    keyed
        && match SCALAR_FIELDS.iter().find_map(|f| entry.get(*f)) {
            Some(v) if !v.is_null() => true,
            _ => matches!(
                entry.get("valueMap"),
                Some(Value::Array(_) | Value::Object(_))
            ),
        }
}

/// v0.8 entries as a key → value map (value maps become nested maps); later entries win.
pub(crate) fn contents_to_dict(entries: &[Value]) -> Map<String, Value> {
    let mut out = Map::new();
    for entry in entries {
        if let Some((k, v)) = entry_value(entry) {
            out.insert(k, v);
        }
    }
    out
}

/// Drops v0.8 entries that have a key but no value yet, through value maps; a value map left
/// empty by that is dropped too, one that was written empty is kept.
pub(crate) fn prune_entries(entries: &[Value]) -> Vec<Value> {
    let mut kept = Vec::new();
    for entry in entries {
        match entry {
            Value::Object(_) => kept.extend(prune_entry(entry)),
            other => kept.push(other.clone()),
        }
    }
    kept
}

/// [`prune_entry`] on an entry that is not needed afterwards, without copying it.
pub(crate) fn prune_entry_owned(entry: Value) -> Option<Value> {
    let Value::Object(mut obj) = entry else {
        return Some(entry);
    };
    let mut has_value = SCALAR_FIELDS.iter().any(|f| obj.contains_key(*f));
    if let Some(Value::Array(inner)) = obj.get_mut("valueMap") {
        let was_empty = inner.is_empty();
        let pruned: Vec<Value> = std::mem::take(inner)
            .into_iter()
            .filter_map(|e| match e {
                Value::Object(_) => prune_entry_owned(e),
                other => Some(other),
            })
            .collect();
        if pruned.is_empty() && !was_empty {
            obj.remove("valueMap");
        } else {
            *inner = pruned;
            has_value = true;
        }
    }
    (has_value && obj.contains_key("key")).then_some(Value::Object(obj))
}

/// One entry pruned as by [`prune_entries`]; `None` when nothing of it is left.
pub(crate) fn prune_entry(entry: &Value) -> Option<Value> {
    let Value::Object(obj) = entry else {
        return Some(entry.clone());
    };
    let mut obj = obj.clone();
    let mut has_value = SCALAR_FIELDS.iter().any(|f| obj.contains_key(*f));
    if let Some(Value::Array(inner)) = obj.get("valueMap") {
        let pruned = prune_entries(inner);
        if pruned.is_empty() && !inner.is_empty() {
            obj.remove("valueMap");
        } else {
            obj.insert("valueMap".into(), Value::Array(pruned));
            has_value = true;
        }
    }
    (has_value && obj.contains_key("key")).then_some(Value::Object(obj))
}

/// `path` as a JSON pointer below `base` (`/` or absent for the top).
pub(crate) fn pointer(base: Option<&str>, path: &[Step]) -> String {
    let mut out = crate::path::pointer(base.unwrap_or(""), path);
    if out.is_empty() {
        out.push('/');
    }
    out
}

#[cfg(test)]
mod tests;
