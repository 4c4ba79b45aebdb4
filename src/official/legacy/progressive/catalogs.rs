//! The catalogs a parser checks against ([`Catalogs`]): one, or several of one protocol
//! version, each component checked against the one it resolves to as a renderer holding them
//! would resolve it; and whether messages are checked at all.

use super::new_error;
use std::sync::Arc;

use serde_json::Value;

use super::{Error, ErrorKind};
use crate::MessageKind;
use crate::hash::QuickMap;
use crate::official::catalog::{Catalog, Version};
use crate::official::legacy::partial_json::Slot;
use crate::official::validator::{CheckFrame, Likeness, ValidationError, Validator};

/// The catalogs of a parser, compiled.
///
/// The first is the parser's own: its catalog gives the protocol version, the reference
/// properties and required fields the parser reads, and it is the one a component falls back
/// to. As the reference resolves a component, it is checked against the catalog its own
/// `catalogId` names, else the one its surface's `beginRendering` / `createSurface` names,
/// else the first (a catalog the parser does not hold counts as none named).
///
/// With checks off ([`Catalogs::check`]), nothing is checked against the catalogs: every
/// message and component passes, and a placeholder is shown only where its surface's catalog
/// defines the placeholder's component type. What the parser finds itself (self-references,
/// cycles, a component update without its root) is reported all the same, as the reference
/// does with its validation disabled.
#[derive(Debug)]
pub(super) struct Catalogs {
    first: Arc<Validator>,
    /// The validators of the catalogs with a `catalogId` (the first's too, if it has one), by
    /// that id, in the order given (the first of two with one id is the one used).
    by_id: Vec<(String, Arc<Validator>)>,
    /// The catalog id that each surface's beginning message named, by surface.
    surfaces: QuickMap<String, String>,
    /// Another catalog than the first is held, so that what is checked against which may
    /// depend on the component.
    several: bool,
    /// Messages and components are checked against the catalogs.
    check: bool,
}

impl Catalogs {
    /// The catalogs of a parser holding one catalog, compiled as `first`, checked.
    pub(super) fn new(first: Arc<Validator>) -> Catalogs {
        let by_id = first
            .catalog()
            .catalog_id()
            .map(|id| vec![(id.to_owned(), Arc::clone(&first))])
            .unwrap_or_default();
        Catalogs {
            first,
            by_id,
            surfaces: QuickMap::default(),
            several: false,
            check: true,
        }
    }

    /// Adds a further catalog, compiled as `validator`; it must be of the first's protocol
    /// version.
    pub(super) fn add(&mut self, validator: Arc<Validator>) -> Result<(), Error> {
        let (want, got) = (self.version(), validator.catalog().version());
        if want != got {
            return Err(new_error(
                ErrorKind::Schema,
                format!(
                    "The catalogs target different protocol versions: {} and {}",
                    want.message_tag(),
                    got.message_tag()
                ),
            ));
        }
        if let Some(id) = validator.catalog().catalog_id() {
            self.several |= !Arc::ptr_eq(&validator, &self.first);
            self.by_id.push((id.to_owned(), validator));
        }
        Ok(())
    }

    /// Turns the checks against the catalogs on or off.
    pub(super) fn set_check(&mut self, check: bool) {
        self.check = check;
    }

    /// Whether messages and components are checked against the catalogs.
    pub(super) fn checks(&self) -> bool {
        self.check
    }

    /// The first catalog: the parser's own.
    pub(super) fn catalog(&self) -> &Catalog {
        self.first.catalog()
    }

    /// The protocol version of every catalog.
    pub(super) fn version(&self) -> Version {
        self.catalog().version()
    }

    /// Whether the parser holds a catalog a component may resolve to besides the first.
    fn several(&self) -> bool {
        self.several
    }

    /// Notes the catalog id that the beginning message of surface `sid` names (or that it
    /// names none).
    pub(super) fn name_surface(&mut self, sid: &str, catalog_id: Option<&str>) {
        match catalog_id {
            Some(id) if self.several() => {
                if self.surfaces.get(sid).map(String::as_str) != Some(id) {
                    self.surfaces.insert(sid.to_owned(), id.to_owned());
                }
            }
            _ => {
                self.surfaces.remove(sid);
            }
        }
    }

    /// Forgets what surface `sid` named (it was deleted).
    pub(super) fn forget_surface(&mut self, sid: &str) {
        self.surfaces.remove(sid);
    }

    /// The validator of the catalog named `id`, if the parser holds it, and a number that
    /// tells it apart from the others (0 for the first).
    fn named(&self, id: &str) -> Option<(usize, &Validator)> {
        let (i, (_, v)) = self
            .by_id
            .iter()
            .enumerate()
            .find(|(_, (named, _))| named == id)?;
        let which = if Arc::ptr_eq(v, &self.first) {
            0
        } else {
            i + 1
        };
        Some((which, &**v))
    }

    /// The validator that a component (or, with `component` `None`, any component naming no
    /// catalog) of surface `sid` is checked against, and a number that tells it apart from
    /// the others (0 for the first).
    fn resolve(&self, component: Option<&Value>, sid: Option<&str>) -> (usize, &Validator) {
        if !self.several() {
            return (0, &self.first);
        }
        let own = component
            .and_then(|c| c.get("catalogId"))
            .and_then(Value::as_str)
            .and_then(|id| self.named(id));
        let surface = || {
            let id = self.surfaces.get(sid?)?;
            self.named(id)
        };
        own.or_else(surface).unwrap_or((0, &self.first))
    }

