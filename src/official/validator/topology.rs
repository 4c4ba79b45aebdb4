//! The integrity of a component list: unique ids, the root, references that resolve, no
//! self-references or cycles, nothing unreachable, and the depth of the tree.

use std::borrow::Cow;

use serde_json::Value;

use super::{DEFAULT_ROOT, ErrorKind, MAX_GLOBAL_DEPTH, ValidationError};
use crate::MessageKind;
use crate::hash::{QuickMap, QuickSet, QuickState};
use crate::official::catalog::{Catalog, Version};

/// The root component id of surface `surface_id` as `messages` declare it: the `root` of its
/// `beginRendering` (v0.8; `root` when absent), or `root` when a `createSurface` for it is
/// present (v0.9). `None` when the list does not begin the surface (an incremental update).
/// With `surface_id` `None`, the first surface begun counts.
pub(super) fn find_root_id(messages: &[Value], surface_id: Option<&str>) -> Option<String> {
    let surface_matches = |body: &Value| match surface_id {
        Some(sid) if !sid.is_empty() => body.get("surfaceId").and_then(Value::as_str) == Some(sid),
        _ => true,
    };
    for message in messages {
        if let Some(begin) = message.get(MessageKind::BeginRendering.key()) {
            if !surface_matches(begin) {
                continue;
            }
            let root = begin.get("root").and_then(Value::as_str);
            return Some(root.unwrap_or(DEFAULT_ROOT).to_owned());
        }
        if let Some(create) = message.get(MessageKind::CreateSurface.key()) {
            if !surface_matches(create) {
                continue;
            }
            return Some(DEFAULT_ROOT.to_owned());
        }
    }
    None
}

pub(super) fn id_of(component: &Value) -> Option<String> {
    id_cow(component).map(Cow::into_owned)
}

/// The id of `component` as [`id_of`] writes it, borrowed when it is a string.
fn id_cow(component: &Value) -> Option<Cow<'_, str>> {
    match component.get("id")? {
        Value::Null => None,
        Value::String(s) => Some(Cow::Borrowed(s)),
        other => Some(Cow::Owned(other.to_string())),
    }
}

fn id_text(component: &Value) -> String {
    id_of(component).unwrap_or_else(|| "None".to_owned())
}

/// Checks one component list: ids unique; and unless `skip_root_check` or `root_id` is `None`,
/// the root present and every reference pointing at a component of the list.
pub(super) fn check_components(
    catalog: &Catalog,
    root_id: Option<&str>,
    components: &[Value],
    skip_root_check: bool,
) -> Result<(), ValidationError> {
    let mut ids: QuickSet<Cow<'_, str>> =
        QuickSet::with_capacity_and_hasher(components.len(), QuickState::default());
    for comp in components {
        if let Some(id) = id_cow(comp) {
            if ids.contains(&id) {
                return Err(ValidationError::new(
                    ErrorKind::DuplicateId,
                    format!("Duplicate component ID: {id}"),
                ));
            }
            ids.insert(id);
        }
    }
    let Some(root) = root_id else { return Ok(()) };
    if skip_root_check {
        return Ok(());
    }
    if !ids.contains(root) {
        return Err(ValidationError::new(
            ErrorKind::MissingRoot,
            format!("Missing root component: No component has id='{root}'"),
        ));
    }
    for comp in components {
        let mut dangling = None;
        catalog.for_each_reference(comp, |r, field| {
            if dangling.is_none() && !ids.contains(r) {
                dangling = Some((r, field));
            }
        });
        if let Some((r, field)) = dangling {
            // v1.0 names the rule first, as the v1.0 reference and suite do.
            let rule = match catalog.version() {
                Version::V10 => "Dangling reference: ",
                Version::V08 | Version::V09 => "",
            };
            return Err(ValidationError::new(
                ErrorKind::DanglingReference,
                format!(
                    "{rule}Component '{}' references non-existent component '{r}' in field '{field}'",
                    id_text(comp),
                ),
            ));
        }
    }
    Ok(())
}

/// [`check_topology`] handing out the ids reached from the root (from every component when
/// `root_id` is `None`), including referenced ids that the list does not define. Tests only.
#[cfg(test)]
pub(super) fn analyze_topology(
    catalog: &Catalog,
    root_id: Option<&str>,
    components: &[Value],
    raise_on_orphans: bool,
) -> Result<std::collections::BTreeSet<String>, ValidationError> {
    let graph = Graph::new(catalog, components)?;
    let reached = graph.walk(root_id, raise_on_orphans)?;
    Ok(reached.into_iter().map(str::to_owned).collect())
}

/// Walks the component graph of one list: fails on a self-reference, a cycle, or a chain deeper
/// than [`MAX_GLOBAL_DEPTH`]; with `raise_on_orphans`, also on a component not reachable from
/// `root_id`.
pub(super) fn check_topology(
    catalog: &Catalog,
    root_id: Option<&str>,
    components: &[Value],
    raise_on_orphans: bool,
) -> Result<(), ValidationError> {
    Graph::new(catalog, components)?
        .walk(root_id, raise_on_orphans)
        .map(drop)
}

/// The references of a list of components, by id, borrowed from the list (an id that is not a
/// string is written out).
struct Graph<'v> {
    adjacency: QuickMap<Cow<'v, str>, Vec<&'v str>>,
    version: Version,
}

