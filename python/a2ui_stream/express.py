"""A2UI Express, the compact format a model can write instead of JSON (one statement per
component, `title = Text($/name, "h3")`): compile, decompile, the system prompt, and a
streaming parser of responses with `<a2ui>` blocks.

Express works with v0.9 and v1.0 catalogs. The catalogs an Express call uses stay in memory for
the rest of the process (once per distinct list of catalogs).
"""

from __future__ import annotations

import json
from typing import Any, List, Optional, Sequence

from . import _native
from ._kit import KIT
from .catalog import CatalogLike, as_catalog
from .errors import A2uiCatalogError
from .parts import Message

__all__ = ["ExpressParser", "compile", "decompile", "prompt"]


def _catalogs(catalogs: Sequence[CatalogLike]) -> List[_native.Catalog]:
    items = [as_catalog(c) for c in catalogs]
    if not items:
        raise A2uiCatalogError("At least one catalog must be provided.")
    return items


def _dicts(messages: Any) -> str:
    """Messages (mappings or the SDK's models, one or a sequence) as JSON text."""
    items = [messages] if not isinstance(messages, (list, tuple)) else list(messages)
    out = []
    for m in items:
        if hasattr(m, "model_dump") and not isinstance(m, dict):
            out.append(m.model_dump(mode="json", by_alias=True, exclude_unset=True))
        else:
            out.append(m)
    return json.dumps(out)


def compile(  # noqa: A001 (the SDK's name)
    text: str,
    catalogs: Sequence[CatalogLike],
    *,
    version: Optional[str] = None,
    surface_id: Optional[str] = None,
) -> List[Message]:
    """Compiles one Express block (the text between `<a2ui>` tags) to A2UI messages.

    Args:
        text: The block's statements.
        catalogs: The catalogs it is written against; the first is a surface's default.
        version: The protocol version of the messages (default: the first catalog's).
        surface_id: The surface a block names none for (default `"default_surface"`).

    Raises:
        A2uiParseError: Text the grammar does not admit, at its byte.
        A2uiValidationError: A name the catalog does not declare, or messages it rejects.
    """
    messages, error = _native.express_compile(text, _catalogs(catalogs), KIT, version, surface_id)
    if error is not None:
        raise error
    return messages


def decompile(messages: Any, catalogs: Sequence[CatalogLike]) -> str:
    """Writes A2UI messages (mappings or the SDK's message models) as an Express block.

    Raises:
        A2uiValidationError / A2uiParseError: Messages Express cannot write.
    """
    text, error = _native.express_decompile(_dicts(messages), _catalogs(catalogs), KIT)
    if error is not None:
        raise error
    return text


def prompt(catalogs: Sequence[CatalogLike], examples: Sequence[Sequence[Any]] = ()) -> str:
    """The system prompt that teaches a model Express for `catalogs`, with example turns (each a
    list of messages) written in Express."""
    examples_json = "[" + ",".join(_dicts(list(turn)) for turn in examples) + "]"
    text, error = _native.express_prompt(_catalogs(catalogs), examples_json, KIT)
    if error is not None:
        raise error
    return text


class ExpressParser(_native.ExpressParser):
    """Streams a response written in Express: its text, and the messages each statement of an
    `<a2ui>` block compiles to, the moment the statement ends.

    Args:
        catalogs: The catalogs the response is written against.
        wrapped: Blocks are framed by `<a2ui>` tags (True) or the response is all Express.
        version: The protocol version of the messages (default: the first catalog's).
        surface_id: The surface a block names none for.

    A statement that does not read or compile raises (`A2uiParseError` /
    `A2uiValidationError`) from the call that meets it; the statements after it still arrive,
    first from the next call.
    """

    def __init__(
        self,
        catalogs: Sequence[CatalogLike],
        *,
        wrapped: bool = True,
        version: Optional[str] = None,
        surface_id: Optional[str] = None,
    ) -> None:
        self._configure(_catalogs(catalogs), KIT, wrapped, version, surface_id)
