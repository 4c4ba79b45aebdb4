//! The example binary as a server process.

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The example binary built beside this test's own (`target/<profile>/examples/`), or
/// `$RESTAURANT_FINDER_BIN` when set (to run these tests against another build of it).
pub fn example_binary() -> PathBuf {
    if let Some(bin) = std::env::var_os("RESTAURANT_FINDER_BIN") {
        return PathBuf::from(bin);
    }
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let bin = profile_dir.join("examples").join("restaurant_finder");
    assert!(
        bin.exists(),
        "{} is missing: build it with `cargo test --all-features` (which builds the examples) \
         or `cargo build --all-features --example restaurant_finder`",
        bin.display()
    );
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| warn_if_stale(&bin));
    bin
}

/// Says so when a source of the example or of the server crate is newer than the binary:
/// `cargo test --test runs` alone does not rebuild the examples.
fn warn_if_stale(bin: &Path) {
    fn newest(dir: &Path) -> Option<(SystemTime, PathBuf)> {
        let mut out: Option<(SystemTime, PathBuf)> = None;
        for entry in std::fs::read_dir(dir).ok()?.flatten() {
            let path = entry.path();
            let found = if path.is_dir() {
                newest(&path)
            } else if path.extension().is_some_and(|e| e == "rs") {
                entry.metadata().ok()?.modified().ok().map(|t| (t, path))
            } else {
                None
            };
            if let Some(f) = found.filter(|f| out.as_ref().is_none_or(|o| f.0 > o.0)) {
                out = Some(f);
            }
        }
        out
    }
    let Ok(built) = std::fs::metadata(bin).and_then(|m| m.modified()) else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in ["examples/restaurant_finder", "server/src", "src"] {
        if let Some((t, path)) = newest(&root.join(dir)).filter(|(t, _)| *t > built) {
            let ago = t.duration_since(built).unwrap_or_default();
            crate::support::say(&format!(
                "warning: {} is {ago:?} newer than {}; rebuild it with \
                 `cargo build --all-features --example restaurant_finder`",
                path.display(),
                bin.display()
            ));
            return;
        }
    }
}

/// A server process of the example; killed when dropped.
pub struct Process {
    pub child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// What it wrote to its standard error, line by line.
    pub log: Arc<Mutex<Vec<String>>>,
}

/// How to start one.
#[derive(Default)]
pub struct Start<'a> {
    /// Arguments after `serve --addr 127.0.0.1:0`.
    pub args: &'a [&'a str],
    /// `OPENAI_BASE_URL` (with `A2UI_MODEL=test`); `None`: the scripted model.
    pub model: Option<&'a str>,
    /// The scripted model's pause between tokens (`A2UI_SCRIPTED_DELAY_MS`), 1 ms when `None`.
    pub ms_per_token: Option<u64>,
}

impl Process {
    /// `restaurant_finder serve --addr 127.0.0.1:0 ARGS` with the model at `model` (`None`: the
    /// scripted one at 1 ms per token); returns once it listens.
    pub async fn start(args: &[&str], model: Option<&str>) -> Process {
        Process::start_with(Start {
            args,
            model,
            ms_per_token: None,
        })
        .await
    }

    /// Starts one as `start` says, with no `A2UI_*` or `OPENAI_*` variable of the test's own
    /// environment.
    pub async fn start_with(start: Start<'_>) -> Process {
        let mut cmd = Command::new(example_binary());
        cmd.arg("serve")
            .args(["--addr", "127.0.0.1:0"])
            .args(start.args);
        for (name, _) in std::env::vars_os() {
            let n = name.to_string_lossy();
            if n.starts_with("A2UI_") || n.starts_with("OPENAI_") {
                cmd.env_remove(&name);
            }
        }
        cmd.env(
            "A2UI_SCRIPTED_DELAY_MS",
            start.ms_per_token.unwrap_or(1).to_string(),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
        if let Some(m) = start.model {
            cmd.env("OPENAI_BASE_URL", m).env("A2UI_MODEL", "test");
        }
        let mut child = cmd.spawn().unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let log = Arc::new(Mutex::new(Vec::new()));
        let base = tokio::time::timeout(Duration::from_secs(60), async {
            while let Some(line) = lines.next_line().await.unwrap() {
                log.lock().unwrap().push(line.clone());
                if let Some(rest) = line.strip_prefix("page: http://") {
                    return format!("http://{}", rest.split('/').next().unwrap());
                }
            }
            panic!("the server exited: {:?}", log.lock().unwrap());
        })
        .await
        .expect("the server did not start within 60 s");
        let keep = log.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                keep.lock().unwrap().push(line);
            }
        });
        Process { child, base, log }
    }

    pub fn pid(&self) -> u32 {
        self.child.id().unwrap()
    }

    /// Sends a signal (`INT`, `KILL`, …).
    pub fn signal(&self, sig: &str) {
        let ok = std::process::Command::new("kill")
            .args([&format!("-{sig}"), &self.pid().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill -{sig} failed");
    }

    /// Kills it and waits until it is gone.
    #[cfg(feature = "store")]
    pub async fn kill(mut self) {
        self.child.kill().await.unwrap();
    }

    /// Waits at most `limit` for it to exit.
    pub async fn exit_within(&mut self, limit: Duration) -> ExitStatus {
        match tokio::time::timeout(limit, self.child.wait()).await {
            Ok(status) => status.unwrap(),
            Err(_) => panic!(
                "the server did not exit within {limit:?}: {:?}",
                self.log.lock().unwrap()
            ),
        }
    }

    /// Its resident memory, in KiB.
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    }
}

/// A fresh directory of this test process's own, under the system's temporary one.
#[cfg(feature = "store")]
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("a2ui-runs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
