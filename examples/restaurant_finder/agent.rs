//! The restaurant finder agent: a streaming chat completion (async-openai) written into the run
//! delta by delta, so the splitter hands each component to the client the moment it closes.
//!
//! Nothing here collects an answer before passing it on: each content delta goes straight into
//! [`RunWriter::model_text`], tool-call deltas go out as they arrive. After an answer, its UI is
//! checked with the official validator; a rejected UI is taken off the screen and the model is
//! asked once more with the reason.
//!
//! With [`Format::Express`] the model writes A2UI Express instead of JSON: it is prompted with
//! the Express system prompt, and each delta goes through an
//! [`ExpressParser`](a2ui_stream::express::ExpressParser), whose prose goes into the run as text
//! and whose messages (one per statement, the moment it ends) as A2UI messages.

use crate::official::Official;
use crate::ui::{self, VERSIONS};
use crate::{express, prompt, tools};
use a2ui_stream::Version;
use a2ui_stream::agui::A2UI_ERROR_EVENT;
use a2ui_stream::agui::RunBuilderError;
use a2ui_stream::agui::events::{ChatMessage, RunAgentInput, UserContent};
use a2ui_stream::express::{ExpressError, ExpressParser};
use a2ui_stream::official::direct::Part;
use a2ui_stream::renderer::RendererState;
use a2ui_stream_server::{
    Agent, AgentError, Arrival, Deadline, Deadlines, Retries, Run, RunWriter,
};
use async_openai::Client;
use async_openai::config::OpenAIConfig;
use async_openai::error::OpenAIError;
use async_openai::types::chat::CreateChatCompletionStreamResponse;
use serde_json::{Value, json};

/// Most model calls one attempt makes (each tool round is one more call).
const MAX_ROUNDS: usize = 4;

/// The `CUSTOM` event sent when the UI was rejected and the model is asked again.
pub const RETRY_EVENT: &str = "a2ui-retry";

/// What the model writes its UI in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A2UI messages as JSON, in `<a2ui-json>` blocks.
    Json,
    /// A2UI Express, in `<a2ui>` blocks (A2UI v0.9 and v1.0).
    Express,
}

/// Where the model is and which one to call.
#[derive(Debug, Clone)]
pub struct ModelConfig {
    /// Base URL of an OpenAI-compatible API, ending in `/v1`.
    pub api_base: String,
    /// API key (`OPENAI_API_KEY`); any string for servers that do not check it.
    pub api_key: String,
    /// Model name (`A2UI_MODEL`, default `gpt-4.1-mini`).
    pub model: String,
}

impl ModelConfig {
    /// The real model from `OPENAI_API_KEY`, `OPENAI_BASE_URL` and `A2UI_MODEL`, or `None` when
    /// neither a key nor a base URL is set (or `A2UI_MODEL=scripted`).
    pub fn from_env() -> Option<ModelConfig> {
        let var = |n: &str| std::env::var(n).ok().filter(|s| !s.is_empty());
        let (key, base, model) = (
            var("OPENAI_API_KEY"),
            var("OPENAI_BASE_URL"),
            var("A2UI_MODEL"),
        );
        if model.as_deref() == Some("scripted") || (key.is_none() && base.is_none()) {
            return None;
        }
        Some(ModelConfig {
            api_base: base.unwrap_or_else(|| "https://api.openai.com/v1".into()),
            api_key: key.unwrap_or_else(|| "none".into()),
            model: model.unwrap_or_else(|| "gpt-4.1-mini".into()),
        })
    }
}

/// The agent: a chat-completions client, a model, the validators its answers are checked with.
#[derive(Clone)]
pub struct RestaurantAgent {
    client: Client<OpenAIConfig>,
    api_base: String,
    model: String,
    official: &'static Official,
    retries: Retries,
    version: Version,
    format: Format,
}

