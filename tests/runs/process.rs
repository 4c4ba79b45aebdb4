//! The example binary as a server process.

use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::process::{Child, Command};

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
        let mut cmd = Command::new(crate::support::demo::example_binary());
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
        let (base, log) = crate::support::demo::listening(&mut child).await;
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
