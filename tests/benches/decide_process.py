#!/usr/bin/env python3
"""`stpc decide` on one event, as a whole process (issue 15: <= 30 ms).

Method: build the release CLI, compile the std Rewrite policy
(`stdlib-contracts/policies/rewrite.stpc`, which writes the table and its
labeler index beside it) into a temporary directory, then start
`stpc decide --table rewrite.table.json event.json` RUNS times after WARMUP
untimed runs (so the files are in the page cache, as they are for an agent
that decides repeatedly), timing each from `fork` to `exit` with a monotonic
clock around `subprocess.run`. Prints the median, the 10th and 90th
percentiles and the fastest and slowest run, in milliseconds, for two
events: a speculative web search that the table ALLOWs and one it REWRITEs.

Run from the repository root: `python3 tests/benches/decide_process.py`
(`--runs N`, `--no-build` to reuse `target/release/stpc`).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STPC = os.path.join(ROOT, "target", "release", "stpc")

EVENTS = {
    "allow": {
        "tool": "web_search",
        "mode": "speculative",
        "destination": "brave",
        "confidence": 0.4,
        "branch": "b1",
        "args": {"q": "weather in Lisbon this weekend"},
    },
    "rewrite": {
        "tool": "web_search",
        "mode": "speculative",
        "destination": "brave",
        "confidence": 0.4,
        "branch": "b1",
        "args": {"q": "how to fight an eviction notice from my landlord"},
    },
}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=60)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--no-build", action="store_true")
    args = ap.parse_args()
    if not args.no_build:
        run(["cargo", "build", "--release", "-q", "-p", "stpc"], cwd=ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "rewrite.table.json")
        run(
            [STPC, "compile", os.path.join(ROOT, "stdlib-contracts/policies/rewrite.stpc"), "-o", table],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
        )
        for name, event in EVENTS.items():
            path = os.path.join(tmp, f"{name}.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(event, f)
            cmd = [STPC, "decide", "--table", table, path]
            out = run(cmd, capture_output=True, text=True).stdout
            action = json.loads(out).get("action")
            for _ in range(args.warmup):
                run(cmd, stdout=subprocess.DEVNULL)
            times = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                run(cmd, stdout=subprocess.DEVNULL)
                times.append((time.perf_counter() - t0) * 1000)
            times.sort()
            q = statistics.quantiles(times, n=10)
            print(
                f"decide one event ({name}: {action}): median {statistics.median(times):.1f} ms, "
                f"p10 {q[0]:.1f}, p90 {q[-1]:.1f}, min {times[0]:.1f}, max {times[-1]:.1f} "
                f"({args.runs} runs)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
