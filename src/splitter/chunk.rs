//! The chunk being read, and where an open message's bytes are: kept from earlier chunks or in
//! this one.

use super::*;

/// The stream bytes in `range` of a message that began at stream offset `start`, as the part kept
/// in `acc` (the message's bytes from earlier chunks) and the part in `chunk` (whose first byte is
/// at stream offset `base`).
pub(super) fn message_parts<'a>(
    acc: &'a [u8],
    chunk: &'a [u8],
    start: u64,
    base: u64,
    range: std::ops::Range<u64>,
) -> (&'a [u8], &'a [u8]) {
    let in_acc = |x: u64| (x.min(base).max(start) - start) as usize;
    let in_chunk = |x: u64| (x.max(base) - base) as usize;
    let earlier = acc
        .get(in_acc(range.start)..in_acc(range.end))
        .unwrap_or_default();
    let here = chunk
        .get(in_chunk(range.start)..in_chunk(range.end))
        .unwrap_or_default();
    (earlier, here)
}

/// The open message's bytes, for the data-model split.
pub(super) struct Parts<'a> {
    pub(super) acc: &'a [u8],
    pub(super) chunk: &'a [u8],
    pub(super) start: u64,
    pub(super) base: u64,
}

impl data::Source for Parts<'_> {
    fn parts(&self, from: u64, to: u64) -> (&[u8], &[u8]) {
        message_parts(self.acc, self.chunk, self.start, self.base, from..to)
    }
}

/// Length of an incomplete UTF-8 character at the end of `s` (0 if none).
pub(super) fn cut_char_len(s: &[u8]) -> usize {
    for (k, &b) in s.iter().rev().take(3).enumerate() {
        let back = k + 1;
        if b & 0xC0 == 0xC0 {
            let width = match b {
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
            return if width > back { back } else { 0 };
        }
        if b & 0x80 == 0 {
            return 0;
        }
    }
    0
}

/// A chunk being processed: its bytes, and the shared buffer they live in when the caller gave
/// one (then pieces of it are handed out without copying).
pub(super) struct Chunk<'a> {
    pub(super) data: &'a [u8],
    pub(super) shared: Option<&'a Bytes>,
}

impl Chunk<'_> {
    /// The bytes in `range` as [`Bytes`]: a slice of the shared buffer, or a copy.
    /// Empty for a range outside the chunk.
    pub(super) fn bytes(&self, range: std::ops::Range<usize>) -> Bytes {
        let Some(data) = self.data.get(range.clone()) else {
            return Bytes::new();
        };
        match self.shared {
            Some(b) if b.len() == self.data.len() => b.slice(range),
            _ => Bytes::copy_from_slice(data),
        }
    }

    /// The bytes from `start` to the end (empty past the end).
    pub(super) fn rest_from(&self, start: usize) -> &[u8] {
        self.data.get(start..).unwrap_or_default()
    }

    /// The `len` bytes from `start` (empty when they are not all in the chunk).
    pub(super) fn span(&self, start: usize, len: usize) -> &[u8] {
        start
            .checked_add(len)
            .and_then(|end| self.data.get(start..end))
            .unwrap_or_default()
    }
}

impl std::ops::Deref for Chunk<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.data
    }
}
