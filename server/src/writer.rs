//! What an agent writes into a run.

use a2ui_stream::agui::events::{Event, RunAgentInput};
use a2ui_stream::agui::{ClientCatalogs, RunBuilder, RunBuilderError};
use a2ui_stream::{Config, Message, MessageKind, Splitter};
use serde_json::Value;
use tokio::sync::mpsc;

/// The writing end of one run. Each call turns into AG-UI events at once and hands them on
/// (the server records them in the run log, then sends them to the client), so a person sees
/// them while the agent goes on.
///
/// Model output that mixes prose with `<a2ui-json>` blocks goes through
/// [`model_text`](RunWriter::model_text): it is split as it streams, prose becomes text
/// messages, and each A2UI message (each component of a component list, each data entry) an
/// `a2ui-surface` activity event the moment its JSON closes. A v0.9/v1.0 `createSurface`
/// names its catalog the way the client asked ([`ClientCatalogs`]).
///
/// Outside a server, [`RunWriter::new`] gives a writer and the receiving end of its events:
///
/// ```
/// use a2ui_stream::agui::events::{Event, RunAgentInput};
/// use a2ui_stream_server::RunWriter;
///
/// let (mut out, mut events) = RunWriter::new(&RunAgentInput::new("t", "r"));
/// out.model_text("Here: <a2ui-json>{\"version\":\"v0.9\",\"createSurface\":{\"surfaceId\":\"s\",")?;
/// out.model_text("\"catalogId\":\"basic\"}}</a2ui-json>")?;
/// out.model_end()?;
/// let mut types = Vec::new();
/// while let Ok(batch) = events.try_recv() {
///     types.extend(batch.iter().map(|e| e.event_type().as_str()));
/// }
/// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
///                    "TEXT_MESSAGE_END", "ACTIVITY_SNAPSHOT"]);
/// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
/// ```
#[derive(Debug)]
pub struct RunWriter {
    run: RunBuilder,
    splitter: Splitter,
    /// What each answer's splitter is made with.
    config: Config,
    catalogs: ClientCatalogs,
    tx: mpsc::UnboundedSender<Vec<Event>>,
}

/// What one piece of model text completed: the A2UI messages (each component on its own), and
/// the splitter's errors for malformed A2UI (reported in the run as `CUSTOM` events; the
/// splitter resynchronises and the run goes on).
#[derive(Debug, Default)]
pub struct Split {
    /// Messages completed, in order.
    pub messages: Vec<Message>,
    /// Malformed A2UI found, with its byte offset and rule.
    pub errors: Vec<a2ui_stream::Error>,
}

impl RunWriter {
    /// A writer for the run `input` asks for, and the receiver of its events in batches (the
    /// first holds `RUN_STARTED`).
    pub fn new(input: &RunAgentInput) -> (RunWriter, mpsc::UnboundedReceiver<Vec<Event>>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let writer = RunWriter::with_builder(
            RunBuilder::from_input(input),
            ClientCatalogs::from_input(input),
            Config::default(),
            tx,
        );
        (writer, rx)
    }

    pub(crate) fn with_builder(
        run: RunBuilder,
        catalogs: ClientCatalogs,
        config: Config,
        tx: mpsc::UnboundedSender<Vec<Event>>,
    ) -> RunWriter {
        RunWriter {
            run,
            splitter: Splitter::with_config(config.clone()),
            config,
            catalogs,
            tx,
        }
    }

    /// Reads the model's answers with `config` from the next answer on (a server gives its
    /// writers [`Options::splitter`](crate::Options::splitter)); for example
    /// [`Config::lenient`] to read the slips models make.
    ///
    /// ```
    /// use a2ui_stream::Config;
    /// use a2ui_stream::agui::events::RunAgentInput;
    /// use a2ui_stream_server::RunWriter;
    ///
    /// let (mut out, _events) = RunWriter::new(&RunAgentInput::new("t", "r"));
    /// out.set_splitter_config(Config { lenient: true, ..Config::default() });
    /// let split = out.model_text("<a2ui-json>{\"deleteSurface\":{\"surfaceId\":\"s\",}}</a2ui-json>")?;
    /// assert!(split.errors.is_empty());
    /// assert_eq!(split.messages[0].as_str(), r#"{"deleteSurface":{"surfaceId":"s"}}"#);
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn set_splitter_config(&mut self, config: Config) {
        self.splitter = Splitter::with_config(config.clone());
        self.config = config;
    }

    /// The run's thread.
    pub fn thread_id(&self) -> &str {
        self.run.thread_id()
    }

    /// The run.
    pub fn run_id(&self) -> &str {
        self.run.run_id()
    }

    /// Prose: a delta of the current assistant text message (started if none is open).
    pub fn text(&mut self, delta: &str) -> Result<(), RunBuilderError> {
        let r = self.run.text(delta);
        self.flush();
        r
    }

    /// Ends the open text message, if any.
    pub fn text_end(&mut self) -> Result<(), RunBuilderError> {
        let r = self.run.text_end();
        self.flush();
        r
    }

    /// A piece of model output, prose and `<a2ui-json>` blocks mixed, cut anywhere.
    pub fn model_text(&mut self, chunk: &str) -> Result<Split, RunBuilderError> {
        let items: Vec<_> = self.splitter.feed(chunk.as_bytes()).collect();
        self.split(items)
    }

