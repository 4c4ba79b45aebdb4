//! A small vocabulary for writing JSON Schemas as Rust: a constructor for each kind of value
//! and a method for each keyword, so that a catalog reads as its facts (`string()`,
//! `.prop("text", dynamic_string())`, `.required(&["text"])`) and becomes the schema the
//! validator compiles.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::super::{KeyOrder, pointer_segment};

/// A JSON Schema being written, with the order its `properties` objects were written in (by
/// JSON Pointer relative to this schema), which the JSON value forgets.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct S(Value, BTreeMap<String, Vec<String>>);

impl S {
    /// The schema as a JSON value.
    pub(super) fn done(self) -> Value {
        self.0
    }

    /// The schema as a JSON value, and the order its properties were written in.
    pub(super) fn done_with_order(self) -> (Value, KeyOrder) {
        (self.0, KeyOrder::from_entries(self.1))
    }

    /// Takes in the property orders of `child`, which sits at `at` (a JSON Pointer relative to
    /// this schema), and hands back its value.
    fn adopt(&mut self, at: &str, child: S) -> Value {
        for (pointer, names) in child.1 {
            self.1.insert(format!("{at}{pointer}"), names);
        }
        child.0
    }

    /// The schema with `key` set to `child`.
    fn with_schema(mut self, key: &str, child: S) -> S {
        let value = self.adopt(&format!("/{}", pointer_segment(key)), child);
        self.with(key, value)
    }

    /// The schema with `key` set to the list of `parts`.
    fn with_list(mut self, key: &str, parts: Vec<S>) -> S {
        let at = format!("/{}", pointer_segment(key));
        let items = parts
            .into_iter()
            .enumerate()
            .map(|(i, part)| self.adopt(&format!("{at}/{i}"), part))
            .collect();
        self.with(key, Value::Array(items))
    }

    /// Member `name` of object `group`, set to `child`.
    fn member_schema(mut self, group: &str, name: &str, child: S) -> S {
        let at = format!("/{}/{}", pointer_segment(group), pointer_segment(name));
        let value = self.adopt(&at, child);
        if let Some(members) = self.member(group) {
            members.insert(name.to_owned(), value);
        }
        self
    }

    /// The schema with `key` set to `value`.
    fn with(mut self, key: &str, value: Value) -> S {
        if let Value::Object(map) = &mut self.0 {
            map.insert(key.to_owned(), value);
        }
        self
    }

    /// The object at `key`, made when missing.
    fn member(&mut self, key: &str) -> Option<&mut Map<String, Value>> {
        let Value::Object(map) = &mut self.0 else {
            return None;
        };
        map.entry(key)
            .or_insert_with(|| Value::Object(Map::new()))
            .as_object_mut()
    }

    /// `properties.<name>`: the schema of member `name`.
    pub(super) fn prop(mut self, name: &str, schema: S) -> S {
        let names = self.1.entry("/properties".to_owned()).or_default();
        if !names.iter().any(|n| n == name) {
            names.push(name.to_owned());
        }
        self.member_schema("properties", name, schema)
    }

    /// `patternProperties.<pattern>`.
    pub(super) fn pattern_prop(self, pattern: &str, schema: S) -> S {
        self.member_schema("patternProperties", pattern, schema)
    }

    /// `$defs.<name>`.
    pub(super) fn def(self, name: &str, schema: S) -> S {
        self.member_schema("$defs", name, schema)
    }

    /// `<group>.<name>` for a catalog's `components` and `functions`, and v0.8's `styles`.
    pub(super) fn entry(self, group: &str, name: &str, schema: S) -> S {
        self.member_schema(group, name, schema)
    }

    /// `required`: the members that must be there, in the order written.
    pub(super) fn required(self, names: &[&str]) -> S {
        self.with("required", strings(names))
    }

    /// `additionalProperties: false`: no member but those listed.
    pub(super) fn closed(self) -> S {
        self.with("additionalProperties", Value::Bool(false))
    }

    /// `additionalProperties: true`.
    pub(super) fn open(self) -> S {
        self.with("additionalProperties", Value::Bool(true))
    }

    /// `additionalProperties`: the schema of every member not listed.
    pub(super) fn others(self, schema: S) -> S {
        self.with_schema("additionalProperties", schema)
    }

    /// `unevaluatedProperties: false`: no member that no part of the schema looked at.
    pub(super) fn sealed(self) -> S {
        self.with("unevaluatedProperties", Value::Bool(false))
    }

    /// `propertyNames`.
    pub(super) fn names(self, schema: S) -> S {
        self.with_schema("propertyNames", schema)
    }

    /// `items`.
    pub(super) fn items(self, schema: S) -> S {
        self.with_schema("items", schema)
    }

    /// `minItems`.
    pub(super) fn min_items(self, n: u64) -> S {
        self.with("minItems", Value::from(n))
    }

    /// `enum` of strings.
    pub(super) fn one_of_strings(self, options: &[&str]) -> S {
        self.with("enum", strings(options))
    }

    /// `default`.
    pub(super) fn default(self, value: impl Into<Value>) -> S {
        self.with("default", value.into())
    }

