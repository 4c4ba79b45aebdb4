//! Component catalogs: the schemas a set of A2UI messages is checked against, and what they say
//! about each component (its schema, which properties name other components, which are required).
//!
//! A [`Catalog`] bundles three JSON Schemas:
//!
//! * the server-to-client message schema (`s2c_schema`),
//! * the catalog schema, whose `components` object maps each component name to its schema,
//! * for v0.9, the common types schema (`ComponentId`, `ChildList`, `DynamicString`, ...).
//!
//! It can be built from [`serde_json::Value`]s ([`Catalog::new`]), from the specification
//! directory ([`Catalog::basic`]) or from a conformance suite's `catalog:` block
//! ([`Catalog::from_config`]).
//!
//! ```
//! use a2ui_stream::official::catalog::{Catalog, RefKind, Version};
//! use serde_json::json;
//!
//! let catalog = Catalog::new(
//!     Version::V08,
//!     json!({"type": "object"}),
//!     json!({"catalogId": "demo", "components": {
//!         "Card": {"type": "object", "properties": {"child": {"type": "string"}}},
//!         "Column": {"type": "object",
//!                    "properties": {"children": {"type": "array", "items": {"type": "string", "title": "ComponentId"}}},
//!                    "required": ["children"]},
//!     }}),
//!     json!({}),
//! );
//! assert_eq!(catalog.version(), Version::V08);
//! assert_eq!(catalog.catalog_id(), Some("demo"));
//! assert_eq!(catalog.ref_kind("Card", "child"), Some(RefKind::Single));
//! assert_eq!(catalog.ref_kind("Column", "children"), Some(RefKind::List));
//! assert!(catalog.required_fields("Column").contains("children"));
//!
//! let card = json!({"id": "c", "component": {"Card": {"child": "t"}}});
//! let refs: Vec<_> = catalog.references(&card).into_iter().map(|r| r.id).collect();
//! assert_eq!(refs, ["t"]);
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use super::validator::{ValidationError, Validator};

use serde_json::{Map, Value};

/// The A2UI protocol version a catalog describes.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// let catalog = Catalog::new(Version::V09, serde_json::json!(null), serde_json::json!({}), serde_json::json!({}));
/// assert_eq!(catalog.version(), Version::V09);
/// assert!(Version::V08 < Version::V09);
/// assert_eq!(Version::V08.to_string(), "0.8");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Version {
    /// v0.8: `beginRendering`, `surfaceUpdate`, `dataModelUpdate`, `deleteSurface`; components are
    /// `{"id": .., "component": {"Type": {props}}}`.
    V08,
    /// v0.9: `createSurface`, `updateComponents`, `updateDataModel`, `deleteSurface`, each with
    /// `"version": "v0.9"`; components are flat, `{"id": .., "component": "Type", props..}`.
    V09,
}

