"""Runs the official A2UI Python SDK's streaming parser on the restaurant-finder examples, wrapped
as model responses and fed in 4-byte chunks (the inputs of `cargo bench --features legacy --bench progressive`),
and prints CPU time per response and bytes emitted. When criterion results of that bench are
found (target/criterion/progressive), prints ours beside them and the ratio SDK / ours.

    pip install a2ui-agent-sdk==0.2.4
    cargo bench --features legacy --bench progressive        # optional: our side
    python3 benches/official_sdk.py [--repeat N] [--criterion DIR]
    python3 benches/official_sdk.py --paired [--repeat N]

What one SDK measurement includes: feeding every chunk to a fresh A2uiStreamParser, dropping
what each chunk returns after it (CPU time of this process, time.process_time). Not included:
building the catalog and the parser (its validator), nor freeing the parser after its last
chunk (it goes when `run` returns, after the clock stops); ours leaves the same two out. The
bytes emitted are counted in a separate run. Each response is run --repeat times (default 5).

Both sides are given the same two statistics, and a ratio is only ever taken between like
and like: "best" is the SDK's fastest run against our fastest criterion sample (each sample is
the mean of many responses), "median" the SDK's median run against criterion's median. Noise
on a shared machine only ever adds time, so "best" is the closer estimate of the work itself.

With --paired, ours is not read from criterion but measured between the SDK's runs: the script
starts `cargo bench --bench paired` (benches/paired.rs, the same build and the same timed work
as the criterion bench) and, after each SDK run of a response, asks it for one sample of each
of our six columns on that response (a sample: the mean over a batch of at least 20 ms of CPU
time). Each side then has --repeat samples taken in the same few seconds, so a machine that
runs faster or slower from one minute to the next moves both sides and not their ratio.
The same samples are also taken, in the same turns, from the same server built two other ways,
each printed in a table of its own: with mimalloc as the program's allocator instead of the
system one (`cargo bench --bench paired_mimalloc`), and with Cargo's default release settings
instead of the `bench` profile (`cargo bench --profile release --bench paired`).
"""
import json
import os
import subprocess
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
    """Our time per response in microseconds as (fastest sample, median), or None."""
    folder = os.path.join(criterion_dir, "progressive", name, "new")
    try:
        with open(os.path.join(folder, "estimates.json"), encoding="utf-8") as f:
            median = json.load(f)["median"]["point_estimate"] / 1000.0
        with open(os.path.join(folder, "sample.json"), encoding="utf-8") as f:
            sample = json.load(f)
        best = min(t / i for t, i in zip(sample["times"], sample["iters"]) if i > 0) / 1000.0
        return best, median
    except (OSError, KeyError, ValueError, ZeroDivisionError):
        return None


