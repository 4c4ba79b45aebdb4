//! The catalog's verdicts on the emitted forms of a surface's components, and the placeholder
//! components made for it (each checked once).

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::Value;

use super::ROOM;
use super::comp::Placeholder;
use crate::hash::{QuickMap, QuickState};
use crate::official::catalog::Version;
use crate::official::legacy::progressive::catalogs::Catalogs;
use crate::official::legacy::progressive::component::placeholder;
use crate::official::validator::CheckFrame;

/// What the catalog said of a surface's components and placeholders.
#[derive(Debug, Default)]
pub(super) struct Checks {
    /// Reused by every check of one of its components against the catalog.
    frame: CheckFrame,
    /// Which catalog `frame` is kept for (see [`Catalogs::check_component`]).
    frame_of: usize,
    /// Arrived components whose emitted form the catalog rejects.
    pub(super) invalid: BTreeSet<String>,
    /// Placeholder components made so far, by id (each also held by the components showing it,
    /// so that a step reaches it without a look-up).
    placeholders: QuickMap<String, Arc<Placeholder>>,
    /// The catalog's verdict on every placeholder made here, once one was checked, when the
    /// check cannot tell their ids apart ([`Catalogs::free_at`]): they differ in nothing else.
    placeholder_verdict: Option<bool>,
}

impl Checks {
    /// Room for [`ROOM`] placeholders.
    pub(super) fn with_room() -> Checks {
        Checks {
            placeholders: QuickMap::with_capacity_and_hasher(ROOM, QuickState::default()),
            ..Checks::default()
        }
    }

    /// Checks `form`, the emitted form of component `id` of surface `sid`, against the
    /// catalog, and notes the verdict; hands the form back.
    pub(super) fn check(
        &mut self,
        validator: &Catalogs,
        (sid, id): (&str, &str),
        form: Value,
        may_refer_to_itself: bool,
    ) -> Value {
        let frame = (&mut self.frame, &mut self.frame_of);
        let (back, ok) = validator.check_component(frame, sid, form, may_refer_to_itself);
        if ok {
            self.invalid.remove(id);
        } else {
            self.invalid.insert(id.to_owned());
        }
        back
    }

    /// Debug builds: asserts that the verdict kept for component `id` of surface `sid`
    /// (whether it is among the `invalid`) is the one a full check of `form`, its emitted form,
    /// gives.
    #[cfg(debug_assertions)]
    pub(super) fn assert_stands(
        &mut self,
        validator: &Catalogs,
        (sid, id): (&str, &str),
        form: &Value,
    ) {
        let frame = (&mut self.frame, &mut self.frame_of);
        let ok = validator.check_component(frame, sid, form.clone(), false).1;
        debug_assert_eq!(ok, !self.invalid.contains(id), "kept verdict on {id}");
    }

    /// Placeholder `pid` of surface `sid`, made and checked the first time it is asked for.
    pub(super) fn placeholder(
        &mut self,
        pid: &String,
        sid: &str,
        version: Version,
        validator: &Catalogs,
    ) -> Arc<Placeholder> {
        if let Some(made) = self.placeholders.get(pid) {
            return Arc::clone(made);
        }
        let made = placeholder(pid, version);
        let (made, ok) = match self.placeholder_verdict {
            Some(ok) => {
                debug_assert_eq!(
                    ok,
                    validator
                        .check_placeholder((&mut self.frame, &mut self.frame_of), sid, made.clone())
                        .1
                );
                (made, ok)
            }
            None => {
                let frame = (&mut self.frame, &mut self.frame_of);
                let (made, ok) = validator.check_placeholder(frame, sid, made);
                // Placeholders differ only in their ids.
                if validator.free_at(&[], Some("id")) {
                    self.placeholder_verdict = Some(ok);
                }
                (made, ok)
            }
        };
        let made = Arc::new(Placeholder::new(pid.clone(), ok, made));
        self.placeholders.insert(pid.clone(), Arc::clone(&made));
        made
    }
}
