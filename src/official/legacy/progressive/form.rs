//! The form a step's messages are handed out in (`Value` trees or compact JSON text), and what a
//! step collects before it is handed out.

use serde_json::Value;

use super::entries::{entries_slot, wrap_entries};
use super::reuse::{Spare, components_over, data_update_over};
use super::{Error, ResponsePart};
use crate::official::catalog::Version;
use crate::official::validator::wrap_components;

/// The form a step's A2UI messages are handed out in: `Value` trees or compact JSON text.
pub(super) trait Form: Sized {
    /// JSON text: components are written from the text kept for each of them.
    const TEXT: bool;
    /// A message built as a tree.
    fn message(msg: Value) -> Self;
    /// The message that updates `items` (each a component's emitted form and, in the text form,
    /// its JSON text) on surface `sid`, written over `reuse` (a message handed out before) when
    /// there is one. `sid` comes with its JSON text (used by the text form).
    fn components(
        version: Version,
        sid: (&str, &str),
        items: &[(&Value, &str)],
        reuse: Option<Self>,
    ) -> Self;
    /// The v0.8 `dataModelUpdate` of surface `sid` at `path` with `entries` (each an entry and,
    /// in the text form, its JSON text), written over `reuse` when there is one; `sid` and `path`
    /// come with their JSON text. `empty` is that update with no entries
    /// (`wrap_entries(sid, path, vec![])`), which the tree form copies when it has nothing to
    /// write over.
    fn data_update(
        sid: (&str, &str),
        path: Option<(&Value, &str)>,
        entries: &[(&Value, &str)],
        last: Option<(Value, String)>,
        reuse: Option<Self>,
        empty: &Value,
    ) -> Self;
    /// The messages of this form kept to be written over.
    fn spare(spare: &mut Spare) -> &mut Vec<Self>;
    /// A message the parser is done with, to be written over as one of this form: the tree
    /// itself, or `None` for text (which is not written over trees).
    fn spare_tree(tree: Value) -> Option<Self>;
    /// The message as JSON text (kept across calls in this form).
    fn into_text(self) -> String;
    /// A message from JSON text that [`Form::into_text`] made.
    fn from_text(text: String) -> Self;
}

impl Form for Value {
    const TEXT: bool = false;

    fn message(msg: Value) -> Value {
        msg
    }

    fn components(
        version: Version,
        (sid, _): (&str, &str),
        items: &[(&Value, &str)],
        reuse: Option<Value>,
    ) -> Value {
        if let Some(mut message) = reuse {
            if components_over(&mut message, version, sid, items).is_some() {
                return message;
            }
        }
        let list = items.iter().map(|(value, _)| (*value).clone()).collect();
        wrap_components(version, sid, list)
    }

    fn data_update(
        (sid, _): (&str, &str),
        path: Option<(&Value, &str)>,
        entries: &[(&Value, &str)],
        last: Option<(Value, String)>,
        reuse: Option<Value>,
        empty: &Value,
    ) -> Value {
        let path = path.map(|(path, _)| path);
        let last = last.map(|(value, _)| value);
        if let Some(mut message) = reuse {
            if let Some(list) = data_update_over(&mut message, sid, path, entries) {
                list.extend(last);
                return message;
            }
        }
        let list = entries
            .iter()
            .map(|(value, _)| (*value).clone())
            .chain(last)
            .collect();
        // A copy of the empty update is cheaper to make than the update built member by member.
        debug_assert_eq!(*empty, wrap_entries(sid, path.cloned(), Vec::new()));
        let mut message = empty.clone();
        match entries_slot(&mut message) {
            Some(slot) => {
                *slot = list;
                message
            }
            None => wrap_entries(sid, path.cloned(), list),
        }
    }

    fn spare(spare: &mut Spare) -> &mut Vec<Value> {
        &mut spare.trees
    }

    fn spare_tree(tree: Value) -> Option<Value> {
        Some(tree)
    }

    fn into_text(self) -> String {
        compact_json(&self)
    }

    fn from_text(text: String) -> Value {
        // The text is serde_json's own writing of a value, which reads back as that value.
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }
}

impl Form for String {
    const TEXT: bool = true;

    fn message(msg: Value) -> String {
        compact_json(&msg)
    }

