use super::compile::{components_apart, entries_apart, entry_text_free, refers};
use super::*;
use serde_json::json;

#[test]
fn entry_texts_are_free_only_when_nothing_reads_them() {
    let schema = |entry: Value| {
        json!({"type": "object", "properties": {"dataModelUpdate": {"type": "object",
            "properties": {"contents": {"type": "array", "items": entry}}}}})
    };
    let entry = |text: Value| {
        json!({"type": "object", "required": ["key"], "additionalProperties": false,
            "description": "an entry",
            "properties": {"key": {"type": "string"}, "valueString": text}})
    };
    assert!(entry_text_free(&schema(entry(json!({"type": "string"})))));
    assert!(entry_text_free(&schema(entry(
        json!({"type": "string", "description": "any text"})
    ))));
    for text in [
        json!({"type": "string", "maxLength": 9}),
        json!({"type": "string", "pattern": "^a"}),
        json!({"type": "string", "enum": ["a"]}),
        json!({"type": "string", "format": "uri"}),
        json!({"type": ["string", "null"]}),
        json!({"$ref": "#/$defs/text"}),
        json!({}),
    ] {
        assert!(!entry_text_free(&schema(entry(text.clone()))), "{text}");
    }
    let mut named = entry(json!({"type": "string"}));
    named["oneOf"] = json!([{"required": ["valueString"]}]);
    assert!(!entry_text_free(&schema(named)));
    let mut patterned = entry(json!({"type": "string"}));
    patterned["patternProperties"] = json!({"^value": {"maxLength": 3}});
    assert!(!entry_text_free(&schema(patterned)));
    let mut unlisted = entry(json!({"type": "string"}));
    unlisted["properties"]
        .as_object_mut()
        .map(|p| p.remove("valueString"));
    assert!(!entry_text_free(&schema(unlisted)));
}

/// A v0.8 message schema with only the update `update`, its list `list` of schema `schema`,
/// and `root_extra` beside the root's properties.
fn message_with_list(
    update: &str,
    list: &str,
    schema: Value,
    root_extra: Option<(&str, Value)>,
) -> Value {
    let mut root = json!({"type": "object", "additionalProperties": false, "properties": {
        update: {"type": "object", "required": [list], "properties": {
            "surfaceId": {"type": "string"}, list: schema}}}});
    if let (Some((k, v)), Some(map)) = (root_extra, root.as_object_mut()) {
        map.insert(k.to_owned(), v);
    }
    root
}

#[test]
fn entries_are_checked_apart_only_when_no_keyword_sees_the_list_whole() {
    let schema = |contents: Value, root_extra: Option<(&str, Value)>| {
        message_with_list("dataModelUpdate", "contents", contents, root_extra)
    };
    let items = json!({"type": "object", "required": ["key"]});
    assert!(entries_apart(&schema(
        json!({"type": "array", "items": items, "description": "d"}),
        None
    )));
    assert!(!entries_apart(&schema(
        json!({"type": "array", "items": items, "minItems": 1}),
        None
    )));
    assert!(!entries_apart(&schema(
        json!({"type": "array", "items": items, "uniqueItems": true}),
        None
    )));
    assert!(!entries_apart(&schema(
        json!({"$ref": "#/$defs/list"}),
        None
    )));
    assert!(!entries_apart(&schema(
        json!({"type": "array", "items": [items]}),
        None
    )));
    assert!(!entries_apart(&schema(
        json!({"type": "array", "items": items}),
        Some(("oneOf", json!([{}, {}])))
    )));
    assert!(!entries_apart(&json!({"type": "object"})));
}

#[test]
fn components_are_checked_alone_only_when_no_keyword_sees_the_list_whole() {
    let schema = |components: Value, root_extra: Option<(&str, Value)>| {
        message_with_list("surfaceUpdate", "components", components, root_extra)
    };
    let items = json!({"type": "object", "required": ["id"]});
    for list in [
        json!({"type": "array", "items": items, "description": "d"}),
        json!({"type": "array", "items": items, "minItems": 1}),
        json!({"type": "array", "items": true}),
    ] {
        assert!(components_apart(&schema(list.clone(), None)), "{list}");
    }
    for list in [
        json!({"type": "array", "items": items, "minItems": 2}),
        json!({"type": "array", "items": items, "maxItems": 1}),
        json!({"type": "array", "items": items, "uniqueItems": true}),
        json!({"type": "array", "items": [items]}),
        json!({"type": "array"}),
        json!({"$ref": "#/$defs/list"}),
    ] {
        assert!(!components_apart(&schema(list.clone(), None)), "{list}");
    }
    let list = json!({"type": "array", "items": items});
    assert!(!components_apart(&schema(
        list.clone(),
        Some(("anyOf", json!([{}, {}])))
    )));
    assert!(!components_apart(&json!({"type": "object"})));
    assert!(!refers(&schema(list.clone(), None)));
    assert!(refers(&schema(
        json!({"type": "array", "items": {"$ref": "#/$defs/c"}}),
        None
    )));
    assert!(refers(&schema(
        list,
        Some(("$id", json!("https://x/s.json")))
    )));
}

