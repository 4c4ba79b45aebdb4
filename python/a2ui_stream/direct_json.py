"""The direct-JSON format of the official SDK (`a2ui.inference_formats.direct_json`): the same
names and behaviour, on the library's streaming parser.

A model writes A2UI messages as JSON inside `<a2ui-json>...</a2ui-json>` blocks between its
sentences; `DirectJsonParser.parse_chunk` hands on, after every chunk, the text and the messages
that became ready, as the SDK 0.9.0 parser does (the conformance suites
`direct_json/response_streaming.yaml` and `response_parser.yaml`), in time linear in the
response rather than quadratic.

Differences from the SDK:

- `A2uiPart.a2ui` holds `Message` mappings (wire-format `dict`s), not pydantic models.
- A parser checks messages against one catalog.
- `emission="changed_only"` hands out only what is new in each step (the components that closed
  since, or a message when it changed otherwise) instead of every ready message again.
- `finish()` ends a response: the text held back as a possible tag start goes out, and a block
  left open is an error.
- Errors carry `kind`, `offset` (the UTF-8 byte of the response) and `partial_results`; what a
  chunk yields after an error comes first from the next call.
"""

from __future__ import annotations

from typing import Any, Collection, List, Optional, Sequence

from . import _native, _sdk
from ._kit import KIT
from .catalog import CatalogLike, check_catalogs
from .parts import RawA2uiPart, RawResponsePart, ResponsePart, TextPart

__all__ = [
    "DEFAULT_PROGRESSIVE_KEYS",
    "DirectJsonFormat",
    "DirectJsonFormatFactory",
    "DirectJsonParser",
    "EMISSIONS",
]

DEFAULT_PROGRESSIVE_KEYS: frozenset = frozenset(
    {"literalString", "valueString", "label", "hint", "caption", "altText", "text"}
)
"""The SDK's default progressive keys (`a2ui.constants.DEFAULT_PROGRESSIVE_KEYS`)."""

EMISSIONS = ("official", "changed_only")
"""The emission modes: every ready message again when it changes (`"official"`, the SDK's), or
only what is new (`"changed_only"`)."""


def _check_emission(emission: str) -> str:
    if emission not in EMISSIONS:
        raise ValueError(f"emission must be one of {EMISSIONS}, got {emission!r}")
    return emission


class DirectJsonParser(_native.DirectParser):
    """Streaming parser of direct-JSON responses, a drop-in for the SDK's `DirectJsonParser`.

    Args:
        catalogs: One catalog: an `a2ui_stream.Catalog` (`BasicCatalog("v1.0")`) or the SDK's.
        progressive_keys: Keys whose string values are closed early while they arrive.
        emission: `"official"` (default, the SDK's output) or `"changed_only"`.
    """

    def __init__(
        self,
        catalogs: Sequence[CatalogLike],
        progressive_keys: Collection[str] = frozenset(),
        *,
        emission: str = "official",
    ) -> None:
        self._catalogs = list(catalogs) if isinstance(catalogs, Sequence) else catalogs
        self._catalog = check_catalogs(catalogs)
        self._progressive_keys = frozenset(progressive_keys)
        self._emission = _check_emission(emission)
        self._configure(
            self._catalog,
            sorted(self._progressive_keys),
            self._emission == "changed_only",
            KIT,
        )

    @property
    def catalogs(self) -> List[CatalogLike]:
        """The catalogs as given."""
        return list(self._catalogs)

    @property
    def progressive_keys(self) -> frozenset:
        """The keys whose string values are closed early while they arrive."""
        return self._progressive_keys

    @property
    def emission(self) -> str:
        """`"official"` or `"changed_only"`."""
        return self._emission

    @property
    def supports_streaming(self) -> bool:
        """Always True: `parse_chunk` reads a response incrementally."""
        return True

    def parse_response(self, content: str, wrapped: bool = True) -> List[ResponsePart]:
        """Parses a whole response at once, as the SDK's `parse_response`: text parts and each
        block's messages, checked as one payload.

        Raises:
            A2uiParseError: A block that does not read as JSON.
            A2uiValidationError: Messages the catalog rejects.
        """
        parts, error = _native.direct_parse_response(content, self._catalog, wrapped, KIT)
        if error is not None:
            raise error
        return parts

    def unwrap(self, content: str) -> List[RawResponsePart]:
        """Splits a response into its text and its blocks' raw payloads, as the SDK's `unwrap`
        (text trimmed, code fences around a payload removed; a block left open is a part with
        `is_final` False)."""
        return [
            RawResponsePart(part=TextPart(text) if is_text else RawA2uiPart(text), is_final=final)
            for is_text, text, final in _native.direct_unwrap(content)
        ]

    def wrap(self, blocks: Sequence[Any]) -> str:
        """Writes parts (`RawResponsePart`s, or bare `TextPart` / `RawA2uiPart`s) back into one
        response, each payload in `<a2ui-json>` tags, as the SDK's `wrap`."""
        parts = []
        for block in blocks:
            inner = getattr(block, "part", block)
            if hasattr(inner, "text"):
                parts.append((True, inner.text, True))
            elif hasattr(inner, "a2ui_raw"):
                parts.append((False, inner.a2ui_raw, bool(getattr(block, "is_final", True))))
        return _native.direct_wrap(parts)


