//! Components taken from the response: a finished component object, or a look at the one
//! being written, is kept as a [`Cached`] component when it is usable, and stored on its
//! surface once the surface of its message is known.

use serde_json::Value;

use super::ProgressiveParser;
use super::surface::Surface;
use crate::hash::QuickMap;
use crate::official::legacy::partial_json::{Body, Frame};

/// A component as taken from the response.
#[derive(Debug, Clone)]
pub(super) struct Cached {
    pub(super) value: Value,
    /// `children` / `explicitList` fields whose list was still open when this was taken.
    pub(super) open_lists: Vec<String>,
    /// Where it begins in the response (see `Comp::at`).
    pub(super) at: u64,
}

impl<F> ProgressiveParser<F> {
    /// Picks up the `surfaceId` of the message being written as soon as it is complete. Called
    /// only while that surface is not known yet (the caller looks, in line, before calling).
    pub(super) fn notice_surface_id(&mut self) {
        debug_assert!(self.current.surface.is_none());
        let payload = self.json.stack.get(2);
        let sid = match payload {
            Some(Frame {
                body: Body::Object { map, .. },
                ..
            }) => map.get("surfaceId").and_then(Value::as_str),
            _ => None,
        };
        if let Some(sid) = sid {
            let sid = sid.to_owned();
            for cached in std::mem::take(&mut self.current.unassigned) {
                self.store_component(&sid, cached);
            }
            self.current.surface = Some(sid);
        }
    }

    /// A component object closed (or was healed): cache it if it is usable. Returns whether it
    /// is stored on the surface of the message being written.
    pub(super) fn take_component(&mut self, comp: Value, open_lists: Vec<String>, at: u64) -> bool {
        if !self.usable_component(&comp) {
            return false;
        }
        let cached = Cached {
            value: comp,
            open_lists,
            at,
        };
        match self.current.surface.take() {
            Some(sid) => {
                let stored = self.store_component(&sid, cached);
                self.current.surface = Some(sid);
                stored
            }
            None => {
                self.current.unassigned.push(cached);
                false
            }
        }
    }

    /// Stores a component on surface `sid`; returns whether it is stored (or was stored already
    /// exactly so).
    pub(super) fn store_component(&mut self, sid: &str, cached: Cached) -> bool {
        let Some(id) = cached
            .value
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            return false;
        };
        if self.current.rejected.contains(&id) {
            return false;
        }
        let catalog = self.catalogs.catalog();
        if !self.surfaces.contains_key(sid) {
            self.surfaces.insert(sid.to_owned(), Surface::with_room());
        }
        let Some(surface) = self.surfaces.get_mut(sid) else {
            return false;
        };
        if surface.store(id, cached, catalog) {
            self.queued.push(sid.to_owned());
        }
        true
    }

    /// The reference skips components holding an empty object anywhere (a property still being
    /// written) and, for v0.8, components missing a required property.
    fn usable_component(&self, comp: &Value) -> bool {
        let has_id = comp
            .get("id")
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty());
        let body = comp.get("component");
        match body {
            Some(Value::String(s)) => has_id && !s.is_empty() && !has_empty_object(comp),
            Some(body @ Value::Object(typed)) => {
                if !has_id || typed.is_empty() || has_empty_object(body) {
                    return false;
                }
                let catalog = self.catalogs.catalog();
                typed.iter().all(|(kind, props)| match props {
                    Value::Object(props) => catalog
                        .required_fields(kind)
                        .iter()
                        .all(|r| props.contains_key(r)),
                    _ => true,
                })
            }
            _ => false,
        }
    }
}

/// Whether the component closing at the top of `stack` is stored already, exactly as it closes
/// (the last look at it while it was open saw all of it), on surface `sid`: then handing it over
/// would change nothing, and it is not copied.
pub(super) fn stored_already(
    surfaces: &QuickMap<String, Box<Surface>>,
    sid: Option<&str>,
    stack: &[Box<Frame>],
) -> bool {
    let Some(Frame {
        body: Body::Object { map, .. },
        ..
    }) = stack.last().map(|f| &**f)
    else {
        return false;
    };
    let stored = sid
        .and_then(|sid| surfaces.get(sid))
        .zip(map.get("id").and_then(Value::as_str))
        .and_then(|(surface, id)| surface.stored(id));
    stored.is_some_and(|c| c.closed_value().and_then(Value::as_object) == Some(map))
}

fn has_empty_object(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.is_empty() || m.values().any(has_empty_object),
        Value::Array(a) => a.iter().any(has_empty_object),
        _ => false,
    }
}
