"""The v1.0 restaurant-finder responses of about 6, 12 and 24 KB that the crate's benchmark
`benches/direct_sdk.py` measures, built by it: the project's v1.0 example
(`<shared>/a2ui-v1/samples/agent/adk/restaurant_finder/examples/1.0/single_column_list.json`),
brought to what the SDK accepts (`@path` bindings, ids without hyphens), its restaurant list
grown to the size wanted, between two sentences of prose."""

from __future__ import annotations

import importlib.util
import os
from typing import List, Optional, Tuple

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


def responses(sizes: Tuple[int, ...] = SIZES) -> List[Tuple[str, str]]:
    """`(name, text)` per size: the smallest response of at least that many bytes, as
    `benches/direct_sdk.py` builds them; none without the shared data."""
    if sample_path() is None:
        return []
    spec = importlib.util.spec_from_file_location(
        "direct_sdk", os.path.join(REPO, "benches", "direct_sdk.py")
    )
    if spec is None or spec.loader is None:
        raise ImportError("benches/direct_sdk.py cannot be loaded")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench.responses(sizes)


def chunks(text: str, size: int) -> List[str]:
    """`text` in pieces of `size` characters."""
    return [text[i : i + size] for i in range(0, len(text), size)]
