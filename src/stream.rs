//! Async adapters (feature `async`): a [`Stream`] of chunks in, a stream of splitter events out,
//! and a [`Decoder`] for [`FramedRead`](tokio_util::codec::FramedRead).
//!
//! Both adapters hand every chunk to [`Splitter::feed_bytes`] without copying it and call
//! [`Splitter::finish`] when the input ends, so they give exactly what a [`Splitter`] fed the same
//! chunks gives.
//!
//! A splitter [`Error`] is recoverable: the splitter resynchronises and later messages still
//! arrive. The adapters therefore yield it as an item and keep going; they never end the stream
//! because of one.
//!
//! ```
//! use a2ui_stream::stream::SplitStreamExt;
//! use a2ui_stream::Event;
//! use futures::{executor::block_on, stream, StreamExt};
//!
//! let chunks = stream::iter(["Hi <a2ui-json>{\"deleteSurface\":", "{\"surfaceId\":\"s\"}}</a2ui-json>"]);
//! let events: Vec<_> = block_on(chunks.split_a2ui().collect());
//! assert_eq!(events.len(), 2);
//! assert!(matches!(&events[0], Ok(Event::Text(t)) if t == "Hi "));
//! assert!(matches!(&events[1], Ok(Event::Message(m)) if m.surface_id() == Some("s")));
//! ```

use crate::{Config, Error, Event, Splitter};
use bytes::{Bytes, BytesMut};
use futures_core::stream::{FusedStream, Stream};
use std::collections::VecDeque;
use std::convert::Infallible;
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio_util::codec::Decoder;

/// Events queued by the splitter and not yet handed out, plus whether the input has ended.
#[derive(Debug)]
struct Queue {
    splitter: Splitter,
    pending: VecDeque<Result<Event, Error>>,
    /// The input ended and [`Splitter::finish`] ran.
    finished: bool,
}

impl Queue {
    fn new(splitter: Splitter) -> Self {
        Queue {
            splitter,
            pending: VecDeque::new(),
            finished: false,
        }
    }

    fn feed(&mut self, chunk: Bytes) {
        self.pending.extend(self.splitter.feed_bytes(chunk));
    }

    fn finish(&mut self) {
        self.pending.extend(self.splitter.finish());
        self.finished = true;
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.pending.len();
        (n, self.finished.then_some(n))
    }

    fn is_terminated(&self) -> bool {
        self.finished && self.pending.is_empty()
    }

    /// The next item of an adapter: a queued event; else chunks taken from `next_chunk` and
    /// fed until one completes an event or the input ends. An `Err` from `next_chunk` is
    /// handed out in its place and the queue goes on afterwards.
    fn poll_event<X>(
        &mut self,
        mut next_chunk: impl FnMut() -> Poll<Option<Result<Bytes, X>>>,
    ) -> Poll<Option<Result<Result<Event, Error>, X>>> {
        loop {
            if let Some(event) = self.pending.pop_front() {
                return Poll::Ready(Some(Ok(event)));
            }
            if self.finished {
                return Poll::Ready(None);
            }
            match next_chunk() {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(chunk))) => self.feed(chunk),
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e))),
                Poll::Ready(None) => self.finish(),
            }
        }
    }
}

pin_project_lite::pin_project! {
    /// A stream of splitter events read from a stream of chunks.
    ///
    /// Each chunk (anything that converts into [`Bytes`]: `Bytes`, `String`, `Vec<u8>`,
    /// `&'static str`, `&'static [u8]`, ...) is fed to the [`Splitter`]; the events it completes
    /// come out one by one. When the input ends, [`Splitter::finish`] reports what was left open
    /// and the stream ends after those events.
    ///
    /// Made by [`SplitStream::new`] or [`SplitStreamExt::split_a2ui`]. For a stream of
    /// `Result` chunks see [`TrySplitStream`].
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStream;
    /// use a2ui_stream::{Config, ErrorKind, Event, Splitter};
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let chunks = stream::iter([String::from("{\"beginRendering\":"), String::from("{\"surfaceId\":\"s\"")]);
    /// let mut events = SplitStream::new(chunks, Splitter::with_config(Config::bare()));
    /// // The message never closed: finish() reports it once the input has ended.
    /// let err = block_on(events.next()).unwrap().unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Unterminated { what: "message" });
    /// assert!(block_on(events.next()).is_none());
    /// ```
    #[must_use = "streams do nothing unless polled"]
    pub struct SplitStream<S> {
        #[pin]
        inner: S,
        queue: Queue,
    }
}

