"""The A2UI project's direct-JSON conformance suites (`direct_json/response_streaming.yaml`, 29
cases, and `response_parser.yaml`, 17 cases) run through the package, each case as the crate's
`tests/direct_json.rs` runs it. Skipped when the shared data (`$A2UI_SHARED` or `../shared`) is
absent."""

from __future__ import annotations

import functools
import json
import os
import re
from typing import Any, Dict, List, Optional

import pytest

import a2ui_stream as a
from restaurants import shared_root

yaml = pytest.importorskip("yaml")


def _suite_dir() -> Optional[str]:
    root = shared_root()
    if root is None:
        return None
    path = os.path.join(root, "a2ui-v1", "conformance", "agent", "direct_json")
    return path if os.path.isdir(path) else None


SUITES = _suite_dir()
pytestmark = pytest.mark.skipif(SUITES is None, reason="the shared A2UI data is absent")


def _load(name: str) -> List[Dict[str, Any]]:
    if SUITES is None:
        return []
    with open(os.path.join(SUITES, name), encoding="utf-8") as f:
        return yaml.safe_load(f)


STREAMING = _load("response_streaming.yaml")
PARSING = _load("response_parser.yaml")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_lone_surrogates(value: Any) -> Any:
    """The suites are written for Python strings, which may hold a lone surrogate (a step that
    cuts an escaped pair); the library holds U+FFFD there, as a Rust string must."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_no_lone_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {k: _no_lone_surrogates(v) for k, v in value.items()}
    return value


@functools.lru_cache(maxsize=None)
def _catalog(file: str) -> a.Catalog:
    """The catalog a case names (a path under `conformance/`), on the v1.0 message schema."""
    assert SUITES is not None
    v1 = os.path.normpath(os.path.join(SUITES, "..", "..", ".."))
    derived = os.path.join(v1, "sdk-derived", "v1_0")

    def read(path: str) -> str:
        with open(path, encoding="utf-8") as f:
            return f.read()

    return a.catalog_from_schema(
        "1.0",
        read(os.path.join(v1, "conformance", file)),
        read(os.path.join(derived, "agent_to_renderer.json")),
        read(os.path.join(derived, "common_types.json")),
    )


def _parser(case: Dict[str, Any]) -> a.DirectJsonParser:
    args = case.get("args") or {}
    keys = args.get("progressive_keys") or []
    return a.DirectJsonParser([_catalog(args["catalog"])], progressive_keys=keys)


def _suite_part(part: Any) -> Dict[str, Any]:
    if isinstance(part, a.TextPart):
        return {"text": part.text}
    assert isinstance(part, a.A2uiPart)
    return {"a2ui": [dict(m) for m in part.a2ui]}


def _error_class(category: str) -> type:
    return a.A2uiParseError if category == "ParseError" else a.A2uiValidationError


def test_suite_sizes() -> None:
    assert len(STREAMING) == 29
    assert len(PARSING) == 17


@pytest.mark.parametrize("case", STREAMING, ids=[c.get("name", "") for c in STREAMING])
def test_streaming(case: Dict[str, Any]) -> None:
    wrapped = (case.get("args") or {}).get("wrapped", True) is not False
    parser = _parser(case)
    produced: List[Dict[str, Any]] = []
    for n, step in enumerate(case["steps"]):
        want_error = step.get("expect_error")
        if want_error is not None:
            with pytest.raises(_error_class(want_error.get("category", ""))) as info:
                parser.parse_chunk(step["input"], wrapped=wrapped)
            assert info.value.kind in ("parse", "validation")
            assert info.value.offset is None or isinstance(info.value.offset, int)
            return
        got = [_suite_part(p) for p in parser.parse_chunk(step["input"], wrapped=wrapped)]
        assert got == _no_lone_surrogates(step.get("expect") or []), f"step {n}"
        produced.extend(got)
    if case.get("expect_matches_single_shot"):
        whole = "".join(s["input"] for s in case["steps"])
        one = [_suite_part(p) for p in _parser(case).parse_chunk(whole, wrapped=wrapped)]
        assert one == produced


def _raw(part: a.RawResponsePart) -> Dict[str, Any]:
    if isinstance(part.part, a.TextPart):
        return {"text": part.part.text}
    out: Dict[str, Any] = {"a2ui_raw": part.part.a2ui_raw}
    if not part.is_final:
        out["is_final"] = False
    return out


@pytest.mark.parametrize("case", PARSING, ids=[c.get("name", "") for c in PARSING])
def test_parser(case: Dict[str, Any]) -> None:
    action = case["action"]
    args = case.get("args") or {}
    basic = a.DirectJsonParser([a.BasicCatalog("v1.0")])
    if action == "unwrap":
        got = [_raw(p) for p in basic.unwrap(case.get("input") or "")]
        assert got == (case.get("expect") or [])
    elif action == "wrap":
        parts = [
            a.RawResponsePart(part=a.TextPart(p["text"]))
            if "text" in p
            else a.RawResponsePart(
                part=a.RawA2uiPart(p.get("a2ui_raw", "")), is_final=p.get("is_final", True)
            )
            for p in case.get("parts") or []
        ]
        out = basic.wrap(parts)
        if "expect_output" in case:
            assert out == case["expect_output"]
        for piece in case.get("expect_contains") or []:
            assert piece in out
        if case.get("expect_round_trip"):
            assert [_raw(p) for p in basic.unwrap(out)] == [_raw(p) for p in parts]
    elif action == "parse_response":
        parser = _parser(case)
        wrapped = args.get("wrapped", True) is not False
        want_error = case.get("expect_error")
        if want_error is not None:
            assert want_error.get("category") == "ParseError"
            with pytest.raises(a.A2uiParseError) as info:
                parser.parse_response(case.get("input") or "", wrapped=wrapped)
            assert info.value.kind == "parse"
        else:
            got = [_suite_part(p) for p in parser.parse_response(case.get("input") or "", wrapped)]
            assert got == _no_lone_surrogates(case.get("expect") or [])
    else:
        pytest.fail(f"unknown action {action!r}")


def test_messages_are_json_mappings() -> None:
    case = next(c for c in STREAMING if c.get("steps"))
    parser = _parser(case)
    for step in case["steps"]:
        if "expect_error" in step:
            break
        for part in parser.parse_chunk(step["input"]):
            if isinstance(part, a.A2uiPart):
                for m in part.a2ui:
                    assert json.loads(m.model_dump_json()) == m.model_dump() == dict(m)
