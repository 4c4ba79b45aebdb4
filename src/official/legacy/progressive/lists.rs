//! Lists that a flush of a surface fills and empties again, kept between flushes so that their
//! room is allocated once rather than at every step.

use serde_json::Value;

use super::surface::{Comp, Placeholder};

/// The lists of [`ProgressiveParser::flush_surface`](super::ProgressiveParser), empty between
/// flushes. Those that hold references while in use are kept as lists of `'static` ones (they
/// hold none while kept): a flush takes them as lists of shorter-lived references and hands
/// them back through [`emptied`].
#[derive(Debug, Default)]
pub(super) struct FlushLists {
    /// Ids whose emitted form is brought up to date.
    pub(super) candidates: Vec<String>,
    /// The components a step sends.
    pub(super) picked: Vec<&'static Comp>,
    /// The placeholders a step sends.
    pub(super) shown: Vec<&'static Placeholder>,
    /// The placeholders a step sends for the first time.
    pub(super) new_placeholders: Vec<&'static Placeholder>,
    /// What the message is made of: each component's emitted form and its JSON text.
    pub(super) items: Vec<(&'static Value, &'static str)>,
}

/// `list` emptied, its room kept, as a list of another item type of the same size (a list of
/// references of another lifetime). The items are dropped first, so nothing is converted: the
/// list is collected in place, in its own allocation.
pub(super) fn emptied<A, B>(mut list: Vec<A>) -> Vec<B> {
    list.clear();
    list.into_iter().filter_map(|_| None).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_emptied_list_keeps_its_room_as_a_list_of_other_references() {
        let text = String::from("x");
        let mut list: Vec<(&String, &str)> = Vec::with_capacity(10);
        list.push((&text, "x"));
        let at = list.as_ptr() as usize;
        let kept: Vec<(&'static String, &'static str)> = emptied(list);
        assert!(kept.is_empty());
        assert_eq!(kept.capacity(), 10);
        assert_eq!(kept.as_ptr() as usize, at);
    }
}
