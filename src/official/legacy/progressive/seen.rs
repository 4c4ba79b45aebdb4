//! A set of strings met so far, cheap while it is small.

use crate::hash::QuickSet;

/// Strings met so far, each said new once: up to [`FEW`] in a list kept in place (nothing
/// allocated), a hash table after.
pub(super) struct Seen<'a> {
    few: [&'a str; FEW],
    /// How many of `few` are in use.
    len: usize,
    many: QuickSet<&'a str>,
}

impl Default for Seen<'_> {
    fn default() -> Self {
        Seen {
            few: [""; FEW],
            len: 0,
            many: QuickSet::default(),
        }
    }
}

impl<'a> Seen<'a> {
    /// Whether `s` is met for the first time (and notes it).
    pub(super) fn insert(&mut self, s: &'a str) -> bool {
        if !self.many.is_empty() {
            return self.many.insert(s);
        }
        if self.listed().contains(&s) {
            return false;
        }
        match self.few.get_mut(self.len) {
            Some(slot) => {
                *slot = s;
                self.len += 1;
            }
            None => {
                self.many.extend(self.few.iter().copied());
                self.many.insert(s);
            }
        }
        true
    }

    /// The strings in the list, in the order met.
    fn listed(&self) -> &[&'a str] {
        self.few.get(..self.len).unwrap_or_default()
    }

    /// Whether `s` was met.
    pub(super) fn contains(&self, s: &str) -> bool {
        if self.many.is_empty() {
            self.listed().contains(&s)
        } else {
            self.many.contains(s)
        }
    }
}

/// Up to this many keys or ids, a list compared one by one finds one sooner than a hash table
/// (and needs no allocation).
const FEW: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seen_says_each_string_is_new_once_before_and_after_its_list_is_full() {
        let names: Vec<String> = (0..3 * FEW).map(|i| format!("id{i}")).collect();
        let mut seen = Seen::default();
        for (i, name) in names.iter().enumerate() {
            assert!(!seen.contains(name), "{name} is not met yet");
            assert!(seen.insert(name), "{name} is new");
            assert!(seen.contains(name), "{name} is met now");
            assert!(!seen.insert(name), "{name} was met just now");
            assert!(
                !seen.insert(&names[i / 2]),
                "{} was met before",
                names[i / 2]
            );
        }
        assert!(!seen.many.is_empty(), "more than FEW strings are hashed");
        assert_eq!(
            seen.many.len(),
            names.len(),
            "the table holds every string met"
        );
    }
}
