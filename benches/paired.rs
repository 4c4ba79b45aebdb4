//! Our side of the paired comparison with the official SDK: `benches/official_sdk.py --paired`
//! starts this program and asks it, between two runs of the SDK, for one timed sample of ours
//! on the same response. Both sides are then measured in the same few seconds, so a change in
//! the machine's speed from one minute to the next (on a shared machine, easily 1.5x) moves
//! both and not their ratio.
//!
//! Requests come on standard input, one per line: `<folder> <file> <label> <ms>`, e.g.
//! `0.8 confirmation.json official_json 20`. The label is `official` or `changed` (the
//! emission mode), with `_json` for messages as JSON text, and then `_into` for handing each
//! step's parts back after it (`recycle`),
//! as a server does that sends a step on and then lets the parser write over it. The answer is one line: the CPU time
//! of this thread per response in nanoseconds, as the mean over a batch of responses run for
//! at least `<ms>` milliseconds (after one response not timed), and the batch size. What one
//! response includes is what `cargo bench --bench progressive` times, and what the SDK side
//! times: every 4-byte chunk fed to a new parser, what each chunk returns dropped (making the
//! parser and dropping it after its last chunk are outside the clock).
//!
//! The label `official_output` times something else: only making and freeing the `Value` trees
//! that official mode returns for the response (each step's parts, copied from a first run and
//! dropped), which is the least any implementation handing out those trees spends on them with
//! this allocator.
//!
//! A file name may end in `*N` (`single_column_list.json*4`): the example `N` times in one
//! stream, each copy on surface ids of its own (as in the `scaling` group of `cargo bench --bench
//! progressive`).
//!
//! With `--count` as well, a request runs the response once more, not timed, with what the
//! clock covers inside `counted_response`, and answers `0 1`: for counting instructions with
//! `valgrind --tool=callgrind --toggle-collect='*counted_response'` (`benches/instructions.py`).
//!
//! Started without `--serve` (as `cargo bench` does with every benchmark), it says what it is
//! for and stops.
//!
//! This program uses the system allocator (glibc's `malloc` on Linux), as a Rust program does
//! unless it says otherwise. `benches/paired_mimalloc.rs` is the same server built with mimalloc
//! as its global allocator, which `official_sdk.py --paired` asks too: the parser allocates and
//! frees many small blocks, and which allocator serves them is the program's choice.

mod common;

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

use a2ui_stream::official::Emission;
use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::legacy::ResponsePart;
use a2ui_stream::official::validator::Validator;
use cpu_time::ThreadTime;

use common::{Output, Parser, chunks, collect, feed, repeated, run, shared, timed};

pub(crate) fn main() {
    if !std::env::args().any(|a| a == "--serve") {
        println!(
            "paired: timing server for `python3 benches/official_sdk.py --paired`; nothing to run alone"
        );
        return;
    }
    let Some(shared) = shared() else {
        println!("skipping paired timing: ../shared/a2ui not found");
        return;
    };
    let mut validators = HashMap::new();
    for (folder, version) in [("0.8", Version::V08), ("0.9", Version::V09)] {
        let catalog = Catalog::basic(&shared.join("a2ui/spec"), version)
            .expect("basic catalog loads")
            .without_strict_validation();
        let validator = Validator::new(&catalog).expect("basic catalog compiles");
        validators.insert(folder, Arc::new(validator));
    }
    let count = std::env::args().any(|a| a == "--count");
    let examples = shared.join("a2ui/restaurant_finder/examples");
    let mut texts: HashMap<(String, String), String> = HashMap::new();
    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let [folder, name, label, ms] = words.as_slice() else {
            writeln!(stdout.lock(), "error: want `<folder> <file> <label> <ms>`").ok();
            continue;
        };
        let (Some(validator), Some(mode), Ok(ms)) = (
            validators.get(folder),
            match label
                .trim_end_matches("_into")
                .trim_end_matches("_json")
                .trim_end_matches("_output")
            {
                "official" => Some(Emission::Official),
                "changed" => Some(Emission::ChangedOnly),
                _ => None,
            },
            ms.parse::<u64>(),
        ) else {
            writeln!(
                stdout.lock(),
                "error: unknown folder, label or time in {line:?}"
            )
            .ok();
            continue;
        };
        let key = (folder.to_string(), name.to_string());
        if !texts.contains_key(&key) {
            let (file, times) = match name.split_once('*') {
                Some((file, times)) => (file, times.parse::<usize>().ok().filter(|&n| n > 0)),
                None => (*name, Some(1)),
            };
            let (Ok(body), Some(times)) = (
                std::fs::read_to_string(examples.join(folder).join(file)),
                times,
            ) else {
                writeln!(stdout.lock(), "error: no example {folder}/{name}").ok();
                continue;
            };
            texts.insert(key.clone(), repeated(&body, times));
        }
        let pieces = chunks(&texts[&key]);
        let output = output_of(label);
        let steps = (*label == "official_output").then(|| collect(validator, mode, &pieces));
        // The trees of every step made again and freed.
        let trees = |steps: &[Vec<ResponsePart>]| -> usize {
            steps
                .iter()
                .map(|s| std::hint::black_box(s.clone()).len())
                .sum()
        };
        // One response: the CPU time the clock covers, and a count that keeps the work.
        let once = || match &steps {
            Some(steps) => timed(|| trees(steps)),
            None => run(validator, mode, &pieces, output),
        };
        std::hint::black_box(once());
        if count {
            match &steps {
                Some(steps) => {
                    std::hint::black_box(counted_response(&mut || trees(steps)));
                }
                None => {
                    let mut parser = Parser::new(validator, mode, output);
                    std::hint::black_box(counted_response(&mut || {
                        feed(&mut parser, &pieces, output)
                    }));
                }
            }
            writeln!(stdout.lock(), "0 1").ok();
            continue;
        }
        let budget = Duration::from_millis(ms);
        let start = ThreadTime::now();
        let mut count = 0u32;
        let mut took = Duration::ZERO;
        while count == 0 || start.elapsed() < budget {
            took += std::hint::black_box(once()).0;
            count += 1;
        }
        let each = took.as_nanos() / u128::from(count);
        writeln!(stdout.lock(), "{each} {count}").ok();
    }
}

/// One more response, in a function of its own so that an instruction counter can count just it.
#[inline(never)]
fn counted_response(once: &mut dyn FnMut() -> usize) -> usize {
    once()
}

/// The output a label names: `official` or `changed` (the mode), then `_json` for text and
/// `_into` for handing back the step before.
fn output_of(label: &str) -> Output {
    match (label.contains("_json"), label.ends_with("_into")) {
        (false, false) => Output::Trees,
        (true, false) => Output::Text,
        (false, true) => Output::TreesInto,
        (true, true) => Output::TextInto,
    }
}