class Paired:
    """Our side, measured on request by `cargo bench --profile <profile> --bench <bench>`
    (benches/<bench>.rs)."""

    def __init__(self, bench="paired", profile="bench"):
        root = os.path.join(HERE, "..")
        self.bench = bench
        command = ["cargo", "bench", "-q", "--profile", profile, "--features", "legacy", "--bench",
                   bench]
        build = subprocess.run([*command, "--no-run"], cwd=root)
        if build.returncode != 0:
            sys.exit(f"{' '.join(command)} does not build")
        self.proc = subprocess.Popen(
            [*command, "--", "--serve"],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def sample(self, folder, name, label, ms=20):
        """One sample of ours: microseconds per response."""
        self.proc.stdin.write(f"{folder} {name} {label} {ms}\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().split()
        if len(answer) != 2 or not answer[0].isdigit():
            sys.exit(
                f"{self.bench} timing failed on {folder}/{name} {label}: {' '.join(answer)!r}"
            )
        return int(answer[0]) / 1000.0

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


# --paired: the servers sampled besides benches/paired.rs built with the bench profile, each
# printed in a table of its own.
OTHERS = (
    ("paired_mimalloc", "bench",
     "ours built with mimalloc as the program's allocator (benches/paired_mimalloc.rs)"),
    ("paired", "release", "ours built with Cargo's default release settings (benches/paired.rs,"
     " cargo bench --profile release)"),
)


def cell(sdk, t):
    """Ours as (best, median) in us, then the SDK's (best, median) over it: one column pair."""
    return f" {t[0]:>8.1f}/{t[1]:<8.1f} {sdk[0] / t[0]:>9.0f}/{sdk[1] / t[1]:<9.0f}"


def median_of(values):
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def main():
    args = sys.argv[1:]
    repeat = 5
    criterion_dir = os.path.join(HERE, "..", "target", "criterion")
    paired = None
    others = []
    while args:
        flag = args.pop(0)
        if flag == "--repeat" and args:
            repeat = max(1, int(args.pop(0)))
        elif flag == "--criterion" and args:
            criterion_dir = args.pop(0)
        elif flag == "--paired":
            paired = Paired()
            others = [(Paired(bench, profile), title) for bench, profile, title in OTHERS]
        else:
            sys.exit(__doc__)
    labels = ("official", "changed", "official_json", "changed_json", "official_into",
              "changed_into")
    if paired:
        print("ours measured between the SDK's runs (benches/paired.rs), sample for sample")
    header = f"{'response':<30} {'bytes':>6} {'SDK ms':>13} {'SDK out B':>10}"
    header += "".join(f" {label + ' us':>17} {'x ' + label:>19}" for label in labels)
    print(header)
    print("(each pair: best / median; ours in us: official / changed-only mode, messages as Value"
          " trees or as JSON text (_json), or as Value trees written over the step before, handed"
          " back (_into); x: SDK CPU time / ours, best against best and median against median)")
    totals = {"sdk": [0.0, 0.0], **{label: [0.0, 0.0] for label in labels}}
    # --paired, per response: its name, the SDK's fastest run, and our samples of making and
    # freeing only the Value trees that official mode returns.
    floor = []
    # --paired, per response: its name, the SDK's runs, and our samples from each other server.
    besides = []
    complete = True
    for folder, version in (("0.8", VERSION_0_8), ("0.9", VERSION_0_9)):
        cat = catalog(version)
        directory = os.path.join(EXAMPLES, folder)
        for name in sorted(os.listdir(directory)):
            text = response(os.path.join(directory, name))
            runs = []
            samples = {label: [] for label in (*labels, "official_output")}
            extra = [{label: [] for label in labels} for _ in others]
            for _ in range(repeat):
                runs.append(run(cat, text))
                if paired:
                    for label in samples:
                        samples[label].append(paired.sample(folder, name, label))
                    for (server, _), got in zip(others, extra):
                        for label in labels:
                            got[label].append(server.sample(folder, name, label))
            sdk = (min(runs) * 1e6, median_of(runs) * 1e6)
            if paired:
                floor.append((folder + "/" + name, sdk[0], samples["official_output"]))
                besides.append((folder + "/" + name, sdk, extra))
            emitted = emitted_bytes(cat, text)
            line = f"{folder + '/' + name:<30} {len(text):>6}"
            line += f" {sdk[0] / 1000:>6.1f}/{sdk[1] / 1000:<6.1f} {emitted:>10}"
            for k in range(2):
                totals["sdk"][k] += sdk[k]
            for label in labels:
                if paired:
                    t = (min(samples[label]), median_of(samples[label]))
                else:
                    t = ours(criterion_dir, f"{folder}_{name}_{label}")
                if t is None:
                    complete = False
                    line += f" {'-':>17} {'-':>19}"
                    continue
                for k in range(2):
                    totals[label][k] += t[k]
                line += cell(sdk, t)
            print(line)
    if complete:
        line = f"{'all eight':<30} {'':>6} {totals['sdk'][0] / 1000:>6.1f}/{totals['sdk'][1] / 1000:<6.1f} {'':>10}"
        for label in labels:
            line += cell(totals["sdk"], totals[label])
        print(line)
    if paired:
        paired.close()
        for k, (server, title) in enumerate(others):
            server.close()
            print(f"the same, {title}, sampled in the same turns")
            print(f"{'response':<30} {'SDK ms':>13}"
                  + "".join(f" {label + ' us':>17} {'x ' + label:>19}" for label in labels))
            sums = {"sdk": [0.0, 0.0], **{label: [0.0, 0.0] for label in labels}}
            for name, sdk, extra in besides:
                line = f"{name:<30} {sdk[0] / 1000:>6.1f}/{sdk[1] / 1000:<6.1f}"
                for j in range(2):
                    sums["sdk"][j] += sdk[j]
                for label in labels:
                    t = (min(extra[k][label]), median_of(extra[k][label]))
                    for j in range(2):
                        sums[label][j] += t[j]
                    line += cell(sdk, t)
                print(line)
            line = f"{'all eight':<30} {sums['sdk'][0] / 1000:>6.1f}/{sums['sdk'][1] / 1000:<6.1f}"
            for label in labels:
                line += cell(sums["sdk"], sums[label])
            print(line)
        print("official mode, Value trees: making and freeing only the trees returned"
              " (best / median us; SDK's fastest run / best)")
        for name, sdk_best, samples in floor:
            best = min(samples)
            print(f"  {name:<28} {best:>8.1f}/{median_of(samples):<8.1f}"
                  f" {sdk_best / best:>7.0f}x")
        return
    for folder in ("0.8", "0.9"):
        for label in ("official", "changed"):
            one = ours(criterion_dir, f"{folder}_scaling_{label}_1x")
            four = ours(criterion_dir, f"{folder}_scaling_{label}_4x")
            if one and four:
                print(
                    f"ours {folder} scaling {label}: 1x {one[1]:.1f} us, 4x {four[1]:.1f} us"
                    f" ({four[1] / one[1]:.2f}x; fastest samples {four[0] / one[0]:.2f}x)"
                )
            first = ours(criterion_dir, f"{folder}_history_{label}_first")
            fourth = ours(criterion_dir, f"{folder}_history_{label}_fourth")
            if first and fourth:
                print(
                    f"ours {folder} history {label}: first copy {first[1]:.1f} us,"
                    f" fourth copy after three {fourth[1]:.1f} us ({fourth[1] / first[1]:.2f}x)"
                )


if __name__ == "__main__":
    main()
