//! One run's life on the server: admitted (or refused with 503 when the server is full), answered
//! from the thread's stored history, every event recorded in the run log and sent with its
//! sequence number as the SSE `id:`, resumed after `Last-Event-ID`, and ended with `RUN_ERROR`
//! when a deadline or a shutdown says so.
//!
//! - A new run: `POST /agent` with a `runId` the log has not seen.
//! - Resuming: `POST /agent` again with the same `threadId` and `runId` and a `Last-Event-ID`
//!   header, or `GET /agent/runs/{threadId}/{runId}` (with `Last-Event-ID`, or `?after=N`, or
//!   neither to replay the run whole). The events after that id follow, then the live tail
//!   while the run goes on.
//! - A run goes on when its client disconnects (unless `--cancel-on-disconnect`), so that a
//!   reconnect finds it.

use crate::limits::{ServerLimits, seconds};
use crate::llm::{Agent, AgentEvent};
use crate::server::{ServerConfig, is_json, run_request};
use crate::trim::Trimmer;
use crate::ui::Version;
use a2ui_stream::agui::store::{
    RunLog, RunRecorder, StoreError, Stored, messages_of_run, upsert_messages,
};
use a2ui_stream::agui::{ChatMessage, ClientCatalogs, Event, RunAgentInput, RunBuilder, sse};
use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Semaphore, mpsc, watch};

/// How long the response may stay silent before a keep-alive comment is sent.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How often a resumed run's tail looks in the log when nothing was recorded in this process
/// (the run may be written by another process sharing the log).
const TAIL_POLL: Duration = Duration::from_millis(100);

/// The `CUSTOM` event sent when the UI was rejected and the model is asked again.
pub const RETRY_EVENT: &str = "a2ui-retry";

/// The `CUSTOM` event sent when a model request failed and is sent again:
/// `{"attempt": 1, "maxRetries": 2, "reason": "...", "retryInMs": 250}`.
pub const MODEL_RETRY_EVENT: &str = "a2ui-stream.model-retry";

/// What every request handler shares.
pub struct AppState {
    agent: Agent,
    default_version: Version,
    limits: ServerLimits,
    log: Arc<dyn RunLog>,
    cut_after: Option<usize>,
    /// One permit per run; a run holds its own until its last event is recorded.
    runs: Arc<Semaphore>,
    /// Turns true when open runs must end (the shutdown deadline passed).
    abort: watch::Receiver<bool>,
    /// Counts the batches this process recorded: a resumed run's tail wakes on each.
    recorded: Arc<watch::Sender<u64>>,
    /// Returns the memory of a load to the system once it is over.
    trimmer: Trimmer,
}

impl AppState {
    pub fn new(agent: Agent, config: ServerConfig, abort: watch::Receiver<bool>) -> AppState {
        let runs = Arc::new(Semaphore::new(config.limits.max_runs));
        let all = config.limits.max_runs;
        let open = runs.clone();
        AppState {
            trimmer: Trimmer::start(move || open.available_permits() == all),
            agent,
            default_version: config.default_version,
            limits: config.limits,
            log: config.log,
            cut_after: config.cut_after,
            runs,
            abort,
            recorded: Arc::new(watch::channel(0).0),
        }
    }

    /// Returns once no run is open.
    pub async fn wait_for_runs(&self) {
        let all = u32::try_from(self.limits.max_runs).unwrap_or(u32::MAX);
        let _ = self.runs.acquire_many(all).await;
    }
}

/// Runs a call of `log` off the async threads when the log may block on I/O, else here.
async fn call<T: Send + 'static>(
    log: &dyn RunLog,
    f: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    if log.blocks() {
        tokio::task::spawn_blocking(f).await.ok()
    } else {
        Some(f())
    }
}

fn refuse(status: StatusCode, message: String) -> Response {
    (status, message).into_response()
}

/// The `Last-Event-ID` header as a sequence number (0 when absent); `Err` says what is wrong.
fn last_event_id(headers: &HeaderMap) -> Result<u64, String> {
    match headers.get("last-event-id").map(|v| v.to_str()) {
        None => Ok(0),
        Some(Ok(v)) if v.trim().is_empty() => Ok(0),
        Some(Ok(v)) => v.trim().parse().map_err(|_| {
            format!("Last-Event-ID `{v}` is not an event id of this server (a whole number)")
        }),
        Some(Err(_)) => Err("Last-Event-ID is not text".into()),
    }
}

