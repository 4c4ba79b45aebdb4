//! The agent loop: a streaming chat completion (async-openai) fed delta by delta into the splitter,
//! every completed piece handed to the sink the moment it exists.
//!
//! Nothing here collects a response before passing it on: each content delta goes straight into
//! [`Splitter::feed`], and whatever that call completes (prose, an A2UI message, one component) is
//! emitted before the next delta is awaited. Tool-call deltas are emitted as they arrive too.

use crate::limits::{Deadline, Deadlines, Retries, seconds};
use crate::official::Official;
use crate::prompt;
use crate::surface::Ui;
use crate::tools;
use crate::ui::{self, Version};
use a2ui_stream::{Config, Event, Message, Splitter};
use async_openai::Client;
use async_openai::config::OpenAIConfig;
use async_openai::error::OpenAIError;
use async_openai::types::chat::{CreateChatCompletionRequest, CreateChatCompletionStreamResponse};
use futures::StreamExt;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Most model calls one attempt makes (each tool round is one more call).
const MAX_ROUNDS: usize = 4;

/// What the loop hands on, in order, as soon as it has it.
#[derive(Debug, Clone)]
pub enum AgentEvent {
    /// Prose from the model (tags and A2UI JSON removed).
    Text(String),
    /// One complete A2UI message (a component of a component list arrives as its own message).
    A2ui(Message),
    /// The splitter found malformed A2UI in the stream; the UI will be rejected after the stream.
    StreamProblem(a2ui_stream::Error),
    /// The model started a tool call.
    ToolCallStart { id: String, name: String },
    /// A piece of the tool call's JSON arguments.
    ToolCallArgs { id: String, delta: String },
    /// The tool call's arguments are complete.
    ToolCallEnd { id: String },
    /// The tool's result, as sent back to the model.
    ToolCallResult { id: String, content: String },
    /// One model response ended (prose written since the last one belongs to one message).
    ResponseEnd,
    /// The UI was rejected; the model is asked once more with the reason.
    Retry { reason: String },
    /// A model request failed before any of its answer arrived and is sent again after `pause`.
    ModelRetry {
        /// This retry's number, from 1.
        attempt: u32,
        /// Retries allowed.
        max: u32,
        /// Why the request failed.
        reason: String,
        pause: Duration,
    },
}

/// Where the model is and which one to call.
#[derive(Debug, Clone)]
pub struct ModelConfig {
    /// Base URL of an OpenAI-compatible API, ending in `/v1`.
    pub api_base: String,
    /// API key (`OPENAI_API_KEY`); any string for servers that do not check it.
    pub api_key: String,
    /// Model name (`A2UI_MODEL`).
    pub model: String,
}

/// Default model name when `A2UI_MODEL` is not set.
pub const DEFAULT_MODEL: &str = "gpt-4.1-mini";

impl ModelConfig {
    /// The real-model configuration from `OPENAI_API_KEY`, `OPENAI_BASE_URL` and `A2UI_MODEL`, or
    /// `None` when neither a key nor a base URL is set (or `A2UI_MODEL=scripted`).
    pub fn from_env() -> Option<ModelConfig> {
        let key = std::env::var("OPENAI_API_KEY")
            .ok()
            .filter(|s| !s.is_empty());
        let base = std::env::var("OPENAI_BASE_URL")
            .ok()
            .filter(|s| !s.is_empty());
        let model = std::env::var("A2UI_MODEL").ok().filter(|s| !s.is_empty());
        if model.as_deref() == Some("scripted") || (key.is_none() && base.is_none()) {
            return None;
        }
        Some(ModelConfig {
            api_base: base.unwrap_or_else(|| "https://api.openai.com/v1".into()),
            api_key: key.unwrap_or_else(|| "none".into()),
            model: model.unwrap_or_else(|| DEFAULT_MODEL.into()),
        })
    }
}

/// The TLS backend needs a process-wide crypto provider before the first HTTP client exists.
fn install_crypto_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Fails only when another provider is already installed, which is just as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// One agent: a chat-completions client, a model name and the validators its answers are checked
/// with. Runs are independent and may overlap.
#[derive(Clone)]
pub struct Agent {
    client: Client<OpenAIConfig>,
    openai: OpenAIConfig,
    api_base: String,
    model: String,
    official: &'static Official,
    deadlines: Deadlines,
    retries: Retries,
}