impl RestaurantAgent {
    /// An agent on the model `config` describes, speaking A2UI `version` unless a run asks for
    /// another, its model writing UIs in `format`; connections time out after the connect
    /// deadline, and requests are not retried underneath (the agent retries them itself,
    /// visibly).
    pub fn new(
        config: &ModelConfig,
        deadlines: &Deadlines,
        retries: Retries,
        version: Version,
        format: Format,
    ) -> RestaurantAgent {
        // The TLS backend needs a process-wide crypto provider; another one installed is as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let openai = OpenAIConfig::new()
            .with_api_base(config.api_base.clone())
            .with_api_key(config.api_key.clone());
        let http = reqwest::Client::builder()
            .connect_timeout(deadlines.connect)
            .pool_max_idle_per_host(16)
            .build()
            .unwrap_or_default();
        RestaurantAgent {
            client: Client::with_config(openai)
                .with_http_client(http.clone())
                .with_http_service(async_openai::middleware::ReqwestService::new(http)),
            api_base: config.api_base.clone(),
            model: config.model.clone(),
            official: Official::builtin(),
            retries,
            version,
            format,
        }
    }

    /// Which check answers get, for log lines.
    pub fn ui_checks(&self) -> String {
        self.official.describe_all()
    }
}

impl Agent for RestaurantAgent {
    async fn run(&self, run: Run, out: &mut RunWriter) -> Result<(), AgentError> {
        let (version, history) = request(run.input, self.version)?;
        let system = match self.format {
            Format::Json => prompt::system_prompt(version),
            Format::Express => prompt::express_system_prompt(version)
                .map_err(|e| format!("this agent answers in A2UI Express: {e}"))?
                .to_owned(),
        };
        let mut conversation = vec![json!({ "role": "system", "content": system })];
        conversation.extend(history);
        let first = self
            .attempt(version, &mut conversation, &run.deadlines, out)
            .await?;
        let Err(reason) = check(self.official, version, &first) else {
            return Ok(());
        };
        // Take the rejected UI off the screen, then ask once more with the reason.
        out.custom(RETRY_EVENT, json!({ "reason": reason }))?;
        for sid in opened_surfaces(&first.messages) {
            out.a2ui(ui::delete_surface(version, &sid))?;
        }
        let again = match self.format {
            Format::Json => prompt::retry_message(&reason),
            Format::Express => prompt::express_retry_message(&reason),
        };
        conversation.push(json!({ "role": "user", "content": again }));
        let second = self
            .attempt(version, &mut conversation, &run.deadlines, out)
            .await?;
        check(self.official, version, &second)
            .map_err(|r| format!("the model's UI was invalid twice; last problem: {r}").into())
    }
}

/// What the client asked for: the version (`forwardedProps.a2uiVersion`, else `default`), and
/// the conversation for the model: user and assistant text, then the UI action
/// (`forwardedProps.a2uiAction.userAction`) if there is one.
pub fn request(input: RunAgentInput, default: Version) -> Result<(Version, Vec<Value>), String> {
    let props = input.forwarded_props.unwrap_or(Value::Null);
    let version = match props.get("a2uiVersion").and_then(Value::as_str) {
        Some(v) => Version::parse(v)
            .filter(|v| VERSIONS.contains(v))
            .ok_or_else(|| format!("unknown A2UI version `{v}` in forwardedProps.a2uiVersion"))?,
        None => default,
    };
    let mut history = Vec::new();
    // The conversation is moved, not copied: a user message may be megabytes.
    for m in input.messages {
        let (role, text) = match m {
            ChatMessage::User(u) => match u.content {
                UserContent::Text(t) => ("user", Some(t)),
                parts => ("user", parts.text()),
            },
            ChatMessage::Assistant(a) => ("assistant", a.content),
            _ => continue,
        };
        if let Some(text) = text.filter(|t| !t.trim().is_empty()) {
            history.push(json!({ "role": role, "content": text }));
        }
    }
    if let Some(action) = props.get("a2uiAction").and_then(|a| a.get("userAction")) {
        let name = action
            .get("name")
            .and_then(Value::as_str)
            .ok_or("forwardedProps.a2uiAction.userAction has no name")?;
        let context = action.get("context").cloned().unwrap_or_else(|| json!({}));
        history.push(json!({ "role": "user", "content": prompt::action_message(name, &context) }));
    }
    if history.last().and_then(|m| m.get("role")) != Some(&json!("user")) {
        return Err("the run has no user message or UI action to answer".into());
    }
    Ok((version, history))
}

