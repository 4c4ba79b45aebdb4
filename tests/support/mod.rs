//! Shared by the integration tests: where the A2UI project's data lives.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Fixed-size chunks of a text.
#[allow(dead_code)] // not every test file that includes this module needs it
pub mod chunks;

/// The restaurant finder demo as a process: its binary on the console or as a server.
#[allow(dead_code)] // not every test file that includes this module needs it
pub mod demo;

/// One thing an agent produced, as a value, and the `RunBuilder` call that writes it.
#[cfg(feature = "agui")]
#[allow(dead_code)] // not every test file that includes this module needs it
pub mod outputs;

/// A client of an AG-UI server's runs (requests, frames, checks on a whole run).
#[cfg(feature = "agui")]
#[allow(dead_code)] // not every test file that includes this module needs it
pub mod runs;

/// A `redis-server` of the test's own, for the run log's Redis backend.
#[cfg(feature = "store-redis")]
#[allow(dead_code)] // not every test file that includes this module needs it
pub mod redis;

/// Parts as the official suites write them.
#[cfg(feature = "official")]
#[allow(dead_code)] // not every test file that includes this module needs it
pub mod parts;

/// What the Express suite runners share.
#[cfg(feature = "express")]
#[allow(dead_code)] // not every test file that includes this module needs it
pub mod express;

/// What the progressive-parser tests share.
#[cfg(feature = "legacy")]
pub mod progressive;

/// Prints one line where `cargo test` shows it. The test harness keeps back what `println!`
/// prints unless the test fails; a line written to the standard output directly goes past it,
/// so a skipped test says that it skipped, and a suite its tally, in every run.
#[allow(dead_code)] // not every test file that includes this module needs it
pub fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    // Nothing to do when the standard output is gone.
    let _ = writeln!(out, "{line}");
}

/// [`say`] once per `once`: for a skip inside a property test, whose body runs once per case.
#[allow(dead_code)] // not every test file that includes this module needs it
pub fn say_once(once: &std::sync::Once, line: &str) {
    once.call_once(|| say(line));
}

/// The shared data folder — `$A2UI_SHARED`, else `../shared` beside the crate — when it holds
/// `a2ui/`. Tests that need it print one line and skip when this is `None`.
#[allow(dead_code)] // not every test file that includes this module needs it
pub fn shared_root() -> Option<PathBuf> {
    let root = std::env::var_os("A2UI_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    root.join("a2ui").is_dir().then_some(root)
}

/// `<shared>/a2ui`, or `None` after printing the one line that says the test is skipped.
#[allow(dead_code)] // not every test file that includes this module needs it
pub fn a2ui_or_skip() -> Option<PathBuf> {
    let a2ui = shared_root().map(|root| root.join("a2ui"));
    if a2ui.is_none() {
        say(
            "skipped: the shared A2UI data (../shared/a2ui) was not found; set A2UI_SHARED to the folder that holds it",
        );
    }
    a2ui
}

/// `text` cut at the given fractions of its length (each moved forward to a character
/// boundary), in order, with no empty piece.
#[allow(dead_code)] // not every test file that includes this module needs it
pub fn cut<'a>(text: &'a str, fractions: &[f64]) -> Vec<&'a str> {
    let mut at: Vec<usize> = fractions
        .iter()
        .map(|f| {
            let mut i = ((text.len() as f64) * f) as usize;
            while !text.is_char_boundary(i) {
                i += 1;
            }
            i
        })
        .collect();
    at.push(0);
    at.push(text.len());
    at.sort_unstable();
    at.dedup();
    at.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}
