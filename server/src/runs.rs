//! A server's runs, whatever serves them: starting a run (claimed in the run log, recorded
//! before it is sent), driving its agent to its end, following it, and the answers to the two
//! routes ([`Runs::post`], [`Runs::get`]).

use crate::log::SharedLog;
use crate::registry::{Follower, Registry, Stop};
use crate::{Agent, Caller, Deadline, Options, Run, RunWriter};
use a2ui_stream::agui::events::{Event, RunAgentInput};
use a2ui_stream::agui::{ClientCatalogs, RunBuilder, sse};
use a2ui_stream::agui::{StoreErrorKind, Stored, messages_of_run, upsert_messages};
use axum::body::Bytes;
use futures_util::{Stream, StreamExt};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

/// How often a client following a run of another process says so in the run log
/// ([`RunLog::touch`](a2ui_stream::agui::RunLog::touch)); a reconnect grace shorter than
/// this cannot see it.
const TOUCH: Duration = Duration::from_secs(2);

/// What is shared by every request, whatever the agent.
pub(crate) struct Shared {
    pub(crate) log: SharedLog,
    pub(crate) registry: Arc<Registry>,
    pub(crate) options: Options,
    /// Fires when open runs are ended by a shutdown; followers stop too.
    pub(crate) ended: CancellationToken,
}

/// The server's runs without a web framework: [`post`](Runs::post) and [`get`](Runs::get)
/// answer what `POST /agent` and `GET /agent/runs/{thread}/{run}` answer, for an application
/// serving them with another framework. Cheap to clone.
///
/// ```
/// use a2ui_stream::agui::events::RunAgentInput;
/// use a2ui_stream_server::{Agent, AgentError, AgentServer, Answer, Options, Run, RunWriter};
/// use futures::StreamExt;
///
/// struct Echo;
/// impl Agent for Echo {
///     async fn run(&self, run: Run, out: &mut RunWriter) -> Result<(), AgentError> {
///         out.text(&run.input.user_text().unwrap_or_default())?;
///         Ok(())
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let (runs, _handle) = AgentServer::new(Echo, Options::default()).into_runs();
/// let input: RunAgentInput = serde_json::from_str(
///     r#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"hi"}]}"#).unwrap();
/// let Answer::Events(body) = runs.post(input, None, None).await else { panic!() };
/// let frames: Vec<_> = body.map(|f| f.unwrap()).collect().await;
/// assert!(frames[0].starts_with(b"id: 1\ndata: {\"type\":\"RUN_STARTED\""));
/// // A resume after event 2, as `GET /agent/runs/t/r` with `Last-Event-ID: 2`.
/// let Answer::Events(rest) = runs.get("t", "r", Some(b"2"), None, None).await else { panic!() };
/// assert_eq!(rest.count().await, frames.len() - 2);
/// // An unknown run.
/// let Answer::Refused(no) = runs.get("t", "nope", None, None, None).await else { panic!() };
/// assert_eq!(no.status, 404);
/// # });
/// ```
pub struct Runs<A> {
    pub(crate) agent: Arc<A>,
    pub(crate) shared: Arc<Shared>,
}

impl<A> Clone for Runs<A> {
    fn clone(&self) -> Self {
        Runs {
            agent: self.agent.clone(),
            shared: self.shared.clone(),
        }
    }
}

impl<A> std::fmt::Debug for Runs<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runs").finish_non_exhaustive()
    }
}

/// A run's SSE frames (`id:` lines, keep-alive comments), to stream as the response body with
/// [`sse::HEADERS`](a2ui_stream::agui::sse::HEADERS). An error means the connection is to be
/// broken (only with [`Options::cut_after`]).
pub type EventStream =
    std::pin::Pin<Box<dyn Stream<Item = Result<Bytes, std::io::Error>> + Send + 'static>>;

/// What a request to the runs gets: the run's events, or a refusal.
pub enum Answer {
    /// `200`, `text/event-stream`: the run.
    Events(EventStream),
    /// Anything else.
    Refused(Refusal),
}

impl std::fmt::Debug for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Events(_) => f.write_str("Events(..)"),
            Answer::Refused(r) => f.debug_tuple("Refused").field(r).finish(),
        }
    }
}

/// A request refused: the HTTP status, a message saying why, and for 503 the seconds after which
/// to try again (`Retry-After`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// 400, 404, 409 or 503.
    pub status: u16,
    /// Why, for a person.
    pub message: String,
    /// `Retry-After`, in seconds.
    pub retry_after: Option<u32>,
}

fn refuse(status: u16, message: impl Into<String>) -> Answer {
    Answer::Refused(Refusal {
        status,
        message: message.into(),
        retry_after: None,
    })
}

pub(crate) fn busy(message: String) -> Answer {
    Answer::Refused(Refusal {
        status: 503,
        message,
        retry_after: Some(1),
    })
}

