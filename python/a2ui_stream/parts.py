"""The parts a parser hands out, named and shaped as the official SDK's (`a2ui.parser`).

`TextPart.text` holds conversational text; `A2uiPart.a2ui` the messages that became ready, as
`Message` mappings (plain `dict`s with a `model_dump` method). The SDK's `A2uiPart.a2ui` holds
pydantic `AgentToRendererMessage` models instead; the SDK's `to_message_dicts` accepts either,
and `a2ui.parser.to_message_models(part.a2ui)` turns these into the SDK's models.

With the SDK installed, `TextPart` and `A2uiPart` derive from the SDK's dataclasses, so
`isinstance(part, a2ui.parser.A2uiPart)` holds for this package's parts too.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any, Dict, List, Union

from . import _sdk


class Message(Dict[str, Any]):
    """One A2UI message as its wire-format mapping: a `dict`, with the two methods of a
    pydantic model that code written for the SDK's message models calls."""

    __slots__ = ()

    def model_dump(self, **_options: Any) -> Dict[str, Any]:
        """A deep copy as a plain `dict` (the keyword arguments of pydantic are accepted and
        change nothing: the mapping is already the wire form)."""
        return copy.deepcopy(dict(self))

    def model_dump_json(self, **_options: Any) -> str:
        """The message as compact JSON text."""
        return json.dumps(self, separators=(",", ":"), ensure_ascii=False)


if _sdk.text_part is not None and _sdk.a2ui_part is not None:
    _TextBase: Any = _sdk.text_part
    _A2uiBase: Any = _sdk.a2ui_part
else:

    @dataclass
    class _TextBase:  # type: ignore[no-redef]
        text: str

    @dataclass
    class _A2uiBase:  # type: ignore[no-redef]
        a2ui: List[Any]


@dataclass
class TextPart(_TextBase):  # type: ignore[misc]
    """Conversational text of a model's response."""

    text: str


@dataclass
class A2uiPart(_A2uiBase):  # type: ignore[misc]
    """A2UI messages that became ready, in the order a renderer applies them."""

    a2ui: List[Message]


ResponsePart = Union[TextPart, A2uiPart]
"""One part of a response: text or messages."""

if _sdk.raw_a2ui_part is not None and _sdk.raw_response_part is not None:
    _RawBase: Any = _sdk.raw_a2ui_part
    _RawResponseBase: Any = _sdk.raw_response_part
else:

    @dataclass
    class _RawBase:  # type: ignore[no-redef]
        a2ui_raw: str

    @dataclass
    class _RawResponseBase:  # type: ignore[no-redef]
        part: Any
        is_final: bool = True


@dataclass
class RawA2uiPart(_RawBase):  # type: ignore[misc]
    """A block's payload as the model wrote it, not yet compiled."""

    a2ui_raw: str


@dataclass
class RawResponsePart(_RawResponseBase):  # type: ignore[misc]
    """A part of an unwrapped response: text, or a raw payload (`is_final` False for a block
    the response left open)."""

    part: Union[TextPart, RawA2uiPart]
    is_final: bool = True
