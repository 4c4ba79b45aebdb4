//! The catalogs built into the crate (`Catalog::builtin`) against the official files they were
//! written from, read at run time from `../shared` (or `$A2UI_SHARED`):
//!
//! * the three schemas of each version are the official ones keyword for keyword, the prose
//!   (`description`, `title`, `$comment`, `examples`, `instructions`) left out;
//! * every component has the same facts: its properties, each property's type, enum, constant,
//!   reference and default, which properties are required, and which refer to other components;
//! * the restaurant-finder examples, the specification's catalog examples and the suites'
//!   messages, with variants made to fail, get the same verdicts from both, in the same words
//!   and details, strict and with strict validation removed.
#![cfg(feature = "official")]

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::validator::Validator;
use serde_json::{Map, Value, json};

const PROSE: [&str; 5] = [
    "description",
    "title",
    "$comment",
    "examples",
    "instructions",
];
/// Keywords whose value is a map of schemas.
const SCHEMA_MAPS: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "components",
    "functions",
    "styles",
];
/// Keywords whose value is a schema.
const SCHEMA_SLOTS: [&str; 9] = [
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "contains",
];
/// Keywords whose value is a list of schemas.
const SCHEMA_LISTS: [&str; 3] = ["allOf", "anyOf", "oneOf"];

/// `schema` without its prose: annotations are dropped where a schema is, never a member named
/// `description` or `title` in a `properties` map.
fn without_prose(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (k, v) in map {
        if PROSE.contains(&k.as_str()) {
            continue;
        }
        let v = match v {
            Value::Object(entries) if SCHEMA_MAPS.contains(&k.as_str()) => Value::Object(
                entries
                    .iter()
                    .map(|(name, s)| (name.clone(), without_prose(s)))
                    .collect(),
            ),
            Value::Array(items) if SCHEMA_LISTS.contains(&k.as_str()) => {
                Value::Array(items.iter().map(without_prose).collect())
            }
            _ if SCHEMA_SLOTS.contains(&k.as_str()) => without_prose(v),
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    Value::Object(out)
}

/// Where `a` and `b` first differ, as a JSON Pointer, with both values there.
fn first_difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for key in x.keys().chain(y.keys()) {
                let here = format!("{at}/{key}");
                match (x.get(key), y.get(key)) {
                    (Some(p), Some(q)) => {
                        if let Some(d) = first_difference(p, q, &here) {
                            return Some(d);
                        }
                    }
                    (p, q) => return Some(format!("{here}: {p:?} / {q:?}")),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, &format!("{at}/{i}"))),
        _ if a == b => None,
        _ => Some(format!("{at}: {a} / {b}")),
    }
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// The official basic catalog of `version`, as the files hold it.
fn official(shared: &Path, version: Version) -> Catalog {
    match version {
        Version::V10 => {
            let dir = shared.join("a2ui-v1/sdk-derived/v1_0");
            Catalog::new(
                Version::V10,
                read(&dir.join("agent_to_renderer.json")),
                read(&dir.join("basic_catalog.json")),
                read(&dir.join("common_types.json")),
            )
        }
        other => Catalog::basic(&shared.join("a2ui/spec"), other).unwrap(),
    }
}

fn shared_or_skip() -> Option<PathBuf> {
    let shared = support::shared_root().filter(|s| s.join("a2ui-v1/sdk-derived").is_dir());
    if shared.is_none() {
        support::say("skipping: ../shared/a2ui and ../shared/a2ui-v1 not found");
    }
    shared
}

const VERSIONS: [Version; 3] = [Version::V08, Version::V09, Version::V10];

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn schemas_are_the_official_ones_without_their_prose() {
    let Some(shared) = shared_or_skip() else {
        return;
    };
    for version in VERSIONS {
        let (ours, theirs) = (Catalog::builtin(version), official(&shared, version));
        let pairs = [
            ("message schema", ours.s2c_schema(), theirs.s2c_schema()),
            ("catalog", ours.catalog_schema(), theirs.catalog_schema()),
            (
                "common types",
                ours.common_types_schema(),
                theirs.common_types_schema(),
            ),
        ];
        for (what, ours, theirs) in pairs {
            let theirs = without_prose(theirs);
            assert!(
                *ours == theirs,
                "{version:?} {what}: {}",
                first_difference(ours, &theirs, "").unwrap_or_default()
            );
        }
        // The check is not empty: the files do hold prose, and the catalog components.
        assert_ne!(
            *theirs.catalog_schema(),
            without_prose(theirs.catalog_schema())
        );
        assert!(ours.component_names().count() >= 18);
    }
}

/// What a catalog says about one property of one component.
#[derive(Debug, PartialEq)]
struct PropertyFact {
    schema: Value,
    required: bool,
    refers: Option<&'static str>,
}

/// The properties of a component schema, through `allOf` / `oneOf` / `anyOf`.
fn properties(schema: &Value, out: &mut BTreeMap<String, Value>) {
    if let Some(Value::Object(props)) = schema.get("properties") {
        for (name, s) in props {
            out.insert(name.clone(), without_prose(s));
        }
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        for sub in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            properties(sub, out);
        }
    }
}

