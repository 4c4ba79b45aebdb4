//! A fast keyed hash for the crate's own tables, and fingerprints of byte strings.
//!
//! The keys are short strings (component and surface ids), looked up many times per chunk; the
//! standard SipHash spends most of its time setting up and finishing for such keys. This hash
//! mixes eight bytes at a time with a folded 64x64->128-bit multiply, starting from a seed drawn
//! once per process from the standard library's random keys, so the tables still do not hash
//! the same way on every run.

use std::collections::HashMap;
#[cfg(feature = "official")]
use std::collections::HashSet;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// A 64-bit fingerprint of `bytes`: equal bytes, equal fingerprints. Unseeded and cheaper than
/// [`QuickHasher`] (one plain multiply per word); it tells contents apart, and is not for keying
/// tables that input could flood.
#[inline]
pub(crate) fn fingerprint(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let mut a = [0u8; 8];
        a.copy_from_slice(w);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(a)).wrapping_mul(K);
    }
    for &b in words.remainder() {
        h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
    }
    h ^ (h >> 29)
}

/// A `HashMap` hashed with [`QuickState`].
pub(crate) type QuickMap<K, V> = HashMap<K, V, QuickState>;
/// A `HashSet` hashed with [`QuickState`].
#[cfg(feature = "official")]
pub(crate) type QuickSet<T> = HashSet<T, QuickState>;

const MUL: u64 = 0x9E37_79B9_7F4A_7C15;
const FINAL: u64 = 0xD6E8_FEB8_6659_FD93;

fn seed() -> u64 {
    static SEED: OnceLock<u64> = OnceLock::new();
    *SEED.get_or_init(|| RandomState::new().hash_one(0x5EED_u64) | 1)
}

/// Builds [`QuickHasher`]s that share one random seed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct QuickState {
    seed: u64,
}

impl Default for QuickState {
    fn default() -> QuickState {
        QuickState { seed: seed() }
    }
}

impl BuildHasher for QuickState {
    type Hasher = QuickHasher;

    fn build_hasher(&self) -> QuickHasher {
        QuickHasher { state: self.seed }
    }
}

/// See the [module documentation](self).
#[derive(Debug, Clone)]
pub(crate) struct QuickHasher {
    state: u64,
}

impl QuickHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        let product = u128::from(self.state ^ word) * u128::from(MUL);
        self.state = (product as u64) ^ ((product >> 64) as u64);
    }
}

impl Hasher for QuickHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut buf = [0u8; 8];
            buf.copy_from_slice(word);
            self.mix(u64::from_le_bytes(buf));
        }
        let rest = words.remainder();
        let mut buf = [0u8; 8];
        for (slot, byte) in buf.iter_mut().zip(rest) {
            *slot = *byte;
        }
        // The length keeps "a" apart from "a\0".
        self.mix(u64::from_le_bytes(buf) ^ ((rest.len() as u64) << 56));
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.mix(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.mix(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.mix(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        let product = u128::from(self.state) * u128::from(FINAL);
        (product as u64) ^ ((product >> 64) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_alike_and_tables_work() {
        let state = QuickState::default();
        assert_eq!(state.hash_one("card-1"), state.hash_one("card-1"));
        assert_ne!(state.hash_one("card-1"), state.hash_one("card-2"));
        assert_ne!(state.hash_one("a"), state.hash_one("a\0"));
        assert_ne!(
            state.hash_one("a long identifier"),
            state.hash_one("a long identifieR")
        );
        let mut map: QuickMap<String, usize> = QuickMap::default();
        for i in 0..1000 {
            map.insert(format!("id-{i}"), i);
        }
        assert_eq!(map.len(), 1000);
        assert_eq!(map.get("id-417"), Some(&417));
        #[cfg(feature = "official")]
        {
            let set: QuickSet<&str> = ["x", "y", "x"].into_iter().collect();
            assert_eq!(set.len(), 2);
        }
    }

    #[test]
    fn fingerprints_tell_contents_apart() {
        let a = br#"{"id":"card","component":{"Text":{"text":"Hello"}}}"#;
        let copy = String::from_utf8_lossy(a).into_owned();
        assert_eq!(fingerprint(a), fingerprint(copy.as_bytes()));
        assert_ne!(fingerprint(a), fingerprint(&a[..a.len() - 1]));
        assert_ne!(fingerprint(b"ab"), fingerprint(b"ba"));
        assert_ne!(fingerprint(b""), fingerprint(b"\0"));
    }
}
