//! One test per framing rule and per error: input, expected text, messages and errors.

use a2ui_stream::{
    Config, Error, ErrorKind, Event, Framing, MAX_SPLIT_FIELD_BYTES, MessageKind, Splitter,
};

#[derive(Debug, Default, PartialEq)]
struct Outcome {
    text: String,
    messages: Vec<String>,
    errors: Vec<(u64, ErrorKind)>,
}

fn split_with(config: Config, input: &[u8]) -> Outcome {
    // Fed whole and one byte at a time: both must agree.
    let mut whole = Splitter::with_config(config.clone());
    let mut a = collect(whole.feed(input));
    a = merge(a, collect(whole.finish()));
    let mut bytewise = Splitter::with_config(config);
    let mut b = Outcome::default();
    for byte in input.chunks(1) {
        b = merge(b, collect(bytewise.feed(byte)));
    }
    b = merge(b, collect(bytewise.finish()));
    assert_eq!(a, b, "one-shot and byte-at-a-time disagree");
    a
}

fn split(input: &str) -> Outcome {
    split_with(Config::default(), input.as_bytes())
}

fn collect(events: impl Iterator<Item = Result<Event, Error>>) -> Outcome {
    let mut o = Outcome::default();
    for e in events {
        match e {
            Ok(Event::Text(t)) => o
                .text
                .push_str(std::str::from_utf8(&t).expect("text is whole characters")),
            Ok(Event::Message(m)) => o.messages.push(m.as_str().to_owned()),
            Err(e) => o
                .errors
                .push((e.offset().expect("a splitter error has a place"), e.kind())),
        }
    }
    o
}

fn merge(mut a: Outcome, b: Outcome) -> Outcome {
    a.text.push_str(&b.text);
    a.messages.extend(b.messages);
    a.errors.extend(b.errors);
    a
}

const BR: &str = r#"{"beginRendering":{"surfaceId":"s","root":"r"}}"#;

fn ok(text: &str, messages: &[&str]) -> Outcome {
    Outcome {
        text: text.into(),
        messages: messages.iter().map(|m| m.to_string()).collect(),
        errors: vec![],
    }
}

// ---- framing ----

#[test]
fn prose_only_is_text() {
    assert_eq!(
        split("Just words, a < b - c `d`."),
        ok("Just words, a < b - c `d`.", &[])
    );
}

#[test]
fn tagged_block_between_prose() {
    assert_eq!(
        split(&format!("Before <a2ui-json>{BR}</a2ui-json> after")),
        ok("Before  after", &[BR])
    );
}

#[test]
fn tag_names_are_case_insensitive_and_take_attributes() {
    let input = format!("<A2UI-Json version=\"0.8\" note='a>b'>{BR}</A2UI-JSON >");
    assert_eq!(split(&input), ok("", &[BR]));
}

#[test]
fn several_blocks() {
    let input = format!("a<a2ui-json>{BR}</a2ui-json>b<a2ui-json>[{BR},{BR}]</a2ui-json>c");
    assert_eq!(split(&input), ok("abc", &[BR, BR, BR]));
}

#[test]
fn legacy_delimiter_makes_the_rest_json() {
    assert_eq!(
        split(&format!("Here:\n---a2ui_JSON---\n[{BR}]\n")),
        ok("Here:\n", &[BR])
    );
}

#[test]
fn fences_inside_a_block_are_dropped() {
    let input = format!("<a2ui-json>\n```json\n[{BR}]\n```\n</a2ui-json>");
    assert_eq!(split(&input), ok("", &[BR]));
}

#[test]
fn fences_around_a_block_are_dropped() {
    let input = format!("See:\n```json\n<a2ui-json>{BR}</a2ui-json>\n```\nDone");
    assert_eq!(split(&input), ok("See:\n\nDone", &[BR]));
}

#[test]
fn other_fences_stay_text() {
    let input = "```python\nprint('<a2ui')\n```\n";
    assert_eq!(split(input), ok(input, &[]));
}

