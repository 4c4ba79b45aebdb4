//! Messages that arrived whole: checked against the catalog (a rejected one mends its surface
//! and is reported), then taken by kind: a surface begun, components stored and shown, a
//! surface deleted, a data-model update passed on when it brings anything new.

use super::new_error;
use serde_json::Value;

use super::components::Cached;
use super::error::classify;
use super::flush::Flush;
use super::form::{Form, Out};
use super::surface::Surface;
use super::{Error, ErrorKind, ProgressiveParser};
use crate::official::validator::ValidationError;
use crate::{MessageKind, Version};

/// The root a surface has when its messages name none.
const DEFAULT_ROOT: &str = "root";

/// Where the message being parsed stands.
#[derive(Debug, Default)]
pub(super) struct Current {
    pub(super) surface: Option<String>,
    /// Components of this message that arrived before its `surfaceId`.
    pub(super) unassigned: Vec<Cached>,
    /// Ids of components this message wrote that were set aside for breaking a topology rule:
    /// the rest of the message does not bring them back.
    pub(super) rejected: Vec<String>,
    /// An error was found in this message before it ended.
    pub(super) failed: bool,
}

impl<F> ProgressiveParser<F> {
    /// Emits a message built while streaming; one the catalog rejects is left out.
    pub(super) fn emit_loose<M: Form>(&mut self, msg: Value, out: &mut Out<M>) {
        if self.catalogs.validate(&msg, false).is_ok() {
            out.message(M::message(msg));
        }
    }

    /// Emits a message that arrived whole; one the catalog rejects is an error.
    fn emit_strict<M: Form>(&mut self, msg: Value, out: &mut Out<M>) -> Result<(), Error> {
        self.catalogs
            .validate(&msg, true)
            .map_err(|e| new_error(classify(&e), e.to_string()))?;
        out.message(M::message(msg));
        Ok(())
    }

    /// Emits a finished message that already passed the check without strict integrity: when
    /// it holds no component list the strict check is the same check and is not run again.
    fn emit_finished<M: Form>(&mut self, msg: Value, out: &mut Out<M>) -> Result<(), Error> {
        let update_key = self.version.components().key();
        if msg.get(update_key).is_some() {
            return self.emit_strict(msg, out);
        }
        out.message(M::message(msg));
        Ok(())
    }

    /// Takes a message that arrived whole, which began at byte `at` of the response.
    pub(super) fn complete_message<M: Form>(
        &mut self,
        msg: Value,
        at: u64,
        out: &mut Out<M>,
    ) -> Result<(), Error> {
        self.block.found_object = true;
        if let Err(e) = self.catalogs.validate(&msg, false) {
            return Err(self.rejected(&msg, &e));
        }
        let (kind, payload) = match self.version.kind_of(&msg) {
            Some(found) => found,
            None => return self.emit_strict(msg, out),
        };
        let sid = match payload {
            Value::Object(p) => p.get("surfaceId").and_then(Value::as_str),
            Value::String(s) if kind == MessageKind::DeleteSurface => Some(s.as_str()),
            _ => None,
        }
        .map(str::to_owned)
        .or_else(|| self.current.surface.clone())
        .unwrap_or_else(|| "unknown".to_owned());
        if self.current.surface.is_none() {
            self.current.surface = Some(sid.clone());
            for cached in std::mem::take(&mut self.current.unassigned) {
                self.store_component(&sid, cached);
            }
        }
        match kind {
            MessageKind::BeginRendering | MessageKind::CreateSurface => {
                let root = payload
                    .get("root")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                let catalog_id = payload.get("catalogId").and_then(Value::as_str);
                self.catalogs.name_surface(&sid, catalog_id);
                self.begin_surface(msg, (&sid, at), root, out)
            }
            MessageKind::SurfaceUpdate | MessageKind::UpdateComponents => {
                let root = payload
                    .get("root")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                self.update_components(msg, kind.key(), &sid, root, at, out)
            }
            MessageKind::DeleteSurface => {
                let started = self.surfaces.get(&sid).is_some_and(|s| s.started());
                if started {
                    self.surfaces.remove(&sid);
                    self.catalogs.forget_surface(&sid);
                    self.emit_finished(msg, out)?;
                }
                Ok(())
            }
            _ => {
                // A data-model update that arrived whole: pass it on if it brings anything new.
                if self.data_is_new(payload) {
                    self.emit_finished(msg, out)?;
                }
                Ok(())
            }
        }
    }

    /// The error for a message the catalog rejects (`e`). Its surface may hold the components
    /// that broke the rule (taken while it was written): they are set aside, so that they do
    /// not break it again.
    fn rejected(&mut self, msg: &Value, e: &ValidationError) -> Error {
        let mut error = new_error(classify(e), e.message());
        let sid = self
            .version
            .kind_of(msg)
            .and_then(|(_, payload)| payload.get("surfaceId"))
            .and_then(Value::as_str)
            .or(self.current.surface.as_deref())
            .map(str::to_owned);
        if let Some(sid) = sid {
            let first = self.heal(&sid);
            // A topology fault is reported as the surface's own check words and places it,
            // as when it is found while the message is written (the message alone may show
            // another component of the same cycle first); else it is placed where the
            // component it names begins (nothing was set aside, so that one is still here).
            if error.kind() == ErrorKind::Topology {
                error = match (first, self.surfaces.get(&sid), e.component()) {
                    (Some(found), _, _) => found,
                    (None, Some(surface), Some(id)) => surface.place(error, id),
                    _ => error,
                };
            }
        }
        error
    }

