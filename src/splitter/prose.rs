//! Prose and framing: text, tags, fences and the legacy delimiter, the held-back probe, and the
//! places between messages.

use super::*;

impl Splitter {
    pub(super) fn probe_limit(&self) -> usize {
        self.config.max_held_bytes.clamp(1, LOOKAHEAD)
    }

    /// The classifier for a candidate byte in the current mode.
    pub(super) fn classify(&self, probe: &[u8], eof: bool) -> Class {
        match self.mode {
            Mode::Prose => framing::prose(probe, eof),
            Mode::Json(Phase::Resync) => framing::resync(probe, eof),
            _ => framing::between_messages(probe, eof),
        }
    }

    /// Carries out a matched framing token.
    pub(super) fn act(&mut self, act: Act, matched: &[u8]) {
        match act {
            Act::OpenBlock => {
                self.mode = Mode::Json(Phase::SeekingMessage);
                self.in_block = true;
                self.lex.begin_block();
            }
            Act::OpenTagAttributes => {
                self.mode = Mode::TagAttributes {
                    quote: None,
                    len: 0,
                }
            }
            Act::Delimiter | Act::Message => self.mode = Mode::Json(Phase::SeekingMessage),
            Act::CloseBlock => {
                if self.config.framing == Framing::Tagged {
                    self.mode = Mode::Prose;
                    self.in_block = false;
                }
            }
            Act::Drop => {}
            Act::Utf8Char => self.text(Bytes::copy_from_slice(matched)),
        }
    }

    /// What a candidate byte that is not a framing token means in the current mode. Returns
    /// `true` when, in prose, the byte is text.
    pub(super) fn not_framing(&mut self, byte: u8, at: u64) -> bool {
        match self.mode {
            Mode::Prose => true,
            Mode::Json(Phase::SeekingMessage) => {
                self.error(
                    at,
                    ErrorKind::UnexpectedByte {
                        byte,
                        expected: "a message object",
                    },
                );
                self.mode = Mode::Json(Phase::Resync);
                false
            }
            _ => false,
        }
    }

    /// Decides a held-back probe with the bytes of the new chunk; returns where in the chunk to
    /// go on.
    pub(super) fn resolve_held(&mut self, chunk: &Chunk<'_>, eof: bool) -> usize {
        let mut idx = 0;
        while !self.held.is_empty() {
            let at = self.held_at;
            let mut probe = std::mem::take(&mut self.held);
            let held_len = probe.len();
            let take = self
                .probe_limit()
                .saturating_sub(held_len)
                .min(chunk.len() - idx);
            probe.extend_from_slice(chunk.span(idx, take));
            let mut class = self.classify(&probe, eof);
            if class == Class::Partial {
                if idx + take == chunk.len() && !eof {
                    self.held = probe;
                    return chunk.len();
                }
                let limit = self.config.max_held_bytes;
                self.error(at, ErrorKind::HeldTextTooLong { limit });
                class = Class::No;
            }
            let (consumed, replay_from) = match class {
                Class::Match(len, act) => {
                    self.act(act, probe.get(..len).unwrap_or_default());
                    (len.saturating_sub(held_len), len)
                }
                _ => {
                    if let Some(&byte) = probe.first() {
                        if self.not_framing(byte, at) {
                            self.text(Bytes::copy_from_slice(&[byte]));
                        }
                    }
                    (0, 1)
                }
            };
            if replay_from < held_len {
                let rest = Chunk {
                    data: probe.get(replay_from..held_len).unwrap_or_default(),
                    shared: None,
                };
                self.run(&rest, at + replay_from as u64, 0);
            }
            idx += consumed;
        }
        idx
    }

    /// Classifies the candidate at `i`: `None` when it was held back (the chunk is used up).
    pub(super) fn candidate(&mut self, chunk: &Chunk<'_>, base: u64, i: usize) -> Option<Class> {
        let end = (i + self.probe_limit()).min(chunk.len());
        match self.classify(chunk.get(i..end).unwrap_or_default(), false) {
            Class::Partial if end == chunk.len() => {
                self.held = chunk.rest_from(i).to_vec();
                self.held_at = base + i as u64;
                None
            }
            Class::Partial => {
                let limit = self.config.max_held_bytes;
                self.error(base + i as u64, ErrorKind::HeldTextTooLong { limit });
                Some(Class::No)
            }
            class => Some(class),
        }
    }

