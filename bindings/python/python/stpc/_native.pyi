"""Type stubs of the extension module (the classes ``stpc`` re-exports)."""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, List, Literal, Mapping, Optional, Sequence, Union

JSON = Union[None, bool, int, float, str, List["JSON"], Dict[str, "JSON"]]
Action = Literal["allow", "rewrite", "shadow", "defer", "block"]
Reason = Literal[
    "rule",
    "invalid_event",
    "rewrite_insufficient",
    "no_substitute",
    "substitute_failed",
    "audit_failed",
    "queue_full",
]
Event = Union[Mapping[str, Any], str]
Labels = Dict[str, Any]

RUNTIME_VERSION: str

class StpcError(Exception):
    """Base class of every error stpc raises."""

class LoadError(StpcError):
    """A table was refused; ``kind`` names the check that failed."""

    kind: str

class EventError(StpcError):
    """An event the monitor cannot read (no argument value is quoted)."""

class MonitorError(StpcError):
    """A call out of order: no task, a task already active, a stale event."""

class AuditError(MonitorError):
    """The audit sink failed; the event it concerned was not dispatched."""

class UsedError(StpcError):
    """An issued event, ticket or dispatched call used a second time."""

class Engine:
    """A loaded, compiled decision table, shared by any number of monitors."""

    @staticmethod
    def load(
        path: Union[str, os.PathLike[str]],
        *,
        trusted_keys: Optional[Sequence[Union[str, os.PathLike[str]]]] = None,
        signature: Optional[Union[str, os.PathLike[str]]] = None,
        verify: bool = False,
    ) -> Engine:
        """Load a table file, with the labeler index beside it (``PATH`` with
        the extension ``.index``, as ``stpc compile`` writes it) when it is the
        one the table names (otherwise a ``RuntimeWarning`` and the engine is
        built from the table); with ``trusted_keys`` (public key files), require
        its signature (``signature`` or ``PATH.sig``) by one of them; with
        ``verify``, refuse a table that does not verify (kind ``unsound``)."""
    @staticmethod
    def from_bytes(
        data: bytes,
        *,
        trusted_keys: Optional[Sequence[str]] = None,
        signature: Optional[str] = None,
        verify: bool = False,
    ) -> Engine:
        """Load a table from bytes; keys and signature as file texts."""
    @property
    def contract(self) -> str: ...
    @property
    def digest(self) -> str: ...
    @property
    def tools(self) -> List[str]: ...
    @property
    def destinations(self) -> List[str]: ...
    @property
    def substitutes(self) -> List[str]: ...
    def label(self, tool: str, args: JSON, destination: str) -> Labels:
        """The labels the table gives a call: ``{"args", "destination", "fields"}``."""

class MemoryAudit:
    """Audit records kept in memory."""

    def __init__(self) -> None: ...
    def records(self) -> List[Dict[str, Any]]: ...
    def __len__(self) -> int: ...

AuditTarget = Union[MemoryAudit, str, os.PathLike[str], Callable[[Dict[str, Any]], object], None]

class Monitor:
    """One agent session's mediation of its tool calls."""

    def __init__(
        self,
        engine: Engine,
        *,
        audit: AuditTarget = None,
        max_deferred: Optional[int] = None,
        max_shadowed: Optional[int] = None,
    ) -> None: ...
    @property
    def engine(self) -> Engine: ...
    def register_substitute(self, name: str, f: Callable[[ToolCall], JSON]) -> None: ...
    def begin_task(self, task_id: str) -> None: ...
    def end_task(self) -> int: ...
    def issue(self, event: Event) -> Issued: ...
    def decide(self, issued: Issued) -> Decision: ...
    def submit(self, event: Event) -> Decision: ...
    def complete(self, call: Dispatched) -> None: ...
    def promote(self, branch: str) -> List[Union[Decision, Shadowed]]: ...
    def abandon(self, branch: str) -> int: ...
    def pending(self, branch: str) -> int: ...
    def budgets(self) -> Dict[str, int]: ...

class Issued:
    @property
    def seq(self) -> int: ...

Outcome = Union["DispatchTicket", "Shadowed", "Deferred", "Blocked"]

class Decision:
    @property
    def seq(self) -> int: ...
    @property
    def action(self) -> Action: ...
    @property
    def rule_id(self) -> Optional[int]: ...
    @property
    def rule_name(self) -> str: ...
    @property
    def reason(self) -> Reason: ...
    @property
    def detail(self) -> Optional[Union[str, List[str]]]: ...
    @property
    def cell(self) -> Optional[int]: ...
    @property
    def labels(self) -> Labels: ...
    @property
    def outcome(self) -> Outcome: ...
    @property
    def ticket(self) -> Optional[DispatchTicket]: ...
    def to_dict(self) -> Dict[str, Any]: ...

class DispatchTicket:
    @property
    def seq(self) -> int: ...
    @property
    def tool(self) -> str: ...
    def dispatch(self) -> Dispatched: ...

class Dispatched:
    @property
    def seq(self) -> int: ...
    @property
    def call(self) -> ToolCall: ...
    @property
    def args(self) -> JSON: ...

class ToolCall:
    @property
    def tool(self) -> str: ...
    @property
    def destination(self) -> str: ...
    @property
    def declared_destination(self) -> Optional[str]: ...
    @property
    def address(self) -> Optional[Dict[str, Any]]: ...
    @property
    def args(self) -> JSON: ...

class Shadowed:
    @property
    def seq(self) -> int: ...
    @property
    def substitute(self) -> str: ...
    @property
    def result(self) -> JSON: ...

class Deferred:
    @property
    def seq(self) -> int: ...
    @property
    def branch(self) -> str: ...

class Blocked:
    @property
    def seq(self) -> int: ...
    @property
    def reason(self) -> Reason: ...
