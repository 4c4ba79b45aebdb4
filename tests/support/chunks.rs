//! Fixed-size chunks of a text, as a model streams it; shared by the tests and the benchmarks.

/// `text` in chunks of `size` bytes (longer where a character would be cut).
pub fn chunks(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + size).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[start..end]);
        start = end;
    }
    out
}
