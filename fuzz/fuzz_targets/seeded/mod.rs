//! What the fuzz targets that feed text share: a seed from the input, and chunk sizes drawn
//! from it, so that the same input always gets the same chunks.

/// FNV-1a over the input.
pub fn seed(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Chunks of 1 to 16 bytes (longer where a character would be cut), their sizes drawn from a
/// generator seeded with `seed`.
pub fn chunks(text: &str, seed: u64) -> Vec<&str> {
    let mut state = seed | 1;
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut end = (start + 1 + (state % 16) as usize).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[start..end]);
        start = end;
    }
    out
}