impl<'v> Graph<'v> {
    /// Fails on the first component that refers to itself.
    fn new(catalog: &Catalog, components: &'v [Value]) -> Result<Graph<'v>, ValidationError> {
        let mut adjacency: QuickMap<Cow<'v, str>, Vec<&'v str>> =
            QuickMap::with_capacity_and_hasher(components.len(), QuickState::default());
        for comp in components {
            let Some(id) = id_cow(comp) else {
                continue;
            };
            let mut self_field = None;
            let mut refs = Vec::new();
            catalog.for_each_reference(comp, |r, field| {
                if r == id {
                    self_field.get_or_insert(field);
                } else if self_field.is_none() {
                    refs.push(r);
                }
            });
            if let Some(field) = self_field {
                return Err(ValidationError::new(ErrorKind::SelfReference, format!(
                    "Self-reference detected: Component '{id}' references itself in field '{field}'"
                ))
                .in_component(&id));
            }
            adjacency.entry(id).or_default().extend(refs);
        }
        Ok(Graph {
            adjacency,
            version: catalog.version(),
        })
    }

    /// The ids reached from `root_id` (from every component when `None`); fails on a cycle, a
    /// chain too deep, or (with `raise_on_orphans`) a component not reached from the root.
    fn walk(
        &self,
        root_id: Option<&str>,
        raise_on_orphans: bool,
    ) -> Result<QuickSet<&str>, ValidationError> {
        let room = self.adjacency.len();
        let mut walk = Walk {
            adjacency: &self.adjacency,
            version: self.version,
            visited: QuickSet::with_capacity_and_hasher(room, QuickState::default()),
            on_path: QuickSet::default(),
        };
        match root_id {
            Some(root) => {
                if let Some((root, _)) = self.adjacency.get_key_value(root) {
                    walk.visit(root, 0, root)?;
                }
                if raise_on_orphans {
                    // The first in order of ids.
                    let orphan = self
                        .adjacency
                        .keys()
                        .map(AsRef::as_ref)
                        .filter(|id| !walk.visited.contains(id))
                        .min();
                    if let Some(orphan) = orphan {
                        return Err(ValidationError::new(
                            ErrorKind::Unreachable,
                            format!("Component '{orphan}' is not reachable from '{root}'"),
                        ));
                    }
                }
            }
            None => {
                // From every component, in order of ids.
                let mut ids: Vec<&str> = self.adjacency.keys().map(AsRef::as_ref).collect();
                ids.sort_unstable();
                for id in ids {
                    if !walk.visited.contains(id) {
                        walk.visit(id, 0, id)?;
                    }
                }
            }
        }
        Ok(walk.visited)
    }
}

struct Walk<'g> {
    adjacency: &'g QuickMap<Cow<'g, str>, Vec<&'g str>>,
    version: Version,
    visited: QuickSet<&'g str>,
    on_path: QuickSet<&'g str>,
}

impl<'g> Walk<'g> {
    /// Depth-first visit of `id`, reached from `parent` (`id` itself at the start); recursion
    /// is bounded by [`MAX_GLOBAL_DEPTH`].
    fn visit(&mut self, id: &'g str, depth: usize, parent: &str) -> Result<(), ValidationError> {
        if depth > MAX_GLOBAL_DEPTH {
            return Err(ValidationError::new(
                ErrorKind::TooDeep,
                format!("Global recursion limit exceeded: logical depth > {MAX_GLOBAL_DEPTH}"),
            )
            .in_component(parent));
        }
        self.visited.insert(id);
        self.on_path.insert(id);
        if let Some(next) = self.adjacency.get(id) {
            for &n in next {
                if !self.visited.contains(n) {
                    self.visit(n, depth + 1, id)?;
                } else if self.on_path.contains(n) {
                    // v1.0 words it as its suite does.
                    let what = match self.version {
                        Version::V10 => "Circular component reference",
                        Version::V08 | Version::V09 => "Circular reference",
                    };
                    return Err(ValidationError::new(
                        ErrorKind::Cycle,
                        format!("{what} detected involving component '{n}'"),
                    )
                    .in_component(n));
                }
            }
        }
        self.on_path.remove(id);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_root_is_the_one_its_surface_begins_with() {
        let msgs = [json!({"beginRendering": {"surfaceId": "a", "root": "top"}})];
        assert_eq!(find_root_id(&msgs, Some("a")).as_deref(), Some("top"));
        assert_eq!(find_root_id(&msgs, Some("b")), None);
    }

    #[test]
    fn a_reference_to_a_missing_component_is_reported_only_with_a_root() {
        let catalog = Catalog::new(Version::V09, json!(null), json!({}), json!({}));
        let comps = [json!({"id": "root", "component": "Card", "child": "x"})];
        let err = check_components(&catalog, Some("root"), &comps, false).unwrap_err();
        assert_eq!(
            err.message(),
            "Component 'root' references non-existent component 'x' in field 'child'"
        );
        assert!(check_components(&catalog, None, &comps, false).is_ok());
    }

    #[test]
    fn what_the_root_does_not_reach_is_an_orphan() -> Result<(), ValidationError> {
        let catalog = Catalog::new(Version::V09, json!(null), json!({}), json!({}));
        let comps = [
            json!({"id": "root", "component": "Column", "children": ["a"]}),
            json!({"id": "a", "component": "Text"}),
            json!({"id": "lost", "component": "Text"}),
        ];
        let reached = analyze_topology(&catalog, Some("root"), &comps, false)?;
        assert!(reached.contains("a") && !reached.contains("lost"));
        let err = analyze_topology(&catalog, Some("root"), &comps, true).unwrap_err();
        assert_eq!(
            err.message(),
            "Component 'lost' is not reachable from 'root'"
        );
        Ok(())
    }
}