#[test]
fn stray_closing_tag_is_not_text() {
    assert_eq!(split("a</a2ui-json>b"), ok("ab", &[]));
}

#[test]
fn tag_like_text_inside_strings_is_content() {
    let m = r#"{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"k","valueString":"</a2ui-json> ``` ---a2ui_JSON--- {["}]}}"#;
    assert_eq!(split(&format!("<a2ui-json>{m}</a2ui-json>")), ok("", &[m]));
}

#[test]
fn almost_tags_are_text() {
    let input = "<a2ui-jsonx> <a2ui -- ---a2ui_json-- ``` <";
    assert_eq!(split(input), ok(input, &[]));
}

#[test]
fn text_is_never_cut_inside_a_character() {
    // `collect` decodes every Text event on its own: a cut character would fail there.
    let input = "caf\u{e9} \u{1F37D} \u{4e2d}\u{6587}<a2ui-json></a2ui-json>\u{e9}";
    assert_eq!(
        split(input),
        ok("caf\u{e9} \u{1F37D} \u{4e2d}\u{6587}\u{e9}", &[])
    );
}

#[test]
fn bare_framing_array_lines_and_concatenation() {
    for input in [
        format!("[{BR},\n{BR}]"),
        format!("{BR}\n{BR}\n"),
        format!("{BR}{BR}"),
        format!(" {BR} {BR}"),
    ] {
        assert_eq!(
            split_with(Config::bare(), input.as_bytes()),
            ok("", &[BR, BR]),
            "{input}"
        );
    }
}

#[test]
fn bare_framing_accepts_a_fenced_payload() {
    let input = format!("```json\n{BR}\n```");
    assert_eq!(split_with(Config::bare(), input.as_bytes()), ok("", &[BR]));
}

// ---- splitting ----

#[test]
fn surface_update_components_go_out_one_by_one() {
    let input = r#"<a2ui-json>{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":{"literalString":"}"}}}},{"id":"b","component":{}}]}}</a2ui-json>"#;
    assert_eq!(
        split(input),
        ok(
            "",
            &[
                r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":{"literalString":"}"}}}}]}}"#,
                r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"b","component":{}}]}}"#,
            ]
        )
    );
}

#[test]
fn first_component_arrives_before_the_message_ends() {
    let mut s = Splitter::new();
    let first: Vec<_> = s
        .feed(br#"<a2ui-json>{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{}},{"id":"b","#)
        .collect();
    assert_eq!(first.len(), 1);
    let Ok(Event::Message(m)) = &first[0] else {
        panic!("{first:?}")
    };
    assert_eq!(m.component_id(), Some("a"));
}

#[test]
fn update_components_keeps_version() {
    let input = r#"<a2ui-json>{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","text":"hi"}]}}</a2ui-json>"#;
    assert_eq!(
        split(input),
        ok(
            "",
            &[
                r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","text":"hi"}]}}"#
            ]
        )
    );
}

#[test]
fn components_before_surface_id_wait_for_it() {
    let input = r#"<a2ui-json>{"surfaceUpdate":{"components":[{"id":"a","component":{}},{"id":"b","component":{}}],"surfaceId":"s"}}</a2ui-json>"#;
    assert_eq!(
        split(input),
        ok(
            "",
            &[
                r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{}}]}}"#,
                r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"b","component":{}}]}}"#,
            ]
        )
    );
}

#[test]
fn components_before_version_wait_for_it() {
    let input = r#"{"updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Row"}]},"version":"v0.9"}"#;
    assert_eq!(
        split_with(Config::bare(), input.as_bytes()),
        ok(
            "",
            &[
                r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Row"}]}}"#
            ]
        )
    );
}

#[test]
fn without_surface_id_the_message_goes_out_whole() {
    let input = r#"{"surfaceUpdate":{"components":[{"id":"a","component":{}}]}}"#;
    assert_eq!(
        split_with(Config::bare(), input.as_bytes()),
        ok("", &[input])
    );
}