    #[inline(never)]
    pub(super) fn prose(&mut self, chunk: &Chunk<'_>, base: u64, i: usize) -> usize {
        let mut from = i;
        loop {
            let Some(k) = find_any3(b'<', b'-', b'`', chunk.rest_from(from)) else {
                let end = chunk.len();
                let cut = cut_char_len(chunk.rest_from(i));
                self.text(chunk.bytes(i..end - cut));
                if cut > 0 {
                    self.held = chunk.rest_from(end - cut).to_vec();
                    self.held_at = base + (end - cut) as u64;
                }
                return end;
            };
            let c = from + k;
            match self.candidate(chunk, base, c) {
                None => {
                    self.text(chunk.bytes(i..c));
                    return chunk.len();
                }
                Some(Class::Match(len, act)) => {
                    self.text(chunk.bytes(i..c));
                    self.act(act, chunk.span(c, len));
                    return c + len;
                }
                Some(_) => from = c + 1,
            }
        }
    }

    #[inline(never)]
    pub(super) fn tag_attributes(&mut self, chunk: &Chunk<'_>, base: u64, i: usize) -> usize {
        let Mode::TagAttributes { mut quote, mut len } = self.mode else {
            return i;
        };
        for (k, &b) in chunk.rest_from(i).iter().enumerate() {
            len += 1;
            match (quote, b) {
                (Some(q), _) if b == q => quote = None,
                (Some(_), _) => {}
                (None, b'"' | b'\'') => quote = Some(b),
                (None, b'>') => {
                    self.mode = Mode::Json(Phase::SeekingMessage);
                    self.in_block = true;
                    self.lex.begin_block();
                    return i + k + 1;
                }
                (None, _) => {}
            }
            if len > self.config.max_held_bytes {
                let limit = self.config.max_held_bytes;
                self.error(base + (i + k) as u64, ErrorKind::HeldTextTooLong { limit });
                self.mode = Mode::Json(Phase::SeekingMessage);
                self.in_block = true;
                self.lex.begin_block();
                return i + k + 1;
            }
        }
        self.mode = Mode::TagAttributes { quote, len };
        chunk.len()
    }

    #[inline(never)]
    pub(super) fn seeking_message(&mut self, chunk: &Chunk<'_>, base: u64, i: usize) -> usize {
        for (k, &b) in chunk.rest_from(i).iter().enumerate() {
            let j = i + k;
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b'[' | b']' => {}
                b'{' => {
                    self.cur = Current {
                        start: base + j as u64,
                        ..Current::default()
                    };
                    self.acc.clear();
                    self.lex.begin_object();
                    self.mode = Mode::Json(Phase::InMessage);
                    return j + 1;
                }
                b'<' | b'`' => {
                    return match self.candidate(chunk, base, j) {
                        None => chunk.len(),
                        Some(Class::Match(len, act)) => {
                            self.act(act, chunk.span(j, len));
                            j + len
                        }
                        Some(_) => {
                            self.not_framing(b, base + j as u64);
                            j + 1
                        }
                    };
                }
                _ => {
                    let kind = match b {
                        b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => ErrorKind::NotAnObject,
                        _ => ErrorKind::UnexpectedByte {
                            byte: b,
                            expected: "a message object",
                        },
                    };
                    self.error(base + j as u64, kind);
                    self.mode = Mode::Json(Phase::Resync);
                    return j + 1;
                }
            }
        }
        chunk.len()
    }

    #[inline(never)]
    pub(super) fn resync(&mut self, chunk: &Chunk<'_>, base: u64, i: usize) -> usize {
        let mut from = i;
        while let Some(k) = find_either(b'{', b'<', chunk.rest_from(from)) {
            let c = from + k;
            match self.candidate(chunk, base, c) {
                None => return chunk.len(),
                Some(Class::Match(len, act)) => {
                    self.act(act, chunk.span(c, len));
                    return c + len;
                }
                Some(_) => from = c + 1,
            }
        }
        chunk.len()
    }
}
