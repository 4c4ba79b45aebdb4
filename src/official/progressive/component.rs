//! A component's emitted form: children that have not arrived swapped for placeholders, and
//! (v0.8) data-binding paths made absolute.

use serde_json::{Map, Value};

use crate::official::catalog::Version;

/// Fields whose ids are swapped for placeholders while the child is missing.
const CHILD_FIELDS: [&str; 6] = [
    "children",
    "explicitList",
    "child",
    "contentChild",
    "entryPointChild",
    "componentId",
];

/// Whether making the emitted form of `comp` could change anything: it names children (which
/// may be missing), or (v0.8) has a data-binding path that is relative or sits beside other
/// members. Mirrors what [`process_component`] rewrites.
pub(super) fn needs_processing(comp: &Value, version: Version) -> bool {
    fn walk(v: &Value, version: Version) -> bool {
        match v {
            Value::Object(obj) => {
                if has_child_field(obj) {
                    return true;
                }
                if version == Version::V08 {
                    match obj.get("path") {
                        Some(Value::String(p)) if p.starts_with('/') => {
                            if obj.len() > 1 && !obj.contains_key("componentId") {
                                return true;
                            }
                        }
                        Some(Value::Null) | None => {}
                        Some(_) => return true,
                    }
                }
                obj.values().any(|child| walk(child, version))
            }
            Value::Array(items) => items.iter().any(|item| walk(item, version)),
            _ => false,
        }
    }
    match comp.get("component") {
        Some(body @ Value::Object(_)) => walk(body, version),
        _ => walk(comp, version),
    }
}

/// Whether `obj` has one of the [`CHILD_FIELDS`] (one look at each key, cheaper than looking
/// each field up in a small object).
fn has_child_field(obj: &Map<String, Value>) -> bool {
    obj.keys().any(|k| CHILD_FIELDS.contains(&k.as_str()))
}

/// An object from its members, moved in (the `json!` macro would copy interpolated values).
pub(super) fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    // One insert at a time: for a few members cheaper than collecting (which sorts first).
    let mut map = Map::new();
    for (k, v) in members {
        map.insert(k.to_owned(), v);
    }
    Value::Object(map)
}

pub(super) fn placeholder(id: &str, version: Version) -> Value {
    match version {
        Version::V08 => object([
            ("id", Value::from(id)),
            (
                "component",
                object([(
                    "Row",
                    object([(
                        "children",
                        object([("explicitList", Value::Array(Vec::new()))]),
                    )]),
                )]),
            ),
        ]),
        Version::V09 => object([
            ("id", Value::from(id)),
            ("component", Value::from("Row")),
            ("children", Value::Array(Vec::new())),
        ]),
    }
}

