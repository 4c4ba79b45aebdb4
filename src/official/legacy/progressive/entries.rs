//! The entries of a v0.8 data-model update while it is written: which of them a step sends, each
//! made ready (pruned, written as text, checked) once, when it is finished.

use serde_json::{Map, Value};

use super::catalogs::Catalogs;
use super::component::object;
use super::form::{Form, compact_json};
use super::heal::heal_data_string;
use super::seen::Seen;
use crate::MessageKind;
use crate::official::legacy::data_delta::{
    EntryFields, SCALAR_FIELDS, entry_fields, has_value, prune_entry_owned,
};
use crate::official::legacy::partial_json::{Body, Frame, PartialJson};

/// The finished entries of the `contents` list of a v0.8 data-model update being written (official
/// mode, which sends all of them on every step), each pruned, written as text and checked
/// against the catalog once, when it is finished; see [`EntriesSoFar::update`].
#[derive(Debug, Default)]
pub(super) struct EntriesSoFar {
    /// [`Frame::serial`] of the list they are in (0: none yet).
    list: u64,
    /// The surface and path of the update they were checked in, and their JSON text.
    sid: String,
    path: Option<Value>,
    sid_json: String,
    path_json: String,
    /// The update with no entries passes the catalog check.
    envelope_ok: bool,
    /// The update the entries are checked in, one at a time (its `contents` left empty).
    check: Value,
    entries: Vec<Entry>,
    /// For each of `entries`, whether it is sent while no entry follows it ([`latest_per_key`]
    /// over `entries`), made again only when entries are added.
    kept: Vec<bool>,
    /// The key of the last entry checked that had only `key` and `valueString`, and its verdict:
    /// while only its text grows, the verdict stands ([`Validator::entry_text_is_free`]).
    text_only: Option<(String, bool)>,
}

/// One entry of a v0.8 data-model update, as [`EntriesSoFar`] keeps it.
#[derive(Debug)]
struct Entry {
    /// Its `key`, when that is a string.
    key: Option<String>,
    /// It has a value ([`has_value`]).
    valued: bool,
    /// What is sent of it (pruned of values still unfinished); `None`: nothing.
    sent: Option<Value>,
    /// `sent` as JSON text (text form only).
    text: String,
    /// The update with only this entry passes the catalog check.
    ok: bool,
}

impl EntriesSoFar {
    /// The update of surface `sid` at `path` that sends every entry so far of the `contents`
    /// list at `json.stack[index]` (the latest entry per key, pruned, as [`latest_entries`]
    /// picks them), or `None` when the catalog rejects it. Only entries finished since the last
    /// call, and the one being written, are looked at; the validator must check entries apart
    /// ([`Validator::checks_entries_apart`]). `cut` is the cut string in progress as
    /// [`PartialJson::cut_string`] gives it with [`heal_data_string`], when the caller knows it.
    pub(super) fn update<M: Form>(
        &mut self,
        json: &PartialJson,
        index: usize,
        validator: &Catalogs,
        (sid, path): (&str, Option<&Value>),
        cut: Option<Option<String>>,
        spare: &mut Vec<M>,
    ) -> Option<M> {
        let Some(Frame {
            body: Body::Array(items),
            serial,
            ..
        }) = json.stack.get(index)
        else {
            return None;
        };
        if self.list != *serial || self.sid != sid || self.path.as_ref() != path {
            *self = EntriesSoFar::new(*serial, (sid, path), validator);
        }
        self.take_finished::<M>(items, validator);
        let open = self.open_entry::<M>(json, index, cut, validator);
        // The entry being written comes last: the last entry before it with its key (`shadowed`)
        // is not sent, and it is sent itself when it or an entry before it with its key has a
        // value.
        let (shadowed, open_kept) = self.shadowed_by(open.as_ref());
        debug_assert_eq!(
            latest_per_key(
                self.entries
                    .iter()
                    .chain(open.as_ref())
                    .map(|e| (e.key.as_deref(), e.valued)),
            ),
            self.kept
                .iter()
                .enumerate()
                .map(|(i, kept)| *kept && Some(i) != shadowed)
                .chain(open.as_ref().map(|_| open_kept))
                .collect::<Vec<bool>>()
        );
        let mut ok = self.envelope_ok;
        let mut sent: Vec<(&Value, &str)> = Vec::with_capacity(self.entries.len());
        let sends = self
            .kept
            .iter()
            .enumerate()
            .map(|(i, kept)| *kept && Some(i) != shadowed);
        for (entry, _) in self.entries.iter().zip(sends).filter(|(_, sends)| *sends) {
            if let Some(value) = &entry.sent {
                ok &= entry.ok;
                sent.push((value, &entry.text));
            }
        }
        // The entry being written is last: handed over, not copied.
        let last = open.filter(|_| open_kept).and_then(|entry| {
            ok &= entry.ok || entry.sent.is_none();
            Some((entry.sent?, entry.text))
        });
        let path = path.map(|p| (p, self.path_json.as_str()));
        ok.then(|| {
            let reuse = spare.pop();
            M::data_update((sid, &self.sid_json), path, &sent, last, reuse, &self.check)
        })
    }

