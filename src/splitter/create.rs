//! A v1.0 `createSurface` that carries its first `components` inline: the surface goes out first,
//! as a message of its own, then each component as an `updateComponents` of it the moment the
//! component closes, and a `dataModel` written after the components as updates of the surface's
//! data model. The rules, and when the message goes out whole instead, are in the rustdoc of
//! [`Splitter`].
//!
//! Nothing here runs for other messages: the hooks are called only while a `createSurface` is
//! open ([`Current::create`]), and the lexer is driven exactly as for an `updateComponents`.

use super::*;
use crate::Version;
use crate::data::trim_front;

/// `{"version":` — how every message this module makes begins.
const VERSION: &[u8] = b"{\"version\":";

/// What became of a `dataModel` key read after the surface went out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum InlineData {
    /// None was read.
    #[default]
    None,
    /// Its key was read; no object opened as its value (yet).
    Key,
    /// Its object opened at this stream offset.
    Open(u64),
    /// It went out, in pieces or whole.
    Sent,
}

/// What the splitter keeps of a `createSurface` whose body opened.
#[derive(Debug)]
pub(super) struct Create {
    /// Stream offset of the body's `{`.
    body_open: u64,
    /// Stream offset of the body's `}`, once read.
    pub(super) body_close: Option<u64>,
    /// Stream offset of the opening quote of the body's `components` key.
    list_key: Option<u64>,
    /// Once the surface went out: the `deleteSurface` that would take it back, and where the raw
    /// `surfaceId` starts in it.
    retract: Option<(Message, usize)>,
    /// Something was read that the split messages cannot say: before the surface went out, the
    /// message goes out whole; after, it is taken back and the whole message follows.
    unsplittable: bool,
    /// The body's `catalogId` was read: a renderer can place the components.
    catalog: bool,
    data: InlineData,
}

impl Create {
    /// The body opened at stream offset `body_open`; `extra_keys`: the message had keys besides
    /// `version` before it.
    pub(super) fn new(body_open: u64, extra_keys: bool) -> Create {
        Create {
            body_open,
            body_close: None,
            list_key: None,
            retract: None,
            unsplittable: extra_keys,
            catalog: false,
            data: InlineData::None,
        }
    }

    /// The surface went out on its own.
    pub(super) fn sent(&self) -> bool {
        self.retract.is_some()
    }

    /// The surface went out and what followed can still be said by split messages.
    pub(super) fn streaming(&self) -> bool {
        self.sent() && !self.unsplittable
    }

    /// A key of the message object, read after the body opened. Only `version` may come there,
    /// and only before the surface went out (it then goes into the surface's message).
    pub(super) fn message_key(&mut self, name: &[u8]) {
        if self.sent() || name != b"version" {
            self.unsplittable = true;
        }
    }

    /// A key of the body, its opening quote at stream offset `at`: what the splitter reads it as.
    /// Before the surface went out every key but the list goes into the surface's message (a
    /// second list is read as the last one, which the split cannot say); after, only a first
    /// `dataModel` can still be said, as updates of the data model.
    pub(super) fn body_key(&mut self, name: &[u8], at: u64) -> Key {
        match name {
            b"components" if self.list_key.is_none() => {
                self.list_key = Some(at);
                return Key::Components;
            }
            b"dataModel" if self.streaming() && self.data == InlineData::None => {
                self.data = InlineData::Key;
                return Key::Data;
            }
            b"catalogId" => self.catalog = true,
            _ => {}
        }
        if self.sent() || name == b"components" {
            self.unsplittable = true;
        }
        if name == b"surfaceId" {
            Key::SurfaceId
        } else {
            Key::Other
        }
    }
}

