"""Types of the native module `a2ui_stream._native` (the library's parsers, in Rust)."""

from typing import Any, List, Optional, Sequence, Tuple

class Kit:
    """The Python classes the native parsers build parts and errors from."""

    def __init__(
        self,
        text_part: type,
        a2ui_part: type,
        message: type,
        parse_error: type,
        validation_error: type,
        split_error: type,
    ) -> None: ...

class Catalog:
    """A catalog the parsers check messages with."""

    @staticmethod
    def basic(version_text: str) -> Catalog:
        """The built-in basic catalog of `"0.8"`, `"0.9"` or `"1.0"` (a leading `v` allowed)."""
    @staticmethod
    def from_schemas(
        version_text: str,
        catalog_json: str,
        messages_json: Optional[str] = None,
        common_types_json: Optional[str] = None,
    ) -> Catalog:
        """A catalog from its JSON Schema documents as JSON text (ValueError if they do not
        compile)."""
    @property
    def version(self) -> str:
        """`"0.8"`, `"0.9"` or `"1.0"`."""
    @property
    def catalog_id(self) -> Optional[str]:
        """The `catalogId` the catalog declares, if any."""
    def component_names(self) -> List[str]:
        """The components the catalog declares."""

class DirectParser:
    """The library's direct-JSON streaming parser for one response: the base of
    `DirectJsonParser`, made ready by `_configure`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def _configure(
        self, catalog: Catalog, progressive_keys: Sequence[str], changed_only: bool, kit: Kit
    ) -> None: ...
    def parse_chunk(self, chunk: str, wrapped: bool = True) -> List[Any]:
        """The parts the chunk made ready; raises the first error, its `partial_results` the
        parts before it (those after it come first from the next call)."""
    def finish(self) -> List[Any]:
        """The end of the response, as `parse_chunk` answers."""

class TextEvent:
    """Prose between A2UI blocks."""

    text: str

class MessageEvent:
    """One standalone A2UI message."""

    kind: str
    json: str
    version: Optional[str]
    surface_id: Optional[str]
    component_id: Optional[str]
    def to_dict(self) -> Any:
        """The message as a `dict`."""

class Splitter:
    """The library's splitter."""

    def __init__(
        self,
        kit: Kit,
        bare: bool = False,
        lenient: bool = False,
        split_data_depth: Optional[int] = None,
        dedup_components: bool = True,
    ) -> None: ...
    def feed(self, chunk: bytes) -> List[Any]:
        """The events the chunk completed; raises the first error, its `partial_results` the
        events before it (those after it come first from the next call)."""
    def finish(self) -> List[Any]:
        """The end of the stream, as `feed` answers."""

class ExpressParser:
    """The library's streaming Express parser for one response: the base of the package's
    `ExpressParser`, made ready by `_configure`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def _configure(
        self,
        catalogs: Sequence[Catalog],
        kit: Kit,
        wrapped: bool = True,
        version_text: Optional[str] = None,
        surface_id: Optional[str] = None,
    ) -> None: ...
    def parse_chunk(self, chunk: str) -> List[Any]:
        """The parts the chunk made ready, as `DirectParser.parse_chunk` answers."""
    def finish(self) -> List[Any]:
        """The end of the response, as `parse_chunk` answers."""

def direct_parse_response(
    content: str, catalog: Catalog, wrapped: bool, kit: Kit
) -> Tuple[Optional[List[Any]], Optional[BaseException]]:
    """A whole response's parts, or the error."""

def direct_unwrap(content: str) -> List[Tuple[bool, str, bool]]:
    """`(is_text, text, is_final)` per part of a response."""

def direct_wrap(parts: Sequence[Tuple[bool, str, bool]]) -> str:
    """Parts written back into one response."""

def express_compile(
    text: str,
    catalogs: Sequence[Catalog],
    kit: Kit,
    version_text: Optional[str] = None,
    surface_id: Optional[str] = None,
) -> Tuple[Optional[List[Any]], Optional[BaseException]]:
    """A block's messages, or the error."""

def express_decompile(
    messages_json: str, catalogs: Sequence[Catalog], kit: Kit
) -> Tuple[Optional[str], Optional[BaseException]]:
    """Messages as Express, or the error."""

def express_prompt(
    catalogs: Sequence[Catalog], examples_json: str, kit: Kit
) -> Tuple[Optional[str], Optional[BaseException]]:
    """The Express system prompt, or the error."""
