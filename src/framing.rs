//! Framing: recognising tags, the legacy delimiter and code fences at a candidate byte.
//!
//! Each classifier looks at a short probe that starts at a candidate byte and says whether the
//! probe is one of the framing tokens ([`Class::Match`] with its length and what it means), cannot
//! be one ([`Class::No`]), or cannot be told yet ([`Class::Partial`]). A classifier is a pure
//! function of the probe's bytes, so the decision does not depend on where chunks were cut: the
//! splitter holds back a partial probe (at most a few dozen bytes) and asks again when more arrive.
//! With `eof` set, no more bytes will come and the classifier decides.
//!
//! Two dialects read the same tokens. The splitter's ([`Dialect::Lenient`]) takes what models
//! write: tags in any case, with attributes, whitespace before the closing `>`, fences and the
//! legacy delimiter. The official SDK's ([`Dialect::Exact`]) knows only `<a2ui-json>` and
//! `</a2ui-json>` byte for byte, and the official parsers reproduce it through [`find_tag`].

#[cfg(feature = "legacy")]
use crate::find::find_byte;

#[cfg(feature = "legacy")]
/// The opening tag as the official SDK writes and reads it.
pub(crate) const OPEN_TAG: &str = "<a2ui-json>";
#[cfg(feature = "legacy")]
/// The closing tag as the official SDK writes and reads it.
pub(crate) const CLOSE_TAG: &str = "</a2ui-json>";
/// Which tags frame a block: the direct-JSON format's `<a2ui-json>` or Express's `<a2ui>`, read
/// the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tag {
    /// `<a2ui-json>` and `</a2ui-json>`.
    Json,
    #[cfg(feature = "express")]
    /// `<a2ui>` and `</a2ui>`.
    Express,
}

impl Tag {
    /// The opening tag's name, compared case-insensitively.
    fn open(self) -> &'static [u8] {
        match self {
            Tag::Json => b"<a2ui-json",
            #[cfg(feature = "express")]
            Tag::Express => b"<a2ui",
        }
    }

    /// The closing tag's start, compared case-insensitively.
    fn close(self) -> &'static [u8] {
        match self {
            Tag::Json => b"</a2ui-json",
            #[cfg(feature = "express")]
            Tag::Express => b"</a2ui",
        }
    }
}
/// The legacy delimiter: everything after it is JSON.
const DELIMITER: &[u8] = b"---a2ui_json---";
const FENCE: &[u8] = b"```";
/// Longest info string (`json`, `jsonc`, ...) accepted on a fence.
const MAX_LANG: usize = 16;
/// Longest whitespace run looked through between a fence and a tag.
const MAX_GAP: usize = 32;
/// Longest whitespace run between `{` and the first key when resynchronising.
const MAX_RESYNC_GAP: usize = 64;
/// Longest key looked at when resynchronising.
const MAX_KEY: usize = 24;

/// How strictly tags are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// Tags in any case, attributes, whitespace before `>` (the splitter's).
    Lenient,
    /// Exactly `<a2ui-json>` and `</a2ui-json>` (the official SDK's).
    Exact,
}

/// What a classifier decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    /// More bytes are needed to decide.
    Partial,
    /// Not a framing token: the candidate byte is ordinary content.
    No,
    /// A framing token of this many bytes.
    Match(usize, Act),
}

/// What a matched framing token means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Act {
    /// `<a2ui-json>`: a block of JSON starts.
    OpenBlock,
    /// `<a2ui-json` and whitespace: attributes follow until `>`, then a block starts.
    OpenTagAttributes,
    /// Bytes that vanish: a fence around or inside a block, a stray or repeated tag.
    Drop,
    /// `---a2ui_JSON---`: JSON until the end of the stream.
    Delimiter,
    /// `</a2ui-json>` (and a closing fence right after it): back to prose.
    CloseBlock,
    /// One whole UTF-8 character that had been cut by a chunk boundary: text.
    Utf8Char,
    /// Resynchronising: a message object starts here (nothing consumed).
    Message,
}

enum Step {
    Ok,
    No,
    More,
}

/// A position in a probe.
struct Cur<'a> {
    p: &'a [u8],
    i: usize,
    dialect: Dialect,
    tag: Tag,
}