class DirectJsonFormat:
    """The direct-JSON inference format, a drop-in for the SDK's `DirectJsonFormat`.

    Args:
        catalogs: One catalog (`BasicCatalog("v1.0")`, or the SDK's).
        examples: Few-shot example turns, kept for the prompt generator.
        allowed_messages: The message types the prompt allows, kept for the prompt generator.
        progressive_keys: Keys whose string values are closed early while they arrive.
        emission: `"official"` (default) or `"changed_only"`.
    """

    def __init__(
        self,
        catalogs: Sequence[CatalogLike],
        examples: Optional[Sequence[Sequence[Any]]] = None,
        allowed_messages: Optional[Sequence[str]] = None,
        progressive_keys: Collection[str] = frozenset(),
        *,
        emission: str = "official",
    ) -> None:
        check_catalogs(catalogs)
        self._catalogs = list(catalogs)
        self._examples = [list(t) for t in examples] if examples is not None else None
        self._allowed_messages = list(allowed_messages) if allowed_messages is not None else None
        self._progressive_keys = frozenset(progressive_keys)
        self._emission = _check_emission(emission)
        self._prompt_generator: Any = None

    def create_parser(self) -> DirectJsonParser:
        """A new parser for one response."""
        return DirectJsonParser(
            self._catalogs, progressive_keys=self._progressive_keys, emission=self._emission
        )

    @property
    def parser(self) -> DirectJsonParser:
        """A new parser for one response (as the SDK's property)."""
        return self.create_parser()

    @property
    def supports_streaming(self) -> bool:
        """Always True."""
        return True

    @property
    def catalogs(self) -> List[CatalogLike]:
        """The catalogs as given."""
        return list(self._catalogs)

    @property
    def examples(self) -> Optional[List[List[Any]]]:
        """The few-shot example turns, if any."""
        return [list(t) for t in self._examples] if self._examples is not None else None

    @property
    def allowed_messages(self) -> Optional[List[str]]:
        """The allowed message types, if restricted."""
        return list(self._allowed_messages) if self._allowed_messages is not None else None

    @property
    def progressive_keys(self) -> frozenset:
        """The keys whose string values are closed early while they arrive."""
        return self._progressive_keys

    @property
    def emission(self) -> str:
        """`"official"` or `"changed_only"`."""
        return self._emission

    @property
    def prompt_generator(self) -> Any:
        """The SDK's `DirectJsonPromptGenerator` for these catalogs (the SDK writes the prompt).

        Raises:
            RuntimeError: If the SDK is not installed or the catalogs are not the SDK's.
        """
        if self._prompt_generator is None:
            if _sdk.errors is None or not all(_sdk.is_sdk_catalog(c) for c in self._catalogs):
                raise RuntimeError(
                    "The direct-JSON prompt is written by the SDK (a2ui-agent-sdk): install it"
                    " and pass its catalogs."
                )
            from a2ui.inference_formats.direct_json import DirectJsonPromptGenerator

            self._prompt_generator = DirectJsonPromptGenerator(
                self._catalogs,
                examples=self._examples,
                allowed_messages=self._allowed_messages,
            )
        return self._prompt_generator


class DirectJsonFormatFactory:
    """Makes `DirectJsonFormat`s, a drop-in for the SDK's `DirectJsonFormatFactory`."""

    def __init__(
        self,
        allowed_messages: Optional[Sequence[str]] = None,
        progressive_keys: Collection[str] = frozenset(),
        *,
        emission: str = "official",
    ) -> None:
        self._allowed_messages = list(allowed_messages) if allowed_messages is not None else None
        self._progressive_keys = frozenset(progressive_keys)
        self._emission = _check_emission(emission)

    @property
    def allowed_messages(self) -> Optional[List[str]]:
        """The allowed message types, if restricted."""
        return list(self._allowed_messages) if self._allowed_messages is not None else None

    @property
    def progressive_keys(self) -> frozenset:
        """The keys whose string values are closed early while they arrive."""
        return self._progressive_keys

    def create_format(
        self,
        catalogs: Sequence[CatalogLike],
        examples: Optional[Sequence[Sequence[Any]]] = None,
    ) -> DirectJsonFormat:
        """A format for `catalogs`."""
        return DirectJsonFormat(
            catalogs,
            examples=examples,
            allowed_messages=self._allowed_messages,
            progressive_keys=self._progressive_keys,
            emission=self._emission,
        )