/// A tool call being assembled from its deltas.
#[derive(Default)]
struct PendingCall {
    id: String,
    name: String,
    arguments: String,
    started: bool,
}

/// What one attempt produced: the A2UI messages, and problems the splitter reported.
pub struct Attempt {
    pub messages: Vec<Value>,
    pub problems: Vec<String>,
}

/// A chat-completions request, serialised straight from the conversation: the HTTP body is the
/// only copy of it.
#[derive(serde::Serialize)]
struct Request<'a> {
    model: &'a str,
    messages: &'a [Value],
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    tools: Option<&'a Value>,
}

/// The streamed answer.
type ChatStream = std::pin::Pin<
    Box<dyn futures::Stream<Item = Result<CreateChatCompletionStreamResponse, OpenAIError>> + Send>,
>;

/// Why opening a model request failed.
enum Open {
    Failed(OpenAIError),
    NoAnswer,
}

impl RestaurantAgent {
    /// Model calls until the model stops calling tools (or [`MAX_ROUNDS`]).
    async fn attempt(
        &self,
        version: Version,
        conversation: &mut Vec<Value>,
        deadlines: &Deadlines,
        out: &mut RunWriter,
    ) -> Result<Attempt, AgentError> {
        let mut attempt = Attempt {
            messages: Vec::new(),
            problems: Vec::new(),
        };
        for round in 0..MAX_ROUNDS {
            let tools = (round + 1 < MAX_ROUNDS).then(
                || json!([{ "type": "function", "function": tools::get_restaurants_definition() }]),
            );
            let request = Request {
                model: &self.model,
                messages: conversation,
                stream: true,
                tools: tools.as_ref(),
            };
            let (mut stream, mut arrival) = self.open(&request, deadlines, out).await?;
            let mut reader = Reader::new(self.format, version)?;
            let mut content = String::new();
            let mut calls: Vec<PendingCall> = Vec::new();
            let mut finished = false;
            while let Some(chunk) = arrival.next(&mut stream).await.map_err(|e| e.to_string())? {
                let chunk = chunk.map_err(|e| stream_error(e, &arrival))?;
                let mut bytes = 0;
                for choice in chunk.choices.into_iter().filter(|c| c.index == 0) {
                    finished |= choice.finish_reason.is_some();
                    if let Some(delta) = choice.delta.content.filter(|d| !d.is_empty()) {
                        bytes += delta.len();
                        content.push_str(&delta);
                        reader.feed(&delta, out, &mut attempt)?;
                    }
                    for tc in choice.delta.tool_calls.unwrap_or_default() {
                        let idx = tc.index as usize;
                        if calls.len() <= idx {
                            calls.resize_with(idx + 1, PendingCall::default);
                        }
                        let Some(call) = calls.get_mut(idx) else {
                            continue;
                        };
                        if let Some(id) = tc.id.filter(|s| !s.is_empty()) {
                            call.id = id;
                        }
                        let (name, args) =
                            tc.function.map_or((None, None), |f| (f.name, f.arguments));
                        call.name.push_str(&name.unwrap_or_default());
                        let args = args.unwrap_or_default();
                        bytes += args.len();
                        call.arguments.push_str(&args);
                        if !call.started && !call.name.is_empty() {
                            if call.id.is_empty() {
                                call.id = format!("call_{round}_{idx}");
                            }
                            call.started = true;
                            out.tool_call_start(&call.id, &call.name)?;
                            if !call.arguments.is_empty() {
                                out.tool_call_args(&call.id, &call.arguments)?;
                            }
                        } else if call.started && !args.is_empty() {
                            out.tool_call_args(&call.id, &args)?;
                        }
                    }
                }
                arrival.add_chunk(bytes);
            }
            if !finished {
                return Err(format!(
                    "the model's answer stopped without an end after {}",
                    arrival.describe()
                )
                .into());
            }
            reader.end(out, &mut attempt)?;
            let calls: Vec<PendingCall> = calls.into_iter().filter(|c| c.started).collect();
            if calls.is_empty() {
                conversation.push(json!({ "role": "assistant", "content": content }));
                return Ok(attempt);
            }
            let tool_calls: Vec<Value> = calls
                .iter()
                .map(|c| json!({ "id": c.id, "type": "function", "function": { "name": c.name, "arguments": c.arguments } }))
                .collect();
            let content = (!content.is_empty()).then_some(content);
            conversation
                .push(json!({ "role": "assistant", "content": content, "tool_calls": tool_calls }));
            for c in &calls {
                out.tool_call_end(&c.id)?;
                let result = tools::call_tool(&c.name, &c.arguments)
                    .unwrap_or_else(|e| json!({ "error": e }).to_string());
                out.tool_call_result(&c.id, &result)?;
                conversation
                    .push(json!({ "role": "tool", "tool_call_id": c.id, "content": result }));
            }
        }
        Err(format!("the model kept calling tools for {MAX_ROUNDS} rounds").into())
    }

