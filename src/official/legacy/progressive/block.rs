//! The JSON of an `<a2ui-json>` block: its text runs through the partial JSON builder, each
//! value that closes is taken (a whole message, or a component), what is half-written is
//! looked at once per piece of text, and the surfaces that changed are flushed; the block's
//! [`Limits`](super::Limits) are kept here.

use super::new_error;
use serde_json::Value;

use super::components::stored_already;
use super::flush::Flush;
use super::form::{Form, Out};
use super::message::Current;
use super::writing::is_component_frame;
use super::{Error, ErrorKind, ProgressiveParser};
use crate::official::legacy::partial_json::{Frame, Step};

/// Where the response stands: in prose, or in a block being read or read past.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Phase {
    /// Prose, outside blocks.
    #[default]
    Prose,
    /// Inside a block, its JSON read.
    Reading,
    /// Inside a block that passed a limit: the rest of it is read past.
    Abandoned,
}

/// The `<a2ui-json>` block being read.
#[derive(Debug, Default)]
pub(super) struct Block {
    pub(super) phase: Phase,
    /// Bytes of the current block taken so far (see [`Limits::max_block_bytes`](super::Limits)).
    pub(super) bytes: usize,
    /// A JSON object was found in it.
    pub(super) found_object: bool,
}

impl Block {
    /// Inside a block, read or read past (else in prose).
    pub(super) fn inside(&self) -> bool {
        self.phase != Phase::Prose
    }
}

impl<F> ProgressiveParser<F> {
    /// Forgets the half-written JSON of a block that passed a limit (the rest of the block is
    /// read past until it ends) and returns the error that says so.
    #[cold]
    #[inline(never)]
    fn abandon_block(&mut self, message: String) -> Error {
        self.writing.valid = false;
        self.block.phase = Phase::Abandoned;
        self.json.reset();
        self.current = Current::default();
        new_error(ErrorKind::Limit, message)
    }

    /// Ends the block at its closing tag, which is at byte `at` of the response; the error
    /// when no JSON object was found in it.
    pub(super) fn close_block(&mut self, at: u64) -> Option<Error> {
        let empty = !self.block.found_object
            && !self.json.closed_object
            && self.block.phase != Phase::Abandoned;
        self.end_block();
        empty.then(|| {
            new_error(
                ErrorKind::Json,
                "Failed to parse JSON: No valid JSON object found in A2UI block.",
            )
            .at(at)
        })
    }

    fn end_block(&mut self) {
        self.writing.valid = false;
        self.block = Block::default();
        self.json.reset();
        self.current = Current::default();
    }

    /// Runs a piece of block text, which starts at byte `at` of the response, through the JSON
    /// builder, then looks at what is half-written. An error comes with the number of bytes of
    /// `text` taken before it was found (the rest is for the next call).
    pub(super) fn json_text<M: Form>(
        &mut self,
        text: &str,
        at: u64,
        out: &mut Out<M>,
    ) -> Result<(), (Error, usize)> {
        if self.block.phase == Phase::Abandoned {
            return Ok(());
        }
        if self.block.bytes.saturating_add(text.len()) > self.limits.max_block_bytes {
            let e = self.abandon_block(format!(
                "A2UI block longer than {} bytes (the parser's max_block_bytes)",
                self.limits.max_block_bytes
            ));
            let past = self.limits.max_block_bytes.saturating_sub(self.block.bytes);
            return Err((e.at(at + past as u64 + 1), 0));
        }
        self.block.bytes += text.len();
        let mut rest = text;
        // Where an error was found, and how much of `text` was taken by then.
        let found = |rest: &str, e: Error| {
            let used = text.len() - rest.len();
            (e.at(at + used as u64), used)
        };
        // The plain characters of a string go in at once (nothing in them ends a value).
        while let Some(c) = self.json.next_char(&mut rest) {
            if !self.json.in_list() {
                if c == '[' {
                    self.json.open_list();
                }
                continue;
            }
            let (surfaces, surface) = (&self.surfaces, self.current.surface.as_deref());
            let wanted = |stack: &[Box<Frame>]| {
                stack.last().is_some_and(|f| f.anonymous)
                    || (is_component_frame(stack) && !stored_already(surfaces, surface, stack))
            };
            if matches!(c, '{' | '[') {
                // The bracket is the last byte taken off `rest`.
                self.json.pos = at + (text.len() - rest.len()) as u64 - 1;
            }
            let step = self.json.feed(c, wanted);
            // Only an opening bracket deepens the stack, whose first frame is the top-level list.
            if matches!(c, '{' | '[') && self.json.depth() > self.limits.max_depth.saturating_add(1)
            {
                let e = self.abandon_block(format!(
                    "A2UI block nested deeper than {} levels (the parser's max_depth)",
                    self.limits.max_depth
                ));
                return Err(found(rest, e));
            }
            match step {
                Step::Nothing => {
                    if self.current.surface.is_none() && (c == '"' || c.is_ascii_digit()) {
                        self.notice_surface_id();
                    }
                }
                Step::ListClosed | Step::Closed { value: None, .. } => {}
                Step::Closed {
                    depth,
                    value: Some(value),
                    at: opened,
                } => {
                    self.take_closed(depth, value, opened, out)
                        .map_err(|e| found(rest, e))?;
                }
            }
        }
        if self.json.in_list() && self.json.dirty {
            self.json.dirty = false;
            self.sniff_component();
            self.sniff_data_model(out);
        }
        self.flush_queued(out).map_err(|e| found("", e))
    }

    /// Takes a value that closed at `depth` (1: a message), which began at byte `at`.
    fn take_closed<M: Form>(
        &mut self,
        depth: usize,
        value: Value,
        at: u64,
        out: &mut Out<M>,
    ) -> Result<(), Error> {
        self.block.found_object |= value.is_object();
        if depth == 1 {
            let done = self.complete_message(value, at, out);
            // A message gives one error at most: the first fault found in it.
            let failed = std::mem::take(&mut self.current).failed;
            if !failed {
                done?;
            }
        } else if value.get("id").is_none() && self.version.kind_of(&value).is_some() {
            // A message written where it does not belong is still taken.
            self.complete_message(value, at, out)?;
        } else {
            self.take_component(value, Vec::new(), at);
        }
        Ok(())
    }

    /// Flushes the surfaces queued while the text was taken.
    fn flush_queued<M: Form>(&mut self, out: &mut Out<M>) -> Result<(), Error> {
        if self.queued.is_empty() {
            return Ok(());
        }
        let mut queued = std::mem::take(&mut self.queued);
        queued.sort();
        queued.dedup();
        for (i, sid) in queued.iter().enumerate() {
            if let Err(e) = self.flush_surface(sid, Flush::Queued, &[], out) {
                let writing = self.json.stack.len() > 1;
                if writing && self.current.failed {
                    // A message gives one error at most: a later fault in it is mended without
                    // one (its surface, queued again, is shown by the next call).
                    continue;
                }
                // The surfaces not flushed yet are flushed by the next call.
                self.queued.extend(queued.drain(i + 1..));
                // The fault is in the message being written, if any.
                self.current.failed = writing;
                return Err(e);
            }
        }
        // The list keeps its room for the next call.
        if self.queued.is_empty() {
            queued.clear();
            self.queued = queued;
        }
        Ok(())
    }
}
