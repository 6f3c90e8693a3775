"""`stpc mcp-proxy` end to end: the official MCP client SDK (`mcp` from the
Python package index) talks through the proxy to a real MCP server (the
reference `mcp-server-time`), whose standard input is logged by `tee`, so
what reaches the server is asserted on the server's side.

Run by `.ci/run`: `STPC=target/debug/stpc python -m pytest proxy/tests`.
"""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import shlex
import subprocess
import sys

import pytest
from pydantic import BaseModel

from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
STPC = os.environ.get("STPC") or str(REPO / "target" / "debug" / "stpc")


class StpcNotification(BaseModel):
    """An `stpc/` notification, sent with the SDK's `send_notification`."""

    method: str
    params: dict


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("proxy") / "time.table.json"
    subprocess.run([STPC, "compile", str(HERE / "contracts" / "time.stpc"), "-o", str(out)], check=True)
    return out


class Run:
    def __init__(self, tmp: pathlib.Path):
        self.log = tmp / "server-stdin.jsonl"
        self.audit = tmp / "audit.jsonl"

    def received(self) -> list:
        """Every message the upstream server received."""
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]

    def calls(self) -> list:
        return [m for m in self.received() if m.get("method") == "tools/call"]


def proxied(table: pathlib.Path, run: Run, *extra: str, substitute: str | None = None) -> StdioServerParameters:
    server = f"tee -a {shlex.quote(str(run.log))} | {shlex.quote(sys.executable)} -m mcp_server_time --local-timezone UTC"
    # A local clock that answers in the server's own result schema (the
    # client validates structured results against the tool's output schema).
    local = json.dumps({"timezone": "local", "datetime": "substitute", "day_of_week": "Monday", "is_dst": False})
    substitute = substitute or f"local_clock=echo {shlex.quote(local)}"
    return StdioServerParameters(
        command=STPC,
        args=["mcp-proxy", "--table", str(table), "--destination", "time_server",
              "--audit", str(run.audit), "--substitute", substitute, *extra,
              "--", "sh", "-c", server],
    )


def meta(branch: str, confidence: float, mode: str = "speculative") -> dict:
    return {"stpc/branch": branch, "stpc/mode": mode, "stpc/confidence": confidence}


# No test waits forever: a call the proxy never answers fails the test.
TIMEOUT = 60


def session(table, run, body, *extra, substitute=None):
    async def main():
        async with stdio_client(proxied(table, run, *extra, substitute=substitute)) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                return await asyncio.wait_for(body(s), TIMEOUT)

    return asyncio.run(main())


def text(result) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def test_tools_are_listed_through_the_proxy(table, tmp_path):
    run = Run(tmp_path)

    async def body(s):
        return sorted(t.name for t in (await s.list_tools()).tools)

    assert session(table, run, body) == ["convert_time", "get_current_time"]


def test_a_committed_call_reaches_the_server(table, tmp_path):
    run = Run(tmp_path)

    async def body(s):
        return await s.call_tool("get_current_time", {"timezone": "Europe/Lisbon"})

    result = session(table, run, body)
    assert "Europe/Lisbon" in text(result)
    [call] = run.calls()
    assert call["params"]["arguments"] == {"timezone": "Europe/Lisbon"}
    stages = [json.loads(line)["stage"] for line in run.audit.read_text().splitlines()]
    assert stages == ["decided", "completed"]


def test_an_unlikely_ghost_is_answered_by_the_substitute(table, tmp_path):
    run = Run(tmp_path)

    async def body(s):
        return await s.call_tool("get_current_time", {"timezone": "Asia/Tokyo"}, meta=meta("b1", 0.1))

    result = session(table, run, body)
    assert result.structured_content == {
        "timezone": "local", "datetime": "substitute", "day_of_week": "Monday", "is_dst": False}
    assert run.calls() == []


