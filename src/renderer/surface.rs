//! What a renderer holds for one surface: its protocol version, catalog, root, theme, its
//! components by id and its data model.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::error::RenderError;
use super::{checks, data};
use crate::Version;

/// One surface as a renderer holds it after the messages applied so far.
///
/// ```
/// use a2ui_stream::Version;
/// use a2ui_stream::renderer::RendererState;
/// use serde_json::json;
///
/// let mut state = RendererState::new();
/// state.apply(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "basic",
///     "components": [{"id": "root", "component": "Text", "text": {"@path": "/greeting"}}],
///     "dataModel": {"greeting": "Hi"}}}))?;
/// let surface = state.surface("s").unwrap();
/// assert_eq!(surface.version(), Version::V10);
/// assert_eq!(surface.catalog_id(), Some("basic"));
/// assert_eq!(surface.root(), Some("root"));
/// assert_eq!(surface.component("root").unwrap().component_type(), "Text");
/// assert_eq!(surface.data("/greeting"), Some(&json!("Hi")));
/// # Ok::<(), a2ui_stream::renderer::RenderError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Surface {
    pub(super) id: String,
    pub(super) version: Version,
    pub(super) catalog_id: Option<String>,
    pub(super) root: Option<String>,
    pub(super) theme: Option<Value>,
    pub(super) metadata: Option<Value>,
    pub(super) send_data_model: bool,
    pub(super) components: BTreeMap<String, Component>,
    pub(super) data_model: Value,
}

impl Surface {
    pub(super) fn new(id: &str, version: Version) -> Surface {
        Surface {
            id: id.to_owned(),
            version,
            catalog_id: None,
            root: None,
            theme: None,
            metadata: None,
            send_data_model: false,
            components: BTreeMap::new(),
            data_model: Value::Object(Map::new()),
        }
    }

