//! A small model of a v1.0 renderer's surfaces, to compare the state split messages leave with
//! the state whole ones leave (message_processor_v1_0.yaml):
//!
//! - `createSurface` makes a surface, which must not exist: its settings (every member but
//!   `components` and `dataModel`), its components (as `updateComponents` would set them) and its
//!   data model (`dataModel`, else `{}`);
//! - `updateComponents` sets each component by its `id` (the last of an id wins) on a surface that
//!   exists;
//! - `updateDataModel` changes the data model of a surface that exists, as
//!   [`data_model::apply`](super::data_model::apply) does;
//! - `deleteSurface` removes a surface that exists.
//!
//! A message the model cannot apply (a surface created twice, an update of a missing surface, a
//! component without a string `id`) is `None`: the test then fails.

use super::data_model;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// One surface.
#[derive(Debug, Clone, PartialEq)]
pub struct Surface {
    pub settings: Map<String, Value>,
    pub components: BTreeMap<String, Value>,
    pub data: Value,
}

/// Every surface, by id.
pub type Surfaces = BTreeMap<String, Surface>;

fn set_components(surface: &mut Surface, list: &Value) -> Option<()> {
    for c in list.as_array()? {
        let id = c.get("id")?.as_str()?;
        surface.components.insert(id.to_owned(), c.clone());
    }
    Some(())
}

/// The effect of one message.
pub fn apply(surfaces: &mut Surfaces, message: &Value) -> Option<()> {
    if let Some(body) = message.get("createSurface") {
        let id = body.get("surfaceId")?.as_str()?;
        if surfaces.contains_key(id) {
            return None;
        }
        let mut surface = Surface {
            settings: Map::new(),
            components: BTreeMap::new(),
            data: json!({}),
        };
        for (key, value) in body.as_object()? {
            match key.as_str() {
                "components" => set_components(&mut surface, value)?,
                "dataModel" => surface.data = value.clone(),
                _ => {
                    surface.settings.insert(key.clone(), value.clone());
                }
            }
        }
        surfaces.insert(id.to_owned(), surface);
        return Some(());
    }
    if let Some(body) = message.get("updateComponents") {
        let surface = surfaces.get_mut(body.get("surfaceId")?.as_str()?)?;
        return set_components(surface, body.get("components")?);
    }
    if let Some(body) = message.get("updateDataModel") {
        let surface = surfaces.get_mut(body.get("surfaceId")?.as_str()?)?;
        return data_model::apply(&mut surface.data, message);
    }
    if let Some(body) = message.get("deleteSurface") {
        return surfaces
            .remove(body.get("surfaceId")?.as_str()?)
            .map(|_| ());
    }
    None
}
