//! v0.8 `surfaceUpdate`s a renderer accepts: each defines every component id it references.

use crate::MessageKind;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};

/// Completes v0.8 `surfaceUpdate` messages so that each defines every id it references; other
/// messages pass through unchanged. One per run (or per client): it remembers, per surface, the
/// components already shown (its memory is that of the surfaces' components, until a
/// `deleteSurface`).
///
/// `@a2ui/web_core` (every release since 0.9.2) rejects a v0.8 `surfaceUpdate` whose components
/// name a child that is not defined *in the same message*, even when an earlier message defined
/// it. A stream split component by component names its children before they are written, so
/// each update is completed before it goes out:
///
/// - a referenced id never shown yet gets a **stand-in** in the same message: an empty
///   `Column` (`{"Column":{"children":{"explicitList":[]}}}`), which draws nothing. When the real
///   component arrives it replaces the stand-in, so the UI still grows top-down as components
///   close;
/// - a referenced id already shown is sent again as the component last shown under it (with what
///   it references in turn), so a component already on screen is never replaced by a stand-in.
///
/// References are what the v0.8 standard catalog makes them: `children.explicitList`,
/// `children.template.componentId`, `child`, `entryPointChild`, `contentChild` and
/// `tabItems[].child`.
///
/// What it costs: a stand-in is about 70 bytes plus its id, sent once per id that is named before
/// it is written (top-down order: once per child). A component is sent again only when a message
/// names it after it was shown (bottom-up order, or a parent rewritten), then with its subtree.
/// Measured on the A2UI project's v0.8 restaurant examples, split component by component: the
/// single-column list gains 12 stand-ins (3210 → 4168 bytes of messages, +30%), the two-column
/// list 22 components (5140 → 6931, +35%), the booking form 8 (+22%), the confirmation 9 (+32%).
///
/// ```
/// use a2ui_stream::agui::SelfContained;
/// use serde_json::json;
///
/// let mut updates = SelfContained::default();
/// let root = json!({"surfaceUpdate": {"surfaceId": "s", "components": [
///     {"id": "root", "component": {"Column": {"children": {"explicitList": ["title"]}}}}]}});
/// let sent = updates.complete(root);
/// let ids: Vec<_> = sent["surfaceUpdate"]["components"].as_array().unwrap().iter()
///     .map(|c| c["id"].as_str().unwrap()).collect();
/// assert_eq!(ids, ["root", "title"]); // "title" as a stand-in, until it arrives
/// let title = json!({"surfaceUpdate": {"surfaceId": "s", "components": [
///     {"id": "title", "component": {"Text": {"text": {"literalString": "Hi"}}}}]}});
/// assert_eq!(updates.complete(title.clone()), title); // nothing to add
/// ```
#[derive(Debug, Clone, Default)]
pub struct SelfContained {
    surfaces: HashMap<String, Surface>,
}

#[derive(Debug, Clone, Default)]
struct Surface {
    /// The last definition shown under each id (stand-ins are not kept).
    shown: HashMap<String, Value>,
    /// Ids shown as stand-ins so far.
    stand_ins: HashSet<String>,
}

/// The ids a v0.8 component references, in order.
fn references(component: &Value) -> Vec<&str> {
    let mut out = Vec::new();
    let Some(Value::Object(types)) = component.get("component") else {
        return out;
    };
    for props in types.values() {
        let children = props.get("children");
        if let Some(Value::Array(list)) = children.and_then(|c| c.get("explicitList")) {
            out.extend(list.iter().filter_map(Value::as_str));
        }
        if let Some(Value::String(id)) = children
            .and_then(|c| c.get("template"))
            .and_then(|t| t.get("componentId"))
        {
            out.push(id);
        }
        for key in ["child", "entryPointChild", "contentChild"] {
            if let Some(Value::String(id)) = props.get(key) {
                out.push(id);
            }
        }
        if let Some(Value::Array(tabs)) = props.get("tabItems") {
            out.extend(
                tabs.iter()
                    .filter_map(|t| t.get("child").and_then(Value::as_str)),
            );
        }
    }
    out
}

