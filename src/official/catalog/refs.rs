//! What refers to components: the reference properties a catalog's schemas describe, and the
//! references a component makes.

use std::fmt;

use serde_json::{Map, Value};

use std::collections::BTreeMap;

use super::{Catalog, ComponentInfo, ComponentRef, Version};

/// Property names that hold one component id whatever the schema says.
const SINGLE_REF_NAMES: [&str; 3] = ["child", "contentChild", "entryPointChild"];
/// Property names looked at for single ids even when the catalog does not mark them.
const HEURISTIC_SINGLE: [&str; 6] = [
    "child",
    "contentChild",
    "entryPointChild",
    "detail",
    "summary",
    "root",
];
/// Property names looked at for lists of ids even when the catalog does not mark them.
const HEURISTIC_LIST: [&str; 3] = ["children", "explicitList", "template"];

impl Catalog {
    /// Every component id that `component` (a whole component object, v0.8 or v0.9 shape) refers
    /// to, in property order. Properties the catalog marks are read, and so are the usual
    /// reference names (`child`, `children`, `explicitList`, `template`, `detail`, `summary`,
    /// `root`, ...) and `child` inside objects of other lists (tabs).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use serde_json::json;
    /// let c = Catalog::new(Version::V09, json!(null), json!({"components": {}}), json!({}));
    /// let list = json!({"id": "l", "component": "List", "children": {"componentId": "row", "path": "/items"}});
    /// let refs = c.references(&list);
    /// assert_eq!((refs[0].id, refs[0].field.as_str()), ("row", "children.componentId"));
    /// ```
    pub fn references<'a>(&self, component: &'a Value) -> Vec<ComponentRef<'a>> {
        let mut out = Vec::new();
        self.for_each_reference(component, |id, field| {
            out.push(ComponentRef {
                id,
                field: field.to_string(),
            });
        });
        out
    }

    /// Calls `visit` with every reference of `component`, as [`Catalog::references`] finds
    /// them, in the same order; the field is named only when the caller asks (most callers
    /// need only the ids).
    pub(crate) fn for_each_reference<'a>(
        &self,
        component: &'a Value,
        mut visit: impl FnMut(&'a str, RefField<'a>),
    ) {
        match component.get("component") {
            Some(Value::String(kind)) => {
                if let Value::Object(props) = component {
                    self.collect_refs(kind, props, &mut visit);
                }
            }
            Some(Value::Object(typed)) => {
                for (kind, props) in typed {
                    if let Value::Object(props) = props {
                        self.collect_refs(kind, props, &mut visit);
                    }
                }
            }
            _ => {}
        }
    }

    fn collect_refs<'a>(
        &self,
        kind: &str,
        props: &'a Map<String, Value>,
        visit: &mut impl FnMut(&'a str, RefField<'a>),
    ) {
        if kind.is_empty() {
            return;
        }
        let info = self.components.get(kind);
        let is_single = |key: &str| {
            info.is_some_and(|i| i.single_refs.contains(key)) || HEURISTIC_SINGLE.contains(&key)
        };
        let marked_list = |key: &str| info.is_some_and(|i| i.list_refs.contains(key));
        for (key, value) in props {
            if is_single(key) {
                match value {
                    Value::String(id) => visit(id, RefField::Key(key)),
                    Value::Object(obj) => {
                        if let Some(Value::String(id)) = obj.get("componentId") {
                            visit(id, RefField::ComponentId(key));
                        }
                    }
                    _ => {}
                }
            } else if marked_list(key) || HEURISTIC_LIST.contains(&key.as_str()) {
                match value {
                    Value::Array(items) => {
                        for item in items {
                            if let Value::String(id) = item {
                                visit(id, RefField::Key(key));
                            }
                        }
                    }
                    Value::Object(obj) => {
                        if let Some(list) = obj.get("explicitList") {
                            if let Value::Array(items) = list {
                                for item in items {
                                    if let Value::String(id) = item {
                                        visit(id, RefField::ExplicitList(key));
                                    }
                                }
                            }
                        } else if let Some(template) = obj.get("template") {
                            if let Some(Value::String(id)) = template.get("componentId") {
                                visit(id, RefField::Template(key));
                            }
                        } else if let Some(Value::String(id)) = obj.get("componentId") {
                            visit(id, RefField::ComponentId(key));
                        }
                    }
                    _ => {}
                }
            }
            if let Value::Array(items) = value {
                if !marked_list(key) {
                    for (idx, item) in items.iter().enumerate() {
                        if let Some(Value::String(id)) = item.get("child") {
                            if !id.is_empty() {
                                visit(id, RefField::Child(key, idx));
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Where a reference was found, named on demand (see [`ComponentRef::field`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum RefField<'a> {
    /// The property itself: `child`, `children`.
    Key(&'a str),
    /// `<key>.componentId`.
    ComponentId(&'a str),
    /// `<key>.explicitList`.
    ExplicitList(&'a str),
    /// `<key>.template.componentId`.
    Template(&'a str),
    /// `<key>[<index>].child`.
    Child(&'a str, usize),
}

impl fmt::Display for RefField<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefField::Key(key) => f.write_str(key),
            RefField::ComponentId(key) => write!(f, "{key}.componentId"),
            RefField::ExplicitList(key) => write!(f, "{key}.explicitList"),
            RefField::Template(key) => write!(f, "{key}.template.componentId"),
            RefField::Child(key, idx) => write!(f, "{key}[{idx}].child"),
        }
    }
}

/// The component schemas by name: for v0.8 from the message schema's inlined
/// `surfaceUpdate.components.items.component.properties` when present, else (and for v0.9) from
/// the catalog's `components`.
fn component_schemas<'a>(
    version: Version,
    s2c: &'a Value,
    catalog: &'a Value,
) -> Option<&'a Map<String, Value>> {
    if version == Version::V08 {
        let inlined = s2c
            .pointer("/properties/surfaceUpdate/properties/components/items/properties/component/properties")
            .and_then(Value::as_object)
            .filter(|m| !m.is_empty());
        if inlined.is_some() {
            return inlined;
        }
    }
    catalog.get("components").and_then(Value::as_object)
}

pub(super) fn analyse_components(
    version: Version,
    s2c: &Value,
    catalog: &Value,
) -> BTreeMap<String, ComponentInfo> {
    let mut out = BTreeMap::new();
    let Some(schemas) = component_schemas(version, s2c, catalog) else {
        return out;
    };
    for (name, schema) in schemas {
        let mut info = ComponentInfo {
            schema: schema.clone(),
            ..ComponentInfo::default()
        };
        gather(schema, &mut info, 0);
        out.insert(name.clone(), info);
    }
    out
}

/// Schemas nest; this bounds how deep the analysis follows `allOf` / `oneOf` / `anyOf` and
/// combinators inside property schemas, so that a hostile schema cannot exhaust the stack.
const MAX_SCHEMA_DEPTH: usize = 64;

fn gather(schema: &Value, info: &mut ComponentInfo, depth: usize) {
    let Value::Object(map) = schema else { return };
    if depth > MAX_SCHEMA_DEPTH {
        return;
    }
    if let Some(Value::Array(required)) = map.get("required") {
        for r in required.iter().filter_map(Value::as_str) {
            if r != "component" {
                info.required.insert(r.to_owned());
            }
        }
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        for (name, prop) in props {
            if is_component_id(prop, 0) || SINGLE_REF_NAMES.contains(&name.as_str()) {
                info.single_refs.insert(name.clone());
            } else if is_child_list(prop, 0) || name == "children" {
                info.list_refs.insert(name.clone());
            }
        }
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        if let Some(Value::Array(subs)) = map.get(key) {
            for sub in subs {
                gather(sub, info, depth + 1);
            }
        }
    }
}

fn ref_of(map: &Map<String, Value>) -> &str {
    map.get("$ref").and_then(Value::as_str).unwrap_or("")
}

fn any_sub(map: &Map<String, Value>, depth: usize, test: fn(&Value, usize) -> bool) -> bool {
    ["oneOf", "anyOf", "allOf"].iter().any(|key| {
        map.get(*key)
            .and_then(Value::as_array)
            .is_some_and(|subs| subs.iter().any(|s| test(s, depth + 1)))
    })
}

/// Does this property schema describe one component id?
fn is_component_id(schema: &Value, depth: usize) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    if depth > MAX_SCHEMA_DEPTH {
        return false;
    }
    let r = ref_of(map);
    if r.ends_with("ComponentId")
        || r.ends_with("/Child")
        || r.ends_with("child")
        || r.contains("/child")
    {
        return true;
    }
    if map.get("type").and_then(Value::as_str) == Some("string")
        && map.get("title").and_then(Value::as_str) == Some("ComponentId")
    {
        return true;
    }
    any_sub(map, depth, is_component_id)
}

/// Does this property schema describe a list of component ids (or a template)?
fn is_child_list(schema: &Value, depth: usize) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    if depth > MAX_SCHEMA_DEPTH {
        return false;
    }
    let r = ref_of(map);
    if r.ends_with("ChildList") || r.ends_with("children") || r.contains("/children") {
        return true;
    }
    match map.get("type").and_then(Value::as_str) {
        Some("object") => {
            if let Some(Value::Object(props)) = map.get("properties") {
                if ["explicitList", "template", "componentId"]
                    .iter()
                    .any(|k| props.contains_key(*k))
                {
                    return true;
                }
            }
        }
        Some("array")
            if map
                .get("items")
                .is_some_and(|items| is_component_id(items, depth + 1)) =>
        {
            return true;
        }
        _ => {}
    }
    any_sub(map, depth, is_child_list)
}
