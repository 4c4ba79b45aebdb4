#!/usr/bin/env python3
"""Prints the splitter's benchmark table (docs/performance.md) from criterion's results (target/criterion).

    cargo bench --bench splitter && python3 benches/table.py
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "criterion")


def estimate(group, bench, param=None):
    parts = [ROOT, group, bench] + ([str(param)] if param is not None else []) + ["new"]
    d = os.path.join(*parts)
    try:
        with open(os.path.join(d, "estimates.json")) as f:
            ns = json.load(f)["median"]["point_estimate"]
        with open(os.path.join(d, "benchmark.json")) as f:
            tp = json.load(f).get("throughput") or {}
    except FileNotFoundError:
        return None
    size = tp.get("Bytes") or tp.get("BytesDecimal")
    return ns, size


def mib_s(ns, size):
    return size / (ns / 1e9) / (1 << 20)


def main():
    base = estimate("split_1MiB", "serde_json_value")
    if base is None:
        sys.exit("no results: run `cargo bench --bench splitter` first")
    b_ns, size = base
    b_rate = mib_s(b_ns, size)
    print(f"Corpus: {size / (1 << 20):.2f} MiB of prose and `<a2ui-json>` blocks.\n")
    print("| input | time per corpus | throughput | vs serde_json |")
    print("|---|---:|---:|---:|")
    print(f"| `serde_json::from_slice::<Value>` on the JSON (baseline) | {b_ns / 1e6:.2f} ms | {b_rate:.0f} MiB/s | 1.00x |")
    for chunk in [1, 4, 16, 256, 65536]:
        r = estimate("split_1MiB", "splitter", chunk)
        if r:
            rate = mib_s(*r)
            print(f"| `feed`, {chunk} B chunks | {r[0] / 1e6:.2f} ms | {rate:.0f} MiB/s | {rate / b_rate:.2f}x |")
    r = estimate("split_1MiB", "splitter_shared", 65536)
    if r:
        rate = mib_s(*r)
        print(f"| `feed_bytes` (zero-copy), 65536 B chunks | {r[0] / 1e6:.2f} ms | {rate:.0f} MiB/s | {rate / b_rate:.2f}x |")
    r = estimate("split_1MiB", "splitter_whole_data", 65536)
    if r:
        rate = mib_s(*r)
        print(f"| `feed`, 65536 B chunks, data-model updates whole (`split_data_depth: 0`) | {r[0] / 1e6:.2f} ms | {rate:.0f} MiB/s | {rate / b_rate:.2f}x |")
    small = estimate("linear", "splitter_256B_chunks", 65536)
    large = estimate("linear", "splitter_256B_chunks", 4194304)
    if small and large:
        per_small = small[0] / small[1]
        per_large = large[0] / large[1]
        print(f"\nLinearity (256 B chunks): {per_small:.2f} ns/byte on 64 KiB streams, {per_large:.2f} ns/byte on "
              f"one 4 MiB stream of the same bytes ({per_large / per_small:.2f}x).")


if __name__ == "__main__":
    main()