fn stand_in(id: &str) -> Value {
    json!({"id": id, "component": {"Column": {"children": {"explicitList": []}}}})
}

impl SelfContained {
    /// A fresh completer, remembering nothing.
    ///
    /// ```
    /// let updates = a2ui_stream::agui::SelfContained::new();
    /// # let _ = updates;
    /// ```
    pub fn new() -> Self {
        SelfContained::default()
    }

    /// `message` as it should go out: a v0.8 `surfaceUpdate` with every referenced id defined in
    /// it; any other message as it is. A `deleteSurface` forgets the surface.
    ///
    /// ```
    /// use a2ui_stream::agui::SelfContained;
    /// use serde_json::json;
    ///
    /// let mut updates = SelfContained::new();
    /// let card = json!({"surfaceUpdate": {"surfaceId": "s", "components": [
    ///     {"id": "card", "component": {"Card": {"child": "name"}}}]}});
    /// let name = json!({"surfaceUpdate": {"surfaceId": "s", "components": [
    ///     {"id": "name", "component": {"Text": {"text": {"literalString": "A"}}}}]}});
    /// updates.complete(card.clone());
    /// updates.complete(name);
    /// // The card written again: its child goes with it as shown, not as a stand-in.
    /// let again = updates.complete(card);
    /// let comps = again["surfaceUpdate"]["components"].as_array().unwrap();
    /// assert_eq!(comps[1]["component"]["Text"]["text"]["literalString"], "A");
    /// ```
    pub fn complete(&mut self, mut message: Value) -> Value {
        if let Some(id) = message
            .get(MessageKind::DeleteSurface.key())
            .and_then(|b| b.get("surfaceId"))
            .and_then(Value::as_str)
        {
            self.surfaces.remove(id);
            return message;
        }
        let Some(Value::Object(body)) = message.get_mut(MessageKind::SurfaceUpdate.key()) else {
            return message;
        };
        let surface_id = body
            .get("surfaceId")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let Some(Value::Array(components)) = body.get_mut("components") else {
            return message;
        };
        let surface = self.surfaces.entry(surface_id).or_default();
        // The message's own components (the last of a repeated id wins), then what they need.
        let mut out: Vec<Value> = Vec::with_capacity(components.len());
        let mut index: HashMap<String, usize> = HashMap::new();
        for c in components.drain(..) {
            let Some(id) = c.get("id").and_then(Value::as_str).map(str::to_owned) else {
                out.push(c);
                continue;
            };
            surface.shown.insert(id.clone(), c.clone());
            surface.stand_ins.remove(&id);
            match index.get(&id) {
                Some(&at) => {
                    if let Some(slot) = out.get_mut(at) {
                        *slot = c;
                    }
                }
                None => {
                    index.insert(id, out.len());
                    out.push(c);
                }
            }
        }
        let mut at = 0;
        while let Some(c) = out.get(at) {
            let missing: Vec<String> = references(c)
                .into_iter()
                .filter(|r| !index.contains_key(*r))
                .map(str::to_owned)
                .collect();
            for r in missing {
                if index.contains_key(&r) {
                    continue;
                }
                let def = match surface.shown.get(&r) {
                    Some(shown) => shown.clone(),
                    None => {
                        surface.stand_ins.insert(r.clone());
                        stand_in(&r)
                    }
                };
                index.insert(r, out.len());
                out.push(def);
            }
            at += 1;
        }
        *components = out;
        message
    }

    /// Whether `id` is shown on `surface_id` as a stand-in (named, not yet arrived).
    ///
    /// ```
    /// use a2ui_stream::agui::SelfContained;
    /// use serde_json::json;
    ///
    /// let mut updates = SelfContained::new();
    /// updates.complete(json!({"surfaceUpdate": {"surfaceId": "s", "components": [
    ///     {"id": "card", "component": {"Card": {"child": "name"}}}]}}));
    /// assert!(updates.is_stand_in("s", "name"));
    /// assert!(!updates.is_stand_in("s", "card"));
    /// ```
    pub fn is_stand_in(&self, surface_id: &str, id: &str) -> bool {
        self.surfaces
            .get(surface_id)
            .is_some_and(|s| s.stand_ins.contains(id))
    }
}