/// The stored conversation with the request's messages laid over it (by id), so a client may
/// send only its new message.
fn with_history(stored: Vec<ChatMessage>, sent: &[ChatMessage]) -> Vec<ChatMessage> {
    let mut out = stored;
    upsert_messages(&mut out, sent);
    out
}

/// Said once per run when the run log refuses its events.
const UNRECORDED: &str = "the run log failed; this run cannot be resumed";

/// The frames of events the run log could not record: sent all the same, without ids.
fn unrecorded_frames(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|ev| sse::encode(ev).ok())
        .collect()
}

fn event_stream_response(body: Body) -> Response {
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .header("x-accel-buffering", "no")
        .body(body)
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// `POST /agent`: a new run, or the rest of a known one.
pub async fn run_agent(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if !is_json(&headers) {
        return refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "POST /agent takes a RunAgentInput as application/json".into(),
        );
    }
    let mut input: RunAgentInput = match serde_json::from_slice(&body) {
        Ok(i) => i,
        Err(e) => {
            return refuse(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("not a RunAgentInput: {e}"),
            );
        }
    };
    drop(body);
    let after = match last_event_id(&headers) {
        Ok(a) => a,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, e),
    };
    let (log, thread, run) = (
        app.log.clone(),
        input.thread_id.clone(),
        input.run_id.clone(),
    );
    let known = call(&*app.log, move || log.status(&thread, &run)).await;
    match known {
        Some(Ok(Some(_))) => return resume(app, input.thread_id, input.run_id, after),
        Some(Ok(None)) => {}
        Some(Err(e)) => {
            return refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the run log failed: {e}"),
            );
        }
        None => return StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
    let Ok(permit) = app.runs.clone().try_acquire_owned() else {
        let mut r = refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server is running its limit of {} runs (--max-runs); try again shortly",
                app.limits.max_runs
            ),
        );
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return r;
    };
    // The conversation so far: what the thread has stored, then what the client sent.
    let (log, thread) = (app.log.clone(), input.thread_id.clone());
    let stored = call(&*app.log, move || log.thread_messages(&thread)).await;
    let sent = std::mem::take(&mut input.messages);
    input.messages = match stored {
        Some(Ok(stored)) => with_history(stored, &sent),
        Some(Err(e)) => {
            eprintln!(
                "run {}: the thread's history could not be read: {e}",
                input.run_id
            );
            sent.clone()
        }
        None => sent.clone(),
    };
    let recorder = {
        let (log, thread, run) = (
            app.log.clone(),
            input.thread_id.clone(),
            input.run_id.clone(),
        );
        call(&*app.log, move || RunRecorder::new(log, thread, run)).await
    };
    let recorder = match recorder {
        Some(Ok(r)) => r,
        Some(Err(e)) => return refuse(StatusCode::CONFLICT, format!("cannot start the run: {e}")),
        None => return StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    };
    // Recording `RUN_STARTED` claims the run: of two requests that start the same run at the
    // same moment, the second finds it taken and follows the first instead.
    let mut builder = RunBuilder::from_input(&input);
    if app.limits.echo_input {
        builder = builder.echo_input(input.clone());
    }
    let _ = builder.start();
    let first: Vec<Event> = builder.drain().collect();
    let claimed = call(&*app.log, move || {
        let mut recorder = recorder;
        let stored = recorder.record(&first).map_err(|e| (e, first));
        (recorder, stored)
    })
    .await;
    let (recorder, first_frames) = match claimed {
        Some((recorder, Ok(stored))) => (recorder, stored.iter().map(Stored::to_sse).collect()),
        Some((_, Err((StoreError::Conflict { .. }, _)))) => {
            drop(permit);
            return resume(app, input.thread_id, input.run_id, after);
        }
        Some((recorder, Err((e, first)))) => {
            eprintln!("{UNRECORDED}: {e}");
            (recorder, unrecorded_frames(&first))
        }
        None => return StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    };
    let (client_tx, client_rx) = mpsc::unbounded_channel::<Bytes>();
    for frame in first_frames {
        let _ = client_tx.send(Bytes::from(frame));
    }
    let (events_tx, events_rx) = mpsc::unbounded_channel::<Vec<Event>>();
    let keep = app.limits.keep_runs_on_disconnect;
    tokio::spawn(write_run(
        app.clone(),
        (input.thread_id.clone(), input.run_id.clone()),
        recorder,
        events_rx,
        client_tx.clone(),
        sent,
        permit,
    ));
    tokio::spawn(drive_run(
        app.clone(),
        input,
        builder,
        events_tx,
        client_tx,
        keep,
    ));
    event_stream_response(Body::from_stream(live_body(client_rx, app.cut_after)))
}

