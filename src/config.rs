//! Splitter configuration: framing and limits.

/// How A2UI JSON is found in the stream.
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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            framing: Framing::Tagged,
            max_message_bytes: 16 << 20,
            max_depth: 128,
            max_held_bytes: 4 << 10,
            dedup_components: true,
        }
    }
}

impl Config {
    /// The default configuration with [`Framing::Bare`].
    pub fn bare() -> Self {
        Config {
            framing: Framing::Bare,
            ..Config::default()
        }
    }
}
