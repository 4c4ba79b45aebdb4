//! The data model: what changed in a data-model update being written is passed on as it
//! completes (official mode: whole top-level keys, or for v0.8 every entry so far; changed-only
//! mode: each changed value at its own path), and a finished update is passed on when it brings
//! anything new.

use serde_json::{Map, Value};

use super::component::object;
use super::entries::{EntriesSoFar, latest_entries, wrap_entries};
use super::form::{Form, Out};
use super::heal::heal_data_string;
use super::{Emission, ProgressiveParser};
use crate::official::catalog::Version;
use crate::official::legacy::data_delta::{Change, Step, Walk, pointer, value_at};
use crate::official::legacy::partial_json::{Body, Frame, Stack};
use crate::official::validator::truthy;

/// The data model as the parser sent it.
#[derive(Debug, Default)]
pub(super) struct DataModel {
    /// The data model as emitted, by top-level key (shared by all surfaces, as the reference
    /// does); v0.8 entries are kept as plain values (value maps as objects).
    emitted: Map<String, Value>,
    /// The finished entries of the v0.8 data-model update being written, made ready to send.
    entries: EntriesSoFar,
}

impl<F> ProgressiveParser<F> {
    /// Passes on what changed in a data-model update being written.
    pub(super) fn sniff_data_model<M: Form>(&mut self, out: &mut Out<M>) {
        let kind = self.version.data().key();
        let (data, entries) = match self.version {
            Version::V08 => ("contents", true),
            Version::V09 | Version::V10 => ("value", false),
        };
        let is_dm = matches!(
            self.json.stack.get(1),
            Some(Frame { body: Body::Object { map, key, .. }, .. })
                if key.as_deref() == Some(kind) || map.contains_key(kind)
        );
        if !is_dm {
            return;
        }
        let Some((changes, cut)) = self.walk_data(kind, data, entries) else {
            return;
        };
        // The payload as it stands, for its surface and path.
        let payload = payload(&self.json.stack, kind);
        let sid = payload
            .and_then(|p| p.get("surfaceId"))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .or(self.current.surface.as_deref())
            .unwrap_or("default");
        let path = payload.and_then(|p| p.get("path"));
        if (self.version, self.mode) == (Version::V08, Emission::Official) {
            // Every entry so far, the latest per key, as the reference sends them: while the
            // list is open, from the entries made ready as they finished.
            let open_list = self.catalogs.checks_entries_apart()
                && matches!(self.json.stack.get(2), Some(f) if f.key.as_deref() == Some(kind))
                && matches!(
                    self.json.stack.get(3),
                    Some(Frame { key: Some(k), body: Body::Array(_), .. }) if k == data
                );
            if open_list {
                let update = self.data.entries.update::<M>(
                    &self.json,
                    3,
                    &self.catalogs,
                    (sid, path),
                    cut,
                    &mut out.spare,
                );
                if let Some(update) = update {
                    out.message(update);
                }
                return;
            }
        }
        let (sid, path) = (sid.to_owned(), path.cloned());
        let mut messages = Vec::new();
        // Messages already found acceptable.
        let mut checked = Vec::new();
        match (self.version, self.mode) {
            (Version::V08, Emission::Official) => {
                let Some(list) = self.v08_entries_so_far(kind, data, payload) else {
                    return;
                };
                messages.push(wrap_entries(&sid, path, latest_entries(list)));
            }
            (Version::V09 | Version::V10, Emission::Official) => {
                messages.push(self.v09_keys_changed(kind, sid, &changes));
            }
            (Version::V08, Emission::ChangedOnly) => {
                v08_entries_changed(&sid, path, &changes, &mut messages);
            }
            (Version::V09 | Version::V10, Emission::ChangedOnly) => {
                self.v09_values_changed(kind, sid, &changes, &mut checked, &mut messages);
            }
        }
        for msg in checked {
            out.message(M::message(msg));
        }
        for msg in messages {
            self.emit_loose(msg, out);
        }
    }

    /// Compares the data-model update of `kind` being written (its `data` member; v0.8:
    /// `entries`) with what was emitted, bringing that up to date: the changes, and the cut
    /// string in progress when the walk looked at it; `None` when nothing changed.
    fn walk_data(
        &mut self,
        kind: &str,
        data: &str,
        entries: bool,
    ) -> Option<(Vec<Change>, Option<Option<String>>)> {
        let mut walk = Walk {
            emitted: &mut self.data.emitted,
            changes: Vec::new(),
            heal: heal_data_string,
            want_entries: self.mode == Emission::ChangedOnly,
            // v0.8 official mode only asks whether anything changed.
            keep_changes: !(self.version == Version::V08 && self.mode == Emission::Official),
            changed: 0,
            cut: None,
        };
        walk.message(&mut self.json, kind, data, entries);
        if walk.changed == 0 {
            return None;
        }
        Some((walk.changes, walk.cut))
    }

    /// v0.8, official mode: every entry of the update being written so far (its `payload` as it
    /// stands), taken from a snapshot of it.
    fn v08_entries_so_far(
        &self,
        kind: &str,
        data: &str,
        payload: Option<&Map<String, Value>>,
    ) -> Option<Vec<Value>> {
        let payload = if matches!(self.json.stack.get(2), Some(f) if f.key.as_deref() == Some(kind))
        {
            self.json.snapshot(2, heal_data_string)
        } else {
            payload.map(|p| Value::Object(p.clone()))
        };
        match payload.and_then(|mut p| p.get_mut(data).map(Value::take)) {
            Some(Value::Array(list)) => Some(list),
            _ => None,
        }
    }