/// Runs the agent and hands the events of `run` (started and its start recorded) to the writer
/// in order.
async fn drive_run(
    app: Arc<AppState>,
    input: RunAgentInput,
    mut run: RunBuilder,
    events: mpsc::UnboundedSender<Vec<Event>>,
    client: mpsc::UnboundedSender<Bytes>,
    keep_on_disconnect: bool,
) {
    let request = run_request(&input, app.default_version);
    let catalogs = ClientCatalogs::from_input(&input);
    let run_id = input.run_id.clone();
    drop(input);
    let send = |run: &mut RunBuilder| {
        let batch: Vec<Event> = run.drain().collect();
        if !batch.is_empty() {
            let _ = events.send(batch);
        }
    };
    let request = match request {
        Ok(r) => r,
        Err(e) => {
            let _ = run.fail(e, Some("BAD_REQUEST".into()));
            send(&mut run);
            return;
        }
    };
    let mut sink = |ev: AgentEvent| {
        if let AgentEvent::ModelRetry {
            attempt,
            max,
            reason,
            pause,
        } = &ev
        {
            eprintln!(
                "run {run_id}: {reason}; retry {attempt} of {max} in {}",
                seconds(*pause)
            );
        }
        feed(&mut run, &catalogs, ev);
        send(&mut run);
    };
    let mut abort = app.abort.clone();
    let gone = async {
        if keep_on_disconnect {
            std::future::pending::<()>().await
        } else {
            client.closed().await
        }
    };
    let outcome = tokio::select! {
        r = app.agent.run(&request, &mut sink) => Some(r),
        _ = gone => None,
        _ = aborted(&mut abort) => Some(Err(String::new())),
    };
    match outcome {
        Some(Ok(())) => {
            let _ = run.finish();
        }
        Some(Err(reason)) if reason.is_empty() => {
            let message = format!(
                "the server shut down; the run was ended at the shutdown deadline of {} (A2UI_SHUTDOWN_TIMEOUT)",
                seconds(app.limits.shutdown)
            );
            let _ = run.fail(message, Some("SERVER_SHUTDOWN".into()));
        }
        Some(Err(reason)) => {
            eprintln!("run {}: {reason}", run.run_id());
            let _ = run.fail(reason, Some("AGENT_ERROR".into()));
        }
        None => {
            let _ = run.fail(
                "the client disconnected and the server cancels runs without a client",
                Some("CLIENT_GONE".into()),
            );
        }
    }
    send(&mut run);
}

/// Saves what the client sent and what the agent said in the run (its recorded events and the
/// `last` batch, not recorded yet) as the thread's messages.
fn save_history(
    log: &dyn RunLog,
    thread: &str,
    run: &str,
    sent: Vec<ChatMessage>,
    last: &[Event],
) -> Result<(), StoreError> {
    let recorded: Vec<Event> = log
        .read_after(thread, run, 0, usize::MAX)?
        .iter()
        .filter_map(|s| s.event().ok())
        .collect();
    let mut messages = sent;
    messages.extend(messages_of_run(recorded.iter().chain(last)));
    log.save_messages(thread, &messages)
}