impl<S> SplitStream<S> {
    /// Splits the chunks of `inner` with `splitter`.
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStream;
    /// use a2ui_stream::Splitter;
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let chunks = stream::iter([b"plain ".to_vec(), b"prose".to_vec()]);
    /// let events: Vec<_> = block_on(SplitStream::new(chunks, Splitter::new()).collect());
    /// assert_eq!(events.len(), 2);
    /// ```
    pub fn new(inner: S, splitter: Splitter) -> Self {
        SplitStream {
            inner,
            queue: Queue::new(splitter),
        }
    }

    /// The splitter (for example to read its [`offset`](Splitter::offset)).
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStreamExt;
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let mut events = stream::iter(["abc", "de"]).split_a2ui();
    /// block_on(events.next());
    /// assert_eq!(events.splitter().offset(), 3);
    /// ```
    pub fn splitter(&self) -> &Splitter {
        &self.queue.splitter
    }

    /// The wrapped stream of chunks.
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStreamExt;
    /// use futures::{stream, Stream};
    ///
    /// let events = stream::iter(["a", "b"]).split_a2ui();
    /// assert_eq!(events.get_ref().size_hint(), (2, Some(2)));
    /// ```
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// The wrapped stream of chunks, mutably. Taking chunks from it directly skips the splitter.
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStreamExt;
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let mut events = stream::iter(["skipped", "kept"]).split_a2ui();
    /// assert_eq!(block_on(events.get_mut().next()), Some("skipped"));
    /// ```
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// Gives back the wrapped stream; events not yet handed out are dropped.
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStreamExt;
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let events = stream::iter(["a", "b"]).split_a2ui();
    /// let chunks: Vec<_> = block_on(events.into_inner().collect());
    /// assert_eq!(chunks, ["a", "b"]);
    /// ```
    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S> Stream for SplitStream<S>
where
    S: Stream,
    S::Item: Into<Bytes>,
{
    type Item = Result<Event, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut this = self.project();
        let next_chunk = || {
            this.inner
                .as_mut()
                .poll_next(cx)
                .map(|chunk| chunk.map(|c| Ok::<_, Infallible>(c.into())))
        };
        this.queue
            .poll_event(next_chunk)
            .map(|item| item.map(|item| item.unwrap_or_else(|never| match never {})))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.queue.size_hint()
    }
}

impl<S> FusedStream for SplitStream<S>
where
    S: Stream,
    S::Item: Into<Bytes>,
{
    fn is_terminated(&self) -> bool {
        self.queue.is_terminated()
    }
}

/// An item of a [`TrySplitStream`]: a splitter error, or an error of the chunk stream.
///
/// ```
/// use a2ui_stream::stream::{SplitStreamExt, TrySplitError};
/// use futures::{executor::block_on, stream, StreamExt};
///
/// let chunks = stream::iter([Ok("text "), Err("connection reset"), Ok("more")]);
/// let items: Vec<_> = block_on(chunks.try_split_a2ui().collect());
/// assert!(matches!(items[1], Err(TrySplitError::Source("connection reset"))));
/// assert_eq!(items.len(), 3); // the stream goes on after the source error
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrySplitError<E> {
    /// The splitter found a problem in the stream (it resynchronises by itself).
    Split(Error),
    /// The chunk stream yielded an error.
    Source(E),
}

impl<E: fmt::Display> fmt::Display for TrySplitError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrySplitError::Split(e) => e.fmt(f),
            TrySplitError::Source(e) => write!(f, "chunk stream failed: {e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for TrySplitError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TrySplitError::Split(e) => Some(e),
            TrySplitError::Source(e) => Some(e),
        }
    }
}

