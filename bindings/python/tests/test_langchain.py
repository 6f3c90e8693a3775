"""The LangChain guard, end to end with real LangChain tools: agents built by
LangChain 1.x's `create_agent` (a LangGraph graph) with guarded tools or
with the guard's middleware, and a LangGraph `ToolNode`, driven by
LangChain's fake chat model (no network): every action, and speculative
prefetch with promotion and abandonment."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("langgraph")
pytest.importorskip("langchain")
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage, ToolMessage  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langchain.agents import create_agent  # noqa: E402
from langgraph.graph import END, START, MessagesState, StateGraph  # noqa: E402
from langgraph.prebuilt import ToolNode  # noqa: E402

import stpc  # noqa: E402
from stpc.guards import speculative  # noqa: E402
from stpc.guards.langchain import LangChainGuard  # noqa: E402
from conftest import INTENT, PUBLIC  # noqa: E402


class ScriptedChat(GenericFakeChatModel):
    """LangChain's fake chat model, accepting tools as an agent binds them."""

    def bind_tools(self, tools, **kwargs):
        return self


def make_search(calls):
    @tool
    def web_search(q: str) -> str:
        """Search the web."""
        calls.append(q)
        return f"{len(q)} results"

    return web_search


@pytest.fixture
def guard(engine, audit):
    monitor = stpc.Monitor(engine, audit=audit)
    monitor.register_substitute("local_web_search", lambda call: {"results": ["local"]})
    return LangChainGuard(monitor, destinations={"web_search": "api.brave.com"})


def run_agent(guard, query, calls, how="wrapped"):
    model = ScriptedChat(messages=iter([
        AIMessage(content="", tool_calls=[{"name": "web_search", "args": {"q": query}, "id": "c1"}]),
        AIMessage(content="done"),
    ]))
    if how == "wrapped":
        agent = create_agent(model, guard.wrap_all([make_search(calls)]))
    else:
        agent = create_agent(model, [make_search(calls)], middleware=[guard.middleware()])
    state = agent.invoke({"messages": [("user", "help")]})
    [msg] = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert state["messages"][-1].content == "done"
    return msg


WAYS = pytest.mark.parametrize("how", ["wrapped", "middleware"])


@WAYS
def test_allow_runs_the_tool(guard, audit, how):
    calls: list = []
    guard._destinations = {"web_search": "api.duckduckgo.com"}
    with guard.task("t"):
        msg = run_agent(guard, PUBLIC, calls, how)
    assert calls == [PUBLIC] and msg.content == f"{len(PUBLIC)} results"
    assert [r["stage"] for r in audit.records()] == ["decided", "completed"]


@WAYS
def test_rewrite_runs_the_tool_with_the_rewritten_arguments(guard, how):
    calls: list = []
    with guard.task("t"):
        run_agent(guard, INTENT, calls, how)
    [sent] = calls
    assert sent != INTENT


@WAYS
def test_shadow_returns_the_substitute_result(guard, how):
    calls: list = []
    with guard.task("t"), speculative("b1", 0.2):
        msg = run_agent(guard, INTENT, calls, how)
    assert calls == [] and json.loads(msg.content) == {"results": ["local"]}


@WAYS
def test_defer_returns_a_message_and_sends_nothing(guard, how):
    calls: list = []
    with guard.task("t"), speculative("b1", 0.5):
        msg = run_agent(guard, INTENT, calls, how)
    assert calls == [] and "deferred" in msg.content and INTENT not in msg.content


@WAYS
def test_block_is_a_tool_error_without_the_arguments(guard, how):
    calls: list = []
    guard._destinations = {"web_search": "https://evil.example/"}
    with guard.task("t"):
        msg = run_agent(guard, INTENT, calls, how)
    assert calls == []
    assert msg.status == "error" and "unknown_destination" in msg.content and "lease" not in msg.content


def test_async_tools_are_guarded_too(guard):
    calls: list = []
    search = guard.wrap(make_search(calls))
    with guard.task("t"):
        out = asyncio.run(search.ainvoke({"q": INTENT}))
    assert out == f"{len(calls[0])} results" and calls[0] != INTENT


def test_prefetch_then_promote(guard):
    calls: list = []
    search = make_search(calls)
    with guard.task("t"):
        with guard.branch("guess", confidence=0.5) as b:
            held = b.prefetch(search, {"q": INTENT})
            assert (held.action, held.result) == ("defer", None)
            assert calls == []
            [done] = b.promote()
        assert (done.tool, done.action) == ("web_search", "rewrite")
        assert done.result == f"{len(calls[0])} results" and calls[0] != INTENT


def test_prefetch_dispatches_likely_branches_now(guard):
    calls: list = []
    search = make_search(calls)
    with guard.task("t"):
        with guard.branch("likely", confidence=0.9) as b:
            p = b.prefetch(search, {"q": INTENT})
            assert p.action == "rewrite" and p.result is not None
            assert b.promote() == []
        with guard.branch("unlikely", confidence=0.2) as b:
            p = b.prefetch(search, {"q": INTENT})
            assert (p.action, json.loads(p.result)) == ("shadow", {"results": ["local"]})
    assert len(calls) == 1


def test_a_branch_left_unsettled_is_abandoned(guard, audit):
    calls: list = []
    search = make_search(calls)
    with guard.task("t"):
        with guard.branch("ghost", confidence=0.5) as b:
            b.prefetch(search, {"q": INTENT})
        assert guard.monitor.pending("ghost") == 0
    assert calls == []
    assert [r["stage"] for r in audit.records()] == ["decided", "abandoned"]


def test_calls_inside_a_branch_are_speculative(guard):
    calls: list = []
    search = guard.wrap(make_search(calls))
    with guard.task("t"):
        with guard.branch("b", confidence=0.5):
            out = search.invoke({"q": INTENT})
            assert "deferred" in out and guard.monitor.pending("b") == 1
        assert guard.monitor.pending("b") == 0
        assert search.invoke({"q": PUBLIC}) == f"{len(PUBLIC)} results"


def test_a_langgraph_tool_node_runs_guarded_tools(guard):
    calls: list = []
    graph = StateGraph(MessagesState)
    graph.add_node("tools", ToolNode(guard.wrap_all([make_search(calls)])))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    node = graph.compile()
    call = AIMessage(content="", tool_calls=[{"name": "web_search", "args": {"q": INTENT}, "id": "c9"}])
    with guard.task("t"):
        out = node.invoke({"messages": [call]})
        with speculative("b", 0.5):
            held = node.invoke({"messages": [call]})
    msg = out["messages"][-1]
    assert msg.tool_call_id == "c9" and calls and calls[0] != INTENT
    assert "deferred" in held["messages"][-1].content and len(calls) == 1
