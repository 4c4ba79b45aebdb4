//! The direct-JSON parser on arbitrary text cut into arbitrary chunks, with the built-in v1.0
//! basic catalog: no panic in either emission mode, and where the text reads the same whole and
//! in chunks, a renderer (`renderer::RendererState`) applying each step's messages ends in the
//! same state in both modes and whatever the cuts.
//!
//! The input is the response text itself (lossily decoded); the chunk sizes (1 to 16 bytes) come
//! from a hash of the input, and `fuzz/smoke.sh` seeds the corpus with a v1.0 response.
#![no_main]

mod seeded;

use std::sync::{Arc, OnceLock};

use a2ui_stream::Version;
use a2ui_stream::official::catalog::Catalog;
use a2ui_stream::official::direct::{DirectJsonParser, Part};
use a2ui_stream::official::Emission;
use a2ui_stream::official::validator::Validator;
use a2ui_stream::renderer::RendererState;
use libfuzzer_sys::fuzz_target;
use seeded::{chunks, seed};

fn validator() -> Arc<Validator> {
    static VALIDATOR: OnceLock<Arc<Validator>> = OnceLock::new();
    Arc::clone(VALIDATOR.get_or_init(|| {
        Catalog::builtin(Version::V10)
            .validator()
            .expect("the built-in v1.0 catalog compiles")
    }))
}

/// What a renderer holds after every step's messages, or `None` when a step is an error.
fn run(pieces: &[&str], mode: Emission) -> Option<RendererState> {
    let mut parser = DirectJsonParser::new(validator(), ["text", "title"], mode);
    let mut state = RendererState::new();
    for piece in pieces {
        for part in parser.feed(piece).into_iter().collect::<Result<Vec<_>, _>>().ok()? {
            if let Part::A2ui(messages) = part {
                for m in &messages {
                    let _ = state.apply(m);
                }
            }
        }
    }
    parser.finish().into_iter().collect::<Result<Vec<_>, _>>().ok()?;
    Some(state)
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let seed = seed(data);
    let cut = chunks(&text, seed);
    let whole = run(&[&text], Emission::Official);
    let official = run(&cut, Emission::Official);
    let changed = run(&cut, Emission::ChangedOnly);
    if let (Some(whole), Some(official), Some(changed)) = (whole, official, changed) {
        assert_eq!(official, whole, "cuts changed where the renderer ends");
        assert_eq!(changed, official, "the modes end in different states");
    }
});
