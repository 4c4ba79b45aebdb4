//! Feeding the response in: each chunk is split into prose and `<a2ui-json>` block text (a
//! possible start of a tag at the chunk's end held back for the next call), the block text goes
//! to [`ProgressiveParser::json_text`], and an error ends the call, what the chunk completed
//! before it kept for the next one.

use super::block::Phase;
use super::form::{Form, Out, map_messages};
use super::reuse::{bound, take_back};
use super::{Emission, Error, ProgressiveParser, ResponsePart};
use crate::find::find_byte;
use crate::framing::{Act, Class, Dialect, find_tag};
use crate::official::catalog::Version;

/// Where the response stands between calls.
#[derive(Debug, Default)]
pub(super) struct Input {
    /// Bytes of the response fed so far (the offset of the next chunk's first byte).
    pub(super) fed: u64,
    /// Text held back: a possible start of a tag, or what followed an error in its chunk.
    pub(super) held: String,
    /// What a chunk completed before it passed a limit, handed out by the next call (messages
    /// as JSON text).
    pub(super) carried: Vec<ResponsePart<String>>,
}

impl<F> ProgressiveParser<F> {
    /// A chunk: its parts and errors in order. After an error, what the chunk completed before
    /// it and the rest of the chunk come out of the calls that follow (with no more text), made
    /// here until one succeeds; each error takes at least one byte or mends one surface for
    /// good, so they come to rest within that many calls. A quiet chunk costs only the check;
    /// the list handed out is one handed back, when there is one.
    #[inline(always)]
    pub(super) fn feed_as(&mut self, chunk: &str) -> Vec<Result<ResponsePart<F>, Error>>
    where
        F: Form,
    {
        if self.quiet(chunk) {
            return Vec::new();
        }
        self.feed_step(chunk)
    }

    /// [`Self::feed_as`] for a chunk that is not taken at once.
    #[inline(never)]
    fn feed_step(&mut self, chunk: &str) -> Vec<Result<ResponsePart<F>, Error>>
    where
        F: Form,
    {
        let room = std::mem::take(&mut self.out_room);
        match self.step(chunk, room) {
            Ok(out) => out,
            Err(e) => self.after_error(e, chunk.len()),
        }
    }

    /// The calls after error `e`, with no more text, until one succeeds.
    #[cold]
    fn after_error(&mut self, e: Error, fed: usize) -> Vec<Result<ResponsePart<F>, Error>>
    where
        F: Form,
    {
        let mut out = vec![Err(e)];
        self.settle(fed, &mut out);
        out
    }

    /// Takes back the messages of `used` for the next steps to write over, and keeps the
    /// emptied list as the room of the next list handed out.
    pub(super) fn recycle_parts(&mut self, mut used: Vec<Result<ResponsePart<F>, Error>>)
    where
        F: Form,
    {
        take_back(&mut used, F::spare(&mut self.room.spare));
        if used.capacity() > self.out_room.capacity() {
            self.out_room = used;
        }
    }
}

impl<F> ProgressiveParser<F> {
    /// A chunk as one step of either form: its parts, or its first error (what the chunk
    /// completed then comes out of the next call). The unit tests compare the two forms on one
    /// parser with it.
    #[cfg(test)]
    pub(super) fn step_as<M: Form>(&mut self, chunk: &str) -> Result<Vec<ResponsePart<M>>, Error> {
        if self.quiet(chunk) {
            return Ok(Vec::new());
        }
        self.step(chunk, Vec::new())
            .map(|parts| parts.into_iter().flatten().collect())
    }

    /// The end of the response: its errors, then its parts.
    pub(super) fn finish_as<M: Form>(&mut self) -> Vec<Result<ResponsePart<M>, Error>> {
        let mut out = Vec::new();
        // At rest, all that is held is what could have begun a tag.
        if self.settle(0, &mut out) && !self.block.inside() && !self.input.held.is_empty() {
            out.push(Ok(ResponsePart {
                text: Some(std::mem::take(&mut self.input.held)),
                a2ui: None,
            }));
        }
        out
    }

    /// Makes calls with no more text until one succeeds, each error and then the parts into
    /// `out`; says whether the parser came to rest. Each error takes at least one byte of the
    /// text left over (or of the `fed` bytes of the chunk before), or mends one surface for
    /// good: the calls come to rest within that many (the bound only guards against a parser
    /// that would not).
    fn settle<M: Form>(
        &mut self,
        fed: usize,
        out: &mut Vec<Result<ResponsePart<M>, Error>>,
    ) -> bool {
        let calls = fed + self.input.held.len() + self.surfaces.len() + self.queued.len() + 2;
        for _ in 0..calls {
            if self.quiet("") {
                return true;
            }
            match self.step::<M>("", Vec::new()) {
                Ok(more) => {
                    out.extend(more);
                    return true;
                }
                Err(e) => out.push(Err(e)),
            }
        }
        false
    }

