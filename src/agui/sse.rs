//! Server-sent events: writing AG-UI events as `text/event-stream`, and reading them back.
//!
//! Each event is one `data: <json>\n\n` frame, with an `id:` line when it has a sequence number
//! ([`frame`]; JSON never contains a raw line break, so one `data:` line always suffices). While
//! a run is quiet, a server writes [`KEEP_ALIVE`], a comment frame, every
//! [`DEFAULT_KEEP_ALIVE`] or so, so that proxies and browsers keep the connection open.
//! [`SseReader`] reads a body back, in chunks cut anywhere.
//!
//! ```
//! use a2ui_stream::agui::{SseReader, sse};
//! use a2ui_stream::agui::events::{Event, RunStarted};
//!
//! let json = serde_json::to_string(&Event::from(RunStarted::new("t", "r"))).unwrap();
//! let body = sse::frame(&json, Some(1)) + sse::KEEP_ALIVE;
//! assert_eq!(body, "id: 1\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"protocolVersion\":\"1.0\"}\n\n: ping\n\n");
//!
//! let mut reader = SseReader::new();
//! let events: Vec<Event> = reader.feed(body.as_bytes()).into_iter().collect::<Result<_, _>>().unwrap();
//! assert_eq!(events, [Event::from(RunStarted::new("t", "r"))]);
//! assert_eq!(reader.last_event_id(), Some("1"));
//! ```

use super::events::Event;
use std::time::Duration;

/// The response headers an SSE endpoint needs: the media type, no caching, and no buffering by
/// nginx-style proxies (which would otherwise hold events back until the run ends).
///
/// ```
/// use a2ui_stream::agui::sse;
/// use std::collections::HashMap;
/// let headers: HashMap<_, _> = sse::HEADERS.into_iter().collect();
/// assert_eq!(headers["Content-Type"], "text/event-stream");
/// assert_eq!(headers["Cache-Control"], "no-cache");
/// assert_eq!(headers["X-Accel-Buffering"], "no");
/// ```
pub const HEADERS: [(&str, &str); 3] = [
    ("Content-Type", "text/event-stream"),
    ("Cache-Control", "no-cache"),
    ("X-Accel-Buffering", "no"),
];

/// The keep-alive frame: an SSE comment line, ignored by every reader.
///
/// ```
/// use a2ui_stream::agui::{sse, SseReader};
/// assert_eq!(sse::KEEP_ALIVE, ": ping\n\n");
/// // A comment frame: a reader skips it and yields no event.
/// assert!(SseReader::new().feed(sse::KEEP_ALIVE.as_bytes()).is_empty());
/// ```
pub const KEEP_ALIVE: &str = ": ping\n\n";

/// The keep-alive interval a server should use unless told otherwise: well under the idle
/// timeouts of common proxies (often 30 or 60 s).
///
/// ```
/// use a2ui_stream::agui::sse;
/// use std::time::Duration;
/// assert_eq!(sse::DEFAULT_KEEP_ALIVE, Duration::from_secs(15));
/// ```
pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Writes one event as an SSE frame, `data: <json>\n\n` (see [`frame`] for one with an id).
///
/// ```
/// use a2ui_stream::agui::sse;
/// use a2ui_stream::agui::events::StepStarted;
/// assert_eq!(sse::encode(&StepStarted::new("plan").into()).unwrap(),
///            "data: {\"type\":\"STEP_STARTED\",\"stepName\":\"plan\"}\n\n");
/// ```
pub fn encode(event: &Event) -> serde_json::Result<String> {
    Ok(frame(&serde_json::to_string(event)?, None))
}

