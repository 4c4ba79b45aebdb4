//! Splitter configuration: framing and limits.

/// How A2UI JSON is found in the stream.
///
/// ```
/// use a2ui_stream::{Config, Event, Framing, Splitter};
/// let json = br#"{"deleteSurface":{"surfaceId":"s"}}"#;
/// // Tagged (the default): JSON outside an `<a2ui-json>` block is prose.
/// let mut tagged = Splitter::new();
/// assert!(matches!(tagged.feed(json).next(), Some(Ok(Event::Text(_)))));
/// // Bare: the whole stream is A2UI JSON.
/// let mut bare = Splitter::with_config(Config { framing: Framing::Bare, ..Config::default() });
/// let Some(Ok(Event::Message(m))) = bare.feed(json).next() else { panic!() };
/// assert_eq!(m.surface_id(), Some("s"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Framing {
    /// Prose with `<a2ui-json>…</a2ui-json>` blocks, the legacy `---a2ui_JSON---` delimiter and
    /// markdown code fences inside or around a block. Everything outside a block is text.
    #[default]
    Tagged,
    /// The whole stream is A2UI JSON: the arguments of a tool call, a structured-output response.
    Bare,
}

/// Splitter settings. Every limit has a safe default; exceeding one is an error, never unbounded
/// memory.
///
/// ```
/// use a2ui_stream::{Config, Framing};
///
/// let config = Config { max_message_bytes: 1 << 20, ..Config::default() };
/// assert_eq!(config.framing, Framing::Tagged);
/// assert_eq!(Config::bare().framing, Framing::Bare);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Where the JSON is: tagged prose (default) or bare JSON.
    pub framing: Framing,
    /// Largest top-level message, in bytes (default 16 MiB). A larger one is reported and skipped.
    pub max_message_bytes: usize,
    /// Deepest nesting of objects and arrays inside a message (default 128).
    pub max_depth: usize,
    /// Most bytes held back while deciding whether prose is the start of a tag or fence
    /// (default 4 KiB). Past it the held bytes are released as text and an error is reported.
    pub max_held_bytes: usize,
    /// Drop a component re-sent on the same surface with the same id and identical bytes
    /// (default `true`).
    pub dedup_components: bool,
    /// Data-model updates go out member by member, down to this many segments of the data
    /// model's pointer (default 2: each record of a list under the root, such as `/items/0`,
    /// goes out as it closes). `0` keeps every update whole. See [`Splitter`](crate::Splitter).
    pub split_data_depth: usize,
    /// Most pieces one data-model update is split into (default 4096). Past it the rest is not
    /// split and the whole update follows the pieces.
    pub max_split_data_entries: usize,
    /// Read the slips models make that the official SDK 0.9.0 reads too: a comma before a
    /// closing bracket, raw control characters (a line break, a tab) inside strings, and curly
    /// double quotes for JSON quotes (default `false`: they are errors). The messages handed out
    /// are repaired to valid JSON with the same value: the comma left out, the character written
    /// as an escape, the quotes straightened (from the first curly quote that stands for a JSON
    /// quote, a block's `“`, `”` read as `"` and `‘`, `’` in its strings as `'`).
    ///
    /// ```
    /// use a2ui_stream::{Config, Event, Splitter};
    /// let mut splitter = Splitter::with_config(Config { lenient: true, ..Config::default() });
    /// let input = "<a2ui-json>{\"deleteSurface\":{\"surfaceId\":\"a\nb\",},}</a2ui-json>";
    /// let Some(Ok(Event::Message(m))) = splitter.feed(input.as_bytes()).next() else { panic!() };
    /// assert_eq!(m.as_str(), r#"{"deleteSurface":{"surfaceId":"a\u000ab"}}"#);
    /// assert_eq!(m.surface_id(), Some("a\nb"));
    /// ```
    pub lenient: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            framing: Framing::Tagged,
            max_message_bytes: 16 << 20,
            max_depth: 128,
            max_held_bytes: 4 << 10,
            dedup_components: true,
            split_data_depth: 2,
            max_split_data_entries: 4096,
            lenient: false,
        }
    }
}

impl Config {
    /// The default configuration with [`Framing::Bare`].
    ///
    /// ```
    /// use a2ui_stream::{Config, Event, MessageKind, Splitter};
    /// // Tool-call arguments: a bare JSON array of messages, cut mid-string.
    /// let mut splitter = Splitter::with_config(Config::bare());
    /// assert_eq!(splitter.feed(br#"[{"createSurface":{"surfaceId":"ma"#).len(), 0);
    /// let out: Vec<_> = splitter.feed(br#"in","catalogId":"c"}}]"#).collect();
    /// let Ok(Event::Message(m)) = &out[0] else { panic!() };
    /// assert_eq!(m.kind(), MessageKind::CreateSurface);
    /// assert_eq!(m.surface_id(), Some("main"));
    /// ```
    pub fn bare() -> Self {
        Config {
            framing: Framing::Bare,
            ..Config::default()
        }
    }
}