#[cfg(feature = "legacy")]
#[test]
fn components_differing_only_in_free_strings_get_one_verdict() {
    let catalog = Catalog::new(
        Version::V08,
        json!({"type": "object", "properties": {"surfaceUpdate": {"type": "object",
            "required": ["surfaceId", "components"], "properties": {
            "surfaceId": {"type": "string"},
            "components": {"type": "array", "minItems": 1, "items": {"type": "object",
                "required": ["id", "component"], "properties": {
                "id": {"type": "string"},
                "component": {"type": "object", "additionalProperties": true}}}}}}}}),
        json!({"components": {
            "Column": {"type": "object", "properties": {"children": {"type": "array",
                "description": "ids", "items": {"type": "string"}}}},
            "Text": {"type": "object", "properties": {
                "text": {"type": "string"},
                "hint": {"type": "string", "enum": ["h1", "h2"]},
                "path": {"type": "string"},
                "short": {"type": "string", "maxLength": 3}}}}}),
        json!({}),
    );
    let validator = Validator::new(&catalog).expect("compiles");
    let text = |member: &str, s: &str| json!({"id": "t", "component": {"Text": {member: s}}});
    let column = |ids: &[&str]| json!({"id": "c", "component": {"Column": {"children": ids}}});
    let cases = [
        (text("text", "a"), text("text", "a"), Likeness::Same),
        (text("text", "a"), text("text", "ab"), Likeness::Free),
        (text("hint", "h1"), text("hint", "h3"), Likeness::Other),
        (text("path", "/a"), text("path", "/a/~2"), Likeness::Other),
        (text("short", "ab"), text("short", "abcd"), Likeness::Other),
        (text("text", "a"), text("other", "a"), Likeness::Other),
        (column(&["a", "b"]), column(&["a", "x"]), Likeness::Free),
        (column(&["a"]), column(&["a", "b"]), Likeness::Other),
        (
            json!({"id": "t", "component": {"Text": {"text": "a"}}}),
            json!({"id": "u", "component": {"Text": {"text": "b"}}}),
            Likeness::Free,
        ),
        (
            json!({"id": "t", "component": {"Text": {"text": "a"}, "Column": {}}}),
            json!({"id": "t", "component": {"Text": {"text": "b"}, "Column": {}}}),
            Likeness::Free,
        ),
    ];
    let mut frame = CheckFrame::default();
    for (a, b, expected) in cases {
        assert_eq!(validator.likeness(&a, &b), expected, "{a} {b}");
        if expected != Likeness::Other {
            let (_, ok_a) = validator.check_component(&mut frame, "s", a.clone(), false);
            let (_, ok_b) = validator.check_component(&mut frame, "s", b.clone(), false);
            assert_eq!(ok_a, ok_b, "{a} {b}");
        }
    }
    let at = |keys: &[&str]| -> Vec<Slot> {
        keys.iter()
            .map(|k| match *k {
                "[]" => Slot::Last,
                k => Slot::Key(k.to_owned()),
            })
            .collect()
    };
    assert!(validator.free_at(&at(&["component", "Text"]), Some("text")));
    assert!(!validator.free_at(&at(&["component", "Text"]), Some("hint")));
    assert!(!validator.free_at(&at(&["component", "Text"]), Some("path")));
    assert!(!validator.free_at(&at(&["component", "Text"]), Some("unlisted")));
    assert!(validator.free_at(&at(&["component", "Column", "children"]), None));
    assert!(validator.free_at(&[], Some("id")));
    let children = ["children", "text", "hint"];
    assert!(validator.free_under(&column(&["a", "b"]), &children));
    assert!(validator.free_under(&text("text", "a"), &children));
    assert!(!validator.free_under(&text("hint", "h1"), &children));
    assert!(validator.free_under(&text("hint", "h1"), &["children"]));
    // Not known without a plain schema.
    let v09 = Catalog::new(
        Version::V09,
        json!(null),
        json!({"components": {}}),
        json!({}),
    );
    let v09 = Validator::new(&v09).expect("compiles");
    let a = text("text", "a");
    assert_eq!(v09.likeness(&a, &text("text", "b")), Likeness::Other);
    assert_eq!(v09.likeness(&a, &a), Likeness::Same);
    assert!(!v09.free_at(&[], Some("id")));
    assert!(!v09.free_under(&a, &["text"]));
}

