//! What the parser keeps of each surface: its components as last seen and as emitted, which of
//! them are reachable from its root, and the faults among their references.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::component::{
    CHILD_FIELDS, PLACEHOLDER_PREFIX, Processed, append_child, assign, needs_processing,
    placeholder, process_component, show_arrived, stands_for_one_of,
};
use super::error::{Error, ErrorKind, self_reference};
use super::form::compact_json;
use crate::hash::{QuickMap, QuickSet, QuickState};
use crate::official::catalog::Version;
use crate::official::partial_json::{Slot, slot_at};
use crate::official::validator::{CheckFrame, Likeness, MAX_GLOBAL_DEPTH, Validator};

/// Per-surface state.
#[derive(Debug, Default)]
pub(super) struct Surface {
    /// `beginRendering` / `createSurface` has been emitted.
    pub(super) started: bool,
    pub(super) root: Option<String>,
    /// Latest version of every component seen, by id (boxed: see [`ROOM`]).
    pub(super) comps: QuickMap<String, Box<Comp>>,
    /// Counts insertions (the first self-reference reported is the earliest inserted).
    pub(super) next_seq: u64,
    /// Components stored since the last flush (in any order, maybe more than once).
    pub(super) touched: Vec<String>,
    /// Components that refer to themselves, by insertion: `(id, field)`.
    pub(super) self_refs: BTreeMap<u64, (String, String)>,
    /// Ids reachable from the root (arrived or not), with their depth, sorted by id.
    pub(super) reach: BTreeMap<String, usize>,
    /// `reach` has to be worked out again from the root.
    pub(super) reach_stale: bool,
    /// Components showing a placeholder for an id, by that id.
    pub(super) mentioned_by: QuickMap<String, BTreeSet<String>>,
    /// Arrived components whose emitted form the catalog rejects.
    pub(super) invalid: BTreeSet<String>,
    /// Placeholder components made so far, by id (each also held by the components showing it,
    /// so that a step reaches it without a look-up).
    pub(super) placeholder_ok: QuickMap<String, Arc<Placeholder>>,
    /// The catalog's verdict on every placeholder made here, once one was checked, when the
    /// check cannot tell their ids apart ([`Validator::free_at`]): they differ in nothing else.
    pub(super) placeholder_verdict: Option<bool>,
    /// A component whose own id starts with [`PLACEHOLDER_PREFIX`] was stored here, so one may
    /// take a placeholder's id (until then a step need not look placeholder ids up among the
    /// components). Never cleared: it only decides whether the look-up is made.
    pub(super) loading_ids: bool,
    /// Changed-only mode: components whose change is not sent yet because a step was rejected.
    pub(super) pending: BTreeSet<String>,
    /// Waiting in [`ProgressiveParser::queued`](super::ProgressiveParser::queued).
    pub(super) queued: bool,
    /// Reused by every check of one of its components against the catalog.
    pub(super) check: CheckFrame,
    /// Its id as JSON text (made at its first component update).
    pub(super) sid_json: String,
    /// How often an emitted form took an added child id in place (tests only).
    #[cfg(test)]
    pub(super) appended_to_form: usize,
}