    /// The surface's id.
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// let mut state = RendererState::new();
    /// state.apply(&serde_json::json!({"beginRendering": {"surfaceId": "main", "root": "r"}}))?;
    /// assert_eq!(state.surface("main").unwrap().id(), "main");
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The protocol version of the message that made the surface (v0.8 for a surface a v0.8
    /// message made, whichever it was).
    ///
    /// ```
    /// # use a2ui_stream::{Version, renderer::RendererState};
    /// let mut state = RendererState::new();
    /// state.apply(&serde_json::json!({"dataModelUpdate": {"surfaceId": "s", "contents": []}}))?;
    /// assert_eq!(state.surface("s").unwrap().version(), Version::V08);
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn version(&self) -> Version {
        self.version
    }

    /// The surface's default catalog: `createSurface`'s (or `beginRendering`'s) `catalogId`.
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// let mut state = RendererState::new();
    /// state.apply(&serde_json::json!({"version": "v1.0", "createSurface": {"surfaceId": "s"}}))?;
    /// assert_eq!(state.surface("s").unwrap().catalog_id(), None); // optional from v1.0
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn catalog_id(&self) -> Option<&str> {
        self.catalog_id.as_deref()
    }

    /// The id of the root component: `root` from v0.9 on, `beginRendering`'s `root` in v0.8
    /// (`None` until it arrives: a v0.8 surface is not drawn before).
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "top", "component": {"Column": {}}}]}}))?;
    /// assert_eq!(state.surface("s").unwrap().root(), None);
    /// state.apply(&json!({"beginRendering": {"surfaceId": "s", "root": "top"}}))?;
    /// assert_eq!(state.surface("s").unwrap().root(), Some("top"));
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn root(&self) -> Option<&str> {
        self.root.as_deref()
    }

    /// How the surface looks: `createSurface`'s `theme`, or v0.8 `beginRendering`'s `styles`.
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"beginRendering": {"surfaceId": "s", "root": "r", "styles": {"primaryColor": "#00f"}}}))?;
    /// assert_eq!(state.surface("s").unwrap().theme(), Some(&json!({"primaryColor": "#00f"})));
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn theme(&self) -> Option<&Value> {
        self.theme.as_ref()
    }

    /// v1.0 `createSurface`'s `metadata` (extension descriptors and such), as sent.
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// let meta = json!({"extensions": {"a2ui:experimental": {"streaming": true}}});
    /// state.apply(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "metadata": meta}}))?;
    /// assert_eq!(state.surface("s").unwrap().metadata(), Some(&meta));
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn metadata(&self) -> Option<&Value> {
        self.metadata.as_ref()
    }

    /// Whether the agent asked to get the data model back with every message the renderer
    /// sends (`createSurface`'s `sendDataModel`).
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// let mut state = RendererState::new();
    /// state.apply(&serde_json::json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c", "sendDataModel": true}}))?;
    /// assert!(state.surface("s").unwrap().send_data_model());
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn send_data_model(&self) -> bool {
        self.send_data_model
    }

    /// The component with this id.
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"surfaceUpdate": {"surfaceId": "s", "components": [
    ///     {"id": "t", "component": {"Text": {"text": {"literalString": "Hi"}}}}]}}))?;
    /// let text = state.surface("s").unwrap().component("t").unwrap();
    /// assert_eq!(text.property("text"), Some(&json!({"literalString": "Hi"})));
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn component(&self, id: &str) -> Option<&Component> {
        self.components.get(id)
    }

    /// Every component, in the order of their ids.
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}}))?;
    /// state.apply(&json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
    ///     {"id": "root", "component": "Column", "children": ["b", "a"]},
    ///     {"id": "b", "component": "Text", "text": "B"}, {"id": "a", "component": "Text", "text": "A"}]}}))?;
    /// let ids: Vec<_> = state.surface("s").unwrap().components().map(|c| c.id()).collect();
    /// assert_eq!(ids, ["a", "b", "root"]);
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn components(&self) -> impl Iterator<Item = &Component> {
        self.components.values()
    }

    /// The whole data model (`{}` until something sets it).
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"dataModelUpdate": {"surfaceId": "s", "path": "/user",
    ///     "contents": [{"key": "name", "valueString": "Ada"}, {"key": "vip", "valueBoolean": true}]}}))?;
    /// assert_eq!(state.surface("s").unwrap().data_model(), &json!({"user": {"name": "Ada", "vip": true}}));
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn data_model(&self) -> &Value {
        &self.data_model
    }

    /// The value at a JSON Pointer into the data model (`/` for all of it), if there is one.
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}}))?;
    /// state.apply(&json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items/1/name", "value": "B"}}))?;
    /// let surface = state.surface("s").unwrap();
    /// assert_eq!(surface.data("/items"), Some(&json!([null, {"name": "B"}])));
    /// assert_eq!(surface.data("/items/1/name"), Some(&json!("B")));
    /// assert_eq!(surface.data("/items/5"), None);
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn data(&self, pointer: &str) -> Option<&Value> {
        data::get(&self.data_model, pointer)
    }

    /// Writes `value` at a JSON Pointer into the data model, as the renderer does when the user
    /// types into a bound field; the rules are `updateDataModel`'s (`null` deletes; missing
    /// levels are made; a value nested more than 50 levels deep is refused). On an error the
    /// data model is as it was.
    ///
    /// ```
    /// # use a2ui_stream::renderer::{RenderErrorKind, RendererState};
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"beginRendering": {"surfaceId": "s", "root": "form"}}))?;
    /// let surface = state.surface_mut("s").unwrap();
    /// surface.set_data("/form/email", json!("ada@example.com"))?;
    /// assert_eq!(surface.data_model(), &json!({"form": {"email": "ada@example.com"}}));
    /// let err = surface.set_data("/form/email/domain", json!("x")).unwrap_err();
    /// assert!(matches!(err.kind(), RenderErrorKind::PathThroughScalar { .. }));
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn set_data(&mut self, pointer: &str, value: Value) -> Result<(), RenderError> {
        checks::depth(&value)
            .and_then(|()| data::set(&mut self.data_model, pointer, value))
            .map_err(|kind| RenderError::new(kind).surface(&self.id))
    }
}

/// One component as the surface holds it: the object last sent for its id, as written (v0.8's
/// `{"id", "component": {"Type": {props}}}` or the flat `{"id", "component": "Type", props}`
/// of v0.9 and later).
///
/// ```
/// use a2ui_stream::renderer::RendererState;
/// use serde_json::json;
///
/// let mut state = RendererState::new();
/// let card = json!({"id": "card", "component": {"Card": {"child": "name"}}, "weight": 1});
/// state.apply(&json!({"surfaceUpdate": {"surfaceId": "s", "components": [card]}}))?;
/// let held = state.surface("s").unwrap().component("card").unwrap();
/// assert_eq!(held.as_value(), &card);
/// assert_eq!(held.component_type(), "Card");
/// assert_eq!(held.child_ids(), ["name"]);
/// # Ok::<(), a2ui_stream::renderer::RenderError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Component {
    pub(super) value: Value,
}

