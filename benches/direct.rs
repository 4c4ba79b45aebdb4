//! Our side of the paired comparison of the direct-JSON parser with the official SDK 0.9.0:
//! `benches/direct_sdk.py` starts this program and asks it, between two runs of the SDK, for
//! one sample of ours on the same response.
//!
//! Requests come on standard input, one per line: `<response file> <progressive keys, comma
//! separated>`. The answer is one line: the CPU time of this thread per response in seconds in
//! official mode and in changed-only mode (each the mean over a batch of responses run for at
//! least 20 ms, after one not timed), then the bytes each mode emits for the response (text and
//! messages as JSON). One response is every 4-byte chunk fed to a new parser, what each chunk
//! returns dropped; making the parser (the validator is compiled once) is outside the clock, as
//! on the SDK's side.
//!
//! Started without `--serve` (as `cargo bench` does with every benchmark), it says what it is
//! for and stops.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

use a2ui_stream::Version;
use a2ui_stream::official::Emission;
use a2ui_stream::official::catalog::Catalog;
use a2ui_stream::official::direct::{DirectJsonParser, Part};
use a2ui_stream::official::validator::Validator;
use cpu_time::ThreadTime;

#[path = "../tests/support/chunks.rs"]
mod chunking;

const CHUNK: usize = 4;

fn validator() -> Arc<Validator> {
    Catalog::builtin(Version::V10)
        .validator()
        .expect("the built-in v1.0 catalog compiles")
}

/// `text` in chunks of [`CHUNK`] bytes (longer where a character would be cut).
fn chunks(text: &str) -> Vec<&str> {
    chunking::chunks(text, CHUNK)
}

fn run(validator: &Arc<Validator>, keys: &[String], mode: Emission, pieces: &[&str]) -> usize {
    let mut parser = DirectJsonParser::new(Arc::clone(validator), keys.iter().cloned(), mode);
    let mut out = 0;
    for piece in pieces {
        let parts: Vec<Part> = parser
            .feed(piece)
            .into_iter()
            .collect::<Result<_, _>>()
            .expect("the response parses");
        out += parts.len();
    }
    out
}

fn bytes_out(
    validator: &Arc<Validator>,
    keys: &[String],
    mode: Emission,
    pieces: &[&str],
) -> usize {
    let mut parser = DirectJsonParser::new(Arc::clone(validator), keys.iter().cloned(), mode);
    let mut n = 0;
    for piece in pieces {
        for part in parser
            .feed(piece)
            .into_iter()
            .map(|p| p.expect("the response parses"))
        {
            n += match part {
                Part::Text(t) => t.len(),
                Part::A2ui(messages) => serde_json::to_string(&messages).map_or(0, |s| s.len()),
            };
        }
    }
    n
}

fn sample(validator: &Arc<Validator>, keys: &[String], mode: Emission, pieces: &[&str]) -> f64 {
    std::hint::black_box(run(validator, keys, mode, pieces));
    let start = ThreadTime::now();
    let mut n = 0u32;
    while start.elapsed() < Duration::from_millis(20) || n == 0 {
        std::hint::black_box(run(validator, keys, mode, pieces));
        n += 1;
    }
    start.elapsed().as_secs_f64() / f64::from(n)
}

fn main() {
    if !std::env::args().any(|a| a == "--serve") {
        println!("direct: timing server for `benches/direct_sdk.py`; nothing to run alone");
        return;
    }
    let validator = validator();
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let mut words = line.split_whitespace();
        let Some(path) = words.next() else { continue };
        let keys: Vec<String> = words
            .next()
            .unwrap_or("")
            .split(',')
            .filter(|k| !k.is_empty())
            .map(str::to_owned)
            .collect();
        let text = std::fs::read_to_string(path).expect("readable response");
        let pieces = chunks(&text);
        let official = sample(&validator, &keys, Emission::Official, &pieces);
        let changed = sample(&validator, &keys, Emission::ChangedOnly, &pieces);
        let bo = bytes_out(&validator, &keys, Emission::Official, &pieces);
        let bc = bytes_out(&validator, &keys, Emission::ChangedOnly, &pieces);
        writeln!(stdout, "{official} {changed} {bo} {bc}").expect("stdout");
        stdout.flush().expect("stdout");
    }
}
