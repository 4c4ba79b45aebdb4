"""CPU per response of the direct-JSON streaming parser of the official A2UI SDK
(`a2ui-agent-sdk` 0.9.0, `DirectJsonParser.parse_chunk`) beside ours
(`official::direct::DirectJsonParser`), on v1.0 restaurant-finder responses of about 6, 12 and
24 KB fed in 4-byte chunks, and the bytes each side emits.

    python3 -m venv /tmp/sdk && /tmp/sdk/bin/pip install a2ui-agent-sdk==0.9.0
    /tmp/sdk/bin/python benches/direct_sdk.py [--repeat N]

The responses are made at run time from the project's v1.0 example
(`<shared>/a2ui-v1/samples/agent/adk/restaurant_finder/examples/1.0/single_column_list.json`),
brought to what the SDK accepts (bindings `{"@path": ...}`, ids without hyphens), with the
restaurant list grown to the size wanted, between two sentences of prose.

Paired: for each response, each of --repeat turns runs the SDK once (CPU time of this process,
`time.process_time`, over every chunk fed to a new parser; the catalog and the parser are made
before the clock starts) and then asks our side for one sample (`cargo bench --bench direct --
--serve`: the mean CPU time per response over a batch of at least 20 ms, in both emission
modes). The table gives the medians and the ratio SDK / ours.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
SHARED = os.environ.get("A2UI_SHARED", os.path.join(ROOT, "..", "shared"))
SAMPLE = os.path.join(
    SHARED, "a2ui-v1", "samples", "agent", "adk", "restaurant_finder", "examples", "1.0",
    "single_column_list.json")
CHUNK = 4
SIZES = (6200, 12100, 24100)


def fixed(value):
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


def restaurant(i):
    return {
        "name": f"Restaurant number {i}",
        "rating": round(3.5 + (i % 15) / 10, 1),
        "detail": f"Seasonal dishes and a quiet room, table {i}",
        "infoLink": f"https://example.com/restaurants/{i}",
        "imageUrl": f"https://picsum.photos/200/300?random={i}",
        "address": f"{100 + i} Market Street, San Francisco",
    }


def response(messages):
    body = json.dumps(messages)
    return ("Here are the restaurants I found for you.\n<a2ui-json>\n" + body
            + "\n</a2ui-json>\nTell me which one you would like to book.")


def responses(sizes=SIZES):
    """`(name, text)` per size: the smallest response of at least that many bytes."""
    with open(SAMPLE, encoding="utf-8") as f:
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


def sdk_run(text, keys):
    from a2ui.core.basic_catalog import BasicCatalog
    from a2ui.inference_formats.direct_json.parser import DirectJsonParser

    catalog = BasicCatalog("v1.0")
    parser = DirectJsonParser([catalog], progressive_keys=keys)
    chunks = [text[i:i + CHUNK] for i in range(0, len(text), CHUNK)]
    start = time.process_time()
    for chunk in chunks:
        parser.parse_chunk(chunk)
    return time.process_time() - start


def sdk_bytes(text, keys):
    from a2ui.core.basic_catalog import BasicCatalog
    from a2ui.inference_formats.direct_json.parser import DirectJsonParser
    from a2ui.inference_formats._shared import to_message_dicts
    from a2ui.parser import A2uiPart, TextPart

    parser = DirectJsonParser([BasicCatalog("v1.0")], progressive_keys=keys)
    n = 0
    for i in range(0, len(text), CHUNK):
        for p in parser.parse_chunk(text[i:i + CHUNK]):
            if isinstance(p, A2uiPart):
                n += len(json.dumps(to_message_dicts(p.a2ui)))
            elif isinstance(p, TextPart):
                n += len(p.text.encode())
    return n


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def main():
    repeat = 3
    args = sys.argv[1:]
    if "--repeat" in args:
        repeat = int(args[args.index("--repeat") + 1])
    keys = ["text"]
    cases = responses()
    tmp = tempfile.mkdtemp(prefix="direct-bench-")
    files = []
    for i, (name, text) in enumerate(cases):
        path = os.path.join(tmp, f"response{i}.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        files.append(path)
    ours = subprocess.Popen(
        ["cargo", "bench", "-q", "--all-features", "--bench", "direct", "--", "--serve"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(path):
        ours.stdin.write(path + " " + ",".join(keys) + "\n")
        ours.stdin.flush()
        return [float(x) for x in ours.stdout.readline().split()]

    print(f"progressive keys {keys}, {CHUNK}-byte chunks, {repeat} paired turns per response")
    print("| response | SDK 0.9.0 CPU | ours, official | ours, changed-only | SDK / ours (official) "
          "| SDK / ours (changed-only) | bytes out: SDK | ours, official | ours, changed-only |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (name, text), path in zip(cases, files):
        sdk, official, changed = [], [], []
        out_official = out_changed = 0
        for _ in range(repeat):
            sdk.append(sdk_run(text, keys))
            o, c, bo, bc = ask(path)
            official.append(o)
            changed.append(c)
            out_official, out_changed = int(bo), int(bc)
        s, o, c = median(sdk), median(official), median(changed)
        print(f"| {name} | {s * 1e3:.0f} ms | {o * 1e6:.0f} µs | {c * 1e6:.0f} µs "
              f"| {s / o:,.0f}x | {s / c:,.0f}x | {sdk_bytes(text, keys):,} "
              f"| {out_official:,} | {out_changed:,} |")
    ours.stdin.close()
    ours.wait()


if __name__ == "__main__":
    main()
