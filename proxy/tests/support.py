"""What the proxy's end-to-end suites share: where `stpc` is, the `stpc/`
notifications and `_meta` of the speculation protocol, the suite's
contracts compiled, the text of a tool result, and how a missing server is
treated."""

from __future__ import annotations

import os
import pathlib
import subprocess

import pytest
from pydantic import BaseModel

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
STPC = os.environ.get("STPC") or str(REPO / "target" / "debug" / "stpc")
# No test waits forever: a call the proxy never answers fails the test.
TIMEOUT = 60


class StpcNotification(BaseModel):
    """An `stpc/` notification, sent with the SDK's `send_notification`."""

    method: str
    params: dict


def compiled(tmp: pathlib.Path, name: str) -> pathlib.Path:
    """`proxy/tests/contracts/<name>.stpc`, compiled into `tmp`."""
    out = tmp / f"{name}.table.json"
    subprocess.run([STPC, "compile", str(HERE / "contracts" / f"{name}.stpc"), "-o", str(out)], check=True)
    return out


def meta(branch: str, confidence: float, mode: str = "speculative") -> dict:
    return {"stpc/branch": branch, "stpc/mode": mode, "stpc/confidence": confidence}


def text(result) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def need(available: bool, what: str):
    """Skip without `what`, unless STPC_REQUIRE_SERVERS says it must be there."""
    if not available:
        if os.environ.get("STPC_REQUIRE_SERVERS"):
            raise AssertionError(f"STPC_REQUIRE_SERVERS is set but {what} is not installed")
        pytest.skip(f"{what} is not installed")
