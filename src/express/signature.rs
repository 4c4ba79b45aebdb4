//! Positional signatures: the order in which Express takes a component's properties, or a
//! function's arguments, as positional arguments, read from a catalog.
//!
//! A component's parameters are its schema's properties without the structural `component`,
//! `id` and `catalogId`, in the order the catalog document declares them: the component's own
//! sub-schema (the one declaring `component`) first, then shared mixins (`allOf` parts, local
//! `#/$defs/...` references followed), each in the order it lists its properties. A checkable
//! component (one that takes `common_types.json#/$defs/Checkable`, or declares `checks`) takes
//! `checks` last, so that rules can follow the other arguments without placeholders. This is
//! the order of the released SDK (0.9.0) and of the conformance suites; for the basic v1.0
//! catalog it reads `Row(children, justify?, align?, weight?)` and
//! `Button(child, variant?, action, weight?, checks?)`.
//!
//! That order is known when the catalog was read from its JSON text ([`Catalog::basic`],
//! [`Catalog::from_config`]) or is built in ([`Catalog::builtin`]). A catalog built from
//! [`Value`]s has forgotten it (their maps are sorted), and then the rule of the Express
//! specification applies instead: required properties sorted by name, then optional ones sorted
//! by name, `checks` last.
//!
//! A function's parameters are the members of its `args` object, ordered the same way
//! (declared order, else required then optional by name).
//!
//! The compiler maps positional arguments with these signatures and the prompt shows them to
//! the model, so the two always agree.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::official::catalog::{Catalog, pointer_segment};

/// Properties that are never parameters: they are the envelope's, not the component's.
const STRUCTURAL: [&str; 3] = ["component", "id", "catalogId"];

/// The parameter that takes a component's validation rules.
const CHECKS: &str = "checks";

/// How far `allOf` parts and local references are followed (a bound against cyclic schemas).
const MAX_DEPTH: usize = 16;

/// The positional signature of one component or function of a catalog.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Signature {
    /// The component or function name, as the catalog writes it (`Text`, `formatString`).
    pub(crate) name: String,
    /// The parameters in positional order.
    pub(crate) params: Vec<Param>,
}

/// One parameter of a [`Signature`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Param {
    /// The property (or argument) name.
    pub(crate) name: String,
    /// Whether the schema requires it.
    pub(crate) required: bool,
    /// What the parameter holds, as far as Express is concerned.
    pub(crate) kind: ParamKind,
    /// Whether the property admits a data binding or function call (`$/path`, `fn(...)`); a
    /// parameter that does not is *static*: it takes literals only.
    pub(crate) bindable: bool,
    /// The property's schema as the catalog writes it (`Value::Null` for a `checks` parameter
    /// that comes from the `Checkable` mixin).
    pub(crate) schema: Value,
}

/// What a [`Param`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParamKind {
    /// Any other value: a literal, a binding, a function call, a list or map of those.
    Value,
    /// One component id (`child`): a variable name or an inline component.
    Child,
    /// A list of component ids, or a `_template(path, component)` (`children`).
    Children,
    /// An action: `Event(name, {context})` or a function call run in the renderer.
    Action,
    /// The validation rules of a checkable component: `[?required, ?regex(...)]`.
    Checks,
}

impl Signature {
    /// The parameter called `name`.
    pub(crate) fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.name == name)
    }
}

/// `Name(first, second?, ...)`: optional parameters marked with `?`.
impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.name)?;
        for (i, param) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&param.name)?;
            if !param.required {
                f.write_str("?")?;
            }
        }
        f.write_str(")")
    }
}

/// The signatures of a catalog's components, made once per catalog
/// ([`Catalog::signatures`]).
#[derive(Debug, Default)]
pub(crate) struct Signatures(std::collections::HashMap<String, Arc<Signature>>);

impl Signatures {
    /// The signature of every component of `catalog`.
    pub(crate) fn of(catalog: &Catalog) -> Signatures {
        Signatures(
            catalog
                .component_names()
                .filter_map(|name| Some((name.to_owned(), Arc::new(made(catalog, name)?))))
                .collect(),
        )
    }
}

/// The signature of component `name`, or `None` when the catalog does not declare it.
pub(crate) fn component(catalog: &Catalog, name: &str) -> Option<Arc<Signature>> {
    catalog.signatures().0.get(name).cloned()
}

