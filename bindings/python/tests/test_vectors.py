"""The same events give the same decisions in Python and in Rust: every
shipped contract's `monitor` conformance vectors (written by the Rust
runtime's own monitor) replayed through the Python package, in order, in
one task: action, reason, rule, cell, labels, outgoing (rewritten)
arguments, substitute results, promotion and abandonment.

`.ci/run` compiles every shipped contract once and passes the directory as
`STPC_VECTORS_DIR`; run alone, the test compiles them itself.
"""

from __future__ import annotations

import json
import os
import pathlib

import pytest

import stpc
from conftest import HERE, REPO, compile_contract


def shipped_contracts():
    roots = [REPO / "stdlib-contracts", REPO / "examples", HERE / "contracts"]
    out = []
    for root in roots:
        for p in sorted(root.rglob("*.stpc")):
            text = p.read_text(encoding="utf-8")
            if any(line.lstrip().startswith("contract ") for line in text.splitlines()):
                out.append(p)
    return out


CONTRACTS = shipped_contracts()


def table_for(tables: pathlib.Path, contract: pathlib.Path) -> pathlib.Path:
    given = os.environ.get("STPC_VECTORS_DIR")
    name = "_".join(contract.relative_to(REPO).with_suffix("").parts)
    if given:
        table = pathlib.Path(given) / f"{name}.table.json"
        if table.exists():
            return table
    return compile_contract(tables, contract, vectors=True)


def outcome(d) -> dict:
    got = {
        "action": d.action, "reason": d.reason, "rule_id": d.rule_id,
        "rule_name": d.rule_name, "cell": d.cell, "labels": d.labels,
    }
    if d.ticket is not None:
        got["args"] = d.ticket.dispatch().args
    elif isinstance(d.outcome, stpc.Shadowed):
        got["shadow"] = {"substitute": d.outcome.substitute, "result": d.outcome.result}
    return got


def test_every_shipped_contract_is_covered():
    assert len(CONTRACTS) >= 15
    assert any(p.name == "rewrite.stpc" for p in CONTRACTS)


@pytest.mark.parametrize("contract", CONTRACTS, ids=lambda p: str(p.relative_to(REPO)))
def test_monitor_vectors_agree_with_rust(tables, contract):
    table = table_for(tables, contract)
    vectors = table.with_name(table.name.replace(".table.json", ".vectors.jsonl"))
    engine = stpc.Engine.load(table)
    m = stpc.Monitor(engine)
    for name in engine.substitutes:
        m.register_substitute(name, lambda call, name=name: {"substitute": name})
    m.begin_task("vectors")
    seen = {"event": 0, "refused": 0, "promote": 0, "abandon": 0}
    mismatches = []
    for line in vectors.read_text(encoding="utf-8").splitlines():
        v = json.loads(line)
        if v.get("kind") != "monitor":
            continue
        want = v["expect"]
        if "event" in v:
            try:
                got = outcome(m.submit(v["event"]))
                seen["event"] += 1
            except stpc.EventError:
                got = {"error": "event"}
                seen["refused"] += 1
        elif "promote" in v:
            got = []
            for p in m.promote(v["promote"]):
                if isinstance(p, stpc.Shadowed):
                    got.append({"action": "shadow", "reason": "reused",
                                "shadow": {"substitute": p.substitute, "result": p.result}})
                else:
                    got.append(outcome(p))
            seen["promote"] += 1
        else:
            got = {"dropped": m.abandon(v["abandon"])}
            seen["abandon"] += 1
        if got != want:
            mismatches.append((v["id"], want, got))
    assert mismatches == []
    assert seen["event"] > 0 and seen["refused"] > 0 and seen["promote"] == seen["abandon"] == 1