    /// Nothing taken yet from list `list` (its [`Frame::serial`]) of the update of surface
    /// `sid` at `path`.
    fn new(list: u64, (sid, path): (&str, Option<&Value>), validator: &Catalogs) -> EntriesSoFar {
        let check = wrap_entries(sid, path.cloned(), Vec::new());
        EntriesSoFar {
            list,
            sid: sid.to_owned(),
            path: path.cloned(),
            sid_json: compact_json(&Value::from(sid)),
            path_json: path.map(compact_json).unwrap_or_default(),
            envelope_ok: validator.validate(&check, false).is_ok(),
            check,
            entries: Vec::new(),
            kept: Vec::new(),
            text_only: None,
        }
    }

    /// Takes the entries of `items` (the list so far) finished since the last call.
    fn take_finished<M: Form>(&mut self, items: &[Value], validator: &Catalogs) {
        // A list only grows while it is open.
        let done = self.entries.len().min(items.len());
        for item in items.get(done..).unwrap_or_default() {
            let entry = self.entry::<M>(item.clone(), validator);
            self.entries.push(entry);
        }
        if self.kept.len() != self.entries.len() {
            self.kept = latest_per_key(self.entries.iter().map(|e| (e.key.as_deref(), e.valued)));
        }
        if M::TEXT {
            // Entries made for the tree form get their text when first sent as text.
            for entry in &mut self.entries {
                if let (Some(value), true) = (&entry.sent, entry.text.is_empty()) {
                    entry.text = compact_json(value);
                }
            }
        }
    }

    /// The entry being written after those of the list at `json.stack[index]`, if any, as a
    /// snapshot shows it (`cut` as in [`EntriesSoFar::update`]).
    fn open_entry<M: Form>(
        &mut self,
        json: &PartialJson,
        index: usize,
        cut: Option<Option<String>>,
        validator: &Catalogs,
    ) -> Option<Entry> {
        json.stack.get(index + 1)?;
        let snapshot = match cut {
            Some(cut) => {
                debug_assert_eq!(
                    cut.as_deref(),
                    json.cut_string(heal_data_string)
                        .as_ref()
                        .map(|(_, text)| text.as_str())
                );
                json.snapshot_with(index + 1, cut)
            }
            None => json.snapshot(index + 1, heal_data_string),
        };
        snapshot.map(|v| self.entry::<M>(v, validator))
    }

    /// For the entry being written, `open`: the last entry before it with its key, which it
    /// shadows, and whether it is sent (it or an entry before it with its key has a value).
    fn shadowed_by(&self, open: Option<&Entry>) -> (Option<usize>, bool) {
        match open.map(|e| (e.key.as_deref(), e.valued)) {
            Some((Some(key), valued)) => {
                let (mut shadowed, mut valued) = (None, valued);
                for (i, entry) in self.entries.iter().enumerate().rev() {
                    if entry.key.as_deref() == Some(key) {
                        shadowed = shadowed.or(Some(i));
                        valued |= entry.valued;
                        if valued {
                            break;
                        }
                    }
                }
                (shadowed, valued)
            }
            _ => (None, false),
        }
    }

    /// Makes `raw` ready to send: pruned, checked in [`EntriesSoFar::check`], and (text form)
    /// written as text.
    fn entry<M: Form>(&mut self, raw: Value, validator: &Catalogs) -> Entry {
        let (key, valued, mut sent, text_only) = match plain_entry(&raw) {
            Some(plain) => {
                debug_assert_eq!(plain.valued, has_value(&raw));
                debug_assert_eq!(
                    plain.kept.then(|| raw.clone()),
                    prune_entry_owned(raw.clone())
                );
                let Plain {
                    key,
                    valued,
                    kept,
                    text_only,
                } = plain;
                (
                    key.map(str::to_owned),
                    valued,
                    kept.then_some(raw),
                    text_only,
                )
            }
            None => {
                let key = raw.get("key").and_then(Value::as_str).map(str::to_owned);
                let valued = has_value(&raw);
                let sent = prune_entry_owned(raw);
                let text_only = sent.as_ref().and_then(Value::as_object).is_some_and(|e| {
                    e.len() == 2 && e.get("valueString").is_some_and(Value::is_string)
                });
                (key, valued, sent, text_only)
            }
        };
        // The key of an entry of only `key` and a text whose verdict cannot depend on the text.
        let text_only = key
            .as_deref()
            .filter(|_| text_only && validator.entry_text_is_free());
        let ok = match (&self.text_only, text_only) {
            (Some((checked, ok)), Some(now)) if checked == now => *ok,
            _ => {
                // The key is copied only for a check that is made.
                let text_only = text_only.map(str::to_owned);
                let ok = self.check_alone(&mut sent, validator);
                if let Some(ok) = ok {
                    self.text_only = text_only.map(|key| (key, ok));
                }
                ok.unwrap_or(false)
            }
        };
        let text = match (&sent, M::TEXT) {
            (Some(value), true) => compact_json(value),
            _ => String::new(),
        };
        Entry {
            key,
            valued,
            sent,
            text,
            ok,
        }
    }

