"""The package's API: parts, errors and their attributes, emission modes, `finish`, the
splitter and Express."""

from __future__ import annotations

import json
from typing import Any, List

import pytest

import a2ui_stream as a

DELETE = '[{"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}]'
SURFACE = {
    "version": "v1.0",
    "createSurface": {
        "surfaceId": "main",
        "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
        "components": [
            {"id": "root", "component": "Column", "children": ["a", "b", "c"]},
            {"id": "a", "component": "Text", "text": "first"},
            {"id": "b", "component": "Text", "text": "second"},
            {"id": "c", "component": "Text", "text": "third"},
        ],
    },
}
UPDATE = {
    "version": "v1.0",
    "updateComponents": {
        "surfaceId": "main",
        "components": [
            {"id": "root", "component": "Column", "children": ["a", "b", "c"]},
            {"id": "a", "component": "Text", "text": "one"},
            {"id": "b", "component": "Text", "text": "two"},
            {"id": "c", "component": "Text", "text": "three"},
        ],
    },
}


def _feed(parser: a.DirectJsonParser, text: str, size: int) -> List[Any]:
    out: List[Any] = []
    for i in range(0, len(text), size):
        out.extend(parser.parse_chunk(text[i : i + size]))
    out.extend(parser.finish())
    return out


def test_text_and_messages() -> None:
    parser = a.DirectJsonFormat(catalogs=[a.BasicCatalog("v1.0")]).create_parser()
    parts = parser.parse_chunk(f"Hi <a2ui-json>{DELETE}</a2ui-json> bye")
    assert parts == [
        a.TextPart("Hi"),
        a.A2uiPart([{"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}]),
        a.TextPart("bye"),
    ]
    assert isinstance(parts[1].a2ui[0], a.Message)
    assert parts[1].a2ui[0].model_dump() == json.loads(DELETE)[0]


def test_error_attributes_and_what_follows() -> None:
    parser = a.DirectJsonParser([a.BasicCatalog("1.0")])
    text = "A <a2ui-json>nope</a2ui-json> B <a2ui-json>" + DELETE + "</a2ui-json>"
    with pytest.raises(a.A2uiParseError) as info:
        parser.parse_chunk(text)
    e = info.value
    assert (e.kind, e.offset) == ("parse", text.index("nope"))
    assert e.partial_results == [a.TextPart("A")]
    assert str(e).startswith(f"at byte {e.offset}: ")
    assert isinstance(e, ValueError) and isinstance(e, a.A2uiError)
    # What the chunk made after the error comes first from the next call.
    rest = parser.parse_chunk("")
    assert rest[0] == a.TextPart("B") and isinstance(rest[1], a.A2uiPart)


def test_validation_error() -> None:
    parser = a.DirectJsonParser([a.BasicCatalog("v1.0")])
    bad = dict(UPDATE)
    bad["updateComponents"] = {"surfaceId": "s", "components": [{"id": "root", "component": "Nope"}]}
    with pytest.raises(a.A2uiValidationError) as info:
        parser.parse_chunk(f"<a2ui-json>[{json.dumps(bad)}]</a2ui-json>")
    assert info.value.kind == "validation" and isinstance(info.value.offset, int)


def test_finish_releases_a_held_tag_start_and_reports_an_open_block() -> None:
    parser = a.DirectJsonParser([a.BasicCatalog("v1.0")])
    assert parser.parse_chunk("1 <a2ui") == [a.TextPart("1")]
    assert parser.finish() == [a.TextPart(" <a2ui")]
    parser = a.DirectJsonParser([a.BasicCatalog("v1.0")])
    parser.parse_chunk("<a2ui-json>[")
    with pytest.raises(a.A2uiParseError):
        parser.finish()


def test_wrapped_is_fixed_by_the_first_chunk() -> None:
    parser = a.DirectJsonParser([a.BasicCatalog("v1.0")])
    parts = parser.parse_chunk(DELETE, wrapped=False)
    assert parts == [a.A2uiPart(json.loads(DELETE))]
    with pytest.raises(ValueError):
        parser.parse_chunk("x", wrapped=True)


def test_changed_only_sends_less_and_the_same_components() -> None:
    text = "Here:\n<a2ui-json>" + json.dumps([SURFACE, UPDATE]) + "</a2ui-json>\nDone."

    def run(emission: str) -> List[Any]:
        parser = a.DirectJsonParser([a.BasicCatalog("v1.0")], ["text"], emission=emission)
        return _feed(parser, text, 5)

    official, changed = run("official"), run("changed_only")
    assert [p for p in official if isinstance(p, a.TextPart)] == [
        p for p in changed if isinstance(p, a.TextPart)
    ]

    def components(parts: List[Any]) -> dict:
        seen: dict = {}
        for p in parts:
            for m in getattr(p, "a2ui", []):
                body = m.get("createSurface") or m.get("updateComponents") or {}
                for c in body.get("components", []):
                    seen[c["id"]] = c
        return seen

    def size(parts: List[Any]) -> int:
        return sum(len(json.dumps(p.a2ui)) for p in parts if isinstance(p, a.A2uiPart))

    assert components(official) == components(changed)
    assert size(changed) < size(official)
    with pytest.raises(ValueError):
        a.DirectJsonParser([a.BasicCatalog("v1.0")], emission="sometimes")


def test_catalogs() -> None:
    assert a.BasicCatalog("v0.9").version == "0.9"
    assert "Text" in a.BasicCatalog("v1.0").component_names()
    with pytest.raises(a.A2uiCatalogError):
        a.BasicCatalog("v7")
    with pytest.raises(a.A2uiCatalogError):
        a.DirectJsonParser([])
    with pytest.raises(a.A2uiCatalogError):
        a.DirectJsonParser([a.BasicCatalog("v1.0"), a.BasicCatalog("v1.0")])
    with pytest.raises(TypeError):
        a.DirectJsonParser(["v1.0"])
    own = a.catalog_from_schema(
        "0.9",
        {"catalogId": "mine", "components": {"Text": {"type": "object", "properties": {
            "component": {"const": "Text"}, "text": {"type": "string"}},
            "required": ["component", "text"]}},
         "$defs": {"theme": {"type": "object"}}},
    )
    assert own.catalog_id == "mine"


def test_unwrap_and_wrap() -> None:
    parser = a.DirectJsonParser([a.BasicCatalog("v1.0")])
    parts = parser.unwrap(f"A <a2ui-json>{DELETE}</a2ui-json> B")
    assert [type(p.part).__name__ for p in parts] == ["TextPart", "RawA2uiPart", "TextPart"]
    assert parser.unwrap(parser.wrap(parts)) == parts


def test_splitter() -> None:
    splitter = a.Splitter()
    events = []
    text = f"Sure <a2ui-json>{json.dumps(UPDATE)}</a2ui-json> done"
    for i in range(0, len(text), 7):
        events.extend(splitter.feed(text[i : i + 7].encode()))
    events.extend(splitter.finish())
    messages = [e for e in events if isinstance(e, a.MessageEvent)]
    assert [m.component_id for m in messages] == ["root", "a", "b", "c"]
    assert messages[0].kind == "update_components" and messages[0].surface_id == "main"
    assert messages[0].to_dict()["updateComponents"]["components"] == [UPDATE["updateComponents"]["components"][0]]
    texts = "".join(e.text for e in events if isinstance(e, a.TextEvent))
    assert texts == "Sure  done"
    bad = a.Splitter(bare=True)
    with pytest.raises(a.SplitError) as info:
        bad.feed(b'{"beginRendering": } {"deleteSurface":{"surfaceId":"s"}}')
    assert info.value.kind == "unexpected_byte" and info.value.offset == 19
    assert [e.kind for e in bad.feed(b"")] == ["delete_surface"]


def test_express() -> None:
    catalogs = [a.BasicCatalog("v1.0")]
    messages = a.express.compile('root = Column([title])\ntitle = Text("Hello")', catalogs)
    assert messages[0]["createSurface"]["components"][0]["id"] == "root"
    text = a.express.decompile(messages, catalogs)
    assert a.express.compile(text, catalogs) == messages
    with pytest.raises(a.A2uiParseError) as info:
        a.express.compile('root = Text("Hi"', catalogs)
    assert info.value.offset == 16
    assert "Text" in a.express.prompt(catalogs)
    parser = a.ExpressParser(catalogs, surface_id="main")
    parts = parser.parse_chunk('Here.\n<a2ui>\nroot = Column([t])\nt = Text("Hel')
    parts += parser.parse_chunk('lo")\n</a2ui>\nEnjoy.')
    parts += parser.finish()
    assert parts[0] == a.TextPart("Here.") and parts[-1] == a.TextPart("Enjoy.")
    assert any(isinstance(p, a.A2uiPart) for p in parts)


def test_express_error_queue() -> None:
    # A statement that does not compile raises; the parts before it are its partial results,
    # and the statements after it come first from the next call.
    parser = a.ExpressParser([a.BasicCatalog("v1.0")], surface_id="main")
    with pytest.raises(a.A2uiValidationError) as info:
        parser.parse_chunk('Hi.\n<a2ui>\nx = Marquee("a")\nroot = Text("ok")\n</a2ui>\nBye.')
    assert info.value.partial_results == [a.TextPart("Hi.")]
    rest = parser.parse_chunk("") + parser.finish()
    assert isinstance(rest[0], a.A2uiPart) and rest[-1] == a.TextPart("Bye.")
    assert rest[0].a2ui[0]["createSurface"]["surfaceId"] == "main"
    assert rest[0].a2ui[1]["updateComponents"]["components"][0]["id"] == "root"

