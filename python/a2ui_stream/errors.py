"""The package's errors, named as the official SDK names them.

Each carries `kind` (`"parse"` or `"validation"`; a splitter error the rule it names), `offset`
(the byte of the response, counted in UTF-8 from its first chunk, where the problem was found,
or `None`) and `partial_results` (the parts the same call produced before the error).

With the SDK installed these classes derive from the SDK's own, so `except
a2ui.core.A2uiParseError` catches `a2ui_stream.A2uiParseError` as well.
"""

from __future__ import annotations

from typing import Any, List, Optional

from . import _sdk

if _sdk.errors is not None:
    _Error, _Parse, _Validation, _Catalog = _sdk.errors
else:

    class _Error(ValueError):  # type: ignore[no-redef]
        """Stand-in for the SDK's `A2uiError` (a `ValueError`)."""

        def __init__(self, message: str, details: Optional[List[Any]] = None) -> None:
            super().__init__(message)
            self.details = details or []

    class _Parse(_Error):  # type: ignore[no-redef]
        """Stand-in for the SDK's `A2uiParseError`."""

    class _Validation(_Error):  # type: ignore[no-redef]
        """Stand-in for the SDK's `A2uiValidationError`."""

    class _Catalog(_Error):  # type: ignore[no-redef]
        """Stand-in for the SDK's `A2uiCatalogError`."""


class A2uiError(_Error):
    """Base of the package's errors (a `ValueError`, as the SDK's `A2uiError`).

    Attributes:
        kind: What went wrong: `"parse"`, `"validation"`, `"catalog"`, or for the splitter the
            rule it names (`"unexpected_byte"`, `"too_deep"`, ...).
        offset: The byte of the response (UTF-8, from its first chunk) where it went wrong, or
            None when the error has no place.
        message: The message alone, without the offset.
        partial_results: The parts the failing call produced before the error.
    """

    kind: str
    offset: Optional[int]
    message: str
    partial_results: List[Any]

    def __init__(self, message: str, kind: str = "parse", offset: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.offset = offset
        self.partial_results = []

    def __str__(self) -> str:
        if self.offset is None:
            return self.message
        return f"at byte {self.offset}: {self.message}"

    def __reduce__(self) -> Any:
        return (type(self), (self.message, self.kind, self.offset))


class A2uiParseError(A2uiError, _Parse):
    """A block that does not read as JSON (or Express), or is empty: `kind == "parse"`."""


class A2uiValidationError(A2uiError, _Validation):
    """A block whose messages break the catalog's rules: `kind == "validation"`."""

    def __init__(
        self, message: str, kind: str = "validation", offset: Optional[int] = None
    ) -> None:
        super().__init__(message, kind, offset)


class A2uiCatalogError(A2uiError, _Catalog):
    """A catalog that cannot be used: `kind == "catalog"`."""

    def __init__(self, message: str, kind: str = "catalog", offset: Optional[int] = None) -> None:
        super().__init__(message, kind, offset)


class SplitError(A2uiParseError):
    """An error of the splitter; `kind` names the rule (`"unexpected_byte"`, `"too_deep"`...)."""
