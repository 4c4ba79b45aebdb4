//! One message's effect on the state: its version and action, then what that action does to
//! the surfaces. Everything a message is checked for is checked before anything changes.

use std::collections::{BTreeMap, HashSet};

use serde_json::{Map, Value};

use super::checks::{self, Candidate};
use super::data;
use super::error::{RenderError, RenderErrorKind};
use super::surface::{Component, Surface};
use super::{RendererState, Rules};
use crate::{MessageKind, Version};

/// The root's id from v0.9 on.
const ROOT: &str = "root";

impl RendererState {
    /// See [`RendererState::apply`].
    pub(super) fn apply_value(&mut self, message: &Value) -> Result<MessageKind, RenderError> {
        let Value::Object(fields) = message else {
            return Err(RenderError::new(RenderErrorKind::NotAnObject));
        };
        checks::depth(message).map_err(RenderError::new)?;
        let Some(version) = version_of(fields).map_err(RenderError::new)? else {
            return Ok(MessageKind::Unknown);
        };
        let mut present = version
            .kinds()
            .iter()
            .filter(|kind| fields.contains_key(kind.key()));
        let Some(&kind) = present.next() else {
            // Only actions of another version (v0.8's `beginRendering` in a v1.0 message):
            // nothing this version does.
            return Ok(MessageKind::Unknown);
        };
        if let Some(&second) = present.next() {
            return Err(RenderError::new(RenderErrorKind::MultipleActions {
                first: kind,
                second,
            }));
        }
        let Some(Value::Object(body)) = fields.get(kind.key()) else {
            return Err(RenderError::new(RenderErrorKind::WrongType {
                field: kind.key(),
                expected: "an object",
            }));
        };
        match kind {
            MessageKind::CreateSurface => self.create(version, body),
            MessageKind::UpdateComponents => self.update_components(version, body),
            MessageKind::UpdateDataModel => self.update_data(body),
            MessageKind::DeleteSurface => self.delete(body),
            MessageKind::BeginRendering => self.begin(body),
            MessageKind::SurfaceUpdate => self.surface_update(body),
            MessageKind::DataModelUpdate => self.data_model_update(body),
            // Function calls change no surface.
            MessageKind::CallRendererFunction
            | MessageKind::AgentFunctionResponse
            | MessageKind::Unknown => Ok(()),
        }?;
        Ok(kind)
    }

    /// `createSurface`: a new surface, with v1.0's inline data model and components.
    fn create(&mut self, version: Version, body: &Map<String, Value>) -> Result<(), RenderError> {
        let id = surface_id(body)?;
        let fail = |kind| RenderError::new(kind).surface(id);
        if self.surfaces.contains_key(id) {
            return Err(fail(RenderErrorKind::SurfaceExists));
        }
        let catalog = optional_str(body, "catalogId").map_err(fail)?;
        if let Some(catalog) = catalog {
            self.rules.check_catalog(catalog, version).map_err(fail)?;
        }
        let mut surface = Surface::new(id, version);
        surface.catalog_id = catalog.map(str::to_owned);
        surface.root = Some(ROOT.to_owned());
        surface.theme = body.get("theme").cloned();
        surface.metadata = body.get("metadata").cloned();
        surface.send_data_model = match body.get("sendDataModel") {
            None => false,
            Some(Value::Bool(send)) => *send,
            Some(_) => {
                return Err(fail(RenderErrorKind::WrongType {
                    field: "sendDataModel",
                    expected: "a boolean",
                }));
            }
        };
        if version >= Version::V10 {
            if let Some(model) = body.get("dataModel") {
                data::set(&mut surface.data_model, "/", model.clone()).map_err(fail)?;
            }
            if let Some(list) = body.get("components") {
                self.rules.upsert(&mut surface, version, list)?;
            }
        }
        self.surfaces.insert(id.to_owned(), surface);
        Ok(())
    }

    /// `updateComponents`: components added or replaced by id on a surface that exists.
    fn update_components(
        &mut self,
        version: Version,
        body: &Map<String, Value>,
    ) -> Result<(), RenderError> {
        let id = surface_id(body)?;
        let surface = self
            .surfaces
            .get_mut(id)
            .ok_or_else(|| RenderError::new(RenderErrorKind::UnknownSurface).surface(id))?;
        let list = body.get("components").ok_or_else(|| {
            RenderError::new(RenderErrorKind::MissingField {
                field: "components",
            })
            .surface(id)
        })?;
        self.rules.upsert(surface, version, list)
    }

