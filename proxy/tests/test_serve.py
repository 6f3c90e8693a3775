"""`stpc serve` end to end: the real process on a real socket, driven over
HTTP with the standard library only (as an agent in any language would):
every action of the time gateway's contract, settling branches, the audit
file, and tables reloaded atomically when their file changes (a broken or
unsigned replacement is refused and the old table keeps deciding).

Run by `.ci/run`: `STPC=target/debug/stpc python -m pytest proxy/tests`.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import time
import urllib.error
import urllib.request

import pytest

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
STPC = os.environ.get("STPC") or str(REPO / "target" / "debug" / "stpc")
CONTRACT = HERE / "contracts" / "time.stpc"
SECRET = "my landlord is evicting me"


def compile_to(out: pathlib.Path, source: str | None = None) -> pathlib.Path:
    src = out.with_suffix(".stpc")
    src.write_text(source if source is not None else CONTRACT.read_text())
    subprocess.run([STPC, "compile", str(src), "-o", str(out)], check=True)
    return out


class Sidecar:
    def __init__(self, table: pathlib.Path, *extra: str):
        self.audit = table.parent / "audit.jsonl"
        local = json.dumps({"timezone": "local", "datetime": "substitute"})
        self.proc = subprocess.Popen(
            [STPC, "serve", "--table", str(table), "--listen", "127.0.0.1:0",
             "--reload-interval-ms", "50", "--audit", str(self.audit),
             "--substitute", f"local_clock=echo {shlex.quote(local)}", *extra],
            stderr=subprocess.PIPE, text=True)
        line = self.proc.stderr.readline()
        m = re.search(r"listening on (http://\S+)", line)
        assert m, f"no address in {line!r}"
        self.url = m.group(1)

    def request(self, method: str, path: str, body=None, host=None):
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("content-type", "application/json")
        if host:
            req.add_header("host", host)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def post(self, path: str, body) -> dict:
        status, v = self.request("POST", path, body)
        assert status == 200, (path, v)
        return v

    def decide(self, **event) -> dict:
        event.setdefault("destination", "time_server")
        return self.post("/v1/decide", event)

    def table(self) -> dict:
        return self.request("GET", "/v1/table")[1]

    def wait_for(self, predicate, what: str) -> dict:
        deadline = time.time() + 20
        while time.time() < deadline:
            info = self.table()
            if predicate(info):
                return info
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}: {self.table()}")

    def stop(self) -> str:
        self.proc.terminate()
        try:
            _, err = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        return err


@pytest.fixture
def sidecar(tmp_path):
    s = Sidecar(compile_to(tmp_path / "time.table.json"))
    yield s
    s.stop()


def call(tool: str = "get_current_time", **kw) -> dict:
    args = kw.pop("args", {"timezone": "Europe/Lisbon"})
    return {"tool": tool, "args": args, **kw}


def test_every_action_over_http(sidecar):
    allow = sidecar.decide(**call(mode="committed", task="t"))
    assert (allow["action"], allow["outcome"]) == ("allow", "dispatch")
    assert allow["arguments"] == {"timezone": "Europe/Lisbon"}
    shadow = sidecar.decide(**call(mode="speculative", confidence=0.1, branch="b1", task="t"))
    assert (shadow["action"], shadow["outcome"]) == ("shadow", "answer")
    assert shadow["result"]["datetime"] == "substitute"
    held = sidecar.decide(**call("convert_time", args={"source_timezone": "UTC", "time": "10:00",
                                                      "target_timezone": "Asia/Tokyo"},
                                 mode="speculative", confidence=0.5, branch="b2", task="t"))
    assert (held["action"], held["outcome"]) == ("defer", "held")
    rewrite = sidecar.decide(**call(args={"timezone": SECRET}, mode="committed", task="t"))
    assert (rewrite["action"], rewrite["outcome"]) == ("rewrite", "dispatch")
    assert SECRET not in json.dumps(rewrite)
    block = sidecar.decide(**call("delete_everything", args={"q": SECRET}, mode="committed", task="t"))
    assert (block["action"], block["outcome"]) == ("block", "refused")
    assert block["error"]["code"] == -32001
    assert SECRET not in json.dumps(block)
    promoted = sidecar.post("/v1/tasks/t/promote", {"branch": "b2"})
    assert [r["seq"] for r in promoted["released"]] == [held["seq"]]
    assert promoted["released"][0]["outcome"] == "dispatch"
    assert sidecar.post("/v1/tasks/t/complete", {"seq": held["seq"]}) == {"completed": True}
    again = sidecar.decide(**call(mode="speculative", confidence=0.5, branch="b3", task="t"))
    assert sidecar.post("/v1/tasks/t/abandon", {"branch": "b3"}) == {"released": [], "dropped": [again["seq"]]}
    late = sidecar.decide(**call(mode="speculative", confidence=0.9, branch="b3", task="t"))
    assert late["outcome"] == "refused"
    # Bad input: a clear refusal without its values, and nothing decided.
    status, err = sidecar.request("POST", "/v1/decide", {"tool": "get_current_time",
                                                         "args": {"timezone": SECRET},
                                                         "destination": "time_server",
                                                         "mode": "speculative"})
    assert status == 400 and err["error"]["code"] == "invalid_event"
    assert "confidence" in err["error"]["message"] and SECRET not in json.dumps(err)
    status, err = sidecar.request("GET", "/v1/health", host="attacker.example")
    assert status == 403
    # The audit has every decision and no raw speculative text.
    sidecar.stop()
    records = [json.loads(l) for l in sidecar.audit.read_text().splitlines()]
    assert len(records) >= 8
    assert SECRET not in sidecar.audit.read_text()


def test_the_table_is_reloaded_atomically_and_open_tasks_keep_theirs(tmp_path):
    served = compile_to(tmp_path / "served.table.json")
    s = Sidecar(served)
    try:
        old = s.table()["digest"]
        # An open task on the old table.
        s.decide(**call(mode="speculative", confidence=0.5, branch="b1", task="open"))
        # A stricter contract (every speculative call waits), swapped in by
        # rename as a deployment would.
        stricter = CONTRACT.read_text().replace("threshold speculative 0.7;", "threshold speculative 0.99;")
        (tmp_path / "next").mkdir()
        new_table = compile_to(tmp_path / "next" / "t.table.json", stricter)
        os.replace(new_table, served)
        info = s.wait_for(lambda i: i["digest"] != old, "the reload")
        assert info["reloads"] == 1 and info["last_reload_error"] is None
        assert info["tasks_on_older_tables"] == 1
        fresh = s.decide(**call(mode="speculative", confidence=0.9, branch="b1", task="new"))
        assert fresh["table"] == info["digest"] and fresh["outcome"] == "held"
        kept = s.decide(**call(mode="speculative", confidence=0.9, branch="b1", task="open"))
        assert kept["table"] == old and kept["outcome"] == "dispatch"
        # A half-written replacement is refused; the last good table keeps
        # deciding.
        broken = tmp_path / "broken.json"
        broken.write_text(served.read_text()[:-200])
        os.replace(broken, served)
        info = s.wait_for(lambda i: i["last_reload_error"], "the refusal")
        assert info["digest"] != old and info["reloads"] == 1
        assert s.decide(**call(mode="committed", task="x"))["outcome"] == "dispatch"
    finally:
        err = s.stop()
    assert "kept the previous table" in err


def test_a_signed_table_reloads_only_when_its_signature_matches(tmp_path):
    key = tmp_path / "k.key"
    subprocess.run([STPC, "keygen", "--out", str(key)], check=True, capture_output=True)
    served = compile_to(tmp_path / "served.table.json")
    subprocess.run([STPC, "sign", "--key", str(key), str(served)], check=True, capture_output=True)
    s = Sidecar(served, "--trusted-key", f"{key}.pub")
    try:
        old = s.table()["digest"]
        (tmp_path / "next").mkdir()
        stricter = CONTRACT.read_text().replace("threshold speculative 0.7;", "threshold speculative 0.99;")
        unsigned = compile_to(tmp_path / "next" / "t.table.json", stricter)
        # The table changes before its signature: refused until both match.
        shutil.copy(unsigned, tmp_path / "next" / "copy.json")
        os.replace(tmp_path / "next" / "copy.json", served)
        info = s.wait_for(lambda i: i["last_reload_error"], "the refusal of an unsigned table")
        assert info["digest"] == old
        subprocess.run([STPC, "sign", "--key", str(key), str(unsigned)], check=True, capture_output=True)
        os.replace(pathlib.Path(f"{unsigned}.sig"), pathlib.Path(f"{served}.sig"))
        info = s.wait_for(lambda i: i["digest"] != old, "the signed reload")
        assert info["last_reload_error"] is None
    finally:
        s.stop()


def test_a_table_that_does_not_load_is_refused_at_start(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    r = subprocess.run([STPC, "serve", "--table", str(bad), "--listen", "127.0.0.1:0"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "bad.json" in r.stderr


def test_a_javascript_agent_drives_the_sidecar_with_fetch(sidecar):
    node = shutil.which("node")
    if node is None:
        if os.environ.get("STPC_REQUIRE_NODE"):
            raise AssertionError("STPC_REQUIRE_NODE is set but there is no `node`")
        pytest.skip("no node here")
    r = subprocess.run([node, str(REPO / "proxy" / "examples" / "agent.mjs"), sidecar.url],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    log = json.loads(r.stdout)
    steps = [e["step"] for e in log]
    assert steps == ["committed", "speculative", "released", "abandoned"], log
    assert log[0]["action"] == "allow" and log[0]["todo"].startswith("send ")
    assert log[1]["action"] == "defer" and log[1]["todo"].startswith("wait")
    assert log[2]["todo"] == 'send {"timezone":"Asia/Tokyo"} to time_server'
    assert log[3]["dropped"] == [log[3]["held"]]
