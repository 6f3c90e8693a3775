"""Audit sinks (memory, file, callable) and what a record may hold: the
contract grants raw arguments, and the runtime keeps them for committed
events only, never for speculative ones."""

from __future__ import annotations

import json

import pytest

import stpc
from conftest import INTENT, PUBLIC, event

GHOST = "custody hearing visitation schedule"


def run_task(m: stpc.Monitor) -> None:
    m.register_substitute("local_web_search", lambda call: {"results": []})
    m.begin_task("audited")
    m.submit(event(PUBLIC))                                                     # allow
    m.submit(event(GHOST, mode="speculative", confidence=0.5, branch="g", destination="brave"))
    m.submit(event(GHOST, mode="speculative", confidence=0.2, branch="g", destination="brave"))
    m.submit(event(GHOST, mode="speculative", confidence=0.9, branch="h", destination="brave"))
    m.abandon("g")
    m.end_task()


def test_memory_records_never_hold_speculative_text(engine, audit):
    run_task(stpc.Monitor(engine, audit=audit))
    records = audit.records()
    assert len(audit) == len(records) >= 6
    committed = [r for r in records if r["mode"] == "committed" and r["stage"] == "decided"]
    assert committed and all(r["raw_args"] == {"q": PUBLIC} for r in committed)
    speculative = [r for r in records if r["mode"] != "committed"]
    assert speculative and all(r["raw_args"] is None for r in speculative)
    text = json.dumps(records)
    for word in GHOST.split():
        if len(word) > 4:
            assert word not in text
    assert {r["stage"] for r in records} >= {"decided", "abandoned"}
    assert all(r["task"] == "audited" for r in records)


def test_records_go_to_a_file_as_json_lines(engine, tmp_path):
    path = tmp_path / "audit.jsonl"
    run_task(stpc.Monitor(engine, audit=str(path)))
    lines = path.read_text().splitlines()
    assert lines and all(json.loads(line)["task"] == "audited" for line in lines)
    assert "custody" not in path.read_text()


def test_a_callable_receives_every_record(engine, audit):
    got = []
    run_task(stpc.Monitor(engine, audit=got.append))
    run_task(stpc.Monitor(engine, audit=audit))
    assert got == audit.records()


def test_a_failing_sink_blocks_what_it_could_not_record(engine):
    def full_disk(record):
        raise OSError("no space left on device")

    m = stpc.Monitor(engine, audit=full_disk)
    m.begin_task("t")
    d = m.submit(event(PUBLIC))
    assert (d.action, d.reason, d.ticket) == ("block", "audit_failed", None)


def test_a_callable_sink_can_scrub(engine):
    class Sink:
        def __init__(self):
            self.records, self.scrubbed = [], []

        def __call__(self, record):
            self.records.append(record)

        def scrub(self, task):
            self.scrubbed.append(task)

    sink = Sink()
    m = stpc.Monitor(engine, audit=sink)
    m.begin_task("t")
    m.submit(event(PUBLIC))
    m.end_task()
    # The suite's policy keeps raw arguments (no `scrub after commit`).
    assert sink.records and sink.scrubbed == []


def test_audit_must_be_a_sink(engine):
    with pytest.raises(TypeError):
        stpc.Monitor(engine, audit=42)
