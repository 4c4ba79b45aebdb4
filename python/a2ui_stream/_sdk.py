"""The official SDK's classes this package's own derive from, when the SDK is installed.

When `a2ui-agent-sdk` is importable, the package's parts are instances of the SDK's
`TextPart` / `A2uiPart` and its errors of the SDK's `A2uiParseError` / `A2uiValidationError`,
so code that tests `isinstance(part, a2ui.parser.A2uiPart)` or catches
`a2ui.core.A2uiParseError` keeps working unchanged. Set `A2UI_STREAM_NO_SDK=1` to keep the
package apart from the SDK even when it is installed.
"""

from __future__ import annotations

import os
from typing import Any, Optional, Tuple

text_part: Optional[type] = None
a2ui_part: Optional[type] = None
raw_a2ui_part: Optional[type] = None
raw_response_part: Optional[type] = None
errors: Optional[Tuple[type, type, type, type]] = None
"""The SDK's `A2uiError`, `A2uiParseError`, `A2uiValidationError`, `A2uiCatalogError`."""

if not os.environ.get("A2UI_STREAM_NO_SDK"):
    try:
        from a2ui.core import exceptions as _exceptions
        from a2ui.parser import response_part as _parts
    except Exception:  # the SDK is absent (or broken): the package stands alone
        pass
    else:
        text_part = _parts.TextPart
        a2ui_part = _parts.A2uiPart
        raw_a2ui_part = _parts.RawA2uiPart
        raw_response_part = _parts.RawResponsePart
        errors = (
            _exceptions.A2uiError,
            _exceptions.A2uiParseError,
            _exceptions.A2uiValidationError,
            _exceptions.A2uiCatalogError,
        )


def is_sdk_catalog(value: Any) -> bool:
    """Whether `value` looks like a catalog of the official SDK (`CatalogApi`)."""
    return (
        hasattr(value, "protocol_version")
        and hasattr(value, "catalog_id")
        and hasattr(value, "to_json")
    )