/// The chat-completions client: connections time out after the connect deadline, at most 16
/// are kept idle, and requests are not retried underneath (the agent retries them itself,
/// visibly).
fn client(openai: &OpenAIConfig, deadlines: &Deadlines) -> Client<OpenAIConfig> {
    let http = reqwest::Client::builder()
        .connect_timeout(deadlines.connect)
        // After a load, a few idle connections are worth keeping, not one per run that was open.
        .pool_max_idle_per_host(16)
        .pool_idle_timeout(std::time::Duration::from_secs(30))
        .build()
        .unwrap_or_default();
    Client::with_config(openai.clone())
        .with_http_client(http.clone())
        .with_http_service(async_openai::middleware::ReqwestService::new(http))
}

/// Whether another try may mend a failed request: a server error, a rate limit (not an
/// exhausted quota), or a connection refused or reset before any answer.
fn retryable(e: &OpenAIError) -> bool {
    match e {
        OpenAIError::ApiError(api) => {
            let status = api.status_code.as_u16();
            (status == 429 && api.api_error.r#type.as_deref() != Some("insufficient_quota"))
                || (500..600).contains(&status)
        }
        OpenAIError::Reqwest(r) => r.is_connect() && !r.is_timeout(),
        _ => false,
    }
}

/// What a run is asked to do.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// Protocol version of the UI.
    pub version: Version,
    /// The conversation so far, as chat messages (`{"role": "user"|"assistant", "content": ...}`),
    /// ending with the user's latest message.
    pub history: Vec<Value>,
}

impl RunRequest {
    /// A run answering one user query.
    pub fn query(version: Version, text: &str) -> RunRequest {
        RunRequest {
            version,
            history: vec![json!({ "role": "user", "content": text })],
        }
    }
}

/// Converts a JSON A2UI message into a [`Message`], through the splitter itself.
pub fn message_from_value(v: &Value) -> Option<Message> {
    let mut s = Splitter::with_config(Config::bare());
    let text = ui::writer::to_json(v);
    let mut found = None;
    for ev in s.feed(text.as_bytes()).chain(std::iter::empty()) {
        if let Ok(Event::Message(m)) = ev {
            found.get_or_insert(m);
        }
    }
    for ev in s.finish() {
        if let Ok(Event::Message(m)) = ev {
            found.get_or_insert(m);
        }
    }
    found
}

/// Turns splitter text pieces (which may cut a UTF-8 character) into whole strings.
#[derive(Default)]
struct Utf8Joiner {
    pending: Vec<u8>,
}

impl Utf8Joiner {
    fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let mut out = String::new();
        loop {
            match std::str::from_utf8(&self.pending) {
                Ok(s) => {
                    out.push_str(s);
                    self.pending.clear();
                    return out;
                }
                Err(e) => {
                    let good = e.valid_up_to();
                    out.push_str(&String::from_utf8_lossy(
                        self.pending.get(..good).unwrap_or_default(),
                    ));
                    match e.error_len() {
                        // An incomplete character at the end: keep it for the next piece.
                        None => {
                            self.pending.drain(..good);
                            return out;
                        }
                        Some(bad) => {
                            out.push(char::REPLACEMENT_CHARACTER);
                            self.pending.drain(..(good + bad).min(self.pending.len()));
                        }
                    }
                }
            }
        }
    }

    fn finish(&mut self) -> String {
        let out = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        out
    }
}

/// A tool call being assembled from its deltas.
#[derive(Default)]
struct PendingCall {
    id: String,
    name: String,
    arguments: String,
    started: bool,
}

/// What one attempt produced: the A2UI messages, problems the splitter reported, the conversation.
struct Attempt {
    messages: Vec<Value>,
    problems: Vec<String>,
}

