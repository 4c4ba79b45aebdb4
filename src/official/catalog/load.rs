//! Reading a catalog from files: the specification's basic catalogs and a conformance suite's
//! `catalog:` block.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::{Catalog, CatalogError, CatalogErrorKind as ErrorKind, KeyOrder, Version, error};

impl Catalog {
    /// Loads the basic catalog of the A2UI specification from `spec_dir` (the directory holding
    /// `v0_8/`, `v0_9/` and `v1_0/`):
    /// v0.8 reads `v0_8/json/server_to_client.json` and `v0_8/json/standard_catalog_definition.json`;
    /// v0.9 reads `v0_9/json/server_to_client.json`, `v0_9/json/common_types.json` and
    /// `v0_9/catalogs/basic/catalog.json`; v1.0 reads `v1_0/json/agent_to_renderer.json`,
    /// `v1_0/json/common_types.json` and `v1_0/catalogs/basic/catalog.json`. A catalog without
    /// `catalogId` gets the specification's URL for it. [`Catalog::builtin`] holds the basic
    /// catalogs without any file. The catalog keeps the order its file declares properties in,
    /// which positional notations (A2UI Express) follow.
    ///
    /// ```no_run
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// let catalog = Catalog::basic("../shared/a2ui/spec".as_ref(), Version::V09)?;
    /// assert!(catalog.component("Text").is_some());
    /// # Ok::<(), a2ui_stream::official::catalog::CatalogError>(())
    /// ```
    pub fn basic(spec_dir: &Path, version: Version) -> Result<Catalog, CatalogError> {
        let (s2c, catalog, common, default_id) = match version {
            Version::V08 => (
                spec_dir.join("v0_8/json/server_to_client.json"),
                spec_dir.join("v0_8/json/standard_catalog_definition.json"),
                None,
                "https://a2ui.org/specification/v0_8/standard_catalog_definition.json",
            ),
            Version::V09 => (
                spec_dir.join("v0_9/json/server_to_client.json"),
                spec_dir.join("v0_9/catalogs/basic/catalog.json"),
                Some(spec_dir.join("v0_9/json/common_types.json")),
                "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
            ),
            Version::V10 => (
                spec_dir.join("v1_0/json/agent_to_renderer.json"),
                spec_dir.join("v1_0/catalogs/basic/catalog.json"),
                Some(spec_dir.join("v1_0/json/common_types.json")),
                "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
            ),
        };
        let s2c_schema = read_json(&s2c)?;
        let (mut catalog_schema, order) = read_ordered_json(&catalog)?;
        if let Value::Object(map) = &mut catalog_schema {
            map.entry("catalogId")
                .or_insert_with(|| Value::String(default_id.to_owned()));
        }
        let common_types_schema = match common {
            Some(path) => read_json(&path)?,
            None => Value::Object(Map::new()),
        };
        Ok(
            Catalog::new(version, s2c_schema, catalog_schema, common_types_schema)
                .with_declared_order(order),
        )
    }

    /// Builds a catalog from a conformance suite's `catalog:` block (already converted to JSON):
    /// `version` (`"0.8"` / `"0.9"`), and `s2c_schema`, `catalog_schema`, `common_types_schema`,
    /// each either an inline object or a path relative to `base_dir` (the conformance directory).
    /// A missing `catalog_schema` or `common_types_schema` is an empty object; a missing
    /// `s2c_schema` is `null`. A catalog schema read from a file keeps the order it declares
    /// properties in, which positional notations (A2UI Express) follow.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use serde_json::json;
    /// let config = json!({"version": "0.8",
    ///                     "catalog_schema": {"catalogId": "c", "components": {"Text": {"type": "object"}}}});
    /// let catalog = Catalog::from_config(&config, ".".as_ref())?;
    /// assert_eq!(catalog.version(), Version::V08);
    /// assert!(catalog.component("Text").is_some());
    /// # Ok::<(), a2ui_stream::official::catalog::CatalogError>(())
    /// ```
    pub fn from_config(config: &Value, base_dir: &Path) -> Result<Catalog, CatalogError> {
        let version = match config.get("version") {
            Some(Value::String(s)) => Version::parse(s),
            Some(Value::Number(n)) => Version::parse(&n.to_string()),
            _ => None,
        }
        .ok_or_else(|| {
            error(
                ErrorKind::BadConfig,
                format!(
                    "catalog version must be \"0.8\" or \"0.9\", got {}",
                    config.get("version").unwrap_or(&Value::Null)
                ),
            )
        })?;
        let load = |key: &str, default: Value| -> Result<Value, CatalogError> {
            match config.get(key) {
                None | Some(Value::Null) => Ok(default),
                Some(Value::String(path)) => read_json(&base_dir.join(path)),
                Some(v @ Value::Object(_)) => Ok(v.clone()),
                Some(other) => Err(error(
                    ErrorKind::BadConfig,
                    format!("{key} must be a path or an object, got {other}"),
                )),
            }
        };
        let s2c_schema = load("s2c_schema", Value::Null)?;
        let (catalog_schema, order) = match config.get("catalog_schema") {
            Some(Value::String(path)) => read_ordered_json(&base_dir.join(path))?,
            _ => (
                load("catalog_schema", Value::Object(Map::new()))?,
                KeyOrder::default(),
            ),
        };
        let common_types_schema = load("common_types_schema", Value::Object(Map::new()))?;
        Ok(
            Catalog::new(version, s2c_schema, catalog_schema, common_types_schema)
                .with_declared_order(order),
        )
    }

    /// The same catalog with every `additionalProperties: false` removed from all three schemas,
    /// so that properties a schema does not list are let through.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use serde_json::json;
    /// let c = Catalog::new(Version::V09, json!({"type": "object", "additionalProperties": false}),
    ///                      json!({}), json!({}));
    /// assert_eq!(c.without_strict_validation().s2c_schema(), &json!({"type": "object"}));
    /// ```
    pub fn without_strict_validation(&self) -> Catalog {
        Catalog::new(
            self.version,
            strip_strict(&self.s2c_schema),
            strip_strict(&self.catalog_schema),
            strip_strict(&self.common_types_schema),
        )
        .with_declared_order(self.declared.clone())
    }
}

fn read_json(path: &PathBuf) -> Result<Value, CatalogError> {
    let text = read_text(path)?;
    parse_json(path, &text)
}

/// A catalog document and the order in which it declares properties.
fn read_ordered_json(path: &PathBuf) -> Result<(Value, KeyOrder), CatalogError> {
    let text = read_text(path)?;
    Ok((parse_json(path, &text)?, KeyOrder::of_json(&text)))
}

fn read_text(path: &PathBuf) -> Result<String, CatalogError> {
    std::fs::read_to_string(path).map_err(|e| {
        error(
            ErrorKind::Unreadable,
            format!("cannot read {}: {e}", path.display()),
        )
    })
}

fn parse_json(path: &Path, text: &str) -> Result<Value, CatalogError> {
    serde_json::from_str(text).map_err(|e| {
        error(
            ErrorKind::NotJson,
            format!("{} is not JSON: {e}", path.display()),
        )
    })
}

fn strip_strict(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out = Map::with_capacity(map.len());
            for (k, v) in map {
                if k == "additionalProperties" && *v == Value::Bool(false) {
                    continue;
                }
                out.insert(k.clone(), strip_strict(v));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(strip_strict).collect()),
        other => other.clone(),
    }
}