/// The SSE frame of an event already written as JSON: `id: <id>` when there is one (the
/// sequence number a client sends back as `Last-Event-ID` to resume), then the JSON as `data:`,
/// then a blank line. Every frame this crate writes comes from here.
///
/// JSON written on several lines becomes one `data:` line per line, which a reader joins back
/// with line breaks.
///
/// ```
/// use a2ui_stream::agui::{sse, SseReader};
/// assert_eq!(sse::frame("{}", Some(3)), "id: 3\ndata: {}\n\n");
/// assert_eq!(sse::frame("{}", None), "data: {}\n\n");
/// assert_eq!(sse::frame("{\n}", Some(4)), "id: 4\ndata: {\ndata: }\n\n");
/// let json = r#"{"type":"STEP_STARTED","stepName":"plan"}"#;
/// let frames = SseReader::new().feed_frames(sse::frame(json, Some(7)).as_bytes());
/// assert_eq!(frames[0].as_ref().unwrap().id.as_deref(), Some("7"));
/// ```
pub fn frame(json: &str, id: Option<u64>) -> String {
    let mut out = String::with_capacity(json.len() + 32);
    if let Some(id) = id {
        out.push_str("id: ");
        out.push_str(&id.to_string());
        out.push('\n');
    }
    for line in json.split(['\r', '\n']) {
        out.push_str("data: ");
        out.push_str(line);
        out.push('\n');
    }
    out.push('\n');
    out
}

/// Reads a `Last-Event-ID` request header as the sequence number to resume after.
///
/// One rule: no header, or an empty one, means "from the start" (0: the whole run); a whole
/// number is the id of the last event the client saw; anything else is refused, since resuming
/// from a guess would skip or repeat events (a server answers it with 400).
///
/// ```
/// use a2ui_stream::agui::sse;
///
/// assert_eq!(sse::last_event_id(None), Ok(0));
/// assert_eq!(sse::last_event_id(Some(b" ")), Ok(0));
/// assert_eq!(sse::last_event_id(Some(b"42")), Ok(42));
/// let err = sse::last_event_id(Some(b"run-1:42")).unwrap_err();
/// assert_eq!(err.to_string(), "Last-Event-ID `run-1:42` is not an event id of this server (a whole number)");
/// ```
pub fn last_event_id(header: Option<&[u8]>) -> Result<u64, SseError> {
    let Some(raw) = header else { return Ok(0) };
    let text = String::from_utf8_lossy(raw);
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(0);
    }
    trimmed.parse().map_err(|_| {
        SseError::of(
            SseErrorKind::LastEventId,
            None,
            format!("Last-Event-ID `{trimmed}` is not an event id of this server (a whole number)"),
        )
    })
}

/// A problem found while reading an SSE body (at the byte of the body where the frame's line
/// starts, counting across chunks), or a `Last-Event-ID` header that is not an event id (no
/// offset).
///
/// ```
/// use a2ui_stream::agui::{SseErrorKind, SseReader};
/// let mut reader = SseReader::new();
/// let got = reader.feed(b": hello\n\ndata: {\"type\":\"NOPE\"}\n\n");
/// let err = got[0].as_ref().unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (SseErrorKind::InvalidEvent, Some(9)));
/// assert!(err.to_string().starts_with("at byte 9: data is not an AG-UI event"));
/// ```
pub type SseError = crate::Error<SseErrorKind>;

/// What went wrong while reading an SSE body or its `Last-Event-ID`.
///
/// ```
/// use a2ui_stream::agui::{SseErrorKind, SseReader, sse};
/// let got = SseReader::new().feed(b"data: \xFF\n\ndata: 42\n\n");
/// assert_eq!(got[0].as_ref().unwrap_err().kind(), SseErrorKind::InvalidUtf8);
/// assert_eq!(got[1].as_ref().unwrap_err().kind(), SseErrorKind::InvalidEvent);
/// assert_eq!(sse::last_event_id(Some(b"x")).unwrap_err().kind(), SseErrorKind::LastEventId);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SseErrorKind {
    /// A frame's data is not UTF-8.
    InvalidUtf8,
    /// A frame's data is not a JSON AG-UI event; the message says why.
    InvalidEvent,
    /// A line or frame grew beyond the configured limit.
    TooLarge {
        /// The configured limit in bytes.
        limit: usize,
    },
    /// A `Last-Event-ID` header is not a sequence number ([`last_event_id`]).
    LastEventId,
}