/// The log's key for a thread: runs and threads of different callers never meet. Thread ids
/// holding NUL are refused, so the caller's part cannot be forged.
fn scope(caller: Option<&Caller>, thread: &str) -> Option<String> {
    if thread.contains('\0') {
        return None;
    }
    Some(match caller {
        None => thread.to_owned(),
        Some(c) => format!("\0{}\0{thread}", c.as_str()),
    })
}

/// A digest of a run's input, kept with the run: a re-POST with another input is refused.
/// It tells inputs apart; it is not a security boundary (callers are kept apart by [`scope`]).
/// The input is hashed as it is serialised, so a message of megabytes is not copied for it.
fn digest(input: &RunAgentInput) -> String {
    /// Two 64-bit FNV-1a hashes of the bytes written, from different bases.
    struct Fnv([u64; 2]);
    impl std::io::Write for Fnv {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            for h in &mut self.0 {
                *h = bytes.iter().fold(*h, |h, &b| {
                    (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
                });
            }
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut fnv = Fnv([0xcbf2_9ce4_8422_2325, 0x6c62_272e_07bb_0142]);
    // Writing to a hasher cannot fail, and the input is plain data.
    let _ = serde_json::to_writer(&mut fnv, input);
    format!("input:{:016x}{:016x}", fnv.0[0], fnv.0[1])
}

impl<A: Agent> Runs<A> {
    /// `POST /agent`: starts the run `input` asks for and answers with its events as they are
    /// written; for a run that exists, the events after `last_event_id` (the header's bytes)
    /// and its live tail, or 409 when it was started with another input and no
    /// `Last-Event-ID` is given; 503 when the server runs its limit; 400 for a `Last-Event-ID`
    /// that is not a whole number.
    pub async fn post(
        &self,
        mut input: RunAgentInput,
        last_event_id: Option<&[u8]>,
        caller: Option<Caller>,
    ) -> Answer {
        let sh = self.shared.clone();
        let after = match sse::last_event_id(last_event_id) {
            Ok(a) => a,
            Err(e) => return refuse(400, e.to_string()),
        };
        let Some(thread) = scope(caller.as_ref(), &input.thread_id) else {
            return refuse(400, "a threadId cannot hold NUL");
        };
        let run = input.run_id.clone();
        let claim = digest(&input);
        let resuming = last_event_id.is_some();
        match sh.log.status(&thread, &run).await {
            Ok(Some(status)) => {
                let open = !status.ended;
                return known_run(&sh, &input, &thread, &claim, resuming, after, open).await;
            }
            Ok(None) => {}
            Err(e) => return busy(format!("the run log failed: {e}")),
        }
        let Some((follower, stop)) = sh.registry.admit(&thread, &run) else {
            if sh.registry.is_open(&thread, &run) {
                // The same run is being started by another request this moment.
                return known_run(&sh, &input, &thread, &claim, resuming, after, true).await;
            }
            return busy(format!(
                "the server is running its limit of {} runs; try again shortly",
                sh.options.max_runs
            ));
        };
        let history = match sh.log.thread_messages(&thread).await {
            Ok(h) => h,
            Err(e) => {
                tracing::warn!(run, "the thread's history could not be read: {e}");
                Vec::new()
            }
        };
        let sent = std::mem::take(&mut input.messages);
        let mut builder = RunBuilder::from_input(&input);
        if sh.options.echo_input {
            let mut echoed = input.clone();
            echoed.messages = sent.clone();
            builder = builder.echo_input(echoed);
        }
        let _ = builder.start();
        let first: Vec<Event> = builder.drain().collect();
        // Recording `RUN_STARTED` with the claim takes the run: of two requests starting it at
        // once, the other finds it taken and follows it.
        let (first, started) = sh.log.start(&thread, &run, &claim, first).await;
        let (frames, next_seq) = match started {
            Ok(stored) => (frames_of(&stored), stored.last().map_or(1, |s| s.seq + 1)),
            Err(e) if matches!(e.kind(), StoreErrorKind::Conflict { .. }) => {
                sh.registry.end(&thread, &run);
                drop(follower);
                return known_run(&sh, &input, &thread, &claim, resuming, after, true).await;
            }
            Err(e) => {
                tracing::warn!(run, "the run log failed; this run cannot be resumed: {e}");
                (unrecorded(&first), 1)
            }
        };
        // What the client said joins the thread now: a run that fails still leaves it said.
        let (sent, saved) = sh.log.save_messages(&thread, sent).await;
        if let Err(e) = saved {
            tracing::warn!(run, "the thread's messages were not saved: {e}");
        }
        input.messages = history.clone();
        upsert_messages(&mut input.messages, sent);
        let (client_tx, client_rx) = mpsc::unbounded_channel::<Bytes>();
        for frame in frames {
            let _ = client_tx.send(frame);
        }
        let (events_tx, events_rx) = mpsc::unbounded_channel();
        let writer = RunWriter::with_builder(
            builder,
            ClientCatalogs::from_input(&input),
            sh.options.splitter.clone(),
            events_tx,
        );
        tokio::spawn(write_run(
            sh.clone(),
            thread,
            run,
            next_seq,
            events_rx,
            client_tx,
        ));
        let ctx = Run {
            input,
            history,
            cancel: CancellationToken::new(),
            deadlines: sh.options.deadlines,
            caller,
        };
        tokio::spawn(drive(self.agent.clone(), sh.clone(), ctx, writer, stop));
        let live = live_body(
            client_rx,
            follower,
            sh.options.keep_alive,
            sh.options.cut_after,
        );
        Answer::Events(Box::pin(live))
    }
}

/// A known run: the rest of it when the request resumes (`Last-Event-ID`) or sends the same
/// input again; 409 for another input under the same ids. `open`: the run had not ended.
async fn known_run(
    sh: &Arc<Shared>,
    input: &RunAgentInput,
    thread: &str,
    claim: &str,
    resuming: bool,
    after: u64,
    open: bool,
) -> Answer {
    if !resuming {
        match sh.log.claim(thread, &input.run_id).await {
            Ok(Some(c)) if c != claim => {
                return refuse(
                    409,
                    format!(
                        "run `{}` of thread `{}` was started with another input; resume it with \
                         Last-Event-ID (or GET /agent/runs/{}/{}), or start a new run with a new runId",
                        input.run_id, input.thread_id, input.thread_id, input.run_id
                    ),
                );
            }
            Ok(_) => {}
            Err(e) => return busy(format!("the run log failed: {e}")),
        }
    }
    follow(sh, thread, &input.run_id, after, open)
}

/// The run's events after `after`, then its live tail (`open`: the run had not ended).
fn follow(sh: &Arc<Shared>, thread: &str, run: &str, after: u64, open: bool) -> Answer {
    let follower = sh.registry.attach(thread, run);
    // An open run another process writes: tell it, while this client follows, that someone does.
    let touching = (open && follower.is_none()).then(|| {
        let token = CancellationToken::new();
        let (log, thread, run, stop) = (
            sh.log.clone(),
            thread.to_owned(),
            run.to_owned(),
            token.clone(),
        );
        tokio::spawn(async move {
            loop {
                if let Err(e) = log.touch(&thread, &run).await {
                    tracing::warn!(run, "telling the run's writer it is followed: {e}");
                }
                tokio::select! {
                    _ = stop.cancelled() => return,
                    _ = tokio::time::sleep(TOUCH) => {}
                }
            }
        });
        token.drop_guard()
    });
    let frames = sh.log.follow(
        thread,
        run,
        after,
        sh.options.keep_alive,
        Some(sh.ended.clone()),
    );
    let body = frames.map(move |f| {
        let _held = (&follower, &touching);
        Ok::<_, std::io::Error>(f)
    });
    Answer::Events(Box::pin(body))
}

impl<A: Agent> Runs<A> {
    /// `GET /agent/runs/{thread}/{run}`: the run's events after `last_event_id` (the header's
    /// bytes), or else after `after` (the `?after=` query), or else from its first event, then
    /// its live tail; 404 for a run the caller does not have.
    pub async fn get(
        &self,
        thread_id: &str,
        run: &str,
        last_event_id: Option<&[u8]>,
        after: Option<&str>,
        caller: Option<Caller>,
    ) -> Answer {
        let sh = &self.shared;
        let after = match (last_event_id, after) {
            (Some(_), _) | (None, None) => sse::last_event_id(last_event_id),
            (None, Some(a)) => sse::last_event_id(Some(a.as_bytes())),
        };
        let after = match after {
            Ok(a) => a,
            Err(e) => return refuse(400, e.to_string()),
        };
        let missing = || refuse(404, format!("no run `{run}` in thread `{thread_id}`"));
        let Some(thread) = scope(caller.as_ref(), thread_id) else {
            return missing();
        };
        match sh.log.status(&thread, run).await {
            Ok(Some(status)) => follow(sh, &thread, run, after, !status.ended),
            Ok(None) => missing(),
            Err(e) => busy(format!("the run log failed: {e}")),
        }
    }
}

fn frames_of(stored: &[Stored]) -> Vec<Bytes> {
    stored.iter().map(|s| Bytes::from(s.to_sse())).collect()
}

/// Frames for events the run log refused: sent all the same, without ids.
fn unrecorded(events: &[Event]) -> Vec<Bytes> {
    events
        .iter()
        .filter_map(|e| sse::encode(e).ok())
        .map(Bytes::from)
        .collect()
}

/// Runs the agent until it returns, the run deadline passes or the run is stopped, then ends
/// the run.
async fn drive<A: Agent>(
    agent: Arc<A>,
    sh: Arc<Shared>,
    run: Run,
    mut writer: RunWriter,
    mut stop: watch::Receiver<Option<Stop>>,
) {
    let cancel = run.cancel.clone();
    let deadlines = sh.options.deadlines;
    let stopped = async {
        loop {
            if let Some(why) = stop.borrow_and_update().clone() {
                return why;
            }
            if stop.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    };
    let mut answer = Box::pin(tokio::time::timeout(
        deadlines.total,
        agent.run(run, &mut writer),
    ));
    let failure = tokio::select! {
        r = &mut answer => match r {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some((e.message().to_owned(), e.code().to_owned())),
            Err(_) => Some((
                format!("the run did not finish within the {}", deadlines.describe(Deadline::Total)),
                "RUN_DEADLINE".to_owned(),
            )),
        },
        why = stopped => {
            let (message, code) = why.describe();
            Some((message, code.to_owned()))
        }
    };
    // The agent's own tasks hear the run is over before its future is dropped.
    cancel.cancel();
    drop(answer);
    if let Some((message, code)) = &failure {
        tracing::warn!(run = writer.run_id(), code, "{message}");
    }
    writer.end(failure);
}

/// Records each batch of the run in the log and sends it to the live client, in order; the
/// run's messages join the thread before its last event is recorded, so a client that sees
/// the run end and starts the next finds them.
async fn write_run(
    sh: Arc<Shared>,
    thread: String,
    run: String,
    mut next_seq: u64,
    mut events: mpsc::UnboundedReceiver<Vec<Event>>,
    client: mpsc::UnboundedSender<Bytes>,
) {
    let mut failed = false;
    while let Some(batch) = events.recv().await {
        if batch
            .iter()
            .any(|e| matches!(e, Event::RunFinished(_) | Event::RunError(_)))
        {
            save_answer(&sh, &thread, &run, &batch).await;
        }
        let (batch, stored) = sh.log.append(&thread, &run, next_seq, batch).await;
        let frames = match stored {
            Ok(stored) => {
                next_seq = stored.last().map_or(next_seq, |s| s.seq + 1);
                frames_of(&stored)
            }
            Err(e) => {
                if !failed {
                    tracing::warn!(run, "the run log failed; this run cannot be resumed: {e}");
                    failed = true;
                }
                unrecorded(&batch)
            }
        };
        for frame in frames {
            let _ = client.send(frame);
        }
    }
    sh.registry.end(&thread, &run);
}

/// Saves what the agent said in the run (its recorded events and the `last` batch).
async fn save_answer(sh: &Shared, thread: &str, run: &str, last: &[Event]) {
    let recorded = match sh.log.read_after(thread, run, 0, usize::MAX).await {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(run, "the run's messages were not saved: {e}");
            return;
        }
    };
    let events: Vec<Event> = recorded.iter().filter_map(|s| s.event().ok()).collect();
    let messages = messages_of_run(events.iter().chain(last));
    if messages.is_empty() {
        return;
    }
    if let (_, Err(e)) = sh.log.save_messages(thread, messages).await {
        tracing::warn!(run, "the run's messages were not saved: {e}");
    }
}

/// The live response: frames as the writer sends them, keep-alive comments in silences; with
/// `cut_after`, the connection is broken after that many frames (the run goes on). Holds the
/// run's first follower.
fn live_body(
    rx: mpsc::UnboundedReceiver<Bytes>,
    follower: Follower,
    keep_alive: Duration,
    cut_after: Option<usize>,
) -> impl Stream<Item = Result<Bytes, std::io::Error>> + Send + 'static {
    struct Live {
        rx: mpsc::UnboundedReceiver<Bytes>,
        sent: usize,
        _follower: Follower,
    }
    let live = Live {
        rx,
        sent: 0,
        _follower: follower,
    };
    futures_util::stream::unfold(live, move |mut l| async move {
        if cut_after.is_some_and(|n| l.sent >= n) {
            if l.sent == usize::MAX {
                return None;
            }
            l.sent = usize::MAX;
            // An error drops what the connection has not written yet: let the last frame
            // leave first.
            tokio::time::sleep(Duration::from_millis(50)).await;
            let cut = std::io::Error::other("connection cut on purpose (cut_after)");
            return Some((Err(cut), l));
        }
        match tokio::time::timeout(keep_alive, l.rx.recv()).await {
            Ok(Some(frame)) => {
                l.sent = l.sent.saturating_add(1);
                Some((Ok(frame), l))
            }
            Ok(None) => None,
            Err(_) => Some((Ok(Bytes::from_static(sse::KEEP_ALIVE.as_bytes())), l)),
        }
    })
}
