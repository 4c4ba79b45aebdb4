//! Time per response of the progressive parser on the restaurant-finder examples, each wrapped
//! as a model response (prose, an `<a2ui-json>` block, prose) and fed in 4-byte chunks, in both
//! emission modes, with messages as `serde_json::Value` trees and as compact JSON text (a parser
//! made with `json()`, what a server sends on), each made afresh or (`_into`) written over the
//! parts of the step before, handed back after it (`recycle`).
//!
//! What one measured iteration includes: feeding every chunk of the response to a new parser,
//! and dropping what each chunk returned after it (as a server does once it has sent it on), or
//! handing it back to the parser after it.
//! What it does not include, as on the SDK side (`benches/official_sdk.py`): making the parser
//! before the first chunk and dropping it after the last, loading the catalog and compiling its
//! schemas into a [`Validator`] (done once per protocol version and shared through an `Arc` by
//! every parser, as a server would), and counting the bytes emitted (done once, outside the
//! timing, as compact JSON of every message plus the prose). Time is the CPU time of the
//! benchmark thread (not wall time, which a busy machine inflates), as the reference side
//! measures the CPU time of its process. Built with the `bench` profile of `Cargo.toml` (fat
//! LTO, one codegen unit).
//!
//! Two more groups show that the cost of a chunk does not depend on what came before. Scaling:
//! the same response once (1x) and four times in one stream (4x), each copy on its own surface
//! ids so that the parser's state grows with the stream. History: the CPU time of the first
//! copy of such a stream against that of the fourth, fed after three copies (untimed). Both are
//! fed in every round, each to its own parser, and each benchmark times one of them: the two
//! timed copies then meet the same heap (with the first copy timed alone in a loop of its own,
//! its parser only ever recycles its own blocks, and glibc's `malloc` serves it faster than any
//! parser in a fuller heap: that would measure the allocator's state, not the parser's work).
//!
//! A last group (v0.8, changed-only mode) feeds a column of 50 and of 200 children, the column
//! first: each child that arrives changes the column, whose form is made, checked and sent
//! again, so the work per step grows with the length of the list, and no faster.
//!
//! Reads `../shared/a2ui` (or `$A2UI_SHARED/a2ui`) at run time; prints one line and stops when
//! absent. `benches/official_sdk.py` runs the reference implementation on the same inputs and
//! prints the ratio against these results.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2ui_stream::official::Emission;
use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::legacy::ResponsePart;
use a2ui_stream::official::validator::Validator;
use cpu_time::ThreadTime;
use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};

use common::{Output, Parser, chunks, collect, feed, repeated, run, shared, timed_feed, wrap};

/// Criterion measurement: CPU time spent by the benchmark thread.
struct ThreadCpu;

impl Measurement for ThreadCpu {
    type Intermediate = ThreadTime;
    type Value = Duration;

    fn start(&self) -> ThreadTime {
        ThreadTime::now()
    }

    fn end(&self, start: ThreadTime) -> Duration {
        start.elapsed()
    }

    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &Nanos
    }
}

/// Shows nanoseconds in a readable unit.
struct Nanos;

impl ValueFormatter for Nanos {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = if typical < 1e3 {
            (1.0, "ns")
        } else if typical < 1e6 {
            (1e-3, "us")
        } else if typical < 1e9 {
            (1e-6, "ms")
        } else {
            (1e-9, "s")
        };
        for v in values.iter_mut() {
            *v *= factor;
        }
        unit
    }

    fn scale_throughputs(
        &self,
        _: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        match throughput {
            Throughput::Bytes(bytes) | Throughput::BytesDecimal(bytes) => {
                for v in values.iter_mut() {
                    *v = *bytes as f64 / (*v * 1e-9) / 1e6;
                }
                "MB/s"
            }
            _ => "",
        }
    }

    fn scale_for_machines(&self, _: &mut [f64]) -> &'static str {
        "ns"
    }
}

/// Bytes emitted: prose plus compact JSON of every message.
fn emitted(steps: &[Vec<ResponsePart>]) -> usize {
    steps
        .iter()
        .flatten()
        .map(|part| {
            part.text.as_ref().map_or(0, String::len)
                + part.a2ui.as_ref().map_or(0, |list| {
                    list.iter()
                        .map(|m| serde_json::to_vec(m).map_or(0, |v| v.len()))
                        .sum::<usize>()
                        + list.len().saturating_sub(1)
                        + 2
                })
        })
        .sum()
}

const MODES: [(Emission, &str); 2] = [
    (Emission::Official, "official"),
    (Emission::ChangedOnly, "changed"),
];

