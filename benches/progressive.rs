//! CPU time and bytes emitted by the progressive parser on the restaurant-finder examples, wrapped
//! as model responses (prose + `<a2ui-json>` block) and fed in 4-byte chunks, in both emission
//! modes. A second group feeds the same response repeated 1x and 4x (as separate blocks) to show
//! that the cost per chunk does not grow with what came before.
//!
//! Reads `../shared/a2ui` (or `$A2UI_SHARED/a2ui`) at run time; prints one line and stops when absent.

use std::path::{Path, PathBuf};

use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::progressive::{Emission, ProgressiveParser};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const CHUNK: usize = 4;

fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("A2UI_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    dir.join("a2ui/restaurant_finder").is_dir().then_some(dir)
}

fn wrap(body: &str) -> String {
    format!("Here is what I found for you.\n<a2ui-json>\n{body}\n</a2ui-json>\nEnjoy your meal!")
}

fn chunks(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + CHUNK).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[start..end]);
        start = end;
    }
    out
}

/// Feeds one response; returns the bytes emitted (prose plus compact JSON of the messages).
fn run(catalog: &Catalog, mode: Emission, pieces: &[&str]) -> usize {
    let mut parser = ProgressiveParser::with_emission(catalog, mode).expect("catalog compiles");
    let mut emitted = 0;
    for piece in pieces {
        let parts = parser.process_chunk(piece).expect("example parses");
        for part in parts {
            emitted += part.text.map_or(0, |t| t.len());
            if let Some(list) = part.a2ui {
                emitted += serde_json::to_vec(&list).map_or(0, |v| v.len());
            }
        }
    }
    emitted
}

fn bench(c: &mut Criterion) {
    let Some(shared) = shared() else {
        println!("skipping progressive bench: ../shared/a2ui not found");
        return;
    };
    let spec = shared.join("a2ui/spec");
    let mut group = c.benchmark_group("progressive");
    for (folder, version) in [("0.8", Version::V08), ("0.9", Version::V09)] {
        let catalog = Catalog::basic(&spec, version)
            .expect("basic catalog loads")
            .without_strict_validation();
        let dir = shared.join("a2ui/restaurant_finder/examples").join(folder);
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .expect("examples directory")
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect();
        names.sort();
        for name in names {
            let body = std::fs::read_to_string(dir.join(&name)).expect("example readable");
            let text = wrap(&body);
            let pieces = chunks(&text);
            for (mode, label) in [
                (Emission::Official, "official"),
                (Emission::ChangedOnly, "changed"),
            ] {
                let emitted = run(&catalog, mode, &pieces);
                println!(
                    "{folder}/{name} {label}: input {} B, emitted {emitted} B ({:.1}x)",
                    text.len(),
                    emitted as f64 / text.len() as f64
                );
                group.throughput(Throughput::Bytes(text.len() as u64));
                group.bench_function(format!("{folder}/{name}/{label}"), |b| {
                    b.iter(|| run(&catalog, mode, &pieces))
                });
            }
        }
        // Per-chunk cost independent of history: the same response 1x and 4x in one stream.
        let body = std::fs::read_to_string(dir.join("single_column_list.json")).expect("example");
        for times in [1usize, 4] {
            let text: String = (0..times).map(|_| wrap(&body)).collect();
            let pieces = chunks(&text);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_function(format!("{folder}/scaling/changed/{times}x"), |b| {
                b.iter(|| run(&catalog, Emission::ChangedOnly, &pieces))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
