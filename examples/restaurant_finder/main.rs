//! Restaurant finder: an agent whose UI appears component by component while the model is still
//! writing.
//!
//! ```text
//! cargo run --example restaurant_finder                       # console, default query, offline
//! cargo run --example restaurant_finder -- "Top 3 Italian restaurants in New York"
//! cargo run --example restaurant_finder -- --a2ui 0.8 "Mexican food in San Francisco"
//! cargo run --example restaurant_finder -- --a2ui 1.0
//! cargo run --example restaurant_finder -- serve --addr 127.0.0.1:8000
//! ```
//!
//! With `OPENAI_API_KEY` and/or `OPENAI_BASE_URL` set it calls that model (`A2UI_MODEL`, default
//! `gpt-4.1-mini`); otherwise a scripted model streams its answers through the same path
//! (`A2UI_SCRIPTED_DELAY_MS` sets its pace, default 5 ms per token).

mod console;
mod limits;
mod llm;
mod official;
mod page;
mod prompt;
mod runs;
mod scripted;
mod server;
mod surface;
mod tools;
mod trim;
mod ui;

use a2ui_stream::agui::store::RunLog;
use limits::Limits;
use llm::{Agent, ModelConfig, RunRequest};
use scripted::ScriptedModel;
use std::sync::Arc;
use ui::Version;

const DEFAULT_QUERY: &str = "Top 5 Chinese restaurants in New York";

