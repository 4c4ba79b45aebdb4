//! Shared by the integration tests: where the A2UI project's data lives.

use std::path::{Path, PathBuf};

/// The shared data folder — `$A2UI_SHARED`, else `../shared` beside the crate — when it holds
/// `a2ui/`. Tests that need it print one line and skip when this is `None`.
pub fn shared_root() -> Option<PathBuf> {
    let root = std::env::var_os("A2UI_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    root.join("a2ui").is_dir().then_some(root)
}