/// Incremental `text/event-stream` reader that yields AG-UI events.
///
/// Accepts LF, CRLF and CR line ends, several `data:` lines per frame (joined with `\n`),
/// comment lines, `id:` (kept as the stream's last event id, see [`feed_frames`](SseReader::feed_frames)),
/// other fields (`event:`, `retry:`, ignored), a leading byte-order mark,
/// and chunks split anywhere. Each byte is scanned once.
///
/// ```
/// use a2ui_stream::agui::SseReader;
/// use a2ui_stream::agui::events::EventType;
/// let mut r = SseReader::new();
/// let mut got = Vec::new();
/// for chunk in [": hi\r\nda", "ta: {\"type\":\"STEP_STARTED\",\r\n", "data: \"stepName\":\"a\"}\r", "\n\r\n"] {
///     got.extend(r.feed(chunk.as_bytes()));
/// }
/// assert_eq!(got.len(), 1);
/// assert_eq!(got[0].as_ref().unwrap().event_type(), EventType::StepStarted);
/// ```
#[derive(Debug)]
pub struct SseReader {
    buf: Vec<u8>,
    /// Offset in the body of `buf[0]`.
    base: u64,
    /// How far into `buf` has been scanned for a line end.
    scanned: usize,
    /// The previous chunk ended with CR, so a leading LF belongs to that line end.
    skip_lf: bool,
    /// Nothing has been read yet (a BOM may follow).
    at_start: bool,
    /// The rest of an over-long line is being dropped.
    skip_line: bool,
    data: Vec<u8>,
    has_data: bool,
    data_offset: u64,
    max_bytes: usize,
    /// The stream's last event id (the SSE standard's "last event ID buffer").
    last_id: Option<String>,
}

/// One event read from an SSE stream, with the stream's last event id when it was dispatched:
/// the id a client sends back as `Last-Event-ID` to resume after this event.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Frame {
    /// The last `id:` seen up to this event (an `id:` line persists until the next one).
    pub id: Option<String>,
    /// The event.
    pub event: Event,
}

impl Default for SseReader {
    fn default() -> Self {
        SseReader::new()
    }
}

impl SseReader {
    /// A reader with a 16 MiB limit per frame.
    ///
    /// ```
    /// use a2ui_stream::agui::SseReader;
    /// use a2ui_stream::agui::events::{Event, StepStarted};
    /// let mut reader = SseReader::new();
    /// assert!(reader.feed(b"data: {\"type\":\"STEP_STA").is_empty()); // frame not complete yet
    /// let got = reader.feed(b"RTED\",\"stepName\":\"plan\"}\n\n");
    /// assert_eq!(got, [Ok(Event::from(StepStarted::new("plan")))]);
    /// ```
    pub fn new() -> Self {
        SseReader::with_max_frame_bytes(16 << 20)
    }

    /// A reader that rejects lines and frames longer than `max` bytes.
    ///
    /// ```
    /// use a2ui_stream::agui::{SseErrorKind, SseReader};
    /// let mut reader = SseReader::with_max_frame_bytes(64);
    /// let big = format!("data: \"{}\"\n\n", "x".repeat(100));
    /// let small = "data: {\"type\":\"STEP_STARTED\",\"stepName\":\"a\"}\n\n";
    /// let got = reader.feed(format!("{big}{small}").as_bytes());
    /// assert_eq!(got[0].as_ref().unwrap_err().kind(), SseErrorKind::TooLarge { limit: 64 });
    /// assert!(got[1].is_ok()); // reading goes on with the next frame
    /// ```
    pub fn with_max_frame_bytes(max: usize) -> Self {
        SseReader {
            buf: Vec::new(),
            base: 0,
            scanned: 0,
            skip_lf: false,
            at_start: true,
            skip_line: false,
            data: Vec::new(),
            has_data: false,
            data_offset: 0,
            max_bytes: max,
            last_id: None,
        }
    }

