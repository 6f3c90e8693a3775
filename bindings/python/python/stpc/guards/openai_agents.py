"""stpc for the OpenAI Agents SDK: tool guardrails that decide every
function-tool call before it runs.

::

    import stpc
    from stpc.guards.openai_agents import guard_tools

    monitor = stpc.Monitor(stpc.Engine.load("rewrite.table.json"), audit="audit.jsonl")
    guard = guard_tools(agent.tools, monitor, destinations={"web_search": "api.brave.com"})
    with guard.task("session-1"):
        result = await Runner.run(agent, "...")

The input guardrail maps the monitor's actions onto the SDK's outcomes:

- ALLOW: ``allow``; the tool runs with the model's arguments;
- REWRITE: the call's arguments are replaced by the rewritten ones, then
  ``allow`` (the tool never sees the original);
- SHADOW: ``reject_content`` with the substitute's result as the message the
  model receives instead of the tool's: the tool does not run;
- DEFER: ``reject_content`` saying the call waits for its branch to commit;
- BLOCK: ``reject_content`` with the rule and reason (or, with
  ``on_block="raise"``, ``raise_exception``, which halts the run with
  ``ToolInputGuardrailTripwireTriggered``).

The output guardrail reports the call complete to the monitor. Which branch
a call belongs to is ``stpc.guards.speculative(...)`` around the run, or a
``speculation`` function of the tool context (for example reading the run's
own context object).

Replacing arguments: the SDK's guardrail outcomes are allow, reject and
raise; the runner invokes the tool with the arguments of the call object the
guardrail's context holds, which the guardrail rewrites in place. If a
context carries no call object to rewrite, a REWRITE is refused instead
(fail closed). The suite checks the replacement against the SDK it installs.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Iterable, Literal, Optional

from agents import (
    FunctionTool,
    ToolGuardrailFunctionOutput,
    ToolInputGuardrailData,
    ToolOutputGuardrailData,
    tool_input_guardrail,
    tool_output_guardrail,
)

import stpc

from ._common import Answer, Destinations, Guard, Refuse, Run, Speculation

SpeculationOf = Callable[[Any], Optional[Speculation]]


class AgentsGuard(Guard):
    """A :class:`~stpc.guards.Guard` with the SDK's two guardrails."""

    def __init__(
        self,
        monitor: stpc.Monitor,
        *,
        destinations: Destinations,
        speculation: Optional[SpeculationOf] = None,
        on_block: Literal["reject", "raise"] = "reject",
    ) -> None:
        super().__init__(monitor, destinations=destinations)
        self._speculation = speculation
        self._on_block = on_block
        self._running: Dict[str, Run] = {}
        self.input_guardrail = tool_input_guardrail(name="stpc")(self._check_input)
        self.output_guardrail = tool_output_guardrail(name="stpc_complete")(self._check_output)

    def _check_input(self, data: ToolInputGuardrailData) -> ToolGuardrailFunctionOutput:
        ctx = data.context
        spec = self._speculation(ctx) if self._speculation else None
        raw = ctx.tool_arguments or "{}"
        try:
            args: Any = json.loads(raw)
        except ValueError:
            # Not JSON: described as text, which the monitor refuses to read.
            args = raw
        verdict = self.decide(ctx.tool_name, args, spec)
        info = verdict.decision.to_dict() if verdict.decision is not None else None
        if isinstance(verdict, Run):
            if verdict.decision.action == "rewrite" and not _replace_arguments(ctx, verdict.args):
                verdict.done()
                return ToolGuardrailFunctionOutput.reject_content(
                    "stpc could not hand the rewritten arguments to this tool; it has not been sent",
                    output_info=info,
                )
            self._running[ctx.tool_call_id] = verdict
            return ToolGuardrailFunctionOutput.allow(output_info=info)
        if isinstance(verdict, Answer):
            return ToolGuardrailFunctionOutput.reject_content(verdict.text(), output_info=info)
        assert isinstance(verdict, Refuse)
        if verdict.blocked and self._on_block == "raise":
            return ToolGuardrailFunctionOutput.raise_exception(output_info=info)
        return ToolGuardrailFunctionOutput.reject_content(verdict.message, output_info=info)

    def _check_output(self, data: ToolOutputGuardrailData) -> ToolGuardrailFunctionOutput:
        run = self._running.pop(data.context.tool_call_id, None)
        if run is not None:
            run.done()
        return ToolGuardrailFunctionOutput.allow()

    def attach(self, tools: Iterable[Any]) -> "AgentsGuard":
        """Put both guardrails on every function tool of ``tools`` (other
        tool kinds have no input guardrails in the SDK and are left as they
        are)."""
        for tool in tools:
            if isinstance(tool, FunctionTool):
                tool.tool_input_guardrails = [*(tool.tool_input_guardrails or []), self.input_guardrail]
                tool.tool_output_guardrails = [*(tool.tool_output_guardrails or []), self.output_guardrail]
        return self


def _replace_arguments(ctx: Any, args: Any) -> bool:
    text = json.dumps(args, ensure_ascii=False, separators=(",", ":"))
    call = getattr(ctx, "tool_call", None)
    if call is None:
        return False
    call.arguments = text
    ctx.tool_arguments = text
    return True


def guard_tools(
    tools: Iterable[Any],
    monitor: stpc.Monitor,
    *,
    destinations: Destinations,
    speculation: Optional[SpeculationOf] = None,
    on_block: Literal["reject", "raise"] = "reject",
) -> AgentsGuard:
    """Guard every function tool of an agent (``agent.tools``) with
    ``monitor``; returns the guard (use ``guard.task(id)`` around a run)."""
    return AgentsGuard(
        monitor, destinations=destinations, speculation=speculation, on_block=on_block
    ).attach(tools)


__all__ = ["AgentsGuard", "guard_tools"]
