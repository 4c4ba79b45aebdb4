//! The A2UI project's data: the tests that read it are ignored when it is absent, so under CI
//! (`CI=true`) its absence is a failure rather than a quiet pass.

mod support;

#[test]
fn the_shared_data_is_there_under_ci() {
    let under_ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    let found = support::shared_root().is_some();
    assert!(
        found || !under_ci,
        "CI is set but the A2UI project's data was not found (../shared or $A2UI_SHARED)"
    );
    if !found {
        support::say(
            "the A2UI project's data was not found (../shared or $A2UI_SHARED): the tests that read it are ignored",
        );
    }
    // The build script decides which tests are ignored; it must see what the tests see.
    assert_eq!(found, cfg!(a2ui_shared));
}
