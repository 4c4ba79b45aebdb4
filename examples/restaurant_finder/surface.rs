//! What a client holds after applying A2UI messages: surfaces with their root, components and data
//! model. The agent rebuilds this from what it streamed to check that every surface it draws on is
//! opened, which the official validator cannot see ([`Ui::unopened`]); tests rebuild it from what
//! the client received.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

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

    /// Surfaces that got components or data but were never opened (`beginRendering` /
    /// `createSurface`), one problem each.
    ///
    /// The official validator cannot see this: it takes the components of a surface that a list
    /// of messages does not open for an update of a surface opened earlier, and checks neither
    /// their root nor their references. The demo's answers open every surface they draw on (the
    /// prompt says so), so the agent refuses an answer that does not.
    pub fn unopened(&self) -> Vec<String> {
        self.surfaces
            .iter()
            .filter(|(_, s)| !s.opened)
            .map(|(sid, _)| format!(
                "surface `{sid}` got components or data but was never opened (beginRendering / createSurface)"
            ))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn v10_surfaces_take_inline_parts_and_deletions() {
        let mut ui = Ui::new();
        let create = json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
            "components": [{"id": "root", "component": "Column", "children": ["a"]},
                           {"id": "a", "component": "Text", "text": {"@path": "/t"}}],
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
        assert!(ui.unopened().is_empty());
    }

    #[test]
    fn a_surface_drawn_on_but_never_opened_is_named() {
        let mut ui = Ui::new();
        let update = json!({"version": "v0.9", "updateComponents": {"surfaceId": "s",
            "components": [{"id": "root", "component": "Text", "text": "hi"}]}});
        ui.apply(&update).unwrap();
        assert_eq!(
            ui.unopened(),
            [
                "surface `s` got components or data but was never opened (beginRendering / createSurface)"
            ]
        );
        let create =
            json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}});
        ui.apply(&create).unwrap();
        assert!(ui.unopened().is_empty());
    }
}
