"""Runs the official A2UI Python SDK's streaming parser on the restaurant-finder examples, wrapped as
model responses and fed in 4-byte chunks, and prints CPU time per response and bytes emitted.

    pip install a2ui-agent-sdk==0.2.4
    python3 benches/official_sdk.py [--ours NAME=MICROSECONDS ...]

With --ours (CPU microseconds per response measured by `cargo bench --bench progressive`), the
ratio official / ours is printed too.
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

SHARED = os.environ.get("A2UI_SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared"))
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


def run(version, text):
    parser = A2uiStreamParser(catalog=catalog(version))
    emitted = 0
    start = time.process_time()
    for i in range(0, len(text), CHUNK):
        for part in parser.process_chunk(text[i : i + CHUNK]):
            if part.text:
                emitted += len(part.text.encode())
            if part.a2ui_json:
                emitted += len(json.dumps(part.a2ui_json, separators=(",", ":")).encode())
    return time.process_time() - start, emitted


def main():
    ours = {}
    args = sys.argv[1:]
    if args and args[0] == "--ours":
        for item in args[1:]:
            name, _, micros = item.partition("=")
            ours[name] = float(micros)
    print(f"{'response':<28} {'bytes':>6} {'CPU ms':>9} {'emitted B':>10} {'x input':>8} {'ours us':>8} {'ratio':>8}")
    for folder, version in (("0.8", VERSION_0_8), ("0.9", VERSION_0_9)):
        directory = os.path.join(EXAMPLES, folder)
        for name in sorted(os.listdir(directory)):
            text = response(os.path.join(directory, name))
            cpu, emitted = run(version, text)
            key = f"{folder}/{name}"
            mine = ours.get(key)
            ratio = f"{cpu * 1e6 / mine:8.0f}" if mine else "       -"
            mine_s = f"{mine:8.1f}" if mine else "       -"
            print(f"{key:<28} {len(text):>6} {cpu * 1000:>9.1f} {emitted:>10} {emitted / len(text):>8.1f} {mine_s} {ratio}")


if __name__ == "__main__":
    main()