    /// v0.9, official mode: the top-level keys that changed, each whole, in one message.
    fn v09_keys_changed(&self, kind: &str, sid: String, changes: &[Change]) -> Value {
        let mut delta = Map::new();
        for change in changes {
            if let Some(Step::Key(k)) = change.path.first() {
                if !delta.contains_key(k) {
                    let v = self.data.emitted.get(k).cloned().unwrap_or(Value::Null);
                    delta.insert(k.clone(), v);
                }
            }
        }
        v09_message(
            self.version,
            kind,
            object([
                ("surfaceId", Value::String(sid)),
                ("value", Value::Object(delta)),
            ]),
        )
    }

    /// v0.9, changed-only mode: a change at the top goes in one message without a path, as in
    /// official mode; a deeper one at its own path (placed from the top, as the reference
    /// places partial values), into `checked` when the catalog accepts it, or else under its
    /// top-level key. The messages still to check go into `messages`.
    fn v09_values_changed(
        &self,
        kind: &str,
        sid: String,
        changes: &[Change],
        checked: &mut Vec<Value>,
        messages: &mut Vec<Value>,
    ) {
        let mut top = Map::new();
        for change in changes {
            let Some(Step::Key(first)) = change.path.first() else {
                continue;
            };
            if change.path.len() > 1 {
                let value = value_at(&self.data.emitted, &change.path)
                    .cloned()
                    .unwrap_or(Value::Null);
                let msg = v09_message(
                    self.version,
                    kind,
                    object([
                        ("surfaceId", Value::from(sid.as_str())),
                        ("path", Value::String(pointer(None, &change.path))),
                        ("value", value),
                    ]),
                );
                if self.catalogs.validate(&msg, false).is_ok() {
                    checked.push(msg);
                    continue;
                }
            }
            if !top.contains_key(first) {
                let v = self.data.emitted.get(first).cloned().unwrap_or(Value::Null);
                top.insert(first.clone(), v);
            }
        }
        if !top.is_empty() {
            messages.push(v09_message(
                self.version,
                kind,
                object([
                    ("surfaceId", Value::String(sid)),
                    ("value", Value::Object(top)),
                ]),
            ));
        }
    }

    /// Whether a finished data-model update brings anything not emitted yet, recording it.
    pub(super) fn data_is_new(&mut self, payload: &Value) -> bool {
        let Value::Object(payload) = payload else {
            return true;
        };
        let mut fresh = Vec::new();
        match self.version {
            Version::V08 => match payload.get("contents") {
                Some(Value::Array(entries)) => {
                    for entry in entries {
                        let Some(k) = entry.get("key").and_then(Value::as_str) else {
                            continue;
                        };
                        let v = ["valueString", "valueNumber", "valueBoolean", "valueMap"]
                            .iter()
                            .filter_map(|f| entry.get(*f))
                            .find(|v| truthy(v));
                        if let (false, Some(v)) = (k.is_empty(), v) {
                            fresh.push((k.to_owned(), v.clone()));
                        }
                    }
                }
                Some(Value::Object(map)) => {
                    fresh.extend(map.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
                _ => {}
            },
            Version::V09 | Version::V10 => {
                fresh.extend(
                    payload
                        .iter()
                        .filter(|(k, _)| *k != "surfaceId" && *k != "root")
                        .map(|(k, v)| (k.clone(), v.clone())),
                );
            }
        }
        if fresh.is_empty() {
            return true;
        }
        let new = fresh
            .iter()
            .any(|(k, v)| self.data.emitted.get(k) != Some(v));
        if new {
            self.data.emitted.extend(fresh);
        }
        new
    }
}

/// The payload of the data-model update of `kind` being written, as it stands.
fn payload<'a>(stack: &'a Stack, kind: &str) -> Option<&'a Map<String, Value>> {
    match stack.get(2) {
        Some(Frame {
            key: Some(k),
            body: Body::Object { map, .. },
            ..
        }) if k == kind => Some(map),
        _ => match stack.get(1) {
            Some(Frame {
                body: Body::Object { map, .. },
                ..
            }) => map.get(kind).and_then(Value::as_object),
            _ => None,
        },
    }
}

/// v0.8, changed-only mode: the changed entries, grouped by the map they sit in, one message
/// per map (at its path under `path`, the update's own), into `messages`.
fn v08_entries_changed(
    sid: &str,
    path: Option<Value>,
    changes: &[Change],
    messages: &mut Vec<Value>,
) {
    let base = path.as_ref().and_then(Value::as_str);
    let mut groups: Vec<(&[Step], Vec<Value>)> = Vec::new();
    for change in changes {
        let Some(entry) = &change.entry else { continue };
        let parent = change
            .path
            .split_last()
            .map_or(&[][..], |(_, parent)| parent);
        match groups.iter_mut().find(|(p, _)| *p == parent) {
            Some((_, list)) => list.push(entry.clone()),
            None => groups.push((parent, vec![entry.clone()])),
        }
    }
    for (parent, list) in groups {
        let path =
            (!parent.is_empty() || base.is_some()).then(|| Value::String(pointer(base, parent)));
        messages.push(wrap_entries(sid, path, list));
    }
}

/// The v0.9 (or later) message of `kind` with `body`: `{"version": "v0.9", kind: body}`, with
/// the version's own tag.
pub(super) fn v09_message(version: Version, kind: &str, body: Value) -> Value {
    object([
        ("version", Value::from(version.message_tag())),
        (kind, body),
    ])
}
