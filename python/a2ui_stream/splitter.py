"""The library's splitter: each A2UI message of a token stream, each component of a component
list as it closes, from bytes, with prose between blocks as text events."""

from __future__ import annotations

from typing import List, Optional, Union

from . import _native
from ._kit import KIT

TextEvent = _native.TextEvent
MessageEvent = _native.MessageEvent
Event = Union[_native.TextEvent, _native.MessageEvent]


class Splitter:
    """Splits a stream into `TextEvent`s (prose) and `MessageEvent`s (one standalone message
    each: a component of an `updateComponents` goes out alone as soon as it closes).

    Args:
        bare: The stream is all JSON (tool-call arguments, structured output) rather than prose
            with `<a2ui-json>` blocks.
        lenient: Read a comma before a closing bracket, raw line breaks in strings and curly
            quotes, as the SDK does, handing out repaired JSON.
        split_data_depth: How deep data-model updates are split (default 2; 0 keeps them whole).
        dedup_components: Drop a component re-sent unchanged on the same surface.

    Errors (`SplitError`, with `kind`, `offset`, `partial_results`) are raised by the call that
    meets them; the splitter goes on after them, and the events after an error come first from
    the next call.
    """

    def __init__(
        self,
        *,
        bare: bool = False,
        lenient: bool = False,
        split_data_depth: Optional[int] = None,
        dedup_components: bool = True,
    ) -> None:
        self._native = _native.Splitter(KIT, bare, lenient, split_data_depth, dedup_components)

    def feed(self, chunk: Union[bytes, bytearray, memoryview, str]) -> List[Event]:
        """The next chunk of the stream (bytes, or text encoded as UTF-8); returns the events
        it completed.

        Raises:
            SplitError: Input that breaks JSON's rules or a limit.
        """
        if isinstance(chunk, str):
            data = chunk.encode("utf-8", "surrogatepass")
        elif isinstance(chunk, bytes):
            data = chunk
        else:
            data = bytes(chunk)
        return self._native.feed(data)

    def finish(self) -> List[Event]:
        """Ends the stream: the text held back goes out; a message left open is an error.

        Raises:
            SplitError: A message or block left open.
        """
        return self._native.finish()
