"""The monitor through Python: every action, promotion and abandonment,
budgets, substitutes, queue limits, state errors and fail-closed input."""

from __future__ import annotations

import json
import threading

import pytest

import stpc
from conftest import INTENT, PUBLIC, event


def test_labels_come_from_the_tables_labelers(engine):
    assert engine.label("web_search", {"q": INTENT}, "brave") == {
        "args": "intent_revealing", "destination": "public", "fields": {"q": "intent_revealing"},
    }
    assert engine.label("web_search", {"q": PUBLIC}, "api.duckduckgo.com")["args"] == "public"
    # Arguments that are not an object have no label (fail closed).
    assert engine.label("web_search", ["a"], "brave")["args"] == "<missing>"


def test_engine_describes_its_table(engine):
    assert engine.contract == "python_suite"
    assert len(engine.digest) == 64
    assert engine.tools == ["web_search"]
    # The contract's destinations and those its tools declare.
    assert {"brave", "duckduckgo"} <= set(engine.destinations)
    assert engine.substitutes == ["local_web_search"]
    assert engine.digest[:12] in repr(engine)


def test_allow_dispatches_the_arguments_unchanged(monitor):
    d = monitor.submit(event(PUBLIC))
    assert (d.action, d.reason, d.rule_name) == ("allow", "rule", "rule#8")
    assert isinstance(d.outcome, stpc.DispatchTicket) and d.ticket is d.outcome
    sent = d.ticket.dispatch()
    assert sent.args == {"q": PUBLIC}
    assert sent.call.tool == "web_search"
    assert sent.call.declared_destination == "duckduckgo"
    assert sent.call.address == {"kind": "host", "value": "api.duckduckgo.com"}
    monitor.complete(sent)


def test_rewrite_dispatches_what_the_transform_left(monitor):
    d = monitor.submit(event(INTENT, destination="https://api.brave.com/res/v1/web/search?q=x"))
    assert (d.action, d.rule_name) == ("rewrite", "scrub")
    assert d.labels["fields"] == {"q": "intent_revealing"}
    sent = d.ticket.dispatch()
    assert sent.args["q"] != INTENT
    assert sent.call.declared_destination == "brave"
    # What leaves labels below the cut.
    assert monitor.engine.label("web_search", sent.args, "brave")["args"] in ("public", "personal")
    monitor.complete(sent)


def test_shadow_answers_from_the_substitute(monitor):
    seen = []

    def local(call):
        seen.append((call.tool, call.declared_destination, call.args))
        return {"results": ["local"]}

    monitor.register_substitute("local_web_search", local)
    d = monitor.submit(event(INTENT, mode="speculative", confidence=0.2, branch="b1", destination="brave"))
    assert (d.action, d.rule_name) == ("shadow", "ghost")
    assert isinstance(d.outcome, stpc.Shadowed) and d.ticket is None
    assert (d.outcome.substitute, d.outcome.result) == ("local_web_search", {"results": ["local"]})
    # The substitute runs locally and sees the raw call.
    assert seen == [("web_search", "brave", {"q": INTENT})]
    assert monitor.pending("b1") == 1


def test_a_failing_substitute_fails_closed(engine):
    m = stpc.Monitor(engine)

    def broken(call):
        raise RuntimeError("boom " + call.args["q"])

    m.register_substitute("local_web_search", broken)
    m.begin_task("t")
    d = m.submit(event(INTENT, mode="speculative", confidence=0.2, branch="b1", destination="brave"))
    assert (d.action, d.reason) == ("defer", "substitute_failed")
    assert isinstance(d.outcome, stpc.Deferred)
    # A result that is not JSON fails the same way.
    m.register_substitute("local_web_search", lambda call: {"not json": object()})
    d = m.submit(event(INTENT, mode="speculative", confidence=0.2, branch="b1", destination="brave"))
    assert (d.action, d.reason) == ("defer", "substitute_failed")


def test_without_a_substitute_a_ghost_waits(engine):
    m = stpc.Monitor(engine)
    m.begin_task("t")
    d = m.submit(event(INTENT, mode="speculative", confidence=0.2, branch="b1", destination="brave"))
    assert (d.action, d.reason) == ("defer", "no_substitute")


def test_deferred_events_are_decided_again_on_promotion(monitor):
    d = monitor.submit(event(INTENT, mode="speculative", confidence=0.5, branch="b2", destination="brave"))
    assert (d.action, d.rule_name) == ("defer", "gate")
    assert isinstance(d.outcome, stpc.Deferred) and d.outcome.branch == "b2"
    assert monitor.pending("b2") == 1
    [again] = monitor.promote("b2")
    assert isinstance(again, stpc.Decision)
    assert (again.seq, again.action, again.rule_name) == (d.seq, "rewrite", "scrub")
    assert again.ticket.dispatch().args["q"] != INTENT
    assert monitor.pending("b2") == 0
    assert monitor.promote("b2") == []