fn facts(catalog: &Catalog) -> BTreeMap<(String, String), PropertyFact> {
    let mut out = BTreeMap::new();
    for name in catalog.component_names() {
        let info = catalog.component(name).unwrap();
        let mut props = BTreeMap::new();
        properties(&info.schema, &mut props);
        assert!(
            !props.is_empty() || name == "Divider",
            "{name} has no properties"
        );
        for (prop, schema) in props {
            let fact = PropertyFact {
                schema,
                required: info.required.contains(&prop),
                refers: if info.single_refs.contains(&prop) {
                    Some("single")
                } else if info.list_refs.contains(&prop) {
                    Some("list")
                } else {
                    None
                },
            };
            out.insert((name.to_owned(), prop), fact);
        }
    }
    out
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn component_facts_are_the_official_ones() {
    let Some(shared) = shared_or_skip() else {
        return;
    };
    for version in VERSIONS {
        let (ours, theirs) = (Catalog::builtin(version), official(&shared, version));
        let names: Vec<&str> = ours.component_names().collect();
        assert_eq!(
            names,
            theirs.component_names().collect::<Vec<_>>(),
            "{version:?}"
        );
        for name in &names {
            let (a, b) = (
                ours.component(name).unwrap(),
                theirs.component(name).unwrap(),
            );
            assert_eq!(a.single_refs, b.single_refs, "{version:?} {name}");
            assert_eq!(a.list_refs, b.list_refs, "{version:?} {name}");
            assert_eq!(a.required, b.required, "{version:?} {name}");
            assert_eq!(a.schema, without_prose(&b.schema), "{version:?} {name}");
        }
        let (ours, theirs) = (facts(&ours), facts(&theirs));
        assert_eq!(ours.len(), theirs.len(), "{version:?}");
        for (key, fact) in &theirs {
            assert_eq!(ours.get(key), Some(fact), "{version:?} {key:?}");
        }
        // Every kind of fact is there to compare.
        assert!(theirs.values().any(|f| f.required));
        assert!(theirs.values().any(|f| f.refers == Some("single")));
        assert!(theirs.values().any(|f| f.refers == Some("list")));
        assert!(
            theirs
                .values()
                .any(|f| f.schema.to_string().contains("\"enum\""))
        );
    }
}

/// Every message list to compare verdicts on, by version.
fn message_lists(shared: &Path) -> Vec<(Version, String, Value)> {
    let mut out = Vec::new();
    let mut add = |version: Version, name: String, messages: Value| {
        let messages = match messages {
            Value::Object(mut doc) if doc.contains_key("messages") => {
                doc.remove("messages").unwrap_or_default()
            }
            other => other,
        };
        out.push((version, name, messages));
    };
    let examples = shared.join("a2ui/restaurant_finder/examples");
    for (version, dir) in [(Version::V08, "0.8"), (Version::V09, "0.9")] {
        for file in json_files(&examples.join(dir)) {
            add(version, file.display().to_string(), read(&file));
        }
    }
    let v1 = shared.join("a2ui-v1");
    for file in json_files(&v1.join("samples/agent/adk/restaurant_finder/examples/1.0")) {
        add(Version::V10, file.display().to_string(), read(&file));
    }
    for file in json_files(&shared.join("a2ui/spec/v0_9/catalogs/basic/examples")) {
        add(Version::V09, file.display().to_string(), read(&file));
    }
    for file in json_files(&v1.join("specification/v1_0/catalogs/basic/examples")) {
        add(Version::V10, file.display().to_string(), read(&file));
    }
    let suite = |path: &Path| -> Vec<Value> {
        let text = std::fs::read_to_string(path).unwrap();
        match serde_norway::from_str::<Value>(&text).unwrap() {
            Value::Array(cases) => cases,
            _ => panic!("{} is not a list of cases", path.display()),
        }
    };
    for case in suite(&shared.join("a2ui/conformance/suites/validator.yaml")) {
        let version = case
            .pointer("/catalog/version")
            .and_then(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .or(v.as_f64().map(|f| f.to_string()))
            })
            .and_then(|v| Version::parse(&v))
            .unwrap_or(Version::V09);
        for step in case
            .get("steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(payload) = step.get("payload") {
                add(
                    version,
                    format!("validator.yaml {}", case["name"]),
                    payload.clone(),
                );
            }
        }
    }
    for case in suite(&v1.join("conformance/core/validator_v1_0.yaml")) {
        let version = case
            .get("protocolVersion")
            .and_then(Value::as_str)
            .and_then(Version::parse)
            .unwrap_or(Version::V09);
        for step in case
            .get("steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(messages) = step.get("messages") {
                add(
                    version,
                    format!("validator_v1_0.yaml {}", case["name"]),
                    messages.clone(),
                );
            }
        }
    }
    out
}

