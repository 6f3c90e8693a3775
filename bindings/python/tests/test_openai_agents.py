"""The OpenAI Agents SDK guard, end to end with the real SDK: an agent
driven by the SDK's own scripted model (no network), its function tool
guarded by the monitor. What the tool receives and what the model is told
are checked for every action."""

from __future__ import annotations

import json

import pytest

agents = pytest.importorskip("agents")
from agents import Agent, Runner, function_tool, set_tracing_disabled  # noqa: E402
from agents.exceptions import ToolInputGuardrailTripwireTriggered  # noqa: E402
from agents.testing import ScriptedModel, assistant_message, function_call  # noqa: E402

import stpc  # noqa: E402
from stpc.guards import speculative  # noqa: E402
from stpc.guards.openai_agents import guard_tools  # noqa: E402
from conftest import INTENT, PUBLIC  # noqa: E402

set_tracing_disabled(True)


def scripted_agent(query: str, calls: list, destination: str = "api.brave.com", **guard):
    @function_tool
    def web_search(q: str) -> str:
        """Search the web."""
        calls.append(q)
        return f"{len(q)} results"

    model = ScriptedModel([
        [function_call("web_search", {"q": query}, call_id="call_1")],
        [assistant_message("done")],
    ])
    agent = Agent(name="searcher", instructions="search", model=model, tools=[web_search])
    return agent, model


def tool_output(model: ScriptedModel) -> str:
    """What the model received as the tool's result in its second call."""
    items = model.calls[1].input
    [out] = [i for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"]
    return out["output"] if isinstance(out["output"], str) else json.dumps(out["output"])


@pytest.fixture
def guarded(engine, audit):
    def make(query, destination="api.brave.com", **opts):
        calls: list = []
        agent, model = scripted_agent(query, calls)
        monitor = stpc.Monitor(engine, audit=audit)
        monitor.register_substitute("local_web_search", lambda call: {"results": ["from the local index"]})
        guard = guard_tools(agent.tools, monitor, destinations={"web_search": destination}, **opts)
        return agent, model, guard, calls
    return make


def test_allow_runs_the_tool_with_the_models_arguments(guarded, audit):
    agent, model, guard, calls = guarded(PUBLIC, destination="api.duckduckgo.com")
    with guard.task("t"):
        result = Runner.run_sync(agent, "weather?")
    assert result.final_output == "done"
    assert calls == [PUBLIC]
    assert tool_output(model) == f"{len(PUBLIC)} results"
    assert [r["stage"] for r in audit.records()] == ["decided", "completed"]


def test_rewrite_replaces_the_arguments_the_tool_receives(guarded):
    agent, model, guard, calls = guarded(INTENT)
    with guard.task("t"):
        Runner.run_sync(agent, "lease?")
    [sent] = calls
    assert sent != INTENT
    assert guard.monitor.engine.label("web_search", {"q": sent}, "brave")["args"] in ("public", "personal")


def test_shadow_answers_from_the_substitute_and_the_tool_never_runs(guarded):
    agent, model, guard, calls = guarded(INTENT)
    with guard.task("t"):
        with speculative("b1", 0.2):
            Runner.run_sync(agent, "lease?")
        assert guard.monitor.pending("b1") == 1
    assert calls == []
    assert json.loads(tool_output(model)) == {"results": ["from the local index"]}


def test_defer_tells_the_model_and_sends_nothing(guarded):
    agent, model, guard, calls = guarded(INTENT)
    with guard.task("t"):
        with speculative("b2", 0.5):
            Runner.run_sync(agent, "lease?")
        # The deferred call is decided again when its branch commits.
        [again] = guard.monitor.promote("b2")
        assert again.action == "rewrite"
    assert calls == []
    out = tool_output(model)
    assert "deferred" in out and "gate" in out and INTENT not in out


def test_block_rejects_with_the_rule_and_never_the_arguments(guarded):
    agent, model, guard, calls = guarded(INTENT, destination="https://evil.example/")
    with guard.task("t"):
        Runner.run_sync(agent, "lease?")
    assert calls == []
    out = tool_output(model)
    assert "blocked" in out and "unknown_destination" in out and "lease" not in out


def test_block_can_halt_the_run(guarded):
    agent, model, guard, calls = guarded(INTENT, destination="https://evil.example/", on_block="raise")
    with guard.task("t"), pytest.raises(ToolInputGuardrailTripwireTriggered):
        Runner.run_sync(agent, "lease?")
    assert calls == []


def test_an_unmapped_tool_is_blocked(engine):
    calls: list = []
    agent, model = scripted_agent(PUBLIC, calls)
    guard = guard_tools(agent.tools, stpc.Monitor(engine), destinations={})
    with guard.task("t"):
        Runner.run_sync(agent, "weather?")
    assert calls == [] and "blocked" in tool_output(model)
