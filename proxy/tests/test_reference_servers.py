"""`stpc mcp-proxy` in front of more reference MCP servers from the package
registries, driven by the official Python MCP client SDK, with what reached
each server asserted on the server's side:

- `mcp-server-git` (PyPI): a blocked or abandoned commit never lands in the
  repository (its `git log`), a promoted one does;
- `mcp-server-fetch` (PyPI), fetching from an HTTP server on this machine
  only: a blocked or abandoned fetch never reaches it (its request log);
- `@modelcontextprotocol/server-everything` (npm): the whole protocol passes
  through the proxy both ways, progress notifications and the server's
  sampling request to the client included.

Run by `.ci/run` (which installs the servers, pinned). A server that is not
installed skips its tests unless `STPC_REQUIRE_SERVERS` is set.
"""

from __future__ import annotations

import asyncio
import http.server
import importlib.util
import json
import os
import pathlib
import shlex
import subprocess
import sys
import threading

import pytest

import mcp.types as types
from support import STPC, TIMEOUT, StpcNotification, compiled, meta, need, text

from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client

SECRET = "my HIV diagnosis came back positive"


def through_proxy(table, destination, server: list[str], body, *extra, **session_kw):
    params = StdioServerParameters(
        command=STPC,
        args=["mcp-proxy", "--table", str(table), "--destination", destination, *extra, "--", *server])

    async def main():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, **session_kw) as s:
                await s.initialize()
                return await asyncio.wait_for(body(s), TIMEOUT)

    return asyncio.run(main())


async def settle(s, method: str, branch: str):
    await s.send_notification(StpcNotification(method=f"notifications/stpc/{method}", params={"branch": branch}))


# -- git ---------------------------------------------------------------------


@pytest.fixture
def repo(tmp_path):
    need(importlib.util.find_spec("mcp_server_git") is not None, "mcp-server-git")
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=stpc", "-c", "user.email=stpc@example.invalid"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    (repo / "README").write_text("hello\n")
    subprocess.run([*git, "add", "README"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "first"], check=True)
    return repo


def commits(repo) -> list[str]:
    out = subprocess.run(["git", "-C", str(repo), "log", "--format=%s"], check=True,
                         capture_output=True, text=True).stdout
    return out.split()


def git_server(repo) -> list[str]:
    # The server commits as whoever the environment says.
    env = "GIT_AUTHOR_NAME=stpc GIT_AUTHOR_EMAIL=stpc@example.invalid " \
          "GIT_COMMITTER_NAME=stpc GIT_COMMITTER_EMAIL=stpc@example.invalid"
    return ["sh", "-c", f"{env} exec {shlex.quote(sys.executable)} -m mcp_server_git --repository {shlex.quote(str(repo))}"]


def test_git_commits_land_only_when_committed_or_promoted(repo, tmp_path):
    table = compiled(tmp_path, "git")
    (repo / "notes.txt").write_text("meeting moved to Tuesday\n")

    async def body(s):
        status = await s.call_tool("git_status", {"repo_path": str(repo)})
        await s.call_tool("git_add", {"repo_path": str(repo), "files": ["notes.txt"]})
        # An undeclared tool of the server is blocked: nothing is reset.
        with pytest.raises(MCPError) as reset:
            await s.call_tool("git_reset", {"repo_path": str(repo)})
        # A commit whose message carries sensitive text is blocked.
        with pytest.raises(MCPError) as sensitive:
            await s.call_tool("git_commit", {"repo_path": str(repo), "message": SECRET})
        # A speculative commit waits; its branch is abandoned.
        ghost = asyncio.create_task(s.call_tool(
            "git_commit", {"repo_path": str(repo), "message": "ghost"}, meta=meta("b1", 0.4)))
        await asyncio.sleep(0.5)
        assert not ghost.done()
        assert commits(repo) == ["first"]
        await settle(s, "abandon", "b1")
        with pytest.raises(MCPError) as abandoned:
            await asyncio.wait_for(ghost, 20)
        assert commits(repo) == ["first"]
        # Another speculative commit is promoted: now it lands.
        real = asyncio.create_task(s.call_tool(
            "git_commit", {"repo_path": str(repo), "message": "promoted"}, meta=meta("b2", 0.4)))
        await asyncio.sleep(0.5)
        assert commits(repo) == ["first"]
        await settle(s, "promote", "b2")
        await asyncio.wait_for(real, 20)
        return status, reset.value, sensitive.value, abandoned.value

    status, reset, sensitive, abandoned = through_proxy(table, "repository", git_server(repo), body)
    assert "notes.txt" in "".join(getattr(c, "text", "") for c in status.content)
    assert reset.code == -32001 and reset.data["rule"] == "unknown_tool"
    assert sensitive.code == -32001 and sensitive.data["rule"] == "sensitive"
    assert SECRET not in sensitive.message
    assert abandoned.code == -32002
    assert commits(repo) == ["promoted", "first"]


# -- fetch -------------------------------------------------------------------


