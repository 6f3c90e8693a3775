#!/usr/bin/env python3
"""Added latency per `tools/call` through `stpc mcp-proxy`.

    STPC=target/release/stpc python proxy/bench/overhead.py [--calls N] [--table T]

Method: the official Python MCP SDK calls the reference time server's
`get_current_time` N times (default 500, after 20 warm-up calls) directly,
then through the proxy with a table (default: the proxy suite's
`time.stpc`, compiled here; a committed call, so the monitor labels,
decides ALLOW and audits each), one call at a time, and prints the median
and the 99th percentile of each and of the difference. Both runs are in
one process on the same machine; the difference is what the proxy adds
(two more pipes, the JSON-RPC hops, the decision).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

from mcp import ClientSession, StdioServerParameters, stdio_client

REPO = pathlib.Path(__file__).resolve().parents[2]


async def timed(params: StdioServerParameters, calls: int) -> list:
    out = []
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            for i in range(calls + 20):
                start = time.perf_counter()
                await s.call_tool("get_current_time", {"timezone": "Europe/Lisbon"})
                if i >= 20:
                    out.append(time.perf_counter() - start)
    return out


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=500)
    ap.add_argument("--table")
    a = ap.parse_args()
    stpc = os.environ.get("STPC") or str(REPO / "target" / "release" / "stpc")
    with tempfile.TemporaryDirectory() as tmp:
        table = a.table
        if table is None:
            table = os.path.join(tmp, "time.table.json")
            subprocess.run([stpc, "compile", str(REPO / "proxy/tests/contracts/time.stpc"), "-o", table], check=True)
        server = [sys.executable, "-m", "mcp_server_time", "--local-timezone", "UTC"]
        direct = asyncio.run(timed(StdioServerParameters(command=server[0], args=server[1:]), a.calls))
        proxied = asyncio.run(timed(StdioServerParameters(
            command=stpc,
            args=["mcp-proxy", "--table", table, "--destination", "time_server",
                  "--audit", os.path.join(tmp, "audit.jsonl"), "--", *server]), a.calls))
    ms = 1e3
    print(f"{'':<10} {'median ms':>10} {'p99 ms':>8}")
    print(f"{'direct':<10} {statistics.median(direct) * ms:>10.3f} {pct(direct, 0.99) * ms:>8.3f}")
    print(f"{'proxied':<10} {statistics.median(proxied) * ms:>10.3f} {pct(proxied, 0.99) * ms:>8.3f}")
    print(f"{'added':<10} {(statistics.median(proxied) - statistics.median(direct)) * ms:>10.3f}"
          f" {(pct(proxied, 0.99) - pct(direct, 0.99)) * ms:>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
