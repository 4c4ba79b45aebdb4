//! What the Express suite runners share: where the data is, the catalogs a case names (read
//! from their files, so that the order they declare properties in is known), and the binding
//! keys compared without their `@`.

use std::path::{Path, PathBuf};

use a2ui_stream::official::catalog::{Catalog, Version};
use serde_json::{Map, Value, json};

/// The folder holding `a2ui-express/` and `a2ui-v1/`, when both are there.
pub fn shared() -> Option<PathBuf> {
    super::shared_root().filter(|root| {
        root.join("a2ui-express/conformance/agent/express").is_dir()
            && root.join("a2ui-v1/sdk-derived/v1_0").is_dir()
    })
}

/// `value` with every `@path` / `@call` key written `path` / `call`: this revision of the
/// suites writes v1.0 bindings without the `@`, SDK 0.9.0 and the v1.0 schemas with it.
pub fn without_at(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, v)| {
                    let key = match key.as_str() {
                        "@path" => "path",
                        "@call" => "call",
                        other => other,
                    };
                    (key.to_owned(), without_at(v))
                })
                .collect::<Map<_, _>>(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_at).collect()),
        other => other.clone(),
    }
}

/// A file the suites name under `test_data/`: the Express suites' own copy, else the v1.0
/// suites'.
pub fn test_data(shared: &Path, path: &str) -> Result<PathBuf, String> {
    ["a2ui-express/conformance", "a2ui-v1/conformance"]
        .iter()
        .map(|dir| shared.join(dir).join(path))
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| format!("{path} is in neither conformance folder"))
}

/// The JSON document in `file`.
pub fn read(file: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", file.display()))
}

/// The catalogs a case names: `args.catalog` or `args.catalogs`.
pub fn case_catalogs(args: &Value, shared: &Path) -> Result<Vec<Catalog>, String> {
    let names: Vec<&Value> = match (args.get("catalog"), args.get("catalogs")) {
        (Some(one), _) => vec![one],
        (None, Some(Value::Array(many))) => many.iter().collect(),
        _ => return Err("a case names its catalog".to_owned()),
    };
    names
        .into_iter()
        .map(|name| load_catalog(shared, name.as_str().ok_or("a catalog is named by a path")?))
        .collect()
}

/// The catalog at `path` (under `test_data/`) with the message and common-type schemas of the
/// version it declares (`protocolVersion`).
pub fn load_catalog(shared: &Path, path: &str) -> Result<Catalog, String> {
    let file = test_data(shared, path)?;
    let declared = read(&file)?
        .get("protocolVersion")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("{path} declares no protocolVersion"))?;
    let version =
        Version::parse(&declared).ok_or_else(|| format!("{path}: unknown version {declared}"))?;
    load_catalog_file(shared, &file, version)
}

/// The catalog in `file`, with the message and common-type schemas of `version`.
pub fn load_catalog_file(shared: &Path, file: &Path, version: Version) -> Result<Catalog, String> {
    let path = file.display();
    let (s2c, common) = match version {
        Version::V10 => (
            "a2ui-v1/sdk-derived/v1_0/agent_to_renderer.json",
            "a2ui-v1/sdk-derived/v1_0/common_types.json",
        ),
        Version::V09 => (
            "a2ui/spec/v0_9/json/server_to_client.json",
            "a2ui/spec/v0_9/json/common_types.json",
        ),
        other => return Err(format!("{path}: Express does not speak {other}")),
    };
    let config = json!({
        "version": version.as_str(),
        "s2c_schema": shared.join(s2c),
        "catalog_schema": file,
        "common_types_schema": shared.join(common),
    });
    Catalog::from_config(&config, shared).map_err(|e| format!("{path}: {e}"))
}
