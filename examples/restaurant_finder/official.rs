//! The official A2UI validator, used for the after-stream check when the specification's schemas
//! are at hand.
//!
//! The basic catalogs of v0.8 and v0.9 are read at start-up from `$A2UI_SPEC_DIR` (default:
//! `../shared/a2ui/spec` beside the crate root); v1.0 is checked against the schemas the A2UI SDK
//! enforces, read from `$A2UI_V10_SCHEMA_DIR` (default: `../shared/a2ui-v1/sdk-derived/v1_0`; see
//! [`load_v10`]). A fresh clone has neither; there the agent falls back to its own structural
//! check (see `surface.rs`).

use crate::surface;
use crate::tools;
use crate::ui::{self, Version};
use a2ui_stream::official::catalog::{Catalog, Version as SpecVersion};
use a2ui_stream::official::validator::Validator;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// `$name` when set, else `../shared/<rest>` beside the crate root.
fn dir_from_env(name: &str, rest: &[&str]) -> PathBuf {
    std::env::var_os(name)
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let shared = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("shared");
            rest.iter().fold(shared, |dir, part| dir.join(part))
        })
}

/// Where the specification (the directory holding `v0_8/` and `v0_9/`) is looked for.
pub fn spec_dir() -> PathBuf {
    dir_from_env("A2UI_SPEC_DIR", &["a2ui", "spec"])
}

/// Where the v1.0 schemas (`agent_to_renderer.json`, `common_types.json`, `basic_catalog.json`)
/// are looked for.
pub fn v10_dir() -> PathBuf {
    dir_from_env("A2UI_V10_SCHEMA_DIR", &["a2ui-v1", "sdk-derived", "v1_0"])
}

/// The v1.0 validator: the basic catalog and the message schemas as the A2UI SDK enforces them,
/// read from `dir`. The one place that says where v1.0 validation comes from, so that a catalog
/// built into the crate can take the files' place.
///
/// A validator that refuses the demo's own v1.0 answers does not read v1.0 yet (one that still
/// wants `"version": "v0.9"` on every `updateComponents`, for one); it is not used, and the reason
/// says so.
pub fn load_v10(dir: &Path) -> Result<Validator, String> {
    let read = |name: &str| -> Result<Value, String> {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))
    };
    let messages = read("agent_to_renderer.json")?;
    let mut basic = read("basic_catalog.json")?;
    // The catalog names `common_types.json` relative to itself, meaning the one beside the
    // message schema (which names it `catalog.json`); its own `$id` is a folder deeper. It is
    // given the place the message schema expects, so both reach the same common types.
    if let (Some(id), Some(catalog)) = (
        messages.get("$id").and_then(Value::as_str),
        basic.as_object_mut(),
    ) {
        let beside = format!("{}catalog.json", &id[..id.rfind('/').map_or(0, |i| i + 1)]);
        catalog.insert("$id".into(), Value::String(beside));
    }
    let catalog = Catalog::new(
        SpecVersion::V10,
        messages,
        basic,
        read("common_types.json")?,
    );
    let validator = Validator::new(&catalog).map_err(|e| e.to_string())?;
    let found = tools::get_restaurants("Chinese", "New York", 2);
    let own = [
        ui::restaurant_list(Version::V10, "Top 2", &found),
        ui::booking_form(Version::V10, "A", "1 Street", "https://example.com/a.jpg"),
        ui::confirmation(Version::V10, "A", "2", "", "", "https://example.com/a.jpg"),
    ];
    for answer in own {
        if let Err(e) = validator.validate(&Value::Array(answer)) {
            let said: Vec<&str> = e
                .message()
                .lines()
                .map(|l| l.trim().trim_start_matches("- "))
                .filter(|l| !l.is_empty() && *l != "Validation failed:")
                .collect();
            return Err(format!(
                "the crate's validator does not read v1.0 yet (of a valid v1.0 answer it says: {})",
                said.join("; ")
            ));
        }
    }
    Ok(validator)
}

/// A loaded validator and the directory its schemas came from.
#[derive(Debug)]
struct Loaded {
    validator: Validator,
    from: PathBuf,
}

