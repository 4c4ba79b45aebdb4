//! The restaurant finder page in a real browser: the demo server runs as a process, through its
//! own entry point (`restaurant_finder serve --addr 127.0.0.1:0`, the binary `cargo test` builds,
//! with its scripted model at its default pace or `$A2UI_SCRIPTED_DELAY_MS`), and
//! `tests/browser/run.mjs` drives headless Chromium through the page it serves with
//! the official `@a2ui/lit` renderer, once per A2UI version, and once more for v0.9 with the model
//! writing A2UI Express (`serve --format express`). It checks that the restaurant cards appear
//! while the answer streams (not all at the end), that the renderer throws nothing, and that
//! Book → booking form → Reserve → confirmation works. Its timings are printed (run with
//! `--nocapture` to see them); a mid-run screenshot goes to `target/browser/`.
//!
//! Needs `node`, `npm`, Chromium (`$CHROME`, else `/usr/bin/chromium`) and the page's npm
//! packages (`npm ci && npm run build` in `examples/restaurant_finder/page`; tried once here when
//! missing). Without them the test says what is missing in one line and passes, except with
//! `CI=true`, where it fails.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use support::demo::{self, Model, Server};
use tokio::process::Command;
use tokio::sync::{Mutex, OnceCell};

/// The query typed into the page.
const QUERY: &str = "Top 5 Chinese restaurants in New York";

/// How long `npm ci` and `npm run build` may take when the test has to run them.
const SETUP_TIMEOUT: Duration = Duration::from_secs(240);
/// How long one version's browser run may take.
const RUN_TIMEOUT: Duration = Duration::from_secs(300);

/// One browser at a time: the timings are compared within a run, but two Chromiums on a small
/// machine would still slow each other down.
static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());
/// The outcome of checking (and, once, installing) what the test needs: Chromium's path.
static READY: OnceCell<Result<PathBuf, String>> = OnceCell::const_new();
/// Whether the skip has been reported.
static SAID_SKIP: AtomicBool = AtomicBool::new(false);

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The page's folder, as the demo finds it: `$A2UI_PAGE_DIR`, else the one in this checkout.
fn page_dir() -> PathBuf {
    std::env::var_os("A2UI_PAGE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("examples/restaurant_finder/page"))
}

/// Runs `program args` in `dir` within `limit`; `Err` says what went wrong (with its output).
async fn run_tool(
    program: &str,
    args: &[&str],
    dir: &Path,
    limit: Duration,
) -> Result<String, String> {
    let what = format!("`{program} {}`", args.join(" "));
    let child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("{what} could not start: {e}"))?;
    let out = tokio::time::timeout(limit, child.wait_with_output())
        .await
        .map_err(|_| format!("{what} took more than {} s", limit.as_secs()))?
        .map_err(|e| format!("{what} failed: {e}"))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(text)
    } else {
        Err(format!("{what} failed ({}):\n{text}", out.status))
    }
}

/// Checks for node, npm, Chromium, the page's packages and bundles; installs the packages
/// (`npm ci`) and builds the bundles once when they are missing.
async fn prepare() -> Result<PathBuf, String> {
    let page = page_dir();
    for tool in ["node", "npm"] {
        run_tool(tool, &["--version"], &page, Duration::from_secs(30))
            .await
            .map_err(|e| {
                format!(
                    "{tool} is not available ({})",
                    e.lines().next().unwrap_or("")
                )
            })?;
    }
    let chrome = std::env::var_os("CHROME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if !chrome.is_file() {
        return Err(format!(
            "Chromium not found at {} (install Debian's chromium or set CHROME)",
            chrome.display()
        ));
    }
    let installed = ["puppeteer-core", "@a2ui/lit", "@ag-ui/client", "esbuild"]
        .iter()
        .all(|p| {
            page.join("node_modules")
                .join(p)
                .join("package.json")
                .is_file()
        });
    if !installed {
        let install = if page.join("package-lock.json").is_file() {
            "ci"
        } else {
            "install"
        };
        run_tool(
            "npm",
            &[install, "--no-audit", "--no-fund"],
            &page,
            SETUP_TIMEOUT,
        )
        .await
        .map_err(|e| {
            format!("the page's npm packages are missing and npm {install} failed: {e}")
        })?;
    }
    let bundles = ["a2ui-v0_9.js", "a2ui-v0_8.js"];
    if !bundles.iter().all(|b| page.join("dist").join(b).is_file()) {
        run_tool("npm", &["run", "build"], &page, SETUP_TIMEOUT)
            .await
            .map_err(|e| format!("the page's bundles are missing and npm run build failed: {e}"))?;
    }
    Ok(chrome)
}

