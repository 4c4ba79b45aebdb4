//! Splitter throughput on a realistic corpus, against `serde_json::from_slice::<Value>` over the
//! same JSON in the same run.
//!
//! The corpus is the A2UI project's examples (restaurant finder and the spec catalogs, read from
//! `../shared/a2ui` or `$A2UI_SHARED/a2ui`) wrapped in `<a2ui-json>` blocks between varied prose,
//! repeated to at least 1 MiB. Without the shared data a generated corpus of the same shape is used.
//!
//! `cargo bench --bench splitter`; `python3 benches/table.py` prints the table in docs/performance.md.

use a2ui_stream::{Config, Event, Splitter};
use bytes::Bytes;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};

/// The JSON documents the corpus is made of.
fn documents() -> Vec<String> {
    let root = std::env::var_os("A2UI_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"))
        .join("a2ui");
    let dirs = [
        "restaurant_finder/examples/0.8",
        "restaurant_finder/examples/0.9",
        "spec/v0_8/json/catalogs/basic/examples",
        "spec/v0_9/catalogs/basic/examples",
    ];
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(root.join(d)).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let docs: Vec<String> = files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        // v0.9 spec examples wrap the list as {"messages": [...]}: keep just the list.
        .filter_map(|s| {
            let v: serde_json::Value = serde_json::from_str(&s).ok()?;
            match v {
                serde_json::Value::Array(_) => Some(s),
                serde_json::Value::Object(mut o) => {
                    serde_json::to_string_pretty(&o.remove("messages")?).ok()
                }
                _ => None,
            }
        })
        .collect();
    if !docs.is_empty() {
        return docs;
    }
    eprintln!(
        "shared examples not found at {}: using a generated corpus",
        root.display()
    );
    (0..20)
        .map(|i| {
            let comps: Vec<String> = (0..30)
                .map(|c| format!(r#"{{"id":"c{c}","component":{{"Text":{{"text":{{"literalString":"Item {i}.{c} \"quoted\" café"}}}}}}}}"#))
                .collect();
            format!(
                r#"[{{"beginRendering":{{"surfaceId":"s{i}","root":"c0"}}}},{{"surfaceUpdate":{{"surfaceId":"s{i}","components":[{}]}}}}]"#,
                comps.join(",\n  ")
            )
        })
        .collect()
}

/// Prose and blocks of `docs`, cycled from repetition `first` on, to at least `min` bytes; also
/// the ranges of JSON inside it.
fn corpus(docs: &[String], min: usize, first: usize) -> (Bytes, Vec<std::ops::Range<usize>>) {
    let prose = [
        "Here are the places I found for you.",
        "Sure \u{2014} these match what you asked for:",
        "I picked a few with great reviews; tap one to book.",
        "Below is the form; fill it in and I will confirm.",
        "Done! Your details are summarised here.",
    ];
    let mut out = String::new();
    let mut ranges = Vec::new();
    let mut i = first;
    while out.len() < min {
        out.push_str(prose[i % prose.len()]);
        out.push_str(&format!(" (#{i})\n<a2ui-json>\n"));
        let start = out.len();
        // A surface per repetition, so that no component is a repeat (which would not be emitted).
        out.push_str(
            &docs[i % docs.len()].replace("\"surfaceId\": \"", &format!("\"surfaceId\": \"r{i}-")),
        );
        ranges.push(start..out.len());
        out.push_str("\n</a2ui-json>\n");
        i += 1;
    }
    (Bytes::from(out), ranges)
}

/// Feeds `corpus` in `chunk`-byte pieces, borrowed (`feed`, as LLM deltas arrive) or shared
/// (`feed_bytes`, zero-copy), and counts the message bytes that come out.
fn split_all(corpus: &Bytes, chunk: usize, shared: bool) -> usize {
    split_with(Config::default(), corpus, chunk, shared)
}

/// [`split_all`] with a configuration of its own.
fn split_with(config: Config, corpus: &Bytes, chunk: usize, shared: bool) -> usize {
    let mut splitter = Splitter::with_config(config);
    let mut n = 0;
    let mut at = 0;
    while at < corpus.len() {
        let end = (at + chunk).min(corpus.len());
        let events = if shared {
            splitter.feed_bytes(corpus.slice(at..end))
        } else {
            splitter.feed(&corpus[at..end])
        };
        for ev in events {
            if let Ok(Event::Message(m)) = ev {
                n += m.as_bytes().len();
            }
        }
        at = end;
    }
    n + splitter.finish().count()
}

fn serde_all(corpus: &Bytes, ranges: &[std::ops::Range<usize>]) -> usize {
    ranges
        .iter()
        .map(|r| {
            serde_json::from_slice::<serde_json::Value>(&corpus[r.clone()])
                .map(|v| v.as_array().map_or(0, Vec::len))
                .unwrap_or(0)
        })
        .sum()
}

fn throughput(c: &mut Criterion) {
    let (data, ranges) = corpus(&documents(), 1 << 20, 0);
    let mut group = c.benchmark_group("split_1MiB");
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.sample_size(10);
    for chunk in [1usize, 4, 16, 256, 65536] {
        group.bench_with_input(BenchmarkId::new("splitter", chunk), &chunk, |b, &chunk| {
            b.iter(|| black_box(split_all(&data, chunk, false)))
        });
    }
    group.bench_with_input(
        BenchmarkId::new("splitter_shared", 65536),
        &65536,
        |b, &chunk| b.iter(|| black_box(split_all(&data, chunk, true))),
    );
    // What splitting data-model updates per entry costs: the same with them kept whole.
    let whole = Config {
        split_data_depth: 0,
        ..Config::default()
    };
    group.bench_with_input(
        BenchmarkId::new("splitter_whole_data", 65536),
        &65536,
        |b, &chunk| b.iter(|| black_box(split_with(whole.clone(), &data, chunk, false))),
    );
    // The baseline parses the same JSON bytes; throughput is counted over the same corpus length,
    // so the two columns compare time for the same response.
    group.bench_function("serde_json_value", |b| {
        b.iter(|| black_box(serde_all(&data, &ranges)))
    });
    group.finish();
}

/// Cost per byte of a 64 KiB stream against a 4 MiB one made of the same bytes: the 4 MiB
/// stream is 64 consecutive 64 KiB streams joined (their repetitions numbered on, so every
/// surface is new), and the 64 KiB case feeds those 64 streams in turn, each to a new splitter.
/// The two cases read the same bytes from the same kind of memory; they differ only in how long
/// one stream runs. (Feeding one 64 KiB buffer over and over would flatter it: the machine learns
/// its exact byte sequence.)
fn linear(c: &mut Criterion) {
    let mut group = c.benchmark_group("linear");
    group.sample_size(20);
    let docs = documents();
    let small = 64usize << 10;
    let per_stream = corpus(&docs, small, 0).1.len();
    let streams: Vec<Bytes> = (0..64)
        .map(|k| corpus(&docs, small, k * per_stream).0)
        .collect();
    let joined = Bytes::from(streams.concat());
    let mut turn = 0;
    group.throughput(Throughput::Bytes((joined.len() / streams.len()) as u64));
    group.bench_function(BenchmarkId::new("splitter_256B_chunks", small), |b| {
        b.iter(|| {
            turn = (turn + 1) % streams.len();
            black_box(split_all(&streams[turn], 256, false))
        })
    });
    group.throughput(Throughput::Bytes(joined.len() as u64));
    group.bench_function(BenchmarkId::new("splitter_256B_chunks", 4 << 20), |b| {
        b.iter(|| black_box(split_all(&joined, 256, false)))
    });
    group.finish();
}

criterion_group!(benches, throughput, linear);
criterion_main!(benches);
