//! What an A2UI renderer holds after the messages it was sent: its surfaces, each with its
//! catalog, root, components by id and data model.
//!
//! [`RendererState`] applies messages of v0.8, v0.9 and v1.0 one at a time, as a renderer
//! does, and answers what a renderer would then show. It is the model the crate's own tests
//! use to prove that what the [`Splitter`](crate::Splitter) hands out, piece by piece, leaves
//! a renderer where the whole messages leave it; it passes the A2UI project's
//! `core/message_processor_v1_0.yaml` conformance suite.
//!
//! ```
//! use a2ui_stream::renderer::RendererState;
//! use a2ui_stream::{Config, Event, Splitter};
//! use serde_json::json;
//!
//! // A v0.9 surface streamed through the splitter, component by component.
//! let response = r#"<a2ui-json>
//! {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic"}}
//! {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
//!   {"id": "root", "component": "Column", "children": ["title"]},
//!   {"id": "title", "component": "Text", "text": {"path": "/title"}}]}}
//! {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/", "value": {"title": "Top 5"}}}
//! </a2ui-json>"#;
//! let mut state = RendererState::new();
//! let mut splitter = Splitter::new();
//! let mut events: Vec<_> = splitter.feed(response.as_bytes()).collect();
//! events.extend(splitter.finish());
//! for event in events {
//!     if let Ok(Event::Message(message)) = event {
//!         state.apply_message(&message)?;
//!     }
//! }
//! let surface = state.surface("s").unwrap();
//! assert_eq!(surface.component("root").unwrap().child_ids(), ["title"]);
//! assert_eq!(surface.data("/title"), Some(&json!("Top 5")));
//! # Ok::<(), a2ui_stream::renderer::RenderError>(())
//! ```
//!
//! What each message does:
//!
//! - `createSurface` (v0.9, v1.0) makes a surface (one that exists is an error) with its
//!   `catalogId`, `theme`, `sendDataModel` and (v1.0) `metadata`; in v1.0 its `dataModel` and
//!   `components` are applied as part of it. Its root is the component `root`.
//! - `updateComponents` adds or replaces components by id on a surface that exists;
//!   `updateDataModel` sets `value` at the JSON Pointer `path` (absent: the whole model), and
//!   `null` (or no `value`) deletes. An update for a surface that does not exist is an error.
//! - v0.8 `surfaceUpdate` and `dataModelUpdate` make the surface when it is not there yet (a v0.8
//!   renderer holds what comes before `beginRendering`); `dataModelUpdate`'s `contents` are
//!   set at `path` as `@a2ui/web_core` does. `beginRendering` names the root, catalog and styles.
//! - `deleteSurface` removes the surface; one that is not there is left alone.
//! - v1.0 `callRendererFunction` and `agentFunctionResponse` change no surface.
//!
//! A message is applied whole or not at all. Without a `version` a message is v0.8 when its
//! action is a v0.8 one, and an error when only later versions have it; a message whose
//! actions are all of another version (v0.8's `beginRendering` in a v1.0 message) is left
//! alone. Every message is refused past 50 levels of nesting. A renderer that was given its
//! catalogs ([`RendererState::with_catalog`]) refuses other catalogs and those of another
//! version; [`RendererState::strict`] adds the component-tree checks of a strict renderer.
//! The model holds no catalog schemas, so it does not check components against them.

mod apply;
mod checks;
mod data;
mod error;
mod surface;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use serde_json::{Value, json};

pub use error::{Category, RenderError, RenderErrorKind};
pub use surface::{Component, Surface};

use crate::{Message, MessageKind, Version};

/// The surfaces a renderer holds, and the messages' effect on them.
///
/// ```
/// use a2ui_stream::renderer::{RenderErrorKind, RendererState};
/// use a2ui_stream::{MessageKind, Version};
/// use serde_json::json;
///
/// let mut state = RendererState::new().with_catalog("basic", Version::V10);
/// let kind = state.apply(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "basic",
///     "dataModel": {"user": {"name": "Ada", "token": "x"}}}}))?;
/// assert_eq!(kind, MessageKind::CreateSurface);
/// state.apply(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/user/token", "value": null}}))?;
/// assert_eq!(state.surface("s").unwrap().data_model(), &json!({"user": {"name": "Ada"}}));
///
/// let other = json!({"version": "v1.0", "createSurface": {"surfaceId": "t", "catalogId": "charts"}});
/// assert_eq!(state.apply(&other).unwrap_err().kind(), &RenderErrorKind::CatalogNotFound("charts".into()));
/// assert!(state.surface("t").is_none());
/// # Ok::<(), a2ui_stream::renderer::RenderError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RendererState {
    surfaces: BTreeMap<String, Surface>,
    rules: Rules,
}