    /// `updateDataModel`: a value set (or, `null` or absent, deleted) at a JSON Pointer.
    fn update_data(&mut self, body: &Map<String, Value>) -> Result<(), RenderError> {
        let id = surface_id(body)?;
        let fail = |kind| RenderError::new(kind).surface(id);
        let surface = self
            .surfaces
            .get_mut(id)
            .ok_or_else(|| fail(RenderErrorKind::UnknownSurface))?;
        let path = optional_str(body, "path").map_err(fail)?.unwrap_or("/");
        let value = body.get("value").cloned().unwrap_or(Value::Null);
        data::set(&mut surface.data_model, path, value).map_err(fail)
    }

    /// `deleteSurface`: the surface is gone (a surface that is not there is left alone).
    fn delete(&mut self, body: &Map<String, Value>) -> Result<(), RenderError> {
        let id = surface_id(body)?;
        self.surfaces.remove(id);
        Ok(())
    }

    /// v0.8 `beginRendering`: the surface's root, catalog and styles; the surface is drawn
    /// from now on.
    fn begin(&mut self, body: &Map<String, Value>) -> Result<(), RenderError> {
        let id = surface_id(body)?;
        let fail = |kind| RenderError::new(kind).surface(id);
        let root = optional_str(body, "root")
            .map_err(fail)?
            .ok_or_else(|| fail(RenderErrorKind::MissingField { field: "root" }))?;
        let catalog = optional_str(body, "catalogId").map_err(fail)?;
        if let Some(catalog) = catalog {
            self.rules
                .check_catalog(catalog, Version::V08)
                .map_err(fail)?;
        }
        let surface = self
            .surfaces
            .entry(id.to_owned())
            .or_insert_with(|| Surface::new(id, Version::V08));
        surface.root = Some(root.to_owned());
        if let Some(catalog) = catalog {
            surface.catalog_id = Some(catalog.to_owned());
        }
        if let Some(styles) = body.get("styles") {
            surface.theme = Some(styles.clone());
        }
        Ok(())
    }

    /// v0.8 `surfaceUpdate`: components added or replaced by id (the surface is made if it is
    /// not there yet).
    fn surface_update(&mut self, body: &Map<String, Value>) -> Result<(), RenderError> {
        let id = surface_id(body)?;
        let list = body.get("components").ok_or_else(|| {
            RenderError::new(RenderErrorKind::MissingField {
                field: "components",
            })
            .surface(id)
        })?;
        match self.surfaces.get_mut(id) {
            Some(surface) => self.rules.upsert(surface, Version::V08, list),
            None => {
                let mut surface = Surface::new(id, Version::V08);
                self.rules.upsert(&mut surface, Version::V08, list)?;
                self.surfaces.insert(id.to_owned(), surface);
                Ok(())
            }
        }
    }

    /// v0.8 `dataModelUpdate`: `contents` set at `path` (the surface is made if it is not
    /// there yet).
    fn data_model_update(&mut self, body: &Map<String, Value>) -> Result<(), RenderError> {
        let id = surface_id(body)?;
        let fail = |kind| RenderError::new(kind).surface(id);
        let path = optional_str(body, "path").map_err(fail)?.unwrap_or("/");
        let value = match body.get("contents") {
            Some(Value::Array(entries)) => data::contents(entries).map_err(fail)?,
            Some(_) => {
                return Err(fail(RenderErrorKind::WrongType {
                    field: "contents",
                    expected: "a list of entries",
                }));
            }
            None => return Err(fail(RenderErrorKind::MissingField { field: "contents" })),
        };
        match self.surfaces.get_mut(id) {
            Some(surface) => data::set_v08(&mut surface.data_model, path, value).map_err(fail),
            None => {
                let mut surface = Surface::new(id, Version::V08);
                data::set_v08(&mut surface.data_model, path, value).map_err(fail)?;
                self.surfaces.insert(id.to_owned(), surface);
                Ok(())
            }
        }
    }
}

impl Rules {
    /// Refuses a catalog the renderer does not know, or one of another version, when it was
    /// given its catalogs.
    pub(super) fn check_catalog(&self, id: &str, version: Version) -> Result<(), RenderErrorKind> {
        if self.catalogs.is_empty() {
            return Ok(());
        }
        match self.catalogs.iter().find(|(known, _)| known == id) {
            None => Err(RenderErrorKind::CatalogNotFound(id.to_owned())),
            Some((_, speaks)) if *speaks != version => Err(RenderErrorKind::CatalogVersion {
                catalog: id.to_owned(),
                catalog_version: *speaks,
                expected: version,
            }),
            Some(_) => Ok(()),
        }
    }