    /// Sends one streaming request within the first-token deadline, retrying what another try
    /// may mend (5xx, a rate limit, a refused connection) as `retries` says.
    async fn open(
        &self,
        request: &Request<'_>,
        deadlines: &Deadlines,
        out: &mut RunWriter,
    ) -> Result<(ChatStream, Arrival), AgentError> {
        let opened = self
            .retries
            .run(
                out,
                || async move {
                    let arrival = Arrival::new(deadlines);
                    let chat = self.client.chat();
                    let open = chat.create_stream_byot(request);
                    match tokio::time::timeout(deadlines.first_token, open).await {
                        Ok(Ok(stream)) => Ok((stream, arrival)),
                        Ok(Err(e)) => Err(Open::Failed(e)),
                        Err(_) => Err(Open::NoAnswer),
                    }
                },
                |e| match e {
                    Open::Failed(e) if retryable(e) => Some(self.describe(e, deadlines)),
                    _ => None,
                },
            )
            .await;
        opened.map_err(|gave_up| {
            let reason = match &gave_up.error {
                Open::NoAnswer => format!(
                    "the model at {} did not answer within the {}",
                    self.api_base,
                    deadlines.describe(Deadline::FirstToken)
                ),
                Open::Failed(e) => self.describe(e, deadlines),
            };
            match gave_up.retries {
                0 => reason.into(),
                n => format!("{reason} (after {n} retries)").into(),
            }
        })
    }

    fn describe(&self, e: &OpenAIError, deadlines: &Deadlines) -> String {
        match e {
            OpenAIError::Reqwest(r) if r.is_connect() && r.is_timeout() => format!(
                "could not connect to the model at {} within the {}",
                self.api_base,
                deadlines.describe(Deadline::Connect)
            ),
            OpenAIError::Reqwest(r) if r.is_connect() => {
                format!("could not connect to the model at {}: {e}", self.api_base)
            }
            _ => format!("the model request failed: {e}"),
        }
    }
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

/// What went wrong inside an answer: a chunk that is not a chat-completion chunk is named with
/// the bytes around the fault; anything else is a cut connection.
fn stream_error(e: OpenAIError, arrival: &Arrival) -> AgentError {
    match e {
        OpenAIError::JSONDeserialize(err, content) => {
            let at = content
                .lines()
                .take(err.line().saturating_sub(1))
                .map(|l| l.len() + 1)
                .sum::<usize>()
                + err.column().saturating_sub(1);
            let around: String = content
                .char_indices()
                .filter(|(i, _)| i + 40 >= at && *i < at + 40)
                .map(|(_, c)| c)
                .collect();
            format!(
                "the model's answer is not a chat-completion chunk after {} ({err}), around byte {at} of the chunk: `{around}`",
                arrival.describe()
            )
            .into()
        }
        e if arrival.chunks() == 0 => {
            format!("the model's answer failed before it began: {e}").into()
        }
        e => format!(
            "the connection to the model was cut after {} ({e})",
            arrival.describe()
        )
        .into(),
    }
}

/// How the model's answer is read.
enum Reader {
    /// Prose with `<a2ui-json>` blocks, by the run's splitter ([`RunWriter::model_text`]).
    Json,
    /// Prose with `<a2ui>` blocks of A2UI Express.
    Express(Box<ExpressParser<'static>>),
}

impl Reader {
    /// A reader of one answer of `version` written in `format`.
    fn new(format: Format, version: Version) -> Result<Reader, String> {
        match format {
            Format::Json => Ok(Reader::Json),
            Format::Express => express::parser(version).map(|p| Reader::Express(Box::new(p))),
        }
    }

