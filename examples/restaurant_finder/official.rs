//! The official A2UI validator, used for the after-stream check when the specification's schemas
//! are at hand.
//!
//! The basic catalogs are read at start-up from `$A2UI_SPEC_DIR` (default: `../shared/a2ui/spec`
//! beside the crate root). A fresh clone has no such directory; there the agent falls back to its
//! own structural check (see `surface.rs`).

use crate::ui::Version;
use a2ui_stream::official::catalog::{Catalog, Version as SpecVersion};
use a2ui_stream::official::validator::Validator;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where the specification (the directory holding `v0_8/` and `v0_9/`) is looked for.
pub fn spec_dir() -> PathBuf {
    std::env::var_os("A2UI_SPEC_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("shared")
                .join("a2ui")
                .join("spec")
        })
}

/// Validators for the basic catalogs of v0.8 and v0.9, each present when it could be loaded.
#[derive(Debug, Default)]
pub struct Official {
    dir: Option<PathBuf>,
    v08: Option<Validator>,
    v09: Option<Validator>,
}

impl Official {
    /// Loads both validators from [`spec_dir`]. A version whose schemas cannot be loaded is left
    /// out (and said so on stderr); a missing directory loads nothing.
    pub fn load() -> Official {
        Official::load_from(&spec_dir())
    }

    /// Loads both validators from `dir`.
    pub fn load_from(dir: &Path) -> Official {
        if !dir.is_dir() {
            return Official::default();
        }
        let load = |v: SpecVersion| {
            // The strict v0.8 schema closes off properties that valid examples of the
            // specification use (`label` on a booking form's fields, for one), so strict
            // validation is removed, as in the benchmark; everything else is checked.
            let loaded = Catalog::basic(dir, v)
                .map_err(|e| e.to_string())
                .and_then(|c| {
                    Validator::new(&c.without_strict_validation()).map_err(|e| e.to_string())
                });
            match loaded {
                Ok(validator) => Some(validator),
                Err(e) => {
                    eprintln!("official A2UI {} validator unavailable: {e}", v.as_str());
                    None
                }
            }
        };
        Official {
            dir: Some(dir.to_path_buf()),
            v08: load(SpecVersion::V08),
            v09: load(SpecVersion::V09),
        }
    }

    fn validator(&self, v: Version) -> Option<&Validator> {
        match v {
            Version::V08 => self.v08.as_ref(),
            Version::V09 => self.v09.as_ref(),
            Version::V10 => None,
        }
    }

    /// Whether the official validator for `v` is loaded.
    pub fn has(&self, v: Version) -> bool {
        self.validator(v).is_some()
    }

    /// Which check a run of version `v` gets, for log lines.
    pub fn describe(&self, v: Version) -> String {
        match (&self.dir, self.has(v)) {
            (Some(dir), true) => format!("official A2UI validator ({})", dir.display()),
            _ => format!(
                "structural UI check (no A2UI spec at {}; set A2UI_SPEC_DIR)",
                spec_dir().display()
            ),
        }
    }

    /// Validates the messages of one answer with all integrity checks, the components the
    /// splitter emitted one by one put back into one list per surface. `None` when no official
    /// validator for `v` is loaded.
    pub fn check(&self, v: Version, messages: &[Value]) -> Option<Result<(), String>> {
        let validator = self.validator(v)?;
        Some(
            validator
                .validate_with(&Value::Array(regroup(messages)), true)
                .map_err(|e| e.to_string()),
        )
    }
}

/// The key of a component update (`surfaceUpdate` / `updateComponents`) and its surface id.
fn component_update(m: &Value) -> Option<(&'static str, &str)> {
    ["surfaceUpdate", "updateComponents"]
        .into_iter()
        .find_map(|key| {
            let sid = m.get(key)?.get("surfaceId")?.as_str()?;
            Some((key, sid))
        })
}

/// Joins the component updates of each surface into the first one, so a surface's components
/// are one list, as the model wrote them. A `deleteSurface` ends the surface's list (a later
/// update starts a new one); every other message keeps its place.
pub fn regroup(messages: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    // Surface id -> index in `out` of its component list.
    let mut lists: HashMap<String, usize> = HashMap::new();
    for m in messages {
        if let Some(sid) = m
            .get("deleteSurface")
            .and_then(|d| d.get("surfaceId"))
            .and_then(Value::as_str)
        {
            lists.remove(sid);
        }
        let Some((key, sid)) = component_update(m) else {
            out.push(m.clone());
            continue;
        };
        let comps = m
            .get(key)
            .and_then(|b| b.get("components"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let target = lists
            .get(sid)
            .and_then(|&i| out.get_mut(i))
            .and_then(|prev| prev.get_mut(key))
            .and_then(|b| b.get_mut("components"))
            .and_then(Value::as_array_mut);
        match target {
            Some(list) => list.extend(comps),
            None => {
                lists.insert(sid.to_owned(), out.len());
                out.push(m.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn components_are_regrouped_per_surface_until_deleted() {
        let c = |s: &str, id: &str| json!({"version": "v0.9", "updateComponents": {"surfaceId": s, "components": [{"id": id}]}});
        let data = json!({"version": "v0.9", "updateDataModel": {"surfaceId": "a", "value": {}}});
        let del = json!({"version": "v0.9", "deleteSurface": {"surfaceId": "a"}});
        let out = regroup(&[
            c("a", "1"),
            c("b", "x"),
            data.clone(),
            c("a", "2"),
            del.clone(),
            c("a", "3"),
        ]);
        let ids = |m: &Value| -> Vec<String> {
            m["updateComponents"]["components"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["id"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(out.len(), 5);
        assert_eq!(ids(&out[0]), ["1", "2"]);
        assert_eq!(ids(&out[1]), ["x"]);
        assert_eq!(out[2], data);
        assert_eq!(out[3], del);
        assert_eq!(ids(&out[4]), ["3"]);
    }
}
