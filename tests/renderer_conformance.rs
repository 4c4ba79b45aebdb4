//! Runs the A2UI project's renderer-side conformance suite, `core/message_processor_v1_0.yaml`,
//! from `../shared/a2ui-v1/conformance` (or `$A2UI_SHARED/a2ui-v1/conformance`) against
//! `renderer::RendererState`, prints `N passed, N failed`, and fails on any failure.

#[path = "conformance/message_processor_suite.rs"]
mod message_processor_suite;
#[path = "conformance/suite.rs"]
mod suite;

mod support;

#[cfg_attr(
    not(a2ui_shared),
    ignore = "needs the A2UI project's data: ../shared or $A2UI_SHARED"
)]
#[test]
fn message_processor_v1_0_suite() {
    let Some(dir) = support::shared_root()
        .map(|root| root.join("a2ui-v1/conformance"))
        .filter(|dir| dir.join(message_processor_suite::FILE).is_file())
    else {
        support::say(
            "skipping the message processor suite: ../shared/a2ui-v1/conformance/core not found",
        );
        return;
    };
    let results = message_processor_suite::run(&dir);
    assert_eq!(
        results.len(),
        24,
        "message_processor_v1_0.yaml should hold 24 cases"
    );
    let failures = suite::report(message_processor_suite::FILE, &results);
    assert_eq!(failures, 0, "conformance failures");
}
