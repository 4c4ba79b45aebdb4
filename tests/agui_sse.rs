//! SSE framing and reading.
#![cfg(feature = "agui")]

use a2ui_stream::agui::SseReader;
use a2ui_stream::agui::events::{Event, EventType, RunStarted, StepStarted, TextMessageContent};
use a2ui_stream::agui::sse::{self, HEADERS, KEEP_ALIVE, SseErrorKind};

#[test]
fn frame_format_is_data_json_blank_line_with_lf() {
    let ev: Event = TextMessageContent::new("m", "line one\nline two\r\n").into();
    let frame = sse::encode(&ev).unwrap();
    assert_eq!(
        frame,
        "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"line one\\nline two\\r\\n\"}\n\n"
    );
    // Exactly one line break pair, at the end: newlines in content are escaped in JSON.
    assert_eq!(frame.matches('\n').count(), 2);
    assert!(!frame.contains('\r'));
}

#[test]
fn headers() {
    assert_eq!(
        HEADERS,
        [
            ("Content-Type", "text/event-stream"),
            ("Cache-Control", "no-cache"),
            ("X-Accel-Buffering", "no")
        ]
    );
    assert_eq!(KEEP_ALIVE, ": ping\n\n");
}

#[test]
fn reader_handles_cr_lf_crlf_comments_fields_and_bom() {
    let body = "\u{feff}: hello\rid: 7\revent: message\rretry: 10\rdata: {\"type\":\"STEP_STARTED\",\r\ndata:\"stepName\":\"a\"}\n\n\n\n: ping\r\n\r\ndata: {\"type\":\"STEP_STARTED\",\"stepName\":\"b\"}\r\r";
    let events = sse::read_all(body.as_bytes()).unwrap();
    assert_eq!(
        events,
        [
            Event::from(StepStarted::new("a")),
            Event::from(StepStarted::new("b"))
        ]
    );
    // Byte by byte, including a CR at the end of one chunk and its LF at the start of the next.
    let mut r = SseReader::new();
    let mut got = Vec::new();
    for b in body.as_bytes() {
        got.extend(
            r.feed(std::slice::from_ref(b))
                .into_iter()
                .map(Result::unwrap),
        );
    }
    assert_eq!(got, events);
}

#[test]
fn reader_ignores_frames_without_data_and_an_unfinished_frame() {
    let mut r = SseReader::new();
    assert!(
        r.feed(b"event: x\n\n: c\n\ndata: {\"type\":\"STEP_STARTED\"")
            .is_empty()
    );
}

#[test]
fn reader_reports_bad_frames_and_goes_on() {
    let mut r = SseReader::new();
    let out = r.feed(b"data: {\"type\":\"NOPE\"}\n\ndata: \xff\n\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"protocolVersion\":\"1.0\"}\n\n");
    assert_eq!(out.len(), 3);
    let e0 = out[0].as_ref().unwrap_err();
    assert_eq!(e0.offset(), Some(0));
    assert_eq!(e0.kind(), SseErrorKind::InvalidEvent);
    assert!(e0.message().contains("NOPE"), "{e0}");
    let e1 = out[1].as_ref().unwrap_err();
    assert_eq!(e1.offset(), Some(23));
    assert_eq!(e1.kind(), SseErrorKind::InvalidUtf8);
    assert_eq!(e1.to_string(), "at byte 23: data is not UTF-8");
    assert_eq!(
        out[2].as_ref().unwrap(),
        &Event::from(RunStarted::new("t", "r"))
    );
}

#[test]
fn reader_limits_frame_size() {
    let mut r = SseReader::with_max_frame_bytes(16);
    let out = r.feed(b"data: 0123456789\ndata: 0123456789\n\n");
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0].as_ref().unwrap_err().kind(),
        SseErrorKind::TooLarge { limit: 16 }
    );
    let mut r = SseReader::with_max_frame_bytes(16);
    let out = r.feed(b"data: 0123456789abcdefgh");
    assert_eq!(
        out[0].as_ref().unwrap_err().to_string(),
        "at byte 0: frame exceeds the limit of 16 bytes"
    );
}

#[test]
fn unknown_fields_are_tolerated_and_absent_optionals_are_left_out() {
    let ev: Event = serde_json::from_str(
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m","futureField":1,"timestamp":1700000000000}"#,
    )
    .unwrap();
    assert_eq!(ev.event_type(), EventType::TextMessageStart);
    assert_eq!(ev.meta().timestamp, Some(1_700_000_000_000));
    let json = serde_json::to_string(&ev).unwrap();
    assert_eq!(
        json,
        r#"{"type":"TEXT_MESSAGE_START","timestamp":1700000000000,"messageId":"m"}"#
    );
    assert!(!json.contains("null"));
}

#[test]
fn reader_drops_the_rest_of_an_over_long_line() {
    let mut r = SseReader::with_max_frame_bytes(64);
    let mut out = r.feed(b"data: {\"type\":\"STEP_STARTED\",\"stepName\":\"");
    out.extend(r.feed(&[b'x'; 100]));
    out.extend(r.feed(
        b"data: not a frame\"}\n\ndata: {\"type\":\"STEP_STARTED\",\"stepName\":\"ok\"}\n\n",
    ));
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(
        out[0].as_ref().unwrap_err().kind(),
        SseErrorKind::TooLarge { limit: 64 }
    );
    assert_eq!(
        out[1].as_ref().unwrap(),
        &Event::from(StepStarted::new("ok"))
    );
}
