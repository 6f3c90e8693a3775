"""`stpc mcp-proxy` over streamable HTTP, both sides:

- `--upstream URL`: the proxy is an HTTP client of the reference
  `everything` server run in its `streamableHttp` mode (npm), while its own
  client speaks stdio;
- `--listen ADDR`: MCP clients reach the proxy over HTTP (the Python SDK's
  `streamable_http_client`), each session with its own upstream (the
  reference time server, its input logged) and its own tasks.

Every action, promotion and abandonment are asserted on the server side as
in the stdio suite. Run by `.ci/run`.
"""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import re
import shlex
import socket
import subprocess
import sys

import pytest

from support import STPC, TIMEOUT, StpcNotification, compiled, meta, need, text

from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# -- the proxy as an HTTP client -------------------------------------------------


@pytest.fixture
def everything_http():
    path = os.environ.get("STPC_EVERYTHING_SERVER")
    if not path or not pathlib.Path(path).exists():
        if os.environ.get("STPC_REQUIRE_SERVERS"):
            raise AssertionError("STPC_REQUIRE_SERVERS is set but STPC_EVERYTHING_SERVER is not")
        pytest.skip("STPC_EVERYTHING_SERVER is not set")
    port = free_port()
    server = subprocess.Popen(["node", path, "streamableHttp"], env={**os.environ, "PORT": str(port)},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = server.stderr.readline()
    assert "listening" in line, line
    yield f"http://127.0.0.1:{port}/mcp"
    server.terminate()
    server.wait(timeout=20)


def test_an_http_upstream_is_decided_and_passed_through(everything_http, tmp_path):
    table = compiled(tmp_path, "everything")
    params = StdioServerParameters(command=STPC, args=[
        "mcp-proxy", "--table", str(table), "--destination", "everything", "--upstream", everything_http,
        "--tool-alias", "trigger-long-running-operation=long_operation"])
    progress = []

    async def on_progress(value, total, message):
        progress.append(value)

    async def body(s):
        echo = await s.call_tool("echo", {"message": "over http"})
        with pytest.raises(MCPError) as blocked:
            await s.call_tool("get-sum", {"a": 1, "b": 2})
        long = await s.call_tool("trigger-long-running-operation", {"duration": 0.3, "steps": 3},
                                 progress_callback=on_progress)
        held = asyncio.create_task(s.call_tool("echo", {"message": "ghost"}, meta=meta("b1", 0.4)))
        await asyncio.sleep(0.5)
        assert not held.done()
        await s.send_notification(StpcNotification(method="notifications/stpc/abandon", params={"branch": "b1"}))
        with pytest.raises(MCPError) as abandoned:
            await asyncio.wait_for(held, 20)
        return echo, blocked.value, long, abandoned.value

    async def main():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                return await asyncio.wait_for(body(s), TIMEOUT)

    echo, blocked, long, abandoned = asyncio.run(main())
    assert text(echo) == "Echo: over http"
    assert blocked.code == -32001 and blocked.data["rule"] == "unknown_tool"
    assert "completed" in text(long) and progress == [1, 2, 3]
    assert abandoned.code == -32002


def test_an_unreachable_http_upstream_is_an_error_not_a_hang(tmp_path):
    table = compiled(tmp_path, "everything")
    params = StdioServerParameters(command=STPC, args=[
        "mcp-proxy", "--table", str(table), "--destination", "everything",
        "--upstream", f"http://127.0.0.1:{free_port()}/mcp"])

    async def main():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                # An error from the proxy; a timeout would fail the test.
                with pytest.raises(MCPError) as e:
                    await asyncio.wait_for(s.initialize(), 30)
                return e.value

    err = asyncio.run(main())
    assert "did not initialize" in err.message, err.message


# -- the proxy as an HTTP server ---------------------------------------------------


class Listening:
    def __init__(self, tmp: pathlib.Path):
        self.log = tmp / "server-stdin.jsonl"
        table = compiled(tmp, "time")
        server = f"tee -a {shlex.quote(str(self.log))} | {shlex.quote(sys.executable)} -m mcp_server_time --local-timezone UTC"
        local = json.dumps({"timezone": "local", "datetime": "substitute", "day_of_week": "Monday", "is_dst": False})
        self.proc = subprocess.Popen(
            [STPC, "mcp-proxy", "--table", str(table), "--destination", "time_server",
             "--substitute", f"local_clock=echo {shlex.quote(local)}",
             "--listen", "127.0.0.1:0", "--", "sh", "-c", server],
            stderr=subprocess.PIPE, text=True)
        line = self.proc.stderr.readline()
        m = re.search(r"listening on (http://\S+)", line)
        assert m, line
        self.url = m.group(1)

    def calls(self) -> list:
        if not self.log.exists():
            return []
        return [json.loads(l) for l in self.log.read_text().splitlines()
                if l.strip() and json.loads(l).get("method") == "tools/call"]

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=20)


