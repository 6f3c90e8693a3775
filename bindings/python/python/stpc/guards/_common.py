"""What the framework guards share: the speculation a call belongs to, the
destination of each tool, and one decision per call mapped onto "run with
these arguments", "answer with this" or "refuse with this message"."""

from __future__ import annotations

import contextlib
import contextvars
import json
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Union

import stpc


@dataclass(frozen=True)
class Speculation:
    """The branch a call belongs to: ``mode`` (``committed``,
    ``speculative``, or another mode the contract declares), the branch's
    calibrated ``confidence`` and its ``branch`` id."""

    mode: str = "committed"
    confidence: float = 1.0
    branch: str = "main"


COMMITTED = Speculation()

_current: contextvars.ContextVar[Speculation] = contextvars.ContextVar(
    "stpc_speculation", default=COMMITTED
)


@contextlib.contextmanager
def speculative(branch: str, confidence: float, mode: str = "speculative") -> Iterator[Speculation]:
    """Within the block, guarded tool calls are speculative calls on
    ``branch`` with ``confidence`` (a context variable, so it follows
    asyncio tasks and LangChain's executor threads)."""
    spec = Speculation(mode=mode, confidence=confidence, branch=branch)
    token = _current.set(spec)
    try:
        yield spec
    finally:
        _current.reset(token)


def current_speculation() -> Speculation:
    """The speculation of the calling context (committed outside
    :func:`speculative`)."""
    return _current.get()


Destinations = Union[Mapping[str, str], Callable[[str, Any], Optional[str]]]


@dataclass(frozen=True)
class Run:
    """Run the tool with ``args`` (ALLOW: the agent's; REWRITE: rewritten),
    then report ``done()``."""

    args: Any
    decision: stpc.Decision
    dispatched: stpc.Dispatched
    monitor: stpc.Monitor

    def done(self) -> None:
        """Tell the monitor the call completed (for the audit trail)."""
        with contextlib.suppress(stpc.UsedError):
            self.monitor.complete(self.dispatched)


@dataclass(frozen=True)
class Answer:
    """Answer the model without running the tool: the substitute's
    ``result`` (SHADOW)."""

    result: Any
    decision: stpc.Decision

    def text(self) -> str:
        return self.result if isinstance(self.result, str) else json.dumps(self.result)


@dataclass(frozen=True)
class Refuse:
    """Do not run the tool; tell the model ``message`` (DEFER, BLOCK, or
    an event the monitor cannot read)."""

    message: str
    decision: Optional[stpc.Decision]

    @property
    def blocked(self) -> bool:
        return self.decision is None or self.decision.action == "block"


Verdict = Union[Run, Answer, Refuse]


def refusal_message(d: stpc.Decision) -> str:
    """What the model is told of a DEFER or BLOCK: the action, the rule and
    the reason code, never the arguments."""
    if d.action == "defer":
        return (
            f"stpc deferred this call until its branch commits "
            f"(rule {d.rule_name}, reason {d.reason}); it has not been sent"
        )
    return f"stpc blocked this call (rule {d.rule_name}, reason {d.reason}); it has not been sent"


class Guard:
    """One monitor and how to describe a framework's tool calls to it.

    ``destinations`` maps each tool name to the destination it sends to (a
    declared destination name, a host or a URL), or is a function of the
    tool name and arguments. A tool with no destination is described with
    an empty one, which the contract's tables BLOCK as unknown.
    """

    def __init__(self, monitor: stpc.Monitor, *, destinations: Destinations) -> None:
        self.monitor = monitor
        self._destinations = destinations

    def destination(self, tool: str, args: Any) -> str:
        d = self._destinations
        found = d(tool, args) if callable(d) else d.get(tool)
        return found or ""

    def event(self, tool: str, args: Any, spec: Optional[Speculation] = None) -> Dict[str, Any]:
        spec = spec or current_speculation()
        return {
            "tool": tool,
            "args": args,
            "destination": self.destination(tool, args),
            "mode": spec.mode,
            "confidence": spec.confidence,
            "branch": spec.branch,
        }

    def decide(self, tool: str, args: Any, spec: Optional[Speculation] = None) -> Verdict:
        """Decide one call: what the framework must do with it."""
        try:
            d = self.monitor.submit(self.event(tool, args, spec))
        except stpc.EventError as e:
            return Refuse(f"stpc could not read this call ({e}); it has not been sent", None)
        return self.verdict(d)

    def verdict(self, d: stpc.Decision) -> Verdict:
        ticket = d.ticket
        if ticket is not None:
            sent = ticket.dispatch()
            return Run(sent.args, d, sent, self.monitor)
        if isinstance(d.outcome, stpc.Shadowed):
            return Answer(d.outcome.result, d)
        return Refuse(refusal_message(d), d)

    @contextlib.contextmanager
    def task(self, task_id: str) -> Iterator[stpc.Monitor]:
        """A task of the monitor around an agent run: budgets start fresh,
        and whatever is still pending when the block ends is abandoned."""
        self.monitor.begin_task(task_id)
        try:
            yield self.monitor
        finally:
            self.monitor.end_task()
