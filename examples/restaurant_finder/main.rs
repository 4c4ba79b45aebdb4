//! Restaurant finder: an agent whose UI appears component by component while the model is still
//! writing, served over AG-UI by `a2ui-stream-server`.
//!
//! ```text
//! cargo run --example restaurant_finder                       # console, default query, offline
//! cargo run --example restaurant_finder -- "Top 3 Italian restaurants in New York"
//! cargo run --example restaurant_finder -- --a2ui 0.8 "Mexican food in San Francisco"
//! cargo run --example restaurant_finder -- --format express   # the model writes A2UI Express
//! cargo run --example restaurant_finder -- serve --addr 127.0.0.1:8000
//! ```
//!
//! With `OPENAI_API_KEY` and/or `OPENAI_BASE_URL` set it calls that model (`A2UI_MODEL`, default
//! `gpt-4.1-mini`); otherwise a scripted model streams its answers through the same path.

mod agent;
mod console;
mod express;
mod official;
mod page;
mod prompt;
mod scripted;
mod tools;
mod ui;
mod view;

use a2ui_stream::Version;
use a2ui_stream::agui::events::{ChatMessage, RunAgentInput, UserContent, UserMessage};
use a2ui_stream::agui::{MemoryRunLog, RunLog};
use a2ui_stream_server::{AgentServer, Deadlines, Options, Retries, parse_seconds};
use agent::{Format, ModelConfig, RestaurantAgent};
use clap::{CommandFactory, Parser, Subcommand};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

// jemalloc, with the settings of .cargo/config.toml: a background thread gives the memory of a
// finished load back to the system within seconds, where glibc's malloc keeps the peak.
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Answers restaurant queries with an A2UI interface streamed while the model writes it: on the
/// console, or served over AG-UI with a page to watch it.
#[derive(Parser)]
#[command(name = "restaurant_finder")]
struct Cli {
    /// A2UI protocol version: 0.8, 0.9 (what the page's renderer draws) or 1.0.
    #[arg(long = "a2ui", alias = "a2ui-version", global = true, default_value = "0.9", value_parser = version)]
    version: Version,
    /// What the model writes its UIs in: A2UI messages as JSON, or A2UI Express (A2UI 0.9 and
    /// 1.0 only).
    #[arg(long, global = true, value_enum, default_value_t = Format::Json)]
    format: Format,
    /// Print the system prompt and exit.
    #[arg(long)]
    print_prompt: bool,
    /// Print each A2UI message as a JSON line too (console).
    #[arg(long)]
    messages: bool,
    #[command(flatten)]
    limits: Limits,
    #[command(subcommand)]
    command: Option<Command>,
    /// The query, answered on the console.
    query: Vec<String>,
}

/// Deadlines (seconds) and retries of model calls.
#[derive(clap::Args)]
struct Limits {
    /// Connecting to the model.
    #[arg(long, global = true, env = "A2UI_CONNECT_TIMEOUT", default_value = "10", value_name = "SECONDS", value_parser = parse_seconds)]
    connect_timeout: Duration,
    /// From a model request to the first token of its answer.
    #[arg(long, global = true, env = "A2UI_FIRST_TOKEN_TIMEOUT", default_value = "60", value_name = "SECONDS", value_parser = parse_seconds)]
    first_token_timeout: Duration,
    /// Silence between two tokens.
    #[arg(long, global = true, env = "A2UI_SILENCE_TIMEOUT", default_value = "30", value_name = "SECONDS", value_parser = parse_seconds)]
    silence_timeout: Duration,
    /// A whole run.
    #[arg(long, global = true, env = "A2UI_RUN_TIMEOUT", default_value = "300", value_name = "SECONDS", value_parser = parse_seconds)]
    run_timeout: Duration,
    /// Retries of a model request that failed before answering (5xx, 429, refused).
    #[arg(long, global = true, env = "A2UI_MODEL_RETRIES", default_value_t = 2)]
    model_retries: u32,
}

#[derive(Subcommand)]
enum Command {
    /// Serve AG-UI (`POST /agent`) and the page.
    Serve(Serve),
}

#[derive(clap::Args)]
struct Serve {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8000")]
    addr: String,
    /// More origins whose pages may call the server, comma-separated (`*`: any).
    #[arg(long = "allow-origin", env = "A2UI_ALLOWED_ORIGINS")]
    origins: Vec<String>,
    /// Keep runs in a SQLite FILE (feature `store`) or Redis at redis://HOST:PORT/ (feature
    /// `store-redis`) instead of memory.
    #[arg(long, env = "A2UI_STORE")]
    store: Option<String>,
    /// Runs with a client at once; one more gets 503.
    #[arg(long, env = "A2UI_MAX_RUNS", default_value_t = 256)]
    max_runs: usize,
    /// Runs whose client left, waiting for a reconnect.
    #[arg(long, default_value_t = 256)]
    max_detached_runs: usize,
    /// How long a run whose client left waits for a reconnect (seconds).
    #[arg(long, default_value = "30", value_name = "SECONDS", value_parser = parse_seconds)]
    reconnect_grace: Duration,
    /// How long open runs may go on after Ctrl-C (seconds); a second Ctrl-C exits at once.
    #[arg(long, env = "A2UI_SHUTDOWN_TIMEOUT", default_value = "10", value_name = "SECONDS", value_parser = parse_seconds)]
    shutdown_timeout: Duration,
    /// End a run as soon as its client disconnects.
    #[arg(long)]
    cancel_on_disconnect: bool,
    /// Send the request back in RUN_STARTED.
    #[arg(long)]
    echo_input: bool,
    /// Break each run's first response after N events, to watch the page resume.
    #[arg(long)]
    cut_after: Option<usize>,
}