    /// Whether the update with only `entry` passes the catalog check (`None`: nothing to check).
    fn check_alone(&mut self, entry: &mut Option<Value>, validator: &Catalogs) -> Option<bool> {
        let (Some(value), Some(list)) = (entry.take(), entries_slot(&mut self.check)) else {
            return None;
        };
        list.push(value);
        let ok = validator.validate(&self.check, false).is_ok();
        *entry = entries_slot(&mut self.check).and_then(Vec::pop);
        Some(ok)
    }
}

/// What [`EntriesSoFar::entry`] needs to know of an entry that has no value map, found in one
/// pass over its members ([`entry_fields`]).
struct Plain<'a> {
    /// Its `key`, when that is a string.
    key: Option<&'a str>,
    /// It has a value ([`has_value`]).
    valued: bool,
    /// [`prune_entry_owned`] keeps it as it is (it has a key and a value field), or else drops it.
    kept: bool,
    /// It is kept and has only `key` and a string `valueString`.
    text_only: bool,
}

/// [`Plain`] for an object without a `valueMap`; `None` for anything else.
fn plain_entry(raw: &Value) -> Option<Plain<'_>> {
    let Value::Object(members) = raw else {
        return None;
    };
    let EntryFields {
        key,
        first_scalar: first,
        value_map,
    } = entry_fields(members);
    if value_map {
        return None;
    }
    let text = key.and_then(Value::as_str);
    let kept = key.is_some() && first.is_some();
    Some(Plain {
        key: text,
        valued: text.is_some_and(|k| !k.is_empty()) && first.is_some_and(|(_, v)| !v.is_null()),
        kept,
        text_only: kept
            && members.len() == 2
            && matches!(first, Some((i, Value::String(_))) if SCALAR_FIELDS.get(i) == Some(&"valueString")),
    })
}

/// The v0.8 entries a partial data-model update is sent with: for every key that has a value
/// somewhere, its last entry, in order, pruned of what is incomplete.
pub(super) fn latest_entries(list: Vec<Value>) -> Vec<Value> {
    let keep = latest_per_key(
        list.iter()
            .map(|e| (e.get("key").and_then(Value::as_str), has_value(e))),
    );
    list.into_iter()
        .zip(keep)
        .filter(|(_, keep)| *keep)
        .filter_map(|(entry, _)| prune_entry_owned(entry))
        .collect()
}

/// Which v0.8 entries, each given as its key (when it is a string) and whether it has a value, a
/// partial update sends: for every key that has a value somewhere, its last entry.
fn latest_per_key<'a>(
    entries: impl DoubleEndedIterator<Item = (Option<&'a str>, bool)> + Clone,
) -> Vec<bool> {
    // Keys with a value somewhere, and keys already kept, walking back from the end.
    let mut valued = Seen::default();
    for key in entries
        .clone()
        .filter(|(_, valued)| *valued)
        .filter_map(|(key, _)| key)
    {
        valued.insert(key);
    }
    let mut seen = Seen::default();
    let mut keep: Vec<bool> = entries
        .rev()
        .map(|(key, _)| key.is_some_and(|k| valued.contains(k) && seen.insert(k)))
        .collect();
    keep.reverse();
    keep
}

/// `contents` as the v0.8 `dataModelUpdate` of surface `sid`, at `path` when there is one.
pub(super) fn wrap_entries(sid: &str, path: Option<Value>, contents: Vec<Value>) -> Value {
    let mut body = Map::new();
    body.insert("surfaceId".into(), Value::from(sid));
    body.insert("contents".into(), Value::Array(contents));
    if let Some(path) = path {
        body.insert("path".into(), path);
    }
    object([(MessageKind::DataModelUpdate.key(), Value::Object(body))])
}

/// The entry list of an update made by [`wrap_entries`].
pub(super) fn entries_slot(update: &mut Value) -> Option<&mut Vec<Value>> {
    update
        .get_mut(MessageKind::DataModelUpdate.key())?
        .get_mut("contents")?
        .as_array_mut()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Against the rule written plainly: for every key that has a value somewhere, its
        /// last entry; with few keys and with more than a list holds.
        #[test]
        fn latest_per_key_keeps_the_last_entry_of_every_valued_key(
            entries in proptest::collection::vec((proptest::option::of(0..40u8), any::<bool>()), 0..80)
        ) {
            let keys: Vec<(Option<String>, bool)> = entries
                .iter()
                .map(|(k, v)| (k.map(|k| format!("k{k}")), *v))
                .collect();
            let got = latest_per_key(keys.iter().map(|(k, v)| (k.as_deref(), *v)));
            let expected: Vec<bool> = keys
                .iter()
                .enumerate()
                .map(|(i, (key, _))| {
                    key.as_ref().is_some_and(|k| {
                        keys.iter().any(|(other, v)| other.as_ref() == Some(k) && *v)
                            && !keys[i + 1..].iter().any(|(other, _)| other.as_ref() == Some(k))
                    })
                })
                .collect();
            prop_assert_eq!(got, expected);
        }
    }
}