impl Version {
    /// Reads a version as written in catalogs and messages: `"0.8"`, `"v0.8"`, `"0.9"`, `"v0.9"`
    /// (and `"0.9.1"`, which speaks the v0.9 message set).
    ///
    /// ```
    /// use a2ui_stream::official::catalog::Version;
    /// assert_eq!(Version::parse("v0.9"), Some(Version::V09));
    /// assert_eq!(Version::parse("0.8"), Some(Version::V08));
    /// assert_eq!(Version::parse("1.0"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Version> {
        match text.trim().trim_start_matches('v') {
            "0.8" => Some(Version::V08),
            "0.9" | "0.9.1" => Some(Version::V09),
            _ => None,
        }
    }

    /// The version as catalogs write it: `"0.8"` or `"0.9"`.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::Version;
    /// assert_eq!(Version::V09.as_str(), "0.9");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Version::V08 => "0.8",
            Version::V09 => "0.9",
        }
    }

    /// The version as v0.9 messages carry it in their `version` field (`"v0.8"` / `"v0.9"`).
    ///
    /// ```
    /// use a2ui_stream::official::catalog::Version;
    /// assert_eq!(Version::V09.message_tag(), "v0.9");
    /// ```
    pub fn message_tag(self) -> &'static str {
        match self {
            Version::V08 => "v0.8",
            Version::V09 => "v0.9",
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a component property refers to other components.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, RefKind, Version};
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V08, json!(null), json!({"components": {
///     "Card": {"properties": {"child": {"type": "string"}}},
///     "Column": {"properties": {"children": {"type": "object", "properties": {
///         "explicitList": {"type": "array", "items": {"type": "string"}}}}}}}}), json!({}));
/// assert_eq!(catalog.ref_kind("Card", "child"), Some(RefKind::Single));
/// assert_eq!(catalog.ref_kind("Column", "children"), Some(RefKind::List));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// The property holds one component id (`child`, a `ComponentId`).
    Single,
    /// The property holds several ids: a list, an `explicitList`, or a template
    /// (`{"componentId": .., "path": ..}`), as a `ChildList` does.
    List,
}

/// One reference from a component to another, found by [`Catalog::references`].
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, ComponentRef, Version};
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V08, json!(null), json!({"components": {}}), json!({}));
/// let column = json!({"id": "col", "component": {"Column": {"children": {"explicitList": ["a", "b"]}}}});
/// assert_eq!(catalog.references(&column), vec![
///     ComponentRef { id: "a", field: "children.explicitList".to_owned() },
///     ComponentRef { id: "b", field: "children.explicitList".to_owned() },
/// ]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentRef<'a> {
    /// The id referred to.
    pub id: &'a str,
    /// Where it was found, e.g. `child`, `children`, `children.explicitList`,
    /// `children.componentId` or `tabs[0].child`.
    pub field: String,
}

/// What a catalog says about one component type.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V08, json!(null), json!({"components": {"Card": {
///     "type": "object",
///     "properties": {"child": {"type": "string"}, "title": {"type": "string"}},
///     "required": ["child"]}}}), json!({}));
/// let card = catalog.component("Card").unwrap();
/// assert!(card.single_refs.contains("child"));
/// assert!(card.list_refs.is_empty());
/// assert!(card.required.contains("child") && !card.required.contains("title"));
/// assert_eq!(card.schema["type"], "object");
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ComponentInfo {
    /// The component's JSON Schema, as written in the catalog.
    pub schema: Value,
    /// Properties that hold a single component id.
    pub single_refs: BTreeSet<String>,
    /// Properties that hold a list of ids or a template.
    pub list_refs: BTreeSet<String>,
    /// Properties the schema requires (the `component` discriminator excluded), gathered through
    /// `allOf` / `oneOf` / `anyOf`.
    pub required: BTreeSet<String>,
}

/// A catalog could not be loaded.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// let missing = std::path::Path::new("/nonexistent/a2ui/spec");
/// let err = Catalog::basic(missing, Version::V08).unwrap_err();
/// assert!(!err.to_string().is_empty());
/// assert_eq!(err.to_string(), err.message());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogError {
    message: String,
}

impl CatalogError {
    fn new(message: impl Into<String>) -> CatalogError {
        CatalogError {
            message: message.into(),
        }
    }

    /// What went wrong, in words.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::Catalog;
    /// let err = Catalog::from_config(&serde_json::json!({"version": "2.0"}), ".".as_ref()).unwrap_err();
    /// assert!(err.message().contains("version"));
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CatalogError {}

/// A component catalog with its message schemas; see the [module documentation](self).
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, Version};
/// use serde_json::json;
/// let catalog = Catalog::new(Version::V09, json!(null), json!({"catalogId": "mine", "components": {
///     "Text": {"type": "object"}, "Row": {"properties": {"children": {"type": "array"}}}}}), json!({}));
/// assert_eq!(catalog.catalog_id(), Some("mine"));
/// assert_eq!(catalog.component_names().collect::<Vec<_>>(), ["Row", "Text"]);
/// let row = json!({"id": "r", "component": "Row", "children": ["t1", "t2"]});
/// assert_eq!(catalog.references(&row).len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Catalog {
    version: Version,
    s2c_schema: Value,
    catalog_schema: Value,
    common_types_schema: Value,
    components: BTreeMap<String, ComponentInfo>,
    /// The compiled validator, made on first use and shared by every clone.
    compiled: Compiled,
}