    /// Takes `chunk` in at once when it cannot change what a step shows, and says so: inside a
    /// block, a chunk of white space between tokens or of the plain text of a string not shown
    /// (an id, a key, a path). Most chunks are such; every call checks this before [`Self::step`],
    /// in line, so that they cost no more than the check.
    #[inline(always)]
    pub(super) fn quiet(&mut self, chunk: &str) -> bool {
        let quiet = self.block.phase == Phase::Reading
            && self.input.held.is_empty()
            && self.input.carried.is_empty()
            && self.queued.is_empty()
            && self.block.bytes.saturating_add(chunk.len()) <= self.limits.max_block_bytes
            && self.json.absorb_quiet(chunk);
        if quiet {
            self.block.bytes += chunk.len();
            self.input.fed = self.input.fed.saturating_add(chunk.len() as u64);
        }
        quiet
    }

    /// What a chunk that is not [quiet](Self::quiet) completes.
    #[inline]
    pub(super) fn step<M: Form>(
        &mut self,
        chunk: &str,
        parts: Vec<Result<ResponsePart<M>, Error>>,
    ) -> Result<Vec<Result<ResponsePart<M>, Error>>, Error> {
        let keep_last = self.mode == Emission::Official && self.version == Version::V08;
        let spare = std::mem::take(M::spare(&mut self.room.spare));
        let mut out = Out::new(keep_last, parts, spare);
        if !self.input.carried.is_empty() {
            let carried = std::mem::take(&mut self.input.carried);
            out.parts
                .extend(map_messages(carried, M::from_text).into_iter().map(Ok));
        }
        if self.block.inside()
            && self.input.held.is_empty()
            && find_byte(b'<', chunk.as_bytes()).is_none()
        {
            // Block text with no tag in it, nor the start of one: all of it is JSON.
            let at = self.input.fed;
            self.input.fed = self.input.fed.saturating_add(chunk.len() as u64);
            if let Err((e, used)) = self.json_text(chunk, at, &mut out) {
                return Err(self.stop(e, chunk.get(used..).unwrap_or_default(), out));
            }
            self.keep_spare(out.spare);
            return Ok(out.parts);
        }
        let held = std::mem::take(&mut self.input.held);
        // Where `buffer` starts in the response.
        let start = self.input.fed.saturating_sub(held.len() as u64);
        self.input.fed = self.input.fed.saturating_add(chunk.len() as u64);
        let joined;
        let buffer: &str = if held.is_empty() {
            chunk
        } else {
            joined = held + chunk;
            &joined
        };
        let mut rest = buffer;
        loop {
            let at = start + (buffer.len() - rest.len()) as u64;
            let want = if self.block.inside() {
                Act::CloseBlock
            } else {
                Act::OpenBlock
            };
            let (pos, class) =
                find_tag(rest.as_bytes(), want, Dialect::Exact).unwrap_or((rest.len(), Class::No));
            if let Class::Match(len, _) = class
                && let Some((before, after)) = rest.get(..pos).zip(rest.get(pos + len..))
            {
                if self.block.inside() {
                    if let Err((e, used)) = self.json_text(before, at, &mut out) {
                        return Err(self.stop(e, rest.get(used..).unwrap_or_default(), out));
                    }
                    if let Some(e) = self.close_block(at + before.len() as u64) {
                        return Err(self.stop(e, after, out));
                    }
                } else {
                    out.text(before);
                    self.block.phase = Phase::Reading;
                }
                rest = after;
                continue;
            }
            // Hold back a possible start of the tag.
            let (now, later) = rest.split_at_checked(pos).unwrap_or((rest, ""));
            if self.block.inside() {
                if let Err((e, used)) = self.json_text(now, at, &mut out) {
                    return Err(self.stop(e, rest.get(used..).unwrap_or_default(), out));
                }
            } else {
                out.text(now);
            }
            self.input.held = later.to_owned();
            break;
        }
        self.keep_spare(out.spare);
        Ok(out.parts)
    }

    /// Keeps the messages left to write over for the next call (at most
    /// [`MAX_SPARE`](super::reuse::MAX_SPARE)).
    fn keep_spare<M: Form>(&mut self, mut spare: Vec<M>) {
        bound(&mut spare);
        *M::spare(&mut self.room.spare) = spare;
    }

    /// Ends a call at an error: what the chunk completed before it is handed out by the next
    /// call, which also takes `unread` (the text after the error) before its own chunk.
    #[cold]
    #[inline(never)]
    fn stop<M: Form>(&mut self, error: Error, unread: &str, out: Out<M>) -> Error {
        self.writing.valid = false;
        self.input.held = unread.to_owned();
        let done = out.parts.into_iter().flatten().collect();
        self.input.carried = map_messages(done, M::into_text);
        self.keep_spare(out.spare);
        error
    }
}
