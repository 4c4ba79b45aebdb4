"""Instructions per response of the progressive parser, counted by valgrind's callgrind, for the
restaurant-finder examples wrapped as responses and fed in 4-byte chunks (the inputs of
`cargo bench --features legacy --bench progressive`). An instruction count moves far less than CPU time from one
run to the next (by about 1%, with where the allocator's blocks happen to lie), so it is the
figure to compare builds and versions by.

    python3 benches/instructions.py [--profiles A B ...] [--scaling]

Each profile (default: `release bench`, Cargo's default release settings and the `bench` profile
of Cargo.toml) builds `benches/paired.rs` with `cargo bench --profile P --features legacy
--no-run`, and the server
runs once under callgrind with `--count`: every request is one response run once untimed and once
inside `counted_response`, whose instructions callgrind writes to a file of its own
(`--toggle-collect`, `--dump-after`). What one response includes is what the paired and criterion
benches time: every chunk fed to a new parser, what each chunk returns dropped (not making the
parser or dropping it after its last chunk).

Printed as Markdown rows: one row per response with the four columns (official / changed-only
mode, messages as Value trees / as JSON text), each `A → B (change)` across the profiles given.
With --scaling, also the single-column list once and four times in one stream (each copy on
surface ids of its own), counted with the last profile: the work per response is linear when the
four copies take about four times the instructions of one. It also counts three copies, and
sets the fourth copy (four copies less three) against the first (one copy): per-chunk work that
does not grow with what came before gives the same count for both.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
SHARED = os.environ.get("A2UI_SHARED", os.path.join(ROOT, "..", "shared"))
EXAMPLES = os.path.join(SHARED, "a2ui", "restaurant_finder", "examples")
LABELS = ("official", "official_json", "official_into", "changed", "changed_json", "changed_into")
HEADINGS = ("official, Value", "official, text", "official, Value written over",
            "changed-only, Value", "changed-only, text", "changed-only, Value written over")


def server(profile):
    """Path of the paired timing server built with `profile`."""
    build = subprocess.run(
        ["cargo", "bench", "-q", "--profile", profile, "--features", "legacy", "--bench", "paired",
         "--no-run", "--message-format=json"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )
    if build.returncode != 0:
        sys.exit(f"cargo bench --profile {profile} --bench paired does not build")
    for line in build.stdout.splitlines():
        message = json.loads(line)
        target = message.get("target", {})
        if message.get("reason") == "compiler-artifact" and target.get("name") == "paired":
            if message.get("executable"):
                return message["executable"]
    sys.exit(f"no paired executable in the output of the {profile} build")


def count(binary, requests):
    """Instructions of one response for each `(folder, file, label)` request, in order."""
    with tempfile.TemporaryDirectory() as out:
        base = os.path.join(out, "cg")
        lines = "".join(f"{folder} {name} {label} 1\n" for folder, name, label in requests)
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--toggle-collect=*counted_response",
             "--dump-after=*counted_response", f"--callgrind-out-file={base}",
             binary, "--serve", "--count"],
            input=lines, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        answers = run.stdout.splitlines()
        if run.returncode != 0 or answers != ["0 1"] * len(requests):
            sys.exit(f"counting failed: {run.stdout.strip()!r}")
        dumps = sorted(glob.glob(base + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        if len(dumps) != len(requests):
            sys.exit(f"callgrind wrote {len(dumps)} counts for {len(requests)} responses")
        counts = []
        for path in dumps:
            with open(path, encoding="utf-8") as f:
                totals = [line for line in f if line.startswith("totals:")]
            if not totals:
                sys.exit(f"no totals in {path}")
            counts.append(int(totals[0].split()[1]))
        return counts


def millions(n):
    return f"{n / 1e6:.2f}M"


def across(values):
    """`a → b (change)` for the counts of one cell across the profiles."""
    text = " → ".join(millions(v) for v in values)
    if len(values) > 1:
        text += f" ({(values[-1] / values[0] - 1) * 100:+.1f}%)"
    return text


def main():
    args = sys.argv[1:]
    profiles = ["release", "bench"]
    scaling = False
    while args:
        flag = args.pop(0)
        if flag == "--profiles":
            profiles = []
            while args and not args[0].startswith("--"):
                profiles.append(args.pop(0))
            if not profiles:
                sys.exit(__doc__)
        elif flag == "--scaling":
            scaling = True
        else:
            sys.exit(__doc__)
    if shutil.which("valgrind") is None:
        sys.exit("valgrind not found (Debian: apt-get install valgrind)")
    if not os.path.isdir(EXAMPLES):
        sys.exit(f"no A2UI examples at {EXAMPLES}: set A2UI_SHARED to the folder holding a2ui/")
    responses = [(folder, name) for folder in ("0.8", "0.9")
                 for name in sorted(os.listdir(os.path.join(EXAMPLES, folder)))]
    requests = [(folder, name, label) for folder, name in responses for label in LABELS]
    if scaling:
        requests += [(folder, f"single_column_list.json*{times}", label)
                     for folder in ("0.8", "0.9") for times in (1, 3, 4) for label in LABELS]
    counts = {}
    for profile in profiles:
        for request, n in zip(requests, count(server(profile), requests)):
            counts.setdefault(request, []).append(n)
    print(f"instructions per response, {' → '.join(profiles)}")
    print("| response | " + " | ".join(HEADINGS) + " |")
    print("|---|" + "---:|" * len(LABELS))
    sums = {label: [0] * len(profiles) for label in LABELS}
    for folder, name in responses:
        cells = []
        for label in LABELS:
            values = counts[(folder, name, label)]
            sums[label] = [a + b for a, b in zip(sums[label], values)]
            cells.append(across(values))
        print(f"| {folder} {name.removesuffix('.json')} | " + " | ".join(cells) + " |")
    print("| all eight | " + " | ".join(across(sums[label]) for label in LABELS) + " |")
    if scaling:
        print(f"\nsingle_column_list once → four times in one stream, and its first copy (once) →"
              f" its fourth (four times less three times) ({profiles[-1]} profile)")
        print("| version | " + " | ".join(HEADINGS) + " |")
        print("|---|" + "---:|" * len(LABELS))
        for folder in ("0.8", "0.9"):
            scaled, fourth = [], []
            for label in LABELS:
                one, three, four = (counts[(folder, f"single_column_list.json*{times}", label)][-1]
                                    for times in (1, 3, 4))
                scaled.append(f"{millions(one)} → {millions(four)} ({four / one:.2f}x)")
                fourth.append(f"{millions(one)} → {millions(four - three)} "
                              f"({(four - three) / one:.3f}x)")
            print(f"| v{folder}, 1x → 4x | " + " | ".join(scaled) + " |")
            print(f"| v{folder}, first → fourth copy | " + " | ".join(fourth) + " |")


if __name__ == "__main__":
    main()