/// The catalog's compiled validator (or why it did not compile), shared by the catalog's clones.
/// It plays no part in comparing catalogs.
#[derive(Clone, Default)]
struct Compiled(Arc<OnceLock<Result<Arc<Validator>, ValidationError>>>);

impl PartialEq for Compiled {
    fn eq(&self, _: &Compiled) -> bool {
        true
    }
}

impl fmt::Debug for Compiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match self.0.get() {
            None => "not yet",
            Some(Ok(_)) => "compiled",
            Some(Err(_)) => "failed",
        };
        f.write_str(state)
    }
}

/// Property names that hold one component id whatever the schema says.
const SINGLE_REF_NAMES: [&str; 3] = ["child", "contentChild", "entryPointChild"];
/// Property names looked at for single ids even when the catalog does not mark them.
const HEURISTIC_SINGLE: [&str; 6] = [
    "child",
    "contentChild",
    "entryPointChild",
    "detail",
    "summary",
    "root",
];
/// Property names looked at for lists of ids even when the catalog does not mark them.
const HEURISTIC_LIST: [&str; 3] = ["children", "explicitList", "template"];

impl Catalog {
    /// Builds a catalog from its three schemas. `s2c_schema` may be `null` or `{}` (messages are
    /// then not checked against a message schema); `common_types_schema` may be `null` or `{}`
    /// for v0.8. The components are read from `catalog_schema["components"]` (for v0.8, from the
    /// message schema's `surfaceUpdate` component properties first, where a full schema inlines
    /// them).
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use serde_json::json;
    /// let c = Catalog::new(Version::V09, json!(null),
    ///     json!({"catalogId": "x", "components": {"Text": {"required": ["component", "text"]}}}), json!(null));
    /// assert_eq!(c.component_names().collect::<Vec<_>>(), ["Text"]);
    /// assert_eq!(c.required_fields("Text").iter().collect::<Vec<_>>(), ["text"]);
    /// ```
    pub fn new(
        version: Version,
        s2c_schema: Value,
        catalog_schema: Value,
        common_types_schema: Value,
    ) -> Catalog {
        let components = analyse_components(version, &s2c_schema, &catalog_schema);
        Catalog {
            version,
            s2c_schema,
            catalog_schema,
            common_types_schema,
            components,
            compiled: Compiled::default(),
        }
    }

    /// The catalog's compiled [`Validator`]: its schemas are compiled on the first call, and
    /// every later call (on this catalog or any clone of it) shares the result. This is what
    /// [`ProgressiveParser::new`](crate::official::progressive::ProgressiveParser::new) uses, so
    /// a server that starts one parser per response compiles the schemas once.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use serde_json::json;
    /// let catalog = Catalog::new(Version::V09, json!(null), json!({"components": {}}), json!({}));
    /// let copy = catalog.clone();
    /// let first = catalog.validator()?;
    /// assert!(std::sync::Arc::ptr_eq(&first, &copy.validator()?)); // compiled once
    /// # Ok::<(), a2ui_stream::official::validator::ValidationError>(())
    /// ```
    pub fn validator(&self) -> Result<Arc<Validator>, ValidationError> {
        self.compiled
            .0
            .get_or_init(|| Validator::new(self).map(Arc::new))
            .clone()
    }

    /// A copy that does not share the compiled validator (the validator's own copy of its
    /// catalog, which must not hold the validator itself).
    pub(crate) fn unshared(&self) -> Catalog {
        Catalog {
            compiled: Compiled::default(),
            ..self.clone()
        }
    }

