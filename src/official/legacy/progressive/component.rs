//! A component's emitted form: children that have not arrived swapped for placeholders, and
//! (v0.8) data-binding paths made absolute.

use serde_json::{Map, Value};

use crate::official::catalog::Version;

/// Fields whose ids are swapped for placeholders while the child is missing.
pub(super) const CHILD_FIELDS: [&str; 6] = [
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
                let (fields, path) = scan(obj);
                if fields != 0 {
                    return true;
                }
                if version == Version::V08 {
                    // No `componentId` here (it is one of the child fields).
                    match path {
                        Some(Value::String(p)) if p.starts_with('/') => {
                            if obj.len() > 1 {
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

/// Which of the [`CHILD_FIELDS`] `obj` has (bit `i` stands for `CHILD_FIELDS[i]`), and its
/// `path` member: one look at each key, cheaper than looking each field up in a small object.
fn scan(obj: &Map<String, Value>) -> (u8, Option<&Value>) {
    let mut fields = 0;
    let mut path = None;
    for (k, v) in obj {
        let bit = match k.as_str() {
            "children" => 0,
            "explicitList" => 1,
            "child" => 2,
            "contentChild" => 3,
            "entryPointChild" => 4,
            "componentId" => 5,
            "path" => {
                path = Some(v);
                continue;
            }
            _ => continue,
        };
        fields |= 1 << bit;
    }
    (fields, path)
}

/// [`CHILD_FIELDS`]`[5]`, as [`scan`] marks it.
const COMPONENT_ID: u8 = 1 << 5;

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
        Version::V09 | Version::V10 => object([
            ("id", Value::from(id)),
            ("component", Value::from("Row")),
            ("children", Value::Array(Vec::new())),
        ]),
    }
}

/// Copies `src` into `dst`, reusing what `dst` already holds (its strings, lists and maps)
/// wherever the two have the same shape, so that making a component's emitted form again
/// allocates only for what is new in it.
pub(super) fn assign(dst: &mut Value, src: &Value) {
    match (dst, src) {
        (Value::String(d), Value::String(s)) => set_string(d, s),
        (Value::Array(d), Value::Array(s)) => {
            d.truncate(s.len());
            for (dv, sv) in d.iter_mut().zip(s) {
                assign(dv, sv);
            }
            if let Some(more) = s.get(d.len()..) {
                d.extend(more.iter().cloned());
            }
        }
        (Value::Object(d), Value::Object(s)) => {
            // Same keys (the usual case): each member written over in the one pass that finds so.
            let same_keys = d.len() == s.len()
                && d.iter_mut().zip(s).all(|((dk, dv), (sk, sv))| {
                    let same = dk == sk;
                    if same {
                        assign(dv, sv);
                    }
                    same
                });
            if same_keys {
                return;
            }
            // Keys differ (some members may be written over already): make them agree, then
            // write every member over.
            d.retain(|k, _| s.contains_key(k));
            for k in s.keys() {
                if !d.contains_key(k) {
                    d.insert(k.clone(), Value::Null);
                }
            }
            // Both maps now hold the same keys, in the same (sorted) order.
            for ((_, dv), (_, sv)) in d.iter_mut().zip(s) {
                assign(dv, sv);
            }
        }
        (d, s) => *d = s.clone(),
    }
}

/// `dst` made a copy of `src`, in its own buffer when that is large enough, else in a new one
/// (growing the old buffer would copy what it held first).
pub(super) fn set_string(dst: &mut String, src: &str) {
    if dst.capacity() < src.len() {
        *dst = src.to_owned();
    } else {
        dst.clear();
        dst.push_str(src);
    }
}

/// What [`process_component`] made of a component besides its emitted form.
#[derive(Debug, Default)]
pub(super) struct Processed {
    /// The placeholder ids used, in order of first use.
    pub(super) placeholders: Vec<String>,
    /// The missing child ids behind them (not the `loading_children_` ones).
    pub(super) missing: Vec<String>,
    /// Which of `missing` were not missing in the form made before.
    pub(super) newly_missing: Vec<usize>,
    /// The ids missing in the form made before that are not missing now.
    pub(super) no_longer_missing: Vec<String>,
    /// Something in the component was rewritten.
    pub(super) rewritten: bool,
    /// How many child ids were looked at (present or missing).
    pub(super) calls: usize,
}

/// What [`process_component`] makes of a component whose emitted form was made before from all
/// but its last child id, added since at the end of the list `list` of that form: `list` gains
/// the id, or its placeholder when `present` says the child has not arrived, and the earlier
/// placeholder and missing ids (`earlier`, of a form that was rewritten) gain it when it is new.
/// Only when every child id the earlier form was made from is an item of `list`
/// (`earlier.calls` of them, all strings), so that the new one is the last looked at, and
/// nothing else changed since; `earlier` comes back, nothing changed, when the list does not
/// show that.
pub(super) fn append_child(
    list: &mut Vec<Value>,
    child: &str,
    present: bool,
    mut earlier: Processed,
) -> Result<Processed, Processed> {
    if list.len() != earlier.calls || !list.iter().all(Value::is_string) {
        return Err(earlier);
    }
    earlier.calls += 1;
    earlier.rewritten = true;
    earlier.newly_missing.clear();
    earlier.no_longer_missing.clear();
    if present {
        list.push(Value::from(child));
        return Ok(earlier);
    }
    let pid = placeholder_id(child);
    if !earlier.placeholders.contains(&pid) {
        earlier.placeholders.push(pid.clone());
    }
    if !earlier.missing.iter().any(|m| m == child) {
        earlier.newly_missing.push(earlier.missing.len());
        earlier.missing.push(child.to_owned());
    }
    list.push(Value::String(pid));
    Ok(earlier)
}

/// Shows in `form`, an emitted form made before (with no open list), the children `came` that
/// arrived since in place of their placeholders, leaving everything else as it is: what making
/// the form again from the component would give, when only the presence of those children
/// changed and no id it names starts with [`PLACEHOLDER_PREFIX`] (a placeholder id then stands
/// only for a missing child). Returns how many ids it swapped.
pub(super) fn show_arrived(form: &mut Value, came: &[String]) -> usize {
    /// `slot` made the child id its placeholder stands for, if that child is one of `came`.
    fn swap(slot: &mut String, came: &[String]) -> usize {
        let arrived = stands_for_one_of(slot, came);
        if arrived {
            slot.drain(..PLACEHOLDER_PREFIX.len());
        }
        usize::from(arrived)
    }
    fn walk(v: &mut Value, came: &[String]) -> usize {
        let mut swapped = 0;
        match v {
            Value::Object(obj) => {
                let (mask, _) = scan(obj);
                if mask != 0 {
                    for (k, v) in obj.iter_mut() {
                        if !CHILD_FIELDS.contains(&k.as_str()) {
                            continue;
                        }
                        match v {
                            Value::Array(items) => {
                                for item in items.iter_mut() {
                                    if let Value::String(child) = item {
                                        swapped += swap(child, came);
                                    }
                                }
                            }
                            Value::String(child) => swapped += swap(child, came),
                            _ => {}
                        }
                    }
                }
                for child in obj.values_mut() {
                    swapped += walk(child, came);
                }
            }
            Value::Array(items) => {
                for item in items {
                    swapped += walk(item, came);
                }
            }
            _ => {}
        }
        swapped
    }
    match form {
        Value::Object(obj) if obj.get("component").is_some_and(Value::is_object) => {
            obj.get_mut("component").map_or(0, |body| walk(body, came))
        }
        _ => walk(form, came),
    }
}

/// Whether `id` is the placeholder id of one of the children `came`.
pub(super) fn stands_for_one_of(id: &str, came: &[String]) -> bool {
    id.strip_prefix(PLACEHOLDER_PREFIX)
        .is_some_and(|child| came.iter().any(|c| c == child))
}

/// What a placeholder id starts with: a missing child `c` shows as `loading_c`, the still empty
/// open list of component `p` as `loading_children_p`.
pub(super) const PLACEHOLDER_PREFIX: &str = "loading_";

/// The placeholder id of `child`: [`PLACEHOLDER_PREFIX`] and the child's id.
fn placeholder_id(child: &str) -> String {
    let mut pid = String::with_capacity(PLACEHOLDER_PREFIX.len() + child.len());
    pid.push_str(PLACEHOLDER_PREFIX);
    pid.push_str(child);
    pid
}

/// Whether `pid` is the placeholder id of `child` ([`PLACEHOLDER_PREFIX`] and the child's id).
fn is_placeholder_of(pid: &str, child: &str) -> bool {
    pid.strip_prefix(PLACEHOLDER_PREFIX) == Some(child)
}

/// Takes the id `is` matches out of `earlier` (ids in reverse order of use), looking from the
/// end (where the next one usually is, and where taking it moves nothing), keeping the rest in
/// order.
fn take_earlier(earlier: &mut Vec<String>, is: impl Fn(&str) -> bool) -> Option<String> {
    let at = earlier.iter().rposition(|id| is(id))?;
    Some(earlier.remove(at))
}

/// What [`process_component`] works with while it walks a component.
struct Ctx<'a, P> {
    /// The component's id.
    id: String,
    open_lists: &'a [String],
    present: P,
    version: Version,
    made: Processed,
    /// The placeholder ids of the form made before, not used yet, the first used last.
    earlier: Vec<String>,
    /// The missing ids of the form made before, not found missing yet, the first found last.
    earlier_missing: Vec<String>,
}

impl<P: Fn(&str) -> bool> Ctx<'_, P> {
    /// The id to show for `child`: itself when present, else its placeholder.
    ///
    /// A form is usually made again with the children of the form before, in the same order:
    /// the next earlier id is then the last of its list, taken in one look. An id taken from
    /// an earlier list cannot be in the list being made (each earlier id is there once, and
    /// an id is made anew only when no earlier one matches), so only an id not found there
    /// is looked for among those made.
    fn child(&mut self, child: &mut String) {
        self.made.calls += 1;
        if (self.present)(child) {
            return;
        }
        let made = &mut self.made;
        match take_earlier(&mut self.earlier, |p| is_placeholder_of(p, child)) {
            Some(owned) => made.placeholders.push(owned),
            None => {
                if !made
                    .placeholders
                    .iter()
                    .any(|p| is_placeholder_of(p, child))
                {
                    made.placeholders.push(placeholder_id(child));
                }
            }
        }
        match take_earlier(&mut self.earlier_missing, |m| m == child.as_str()) {
            Some(owned) => made.missing.push(owned),
            None => {
                if !made.missing.iter().any(|m| m == child) {
                    made.newly_missing.push(made.missing.len());
                    made.missing.push(child.clone());
                }
            }
        }
        child.insert_str(0, PLACEHOLDER_PREFIX);
        made.rewritten = true;
    }

    /// Notes `pid` (the placeholder of a list of children still empty) as used.
    fn add(&mut self, pid: &str) {
        if let Some(owned) = take_earlier(&mut self.earlier, |p| p == pid) {
            self.made.placeholders.push(owned);
        } else if !self.made.placeholders.iter().any(|p| p == pid) {
            self.made.placeholders.push(pid.to_owned());
        }
    }

    /// Swaps the children and rewrites the paths of `v` and all it holds.
    fn walk(&mut self, v: &mut Value) {
        match v {
            Value::Object(obj) => {
                let (mut mask, path) = scan(obj);
                if self.version == Version::V08 {
                    match path {
                        // An absolute path alone is kept as it is (and nothing else is).
                        Some(Value::String(p))
                            if p.starts_with('/') && obj.len() > 1 && mask & COMPONENT_ID == 0 =>
                        {
                            obj.retain(|k, _| k == "path");
                            mask = 0;
                            self.made.rewritten = true;
                        }
                        Some(Value::String(p)) if p.starts_with('/') => {}
                        Some(Value::String(_)) => {
                            if let Some(Value::String(p)) = obj.get_mut("path") {
                                p.insert(0, '/');
                            }
                            self.made.rewritten = true;
                        }
                        Some(other) if !other.is_null() => {
                            let p = format!("/{other}");
                            obj.insert("path".into(), Value::String(p));
                            self.made.rewritten = true;
                        }
                        _ => {}
                    }
                }
                // Only the fields it has are looked up, in the order of CHILD_FIELDS.
                let fields = CHILD_FIELDS
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & 1 << i != 0);
                for (_, &field) in fields {
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
                                let pid = format!("{PLACEHOLDER_PREFIX}children_{}", self.id);
                                self.add(&pid);
                                items.push(Value::String(pid));
                                self.made.rewritten = true;
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

/// Swaps references to children that have not arrived (`present` says which have) for
/// placeholder ids and, for v0.8, makes data-binding paths absolute, in `comp` (a copy of the
/// component). `earlier` is what the form made before returned: its placeholder and missing
/// ids are reused rather than made again, and tell which missing ids are new and which are
/// gone.
pub(super) fn process_component(
    comp: &mut Value,
    open_lists: &[String],
    present: impl Fn(&str) -> bool,
    version: Version,
    earlier: Processed,
) -> Processed {
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
        made: Processed {
            // Room for one more than before: a list being written gains one child at a time.
            placeholders: Vec::with_capacity(earlier.placeholders.len() + 1),
            missing: Vec::with_capacity(earlier.missing.len() + 1),
            ..Processed::default()
        },
        earlier: earlier.placeholders,
        earlier_missing: earlier.missing,
    };
    // The first used last: taken off the end while the children come in the same order.
    ctx.earlier.reverse();
    ctx.earlier_missing.reverse();
    if let Value::Object(obj) = comp {
        match obj.get_mut("component") {
            Some(body @ Value::Object(_)) => ctx.walk(body),
            _ => ctx.walk(comp),
        }
    }
    let mut made = ctx.made;
    made.no_longer_missing = ctx.earlier_missing;
    made
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::official::json_trees::json_trees;
    use proptest::prelude::*;

    #[test]
    fn scan_marks_each_child_field_by_its_place_and_finds_the_path() {
        for (i, field) in CHILD_FIELDS.iter().enumerate() {
            let obj = Map::from_iter([((*field).to_owned(), Value::Null)]);
            assert_eq!(scan(&obj), (1 << i, None), "{field}");
        }
        let at = CHILD_FIELDS.iter().position(|f| *f == "componentId");
        assert_eq!(at.map(|i| 1u8 << i), Some(COMPONENT_ID));
        let obj = Map::from_iter([
            ("path".to_owned(), Value::from("/a")),
            ("child".to_owned(), Value::from("b")),
            ("text".to_owned(), Value::from("c")),
        ]);
        assert_eq!(scan(&obj), (1 << 2, Some(&Value::from("/a"))));
    }

    /// JSON values built from a few keys and strings, so that two of them often share part of
    /// their shape (what [`assign`] reuses) and components name children that may be missing.
    fn json() -> impl Strategy<Value = Value> {
        let word = prop_oneof![
            Just("a"),
            Just("b"),
            Just("here"),
            Just("gone"),
            Just("path"),
            Just("/t"),
            Just("loading_gone"),
        ];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (0..3i64).prop_map(Value::from),
            word.clone().prop_map(Value::from),
        ];
        let key = prop_oneof![
            Just("a"),
            Just("b"),
            Just("path"),
            Just("child"),
            Just("children"),
            Just("explicitList"),
            Just("componentId"),
            Just("literalString"),
        ];
        json_trees(leaf, key, 4, 32)
    }

    proptest! {
        #[test]
        fn assign_makes_a_copy_whatever_was_there(dst in json(), src in json()) {
            let mut made = dst;
            assign(&mut made, &src);
            prop_assert_eq!(made, src);
        }

        /// Making a form in the buffer of an earlier one, with what that one returned, gives
        /// what making it from a fresh copy gives, and tells the missing ids that came and went.
        #[test]
        fn a_form_made_over_an_earlier_one_is_the_form_made_afresh(
            before in proptest::collection::vec((prop_oneof![Just("child"), Just("children"), Just("a")], json()), 0..4),
            now in proptest::collection::vec((prop_oneof![Just("child"), Just("children"), Just("a")], json()), 0..4),
            v09 in any::<bool>(),
            open in any::<bool>(),
        ) {
            let version = if v09 { Version::V09 } else { Version::V08 };
            let wrap = |members: Vec<(&str, Value)>| {
                let body = members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                let mut comp = Map::new();
                comp.insert("id".into(), Value::from("c"));
                comp.insert("component".into(), Value::Object(body));
                Value::Object(comp)
            };
            let (before, now) = (wrap(before), wrap(now));
            let open = if open { vec!["children".to_owned(), "explicitList".to_owned()] } else { Vec::new() };
            let present = |c: &str| c == "here";
            let mut earlier_form = before.clone();
            let earlier = process_component(&mut earlier_form, &open, present, version, Processed::default());
            let earlier_missing = earlier.missing.clone();

            let mut fresh = now.clone();
            let expected = process_component(&mut fresh, &open, present, version, Processed::default());
            let mut reused = earlier_form;
            assign(&mut reused, &now);
            let made = process_component(&mut reused, &open, present, version, earlier);

            prop_assert_eq!(&reused, &fresh);
            prop_assert_eq!(made.rewritten, expected.rewritten);
            prop_assert_eq!(made.rewritten, fresh != now);
            prop_assert_eq!(&made.placeholders, &expected.placeholders);
            let mut missing = made.missing.clone();
            let mut expected_missing = expected.missing.clone();
            missing.sort();
            expected_missing.sort();
            prop_assert_eq!(missing, expected_missing);
            let mut came: Vec<&String> = made.newly_missing.iter().filter_map(|&i| made.missing.get(i)).collect();
            came.sort();
            let mut should_come: Vec<&String> = made.missing.iter().filter(|m| !earlier_missing.contains(m)).collect();
            should_come.sort();
            prop_assert_eq!(came, should_come);
            let mut went = made.no_longer_missing.clone();
            went.sort();
            let mut should_go: Vec<String> = earlier_missing.iter().filter(|m| !made.missing.contains(m)).cloned().collect();
            should_go.sort();
            prop_assert_eq!(went, should_go);
        }
    }

    #[test]
    fn show_arrived_swaps_only_the_placeholders_of_children_that_came() {
        use serde_json::json;
        let comp = json!({"id": "a", "component": {"Column": {"children": {"explicitList": ["x", "y", "x"]}, "label": "loading_x"}}});
        let mut form = comp.clone();
        process_component(
            &mut form,
            &[],
            |_| false,
            Version::V08,
            Processed::default(),
        );
        let swapped = show_arrived(&mut form, &["x".to_owned()]);
        assert_eq!(swapped, 2);
        let mut expected = comp.clone();
        process_component(
            &mut expected,
            &[],
            |c| c == "x",
            Version::V08,
            Processed::default(),
        );
        assert_eq!(form, expected);
    }

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
            let rewritten =
                process_component(&mut made, &[], present, version, Processed::default()).rewritten;
            assert_eq!(rewritten, expected, "{comp}");
            assert_eq!(rewritten, made != comp, "{comp}");
        }
        // An open, still empty list shows a placeholder.
        let comp = json!({"id": "a", "component": "Row", "children": []});
        let mut made = comp.clone();
        let open = ["children".to_owned()];
        let made_of = process_component(
            &mut made,
            &open,
            present,
            Version::V09,
            Processed::default(),
        );
        assert!(made_of.rewritten && made != comp);
        assert_eq!(made_of.placeholders, ["loading_children_a"]);
    }
}
