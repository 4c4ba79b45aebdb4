//! What is reachable from a surface's root: grown from the components that changed while
//! that is enough, worked out again from the root when it is not, and the topology fault
//! (self-reference, cycle, chain too deep) a check after each reference would have found first.

use crate::official::legacy::progressive::new_error;
use std::collections::BTreeMap;

use super::{Comp, Surface};
use crate::hash::{QuickMap, QuickSet};
use crate::official::legacy::progressive::error::self_reference;
use crate::official::legacy::progressive::{Error, ErrorKind};
use crate::official::validator::MAX_GLOBAL_DEPTH;

impl Surface {
    /// Brings the reachable set up to date with the components stored since the last flush,
    /// adding to `candidates` every component whose emitted form is to be brought up to date
    /// (in order, each once): those that became reachable or changed while reachable, or, when
    /// the set is worked out again from `root`, all that are reachable. Fails, the set left as
    /// it was, on a cycle or a chain too deep.
    pub(in crate::official::legacy::progressive) fn update_reach(
        &mut self,
        root: &str,
        candidates: &mut Vec<String>,
    ) -> Result<(), Error> {
        let mut touched = std::mem::take(&mut self.touched);
        touched.sort_unstable();
        touched.dedup();
        candidates.reserve(touched.len());
        let full = self.reach_stale
            || (self.reach.is_empty() && self.comps.contains_key(root))
            || self.grow(touched.drain(..), candidates).is_err();
        // The list keeps its room for the next flush.
        if self.touched.is_empty() {
            touched.clear();
            self.touched = touched;
        }
        if full {
            self.reach = full_reach(self, root)?;
            self.reach_stale = false;
            candidates.clear();
            for id in self.reach.keys() {
                if let Some(comp) = self.comps.get_mut(id) {
                    comp.followed.clone_from(&comp.refs);
                    comp.same_as_followed = comp.refs.len();
                    candidates.push(id.clone());
                }
            }
        }
        // In order, each once (as the reachable set and the renderer see them).
        candidates.sort_unstable();
        candidates.dedup();
        Ok(())
    }

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

    /// Extends `reach` with what the `touched` components now refer to, adding every component
    /// that became reachable or changed while reachable to `candidates`. Fails (leaving `reach`
    /// to be worked out again) when a reference went away, or one leads back into what was
    /// reachable before (a shared child or a cycle), or the depth limit is passed.
    fn grow(
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
    fn reach_from(
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
    fn enter(
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
}

/// A component on a depth-first walk: id, depth, its references, the next one to follow.
type WalkStep = (String, usize, Vec<String>, usize);

/// Ids reachable from `root` (arrived or not) with their depth, worked out from scratch by a
/// depth-first walk in reference order; a cycle or a chain deeper than [`MAX_GLOBAL_DEPTH`] is
/// an error, worded as the reference words it (see [`Surface::first_fault`] for the component
/// at fault).
fn full_reach(surface: &Surface, root: &str) -> Result<BTreeMap<String, usize>, Error> {
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
                        let e = new_error(
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
                    let e = new_error(
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