#[test]
fn other_keys_are_kept() {
    let input = r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{}}],"note":1},"meta":{"x":[1]}}"#;
    assert_eq!(
        split_with(Config::bare(), input.as_bytes()),
        ok(
            "",
            &[
                r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{}}]}}"#,
                r#"{"surfaceUpdate":{"surfaceId":"s","components":[],"note":1},"meta":{"x":[1]}}"#,
            ]
        )
    );
}

#[test]
fn repeated_identical_component_is_sent_once_changed_one_again() {
    let a = r#"{"id":"a","component":{"Text":{"text":"1"}}}"#;
    let a2 = r#"{"id":"a","component":{"Text":{"text":"2"}}}"#;
    let su = |c: &str, s: &str| {
        format!(r#"{{"surfaceUpdate":{{"surfaceId":"{s}","components":[{c}]}}}}"#)
    };
    let input = format!(
        "{}{}{}{}{}{}",
        su(a, "s"),
        su(a, "s"),
        su(a, "t"),
        su(a2, "s"),
        r#"{"deleteSurface":{"surfaceId":"s"}}"#,
        su(a2, "s")
    );
    let out = split_with(Config::bare(), input.as_bytes());
    assert_eq!(
        out.messages,
        [
            su(a, "s"),
            su(a, "t"),
            su(a2, "s"),
            r#"{"deleteSurface":{"surfaceId":"s"}}"#.to_string(),
            su(a2, "s")
        ]
    );
    let all = Config {
        dedup_components: false,
        ..Config::bare()
    };
    assert_eq!(split_with(all, input.as_bytes()).messages.len(), 6);
}

#[test]
fn component_ids_are_read_whatever_their_form_and_order() {
    // Plain, escaped, before `surfaceId` (the component waits), not a string, and absent.
    let input = r#"{"surfaceUpdate":{"components":[{"component":{},"id":"early"}],"surfaceId":"s"}}{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"plain","component":{}},{"id":"q\"\u00e9\\","component":{}},{"id":7,"component":{}},{"component":{"id":"inner"}},{"component":{},"id":"last"},{"id":"twice","component":{},"id":7}]}}"#;
    for chunk in [1, 3, input.len()] {
        let mut splitter = Splitter::with_config(Config::bare());
        let mut ids = Vec::new();
        for piece in input.as_bytes().chunks(chunk) {
            for event in splitter.feed(piece) {
                if let Ok(Event::Message(m)) = event {
                    ids.push(m.component_id().map(str::to_owned));
                }
            }
        }
        let want = [
            Some("early"),
            Some("plain"),
            Some("q\"\u{e9}\\"),
            None,
            None,
            Some("last"),
            // A later `id` replaces the first, even when it is not a string.
            None,
        ];
        assert_eq!(
            ids,
            want.map(|id| id.map(str::to_owned)),
            "chunks of {chunk}"
        );
    }
}

#[test]
fn accessors_read_version_and_surface_wherever_they_are() {
    // Keys in every order, escaped and plain values, and the rest of a split message (here its
    // `surfaceId` and `version` come after the list, so they move in the bytes handed out).
    let input = concat!(
        r#"{"updateComponents":{"components":[{"id":"a","component":"Row"}],"note":1,"surfaceId":"plain"},"version":"v0.9"}"#,
        r#"{"version":"v\u0030.9","updateComponents":{"surfaceId":"s\"1","components":[{"id":"b","component":"Row"}],"note":2}}"#,
        r#"{"surfaceUpdate":{"surfaceId":"old","components":[{"id":"c","component":{}}]},"version":"v0.8"}"#,
        r#"{"deleteSurface":{"surfaceId":"gone"}}"#,
    );
    let want = [
        (
            MessageKind::UpdateComponents,
            Some("v0.9"),
            Some("plain"),
            Some("a"),
        ),
        (
            MessageKind::UpdateComponents,
            Some("v0.9"),
            Some("plain"),
            None,
        ),
        (
            MessageKind::UpdateComponents,
            Some("v0.9"),
            Some("s\"1"),
            Some("b"),
        ),
        (
            MessageKind::UpdateComponents,
            Some("v0.9"),
            Some("s\"1"),
            None,
        ),
        // The component goes out as soon as `surfaceId` is known, before `version` comes.
        (MessageKind::SurfaceUpdate, None, Some("old"), Some("c")),
        (MessageKind::DeleteSurface, None, Some("gone"), None),
    ];
    for chunk in [1, 5, input.len()] {
        let mut splitter = Splitter::with_config(Config::bare());
        let mut got = Vec::new();
        for piece in input.as_bytes().chunks(chunk) {
            for event in splitter.feed(piece) {
                let Ok(Event::Message(m)) = event else {
                    panic!("{event:?}")
                };
                let text = |s: Option<&str>| s.map(str::to_owned);
                got.push((
                    m.kind(),
                    text(m.version()),
                    text(m.surface_id()),
                    text(m.component_id()),
                ));
            }
        }
        let want: Vec<_> = want
            .iter()
            .map(|&(k, v, s, c)| {
                (
                    k,
                    v.map(str::to_owned),
                    s.map(str::to_owned),
                    c.map(str::to_owned),
                )
            })
            .collect();
        assert_eq!(got, want, "chunks of {chunk}");
    }
}

#[test]
fn an_escaped_id_repeated_is_recognised() {
    let c = r#"{"id":"a\"b","component":{}}"#;
    let su = format!(r#"{{"surfaceUpdate":{{"surfaceId":"s","components":[{c},{c}]}}}}"#);
    let out = split_with(Config::bare(), su.as_bytes());
    assert_eq!(out.messages.len(), 1, "{out:?}");
}

#[test]
fn other_kinds_go_out_whole_with_accessors() {
    let cases = [
        (BR, MessageKind::BeginRendering, None),
        (
            r#"{"dataModelUpdate":{"surfaceId":"s","contents":[]}}"#,
            MessageKind::DataModelUpdate,
            None,
        ),
        (
            r#"{"deleteSurface":{"surfaceId":"s"}}"#,
            MessageKind::DeleteSurface,
            None,
        ),
        (
            r#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}"#,
            MessageKind::CreateSurface,
            Some("v0.9"),
        ),
        (
            r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{}}}"#,
            MessageKind::UpdateDataModel,
            Some("v0.9"),
        ),
        (
            r#"{"somethingNew":{"surfaceId":"s"}}"#,
            MessageKind::Unknown,
            None,
        ),
    ];
    for (json, kind, version) in cases {
        let mut s = Splitter::with_config(Config::bare());
        let events: Vec<_> = s.feed(json.as_bytes()).collect();
        let Ok(Event::Message(m)) = &events[0] else {
            panic!("{events:?}")
        };
        assert_eq!((m.as_str(), m.kind(), m.version()), (json, kind, version));
        let surface = if kind == MessageKind::Unknown {
            None
        } else {
            Some("s")
        };
        assert_eq!(m.surface_id(), surface);
    }
}