#[cfg(feature = "legacy")]
#[test]
fn a_component_checked_alone_gets_the_verdict_it_gets_in_a_message() {
    let catalog = Catalog::new(
        Version::V08,
        json!({"type": "object", "properties": {"surfaceUpdate": {"type": "object",
            "additionalProperties": false, "required": ["surfaceId", "components"], "properties": {
            "surfaceId": {"type": "string", "pattern": "^ok"},
            "components": {"type": "array", "minItems": 1, "items": {"type": "object",
                "additionalProperties": false, "required": ["id", "component"], "properties": {
                "id": {"type": "string"}, "weight": {"type": "number"},
                "component": {"type": "object", "maxProperties": 1}}}}}}}}),
        json!({"components": {}}),
        json!({}),
    );
    let validator = Validator::new(&catalog).expect("compiles");
    assert!(matches!(
        validator.compiled,
        Compiled::V08 {
            component: Some(_),
            ..
        }
    ));
    let comps = [
        json!({"id": "bad", "weight": "heavy", "component": {"Text": {}}}),
        json!({"id": "a", "component": {"Text": {"text": {"literalString": "hi"}}}}),
        json!({"id": "b", "component": {"Text": {}, "Image": {}}}),
        json!({"id": "c"}),
        json!({"id": "d", "component": {"Text": {"text": {"path": "no//good"}}}}),
        json!({"id": "e", "component": {"Column": {"children": {"explicitList": ["e"]}}}}),
        json!({"id": "f", "weight": 2, "component": {"Row": {}}}),
    ];
    // Each surface is met first with a component that fails alone, and met again later.
    for sids in [["ok-1", "bad-1"], ["bad-2", "ok-2"]] {
        let mut frame = CheckFrame::default();
        for round in 0..2 {
            for sid in sids {
                for comp in comps.iter().skip(round) {
                    let message =
                        json!({"surfaceUpdate": {"surfaceId": sid, "components": [comp]}});
                    let whole = validator.validate_with(&message, false).is_ok();
                    let (back, alone) =
                        validator.check_component(&mut frame, sid, comp.clone(), true);
                    assert_eq!(alone, whole, "{comp} on {sid}");
                    assert_eq!(&back, comp);
                }
            }
        }
    }
}

#[cfg(feature = "legacy")]
#[test]
fn an_update_passes_whole_exactly_when_it_passes_empty_and_entry_by_entry() {
    let catalog = Catalog::new(
        Version::V08,
        json!({"type": "object", "properties": {"dataModelUpdate": {"type": "object",
            "additionalProperties": false, "required": ["surfaceId", "contents"], "properties": {
            "surfaceId": {"type": "string"}, "path": {"type": "string"},
            "contents": {"type": "array", "items": {"type": "object", "required": ["key"],
                "properties": {"key": {"type": "string"}, "valueNumber": {"type": "number"}}}}}}}}),
        json!({"components": {}}),
        json!({}),
    );
    let validator = Validator::new(&catalog).expect("compiles");
    assert!(validator.checks_entries_apart());
    let update = |entries: &[Value], path: &str| json!({"dataModelUpdate": {"surfaceId": "s", "path": path, "contents": entries}});
    let good = json!({"key": "a", "valueNumber": 1});
    let bad = json!({"key": "b", "valueNumber": "one"});
    let deep = json!({"key": "c", "valueMap": [{"key": "d", "path": "no//good"}]});
    for path in ["/", "not a path//"] {
        for entries in [
            vec![],
            vec![good.clone()],
            vec![good.clone(), bad.clone()],
            vec![deep.clone()],
        ] {
            let whole = validator
                .validate_with(&update(&entries, path), false)
                .is_ok();
            let apart = validator.validate_with(&update(&[], path), false).is_ok()
                && entries.iter().all(|e| {
                    validator
                        .validate_with(&update(std::slice::from_ref(e), path), false)
                        .is_ok()
                });
            assert_eq!(whole, apart, "{entries:?} at {path}");
        }
    }
}

#[test]
fn repr_matches_python() {
    assert_eq!(py_repr(&json!(1.0)), "1.0");
    assert_eq!(py_repr(&json!(2.5)), "2.5");
    assert_eq!(py_repr(&json!("a\nb")), "'a\\nb'");
    assert_eq!(py_repr(&json!(["x", false])), "['x', False]");
    assert_eq!(
        py_repr(&json!({"a": [1, true, null, "it's"]})),
        r#"{'a': [1, True, None, "it's"]}"#
    );
}