def test_a_ghost_can_be_answered_by_a_local_mcp_server(table, tmp_path):
    run = Run(tmp_path)
    # A second, local instance of the same server answers SHADOWed calls:
    # the upstream (logged) never sees them.
    local_log = tmp_path / "local-stdin.jsonl"
    local = f"tee -a {shlex.quote(str(local_log))} | {shlex.quote(sys.executable)} -m mcp_server_time --local-timezone UTC"

    async def body(s):
        return await s.call_tool("get_current_time", {"timezone": "Asia/Tokyo"}, meta=meta("b1", 0.1))

    result = session(table, run, body, substitute=f"local_clock=mcp:{local}")
    assert result.structured_content["timezone"] == "Asia/Tokyo"
    assert run.calls() == []
    [call] = [json.loads(l) for l in local_log.read_text().splitlines() if '"tools/call"' in l]
    assert call["params"]["name"] == "get_current_time"
    assert call["params"]["arguments"] == {"timezone": "Asia/Tokyo"}


def test_a_local_mcp_substitute_that_cannot_start_fails_closed(table, tmp_path):
    run = Run(tmp_path)

    # The SHADOW fails, so the call is deferred (closed): it waits for its
    # branch, and its abandonment drops it.
    async def body(s):
        call = asyncio.create_task(
            s.call_tool("get_current_time", {"timezone": "Asia/Tokyo"}, meta=meta("b1", 0.1)))
        await asyncio.sleep(1)
        assert not call.done()
        await s.send_notification(StpcNotification(method="notifications/stpc/abandon", params={"branch": "b1"}))
        with pytest.raises(MCPError) as e:
            await asyncio.wait_for(call, 20)
        return e.value

    err = session(table, run, body, substitute="local_clock=mcp:exit 3")
    assert err.code == -32002 and err.data["reason"] == "abandoned", err.data
    assert run.calls() == []
    reasons = [json.loads(l).get("reason") for l in run.audit.read_text().splitlines()]
    assert "substitute_failed" in reasons, reasons


def test_a_deferred_call_is_sent_when_its_branch_is_promoted(table, tmp_path):
    run = Run(tmp_path)

    async def body(s):
        call = asyncio.create_task(s.call_tool(
            "convert_time", {"source_timezone": "UTC", "time": "10:00", "target_timezone": "Asia/Tokyo"},
            meta=meta("b2", 0.5)))
        await asyncio.sleep(0.5)
        assert not call.done()
        before = len(run.calls())
        await s.send_notification(StpcNotification(method="notifications/stpc/promote", params={"branch": "b2"}))
        return before, await asyncio.wait_for(call, 20)

    before, result = session(table, run, body)
    assert before == 0
    assert "Asia/Tokyo" in text(result)
    [call] = run.calls()
    # The server never sees the speculation keys.
    assert not any(k.startswith("stpc/") for k in (call["params"].get("_meta") or {}))


