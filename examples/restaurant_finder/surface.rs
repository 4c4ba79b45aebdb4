//! What a client holds after applying A2UI messages: surfaces with their root, components and data
//! model. The agent rebuilds this from what it streamed to check the UI before the run ends; tests
//! rebuild it from what the client received.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Components of the basic catalogs (the same names in v0.8, v0.9 and v1.0).
pub const KNOWN_COMPONENTS: &[&str] = &[
    "Text",
    "Image",
    "Icon",
    "Video",
    "AudioPlayer",
    "Row",
    "Column",
    "List",
    "Card",
    "Tabs",
    "Divider",
    "Modal",
    "Button",
    "CheckBox",
    "TextField",
    "DateTimeInput",
    "MultipleChoice",
    "ChoicePicker",
    "Slider",
];

/// One surface as a client would hold it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Surface {
    /// `"v0.8"`, `"v0.9"` or `"v1.0"`.
    pub version: String,
    /// Whether `beginRendering` / `createSurface` arrived.
    pub opened: bool,
    /// The root component id (v0.8: from `beginRendering`; later: always `root`).
    pub root: Option<String>,
    /// Components by id, as last sent.
    pub components: BTreeMap<String, Value>,
    /// The data model, as a JSON object.
    pub data: Value,
}

/// All surfaces, by id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ui {
    pub surfaces: BTreeMap<String, Surface>,
}

fn str_field<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing string field `{key}`"))
}

/// Converts v0.8 `contents` entries (`{key, valueString|valueNumber|valueBoolean|valueMap}`) into
/// plain JSON.
fn v08_contents(entries: &[Value]) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for e in entries {
        let key = str_field(e, "key")?.to_owned();
        let value = if let Some(s) = e.get("valueString") {
            s.clone()
        } else if let Some(n) = e.get("valueNumber") {
            n.clone()
        } else if let Some(b) = e.get("valueBoolean") {
            b.clone()
        } else if let Some(Value::Array(m)) = e.get("valueMap") {
            Value::Object(v08_contents(m)?)
        } else {
            return Err(format!("data entry `{key}` has no value"));
        };
        out.insert(key, value);
    }
    Ok(out)
}

/// Sets `value` at a JSON-pointer-like `path` ("/" or "" is the whole model) inside `data`,
/// replacing what is there: an index one past the end of an array appends (a data-model update
/// split per entry sets `/items` to `[]`, then `/items/0`, `/items/1`, ...), and missing levels are
/// created as objects.
fn set_path(data: &mut Value, path: &str, value: Value) {
    let parts: Vec<String> = path
        .split('/')
        .filter(|p| !p.is_empty())
        .map(|p| p.replace("~1", "/").replace("~0", "~"))
        .collect();
    let Some((last, parents)) = parts.split_last() else {
        *data = value;
        return;
    };
    let mut cur = data;
    for part in parents {
        cur = match cur {
            Value::Array(items) => match part.parse::<usize>() {
                Ok(i) if i < items.len() => &mut items[i],
                _ => return,
            },
            other => {
                if !other.is_object() {
                    *other = Value::Object(Map::new());
                }
                let Some(obj) = other.as_object_mut() else {
                    return;
                };
                obj.entry(part.clone())
                    .or_insert_with(|| Value::Object(Map::new()))
            }
        };
    }
    match cur {
        Value::Array(items) => match last.parse::<usize>() {
            Ok(i) if i < items.len() => items[i] = value,
            Ok(i) if i == items.len() => items.push(value),
            _ => {}
        },
        other => {
            if !other.is_object() {
                *other = Value::Object(Map::new());
            }
            if let Some(obj) = other.as_object_mut() {
                obj.insert(last.clone(), value);
            }
        }
    }
}

/// Removes what is at `path` (what a v1.0 `updateDataModel` with `"value": null` does); the
/// whole model becomes empty when `path` is the root.
fn remove_path(data: &mut Value, path: &str) {
    let parts: Vec<String> = path
        .split('/')
        .filter(|p| !p.is_empty())
        .map(|p| p.replace("~1", "/").replace("~0", "~"))
        .collect();
    let Some((last, parents)) = parts.split_last() else {
        *data = Value::Object(Map::new());
        return;
    };
    let mut cur = data;
    for part in parents {
        let next = match cur {
            Value::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get_mut(i)),
            Value::Object(obj) => obj.get_mut(part),
            _ => None,
        };
        let Some(next) = next else { return };
        cur = next;
    }
    match cur {
        Value::Array(items) => {
            if let Some(i) = last.parse::<usize>().ok().filter(|i| *i < items.len()) {
                items.remove(i);
            }
        }
        Value::Object(obj) => {
            obj.remove(last);
        }
        _ => {}
    }
}

