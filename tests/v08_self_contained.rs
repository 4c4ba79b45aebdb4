//! v0.8 updates over AG-UI define every id they reference, in the same message, and a component
//! once shown is never replaced by a stand-in; what a renderer (the library's
//! `renderer::RendererState`) ends with is the components as written.

use a2ui_stream::agui::events::{Event, PatchOp};
use a2ui_stream::agui::{A2uiActivities, SelfContained};
use a2ui_stream::renderer::{Component, RendererState};
use a2ui_stream::{Config, Event as SplitEvent, Splitter};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::collections::HashSet;

/// The ids a v0.8 component references, as the v0.8 standard catalog (and web_core's check)
/// makes them.
fn references(c: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for props in c["component"]
        .as_object()
        .into_iter()
        .flat_map(|m| m.values())
    {
        for id in props["children"]["explicitList"]
            .as_array()
            .into_iter()
            .flatten()
        {
            out.extend(id.as_str().map(str::to_owned));
        }
        out.extend(
            props["children"]["template"]["componentId"]
                .as_str()
                .map(str::to_owned),
        );
        for key in ["child", "entryPointChild", "contentChild"] {
            out.extend(props[key].as_str().map(str::to_owned));
        }
        for tab in props["tabItems"].as_array().into_iter().flatten() {
            out.extend(tab["child"].as_str().map(str::to_owned));
        }
    }
    out
}

fn is_stand_in(c: &Value) -> bool {
    c["component"] == json!({"Column": {"children": {"explicitList": []}}})
}

/// A component of id `i` naming the children given, in one of the catalog's reference forms.
fn component(i: usize, children: &[usize], form: usize) -> Value {
    let id = |k: &usize| format!("c{k}");
    let props = match (form % 5, children) {
        (_, []) => json!({"Text": {"text": {"literalString": format!("t{i}")}}}),
        (0, _) => {
            json!({"Column": {"children": {"explicitList": children.iter().map(id).collect::<Vec<_>>()}}})
        }
        (1, [c, ..]) => json!({"Card": {"child": id(c)}}),
        (2, [c, ..]) => {
            json!({"List": {"children": {"template": {"componentId": id(c), "dataBinding": "/items"}}}})
        }
        (3, [a, rest @ ..]) => {
            json!({"Modal": {"entryPointChild": id(a), "contentChild": id(rest.first().unwrap_or(a))}})
        }
        (_, _) => {
            json!({"Tabs": {"tabItems": children.iter().map(|c| json!({"title": {"literalString": "x"}, "child": id(c)})).collect::<Vec<_>>()}})
        }
    };
    json!({"id": format!("c{i}"), "component": props})
}

/// A tree of `n` components (each names later ones as children), in an order to write them.
fn tree() -> impl Strategy<Value = (Vec<Value>, Vec<usize>)> {
    (2usize..14).prop_flat_map(|n| {
        let parents = prop::collection::vec(any::<prop::sample::Index>(), n - 1);
        let forms = prop::collection::vec(0usize..5, n);
        let order = Just((0..n).collect::<Vec<_>>()).prop_shuffle();
        let top_down = any::<bool>();
        (parents, forms, order, top_down).prop_map(move |(parents, forms, order, top_down)| {
            let mut children = vec![Vec::new(); n];
            for (k, p) in parents.iter().enumerate() {
                children[p.index(k + 1)].push(k + 1);
            }
            let comps = (0..n)
                .map(|i| component(i, &children[i], forms[i]))
                .collect();
            let order = if top_down { (0..n).collect() } else { order };
            (comps, order)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn every_update_defines_what_it_references((comps, order) in tree(), rewrite in any::<prop::sample::Index>()) {
        let mut updates = SelfContained::new();
        let mut renderer = RendererState::new();
        // Each component alone, in the order written, then one rewritten (sent again).
        let mut sends: Vec<&Value> = order.iter().map(|&i| &comps[i]).collect();
        sends.push(&comps[rewrite.index(comps.len())]);
        for c in sends {
            let msg = json!({"surfaceUpdate": {"surfaceId": "s", "components": [c]}});
            let out = updates.complete(msg);
            let list = out["surfaceUpdate"]["components"].as_array().unwrap();
            prop_assert_eq!(&list[0], c);
            let ids: Vec<&str> = list.iter().map(|c| c["id"].as_str().unwrap()).collect();
            let unique: HashSet<&str> = ids.iter().copied().collect();
            prop_assert_eq!(unique.len(), ids.len(), "a repeated id in {:?}", ids);
            for d in list {
                for r in references(d) {
                    prop_assert!(unique.contains(r.as_str()), "{} names {} not in {:?}", d["id"], r, ids);
                }
                let id = d["id"].as_str().unwrap();
                let shown = renderer.surface("s").and_then(|s| s.component(id));
                if is_stand_in(d) {
                    prop_assert!(shown.is_none_or(|c| is_stand_in(c.as_value())), "{} shown, then replaced by a stand-in", id);
                }
            }
            let applied = renderer.apply(&out);
            prop_assert!(applied.is_ok(), "{:?}", applied);
        }
        // The renderer ends with every component as written.
        let surface = renderer.surface("s").unwrap();
        for c in &comps {
            prop_assert_eq!(surface.component(c["id"].as_str().unwrap()).map(Component::as_value), Some(c));
        }
    }
}

#[test]
fn the_restaurant_list_streamed_top_down_is_accepted_message_by_message() {
    // Components written top-down, split one by one by the splitter, mapped to activities.
    let comps = [
        json!({"id": "root", "component": {"Column": {"children": {"explicitList": ["title", "list"]}}}}),
        json!({"id": "title", "component": {"Text": {"text": {"path": "/title"}}}}),
        json!({"id": "list", "component": {"List": {"children": {"template": {"componentId": "card", "dataBinding": "/items"}}}}}),
        json!({"id": "card", "component": {"Card": {"child": "name"}}}),
        json!({"id": "name", "component": {"Text": {"text": {"path": "name"}}}}),
    ];
    let input = json!({"surfaceUpdate": {"surfaceId": "s", "components": comps}}).to_string();
    let mut splitter = Splitter::with_config(Config::bare());
    let mut surfaces = A2uiActivities::new("run");
    let mut renderer = RendererState::new();
    let mut sent = Vec::new();
    for ev in splitter.feed(input.as_bytes()) {
        let SplitEvent::Message(m) = ev.unwrap() else {
            panic!()
        };
        let value = match surfaces.push(&m).unwrap() {
            Event::ActivitySnapshot(s) => s.content["a2ui_operations"][0].clone(),
            Event::ActivityDelta(d) => match &d.patch[0] {
                PatchOp::Add { value, .. } => value.clone(),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        };
        let ids: Vec<String> = value["surfaceUpdate"]["components"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_owned())
            .collect();
        sent.push(ids.join(","));
        renderer.apply(&value).unwrap();
    }
    // Each names its children, first as stand-ins; a child's own message needs nothing more.
    assert_eq!(
        sent,
        ["root,title,list", "title", "list,card", "card,name", "name"]
    );
    // The renderer ends with the components as written.
    let held: Vec<&Value> = renderer
        .surface("s")
        .unwrap()
        .components()
        .map(Component::as_value)
        .collect();
    let mut written: Vec<&Value> = comps.iter().collect();
    written.sort_by_key(|c| c["id"].as_str());
    assert_eq!(held, written);
}
