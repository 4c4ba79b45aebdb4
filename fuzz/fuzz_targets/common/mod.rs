//! What both fuzz targets share: feeding a splitter in given pieces, and the checks that hold for
//! any input.

use a2ui_stream::{Config, Error, Event, Message, Splitter};
use bytes::Bytes;

/// One observable outcome. Neighbouring text is merged: text may be cut anywhere.
#[derive(Debug, Clone, PartialEq)]
pub enum Out {
    Text(Vec<u8>),
    Message(Message),
    Error(Error),
}

/// Stream offsets where the input is cut, from fuzzer-chosen numbers.
pub fn cut_points(len: usize, cuts: &[u16]) -> Vec<usize> {
    let mut points: Vec<usize> = cuts.iter().map(|&c| c as usize % (len + 1)).collect();
    points.push(0);
    points.push(len);
    points.sort_unstable();
    points.dedup();
    points
}

/// Everything a splitter gives for `input` fed in pieces cut at `points` (sorted, from 0 to
/// the length), followed by `finish()`. With `copy`, chunks go through `feed` (copied);
/// otherwise through `feed_bytes` as slices of one shared buffer.
pub fn run(
    config: &Config,
    input: &Bytes,
    points: &[usize],
    copy: bool,
) -> Vec<Result<Event, Error>> {
    let mut s = Splitter::with_config(config.clone());
    let mut events = Vec::new();
    for w in points.windows(2) {
        if copy {
            events.extend(s.feed(&input[w[0]..w[1]]));
        } else {
            events.extend(s.feed_bytes(input.slice(w[0]..w[1])));
        }
    }
    events.extend(s.finish());
    events
}

pub fn merge(events: &[Result<Event, Error>]) -> Vec<Out> {
    let mut outs = Vec::new();
    for ev in events {
        match ev {
            Ok(Event::Text(t)) => match outs.last_mut() {
                Some(Out::Text(last)) => last.extend_from_slice(t),
                _ => outs.push(Out::Text(t.to_vec())),
            },
            Ok(Event::Message(m)) => outs.push(Out::Message(m.clone())),
            Err(e) => outs.push(Out::Error(e.clone())),
        }
    }
    outs
}

fn eq_ci(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.eq_ignore_ascii_case(y))
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Whether `t` holds an opening tag (`<a2ui-json` then `>` or whitespace), a closing tag
/// (`</a2ui-json`, at most 32 whitespace bytes, `>`) or the legacy delimiter, in any case.
pub fn contains_framing(t: &[u8]) -> bool {
    const OPEN: &[u8] = b"<a2ui-json";
    const CLOSE: &[u8] = b"</a2ui-json";
    const DELIMITER: &[u8] = b"---a2ui_json---";
    (0..t.len()).any(|i| {
        let rest = &t[i..];
        if rest.len() > OPEN.len() && eq_ci(&rest[..OPEN.len()], OPEN) {
            let next = rest[OPEN.len()];
            if next == b'>' || is_ws(next) {
                return true;
            }
        }
        if rest.len() > CLOSE.len() && eq_ci(&rest[..CLOSE.len()], CLOSE) {
            let after = &rest[CLOSE.len()..];
            let ws = after.iter().take_while(|&&b| is_ws(b)).count();
            if ws <= 32 && after.get(ws) == Some(&b'>') {
                return true;
            }
        }
        rest.len() >= DELIMITER.len() && eq_ci(&rest[..DELIMITER.len()], DELIMITER)
    })
}

/// Whether `part` lies inside `whole`'s memory (a zero-copy slice of it).
pub fn shares_memory(whole: &Bytes, part: &Bytes) -> bool {
    let start = whole.as_ptr() as usize;
    let p = part.as_ptr() as usize;
    !part.is_empty() && p >= start && p + part.len() <= start + whole.len()
}

/// Checks that hold whatever the input: every message is one valid JSON object that agrees with
/// its accessors, and a text event that is a slice of the input holds no tag or delimiter
/// (joined or copied text may be made of prose pieces from both sides of a removed block, so
/// only slices are checked).
pub fn check_events(config: &Config, input: &Bytes, events: &[Result<Event, Error>]) {
    for ev in events {
        match ev {
            Ok(Event::Message(m)) => check_message(m),
            Ok(Event::Text(t)) => {
                assert!(
                    config.framing == a2ui_stream::Framing::Tagged,
                    "text in bare framing: {t:?}"
                );
                assert!(!t.is_empty(), "empty text event");
                if shares_memory(input, t) {
                    assert!(
                        !contains_framing(t),
                        "framing token in text: {:?}",
                        String::from_utf8_lossy(t)
                    );
                }
            }
            Err(e) => {
                let offset = e.offset().expect("a splitter error has a place");
                assert!(offset <= input.len() as u64, "offset past the end: {e}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
}

pub fn check_message(m: &Message) {
    let text = std::str::from_utf8(m.as_bytes()).expect("message is UTF-8");
    assert_eq!(m.as_str(), text);
    let value: serde_json::Value = serde_json::from_slice(m.as_bytes())
        .unwrap_or_else(|e| panic!("message is not valid JSON ({e}): {text}"));
    let obj = value
        .as_object()
        .unwrap_or_else(|| panic!("message is not an object: {text}"));
    let kind = m.kind();
    if kind != a2ui_stream::MessageKind::Unknown {
        assert!(
            obj.contains_key(kind.key()),
            "{kind:?} without its key: {text}"
        );
    }
    if m.component_id().is_some() {
        assert!(kind.has_components(), "component id on {kind:?}: {text}");
        let list = obj
            .get(kind.key())
            .and_then(|b| b.get("components"))
            .and_then(|c| c.as_array())
            .unwrap_or_else(|| panic!("split component without a list: {text}"));
        assert_eq!(
            list.len(),
            1,
            "split component message holds {} components",
            list.len()
        );
        assert!(
            m.surface_id().is_some(),
            "split component without surface: {text}"
        );
        // What the accessors say is what the bytes say.
        let body = obj.get(kind.key());
        fn text_of(v: Option<&serde_json::Value>) -> Option<&str> {
            v.and_then(|v| v.as_str())
        }
        assert_eq!(
            text_of(list[0].get("id")),
            m.component_id(),
            "component id: {text}"
        );
        assert_eq!(
            text_of(body.and_then(|b| b.get("surfaceId"))),
            m.surface_id(),
            "surface id: {text}"
        );
        if kind == a2ui_stream::MessageKind::UpdateComponents {
            assert_eq!(text_of(obj.get("version")), m.version(), "version: {text}");
        }
    }
}
