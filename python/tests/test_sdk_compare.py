"""The package beside the official SDK 0.9.0 on the same chunks: the v1.0 restaurant-finder
responses (as the crate's `benches/direct_sdk.py` builds them) and a few small responses, in
official form, part for part. Skipped where the SDK or the shared data is absent."""

from __future__ import annotations

import json
from typing import Any, List, Tuple

import pytest

import a2ui_stream as a
from restaurants import chunks, responses

sdk_catalog = pytest.importorskip("a2ui.core.basic_catalog")
sdk_direct = pytest.importorskip("a2ui.inference_formats.direct_json")
sdk_parser = pytest.importorskip("a2ui.parser")
sdk_shared = pytest.importorskip("a2ui.inference_formats._shared")
sdk_core = pytest.importorskip("a2ui.core")

RESPONSES = responses((6200, 12100))


def _plain(parts: List[Any]) -> List[Tuple[str, Any]]:
    """Parts of either side as comparable values (messages through the SDK's
    `to_message_dicts`, which takes both sides' messages)."""
    out: List[Tuple[str, Any]] = []
    for p in parts:
        if isinstance(p, sdk_parser.A2uiPart):
            out.append(("a2ui", json.loads(json.dumps(sdk_shared.to_message_dicts(p.a2ui)))))
        else:
            assert isinstance(p, sdk_parser.TextPart)
            out.append(("text", p.text))
    return out


def _both(text: str, size: int, keys: List[str]) -> None:
    sdk = sdk_direct.DirectJsonFormat(
        catalogs=[sdk_catalog.BasicCatalog("v1.0")], progressive_keys=keys
    ).create_parser()
    ours = a.DirectJsonFormat(
        catalogs=[a.BasicCatalog("v1.0")], progressive_keys=keys
    ).create_parser()
    for n, chunk in enumerate(chunks(text, size)):
        want = _plain(sdk.parse_chunk(chunk))
        got = _plain(ours.parse_chunk(chunk))
        assert got == want, f"chunk {n}: {chunk!r}"


@pytest.mark.skipif(not RESPONSES, reason="the shared A2UI data is absent")
@pytest.mark.parametrize("size", [4, 61])
@pytest.mark.parametrize("index", range(len(RESPONSES)) if RESPONSES else [0])
def test_restaurants_match_the_sdk(index: int, size: int) -> None:
    _both(RESPONSES[index][1], size, ["text"])


@pytest.mark.skipif(not RESPONSES, reason="the shared A2UI data is absent")
def test_restaurants_without_progressive_keys() -> None:
    _both(RESPONSES[0][1], 7, [])


SMALL = [
    "Just words, no interface.",
    "A <a2ui-json>[{\"version\": \"v1.0\", \"deleteSurface\": {\"surfaceId\": \"s\"}}]"
    "</a2ui-json>  B  ",
    "Case <A2UI-JSON data-x=\"1\">\n```json\n[{\"version\": \"v1.0\", \"deleteSurface\": "
    "{\"surfaceId\": \"s\"}}]\n```\n</a2ui-json >tail < not a tag",
]


@pytest.mark.parametrize("text", SMALL)
@pytest.mark.parametrize("size", [1, 3, 1000])
def test_small_responses_match_the_sdk(text: str, size: int) -> None:
    _both(text, size, ["text"])


def test_sdk_catalog_objects_are_accepted() -> None:
    parser = a.DirectJsonFormat(catalogs=[sdk_catalog.BasicCatalog("v1.0")]).create_parser()
    parts = parser.parse_chunk(SMALL[1])
    assert [type(p).__name__ for p in parts] == ["TextPart", "A2uiPart", "TextPart"]


def test_parts_and_errors_are_the_sdks_types() -> None:
    parser = a.DirectJsonFormat(catalogs=[a.BasicCatalog("v1.0")]).create_parser()
    parts = parser.parse_chunk(SMALL[1])
    assert isinstance(parts[0], sdk_parser.TextPart)
    assert isinstance(parts[1], sdk_parser.A2uiPart)
    models = sdk_parser.to_message_models(parts[1].a2ui)
    assert sdk_shared.to_message_dicts(models) == sdk_shared.to_message_dicts(parts[1].a2ui)
    with pytest.raises(sdk_core.A2uiParseError) as info:
        parser.parse_chunk("<a2ui-json>not json</a2ui-json>")
    assert isinstance(info.value, a.A2uiParseError)
    assert info.value.kind == "parse"


def test_same_error_kinds_as_the_sdk() -> None:
    bad = [
        ("<a2ui-json>not json</a2ui-json>", sdk_core.A2uiParseError),
        (
            "<a2ui-json>[{\"version\": \"v1.0\", \"updateComponents\": {\"surfaceId\": \"s\","
            " \"components\": [{\"id\": \"root\", \"component\": \"Marquee\"}]}}]</a2ui-json>",
            sdk_core.A2uiValidationError,
        ),
    ]
    for text, error in bad:
        sdk = sdk_direct.DirectJsonParser([sdk_catalog.BasicCatalog("v1.0")])
        with pytest.raises(error):
            sdk.parse_chunk(text)
        ours = a.DirectJsonParser([a.BasicCatalog("v1.0")])
        with pytest.raises(error) as info:
            ours.parse_chunk(text)
        want = "parse" if error is sdk_core.A2uiParseError else "validation"
        assert info.value.kind == want
        assert isinstance(info.value.offset, int)