impl Agent {
    /// An agent talking to the OpenAI-compatible API described by `config`, checking answers
    /// with the official validator of the built-in basic catalogs (see [`check`]).
    pub fn new(config: &ModelConfig) -> Agent {
        install_crypto_provider();
        let openai = OpenAIConfig::new()
            .with_api_base(config.api_base.clone())
            .with_api_key(config.api_key.clone());
        let deadlines = Deadlines::default();
        Agent {
            client: client(&openai, &deadlines),
            openai,
            api_base: config.api_base.clone(),
            model: config.model.clone(),
            official: Official::builtin(),
            deadlines,
            retries: Retries::default(),
        }
    }

    /// The same agent with other deadlines.
    pub fn with_deadlines(mut self, deadlines: Deadlines) -> Agent {
        self.client = client(&self.openai, &deadlines);
        self.deadlines = deadlines;
        self
    }

    /// The same agent retrying failed model requests as `retries` says.
    pub fn with_retries(mut self, retries: Retries) -> Agent {
        self.retries = retries;
        self
    }

    /// Which check answers of version `v` get, for log lines.
    pub fn ui_check(&self, v: Version) -> String {
        format!("{}{OPENED_CHECK}", self.official.describe(v))
    }

    /// Which check answers of every version get, for a server that speaks them all.
    pub fn ui_checks(&self) -> String {
        format!("{}{OPENED_CHECK}", self.official.describe_all())
    }

    /// Runs one turn: model calls, tool calls, validation, at most one retry. Every event goes to
    /// `sink` as it happens. `Err` carries the reason the run failed (after the retry, if any),
    /// including a deadline that passed.
    pub async fn run<F>(&self, req: &RunRequest, sink: &mut F) -> Result<(), String>
    where
        F: FnMut(AgentEvent) + Send,
    {
        match tokio::time::timeout(self.deadlines.total, self.turn(req, sink)).await {
            Ok(r) => r,
            Err(_) => Err(format!(
                "the run did not finish within the {}",
                Deadline::Total.describe(&self.deadlines)
            )),
        }
    }

    async fn turn<F>(&self, req: &RunRequest, sink: &mut F) -> Result<(), String>
    where
        F: FnMut(AgentEvent) + Send,
    {
        let mut conversation =
            vec![json!({ "role": "system", "content": prompt::system_prompt(req.version) })];
        conversation.extend(req.history.iter().cloned());
        let first = self.attempt(&mut conversation, sink).await?;
        let Err(reason) = check(self.official, req.version, &first) else {
            return Ok(());
        };
        // Take the rejected UI off the screen, then ask once more with the reason.
        sink(AgentEvent::Retry {
            reason: reason.clone(),
        });
        for sid in opened_surfaces(&first.messages) {
            if let Some(m) = message_from_value(&ui::delete_surface(req.version, &sid)) {
                sink(AgentEvent::A2ui(m));
            }
        }
        conversation.push(json!({ "role": "user", "content": prompt::retry_message(&reason) }));
        let second = self.attempt(&mut conversation, sink).await?;
        check(self.official, req.version, &second)
            .map_err(|r| format!("the model's UI was invalid twice; last problem: {r}"))
    }

