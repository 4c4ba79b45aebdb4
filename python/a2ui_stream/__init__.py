"""a2ui-stream: the A2UI direct-JSON streaming parser of the official SDK (`a2ui-agent-sdk`
0.9.0), in linear time, plus a message splitter and A2UI Express.

    from a2ui_stream import BasicCatalog, DirectJsonFormat
    parser = DirectJsonFormat(catalogs=[BasicCatalog("v1.0")]).create_parser()
    parts = parser.parse_chunk(chunk)  # TextPart / A2uiPart, as the SDK's

See `a2ui_stream.direct_json` for the differences from the SDK.
"""

from __future__ import annotations

from . import direct_json, express
from ._native import Catalog
from .catalog import BasicCatalog, as_catalog, catalog_from_schema
from .direct_json import (
    DEFAULT_PROGRESSIVE_KEYS,
    DirectJsonFormat,
    DirectJsonFormatFactory,
    DirectJsonParser,
)
from .errors import (
    A2uiCatalogError,
    A2uiError,
    A2uiParseError,
    A2uiValidationError,
    SplitError,
)
from .express import ExpressParser
from .parts import A2uiPart, Message, RawA2uiPart, RawResponsePart, ResponsePart, TextPart
from .splitter import MessageEvent, Splitter, TextEvent

__version__ = "0.1.0"

__all__ = [
    "A2uiCatalogError",
    "A2uiError",
    "A2uiParseError",
    "A2uiPart",
    "A2uiValidationError",
    "BasicCatalog",
    "Catalog",
    "DEFAULT_PROGRESSIVE_KEYS",
    "DirectJsonFormat",
    "DirectJsonFormatFactory",
    "DirectJsonParser",
    "ExpressParser",
    "Message",
    "RawA2uiPart",
    "RawResponsePart",
    "MessageEvent",
    "ResponsePart",
    "SplitError",
    "Splitter",
    "TextEvent",
    "TextPart",
    "as_catalog",
    "catalog_from_schema",
    "direct_json",
    "express",
]
