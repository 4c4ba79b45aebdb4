//! Our side of the paired comparison of streaming A2UI Express with the official SDK 0.9.0's
//! only way to stream it (re-compiling the growing text after every chunk):
//! `benches/express_sdk.py` starts this program and asks it, between two runs of the SDK, for
//! one sample of ours on the same text.
//!
//! * `--answers DIR` writes the restaurant finder's list answers in Express, one file per
//!   size: the project's v1.0 list sample (`<shared>/a2ui-v1/samples/agent/adk/
//!   restaurant_finder/examples/1.0/single_column_list.json`, ids written with `_` and bindings
//!   as `@path`, as the SDK reads them) holding 5, 20 and 80 restaurants, turned into Express by
//!   [`express::decompile`](a2ui_stream::express::decompile), with one `surface(...)` statement
//!   (the decompiler writes one again before the data, which came in messages of its own).
//! * `--serve` answers requests on standard input, one per line: the path of a file holding
//!   one block's Express text. The answer is one line: the CPU time of this thread per text in
//!   seconds (the mean over a batch run for at least 20 ms, after one not timed), then the bytes
//!   of JSON the messages handed out come to. One text is every 4-byte chunk fed to a new
//!   [`ExpressParser`] (made outside the clock, as the SDK's compiler is) and its `finish`,
//!   what each call returns dropped.
//!
//! Started with neither (as `cargo bench` does with every benchmark), it says what it is for
//! and stops.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use a2ui_stream::Version;
use a2ui_stream::express::{CompileOptions, ExpressParser, decompile};
use a2ui_stream::official::catalog::Catalog;
use a2ui_stream::official::direct::Part;
use cpu_time::ThreadTime;
use serde_json::{Value, json};

#[path = "../tests/support/chunks.rs"]
mod chunking;

const CHUNK: usize = 4;
const RESTAURANTS: [usize; 3] = [5, 20, 80];

fn shared() -> PathBuf {
    std::env::var_os("A2UI_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

/// The sample as the SDK reads it: ids with `_`, bindings `{"@path": ...}`.
fn fixed(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            if map.len() == 1
                && let Some(Value::String(path)) = map.get("path")
            {
                return json!({"@path": path});
            }
            let mut out = serde_json::Map::new();
            for (k, v) in map {
                let v = match (k.as_str(), v) {
                    ("id" | "child" | "componentId", Value::String(s)) => {
                        Value::String(s.replace('-', "_"))
                    }
                    ("children", Value::Array(ids)) => Value::Array(
                        ids.into_iter()
                            .map(|id| match id {
                                Value::String(s) => Value::String(s.replace('-', "_")),
                                other => other,
                            })
                            .collect(),
                    ),
                    (_, v) => fixed(v),
                };
                out.insert(k, v);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(fixed).collect()),
        other => other,
    }
}

fn restaurant(i: usize) -> Value {
    json!({
        "name": format!("Restaurant number {i}"),
        "rating": (35 + i % 15) as f64 / 10.0,
        "detail": format!("Seasonal dishes and a quiet room, table {i}"),
        "infoLink": format!("https://example.com/restaurants/{i}"),
        "imageUrl": format!("https://picsum.photos/200/300?random={i}"),
        "address": format!("{} Market Street, San Francisco", 100 + i),
    })
}

fn write_answers(dir: &Path) {
    let sample = shared()
        .join("a2ui-v1/samples/agent/adk/restaurant_finder/examples/1.0/single_column_list.json");
    let text = std::fs::read_to_string(&sample).expect("the v1.0 list sample (../shared)");
    let sample = fixed(serde_json::from_str(&text).expect("the sample is JSON"));
    let catalogs = [Catalog::builtin(Version::V10)];
    for n in RESTAURANTS {
        let mut messages: Vec<Value> = sample.as_array().expect("a list of messages").clone();
        for message in &mut messages {
            if let Some(update) = message.get_mut("updateDataModel") {
                if update.get("path") == Some(&json!("/items")) {
                    update["value"] = Value::Array((0..n).map(restaurant).collect());
                }
            }
        }
        let express = decompile(&messages, &catalogs).expect("the sample decompiles");
        // One block for one surface, as a model writes it (and the demo's answers are): the
        // decompiler opens the surface again before its data, for messages that came apart.
        let mut opened = false;
        let express: String = express
            .lines()
            .filter(|line| {
                let again = opened && line.starts_with("surface(");
                opened |= line.starts_with("surface(");
                !again
            })
            .map(|line| format!("{line}\n"))
            .collect();
        let path = dir.join(format!("list_{n:02}_restaurants.a2ui"));
        std::fs::write(&path, express).expect("writable answers folder");
    }
}

fn run(catalogs: &[Catalog], pieces: &[&str]) -> usize {
    let mut parser = ExpressParser::new(catalogs, CompileOptions::default())
        .expect("the catalog compiles Express")
        .unwrapped();
    let mut out = 0;
    for piece in pieces {
        out += parser.feed(piece).len();
    }
    out + parser.finish().len()
}

fn bytes_out(catalogs: &[Catalog], pieces: &[&str]) -> usize {
    let mut parser = ExpressParser::new(catalogs, CompileOptions::default())
        .expect("the catalog compiles Express")
        .unwrapped();
    let mut parts = Vec::new();
    for piece in pieces {
        parts.extend(parser.feed(piece));
    }
    parts.extend(parser.finish());
    parts
        .into_iter()
        .map(|p| match p.expect("the text compiles") {
            Part::A2ui(messages) => serde_json::to_string(&messages).map_or(0, |s| s.len()),
            Part::Text(t) => t.len(),
        })
        .sum()
}

fn sample(catalogs: &[Catalog], pieces: &[&str]) -> f64 {
    std::hint::black_box(run(catalogs, pieces));
    let start = ThreadTime::now();
    let mut n = 0u32;
    while start.elapsed() < Duration::from_millis(20) || n == 0 {
        std::hint::black_box(run(catalogs, pieces));
        n += 1;
    }
    start.elapsed().as_secs_f64() / f64::from(n)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--answers") {
        let dir = args.get(at + 1).expect("--answers DIR");
        write_answers(Path::new(dir));
        return;
    }
    if !args.iter().any(|a| a == "--serve") {
        println!("express: timing server for `benches/express_sdk.py`; nothing to run alone");
        return;
    }
    let catalogs = [Catalog::builtin(Version::V10)];
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let path = line.trim();
        if path.is_empty() {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("readable text");
        let pieces = chunking::chunks(&text, CHUNK);
        let seconds = sample(&catalogs, &pieces);
        let bytes = bytes_out(&catalogs, &pieces);
        writeln!(stdout, "{seconds} {bytes}").expect("stdout");
        stdout.flush().expect("stdout");
    }
}