@pytest.fixture
def listening(tmp_path):
    p = Listening(tmp_path)
    yield p
    p.stop()


def over_http(url, body):
    async def main():
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                return await asyncio.wait_for(body(s), TIMEOUT)

    return asyncio.run(main())


def test_clients_reach_the_proxy_over_http(listening):
    async def body(s):
        tools = sorted(t.name for t in (await s.list_tools()).tools)
        allowed = await s.call_tool("get_current_time", {"timezone": "Europe/Lisbon"})
        shadowed = await s.call_tool("get_current_time", {"timezone": "Asia/Tokyo"}, meta=meta("b1", 0.1))
        with pytest.raises(MCPError) as blocked:
            await s.call_tool("delete_everything", {"why": "my landlord is evicting me"})
        held = asyncio.create_task(s.call_tool(
            "convert_time", {"source_timezone": "UTC", "time": "10:00", "target_timezone": "Asia/Tokyo"},
            meta=meta("b2", 0.5)))
        await asyncio.sleep(0.5)
        before = len(listening.calls())
        await s.send_notification(StpcNotification(method="notifications/stpc/promote", params={"branch": "b2"}))
        promoted = await asyncio.wait_for(held, 20)
        return tools, allowed, shadowed, blocked.value, before, promoted

    tools, allowed, shadowed, blocked, before, promoted = over_http(listening.url, body)
    assert tools == ["convert_time", "get_current_time"]
    assert "Europe/Lisbon" in text(allowed)
    assert shadowed.structured_content["datetime"] == "substitute"
    assert blocked.code == -32001 and "landlord" not in blocked.message
    assert before == 1
    assert "Asia/Tokyo" in text(promoted)
    sent = [c["params"]["name"] for c in listening.calls()]
    assert sent == ["get_current_time", "convert_time"]
    assert not any(k.startswith("stpc/") for c in listening.calls() for k in (c["params"].get("_meta") or {}))


def test_sessions_do_not_share_tasks(listening):
    # A call held in one session is not released by another session's
    # promotion of a branch of the same name.
    async def held_then_closed(s):
        call = asyncio.create_task(s.call_tool(
            "convert_time", {"source_timezone": "UTC", "time": "11:00", "target_timezone": "Europe/Paris"},
            meta={**meta("b9", 0.5), "stpc/task": "shared"}))
        await asyncio.sleep(0.5)

        async def other_session():
            async with streamable_http_client(listening.url) as (read, write):
                async with ClientSession(read, write) as t:
                    await t.initialize()
                    await t.send_notification(StpcNotification(
                        method="notifications/stpc/promote", params={"task": "shared", "branch": "b9"}))
                    await asyncio.sleep(0.5)

        await other_session()
        done = call.done()
        await s.send_notification(StpcNotification(
            method="notifications/stpc/abandon", params={"task": "shared", "branch": "b9"}))
        with pytest.raises(MCPError):
            await asyncio.wait_for(call, 20)
        return done

    assert over_http(listening.url, held_then_closed) is False
    assert listening.calls() == []


def test_a_call_without_a_session_is_refused_and_nothing_is_decided(listening, tmp_path):
    import urllib.error
    import urllib.request

    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "get_current_time", "arguments": {"timezone": "my landlord is evicting me"},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
                  "io.modelcontextprotocol/clientCapabilities": {}}}}).encode()
    req = urllib.request.Request(listening.url, data=body, method="POST", headers={
        "content-type": "application/json", "accept": "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            answer = r.read().decode()
    except urllib.error.HTTPError as e:
        answer = e.read().decode()
    assert '"error"' in answer, answer
    assert "landlord" not in answer
    assert listening.calls() == []
