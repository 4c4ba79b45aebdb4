//! A custom agent served over AG-UI with resume, deadlines, limits and CORS: the library's
//! defaults.
//!
//! ```text
//! cargo run --example agent_server                  # http://127.0.0.1:8000
//! curl -N localhost:8000/agent -H 'content-type: application/json' \
//!   -d '{"threadId":"t1","runId":"r1","messages":[{"id":"u1","role":"user","content":"Ada"}]}'
//! curl -N localhost:8000/agent/runs/t1/r1 -H 'last-event-id: 3'   # the rest, after event 3
//! ```

use a2ui_stream::to_streaming_json;
use a2ui_stream_server::{Agent, AgentError, AgentServer, Options, Run, RunWriter};
use clap::Parser;
use serde_json::json;
use std::time::Duration;

/// Greets the user with a v0.9 card, written as a model would write it.
struct Greeter;

impl Agent for Greeter {
    async fn run(&self, run: Run, out: &mut RunWriter) -> Result<(), AgentError> {
        let name = run.input.user_text().ok_or("say your name")?;
        let messages = [
            json!({"version": "v0.9", "createSurface": {"surfaceId": "card",
                "catalogId": "https://a2ui.org/specification/v0_9/basic_catalog.json"}}),
            json!({"version": "v0.9", "updateComponents": {"surfaceId": "card", "components": [
                {"id": "root", "component": "Card", "child": "hello"},
                {"id": "hello", "component": "Text", "text": format!("Hello, {name}!")}]}}),
        ];
        let answer: Vec<String> = messages.iter().map(to_streaming_json).collect();
        let answer = format!(
            "A card for you: <a2ui-json>[{}]</a2ui-json>",
            answer.join(",")
        );
        // As a model streams it: a few bytes at a time, each component out as it closes.
        let chars: Vec<char> = answer.chars().collect();
        for piece in chars.chunks(16) {
            out.model_text(&piece.iter().collect::<String>())?;
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        out.model_end()?;
        Ok(())
    }
}

#[derive(Parser)]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8000")]
    addr: String,
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let listener = tokio::net::TcpListener::bind(&args.addr).await?;
    eprintln!(
        "AG-UI endpoint: POST http://{}/agent",
        listener.local_addr()?
    );
    AgentServer::new(Greeter, Options::default())
        .serve(listener, a2ui_stream_server::shutdown_signals())
        .await
}
