//! Which strings of a v0.8 component the catalog check cannot tell apart: those whose schema
//! only asks for a string, reached through schemas that only list members or items (decided
//! once, from the schema's shape). Two components that differ only in such strings get the
//! same verdict from [`Validator::check_component`](super::Validator::check_component), so a
//! component whose emitted form changed only there need not be checked again.

// The plain shape is worked out with the schema (`compile.rs`); only the legacy parser reads it.
#![cfg_attr(not(feature = "legacy"), allow(dead_code))]
use serde_json::Value;

use super::compile::only;
use crate::hash::QuickMap;

/// The keywords a schema the walk goes through may say: none of them looks at a string's
/// text, nor (with the same members and items on both sides) tells two values apart by a
/// string of theirs that a free schema judges.
const PLAIN: [&str; 5] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
];

/// A schema that only lists members ([`PLAIN`] keywords and annotations), as far as its
/// members' and items' schemas are plain too.
#[derive(Debug, Default)]
pub(super) struct Plain {
    /// The plain schemas of its listed members, by name.
    members: QuickMap<String, Plain>,
    /// The schema of each item of a list, when it is plain.
    items: Option<Box<Plain>>,
    /// It says only `"type": "string"`, and is not the schema of a `path` member (whose
    /// syntax is checked): any string passes here, whatever it says.
    free_string: bool,
}

/// How two values compare as [`Plain::compare`] sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Likeness {
    /// They are equal.
    Same,
    /// They differ, only in free strings: the check gives both the same verdict.
    Free,
    /// They differ elsewhere too (or where no plain schema says they may).
    Other,
}

impl Plain {
    /// `schema` as far as it is plain; `None` when it says anything else (`$ref`, combinators,
    /// `enum`, `pattern`, `maxItems`, a list of item schemas, unknown keywords).
    pub(super) fn of(schema: &Value) -> Option<Plain> {
        if !only(Some(schema), &PLAIN) {
            return None;
        }
        let members = match schema.get("properties") {
            Some(Value::Object(listed)) => listed
                .iter()
                .filter_map(|(name, s)| {
                    let mut member = Plain::of(s)?;
                    member.free_string &= name != "path";
                    Some((name.clone(), member))
                })
                .collect(),
            Some(_) => return None,
            None => QuickMap::default(),
        };
        let items = match schema.get("items") {
            Some(items @ Value::Object(_)) => Plain::of(items).map(Box::new),
            Some(_) => return None,
            None => None,
        };
        let free_string =
            only(Some(schema), &["type"]) && schema.get("type").is_some_and(|t| t == "string");
        Some(Plain {
            members,
            items,
            free_string,
        })
    }

    /// How `a` and `b` compare, judged by `this` (`None`: a schema that is not plain, under
    /// which only equal values are known to get the same verdict): [`Likeness::Free`] when
    /// they have the same members and lengths and differ only in strings that this schema, or
    /// a plain schema of their members or items, leaves free.
    pub(super) fn compare(this: Option<&Plain>, a: &Value, b: &Value) -> Likeness {
        let exact = |same: bool| {
            if same {
                Likeness::Same
            } else {
                Likeness::Other
            }
        };
        let Some(plain) = this else {
            return exact(a == b);
        };
        match (a, b) {
            (Value::String(x), Value::String(y)) => match (x == y, plain.free_string) {
                (true, _) => Likeness::Same,
                (false, true) => Likeness::Free,
                (false, false) => Likeness::Other,
            },
            (Value::Object(x), Value::Object(y)) => {
                if x.len() != y.len() {
                    return Likeness::Other;
                }
                let mut found = Likeness::Same;
                for ((kx, vx), (ky, vy)) in x.iter().zip(y) {
                    if kx != ky {
                        return Likeness::Other;
                    }
                    match Plain::compare(plain.members.get(kx), vx, vy) {
                        Likeness::Same => {}
                        Likeness::Free => found = Likeness::Free,
                        Likeness::Other => return Likeness::Other,
                    }
                }
                found
            }
            (Value::Array(x), Value::Array(y)) => {
                if x.len() != y.len() {
                    return Likeness::Other;
                }
                let items = plain.items.as_deref();
                let mut found = Likeness::Same;
                for (vx, vy) in x.iter().zip(y) {
                    match Plain::compare(items, vx, vy) {
                        Likeness::Same => {}
                        Likeness::Free => found = Likeness::Free,
                        Likeness::Other => return Likeness::Other,
                    }
                }
                found
            }
            _ => exact(a == b),
        }
    }

    /// Whether every string of `value` (judged by `this`) that sits under a member named in
    /// `keys`, or is an item of a list there, is free: such strings may change without
    /// changing the verdict.
    pub(super) fn free_under(this: Option<&Plain>, value: &Value, keys: &[&str]) -> bool {
        match value {
            Value::Object(map) => map.iter().all(|(k, v)| {
                let member = this.and_then(|p| p.members.get(k));
                let here = !keys.contains(&k.as_str())
                    || match v {
                        Value::String(_) => member.is_some_and(|m| m.free_string),
                        Value::Array(items) => {
                            let item = member.and_then(|m| m.items.as_deref());
                            item.is_some_and(|i| i.free_string)
                                || !items.iter().any(Value::is_string)
                        }
                        _ => true,
                    };
                here && Plain::free_under(member, v, keys)
            }),
            Value::Array(items) => {
                let item = this.and_then(|p| p.items.as_deref());
                items.iter().all(|v| Plain::free_under(item, v, keys))
            }
            _ => true,
        }
    }

    /// Whether a string in the value this schema judges, under member `then` of the object at
    /// `path` (or, `then` being `None`, the last item of the list at `path`), is free: every
    /// step goes through a plain schema to a member's or an item's plain schema, the last one
    /// a free string.
    pub(super) fn free_at(&self, path: &[Slot], then: Option<&str>) -> bool {
        let mut at = self;
        for step in path {
            let next = match step {
                Slot::Key(k) => at.members.get(k),
                Slot::Last => at.items.as_deref(),
            };
            match next {
                Some(next) => at = next,
                None => return false,
            }
        }
        let last = match then {
            Some(k) => at.members.get(k),
            None => at.items.as_deref(),
        };
        last.is_some_and(|s| s.free_string)
    }
}

/// One step into a JSON value: to the member under a key, or to the last item of a list.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Slot {
    Key(String),
    Last,
}