impl Splitter {
    /// Whether a `createSurface`'s surface can go out: it is v1.0, its `surfaceId` and `version`
    /// are known and short enough to be copied into every piece, its `catalogId` is known (a
    /// renderer cannot place a component on a surface without its catalog) or the message
    /// closed, its list is the only one, and nothing read so far rules the split out.
    fn create_ready(&self) -> bool {
        let cur = &self.cur;
        let Some(c) = cur.create.as_deref() else {
            return false;
        };
        let short = |c: &Captured| c.raw.len() <= MAX_SPLIT_FIELD_BYTES;
        let v1_0 = cur.version.as_ref().is_some_and(|v| {
            short(v)
                && v.text()
                    .and_then(Version::from_tag)
                    .is_some_and(Version::inline_surface)
        });
        !c.sent()
            && !c.unsplittable
            && !cur.discard
            && c.list_key.is_some()
            && (c.catalog || c.body_close.is_some())
            && v1_0
            && cur.surface.as_ref().is_some_and(short)
    }

    /// Sends the surface, then the components waiting for it, when it can go out; `now` is the
    /// stream offset reached (`chunk` begins at stream offset `base`). Called when a component
    /// closed (the surface goes out before the first one) and when the message closed (the
    /// components waited for a `surfaceId` or `version` written after them).
    pub(super) fn release_create(&mut self, chunk: &[u8], base: u64, now: u64) {
        if self.cur.pending.is_empty() || !self.create_ready() {
            return;
        }
        let Some((surface, retract)) = self.surface_messages(chunk, base, now) else {
            return;
        };
        self.emit(surface);
        if let Some(c) = self.cur.create.as_mut() {
            c.retract = Some(retract);
        }
        self.cur.split = true;
        self.flush_pending(chunk, base);
    }

    /// The `createSurface` without its `components`, as read up to stream offset `now`: the body's
    /// members before the list and those read after it, verbatim, under the message's `version`.
    /// With it, the `deleteSurface` that would take the surface back.
    fn surface_messages(
        &self,
        chunk: &[u8],
        base: u64,
        now: u64,
    ) -> Option<(Message, (Message, usize))> {
        const BODY: &[u8] = b",\"createSurface\":{";
        const DELETE: &[u8] = b",\"deleteSurface\":{\"surfaceId\":";
        let cur = &self.cur;
        let c = cur.create.as_deref()?;
        let (version, surface, list_key) =
            (cur.version.as_ref()?, cur.surface.as_ref()?, c.list_key?);
        let prefix_from = c.body_open + 1;
        let before = self.parts(chunk, base, prefix_from, list_key);
        // After the list: from just past its `]` to the body's end, or to `now` if still open.
        let body_end = c.body_close.map_or(now, |close| close.min(now));
        let after_from = cur
            .array
            .1
            .map(|close| close + 1)
            .filter(|&a| a <= body_end);
        let after = after_from.map_or((&[][..], &[][..]), |from| {
            trim_front(self.parts(chunk, base, from, body_end))
        });
        let after_len = (after.0.len() + after.1.len()) as u64;
        let mut v = Vec::with_capacity(
            VERSION.len()
                + version.raw.len()
                + BODY.len()
                + before.0.len()
                + before.1.len()
                + 1
                + after_len as usize
                + 2,
        );
        v.extend_from_slice(VERSION);
        v.extend_from_slice(&version.raw);
        v.extend_from_slice(BODY);
        let before_at = v.len();
        v.extend_from_slice(before.0);
        v.extend_from_slice(before.1);
        // The separator between the last member and the list's key goes with the list.
        while v.len() > before_at && matches!(v.last(), Some(b' ' | b'\t' | b'\n' | b'\r' | b',')) {
            v.pop();
        }
        if v.len() > before_at && after_len > 0 {
            v.push(b',');
        }
        let after_at = v.len();
        v.extend_from_slice(after.0);
        v.extend_from_slice(after.1);
        v.extend_from_slice(b"}}");
        // Where the raw `surfaceId` lies in the message (before the list or after it).
        let surface_at = if surface.at < list_key {
            surface
                .at
                .checked_sub(prefix_from)
                .map(|d| before_at + d as usize)
        } else {
            let trimmed_from = body_end.checked_sub(after_len)?;
            surface
                .at
                .checked_sub(trimmed_from)
                .map(|d| after_at + d as usize)
        };
        let created = Message {
            bytes: Bytes::from(v),
            kind: MessageKind::CreateSurface,
            version: version.field(Some(VERSION.len())),
            surface_id: surface.field(surface_at),
            component_id: Field::None,
        };
        let mut d = Vec::with_capacity(
            VERSION.len() + version.raw.len() + DELETE.len() + surface.raw.len() + 2,
        );
        d.extend_from_slice(VERSION);
        d.extend_from_slice(&version.raw);
        d.extend_from_slice(DELETE);
        let delete_at = d.len();
        d.extend_from_slice(&surface.raw);
        d.extend_from_slice(b"}}");
        let deleted = Message {
            bytes: Bytes::from(d),
            kind: MessageKind::DeleteSurface,
            version: version.field(Some(VERSION.len())),
            surface_id: surface.field(Some(delete_at)),
            component_id: Field::None,
        };
        Some((created, (deleted, delete_at)))
    }

