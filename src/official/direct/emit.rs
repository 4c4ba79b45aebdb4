//! Which messages of a block are ready and what of them goes out: each message is checked on
//! its own against the catalog, in order, and goes out when it reads differently from the last
//! time it went out (whole, or only what is new).

use serde_json::{Map, Value};

use super::block::Insert;
use crate::official::Emission;
use crate::official::validator::Validator;
use crate::path::{self, Step};
use crate::{MessageKind, Version};

/// What a message showed when it went out: the revision of its block
/// ([`Block::revision`](super::block::Block::revision)) and the string still arriving in it.
/// The same stamp, the same message: no message is kept to compare with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Stamp {
    pub(super) revision: u64,
    pub(super) cut: Option<String>,
}

/// A message as it reads now, to be considered for going out.
#[derive(Debug)]
pub(super) struct Candidate {
    pub(super) message: Value,
    /// What it shows (see [`Stamp`]).
    pub(super) stamp: Stamp,
    /// Whether it is whole.
    pub(super) closed: bool,
}

/// What went out of the current block, message by message.
#[derive(Debug, Default)]
pub(super) struct Emitted {
    /// What each message showed when it last went out, by its index in the block.
    stamps: Vec<Option<Stamp>>,
    /// Changed-only mode: each message that went out, without the parts that go out piece by
    /// piece.
    envelopes: Vec<Option<Value>>,
    /// Messages before this index closed and are ready.
    ready: usize,
    /// A closed message was not ready: nothing after it goes out until the block closes.
    blocked: bool,
    /// Every message of the block that closed, in order, with the revision it closed at.
    all: Vec<Value>,
    finals: Vec<u64>,
}

impl Emitted {
    /// Whether the message at `index` is the next that may go out.
    pub(super) fn waiting_for(&self, index: usize) -> bool {
        !self.blocked && self.ready == index
    }

    /// Whether the message at `index` went out before (in changed-only mode, its later parts go
    /// out as pieces).
    pub(super) fn sent(&self, index: usize) -> bool {
        self.stamps.get(index).is_some_and(Option::is_some)
    }

    fn keep(&mut self, message: Value, stamp: &Stamp) {
        self.all.push(message);
        self.finals.push(stamp.revision);
    }

    /// Takes the message at `index` as it reads now (`closed`: whole), and puts what goes out
    /// in `out`. An error only for a v1.0 component update the catalog rejects, which no later
    /// chunk can mend.
    pub(super) fn consider(
        &mut self,
        validator: &Validator,
        mode: Emission,
        index: usize,
        candidate: Candidate,
        out: &mut Vec<Value>,
    ) -> Result<(), String> {
        let Candidate {
            message,
            stamp,
            closed,
        } = candidate;
        if !self.waiting_for(index) || !message.is_object() {
            if closed {
                self.blocked |= self.waiting_for(index);
                self.keep(message, &stamp);
            }
            return Ok(());
        }
        if self.stamps.get(index).and_then(Option::as_ref) == Some(&stamp) {
            // It shows what it showed when it last went out.
            if closed {
                self.ready = index + 1;
                self.keep(message, &stamp);
            }
            return Ok(());
        }
        let creates = [MessageKind::CreateSurface, MessageKind::BeginRendering]
            .iter()
            .any(|k| message.get(k.key()).is_some());
        if !closed && creates {
            // A renderer takes a surface's create message once: it waits until it closes.
            return Ok(());
        }
        let list = Value::Array(vec![message]);
        let verdict = validator.validate_with(&list, creates);
        let Value::Array(mut list) = list else {
            return Ok(());
        };
        let Some(message) = list.pop() else {
            return Ok(());
        };
        if let Err(e) = verdict {
            if validator.catalog().version() >= Version::V10 && has_components(&message) {
                return Err(e.message().to_owned());
            }
            if closed {
                self.blocked = true;
                self.keep(message, &stamp);
            }
            return Ok(());
        }
        if closed {
            self.ready = index + 1;
            self.keep(message.clone(), &stamp);
        }
        self.emit(mode, index, message, stamp, out);
        Ok(())
    }

    /// Changed-only mode, for a message that went out before: what went into it since
    /// (those of `inserts` for message `index`, and the progressive string still arriving, at
    /// its path), each new part in a message of its own, each checked alone. `false` when something went in that is not a
    /// component or a data-model value: the caller then takes the message whole.
    pub(super) fn pieces(
        &mut self,
        validator: &Validator,
        index: usize,
        inserts: &[Insert],
        cut: Option<(Vec<Step>, String)>,
        out: &mut Vec<Value>,
    ) -> bool {
        let Some(Some(envelope)) = self.envelopes.get(index) else {
            return false;
        };
        let Some(parts) = new_pieces(envelope, index, inserts, cut) else {
            return false;
        };
        for part in parts {
            let list = Value::Array(vec![part]);
            if validator.validate_with(&list, false).is_ok()
                && let Value::Array(mut list) = list
                && let Some(part) = list.pop()
            {
                out.push(part);
            }
        }
        true
    }

    /// The message at `index` closed after going out piece by piece: it is ready.
    pub(super) fn closed_in_pieces(&mut self, index: usize, message: Value, revision: u64) {
        self.ready = index + 1;
        self.keep(
            message,
            &Stamp {
                revision,
                cut: None,
            },
        );
    }