    /// The model's answer ended: what the splitter still held (an unclosed block is an error),
    /// and the open text message is ended. The next [`model_text`](RunWriter::model_text)
    /// starts a new answer.
    pub fn model_end(&mut self) -> Result<Split, RunBuilderError> {
        let items: Vec<_> = self.splitter.finish().collect();
        self.splitter = Splitter::with_config(self.config.clone());
        let split = self.split(items)?;
        self.text_end()?;
        Ok(split)
    }

    fn split(
        &mut self,
        items: Vec<Result<a2ui_stream::Event, a2ui_stream::Error>>,
    ) -> Result<Split, RunBuilderError> {
        let mut split = Split::default();
        let mut result = Ok(());
        for item in items {
            let r = match item {
                Ok(a2ui_stream::Event::Message(m)) => {
                    let r = self.message(&m);
                    split.messages.push(m);
                    r
                }
                Err(e) => {
                    let r = self.run.splitter(Err(e.clone()));
                    split.errors.push(e);
                    r
                }
                Ok(text) => self.run.a2ui(text),
            };
            if result.is_ok() {
                result = r;
            }
        }
        self.flush();
        result.map(|()| split)
    }

    fn message(&mut self, m: &Message) -> Result<(), RunBuilderError> {
        if m.kind() == MessageKind::CreateSurface && !self.catalogs.ids().is_empty() {
            if let Ok(mut v) = m.to_value() {
                self.catalogs.rename(&mut v);
                return self.run.a2ui_value(m.surface_id(), v);
            }
        }
        self.run.a2ui(a2ui_stream::Event::Message(m.clone()))
    }

    /// One A2UI message given as JSON (a `createSurface` gets the client's catalog name).
    ///
    /// ```
    /// use a2ui_stream::agui::events::RunAgentInput;
    /// use a2ui_stream_server::RunWriter;
    /// use serde_json::json;
    ///
    /// let (mut out, mut events) = RunWriter::new(&RunAgentInput::new("t", "r"));
    /// out.a2ui(json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}}))?;
    /// let batch = events.try_recv().unwrap();
    /// assert_eq!(batch.last().unwrap().event_type().as_str(), "ACTIVITY_SNAPSHOT");
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn a2ui(&mut self, mut message: Value) -> Result<(), RunBuilderError> {
        self.catalogs.rename(&mut message);
        let surface = message.as_object().and_then(|o| {
            o.values()
                .find_map(|v| v.get("surfaceId").and_then(Value::as_str))
                .map(str::to_owned)
        });
        let r = self.run.a2ui_value(surface.as_deref(), message);
        self.flush();
        r
    }

    /// A tool call starts.
    pub fn tool_call_start(&mut self, id: &str, name: &str) -> Result<(), RunBuilderError> {
        let r = self.run.tool_call_start(id, name);
        self.flush();
        r
    }

    /// A piece of the tool call's JSON arguments.
    pub fn tool_call_args(&mut self, id: &str, delta: &str) -> Result<(), RunBuilderError> {
        let r = self.run.tool_call_args(id, delta);
        self.flush();
        r
    }

    /// The tool call's arguments are complete.
    pub fn tool_call_end(&mut self, id: &str) -> Result<(), RunBuilderError> {
        let r = self.run.tool_call_end(id);
        self.flush();
        r
    }

    /// The tool's result.
    pub fn tool_call_result(&mut self, id: &str, content: &str) -> Result<(), RunBuilderError> {
        let r = self.run.tool_call_result(id, content);
        self.flush();
        r
    }

    /// The agent's whole state.
    pub fn state_snapshot(&mut self, state: Value) -> Result<(), RunBuilderError> {
        let r = self.run.state_snapshot(state);
        self.flush();
        r
    }

    /// An application event (`CUSTOM`).
    pub fn custom(&mut self, name: &str, value: Value) -> Result<(), RunBuilderError> {
        let r = self.run.custom(name, value);
        self.flush();
        r
    }

    /// Anything else the [`RunBuilder`] writes (steps, reasoning, state deltas, …); what `f`
    /// writes goes out when it returns.
    ///
    /// ```
    /// use a2ui_stream::agui::events::RunAgentInput;
    /// use a2ui_stream_server::RunWriter;
    ///
    /// let (mut out, mut events) = RunWriter::new(&RunAgentInput::new("t", "r"));
    /// out.with(|run| run.step_started("search"))?;
    /// let batch = events.try_recv().unwrap();
    /// assert_eq!(batch.last().unwrap().event_type().as_str(), "STEP_STARTED");
    /// # Ok::<(), a2ui_stream::agui::RunBuilderError>(())
    /// ```
    pub fn with<R>(&mut self, f: impl FnOnce(&mut RunBuilder) -> R) -> R {
        let r = f(&mut self.run);
        self.flush();
        r
    }

    /// Ends the run: `RUN_FINISHED`, or `RUN_ERROR` with `(message, code)`.
    pub(crate) fn end(mut self, failure: Option<(String, String)>) {
        let _ = match failure {
            None => self.run.finish(),
            Some((message, code)) => self.run.fail(message, Some(code)),
        };
        self.flush();
    }

    fn flush(&mut self) {
        let batch: Vec<Event> = self.run.drain().collect();
        if !batch.is_empty() {
            // The receiver is gone only when the run is over for the server; nothing to do.
            let _ = self.tx.send(batch);
        }
    }
}
