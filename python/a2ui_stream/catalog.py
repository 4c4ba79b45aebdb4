"""Catalogs: the basic catalogs built into the library, catalogs from JSON Schema documents,
and the official SDK's catalog objects, taken as they are."""

from __future__ import annotations

import json
from typing import Any, Dict, Optional, Sequence, Union

from . import _sdk
from ._native import Catalog
from .errors import A2uiCatalogError

CatalogLike = Union[Catalog, Any]
"""A `Catalog`, or a catalog of the official SDK (`a2ui.core.CatalogApi`)."""


def BasicCatalog(protocol_version: str, locale: Optional[str] = None) -> Catalog:  # noqa: N802
    """The basic catalog of `protocol_version` (`"v0.8"`, `"v0.9"`, `"v1.0"`, or without the
    `v`), as the SDK's `a2ui.core.basic_catalog.BasicCatalog` names it. `locale` is accepted for
    the same signature; the catalog's functions do not run here, so it changes nothing."""
    del locale
    try:
        return Catalog.basic(str(getattr(protocol_version, "value", protocol_version)))
    except ValueError as e:
        raise A2uiCatalogError(
            f"Unsupported protocol version for BasicCatalog: '{protocol_version}'."
        ) from e


def catalog_from_schema(
    protocol_version: str,
    catalog: Union[str, Dict[str, Any]],
    messages_schema: Union[str, Dict[str, Any], None] = None,
    common_types_schema: Union[str, Dict[str, Any], None] = None,
) -> Catalog:
    """A catalog from its JSON Schema document (a mapping or JSON text), for protocol version
    `protocol_version`. The message schema and the common types schema default to those of the
    version's basic catalog.

    Raises:
        A2uiCatalogError: If the version is not supported or the schemas do not compile.
    """

    def text(value: Union[str, Dict[str, Any], None]) -> Optional[str]:
        return value if value is None or isinstance(value, str) else json.dumps(value)

    try:
        return Catalog.from_schemas(
            str(protocol_version),
            text(catalog) or "null",
            text(messages_schema),
            text(common_types_schema),
        )
    except ValueError as e:
        raise A2uiCatalogError(str(e)) from e


def as_catalog(value: CatalogLike) -> Catalog:
    """`value` as a `Catalog`: a `Catalog` as it is; an SDK catalog as the built-in basic
    catalog when it is the SDK's basic catalog of its version, else from its catalog document
    (`to_json()`).

    Raises:
        A2uiCatalogError: If the SDK catalog's version is not supported or its document does not
            compile.
        TypeError: If `value` is not a catalog.
    """
    if isinstance(value, Catalog):
        return value
    if _sdk.is_sdk_catalog(value):
        version = str(getattr(value.protocol_version, "value", value.protocol_version))
        basic = BasicCatalog(version)
        if basic.catalog_id is not None and value.catalog_id == basic.catalog_id:
            return basic
        return catalog_from_schema(version, value.to_json())
    raise TypeError(
        f"Expected an a2ui_stream.Catalog or an SDK catalog, got {type(value).__name__}."
    )


def check_catalogs(catalogs: Sequence[CatalogLike]) -> Catalog:
    """The one catalog a parser checks messages with, from the SDK-style list of catalogs.

    Raises:
        TypeError: If `catalogs` is not a sequence.
        A2uiCatalogError: If it is empty or holds more than one catalog.
    """
    if isinstance(catalogs, (str, bytes)) or not isinstance(catalogs, Sequence):
        raise TypeError(
            "Expected `catalogs` to be a Sequence of catalogs, got"
            f" {type(catalogs).__name__}."
        )
    if not catalogs:
        raise A2uiCatalogError("At least one catalog must be provided.")
    if len(catalogs) > 1:
        raise A2uiCatalogError(
            "a2ui_stream checks a response against one catalog; got"
            f" {len(catalogs)} (merge them into one catalog document)."
        )
    return as_catalog(catalogs[0])
