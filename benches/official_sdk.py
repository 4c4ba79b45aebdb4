"""Runs the official A2UI Python SDK's streaming parser on the restaurant-finder examples, wrapped
as model responses and fed in 4-byte chunks (the inputs of `cargo bench --bench progressive`),
and prints CPU time per response and bytes emitted. When criterion results of that bench are
found (target/criterion/progressive), prints ours beside them and the ratio SDK / ours.

    pip install a2ui-agent-sdk==0.2.4
    cargo bench --bench progressive        # optional: our side
    python3 benches/official_sdk.py [--repeat N] [--criterion DIR]

What one SDK measurement includes: feeding every chunk to a fresh A2uiStreamParser, dropping
what each chunk returns after it (CPU time of this process, time.process_time). Not included:
building the catalog and the parser (its validator); the bytes emitted are counted in a
separate run. Each response is run
--repeat times (default 3) and the fastest run is kept.
"""
import json
import os
import sys
import time

from a2ui.basic_catalog.provider import BasicCatalog
from a2ui.parser.streaming import A2uiStreamParser
from a2ui.schema.common_modifiers import remove_strict_validation
from a2ui.schema.constants import VERSION_0_8, VERSION_0_9
from a2ui.schema.manager import A2uiSchemaManager

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("A2UI_SHARED", os.path.join(HERE, "..", "..", "shared"))
EXAMPLES = os.path.join(SHARED, "a2ui", "restaurant_finder", "examples")
CHUNK = 4


def response(path):
    """The example wrapped as a model response: prose, the A2UI block, prose."""
    with open(path, encoding="utf-8") as f:
        body = f.read()
    return "Here is what I found for you.\n<a2ui-json>\n" + body + "\n</a2ui-json>\nEnjoy your meal!"


def catalog(version):
    manager = A2uiSchemaManager(
        version,
        catalogs=[BasicCatalog.get_config(version=version)],
        schema_modifiers=[remove_strict_validation],
    )
    return manager.get_selected_catalog()


def run(cat, text):
    """CPU seconds to feed `text` in chunks to a new parser (what each chunk returns is dropped
    after it, as a server sends it on)."""
    parser = A2uiStreamParser(catalog=cat)
    start = time.process_time()
    for i in range(0, len(text), CHUNK):
        parser.process_chunk(text[i : i + CHUNK])
    return time.process_time() - start


def emitted_bytes(cat, text):
    """Bytes the parser emits on `text`: prose plus compact JSON of each part's messages."""
    parser = A2uiStreamParser(catalog=cat)
    parts = []
    for i in range(0, len(text), CHUNK):
        parts.extend(parser.process_chunk(text[i : i + CHUNK]))
    emitted = 0
    for part in parts:
        if part.text:
            emitted += len(part.text.encode())
        if part.a2ui_json:
            emitted += len(json.dumps(part.a2ui_json, separators=(",", ":")).encode())
    return emitted


def ours(criterion_dir, name):
    """Our time per response in microseconds (criterion's median), or None."""
    path = os.path.join(criterion_dir, "progressive", name, "new", "estimates.json")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)["median"]["point_estimate"] / 1000.0
    except (OSError, KeyError, ValueError):
        return None


def main():
    args = sys.argv[1:]
    repeat = 3
    criterion_dir = os.path.join(HERE, "..", "target", "criterion")
    while args:
        flag = args.pop(0)
        if flag == "--repeat" and args:
            repeat = max(1, int(args.pop(0)))
        elif flag == "--criterion" and args:
            criterion_dir = args.pop(0)
        else:
            sys.exit(__doc__)
    header = (
        f"{'response':<30} {'bytes':>6} {'SDK ms':>8} {'SDK out B':>10}"
        f" {'off us':>8} {'chg us':>8} {'off txt':>8} {'chg txt':>8}"
        f" {'x off':>6} {'x chg':>6} {'x offtxt':>8} {'x chgtxt':>8}"
    )
    print(header)
    print("(ours in us: official / changed-only mode, messages as Value trees / as JSON text;"
          " x: SDK CPU time / ours)")
    for folder, version in (("0.8", VERSION_0_8), ("0.9", VERSION_0_9)):
        cat = catalog(version)
        directory = os.path.join(EXAMPLES, folder)
        for name in sorted(os.listdir(directory)):
            text = response(os.path.join(directory, name))
            cpu = min(run(cat, text) for _ in range(repeat))
            emitted = emitted_bytes(cat, text)
            times = [
                ours(criterion_dir, f"{folder}_{name}_{label}")
                for label in ("official", "changed", "official_json", "changed_json")
            ]

            def show(x, fmt):
                return format(x, fmt) if x else "-"

            line = f"{folder + '/' + name:<30} {len(text):>6} {cpu * 1000:>8.1f} {emitted:>10}"
            line += "".join(f" {show(t, '8.1f'):>8}" for t in times)
            line += "".join(
                f" {show(t and cpu * 1e6 / t, w + '.0f'):>{w}}"
                for t, w in zip(times, ("6", "6", "8", "8"))
            )
            print(line)
    for folder in ("0.8", "0.9"):
        for label in ("official", "changed"):
            one = ours(criterion_dir, f"{folder}_scaling_{label}_1x")
            four = ours(criterion_dir, f"{folder}_scaling_{label}_4x")
            if one and four:
                print(f"ours {folder} scaling {label}: 1x {one:.1f} us, 4x {four:.1f} us ({four / one:.2f}x)")
            first = ours(criterion_dir, f"{folder}_history_{label}_first")
            fourth = ours(criterion_dir, f"{folder}_history_{label}_fourth")
            if first and fourth:
                print(
                    f"ours {folder} history {label}: first copy {first:.1f} us,"
                    f" fourth copy after three {fourth:.1f} us ({fourth / first:.2f}x)"
                )


if __name__ == "__main__":
    main()
