//! The async adapters give exactly what the sync splitter gives for the same chunks.
#![cfg(feature = "async")]

use a2ui_stream::stream::{A2uiCodec, SplitStream, SplitStreamExt, TrySplitError};
use a2ui_stream::{Config, Error, ErrorKind, Event, Splitter};
use bytes::{Bytes, BytesMut};
use futures::executor::block_on;
use futures::stream::{self, FusedStream, StreamExt};
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWriteExt, ReadBuf};
use tokio_util::codec::{Decoder, FramedRead};

/// A response with prose, two blocks (v0.8 and v0.9, one fenced), a broken message the splitter
/// reports and recovers from, and multi-byte text.
const RESPONSE: &str = concat!(
    "Here is the list, caf\u{e9} \u{1F37D}: <a2ui-json>[",
    r#"{"beginRendering":{"surfaceId":"main","root":"col"}},"#,
    r#"{"surfaceUpdate":{"surfaceId":"main","components":["#,
    r#"{"id":"col","component":{"Column":{"children":{"explicitList":["t1","t2"]}}}},"#,
    r#"{"id":"t1","component":{"Text":{"text":{"literalString":"braces { } and \"quotes\" </a2ui-json>"}}}},"#,
    r#"{"id":"t2","component":{"Text":{"text":{"literalString":"\u4e2d\u6587 \\ done"}}}}]}},"#,
    r#"{"dataModelUpdate":{"surfaceId":"main","contents":[{"key":"n","valueNumber":2.5}]}}"#,
    "]</a2ui-json> Then a broken one: <a2ui-json>{\"beginRendering\": } ",
    r#"{"deleteSurface":{"surfaceId":"old"}}</a2ui-json> and v0.9:"#,
    "<A2UI-JSON>\n```json\n",
    r#"{"version":"v0.9","createSurface":{"surfaceId":"s2","catalogId":"basic"}}"#,
    "\n",
    r#"{"updateComponents":{"surfaceId":"s2","components":[{"id":"a","component":"Text","text":"hi"}]},"version":"v0.9"}"#,
    "\n```\n</a2ui-json> Bye \u{4e2d}."
);

/// One observable outcome, neighbouring text merged (text may be cut anywhere).
#[derive(Debug, Clone, PartialEq)]
enum Out {
    Text(Vec<u8>),
    Message(Vec<u8>),
    Error(Error),
}

fn push(outs: &mut Vec<Out>, ev: Result<Event, Error>) {
    match ev {
        Ok(Event::Text(t)) => match outs.last_mut() {
            Some(Out::Text(last)) => last.extend_from_slice(&t),
            _ => outs.push(Out::Text(t.to_vec())),
        },
        Ok(Event::Message(m)) => outs.push(Out::Message(m.as_bytes().to_vec())),
        Err(e) => outs.push(Out::Error(e)),
    }
}

fn collect(events: impl IntoIterator<Item = Result<Event, Error>>) -> Vec<Out> {
    let mut outs = Vec::new();
    for ev in events {
        push(&mut outs, ev);
    }
    outs
}

/// The sync splitter's events for these chunks.
fn sync_events(config: &Config, chunks: &[&[u8]]) -> Vec<Result<Event, Error>> {
    let mut s = Splitter::with_config(config.clone());
    let mut all = Vec::new();
    for c in chunks {
        all.extend(s.feed(c));
    }
    all.extend(s.finish());
    all
}

/// What the sync splitter gives for these chunks.
fn sync_outs(config: &Config, chunks: &[&[u8]]) -> Vec<Out> {
    collect(sync_events(config, chunks))
}

fn chunks_of(input: &[u8], size: usize) -> Vec<&[u8]> {
    input.chunks(size).collect()
}

const SIZES: [usize; 7] = [1, 2, 3, 7, 16, 255, 1 << 16];

#[test]
fn sync_reference_is_meaningful() {
    let outs = sync_outs(&Config::default(), &[RESPONSE.as_bytes()]);
    let messages = outs.iter().filter(|o| matches!(o, Out::Message(_))).count();
    let errors: Vec<_> = outs
        .iter()
        .filter_map(|o| match o {
            Out::Error(e) => Some(e.kind()),
            _ => None,
        })
        .collect();
    // beginRendering, 3 components, dataModelUpdate, deleteSurface, createSurface, 1 component.
    assert_eq!(messages, 8, "{outs:?}");
    assert!(
        matches!(&errors[..], [ErrorKind::UnexpectedByte { byte: b'}', .. }]),
        "{errors:?}"
    );
}

