"""stpc for LangChain and LangGraph: tools guarded by the monitor, and a
helper for speculative prefetch on a branch.

::

    import stpc
    from stpc.guards.langchain import LangChainGuard

    guard = LangChainGuard(stpc.Monitor(stpc.Engine.load("rewrite.table.json")),
                           destinations={"web_search": "api.brave.com"})
    tools = guard.wrap_all([web_search, doc_retrieval])   # give these to the agent
    agent = create_agent(model, tools)            # LangChain 1.x, on LangGraph
    with guard.task("session-1"):
        agent.invoke({"messages": [("user", "...")]})

or, with LangChain's agent middleware, the agent's own tools unchanged::

    agent = create_agent(model, [web_search], middleware=[guard.middleware()])

A guarded tool decides every call before the tool runs: ALLOW runs it with
the model's arguments, REWRITE with the rewritten ones, SHADOW returns the
substitute's result without running it, DEFER returns a message saying the
call waits for its branch, BLOCK raises ``ToolException`` with the rule and
reason (which LangChain hands back to the model as the tool's error; the
arguments are never in it).

Speculation: calls made inside ``guard.branch(...)`` (or
``stpc.guards.speculative(...)``) are speculative on that branch. A branch
can also prefetch: run a tool call now, before the agent commits to it, and
on ``promote()`` have the monitor decide again as committed what it held
back (and run those calls), or on ``abandon()`` drop them. Leaving the
``with`` block without either abandons the branch: a guess nobody committed
to is a ghost.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool, StructuredTool, ToolException

try:  # LangChain 1.x agents (optional: guarded tools need langchain-core only)
    from langchain.agents.middleware import AgentMiddleware
except ImportError:  # pragma: no cover - exercised where langchain is absent
    AgentMiddleware = None  # type: ignore[assignment,misc]

import stpc

from ._common import Answer, Destinations, Guard, Refuse, Run, Speculation, Verdict, _current


class LangChainGuard(Guard):
    """A :class:`~stpc.guards.Guard` that wraps LangChain tools."""

    def __init__(self, monitor: stpc.Monitor, *, destinations: Destinations) -> None:
        super().__init__(monitor, destinations=destinations)

    def wrap(self, tool: BaseTool) -> BaseTool:
        """A tool with ``tool``'s name, description and argument schema that
        asks the monitor before every call."""
        guard = self

        def run(**kwargs: Any) -> Any:
            return guard.carry_out(tool, guard.decide(tool.name, kwargs))

        async def arun(**kwargs: Any) -> Any:
            verdict = guard.decide(tool.name, kwargs)
            if isinstance(verdict, Run):
                try:
                    return await tool.ainvoke(verdict.args)
                finally:
                    verdict.done()
            return guard.carry_out(tool, verdict)

        return StructuredTool.from_function(
            func=run,
            coroutine=arun,
            name=tool.name,
            description=tool.description,
            args_schema=tool.args_schema,
            return_direct=tool.return_direct,
            handle_tool_error=True,
        )

    def wrap_all(self, tools: Iterable[BaseTool]) -> List[BaseTool]:
        return [self.wrap(t) for t in tools]

    def carry_out(self, tool: BaseTool, verdict: Verdict) -> Any:
        """Do what the verdict says with ``tool`` (synchronously)."""
        if isinstance(verdict, Run):
            try:
                return tool.invoke(verdict.args)
            finally:
                verdict.done()
        if isinstance(verdict, Answer):
            return verdict.text()
        assert isinstance(verdict, Refuse)
        if verdict.blocked:
            raise ToolException(verdict.message)
        return verdict.message

    def middleware(self) -> Any:
        """LangChain agent middleware (``create_agent(..., middleware=[...])``)
        that decides each tool call before the agent's tool node runs it:
        the call's arguments are replaced on REWRITE, and SHADOW, DEFER and
        BLOCK answer with a ``ToolMessage`` instead of running the tool."""
        if AgentMiddleware is None:
            raise ImportError("guard.middleware() needs the `langchain` package (1.x)")
        return _StpcMiddleware(self)

    def tool_message(self, call: Dict[str, Any], verdict: Verdict) -> ToolMessage:
        """The answer the model gets for a call that does not run."""
        if isinstance(verdict, Answer):
            return ToolMessage(content=verdict.text(), tool_call_id=call["id"], name=call["name"])
        assert isinstance(verdict, Refuse)
        return ToolMessage(
            content=verdict.message,
            tool_call_id=call["id"],
            name=call["name"],
            status="error" if verdict.blocked else "success",
        )

    def branch(self, branch: str, confidence: float, mode: str = "speculative") -> "SpeculativeBranch":
        """A speculative branch (a context manager): guarded calls inside it
        are speculative, and it can prefetch."""
        return SpeculativeBranch(self, Speculation(mode=mode, confidence=confidence, branch=branch))


if AgentMiddleware is not None:

    class _StpcMiddleware(AgentMiddleware):  # type: ignore[misc,valid-type]
        """See :meth:`LangChainGuard.middleware`."""

        def __init__(self, guard: LangChainGuard) -> None:
            super().__init__()
            self.guard = guard

        def wrap_tool_call(self, request: Any, handler: Any) -> Any:
            call = request.tool_call
            verdict = self.guard.decide(call["name"], call.get("args", {}))
            if isinstance(verdict, Run):
                try:
                    return handler(request.override(tool_call={**call, "args": verdict.args}))
                finally:
                    verdict.done()
            return self.guard.tool_message(call, verdict)

        async def awrap_tool_call(self, request: Any, handler: Any) -> Any:
            call = request.tool_call
            verdict = self.guard.decide(call["name"], call.get("args", {}))
            if isinstance(verdict, Run):
                try:
                    return await handler(request.override(tool_call={**call, "args": verdict.args}))
                finally:
                    verdict.done()
            return self.guard.tool_message(call, verdict)


@dataclass
class Prefetched:
    """One prefetched call: the tool, the monitor's action, and the result
    when the call ran (ALLOW, REWRITE) or was answered locally (SHADOW)."""

    tool: str
    action: str
    seq: int
    result: Any = None
    message: Optional[str] = None


@dataclass
class SpeculativeBranch:
    guard: LangChainGuard
    speculation: Speculation
    prefetched: List[Prefetched] = field(default_factory=list)
    _tools: Dict[int, BaseTool] = field(default_factory=dict)
    _settled: bool = False
    _token: Optional[contextvars.Token] = None

    @property
    def name(self) -> str:
        return self.speculation.branch

    def __enter__(self) -> "SpeculativeBranch":
        self._token = _current.set(self.speculation)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._token is not None:
            _current.reset(self._token)
            self._token = None
        if not self._settled:
            self.abandon()

    def prefetch(self, tool: BaseTool, args: Dict[str, Any]) -> Prefetched:
        """Issue ``tool(args)`` now, speculatively on this branch. A tool
        error is recorded as the call's message."""
        verdict = self.guard.decide(tool.name, args, self.speculation)
        d = verdict.decision
        p = Prefetched(tool.name, d.action if d is not None else "block", d.seq if d is not None else -1)
        if d is not None:
            self._tools[d.seq] = tool
        try:
            out = self.guard.carry_out(tool, verdict)
            if isinstance(verdict, Refuse):
                p.message = out
            else:
                p.result = out
        except ToolException as e:
            p.message = str(e)
        self.prefetched.append(p)
        return p

    def promote(self) -> List[Prefetched]:
        """The branch commits: what the monitor held back is decided again
        as committed and, where it now may be, run; reused substitute
        results come back as they were."""
        self._settled = True
        out: List[Prefetched] = []
        for p in self.guard.monitor.promote(self.name):
            if isinstance(p, stpc.Shadowed):
                out.append(Prefetched(self._tool_name(p.seq), "shadow", p.seq, result=p.result))
                continue
            tool = self._tools.get(p.seq)
            verdict = self.guard.verdict(p)
            done = Prefetched(self._tool_name(p.seq), p.action, p.seq)
            if tool is None:
                if isinstance(verdict, Run):
                    verdict.done()
                done.message = "no tool was prefetched with this sequence number"
            else:
                try:
                    value = self.guard.carry_out(tool, verdict)
                    if isinstance(verdict, Refuse):
                        done.message = value
                    else:
                        done.result = value
                except ToolException as e:
                    done.message = str(e)
            out.append(done)
        return out

    def abandon(self) -> int:
        """The branch is dropped: what the monitor held back is never sent."""
        self._settled = True
        return self.guard.monitor.abandon(self.name)

    def _tool_name(self, seq: int) -> str:
        tool = self._tools.get(seq)
        return tool.name if tool is not None else "<unknown>"


__all__ = ["LangChainGuard", "Prefetched", "SpeculativeBranch"]
