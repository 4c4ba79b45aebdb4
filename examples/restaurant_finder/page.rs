//! The browser page: `GET /` answers `page/index.html`; its scripts (`/app.js`, `/resume.js`,
//! `/markdown.js`, `/theme-v0_8.js`) and the renderer bundles under `/dist/` are read from the
//! same folder, with tower-http's file services. Nothing else in the folder is served (not
//! `node_modules`, the sources or the npm manifests).
//!
//! The folder is `$A2UI_PAGE_DIR` when set, else `examples/restaurant_finder/page` of this crate's
//! source tree (found at compile time), else that path relative to the working directory.
//! `npm run build` in that folder makes the `dist/` bundles; without them the page loads the
//! renderer from a CDN.

use axum::Router;
use std::path::PathBuf;
use tower_http::services::{ServeDir, ServeFile};

/// The folder the page is served from.
pub fn page_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("A2UI_PAGE_DIR") {
        return dir.into();
    }
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(RELATIVE);
    if source.is_dir() {
        source
    } else {
        PathBuf::from(RELATIVE)
    }
}

const RELATIVE: &str = "examples/restaurant_finder/page";

/// The page's scripts, served by name.
const SCRIPTS: [&str; 4] = ["app.js", "resume.js", "markdown.js", "theme-v0_8.js"];

/// The page's routes, to merge beside the server's.
pub fn router() -> Router {
    let dir = page_dir();
    let mut router = Router::new()
        .route_service("/", ServeFile::new(dir.join("index.html")))
        .nest_service("/dist", ServeDir::new(dir.join("dist")));
    for script in SCRIPTS {
        router = router.route_service(&format!("/{script}"), ServeFile::new(dir.join(script)));
    }
    router
}