    /// Model calls until the model stops calling tools (or [`MAX_ROUNDS`]).
    async fn attempt<F>(
        &self,
        conversation: &mut Vec<Value>,
        sink: &mut F,
    ) -> Result<Attempt, String>
    where
        F: FnMut(AgentEvent) + Send,
    {
        let mut attempt = Attempt {
            messages: Vec::new(),
            problems: Vec::new(),
        };
        for round in 0..MAX_ROUNDS {
            let allow_tools = round + 1 < MAX_ROUNDS;
            let request = json!({
                "model": self.model,
                "messages": conversation,
                "stream": true,
                "tools": if allow_tools { json!([{ "type": "function", "function": tools::get_restaurants_definition() }]) } else { json!([]) },
            });
            let mut request: CreateChatCompletionRequest = serde_json::from_value(request)
                .map_err(|e| format!("could not build the model request: {e}"))?;
            if !allow_tools {
                request.tools = None;
            }
            let (mut stream, sent) = self.open(request, sink).await?;

            let mut splitter = Splitter::new();
            let mut text = Utf8Joiner::default();
            let mut content = String::new();
            let mut calls: Vec<PendingCall> = Vec::new();
            let mut arrived = Arrived::default();
            loop {
                let wait = if arrived.chunks == 0 {
                    // The first token's deadline counts from the request.
                    (self.deadlines.first_token).saturating_sub(sent.elapsed())
                } else {
                    self.deadlines.silence
                };
                let next = match tokio::time::timeout(wait, stream.next()).await {
                    Ok(next) => next,
                    Err(_) if arrived.chunks == 0 => {
                        return Err(format!(
                            "the model sent no answer within the {}",
                            Deadline::FirstToken.describe(&self.deadlines)
                        ));
                    }
                    Err(_) => {
                        return Err(format!(
                            "the model went silent for longer than the {}, after {}",
                            Deadline::Silence.describe(&self.deadlines),
                            arrived.describe(sent)
                        ));
                    }
                };
                let Some(chunk) = next else {
                    if !arrived.finished {
                        return Err(format!(
                            "the model's answer stopped without an end after {}",
                            arrived.describe(sent)
                        ));
                    }
                    break;
                };
                let chunk: CreateChatCompletionStreamResponse = chunk.map_err(|e| {
                    if arrived.chunks == 0 {
                        format!("the model's answer failed before it began: {e}")
                    } else {
                        format!(
                            "the connection to the model was cut after {} ({e})",
                            arrived.describe(sent)
                        )
                    }
                })?;
                arrived.chunks += 1;
                for choice in chunk.choices.into_iter().filter(|c| c.index == 0) {
                    arrived.finished |= choice.finish_reason.is_some();
                    arrived.bytes += choice.delta.content.as_ref().map_or(0, String::len);
                    if let Some(delta) = choice.delta.content.filter(|d| !d.is_empty()) {
                        content.push_str(&delta);
                        for ev in splitter.feed(delta.as_bytes()) {
                            emit_split(ev, &mut text, &mut attempt, sink);
                        }
                    }
                    for tc in choice.delta.tool_calls.unwrap_or_default() {
                        let idx = tc.index as usize;
                        while calls.len() <= idx {
                            calls.push(PendingCall::default());
                        }
                        let Some(call) = calls.get_mut(idx) else {
                            continue;
                        };
                        if let Some(id) = tc.id.filter(|s| !s.is_empty()) {
                            call.id = id;
                        }
                        let (name, args) = match tc.function {
                            Some(f) => (f.name, f.arguments),
                            None => (None, None),
                        };
                        if let Some(name) = name.filter(|s| !s.is_empty()) {
                            call.name.push_str(&name);
                        }
                        if !call.started && !call.name.is_empty() {
                            if call.id.is_empty() {
                                call.id = format!("call_{round}_{idx}");
                            }
                            call.started = true;
                            sink(AgentEvent::ToolCallStart {
                                id: call.id.clone(),
                                name: call.name.clone(),
                            });
                            if !call.arguments.is_empty() {
                                sink(AgentEvent::ToolCallArgs {
                                    id: call.id.clone(),
                                    delta: call.arguments.clone(),
                                });
                            }
                        }
                        if let Some(args) = args.filter(|s| !s.is_empty()) {
                            arrived.bytes += args.len();
                            call.arguments.push_str(&args);
                            if call.started {
                                sink(AgentEvent::ToolCallArgs {
                                    id: call.id.clone(),
                                    delta: args,
                                });
                            }
                        }
                    }
                }
            }
            for ev in splitter.finish() {
                emit_split(ev, &mut text, &mut attempt, sink);
            }
            let rest = text.finish();
            if !rest.is_empty() {
                sink(AgentEvent::Text(rest));
            }
            sink(AgentEvent::ResponseEnd);

            let calls: Vec<PendingCall> = calls.into_iter().filter(|c| c.started).collect();
            if calls.is_empty() {
                conversation.push(json!({ "role": "assistant", "content": content }));
                return Ok(attempt);
            }
            let tool_calls: Vec<Value> = calls
                .iter()
                .map(|c| json!({ "id": c.id, "type": "function", "function": { "name": c.name, "arguments": c.arguments } }))
                .collect();
            conversation.push(json!({
                "role": "assistant",
                "content": if content.is_empty() { Value::Null } else { json!(content) },
                "tool_calls": tool_calls
            }));
            for c in &calls {
                sink(AgentEvent::ToolCallEnd { id: c.id.clone() });
                let result = tools::call_tool(&c.name, &c.arguments)
                    .unwrap_or_else(|e| json!({ "error": e }).to_string());
                sink(AgentEvent::ToolCallResult {
                    id: c.id.clone(),
                    content: result.clone(),
                });
                conversation
                    .push(json!({ "role": "tool", "tool_call_id": c.id, "content": result }));
            }
        }
        Err(format!(
            "the model kept calling tools for {MAX_ROUNDS} rounds"
        ))
    }
}

