//! The browser page: `GET /` answers `page/index.html`, `GET /app.js`, `/dist/a2ui-v0_9.js` and
//! the page's other files are read from the same folder.
//!
//! The folder is `$A2UI_PAGE_DIR` when set, else `examples/restaurant_finder/page` of this crate's
//! source tree (found at compile time), else that path relative to the working directory. Only
//! the page's own kinds of files are served (no dot files, nothing under `node_modules`, no JSON
//! manifests); `npm run build` in that folder makes the `dist/` bundles, and without them the
//! page loads the renderer from a CDN.

use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::path::PathBuf;

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

/// `GET /` and `GET /{*path}` for the page's files. Merged into the server's router; the
/// server's own routes (`/agent`, `/healthz`) take precedence over the wildcard.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(|| serve("index.html".to_owned())))
        .route("/{*path}", get(|Path(path): Path<String>| serve(path)))
}

/// The content type of a servable file, by its extension; `None` for everything else.
fn content_type(path: &str) -> Option<&'static str> {
    let ext = path.rsplit_once('.')?.1;
    Some(match ext {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "map" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        _ => return None,
    })
}

/// Whether `path` (relative, `/`-separated) may be served: plain names only, no `..` or dot
/// files, nothing from `node_modules`.
fn allowed(path: &str) -> bool {
    let mut segments = path.split('/').peekable();
    if segments.peek() == Some(&"node_modules") {
        return false;
    }
    segments.all(|s| {
        !s.is_empty()
            && !s.starts_with('.')
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    })
}

async fn serve(path: String) -> Response {
    let Some(kind) = content_type(&path).filter(|_| allowed(&path)) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match tokio::fs::read(page_dir().join(&path)).await {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        Err(_) => StatusCode::NOT_FOUND.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serves_only_the_page_files() {
        assert!(allowed("index.html") && allowed("dist/a2ui-v0_9.js"));
        for bad in [
            "../Cargo.toml",
            "dist/../../x.js",
            ".git/config",
            "node_modules/lit/index.js",
            "a//b.js",
            "a\\b.js",
        ] {
            assert!(!allowed(bad), "{bad}");
        }
        assert_eq!(
            content_type("app.js"),
            Some("text/javascript; charset=utf-8")
        );
        assert_eq!(content_type("package.json"), None);
        assert_eq!(content_type("README"), None);
    }
}
