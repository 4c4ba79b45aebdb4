//! Which cut strings may be shown while they are written: prose under the cuttable keys, never
//! ids, paths or links. The builder asks only about strings under a cuttable key (the default
//! [`CUTTABLE_KEYS`](crate::official::legacy::partial_json::CUTTABLE_KEYS), or the parser's own, see
//! [`ProgressiveParser::with_cuttable_keys`](super::ProgressiveParser::with_cuttable_keys));
//! these say which of them wait all the same.

use serde_json::{Map, Value};

/// Whether a cut string under the cuttable `key` in a component may be shown as far as it
/// goes: any, except a `valueString` that looks like a link.
pub(super) fn heal_component_string(key: &str, text: &str, _obj: &Map<String, Value>) -> bool {
    !(key == "valueString" && looks_like_url(text))
}

/// Whether a cut string under the cuttable `key` in a data-model entry `obj` may be shown as
/// far as it goes: any, except a `valueString` that looks like a link or whose entry's key
/// hints at one.
pub(super) fn heal_data_string(key: &str, text: &str, obj: &Map<String, Value>) -> bool {
    if key == "valueString" {
        if looks_like_url(text) {
            return false;
        }
        if let Some(Value::String(name)) = obj.get("key") {
            let linky = if name.is_ascii() {
                // The same as lower-casing first, without the copy (checked on every chunk
                // of a cut value).
                has_link_hint(name.as_bytes())
            } else {
                let name = name.to_lowercase();
                LINK_HINTS.iter().any(|w| name.contains(w))
            };
            if linky {
                return false;
            }
        }
    }
    true
}

/// Parts of a data key that mark its value as a link (not shown while cut).
const LINK_HINTS: [&str; 5] = ["url", "link", "src", "href", "image"];

/// For each byte, 1 + the index in [`LINK_HINTS`] of the hint starting with that letter in any
/// case (no two hints start with the same letter), or 0. (Worked out when compiling: an index
/// out of range here would stop the build, not a parse.)
#[allow(clippy::indexing_slicing)]
const HINT_BY_FIRST: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < LINK_HINTS.len() {
        let first = LINK_HINTS[i].as_bytes()[0];
        table[first as usize] = i as u8 + 1;
        table[first.to_ascii_uppercase() as usize] = i as u8 + 1;
        i += 1;
    }
    table
};

/// Whether one of [`LINK_HINTS`] occurs in the ASCII `name`, in any case: one pass over the
/// name, comparing only the one hint that starts with the letter at hand (checked on every
/// chunk of a cut value).
fn has_link_hint(name: &[u8]) -> bool {
    name.iter().enumerate().any(|(i, &b)| {
        let hint = match HINT_BY_FIRST.get(usize::from(b)).copied().unwrap_or(0) {
            0 => return false,
            n => LINK_HINTS.get(usize::from(n) - 1),
        };
        hint.is_some_and(|hint| {
            name.get(i..i + hint.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(hint.as_bytes()))
        })
    })
}

fn looks_like_url(text: &str) -> bool {
    ["http://", "https://", "data:", "/"]
        .iter()
        .any(|p| text.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::QuickSet;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn link_hints_are_found_as_lower_casing_finds_them(name in "([a-zA-Z_]{0,5}(url|Url|LINK|link|src|sRc|href|image|IMAGE|ima|lin|ur)?){0,4}") {
            let lower = name.to_lowercase();
            let expected = LINK_HINTS.iter().any(|w| lower.contains(w));
            prop_assert_eq!(has_link_hint(name.as_bytes()), expected);
        }
    }

    #[test]
    fn link_hints_in_any_case_and_place() {
        // `has_link_hint` compares only the hint that starts with the letter at hand.
        let firsts: QuickSet<u8> = LINK_HINTS.iter().map(|h| h.as_bytes()[0]).collect();
        assert_eq!(firsts.len(), LINK_HINTS.len());
        for name in ["imageUrl", "HREF", "profileLink", "thumbSrc", "my_url_2"] {
            assert!(has_link_hint(name.as_bytes()), "{name}");
        }
        for name in ["title", "dietaryRequirements", "ur", "lin", "imag", ""] {
            assert!(!has_link_hint(name.as_bytes()), "{name}");
        }
    }
}
