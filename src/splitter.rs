//! The splitter (placeholder while the state machine is written).
use crate::{Config, Error, Event};
use bytes::Bytes;
use std::collections::VecDeque;

/// Incremental splitter.
#[derive(Debug, Default)]
pub struct Splitter {
    #[allow(dead_code)]
    config: Config,
    out: VecDeque<Result<Event, Error>>,
}

/// Iterator over what one call completed.
pub type Events<'a> = std::collections::vec_deque::Drain<'a, Result<Event, Error>>;

impl Splitter {
    /// New splitter with the default config.
    pub fn new() -> Self {
        Self::default()
    }
    /// New splitter with `config`.
    pub fn with_config(config: Config) -> Self {
        Splitter { config, out: VecDeque::new() }
    }
    /// Feed a chunk.
    pub fn feed(&mut self, chunk: &[u8]) -> Events<'_> {
        self.feed_bytes(Bytes::copy_from_slice(chunk))
    }
    /// Feed a chunk without copying.
    pub fn feed_bytes(&mut self, chunk: Bytes) -> Events<'_> {
        self.out.push_back(Ok(Event::Text(chunk)));
        self.out.drain(..)
    }
    /// End of stream.
    pub fn finish(&mut self) -> Events<'_> {
        self.out.drain(..)
    }
}
