//! A path into a JSON value, step by step, and the JSON Pointer it makes: what the direct-JSON
//! parser and the legacy data-model differ both say where a value they hand on sits.

/// One step of a path into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// To the member under this key.
    Key(String),
    /// To the item at this index.
    Index(usize),
}

/// The JSON Pointer of `steps` below `base` (a pointer itself; a trailing `/` is dropped): each
/// key escaped as RFC 6901 says (`~` as `~0`, `/` as `~1`).
pub(crate) fn pointer(base: &str, steps: &[Step]) -> String {
    use std::fmt::Write;
    let mut out = base.trim_end_matches('/').to_owned();
    for step in steps {
        out.push('/');
        match step {
            Step::Key(k) => {
                for c in k.chars() {
                    match c {
                        '~' => out.push_str("~0"),
                        '/' => out.push_str("~1"),
                        c => out.push(c),
                    }
                }
            }
            // Writing into a String cannot fail.
            Step::Index(i) => {
                let _ = write!(out, "{i}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_escaped_and_the_base_joined_once() {
        let steps = [Step::Key("a/b~c".into()), Step::Index(3)];
        assert_eq!(pointer("/items/", &steps), "/items/a~1b~0c/3");
        assert_eq!(pointer("", &steps), "/a~1b~0c/3");
        assert_eq!(pointer("/x", &[]), "/x");
    }
}
