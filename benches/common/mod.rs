//! What the progressive-parser benchmarks share: where the A2UI data is, how an example becomes a
//! model response, how a response is cut into chunks, and one timed response.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use a2ui_stream::official::Emission;
use a2ui_stream::official::legacy::{ProgressiveParser, ResponsePart};
use a2ui_stream::official::validator::Validator;
use cpu_time::ThreadTime;

/// Bytes per chunk, as a model streams tokens.
pub const CHUNK: usize = 4;

/// How a step's messages are handed out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// `Value` trees made afresh every step (`feed`).
    Trees,
    /// Compact JSON text (a parser made with `json()`).
    Text,
    /// `Value` trees written over those of the step before, handed back (`recycle`).
    TreesInto,
    /// JSON text written over the text of the step before, handed back (`recycle`).
    TextInto,
}

/// A progressive parser in the form an [`Output`] asks for.
pub enum Parser {
    Trees(ProgressiveParser),
    Text(ProgressiveParser<String>),
}

impl Parser {
    /// A parser sharing `validator`, in `mode`, handing out messages as `output` says.
    pub fn new(validator: &Arc<Validator>, mode: Emission, output: Output) -> Parser {
        let parser = ProgressiveParser::with_validator(Arc::clone(validator), mode);
        match output {
            Output::Trees | Output::TreesInto => Parser::Trees(parser),
            Output::Text | Output::TextInto => Parser::Text(parser.json()),
        }
    }
}

/// `../shared` (or `$A2UI_SHARED`), when it holds the A2UI data.
pub fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("A2UI_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    dir.join("a2ui/restaurant_finder").is_dir().then_some(dir)
}

/// The example as a model response (the same wrapping as `official_sdk.py`).
pub fn wrap(body: &str) -> String {
    format!("Here is what I found for you.\n<a2ui-json>\n{body}\n</a2ui-json>\nEnjoy your meal!")
}

/// The example `times` times in one stream, copy `i` on surface ids prefixed `r{i}-` (so that
/// the parser's state grows with every copy).
pub fn repeated(body: &str, times: usize) -> String {
    (0..times)
        .map(|i| {
            if i == 0 {
                wrap(body)
            } else {
                let renamed = body
                    .replace("\"surfaceId\": \"", &format!("\"surfaceId\": \"r{i}-"))
                    .replace("\"surfaceId\":\"", &format!("\"surfaceId\":\"r{i}-"));
                wrap(&renamed)
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[path = "../../tests/support/chunks.rs"]
mod chunking;

/// `text` in chunks of [`CHUNK`] bytes (longer where a character would be cut).
pub fn chunks(text: &str) -> Vec<&str> {
    chunking::chunks(text, CHUNK)
}

/// One response as a server handles it: every chunk fed to a new parser sharing `validator`, and
/// what each chunk returned dropped once looked at (a server sends it on), or handed back for
/// the next step; messages in the form `output` says. Returns the CPU time of this thread from the first chunk
/// to the last chunk's output dropped, and the number of parts (so the work cannot be skipped).
///
/// What the clock covers is what `official_sdk.py` times on the SDK side: making the parser
/// before the first chunk and dropping it after the last are outside it, on both sides.
pub fn run(
    validator: &Arc<Validator>,
    mode: Emission,
    pieces: &[&str],
    output: Output,
) -> (Duration, usize) {
    let mut parser = Parser::new(validator, mode, output);
    let timed = timed_feed(&mut parser, pieces, output);
    drop(parser);
    timed
}

/// [`feed`] on the clock: the CPU time of this thread it took, and the number of parts.
pub fn timed_feed(parser: &mut Parser, pieces: &[&str], output: Output) -> (Duration, usize) {
    timed(|| feed(parser, pieces, output))
}

/// `work` on the clock: the CPU time of this thread it took, and what it returned.
pub fn timed<T>(work: impl FnOnce() -> T) -> (Duration, T) {
    let start = ThreadTime::now();
    let out = work();
    (start.elapsed(), out)
}

/// Feeds every chunk of a response to `parser`, dropping what each returns once looked at (or,
/// with an `Into` output, handing it back after looking at it); the number of parts. Kept out
/// of line, so that an instruction counter can count just it (`benches/instructions.py`).
#[inline(never)]
pub fn feed(parser: &mut Parser, pieces: &[&str], output: Output) -> usize {
    let recycle = matches!(output, Output::TreesInto | Output::TextInto);
    let mut parts = 0;
    for piece in pieces {
        parts += match parser {
            Parser::Trees(p) => {
                let out = p.feed(piece);
                assert!(out.iter().all(Result::is_ok), "example parses");
                let n = std::hint::black_box(&out).len();
                if recycle {
                    p.recycle(out);
                }
                n
            }
            Parser::Text(p) => {
                let out = p.feed(piece);
                assert!(out.iter().all(Result::is_ok), "example parses");
                let n = std::hint::black_box(&out).len();
                if recycle {
                    p.recycle(out);
                }
                n
            }
        };
    }
    parts
}

/// One response, keeping what every chunk returned (messages as `Value` trees).
pub fn collect(
    validator: &Arc<Validator>,
    mode: Emission,
    pieces: &[&str],
) -> Vec<Vec<ResponsePart>> {
    let mut parser = ProgressiveParser::with_validator(Arc::clone(validator), mode);
    pieces
        .iter()
        .map(|piece| {
            parser
                .feed(piece)
                .into_iter()
                .collect::<Result<Vec<_>, _>>()
                .expect("example parses")
        })
        .collect()
}