fn bench(c: &mut Criterion<ThreadCpu>) {
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
        let validator = Arc::new(Validator::new(&catalog).expect("basic catalog compiles"));
        let dir = shared.join("a2ui/restaurant_finder/examples").join(folder);
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .expect("examples directory")
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect();
        names.sort();
        for name in &names {
            let body = std::fs::read_to_string(dir.join(name)).expect("example readable");
            let text = wrap(&body);
            let pieces = chunks(&text);
            for (mode, label) in MODES {
                let out = emitted(&collect(&validator, mode, &pieces));
                println!(
                    "{folder}/{name} {label}: input {} B, emitted {out} B ({:.1}x input)",
                    text.len(),
                    out as f64 / text.len() as f64
                );
                group.throughput(Throughput::Bytes(text.len() as u64));
                group.bench_function(format!("{folder}_{name}_{label}"), |b| {
                    b.iter_custom(|iters| {
                        responses(&validator, mode, &pieces, Output::Trees, iters)
                    })
                });
                group.bench_function(format!("{folder}_{name}_{label}_json"), |b| {
                    b.iter_custom(|iters| responses(&validator, mode, &pieces, Output::Text, iters))
                });
                group.bench_function(format!("{folder}_{name}_{label}_into"), |b| {
                    b.iter_custom(|iters| {
                        responses(&validator, mode, &pieces, Output::TreesInto, iters)
                    })
                });
                group.bench_function(format!("{folder}_{name}_{label}_json_into"), |b| {
                    b.iter_custom(|iters| {
                        responses(&validator, mode, &pieces, Output::TextInto, iters)
                    })
                });
            }
        }
        let body = std::fs::read_to_string(dir.join("single_column_list.json")).expect("example");
        let four = repeated(&body, 4);
        let copies: Vec<&str> = four
            .split_inclusive("</a2ui-json>\nEnjoy your meal!")
            .collect();
        if let [first, .., last] = copies.as_slice() {
            let (head, tail) = four.split_at(four.len() - last.len());
            let (before, timed) = (chunks(head), chunks(tail));
            let alone = chunks(first);
            for (mode, label) in MODES {
                // One round feeds both: a parser the three copies and then the fourth, and a
                // fresh parser the first copy alone. Each of the two benchmarks times one of
                // them, so both see the same heap through the same history of allocations.
                let round = |fourth: bool| {
                    let mut long = Parser::new(&validator, mode, Output::Trees);
                    feed(&mut long, &before, Output::Trees);
                    let (fourth_took, _) = timed_feed(&mut long, &timed, Output::Trees);
                    let mut fresh = Parser::new(&validator, mode, Output::Trees);
                    let (first_took, _) = timed_feed(&mut fresh, &alone, Output::Trees);
                    if fourth { fourth_took } else { first_took }
                };
                for (which, fourth) in [("first", false), ("fourth", true)] {
                    group.bench_function(format!("{folder}_history_{label}_{which}"), |b| {
                        b.iter_custom(|iters| (0..iters).map(|_| round(fourth)).sum())
                    });
                }
            }
        }
        for times in [1usize, 4] {
            let text = repeated(&body, times);
            for (mode, label) in MODES {
                let what = format!("{folder}/scaling {label} {times}x");
                let name = format!("{folder}_scaling_{label}_{times}x");
                bench_stream(&mut group, &validator, mode, &text, &what, &name);
            }
        }
        if version == Version::V08 {
            // A column whose list names every child before any child arrives: each arrival
            // changes the column (a placeholder gives way to the child), which is checked and
            // sent again. Changed-only mode, so that the steps send what changed and not every
            // component again.
            for children in [50usize, 200] {
                let text = wrap(&long_list(children));
                let what = format!("{folder}/long_list {children} children changed");
                let name = format!("{folder}_long_list_changed_{children}");
                bench_stream(
                    &mut group,
                    &validator,
                    Emission::ChangedOnly,
                    &text,
                    &what,
                    &name,
                );
            }
        }
    }
    group.finish();
}

/// Benchmark `name`: `text` fed in chunks, Value output, after a line (`what`) saying how many
/// bytes it is and how many are emitted for it.
fn bench_stream(
    group: &mut BenchmarkGroup<'_, ThreadCpu>,
    validator: &Arc<Validator>,
    mode: Emission,
    text: &str,
    what: &str,
    name: &str,
) {
    let pieces = chunks(text);
    let out = emitted(&collect(validator, mode, &pieces));
    println!("{what}: input {} B, emitted {out} B", text.len());
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function(name, |b| {
        b.iter_custom(|iters| responses(validator, mode, &pieces, Output::Trees, iters))
    });
}

/// v0.8 messages showing a column of `children` texts, the column (naming them all) first, and
/// each component's id before its body, as a model writes them (and the examples are written).
fn long_list(children: usize) -> String {
    let ids: Vec<String> = (0..children).map(|i| format!("\"item-{i}\"")).collect();
    let mut components = vec![format!(
        r#"{{"id": "list", "component": {{"Column": {{"children": {{"explicitList": [{}]}}}}}}}}"#,
        ids.join(", ")
    )];
    components.extend(ids.iter().enumerate().map(|(i, id)| {
        format!(r#"{{"id": {id}, "component": {{"Text": {{"text": {{"literalString": "Item {i}"}}}}}}}}"#)
    }));
    format!(
        r#"[{{"beginRendering": {{"surfaceId": "long", "root": "list"}}}}, {{"surfaceUpdate": {{"surfaceId": "long", "components": [
{}
]}}}}]"#,
        components.join(",\n")
    )
}

/// The CPU time `iters` responses took, each as [`run`] times it.
fn responses(
    validator: &Arc<Validator>,
    mode: Emission,
    pieces: &[&str],
    output: Output,
    iters: u64,
) -> Duration {
    (0..iters)
        .map(|_| run(validator, mode, pieces, output).0)
        .sum()
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = bench
}
criterion_main!(benches);
