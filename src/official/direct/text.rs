//! Text outside blocks, as the direct-JSON format hands it on: each chunk's text at once, less
//! a trailing run of white space (held, and given with the text after it or dropped if the run
//! ends) and less a tail that may begin an open tag (held for the next chunk).

use crate::find::find_byte;
use crate::framing::{self, Act, Class, Dialect, Tag};

/// Where an open `tag` is in `text`: its offset and length, or the offset of a possible start of
/// one that the end of `text` cut (with length `None`).
pub(crate) fn open_tag(text: &[u8], tag: Tag) -> Option<(usize, Option<usize>)> {
    let mut from = 0;
    while let Some(k) = text.get(from..).and_then(|rest| find_byte(b'<', rest)) {
        let at = from + k;
        let rest = text.get(at..).unwrap_or_default();
        match framing::tag_at(rest, Act::OpenBlock, Dialect::Lenient, tag) {
            Class::Match(len, Act::OpenTagAttributes) => {
                // Attributes run to the first `>`.
                return match rest.get(len..).and_then(|attrs| find_byte(b'>', attrs)) {
                    Some(gt) => Some((at, Some(len + gt + 1))),
                    None => Some((at, None)),
                };
            }
            Class::Match(len, _) => return Some((at, Some(len))),
            Class::Partial => return Some((at, None)),
            Class::No => from = at + 1,
        }
    }
    None
}

/// The run of text between blocks.
#[derive(Debug, Default)]
pub(crate) struct Run {
    /// Text was handed on since the last block.
    started: bool,
    /// White space held after the last text handed on.
    space: String,
}

impl Run {
    /// A block begins: the next text starts a new run.
    pub(crate) fn reset(&mut self) {
        self.started = false;
        self.space.clear();
    }

    /// The part of `text` to hand on now, if any.
    pub(crate) fn take(&mut self, text: &str) -> Option<String> {
        let lead = if self.started {
            text
        } else {
            text.trim_start()
        };
        let body = lead.trim_end();
        if body.is_empty() {
            if self.started {
                self.space.push_str(text);
            }
            return None;
        }
        let start = text.len() - lead.len();
        let mut out = std::mem::take(&mut self.space);
        out.push_str(body);
        self.space = text
            .get(start + body.len()..)
            .unwrap_or_default()
            .to_owned();
        self.started = true;
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_hold_trailing_space_for_the_text_after_it() {
        let mut run = Run::default();
        assert_eq!(run.take("  Here is "), Some("Here is".into()));
        assert_eq!(run.take("the "), Some(" the".into()));
        assert_eq!(run.take("   "), None);
        assert_eq!(run.take("end."), Some("    end.".into()));
        run.reset();
        assert_eq!(run.take("\n"), None);
        assert_eq!(run.take("\nNext"), Some("Next".into()));
    }

    #[test]
    fn open_tags_with_attributes_and_cut_ones_are_found() {
        assert_eq!(
            open_tag(b"a <b> <a2ui-json>", Tag::Json),
            Some((6, Some(11)))
        );
        assert_eq!(
            open_tag(b"<A2UI-JSON v=\"1\">[", Tag::Json),
            Some((0, Some(17)))
        );
        assert_eq!(open_tag(b"x <a2ui", Tag::Json), Some((2, None)));
        assert_eq!(open_tag(b"x <a2ui-json v=1", Tag::Json), Some((2, None)));
        assert_eq!(open_tag(b"x <a2ui-jsonx>", Tag::Json), None);
        assert_eq!(open_tag(b"1 < 2", Tag::Json), None);
    }
}