    /// The same text as `wrap_components(..).to_string()` (members in key order), written from
    /// the components' kept text instead of copying and serializing their trees.
    fn components(
        version: Version,
        (_, sid_json): (&str, &str),
        items: &[(&Value, &str)],
        reuse: Option<String>,
    ) -> String {
        let (open, close) = match version {
            Version::V08 => (r#"{"surfaceUpdate":{"components":["#, "}"),
            Version::V09 => (
                r#"{"updateComponents":{"components":["#,
                r#","version":"v0.9"}"#,
            ),
            Version::V10 => (
                r#"{"updateComponents":{"components":["#,
                r#","version":"v1.0"}"#,
            ),
        };
        let mut out = joined(open, items, sid_json.len() + 32, reuse);
        out.push_str(r#"],"surfaceId":"#);
        out.push_str(sid_json);
        out.push('}');
        out.push_str(close);
        out
    }

    /// The same text as the tree form's `to_string()` (members in key order).
    fn data_update(
        (_, sid_json): (&str, &str),
        path: Option<(&Value, &str)>,
        entries: &[(&Value, &str)],
        last: Option<(Value, String)>,
        reuse: Option<String>,
        _empty: &Value,
    ) -> String {
        let last = last.map(|(_, text)| text);
        let more = sid_json.len()
            + path.map_or(0, |(_, text)| text.len())
            + last.as_ref().map_or(0, String::len)
            + 32;
        let mut out = joined(r#"{"dataModelUpdate":{"contents":["#, entries, more, reuse);
        if let Some(last) = last {
            if !entries.is_empty() {
                out.push(',');
            }
            out.push_str(&last);
        }
        out.push(']');
        if let Some((_, path_json)) = path {
            out.push_str(r#","path":"#);
            out.push_str(path_json);
        }
        out.push_str(r#","surfaceId":"#);
        out.push_str(sid_json);
        out.push_str("}}");
        out
    }

    fn into_text(self) -> String {
        self
    }

    fn spare(spare: &mut Spare) -> &mut Vec<String> {
        &mut spare.texts
    }

    fn spare_tree(_: Value) -> Option<String> {
        None
    }

    fn from_text(text: String) -> String {
        text
    }
}

/// `open` followed by the texts of `items`, comma-separated, with room for `more` bytes after,
/// written in the buffer of `reuse` when there is one.
pub(super) fn joined(
    open: &str,
    items: &[(&Value, &str)],
    more: usize,
    reuse: Option<String>,
) -> String {
    let size = items.iter().map(|(_, text)| text.len() + 1).sum::<usize>();
    let room = open.len() + size + more;
    // A buffer too small is not grown: growing would copy what it held first.
    let mut out = match reuse {
        Some(mut old) if old.capacity() >= room => {
            old.clear();
            old
        }
        _ => String::with_capacity(room),
    };
    out.push_str(open);
    for (i, (_, text)) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(text);
    }
    out
}

/// `value` as compact JSON text (what its `Display` writes, without going through a formatter).
pub(super) fn compact_json(value: &Value) -> String {
    // Writing a `Value` cannot fail: its keys are strings and the output is in memory.
    serde_json::to_string(value).unwrap_or_default()
}

/// `parts` with every message passed through `f`.
pub(super) fn map_messages<A, B>(
    parts: Vec<ResponsePart<A>>,
    mut f: impl FnMut(A) -> B,
) -> Vec<ResponsePart<B>> {
    parts
        .into_iter()
        .map(|part| ResponsePart {
            text: part.text,
            a2ui: part.a2ui.map(|list| list.into_iter().map(&mut f).collect()),
        })
        .collect()
}

/// Collects parts the way the reference does: prose always starts a new part; a message joins
/// the last part (after its prose or its other messages), or starts the first one.
pub(super) struct Out<M> {
    /// The parts, as a step hands them out (the errors are the caller's).
    pub(super) parts: Vec<Result<ResponsePart<M>, Error>>,
    /// Each component update replaces an earlier one for its surface in the same part (v0.8,
    /// official mode: each repeats the earlier ones in full).
    pub(super) keep_last: bool,
    /// The component updates in the last part: surface and place in the list.
    pub(super) updates: Vec<(String, usize)>,
    /// Messages handed out before, to be written over (the next one to use last).
    pub(super) spare: Vec<M>,
}

impl<M: Form> Out<M> {
    /// Parts collected in `parts` (emptied, its room kept), messages written over `spare`.
    pub(super) fn new(
        keep_last: bool,
        mut parts: Vec<Result<ResponsePart<M>, Error>>,
        spare: Vec<M>,
    ) -> Out<M> {
        parts.clear();
        Out {
            parts,
            keep_last,
            updates: Vec::new(),
            spare,
        }
    }

    /// A message handed out before, to write the next one over.
    pub(super) fn reuse(&mut self) -> Option<M> {
        self.spare.pop()
    }

    pub(super) fn text(&mut self, text: &str) {
        if !text.is_empty() {
            self.parts.push(Ok(ResponsePart {
                text: Some(text.to_owned()),
                a2ui: None,
            }));
            self.updates.clear();
        }
    }

    /// Adds `message` to the last part; returns its place in that part's list.
    pub(super) fn message(&mut self, message: M) -> usize {
        match self.parts.last_mut() {
            Some(Ok(ResponsePart {
                a2ui: Some(list), ..
            })) => {
                list.push(message);
                list.len() - 1
            }
            Some(Ok(part)) => {
                part.a2ui = Some(vec![message]);
                0
            }
            Some(Err(_)) | None => {
                self.parts.push(Ok(ResponsePart {
                    text: None,
                    a2ui: Some(vec![message]),
                }));
                0
            }
        }
    }

    /// Adds the component update `message` for surface `sid`.
    pub(super) fn update(&mut self, sid: &str, message: M) {
        // The surface's id as kept for an update it replaces (not copied again).
        let mut kept = None;
        if self.keep_last {
            let earlier = self.updates.iter().position(|(s, _)| s == sid);
            let list = self
                .parts
                .last_mut()
                .and_then(|p| p.as_mut().ok())
                .and_then(|p| p.a2ui.as_mut());
            if let (Some(pos), Some(list)) = (earlier, list) {
                let (id, at) = self.updates.remove(pos);
                kept = Some(id);
                if at < list.len() {
                    // The update it replaces is kept, to be written over by a later one.
                    self.spare.push(list.remove(at));
                }
                for (_, later) in &mut self.updates {
                    if *later > at {
                        *later -= 1;
                    }
                }
            }
        }
        let at = self.message(message);
        if self.keep_last {
            let id = kept.unwrap_or_else(|| sid.to_owned());
            self.updates.push((id, at));
        }
    }
}
