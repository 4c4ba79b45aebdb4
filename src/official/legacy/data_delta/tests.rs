use super::*;
use crate::MessageKind;
use crate::official::legacy::partial_json::{CUTTABLE_KEYS, Step};
use serde_json::json;

fn feed(p: &mut PartialJson, s: &str) {
    for c in s.chars() {
        if !p.in_list() {
            if c == '[' {
                p.open_list();
            }
            continue;
        }
        let _: Step = p.feed(c, |_| false);
    }
}

fn heal(k: &str, _: &str, _: &Map<String, Value>) -> bool {
    CUTTABLE_KEYS.contains(&k)
}

fn walk(p: &mut PartialJson, emitted: &mut Map<String, Value>, entries: bool) -> Vec<String> {
    let mut w = Walk {
        emitted,
        changes: Vec::new(),
        heal,
        want_entries: true,
        keep_changes: true,
        changed: 0,
        cut: None,
    };
    if entries {
        w.message(p, MessageKind::DataModelUpdate.key(), "contents", true);
    } else {
        w.message(p, MessageKind::UpdateDataModel.key(), "value", false);
    }
    w.changes.iter().map(|c| pointer(None, &c.path)).collect()
}

#[test]
fn v08_changes_are_found_where_they_happen() {
    let mut p = PartialJson::default();
    let mut e = Map::new();
    feed(
        &mut p,
        r#"[{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "title", "valueString": "Hi"}, {"key": "items", "valueMap": ["#,
    );
    assert_eq!(walk(&mut p, &mut e, true), ["/title", "/items"]);
    assert_eq!(e, *json!({"title": "Hi", "items": {}}).as_object().unwrap());
    feed(
        &mut p,
        r#"{"key": "a", "valueMap": [{"key": "text", "valueString": "Qu"#,
    );
    assert_eq!(walk(&mut p, &mut e, true), ["/items/a"]);
    feed(&mut p, "ick");
    assert_eq!(walk(&mut p, &mut e, true), ["/items/a/text"]);
    assert_eq!(e["items"], json!({"a": {"text": "Quick"}}));
    // Nothing visible: a key being written.
    feed(&mut p, r#""}, {"key": "ra"#);
    assert!(walk(&mut p, &mut e, true).is_empty());
    feed(&mut p, r#"ting", "valueNumber": 4}"#);
    assert_eq!(walk(&mut p, &mut e, true), ["/items/a/rating"]);
}

/// A walk that only counts changes finds as many as one that keeps them, and leaves the
/// same emitted tree, wherever the text is cut (the update still open, as while it is
/// written).
#[test]
fn counting_changes_finds_what_keeping_them_finds() {
    let text = r#"[{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "title", "valueString": "Booking at Ro"}, {"key": "items", "valueMap": [{"key": "a", "valueMap": [{"key": "text", "valueString": "Quick"}, {"key": "n", "valueNumber": 4}]}]}, {"key": "title", "valueString": "Booking at Ro"}, {"key": "title", "valueString": "Other"}"#;
    for cut in 1..text.len() {
        let (mut kept, mut counted) = (PartialJson::default(), PartialJson::default());
        let (mut kept_tree, mut counted_tree) = (Map::new(), Map::new());
        for piece in [&text[..cut], &text[cut..]] {
            feed(&mut kept, piece);
            feed(&mut counted, piece);
            let mut w = Walk {
                emitted: &mut kept_tree,
                changes: Vec::new(),
                heal,
                want_entries: false,
                keep_changes: true,
                changed: 0,
                cut: None,
            };
            w.message(&mut kept, "dataModelUpdate", "contents", true);
            let kept_changes = w.changes.len();
            assert_eq!(w.changed, kept_changes, "cut at {cut}");
            let mut w = Walk {
                emitted: &mut counted_tree,
                changes: Vec::new(),
                heal,
                want_entries: false,
                keep_changes: false,
                changed: 0,
                cut: None,
            };
            w.message(&mut counted, "dataModelUpdate", "contents", true);
            assert!(w.changes.is_empty());
            assert_eq!(w.changed, kept_changes, "cut at {cut}");
            assert_eq!(kept_tree, counted_tree, "cut at {cut}");
        }
        assert_eq!(counted_tree["title"], "Other");
        assert_eq!(
            counted_tree["items"],
            json!({"a": {"text": "Quick", "n": 4}})
        );
    }
}

#[test]
fn v08_a_new_map_replaces_a_larger_one() {
    let mut p = PartialJson::default();
    let mut e = json!({"items": {"a": {"n": 1}}})
        .as_object()
        .unwrap()
        .clone();
    feed(
        &mut p,
        r#"[{"dataModelUpdate": {"contents": [{"key": "items", "valueMap": ["#,
    );
    assert_eq!(walk(&mut p, &mut e, true), ["/items"]);
    assert_eq!(e["items"], json!({}));
}

#[test]
fn v09_changes_are_found_where_they_happen() {
    let mut p = PartialJson::default();
    let mut e = Map::new();
    feed(
        &mut p,
        r#"[{"updateDataModel": {"surfaceId": "s", "value": {"title": "T", "items": [{"text": "a"#,
    );
    assert_eq!(walk(&mut p, &mut e, false), ["/title", "/items"]);
    feed(&mut p, r#"b"}, {"name": "x""#);
    assert_eq!(walk(&mut p, &mut e, false), ["/items/0", "/items/1"]);
    assert_eq!(e["items"], json!([{"text": "ab"}, {"name": "x"}]));
    // The payload finishes while its message is still open: its data is compared once,
    // whole, by top-level key.
    feed(&mut p, r#", "n": 5}]}}"#);
    assert_eq!(walk(&mut p, &mut e, false), ["/items"]);
    assert_eq!(e["items"], json!([{"text": "ab"}, {"name": "x", "n": 5}]));
    feed(&mut p, "}]");
    assert!(walk(&mut p, &mut e, false).is_empty());
}

#[test]
fn pointers_escape_keys() {
    let path = [
        crate::path::Step::Key("a/b".into()),
        crate::path::Step::Key("c~".into()),
        crate::path::Step::Index(2),
    ];
    assert_eq!(pointer(Some("/"), &path), "/a~1b/c~0/2");
    assert_eq!(pointer(Some("/top"), &path[..1]), "/top/a~1b");
    assert_eq!(pointer(None, &[]), "/");
}