#[test]
fn cycle_without_root_is_found() {
    let catalog = Catalog::new(Version::V08, Value::Null, json!({}), json!({}));
    let comps = [
        json!({"id": "a", "component": {"Card": {"child": "b"}}}),
        json!({"id": "b", "component": {"Card": {"child": "a"}}}),
    ];
    let err = analyze_topology(&catalog, None, &comps, false).unwrap_err();
    assert!(err.message().starts_with("Circular reference detected"));
}

#[test]
fn deep_input_does_not_overflow() {
    let mut deep = json!(1);
    for _ in 0..200 {
        deep = json!([deep]);
    }
    assert!(check_depth_and_paths(&deep).is_err());
}

#[test]
fn v09_unknown_component_and_message() {
    let catalog = Catalog::new(
        Version::V09,
        Value::Null,
        json!({"components": {"Text": {"type": "object"}}}),
        json!({}),
    );
    let v = Validator::new(&catalog).unwrap();
    let err = v
        .validate(
            &json!([{"version": "v0.9", "updateComponents": {"surfaceId": "s",
            "components": [{"id": "x", "component": "Nope"}]}}, {"hello": 1}]),
        )
        .unwrap_err();
    assert_eq!(
        err.message(),
        "Validation failed:\n  - messages[0].updateComponents.components[id='x']: Unknown component: Nope\n  - messages[1]: Unknown message type with keys ['hello']"
    );
}

#[cfg(feature = "legacy")]
#[test]
fn entries_are_checked_apart_until_a_keyword_sees_the_whole_list() {
    let s2c = |contents| {
        json!({"type": "object", "properties": {"dataModelUpdate": {
        "type": "object", "properties": {"contents": contents}}}})
    };
    let items = json!({"type": "object", "required": ["key"]});
    let apart = Catalog::new(
        Version::V08,
        s2c(json!({"type": "array", "items": items})),
        json!({}),
        json!({}),
    );
    assert!(Validator::new(&apart).unwrap().checks_entries_apart());
    let whole = Catalog::new(
        Version::V08,
        s2c(json!({"type": "array", "items": items, "maxItems": 9})),
        json!({}),
        json!({}),
    );
    assert!(!Validator::new(&whole).unwrap().checks_entries_apart());
}

#[cfg(feature = "legacy")]
#[test]
fn an_entry_text_is_free_until_its_schema_tells_texts_apart() {
    let s2c = |text| {
        json!({"type": "object", "properties": {"dataModelUpdate": {
        "type": "object", "properties": {"contents": {"type": "array", "items": {
            "type": "object", "required": ["key"],
            "properties": {"key": {"type": "string"}, "valueString": text}}}}}}})
    };
    let free = Catalog::new(
        Version::V08,
        s2c(json!({"type": "string"})),
        json!({}),
        json!({}),
    );
    assert!(Validator::new(&free).unwrap().entry_text_is_free());
    let short = Catalog::new(
        Version::V08,
        s2c(json!({"type": "string", "maxLength": 9})),
        json!({}),
        json!({}),
    );
    assert!(!Validator::new(&short).unwrap().entry_text_is_free());
}

/// The basic v0.8 catalog takes both short cuts, and the changed catalogs the progressive
/// parser's tests compare it with (`tests/progressive_modes.rs`) take neither or one.
#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[cfg(feature = "legacy")]
#[test]
fn the_basic_v08_catalog_checks_entries_apart_and_texts_freely() {
    let shared = std::env::var_os("A2UI_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let catalog = Catalog::basic(&shared.join("a2ui/spec"), Version::V08).unwrap();
    let basic = Validator::new(&catalog).unwrap();
    assert!(basic.checks_entries_apart() && basic.entry_text_is_free());
    const CONTENTS: &str = "/properties/dataModelUpdate/properties/contents";
    let with = |pointer: &str, name: &str, value: Value| {
        let mut s2c = catalog.s2c_schema().clone();
        let Some(Value::Object(schema)) = s2c.pointer_mut(pointer) else {
            panic!("{pointer} is not in the message schema");
        };
        schema.insert(name.into(), value);
        let changed = Catalog::new(
            Version::V08,
            s2c,
            catalog.catalog_schema().clone(),
            catalog.common_types_schema().clone(),
        );
        Validator::new(&changed).unwrap()
    };
    assert!(!with(CONTENTS, "minItems", json!(0)).checks_entries_apart());
    let text = format!("{CONTENTS}/items/properties/valueString");
    let limited = with(&text, "maxLength", json!(8));
    assert!(limited.checks_entries_apart() && !limited.entry_text_is_free());
}