    /// `pattern`: a regular expression the string matches.
    pub(super) fn pattern(self, regex: &str) -> S {
        self.with("pattern", Value::from(regex))
    }

    /// `format`.
    pub(super) fn format(self, name: &str) -> S {
        self.with("format", Value::from(name))
    }

    /// `minimum`.
    pub(super) fn minimum(self, n: impl Into<Value>) -> S {
        self.with("minimum", n.into())
    }

    /// `allOf`.
    pub(super) fn all(self, parts: Vec<S>) -> S {
        self.with_list("allOf", parts)
    }

    /// `oneOf`.
    pub(super) fn one(self, parts: Vec<S>) -> S {
        self.with_list("oneOf", parts)
    }

    /// `anyOf`.
    pub(super) fn any(self, parts: Vec<S>) -> S {
        self.with_list("anyOf", parts)
    }

    /// `not`.
    pub(super) fn not(self, schema: S) -> S {
        self.with_schema("not", schema)
    }

    /// `if` .. `then`.
    pub(super) fn if_then(self, condition: S, then: S) -> S {
        self.with_schema("if", condition).with_schema("then", then)
    }

    /// `const`.
    pub(super) fn constant(self, value: impl Into<Value>) -> S {
        self.with("const", value.into())
    }

    /// `$ref`, beside other keywords.
    pub(super) fn refer(self, target: &str) -> S {
        self.with("$ref", Value::from(target))
    }

    /// `discriminator`: the member that names which branch of a union applies (read by code
    /// generators, not by the validator).
    pub(super) fn discriminator(self, member: &str) -> S {
        let mut by = Map::new();
        by.insert("propertyName".to_owned(), Value::from(member));
        self.with("discriminator", Value::Object(by))
    }

    /// `allowedParents`: the component types a component may sit in.
    pub(super) fn allowed_parents(self, types: &[&str]) -> S {
        self.with("allowedParents", strings(types))
    }

    /// A keyword the validator does not read but the catalog states: a function's
    /// `returnType`, a component's `allowedParents`, a union's `discriminator`, a catalog's
    /// `$id`, `$schema`, `catalogId` and `protocolVersion`.
    pub(super) fn fact(self, key: &str, value: impl Into<Value>) -> S {
        self.with(key, value.into())
    }
}

fn strings(items: &[&str]) -> Value {
    Value::Array(items.iter().map(|s| Value::from(*s)).collect())
}

/// `{}`: anything.
pub(super) fn any() -> S {
    S(Value::Object(Map::new()), BTreeMap::new())
}

fn typed(name: &str) -> S {
    any().with("type", Value::from(name))
}

/// `{"type": "object"}`.
pub(super) fn object() -> S {
    typed("object")
}

/// `{"type": "string"}`.
pub(super) fn string() -> S {
    typed("string")
}

/// `{"type": "number"}`.
pub(super) fn number() -> S {
    typed("number")
}

/// `{"type": "integer"}`.
pub(super) fn integer() -> S {
    typed("integer")
}

/// `{"type": "boolean"}`.
pub(super) fn boolean() -> S {
    typed("boolean")
}

/// `{"type": "array"}`.
pub(super) fn array() -> S {
    typed("array")
}

/// `{"type": "array", "items": item}`.
pub(super) fn list_of(item: S) -> S {
    array().items(item)
}

/// `{"type": "string", "enum": options}`.
pub(super) fn string_enum(options: &[&str]) -> S {
    string().one_of_strings(options)
}

/// `{"const": value}`.
pub(super) fn constant(value: impl Into<Value>) -> S {
    any().constant(value)
}

/// `{"$ref": target}`.
pub(super) fn r(target: &str) -> S {
    any().refer(target)
}

/// A definition of the same document, by name: `{"$ref": "#/$defs/<name>"}`.
pub(super) fn local(name: &str) -> S {
    r(&format!("#/$defs/{name}"))
}

/// `{"allOf": parts}`.
pub(super) fn all_of(parts: Vec<S>) -> S {
    any().all(parts)
}

/// `{"oneOf": parts}`.
pub(super) fn one_of(parts: Vec<S>) -> S {
    any().one(parts)
}

/// `{"anyOf": parts}`.
pub(super) fn any_of(parts: Vec<S>) -> S {
    any().any(parts)
}

/// `{"not": schema}`.
pub(super) fn not(schema: S) -> S {
    any().not(schema)
}

/// `{"required": names}` alone, as a branch of a combinator.
pub(super) fn requires(names: &[&str]) -> S {
    any().required(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keywords_land_where_json_schema_puts_them() {
        let s = object()
            .prop("text", r("#/$defs/Text"))
            .prop("variant", string_enum(&["a", "b"]).default("a"))
            .required(&["text"])
            .closed();
        assert_eq!(
            s.done(),
            json!({"type": "object", "properties": {
                "text": {"$ref": "#/$defs/Text"},
                "variant": {"type": "string", "enum": ["a", "b"], "default": "a"}},
                "required": ["text"], "additionalProperties": false})
        );
        assert_eq!(
            one_of(vec![list_of(string()), requires(&["x"])]).done(),
            json!({"oneOf": [{"type": "array", "items": {"type": "string"}}, {"required": ["x"]}]})
        );
    }
}
