//! The streaming Express parser (`express::ExpressParser`) on arbitrary text cut into arbitrary
//! chunks, with the built-in v1.0 or v0.9 basic catalog, blocks framed by tags or the whole
//! text one block: no panic, and whatever the cuts (chunks of 1 to 16 bytes, and one character
//! at a time) a renderer (`renderer::RendererState`) applying every message ends in the state
//! of the text fed whole, with the same errors and the same text.
//!
//! The input is the response text itself (lossily decoded); the version, the framing and the
//! chunk sizes come from a hash of the input, and `fuzz/smoke.sh` seeds the corpus with
//! Express responses.
#![no_main]

mod seeded;

use std::sync::OnceLock;

use a2ui_stream::express::{CompileOptions, ExpressError, ExpressParser};
use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::direct::Part;
use a2ui_stream::renderer::RendererState;
use libfuzzer_sys::fuzz_target;
use seeded::{chunks, seed};

fn catalogs(v10: bool) -> &'static [Catalog] {
    static V09: OnceLock<[Catalog; 1]> = OnceLock::new();
    static V10: OnceLock<[Catalog; 1]> = OnceLock::new();
    if v10 {
        V10.get_or_init(|| [Catalog::builtin(Version::V10)])
    } else {
        V09.get_or_init(|| [Catalog::builtin(Version::V09)])
    }
}

/// What streaming `pieces` gave: the renderer's state, the errors (kind, offset, message) and
/// the text parts joined.
#[derive(Debug, PartialEq)]
struct Outcome {
    state: RendererState,
    errors: Vec<String>,
    text: String,
}

fn run(pieces: &[&str], v10: bool, wrapped: bool) -> Outcome {
    let parser = ExpressParser::new(catalogs(v10), CompileOptions::default())
        .expect("the built-in catalogs compile Express");
    let mut parser = if wrapped { parser } else { parser.unwrapped() };
    let mut outcome = Outcome {
        state: RendererState::new(),
        errors: Vec::new(),
        text: String::new(),
    };
    let take = |parts: Vec<Result<Part, ExpressError>>, outcome: &mut Outcome| {
        for part in parts {
            match part {
                Ok(Part::Text(text)) => outcome.text.push_str(&text),
                Ok(Part::A2ui(messages)) => {
                    for message in &messages {
                        let _ = outcome.state.apply(message);
                    }
                }
                Err(e) => outcome
                    .errors
                    .push(format!("{:?} {:?} {e}", e.kind(), e.offset())),
            }
        }
    };
    for piece in pieces {
        take(parser.feed(piece), &mut outcome);
    }
    take(parser.finish(), &mut outcome);
    outcome
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let seed = seed(data);
    let (v10, wrapped) = (seed & 2 == 0, seed & 4 == 0);
    let whole = run(&[&text], v10, wrapped);
    let cut = run(&chunks(&text, seed), v10, wrapped);
    assert_eq!(cut, whole, "the cuts changed what the stream leads to");
    let characters: Vec<&str> = text.split_inclusive(|_| true).collect();
    let by_character = run(&characters, v10, wrapped);
    assert_eq!(
        by_character, whole,
        "one character at a time changed what the stream leads to"
    );
});
