"""stpc: Speculative Tool Privacy Contracts for Python agents.

The stpc runtime monitor, compiled from Rust: load
a decision table that ``stpc compile`` wrote, and decide every tool call of a
speculating agent before it is dispatched::

    import stpc

    engine = stpc.Engine.load("web_default.table.json")
    monitor = stpc.Monitor(engine, audit=stpc.MemoryAudit())
    monitor.begin_task("t1")
    d = monitor.submit({
        "tool": "web_search", "destination": "api.brave.com",
        "mode": "speculative", "confidence": 0.6, "branch": "b1",
        "args": {"q": "tenant rights lease termination penalty"},
    })
    if d.ticket is not None:            # ALLOW or REWRITE
        call = d.ticket.dispatch()      # the payload, rewritten if REWRITE
        result = my_client(call.tool, call.args)
        monitor.complete(call)
    monitor.end_task()

Everything that decides (labeling, the table, rewrites, substitutes,
deferral, budgets, audit) is the Rust runtime; the interpreter lock is
released while it works. ``stpc.guards`` holds guards for agent frameworks.
"""

from __future__ import annotations

from ._native import (
    RUNTIME_VERSION,
    AuditError,
    Blocked,
    Decision,
    Deferred,
    DispatchTicket,
    Dispatched,
    Engine,
    EventError,
    Issued,
    LoadError,
    MemoryAudit,
    Monitor,
    MonitorError,
    Shadowed,
    StpcError,
    ToolCall,
    UsedError,
)

__version__ = RUNTIME_VERSION

#: The actions a decision can take, from least to most restrictive for the
#: observer.
ACTIONS = ("allow", "rewrite", "shadow", "defer", "block")

__all__ = [
    "ACTIONS",
    "AuditError",
    "Blocked",
    "Decision",
    "Deferred",
    "DispatchTicket",
    "Dispatched",
    "Engine",
    "EventError",
    "Issued",
    "LoadError",
    "MemoryAudit",
    "Monitor",
    "MonitorError",
    "Shadowed",
    "StpcError",
    "ToolCall",
    "UsedError",
]