    /// A `beginRendering` / `createSurface` for surface `sid`, which began at byte `at`, naming
    /// `root` or not: passed on the first time, then what was held for the surface is shown.
    ///
    /// A `createSurface` may carry the surface's first components (v1.0): they are stored as
    /// the surface's, and when it is passed on, the renderer has them from it, so they are
    /// counted as sent as they are written there (as the reference records them as yielded);
    /// an update follows only for what the renderer does not have that way.
    fn begin_surface<M: Form>(
        &mut self,
        msg: Value,
        (sid, at): (&str, u64),
        root: Option<String>,
        out: &mut Out<M>,
    ) -> Result<(), Error> {
        let inline = match self.version.kind_of(&msg) {
            Some((MessageKind::CreateSurface, payload)) => payload
                .get("components")
                .and_then(Value::as_array)
                .filter(|list| !list.is_empty())
                .cloned(),
            _ => None,
        };
        let surface = self
            .surfaces
            .entry(sid.to_owned())
            .or_insert_with(Surface::with_room);
        let root = root.or_else(|| surface.root().map(str::to_owned));
        surface.set_root(root.unwrap_or_else(|| DEFAULT_ROOT.to_owned()));
        let first = surface.start();
        for comp in inline.iter().flatten() {
            let Some(id) = comp.get("id").and_then(Value::as_str) else {
                continue;
            };
            let stored = self.surfaces.get(sid).and_then(|s| s.stored(id));
            if stored.is_some_and(|c| c.closed_value() == Some(comp)) {
                continue;
            }
            let cached = Cached {
                value: comp.clone(),
                open_lists: Vec::new(),
                at: stored.map_or(at, |c| c.at()),
            };
            self.store_component(sid, cached);
        }
        if first {
            self.emit_finished(msg, out)?;
        }
        let sent = if first {
            inline.unwrap_or_default()
        } else {
            Vec::new()
        };
        self.flush_surface(sid, Flush::Started, &sent, out)
    }

    /// A component update of `kind` for surface `sid`, naming `root` or not, which began at byte
    /// `at`: the components not stored already are stored, and a started surface is shown.
    fn update_components<M: Form>(
        &mut self,
        mut msg: Value,
        kind: &str,
        sid: &str,
        root: Option<String>,
        at: u64,
        out: &mut Out<M>,
    ) -> Result<(), Error> {
        let surface = self
            .surfaces
            .entry(sid.to_owned())
            .or_insert_with(Surface::with_room);
        if let Some(root) = root {
            surface.set_root(root);
        } else if surface.root().is_none() && self.version != Version::V08 {
            surface.set_root(DEFAULT_ROOT.to_owned());
        }
        let started = surface.started();
        // The message itself is not passed on: the components not stored already, exactly so,
        // are moved out of it.
        let list = msg
            .get_mut(kind)
            .and_then(|p| p.get_mut("components"))
            .and_then(Value::as_array_mut);
        if let Some(list) = list {
            for comp in list.iter_mut() {
                let Some(id) = comp.get("id").and_then(Value::as_str) else {
                    continue;
                };
                let stored = self.surfaces.get(sid).and_then(|s| s.stored(id));
                // Storing it again would change nothing (see `Surface::store`).
                if stored.is_some_and(|c| c.closed_value() == Some(&*comp)) {
                    continue;
                }
                // Each was taken as it closed, where it began; one that was not is placed where
                // its message begins.
                let cached = Cached {
                    at: stored.map_or(at, |c| c.at()),
                    value: comp.take(),
                    open_lists: Vec::new(),
                };
                self.store_component(sid, cached);
            }
            if started && !M::TEXT {
                // What is left of the message is written over by the update it brings, whose
                // components come in the order of their ids.
                list.sort_by(|a, b| id_order(a).cmp(&id_order(b)));
            }
        }
        if started {
            if !M::TEXT {
                out.spare.extend(M::spare_tree(msg));
            }
            self.flush_surface(sid, Flush::UpdateEnded, &[], out)?;
        }
        Ok(())
    }

    /// After an error: sets aside every component of `sid` that refers to itself, closes a cycle
    /// or ends a chain too deep (see [`Surface::set_aside_faults`]), so that the same fault is
    /// not found again, and queues the surface to be shown again without them. The message
    /// being written does not bring them back. Returns the first fault it mended, the one to
    /// report.
    #[cold]
    #[inline(never)]
    pub(super) fn heal(&mut self, sid: &str) -> Option<Error> {
        self.writing.valid = false;
        let surface = self.surfaces.get_mut(sid)?;
        let first = surface.set_aside_faults(&mut self.current.rejected);
        if surface.is_queued() {
            self.queued.push(sid.to_owned());
        }
        first
    }
}

/// Where a component goes when components are sorted by id (those without one last).
fn id_order(component: &Value) -> (bool, &str) {
    match component.get("id").and_then(Value::as_str) {
        Some(id) => (false, id),
        None => (true, ""),
    }
}