def test_a_held_call_the_client_cancels_is_never_sent_even_when_promoted(table, tmp_path):
    run = Run(tmp_path)

    async def body(s):
        call = asyncio.create_task(s.call_tool(
            "convert_time", {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"},
            meta=meta("b7", 0.5)))
        await asyncio.sleep(0.5)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        await asyncio.sleep(0.3)
        await s.send_notification(StpcNotification(method="notifications/stpc/promote", params={"branch": "b7"}))
        # The session goes on, and the promotion sent nothing.
        await s.call_tool("get_current_time", {"timezone": "UTC"})

    session(table, run, body)
    assert [c["params"]["name"] for c in run.calls()] == ["get_current_time"]


def test_an_abandoned_call_never_reaches_the_server(table, tmp_path):
    run = Run(tmp_path)

    async def body(s):
        call = asyncio.create_task(s.call_tool(
            "convert_time", {"source_timezone": "UTC", "time": "11:00", "target_timezone": "Europe/Paris"},
            meta=meta("b3", 0.5)))
        await asyncio.sleep(0.5)
        await s.send_notification(StpcNotification(method="notifications/stpc/abandon", params={"branch": "b3"}))
        with pytest.raises(MCPError) as e:
            await asyncio.wait_for(call, 20)
        return e.value

    err = session(table, run, body)
    assert err.code == -32002 and err.data["reason"] == "abandoned"
    assert run.calls() == []


def test_a_blocked_call_is_an_error_with_the_rule_and_never_the_arguments(table, tmp_path):
    run = Run(tmp_path)
    secret = "my landlord is evicting me"

    async def body(s):
        with pytest.raises(MCPError) as e:
            await s.call_tool("delete_everything", {"why": secret})
        return e.value

    err = session(table, run, body)
    assert err.code == -32001
    assert err.data == {"action": "block", "rule": "unknown_tool", "reason": "rule"}
    assert "landlord" not in err.message
    assert run.calls() == []
    assert "landlord" not in run.audit.read_text()


def test_speculation_must_say_its_confidence(table, tmp_path):
    run = Run(tmp_path)

    async def body(s):
        with pytest.raises(MCPError) as e:
            await s.call_tool("get_current_time", {"timezone": "UTC"}, meta={"stpc/mode": "speculative"})
        return e.value

    assert session(table, run, body).code == -32602
    assert run.calls() == []


def test_undeclared_tools_can_be_hidden(tmp_path):
    # A contract that declares only one of the server's tools.
    contract = (HERE / "contracts" / "time.stpc").read_text().replace(
        "tools get_current_time, convert_time;", "tools get_current_time;")
    src = tmp_path / "one.stpc"
    src.write_text(contract)
    table = tmp_path / "one.table.json"
    subprocess.run([STPC, "compile", str(src), "-o", str(table)], check=True, capture_output=True)
    run = Run(tmp_path)

    async def body(s):
        return sorted(t.name for t in (await s.list_tools()).tools)

    assert session(table, run, body, "--hide-undeclared") == ["get_current_time"]


DYING = """
use std::labels;
use std::modes;
use std::observers;
use std::labelers;

destination dying_server {
    host "dying.mcp.local";
    label public;
    observed by provider, network;
}

tool echo { effect external_read; args { text: text } destinations dying_server; }
tool crash { effect external_read; args { text: text } destinations dying_server; }

contract dying_gateway {
    tools echo, crash;
    destinations dying_server;
    labelers std_args, std_destinations;
    audit to runtime_log without raw args;
    decide {
        unknown_tool: block unless tool allowed;
        unknown_destination: block unless destination allowed;
        unlabeled: block when labels missing;
        allow;
    }
}
"""


def test_a_server_that_dies_mid_call_is_an_error_not_a_hang(tmp_path):
    src = tmp_path / "dying.stpc"
    src.write_text(DYING)
    table = tmp_path / "dying.table.json"
    subprocess.run([STPC, "compile", str(src), "-o", str(table)], check=True, capture_output=True)
    params = StdioServerParameters(
        command=STPC,
        args=["mcp-proxy", "--table", str(table), "--destination", "dying_server",
              "--", sys.executable, str(HERE / "dying_server.py")],
    )

    async def main():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                assert text(await s.call_tool("echo", {"text": "hello"})) == "hello"
                with pytest.raises(MCPError):
                    await asyncio.wait_for(s.call_tool("crash", {"text": "x"}), 20)
                # The session answers (with an error) rather than hanging.
                with pytest.raises(MCPError):
                    await asyncio.wait_for(s.call_tool("echo", {"text": "again"}), 20)

    asyncio.run(main())


def test_a_client_that_disconnects_ends_the_proxy_and_its_server(table, tmp_path):
    run = Run(tmp_path)
    proc = subprocess.Popen(
        [STPC, *proxied(table, run).args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
    proc.stdin.write((json.dumps(init) + "\n").encode())
    proc.stdin.flush()
    line = proc.stdout.readline()
    assert json.loads(line)["id"] == 1
    proc.stdin.close()  # the client goes away
    assert proc.wait(timeout=20) is not None
    assert proc.returncode == 0


# The reference filesystem server from the npm registry: `.ci/run` installs
# it and names its entry point in STPC_FS_SERVER.
FS_SERVER = os.environ.get("STPC_FS_SERVER")


@pytest.fixture
def fs(tmp_path):
    if not FS_SERVER:
        if os.environ.get("STPC_REQUIRE_SERVERS"):
            raise AssertionError("STPC_REQUIRE_SERVERS is set but STPC_FS_SERVER is not")
        pytest.skip("STPC_FS_SERVER (the npm filesystem server's dist/index.js) is not set")
    root = tmp_path / "workspace"
    root.mkdir()
    table = tmp_path / "fs.table.json"
    subprocess.run([STPC, "compile", str(HERE / "contracts" / "filesystem.stpc"), "-o", str(table)],
                   check=True, capture_output=True)
    params = StdioServerParameters(
        command=STPC,
        args=["mcp-proxy", "--table", str(table), "--destination", "workspace_fs",
              "--", "node", FS_SERVER, str(root)],
    )
    return root, params


def fs_session(params, body):
    async def main():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                return await asyncio.wait_for(body(s), TIMEOUT)

    return asyncio.run(main())


def test_filesystem_a_committed_write_reaches_the_disk(fs):
    root, params = fs

    async def body(s):
        return await s.call_tool("write_file", {"path": str(root / "a.txt"), "content": "meeting moved to Tuesday"})

    fs_session(params, body)
    assert (root / "a.txt").read_text() == "meeting moved to Tuesday"


def test_filesystem_blocked_and_abandoned_writes_never_reach_the_disk(fs):
    root, params = fs

    async def body(s):
        errors = []
        for name, args in [
            ("create_directory", {"path": str(root / "made")}),                       # undeclared tool
            ("write_file", {"path": str(root / "s.txt"), "content": "my hiv test came back positive"}),
        ]:
            with pytest.raises(MCPError) as e:
                await s.call_tool(name, args)
            errors.append(e.value)
        ghost = asyncio.create_task(s.call_tool(
            "write_file", {"path": str(root / "ghost.txt"), "content": "draft"}, meta=meta("g", 0.5)))
        kept = asyncio.create_task(s.call_tool(
            "write_file", {"path": str(root / "kept.txt"), "content": "draft"}, meta=meta("k", 0.5)))
        await asyncio.sleep(0.5)
        await s.send_notification(StpcNotification(method="notifications/stpc/abandon", params={"branch": "g"}))
        await s.send_notification(StpcNotification(method="notifications/stpc/promote", params={"branch": "k"}))
        with pytest.raises(MCPError) as e:
            await asyncio.wait_for(ghost, 20)
        errors.append(e.value)
        await asyncio.wait_for(kept, 20)
        return errors

    undeclared, sensitive, abandoned = fs_session(params, body)
    assert (undeclared.code, undeclared.data["rule"]) == (-32001, "unknown_tool")
    assert (sensitive.code, sensitive.data["rule"]) == (-32001, "sensitive")
    assert "hiv" not in sensitive.message
    assert abandoned.code == -32002
    assert sorted(p.name for p in root.iterdir()) == ["kept.txt"]


def raw_proxy(table, run):
    return subprocess.Popen(
        [STPC, *proxied(table, run).args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}


def test_ten_thousand_mixed_calls_get_exactly_one_response_each(table, tmp_path):
    """Requests of every kind (committed, shadowed, deferred on branches that
    are then promoted or abandoned, blocked, unreadable), pipelined with the
    settling notifications interleaved: every id is answered exactly once."""
    run = Run(tmp_path)
    proc = raw_proxy(table, run)
    n = 10_000
    lines = [json.dumps(INIT), json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})]
    kinds = {}
    for i in range(1, n + 1):
        k = i % 5
        params = {"name": "get_current_time", "arguments": {"timezone": "UTC"}}
        if k == 1:
            params["_meta"] = meta(f"b{i // 50}", 0.1)                      # shadow
        elif k == 2:
            params["_meta"] = meta(f"b{i // 50}", 0.5)                      # defer
        elif k == 3:
            params["name"] = "rm_rf"                                         # block
        elif k == 4:
            params["_meta"] = {"stpc/mode": "speculative"}                   # unreadable
        kinds[i] = k
        lines.append(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params}))
        if i % 50 == 49:
            method = "promote" if (i // 50) % 2 == 0 else "abandon"
            lines.append(json.dumps({"jsonrpc": "2.0", "method": f"notifications/stpc/{method}",
                                     "params": {"branch": f"b{i // 50}"}}))
    # The client keeps its end open until it has every answer (a client
    # that closes first has gone away, and what was in flight is dropped).
    import threading

    def write():
        proc.stdin.write(("\n".join(lines) + "\n").encode())
        proc.stdin.flush()

    writer = threading.Thread(target=write)
    writer.start()
    responses = []
    answered = set()
    while len(answered) < n + 1:
        line = proc.stdout.readline()
        if not line:
            break
        r = json.loads(line)
        responses.append(r)
        if "id" in r:
            answered.add(r["id"])
    writer.join()
    proc.stdin.write((json.dumps({"jsonrpc": "2.0", "method": "notifications/stpc/end_task", "params": {}}) + "\n").encode())
    proc.stdin.close()
    proc.wait(timeout=60)
    err = proc.stderr.read()
    assert b"panicked" not in err, err.decode(errors="replace")
    ids = [r.get("id") for r in responses if "id" in r]
    assert sorted(ids) == list(range(0, n + 1)), "a response was lost or duplicated"
    by_id = {r["id"]: r for r in responses if "id" in r}
    # Requests are decided concurrently, so a settling notification can be
    # decided before a call sent earlier on its branch: such a call is then
    # committed (promoted branch) or refused (abandoned branch), never left
    # waiting. A shadowed call is answered by the substitute unless its
    # branch was already promoted.
    for i, k in kinds.items():
        r = by_id[i]
        if k == 0:
            assert "result" in r, r
        elif k in (1, 2):
            assert "result" in r or r["error"]["code"] == -32002, r
            if k == 1 and (i // 50) % 2 == 1:
                assert "error" in r or r["result"]["structuredContent"]["datetime"] == "substitute", r
            if k == 2 and (i // 50) % 2 == 1:
                assert r.get("error", {}).get("code") == -32002, r  # abandoned: never sent
        elif k == 3:
            assert r["error"]["code"] == -32001, r
        else:
            assert r["error"]["code"] == -32602, r
    # What reached the server is exactly the calls answered by the server.
    real = sum(1 for r in by_id.values()
               if r.get("id") and "result" in r and r["result"].get("structuredContent", {}).get("datetime") != "substitute")
    assert len(run.calls()) == real
    assert all(c["params"]["name"] == "get_current_time" for c in run.calls())


def test_hostile_input_does_not_crash_the_proxy(table, tmp_path):
    run = Run(tmp_path)
    proc = raw_proxy(table, run)
    junk = [
        "not json at all",
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": "a string"}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/stpc/promote", "params": [1, 2]}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/stpc/abandon"}),
        "{" * 10_000,
    ]
    lines = [json.dumps(INIT), json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), *junk,
             json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                         "params": {"name": "get_current_time", "arguments": {"timezone": "UTC"}}})]
    out, err = proc.communicate(("\n".join(lines) + "\n").encode(), timeout=60)
    assert b"panicked" not in err, err.decode(errors="replace")
    assert proc.returncode is not None
    replies = [json.loads(line) for line in out.decode().splitlines() if line.strip().startswith("{")]
    answered = {r.get("id"): r for r in replies}
    # The initialize and the call after the junk are answered; the request
    # whose params are a string gets an error; the session went on.
    assert 0 in answered and "result" in answered[0]
    assert 2 in answered and "result" in answered[2], replies
    assert any("error" in r for r in replies), replies
    assert [c["params"]["name"] for c in run.calls()] == ["get_current_time"]
