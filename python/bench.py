"""CPU per response of the official SDK's direct-JSON streaming parser (`a2ui-agent-sdk` 0.9.0,
`DirectJsonParser.parse_chunk`) beside this package's (`a2ui_stream.DirectJsonParser`, in both
emission modes), in one Python process, on the v1.0 restaurant-finder responses of about 6, 12
and 24 KB that `benches/direct_sdk.py` uses, fed in 4-byte chunks.

    python bench.py [--repeat N]

Paired: for each response, each of N turns (default 3) times the SDK once, then the package in
official form, then in changed-only form (`time.process_time` over every chunk fed to a new
parser, the catalog and the parser made before the clock starts; the package's time includes
each chunk's call into Rust and the Python parts it builds). The package's sample is the mean
over as many runs as fill at least 20 ms. The table gives the medians and the ratios.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Callable, List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests"))

from restaurants import chunks, responses  # noqa: E402

import a2ui_stream  # noqa: E402

CHUNK = 4
KEYS = ["text"]


def sdk_run(pieces: List[str]) -> float:
    """CPU seconds of the SDK's parser over one response."""
    from a2ui.core.basic_catalog import BasicCatalog
    from a2ui.inference_formats.direct_json.parser import DirectJsonParser

    parser = DirectJsonParser([BasicCatalog("v1.0")], progressive_keys=KEYS)
    start = time.process_time()
    for chunk in pieces:
        parser.parse_chunk(chunk)
    return time.process_time() - start


def ours_once(pieces: List[str], emission: str) -> float:
    """CPU seconds of the package's parser over one response."""
    parser = a2ui_stream.DirectJsonParser(
        [a2ui_stream.BasicCatalog("v1.0")], progressive_keys=KEYS, emission=emission
    )
    parse = parser.parse_chunk
    start = time.process_time()
    for chunk in pieces:
        parse(chunk)
    parser.finish()
    return time.process_time() - start


def ours_run(pieces: List[str], emission: str) -> float:
    """The mean CPU seconds per response over runs filling at least 20 ms."""
    total, n = 0.0, 0
    while total < 0.02 or n < 3:
        total += ours_once(pieces, emission)
        n += 1
    return total / n


def median(xs: List[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def timed(f: Callable[[], float], into: List[float]) -> None:
    into.append(f())


def main() -> None:
    repeat = 3
    if "--repeat" in sys.argv:
        repeat = int(sys.argv[sys.argv.index("--repeat") + 1])
    cases = responses()
    if not cases:
        sys.exit("the shared A2UI data is absent ($A2UI_SHARED or ../shared)")
    import a2ui  # noqa: F401  (fails early when the SDK is absent)

    print(f"progressive keys {KEYS}, {CHUNK}-byte chunks, {repeat} paired turns per response,"
          " one Python process")
    print()
    print("| response | SDK 0.9.0 CPU | a2ui-stream, official | a2ui-stream, changed-only "
          "| SDK / a2ui-stream (official) | SDK / a2ui-stream (changed-only) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, text in cases:
        pieces = chunks(text, CHUNK)
        ours_once(pieces, "official")  # warm up (catalog compiled once per process)
        sdk: List[float] = []
        official: List[float] = []
        changed: List[float] = []
        for _ in range(repeat):
            timed(lambda: sdk_run(pieces), sdk)
            timed(lambda: ours_run(pieces, "official"), official)
            timed(lambda: ours_run(pieces, "changed_only"), changed)
        s, o, c = median(sdk), median(official), median(changed)
        print(f"| {name} | {s * 1e3:,.0f} ms | {o * 1e3:.2f} ms | {c * 1e3:.2f} ms "
              f"| {s / o:,.0f}x | {s / c:,.0f}x |", flush=True)


if __name__ == "__main__":
    main()
