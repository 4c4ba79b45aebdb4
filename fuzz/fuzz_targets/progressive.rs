//! The official-semantics parser on arbitrary text cut into arbitrary chunks, with the basic
//! catalog of either protocol version and in either emission mode: no panic, and the two output
//! forms agree after every chunk (each message of a `json()` parser is exactly the compact JSON
//! of the same message from a tree parser, the prose is the same, and an error is the same error
//! in the same place), including on the chunks after an error. Parsers handed back every step's
//! parts (`recycle`) hand out exactly what parsers handed back nothing do, after every chunk and
//! at the end. After `finish`, the parser is at rest: an empty chunk hands out nothing. The whole-response parser and the payload fixer get
//! the same text and must not panic either.
//!
//! The input is the response text itself (lossily decoded), so a model response is a seed as
//! it stands; the chunk sizes (1 to 16 bytes), the mode, and whether the catalog is that of the
//! version the text looks like (three times in four) or of the other one come from a hash of the
//! input. Reads the A2UI specification's catalogs from `../shared/a2ui/spec` (or
//! `$A2UI_SHARED/a2ui/spec`); without them it says so and stops.
#![no_main]

mod seeded;

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::Emission;
use a2ui_stream::official::legacy::{ProgressiveError, ProgressiveParser, ResponsePart};
use a2ui_stream::official::legacy::response::{has_a2ui_parts, parse_and_fix, parse_response};
use a2ui_stream::official::validator::Validator;
use libfuzzer_sys::fuzz_target;
use seeded::{chunks, seed};

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

/// The Value form written as the text form writes it.
fn written(parts: &[Result<ResponsePart, ProgressiveError>]) -> Vec<Result<ResponsePart<String>, ProgressiveError>> {
    parts
        .iter()
        .map(|part| {
            part.as_ref().map_err(Clone::clone).map(|part| ResponsePart {
                text: part.text.clone(),
                a2ui: part.a2ui.as_ref().map(|list| {
                    list.iter()
                        .map(|m| serde_json::to_string(m).expect("a Value writes"))
                        .collect()
                }),
            })
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let seed = seed(data);
    let pieces = chunks(&text, seed);
    // The version the text looks like, and one time in four the other one; either mode.
    let v09 = text.contains("v0.9") != (seed >> 60 == 0);
    let validator = &validators()[usize::from(v09)];
    let mode = if seed & (1 << 59) == 0 {
        Emission::Official
    } else {
        Emission::ChangedOnly
    };
    let new = || ProgressiveParser::with_validator(Arc::clone(validator), mode);
    let (mut trees, mut trees_into) = (new(), new());
    let (mut texts, mut texts_into) = (new().json(), new().json());
    for (i, piece) in pieces.iter().enumerate() {
        let made = trees.feed(piece);
        let into = trees_into.feed(piece);
        assert_eq!(made, into, "{mode:?}, chunk {i}: {piece:?}: trees written over");
        trees_into.recycle(into);
        let texts_made = texts.feed(piece);
        let into = texts_into.feed(piece);
        assert_eq!(texts_made, into, "{mode:?}, chunk {i}: {piece:?}: text written over");
        texts_into.recycle(into);
        assert_eq!(written(&made), texts_made, "{mode:?}, chunk {i}: {piece:?}: forms disagree");
    }
    // Ending the response hands out the rest in both forms alike, and comes to rest: a call
    // after it has nothing left to report.
    let a = trees.finish();
    let b = texts.finish();
    assert_eq!(written(&a), b, "{mode:?}, at the end");
    assert_eq!(trees_into.finish(), a, "{mode:?}, at the end, trees written over");
    assert_eq!(texts_into.finish(), b, "{mode:?}, at the end, text written over");
    assert!(trees.feed("").is_empty(), "{mode:?}: trees not at rest after finishing");
    assert!(texts.feed("").is_empty(), "{mode:?}: texts not at rest after finishing");
    let _ = has_a2ui_parts(&text);
    let _ = parse_response(&text);
    let _ = parse_and_fix(&text);
});
