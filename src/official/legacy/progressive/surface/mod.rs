//! What the parser keeps of each surface: its components as last seen and as emitted, which of
//! them are reachable from its root, and the faults among their references.
//!
//! * [`comp`]: a component as last seen and what was made of it, and the placeholders shown
//!   for children that have not arrived;
//! * [`reach`]: what is reachable from the root, grown from what changed, and the topology
//!   faults (self-references, cycles, chains too deep);
//! * [`refresh`]: bringing a component's emitted form up to date;
//! * [`checks`]: the catalog's verdicts on the emitted forms and the placeholders;
//! * [`send`]: what a step sends of a surface.

mod checks;
mod comp;
mod reach;
mod refresh;
mod send;

use std::collections::{BTreeMap, BTreeSet};

use super::Error;
use super::component::PLACEHOLDER_PREFIX;
use super::components::Cached;
use super::error::self_reference;
use crate::hash::{QuickMap, QuickState};
use crate::official::catalog::Catalog;
use checks::Checks;
pub(super) use comp::{Comp, Placeholder};

/// Per-surface state.
#[derive(Debug, Default)]
pub(super) struct Surface {
    /// `beginRendering` / `createSurface` has been emitted.
    started: bool,
    root: Option<String>,
    /// Latest version of every component seen, by id (boxed: see [`ROOM`]).
    comps: QuickMap<String, Box<Comp>>,
    /// Counts insertions (the first self-reference reported is the earliest inserted).
    next_seq: u64,
    /// Components stored since the last flush (in any order, maybe more than once).
    touched: Vec<String>,
    /// Components that refer to themselves, by insertion: `(id, field)`.
    self_refs: BTreeMap<u64, (String, String)>,
    /// Ids reachable from the root (arrived or not), with their depth, sorted by id.
    reach: BTreeMap<String, usize>,
    /// `reach` has to be worked out again from the root.
    reach_stale: bool,
    /// Components showing a placeholder for an id, by that id.
    mentioned_by: Mentions,
    /// The catalog's verdicts on the emitted forms, and the placeholders made.
    checks: Checks,
    /// A component whose own id starts with [`PLACEHOLDER_PREFIX`] was stored here, so one may
    /// take a placeholder's id (until then a step need not look placeholder ids up among the
    /// components). Never cleared: it only decides whether the look-up is made.
    loading_ids: bool,
    /// Changed-only mode: components whose change is not sent yet because a step was rejected.
    pending: BTreeSet<String>,
    /// Waiting in [`ProgressiveParser::queued`](super::ProgressiveParser::queued).
    queued: bool,
    /// Its id as JSON text (made at its first component update).
    sid_json: String,
    /// How often an emitted form took an added child id in place (tests only).
    #[cfg(test)]
    appended_to_form: usize,
}

/// Components that show a placeholder for an id, by that id.
#[derive(Debug, Default)]
struct Mentions(QuickMap<String, BTreeSet<String>>);

impl Mentions {
    /// The components showing a placeholder for `child`.
    fn users(&self, child: &str) -> Option<&BTreeSet<String>> {
        self.0.get(child)
    }

    /// Component `id` shows a placeholder for `child`.
    fn add(&mut self, child: &str, id: &str) {
        self.0
            .entry(child.to_owned())
            .or_default()
            .insert(id.to_owned());
    }

    /// Component `id` no longer shows a placeholder for any of `children`.
    fn forget<'a>(&mut self, children: impl IntoIterator<Item = &'a String>, id: &str) {
        for child in children {
            if let Some(users) = self.0.get_mut(child) {
                users.remove(id);
            }
        }
    }
}

impl Surface {
    /// A surface with room for a typical UI (a table that grows allocates again each time),
    /// boxed as the parser's table of surfaces holds it (see [`ROOM`]).
    pub(super) fn with_room() -> Box<Surface> {
        Box::new(Surface {
            comps: QuickMap::with_capacity_and_hasher(ROOM, QuickState::default()),
            mentioned_by: Mentions(QuickMap::with_capacity_and_hasher(
                ROOM,
                QuickState::default(),
            )),
            checks: Checks::with_room(),
            ..Surface::default()
        })
    }

    /// The root's id, once named.
    pub(super) fn root(&self) -> Option<&str> {
        self.root.as_deref()
    }

    /// Sets the root; the reachable set is then worked out again.
    pub(super) fn set_root(&mut self, root: String) {
        if self.root.as_deref() != Some(root.as_str()) {
            self.root = Some(root);
            self.reach_stale = true;
        }
    }

    /// Whether its `beginRendering` / `createSurface` has been emitted.
    pub(super) fn started(&self) -> bool {
        self.started
    }

    /// Notes that its `beginRendering` / `createSurface` is emitted; true the first time.
    pub(super) fn start(&mut self) -> bool {
        !std::mem::replace(&mut self.started, true)
    }

    /// Whether it is waiting in [`ProgressiveParser::queued`](super::ProgressiveParser::queued).
    pub(super) fn is_queued(&self) -> bool {
        self.queued
    }

    /// Notes that component `id` was stored or changed, for the next flush; true when the
    /// surface was not queued for one yet (the caller queues it).
    pub(super) fn touch(&mut self, id: String) -> bool {
        self.touched.push(id);
        !std::mem::replace(&mut self.queued, true)
    }

    /// Component `id`, if it is here.
    pub(super) fn stored(&self, id: &str) -> Option<&Comp> {
        self.comps.get(id).map(|c| &**c)
    }

    /// Component `id`, if it is here with its emitted form up to date (and, when
    /// `lists_closed`, no list of children open in it): one that may be brought up to date in
    /// place.
    pub(super) fn up_to_date_mut(&mut self, id: &str, lists_closed: bool) -> Option<&mut Comp> {
        self.comps
            .get_mut(id)
            .filter(|c| !c.stale && (!lists_closed || c.open_lists.is_empty()))
            .map(|c| &mut **c)
    }