    /// Reads a chunk; returns every event it completed, in order.
    ///
    /// ```
    /// use a2ui_stream::agui::SseReader;
    /// use a2ui_stream::agui::events::EventType;
    /// let body = b"data: {\"type\":\"STEP_STARTED\",\"stepName\":\"a\"}\n\ndata: {\"type\":\"STEP_FINISHED\",\"stepName\":\"a\"}\n\n";
    /// let (head, tail) = body.split_at(20);
    /// let mut reader = SseReader::new();
    /// assert!(reader.feed(head).is_empty()); // nothing complete yet
    /// let types: Vec<_> = reader.feed(tail).into_iter().map(|e| e.unwrap().event_type()).collect();
    /// assert_eq!(types, [EventType::StepStarted, EventType::StepFinished]);
    /// ```
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Result<Event, SseError>> {
        self.feed_frames(chunk)
            .into_iter()
            .map(|r| r.map(|f| f.event))
            .collect()
    }

    /// Reads a chunk like [`feed`](SseReader::feed), and says with each event the stream's last
    /// event id, as a client that resumes with `Last-Event-ID` needs.
    ///
    /// ```
    /// use a2ui_stream::agui::SseReader;
    /// let body = "id: 1\ndata: {\"type\":\"STEP_STARTED\",\"stepName\":\"a\"}\n\n\
    ///             data: {\"type\":\"STEP_FINISHED\",\"stepName\":\"a\"}\n\n\
    ///             id: 3\ndata: {\"type\":\"STEP_STARTED\",\"stepName\":\"b\"}\n\n";
    /// let mut reader = SseReader::new();
    /// let ids: Vec<_> = reader.feed_frames(body.as_bytes()).into_iter()
    ///     .map(|f| f.unwrap().id).collect();
    /// // An event without its own `id:` keeps the one before, as the SSE standard says.
    /// assert_eq!(ids, [Some("1".to_string()), Some("1".to_string()), Some("3".to_string())]);
    /// assert_eq!(reader.last_event_id(), Some("3"));
    /// ```
    pub fn feed_frames(&mut self, chunk: &[u8]) -> Vec<Result<Frame, SseError>> {
        let mut out = Vec::new();
        let mut chunk = chunk;
        if self.skip_lf && !chunk.is_empty() {
            self.skip_lf = false;
            if chunk.first() == Some(&b'\n') {
                chunk = chunk.get(1..).unwrap_or_default();
                self.base += 1;
            }
        }
        self.buf.extend_from_slice(chunk);
        if self.at_start {
            if self.buf.len() < 3 && b"\xEF\xBB\xBF".starts_with(&self.buf) {
                return out;
            }
            self.at_start = false;
            if self.buf.starts_with(b"\xEF\xBB\xBF") {
                self.buf.drain(..3);
                self.base += 3;
            }
        }
        if self.skip_line {
            match crate::find::find_either(b'\n', b'\r', &self.buf) {
                Some(i) => {
                    self.buf.drain(..i);
                    self.base += i as u64;
                    self.scanned = 0;
                    self.skip_line = false;
                }
                None => {
                    self.base += self.buf.len() as u64;
                    self.buf.clear();
                    self.scanned = 0;
                    return out;
                }
            }
        }
        let buf = std::mem::take(&mut self.buf);
        let mut start = 0;
        let mut scanned = self.scanned;
        while let Some(rel) =
            crate::find::find_either(b'\n', b'\r', buf.get(scanned..).unwrap_or_default())
        {
            let end = scanned + rel;
            let mut next = end + 1;
            if buf.get(end) == Some(&b'\r') {
                match buf.get(end + 1) {
                    Some(b'\n') => next += 1,
                    Some(_) => {}
                    None => self.skip_lf = true,
                }
            }
            let line = buf.get(start..end).unwrap_or_default();
            let offset = self.base + start as u64;
            // Measured as a line still waiting for its end is (below), so that where the
            // chunks were cut does not decide whether a line is too long.
            if line.len() > self.max_bytes {
                out.push(Err(self.too_large(offset)));
            } else if let Some(r) = self.line(line, offset) {
                out.push(r);
            }
            start = next.min(buf.len());
            scanned = start;
        }
        self.buf = buf;
        self.buf.drain(..start);
        self.base += start as u64;
        self.scanned = self.buf.len();
        if self.buf.len() > self.max_bytes {
            out.push(Err(self.too_large(self.base)));
            self.base += self.buf.len() as u64;
            self.buf.clear();
            self.scanned = 0;
            self.skip_line = true;
        }
        out
    }