    /// The value of a `dataModel` read after the surface went out opened at stream offset `at`:
    /// an object is split as an `updateDataModel` of the root would be; anything else cannot be
    /// said by an update of the data model.
    #[inline(never)]
    pub(super) fn start_inline_data(&mut self, object: bool, at: u64) {
        let Some(c) = self.cur.create.as_mut() else {
            return;
        };
        if c.data != InlineData::Key || !c.streaming() {
            return;
        }
        if !object {
            c.unsplittable = true;
            return;
        }
        c.data = InlineData::Open(at);
        let max = self.config.split_data_depth;
        if max == 0 || self.cur.discard {
            // It goes out whole when it closes.
            return;
        }
        let cur = &self.cur;
        let (Some(surface), Some(version)) = (&cur.surface, &cur.version) else {
            return;
        };
        let mut pieces = std::mem::take(&mut self.pieces);
        let split = DataSplit::start(
            MessageKind::UpdateDataModel,
            &surface.raw,
            Some(&version.raw),
            b"\"/\"",
            false,
            DATA_DEPTH,
            at + 1,
            max,
            self.config.max_split_data_entries,
            &mut pieces,
        );
        self.install_data(split, pieces);
    }

    /// The `dataModel` read after the surface went out closed just before stream offset `end`.
    /// Unless its pieces said all of it, it goes out whole, as the value of the data model's root:
    /// `{"version":V,"updateDataModel":{"surfaceId":S,"path":"/","value":D}}`.
    #[inline(never)]
    pub(super) fn end_inline_data(&mut self, chunk: &[u8], base: u64, end: u64) {
        let Some(c) = self.cur.create.as_mut() else {
            return;
        };
        let InlineData::Open(start) = c.data else {
            return;
        };
        c.data = InlineData::Sent;
        let said = self.cur.data.as_ref().is_some_and(|d| !d.whole);
        self.end_data();
        if said || self.cur.discard {
            return;
        }
        const BODY: &[u8] = b",\"updateDataModel\":{\"surfaceId\":";
        const VALUE: &[u8] = b",\"path\":\"/\",\"value\":";
        let cur = &self.cur;
        let (Some(surface), Some(version)) = (&cur.surface, &cur.version) else {
            return;
        };
        let value = self.parts(chunk, base, start, end);
        let mut v = Vec::with_capacity(
            VERSION.len()
                + version.raw.len()
                + BODY.len()
                + surface.raw.len()
                + VALUE.len()
                + value.0.len()
                + value.1.len()
                + 2,
        );
        v.extend_from_slice(VERSION);
        v.extend_from_slice(&version.raw);
        v.extend_from_slice(BODY);
        let surface_at = v.len();
        v.extend_from_slice(&surface.raw);
        v.extend_from_slice(VALUE);
        v.extend_from_slice(value.0);
        v.extend_from_slice(value.1);
        v.extend_from_slice(b"}}");
        let message = Message {
            bytes: Bytes::from(v),
            kind: MessageKind::UpdateDataModel,
            version: version.field(Some(VERSION.len())),
            surface_id: surface.field(Some(surface_at)),
            component_id: Field::None,
        };
        self.emit(message);
    }