impl<E> From<Error> for TrySplitError<E> {
    fn from(e: Error) -> Self {
        TrySplitError::Split(e)
    }
}

pin_project_lite::pin_project! {
    /// A stream of splitter events read from a stream of fallible chunks (`Result<T, E>` with
    /// `T: Into<Bytes>`), such as an HTTP body.
    ///
    /// An `Err` chunk comes out as [`TrySplitError::Source`] in its place among the events and
    /// the stream goes on: whether to stop is the caller's choice (`take_while`, or stop at the
    /// first error with `futures::TryStreamExt`). The splitter is not finished by a source
    /// error, only by the end of the input.
    ///
    /// ```
    /// use a2ui_stream::stream::TrySplitStream;
    /// use a2ui_stream::{Event, Splitter};
    /// use futures::{executor::block_on, stream, TryStreamExt};
    ///
    /// let body = stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from_static(b"<a2ui-json>{\"deleteSurface\":{\"surfaceId\":\"s\"}}</a2ui-json>"))]);
    /// let events: Vec<Event> = block_on(TrySplitStream::new(body, Splitter::new()).try_collect()).unwrap();
    /// assert!(matches!(&events[0], Event::Message(m) if m.surface_id() == Some("s")));
    /// ```
    #[must_use = "streams do nothing unless polled"]
    pub struct TrySplitStream<S> {
        #[pin]
        inner: S,
        queue: Queue,
    }
}

impl<S> TrySplitStream<S> {
    /// Splits the chunks of `inner` with `splitter`.
    ///
    /// ```
    /// use a2ui_stream::stream::TrySplitStream;
    /// use a2ui_stream::Splitter;
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let chunks = stream::iter([Ok::<_, ()>("a"), Ok("b")]);
    /// let items: Vec<_> = block_on(TrySplitStream::new(chunks, Splitter::new()).collect());
    /// assert!(items.iter().all(|i| i.is_ok()));
    /// ```
    pub fn new(inner: S, splitter: Splitter) -> Self {
        TrySplitStream {
            inner,
            queue: Queue::new(splitter),
        }
    }

    /// The splitter (for example to read its [`offset`](Splitter::offset)).
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStreamExt;
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let mut events = stream::iter([Ok::<_, ()>("abcd")]).try_split_a2ui();
    /// block_on(events.next());
    /// assert_eq!(events.splitter().offset(), 4);
    /// ```
    pub fn splitter(&self) -> &Splitter {
        &self.queue.splitter
    }