    /// The stream's last event id: the value of the last `id:` line read, if any.
    ///
    /// ```
    /// use a2ui_stream::agui::SseReader;
    /// let mut reader = SseReader::new();
    /// reader.feed(b"id: run-1:4\n: ping\n\n");
    /// assert_eq!(reader.last_event_id(), Some("run-1:4"));
    /// ```
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    /// A line longer than the limit, starting at `offset`: the frame it is in is dropped.
    fn too_large(&mut self, offset: u64) -> SseError {
        self.data.clear();
        self.has_data = false;
        too_large(offset, self.max_bytes)
    }

    /// Handles one complete line (without its line end).
    fn line(&mut self, line: &[u8], offset: u64) -> Option<Result<Frame, SseError>> {
        if line.is_empty() {
            return self.dispatch();
        }
        if line.first() == Some(&b':') {
            return None;
        }
        let (field, value) = match crate::find::find_byte(b':', line) {
            Some(i) => {
                let value = line.get(i + 1..).unwrap_or_default();
                (
                    line.get(..i).unwrap_or_default(),
                    value.strip_prefix(b" ").unwrap_or(value),
                )
            }
            None => (line, &[][..]),
        };
        if field == b"id" {
            // The standard ignores an id holding NUL; an empty one clears the buffer.
            if !value.contains(&0) {
                self.last_id = match std::str::from_utf8(value) {
                    Ok("") => None,
                    Ok(id) => Some(id.to_owned()),
                    Err(_) => Some(String::from_utf8_lossy(value).into_owned()),
                };
            }
            return None;
        }
        if field == b"data" {
            if self.has_data {
                self.data.push(b'\n');
            } else {
                self.data_offset = offset;
            }
            self.has_data = true;
            self.data.extend_from_slice(value);
            if self.data.len() > self.max_bytes {
                self.data.clear();
                self.has_data = false;
                return Some(Err(too_large(offset, self.max_bytes)));
            }
        }
        None
    }

    fn dispatch(&mut self) -> Option<Result<Frame, SseError>> {
        if !self.has_data {
            return None;
        }
        self.has_data = false;
        let data = std::mem::take(&mut self.data);
        let offset = self.data_offset;
        Some(match std::str::from_utf8(&data) {
            Err(_) => Err(SseError::of(
                SseErrorKind::InvalidUtf8,
                Some(offset),
                "data is not UTF-8",
            )),
            Ok(text) => serde_json::from_str(text)
                .map(|event| Frame {
                    id: self.last_id.clone(),
                    event,
                })
                .map_err(|e| {
                    SseError::of(
                        SseErrorKind::InvalidEvent,
                        Some(offset),
                        format!("data is not an AG-UI event: {e}"),
                    )
                }),
        })
    }
}

/// A line or frame at `offset` longer than `limit` bytes.
fn too_large(offset: u64, limit: usize) -> SseError {
    SseError::of(
        SseErrorKind::TooLarge { limit },
        Some(offset),
        format!("frame exceeds the limit of {limit} bytes"),
    )
}

/// Reads a whole SSE body into events; stops at the first error.
///
/// ```
/// use a2ui_stream::agui::sse;
/// let events = sse::read_all(b"data: {\"type\":\"STEP_STARTED\",\"stepName\":\"a\"}\n\n: ping\n\n").unwrap();
/// assert_eq!(events.len(), 1);
/// ```
pub fn read_all(body: &[u8]) -> Result<Vec<Event>, SseError> {
    let mut reader = SseReader::new();
    reader.feed(body).into_iter().collect()
}