class Site(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self):  # noqa: N802 (the standard library's name)
        Site.requests.append(self.path)
        body = b"<html><body><h1>Weather</h1><p>Sunny in Lisbon.</p></body></html>"
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def site():
    need(importlib.util.find_spec("mcp_server_fetch") is not None, "mcp-server-fetch")
    Site.requests = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_fetch_reaches_the_site_only_when_committed_or_promoted(site, tmp_path):
    table = compiled(tmp_path, "fetch")
    # Only this machine: the fetch server may reach loopback, nothing else
    # is asked for.
    server = [sys.executable, "-m", "mcp_server_fetch", "--ignore-robots-txt", "--allow-private-ips"]

    async def body(s):
        page = await s.call_tool("fetch", {"url": f"{site}/weather.html"})
        with pytest.raises(MCPError) as sensitive:
            await s.call_tool("fetch", {"url": f"{site}/search?q={SECRET.replace(' ', '+')}"})
        ghost = asyncio.create_task(s.call_tool("fetch", {"url": f"{site}/ghost.html"}, meta=meta("b1", 0.4)))
        await asyncio.sleep(0.5)
        await settle(s, "abandon", "b1")
        with pytest.raises(MCPError):
            await asyncio.wait_for(ghost, 20)
        later = asyncio.create_task(s.call_tool("fetch", {"url": f"{site}/later.html"}, meta=meta("b2", 0.4)))
        await asyncio.sleep(0.5)
        before = list(Site.requests)
        await settle(s, "promote", "b2")
        await asyncio.wait_for(later, 20)
        return page, sensitive.value, before

    page, sensitive, before = through_proxy(table, "web", server, body)
    assert "Sunny in Lisbon" in "".join(getattr(c, "text", "") for c in page.content)
    assert sensitive.data["rule"] == "sensitive"
    assert before == ["/weather.html"]
    assert Site.requests == ["/weather.html", "/later.html"]


# -- everything ----------------------------------------------------------------


def everything_server() -> list[str] | None:
    path = os.environ.get("STPC_EVERYTHING_SERVER")
    return ["node", path, "stdio"] if path and pathlib.Path(path).exists() else None


ALIASES = ["--tool-alias", "trigger-long-running-operation=long_operation",
           "--tool-alias", "trigger-sampling-request=sample"]


def test_everything_the_protocol_passes_through_both_ways(tmp_path):
    server = everything_server()
    need(server is not None, "@modelcontextprotocol/server-everything (STPC_EVERYTHING_SERVER)")
    table = compiled(tmp_path, "everything")
    progress: list[float] = []
    sampled: list[str] = []

    async def sampling(context, params: types.CreateMessageRequestParams):
        sampled.append(params.messages[0].content.text)
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text="a sampled answer"),
            model="stand-in")

    async def on_progress(progress_value, total, message):
        progress.append(progress_value)

    async def body(s):
        tools = sorted(t.name for t in (await s.list_tools()).tools)
        echo = await s.call_tool("echo", {"message": "hello through the proxy"})
        with pytest.raises(MCPError) as blocked:
            await s.call_tool("get-sum", {"a": 1, "b": 2})
        with pytest.raises(MCPError) as sensitive:
            await s.call_tool("echo", {"message": SECRET})
        long = await s.call_tool("trigger-long-running-operation", {"duration": 0.3, "steps": 3},
                                 progress_callback=on_progress)
        sample = await s.call_tool("trigger-sampling-request", {"prompt": "name a colour", "maxTokens": 5})
        resources = await s.list_resources()
        return tools, echo, blocked.value, sensitive.value, long, sample, resources

    tools, echo, blocked, sensitive, long, sample, resources = through_proxy(
        table, "everything", server, body, *ALIASES, "--hide-undeclared", sampling_callback=sampling)
    assert tools == ["echo", "trigger-long-running-operation", "trigger-sampling-request"]
    assert "hello through the proxy" in "".join(getattr(c, "text", "") for c in echo.content)
    assert blocked.data["rule"] == "unknown_tool"
    assert sensitive.data["rule"] == "sensitive" and SECRET not in sensitive.message
    assert "completed" in "".join(getattr(c, "text", "") for c in long.content)
    assert progress == [1, 2, 3]
    assert sampled and "name a colour" in sampled[0]
    assert "a sampled answer" in "".join(getattr(c, "text", "") for c in sample.content)
    assert resources.resources, "resources/list passes through"


def test_a_cancelled_call_is_cancelled_upstream_under_the_upstream_id(tmp_path):
    server = everything_server()
    need(server is not None, "@modelcontextprotocol/server-everything (STPC_EVERYTHING_SERVER)")
    table = compiled(tmp_path, "everything")
    log = tmp_path / "server-stdin.jsonl"
    logged = ["sh", "-c", f"tee -a {shlex.quote(str(log))} | {' '.join(map(shlex.quote, server))}"]

    async def body(s):
        call = asyncio.create_task(s.call_tool("trigger-long-running-operation", {"duration": 30, "steps": 30}))
        await asyncio.sleep(1)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        # The session still works after the cancellation.
        echo = await s.call_tool("echo", {"message": "still here"})
        for _ in range(50):
            if '"notifications/cancelled"' in log.read_text():
                break
            await asyncio.sleep(0.1)
        return echo

    echo = through_proxy(table, "everything", logged, body, *ALIASES)
    assert "still here" in "".join(getattr(c, "text", "") for c in echo.content)
    received = [json.loads(l) for l in log.read_text().splitlines() if l.strip()]
    [long] = [m for m in received if m.get("method") == "tools/call"
              and m["params"]["name"] == "trigger-long-running-operation"]
    cancels = [m for m in received if m.get("method") == "notifications/cancelled"]
    assert [c["params"]["requestId"] for c in cancels] == [long["id"]]