/// [`component`], made from the catalog's schema.
fn made(catalog: &Catalog, name: &str) -> Option<Signature> {
    let pointer = format!("/components/{}", pointer_segment(name));
    let schema = catalog.catalog_schema().pointer(&pointer)?;
    let mut parts = Parts::default();
    parts.visit(catalog, schema, pointer, true, 0);
    let Parts {
        specific,
        common,
        checkable,
    } = parts;
    let mut gathered = Gathered::default();
    for part in specific.iter().chain(&common) {
        gathered.take(catalog, part);
    }
    let declares_checks = gathered.props.iter().any(|(n, _)| n == CHECKS);
    gathered
        .props
        .retain(|(n, _)| !STRUCTURAL.contains(&n.as_str()) && n != CHECKS);
    let mut params: Vec<Param> = gathered
        .ordered()
        .into_iter()
        .map(|(prop, schema)| Param {
            kind: kind_of(catalog, name, &prop, &schema),
            bindable: admits_binding(&schema, 0),
            required: gathered.required.contains(&prop),
            name: prop,
            schema,
        })
        .collect();
    if checkable || declares_checks {
        let schema = gathered.checks_schema.unwrap_or(Value::Null);
        params.push(Param {
            name: CHECKS.to_owned(),
            required: gathered.required.contains(CHECKS),
            kind: ParamKind::Checks,
            bindable: false,
            schema,
        });
    }
    Some(Signature {
        name: name.to_owned(),
        params,
    })
}

/// The signature of function `name` (its `args` members), or `None` when the catalog does not
/// declare it.
pub(crate) fn function(catalog: &Catalog, name: &str) -> Option<Signature> {
    let pointer = format!("/functions/{}", pointer_segment(name));
    let schema = catalog.catalog_schema().pointer(&pointer)?;
    let mut gathered = Gathered::default();
    let mut parts = vec![(schema, pointer.clone())];
    if let Some(Value::Array(subs)) = schema.get("allOf") {
        parts.extend(
            subs.iter()
                .enumerate()
                .map(|(i, sub)| (sub, format!("{pointer}/allOf/{i}"))),
        );
    }
    for (part, at) in parts {
        if let Some(args) = part.pointer("/properties/args") {
            gathered.take(
                catalog,
                &Part {
                    schema: args,
                    pointer: format!("{at}/properties/args"),
                },
            );
        }
    }
    let params = gathered
        .ordered()
        .into_iter()
        .map(|(arg, schema)| Param {
            kind: ParamKind::Value,
            bindable: admits_binding(&schema, 0),
            required: gathered.required.contains(&arg),
            name: arg,
            schema,
        })
        .collect();
    Some(Signature {
        name: name.to_owned(),
        params,
    })
}

/// The signature of every component of the catalog, by name.
pub(crate) fn components(catalog: &Catalog) -> Vec<Arc<Signature>> {
    catalog
        .component_names()
        .filter_map(|name| component(catalog, name))
        .collect()
}

/// The signature of every function of the catalog, by name.
pub(crate) fn functions(catalog: &Catalog) -> Vec<Signature> {
    let Some(Value::Object(all)) = catalog.catalog_schema().get("functions") else {
        return Vec::new();
    };
    all.keys()
        .filter_map(|name| function(catalog, name))
        .collect()
}

/// One sub-schema of a component, with its place in the catalog document.
struct Part<'a> {
    schema: &'a Value,
    pointer: String,
}

/// A component's sub-schemas, its own first, then the mixins.
#[derive(Default)]
struct Parts<'a> {
    specific: Vec<Part<'a>>,
    common: Vec<Part<'a>>,
    checkable: bool,
}

impl<'a> Parts<'a> {
    fn visit(
        &mut self,
        catalog: &'a Catalog,
        node: &'a Value,
        pointer: String,
        root: bool,
        depth: usize,
    ) {
        let Value::Object(map) = node else { return };
        if depth > MAX_DEPTH {
            return;
        }
        if let Some(target) = map.get("$ref").and_then(Value::as_str) {
            if let Some(local) = target.strip_prefix('#') {
                if let Some(resolved) = catalog.catalog_schema().pointer(local) {
                    self.visit(catalog, resolved, local.to_owned(), false, depth + 1);
                }
            } else if target.contains("Checkable") {
                self.checkable = true;
            }
        }
        let props = map.get("properties").and_then(Value::as_object);
        if props.is_some_and(|p| p.contains_key("component")) {
            self.specific.push(Part {
                schema: node,
                pointer: pointer.clone(),
            });
        } else if !root || props.is_some() || map.contains_key("required") {
            self.common.push(Part {
                schema: node,
                pointer: pointer.clone(),
            });
        }
        if let Some(Value::Array(subs)) = map.get("allOf") {
            for (i, sub) in subs.iter().enumerate() {
                self.visit(
                    catalog,
                    sub,
                    format!("{pointer}/allOf/{i}"),
                    false,
                    depth + 1,
                );
            }
        }
    }
}

