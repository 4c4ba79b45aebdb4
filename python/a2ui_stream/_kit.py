"""The classes the native parsers build their output from, made once."""

from __future__ import annotations

from ._native import Kit
from .errors import A2uiParseError, A2uiValidationError, SplitError
from .parts import A2uiPart, Message, TextPart

KIT = Kit(TextPart, A2uiPart, Message, A2uiParseError, A2uiValidationError, SplitError)