/// How much of one model answer has arrived.
#[derive(Debug, Default)]
struct Arrived {
    chunks: usize,
    bytes: usize,
    /// A choice said why it ended (`finish_reason`).
    finished: bool,
}

impl Arrived {
    /// "1234 bytes of its answer in 57 chunks, 2.1 s after the request".
    fn describe(&self, sent: Instant) -> String {
        format!(
            "{} bytes of its answer in {} chunks, {} after the request",
            self.bytes,
            self.chunks,
            seconds(sent.elapsed())
        )
    }
}

impl Agent {
    /// Sends one streaming request, retrying what may be mended (each retry told to `sink`).
    /// Returns the stream and when its request was sent.
    async fn open<F>(
        &self,
        request: CreateChatCompletionRequest,
        sink: &mut F,
    ) -> Result<(ChatStream, Instant), String>
    where
        F: FnMut(AgentEvent) + Send,
    {
        let mut retry = 0;
        loop {
            let sent = Instant::now();
            let opened = tokio::time::timeout(
                self.deadlines.first_token,
                self.client.chat().create_stream(request.clone()),
            )
            .await;
            let e = match opened {
                Ok(Ok(stream)) => return Ok((stream, sent)),
                Ok(Err(e)) => e,
                Err(_) => {
                    return Err(format!(
                        "the model at {} did not answer within the {}",
                        self.api_base,
                        Deadline::FirstToken.describe(&self.deadlines)
                    ));
                }
            };
            let reason = match &e {
                OpenAIError::Reqwest(r) if r.is_connect() && r.is_timeout() => format!(
                    "could not connect to the model at {} within the {}",
                    self.api_base,
                    Deadline::Connect.describe(&self.deadlines)
                ),
                OpenAIError::Reqwest(r) if r.is_connect() => {
                    format!("could not connect to the model at {}: {e}", self.api_base)
                }
                _ => format!("the model request failed: {e}"),
            };
            if !retryable(&e) || retry >= self.retries.max {
                return Err(if retry == 0 {
                    reason
                } else {
                    format!("{reason} (after {retry} retries)")
                });
            }
            retry += 1;
            let pause = self.retries.pause(retry);
            sink(AgentEvent::ModelRetry {
                attempt: retry,
                max: self.retries.max,
                reason,
                pause,
            });
            tokio::time::sleep(pause).await;
        }
    }
}

type ChatStream = async_openai::types::chat::ChatCompletionResponseStream;

fn emit_split<F>(
    ev: Result<Event, a2ui_stream::Error>,
    text: &mut Utf8Joiner,
    attempt: &mut Attempt,
    sink: &mut F,
) where
    F: FnMut(AgentEvent) + Send,
{
    match ev {
        Ok(Event::Text(bytes)) => {
            let s = text.push(&bytes);
            if !s.is_empty() {
                sink(AgentEvent::Text(s));
            }
        }
        Ok(Event::Message(m)) => {
            match m.to_value() {
                Ok(v) => attempt.messages.push(v),
                Err(e) => attempt
                    .problems
                    .push(format!("an A2UI message is not valid JSON: {e}")),
            }
            sink(AgentEvent::A2ui(m));
        }
        Err(e) => {
            attempt.problems.push(format!("malformed A2UI {e}"));
            sink(AgentEvent::StreamProblem(e));
        }
    }
}

