//! Load on the restaurant finder's server: many runs at once, and its memory before, during and
//! after them.
//!
//! ```text
//! cargo build --release --all-features --example restaurant_finder
//! cargo bench --all-features --bench load -- --runs 1000 [--server PATH] [--delay-ms 5]
//!     [--user-bytes N]
//!     [-- SERVER ARGS...]
//! ```
//!
//! It starts the server (`--server`, default `target/release/examples/restaurant_finder`) with
//! the scripted model at `--delay-ms` per token, sends one run to warm it up, reads its resident
//! memory (the baseline), then starts `--runs` runs at once, each reading its whole event stream,
//! while it samples the server's memory every 20 ms. It prints how many runs finished, failed or
//! were refused (503), the time to each run's first A2UI activity and to its end (p50, p95),
//! the peak memory and the memory 1 s, 5 s and 15 s after the last run ended. Arguments after `--` go
//! to the server (`--max-runs 2000`, `--store runs.db`, …).

use futures::StreamExt;
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, BufReader};

struct Options {
    server: String,
    runs: usize,
    delay_ms: u64,
    /// Bytes the user message is padded to (0: the bare query).
    user_bytes: usize,
    server_args: Vec<String>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        server: "target/release/examples/restaurant_finder".into(),
        runs: 1000,
        delay_ms: 5,
        user_bytes: 0,
        server_args: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--server" => o.server = args.next().ok_or("--server needs a path")?,
            "--runs" => {
                o.runs = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--runs needs a number")?
            }
            "--delay-ms" => {
                o.delay_ms = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--delay-ms needs a number")?
            }
            "--user-bytes" => {
                o.user_bytes = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--user-bytes needs a number")?
            }
            // `cargo bench` appends `--bench`, after ours: it is not the server's.
            "--" => o
                .server_args
                .extend(args.by_ref().filter(|a| a != "--bench")),
            "--bench" => {}
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(o)
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

enum Outcome {
    Finished {
        first_activity: Duration,
        total: Duration,
    },
    Failed(String),
    Refused,
}

async fn one_run(client: &reqwest::Client, base: &str, i: usize, user_bytes: usize) -> Outcome {
    let mut query = String::from("Top 5 Chinese restaurants in New York");
    if user_bytes > query.len() {
        // A long message (a pasted document, say): the query, then filler words.
        query.push('\n');
        while query.len() < user_bytes {
            query.push_str("lorem ");
        }
    }
    let input = serde_json::json!({
        "threadId": format!("load-{i}"), "runId": format!("run-{i}"),
        "messages": [{"id": "u", "role": "user", "content": query}],
        "forwardedProps": {"a2uiVersion": "v0.9"}
    });
    let start = Instant::now();
    let resp = match client
        .post(format!("{base}/agent"))
        .header("content-type", "application/json")
        .body(input.to_string())
        .send()
        .await
    {
        Ok(r) => r,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    if resp.status() == 503 {
        return Outcome::Refused;
    }
    if !resp.status().is_success() {
        return Outcome::Failed(format!("HTTP {}", resp.status()));
    }
    let mut first = None;
    let mut body = resp.bytes_stream();
    let mut tail = Vec::new();
    while let Some(chunk) = body.next().await {
        let Ok(chunk) = chunk else {
            return Outcome::Failed("the stream broke".into());
        };
        if first.is_none() && memchr::memmem::find(&chunk, b"ACTIVITY_SNAPSHOT").is_some() {
            first = Some(start.elapsed());
        }
        tail = chunk.to_vec();
    }
    let text = String::from_utf8_lossy(&tail);
    if !text.contains("RUN_FINISHED") {
        return Outcome::Failed(format!(
            "ended without RUN_FINISHED: {}",
            text.chars().take(200).collect::<String>()
        ));
    }
    Outcome::Finished {
        first_activity: first.unwrap_or_default(),
        total: start.elapsed(),
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn mib(kib: u64) -> String {
    format!("{:.0} MiB", kib as f64 / 1024.0)
}

#[tokio::main]
async fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut child = tokio::process::Command::new(&o.server)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(&o.server_args)
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .env("A2UI_SCRIPTED_DELAY_MS", o.delay_ms.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", o.server));
    let pid = child.id().unwrap_or(0);
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let mut base = String::new();
    while let Ok(Some(line)) = lines.next_line().await {
        if let Some(rest) = line.strip_prefix("page: http://") {
            base = format!("http://{}", rest.split('/').next().unwrap_or(""));
            break;
        }
    }
    assert!(!base.is_empty(), "the server did not start");
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    // The TLS backend needs a crypto provider before the first client, even for plain HTTP.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .expect("client");
    let warm = one_run(&client, &base, usize::MAX, 0).await;
    assert!(
        matches!(warm, Outcome::Finished { .. }),
        "the warm-up run failed"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let baseline = rss_kib(pid);

    let sampling = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let on = sampling.clone();
    let sampler = tokio::spawn(async move {
        let mut peak = 0;
        while on.load(std::sync::atomic::Ordering::Relaxed) {
            peak = peak.max(rss_kib(pid));
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        peak
    });
    let t = Instant::now();
    let outcomes =
        futures::future::join_all((0..o.runs).map(|i| one_run(&client, &base, i, o.user_bytes)))
            .await;
    let wall = t.elapsed();
    sampling.store(false, std::sync::atomic::Ordering::Relaxed);
    let peak = sampler.await.unwrap_or(0);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after_1s = rss_kib(pid);
    tokio::time::sleep(Duration::from_secs(4)).await;
    let after_5s = rss_kib(pid);
    tokio::time::sleep(Duration::from_secs(10)).await;
    let after_15s = rss_kib(pid);

    let (mut first, mut total, mut refused, mut failed) = (Vec::new(), Vec::new(), 0, Vec::new());
    for out in outcomes {
        match out {
            Outcome::Finished {
                first_activity,
                total: t,
            } => {
                first.push(first_activity);
                total.push(t);
            }
            Outcome::Refused => refused += 1,
            Outcome::Failed(e) => failed.push(e),
        }
    }
    first.sort();
    total.sort();
    let finished = first.len();
    println!(
        "{} runs at once ({} ms per token): {finished} finished, {refused} refused (503), {} failed, in {:.1} s",
        o.runs,
        o.delay_ms,
        failed.len(),
        wall.as_secs_f64()
    );
    if let Some(e) = failed.first() {
        println!("  first failure: {e}");
    }
    println!(
        "  first activity p50 {:.2} s, p95 {:.2} s; run end p50 {:.2} s, p95 {:.2} s",
        percentile(&first, 0.5).as_secs_f64(),
        percentile(&first, 0.95).as_secs_f64(),
        percentile(&total, 0.5).as_secs_f64(),
        percentile(&total, 0.95).as_secs_f64()
    );
    let per_run = peak.saturating_sub(baseline) / (finished.max(1) as u64);
    println!(
        "  memory: {} before, {} peak ({} KiB per finished run), {} 1 s after, {} 5 s after, {} 15 s after",
        mib(baseline),
        mib(peak),
        per_run,
        mib(after_1s),
        mib(after_5s),
        mib(after_15s)
    );
    let _ = child.kill().await;
}