/// What the renderer accepts besides the protocol: its catalogs and how strict it is.
#[derive(Debug, Clone, PartialEq, Default)]
struct Rules {
    /// The catalogs the renderer knows and the version each speaks; none: any catalog.
    catalogs: Vec<(String, Version)>,
    /// Whether every component update must leave a whole, acyclic tree.
    strict: bool,
}

impl RendererState {
    /// A renderer with no surfaces, that accepts any catalog and checks each message on its
    /// own, as a streaming renderer does.
    ///
    /// ```
    /// use a2ui_stream::renderer::RendererState;
    /// let state = RendererState::new();
    /// assert_eq!(state.surfaces().count(), 0);
    /// ```
    pub fn new() -> RendererState {
        RendererState::default()
    }

    /// The renderer knows catalog `id`, of protocol version `version`. Once it knows one, a
    /// surface or component that names a catalog it does not know is refused
    /// ([`RenderErrorKind::CatalogNotFound`]), and so is one of another version
    /// ([`RenderErrorKind::CatalogVersion`]).
    ///
    /// ```
    /// use a2ui_stream::renderer::{Category, RendererState};
    /// use a2ui_stream::Version;
    /// use serde_json::json;
    ///
    /// let mut state = RendererState::new().with_catalog("main", Version::V10).with_catalog("old", Version::V09);
    /// state.apply(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "main"}}))?;
    /// let err = state.apply(&json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
    ///     {"id": "root", "component": "Button", "catalogId": "old"}]}})).unwrap_err();
    /// assert_eq!(err.kind().category(), Category::Catalog);
    /// assert_eq!(err.component_id(), Some("root"));
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn with_catalog(mut self, id: impl Into<String>, version: Version) -> RendererState {
        self.rules.catalogs.push((id.into(), version));
        self
    }

    /// The renderer checks, at every component update, the tree the surface would then hold:
    /// no id twice in one update, the root there, every reference resolving, no cycle, no
    /// deeper than 50, and every component reachable from the root (before a v0.8
    /// `beginRendering` names the root, only the references). A stream that sends components
    /// one at a time fails these until it is whole: leave them off for streaming.
    ///
    /// ```
    /// use a2ui_stream::renderer::{RenderErrorKind, RendererState};
    /// use serde_json::json;
    ///
    /// let mut state = RendererState::new().strict();
    /// state.apply(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "basic",
    ///     "components": [{"id": "root", "component": "Column", "children": ["a"]},
    ///                    {"id": "a", "component": "Text", "text": "A"}]}}))?;
    /// let cycle = json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
    ///     {"id": "a", "component": "Column", "children": ["b"]}, {"id": "b", "component": "Column", "children": ["a"]}]}});
    /// assert_eq!(state.apply(&cycle).unwrap_err().kind(), &RenderErrorKind::Cycle);
    /// // Nothing of the refused update was applied.
    /// assert_eq!(state.surface("s").unwrap().component("a").unwrap().component_type(), "Text");
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn strict(mut self) -> RendererState {
        self.rules.strict = true;
        self
    }

    /// Applies one message, given as JSON. Returns its action, or [`MessageKind::Unknown`] for
    /// a message with no action of its version (left alone). On an error nothing changed.
    ///
    /// ```
    /// use a2ui_stream::renderer::{RenderErrorKind, RendererState};
    /// use a2ui_stream::MessageKind;
    /// use serde_json::json;
    ///
    /// let mut state = RendererState::new();
    /// let old = json!({"version": "v1.0", "beginRendering": {"surfaceId": "s", "root": "r"}});
    /// assert_eq!(state.apply(&old)?, MessageKind::Unknown);
    /// let two = json!({"version": "v1.0", "createSurface": {"surfaceId": "s"}, "deleteSurface": {"surfaceId": "s"}});
    /// assert!(matches!(state.apply(&two).unwrap_err().kind(), RenderErrorKind::MultipleActions { .. }));
    /// let unversioned = json!({"createSurface": {"surfaceId": "s"}});
    /// assert_eq!(state.apply(&unversioned).unwrap_err().kind(), &RenderErrorKind::MissingVersion(MessageKind::CreateSurface));
    /// assert_eq!(state.surfaces().count(), 0);
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn apply(&mut self, message: &Value) -> Result<MessageKind, RenderError> {
        self.apply_value(message)
    }

