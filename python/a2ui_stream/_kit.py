"""The classes the native parsers build their output from, made once."""

from __future__ import annotations

from ._native import Kit
from .errors import A2uiParseError, A2uiValidationError, SplitError
from .parts import A2uiPart, Message, TextPart

KIT = Kit(TextPart, A2uiPart, Message, A2uiParseError, A2uiValidationError, SplitError)


def deliver(items: list, pending: list) -> list:
    """`pending` then `items`, up to the first error: raises it, with the parts before it as its
    `partial_results`, and leaves the items after it in `pending` for the next call."""
    if pending:
        items = pending + items
        pending.clear()
    for i, item in enumerate(items):
        if isinstance(item, BaseException):
            item.partial_results = items[:i]  # type: ignore[attr-defined]
            pending.extend(items[i + 1 :])
            raise item
    return items
