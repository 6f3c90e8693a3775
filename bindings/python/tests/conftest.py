"""Shared fixtures: tables compiled by the `stpc` CLI of this checkout.

`STPC` names the binary (`.ci/run` sets it); otherwise the workspace's
debug build is used. Tables are compiled once per session into a temporary
directory, with their conformance vectors.
"""

from __future__ import annotations

import os
import pathlib
import subprocess

import pytest

import stpc

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[2]


def stpc_bin() -> str:
    found = os.environ.get("STPC") or str(REPO / "target" / "debug" / "stpc")
    if not os.path.exists(found):
        pytest.exit(f"no stpc binary at {found}: build it (cargo build -p stpc) or set STPC", 2)
    return found


def run_stpc(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([stpc_bin(), *args], check=True, capture_output=True, text=True)


@pytest.fixture(scope="session")
def tables(tmp_path_factory) -> pathlib.Path:
    return tmp_path_factory.mktemp("tables")


def compile_contract(tables: pathlib.Path, contract: pathlib.Path, vectors: bool = False) -> pathlib.Path:
    name = "_".join(contract.relative_to(REPO).with_suffix("").parts)
    out = tables / f"{name}.table.json"
    wanted = tables / f"{name}.vectors.jsonl" if vectors else out
    if not out.exists() or not wanted.exists():
        args = ["compile", str(contract), "-o", str(out)]
        if vectors:
            args += ["--emit", "vectors"]
        run_stpc(*args)
    return out


@pytest.fixture(scope="session")
def suite_table(tables) -> pathlib.Path:
    return compile_contract(tables, HERE / "contracts" / "suite.stpc")


@pytest.fixture(scope="session")
def engine(suite_table) -> stpc.Engine:
    return stpc.Engine.load(suite_table)


@pytest.fixture
def audit() -> stpc.MemoryAudit:
    return stpc.MemoryAudit()


@pytest.fixture
def monitor(engine, audit) -> stpc.Monitor:
    m = stpc.Monitor(engine, audit=audit)
    m.register_substitute("local_web_search", lambda call: {"results": [], "local": True})
    m.begin_task("t1")
    return m


# Queries whose labels the std labeler gives (checked in test_label_*).
INTENT = "tenant rights lease termination penalty"
PUBLIC = "weather in Lisbon"


def event(q: str = PUBLIC, *, mode: str = "committed", confidence=None, branch=None,
          destination: str = "duckduckgo", tool: str = "web_search", **extra) -> dict:
    e = {"tool": tool, "destination": destination, "mode": mode, "args": {"q": q}}
    if confidence is not None:
        e["confidence"] = confidence
    if branch is not None:
        e["branch"] = branch
    e.update(extra)
    return e