/// Surfaces an attempt opened, in order.
fn opened_surfaces(messages: &[Value]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in messages {
        for key in [
            "beginRendering",
            "createSurface",
            "surfaceUpdate",
            "updateComponents",
        ] {
            if let Some(sid) = m
                .get(key)
                .and_then(|b| b.get("surfaceId"))
                .and_then(Value::as_str)
            {
                if !out.iter().any(|s| s == sid) {
                    out.push(sid.to_owned());
                }
            }
        }
    }
    out
}

/// What [`check`] adds to the official validator, for log lines.
const OPENED_CHECK: &str = " and the demo's check that every surface drawn on is opened";

/// Validates what one attempt streamed: it must parse, be of the run's version, pass the
/// official validator, and open every surface it draws on (which the validator cannot see; see
/// [`Ui::unopened`]).
fn check(official: &Official, version: Version, attempt: &Attempt) -> Result<(), String> {
    let mut problems = attempt.problems.clone();
    for m in &attempt.messages {
        let v = m.get("version").and_then(Value::as_str);
        match (version, v) {
            (Version::V08, None) => {}
            (_, Some(tag)) if version != Version::V08 && tag == version.as_str() => {}
            (_, other) => problems.push(format!(
                "message has version {}, but this run speaks {}",
                other.unwrap_or("v0.8 (none given)"),
                version.as_str()
            )),
        }
    }
    problems.extend(official.check(version, &attempt.messages).err());
    let mut ui = Ui::new();
    for m in &attempt.messages {
        // A message a client cannot apply is refused by the validator, in its words.
        let _ = ui.apply(m);
    }
    problems.extend(ui.unopened());
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_cut_inside_a_character_is_joined() {
        let mut j = Utf8Joiner::default();
        let bytes = "né😀".as_bytes();
        let mut out = String::new();
        for b in bytes {
            out.push_str(&j.push(std::slice::from_ref(b)));
        }
        out.push_str(&j.finish());
        assert_eq!(out, "né😀");
        assert_eq!(j.push(b"a\xffb"), "a\u{fffd}b");
    }

    #[test]
    fn check_rejects_wrong_version_dangling_references_and_unopened_surfaces() {
        let official = Official::builtin();
        let attempt = |messages: Vec<Value>| Attempt {
            messages,
            problems: vec![],
        };
        let good = ui::restaurant_list(Version::V09, "T", &[]);
        assert!(check(official, Version::V09, &attempt(good.clone())).is_ok());
        let err = check(official, Version::V08, &attempt(good.clone())).unwrap_err();
        assert!(err.contains("this run speaks v0.8"), "{err}");
        let err = check(official, Version::V10, &attempt(good.clone())).unwrap_err();
        assert!(
            err.contains("version v0.9, but this run speaks v1.0"),
            "{err}"
        );
        let v10 = ui::restaurant_list(Version::V10, "T", &[]);
        assert!(check(official, Version::V10, &attempt(v10)).is_ok());
        let mut dangling = good.clone();
        dangling[1]["updateComponents"]["components"][0]["children"] =
            json!(["list-title", "ghost"]);
        let err = check(official, Version::V09, &attempt(dangling)).unwrap_err();
        assert!(err.contains("non-existent component 'ghost'"), "{err}");
        // Without its `createSurface` the validator takes the components for an update of a
        // surface opened earlier and lets them through; the answer is refused all the same.
        let unopened = good[1..].to_vec();
        assert!(official.check(Version::V09, &unopened).is_ok());
        let err = check(official, Version::V09, &attempt(unopened)).unwrap_err();
        assert_eq!(
            err,
            format!(
                "surface `{}` got components or data but was never opened (beginRendering / createSurface)",
                ui::LIST_SURFACE
            )
        );
        let malformed = Attempt {
            messages: vec![],
            problems: vec!["malformed".into()],
        };
        assert_eq!(
            check(official, Version::V09, &malformed).unwrap_err(),
            "malformed"
        );
    }

    #[test]
    fn a_message_value_goes_through_the_splitter() {
        let m = message_from_value(&ui::delete_surface(Version::V09, "s")).unwrap();
        assert_eq!(m.kind(), a2ui_stream::MessageKind::DeleteSurface);
        assert_eq!(m.surface_id(), Some("s"));
    }
}