    /// A `createSurface` whose surface went out closed just before stream offset `end`. When it
    /// held something the split messages could not say, the surface is taken back and the whole
    /// message follows, so a renderer ends where the whole message leaves it.
    #[inline(never)]
    pub(super) fn create_done(&mut self, cur: &Current, chunk: &Chunk<'_>, base: u64, end: u64) {
        let Some(c) = cur.create.as_deref() else {
            return;
        };
        // A `dataModel` whose value was no object is not said by the pieces either.
        if !c.unsplittable && c.data != InlineData::Key {
            return;
        }
        if let Some((retract, at)) = &c.retract {
            let bytes = retract.as_bytes();
            self.sent.forget(
                bytes
                    .get(*at..bytes.len().saturating_sub(2))
                    .unwrap_or_default(),
            );
            self.emit(retract.clone());
        }
        let whole = self.whole_message(cur, chunk, base, end);
        self.emit(whole);
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Event, MessageKind, Splitter};

    /// Every message of `input` (bare framing), fed `size` bytes at a time, as JSON text with
    /// its kind; panics on an error.
    fn split(input: &str, size: usize, config: Config) -> Vec<(MessageKind, String)> {
        let mut s = Splitter::with_config(config);
        let mut out = Vec::new();
        let mut take = |e: Result<Event, crate::Error>| match e {
            Ok(Event::Message(m)) => out.push((m.kind(), m.as_str().to_owned())),
            other => panic!("{other:?}"),
        };
        for chunk in input.as_bytes().chunks(size.max(1)) {
            s.feed(chunk).for_each(&mut take);
        }
        s.finish().for_each(&mut take);
        out
    }

    fn texts(input: &str) -> Vec<String> {
        let one = split(input, usize::MAX, Config::bare());
        for size in [1, 2, 3, 7, 16] {
            assert_eq!(split(input, size, Config::bare()), one, "chunks of {size}");
        }
        one.into_iter().map(|(_, t)| t).collect()
    }

    const A: &str = r#"{"id":"root","component":"Column","children":["t"]}"#;
    const B: &str = r#"{"id":"t","component":"Text","text":"Hi"}"#;

    fn update(component: &str) -> String {
        format!(
            r#"{{"version":"v1.0","updateComponents":{{"surfaceId":"s","components":[{component}]}}}}"#
        )
    }