/// A component as last seen, and what was made of it.
#[derive(Debug)]
pub(super) struct Comp {
    pub(super) value: Value,
    /// `children` / `explicitList` fields whose list was still open when this was taken.
    pub(super) open_lists: Vec<String>,
    /// The byte of the response where its latest writing begins (its `{`): where an error
    /// about it is placed.
    pub(super) at: u64,
    pub(super) seq: u64,
    /// Ids it refers to, as the catalog reads them.
    pub(super) refs: Vec<String>,
    /// `refs` as the reachability last followed them (kept up to date while reachable).
    pub(super) followed: Vec<String>,
    /// How many of the first `refs` are known to be those of `followed` (they stayed as they
    /// were since `followed` was made): when that covers `followed`, it starts `refs` without a
    /// look at their texts.
    pub(super) same_as_followed: usize,
    /// The form that is emitted (placeholders in, v0.8 paths made absolute) when it differs
    /// from `value`, or the form last emitted while `stale`; `None`: `value` itself.
    pub(super) processed: Option<Value>,
    /// `processed` is out of date.
    pub(super) stale: bool,
    /// Placeholder ids `processed` refers to, in order.
    pub(super) placeholders: Vec<String>,
    /// The placeholder components of `placeholders`, in the same order.
    pub(super) shown: Vec<Arc<Placeholder>>,
    /// The missing child ids behind `placeholders` (not the `loading_children_` ones).
    pub(super) missing: Vec<String>,
    /// A form made before and no longer needed, whose allocations the next one reuses.
    pub(super) spare: Option<Value>,
    /// Bumped whenever `processed` changes (starts at 0: never processed).
    pub(super) version: u64,
    /// `value` was brought up to date in place since the last refresh (see
    /// [`ProgressiveParser::sniff_component`](super::ProgressiveParser)), so the form last
    /// emitted is no longer at hand to compare with: the next refresh counts it as changed.
    pub(super) edited: bool,
    /// The `version` last put in a message (official mode: sent or rejected, as the reference
    /// counts it; changed-only mode: sent). Settable through a shared reference, so that a
    /// step marks what it picks in the same look-up that reads it (an atomic rather than a
    /// `Cell`, which would make the parser not `Sync`; only `&mut self` methods touch it).
    pub(super) yielded: AtomicU64,
    /// The emitted form as JSON text, made when first sent as text ([`Form::TEXT`](super::form::Form::TEXT)) and
    /// dropped whenever `version` moves (through a shared reference, so that a step makes it in
    /// the same look-up that picks the component).
    pub(super) text: OnceLock<String>,
    /// How many child ids the emitted form was made from (see [`Processed::calls`]).
    pub(super) child_calls: usize,
    /// The child id added in place since the last refresh, when that is all that changed (see
    /// [`Appended`]).
    pub(super) appended: Option<Appended>,
    /// All that changed in place since the last refresh is a string the catalog check cannot
    /// tell apart ([`Validator::free_at`]): the verdict it gave then still holds.
    pub(super) free_edit: bool,
    /// All that happened since the last refresh is that children it names arrived: its
    /// emitted form can differ from the one before only in child ids.
    pub(super) children_came: bool,
    /// Whether every child id of `value` sits where the catalog check cannot tell ids apart
    /// ([`Validator::free_under`]), once looked up; dropped when `value` changes shape.
    pub(super) child_ids_free: Option<bool>,
}

/// A child id added at the end of a list of children of a stored component, in place (see
/// `ProgressiveParser::append_in_place`): the next refresh brings the emitted form up to date
/// there ([`append_child`]) instead of making it again.
#[derive(Debug)]
pub(super) struct Appended {
    /// Where the list is in the component (and in its emitted form).
    pub(super) path: Vec<Slot>,
    pub(super) child: String,
}

impl Comp {
    /// The emitted form: `processed`, or `value` itself.
    pub(super) fn emitted(&self) -> &Value {
        self.processed.as_ref().unwrap_or(&self.value)
    }

    /// The emitted form as JSON text, made if it is not made yet for this `version`.
    pub(super) fn text(&self) -> &str {
        self.text.get_or_init(|| compact_json(self.emitted()))
    }

    /// It has something not put in a message yet: its emitted form or a placeholder it shows.
    pub(super) fn unsent(&self) -> bool {
        self.yielded.load(Ordering::Relaxed) != self.version
            || self
                .shown
                .iter()
                .any(|p| !p.yielded.load(Ordering::Relaxed))
    }

    /// Something changed that the next refresh looks at whole.
    pub(super) fn mark_stale(&mut self) {
        self.stale = true;
        self.appended = None;
        self.free_edit = false;
        self.children_came = false;
    }

    /// The emitted form changed: a new `version`, whose text is made when asked for.
    pub(super) fn bump(&mut self) {
        self.version += 1;
        self.text.take();
    }
}

/// A placeholder component, as made for the catalog check.
#[derive(Debug)]
pub(super) struct Placeholder {
    /// Its id (`loading_` and the missing child's id).
    pub(super) id: String,
    /// The catalog accepts it.
    pub(super) ok: bool,
    pub(super) made: Value,
    /// It was put in a message (settable through a shared reference, by the step that puts it
    /// there).
    pub(super) yielded: AtomicBool,
    /// `made` as JSON text, made when first sent as text (a placeholder never changes).
    pub(super) text: OnceLock<String>,
}

