#!/usr/bin/env python3
"""What a Python `submit` costs over the same call in Rust.

    python bindings/python/bench/overhead.py [--check]

Method: `cargo bench -p stpc-tests --bench submit_mix` compiles the std
Rewrite table, writes it and the realistic event mix
(`tests/src/event_mix.rs`: every std tool, five languages, nested JSON,
committed and speculative events) to a temporary directory, and times
`Monitor::submit` in Rust on every event, each the first of a fresh task
with only the call on the clock, 200 rounds. This script then times
`stpc.Monitor.submit` on the same events the same way (the event is a
dict, as an agent holds it; building it is outside the clock) and prints
the median per action of both and their difference. The package must be
installed from a release build (`maturin build --release`, or
`pip install bindings/python`), as a wheel is.

With `--check`, exits 1 when the overhead of any action's median exceeds
10 µs (the package's floor).
"""

from __future__ import annotations

import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import stpc

REPO = pathlib.Path(__file__).resolve().parents[3]
ROUNDS = 200
FLOOR_NS = 10_000


def main(argv) -> int:
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, STPC_BENCH_OUT=out)
        subprocess.run(
            ["cargo", "bench", "-q", "-p", "stpc-tests", "--bench", "submit_mix"],
            cwd=REPO, env=env, check=True,
        )
        rust = json.loads(pathlib.Path(out, "rust.json").read_text())
        engine = stpc.Engine.load(pathlib.Path(out, "table.json"))
        mix = [json.loads(line) for line in pathlib.Path(out, "mix.jsonl").read_text().splitlines()]
    m = stpc.Monitor(engine)
    times: dict = {}
    clock = time.perf_counter_ns
    for _ in range(ROUNDS):
        for e in mix:
            m.begin_task("bench")
            event = dict(e)
            start = clock()
            d = m.submit(event)
            ns = clock() - start
            times.setdefault(d.action, []).append(ns)
            m.end_task()
    worst = 0
    print(f"{'action':<8} {'rust µs':>9} {'python µs':>10} {'overhead µs':>12} samples")
    for action in sorted(times):
        py = statistics.median(times[action])
        rs = rust.get(action, {}).get("median_ns")
        if rs is None:
            print(f"{action:<8} {'-':>9} {py / 1000:>10.2f} {'-':>12} {len(times[action])}")
            continue
        over = py - rs
        worst = max(worst, over)
        print(f"{action:<8} {rs / 1000:>9.2f} {py / 1000:>10.2f} {over / 1000:>12.2f} {len(times[action])}")
    if "--check" in argv and worst > FLOOR_NS:
        print(f"overhead {worst / 1000:.2f} µs exceeds {FLOOR_NS / 1000:.0f} µs", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