impl Component {
    /// The component's id.
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// let mut state = RendererState::new();
    /// state.apply(&serde_json::json!({"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "a", "component": {"Divider": {}}}]}}))?;
    /// assert_eq!(state.surface("s").unwrap().component("a").unwrap().id(), "a");
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn id(&self) -> &str {
        self.value
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// Its type: the `component` string (v0.9 and later), or the key of the `component` object
    /// (v0.8; `""` for an empty one).
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}}))?;
    /// state.apply(&json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Row"}]}}))?;
    /// assert_eq!(state.surface("s").unwrap().component("root").unwrap().component_type(), "Row");
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn component_type(&self) -> &str {
        match self.value.get("component") {
            Some(Value::String(t)) => t,
            Some(Value::Object(typed)) => typed.keys().next().map_or("", String::as_str),
            _ => "",
        }
    }

    /// The catalog the component names for itself (v1.0 `catalogId`); without one it is drawn
    /// from its surface's catalog.
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "main",
    ///     "components": [{"id": "root", "component": "PieChart", "catalogId": "charts"}]}}))?;
    /// assert_eq!(state.surface("s").unwrap().component("root").unwrap().catalog_id(), Some("charts"));
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn catalog_id(&self) -> Option<&str> {
        self.value.get("catalogId").and_then(Value::as_str)
    }

    /// One of its properties: a member of the flat object (v0.9 and later; not `id`,
    /// `component` or `catalogId`), or of the typed properties (v0.8, `component.Type`; there
    /// `weight` is read beside `component`).
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"surfaceUpdate": {"surfaceId": "s", "components": [
    ///     {"id": "b", "weight": 2, "component": {"Button": {"child": "label", "primary": true}}}]}}))?;
    /// let button = state.surface("s").unwrap().component("b").unwrap();
    /// assert_eq!(button.property("primary"), Some(&json!(true)));
    /// assert_eq!(button.property("weight"), Some(&json!(2)));
    /// assert_eq!(button.property("id"), None);
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn property(&self, name: &str) -> Option<&Value> {
        match self.value.get("component") {
            Some(Value::Object(typed)) => typed
                .values()
                .next()
                .and_then(|props| props.get(name))
                .or_else(|| (name == "weight").then(|| self.value.get(name)).flatten()),
            _ if matches!(name, "id" | "component" | "catalogId") => None,
            _ => self.value.get(name),
        }
    }

    /// The component as it was sent.
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// let text = json!({"id": "root", "component": "Text", "text": "Hi"});
    /// state.apply(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c", "components": [text]}}))?;
    /// assert_eq!(state.surface("s").unwrap().component("root").unwrap().as_value(), &text);
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn as_value(&self) -> &Value {
        &self.value
    }

    /// The ids of the components it refers to, in property order, through the properties the
    /// basic catalogs use for that: `child`, `children` (a list of ids, or a template's
    /// `componentId`), the `child` of each of `tabs`, and a `Modal`'s `trigger` and `content`;
    /// in v0.8 `child`, `children.explicitList`, `children.template.componentId`,
    /// `entryPointChild`, `contentChild` and the `child` of each of `tabItems`.
    ///
    /// ```
    /// # use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}}))?;
    /// state.apply(&json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
    ///     {"id": "root", "component": "Column", "children": ["title", "list"]},
    ///     {"id": "list", "component": "List", "children": {"componentId": "card", "path": "/items"}}]}}))?;
    /// let surface = state.surface("s").unwrap();
    /// assert_eq!(surface.component("root").unwrap().child_ids(), ["title", "list"]);
    /// assert_eq!(surface.component("list").unwrap().child_ids(), ["card"]);
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn child_ids(&self) -> Vec<&str> {
        let mut out = Vec::new();
        match self.value.get("component") {
            Some(Value::Object(typed)) => {
                for props in typed.values() {
                    v08_refs(props, &mut out);
                }
            }
            Some(Value::String(kind)) => flat_refs(kind, &self.value, &mut out),
            _ => {}
        }
        out
    }
}

/// The references of a v0.9 or later component, `props` being the whole flat object.
fn flat_refs<'a>(kind: &str, props: &'a Value, out: &mut Vec<&'a str>) {
    let Value::Object(props) = props else { return };
    for (name, value) in props {
        match (name.as_str(), value) {
            ("child", Value::String(id)) => out.push(id),
            ("trigger" | "content", Value::String(id)) if kind == "Modal" => out.push(id),
            ("children", Value::Array(ids)) => out.extend(ids.iter().filter_map(Value::as_str)),
            ("children", Value::Object(template)) => {
                out.extend(template.get("componentId").and_then(Value::as_str));
            }
            ("tabs", Value::Array(tabs)) => {
                out.extend(tabs.iter().filter_map(|t| t.get("child")?.as_str()));
            }
            _ => {}
        }
    }
}

/// The references of a v0.8 component's typed properties.
fn v08_refs<'a>(props: &'a Value, out: &mut Vec<&'a str>) {
    let Value::Object(props) = props else { return };
    for (name, value) in props {
        match (name.as_str(), value) {
            ("child" | "entryPointChild" | "contentChild", Value::String(id)) => out.push(id),
            ("children", Value::Object(children)) => {
                if let Some(Value::Array(ids)) = children.get("explicitList") {
                    out.extend(ids.iter().filter_map(Value::as_str));
                }
                out.extend(
                    children
                        .get("template")
                        .and_then(|t| t.get("componentId"))
                        .and_then(Value::as_str),
                );
            }
            ("tabItems", Value::Array(tabs)) => {
                out.extend(tabs.iter().filter_map(|t| t.get("child")?.as_str()));
            }
            _ => {}
        }
    }
}