/// Whether `id` is an identifier as v1.0 wants component ids (UAX #31: a letter or `_`, then
/// letters, digits and `_`).
pub fn is_identifier(id: &str) -> bool {
    let mut chars = id.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// Where a component binds data the v0.9 way, `{"path": ..}`, which v1.0 spells `{"@path": ..}`
/// (a list template's `{"componentId", "path"}` is not a binding): the property names leading
/// to each such object.
pub fn old_style_bindings(c: &Value) -> Vec<String> {
    fn walk(v: &Value, at: &str, out: &mut Vec<String>) {
        match v {
            Value::Object(m) if m.contains_key("path") && !m.contains_key("componentId") => {
                out.push(at.to_owned());
            }
            Value::Object(m) => {
                for (k, inner) in m {
                    walk(inner, &format!("{at}.{k}"), out);
                }
            }
            Value::Array(items) => {
                for (i, inner) in items.iter().enumerate() {
                    walk(inner, &format!("{at}[{i}]"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(c, "", &mut out);
    out.iter_mut()
        .for_each(|p| *p = p.trim_start_matches('.').to_owned());
    out
}

/// The type name of a component object (v0.8: the single key of `component`; v0.9: `component`).
pub fn component_type(c: &Value) -> Option<&str> {
    match c.get("component")? {
        Value::String(s) => Some(s),
        Value::Object(m) if m.len() == 1 => m.keys().next().map(String::as_str),
        _ => None,
    }
}

/// The properties of a component (v0.8: the object under its type; v0.9: the component itself).
fn component_props(c: &Value) -> Option<&Map<String, Value>> {
    match c.get("component")? {
        Value::String(_) => c.as_object(),
        Value::Object(m) => m.values().next().and_then(Value::as_object),
        _ => None,
    }
}

/// Ids a component refers to: `child`, `children` (list or template), and in v0.8 `explicitList`.
pub fn references(c: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(props) = component_props(c) else {
        return out;
    };
    for key in ["child", "contentChild", "entryPointChild"] {
        if let Some(Value::String(s)) = props.get(key) {
            out.push(s.clone());
        }
    }
    let list = |v: &Value, out: &mut Vec<String>| {
        if let Value::Array(items) = v {
            out.extend(items.iter().filter_map(Value::as_str).map(str::to_owned));
        }
    };
    match props.get("children") {
        Some(v @ Value::Array(_)) => list(v, &mut out),
        Some(Value::Object(m)) => {
            if let Some(v) = m.get("explicitList") {
                list(v, &mut out);
            }
            let template = m.get("template").unwrap_or(&Value::Null);
            for t in [template, &Value::Object(m.clone())] {
                if let Some(Value::String(s)) = t.get("componentId") {
                    out.push(s.clone());
                }
            }
        }
        _ => {}
    }
    out.dedup();
    out
}

impl Ui {
    /// An empty UI.
    pub fn new() -> Self {
        Ui::default()
    }

    /// Applies one A2UI message (v0.8, v0.9 or v1.0) the way a client would.
    pub fn apply(&mut self, msg: &Value) -> Result<(), String> {
        let obj = msg.as_object().ok_or("message is not a JSON object")?;
        let version = obj
            .get("version")
            .and_then(Value::as_str)
            .unwrap_or("v0.8")
            .to_owned();
        let (key, body) = obj
            .iter()
            .find(|(k, _)| k.as_str() != "version")
            .ok_or("message has no operation")?;
        if matches!(
            key.as_str(),
            "callRendererFunction" | "agentFunctionResponse"
        ) {
            return Ok(()); // v1.0 function calls: they change no surface
        }
        let surface_id = str_field(body, "surfaceId")?.to_owned();
        match key.as_str() {
            "beginRendering" | "createSurface" => {
                let s = self.surfaces.entry(surface_id).or_default();
                s.version = version;
                s.opened = true;
                s.root = Some(if key == "beginRendering" {
                    str_field(body, "root")?.to_owned()
                } else {
                    "root".into()
                });
                // v1.0 may give the first components and data model right here.
                for c in body
                    .get("components")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    s.components
                        .insert(str_field(c, "id")?.to_owned(), c.clone());
                }
                if let Some(data) = body.get("dataModel") {
                    s.data = data.clone();
                }
            }
            "surfaceUpdate" | "updateComponents" => {
                let comps = body
                    .get("components")
                    .and_then(Value::as_array)
                    .ok_or("missing `components` list")?;
                let s = self.surfaces.entry(surface_id).or_default();
                if s.version.is_empty() {
                    s.version = version;
                }
                for c in comps {
                    let id = str_field(c, "id")?.to_owned();
                    s.components.insert(id, c.clone());
                }
            }
            "dataModelUpdate" => {
                let path = body.get("path").and_then(Value::as_str).unwrap_or("/");
                let contents = body
                    .get("contents")
                    .and_then(Value::as_array)
                    .ok_or("missing `contents` list")?;
                // One entry keyed "." is the value at the path itself (how a scalar is set).
                let value = match &contents[..] {
                    [only] if only.get("key").and_then(Value::as_str) == Some(".") => {
                        let mut entry = only.clone();
                        entry["key"] = Value::from("v");
                        v08_contents(&[entry])?.remove("v").unwrap_or(Value::Null)
                    }
                    _ => Value::Object(v08_contents(contents)?),
                };
                let s = self.surfaces.entry(surface_id).or_default();
                set_path(&mut s.data, path, value);
            }
            "updateDataModel" => {
                let path = body.get("path").and_then(Value::as_str).unwrap_or("/");
                let value = body.get("value").cloned();
                let s = self.surfaces.entry(surface_id).or_default();
                match value {
                    Some(Value::Null) if version == "v1.0" => remove_path(&mut s.data, path),
                    None if version == "v1.0" => {
                        return Err("a v1.0 `updateDataModel` needs a `value`".into());
                    }
                    value => set_path(&mut s.data, path, value.unwrap_or(Value::Null)),
                }
            }
            "deleteSurface" => {
                self.surfaces.remove(&surface_id);
            }
            other => return Err(format!("unknown operation `{other}`")),
        }
        Ok(())
    }

    /// What is wrong with the UI as a whole: surfaces never opened, a missing root, a reference to
    /// a component that was never sent, a component of an unknown type, a component nobody
    /// reaches; in v1.0 also an id that is not an identifier and a binding written `{"path": ..}`.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (sid, s) in &self.surfaces {
            if !s.opened {
                out.push(format!(
                    "surface `{sid}` got components or data but was never opened (beginRendering / createSurface)"
                ));
            }
            for (id, c) in s.components.iter().filter(|_| s.version == "v1.0") {
                if !is_identifier(id) {
                    out.push(format!("surface `{sid}`: component id `{id}` is not an identifier (letters, digits, `_`; v1.0 has no `-` in ids)"));
                }
                for at in old_style_bindings(c) {
                    out.push(format!("surface `{sid}`: component `{id}` binds `{at}` with `path`; v1.0 writes {{\"@path\": ..}}"));
                }
            }
            for (id, c) in &s.components {
                match component_type(c) {
                    None => out.push(format!(
                        "surface `{sid}`: component `{id}` has no single component type"
                    )),
                    Some(t) if !KNOWN_COMPONENTS.contains(&t) => out.push(format!(
                        "surface `{sid}`: component `{id}` has unknown type `{t}`"
                    )),
                    Some(_) => {}
                }
                for r in references(c) {
                    if !s.components.contains_key(&r) {
                        out.push(format!("surface `{sid}`: component `{id}` refers to `{r}`, which was never sent"));
                    }
                }
            }
            if let Some(root) = &s.root {
                if !s.components.contains_key(root) {
                    out.push(format!(
                        "surface `{sid}`: root component `{root}` was never sent"
                    ));
                } else {
                    // Everything should hang off the root.
                    let mut seen = std::collections::BTreeSet::new();
                    let mut stack = vec![root.clone()];
                    while let Some(id) = stack.pop() {
                        if seen.insert(id.clone()) {
                            if let Some(c) = s.components.get(&id) {
                                stack.extend(references(c));
                            }
                        }
                    }
                    for id in s.components.keys().filter(|id| !seen.contains(*id)) {
                        out.push(format!(
                            "surface `{sid}`: component `{id}` is not reachable from the root"
                        ));
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn v10_surfaces_take_inline_parts_deletions_and_report_old_habits() {
        let mut ui = Ui::new();
        let create = json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
            "components": [{"id": "root", "component": "Column", "children": ["a-b"]},
                           {"id": "a-b", "component": "Text", "text": {"path": "/t"}}],
            "dataModel": {"t": "hi", "gone": 1}}});
        ui.apply(&create).unwrap();
        let delete = json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/gone", "value": null}});
        ui.apply(&delete).unwrap();
        let call = json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "f",
            "callFunction": {"@call": "openUrl", "catalogId": "c", "args": {"url": "https://a2ui.org"}}}});
        ui.apply(&call).unwrap();
        let no_value =
            json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/t"}});
        assert!(ui.apply(&no_value).is_err());
        let s = &ui.surfaces["s"];
        assert_eq!(s.data, json!({"t": "hi"}));
        assert_eq!(s.components.len(), 2);
        let problems = ui.problems();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].contains("`a-b` is not an identifier"),
            "{problems:?}"
        );
        assert!(
            problems[1].contains("binds `text` with `path`"),
            "{problems:?}"
        );
        // A list template's `path` is no binding; v0.9 keeps its own spelling.
        let template = json!({"id": "l", "component": "List", "children": {"componentId": "c", "path": "/items"}});
        assert!(old_style_bindings(&template).is_empty());
        assert!(is_identifier("card_book") && is_identifier("_x1") && !is_identifier("1x"));
    }
}