/// Validators for the basic catalogs of v0.8, v0.9 and v1.0; for each version, the validator or
/// why there is none.
#[derive(Debug)]
pub struct Official {
    v08: Result<Loaded, String>,
    v09: Result<Loaded, String>,
    v10: Result<Loaded, String>,
}

impl Default for Official {
    /// No validator at all: every version gets the structural check.
    fn default() -> Official {
        let none = || Err("no official validator loaded".to_owned());
        Official {
            v08: none(),
            v09: none(),
            v10: none(),
        }
    }
}

impl Official {
    /// Loads the validators from [`spec_dir`] and [`v10_dir`]. A version whose schemas are not
    /// there or cannot be loaded gets the structural check; [`describe`](Official::describe) says
    /// why.
    pub fn load() -> Official {
        Official::load_from(&spec_dir(), &v10_dir())
    }

    /// Loads v0.8 and v0.9 from the specification in `spec`, v1.0 from the schemas in `v10`.
    pub fn load_from(spec: &Path, v10: &Path) -> Official {
        let loaded = |dir: &Path, result: Result<Validator, String>| {
            result
                .map(|validator| Loaded {
                    validator,
                    from: dir.to_path_buf(),
                })
                .map_err(|e| format!("official validator unavailable: {e}"))
        };
        let basic = |spec_version: SpecVersion| {
            if !spec.is_dir() {
                return Err(format!(
                    "no A2UI spec at {}; set A2UI_SPEC_DIR",
                    spec.display()
                ));
            }
            // The strict v0.8 schema closes off properties that valid examples of the
            // specification use (`label` on a booking form's fields, for one), so strict
            // validation is removed, as in the benchmark; everything else is checked.
            let result = Catalog::basic(spec, spec_version)
                .map_err(|e| e.to_string())
                .and_then(|c| {
                    Validator::new(&c.without_strict_validation()).map_err(|e| e.to_string())
                });
            loaded(spec, result)
        };
        // v1.0 is checked as the SDK checks it, strict schemas included.
        let v10 = if v10.is_dir() {
            loaded(v10, load_v10(v10))
        } else {
            Err(format!(
                "no A2UI v1.0 schemas at {}; set A2UI_V10_SCHEMA_DIR",
                v10.display()
            ))
        };
        Official {
            v08: basic(SpecVersion::V08),
            v09: basic(SpecVersion::V09),
            v10,
        }
    }

    fn loaded(&self, v: Version) -> Result<&Loaded, &str> {
        match v {
            Version::V08 => self.v08.as_ref(),
            Version::V09 => self.v09.as_ref(),
            Version::V10 => self.v10.as_ref(),
        }
        .map_err(String::as_str)
    }

    /// Whether the official validator for `v` is loaded.
    #[allow(dead_code)] // the binary says which check it uses with `describe`; the tests ask this
    pub fn has(&self, v: Version) -> bool {
        self.loaded(v).is_ok()
    }

    /// Which check a run of version `v` gets, for log lines.
    pub fn describe(&self, v: Version) -> String {
        match self.loaded(v) {
            Ok(l) => format!("official A2UI validator ({})", l.from.display()),
            Err(why) => format!("structural UI check ({why})"),
        }
    }

    /// Validates the messages of one answer with all integrity checks, the components the
    /// splitter emitted one by one put back into one list per surface. `None` when no official
    /// validator for `v` is loaded.
    pub fn check(&self, v: Version, messages: &[Value]) -> Option<Result<(), String>> {
        let validator = &self.loaded(v).ok()?.validator;
        let mut problems: Vec<String> = validator
            .validate_with(&Value::Array(regroup(messages)), true)
            .err()
            .map(|e| e.to_string())
            .into_iter()
            .collect();
        if v == Version::V10 {
            // The SDK also refuses v1.0 component ids that are not identifiers, which no
            // schema says.
            problems.extend(
                messages
                    .iter()
                    .flat_map(|m| {
                        ["createSurface", "updateComponents"]
                            .into_iter()
                            .filter_map(|key| m.get(key)?.get("components")?.as_array())
                            .flatten()
                    })
                    .filter_map(|c| c.get("id").and_then(Value::as_str))
                    .filter(|id| !surface::is_identifier(id))
                    .map(|id| {
                        format!("component id `{id}` is not an identifier (letters, digits, `_`)")
                    }),
            );
        }
        Some(if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        })
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