    /// The block's messages when it closes: those that closed before, then `closed`; and the
    /// revision each closed at.
    pub(super) fn whole_block(&mut self, closed: Vec<(Value, u64)>) -> (Vec<Value>, Vec<u64>) {
        let mut all = std::mem::take(&mut self.all);
        let mut finals = std::mem::take(&mut self.finals);
        for (message, revision) in closed {
            all.push(message);
            finals.push(revision);
        }
        (all, finals)
    }

    /// What goes out of the whole block at its close: in official mode every message that
    /// shows otherwise than when it last went out; in changed-only mode every message not sent
    /// yet (the others went out piece by piece).
    pub(super) fn changed_at_close(
        &mut self,
        mode: Emission,
        all: Vec<Value>,
        finals: &[u64],
        out: &mut Vec<Value>,
    ) {
        for (index, (message, &revision)) in all.into_iter().zip(finals).enumerate() {
            if mode == Emission::ChangedOnly && self.sent(index) {
                continue;
            }
            let stamp = Stamp {
                revision,
                cut: None,
            };
            if self.stamps.get(index).and_then(Option::as_ref) != Some(&stamp) {
                self.emit(mode, index, message, stamp, out);
            }
        }
    }

    fn emit(
        &mut self,
        mode: Emission,
        index: usize,
        message: Value,
        stamp: Stamp,
        out: &mut Vec<Value>,
    ) {
        if self.stamps.len() <= index {
            self.stamps.resize(index + 1, None);
        }
        if let Some(slot) = self.stamps.get_mut(index) {
            *slot = Some(stamp);
        }
        if mode == Emission::ChangedOnly {
            // What later pieces need: the message without its components and value.
            if self.envelopes.len() <= index {
                self.envelopes.resize(index + 1, None);
            }
            if let Some(slot) = self.envelopes.get_mut(index) {
                *slot = Some(envelope(&message));
            }
        }
        out.push(message);
    }
}

/// `message` without the parts that go out piece by piece (`components`, `value`).
fn envelope(message: &Value) -> Value {
    let Some((kind, body)) = body(message) else {
        return message.clone();
    };
    let mut out = message.as_object().cloned().unwrap_or_default();
    let mut rest = Map::new();
    for (k, v) in body {
        if k != "components" && k != "value" {
            rest.insert(k.clone(), v.clone());
        }
    }
    out.insert(kind.to_owned(), Value::Object(rest));
    Value::Object(out)
}

/// The messages that carry what the `inserts` for message `index` (and the cut string) put
/// into a message whose envelope is `envelope`: the new components in one component update, each data-model value
/// at its own path. `None` when something else went in.
fn new_pieces(
    envelope: &Value,
    index: usize,
    inserts: &[Insert],
    cut: Option<(Vec<Step>, String)>,
) -> Option<Vec<Value>> {
    let (kind, body) = body(envelope)?;
    let data = kind == MessageKind::UpdateDataModel.key();
    let mut components = Vec::new();
    let mut values = Vec::new();
    let cut = cut.map(|(path, text)| (path, Value::String(text)));
    for (path, value) in inserts
        .iter()
        .filter(|i| i.message == index)
        .map(|i| (&i.path, &i.value))
        .chain(cut.as_ref().map(|(p, v)| (p, v)))
    {
        match path.as_slice() {
            [Step::Key(k), Step::Key(f), Step::Index(_)] if k == kind && f == "components" => {
                components.push(value.clone());
            }
            [Step::Key(k), Step::Key(f), rest @ ..]
                if k == kind && f == "value" && data && !rest.is_empty() =>
            {
                values.push((pointer(body, rest), value.clone()));
            }
            _ => return None,
        }
    }
    let mut out = Vec::new();
    if !components.is_empty() {
        let mut message = envelope.clone();
        set(&mut message, kind, "components", Value::Array(components));
        out.push(message);
    }
    for (path, value) in values {
        let mut message = envelope.clone();
        set(&mut message, kind, "path", Value::String(path));
        set(&mut message, kind, "value", value);
        out.push(message);
    }
    Some(out)
}

fn set(message: &mut Value, kind: &str, field: &str, value: Value) {
    if let Some(body) = message.get_mut(kind).and_then(Value::as_object_mut) {
        body.insert(field.to_owned(), value);
    }
}

/// The JSON Pointer of `rest` below the update's own `path`.
fn pointer(body: &Map<String, Value>, rest: &[Step]) -> String {
    let base = body.get("path").and_then(Value::as_str).unwrap_or("");
    path::pointer(base, rest)
}

/// A v1.0 component update naming its surface with components in it.
fn has_components(message: &Value) -> bool {
    message.get("version").is_some_and(Value::is_string)
        && message
            .get(MessageKind::UpdateComponents.key())
            .is_some_and(|body| {
                body.get("surfaceId").is_some_and(Value::is_string)
                    && body
                        .get("components")
                        .and_then(Value::as_array)
                        .is_some_and(|c| !c.is_empty())
            })
}

/// The body of `message` under its one kind key, and that key.
fn body(message: &Value) -> Option<(&str, &Map<String, Value>)> {
    message
        .as_object()?
        .iter()
        .find(|(k, _)| MessageKind::from_key(k.as_bytes()).is_some())
        .and_then(|(k, v)| Some((k.as_str(), v.as_object()?)))
}