#[test]
fn split_stream_matches_sync_for_every_chunk_type() {
    let config = Config::default();
    for size in SIZES {
        let chunks = chunks_of(RESPONSE.as_bytes(), size);
        let want = sync_outs(&config, &chunks);

        // The same events, not merely the same merged text: also the same number of them.
        let bytes = stream::iter(chunks.iter().map(|c| Bytes::copy_from_slice(c)));
        assert_eq!(
            block_on(bytes.split_a2ui().collect::<Vec<_>>()),
            sync_events(&config, &chunks)
        );

        let bytes = stream::iter(chunks.iter().map(|c| Bytes::copy_from_slice(c)));
        assert_eq!(
            collect(block_on(bytes.split_a2ui().collect::<Vec<_>>())),
            want
        );

        let vecs = stream::iter(chunks.iter().map(|c| c.to_vec()));
        assert_eq!(
            collect(block_on(
                SplitStream::new(vecs, Splitter::new()).collect::<Vec<_>>()
            )),
            want
        );
    }
    // `String` and `&'static str` chunks, cut at character boundaries.
    let mut cuts: Vec<usize> = RESPONSE.char_indices().map(|(i, _)| i).step_by(5).collect();
    cuts.push(RESPONSE.len());
    let strs: Vec<&'static str> = cuts.windows(2).map(|w| &RESPONSE[w[0]..w[1]]).collect();
    let byte_chunks: Vec<&[u8]> = strs.iter().map(|s| s.as_bytes()).collect();
    let want = sync_outs(&config, &byte_chunks);
    let owned = stream::iter(strs.iter().map(|s| s.to_string()));
    assert_eq!(
        collect(block_on(owned.split_a2ui().collect::<Vec<_>>())),
        want
    );
    let borrowed = stream::iter(strs.clone());
    assert_eq!(
        collect(block_on(borrowed.split_a2ui().collect::<Vec<_>>())),
        want
    );
}

#[test]
fn bare_config_through_the_stream() {
    let input = br#"[{"deleteSurface":{"surfaceId":"a"}},{"version":"v0.9","deleteSurface":{"surfaceId":"b"}},{"#;
    let config = Config::bare();
    for size in SIZES {
        let chunks = chunks_of(input, size);
        let want = sync_outs(&config, &chunks);
        assert!(matches!(want.last(), Some(Out::Error(_))), "{want:?}");
        let s = stream::iter(chunks.iter().map(|c| Bytes::copy_from_slice(c)));
        assert_eq!(
            collect(block_on(
                s.split_a2ui_with(config.clone()).collect::<Vec<_>>()
            )),
            want
        );
    }
}

#[test]
fn a_message_inside_one_chunk_shares_its_memory() {
    let chunk =
        Bytes::from_static(br#"<a2ui-json>{"deleteSurface":{"surfaceId":"s"}}</a2ui-json>"#);
    let events: Vec<_> = block_on(stream::iter([chunk.clone()]).split_a2ui().collect());
    let Some(Ok(Event::Message(m))) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!(m.as_bytes().as_ptr(), chunk[11..].as_ptr());
}

#[test]
fn stream_ends_once_and_is_fused() {
    let mut events = stream::iter(["<a2ui-json>{\"beginRendering\":{"]).split_a2ui();
    assert!(!events.is_terminated());
    let first = block_on(events.next());
    let Some(Err(e)) = first else {
        panic!("{first:?}")
    };
    assert_eq!(e.kind(), ErrorKind::Unterminated { what: "message" });
    assert_eq!(e.offset(), Some(11));
    assert!(events.is_terminated());
    assert!(block_on(events.next()).is_none());
    assert!(block_on(events.next()).is_none());
}

#[test]
fn try_split_stream_passes_source_errors_in_place() {
    let chunks = chunks_of(RESPONSE.as_bytes(), 9);
    let want = sync_outs(&Config::default(), &chunks);
    // A source error after every third chunk.
    let mut items: Vec<Result<&[u8], &str>> = Vec::new();
    for (i, c) in chunks.iter().enumerate() {
        items.push(Ok(c));
        if i % 3 == 2 {
            items.push(Err("flaky"));
        }
    }
    let got: Vec<_> = block_on(stream::iter(items).try_split_a2ui().collect());
    let source_errors = got
        .iter()
        .filter(|r| matches!(r, Err(TrySplitError::Source("flaky"))))
        .count();
    assert_eq!(source_errors, chunks.len() / 3);
    let events: Vec<Result<Event, Error>> = got
        .into_iter()
        .filter_map(|r| match r {
            Ok(ev) => Some(Ok(ev)),
            Err(TrySplitError::Split(e)) => Some(Err(e)),
            Err(TrySplitError::Source(_)) => None,
        })
        .collect();
    assert_eq!(collect(events), want);
}

#[test]
fn try_split_error_display_and_source() {
    let e: TrySplitError<io::Error> = TrySplitError::Source(io::Error::other("boom"));
    assert_eq!(e.to_string(), "chunk stream failed: boom");
    assert!(std::error::Error::source(&e).is_some());
}

/// An in-memory reader that hands out its chunks one per read.
struct ChunkedReader {
    chunks: Vec<Vec<u8>>,
    next: usize,
    offset: usize,
}

impl ChunkedReader {
    fn new(chunks: &[&[u8]]) -> Self {
        ChunkedReader {
            chunks: chunks.iter().map(|c| c.to_vec()).collect(),
            next: 0,
            offset: 0,
        }
    }
}

impl AsyncRead for ChunkedReader {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if let Some(chunk) = this.chunks.get(this.next) {
            let rest = &chunk[this.offset..];
            let n = rest.len().min(buf.remaining());
            buf.put_slice(&rest[..n]);
            this.offset += n;
            if this.offset == chunk.len() {
                this.next += 1;
                this.offset = 0;
            }
        }
        Poll::Ready(Ok(()))
    }
}

