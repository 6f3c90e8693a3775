"""Fail-closed input: unknown tools and destinations, unreadable events,
hostile arguments. Nothing raised or recorded quotes an argument value."""

from __future__ import annotations

import math

import pytest

import stpc
from conftest import INTENT, PUBLIC, event

SECRET = "my landlord is evicting me"


def test_unknown_tools_and_destinations_are_blocked(monitor):
    d = monitor.submit(event(PUBLIC, tool="shell_exec"))
    assert (d.action, d.rule_name) == ("block", "unknown_tool")
    d = monitor.submit(event(PUBLIC, destination="https://evil.example/"))
    assert (d.action, d.rule_name) == ("block", "unknown_destination")
    # A destination the parsers disagree on is not the declared one.
    d = monitor.submit(event(PUBLIC, destination="https://evil.example\\@api.duckduckgo.com/"))
    assert d.action == "block"


def test_aliases_are_read_as_in_rust(monitor):
    plain = monitor.submit(event(INTENT, destination="brave"))
    aliased = monitor.submit({
        "name": "web_search", "destination": "brave", "mode": "committed",
        "arguments": '{"q": "%s"}' % INTENT,
    })
    assert (aliased.action, aliased.rule_name, aliased.labels) == (plain.action, plain.rule_name, plain.labels)


@pytest.mark.parametrize("bad", [
    {"tool": "web_search", "destination": "brave", "mode": "committed", "confidance": 1.0},
    {"tool": "web_search", "destination": "brave", "args": {}},
    {"tool": "web_search", "destination": "brave", "mode": "speculative", "args": {}},
    {"tool": "web_search", "destination": "brave", "mode": "committed", "args": "{not json"},
    {"tool": "web_search", "destination": "brave", "mode": "committed", "confidence": "high"},
    {"tool": "web_search", "destination": "brave", "mode": "committed", "confidence": math.nan},
    {"destination": "brave", "mode": "committed"},
    {"tool": "web_search", "name": "web_search", "destination": "brave", "mode": "committed"},
    {"tool": "web_search", "destination": "brave", "mode": "committed", "labels": {"args": "public"}},
    {"tool": "web_search", "destination": "brave", "mode": "committed", "budgets_exhausted": []},
    {"tool": "web_search", "destination": "brave", "mode": "committed", "args": {"q": object()}},
    ["not", "an", "event"],
    "{broken json",
])
def test_unreadable_events_raise_and_decide_nothing(monitor, bad):
    with pytest.raises(stpc.EventError):
        monitor.submit(bad)


def test_event_errors_never_quote_argument_values(monitor):
    for bad in (
        {"tool": "web_search", "destination": "brave", "mode": "committed", SECRET: ""},
        {"tool": "web_search", "destination": "brave", "mode": "committed", "args": "{\"q\": \"%s" % SECRET},
        {"tool": "web_search", "destination": "brave", "mode": SECRET.split()},
    ):
        with pytest.raises(stpc.EventError) as e:
            monitor.submit(bad)
        assert "landlord" not in str(e.value)


def test_modes_and_confidences_outside_the_domain_block(monitor):
    d = monitor.submit(event(PUBLIC, mode="no-such-mode", confidence=0.9))
    assert (d.action, d.reason, d.rule_id, d.cell) == ("block", "invalid_event", None, None)
    for c in (1.5, -0.1):
        d = monitor.submit(event(PUBLIC, mode="speculative", confidence=c))
        assert (d.action, d.reason) == ("block", "invalid_event")


def test_deep_and_large_arguments_fail_closed(monitor):
    deep = {"q": PUBLIC}
    for _ in range(200):
        deep = {"n": deep}
    d = monitor.submit(event(PUBLIC, args=deep))
    assert (d.action, d.reason) == ("block", "invalid_event")
    assert "deep" in d.detail
    d = monitor.submit(event(PUBLIC, args={"q": "a " * 2_000_000}))
    assert (d.action, d.reason) == ("block", "invalid_event")


def test_undeclared_argument_keys_are_labelled(monitor):
    # The key itself can carry what the user never said.
    d = monitor.submit(event(PUBLIC, args={INTENT: ""}))
    assert d.action != "allow"


def test_tables_are_checked_on_load(suite_table, tmp_path):
    data = suite_table.read_bytes()
    with pytest.raises(stpc.LoadError) as e:
        stpc.Engine.from_bytes(b"not a table")
    assert e.value.kind == "json"
    tampered = data.replace(b'"unknown_tool"', b'"unknown_tooo"', 1)
    with pytest.raises(stpc.LoadError) as e:
        stpc.Engine.from_bytes(tampered)
    assert e.value.kind in ("digest_mismatch", "invalid", "not_canonical")
    with pytest.raises(stpc.LoadError) as e:
        stpc.Engine.load(tmp_path / "missing.json")
    assert e.value.kind == "io"