    #[test]
    fn the_surface_goes_out_first_then_each_component() {
        let input = format!(
            r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"c","sendDataModel":true,"components":[{A}, {B}]}}}}"#
        );
        assert_eq!(
            texts(&input),
            [
                r#"{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"c","sendDataModel":true}}"#.to_owned(),
                update(A),
                update(B),
            ]
        );
        let kinds: Vec<_> = split(&input, 4, Config::bare())
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        use MessageKind::*;
        assert_eq!(kinds, [CreateSurface, UpdateComponents, UpdateComponents]);
    }

    #[test]
    fn the_first_component_goes_out_before_the_second_is_written() {
        let mut s = Splitter::with_config(Config::bare());
        let head = format!(
            r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A},{{"id":"t","comp"#
        );
        let out: Vec<_> = s.feed(head.as_bytes()).map(Result::unwrap).collect();
        let [Event::Message(created), Event::Message(first)] = &out[..] else {
            panic!("{out:?}")
        };
        assert_eq!(
            created.as_str(),
            r#"{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"c"}}"#
        );
        assert_eq!(created.surface_id(), Some("s"));
        assert_eq!(created.version(), Some("v1.0"));
        assert_eq!(first.component_id(), Some("root"));
        assert_eq!(first.surface_id(), Some("s"));
    }

    #[test]
    fn members_around_the_list_stay_with_the_surface_verbatim() {
        // Spaced out, the list between members, a data model before it, an escaped surface id.
        let input = format!(
            "{{ \"version\" : \"v1.0\" , \"createSurface\" : {{ \"surfaceId\" : \"a\\u002fb\" ,\n \"dataModel\" : {{\"n\": [1, 2]}} ,\n \"components\" : [ {A} ] }} }}"
        );
        let out = texts(&input);
        assert_eq!(
            out[0],
            "{\"version\":\"v1.0\",\"createSurface\":{ \"surfaceId\" : \"a\\u002fb\" ,\n \"dataModel\" : {\"n\": [1, 2]}}}"
        );
        let mut s = Splitter::with_config(Config::bare());
        let first = s.feed(input.as_bytes()).next().unwrap().unwrap();
        let Event::Message(m) = first else { panic!() };
        assert_eq!(m.surface_id(), Some("a/b"));
    }

    #[test]
    fn components_before_the_surface_id_wait_for_the_message_to_close() {
        let input = format!(
            r#"{{"version":"v1.0","createSurface":{{"components":[{A},{B}], "surfaceId":"s" ,"catalogId":"c"}}}}"#
        );
        let mut s = Splitter::with_config(Config::bare());
        let cut = input.find(r#""catalogId""#).unwrap();
        // Nothing goes out before the message closed: a key after the surface id may still come.
        assert_eq!(s.feed(&input.as_bytes()[..cut]).count(), 0);
        let Some(Ok(Event::Message(created))) = s.feed(&input.as_bytes()[cut..]).next() else {
            panic!()
        };
        assert_eq!(created.surface_id(), Some("s"));
        assert_eq!(created.version(), Some("v1.0"));
        assert_eq!(
            texts(&input),
            [
                r#"{"version":"v1.0","createSurface":{"surfaceId":"s" ,"catalogId":"c"}}"#
                    .to_owned(),
                update(A),
                update(B),
            ]
        );
    }

    #[test]
    fn a_version_after_the_body_releases_the_components() {
        let input = format!(
            r#"{{"createSurface":{{"surfaceId":"s","components":[{A}],"catalogId":"c"}},"version":"v1.0"}}"#
        );
        assert_eq!(
            texts(&input),
            [
                r#"{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"c"}}"#
                    .to_owned(),
                update(A),
            ]
        );
    }

    #[test]
    fn a_data_model_after_the_list_goes_out_as_updates_of_the_root() {
        let input = format!(
            r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}],"dataModel":{{"title":"Hi","items":[{{"n":1}}]}}}}}}"#
        );
        let data = |path: &str, value: &str| {
            format!(
                r#"{{"version":"v1.0","updateDataModel":{{"surfaceId":"s","path":"{path}","value":{value}}}}}"#
            )
        };
        assert_eq!(
            texts(&input),
            [
                r#"{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"c"}}"#
                    .to_owned(),
                update(A),
                data("/", "{}"),
                data("/title", r#""Hi""#),
                data("/items", "[]"),
                data("/items/0", r#"{"n":1}"#),
            ]
        );
        // Not split (depth 0), or with a member no piece can say: whole, at the root.
        let whole = r#"{"title":"Hi","items":[{"n":1}]}"#;
        let off = Config {
            split_data_depth: 0,
            ..Config::bare()
        };
        let out = split(&input, 5, off);
        assert_eq!(out.len(), 3);
        assert_eq!(out[2], (MessageKind::UpdateDataModel, data("/", whole)));
        let with_null = input.replace(r#""title":"Hi""#, r#""title":null"#);
        let out = texts(&with_null);
        assert_eq!(
            out.last().unwrap(),
            &data("/", &whole.replace(r#""Hi""#, "null"))
        );
    }

    #[test]
    fn what_no_split_can_say_keeps_the_message_whole() {
        for input in [
            // v0.9, no version, an unknown version, a version too long to copy.
            format!(
                r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}]}}}}"#
            ),
            format!(r#"{{"createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}]}}}}"#),
            format!(
                r#"{{"version":"v1.1","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}]}}}}"#
            ),
            // No surface id; an empty list; no list; a list that is not one.
            format!(r#"{{"version":"v1.0","createSurface":{{"components":[{A}]}}}}"#),
            r#"{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"c","components":[]}}"#.to_owned(),
            r#"{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"c"}}"#.to_owned(),
            r#"{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"c","components":{}}}"#.to_owned(),
            // A key of the message besides version; two lists (the last one counts).
            format!(
                r#"{{"note":1,"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}]}}}}"#
            ),
            format!(
                r#"{{"version":"v1.0","createSurface":{{"components":[{A}],"surfaceId":"s","catalogId":"c","components":[{B}]}}}}"#
            ),
            format!(
                r#"{{"createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}]}},"version":"v1.0","note":1}}"#
            ),
        ] {
            assert_eq!(texts(&input), [input.as_str()], "{input}");
        }
        let long = "s".repeat(crate::MAX_SPLIT_FIELD_BYTES);
        let input = format!(
            r#"{{"version":"v1.0","createSurface":{{"surfaceId":"{long}","components":[{A}]}}}}"#
        );
        assert_eq!(texts(&input), [input.as_str()]);
    }

    #[test]
    fn what_comes_after_the_surface_went_out_and_no_split_can_say_takes_it_back() {
        let delete = r#"{"version":"v1.0","deleteSurface":{"surfaceId":"s"}}"#;
        for (input, split_out) in [
            // A member after the list; a data model that is not an object; a message key after
            // the body; a second data model; a second list.
            (
                format!(
                    r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}],"theme":{{}}}}}}"#
                ),
                2,
            ),
            (
                format!(
                    r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}],"dataModel":[1]}}}}"#
                ),
                2,
            ),
            (
                format!(
                    r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}],"dataModel":"x"}}}}"#
                ),
                2,
            ),
            (
                format!(
                    r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}]}},"note":{{}}}}"#
                ),
                2,
            ),
            (
                format!(
                    r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}],"dataModel":{{}},"dataModel":{{}}}}}}"#
                ),
                3,
            ),
            (
                format!(
                    r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}],"components":[{B}]}}}}"#
                ),
                2,
            ),
        ] {
            let out = texts(&input);
            assert_eq!(out.len(), split_out + 2, "{out:?}");
            assert_eq!(out[split_out], delete, "{input}");
            assert_eq!(out[split_out + 1], input);
        }
        // Taken back, the surface's components are forgotten: re-sent, they go out again.
        let input = format!(
            r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A}],"theme":{{}}}}}}{}"#,
            update(A)
        );
        assert_eq!(texts(&input).last().unwrap(), &update(A));
    }

    #[test]
    fn repeats_and_other_messages_are_as_before() {
        // A component repeated on the surface is sent once, as for `updateComponents`.
        let input = format!(
            r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s","catalogId":"c","components":[{A},{A}]}}}}{}"#,
            update(A)
        );
        assert_eq!(texts(&input).len(), 2);
        // A v1.0 createSurface without a list is one message, sharing the chunk's memory.
        let chunk = bytes::Bytes::from_static(
            br#"{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"c"}}"#,
        );
        let mut s = Splitter::with_config(Config::bare());
        let Some(Ok(Event::Message(m))) = s.feed_bytes(chunk.clone()).next() else {
            panic!()
        };
        assert_eq!(m.as_bytes().as_ptr(), chunk.as_ptr());
    }
}