/// Swaps references to children that have not arrived (`present` says which have) for
/// placeholder ids and, for v0.8, makes data-binding paths absolute. Returns the placeholder
/// ids used, in order of first use, the missing child ids behind them, and whether anything in
/// `comp` was rewritten.
pub(super) fn process_component(
    comp: &mut Value,
    open_lists: &[String],
    present: impl Fn(&str) -> bool,
    version: Version,
    earlier: Vec<String>,
) -> (Vec<String>, Vec<String>, bool) {
    struct Ctx<'a, P> {
        id: String,
        open_lists: &'a [String],
        present: P,
        version: Version,
        placeholders: Vec<String>,
        missing: Vec<String>,
        /// The placeholder ids of the form made before, reused rather than copied again.
        earlier: Vec<String>,
        /// Something was rewritten.
        rewritten: bool,
    }
    impl<P: Fn(&str) -> bool> Ctx<'_, P> {
        /// The id to show for `child`: itself when present, else its placeholder.
        fn child(&mut self, child: &mut String) {
            if !(self.present)(child) {
                let mut pid = String::with_capacity("loading_".len() + child.len());
                pid.push_str("loading_");
                pid.push_str(child);
                self.add(&pid);
                let child = std::mem::replace(child, pid);
                self.rewritten = true;
                if !self.missing.contains(&child) {
                    self.missing.push(child);
                }
            }
        }

        fn add(&mut self, pid: &str) {
            if !self.placeholders.iter().any(|p| p == pid) {
                let owned = match self.earlier.iter().position(|p| p == pid) {
                    Some(at) => self.earlier.swap_remove(at),
                    None => pid.to_owned(),
                };
                self.placeholders.push(owned);
            }
        }

        fn walk(&mut self, v: &mut Value) {
            match v {
                Value::Object(obj) => {
                    if self.version == Version::V08 {
                        match obj.get("path") {
                            // An absolute path alone is kept as it is.
                            Some(Value::String(p))
                                if p.starts_with('/')
                                    && obj.len() > 1
                                    && !obj.contains_key("componentId") =>
                            {
                                let p = p.clone();
                                obj.clear();
                                obj.insert("path".into(), Value::String(p));
                                self.rewritten = true;
                            }
                            Some(Value::String(p)) if p.starts_with('/') => {}
                            Some(Value::String(p)) => {
                                let p = format!("/{p}");
                                obj.insert("path".into(), Value::String(p));
                                self.rewritten = true;
                            }
                            Some(other) if !other.is_null() => {
                                let p = format!("/{other}");
                                obj.insert("path".into(), Value::String(p));
                                self.rewritten = true;
                            }
                            _ => {}
                        }
                    }
                    let fields = if has_child_field(obj) {
                        &CHILD_FIELDS[..]
                    } else {
                        &[]
                    };
                    for &field in fields {
                        match obj.get_mut(field) {
                            Some(Value::Array(items)) => {
                                for item in items.iter_mut() {
                                    if let Value::String(child) = item {
                                        self.child(child);
                                    }
                                }
                                if items.is_empty()
                                    && (field == "children" || field == "explicitList")
                                    && self.open_lists.iter().any(|f| f == field)
                                {
                                    let pid = format!("loading_children_{}", self.id);
                                    self.add(&pid);
                                    items.push(Value::String(pid));
                                    self.rewritten = true;
                                }
                            }
                            Some(Value::String(child)) => self.child(child),
                            _ => {}
                        }
                    }
                    for (_, child) in obj.iter_mut() {
                        self.walk(child);
                    }
                }
                Value::Array(items) => {
                    for item in items {
                        self.walk(item);
                    }
                }
                _ => {}
            }
        }
    }
    let id = comp
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
        .to_owned();
    let mut ctx = Ctx {
        id,
        open_lists,
        present,
        version,
        placeholders: Vec::with_capacity(earlier.len()),
        missing: Vec::new(),
        earlier,
        rewritten: false,
    };
    if let Value::Object(obj) = comp {
        match obj.get_mut("component") {
            Some(body @ Value::Object(_)) => ctx.walk(body),
            _ => ctx.walk(comp),
        }
    }
    (ctx.placeholders, ctx.missing, ctx.rewritten)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn process_component_says_exactly_when_it_rewrote_something() {
        use serde_json::json;
        let present = |c: &str| c == "here";
        let cases = [
            (
                json!({"id": "a", "component": {"Card": {"child": "here"}}}),
                Version::V08,
                false,
            ),
            (
                json!({"id": "a", "component": {"Card": {"child": "gone"}}}),
                Version::V08,
                true,
            ),
            (
                json!({"id": "a", "component": {"Text": {"text": {"path": "/t"}}}}),
                Version::V08,
                false,
            ),
            (
                json!({"id": "a", "component": {"Text": {"text": {"path": "/t", "literalString": "x"}}}}),
                Version::V08,
                true,
            ),
            (
                json!({"id": "a", "component": {"Text": {"text": {"path": "/t", "componentId": "here"}}}}),
                Version::V08,
                false,
            ),
            (
                json!({"id": "a", "component": {"Text": {"text": {"path": "t"}}}}),
                Version::V08,
                true,
            ),
            (
                json!({"id": "a", "component": {"Text": {"text": {"path": 3}}}}),
                Version::V08,
                true,
            ),
            (
                json!({"id": "a", "component": {"Text": {"text": {"path": "t"}}}}),
                Version::V09,
                false,
            ),
            (
                json!({"id": "a", "component": "Row", "children": ["here", "gone"]}),
                Version::V09,
                true,
            ),
            (
                json!({"id": "a", "component": "Row", "children": ["here"]}),
                Version::V09,
                false,
            ),
        ];
        for (comp, version, expected) in cases {
            let mut made = comp.clone();
            let (_, _, rewritten) = process_component(&mut made, &[], present, version, Vec::new());
            assert_eq!(rewritten, expected, "{comp}");
            assert_eq!(rewritten, made != comp, "{comp}");
        }
        // An open, still empty list shows a placeholder.
        let comp = json!({"id": "a", "component": "Row", "children": []});
        let mut made = comp.clone();
        let open = ["children".to_owned()];
        let (placeholders, _, rewritten) =
            process_component(&mut made, &open, present, Version::V09, Vec::new());
        assert!(rewritten && made != comp);
        assert_eq!(placeholders, ["loading_children_a"]);
    }
}
