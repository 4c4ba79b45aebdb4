//! The direct-JSON parser on arbitrary text cut into arbitrary chunks, with the built-in v1.0
//! basic catalog: no panic in either emission mode, and where the text reads the same whole and
//! in chunks, a renderer (`renderer::RendererState`) applying each step's messages ends in the
//! same state in both modes and whatever the cuts.
//!
//! The input is the response text itself (lossily decoded); the chunk sizes (1 to 16 bytes) come
//! from a hash of the input, and `fuzz/smoke.sh` seeds the corpus with a v1.0 response.
#![no_main]

use std::sync::{Arc, OnceLock};

use a2ui_stream::Version;
use a2ui_stream::official::catalog::Catalog;
use a2ui_stream::official::direct::{DirectJsonParser, Part};
use a2ui_stream::official::Emission;
use a2ui_stream::official::validator::Validator;
use a2ui_stream::renderer::RendererState;
use libfuzzer_sys::fuzz_target;

fn validator() -> Arc<Validator> {
    static VALIDATOR: OnceLock<Arc<Validator>> = OnceLock::new();
    Arc::clone(VALIDATOR.get_or_init(|| {
        Catalog::builtin(Version::V10)
            .validator()
            .expect("the built-in v1.0 catalog compiles")
    }))
}

/// Chunks of 1 to 16 bytes (longer where a character would be cut), sizes drawn from `seed`.
fn chunks(text: &str, seed: u64) -> Vec<&str> {
    let mut state = seed | 1;
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut end = (start + 1 + (state % 16) as usize).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[start..end]);
        start = end;
    }
    out
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
    let seed = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let cut = chunks(&text, seed);
    let whole = run(&[&text], Emission::Official);
    let official = run(&cut, Emission::Official);
    let changed = run(&cut, Emission::ChangedOnly);
    if let (Some(whole), Some(official), Some(changed)) = (whole, official, changed) {
        assert_eq!(official, whole, "cuts changed where the renderer ends");
        assert_eq!(changed, official, "the modes end in different states");
    }
});