impl<'a> Cur<'a> {
    fn new(p: &'a [u8], dialect: Dialect) -> Self {
        Cur {
            p,
            i: 0,
            dialect,
            tag: Tag::Json,
        }
    }

    /// Matches `lit`, case-insensitively in the lenient dialect.
    fn lit(&mut self, lit: &[u8]) -> Step {
        let exact = self.dialect == Dialect::Exact;
        for &want in lit {
            match self.p.get(self.i) {
                None => return Step::More,
                Some(&b) if b == want || (!exact && b.eq_ignore_ascii_case(&want)) => self.i += 1,
                Some(_) => return Step::No,
            }
        }
        Step::Ok
    }

    /// Skips at most `max` bytes accepted by `f`; `More` when the probe ends inside the run.
    fn skip(&mut self, max: usize, f: impl Fn(u8) -> bool) -> Step {
        let start = self.i;
        while let Some(&b) = self.p.get(self.i) {
            if !f(b) {
                return Step::Ok;
            }
            if self.i - start == max {
                return Step::No;
            }
            self.i += 1;
        }
        Step::More
    }

    fn peek(&self) -> Option<u8> {
        self.p.get(self.i).copied()
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn is_lang(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'-' | b'.')
}

/// Turns an unfinished match into a decision: `Partial`, or `No` at the end of the stream.
fn more(eof: bool) -> Class {
    if eof { Class::No } else { Class::Partial }
}

macro_rules! step {
    ($e:expr, $eof:expr) => {
        match $e {
            Step::Ok => {}
            Step::No => return Class::No,
            Step::More => return more($eof),
        }
    };
}

/// `<a2ui-json` (or the [`Tag`]'s name) followed by `>` or whitespace; `then` is the act for a
/// bare `>`.
fn open_tag(c: &mut Cur<'_>, eof: bool, then: Act) -> Class {
    step!(c.lit(c.tag.open()), eof);
    match c.peek() {
        None => more(eof),
        Some(b'>') => Class::Match(c.i + 1, then),
        Some(b) if is_ws(b) && c.dialect == Dialect::Lenient => {
            Class::Match(c.i + 1, Act::OpenTagAttributes)
        }
        Some(_) => Class::No,
    }
}

/// `</a2ui-json` and optional whitespace and `>`.
fn close_tag(c: &mut Cur<'_>, eof: bool) -> Class {
    step!(c.lit(c.tag.close()), eof);
    let gap = match c.dialect {
        Dialect::Lenient => MAX_GAP,
        Dialect::Exact => 0,
    };
    step!(c.skip(gap, is_ws), eof);
    step!(c.lit(b">"), eof);
    Class::Match(c.i, Act::CloseBlock)
}

/// In prose, at a candidate byte (`<`, `-`, `` ` ``, or the lead byte of a cut UTF-8 character).
pub(crate) fn prose(p: &[u8], eof: bool) -> Class {
    let mut c = Cur::new(p, Dialect::Lenient);
    match p.first() {
        Some(b'<') if p.get(1) == Some(&b'/') => match close_tag(&mut c, eof) {
            // A closing tag with no block open is dropped too: tags never appear in text.
            Class::Match(n, _) => Class::Match(n, Act::Drop),
            other => other,
        },
        Some(b'<') => open_tag(&mut c, eof, Act::OpenBlock),
        Some(b'-') => {
            step!(c.lit(DELIMITER), eof);
            Class::Match(c.i, Act::Delimiter)
        }
        Some(b'`') => {
            // A fence is framing only when an opening tag follows it.
            step!(c.lit(FENCE), eof);
            step!(c.skip(MAX_LANG, is_lang), eof);
            step!(c.skip(MAX_GAP, is_ws), eof);
            let fence_len = c.i;
            match open_tag(&mut c, eof, Act::OpenBlock) {
                Class::Match(..) => Class::Match(fence_len, Act::Drop),
                other => other,
            }
        }
        Some(&lead) if lead >= 0xC0 => {
            let width = match lead {
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
            let tail = p.get(1..width.min(p.len())).unwrap_or_default();
            if tail.iter().any(|&b| b & 0xC0 != 0x80) {
                Class::No
            } else if p.len() >= width {
                Class::Match(width, Act::Utf8Char)
            } else {
                more(eof)
            }
        }
        _ => Class::No,
    }
}

/// Inside a block, between messages, at `<` or `` ` ``.
pub(crate) fn between_messages(p: &[u8], eof: bool) -> Class {
    let mut c = Cur::new(p, Dialect::Lenient);
    match p.first() {
        Some(b'<') if p.get(1) == Some(&b'/') => {
            let tag = close_tag(&mut c, eof);
            let Class::Match(n, act) = tag else {
                return tag;
            };
            // A closing fence right after the tag belongs to the block.
            match c.skip(MAX_GAP, is_ws) {
                Step::Ok => {}
                Step::No => return tag,
                Step::More => return if eof { tag } else { Class::Partial },
            }
            match c.lit(FENCE) {
                Step::Ok => Class::Match(c.i, act),
                Step::More if !eof => Class::Partial,
                _ => Class::Match(n, act),
            }
        }
        Some(b'<') => open_tag(&mut c, eof, Act::Drop),
        Some(b'`') => {
            step!(c.lit(FENCE), eof);
            match c.skip(MAX_LANG, is_lang) {
                Step::Ok => Class::Match(c.i, Act::Drop),
                Step::No => Class::No,
                Step::More if eof => Class::Match(c.i, Act::Drop),
                Step::More => Class::Partial,
            }
        }
        _ => Class::No,
    }
}

/// Resynchronising after an error, at `{` or `<`: a `{` counts only when its first key names a
/// message kind (or `version`).
pub(crate) fn resync(p: &[u8], eof: bool) -> Class {
    if p.first() != Some(&b'{') {
        return between_messages(p, eof);
    }
    let mut c = Cur::new(p, Dialect::Lenient);
    c.i = 1;
    step!(c.skip(MAX_RESYNC_GAP, is_ws), eof);
    step!(c.lit(b"\""), eof);
    let key_start = c.i;
    step!(c.skip(MAX_KEY, |b| b != b'"'), eof);
    let key = p.get(key_start..c.i).unwrap_or_default();
    if key == b"version" || crate::MessageKind::from_key(key).is_some() {
        Class::Match(0, Act::Message)
    } else {
        Class::No
    }
}

#[cfg(feature = "official")]
/// The `tag` `want` ([`Act::OpenBlock`] or [`Act::CloseBlock`]) at the start of `probe`, read in
/// `dialect`; [`Class::Partial`] when the probe ends inside what may still be it. An opening tag
/// with attributes is [`Act::OpenTagAttributes`] (its `>` is the caller's to find).
pub(crate) fn tag_at(probe: &[u8], want: Act, dialect: Dialect, tag: Tag) -> Class {
    let mut c = Cur::new(probe, dialect);
    c.tag = tag;
    match want {
        Act::CloseBlock => close_tag(&mut c, false),
        _ => open_tag(&mut c, false, Act::OpenBlock),
    }
}

#[cfg(feature = "legacy")]
/// The first tag `want` ([`Act::OpenBlock`] or [`Act::CloseBlock`]) in `text`, read in `dialect`:
/// its offset and [`Class::Match`], or the offset of a possible start of it that the end of
/// `text` cut ([`Class::Partial`], to hold back until more text arrives).
pub(crate) fn find_tag(text: &[u8], want: Act, dialect: Dialect) -> Option<(usize, Class)> {
    let mut from = 0;
    while let Some(k) = text.get(from..).and_then(|rest| find_byte(b'<', rest)) {
        let at = from + k;
        match tag_at(text.get(at..).unwrap_or_default(), want, dialect, Tag::Json) {
            Class::No => from = at + 1,
            class => return Some((at, class)),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decision on the whole probe, and `Partial` on every proper prefix that does not
    /// already decide.
    fn check(f: fn(&[u8], bool) -> Class, p: &[u8], want: Class) {
        assert_eq!(f(p, true), want, "{}", String::from_utf8_lossy(p));
        let decided_at = match want {
            Class::Match(n, _) => n,
            _ => 1,
        };
        for k in 1..decided_at.min(p.len()) {
            assert_eq!(
                f(&p[..k], false),
                Class::Partial,
                "prefix {k} of {}",
                String::from_utf8_lossy(p)
            );
        }
    }

    #[cfg(feature = "legacy")]
    #[test]
    fn the_exact_dialect_reads_only_the_two_tags() {
        use Dialect::{Exact, Lenient};
        let open = |t: &str, d| find_tag(t.as_bytes(), Act::OpenBlock, d);
        let close = |t: &str, d| find_tag(t.as_bytes(), Act::CloseBlock, d);
        assert_eq!(
            open("a <b> <a2ui-json>[", Exact),
            Some((6, Class::Match(11, Act::OpenBlock)))
        );
        assert_eq!(open("<A2UI-JSON>", Exact), None);
        assert_eq!(
            open("<A2UI-JSON>", Lenient),
            Some((0, Class::Match(11, Act::OpenBlock)))
        );
        assert_eq!(open("<a2ui-json id=x>", Exact), None);
        assert_eq!(open("</a2ui-json>", Exact), None);
        assert_eq!(close("]</a2ui-json >", Exact), None);
        assert_eq!(
            close("]</a2ui-json >", Lenient),
            Some((1, Class::Match(13, Act::CloseBlock)))
        );
        assert_eq!(
            close("] </a2ui-json>x", Exact),
            Some((2, Class::Match(12, Act::CloseBlock)))
        );
        // A possible start cut by the end of the text waits; one that cannot be the tag does not.
        for cut in 1..b"<a2ui-json>".len() {
            let text = format!("ab{}", &"<a2ui-json>"[..cut]);
            assert_eq!(open(&text, Exact), Some((2, Class::Partial)), "{text}");
        }
        assert_eq!(open("ab</a2ui", Exact), None);
        assert_eq!(close("ab</a2ui-json", Exact), Some((2, Class::Partial)));
        assert_eq!(close("ab<a2ui-json", Exact), None);
    }

    #[test]
    fn prose_tags() {
        check(prose, b"<a2ui-json>[", Class::Match(11, Act::OpenBlock));
        check(prose, b"<A2UI-JSON>[", Class::Match(11, Act::OpenBlock));
        check(
            prose,
            b"<a2ui-json id=\"x\">",
            Class::Match(11, Act::OpenTagAttributes),
        );
        check(prose, b"<a2ui-jsonx>", Class::No);
        check(prose, b"<b>", Class::No);
        check(prose, b"</a2ui-json >x", Class::Match(13, Act::Drop));
        check(
            prose,
            b"---a2ui_JSON---\n",
            Class::Match(15, Act::Delimiter),
        );
        check(prose, b"--- a2ui", Class::No);
        check(prose, b"```json\n<a2ui-json>", Class::Match(8, Act::Drop));
        check(prose, b"```\n\n<a2ui-json x>", Class::Match(5, Act::Drop));
        check(prose, b"```python\nprint(1)", Class::No);
        check(prose, "\u{e9}".as_bytes(), Class::Match(2, Act::Utf8Char));
        check(prose, b"\xe2\x82x", Class::No);
        assert_eq!(prose(b"<a2ui", true), Class::No);
        assert_eq!(prose(b"```json\n", false), Class::Partial);
    }

    #[test]
    fn block_tokens() {
        check(
            between_messages,
            b"</a2ui-json>\n```\nok",
            Class::Match(16, Act::CloseBlock),
        );
        assert_eq!(between_messages(b"</a2ui-json>\n", false), Class::Partial);
        assert_eq!(
            between_messages(b"</a2ui-json>\n", true),
            Class::Match(12, Act::CloseBlock)
        );
        assert_eq!(
            between_messages(b"</a2ui-json> Bye", false),
            Class::Match(12, Act::CloseBlock)
        );
        check(between_messages, b"```json\n", Class::Match(7, Act::Drop));
        check(
            between_messages,
            b"<a2ui-json>",
            Class::Match(11, Act::Drop),
        );
        check(between_messages, b"<p>", Class::No);
    }

    #[test]
    fn resync_needs_a_message_key() {
        check(
            resync,
            b"{ \"surfaceUpdate\":",
            Class::Match(0, Act::Message),
        );
        check(resync, b"{\"version\":", Class::Match(0, Act::Message));
        check(resync, b"{\"id\":", Class::No);
        assert_eq!(resync(b"{\"surf", false), Class::Partial);
    }
}
