//! The official-semantics parser on arbitrary text cut into arbitrary chunks, with the basic
//! catalog of either protocol version and in either emission mode: no panic, and the two output
//! forms agree after every chunk (each message of `process_chunk_json` is exactly the compact
//! JSON of the same message from `process_chunk`, the prose is the same, and an error is the
//! same error), including on the chunks after an error. The forms that write each step over the
//! parts of the step before (`process_chunk_into`, `process_chunk_json_into`, their parts
//! handed back every time) hand out exactly what the forms that make them afresh do, after every
//! chunk and at the end. After the last chunk, empty chunks
//! hand out what errors held back: the parser must settle (return no error) within a bound,
//! never report the same fault forever. The whole-response parser and the payload fixer get
//! the same text and must not panic either.
//!
//! The input is the response text itself (lossily decoded), so a model response is a seed as
//! it stands; the chunk sizes (1 to 16 bytes), the mode, and whether the catalog is that of the
//! version the text looks like (three times in four) or of the other one come from a hash of the
//! input. Reads the A2UI specification's catalogs from `../shared/a2ui/spec` (or
//! `$A2UI_SHARED/a2ui/spec`); without them it says so and stops.
#![no_main]

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::Emission;
use a2ui_stream::official::legacy::{ProgressiveParser, ResponsePart};
use a2ui_stream::official::legacy::response::{has_a2ui_parts, parse_and_fix, parse_response};
use a2ui_stream::official::validator::Validator;
use libfuzzer_sys::fuzz_target;

/// The basic catalog of each version, compiled once.
fn validators() -> &'static [Arc<Validator>] {
    static VALIDATORS: OnceLock<Vec<Arc<Validator>>> = OnceLock::new();
    VALIDATORS.get_or_init(|| {
        let shared = std::env::var_os("A2UI_SHARED")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
        let spec = shared.join("a2ui/spec");
        if !spec.is_dir() {
            println!(
                "progressive: no A2UI specification at {}; nothing to fuzz",
                spec.display()
            );
            std::process::exit(0);
        }
        [Version::V08, Version::V09]
            .into_iter()
            .map(|version| {
                let catalog = Catalog::basic(&spec, version)
                    .expect("the basic catalog loads")
                    .without_strict_validation();
                Arc::new(Validator::new(&catalog).expect("the basic catalog compiles"))
            })
            .collect()
    })
}

/// Chunks of 1 to 16 bytes (longer where a character would be cut), their sizes drawn from a
/// generator seeded with `seed`.
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

/// FNV-1a over the input: the same input always gets the same chunks.
fn hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The Value form written as the text form writes it.
fn written(parts: &[ResponsePart]) -> Vec<ResponsePart<String>> {
    parts
        .iter()
        .map(|part| ResponsePart {
            text: part.text.clone(),
            a2ui: part.a2ui.as_ref().map(|list| {
                list.iter()
                    .map(|m| serde_json::to_string(m).expect("a Value writes"))
                    .collect()
            }),
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let seed = hash(data);
    let pieces = chunks(&text, seed);
    // The version the text looks like, and one time in four the other one; either mode.
    let v09 = text.contains("v0.9") != (seed >> 60 == 0);
    let validator = &validators()[usize::from(v09)];
    let mode = if seed & (1 << 59) == 0 {
        Emission::Official
    } else {
        Emission::ChangedOnly
    };
    let mut trees = ProgressiveParser::with_validator(Arc::clone(validator), mode);
    let mut texts = ProgressiveParser::with_validator(Arc::clone(validator), mode);
    let mut trees_into = ProgressiveParser::with_validator(Arc::clone(validator), mode);
    let mut texts_into = ProgressiveParser::with_validator(Arc::clone(validator), mode);
    let (mut tree_parts, mut text_parts) = (Vec::new(), Vec::new());
    for (i, piece) in pieces.iter().enumerate() {
        let made = trees.process_chunk(piece);
        let into = trees_into
            .process_chunk_into(piece, &mut tree_parts)
            .map(|()| tree_parts.clone());
        assert_eq!(made, into, "{mode:?}, chunk {i}: {piece:?}: trees written over");
        let into = texts_into
            .process_chunk_json_into(piece, &mut text_parts)
            .map(|()| text_parts.clone());
        let texts_made = texts.process_chunk_json(piece);
        assert_eq!(texts_made, into, "{mode:?}, chunk {i}: {piece:?}: text written over");
        match (made, texts_made) {
            (Ok(a), Ok(b)) => assert_eq!(written(&a), b, "{mode:?}, chunk {i}: {piece:?}"),
            (Err(a), Err(b)) => assert_eq!(a, b, "{mode:?}, chunk {i}: {piece:?}"),
            (a, b) => panic!("{mode:?}, chunk {i}: {piece:?}: forms disagree: {a:?} / {b:?}"),
        }
    }
    // Ending the response hands out the rest in both forms alike, and comes to rest: a call
    // after it has nothing left to report.
    let (a, errors_a) = trees.finish();
    let (b, errors_b) = texts.finish_json();
    assert_eq!(errors_a, errors_b, "{mode:?}, at the end");
    assert_eq!(written(&a), b, "{mode:?}, at the end");
    assert_eq!(trees_into.finish(), (a, errors_a), "{mode:?}, at the end, trees written over");
    assert_eq!(texts_into.finish_json(), (b, errors_b), "{mode:?}, at the end, text written over");
    for (name, rest) in [
        ("trees", trees.process_chunk("").map(|p| p.len())),
        ("texts", texts.process_chunk_json("").map(|p| p.len())),
    ] {
        assert_eq!(rest, Ok(0), "{mode:?}: {name} not at rest after finishing");
    }
    let _ = has_a2ui_parts(&text);
    let _ = parse_response(&text);
    let _ = parse_and_fix(&text);
});
