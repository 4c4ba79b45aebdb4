//! The restaurant finder page in a real browser: the demo server (scripted model, default pace)
//! runs in-process, and `tests/browser/run.mjs` drives headless Chromium through the page with
//! the official `@a2ui/lit` renderer, once per A2UI version. It checks that the restaurant cards
//! appear while the answer streams (not all at the end), that the renderer throws nothing, and
//! that Book → booking form → Reserve → confirmation works. Its timings are printed (run with
//! `--nocapture` to see them); a mid-run screenshot goes to `target/browser/`.
//!
//! Needs `node`, `npm`, Chromium (`$CHROME`, else `/usr/bin/chromium`) and the page's npm
//! packages (`npm ci && npm run build` in `examples/restaurant_finder/page`; tried once here when
//! missing). Without them the test says what is missing in one line and passes, except with
//! `CI=true`, where it fails.

#![allow(dead_code)]

#[path = "../examples/restaurant_finder/console.rs"]
mod console;
#[path = "../examples/restaurant_finder/limits.rs"]
mod limits;
#[path = "../examples/restaurant_finder/llm.rs"]
mod llm;
#[path = "../examples/restaurant_finder/official.rs"]
mod official;
#[path = "../examples/restaurant_finder/page.rs"]
mod page;
#[path = "../examples/restaurant_finder/prompt.rs"]
mod prompt;
#[path = "../examples/restaurant_finder/runs.rs"]
mod runs;
#[path = "../examples/restaurant_finder/scripted.rs"]
mod scripted;
#[path = "../examples/restaurant_finder/server.rs"]
mod server;
#[path = "../examples/restaurant_finder/surface.rs"]
mod surface;
#[path = "../examples/restaurant_finder/tools.rs"]
mod tools;
#[path = "../examples/restaurant_finder/trim.rs"]
mod trim;
#[path = "../examples/restaurant_finder/ui.rs"]
mod ui;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
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
    let page = page::page_dir();
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

/// The restaurants the scripted model shows for [`QUERY`], in order.
fn expected_names() -> Vec<String> {
    let args = scripted::parse_query(QUERY);
    let count = args.count.unwrap_or(5) as usize;
    tools::get_restaurants(&args.cuisine, &args.location, count)
        .into_iter()
        .map(|r| r.name)
        .collect()
}

/// Serves the demo (scripted model at its default pace) on 127.0.0.1 and runs the browser script
/// for `version` against it.
async fn browser_run(version: &str, cut_after: Option<usize>) {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(chrome) = ready().await else { return };

    let model = scripted::ScriptedModel::start(scripted::delay_from_env())
        .await
        .expect("scripted model");
    let agent = llm::Agent::new(&llm::ModelConfig {
        api_base: model.api_base(),
        api_key: "scripted".into(),
        model: "scripted".into(),
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().expect("local address");
    let mut config = server::ServerConfig::new(ui::Version::V09);
    config.cut_after = cut_after;
    let app = server::router_with(agent, config, tokio::sync::watch::channel(false).1);
    let server = tokio::spawn(async move { axum::serve(listener, app).await });

    let names = expected_names();
    assert_eq!(
        names.len(),
        5,
        "the scripted data has five restaurants for {QUERY:?}"
    );
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap_or(Path::new("target"))
        .to_path_buf();
    let shot = target
        .join("browser")
        .join(format!("restaurant-finder-{version}.png"));
    let script = repo().join("tests/browser/run.mjs");
    let url = format!("http://{addr}");
    let child = Command::new("node")
        .arg(&script)
        .args([url.as_str(), version, "--query", QUERY, "--names"])
        .arg(names.join("|"))
        .arg("--screenshot")
        .arg(&shot)
        .args(["--resumes", if cut_after.is_some() { "yes" } else { "no" }])
        .env("CHROME", &chrome)
        .env("A2UI_PAGE_DIR", page::page_dir())
        .current_dir(repo())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start node");
    let out = tokio::time::timeout(RUN_TIMEOUT, child.wait_with_output()).await;
    server.abort();
    let out = match out {
        Ok(out) => out.expect("node ran"),
        Err(_) => panic!(
            "{version}: the browser run took more than {} s",
            RUN_TIMEOUT.as_secs()
        ),
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{}", text.trim_end());
    assert!(
        out.status.success(),
        "{version}: the browser run failed ({}):\n{text}",
        out.status
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v0_9_cards_stream_in_and_booking_works() {
    browser_run("v0.9", None).await;
}

/// The server breaks each run's first connection after 60 events (while the cards stream in);
/// the page resumes with `Last-Event-ID` and the run completes as if nothing happened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v0_9_page_resumes_runs_whose_connection_breaks() {
    browser_run("v0.9", Some(60)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v0_8_cards_stream_in_and_booking_works() {
    browser_run("v0.8", None).await;
}
