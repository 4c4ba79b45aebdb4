//! Writing a step's messages over messages handed out before, so that a caller who gives back
//! the parts of an earlier step ([`ProgressiveParser::recycle`]) gets this step's
//! parts made in the same trees and strings: a map, list or string that has the same shape in
//! both is reused, and only what is new in this step is allocated.
//!
//! A message written over an old one equals, member for member, the message made afresh; the
//! old one may be of any shape (members it should not have are removed, missing ones added).
//!
//! [`ProgressiveParser::recycle`]: super::ProgressiveParser::recycle

use serde_json::{Map, Value};

use super::component::{assign, set_string};
use crate::MessageKind;
use crate::official::catalog::Version;

/// Messages of earlier steps kept to be written over, at most this many per form: enough for
/// every message of a step on a few surfaces, while what a parser holds stays bounded.
pub(super) const MAX_SPARE: usize = 16;

/// Messages handed back by the caller, waiting to be written over: the next one to use last.
#[derive(Debug, Default)]
pub(super) struct Spare {
    pub(super) trees: Vec<Value>,
    pub(super) texts: Vec<String>,
}

/// Takes the first [`MAX_SPARE`] messages of `parts` (a caller's earlier step) into `spare`, so
/// that the first message of `parts` is the next one used (the rest are dropped, and so are the
/// oldest in `spare` beyond [`MAX_SPARE`]); `parts` is left empty, with its room.
pub(super) fn take_back<M, E>(
    parts: &mut Vec<Result<super::ResponsePart<M>, E>>,
    spare: &mut Vec<M>,
) {
    if parts.is_empty() {
        return;
    }
    let total: usize = parts
        .iter()
        .filter_map(|p| p.as_ref().ok()?.a2ui.as_ref())
        .map(Vec::len)
        .sum();
    // Walked from the end: the messages after the first MAX_SPARE come first, and are dropped.
    let mut skip = total.saturating_sub(MAX_SPARE);
    for part in parts.drain(..).rev().flatten() {
        for message in part.a2ui.into_iter().flatten().rev() {
            if skip > 0 {
                skip -= 1;
            } else {
                spare.push(message);
            }
        }
    }
    bound(spare);
}

/// Drops the oldest messages of `spare` (those to be used last) beyond [`MAX_SPARE`].
#[inline]
pub(super) fn bound<M>(spare: &mut Vec<M>) {
    if let Some(extra) = spare.len().checked_sub(MAX_SPARE) {
        spare.drain(..extra);
    }
}

/// `value` made an object (an empty one if it was anything else), with only the members named
/// in `keep`.
fn object_with_only<'a>(value: &'a mut Value, keep: &[&str]) -> Option<&'a mut Map<String, Value>> {
    if !value.is_object() {
        *value = Value::Object(Map::new());
    }
    let map = value.as_object_mut()?;
    if map.keys().any(|k| !keep.contains(&k.as_str())) {
        map.retain(|k, _| keep.contains(&k.as_str()));
    }
    Some(map)
}

/// The member `key` of `map`, added as `null` when missing (its key allocated only then).
fn member<'a>(map: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Value> {
    if !map.contains_key(key) {
        map.insert(key.to_owned(), Value::Null);
    }
    map.get_mut(key)
}

/// `value` made the string `text`, in its own buffer when it is a string already.
fn set_text(value: &mut Value, text: &str) {
    match value {
        Value::String(s) => set_string(s, text),
        other => *other = Value::from(text),
    }
}

/// `value` made the list of `items`, each written over the item at its place; the list.
fn set_list<'a>(value: &'a mut Value, items: &[(&Value, &str)]) -> Option<&'a mut Vec<Value>> {
    if !value.is_array() {
        *value = Value::Array(Vec::new());
    }
    let list = value.as_array_mut()?;
    list.truncate(items.len());
    for (i, (item, _)) in items.iter().enumerate() {
        match list.get_mut(i) {
            Some(old) => assign(old, item),
            None => list.push((*item).clone()),
        }
    }
    Some(list)
}

