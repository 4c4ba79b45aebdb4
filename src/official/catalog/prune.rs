//! A catalog's functions, and narrowed copies of a catalog: only the components or functions
//! an agent means to offer a model, as the A2UI SDK's pruning transformers make them.

use serde_json::{Map, Value};

use super::Catalog;

/// The members a narrowing keeps: its section of the catalog (`components` or `functions`) and
/// the union in `$defs` that lists them (`anyComponent` or `anyFunction`).
#[derive(Clone, Copy)]
enum Section {
    Components,
    Functions,
}

impl Section {
    fn key(self) -> &'static str {
        match self {
            Section::Components => "components",
            Section::Functions => "functions",
        }
    }

    fn union(self) -> &'static str {
        match self {
            Section::Components => "anyComponent",
            Section::Functions => "anyFunction",
        }
    }
}

impl Catalog {
    /// The names of the functions the catalog defines (its `functions` object), in sorted
    /// order; empty for a catalog without functions (v0.8).
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// let catalog = Catalog::builtin(Version::V10);
    /// assert!(catalog.function_names().any(|name| name == "formatString"));
    /// ```
    pub fn function_names(&self) -> impl Iterator<Item = &str> {
        self.catalog_schema
            .get("functions")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|functions| functions.keys().map(String::as_str))
    }

    /// The JSON Schema of function `name` (the call object: its `call` / `@call` name and its
    /// `args`), as written in the catalog.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// let catalog = Catalog::builtin(Version::V10);
    /// let open = catalog.function_schema("openUrl").unwrap();
    /// assert!(open["properties"]["args"]["properties"]["url"].is_object());
    /// assert!(catalog.function_schema("nope").is_none());
    /// ```
    pub fn function_schema(&self, name: &str) -> Option<&Value> {
        self.catalog_schema.get("functions")?.get(name)
    }

    /// A copy of the catalog that keeps only the components named in `keep` (names it does
    /// not define are ignored; an empty list keeps none). Its functions, common types and
    /// message schema are the same. A model told about the copy is told only about these
    /// components, and messages using any other fail to validate against it.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// let text_only = Catalog::builtin(Version::V10).with_only_components(&["Text"]);
    /// assert_eq!(text_only.component_names().collect::<Vec<_>>(), ["Text"]);
    /// assert!(text_only.function_names().any(|name| name == "openUrl"));
    /// ```
    pub fn with_only_components(&self, keep: &[&str]) -> Catalog {
        self.narrowed(Section::Components, keep)
    }

    /// A copy of the catalog that keeps only the functions named in `keep` (names it does not
    /// define are ignored; an empty list keeps none). Its components are the same.
    ///
    /// ```
    /// use a2ui_stream::official::catalog::{Catalog, Version};
    /// let catalog = Catalog::builtin(Version::V10).with_only_functions(&["formatString"]);
    /// assert_eq!(catalog.function_names().collect::<Vec<_>>(), ["formatString"]);
    /// assert!(catalog.component_names().any(|name| name == "Button"));
    /// ```
    pub fn with_only_functions(&self, keep: &[&str]) -> Catalog {
        self.narrowed(Section::Functions, keep)
    }

    fn narrowed(&self, section: Section, keep: &[&str]) -> Catalog {
        let mut schema = self.catalog_schema.clone();
        if let Some(Value::Object(members)) = schema.get_mut(section.key()) {
            members.retain(|name, _| keep.contains(&name.as_str()));
        }
        if let Some(Value::Object(union)) = schema
            .get_mut("$defs")
            .and_then(|defs| defs.get_mut(section.union()))
        {
            retain_union(union, section, keep);
        }
        Catalog::new(
            self.version,
            self.s2c_schema.clone(),
            schema,
            self.common_types_schema.clone(),
        )
        .with_declared_order(self.declared.clone())
    }
}

/// Drops from a union (`{"oneOf": [{"$ref": "#/components/Text"}, ...]}`) every reference to a
/// member of `section` that `keep` does not name.
fn retain_union(union: &mut Map<String, Value>, section: Section, keep: &[&str]) {
    let prefix = format!("#/{}/", section.key());
    for combinator in ["oneOf", "anyOf"] {
        if let Some(Value::Array(options)) = union.get_mut(combinator) {
            options.retain(|option| {
                let target = option.get("$ref").and_then(Value::as_str);
                match target.and_then(|r| r.strip_prefix(prefix.as_str())) {
                    Some(name) => keep.contains(&unescaped(name).as_str()),
                    None => true,
                }
            });
        }
    }
}

/// A JSON Pointer token with its escapes (`~1` for `/`, `~0` for `~`) undone.
fn unescaped(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::official::catalog::Version;
    use serde_json::json;

    #[test]
    fn narrowing_drops_the_union_members_too() {
        let catalog = Catalog::new(
            Version::V10,
            Value::Null,
            json!({"components": {"A": {}, "B": {}}, "functions": {"f": {}},
                   "$defs": {"anyComponent": {"oneOf": [{"$ref": "#/components/A"}, {"$ref": "#/components/B"}]}}}),
            Value::Null,
        );
        let narrowed = catalog.with_only_components(&["B", "Z"]);
        assert_eq!(narrowed.component_names().collect::<Vec<_>>(), ["B"]);
        assert_eq!(
            narrowed.catalog_schema()["$defs"]["anyComponent"],
            json!({"oneOf": [{"$ref": "#/components/B"}]})
        );
        assert!(
            catalog
                .with_only_functions(&[])
                .function_names()
                .next()
                .is_none()
        );
    }
}