    /// Loads the basic catalog of the A2UI specification from `spec_dir` (the directory holding
    /// `v0_8/` and `v0_9/`):
    /// v0.8 reads `v0_8/json/server_to_client.json` and `v0_8/json/standard_catalog_definition.json`;
    /// v0.9 reads `v0_9/json/server_to_client.json`, `v0_9/json/common_types.json` and
    /// `v0_9/catalogs/basic/catalog.json`. A catalog without `catalogId` gets the specification's
    /// URL for it.
    ///
    /// ```no_run
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// let catalog = Catalog::basic("../shared/a2ui/spec".as_ref(), Version::V09)?;
    /// assert!(catalog.component_schema("Text").is_some());
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
        };
        let s2c_schema = read_json(&s2c)?;
        let mut catalog_schema = read_json(&catalog)?;
        if let Value::Object(map) = &mut catalog_schema {
            map.entry("catalogId")
                .or_insert_with(|| Value::String(default_id.to_owned()));
        }
        let common_types_schema = match common {
            Some(path) => read_json(&path)?,
            None => Value::Object(Map::new()),
        };
        Ok(Catalog::new(
            version,
            s2c_schema,
            catalog_schema,
            common_types_schema,
        ))
    }

    /// Builds a catalog from a conformance suite's `catalog:` block (already converted to JSON):
    /// `version` (`"0.8"` / `"0.9"`), and `s2c_schema`, `catalog_schema`, `common_types_schema`,
    /// each either an inline object or a path relative to `base_dir` (the conformance directory).
    /// A missing `catalog_schema` or `common_types_schema` is an empty object; a missing
    /// `s2c_schema` is `null`.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use serde_json::json;
    /// let config = json!({"version": "0.8",
    ///                     "catalog_schema": {"catalogId": "c", "components": {"Text": {"type": "object"}}}});
    /// let catalog = Catalog::from_config(&config, ".".as_ref())?;
    /// assert_eq!(catalog.version(), Version::V08);
    /// assert!(catalog.component_schema("Text").is_some());
    /// # Ok::<(), a2ui_stream::official::catalog::CatalogError>(())
    /// ```
    pub fn from_config(config: &Value, base_dir: &Path) -> Result<Catalog, CatalogError> {
        let version = match config.get("version") {
            Some(Value::String(s)) => Version::parse(s),
            Some(Value::Number(n)) => Version::parse(&n.to_string()),
            _ => None,
        }
        .ok_or_else(|| {
            CatalogError::new(format!(
                "catalog version must be \"0.8\" or \"0.9\", got {}",
                config.get("version").unwrap_or(&Value::Null)
            ))
        })?;
        let load = |key: &str, default: Value| -> Result<Value, CatalogError> {
            match config.get(key) {
                None | Some(Value::Null) => Ok(default),
                Some(Value::String(path)) => read_json(&base_dir.join(path)),
                Some(v @ Value::Object(_)) => Ok(v.clone()),
                Some(other) => Err(CatalogError::new(format!(
                    "{key} must be a path or an object, got {other}"
                ))),
            }
        };
        let s2c_schema = load("s2c_schema", Value::Null)?;
        let catalog_schema = load("catalog_schema", Value::Object(Map::new()))?;
        let common_types_schema = load("common_types_schema", Value::Object(Map::new()))?;
        Ok(Catalog::new(
            version,
            s2c_schema,
            catalog_schema,
            common_types_schema,
        ))
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
    }

    /// The protocol version.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # let c = Catalog::new(Version::V08, serde_json::json!(null), serde_json::json!({}), serde_json::json!({}));
    /// assert_eq!(c.version(), Version::V08);
    /// ```
    pub fn version(&self) -> Version {
        self.version
    }

    /// The catalog's `catalogId`, if it has one.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use serde_json::json;
    /// let c = Catalog::new(Version::V08, json!(null), json!({"catalogId": "std"}), json!({}));
    /// assert_eq!(c.catalog_id(), Some("std"));
    /// ```
    pub fn catalog_id(&self) -> Option<&str> {
        self.catalog_schema.get("catalogId").and_then(Value::as_str)
    }

    /// The server-to-client message schema (`null` when none was given).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use serde_json::json;
    /// let c = Catalog::new(Version::V08, json!({"type": "object"}), json!({}), json!({}));
    /// assert_eq!(c.s2c_schema()["type"], "object");
    /// ```
    pub fn s2c_schema(&self) -> &Value {
        &self.s2c_schema
    }

    /// The catalog schema (with `catalogId`, `components`, maybe `styles` and `$defs`).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use serde_json::json;
    /// let c = Catalog::new(Version::V08, json!(null), json!({"components": {}}), json!({}));
    /// assert!(c.catalog_schema()["components"].is_object());
    /// ```
    pub fn catalog_schema(&self) -> &Value {
        &self.catalog_schema
    }

    /// The common types schema (empty for most v0.8 catalogs).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use serde_json::json;
    /// let c = Catalog::new(Version::V09, json!(null), json!({}), json!({"$defs": {}}));
    /// assert!(c.common_types_schema()["$defs"].is_object());
    /// ```
    pub fn common_types_schema(&self) -> &Value {
        &self.common_types_schema
    }

    /// The names of the components the catalog defines, in sorted order.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use serde_json::json;
    /// let c = Catalog::new(Version::V08, json!(null), json!({"components": {"B": {}, "A": {}}}), json!({}));
    /// assert_eq!(c.component_names().collect::<Vec<_>>(), ["A", "B"]);
    /// ```
    pub fn component_names(&self) -> impl Iterator<Item = &str> {
        self.components.keys().map(String::as_str)
    }

    /// Everything the catalog says about component type `name`.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use serde_json::json;
    /// let c = Catalog::new(Version::V08, json!(null),
    ///     json!({"components": {"Card": {"properties": {"child": {"type": "string"}}}}}), json!({}));
    /// assert!(c.component("Card").unwrap().single_refs.contains("child"));
    /// assert!(c.component("Nope").is_none());
    /// ```
    pub fn component(&self, name: &str) -> Option<&ComponentInfo> {
        self.components.get(name)
    }

    /// The JSON Schema of component type `name`.
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use serde_json::json;
    /// let c = Catalog::new(Version::V08, json!(null), json!({"components": {"Text": {"type": "object"}}}), json!({}));
    /// assert_eq!(c.component_schema("Text"), Some(&json!({"type": "object"})));
    /// ```
    pub fn component_schema(&self, name: &str) -> Option<&Value> {
        self.components.get(name).map(|c| &c.schema)
    }

    /// Whether property `property` of component type `component` holds component ids, and how
    /// many. Only what the catalog marks is reported (a `ComponentId` / `ChildList` reference, an
    /// inline `{"type": "string", "title": "ComponentId"}`, an `explicitList` / `template` /
    /// `componentId` object, or the names `child`, `contentChild`, `entryPointChild`, `children`).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, RefKind, Version};
    /// # use serde_json::json;
    /// let c = Catalog::new(Version::V09, json!(null), json!({"components": {"List": {"allOf": [
    ///     {"properties": {"items": {"$ref": "common_types.json#/$defs/ChildList"}}}]}}}), json!({}));
    /// assert_eq!(c.ref_kind("List", "items"), Some(RefKind::List));
    /// assert_eq!(c.ref_kind("List", "direction"), None);
    /// ```
    pub fn ref_kind(&self, component: &str, property: &str) -> Option<RefKind> {
        let info = self.components.get(component)?;
        if info.single_refs.contains(property) {
            Some(RefKind::Single)
        } else if info.list_refs.contains(property) {
            Some(RefKind::List)
        } else {
            None
        }
    }

    /// The properties component type `component` requires (empty when unknown).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use serde_json::json;
    /// let c = Catalog::new(Version::V08, json!(null), json!({"components": {"Img": {"required": ["url"]}}}), json!({}));
    /// assert!(c.required_fields("Img").contains("url"));
    /// assert!(c.required_fields("Other").is_empty());
    /// ```
    pub fn required_fields(&self, component: &str) -> &BTreeSet<String> {
        static EMPTY: BTreeSet<String> = BTreeSet::new();
        self.components
            .get(component)
            .map(|c| &c.required)
            .unwrap_or(&EMPTY)
    }

    /// The component type of a component object: the `component` string (v0.9) or the single key
    /// of the `component` object (v0.8).
    ///
    /// ```
    /// use a2ui_stream::official::catalog::Catalog;
    /// use serde_json::json;
    /// assert_eq!(Catalog::component_type(&json!({"id": "a", "component": "Text"})), Some("Text"));
    /// assert_eq!(Catalog::component_type(&json!({"id": "a", "component": {"Card": {}}})), Some("Card"));
    /// ```
    pub fn component_type(component: &Value) -> Option<&str> {
        match component.get("component")? {
            Value::String(s) => Some(s),
            Value::Object(map) => map.keys().next().map(String::as_str),
            _ => None,
        }
    }

    /// Every component id that `component` (a whole component object, v0.8 or v0.9 shape) refers
    /// to, in property order. Properties the catalog marks are read, and so are the usual
    /// reference names (`child`, `children`, `explicitList`, `template`, `detail`, `summary`,
    /// `root`, ...) and `child` inside objects of other lists (tabs).
    ///
    /// ```
    /// # use a2ui_stream::official::catalog::{Catalog, Version};
    /// # use serde_json::json;
    /// let c = Catalog::new(Version::V09, json!(null), json!({"components": {}}), json!({}));
    /// let list = json!({"id": "l", "component": "List", "children": {"componentId": "row", "path": "/items"}});
    /// let refs = c.references(&list);
    /// assert_eq!((refs[0].id, refs[0].field.as_str()), ("row", "children.componentId"));
    /// ```
    pub fn references<'a>(&self, component: &'a Value) -> Vec<ComponentRef<'a>> {
        let mut out = Vec::new();
        self.for_each_reference(component, |id, field| {
            out.push(ComponentRef {
                id,
                field: field.to_string(),
            });
        });
        out
    }

    /// Calls `visit` with every reference of `component`, as [`Catalog::references`] finds
    /// them, in the same order; the field is named only when the caller asks (most callers
    /// need only the ids).
    pub(crate) fn for_each_reference<'a>(
        &self,
        component: &'a Value,
        mut visit: impl FnMut(&'a str, RefField<'a>),
    ) {
        match component.get("component") {
            Some(Value::String(kind)) => {
                if let Value::Object(props) = component {
                    self.collect_refs(kind, props, &mut visit);
                }
            }
            Some(Value::Object(typed)) => {
                for (kind, props) in typed {
                    if let Value::Object(props) = props {
                        self.collect_refs(kind, props, &mut visit);
                    }
                }
            }
            _ => {}
        }
    }

    fn collect_refs<'a>(
        &self,
        kind: &str,
        props: &'a Map<String, Value>,
        visit: &mut impl FnMut(&'a str, RefField<'a>),
    ) {
        if kind.is_empty() {
            return;
        }
        let info = self.components.get(kind);
        let is_single = |key: &str| {
            info.is_some_and(|i| i.single_refs.contains(key)) || HEURISTIC_SINGLE.contains(&key)
        };
        let marked_list = |key: &str| info.is_some_and(|i| i.list_refs.contains(key));
        for (key, value) in props {
            if is_single(key) {
                match value {
                    Value::String(id) => visit(id, RefField::Key(key)),
                    Value::Object(obj) => {
                        if let Some(Value::String(id)) = obj.get("componentId") {
                            visit(id, RefField::ComponentId(key));
                        }
                    }
                    _ => {}
                }
            } else if marked_list(key) || HEURISTIC_LIST.contains(&key.as_str()) {
                match value {
                    Value::Array(items) => {
                        for item in items {
                            if let Value::String(id) = item {
                                visit(id, RefField::Key(key));
                            }
                        }
                    }
                    Value::Object(obj) => {
                        if let Some(list) = obj.get("explicitList") {
                            if let Value::Array(items) = list {
                                for item in items {
                                    if let Value::String(id) = item {
                                        visit(id, RefField::ExplicitList(key));
                                    }
                                }
                            }
                        } else if let Some(template) = obj.get("template") {
                            if let Some(Value::String(id)) = template.get("componentId") {
                                visit(id, RefField::Template(key));
                            }
                        } else if let Some(Value::String(id)) = obj.get("componentId") {
                            visit(id, RefField::ComponentId(key));
                        }
                    }
                    _ => {}
                }
            }
            if let Value::Array(items) = value {
                if !marked_list(key) {
                    for (idx, item) in items.iter().enumerate() {
                        if let Some(Value::String(id)) = item.get("child") {
                            if !id.is_empty() {
                                visit(id, RefField::Child(key, idx));
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Where a reference was found, named on demand (see [`ComponentRef::field`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum RefField<'a> {
    /// The property itself: `child`, `children`.
    Key(&'a str),
    /// `<key>.componentId`.
    ComponentId(&'a str),
    /// `<key>.explicitList`.
    ExplicitList(&'a str),
    /// `<key>.template.componentId`.
    Template(&'a str),
    /// `<key>[<index>].child`.
    Child(&'a str, usize),
}

impl fmt::Display for RefField<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefField::Key(key) => f.write_str(key),
            RefField::ComponentId(key) => write!(f, "{key}.componentId"),
            RefField::ExplicitList(key) => write!(f, "{key}.explicitList"),
            RefField::Template(key) => write!(f, "{key}.template.componentId"),
            RefField::Child(key, idx) => write!(f, "{key}[{idx}].child"),
        }
    }
}

fn read_json(path: &PathBuf) -> Result<Value, CatalogError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CatalogError::new(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text)
        .map_err(|e| CatalogError::new(format!("{} is not JSON: {e}", path.display())))
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

/// The component schemas by name: for v0.8 from the message schema's inlined
/// `surfaceUpdate.components.items.component.properties` when present, else (and for v0.9) from
/// the catalog's `components`.
fn component_schemas<'a>(
    version: Version,
    s2c: &'a Value,
    catalog: &'a Value,
) -> Option<&'a Map<String, Value>> {
    if version == Version::V08 {
        let inlined = s2c
            .pointer("/properties/surfaceUpdate/properties/components/items/properties/component/properties")
            .and_then(Value::as_object)
            .filter(|m| !m.is_empty());
        if inlined.is_some() {
            return inlined;
        }
    }
    catalog.get("components").and_then(Value::as_object)
}

fn analyse_components(
    version: Version,
    s2c: &Value,
    catalog: &Value,
) -> BTreeMap<String, ComponentInfo> {
    let mut out = BTreeMap::new();
    let Some(schemas) = component_schemas(version, s2c, catalog) else {
        return out;
    };
    for (name, schema) in schemas {
        let mut info = ComponentInfo {
            schema: schema.clone(),
            ..ComponentInfo::default()
        };
        gather(schema, &mut info, 0);
        out.insert(name.clone(), info);
    }
    out
}

/// Schemas nest; this bounds how deep the analysis follows `allOf` / `oneOf` / `anyOf` and
/// combinators inside property schemas, so that a hostile schema cannot exhaust the stack.
const MAX_SCHEMA_DEPTH: usize = 64;

fn gather(schema: &Value, info: &mut ComponentInfo, depth: usize) {
    let Value::Object(map) = schema else { return };
    if depth > MAX_SCHEMA_DEPTH {
        return;
    }
    if let Some(Value::Array(required)) = map.get("required") {
        for r in required.iter().filter_map(Value::as_str) {
            if r != "component" {
                info.required.insert(r.to_owned());
            }
        }
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        for (name, prop) in props {
            if is_component_id(prop, 0) || SINGLE_REF_NAMES.contains(&name.as_str()) {
                info.single_refs.insert(name.clone());
            } else if is_child_list(prop, 0) || name == "children" {
                info.list_refs.insert(name.clone());
            }
        }
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        if let Some(Value::Array(subs)) = map.get(key) {
            for sub in subs {
                gather(sub, info, depth + 1);
            }
        }
    }
}

fn ref_of(map: &Map<String, Value>) -> &str {
    map.get("$ref").and_then(Value::as_str).unwrap_or("")
}

fn any_sub(map: &Map<String, Value>, depth: usize, test: fn(&Value, usize) -> bool) -> bool {
    ["oneOf", "anyOf", "allOf"].iter().any(|key| {
        map.get(*key)
            .and_then(Value::as_array)
            .is_some_and(|subs| subs.iter().any(|s| test(s, depth + 1)))
    })
}

/// Does this property schema describe one component id?
fn is_component_id(schema: &Value, depth: usize) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    if depth > MAX_SCHEMA_DEPTH {
        return false;
    }
    let r = ref_of(map);
    if r.ends_with("ComponentId") || r.ends_with("child") || r.contains("/child") {
        return true;
    }
    if map.get("type").and_then(Value::as_str) == Some("string")
        && map.get("title").and_then(Value::as_str) == Some("ComponentId")
    {
        return true;
    }
    any_sub(map, depth, is_component_id)
}

/// Does this property schema describe a list of component ids (or a template)?
fn is_child_list(schema: &Value, depth: usize) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    if depth > MAX_SCHEMA_DEPTH {
        return false;
    }
    let r = ref_of(map);
    if r.ends_with("ChildList") || r.ends_with("children") || r.contains("/children") {
        return true;
    }
    match map.get("type").and_then(Value::as_str) {
        Some("object") => {
            if let Some(Value::Object(props)) = map.get("properties") {
                if ["explicitList", "template", "componentId"]
                    .iter()
                    .any(|k| props.contains_key(*k))
                {
                    return true;
                }
            }
        }
        Some("array")
            if map
                .get("items")
                .is_some_and(|items| is_component_id(items, depth + 1)) =>
        {
            return true;
        }
        _ => {}
    }
    any_sub(map, depth, is_child_list)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn v09_common_type_refs_are_classified() {
        let catalog = json!({"components": {
            "Card": {"allOf": [{"properties": {"child": {"$ref": "common_types.json#/$defs/ComponentId"},
                                               "body": {"$ref": "common_types.json#/$defs/ComponentId"}}}]},
            "Row": {"properties": {"children": {"$ref": "common_types.json#/$defs/ChildList"},
                                    "title": {"$ref": "common_types.json#/$defs/DynamicString"}},
                     "required": ["component", "children"]},
        }});
        let c = Catalog::new(Version::V09, Value::Null, catalog, json!({}));
        assert_eq!(c.ref_kind("Card", "body"), Some(RefKind::Single));
        assert_eq!(c.ref_kind("Row", "children"), Some(RefKind::List));
        assert_eq!(c.ref_kind("Row", "title"), None);
        assert_eq!(
            c.required_fields("Row").iter().collect::<Vec<_>>(),
            ["children"]
        );
    }

    #[test]
    fn references_cover_lists_templates_and_tabs() {
        let c = Catalog::new(
            Version::V08,
            Value::Null,
            json!({"components": {}}),
            json!({}),
        );
        let comp = json!({"id": "r", "component": {"Tabs": {
            "children": {"explicitList": ["a", "b"]},
            "tabItems": [{"title": "x", "child": "c"}],
        }}});
        let refs: Vec<_> = c
            .references(&comp)
            .into_iter()
            .map(|r| (r.id, r.field))
            .collect();
        assert_eq!(
            refs,
            [
                ("a", "children.explicitList".to_owned()),
                ("b", "children.explicitList".to_owned()),
                ("c", "tabItems[0].child".to_owned()),
            ]
        );
    }

    #[test]
    fn non_object_inputs_do_not_panic() {
        let c = Catalog::new(Version::V08, json!(5), json!([1]), json!("x"));
        assert!(c.references(&json!(null)).is_empty());
        assert!(c.references(&json!({"component": 3})).is_empty());
        assert!(c.component_names().next().is_none());
    }
}