def test_shadowed_results_are_reused_or_reissued_on_promotion(monitor):
    d = monitor.submit(event(PUBLIC, mode="speculative", confidence=0.2, branch="b3", destination="brave"))
    assert d.action == "shadow"
    [promoted] = monitor.promote("b3")
    # std's web_search substitute re-issues against the real provider.
    assert isinstance(promoted, (stpc.Decision, stpc.Shadowed))
    if isinstance(promoted, stpc.Decision):
        assert promoted.action == "allow" and promoted.ticket.dispatch().args == {"q": PUBLIC}


def test_abandoned_branches_are_dropped_and_never_dispatched(monitor, audit):
    monitor.submit(event(INTENT, mode="speculative", confidence=0.5, branch="b4", destination="brave"))
    monitor.submit(event(PUBLIC, mode="speculative", confidence=0.2, branch="b4", destination="brave"))
    assert monitor.abandon("b4") == 2
    assert monitor.pending("b4") == 0
    assert monitor.promote("b4") == []
    stages = [r["stage"] for r in audit.records() if r["branch"] == "b4"]
    assert stages == ["decided", "decided", "abandoned", "abandoned"]


def test_end_task_drops_what_is_pending_and_resets_budgets(monitor):
    monitor.submit(event(INTENT, mode="speculative", confidence=0.5, branch="b5", destination="brave"))
    monitor.submit(event(INTENT, destination="brave"))
    assert monitor.budgets() == {"sensitive_dispatches": 1}
    assert monitor.end_task() == 1
    monitor.begin_task("t2")
    assert monitor.budgets() == {"sensitive_dispatches": 0}
    assert monitor.pending("b5") == 0


def test_budgets_count_tickets_and_block_past_the_limit(monitor):
    for _ in range(2):
        d = monitor.submit(event(INTENT, destination="brave"))
        assert d.action == "rewrite"
    assert monitor.budgets() == {"sensitive_dispatches": 2}
    d = monitor.submit(event(INTENT, destination="brave"))
    assert (d.action, d.rule_name) == ("block", "over_budget")
    assert isinstance(d.outcome, stpc.Blocked) and d.outcome.reason == "rule"
    # Public queries are not counted and still pass.
    assert monitor.submit(event(PUBLIC)).action == "allow"


def test_queues_are_bounded(engine):
    m = stpc.Monitor(engine, max_deferred=1)
    m.begin_task("t")
    first = m.submit(event(INTENT, mode="speculative", confidence=0.5, branch="b", destination="brave"))
    second = m.submit(event(INTENT, mode="speculative", confidence=0.5, branch="b", destination="brave"))
    assert first.action == "defer"
    assert (second.action, second.reason, second.detail) == ("block", "queue_full", "deferred")


def test_issue_then_decide_is_submit(monitor):
    issued = monitor.issue(event(PUBLIC))
    d = monitor.decide(issued)
    assert (d.seq, d.action) == (issued.seq, "allow")
    with pytest.raises(stpc.UsedError):
        monitor.decide(issued)


def test_tickets_and_calls_are_used_once(monitor):
    d = monitor.submit(event(PUBLIC))
    sent = d.ticket.dispatch()
    with pytest.raises(stpc.UsedError):
        d.ticket.dispatch()
    monitor.complete(sent)
    with pytest.raises(stpc.UsedError):
        monitor.complete(sent)


def test_state_errors(engine, monitor):
    idle = stpc.Monitor(engine)
    with pytest.raises(stpc.MonitorError):
        idle.submit(event(PUBLIC))
    with pytest.raises(stpc.MonitorError):
        idle.end_task()
    with pytest.raises(stpc.MonitorError):
        monitor.begin_task("again")
    # A ticket of an earlier task cannot be completed in the next one.
    sent = monitor.submit(event(PUBLIC)).ticket.dispatch()
    monitor.end_task()
    monitor.begin_task("t2")
    with pytest.raises(stpc.MonitorError, match="earlier task"):
        monitor.complete(sent)


def test_decision_as_a_dictionary(monitor):
    d = monitor.submit(event(INTENT, destination="brave"))
    assert d.to_dict() == {
        "seq": d.seq, "action": "rewrite", "rule_id": d.rule_id, "rule_name": "scrub",
        "reason": "rule", "cell": d.cell,
        "labels": {"args": "intent_revealing", "destination": "public", "fields": {"q": "intent_revealing"}},
    }
    assert "rewrite" in repr(d) and INTENT not in repr(d)


def test_engines_are_shared_across_threads(engine):
    results = []

    def agent(n):
        m = stpc.Monitor(engine)
        m.begin_task(f"t{n}")
        for _ in range(200):
            results.append(m.submit(event(INTENT, destination="brave")).rule_name)
            m.end_task()
            m.begin_task(f"t{n}")

    threads = [threading.Thread(target=agent, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["scrub"] * 800


def test_json_text_events_are_read_like_dicts(monitor):
    d = monitor.submit(json.dumps(event(PUBLIC)))
    assert d.action == "allow"