fn version(s: &str) -> Result<Version, String> {
    Version::parse(s)
        .filter(|v| ui::VERSIONS.contains(v))
        .ok_or_else(|| format!("unknown A2UI version `{s}` (one of 0.8, 0.9, 1.0)"))
}

/// The run log `--store` names, and where it is for the log line.
fn open_store(store: Option<&str>) -> Result<(Arc<dyn RunLog>, String), String> {
    let Some(store) = store.filter(|s| !s.is_empty()) else {
        return Ok((Arc::new(MemoryRunLog::new()), "in memory".into()));
    };
    if store.starts_with("redis://") || store.starts_with("rediss://") {
        #[cfg(feature = "store-redis")]
        return a2ui_stream::agui::RedisRunLog::open(store)
            .map(|l| {
                (
                    Arc::new(l) as Arc<dyn RunLog>,
                    format!("in Redis at {store}"),
                )
            })
            .map_err(|e| format!("cannot open the run log at {store}: {e}"));
        #[cfg(not(feature = "store-redis"))]
        return Err(format!(
            "--store {store}: Redis needs the `store-redis` feature"
        ));
    }
    #[cfg(feature = "store")]
    {
        let log = a2ui_stream::agui::SqliteRunLog::open(store)
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
    Err(format!("--store {store}: SQLite needs the `store` feature"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.format == Format::Express && cli.version == Version::V08 {
        Cli::command()
            .error(
                clap::error::ErrorKind::ArgumentConflict,
                format!(
                    "--format express needs --a2ui 0.9 or 1.0: {}",
                    express::no_v08()
                ),
            )
            .exit();
    }
    if cli.print_prompt {
        match cli.format {
            Format::Json => print!("{}", prompt::system_prompt(cli.version)),
            Format::Express => match prompt::express_system_prompt(cli.version) {
                Ok(p) => print!("{p}"),
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            },
        }
        return ExitCode::SUCCESS;
    }
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .without_time()
        .init();
    // Run-log calls that may block go to the blocking pool; a small one keeps a thousand runs
    // from starting hundreds of threads.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(16)
        .build();
    match runtime {
        Ok(rt) => rt.block_on(run(cli)),
        Err(e) => {
            eprintln!("cannot start the async runtime: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> ExitCode {
    let l = &cli.limits;
    let deadlines = Deadlines {
        connect: l.connect_timeout,
        first_token: l.first_token_timeout,
        silence: l.silence_timeout,
        total: l.run_timeout,
    };
    let retries = Retries {
        max: l.model_retries,
        ..Retries::default()
    };
    let (config, _scripted, what) = match ModelConfig::from_env() {
        Some(c) => {
            let what = format!("model {} at {}", c.model, c.api_base);
            (c, None, what)
        }
        None => match scripted::ScriptedModel::start(scripted::delay_from_env()).await {
            Ok(m) => {
                let c = ModelConfig {
                    api_base: m.api_base(),
                    api_key: "scripted".into(),
                    model: "scripted".into(),
                };
                let what = format!(
                    "scripted model at {} (set OPENAI_API_KEY or OPENAI_BASE_URL for a real one)",
                    c.api_base
                );
                (c, Some(m), what)
            }
            Err(e) => {
                eprintln!("could not start the scripted model: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let agent = RestaurantAgent::new(&config, &deadlines, retries, cli.version, cli.format);
    let (express, model_writes) = match cli.format {
        Format::Json => ("", ""),
        Format::Express => (", in Express", "; the model writes A2UI Express"),
    };
    let Some(Command::Serve(s)) = cli.command else {
        let query = match cli.query.is_empty() {
            true => "Top 5 Chinese restaurants in New York".to_owned(),
            false => cli.query.join(" "),
        };
        eprintln!("{what} (A2UI {}{express}): {query}", cli.version);
        let mut input = RunAgentInput::new("console", "run-1");
        let user = UserMessage::new("user-1", UserContent::Text(query));
        input.messages.push(ChatMessage::User(user));
        let style = console::Style {
            width: 160,
            messages: cli.messages,
            terminal: std::io::stdout().is_terminal(),
        };
        let summary = console::run(&agent, input, deadlines, std::io::stdout(), style).await;
        return if summary.failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        };
    };
    let (log, kept) = match open_store(s.store.as_deref()) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut options = Options {
        log,
        deadlines,
        max_runs: s.max_runs,
        max_detached_runs: s.max_detached_runs,
        reconnect_grace: s.reconnect_grace,
        cancel_on_disconnect: s.cancel_on_disconnect,
        echo_input: s.echo_input,
        shutdown_timeout: s.shutdown_timeout,
        cut_after: s.cut_after,
        // Models write a stray comma or a raw line break now and then: read them as the SDK does.
        splitter: a2ui_stream::Config {
            lenient: true,
            ..a2ui_stream::Config::default()
        },
        ..Options::default()
    };
    for o in &s.origins {
        options.origins.add(o);
    }
    let listener = match tokio::net::TcpListener::bind(&s.addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cannot listen on {}: {e}", s.addr);
            return ExitCode::FAILURE;
        }
    };
    let addr = listener
        .local_addr()
        .map_or(s.addr.clone(), |a| a.to_string());
    eprintln!(
        "page: http://{addr}/ (AG-UI endpoint: POST http://{addr}/agent, health: GET /healthz), {what}{model_writes}; UI checked by {}",
        agent.ui_checks()
    );
    eprintln!("runs kept {kept}; at most {} at once", s.max_runs);
    let (router, handle) = AgentServer::new(agent, options).router();
    let router = router.merge(page::router());
    let stop = a2ui_stream_server::shutdown_signals();
    match a2ui_stream_server::serve_router(listener, router, handle, stop).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("server stopped: {e}");
            ExitCode::FAILURE
        }
    }
}