const USAGE: &str = "usage:
  restaurant_finder [--a2ui 0.8|0.9|1.0] [QUERY...]      answer one query on the console
  restaurant_finder [--a2ui 0.8|0.9|1.0] serve [--addr ADDR] [--allow-origin ORIGINS]
                    [--store FILE|redis://HOST:PORT/] [--max-runs N] [--shutdown-timeout S]
                    [--cancel-on-disconnect] [--echo-input] [--cut-after N]
                                                         serve AG-UI and the page on ADDR
                                                         (default 127.0.0.1:8000)
  restaurant_finder [--a2ui 0.8|0.9|1.0] --print-prompt  print the system prompt and exit

  --a2ui picks the A2UI protocol version (default 0.9, the newest the page's renderer draws);
  `v1.0` and the like are read too.

  Every run's events are kept so that a client that loses its connection resumes with
  Last-Event-ID: in memory by default, in a SQLite FILE (feature `store`) or in Redis (feature
  `store-redis`, shared by several server processes) with --store. A run goes on when its
  client disconnects unless --cancel-on-disconnect. --cut-after N breaks each run's first
  response after N events, to watch the page resume. --echo-input sends the request back in
  RUN_STARTED.

  Deadlines and limits (seconds; each also from the environment variable in brackets):
  --connect-timeout S [A2UI_CONNECT_TIMEOUT, 10]  --first-token-timeout S [A2UI_FIRST_TOKEN_TIMEOUT, 60]
  --silence-timeout S [A2UI_SILENCE_TIMEOUT, 30]  --run-timeout S [A2UI_RUN_TIMEOUT, 300]
  --model-retries N [A2UI_MODEL_RETRIES, 2]       --max-runs N [A2UI_MAX_RUNS, 256]
  --shutdown-timeout S [A2UI_SHUTDOWN_TIMEOUT, 10]: open runs then end with RUN_ERROR;
  a second Ctrl-C exits at once.

environment:
  OPENAI_API_KEY, OPENAI_BASE_URL, A2UI_MODEL   a real OpenAI-compatible model (else the scripted one)
  A2UI_SCRIPTED_DELAY_MS                        pause between scripted tokens (default 5)
  A2UI_STORE                                    the run log, as --store
  A2UI_ALLOWED_ORIGINS                          more origins whose pages may call the server,
                                                comma-separated (`*`: any); by default only the
                                                server's own and loopback origins

Answers are checked with the official A2UI validator and the basic catalogs built into the crate.";

/// The agent for this process: a real model when configured, else the scripted one (kept running
/// as long as the returned guard lives).
async fn start_agent() -> std::io::Result<(Agent, Option<ScriptedModel>, String)> {
    if let Some(config) = ModelConfig::from_env() {
        let what = format!("model {} at {}", config.model, config.api_base);
        return Ok((Agent::new(&config), None, what));
    }
    let delay = scripted::delay_from_env();
    let model = ScriptedModel::start(delay).await?;
    let config = ModelConfig {
        api_base: model.api_base(),
        api_key: "scripted".into(),
        model: "scripted".into(),
    };
    let what = format!(
        "scripted model at {} ({} ms per token; set OPENAI_API_KEY or OPENAI_BASE_URL for a real one)",
        config.api_base,
        delay.as_millis()
    );
    Ok((Agent::new(&config), Some(model), what))
}

struct Args {
    version: Version,
    limits: Limits,
    store: Option<String>,
    cut_after: Option<usize>,
    serve: bool,
    print_prompt: bool,
    addr: String,
    origins: server::Origins,
    query: String,
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut out = Args {
        version: Version::V09,
        limits: Limits::from_env()?,
        store: std::env::var("A2UI_STORE").ok().filter(|s| !s.is_empty()),
        cut_after: None,
        serve: false,
        print_prompt: false,
        addr: "127.0.0.1:8000".into(),
        origins: server::Origins::from_env(),
        query: String::new(),
    };
    let mut words = Vec::new();
    let mut args = args.peekable();
    while let Some(a) = args.next() {
        match a.as_str() {
            "-h" | "--help" => return Err(USAGE.into()),
            "--a2ui" | "--a2ui-version" => {
                let v = args
                    .next()
                    .ok_or("--a2ui needs a version (0.8, 0.9 or 1.0)")?;
                out.version = Version::parse(&v).ok_or_else(|| {
                    let known: Vec<&str> = Version::ALL.iter().map(|v| v.as_str()).collect();
                    format!("unknown A2UI version `{v}` (one of {})", known.join(", "))
                })?;
            }
            "--v0.8" | "--v08" => out.version = Version::V08,
            "--v0.9" | "--v09" => out.version = Version::V09,
            "--v1.0" | "--v10" => out.version = Version::V10,
            "--print-prompt" => out.print_prompt = true,
            "--addr" => out.addr = args.next().ok_or("--addr needs an address")?,
            "--allow-origin" => out
                .origins
                .add(&args.next().ok_or("--allow-origin needs an origin")?),
            "serve" if words.is_empty() && !out.serve => out.serve = true,
            "--store" => {
                out.store = Some(
                    args.next()
                        .ok_or("--store needs a file or a redis:// URL")?,
                )
            }
            "--cut-after" => {
                let n = args.next().ok_or("--cut-after needs a number of events")?;
                out.cut_after = Some(
                    n.parse()
                        .map_err(|_| format!("--cut-after: `{n}` is not a number"))?,
                );
            }
            "--echo-input" => out.limits.server.echo_input = true,
            "--cancel-on-disconnect" => out.limits.server.keep_runs_on_disconnect = false,
            s if limits::OPTIONS.contains(&s) => {
                out.limits.option(s, args.next())?;
            }
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`\n{USAGE}")),
            _ => words.push(a),
        }
    }
    out.query = if words.is_empty() {
        DEFAULT_QUERY.into()
    } else {
        words.join(" ")
    };
    Ok(out)
}

/// Ctrl-C, or (on Unix) SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// The run log `--store` names, and where it is for the log line: in memory by default, a
/// SQLite file, or Redis (`redis://…`).
fn open_store(store: Option<&str>) -> Result<(Arc<dyn RunLog>, String), String> {
    let Some(store) = store else {
        let log = a2ui_stream::agui::store::MemoryRunLog::new();
        return Ok((
            Arc::new(log),
            "in memory (--store FILE keeps them in SQLite)".into(),
        ));
    };
    if store.starts_with("redis://") || store.starts_with("rediss://") {
        #[cfg(feature = "store-redis")]
        {
            let log = a2ui_stream::agui::store::RedisRunLog::open(store)
                .map_err(|e| format!("cannot open the run log at {store}: {e}"))?;
            return Ok((Arc::new(log), format!("in Redis at {store}")));
        }
        #[cfg(not(feature = "store-redis"))]
        return Err(format!(
            "--store {store}: Redis needs the `store-redis` feature (cargo run --features store-redis --example restaurant_finder -- serve --store {store})"
        ));
    }
    #[cfg(feature = "store")]
    {
        let log = a2ui_stream::agui::store::SqliteRunLog::open(store)
            .map_err(|e| format!("cannot open the run log {store}: {e}"))?;
        let ended = log
            .end_open_runs("the server stopped while this run was open")
            .map_err(|e| format!("cannot read the run log {store}: {e}"))?;
        if ended > 0 {
            eprintln!("{ended} runs left open by an earlier server were ended with RUN_ERROR");
        }
        Ok((Arc::new(log), format!("in SQLite file {store}")))
    }
    #[cfg(not(feature = "store"))]
    Err(format!(
        "--store {store}: SQLite needs the `store` feature (cargo run --features store --example restaurant_finder -- serve --store {store})"
    ))
}

fn main() -> std::process::ExitCode {
    // Run-log calls that may block (SQLite, Redis) go to the blocking pool; a small one keeps
    // a thousand runs from starting hundreds of threads (each with its own stack and heap).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(16)
        .build();
    match runtime {
        Ok(rt) => rt.block_on(run()),
        Err(e) => {
            eprintln!("cannot start the async runtime: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run() -> std::process::ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return std::process::ExitCode::from(2);
        }
    };
    if args.print_prompt {
        print!("{}", prompt::system_prompt(args.version));
        return std::process::ExitCode::SUCCESS;
    }
    let (agent, _scripted, what) = match start_agent().await {
        Ok(x) => x,
        Err(e) => {
            eprintln!("could not start the scripted model: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let agent = agent
        .with_deadlines(args.limits.deadlines)
        .with_retries(args.limits.retries);
    if args.serve {
        let log = match open_store(args.store.as_deref()) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("{e}");
                return std::process::ExitCode::FAILURE;
            }
        };
        let listener = match tokio::net::TcpListener::bind(&args.addr).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("cannot listen on {}: {e}", args.addr);
                return std::process::ExitCode::FAILURE;
            }
        };
        let addr = listener
            .local_addr()
            .map(|a| a.to_string())
            .unwrap_or(args.addr.clone());
        eprintln!(
            "page: http://{addr}/ (AG-UI endpoint: POST http://{addr}/agent, health: GET /healthz), {what}; UI checked by {}",
            agent.ui_checks()
        );
        let config = server::ServerConfig {
            default_version: args.version,
            origins: args.origins,
            limits: args.limits.server,
            log: log.0,
            cut_after: args.cut_after,
        };
        eprintln!(
            "runs kept {}; at most {} at once",
            log.1, config.limits.max_runs
        );
        let grace = limits::seconds(config.limits.shutdown);
        let stop = async move {
            stop_signal().await;
            eprintln!(
                "shutting down: open runs have {grace} to finish, then end with RUN_ERROR (stop again to exit now)"
            );
            tokio::spawn(async {
                stop_signal().await;
                eprintln!("exiting now");
                std::process::exit(130);
            });
        };
        if let Err(e) = server::serve(listener, agent, config, stop).await {
            eprintln!("server stopped: {e}");
            return std::process::ExitCode::FAILURE;
        }
        return std::process::ExitCode::SUCCESS;
    }
    eprintln!("{} (A2UI {}): {}", what, args.version.as_str(), args.query);
    let req = RunRequest::query(args.version, &args.query);
    let summary = console::run(&agent, &req, &mut std::io::stdout(), 160).await;
    if summary.failed {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
