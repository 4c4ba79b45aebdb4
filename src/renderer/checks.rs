//! The limits every message is held to, and the strict checks on a surface's component tree.

use std::collections::{BTreeMap, HashSet};

use serde_json::Value;

use super::error::{RenderError, RenderErrorKind};
use super::surface::Component;

/// How deep a message may nest (values below the message object, counted in keys and
/// indexes), and how deep a component tree may be under strict checks.
pub(super) const MAX_DEPTH: usize = 50;

/// Refuses a message holding a value more than [`MAX_DEPTH`] keys or indexes below it. The walk
/// keeps its own stack, so a message built deeper than any parser allows is refused too.
pub(super) fn depth(message: &Value) -> Result<(), RenderErrorKind> {
    let mut stack = vec![(message, 0usize)];
    while let Some((value, level)) = stack.pop() {
        if level > MAX_DEPTH {
            return Err(RenderErrorKind::TooDeep { limit: MAX_DEPTH });
        }
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, level + 1))),
            Value::Object(members) => stack.extend(members.values().map(|v| (v, level + 1))),
            _ => {}
        }
    }
    Ok(())
}

/// The components a surface would hold after an update: those it holds, with `update`'s in
/// their place.
pub(super) struct Candidate<'a> {
    pub(super) held: &'a BTreeMap<String, Component>,
    pub(super) update: &'a BTreeMap<&'a str, &'a Component>,
}

impl<'a> Candidate<'a> {
    fn get(&self, id: &str) -> Option<&'a Component> {
        self.update.get(id).copied().or_else(|| self.held.get(id))
    }

    fn ids(&self) -> impl Iterator<Item = &'a str> {
        let update = self.update;
        let new = update.keys().copied();
        let old = self
            .held
            .keys()
            .map(String::as_str)
            .filter(move |id| !update.contains_key(id));
        new.chain(old)
    }

    /// The strict checks, in this order: the root is there, every reference resolves, no
    /// cycle and no deeper than [`MAX_DEPTH`] from the root, and every component reachable
    /// from it. Without a root (a v0.8 surface before `beginRendering`), only the references.
    pub(super) fn check(&self, root: Option<&str>) -> Result<(), RenderError> {
        if let Some(root) = root {
            if self.get(root).is_none() {
                return Err(RenderError::new(RenderErrorKind::MissingRoot(
                    root.to_owned(),
                )));
            }
        }
        for id in self.ids() {
            for child in self.get(id).map(Component::child_ids).unwrap_or_default() {
                if self.get(child).is_none() {
                    return Err(RenderError::new(RenderErrorKind::DanglingReference {
                        to: child.to_owned(),
                    })
                    .component(id));
                }
            }
        }
        let Some(root) = root else {
            return Ok(());
        };
        let mut walk = Walk {
            candidate: self,
            done: HashSet::new(),
            path: Vec::new(),
        };
        walk.visit(root)?;
        let mut unreached: Vec<&str> = self.ids().filter(|id| !walk.done.contains(id)).collect();
        unreached.sort_unstable();
        match unreached.first() {
            Some(id) => Err(RenderError::new(RenderErrorKind::Unreachable).component(id)),
            None => Ok(()),
        }
    }
}

/// A depth-first walk from the root.
struct Walk<'c, 'a> {
    candidate: &'c Candidate<'a>,
    /// Components whose subtrees were walked.
    done: HashSet<&'a str>,
    /// The components from the root down to the one being walked.
    path: Vec<&'a str>,
}

impl<'a> Walk<'_, 'a> {
    fn visit(&mut self, id: &'a str) -> Result<(), RenderError> {
        if self.path.contains(&id) {
            return Err(RenderError::new(RenderErrorKind::Cycle).component(id));
        }
        if self.done.contains(id) {
            return Ok(());
        }
        // The root is at depth 0.
        if self.path.len() > MAX_DEPTH {
            return Err(
                RenderError::new(RenderErrorKind::TooDeep { limit: MAX_DEPTH }).component(id),
            );
        }
        let Some(component) = self.candidate.get(id) else {
            return Ok(());
        };
        self.path.push(id);
        for child in component.child_ids() {
            self.visit(child)?;
        }
        self.path.pop();
        self.done.insert(id);
        Ok(())
    }
}
