"""`Engine.load` and the labeler index `stpc compile` writes beside a table:
the table's own index is used without a word; any other is not used, a
RuntimeWarning says so, and the engine, built from the table instead,
labels the same."""

from __future__ import annotations

import shutil
import warnings

import pytest

import stpc
from conftest import REPO, compile_contract

TEXTS = [
    "weather in Lisbon this weekend",
    "how to fight an eviction notice from my landlord",
    "Termin beim Psychiater nächste Woche verschieben",
    "cheap flights to Tokyo in March",
]


@pytest.fixture(scope="module")
def std(tables):
    return compile_contract(tables, REPO / "stdlib-contracts" / "policies" / "rewrite.stpc")


def labels(engine):
    return [engine.label("web_search", {"q": t}, "brave") for t in TEXTS]


def load_quietly(path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        engine = stpc.Engine.load(path)
    return engine, [w for w in caught if issubclass(w.category, RuntimeWarning)]


def test_the_tables_own_index_is_used_silently(std):
    assert std.with_suffix(".index").exists()
    engine, warned = load_quietly(std)
    assert warned == []
    assert labels(engine) == labels(stpc.Engine.from_bytes(std.read_bytes()))


@pytest.mark.parametrize("damage", ["truncated", "edited", "another table's"])
def test_another_index_is_not_used_and_says_so(std, tables, tmp_path, damage):
    table = tmp_path / "policy.json"
    shutil.copy(std, table)
    index = std.with_suffix(".index").read_bytes()
    if damage == "truncated":
        index = index[: len(index) // 2]
    elif damage == "edited":
        index = index[:100] + bytes([index[100] ^ 1]) + index[101:]
    else:
        naive = compile_contract(tables, REPO / "stdlib-contracts" / "policies" / "naive.stpc")
        index = naive.with_suffix(".index").read_bytes()
    (tmp_path / "policy.index").write_bytes(index)
    engine, warned = load_quietly(table)
    assert len(warned) == 1
    assert "labeler index" in str(warned[0].message)
    assert labels(engine) == labels(stpc.Engine.from_bytes(std.read_bytes()))