/// Resolves when open runs must end (never, for a server that cannot be shut down).
async fn aborted(abort: &mut watch::Receiver<bool>) {
    if abort.wait_for(|a| *a).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Records each batch in the run log and sends it to the client, in order; at the end keeps
/// the thread's conversation. Holds the run's permit until the run's last event is recorded.
async fn write_run(
    app: Arc<AppState>,
    (thread, run): (String, String),
    recorder: RunRecorder,
    mut events: mpsc::UnboundedReceiver<Vec<Event>>,
    client: mpsc::UnboundedSender<Bytes>,
    sent: Vec<ChatMessage>,
    permit: tokio::sync::OwnedSemaphorePermit,
) {
    let log = app.log.clone();
    let mut recorder = Some(recorder);
    let mut sent = Some(sent);
    let mut failed = false;
    while let Some(batch) = events.recv().await {
        let Some(mut rec) = recorder.take() else {
            break;
        };
        // The run's messages join the thread before its last event is recorded, so that a
        // client that sees the run end and starts the next one finds them.
        let ends = batch
            .iter()
            .any(|e| matches!(e, Event::RunFinished(_) | Event::RunError(_)));
        let history = if ends { sent.take() } else { None };
        let (log, thread, run) = (log.clone(), thread.clone(), run.clone());
        let Some((rec, stored)) = call(&*log.clone(), move || {
            if let Some(sent) = history {
                if let Err(e) = save_history(&*log, &thread, &run, sent, &batch) {
                    eprintln!("run {run}: the thread's messages were not saved: {e}");
                }
            }
            let stored = rec.record(&batch).map_err(|e| (e, batch));
            (rec, stored)
        })
        .await
        else {
            break;
        };
        recorder = Some(rec);
        let frames: Vec<String> = match stored {
            Ok(stored) => stored.iter().map(Stored::to_sse).collect(),
            Err((e, batch)) => {
                if !failed {
                    eprintln!("{UNRECORDED}: {e}");
                    failed = true;
                }
                unrecorded_frames(&batch)
            }
        };
        app.recorded.send_modify(|n| *n = n.wrapping_add(1));
        for frame in frames {
            let _ = client.send(Bytes::from(frame));
        }
    }
    drop(client);
    drop(permit);
    if app.runs.available_permits() == app.limits.max_runs {
        app.trimmer.went_idle();
    }
}

/// The live response: frames as the writer sends them, keep-alive comments in silences; with
/// `cut_after`, the connection is broken after that many frames (the run goes on).
fn live_body(
    rx: mpsc::UnboundedReceiver<Bytes>,
    cut_after: Option<usize>,
) -> impl futures::Stream<Item = Result<Bytes, std::io::Error>> {
    futures::stream::unfold((rx, 0usize), move |(mut rx, sent)| async move {
        if cut_after.is_some_and(|n| sent >= n) {
            let cut = std::io::Error::other("connection cut on purpose (--cut-after)");
            return Some((Err(cut), (rx, usize::MAX)));
        }
        match tokio::time::timeout(KEEP_ALIVE, rx.recv()).await {
            Ok(Some(frame)) => Some((Ok(frame), (rx, sent.saturating_add(1)))),
            Ok(None) => None,
            Err(_) => Some((
                Ok(Bytes::from_static(sse::KEEP_ALIVE.as_bytes())),
                (rx, sent),
            )),
        }
    })
}

/// `GET /agent/runs/{threadId}/{runId}`: the run's events after `Last-Event-ID` (or `?after=`),
/// then its live tail; 404 for a run the log does not know.
pub async fn resume_run(
    State(app): State<Arc<AppState>>,
    Path((thread, run)): Path<(String, String)>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let from_query = query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .find_map(|pair| pair.strip_prefix("after="))
        .map(|n| n.parse::<u64>());
    let after = match (from_query, last_event_id(&headers)) {
        (_, Err(e)) => return refuse(StatusCode::BAD_REQUEST, e),
        (Some(Err(_)), _) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                "?after= takes an event id (a whole number)".into(),
            );
        }
        (Some(Ok(a)), Ok(0)) => a,
        (_, Ok(a)) => a,
    };
    let (log, t, r) = (app.log.clone(), thread.clone(), run.clone());
    match call(&*app.log, move || log.status(&t, &r)).await {
        Some(Ok(Some(_))) => resume(app, thread, run, after),
        Some(Ok(None)) => refuse(
            StatusCode::NOT_FOUND,
            format!("no run `{run}` in thread `{thread}`"),
        ),
        Some(Err(e)) => refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the run log failed: {e}"),
        ),
        None => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// The events of a known run after `after`, then its live tail until the run ends: it reads