    /// A delta of the answer's text into the run.
    fn feed(
        &mut self,
        delta: &str,
        out: &mut RunWriter,
        attempt: &mut Attempt,
    ) -> Result<(), RunBuilderError> {
        match self {
            Reader::Json => {
                let split = out.model_text(delta)?;
                attempt.take(split);
                Ok(())
            }
            Reader::Express(parser) => attempt.express(parser.feed(delta), out),
        }
    }

    /// The answer ended: what the reader still held, and the open text message is ended.
    fn end(&mut self, out: &mut RunWriter, attempt: &mut Attempt) -> Result<(), RunBuilderError> {
        match self {
            Reader::Json => {
                let split = out.model_end()?;
                attempt.take(split);
                Ok(())
            }
            Reader::Express(parser) => {
                attempt.express(parser.finish(), out)?;
                out.text_end()
            }
        }
    }
}

impl Attempt {
    /// What an Express parser made of a piece of the answer, written into the run: prose as
    /// text, each message as an A2UI message, and each error as the splitter's are (a `CUSTOM`
    /// event; the parser goes on with the next statement).
    fn express(
        &mut self,
        parts: Vec<Result<Part, ExpressError>>,
        out: &mut RunWriter,
    ) -> Result<(), RunBuilderError> {
        for part in parts {
            match part {
                Ok(Part::Text(text)) => out.text(&text)?,
                Ok(Part::A2ui(messages)) => {
                    for m in messages {
                        self.messages.push(m.clone());
                        out.a2ui(m)?;
                    }
                }
                Err(e) => {
                    self.problems.push(format!("malformed A2UI Express {e}"));
                    let report = json!({ "offset": e.offset(), "message": e.message() });
                    out.custom(A2UI_ERROR_EVENT, report)?;
                }
            }
        }
        Ok(())
    }

    fn take(&mut self, split: a2ui_stream_server::Split) {
        for m in split.messages {
            match m.to_value() {
                Ok(v) => self.messages.push(v),
                Err(e) => self
                    .problems
                    .push(format!("an A2UI message is not valid JSON: {e}")),
            }
        }
        self.problems
            .extend(split.errors.iter().map(|e| format!("malformed A2UI {e}")));
    }
}

/// Surfaces an attempt drew on, in order.
fn opened_surfaces(messages: &[Value]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in messages {
        let sid = m
            .as_object()
            .and_then(|o| o.values().find_map(|b| b.get("surfaceId")?.as_str()));
        if let Some(sid) = sid.filter(|s| !out.iter().any(|o| o == s)) {
            out.push(sid.to_owned());
        }
    }
    out
}

/// Validates what one attempt streamed: it must parse, be of the run's version, pass the
/// official validator, and apply to a renderer (which refuses components or data for a
/// surface never opened; the validator cannot see that).
pub fn check(official: &Official, version: Version, attempt: &Attempt) -> Result<(), String> {
    let mut problems = attempt.problems.clone();
    for m in &attempt.messages {
        let tag = m.get("version").and_then(Value::as_str);
        if tag != (version != Version::V08).then_some(version.message_tag()) {
            problems.push(format!(
                "message has version {}, but this run speaks {}",
                tag.unwrap_or("v0.8 (none given)"),
                version.message_tag()
            ));
        }
    }
    problems.extend(official.check(version, &attempt.messages).err());
    if problems.is_empty() {
        let mut renderer = RendererState::new();
        for m in &attempt.messages {
            if let Err(e) = renderer.apply(m) {
                problems.push(format!("a renderer refuses the UI: {e}"));
                break;
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}
