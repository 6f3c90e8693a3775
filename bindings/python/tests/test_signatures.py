"""Signed tables: a deployment can require a signature by a trusted key;
unsigned, re-sealed and foreign-key tables are refused."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

import stpc
from conftest import run_stpc


@pytest.fixture(scope="module")
def signed(tmp_path_factory, suite_table):
    d = tmp_path_factory.mktemp("signed")
    table = d / "suite.table.json"
    shutil.copy(suite_table, table)
    run_stpc("keygen", "--out", str(d / "ops.key"))
    run_stpc("keygen", "--out", str(d / "other.key"))
    run_stpc("sign", "--key", str(d / "ops.key"), str(table))
    return d, table


def test_a_signed_table_loads_with_its_key(signed):
    d, table = signed
    e = stpc.Engine.load(table, trusted_keys=[d / "ops.key.pub"])
    assert e.contract == "python_suite"
    e2 = stpc.Engine.from_bytes(
        table.read_bytes(),
        trusted_keys=[(d / "ops.key.pub").read_text()],
        signature=(d / "suite.table.json.sig").read_text(),
    )
    assert e2.digest == e.digest


def test_unsigned_and_foreign_tables_are_refused(signed, suite_table):
    d, table = signed
    with pytest.raises(stpc.LoadError) as e:
        stpc.Engine.load(table, trusted_keys=[d / "other.key.pub"])
    assert e.value.kind == "signature"
    with pytest.raises(stpc.LoadError) as e:
        stpc.Engine.from_bytes(table.read_bytes(), trusted_keys=[(d / "ops.key.pub").read_text()])
    assert e.value.kind == "signature"


def reseal(table, out, weaken):
    """A copy of `table` with cells weakened by `weaken(cell)` and its
    digest recomputed, as anyone can; returns the new digest."""
    t = json.loads(table.read_text())
    for cell in t["cells"]:
        weaken(cell)
    t["digest"] = ""
    compact = lambda: json.dumps(t, separators=(",", ":"), ensure_ascii=False)  # noqa: E731
    t["digest"] = hashlib.sha256(compact().encode()).hexdigest()
    out.write_text(compact())
    return t["digest"]


def test_a_resealed_table_is_refused(signed, tmp_path):
    d, table = signed
    resealed = tmp_path / "resealed.table.json"

    def every_block_allows(cell):
        if cell["action"] == "block":
            cell["action"] = "allow"

    digest = reseal(table, resealed, every_block_allows)
    shutil.copy(d / "suite.table.json.sig", tmp_path / "resealed.table.json.sig")
    # Without a required signature only the digest is checked, and it
    # matches: the digest detects accidents, not tampering.
    assert stpc.Engine.load(resealed).digest == digest
    with pytest.raises(stpc.LoadError) as e:
        stpc.Engine.load(resealed, trusted_keys=[d / "ops.key.pub"])
    assert e.value.kind == "signature"


def test_verify_on_load_refuses_an_unsound_table(signed, tmp_path):
    d, table = signed
    assert stpc.Engine.load(table, verify=True).contract == "python_suite"
    weakened = tmp_path / "weakened.table.json"

    def unknown_tool_allows(cell):
        if cell["rule_name"] == "unknown_tool":
            cell["action"] = "allow"

    digest = reseal(table, weakened, unknown_tool_allows)
    assert stpc.Engine.load(weakened).digest == digest  # the digest alone accepts it
    with pytest.raises(stpc.LoadError) as e:
        stpc.Engine.load(weakened, verify=True)
    assert e.value.kind == "unsound" and "E0603" in str(e.value)
    with pytest.raises(stpc.LoadError) as e:
        stpc.Engine.from_bytes(weakened.read_bytes(), verify=True)
    assert e.value.kind == "unsound"
