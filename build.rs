//! Tells the tests whether the A2UI project's data is beside the crate (`../shared`, or
//! `$A2UI_SHARED`): with `cfg(a2ui_shared)` unset, the tests that read it are counted as
//! ignored rather than passed. The library itself does not use it.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(a2ui_shared)");
    println!("cargo::rerun-if-env-changed=A2UI_SHARED");
    let root = std::env::var_os("A2UI_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default())
                .join("../shared")
        });
    let a2ui = root.join("a2ui");
    println!("cargo::rerun-if-changed={}", a2ui.display());
    if a2ui.is_dir() {
        println!("cargo::rustc-cfg=a2ui_shared");
    }
}