/// The first component of the first component update of `messages`.
fn first_component(version: Version, messages: &mut Value) -> Option<&mut Value> {
    let key = match version {
        Version::V08 => "surfaceUpdate",
        _ => "updateComponents",
    };
    messages
        .as_array_mut()?
        .iter_mut()
        .find_map(|msg| msg.get_mut(key)?.get_mut("components")?.get_mut(0))
}

/// `messages` with a fault put in: the first component's type unknown, a member no schema
/// lists, the first surface id a number.
fn broken(version: Version, messages: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut unknown = messages.clone();
    if let Some(c) = first_component(version, &mut unknown) {
        c["component"] = match version {
            Version::V08 => json!({"Marquee": {}}),
            _ => json!("Marquee"),
        };
        out.push(unknown);
    }
    let mut extra = messages.clone();
    if let Some(c) = first_component(version, &mut extra) {
        match (version, c.get_mut("component")) {
            (Version::V08, Some(Value::Object(typed))) => {
                if let Some(Value::Object(props)) = typed.values_mut().next() {
                    props.insert("blink".to_owned(), json!(true));
                }
            }
            _ => c["blink"] = json!(true),
        }
        out.push(extra);
    }
    let mut numbered = messages.clone();
    let body = numbered
        .as_array_mut()
        .and_then(|l| l.first_mut())
        .and_then(Value::as_object_mut)
        .and_then(|m| m.values_mut().find(|v| v.is_object()));
    if let Some(body) = body {
        body["surfaceId"] = json!(7);
        out.push(numbered);
    }
    out
}

/// A verdict as a comparable value: passed, or the rule, words and details of the error.
fn verdict(validator: &Validator, messages: &Value) -> Result<(), String> {
    validator.validate(messages).map_err(|e| {
        let details: Vec<String> = e.details().iter().map(ToString::to_string).collect();
        format!(
            "{:?} {:?} {:?} {details:?}",
            e.kind(),
            e.message(),
            e.component()
        )
    })
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn examples_and_suite_messages_get_the_same_verdicts() {
    let Some(shared) = shared_or_skip() else {
        return;
    };
    let lists = message_lists(&shared);
    let mut tally: BTreeMap<Version, (usize, usize)> = BTreeMap::new();
    for version in VERSIONS {
        let (ours, theirs) = (Catalog::builtin(version), official(&shared, version));
        let validators = [
            (ours.validator().unwrap(), theirs.validator().unwrap()),
            (
                Validator::new(&ours.without_strict_validation())
                    .unwrap()
                    .into(),
                Validator::new(&theirs.without_strict_validation())
                    .unwrap()
                    .into(),
            ),
        ];
        for (_, name, messages) in lists.iter().filter(|(v, _, _)| *v == version) {
            let mut variants = vec![messages.clone()];
            variants.extend(broken(version, messages));
            for variant in &variants {
                for (ours, theirs) in &validators {
                    let (a, b) = (verdict(ours, variant), verdict(theirs, variant));
                    assert_eq!(a, b, "{version:?} {name}: {variant}");
                    let counts = tally.entry(version).or_default();
                    if a.is_ok() {
                        counts.0 += 1;
                    } else {
                        counts.1 += 1;
                    }
                }
            }
        }
    }
    for (version, (passed, failed)) in &tally {
        support::say(&format!(
            "builtin {version:?}: the same verdicts as the official files on {} inputs ({passed} accepted, {failed} rejected)",
            passed + failed
        ));
        assert!(
            *passed > 0 && *failed > 0,
            "{version:?}: {passed} passed, {failed} failed"
        );
    }
    assert_eq!(tally.len(), 3);
}
