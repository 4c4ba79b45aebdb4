//! The restaurant finder demo as a process: its binary
//! (`target/<profile>/examples/restaurant_finder`, built on first use), run on the console (its output parsed) or as
//! a server (`serve --addr 127.0.0.1:0`, killed when dropped). Tests start it through its own
//! entry point and never include its modules.

use regex::Regex;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::{Child, Command};

/// How long a console run or a server's start may take.
const PROCESS_TIMEOUT: Duration = Duration::from_secs(120);

/// The environment the demo reads that a test must not inherit by chance.
const CLEARED: [&str; 13] = [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "A2UI_MODEL",
    "A2UI_STORE",
    "A2UI_ALLOWED_ORIGINS",
    "A2UI_MAX_RUNS",
    "A2UI_SHUTDOWN_TIMEOUT",
    "A2UI_CONNECT_TIMEOUT",
    "A2UI_FIRST_TOKEN_TIMEOUT",
    "A2UI_SILENCE_TIMEOUT",
    "A2UI_RUN_TIMEOUT",
    "A2UI_MODEL_RETRIES",
    "A2UI_SHARED",
];

/// The example binary beside this test's own (`target/<profile>/examples/`), built (or brought
/// up to date) once per test process with `cargo build --example restaurant_finder`, or
/// `$RESTAURANT_FINDER_BIN` when set (to run these tests against another build of it).
///
/// `cargo test` builds an example whose unit tests it runs (`test = true`) only as a test
/// harness, so the demo itself is built here; cargo does not hold its build lock while tests run.
pub fn example_binary() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    if let Some(bin) = std::env::var_os("RESTAURANT_FINDER_BIN") {
        return PathBuf::from(bin);
    }
    BUILT
        .get_or_init(|| {
            let exe = std::env::current_exe().unwrap();
            let profile_dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
            let mut cargo = std::process::Command::new(env!("CARGO"));
            cargo.current_dir(env!("CARGO_MANIFEST_DIR")).args([
                "build",
                "--quiet",
                "--all-features",
                "--example",
                "restaurant_finder",
            ]);
            if profile_dir.file_name().is_some_and(|p| p == "release") {
                cargo.arg("--release");
            }
            let status = cargo.status().expect("cargo runs");
            assert!(
                status.success(),
                "building the restaurant finder failed: {status}"
            );
            let bin = profile_dir.join("examples").join("restaurant_finder");
            assert!(bin.exists(), "{} is missing after its build", bin.display());
            bin
        })
        .clone()
}

/// The model the demo calls.
#[derive(Debug, Clone, Copy)]
pub enum Model<'a> {
    /// Its built-in scripted model, pausing this many milliseconds between two tokens.
    Scripted(u64),
    /// Its built-in scripted model at the pace `A2UI_SCRIPTED_DELAY_MS` of the test's own
    /// environment says (else the demo's default).
    ScriptedAtDefaultPace,
    /// An OpenAI-compatible API at this base URL (ending in `/v1`), as model `test`.
    At(&'a str),
}

/// A command running the demo with `model`, the rest of its environment cleared of what the
/// demo reads.
pub fn command(model: Model<'_>) -> Command {
    let mut cmd = Command::new(example_binary());
    for var in CLEARED {
        cmd.env_remove(var);
    }
    match model {
        Model::Scripted(ms) => {
            cmd.env("A2UI_SCRIPTED_DELAY_MS", ms.to_string());
        }
        Model::ScriptedAtDefaultPace => {}
        Model::At(base) => {
            cmd.env("OPENAI_BASE_URL", base).env("A2UI_MODEL", "test");
        }
    }
    cmd.stdin(Stdio::null()).kill_on_drop(true);
    cmd
}

/// What a console run printed.
#[derive(Debug)]
pub struct Console {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// The console's last line: `summary: first component after N ms, first content after N ms,
/// total N ms, K A2UI messages, B bytes, UI checked by ...`.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub first_component_ms: Option<u64>,
    pub first_content_ms: Option<u64>,
    pub total_ms: u64,
    pub messages: usize,
    pub bytes: usize,
    pub checked_by: String,
}

impl Console {
    /// Whether the run failed (exit status 1, an `error:` line).
    pub fn failed(&self) -> bool {
        !self.status.success()
    }

    /// Everything printed, for assertion messages.
    pub fn text(&self) -> String {
        format!("{}\n--- stderr ---\n{}", self.stdout, self.stderr)
    }

    /// The summary line, parsed; panics with the output when there is none.
    pub fn summary(&self) -> Summary {
        let last = self.stdout.lines().last().unwrap_or_default();
        parse_summary(last).unwrap_or_else(|| panic!("no summary line last:\n{}", self.text()))
    }

    /// The A2UI messages of the `a2ui {json}` lines (`--messages`), in order.
    pub fn messages(&self) -> Vec<Value> {
        self.stdout.lines().filter_map(a2ui_line).collect()
    }
}

