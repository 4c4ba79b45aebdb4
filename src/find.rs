//! The byte-search kernels every layer uses: the splitter's prose and resynchronisation scans,
//! the lexer's string interiors, the SSE line reader and the official parser's tag search.
//!
//! A model's stream arrives in pieces of a few bytes, where the set-up of a vectorised search
//! costs more than the search; long pieces (a whole response, a buffered body) are where `memchr`
//! pays. Each kernel picks one or the other at the same length, [`SHORT`].

/// Below this length a plain loop finds a byte sooner than `memchr` (chunks are often a few
/// bytes long).
pub(crate) const SHORT: usize = 16;

#[cfg(any(feature = "agui", feature = "official"))]
/// Where the byte `b` first occurs in `bytes`.
pub(crate) fn find_byte(b: u8, bytes: &[u8]) -> Option<usize> {
    if bytes.len() < SHORT {
        bytes.iter().position(|&c| c == b)
    } else {
        memchr::memchr(b, bytes)
    }
}

/// Where the byte `a` or the byte `b` first occurs in `bytes`.
pub(crate) fn find_either(a: u8, b: u8, bytes: &[u8]) -> Option<usize> {
    if bytes.len() < SHORT {
        bytes.iter().position(|&c| c == a || c == b)
    } else {
        memchr::memchr2(a, b, bytes)
    }
}

/// Where the JSON string that `bytes` goes on with ends: the index of its closing quote, or
/// `None` when `bytes` ends first. `escaped` says whether the byte just before `bytes` was a
/// backslash that escapes the first one, and is left saying the same of the end of `bytes`, so
/// that a string cut anywhere is read on with the next chunk. The one loop that skips a
/// string's interior for every reader that does not lex it (a broken block read past, a
/// repair, the legacy fixer): it jumps from quote or backslash to the next.
#[cfg_attr(not(feature = "official"), allow(dead_code))]
pub(crate) fn string_end(bytes: &[u8], escaped: &mut bool) -> Option<usize> {
    let mut from = usize::from(std::mem::take(escaped));
    loop {
        let at = from + find_either(b'"', b'\\', bytes.get(from..)?)?;
        if bytes.get(at) == Some(&b'"') {
            return Some(at);
        }
        if at + 1 >= bytes.len() {
            *escaped = true;
            return None;
        }
        from = at + 2;
    }
}

/// Where one of the bytes `a`, `b` or `c` first occurs in `bytes`.
pub(crate) fn find_any3(a: u8, b: u8, c: u8, bytes: &[u8]) -> Option<usize> {
    if bytes.len() < SHORT {
        bytes.iter().position(|&x| x == a || x == b || x == c)
    } else {
        memchr::memchr3(a, b, c, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_ends_at_its_first_unescaped_quote_in_any_cut() {
        let text = br#"a\"b\\"c"#; // the string's interior, then its closing quote at 6
        let mut escaped = false;
        assert_eq!(string_end(text, &mut escaped), Some(6));
        for cut in 0..=text.len() {
            let (head, tail) = text.split_at(cut);
            let mut escaped = false;
            let found = match string_end(head, &mut escaped) {
                Some(at) => Some(at),
                None => string_end(tail, &mut escaped).map(|at| cut + at),
            };
            assert_eq!(found, Some(6), "cut at {cut}");
        }
        let mut escaped = false;
        assert_eq!(string_end(br"abc\", &mut escaped), None);
        assert!(escaped);
        assert_eq!(string_end(br#""x""#, &mut escaped), Some(2));
    }

    #[test]
    fn short_and_long_pieces_are_searched_alike() {
        for len in [0, 1, 5, SHORT - 1, SHORT, SHORT + 7, 100] {
            let mut bytes = vec![b'x'; len];
            assert_eq!(find_byte(b'"', &bytes), None);
            assert_eq!(find_either(b'"', b'\\', &bytes), None);
            assert_eq!(find_any3(b'"', b'\\', b'<', &bytes), None);
            if len > 2 {
                bytes[len - 2] = b'\\';
                bytes[len - 1] = b'"';
                assert_eq!(find_byte(b'"', &bytes), Some(len - 1), "{len}");
                assert_eq!(find_either(b'"', b'\\', &bytes), Some(len - 2), "{len}");
                assert_eq!(find_any3(b'<', b'"', b'\\', &bytes), Some(len - 2), "{len}");
            }
        }
    }
}