impl Placeholder {
    /// `made` as JSON text.
    pub(super) fn text(&self) -> &str {
        self.text.get_or_init(|| compact_json(&self.made))
    }
}

impl Surface {
    /// The topology fault that a check after each reference would have found first, with the
    /// component at fault (the one that made that reference), or `None` when there is none.
    ///
    /// The references of the surface are taken in the order they were written (by where their
    /// component begins, then by their place in it), and the shortest run of them that holds a
    /// self-reference, or a cycle or a chain too deep reachable from the root, is found by
    /// halving (each such fault stays when references are added). Its last reference is the
    /// one at fault. So the fault reported, and the component set aside, do not depend on how
    /// much of the response each check saw: one check after a whole message finds what checks
    /// after each chunk found first.
    #[cold]
    #[inline(never)]
    pub(super) fn first_fault(&self) -> Option<(Error, String)> {
        let mut refs: Vec<((u64, usize), &str)> = self
            .comps
            .iter()
            .flat_map(|(id, c)| (0..c.refs.len()).map(move |i| ((c.at, i), id.as_str())))
            .collect();
        refs.sort_unstable();
        // The fault within the first `n` references, if any.
        let fault_within = |n: usize| -> Option<Error> {
            let taken = refs.get(..n).unwrap_or_default();
            let mut counts: QuickMap<&str, usize> = QuickMap::default();
            for (_, id) in taken {
                *counts.entry(id).or_default() += 1;
            }
            for &((_, i), id) in taken {
                let comp = self.comps.get(id)?;
                if comp.refs.get(i).is_some_and(|r| r == id) {
                    let field = self
                        .self_refs
                        .values()
                        .find(|(who, _)| who == id)
                        .map_or("", |(_, f)| f.as_str());
                    return Some(self_reference(id, field));
                }
            }
            let root = self.root.as_deref()?;
            let written = |id: &str, c: &Comp| counts.get(id).map_or(0, |n| (*n).min(c.refs.len()));
            walk_from(self, root, written).err()
        };
        let all = refs.len();
        fault_within(all)?;
        // The fewest references that hold a fault: more than `lo`, at most `hi`.
        let (mut lo, mut hi) = (0, all);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fault_within(mid).is_some() {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let e = fault_within(hi)?;
        let (_, culprit) = refs.get(hi - 1)?;
        Some((self.place(e, culprit), (*culprit).to_owned()))
    }

    /// `error`, placed where component `id` begins if it is here.
    #[cold]
    pub(super) fn place(&self, error: Error, id: &str) -> Error {
        match self.comps.get(id) {
            Some(comp) => error.at(comp.at),
            None => error,
        }
    }

    /// A surface with room for a typical UI (a table that grows allocates again each time),
    /// boxed as the parser's table of surfaces holds it (see [`ROOM`]).
    pub(super) fn with_room() -> Box<Surface> {
        Box::new(Surface {
            comps: QuickMap::with_capacity_and_hasher(ROOM, QuickState::default()),
            mentioned_by: QuickMap::with_capacity_and_hasher(ROOM, QuickState::default()),
            placeholder_ok: QuickMap::with_capacity_and_hasher(ROOM, QuickState::default()),
            ..Surface::default()
        })
    }

    /// Takes out component `id`, which broke a topology rule (it refers to itself, closes a
    /// cycle, or ends a chain too deep): the components that refer to it show its placeholder
    /// again, and the reachable set is worked out again at the next flush.
    #[cold]
    pub(super) fn set_aside(&mut self, id: &str) {
        self.queued = true;
        self.reach_stale = true;
        let Some(comp) = self.comps.remove(id) else {
            return;
        };
        self.self_refs.remove(&comp.seq);
        self.invalid.remove(id);
        for child in &comp.missing {
            if let Some(users) = self.mentioned_by.get_mut(child) {
                users.remove(id);
            }
        }
        for (other, c) in self.comps.iter_mut() {
            if c.refs.iter().any(|r| r == id) {
                c.mark_stale();
                self.touched.push(other.clone());
            }
        }
    }

    /// Notes that component `id` was stored or changed, for the next flush; true when the
    /// surface was not queued for one yet (the caller queues it).
    pub(super) fn touch(&mut self, id: String) -> bool {
        self.touched.push(id);
        !std::mem::replace(&mut self.queued, true)
    }

    /// Sets the root; the reachable set is then worked out again.
    pub(super) fn set_root(&mut self, root: String) {
        if self.root.as_deref() != Some(root.as_str()) {
            self.root = Some(root);
            self.reach_stale = true;
        }
    }

    /// Extends `reach` with what the `touched` components now refer to, adding every component
    /// that became reachable or changed while reachable to `candidates`. Fails (leaving `reach`
    /// to be worked out again) when a reference went away, or one leads back into what was
    /// reachable before (a shared child or a cycle), or the depth limit is passed.
    pub(super) fn grow(
        &mut self,
        touched: impl Iterator<Item = String>,
        candidates: &mut Vec<String>,
    ) -> Result<(), ()> {
        let mut added: QuickSet<String> = QuickSet::default();
        for id in touched {
            let (Some(&depth), Some(comp)) = (self.reach.get(&id), self.comps.get(&id)) else {
                continue;
            };
            // Usually the references only grew at the end (a list being written): then what
            // was followed is all still there, and only the new tail needs a look.
            let kept = if comp.same_as_followed >= comp.followed.len() {
                debug_assert!(comp.refs.starts_with(&comp.followed));
                comp.followed.len()
            } else if comp.refs.starts_with(&comp.followed) {
                comp.followed.len()
            } else if comp.followed.iter().any(|r| !comp.refs.contains(r)) {
                return Err(());
            } else {
                0
            };
            let new_refs: Vec<String> = comp
                .refs
                .iter()
                .skip(kept)
                .filter(|r| !comp.followed.contains(r))
                .cloned()
                .collect();
            for r in new_refs {
                if self.reach.contains_key(&r) {
                    if !added.contains(&r) {
                        return Err(());
                    }
                } else {
                    self.reach_from(r, depth + 1, &mut added, candidates)?;
                }
            }
            if let Some(comp) = self.comps.get_mut(&id) {
                if kept == comp.followed.len() {
                    // What was followed starts the references: only the tail is new.
                    let tail = comp.refs.get(kept..).unwrap_or_default();
                    comp.followed.extend_from_slice(tail);
                } else {
                    comp.followed.clone_from(&comp.refs);
                }
                comp.same_as_followed = comp.refs.len();
            }
            candidates.push(id);
        }
        Ok(())
    }

    /// Depth-first walk from a newly reachable id through components not reachable before.
    pub(super) fn reach_from(
        &mut self,
        start: String,
        depth: usize,
        added: &mut QuickSet<String>,
        candidates: &mut Vec<String>,
    ) -> Result<(), ()> {
        if depth > MAX_GLOBAL_DEPTH {
            return Err(());
        }
        // The walk's path is its stack (at most MAX_GLOBAL_DEPTH deep): a reference to an id
        // on it closes a cycle.
        let mut stack: Vec<WalkStep> = Vec::new();
        self.enter(start, depth, added, candidates, &mut stack);
        while let Some((_, depth, refs, next)) = stack.last_mut() {
            match refs.get(*next) {
                Some(r) => {
                    *next += 1;
                    let (r, child_depth) = (r.clone(), *depth + 1);
                    if child_depth > MAX_GLOBAL_DEPTH || stack.iter().any(|(on, ..)| *on == r) {
                        return Err(());
                    }
                    if self.reach.contains_key(&r) {
                        if added.contains(&r) {
                            continue;
                        }
                        return Err(());
                    }
                    self.enter(r, child_depth, added, candidates, &mut stack);
                }
                None => {
                    if let Some((id, _, refs, _)) = stack.pop() {
                        if let Some(comp) = self.comps.get_mut(&id) {
                            // Taken from the component as the walk entered it (unchanged since).
                            debug_assert!(comp.refs == refs);
                            comp.same_as_followed = refs.len();
                            comp.followed = refs;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Marks `id` reachable at `depth` and puts it on the walk's stack.
    pub(super) fn enter(
        &mut self,
        id: String,
        depth: usize,
        added: &mut QuickSet<String>,
        candidates: &mut Vec<String>,
        stack: &mut Vec<WalkStep>,
    ) {
        self.reach.insert(id.clone(), depth);
        added.insert(id.clone());
        let refs = match self.comps.get(&id) {
            Some(comp) => {
                candidates.push(id.clone());
                comp.refs.clone()
            }
            None => Vec::new(),
        };
        stack.push((id, depth, refs, 0));
    }

    /// The emitted form of `id` taken out and brought up to date in place for the child id
    /// `appended` says was added ([`append_child`]), with what was made of it; `earlier` (what
    /// was made of the form before) comes back when there is nothing to go on or the form has to
    /// be made again.
    fn append_to_form(
        &mut self,
        id: &str,
        appended: Option<Appended>,
        earlier: Processed,
    ) -> Result<(Value, Processed), Processed> {
        let Some(Appended { path, child }) = appended else {
            return Err(earlier);
        };
        let present = self.comps.contains_key(&child);
        let Some(comp) = self.comps.get_mut(id) else {
            return Err(earlier);
        };
        let Some(mut form) = comp.processed.take() else {
            return Err(earlier);
        };
        let made = match slot_at(&mut form, &path).and_then(Value::as_array_mut) {
            Some(list) => append_child(list, &child, present, earlier),
            None => Err(earlier),
        };
        match made {
            Ok(made) => {
                #[cfg(test)]
                {
                    self.appended_to_form += 1;
                }
                Ok((form, made))
            }
            Err(earlier) => {
                comp.processed = Some(form);
                Err(earlier)
            }
        }
    }

    /// Brings the emitted form of `id` up to date in place when all that happened since it was
    /// made is that children it names arrived ([`Comp::children_came`]): their placeholder ids
    /// are swapped for their own ([`show_arrived`]) instead of the form being made again. Only
    /// where the catalog check cannot tell its child ids apart, so that the verdict on the form
    /// before holds. Whether it then has something not put in a message yet ([`Comp::unsent`]);
    /// `None`, changing nothing, when that is not so or the form has to be made again (an open
    /// list, or an id that may be taken for a placeholder's).
    fn show_arrived(
        &mut self,
        id: &str,
        sid: &str,
        version: Version,
        validator: &Validator,
    ) -> Option<bool> {
        if self.loading_ids || id.starts_with(PLACEHOLDER_PREFIX) {
            return None;
        }
        let comp = self.comps.get_mut(id)?;
        if comp.version == 0
            || !comp.open_lists.is_empty()
            || comp.missing.is_empty()
            || comp.processed.is_none()
        {
            return None;
        }
        let free = *comp
            .child_ids_free
            .get_or_insert_with(|| validator.free_under(&comp.value, &CHILD_FIELDS));
        if !free {
            return None;
        }
        let comps = &self.comps;
        let comp = comps.get(id)?;
        let came: Vec<String> = comp
            .missing
            .iter()
            .filter(|m| comps.contains_key(m.as_str()))
            .cloned()
            .collect();
        #[cfg(debug_assertions)]
        let expected = {
            let mut form = comp.value.clone();
            let earlier = Processed {
                placeholders: comp.placeholders.clone(),
                missing: comp.missing.clone(),
                calls: comp.child_calls,
                ..Processed::default()
            };
            let made = process_component(
                &mut form,
                &comp.open_lists,
                |child| comps.contains_key(child),
                version,
                earlier,
            );
            (form, made)
        };
        #[cfg(not(debug_assertions))]
        let _ = version;
        let comp = self.comps.get_mut(id)?;
        comp.stale = false;
        comp.appended = None;
        if came.is_empty() {
            // Nothing arrived after all: the form stays as it is.
            #[cfg(debug_assertions)]
            debug_assert_eq!(Some(&expected.0), comp.processed.as_ref());
            return Some(comp.unsent());
        }
        let form = comp.processed.as_mut()?;
        let swapped = show_arrived(form, &came);
        debug_assert!(swapped >= came.len());
        // `shown` holds the placeholder components of `placeholders`, in the same order.
        comp.placeholders
            .retain(|pid| !stands_for_one_of(pid, &came));
        comp.shown.retain(|p| !stands_for_one_of(&p.id, &came));
        comp.missing.retain(|m| !came.contains(m));
        let rewritten =
            !comp.placeholders.is_empty() || Some(&comp.value) != comp.processed.as_ref();
        if !rewritten {
            comp.spare = comp.processed.take();
        }
        #[cfg(debug_assertions)]
        {
            let (form, made) = &expected;
            debug_assert_eq!(form, comp.emitted());
            debug_assert_eq!(made.rewritten, rewritten);
            debug_assert_eq!(made.placeholders, comp.placeholders);
            debug_assert_eq!(made.missing, comp.missing);
            debug_assert_eq!(made.calls, comp.child_calls);
            debug_assert!(made.newly_missing.is_empty());
            let mut went = made.no_longer_missing.clone();
            went.sort();
            let mut came = came.clone();
            came.sort();
            debug_assert_eq!(went, came);
            assert_verdict_stands(
                validator,
                &mut self.check,
                &self.invalid,
                (sid, id),
                comp.emitted(),
            );
        }
        #[cfg(not(debug_assertions))]
        let _ = sid;
        comp.bump();
        let unsent = comp.unsent();
        for child in &came {
            if let Some(users) = self.mentioned_by.get_mut(child) {
                users.remove(id);
            }
        }
        Some(unsent)
    }

    /// Brings the emitted form of `id` up to date (placeholders, paths) and checks it against
    /// the catalog when it changed; true when it has something not put in a message yet
    /// ([`Comp::unsent`]).
    pub(super) fn refresh(
        &mut self,
        id: &str,
        sid: &str,
        version: Version,
        validator: &Validator,
    ) -> bool {
        let Some(comp) = self.comps.get_mut(id) else {
            return false;
        };
        if !comp.stale {
            return comp.unsent();
        }
        let edited = std::mem::take(&mut comp.edited);
        let free_edit = std::mem::take(&mut comp.free_edit);
        let children_came = std::mem::take(&mut comp.children_came);
        if children_came && !edited {
            if let Some(unsent) = self.show_arrived(id, sid, version, validator) {
                return unsent;
            }
        }
        let Some(comp) = self.comps.get_mut(id) else {
            return false;
        };
        if comp.open_lists.is_empty() && !needs_processing(&comp.value, version) {
            // Nothing to swap or rewrite: the component is its own emitted form.
            let likeness = match &comp.processed {
                Some(last) if !edited && comp.version > 0 => validator.likeness(last, &comp.value),
                _ => Likeness::Other,
            };
            let same = likeness == Likeness::Same;
            // The verdict on the form before holds when only free strings changed since.
            let known = comp.version > 0
                && if edited {
                    free_edit
                } else {
                    likeness == Likeness::Free
                };
            comp.processed = None;
            comp.stale = false;
            comp.appended = None;
            comp.child_calls = 0;
            comp.placeholders.clear();
            comp.shown.clear();
            let old_missing = std::mem::take(&mut comp.missing);
            if known {
                #[cfg(debug_assertions)]
                assert_verdict_stands(
                    validator,
                    &mut self.check,
                    &self.invalid,
                    (sid, id),
                    &comp.value,
                );
                comp.bump();
            } else if !same {
                let value = std::mem::take(&mut comp.value);
                let (back, ok) = validator.check_component(&mut self.check, sid, value, false);
                comp.value = back;
                comp.bump();
                if ok {
                    self.invalid.remove(id);
                } else {
                    self.invalid.insert(id.to_owned());
                }
            }
            let unsent = comp.unsent();
            for child in &old_missing {
                if let Some(users) = self.mentioned_by.get_mut(child) {
                    users.remove(id);
                }
            }
            return unsent;
        }
        let earlier = Processed {
            placeholders: std::mem::take(&mut comp.placeholders),
            missing: std::mem::take(&mut comp.missing),
            calls: comp.child_calls,
            ..Processed::default()
        };
        let appended = comp.appended.take().filter(|_| edited);
        // A form made before and no longer needed: a new form is made in its buffer.
        let mut spare_form = comp.spare.take();
        let (processed, made) = match self.append_to_form(id, appended, earlier) {
            Ok(done) => done,
            Err(earlier) => {
                let mut processed = spare_form.take().unwrap_or(Value::Null);
                let Some(comp) = self.comps.get(id) else {
                    return false;
                };
                assign(&mut processed, &comp.value);
                let comps = &self.comps;
                let made = process_component(
                    &mut processed,
                    &comp.open_lists,
                    |child| comps.contains_key(child),
                    version,
                    earlier,
                );
                (processed, made)
            }
        };
        let Some(comp) = self.comps.get_mut(id) else {
            return false;
        };
        let child_ids_changed =
            !made.no_longer_missing.is_empty() || !made.newly_missing.is_empty();
        if children_came && child_ids_changed && comp.child_ids_free.is_none() {
            comp.child_ids_free = Some(validator.free_under(&comp.value, &CHILD_FIELDS));
        }
        let comp = &**comp;
        let rewritten = made.rewritten;
        let last = if comp.version == 0 || edited {
            None
        } else {
            Some(comp.emitted())
        };
        // Nothing rewritten: `processed` is `value` itself (no need to compare them).
        let likeness = match last {
            Some(last) if !rewritten && comp.processed.is_none() => {
                debug_assert!(*last == processed);
                Likeness::Same
            }
            // Only child ids may differ, and only where a child's presence changed.
            Some(last) if children_came => {
                if !child_ids_changed {
                    debug_assert!(*last == processed);
                    Likeness::Same
                } else if comp.child_ids_free == Some(true) {
                    debug_assert_eq!(validator.likeness(last, &processed), Likeness::Free);
                    Likeness::Free
                } else {
                    validator.likeness(last, &processed)
                }
            }
            Some(last) => validator.likeness(last, &processed),
            None => Likeness::Other,
        };
        let same = likeness == Likeness::Same;
        // The verdict on the form before holds when only free strings changed since (and, its
        // id not being a placeholder's, the check never looks for a self-reference).
        let known = !same
            && comp.version > 0
            && !id.starts_with(PLACEHOLDER_PREFIX)
            && match last {
                Some(_) => likeness == Likeness::Free,
                None => edited && free_edit,
            };
        let (processed, spare) = if same {
            (None, Some(processed))
        } else if known {
            #[cfg(debug_assertions)]
            assert_verdict_stands(
                validator,
                &mut self.check,
                &self.invalid,
                (sid, id),
                &processed,
            );
            (Some(processed), None)
        } else {
            // Its own references were checked when it was stored; a placeholder can only make
            // it refer to itself if its id is that placeholder's.
            let may_refer_to_itself = id
                .strip_prefix(PLACEHOLDER_PREFIX)
                .is_some_and(|child| made.missing.iter().any(|m| m == child));
            let (back, ok) =
                validator.check_component(&mut self.check, sid, processed, may_refer_to_itself);
            if ok {
                self.invalid.remove(id);
            } else {
                self.invalid.insert(id.to_owned());
            }
            (Some(back), None)
        };
        let Processed {
            placeholders,
            missing,
            newly_missing,
            no_longer_missing,
            calls,
            ..
        } = made;
        let mut shown = Vec::with_capacity(placeholders.len());
        for pid in &placeholders {
            let made = match self.placeholder_ok.get(pid) {
                Some(made) => Arc::clone(made),
                None => {
                    let made = placeholder(pid, version);
                    let (made, ok) = match self.placeholder_verdict {
                        Some(ok) => {
                            debug_assert_eq!(
                                ok,
                                validator
                                    .check_component(&mut self.check, sid, made.clone(), false)
                                    .1
                            );
                            (made, ok)
                        }
                        None => {
                            let (made, ok) =
                                validator.check_component(&mut self.check, sid, made, false);
                            // Placeholders differ only in their ids.
                            if validator.free_at(&[], Some("id")) {
                                self.placeholder_verdict = Some(ok);
                            }
                            (made, ok)
                        }
                    };
                    let made = Arc::new(Placeholder {
                        id: pid.clone(),
                        ok,
                        made,
                        yielded: AtomicBool::new(false),
                        text: OnceLock::new(),
                    });
                    self.placeholder_ok.insert(pid.clone(), Arc::clone(&made));
                    made
                }
            };
            shown.push(made);
        }
        for child in &no_longer_missing {
            if let Some(users) = self.mentioned_by.get_mut(child) {
                users.remove(id);
            }
        }
        for child in newly_missing.iter().filter_map(|&i| missing.get(i)) {
            self.mentioned_by
                .entry(child.clone())
                .or_default()
                .insert(id.to_owned());
        }
        if let Some(comp) = self.comps.get_mut(id) {
            comp.stale = false;
            comp.placeholders = placeholders;
            comp.shown = shown;
            comp.missing = missing;
            comp.child_calls = calls;
            match processed {
                Some(processed) => {
                    debug_assert_eq!(rewritten, processed != comp.value);
                    let (kept, spare) = if rewritten {
                        (Some(processed), None)
                    } else {
                        (None, Some(processed))
                    };
                    comp.spare = std::mem::replace(&mut comp.processed, kept)
                        .or(spare)
                        .or(spare_form);
                    comp.bump();
                }
                None => {
                    comp.spare = spare.or(spare_form);
                    // Unchanged: keep the form, unless it is the component itself.
                    if comp.processed.as_ref() == Some(&comp.value) {
                        comp.spare = comp.processed.take();
                    }
                }
            }
            return comp.unsent();
        }
        false
    }
}

/// A component on a depth-first walk: id, depth, its references, the next one to follow.
type WalkStep = (String, usize, Vec<String>, usize);

/// Components (and placeholders) a surface has room for from the start: its tables then start
/// below 1 KiB each (a component is boxed, so a table holds an id and a pointer per entry), the
/// size from which glibc's `malloc` first tidies away every small block freed so far.
pub(super) const ROOM: usize = 8;

/// Debug builds: asserts that the verdict kept for component `id` of surface `sid` (whether it
/// is among the `invalid`) is the one a full check of `form`, its emitted form, gives.
#[cfg(debug_assertions)]
fn assert_verdict_stands(
    validator: &Validator,
    check: &mut CheckFrame,
    invalid: &BTreeSet<String>,
    (sid, id): (&str, &str),
    form: &Value,
) {
    let ok = validator.check_component(check, sid, form.clone(), false).1;
    debug_assert_eq!(ok, !invalid.contains(id), "kept verdict on {id}");
}

/// Ids reachable from `root` (arrived or not) with their depth, worked out from scratch by a
/// depth-first walk in reference order; a cycle or a chain deeper than [`MAX_GLOBAL_DEPTH`] is
/// an error, worded as the reference words it (see [`Surface::first_fault`] for the component
/// at fault).
pub(super) fn full_reach(surface: &Surface, root: &str) -> Result<BTreeMap<String, usize>, Error> {
    walk_from(surface, root, |_, c| c.refs.len())
}

/// [`full_reach`] following only the first `written(id, comp)` references of each component.
fn walk_from(
    surface: &Surface,
    root: &str,
    written: impl Fn(&str, &Comp) -> usize,
) -> Result<BTreeMap<String, usize>, Error> {
    let mut reach = BTreeMap::new();
    if !surface.comps.contains_key(root) {
        return Ok(reach);
    }
    let refs_of = |id: &str| {
        surface
            .comps
            .get(id)
            .and_then(|c| c.refs.get(..written(id, c)))
            .unwrap_or_default()
    };
    let mut on_path: QuickSet<&str> = QuickSet::default();
    // (node, depth, next edge index)
    let mut stack: Vec<(&str, usize, usize)> = vec![(root, 0, 0)];
    reach.insert(root.to_owned(), 0);
    on_path.insert(root);
    while let Some((node, depth, index)) = stack.last_mut() {
        let next = refs_of(node).get(*index);
        *index += 1;
        match next {
            Some(child) => {
                let child_depth = *depth + 1;
                if !reach.contains_key(child.as_str()) {
                    if child_depth > MAX_GLOBAL_DEPTH {
                        let e = Error::new(
                            ErrorKind::Topology,
                            format!(
                                "Global recursion limit exceeded: logical depth > {MAX_GLOBAL_DEPTH}"
                            ),
                        );
                        return Err(e);
                    }
                    reach.insert(child.clone(), child_depth);
                    on_path.insert(child);
                    stack.push((child, child_depth, 0));
                } else if on_path.contains(child.as_str()) {
                    let e = Error::new(
                        ErrorKind::Topology,
                        format!("Circular reference detected involving component '{child}'"),
                    );
                    return Err(e);
                }
            }
            None => {
                let node = *node;
                on_path.remove(node);
                stack.pop();
            }
        }
    }
    Ok(reach)
}