    /// Adds or replaces, by id, the components of `list` (a message's `components`) on
    /// `surface`, in `version`'s shape; the surface is unchanged if any of them is refused.
    fn upsert(
        &self,
        surface: &mut Surface,
        version: Version,
        list: &Value,
    ) -> Result<(), RenderError> {
        let Value::Array(items) = list else {
            return Err(RenderError::new(RenderErrorKind::WrongType {
                field: "components",
                expected: "a list",
            })
            .surface(&surface.id));
        };
        let mut incoming: Vec<(&str, Component)> = Vec::with_capacity(items.len());
        for item in items {
            let checked = self.component(surface, version, item);
            incoming.push(checked.map_err(|e| e.surface(&surface.id))?);
        }
        if self.strict {
            let mut update = BTreeMap::new();
            let mut seen = HashSet::new();
            for (id, component) in &incoming {
                if !seen.insert(*id) {
                    return Err(RenderError::new(RenderErrorKind::DuplicateComponent)
                        .surface(&surface.id)
                        .component(id));
                }
                update.insert(*id, component);
            }
            let candidate = Candidate {
                held: &surface.components,
                update: &update,
            };
            let checked = candidate.check(surface.root.as_deref());
            checked.map_err(|e| e.surface(&surface.id))?;
        }
        for (id, component) in incoming {
            surface.components.insert(id.to_owned(), component);
        }
        Ok(())
    }

    /// One component of a `components` list, checked: an object with a string `id` and a
    /// `component` of `version`'s shape, and (v1.0) a catalog it can be drawn from.
    fn component<'v>(
        &self,
        surface: &Surface,
        version: Version,
        item: &'v Value,
    ) -> Result<(&'v str, Component), RenderError> {
        let Value::Object(fields) = item else {
            return Err(RenderError::new(RenderErrorKind::WrongType {
                field: "components",
                expected: "a list of objects",
            }));
        };
        let id = match fields.get("id") {
            Some(Value::String(id)) => id.as_str(),
            Some(_) => {
                return Err(RenderError::new(RenderErrorKind::WrongType {
                    field: "id",
                    expected: "a string",
                }));
            }
            None => {
                return Err(RenderError::new(RenderErrorKind::MissingField {
                    field: "id",
                }));
            }
        };
        let fail = |kind| RenderError::new(kind).component(id);
        match (fields.get("component"), version) {
            (None, _) => return Err(fail(RenderErrorKind::MissingField { field: "component" })),
            (Some(Value::Object(_)), Version::V08) | (Some(Value::String(_)), _) => {}
            (Some(_), Version::V08) => {
                return Err(fail(RenderErrorKind::WrongType {
                    field: "component",
                    expected: "an object",
                }));
            }
            (Some(_), _) => {
                return Err(fail(RenderErrorKind::WrongType {
                    field: "component",
                    expected: "a string",
                }));
            }
        }
        if surface.version >= Version::V10 {
            match optional_str(fields, "catalogId").map_err(fail)? {
                Some(catalog) => self.check_catalog(catalog, surface.version).map_err(fail)?,
                None if surface.catalog_id.is_none() => {
                    return Err(fail(RenderErrorKind::NoCatalog));
                }
                None => {}
            }
        }
        Ok((
            id,
            Component {
                value: item.clone(),
            },
        ))
    }
}

/// The protocol version a message speaks: its `version`, else v0.8 when it has a v0.8 action;
/// `None` when it has no action this model knows.
fn version_of(message: &Map<String, Value>) -> Result<Option<Version>, RenderErrorKind> {
    match message.get("version") {
        Some(Value::String(text)) => Version::parse(text)
            .map(Some)
            .ok_or_else(|| RenderErrorKind::UnsupportedVersion(text.clone())),
        Some(other) => Err(RenderErrorKind::UnsupportedVersion(other.to_string())),
        None => {
            let has = |kind: &&MessageKind| message.contains_key(kind.key());
            if Version::V08.kinds().iter().any(|k| has(&k)) {
                return Ok(Some(Version::V08));
            }
            match Version::V10.kinds().iter().find(has) {
                Some(&kind) => Err(RenderErrorKind::MissingVersion(kind)),
                None => Ok(None),
            }
        }
    }
}

/// The body's `surfaceId`.
fn surface_id(body: &Map<String, Value>) -> Result<&str, RenderError> {
    optional_str(body, "surfaceId")
        .map_err(RenderError::new)?
        .ok_or_else(|| RenderError::new(RenderErrorKind::MissingField { field: "surfaceId" }))
}

/// The string at `field`, if there is one; another type is an error.
fn optional_str<'a>(
    body: &'a Map<String, Value>,
    field: &'static str,
) -> Result<Option<&'a str>, RenderErrorKind> {
    match body.get(field) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(RenderErrorKind::WrongType {
            field,
            expected: "a string",
        }),
    }
}
