//! The direct-JSON parser's two emission modes, through a renderer's state
//! (`a2ui_stream::renderer::RendererState`): however a response is cut into chunks, a renderer
//! applying each step's messages in turn holds, after every chunk, the same surfaces in
//! changed-only mode as in official mode, and ends where the response fed whole leaves it.
#![cfg(feature = "official")]

use std::sync::Arc;

use a2ui_stream::Version;
use a2ui_stream::official::Emission;
use a2ui_stream::official::catalog::Catalog;
use a2ui_stream::official::direct::{DirectJsonParser, Part};
use a2ui_stream::official::validator::Validator;
use a2ui_stream::renderer::RendererState;
use proptest::prelude::*;
use serde_json::Value;

fn validator() -> Arc<Validator> {
    Catalog::builtin(Version::V10).validator().unwrap()
}

/// A restaurant list in v1.0 as a model writes it (identifying keys first): a surface, its
/// components, its data model of `n` records, with prose around the block.
fn response(n: usize, note: &str) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"name": "Place {i}", "rating": 4.5, "tags": ["a", "b"]}}"#))
        .collect();
    let title = Value::String(format!("Found {n}: {note}"));
    format!(
        r#"Here you are.
<a2ui-json>
[{{"version": "v1.0", "createSurface": {{"surfaceId": "s", "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"}}}},
 {{"version": "v1.0", "updateComponents": {{"surfaceId": "s", "components": [
   {{"id": "root", "component": "Column", "children": ["title", "list"]}},
   {{"id": "title", "component": "Text", "text": {{"@path": "/title"}}}},
   {{"id": "list", "component": "List", "children": {{"componentId": "card", "path": "/items"}}}},
   {{"id": "card", "component": "Card", "child": "name"}},
   {{"id": "name", "component": "Text", "text": {{"@path": "name"}}}}]}}}},
 {{"version": "v1.0", "updateDataModel": {{"surfaceId": "s", "value": {{"title": {title}, "items": [{items}]}}}}}}]
</a2ui-json>
Enjoy {note}."#,
        items = items.join(", ")
    )
}

/// The renderer's state after each chunk.
fn states(text: &str, cuts: &[usize], mode: Emission) -> Vec<RendererState> {
    let mut parser = DirectJsonParser::new(validator(), ["title"], mode);
    let mut state = RendererState::new();
    let mut out = Vec::new();
    let mut start = 0;
    let mut ends: Vec<usize> = cuts.iter().copied().filter(|&c| c < text.len()).collect();
    ends.push(text.len());
    for end in ends {
        if end <= start || !text.is_char_boundary(end) {
            continue;
        }
        for part in parser
            .feed(&text[start..end])
            .into_iter()
            .map(Result::unwrap)
        {
            if let Part::A2ui(messages) = part {
                for m in messages {
                    state.apply(&m).unwrap_or_else(|e| panic!("{m}: {e}"));
                }
            }
        }
        out.push(state.clone());
        start = end;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn both_modes_show_the_same_after_every_chunk(
        n in 0usize..6,
        note in "[a-z ]{0,12}",
        mut cuts in proptest::collection::vec(0usize..2000, 0..120),
    ) {
        let text = response(n, &note);
        cuts.sort_unstable();
        let official = states(&text, &cuts, Emission::Official);
        let changed = states(&text, &cuts, Emission::ChangedOnly);
        prop_assert_eq!(official.len(), changed.len());
        for (step, (a, b)) in official.iter().zip(&changed).enumerate() {
            prop_assert_eq!(a, b, "step {}", step);
        }
        // Any cuts, the same end as the response fed whole.
        let whole = states(&text, &[], Emission::Official);
        prop_assert_eq!(official.last(), whole.last());
    }
}

#[test]
fn every_byte_a_chunk_grows_the_surface_step_by_step() {
    let text = response(3, "dinner");
    let cuts: Vec<usize> = (1..text.len()).collect();
    let official = states(&text, &cuts, Emission::Official);
    let changed = states(&text, &cuts, Emission::ChangedOnly);
    assert_eq!(official, changed);
    // The components arrive one at a time: some step shows the root and not yet the last.
    assert!(official.iter().any(|s| {
        s.surface("s").is_some_and(|surface| {
            surface.component("root").is_some() && surface.component("name").is_none()
        })
    }));
    let last = official.last().unwrap().surface("s").unwrap();
    assert!(last.component("name").is_some());
}
