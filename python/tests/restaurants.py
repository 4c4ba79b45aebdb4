"""The v1.0 restaurant-finder responses of about 6, 12 and 24 KB that the crate's benchmark
`benches/direct_sdk.py` measures, built the same way: the project's v1.0 example
(`<shared>/a2ui-v1/samples/agent/adk/restaurant_finder/examples/1.0/single_column_list.json`),
brought to what the SDK accepts (`@path` bindings, ids without hyphens), its restaurant list
grown to the size wanted, between two sentences of prose."""

from __future__ import annotations

import json
import os
from typing import Any, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
SIZES = (6200, 12100, 24100)


def shared_root() -> Optional[str]:
    """The shared data folder (`$A2UI_SHARED`, else `../shared` beside the repository) when it
    holds `a2ui/`, else None."""
    root = os.environ.get("A2UI_SHARED") or os.path.join(REPO, "..", "shared")
    return root if os.path.isdir(os.path.join(root, "a2ui")) else None


def sample_path() -> Optional[str]:
    """The restaurant-finder example, if the shared data is there."""
    root = shared_root()
    if root is None:
        return None
    path = os.path.join(
        root, "a2ui-v1", "samples", "agent", "adk", "restaurant_finder", "examples", "1.0",
        "single_column_list.json",
    )
    return path if os.path.isfile(path) else None


def fixed(value: Any) -> Any:
    """The sample brought to the v1.0 the SDK accepts: `@path` bindings, identifier ids."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "path" and isinstance(v, str) and len(value) == 1:
                return {"@path": v}
            out[k] = fixed(v)
        for k in ("id", "child", "componentId"):
            if isinstance(out.get(k), str):
                out[k] = out[k].replace("-", "_")
        if isinstance(out.get("children"), list):
            out["children"] = [c.replace("-", "_") for c in out["children"]]
        return out
    if isinstance(value, list):
        return [fixed(v) for v in value]
    return value


def restaurant(i: int) -> dict:
    """The i-th restaurant of the grown list."""
    return {
        "name": f"Restaurant number {i}",
        "rating": round(3.5 + (i % 15) / 10, 1),
        "detail": f"Seasonal dishes and a quiet room, table {i}",
        "infoLink": f"https://example.com/restaurants/{i}",
        "imageUrl": f"https://picsum.photos/200/300?random={i}",
        "address": f"{100 + i} Market Street, San Francisco",
    }


def response(messages: List[Any]) -> str:
    """The messages in a block between two sentences."""
    body = json.dumps(messages)
    return (
        "Here are the restaurants I found for you.\n<a2ui-json>\n" + body
        + "\n</a2ui-json>\nTell me which one you would like to book."
    )


def responses(sizes: Tuple[int, ...] = SIZES) -> List[Tuple[str, str]]:
    """`(name, text)` per size: the smallest response of at least that many bytes."""
    path = sample_path()
    if path is None:
        return []
    with open(path, encoding="utf-8") as f:
        sample = fixed(json.load(f))
    out = []
    for size in sizes:
        n = 1
        while True:
            messages = json.loads(json.dumps(sample))
            messages[-1]["updateDataModel"]["value"] = [restaurant(i) for i in range(n)]
            text = response(messages)
            if len(text.encode()) >= size:
                break
            n += 1
        out.append((f"{len(text.encode()) / 1000:.1f} KB ({n} restaurants)", text))
    return out


def chunks(text: str, size: int) -> List[str]:
    """`text` in pieces of `size` characters."""
    return [text[i : i + size] for i in range(0, len(text), size)]
