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
//! ([`Catalog::from_config`]); the basic catalogs of every version are also built into the crate
//! ([`Catalog::builtin`]), so validating needs no file.
//!
//! ```
//! use a2ui_stream::official::catalog::{Catalog, Version};
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
//! let column = catalog.component("Column").unwrap();
//! assert!(column.list_refs.contains("children") && column.required.contains("children"));
//! assert!(catalog.component("Card").unwrap().single_refs.contains("child"));
//!
//! let card = json!({"id": "c", "component": {"Card": {"child": "t"}}});
//! let refs: Vec<_> = catalog.references(&card).into_iter().map(|r| r.id).collect();
//! assert_eq!(refs, ["t"]);
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, OnceLock};

use super::validator::{ValidationError, Validator};

mod builtin;
mod load;
mod order;
mod prune;
mod refs;

pub(crate) use order::{KeyOrder, pointer_segment};

use refs::analyse_components;

use serde_json::Value;

/// The protocol version a catalog describes: the crate's [`Version`](crate::Version), named here
/// too because catalogs are read by it.
pub use crate::message::Version;

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

/// A catalog could not be loaded: its kind and what happened (it has no offset).
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, CatalogErrorKind, Version};
/// let missing = std::path::Path::new("/nonexistent/a2ui/spec");
/// let err = Catalog::basic(missing, Version::V08).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (CatalogErrorKind::Unreadable, None));
/// assert_eq!(err.to_string(), err.message());
/// ```
pub type CatalogError = crate::Error<CatalogErrorKind>;

/// Why a catalog could not be loaded.
///
/// ```
/// use a2ui_stream::official::catalog::{Catalog, CatalogErrorKind};
/// let err = Catalog::from_config(&serde_json::json!({"version": "2.0"}), ".".as_ref()).unwrap_err();
/// assert_eq!(err.kind(), CatalogErrorKind::BadConfig);
/// assert!(err.message().contains("version"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CatalogErrorKind {
    /// A schema file could not be read.
    Unreadable,
    /// A schema file is not JSON.
    NotJson,
    /// A catalog configuration names an unknown version or gives a schema as neither a path
    /// nor an object.
    BadConfig,
}

/// A catalog error saying `message`.
fn error(kind: CatalogErrorKind, message: impl Into<String>) -> CatalogError {
    CatalogError::of(kind, None, message)
}

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
    /// The order the catalog document declares its properties in, when it is known.
    declared: KeyOrder,
    /// The compiled validator, made on first use and shared by every clone.
    compiled: Compiled,
    #[cfg(feature = "express")]
    /// The components' Express signatures, made on first use and shared by every clone.
    signatures: Memo<crate::express::signature::Signatures>,
}

/// A value made from the catalog on first use and shared by its clones. It plays no part in
/// comparing catalogs.
#[cfg(feature = "express")]
struct Memo<T>(Arc<OnceLock<T>>);

#[cfg(feature = "express")]
impl<T> Clone for Memo<T> {
    fn clone(&self) -> Self {
        Memo(Arc::clone(&self.0))
    }
}

#[cfg(feature = "express")]
impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo(Arc::new(OnceLock::new()))
    }
}

#[cfg(feature = "express")]
impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Memo<T>) -> bool {
        true
    }
}

#[cfg(feature = "express")]
impl<T> fmt::Debug for Memo<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "made"
        } else {
            "not yet"
        })
    }
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

impl Catalog {
    /// Builds a catalog from its three schemas. `s2c_schema` may be `null` or `{}` (messages are
    /// then not checked against a message schema); `common_types_schema` may be `null` or `{}`
    /// for v0.8. The components are read from `catalog_schema["components"]` (for v0.8, from the
    /// message schema's `surfaceUpdate` component properties first, where a full schema inlines
    /// them). A [`Value`]'s maps are sorted, so such a catalog does not know the order its
    /// document declares properties in; [`Catalog::from_config`] and [`Catalog::basic`] read it
    /// from the file.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// use serde_json::json;
    /// let c = Catalog::new(Version::V09, json!(null),
    ///     json!({"catalogId": "x", "components": {"Text": {"required": ["component", "text"]}}}), json!(null));
    /// assert_eq!(c.component_names().collect::<Vec<_>>(), ["Text"]);
    /// assert_eq!(c.component("Text").unwrap().required.iter().collect::<Vec<_>>(), ["text"]);
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
            declared: KeyOrder::default(),
            compiled: Compiled::default(),
            #[cfg(feature = "express")]
            signatures: Memo::default(),
        }
    }

    #[cfg(feature = "express")]
    /// The components' Express signatures, made on the first call and shared by every clone.
    pub(crate) fn signatures(&self) -> &crate::express::signature::Signatures {
        self.signatures
            .0
            .get_or_init(|| crate::express::signature::Signatures::of(self))
    }

    /// The same catalog, knowing the order in which its catalog document declares properties.
    pub(crate) fn with_declared_order(mut self, order: KeyOrder) -> Catalog {
        self.declared = order;
        #[cfg(feature = "express")]
        {
            // The signatures follow the order.
            self.signatures = Memo::default();
        }
        self
    }

    /// The member names of the `properties` object at JSON Pointer `pointer` of the catalog
    /// schema, in the order the catalog document declares them; `None` when that order is not
    /// known (the catalog was built from [`Value`]s, whose maps are sorted).
    #[cfg_attr(not(feature = "express"), allow(dead_code))]
    pub(crate) fn declared_keys(&self, pointer: &str) -> Option<&[String]> {
        self.declared.keys(pointer)
    }

    /// The catalog's compiled [`Validator`]: its schemas are compiled on the first call, and
    /// every later call (on this catalog or any clone of it) shares the result. This is what
    /// `official::legacy::ProgressiveParser::new` (feature `legacy`) uses, so
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

    /// The properties component type `component` requires (empty when unknown).
    #[cfg(any(test, feature = "legacy"))]
    pub(crate) fn required_fields(&self, component: &str) -> &BTreeSet<String> {
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
        let (card, row) = (c.component("Card").unwrap(), c.component("Row").unwrap());
        assert!(card.single_refs.contains("body"));
        assert!(row.list_refs.contains("children"));
        assert!(!row.single_refs.contains("title") && !row.list_refs.contains("title"));
        assert_eq!(
            c.required_fields("Row").iter().collect::<Vec<_>>(),
            ["children"]
        );
    }

    #[test]
    fn v1_0_child_refs_are_single_references() {
        let modal = json!({"components": {"Modal": {"properties": {
            "trigger": {"$ref": "common_types.json#/$defs/Child"},
            "content": {"$ref": "common_types.json#/$defs/Child"}}}}});
        let c = Catalog::new(Version::V10, Value::Null, modal, json!({}));
        let modal = c.component("Modal").unwrap();
        assert!(modal.single_refs.contains("trigger") && modal.single_refs.contains("content"));
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
