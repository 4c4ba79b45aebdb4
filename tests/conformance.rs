//! Runs the official A2UI conformance suites (`streaming_parser.yaml`, `parser.yaml`,
//! `validator.yaml`) from `../shared/a2ui/conformance` (or `$A2UI_SHARED/a2ui/conformance`),
//! the v1.0 validator suite (`core/validator_v1_0.yaml`) and the streaming parser's successor
//! suite `agent/legacy/streaming_parser.yaml` from `../shared/a2ui-v1/conformance`, prints
//! `N passed, N failed` for each, and fails on any failure.
#![cfg(feature = "official")]

#[cfg(feature = "legacy")]
#[path = "conformance/parser_suite.rs"]
mod parser_suite;
#[cfg(feature = "legacy")]
#[path = "conformance/streaming_suite.rs"]
mod streaming_suite;
#[path = "conformance/suite.rs"]
mod suite;
#[path = "conformance/validator_suite.rs"]
mod validator_suite;
#[path = "conformance/validator_v1_suite.rs"]
mod validator_v1_suite;

use std::path::PathBuf;

mod support;

fn conformance_dir() -> Option<PathBuf> {
    let dir = support::shared_root()?.join("a2ui/conformance");
    dir.join("suites").is_dir().then_some(dir)
}

/// `<shared>/a2ui-v1/conformance`, the suites published after the project's move (protocol v1.0),
/// when it is there.
#[cfg(feature = "legacy")]
fn v1_conformance_dir() -> Option<PathBuf> {
    let dir = support::shared_root()?.join("a2ui-v1/conformance");
    dir.join("agent").is_dir().then_some(dir)
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn official_validator_suite() {
    let Some(dir) = conformance_dir() else {
        support::say("skipping validator.yaml: ../shared/a2ui/conformance not found");
        return;
    };
    let validator = validator_suite::run(&dir);
    assert_eq!(validator.len(), 45, "validator.yaml should hold 45 cases");
    assert_eq!(
        suite::report("validator.yaml", &validator),
        0,
        "validator.yaml failures"
    );
}

/// The suites of the parsers of SDK 0.2.4-0.8.0 (`official::legacy`, feature `legacy`).
#[cfg(feature = "legacy")]
#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn legacy_parser_suites() {
    let Some(dir) = conformance_dir() else {
        support::say("skipping the legacy parser suites: ../shared/a2ui/conformance not found");
        return;
    };
    let streaming = streaming_suite::run(&dir);
    assert_eq!(
        streaming.len(),
        80,
        "streaming_parser.yaml should hold 80 cases"
    );
    let parser = parser_suite::run(&dir);
    assert_eq!(parser.len(), 17, "parser.yaml should hold 17 cases");
    let mut failures =
        suite::report("streaming_parser.yaml", &streaming) + suite::report("parser.yaml", &parser);
    match v1_conformance_dir() {
        Some(v1) => {
            let legacy = streaming_suite::run_legacy(&v1);
            failures += suite::report("legacy/streaming_parser.yaml", &legacy);
            assert_eq!(
                legacy.len(),
                84,
                "legacy/streaming_parser.yaml should hold 84 cases"
            );
        }
        None => support::say(
            "skipping legacy/streaming_parser.yaml: ../shared/a2ui-v1/conformance not found",
        ),
    }
    assert_eq!(failures, 0, "conformance failures");
}

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn official_v1_0_validator_suite() {
    let Some(shared) =
        support::shared_root().filter(|s| s.join(validator_v1_suite::FILE).is_file())
    else {
        support::say("skipping the v1.0 validator suite: ../shared/a2ui-v1 not found");
        return;
    };
    let results = validator_v1_suite::run(&shared);
    assert_eq!(
        results.len(),
        11,
        "core/validator_v1_0.yaml should hold 11 cases"
    );
    let failures = suite::report("core/validator_v1_0.yaml", &results);
    assert_eq!(failures, 0, "v1.0 validator suite failures");
}
