"""`stpc import` on the `tools/list` of real MCP servers from the package
registries (the reference time, git and fetch servers from PyPI, the
filesystem and everything servers from npm), asked by the official Python
MCP client: every imported contract checks with warnings denied, compiles,
and is in the canonical layout; and the imported time contract, compiled,
runs in front of its server through `stpc mcp-proxy`.

A server that is not installed skips its test unless
`STPC_REQUIRE_SERVERS` is set (as `.ci/run` sets it).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import pytest

from support import STPC, TIMEOUT, need, text

from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client


def python_server(module: str, *args: str) -> list[str] | None:
    return [sys.executable, "-m", module, *args] if importlib.util.find_spec(module) else None


def node_server(variable: str, *args: str) -> list[str] | None:
    path = os.environ.get(variable)
    return ["node", path, *args] if path and pathlib.Path(path).exists() else None


SERVERS = {
    "time": lambda tmp: python_server("mcp_server_time", "--local-timezone", "UTC"),
    "git": lambda tmp: python_server("mcp_server_git", "--repository", str(tmp)),
    "fetch": lambda tmp: python_server("mcp_server_fetch"),
    "filesystem": lambda tmp: node_server("STPC_FS_SERVER", str(tmp)),
    "everything": lambda tmp: node_server("STPC_EVERYTHING_SERVER", "stdio"),
}


def tools_list(command: list[str]) -> dict:
    """The server's `tools/list` result, as it is sent (camelCase keys)."""

    async def main():
        params = StdioServerParameters(command=command[0], args=command[1:])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                result = await asyncio.wait_for(s.list_tools(), TIMEOUT)
                return result.model_dump(mode="json", by_alias=True, exclude_none=True)

    return asyncio.run(main())


def stpc(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([STPC, *args], capture_output=True, text=True)


@pytest.mark.parametrize("server", sorted(SERVERS))
def test_a_real_servers_tool_list_imports_to_a_contract_that_compiles(server, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    if server == "git":
        subprocess.run(["git", "init", "-q", str(work)], check=True)
    command = SERVERS[server](work)
    need(command is not None, f"the {server} MCP server")
    listed = tools_list(command)
    assert listed["tools"], f"{server} lists no tools"
    source = tmp_path / f"{server}.json"
    source.write_text(json.dumps(listed))
    contract = tmp_path / f"{server}.stpc"
    run = stpc("import", str(source), "-o", str(contract))
    assert run.returncode == 0, run.stderr
    imported = contract.read_text()
    # Every tool the server lists is declared, under its name or an
    # identifier with the proxy's alias beside it.
    for tool in listed["tools"]:
        name = tool["name"]
        assert f"tool {name} {{" in imported or f"--tool-alias {name}=" in imported, name
    for args in (["check", "--deny", "warnings", str(contract)],
                 ["compile", str(contract), "-o", str(tmp_path / "t.json")],
                 ["fmt", "--check", str(contract)]):
        run = stpc(*args)
        assert run.returncode == 0, f"{args[0]}: {run.stderr}"


def test_the_imported_time_contract_runs_in_front_of_its_server(tmp_path):
    command = SERVERS["time"](tmp_path)
    need(command is not None, "the time MCP server")
    source = tmp_path / "time.json"
    source.write_text(json.dumps(tools_list(command)))
    assert stpc("import", str(source), "-o", str(tmp_path / "time.stpc")).returncode == 0
    table = tmp_path / "time.table.json"
    assert stpc("compile", str(tmp_path / "time.stpc"), "-o", str(table)).returncode == 0
    params = StdioServerParameters(command=STPC, args=[
        "mcp-proxy", "--table", str(table), "--destination", "time", "--", *command])

    async def main():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                committed = await s.call_tool("get_current_time", {"timezone": "Europe/Lisbon"})
                # A tool the server does not have is not in the contract.
                with pytest.raises(MCPError) as unknown:
                    await s.call_tool("set_time", {"time": "12:00"})
                return committed, unknown.value

    committed, unknown = asyncio.run(asyncio.wait_for(main(), TIMEOUT))
    assert "Europe/Lisbon" in text(committed)
    assert unknown.data["rule"] == "unknown_tool"
