//! Finding the `<a2ui-json>` tags in prose, including a tag cut between two chunks.

use crate::official::find::find_byte;

pub(super) const OPEN_TAG: &str = "<a2ui-json>";
pub(super) const CLOSE_TAG: &str = "</a2ui-json>";

/// Where `tag` starts in `text`.
pub(super) fn find_tag(text: &str, tag: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = bytes.get(from..).and_then(|rest| find_byte(b'<', rest)) {
        let at = from + i;
        if bytes
            .get(at..)
            .is_some_and(|b| b.starts_with(tag.as_bytes()))
        {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// How many bytes at the end of `text` may be the start of `tag` (and must wait).
pub(super) fn held_back(text: &str, tag: &str) -> usize {
    let bytes = text.as_bytes();
    let tail = bytes.len().saturating_sub(tag.len().saturating_sub(1));
    let Some(lt) = bytes.get(tail..).and_then(|t| find_byte(b'<', t)) else {
        return 0;
    };
    let from = tail + lt;
    (from..bytes.len())
        .find(|&i| {
            bytes
                .get(i..)
                .is_some_and(|rest| tag.as_bytes().starts_with(rest))
        })
        .map_or(0, |i| bytes.len() - i)
}