/// Chromium's path, or `None` after saying in one line why the test cannot run (a failure under
/// `CI=true`).
async fn ready() -> Option<PathBuf> {
    match READY.get_or_init(prepare).await {
        Ok(chrome) => Some(chrome.clone()),
        Err(why) if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("browser test cannot run under CI: {why}")
        }
        Err(why) => {
            // One line for the whole binary, not one per test.
            if !SAID_SKIP.swap(true, Ordering::Relaxed) {
                println!(
                    "browser test skipped: {}",
                    why.lines().next().unwrap_or(why)
                );
            }
            None
        }
    }
}

/// The restaurants the demo shows for [`QUERY`], in order: the names in the list's data model
/// after its console run (`--messages`), once per test binary.
async fn expected_names() -> Vec<String> {
    static NAMES: OnceCell<Vec<String>> = OnceCell::const_new();
    NAMES
        .get_or_init(|| async {
            let out =
                demo::console(&["--a2ui", "0.9", "--messages", QUERY], Model::Scripted(0)).await;
            assert!(!out.failed(), "the console run failed:\n{}", out.text());
            let mut ui = a2ui_stream::renderer::RendererState::new();
            for m in out.messages() {
                ui.apply(&m).unwrap_or_else(|e| panic!("{m}: {e}"));
            }
            let items = ui
                .surface("restaurant-list")
                .and_then(|s| s.data("/items"))
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            items
                .iter()
                .filter_map(|r| r["name"].as_str().map(str::to_owned))
                .collect()
        })
        .await
        .clone()
}

/// Serves the demo (its scripted model at the default pace, writing its UIs in `format`: `json`
/// or `express`) on 127.0.0.1 and runs the browser script for `version` against it.
async fn browser_run(version: &str, format: &str, cut_after: Option<usize>) {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(chrome) = ready().await else { return };

    let cut = cut_after.map(|n| n.to_string());
    let mut args = vec!["--format", format];
    if let Some(n) = &cut {
        args.extend(["--cut-after", n.as_str()]);
    }
    let server = Server::start(&args, Model::ScriptedAtDefaultPace).await;

    let names = expected_names().await;
    assert_eq!(
        names.len(),
        5,
        "the scripted data has five restaurants for {QUERY:?}"
    );
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap_or(Path::new("target"))
        .to_path_buf();
    let named = match format {
        "json" => format!("restaurant-finder-{version}.png"),
        other => format!("restaurant-finder-{version}-{other}.png"),
    };
    let shot = target.join("browser").join(named);
    let script = repo().join("tests/browser/run.mjs");
    let url = server.base.clone();
    let child = Command::new("node")
        .arg(&script)
        .args([url.as_str(), version, "--query", QUERY, "--names"])
        .arg(names.join("|"))
        .arg("--screenshot")
        .arg(&shot)
        .args(["--resumes", if cut_after.is_some() { "yes" } else { "no" }])
        .env("CHROME", &chrome)
        .env("A2UI_PAGE_DIR", page_dir())
        .current_dir(repo())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start node");
    let out = tokio::time::timeout(RUN_TIMEOUT, child.wait_with_output()).await;
    let out = match out {
        Ok(out) => out.expect("node ran"),
        Err(_) => panic!(
            "{version} ({format}): the browser run took more than {} s",
            RUN_TIMEOUT.as_secs()
        ),
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("--format {format}: {}", text.trim_end());
    assert!(
        out.status.success(),
        "{version} ({format}): the browser run failed ({}):\n{text}\n--- the demo server's log ---\n{}",
        out.status,
        server.log_text()
    );
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v0_9_cards_stream_in_and_booking_works() {
    browser_run("v0.9", "json", None).await;
}

/// The same, the model writing A2UI Express: the page gets the same messages, compiled from it
/// statement by statement.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v0_9_express_cards_stream_in_and_booking_works() {
    browser_run("v0.9", "express", None).await;
}

/// The server breaks each run's first connection after 60 events (while the cards stream in);
/// the page resumes with `Last-Event-ID` and the run completes as if nothing happened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v0_9_page_resumes_runs_whose_connection_breaks() {
    browser_run("v0.9", "json", Some(60)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v0_8_cards_stream_in_and_booking_works() {
    browser_run("v0.8", "json", None).await;
}