/// The message of a console line `[    28 ms] a2ui {json}`.
pub fn a2ui_line(line: &str) -> Option<Value> {
    let rest = line.strip_prefix('[')?;
    let (ms, rest) = rest.split_once(" ms] a2ui ")?;
    ms.trim().parse::<u64>().ok()?;
    Some(
        serde_json::from_str(rest)
            .unwrap_or_else(|e| panic!("a2ui line is not JSON ({e}): {line}")),
    )
}

/// Parses the console's summary line.
pub fn parse_summary(line: &str) -> Option<Summary> {
    let re = Regex::new(
        r"^summary: first component after (none|\d+ ms), first content after (none|\d+ ms), total (\d+) ms, (\d+) A2UI messages, (\d+) bytes, UI checked by (.+)$",
    )
    .expect("the summary pattern");
    let c = re.captures(line)?;
    let after = |s: &str| s.strip_suffix(" ms").and_then(|n| n.parse().ok());
    Some(Summary {
        first_component_ms: after(&c[1]),
        first_content_ms: after(&c[2]),
        total_ms: c[3].parse().ok()?,
        messages: c[4].parse().ok()?,
        bytes: c[5].parse().ok()?,
        checked_by: c[6].to_owned(),
    })
}

/// Runs `restaurant_finder ARGS` on the console with `model`.
pub async fn console(args: &[&str], model: Model<'_>) -> Console {
    console_watched(args, model, |_| {}).await
}

/// [`console`], handing each line of the standard output to `on_line` the moment it is printed.
pub async fn console_watched(
    args: &[&str],
    model: Model<'_>,
    on_line: impl FnMut(&str),
) -> Console {
    run_console(command(model), args, on_line).await
}

/// [`console`] with `dir` as the working directory.
pub async fn console_in(dir: &Path, args: &[&str], model: Model<'_>) -> Console {
    let mut cmd = command(model);
    cmd.current_dir(dir);
    run_console(cmd, args, |_| {}).await
}

async fn run_console(mut cmd: Command, args: &[&str], mut on_line: impl FnMut(&str)) -> Console {
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start the demo");
    let mut err = child.stderr.take().expect("piped stderr");
    let stderr = tokio::spawn(async move {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text).await;
        text
    });
    let mut lines = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
    let run = async {
        let mut stdout = String::new();
        while let Some(line) = lines.next_line().await.expect("read the demo's output") {
            on_line(&line);
            stdout.push_str(&line);
            stdout.push('\n');
        }
        let status = child.wait().await.expect("the demo ran");
        (stdout, status)
    };
    let (stdout, status) = tokio::time::timeout(PROCESS_TIMEOUT, run)
        .await
        .unwrap_or_else(|_| {
            panic!(
                "`restaurant_finder {}` took more than {PROCESS_TIMEOUT:?}",
                args.join(" ")
            )
        });
    let stderr = stderr.await.unwrap_or_default();
    Console {
        status,
        stdout,
        stderr,
    }
}

/// Waits until a demo server started with its standard error piped says it listens (its
/// `page: http://ADDR/` line); returns `http://ADDR` and its standard error so far and to come,
/// line by line.
pub async fn listening(child: &mut Child) -> (String, Arc<Mutex<Vec<String>>>) {
    let mut lines = BufReader::new(child.stderr.take().expect("piped stderr")).lines();
    let log = Arc::new(Mutex::new(Vec::new()));
    let base = tokio::time::timeout(PROCESS_TIMEOUT, async {
        while let Ok(Some(line)) = lines.next_line().await {
            log.lock().unwrap().push(line.clone());
            if let Some(rest) = line.strip_prefix("page: http://") {
                let addr = rest.split('/').next().unwrap_or_default();
                return format!("http://{addr}");
            }
        }
        panic!("the demo server exited: {:?}", log.lock().unwrap());
    })
    .await
    .expect("the demo server did not start");
    let keep = log.clone();
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            keep.lock().unwrap().push(line);
        }
    });
    (base, log)
}

/// A demo server (`restaurant_finder serve --addr 127.0.0.1:0 ARGS`); killed when dropped.
pub struct Server {
    /// `http://127.0.0.1:PORT`, from its `page: http://...` line.
    pub base: String,
    /// Its standard error, line by line.
    pub log: Arc<Mutex<Vec<String>>>,
    _child: Child,
}

impl Server {
    /// Starts the server with `model` (and `A2UI_PAGE_DIR` from the test's environment, if set)
    /// and waits until it listens.
    pub async fn start(args: &[&str], model: Model<'_>) -> Server {
        let mut cmd = command(model);
        cmd.arg("serve")
            .args(["--addr", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("start the demo server");
        let (base, log) = listening(&mut child).await;
        Server {
            base,
            log,
            _child: child,
        }
    }

    /// Its standard error so far.
    pub fn log_text(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }
}

/// An HTTP client for talking to the demo. reqwest is built here with rustls and no crypto
/// provider of its own (the demo's model client wants it so): the process's provider is
/// installed first.
pub fn http() -> reqwest::Client {
    // Another provider installed first is as good.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}
