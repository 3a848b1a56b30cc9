#!/usr/bin/env python3
"""Whole-process wall time of `dungeonsmith myk --seed 1 --out DIR --format ...`, paired and repeated.

    scripts/time-run.py [--runs N] [--format LIST] BIN [BIN2]

Runs each binary N times (default 40), alternating BIN and BIN2 run by run so both see the same
machine load, into the same output folder (so every run after the first renames over the last
run's files, as a GM's repeated runs do). Prints the median, the lower quartile and the fastest
wall time per binary and, with two binaries, the median of the paired ratios BIN2 / BIN.
A warm cache: one untimed run of each binary first.
"""
import argparse
import statistics
import subprocess
import tempfile
import time

ALL = "json,svg,md,html,pdf,uvtt,udonarium"


def run(bin_path, out, formats, extra):
    cmd = [bin_path, "myk", "--seed", "1", "--out", out, "--format", formats] + extra
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - t) * 1000


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=40)
    p.add_argument("--format", default=ALL)
    p.add_argument("bins", nargs="+")
    a = p.parse_args()
    outs = [tempfile.mkdtemp(prefix="ds-time-") for _ in a.bins]
    for b, o in zip(a.bins, outs):
        run(b, o, a.format, [])
    times = [[] for _ in a.bins]
    for _ in range(a.runs):
        for i, (b, o) in enumerate(zip(a.bins, outs)):
            times[i].append(run(b, o, a.format, []))
    for b, t in zip(a.bins, times):
        q = statistics.quantiles(t, n=4)
        print(f"{b}: median {statistics.median(t):.2f} ms, lower quartile {q[0]:.2f} ms, fastest {min(t):.2f} ms "
              f"({a.runs} runs, --format {a.format})")
    if len(a.bins) == 2:
        ratios = [y / x for x, y in zip(times[0], times[1])]
        print(f"paired ratio {a.bins[1]} / {a.bins[0]}: median {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
