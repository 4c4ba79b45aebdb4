"""Bad input never escapes as anything but the package's own errors: the crate's fuzz corpora
(`fuzz/corpus/direct`, `fuzz/corpus/split_bytes`) and generated garbage, through the
direct-JSON parser (both emission modes), the splitter and the Express parser. Every error is an
`A2uiError` with a `kind` and an `offset`."""

from __future__ import annotations

import os
import random
from typing import Callable, List

import pytest

import a2ui_stream as a
from restaurants import REPO

CORPUS = os.path.join(REPO, "fuzz", "corpus")
KINDS = ("parse", "validation")


def _files(name: str) -> List[str]:
    folder = os.path.join(CORPUS, name)
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, f) for f in os.listdir(folder))


def _garbage(n: int) -> List[bytes]:
    rng = random.Random(20240611)
    alphabet = b'{}[]":,\\ \n\tabc<>/a2ui-json`01eE.-+\xe2\x80\x9c\xff'
    out = []
    for _ in range(n):
        size = rng.randrange(0, 400)
        if rng.random() < 0.5:
            out.append(bytes(rng.randrange(256) for _ in range(size)))
        else:
            out.append(bytes(rng.choice(alphabet) for _ in range(size)))
    return out


def _inputs(corpus: str) -> List[bytes]:
    data = []
    for path in _files(corpus):
        with open(path, "rb") as f:
            data.append(f.read())
    return data + _garbage(300)


def _chunks(text: str, seed: int) -> List[str]:
    rng = random.Random(seed)
    out, i = [], 0
    while i < len(text):
        n = rng.randrange(1, 17)
        out.append(text[i : i + n])
        i += n
    return out


def _drive(step: Callable[[], object]) -> None:
    """Runs one call; the only exception it may raise is the package's own."""
    try:
        step()
    except a.A2uiError as e:
        assert isinstance(e.offset, (int, type(None)))
        assert isinstance(e.kind, str) and e.kind
        assert isinstance(e.partial_results, list)


DIRECT = _inputs("direct")
SPLIT = _inputs("split_bytes")


@pytest.mark.parametrize("emission", ["official", "changed_only"])
def test_direct_parser_on_the_corpus(emission: str) -> None:
    catalog = a.BasicCatalog("v1.0")
    for n, data in enumerate(DIRECT):
        text = data.decode("utf-8", "replace")
        for wrapped in (True, False):
            parser = a.DirectJsonParser([catalog], ["text", "title"], emission=emission)
            for chunk in _chunks(text, n):
                try:
                    parser.parse_chunk(chunk, wrapped=wrapped)
                except a.A2uiError as e:
                    assert e.kind in KINDS
                    assert isinstance(e.offset, (int, type(None)))
            _drive(parser.finish)
        _drive(lambda: a.DirectJsonParser([catalog]).parse_response(text))


def test_splitter_on_the_corpus() -> None:
    for n, data in enumerate(SPLIT):
        for bare in (False, True):
            splitter = a.Splitter(bare=bare, lenient=bool(n % 2))
            step = max(1, n % 13)
            for i in range(0, len(data), step):
                try:
                    for event in splitter.feed(data[i : i + step]):
                        if isinstance(event, a.MessageEvent):
                            assert isinstance(event.to_dict(), dict)
                except a.SplitError as e:
                    assert isinstance(e.offset, (int, type(None)))
            _drive(splitter.finish)


def test_express_on_garbage() -> None:
    catalogs = [a.BasicCatalog("v1.0")]
    for n, data in enumerate(DIRECT[:400] + _garbage(200)):
        text = data.decode("utf-8", "replace")
        parser = a.ExpressParser(catalogs, wrapped=bool(n % 2))
        for chunk in _chunks(text.replace("a2ui-json", "a2ui"), n):
            _drive(lambda: parser.parse_chunk(chunk))
        _drive(parser.finish)
        _drive(lambda: a.express.compile(text, catalogs))


def test_lone_surrogate_is_a_parse_error() -> None:
    parser = a.DirectJsonParser([a.BasicCatalog("v1.0")])
    parser.parse_chunk("Hello ")
    with pytest.raises(a.A2uiParseError) as info:
        parser.parse_chunk("bad \ud800 text")
    assert info.value.kind == "parse"
    assert info.value.offset == len("Hello ")
    assert [p.text for p in parser.parse_chunk(" again")] == ["  again"]
