//! Runs the official A2UI conformance suites (`streaming_parser.yaml`, `parser.yaml`,
//! `validator.yaml`) from `../shared/a2ui/conformance` (or `$A2UI_SHARED/a2ui/conformance`),
//! prints `N passed, N failed` for each, and fails on any failure.
#![cfg(feature = "official")]

#[path = "conformance/parser_suite.rs"]
mod parser_suite;
#[path = "conformance/streaming_suite.rs"]
mod streaming_suite;
#[path = "conformance/suite.rs"]
mod suite;
#[path = "conformance/validator_suite.rs"]
mod validator_suite;

use std::path::PathBuf;

mod support;

fn conformance_dir() -> Option<PathBuf> {
    let dir = support::shared_root()?.join("a2ui/conformance");
    dir.join("suites").is_dir().then_some(dir)
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn official_conformance_suites() {
    let Some(dir) = conformance_dir() else {
        support::say("skipping conformance suites: ../shared/a2ui/conformance not found");
        return;
    };
    let streaming = streaming_suite::run(&dir);
    assert_eq!(
        streaming.len(),
        80,
        "streaming_parser.yaml should hold 80 cases"
    );
    let parser = parser_suite::run(&dir);
    let validator = validator_suite::run(&dir);
    assert_eq!(parser.len(), 17, "parser.yaml should hold 17 cases");
    assert_eq!(validator.len(), 45, "validator.yaml should hold 45 cases");
    let failures = suite::report("streaming_parser.yaml", &streaming)
        + suite::report("parser.yaml", &parser)
        + suite::report("validator.yaml", &validator);
    assert_eq!(failures, 0, "conformance failures");
}