    /// Stores component `id` as `cached` (its references as `catalog` reads them); true when
    /// the surface was not queued for a flush yet (the caller queues it). Stored already
    /// exactly so, only where it begins is noted.
    pub(super) fn store(&mut self, id: String, cached: Cached, catalog: &Catalog) -> bool {
        if let Some(comp) = self
            .comps
            .get_mut(&id)
            .filter(|c| c.value == cached.value && c.open_lists == cached.open_lists)
        {
            comp.at = cached.at;
            return false;
        }
        let mut ids: Vec<&str> = Vec::new();
        let mut self_ref = None;
        catalog.for_each_reference(&cached.value, |r, field| {
            if r == id && self_ref.is_none() {
                self_ref = Some((id.clone(), field.to_string()));
            }
            ids.push(r);
        });
        // Usually the references known already start the new ones (a value grew elsewhere, or a
        // list is being written): those are kept and only the new ones copied.
        let known: &[String] = self.comps.get(&id).map_or(&[], |c| &c.refs);
        let kept = match ids.get(..known.len()) {
            Some(start) if known.iter().map(String::as_str).eq(start.iter().copied()) => {
                known.len()
            }
            _ => 0,
        };
        let new_refs: Vec<String> = ids
            .get(kept..)
            .unwrap_or_default()
            .iter()
            .map(|r| (*r).to_owned())
            .collect();
        let seq = match self.comps.get_mut(&id) {
            Some(comp) => comp.seen_again(cached, kept, new_refs),
            None => self.insert(&id, cached, new_refs),
        };
        match self_ref {
            Some(found) => {
                self.self_refs.insert(seq, found);
            }
            None => {
                self.self_refs.remove(&seq);
            }
        }
        self.touch(id)
    }

    /// Stores component `id`, new here, referring to `refs`; returns its insertion number.
    fn insert(&mut self, id: &str, cached: Cached, refs: Vec<String>) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.loading_ids |= id.starts_with(PLACEHOLDER_PREFIX);
        self.comps
            .insert(id.to_owned(), Comp::new(cached, seq, refs));
        // Components showing a placeholder for this id now show the real thing.
        if let Some(users) = self.mentioned_by.users(id) {
            for user in users {
                if let Some(comp) = self.comps.get_mut(user) {
                    let only_children = !comp.stale || comp.children_came;
                    comp.mark_stale();
                    comp.children_came = only_children;
                }
                self.touched.push(user.clone());
            }
        }
        seq
    }

    /// `error`, placed where component `id` begins if it is here.
    #[cold]
    pub(super) fn place(&self, error: Error, id: &str) -> Error {
        match self.comps.get(id) {
            Some(comp) => error.at(comp.at),
            None => error,
        }
    }

    /// After an error: sets aside every component that refers to itself, closes a cycle or
    /// ends a chain too deep (see [`Surface::set_aside`]), in the order the faults were
    /// written, adding their ids to `rejected`. Returns the first fault it mended (see
    /// [`Surface::first_fault`]), the one to report.
    #[cold]
    #[inline(never)]
    pub(super) fn set_aside_faults(&mut self, rejected: &mut Vec<String>) -> Option<Error> {
        let mut first = None;
        // A record of a self-reference whose component is gone is stale.
        let comps = &self.comps;
        self.self_refs.retain(|_, (id, _)| comps.contains_key(id));
        // Each round takes out one component, in the order the faults were written.
        for _ in 0..=self.comps.len() {
            let Some((fault, bad)) = self.first_fault() else {
                break;
            };
            first.get_or_insert(fault);
            self.set_aside(&bad);
            rejected.push(bad);
        }
        first
    }

    /// Takes out component `id`, which broke a topology rule (it refers to itself, closes a
    /// cycle, or ends a chain too deep): the components that refer to it show its placeholder
    /// again, and the reachable set is worked out again at the next flush.
    #[cold]
    fn set_aside(&mut self, id: &str) {
        self.queued = true;
        self.reach_stale = true;
        let Some(comp) = self.comps.remove(id) else {
            return;
        };
        self.self_refs.remove(&comp.seq);
        self.checks.invalid.remove(id);
        self.mentioned_by.forget(&comp.missing, id);
        for (other, c) in self.comps.iter_mut() {
            if c.refs.iter().any(|r| r == id) {
                c.mark_stale();
                self.touched.push(other.clone());
            }
        }
    }

    /// Takes the surface off the queue for a flush, and returns its root when it is to be
    /// shown: it is started and has a root, and (`only_if_queued`) was queued.
    pub(super) fn due(&mut self, only_if_queued: bool) -> Option<String> {
        if only_if_queued && !self.queued {
            return None;
        }
        self.queued = false;
        if !self.started {
            return None;
        }
        self.root.clone()
    }

    /// Whether component `id` is here.
    pub(super) fn has(&self, id: &str) -> bool {
        self.comps.contains_key(id)
    }

    /// The self-reference of the earliest component inserted that refers to itself, if any.
    pub(super) fn first_self_reference(&self) -> Option<Error> {
        let (id, field) = self.self_refs.values().next()?;
        Some(self_reference(id, field))
    }

    /// How often an emitted form took an added child id in place.
    #[cfg(test)]
    pub(super) fn appended_to_form(&self) -> usize {
        self.appended_to_form
    }
}

/// Components (and placeholders) a surface has room for from the start: its tables then start
/// below 1 KiB each (a component is boxed, so a table holds an id and a pointer per entry), the
/// size from which glibc's `malloc` first tidies away every small block freed so far.
pub(super) const ROOM: usize = 8;
