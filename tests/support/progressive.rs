//! What the progressive-parser tests share: the restaurant-finder examples as responses, the
//! cases of the official streaming suite, and the text form of a part.
#![allow(dead_code)] // not every test file that includes this module needs all of it

use std::path::{Path, PathBuf};
use std::sync::Arc;

use a2ui_stream::official::Emission;
use a2ui_stream::official::catalog::{Catalog, Version};
use a2ui_stream::official::legacy::{ProgressiveError, ProgressiveParser, ResponsePart};
use a2ui_stream::official::validator::Validator;
use serde_json::Value;

/// Both emission modes.
pub const MODES: [Emission; 2] = [Emission::Official, Emission::ChangedOnly];

/// `../shared` (or `$A2UI_SHARED`), when it holds the official conformance suites.
pub fn shared() -> Option<PathBuf> {
    let dir = super::shared_root()?;
    dir.join("a2ui/conformance/suites").is_dir().then_some(dir)
}

/// `part` with every message as the text `serde_json` writes for it.
pub fn written(part: &ResponsePart) -> ResponsePart<String> {
    ResponsePart {
        text: part.text.clone(),
        a2ui: part
            .a2ui
            .as_ref()
            .map(|list| list.iter().map(Value::to_string).collect()),
    }
}

/// The restaurant-finder examples as responses, with the validator of their version.
pub fn restaurant_responses(shared: &Path) -> Vec<(String, Arc<Validator>, String)> {
    let mut out = Vec::new();
    for (folder, version) in [("0.8", Version::V08), ("0.9", Version::V09)] {
        let catalog = Catalog::basic(&shared.join("a2ui/spec"), version)
            .unwrap()
            .without_strict_validation();
        let validator = Arc::new(Validator::new(&catalog).unwrap());
        let dir = shared.join("a2ui/restaurant_finder/examples").join(folder);
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        for path in names {
            let body = std::fs::read_to_string(&path).unwrap();
            let text = format!("Here you go:\n<a2ui-json>\n{body}\n</a2ui-json>\nEnjoy!");
            out.push((path.display().to_string(), Arc::clone(&validator), text));
        }
    }
    out
}

/// The cases of the official streaming suite: each one's name, the validator of its catalog and
/// its inputs, step by step.
pub fn streaming_suite(shared: &Path) -> Vec<(String, Arc<Validator>, Vec<String>)> {
    let dir = shared.join("a2ui/conformance");
    let text = std::fs::read_to_string(dir.join("suites/streaming_parser.yaml")).unwrap();
    let cases: Vec<Value> = serde_norway::from_str(&text).unwrap();
    cases
        .iter()
        .map(|case| {
            let catalog = Catalog::from_config(&case["catalog"], &dir).unwrap();
            let inputs = case["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["input"].as_str().unwrap().to_owned())
                .collect();
            let name = case["name"].as_str().unwrap().to_owned();
            (name, Arc::new(Validator::new(&catalog).unwrap()), inputs)
        })
        .collect()
}

/// A progressive parser driven as the SDK's is: each chunk gives what it completed or, when it
/// met an error, that error alone, and what else it completed comes out of the next call (as
/// the SDK's `process_chunk` raises and its parser goes on); `finish` gives the rest and the
/// errors still to report.
pub struct SdkSteps<M> {
    pub parser: ProgressiveParser<M>,
    pending: Vec<Result<ResponsePart<M>, ProgressiveError>>,
}

/// The two forms of [`ProgressiveParser`], fed alike.
pub trait Feed<M> {
    fn feed_chunk(&mut self, chunk: &str) -> Vec<Result<ResponsePart<M>, ProgressiveError>>;
    fn finish_all(&mut self) -> Vec<Result<ResponsePart<M>, ProgressiveError>>;
}

impl Feed<Value> for ProgressiveParser {
    fn feed_chunk(&mut self, chunk: &str) -> Vec<Result<ResponsePart, ProgressiveError>> {
        self.feed(chunk)
    }
    fn finish_all(&mut self) -> Vec<Result<ResponsePart, ProgressiveError>> {
        self.finish()
    }
}

impl Feed<String> for ProgressiveParser<String> {
    fn feed_chunk(&mut self, chunk: &str) -> Vec<Result<ResponsePart<String>, ProgressiveError>> {
        self.feed(chunk)
    }
    fn finish_all(&mut self) -> Vec<Result<ResponsePart<String>, ProgressiveError>> {
        self.finish()
    }
}

impl<M> SdkSteps<M>
where
    ProgressiveParser<M>: Feed<M>,
{
    pub fn new(parser: ProgressiveParser<M>) -> Self {
        SdkSteps {
            parser,
            pending: Vec::new(),
        }
    }

    /// One chunk, as the SDK answers it.
    pub fn chunk(&mut self, chunk: &str) -> Result<Vec<ResponsePart<M>>, ProgressiveError> {
        let mut all = std::mem::take(&mut self.pending);
        all.extend(self.parser.feed_chunk(chunk));
        match all.iter().position(Result::is_err) {
            None => Ok(all.into_iter().flatten().collect()),
            Some(i) => {
                let err = all.remove(i).err().expect("an error");
                self.pending = all;
                Err(err)
            }
        }
    }

    /// The end: the parts still to come, and the errors still to report.
    pub fn finish(&mut self) -> (Vec<ResponsePart<M>>, Vec<ProgressiveError>) {
        let mut all = std::mem::take(&mut self.pending);
        all.extend(self.parser.finish_all());
        let (parts, errors): (Vec<_>, Vec<_>) = all.into_iter().partition(Result::is_ok);
        (
            parts.into_iter().flatten().collect(),
            errors.into_iter().filter_map(Result::err).collect(),
        )
    }
}
