"""CPU per response of streaming A2UI Express: the official SDK (`a2ui-agent-sdk` 0.9.0), which
has no streaming Express parser, re-compiles the growing text after every chunk
(`ExpressCompiler.compile(text_so_far, is_final=False)`, the only way it can show a UI before
the end; a prefix that does not compile yet shows nothing); ours (`express::ExpressParser`) reads each byte once and compiles each statement as it
ends. Fed in 4-byte chunks; the bytes of JSON each side emits beside the final compile's.

    python3 -m venv /tmp/sdk && /tmp/sdk/bin/pip install a2ui-agent-sdk==0.9.0
    /tmp/sdk/bin/python benches/express_sdk.py [--repeat N]

The responses: the Express restaurant card of the A2UI project
(`<shared>/a2ui-express/20_restaurant-card.underscore.a2ui`, ids written with `_` as the SDK's
lexer wants them), and the restaurant finder demo's scripted answers in Express, which our side
writes out (`cargo bench --bench express -- --answers DIR`). Each is one Express block's text,
compiled against the basic v1.0 catalog.

Paired: for each response, each of --repeat turns runs the SDK once (CPU time of this process,
`time.process_time`, over every chunk; the compiler is made before the clock starts) and then
asks our side for one sample (`cargo bench --bench express -- --serve`: the mean CPU time of a
thread per response over a batch of at least 20 ms). The table gives the medians, the ratio SDK
/ ours, and the JSON bytes out: the SDK's summed over its compiles, ours summed over the
messages it hands out, and the final compile's.
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
CARD = os.path.join(SHARED, "a2ui-express", "20_restaurant-card.underscore.a2ui")
CHUNK = 4


def compiler():
    from a2ui.core.basic_catalog import BasicCatalog
    from a2ui.inference_formats.express.compiler import ExpressCompiler

    return ExpressCompiler([BasicCatalog("v1.0")])


def dumped(messages):
    return json.dumps([m.model_dump(by_alias=True, exclude_none=True) for m in messages],
                      separators=(",", ":"))


def compile_prefix(c, text, end):
    """The SDK's messages for `text[:end]`; none while the prefix does not compile (before
    `root` is written, the SDK raises), as a host showing what compiles would take it."""
    try:
        return c.compile(text[:end], is_final=end == len(text))
    except Exception:  # noqa: BLE001 - any failure of a prefix shows nothing yet
        return []


def sdk_run(text):
    """CPU seconds to re-compile every prefix that ends at a chunk end."""
    c = compiler()
    ends = list(range(CHUNK, len(text), CHUNK)) + [len(text)]
    start = time.process_time()
    for end in ends:
        compile_prefix(c, text, end)
    return time.process_time() - start


def sdk_bytes(text):
    """JSON bytes of every prefix's compile, and of the final one."""
    c = compiler()
    total = 0
    final = 0
    for end in list(range(CHUNK, len(text), CHUNK)) + [len(text)]:
        out = dumped(compile_prefix(c, text, end))
        total += len(out.encode())
        final = len(out.encode())
    return total, final


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def main():
    repeat = 3
    args = sys.argv[1:]
    if "--repeat" in args:
        repeat = int(args[args.index("--repeat") + 1])
    tmp = tempfile.mkdtemp(prefix="express-bench-")
    subprocess.run(
        ["cargo", "bench", "-q", "--all-features", "--bench", "express", "--", "--answers", tmp],
        cwd=ROOT, check=True)
    cases = [("restaurant card", CARD)]
    for name in sorted(os.listdir(tmp)):
        cases.append((f"demo: {os.path.splitext(name)[0]}", os.path.join(tmp, name)))
    ours = subprocess.Popen(
        ["cargo", "bench", "-q", "--all-features", "--bench", "express", "--", "--serve"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(path):
        ours.stdin.write(path + "\n")
        ours.stdin.flush()
        return ours.stdout.readline().split()

    print(f"{CHUNK}-byte chunks, {repeat} paired turns per response, basic v1.0 catalog")
    print("| response | Express bytes | SDK 0.9.0 CPU (re-compile) | ours | SDK / ours "
          "| JSON out: SDK | ours | final compile |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, path in cases:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        sdk, mine = [], []
        out = 0
        for _ in range(repeat):
            sdk.append(sdk_run(text))
            seconds, out = ask(path)
            mine.append(float(seconds))
        s, o = median(sdk), median(mine)
        total, final = sdk_bytes(text)
        print(f"| {name} | {len(text.encode()):,} | {s * 1e3:.0f} ms | {o * 1e6:.1f} µs "
              f"| {s / o:,.0f}x | {total:,} | {int(out):,} | {final:,} |")
    ours.stdin.close()
    ours.wait()


if __name__ == "__main__":
    main()