/// `message` made the update of `items` (each a component's emitted form) on surface `sid`:
/// what `wrap_components` makes, written over `message`. `None` only if a member just set
/// could not be found again (the message is then to be made afresh).
pub(super) fn components_over(
    message: &mut Value,
    version: Version,
    sid: &str,
    items: &[(&Value, &str)],
) -> Option<()> {
    let kind = version.components().key();
    let map = match version {
        Version::V08 => object_with_only(message, &[kind])?,
        Version::V09 | Version::V10 => object_with_only(message, &[kind, "version"])?,
    };
    if version != Version::V08 {
        set_text(member(map, "version")?, version.message_tag());
    }
    let body = object_with_only(member(map, kind)?, &["components", "surfaceId"])?;
    set_text(member(body, "surfaceId")?, sid);
    set_list(member(body, "components")?, items)?;
    Some(())
}

/// `message` made the v0.8 data-model update of surface `sid` at `path` with `entries`: what
/// `wrap_entries` makes, written over `message`; its entry list, for more entries to be moved
/// in. `None` as for [`components_over`].
pub(super) fn data_update_over<'a>(
    message: &'a mut Value,
    sid: &str,
    path: Option<&Value>,
    entries: &[(&Value, &str)],
) -> Option<&'a mut Vec<Value>> {
    const KIND: &str = MessageKind::DataModelUpdate.key();
    let map = object_with_only(message, &[KIND])?;
    let keep: &[&str] = match path {
        Some(_) => &["contents", "path", "surfaceId"],
        None => &["contents", "surfaceId"],
    };
    let body = object_with_only(member(map, KIND)?, keep)?;
    set_text(member(body, "surfaceId")?, sid);
    if let Some(path) = path {
        assign(member(body, "path")?, path);
    }
    set_list(member(body, "contents")?, entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::official::json_trees::json_trees;
    use crate::official::legacy::progressive::entries::wrap_entries;
    use crate::official::validator::wrap_components;
    use proptest::prelude::*;
    use serde_json::json;

    /// Trees that are now and then shaped like the messages written over, with members a
    /// message has and members it must lose.
    fn tree() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            "[a-z]{0,6}".prop_map(Value::from),
        ];
        let key = prop_oneof![
            Just("surfaceUpdate"),
            Just("updateComponents"),
            Just("dataModelUpdate"),
            Just("components"),
            Just("contents"),
            Just("surfaceId"),
            Just("path"),
            Just("version"),
            Just("id"),
            Just("a"),
            Just("b"),
        ];
        json_trees(leaf, key, 4, 24)
    }

    proptest! {
        /// Whatever tree a message is written over, it ends equal to the message made afresh.
        #[test]
        fn written_over_anything_equals_made_afresh(
            old in tree(),
            items in prop::collection::vec(tree(), 0..4),
            last in prop::option::of(tree()),
            path in prop::option::of(tree()),
            sid in "[a-z]{0,5}",
            v09 in any::<bool>(),
        ) {
            let listed: Vec<(&Value, &str)> = items.iter().map(|v| (v, "")).collect();
            let version = if v09 { Version::V09 } else { Version::V08 };

            let mut message = old.clone();
            prop_assert!(components_over(&mut message, version, &sid, &listed).is_some());
            prop_assert_eq!(&message, &wrap_components(version, &sid, items.clone()));

            let mut message = old;
            let list = data_update_over(&mut message, &sid, path.as_ref(), &listed);
            prop_assert!(list.is_some());
            if let Some(list) = list {
                list.extend(last.clone());
            }
            let contents = items.iter().cloned().chain(last).collect();
            prop_assert_eq!(&message, &wrap_entries(&sid, path, contents));
        }
    }

    #[test]
    fn spare_messages_come_back_first_first_and_are_bounded() {
        let mut parts: Vec<Result<super::super::ResponsePart, ()>> = vec![
            Ok(super::super::ResponsePart {
                text: Some("hi".into()),
                a2ui: Some(vec![json!(1), json!(2)]),
            }),
            Err(()),
            Ok(super::super::ResponsePart {
                text: None,
                a2ui: Some(vec![json!(3)]),
            }),
        ];
        let mut spare = Vec::new();
        take_back(&mut parts, &mut spare);
        assert!(parts.is_empty());
        assert_eq!(spare, vec![json!(3), json!(2), json!(1)]);
        assert_eq!(spare.pop(), Some(json!(1)));
        let mut many: Vec<Result<_, ()>> = vec![Ok(super::super::ResponsePart {
            text: None,
            a2ui: Some((0..40).map(Value::from).collect()),
        })];
        take_back(&mut many, &mut spare);
        assert_eq!(spare.len(), MAX_SPARE);
        assert_eq!(
            spare.last(),
            Some(&json!(0)),
            "the first message is used next"
        );
    }
}