/// the log again whenever this process records a batch, and every [`TAIL_POLL`] for runs
/// another process writes. No thread is held while it waits.
fn resume(app: Arc<AppState>, thread: String, run: String, after: u64) -> Response {
    struct Tail {
        log: Arc<dyn RunLog>,
        thread: Arc<str>,
        run: Arc<str>,
        after: u64,
        idle: Duration,
        done: bool,
        abort: watch::Receiver<bool>,
        recorded: watch::Receiver<u64>,
        pending: std::vec::IntoIter<Stored>,
    }
    let tail = Tail {
        log: app.log.clone(),
        thread: thread.into(),
        run: run.into(),
        after,
        idle: Duration::ZERO,
        done: false,
        abort: app.abort.clone(),
        recorded: app.recorded.subscribe(),
        pending: Vec::new().into_iter(),
    };
    let stream = futures::stream::unfold(tail, |mut t| async move {
        loop {
            if let Some(s) = t.pending.next() {
                t.after = s.seq;
                t.done |= s.is_terminal();
                return Some((Ok::<_, std::io::Error>(Bytes::from(s.to_sse())), t));
            }
            if t.done || *t.abort.borrow() {
                return None;
            }
            if t.idle >= KEEP_ALIVE {
                t.idle = Duration::ZERO;
                return Some((Ok(Bytes::from_static(sse::KEEP_ALIVE.as_bytes())), t));
            }
            t.recorded.borrow_and_update();
            let (log, thread, run, after) =
                (t.log.clone(), t.thread.clone(), t.run.clone(), t.after);
            let got = call(&*t.log, move || log.read_after(&thread, &run, after, 256)).await;
            match got {
                Some(Ok(batch)) if batch.is_empty() => {
                    let waited = std::time::Instant::now();
                    tokio::select! {
                        _ = t.recorded.changed() => {}
                        _ = tokio::time::sleep(TAIL_POLL) => {}
                        _ = aborted(&mut t.abort) => {}
                    }
                    t.idle += waited.elapsed();
                }
                Some(Ok(batch)) => {
                    t.idle = Duration::ZERO;
                    t.pending = batch.into_iter();
                }
                Some(Err(e)) => {
                    eprintln!("resuming run {}: the run log failed: {e}", t.run);
                    return None;
                }
                None => return None,
            }
        }
    });
    event_stream_response(Body::from_stream(stream))
}

/// Feeds one agent event to the run builder. Refusals cannot happen for a well-behaved loop; if
/// one does, it is reported in the stream instead of breaking it.
fn feed(run: &mut RunBuilder, catalogs: &ClientCatalogs, ev: AgentEvent) {
    let result = match ev {
        AgentEvent::Text(t) => run.text(&t),
        AgentEvent::A2ui(m) if m.kind() == a2ui_stream::MessageKind::CreateSurface => {
            match m.to_value() {
                Ok(mut v) => {
                    catalogs.rename(&mut v);
                    run.a2ui_value(m.surface_id(), v)
                }
                Err(_) => run.a2ui(a2ui_stream::Event::Message(m)),
            }
        }
        AgentEvent::A2ui(m) => run.a2ui(a2ui_stream::Event::Message(m)),
        AgentEvent::StreamProblem(e) => run.splitter(Err(e)),
        AgentEvent::ToolCallStart { id, name } => run.tool_call_start(&id, &name),
        AgentEvent::ToolCallArgs { id, delta } => run.tool_call_args(&id, &delta),
        AgentEvent::ToolCallEnd { id } => run.tool_call_end(&id),
        AgentEvent::ToolCallResult { id, content } => run.tool_call_result(&id, &content),
        AgentEvent::ResponseEnd => run.text_end(),
        AgentEvent::Retry { reason } => run.custom(RETRY_EVENT, json!({ "reason": reason })),
        AgentEvent::ModelRetry {
            attempt,
            max,
            reason,
            pause,
        } => run.custom(
            MODEL_RETRY_EVENT,
            json!({ "attempt": attempt, "maxRetries": max, "reason": reason,
                    "retryInMs": u64::try_from(pause.as_millis()).unwrap_or(u64::MAX) }),
        ),
    };
    if let Err(e) = result {
        let _ = run.custom(
            "a2ui-stream.agent-error",
            json!({ "message": e.to_string() }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2ui_stream::agui::{UserContent, UserMessage};

    fn user(id: &str, text: &str) -> ChatMessage {
        ChatMessage::User(UserMessage::new(id, UserContent::Text(text.into())))
    }

    #[test]
    fn sent_messages_lay_over_the_stored_ones_by_id() {
        let stored = vec![user("a", "one"), user("b", "two")];
        let merged = with_history(stored, &[user("b", "two, edited"), user("c", "three")]);
        assert_eq!(
            merged,
            [
                user("a", "one"),
                user("b", "two, edited"),
                user("c", "three")
            ]
        );
    }

    #[test]
    fn last_event_id_is_a_sequence_number() {
        let mut h = HeaderMap::new();
        assert_eq!(last_event_id(&h).ok(), Some(0));
        h.insert("last-event-id", HeaderValue::from_static("42"));
        assert_eq!(last_event_id(&h).ok(), Some(42));
        h.insert("last-event-id", HeaderValue::from_static("run-1:42"));
        assert!(last_event_id(&h).is_err());
    }
}