fn framed_outs(config: &Config, chunks: &[&[u8]]) -> Vec<Out> {
    let reader = ChunkedReader::new(chunks);
    let framed = FramedRead::new(reader, A2uiCodec::with_config(config.clone()));
    let items: Vec<io::Result<Result<Event, Error>>> = block_on(framed.collect());
    collect(items.into_iter().map(|r| match r {
        Ok(ev) => ev,
        Err(e) => panic!("reader failed: {e}"),
    }))
}

#[test]
fn framed_read_matches_sync() {
    for config in [Config::default(), Config::bare()] {
        for size in SIZES {
            let chunks = chunks_of(RESPONSE.as_bytes(), size);
            assert_eq!(
                framed_outs(&config, &chunks),
                sync_outs(&config, &chunks),
                "size {size}"
            );
        }
    }
    // A whole slice as the reader: everything arrives in one read.
    let whole: &[u8] = RESPONSE.as_bytes();
    let items: Vec<_> = block_on(FramedRead::new(whole, A2uiCodec::new()).collect());
    let events = items.into_iter().map(|r| match r {
        Ok(ev) => ev,
        Err(e) => panic!("reader failed: {e}"),
    });
    assert_eq!(
        collect(events),
        sync_outs(&Config::default(), &[RESPONSE.as_bytes()])
    );
}

#[tokio::test]
async fn framed_read_over_a_pipe_with_a_writer_task() {
    let (mut writer, reader) = tokio::io::duplex(32);
    let chunks = chunks_of(RESPONSE.as_bytes(), 13);
    let want = sync_outs(&Config::default(), &chunks);
    let owned: Vec<Vec<u8>> = chunks.iter().map(|c| c.to_vec()).collect();
    let write = tokio::spawn(async move {
        for c in owned {
            writer.write_all(&c).await?;
            tokio::task::yield_now().await;
        }
        writer.shutdown().await
    });
    let items: Vec<_> = FramedRead::new(reader, A2uiCodec::new()).collect().await;
    write.await.expect("writer task").expect("write");
    let events = items.into_iter().map(|r| match r {
        Ok(ev) => ev,
        Err(e) => panic!("reader failed: {e}"),
    });
    // Read sizes depend on scheduling; any split gives the same result.
    assert_eq!(collect(events), want);
}

#[tokio::test]
async fn split_stream_waits_for_pending_chunks() {
    let (tx, rx) = futures::channel::mpsc::unbounded::<Bytes>();
    let chunks = chunks_of(RESPONSE.as_bytes(), 17);
    let want = sync_outs(&Config::default(), &chunks);
    let owned: Vec<Bytes> = chunks.iter().map(|c| Bytes::copy_from_slice(c)).collect();
    let send = tokio::spawn(async move {
        for c in owned {
            if tx.unbounded_send(c).is_err() {
                break;
            }
            tokio::task::yield_now().await;
        }
    });
    let got: Vec<_> = rx.split_a2ui().collect().await;
    send.await.expect("sender task");
    assert_eq!(collect(got), want);
}

#[test]
fn decoder_takes_the_whole_buffer_and_finishes_once() {
    let mut codec = A2uiCodec::with_config(Config::bare());
    let mut buf = BytesMut::from(&br#"{"deleteSurface":{"surfaceId":"a"}} {"beginRendering":"#[..]);
    let first = codec.decode(&mut buf).expect("decode");
    assert!(buf.is_empty(), "all buffered bytes were taken");
    assert!(matches!(first, Some(Ok(Event::Message(_)))), "{first:?}");
    assert!(codec.decode(&mut buf).expect("decode").is_none());
    let end = codec.decode_eof(&mut buf).expect("decode_eof");
    let Some(Err(e)) = end else { panic!("{end:?}") };
    assert_eq!(e.kind(), ErrorKind::Unterminated { what: "message" });
    assert_eq!(e.offset(), Some(36));
    // Asking again at the end of the input reports nothing more.
    assert!(codec.decode_eof(&mut buf).expect("decode_eof").is_none());
    assert!(codec.decode_eof(&mut buf).expect("decode_eof").is_none());
}

#[test]
fn decode_eof_flushes_held_back_text_after_the_remaining_bytes() {
    let mut codec = A2uiCodec::new();
    let mut buf = BytesMut::from(&b"Hello <a2ui"[..]);
    // "<a2ui" might be the start of a tag: held back until the end of the input.
    let first = codec.decode(&mut buf).expect("decode");
    assert!(
        matches!(&first, Some(Ok(Event::Text(t))) if t == "Hello "),
        "{first:?}"
    );
    assert!(codec.decode(&mut buf).expect("decode").is_none());
    buf.extend_from_slice(b"-js");
    let mut rest = Vec::new();
    while let Some(item) = codec.decode_eof(&mut buf).expect("decode_eof") {
        rest.push(item);
    }
    assert_eq!(collect(rest), [Out::Text(b"<a2ui-js".to_vec())]);
}