/// Kind, whether the surface id read is `want_sid`, length of the version read, component id.
type Seen = (MessageKind, bool, Option<usize>, Option<String>);

fn seen(input: &str, want_sid: &str) -> Vec<Seen> {
    let mut s = Splitter::with_config(Config::bare());
    let mut events: Vec<_> = s.feed(input.as_bytes()).collect();
    events.extend(s.finish());
    events
        .iter()
        .map(|e| match e {
            Ok(Event::Message(m)) => {
                assert!(m.to_value().is_ok(), "{}", m.as_str());
                (
                    m.kind(),
                    m.surface_id() == Some(want_sid),
                    m.version().map(str::len),
                    m.component_id().map(str::to_owned),
                )
            }
            other => panic!("{other:?}"),
        })
        .collect()
}

#[test]
fn a_surface_id_or_version_of_any_length_is_read_and_a_long_one_keeps_its_message_whole() {
    let comps = r#"[{"id":"a","component":{}},{"id":"b","component":{}}]"#;
    let su =
        |sid: &str| format!(r#"{{"surfaceUpdate":{{"surfaceId":"{sid}","components":{comps}}}}}"#);
    // Up to MAX_SPLIT_FIELD_BYTES of JSON text (quotes included), components go out one by one.
    let fits = "s".repeat(MAX_SPLIT_FIELD_BYTES - 2);
    let one_by_one: Vec<Seen> = ["a", "b"]
        .iter()
        .map(|id| (MessageKind::SurfaceUpdate, true, None, Some(id.to_string())))
        .collect();
    assert_eq!(seen(&su(&fits), &fits), one_by_one);
    // One byte more: the message goes out whole, and its surface id is still read.
    let over = "s".repeat(MAX_SPLIT_FIELD_BYTES - 1);
    assert_eq!(
        seen(&su(&over), &over),
        [(MessageKind::SurfaceUpdate, true, None, None)]
    );
    // Escaped, and with a long version: read decoded, the message whole; later messages on the
    // same surface are read too.
    let sid = "s\\u00e9".repeat(1500);
    let want_sid = "s\u{e9}".repeat(1500);
    let version = "v".repeat(5000);
    let input = format!(
        r#"{{"version":"{version}","updateComponents":{{"surfaceId":"{sid}","components":{comps}}}}} {{"deleteSurface":{{"surfaceId":"{sid}"}}}}"#
    );
    assert_eq!(
        seen(&input, &want_sid),
        [
            (MessageKind::UpdateComponents, true, Some(5000), None),
            (MessageKind::DeleteSurface, true, None, None),
        ]
    );
    // The same whole and byte by byte.
    let out = split_with(Config::bare(), input.as_bytes());
    assert_eq!((out.messages.len(), out.errors.len()), (2, 0), "{out:?}");
}

// ---- errors: each names the offset and the rule, and the next message still arrives ----

fn error_case(input: &str, offset: u64, kind: ErrorKind) {
    let out = split_with(Config::bare(), format!("{input} {BR}").as_bytes());
    assert_eq!(out.errors, [(offset, kind)], "{input}");
    assert_eq!(
        out.messages.last().map(String::as_str),
        Some(BR),
        "{input}: the next message was lost"
    );
}

#[test]
fn error_unexpected_byte() {
    error_case(
        r#"{"beginRendering": }"#,
        19,
        ErrorKind::UnexpectedByte {
            byte: b'}',
            expected: "a value",
        },
    );
    error_case(
        r#"{"a":1 "b":2}"#,
        7,
        ErrorKind::UnexpectedByte {
            byte: b'"',
            expected: "',' or '}'",
        },
    );
    error_case(
        "x",
        0,
        ErrorKind::UnexpectedByte {
            byte: b'x',
            expected: "a message object",
        },
    );
}

#[test]
fn error_not_an_object() {
    error_case(r#""just a string""#, 0, ErrorKind::NotAnObject);
}

#[test]
fn error_invalid_utf8() {
    let mut input = br#"{"a":"x"#.to_vec();
    input.push(0xff);
    input.extend_from_slice(format!("\"}} {BR}").as_bytes());
    let out = split_with(Config::bare(), &input);
    assert_eq!(out.errors, [(7, ErrorKind::InvalidUtf8)]);
    assert_eq!(out.messages, [BR]);
}

#[test]
fn error_control_character() {
    error_case(
        "{\"a\":\"line\nbreak\"}",
        10,
        ErrorKind::ControlCharacterInString,
    );
}

#[test]
fn error_invalid_escape() {
    error_case(r#"{"a":"\x"}"#, 7, ErrorKind::InvalidEscape);
}

#[test]
fn error_number_out_of_range() {
    error_case(r#"{"a":1e400}"#, 10, ErrorKind::NumberOutOfRange);
}

#[test]
fn error_message_too_large() {
    let config = Config {
        max_message_bytes: 64,
        ..Config::bare()
    };
    let big = format!(
        r#"{{"dataModelUpdate":{{"surfaceId":"s","contents":"{}"}}}}"#,
        "x".repeat(100)
    );
    let out = split_with(config, format!("{big}{BR}").as_bytes());
    assert_eq!(out.errors, [(64, ErrorKind::MessageTooLarge { limit: 64 })]);
    assert_eq!(out.messages, [BR]);
}

#[test]
fn error_too_deep() {
    let config = Config {
        max_depth: 4,
        ..Config::bare()
    };
    let out = split_with(config, format!(r#"{{"a":[[[[1]]]]}} {BR}"#).as_bytes());
    assert_eq!(out.errors, [(8, ErrorKind::TooDeep { limit: 4 })]);
    assert_eq!(out.messages, [BR]);
}

#[test]
fn error_held_text_too_long() {
    let config = Config {
        max_held_bytes: 32,
        ..Config::default()
    };
    let input = format!("<a2ui-json data='{}'>{BR}</a2ui-json>", "y".repeat(40));
    let out = split_with(config, input.as_bytes());
    assert_eq!(
        out.errors[0],
        (43, ErrorKind::HeldTextTooLong { limit: 32 })
    );
}

#[test]
fn error_unterminated_message_block_and_tag() {
    let out = split(r#"<a2ui-json>{"beginRendering":{"#);
    assert_eq!(
        out.errors,
        [(11, ErrorKind::Unterminated { what: "message" })]
    );
    let out = split(&format!("<a2ui-json>{BR}"));
    assert_eq!(
        out.errors,
        [(58, ErrorKind::Unterminated { what: "block" })]
    );
    let out = split("<a2ui-json a='1'");
    assert_eq!(out.errors, [(16, ErrorKind::Unterminated { what: "tag" })]);
}

#[test]
fn message_cut_by_closing_tag_resynchronises_to_prose() {
    let out = split(&format!(
        r#"<a2ui-json>{{"beginRendering":</a2ui-json> then <a2ui-json>{BR}</a2ui-json>"#
    ));
    assert_eq!(
        out.errors,
        [(
            29,
            ErrorKind::UnexpectedByte {
                byte: b'<',
                expected: "a value"
            }
        )]
    );
    assert_eq!(out.text, " then ");
    assert_eq!(out.messages, [BR]);
}

#[test]
fn resynchronisation_skips_to_the_next_message() {
    let input = format!(
        r#"[{{"surfaceUpdate":{{"surfaceId":"s","components":[{{"id":"a" "x"}}, {{"id":"b"}}]}}}}, {BR}]"#
    );
    let out = split_with(Config::bare(), input.as_bytes());
    assert_eq!(out.errors.len(), 1);
    assert_eq!(out.messages, [BR]);
}

#[test]
fn errors_display_offset_and_rule() {
    let mut s = Splitter::with_config(Config {
        framing: Framing::Bare,
        ..Config::default()
    });
    let e = s.feed(b"{]").next().unwrap().unwrap_err();
    assert_eq!(
        e.to_string(),
        "at byte 1: unexpected byte ']', expected a string key or '}'"
    );
}

#[test]
fn cut_utf8_character_is_reported_at_its_first_byte_wherever_the_cut_falls() {
    for input in [
        &b"{\"\xe9'"[..],
        b"{\"\xf0\x9f'",
        b"{\"a\":\"\xe2\x82\"}",
        b"{\"a\":\"\xed\xa0\x80\"}",
    ] {
        let out = split_with(Config::bare(), input);
        let lead = input.iter().position(|&b| b >= 0x80).unwrap() as u64;
        assert_eq!(out.errors[0], (lead, ErrorKind::InvalidUtf8), "{input:?}");
    }
}