    /// [`Validator::check_component`] against the catalog that `component`, a component of
    /// surface `sid`, resolves to; `frame` is kept for that catalog (`frame_of` tells which it
    /// was kept for, and it is made again for another). With checks off, it passes.
    pub(super) fn check_component(
        &self,
        (frame, frame_of): (&mut CheckFrame, &mut usize),
        sid: &str,
        component: Value,
        may_refer_to_itself: bool,
    ) -> (Value, bool) {
        if !self.check {
            return (component, true);
        }
        let (which, validator) = self.resolve(Some(&component), Some(sid));
        if *frame_of != which {
            *frame = CheckFrame::default();
            *frame_of = which;
        }
        validator.check_component(frame, sid, component, may_refer_to_itself)
    }

    /// The verdict on `made`, a placeholder component shown on surface `sid` (see
    /// [`Catalogs::check_component`]). With checks off, whether the surface's catalog defines
    /// the placeholder's component type: a renderer could not show one it does not.
    pub(super) fn check_placeholder(
        &self,
        frame: (&mut CheckFrame, &mut usize),
        sid: &str,
        made: Value,
    ) -> (Value, bool) {
        if self.check {
            return self.check_component(frame, sid, made, false);
        }
        let catalog = self.resolve(None, Some(sid)).1.catalog();
        let kind = match made.get("component") {
            Some(Value::String(kind)) => Some(kind.as_str()),
            Some(Value::Object(typed)) => typed.keys().next().map(String::as_str),
            _ => None,
        };
        let defined = kind.is_some_and(|kind| catalog.component(kind).is_some());
        (made, defined)
    }

    /// [`Validator::validate_with`] of a message that arrived or was made: with one catalog,
    /// against it; with several, each component of a component update against the catalog
    /// it resolves to (together with the others that resolve to it), and any other message
    /// against the catalog it names, else its surface's. An update whose components resolve to
    /// several catalogs is checked without strict integrity (each catalog sees only its own
    /// components): the parser finds a missing root itself. With checks off, it passes.
    pub(super) fn validate(&self, message: &Value, strict: bool) -> Result<(), ValidationError> {
        if !self.check {
            return Ok(());
        }
        if !self.several() {
            return self.first.validate_with(message, strict);
        }
        let version = self.version();
        let Some((kind, payload)) = version.kind_of(message) else {
            return self.first.validate_with(message, strict);
        };
        let sid = payload.get("surfaceId").and_then(Value::as_str);
        let components = payload.get("components").and_then(Value::as_array);
        match (kind == version.components(), components) {
            (true, Some(list)) if !list.is_empty() => {
                // The components by the catalog each resolves to, in the order they come.
                let mut groups: Vec<(usize, &Validator, Vec<Value>)> = Vec::new();
                for comp in list {
                    let (which, validator) = self.resolve(Some(comp), sid);
                    match groups.iter_mut().find(|(w, _, _)| *w == which) {
                        Some((_, _, members)) => members.push(comp.clone()),
                        None => groups.push((which, validator, vec![comp.clone()])),
                    }
                }
                if let [(_, validator, _)] = groups.as_slice() {
                    return validator.validate_with(message, strict);
                }
                let key = kind.key();
                for (_, validator, members) in groups {
                    let mut part = message.clone();
                    if let Some(slot) = part.get_mut(key).and_then(|p| p.get_mut("components")) {
                        *slot = Value::Array(members);
                    }
                    validator.validate_with(&part, false)?;
                }
                Ok(())
            }
            _ => {
                let named = match kind {
                    MessageKind::BeginRendering | MessageKind::CreateSurface => payload
                        .get("catalogId")
                        .and_then(Value::as_str)
                        .and_then(|id| self.named(id))
                        .map(|(_, v)| v),
                    _ => None,
                };
                let validator = named.unwrap_or_else(|| self.resolve(None, sid).1);
                validator.validate_with(message, strict)
            }
        }
    }

    /// [`Validator::free_at`] for every component, when the first catalog is the only one
    /// (else, whatever catalog a component resolves to, no: the verdict is made again).
    pub(super) fn free_at(&self, path: &[Slot], then: Option<&str>) -> bool {
        !self.several() && self.first.free_at(path, then)
    }

    /// [`Validator::free_under`] for every component, as [`Catalogs::free_at`].
    pub(super) fn free_under(&self, component: &Value, keys: &[&str]) -> bool {
        !self.several() && self.first.free_under(component, keys)
    }

    /// [`Validator::likeness`] for every component, as [`Catalogs::free_at`]: with several
    /// catalogs, only whether they are equal.
    pub(super) fn likeness(&self, a: &Value, b: &Value) -> Likeness {
        if !self.several() {
            return self.first.likeness(a, b);
        }
        if a == b {
            Likeness::Same
        } else {
            Likeness::Other
        }
    }

    /// [`Validator::checks_entries_apart`], when the first catalog is the only one (else no:
    /// an update is checked whole, against its surface's catalog).
    pub(super) fn checks_entries_apart(&self) -> bool {
        !self.several() && self.first.checks_entries_apart()
    }

    /// [`Validator::entry_text_is_free`], as [`Catalogs::checks_entries_apart`].
    pub(super) fn entry_text_is_free(&self) -> bool {
        !self.several() && self.first.entry_text_is_free()
    }
}