/// The properties and required names gathered from an object schema's parts.
#[derive(Default)]
struct Gathered {
    /// Each property once, first declaration first, in declared order when known.
    props: Vec<(String, Value)>,
    required: BTreeSet<String>,
    /// Whether every part's declared order was known.
    unordered: bool,
    checks_schema: Option<Value>,
}

impl Gathered {
    fn take(&mut self, catalog: &Catalog, part: &Part<'_>) {
        if let Some(Value::Array(required)) = part.schema.get("required") {
            self.required
                .extend(required.iter().filter_map(Value::as_str).map(str::to_owned));
        }
        let Some(Value::Object(props)) = part.schema.get("properties") else {
            return;
        };
        let names = declared(catalog, &format!("{}/properties", part.pointer), props);
        if names.is_none() {
            self.unordered = true;
        }
        let names: Vec<&String> = match names {
            Some(names) => names.iter().collect(),
            None => props.keys().collect(),
        };
        for name in names {
            let Some(schema) = props.get(name.as_str()) else {
                continue;
            };
            if name == CHECKS && self.checks_schema.is_none() {
                self.checks_schema = Some(schema.clone());
            }
            if !self.props.iter().any(|(n, _)| n == name) {
                self.props.push((name.clone(), schema.clone()));
            }
        }
    }

    /// The properties in positional order: as declared, or when that is not known required
    /// ones by name, then optional ones by name.
    fn ordered(&self) -> Vec<(String, Value)> {
        if !self.unordered {
            return self.props.clone();
        }
        let mut required: Vec<_> = self
            .props
            .iter()
            .filter(|(n, _)| self.required.contains(n))
            .cloned()
            .collect();
        let mut optional: Vec<_> = self
            .props
            .iter()
            .filter(|(n, _)| !self.required.contains(n))
            .cloned()
            .collect();
        required.sort_by(|a, b| a.0.cmp(&b.0));
        optional.sort_by(|a, b| a.0.cmp(&b.0));
        required.extend(optional);
        required
    }
}

/// The declared order of the `properties` object at `pointer`, when the catalog knows it and it
/// names exactly the members of `props`.
fn declared<'c>(
    catalog: &'c Catalog,
    pointer: &str,
    props: &Map<String, Value>,
) -> Option<&'c [String]> {
    let names = catalog.declared_keys(pointer)?;
    let same = names.len() == props.len() && names.iter().all(|n| props.contains_key(n));
    same.then_some(names)
}

/// What property `prop` of `component` holds.
fn kind_of(catalog: &Catalog, component: &str, prop: &str, schema: &Value) -> ParamKind {
    if let Some(info) = catalog.component(component) {
        if info.single_refs.contains(prop) {
            return ParamKind::Child;
        }
        if info.list_refs.contains(prop) {
            return ParamKind::Children;
        }
    }
    let target = schema.get("$ref").and_then(Value::as_str).unwrap_or("");
    let name = target.rsplit('/').next().unwrap_or("");
    match name {
        "Child" | "ComponentId" => ParamKind::Child,
        "ChildList" => ParamKind::Children,
        "Action" => ParamKind::Action,
        _ => ParamKind::Value,
    }
}