    /// The wrapped stream of chunks.
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStreamExt;
    /// use futures::{stream, Stream};
    ///
    /// let events = stream::iter([Ok::<_, ()>("a")]).try_split_a2ui();
    /// assert_eq!(events.get_ref().size_hint(), (1, Some(1)));
    /// ```
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// The wrapped stream of chunks, mutably. Taking chunks from it directly skips the splitter.
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStreamExt;
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let mut events = stream::iter([Ok::<_, ()>("skipped")]).try_split_a2ui();
    /// assert_eq!(block_on(events.get_mut().next()), Some(Ok("skipped")));
    /// ```
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// Gives back the wrapped stream; events not yet handed out are dropped.
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStreamExt;
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let events = stream::iter([Ok::<_, ()>("a")]).try_split_a2ui();
    /// assert_eq!(block_on(events.into_inner().count()), 1);
    /// ```
    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S, T, E> Stream for TrySplitStream<S>
where
    S: Stream<Item = Result<T, E>>,
    T: Into<Bytes>,
{
    type Item = Result<Event, TrySplitError<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut this = self.project();
        let next_chunk = || {
            this.inner
                .as_mut()
                .poll_next(cx)
                .map(|chunk| chunk.map(|c| c.map(Into::into)))
        };
        this.queue.poll_event(next_chunk).map(|item| {
            item.map(|item| match item {
                Ok(event) => event.map_err(TrySplitError::Split),
                Err(e) => Err(TrySplitError::Source(e)),
            })
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.queue.size_hint()
    }
}

impl<S, T, E> FusedStream for TrySplitStream<S>
where
    S: Stream<Item = Result<T, E>>,
    T: Into<Bytes>,
{
    fn is_terminated(&self) -> bool {
        self.queue.is_terminated()
    }
}

/// Adds `.split_a2ui()` and `.try_split_a2ui()` to every [`Stream`].
///
/// ```
/// use a2ui_stream::stream::SplitStreamExt;
/// use a2ui_stream::{Config, Event};
/// use futures::{executor::block_on, stream, StreamExt};
///
/// let tool_args = stream::iter([r#"[{"deleteSurface":{"surf"#, r#"aceId":"a"}}]"#]);
/// let events: Vec<_> = block_on(tool_args.split_a2ui_with(Config::bare()).collect());
/// assert!(matches!(&events[..], [Ok(Event::Message(m))] if m.surface_id() == Some("a")));
/// ```
pub trait SplitStreamExt: Stream {
    /// Splits a stream of chunks with a [`Splitter::new`] (tagged framing).
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStreamExt;
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let n = block_on(stream::iter(["just prose"]).split_a2ui().count());
    /// assert_eq!(n, 1);
    /// ```
    fn split_a2ui(self) -> SplitStream<Self>
    where
        Self: Sized,
        Self::Item: Into<Bytes>,
    {
        SplitStream::new(self, Splitter::new())
    }

    /// Splits a stream of chunks with a splitter of the given [`Config`].
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStreamExt;
    /// use a2ui_stream::Config;
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let events: Vec<_> = block_on(stream::iter(["{\"x\":1}"]).split_a2ui_with(Config::bare()).collect());
    /// assert!(events[0].is_ok());
    /// ```
    fn split_a2ui_with(self, config: Config) -> SplitStream<Self>
    where
        Self: Sized,
        Self::Item: Into<Bytes>,
    {
        SplitStream::new(self, Splitter::with_config(config))
    }

    /// Splits a stream of fallible chunks with a [`Splitter::new`] (tagged framing).
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStreamExt;
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let items: Vec<_> = block_on(stream::iter([Ok::<_, ()>("prose")]).try_split_a2ui().collect());
    /// assert!(items[0].is_ok());
    /// ```
    fn try_split_a2ui<T, E>(self) -> TrySplitStream<Self>
    where
        Self: Sized + Stream<Item = Result<T, E>>,
        T: Into<Bytes>,
    {
        TrySplitStream::new(self, Splitter::new())
    }

    /// Splits a stream of fallible chunks with a splitter of the given [`Config`].
    ///
    /// ```
    /// use a2ui_stream::stream::SplitStreamExt;
    /// use a2ui_stream::Config;
    /// use futures::{executor::block_on, stream, StreamExt};
    ///
    /// let chunks = stream::iter([Ok::<_, ()>("{\"deleteSurface\":{}}")]);
    /// let items: Vec<_> = block_on(chunks.try_split_a2ui_with(Config::bare()).collect());
    /// assert!(items[0].is_ok());
    /// ```
    fn try_split_a2ui_with<T, E>(self, config: Config) -> TrySplitStream<Self>
    where
        Self: Sized + Stream<Item = Result<T, E>>,
        T: Into<Bytes>,
    {
        TrySplitStream::new(self, Splitter::with_config(config))
    }
}

impl<S: Stream + ?Sized> SplitStreamExt for S {}

/// A [`Decoder`] that splits what an `AsyncRead` delivers, for
/// [`FramedRead`](tokio_util::codec::FramedRead).
///
/// `Item` is `Result<Event, a2ui_stream::Error>`: a splitter error is an item, not a decoder
/// error, so the framed stream goes on after it (the splitter resynchronises by itself). The
/// decoder's own error type is [`std::io::Error`], which only the reader produces.
///
/// [`decode`](Decoder::decode) takes every buffered byte at once (`split().freeze()`, no copy) and
/// [`decode_eof`](Decoder::decode_eof) calls [`Splitter::finish`] once the buffered events are
/// out. After the end of the input the splitter is fresh: a reader that delivers more bytes later
/// starts a new stream.
///
/// ```
/// use a2ui_stream::stream::A2uiCodec;
/// use a2ui_stream::Event;
/// use futures::{executor::block_on, StreamExt};
/// use tokio_util::codec::FramedRead;
///
/// let reader: &[u8] = b"Hello <a2ui-json>{\"deleteSurface\":{\"surfaceId\":\"s\"}}</a2ui-json>";
/// let items: Vec<_> = block_on(FramedRead::new(reader, A2uiCodec::new()).collect());
/// assert_eq!(items.len(), 2);
/// let Ok(Ok(Event::Message(m))) = &items[1] else { panic!() };
/// assert_eq!(m.surface_id(), Some("s"));
/// ```
#[derive(Debug)]
pub struct A2uiCodec {
    splitter: Splitter,
    pending: VecDeque<Result<Event, Error>>,
}

impl Default for A2uiCodec {
    fn default() -> Self {
        A2uiCodec::with_splitter(Splitter::new())
    }
}

impl A2uiCodec {
    /// A codec with a [`Splitter::new`] (tagged framing).
    ///
    /// ```
    /// use a2ui_stream::{stream::A2uiCodec, Framing};
    /// assert_eq!(A2uiCodec::new().splitter().config().framing, Framing::Tagged);
    /// ```
    pub fn new() -> Self {
        A2uiCodec::default()
    }

    /// A codec with a splitter of the given [`Config`].
    ///
    /// ```
    /// use a2ui_stream::{stream::A2uiCodec, Config, Framing};
    /// assert_eq!(A2uiCodec::with_config(Config::bare()).splitter().config().framing, Framing::Bare);
    /// ```
    pub fn with_config(config: Config) -> Self {
        A2uiCodec::with_splitter(Splitter::with_config(config))
    }

    /// A codec around `splitter`.
    ///
    /// ```
    /// use a2ui_stream::{stream::A2uiCodec, Splitter};
    /// let codec = A2uiCodec::with_splitter(Splitter::new());
    /// assert_eq!(codec.splitter().offset(), 0);
    /// ```
    pub fn with_splitter(splitter: Splitter) -> Self {
        A2uiCodec {
            splitter,
            pending: VecDeque::new(),
        }
    }

    /// The splitter (for example to read its [`offset`](Splitter::offset)).
    ///
    /// ```
    /// use a2ui_stream::stream::A2uiCodec;
    /// use bytes::BytesMut;
    /// use tokio_util::codec::Decoder;
    ///
    /// let mut codec = A2uiCodec::new();
    /// let mut buf = BytesMut::from(&b"some text"[..]);
    /// assert!(codec.decode(&mut buf).unwrap().is_some());
    /// assert!(buf.is_empty());
    /// assert_eq!(codec.splitter().offset(), 9);
    /// ```
    pub fn splitter(&self) -> &Splitter {
        &self.splitter
    }

    /// Consumes the codec, returning its splitter.
    ///
    /// ```
    /// use a2ui_stream::stream::A2uiCodec;
    /// assert_eq!(A2uiCodec::new().into_splitter().offset(), 0);
    /// ```
    pub fn into_splitter(self) -> Splitter {
        self.splitter
    }

    fn feed(&mut self, src: &mut BytesMut) {
        if !src.is_empty() {
            self.pending
                .extend(self.splitter.feed_bytes(src.split().freeze()));
        }
    }
}

impl Decoder for A2uiCodec {
    type Item = Result<Event, Error>;
    type Error = std::io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, Self::Error> {
        if self.pending.is_empty() {
            self.feed(src);
        }
        Ok(self.pending.pop_front())
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, Self::Error> {
        if self.pending.is_empty() {
            self.feed(src);
        }
        if self.pending.is_empty() {
            // Everything fed so far is out: end the stream. On a fresh splitter this yields
            // nothing, so repeated calls at the end of the input are harmless.
            self.pending.extend(self.splitter.finish());
        }
        Ok(self.pending.pop_front())
    }
}
