use a2ui_stream_server::{Agent, AgentError, Arrival, Retries, Run, RunWriter};
use futures::StreamExt;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// An answer as a model streams it: a sentence, then a v0.9 card whose components go out one by
/// one, in 12-byte pieces `pace` apart.
pub fn answer(user: &str) -> String {
    let messages = [
        json!({"version": "v0.9", "createSurface": {"surfaceId": "card",
            "catalogId": "https://a2ui.org/specification/v0_9/basic_catalog.json"}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "card", "components": [
            {"id": "root", "component": "Column", "children": ["title", "body"]},
            {"id": "title", "component": "Text", "text": "About your question"},
            {"id": "body", "component": "Text", "text": user}]}}),
    ];
    let block: Vec<String> = messages
        .iter()
        .map(a2ui_stream::to_streaming_json)
        .collect();
    format!(
        "Here is what I found. <a2ui-json>[{}]</a2ui-json> Anything else?",
        block.join(",")
    )
}

/// Streams [`answer`] in pieces, `pace` apart; counts the histories it was given.
#[derive(Clone, Default)]
pub struct Streamer {
    pub pace: Duration,
    /// The number of messages of each run's input, in order.
    pub seen: Arc<std::sync::Mutex<Vec<usize>>>,
}

impl Agent for Streamer {
    async fn run(&self, run: Run, out: &mut RunWriter) -> Result<(), AgentError> {
        self.seen.lock().unwrap().push(run.input.messages.len());
        let text = answer(&run.input.user_text().ok_or("no question")?);
        for piece in text.as_bytes().chunks(12) {
            out.model_text(std::str::from_utf8(piece).unwrap())?;
            if !self.pace.is_zero() {
                tokio::time::sleep(self.pace).await;
            }
        }
        out.model_end()?;
        Ok(())
    }
}

/// Writes a sentence, then waits until cancelled; counts the cancellations it saw.
#[derive(Clone, Default)]
pub struct Stuck {
    pub started: Arc<AtomicUsize>,
    pub cancelled: Arc<AtomicUsize>,
}

impl Agent for Stuck {
    async fn run(&self, run: Run, out: &mut RunWriter) -> Result<(), AgentError> {
        self.started.fetch_add(1, Ordering::SeqCst);
        out.text("Thinking…")?;
        let cancelled = self.cancelled.clone();
        let token = run.cancel.clone();
        // A task of the agent's own, ended by the run's cancellation.
        tokio::spawn(async move {
            token.cancelled().await;
            cancelled.fetch_add(1, Ordering::SeqCst);
        });
        std::future::pending::<()>().await;
        Ok(())
    }
}

/// A model client that misbehaves as the user message says: `hang` (no answer), `stall` (four
/// chunks, then silence), `cut` (four chunks, then an error), `slow` (a chunk every 100 ms,
/// forever), `fail` (every request refused with a 503). It reads the answer through
/// [`Arrival`] and opens it through [`Retries`], as a real agent does.
pub struct Model {
    pub retries: Retries,
    pub requests: Arc<AtomicUsize>,
}

type Chunks = futures::stream::BoxStream<'static, Result<String, String>>;

impl Model {
    fn open(&self, mode: &str) -> Result<Chunks, String> {
        self.requests.fetch_add(1, Ordering::SeqCst);
        let head = || {
            futures::stream::iter(["Here ", "are ", "some ", "places"]).then(|t| async move {
                tokio::time::sleep(Duration::from_millis(20)).await;
                Ok(t.to_owned())
            })
        };
        Ok(match mode {
            "hang" => futures::stream::pending().boxed(),
            "stall" => head().chain(futures::stream::pending()).boxed(),
            "cut" => head()
                .chain(futures::stream::once(async {
                    Err("upstream connection cut".to_owned())
                }))
                .boxed(),
            "slow" => futures::stream::unfold(0, |i| async move {
                tokio::time::sleep(Duration::from_millis(100)).await;
                Some((Ok(format!("word{i} ")), i + 1))
            })
            .boxed(),
            "fail" => return Err("503 Service Unavailable".into()),
            _ => futures::stream::iter([Ok("Fine.".to_owned())]).boxed(),
        })
    }
}

impl Agent for Model {
    async fn run(&self, run: Run, out: &mut RunWriter) -> Result<(), AgentError> {
        let mode = run.input.user_text().unwrap_or_default();
        let mut stream = self
            .retries
            .run(
                out,
                || async { self.open(&mode) },
                |e| Some(format!("the model request failed: {e}")),
            )
            .await?;
        let mut arrival = Arrival::new(&run.deadlines);
        while let Some(chunk) = arrival.next(&mut stream).await? {
            let chunk = chunk.map_err(|e| {
                format!(
                    "the connection to the model was cut after {} ({e})",
                    arrival.describe()
                )
            })?;
            arrival.add_chunk(chunk.len());
            out.model_text(&chunk)?;
        }
        out.model_end()?;
        Ok(())
    }
}