    /// Applies one message the splitter handed out (its bytes are parsed first).
    ///
    /// ```
    /// use a2ui_stream::renderer::RendererState;
    /// use a2ui_stream::{Event, Splitter};
    ///
    /// let mut splitter = Splitter::new();
    /// let mut state = RendererState::new();
    /// let input = br#"<a2ui-json>{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"n","valueNumber":3}]}}</a2ui-json>"#;
    /// for event in splitter.feed(input) {
    ///     if let Ok(Event::Message(m)) = event {
    ///         state.apply_message(&m)?;
    ///     }
    /// }
    /// assert_eq!(state.surface("s").unwrap().data("/n"), Some(&serde_json::json!(3)));
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn apply_message(&mut self, message: &Message) -> Result<MessageKind, RenderError> {
        let value: Value = serde_json::from_slice(message.as_bytes())
            .map_err(|_| RenderError::new(RenderErrorKind::NotJson))?;
        self.apply_value(&value)
    }

    /// Applies a batch: a list of messages, a `{"messages": [...]}` wrapper, or one message.
    /// It stops at the first message refused, whose position the error gives
    /// ([`RenderError::index`]); the messages before it stay applied.
    ///
    /// ```
    /// use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    ///
    /// let mut state = RendererState::new();
    /// state.apply_batch(&json!({"messages": [
    ///     {"version": "v1.0", "createSurface": {"surfaceId": "a"}},
    ///     {"version": "v1.0", "createSurface": {"surfaceId": "b"}}]}))?;
    /// let ids: Vec<_> = state.surfaces().map(|s| s.id()).collect();
    /// assert_eq!(ids, ["a", "b"]);
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn apply_batch(&mut self, batch: &Value) -> Result<(), RenderError> {
        let list = match batch {
            Value::Array(list) => list,
            Value::Object(wrapper) => match wrapper.get("messages") {
                Some(Value::Array(list)) => list,
                _ => return self.apply_value(batch).map(drop),
            },
            _ => return Err(RenderError::new(RenderErrorKind::NotAnObject)),
        };
        for (i, message) in list.iter().enumerate() {
            self.apply_value(message).map_err(|e| e.at(i))?;
        }
        Ok(())
    }

    /// The surface with this id.
    ///
    /// ```
    /// use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}}))?;
    /// assert!(state.surface("s").is_some());
    /// state.apply(&json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}}))?;
    /// assert!(state.surface("s").is_none());
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn surface(&self, id: &str) -> Option<&Surface> {
        self.surfaces.get(id)
    }

    /// The surface with this id, to write into its data model as the user does
    /// ([`Surface::set_data`]).
    ///
    /// ```
    /// use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// state.apply(&json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}}))?;
    /// state.surface_mut("s").unwrap().set_data("/query", json!("noodles"))?;
    /// assert_eq!(state.surface("s").unwrap().data("/query"), Some(&json!("noodles")));
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn surface_mut(&mut self, id: &str) -> Option<&mut Surface> {
        self.surfaces.get_mut(id)
    }

    /// Every surface, in the order of their ids.
    ///
    /// ```
    /// use a2ui_stream::renderer::RendererState;
    /// use serde_json::json;
    /// let mut state = RendererState::new();
    /// for id in ["b", "a"] {
    ///     state.apply(&json!({"beginRendering": {"surfaceId": id, "root": "r"}}))?;
    /// }
    /// assert_eq!(state.surfaces().map(|s| s.id()).collect::<Vec<_>>(), ["a", "b"]);
    /// # Ok::<(), a2ui_stream::renderer::RenderError>(())
    /// ```
    pub fn surfaces(&self) -> impl Iterator<Item = &Surface> {
        self.surfaces.values()
    }

    /// What the renderer tells an agent it can draw in `version`: the catalogs it knows of that
    /// version (`supportedCatalogIds`), under the version's key from v0.9 on
    /// (`{"v1.0": {...}}`), as v0.8 writes it otherwise. A renderer not given its catalogs names
    /// none.
    ///
    /// ```
    /// use a2ui_stream::renderer::RendererState;
    /// use a2ui_stream::Version;
    /// use serde_json::json;
    ///
    /// let state = RendererState::new().with_catalog("cat-v10", Version::V10).with_catalog("cat-v09", Version::V09);
    /// assert_eq!(state.capabilities(Version::V10), json!({"v1.0": {"supportedCatalogIds": ["cat-v10"]}}));
    /// assert_eq!(state.capabilities(Version::V08), json!({"supportedCatalogIds": []}));
    /// ```
    pub fn capabilities(&self, version: Version) -> Value {
        let ids: Vec<&str> = self
            .rules
            .catalogs
            .iter()
            .filter(|(_, speaks)| *speaks == version)
            .map(|(id, _)| id.as_str())
            .collect();
        let own = json!({ "supportedCatalogIds": ids });
        if version == Version::V08 {
            return own;
        }
        let mut keyed = serde_json::Map::new();
        keyed.insert(version.message_tag().to_owned(), own);
        Value::Object(keyed)
    }
}