/// Whether a property schema admits a data binding: it refers to a `Dynamic*` type, a
/// `DataBinding` or a `ChildList`, directly or through `oneOf` / `anyOf` / `allOf`.
fn admits_binding(schema: &Value, depth: usize) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    if depth > MAX_DEPTH {
        return false;
    }
    if let Some(target) = map.get("$ref").and_then(Value::as_str) {
        if ["DataBinding", "Dynamic", "ChildList"]
            .iter()
            .any(|t| target.contains(t))
        {
            return true;
        }
    }
    ["oneOf", "anyOf", "allOf"].iter().any(|key| {
        map.get(*key)
            .and_then(Value::as_array)
            .is_some_and(|subs| subs.iter().any(|s| admits_binding(s, depth + 1)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::official::catalog::{KeyOrder, Version};
    use serde_json::json;

    fn names(signature: &Signature) -> Vec<&str> {
        signature.params.iter().map(|p| p.name.as_str()).collect()
    }

    const FORMS: &str = r##"{"catalogId": "forms", "components": {
        "TextField": {"type": "object", "allOf": [
            {"$ref": "common_types.json#/$defs/Checkable"},
            {"$ref": "#/$defs/Common"},
            {"properties": {"component": {"const": "TextField"},
                            "label": {"$ref": "common_types.json#/$defs/DynamicString"},
                            "value": {"$ref": "common_types.json#/$defs/DataBinding"},
                            "placeholder": {"type": "string"}},
             "required": ["component", "label"]}]},
        "Button": {"properties": {"component": {"const": "Button"},
                                  "child": {"$ref": "common_types.json#/$defs/Child"},
                                  "action": {"$ref": "common_types.json#/$defs/Action"}},
                   "required": ["component", "child", "action"]}},
      "functions": {"length": {"properties": {"call": {"const": "length"},
          "args": {"properties": {"value": {}, "min": {"type": "integer"}, "max": {"type": "integer"}},
                   "required": ["value"]}}}},
      "$defs": {"Common": {"properties": {"weight": {"type": "number"}}}}}"##;

    fn forms(ordered: bool) -> Catalog {
        let schema: Value = serde_json::from_str(FORMS).unwrap();
        let catalog = Catalog::new(Version::V10, Value::Null, schema, json!({}));
        if ordered {
            catalog.with_declared_order(KeyOrder::of_json(FORMS))
        } else {
            catalog
        }
    }

    #[test]
    fn declared_order_puts_the_own_part_first_and_checks_last() {
        let catalog = forms(true);
        let field = component(&catalog, "TextField");
        let field = field.as_deref().map(names);
        assert_eq!(
            field,
            Some(vec!["label", "value", "placeholder", "weight", "checks"])
        );
        let button = component(&catalog, "Button").unwrap();
        assert_eq!(names(&button), ["child", "action"]);
        assert_eq!(button.to_string(), "Button(child, action)");
        let kinds: Vec<_> = button.params.iter().map(|p| p.kind).collect();
        assert_eq!(kinds, [ParamKind::Child, ParamKind::Action]);
        let length = function(&catalog, "length").map(|s| s.to_string());
        assert_eq!(length.as_deref(), Some("length(value, min?, max?)"));
    }

    #[test]
    fn unknown_order_follows_the_specification_rule() {
        let catalog = forms(false);
        let field = component(&catalog, "TextField").map(|s| s.to_string());
        assert_eq!(
            field.as_deref(),
            Some("TextField(label, placeholder?, value?, weight?, checks?)")
        );
        let button = component(&catalog, "Button").map(|s| s.to_string());
        assert_eq!(button.as_deref(), Some("Button(action, child)"));
        let length = function(&catalog, "length").map(|s| s.to_string());
        assert_eq!(length.as_deref(), Some("length(value, max?, min?)"));
    }

    #[test]
    fn bindable_and_static_parameters() {
        let catalog = forms(true);
        let field = component(&catalog, "TextField");
        let bindable: Vec<_> = field
            .iter()
            .flat_map(|s| s.params.iter().map(|p| (p.name.as_str(), p.bindable)))
            .collect();
        assert_eq!(
            bindable,
            [
                ("label", true),
                ("value", true),
                ("placeholder", false),
                ("weight", false),
                ("checks", false)
            ]
        );
        assert!(component(&catalog, "Nope").is_none());
        assert_eq!(components(&catalog).len(), 2);
        assert_eq!(functions(&catalog).len(), 1);
    }

    #[test]
    fn builtin_catalogs_keep_their_declared_order() {
        for version in [Version::V09, Version::V10] {
            let catalog = Catalog::builtin(version);
            let row = component(&catalog, "Row").map(|s| s.to_string());
            assert_eq!(
                row.as_deref(),
                Some("Row(children, justify?, align?, weight?)")
            );
            let button = component(&catalog, "Button").unwrap();
            assert_eq!(
                button.to_string(),
                "Button(child, variant?, action, weight?, checks?)"
            );
            let kinds: Vec<_> = button.params.iter().map(|p| p.kind).collect();
            assert_eq!(
                kinds,
                [
                    ParamKind::Child,
                    ParamKind::Value,
                    ParamKind::Action,
                    ParamKind::Value,
                    ParamKind::Checks
                ]
            );
            let length = function(&catalog, "length").map(|s| s.to_string());
            assert_eq!(length.as_deref(), Some("length(value, min?, max?)"));
        }
    }
}
