"""Guards for agent frameworks, each a few lines for the user.

- :mod:`stpc.guards.openai_agents`: tool input/output guardrails for the
  OpenAI Agents SDK (extra ``stpc-monitor[openai-agents]``);
- :mod:`stpc.guards.langchain`: guarded LangChain tools for LangChain and
  LangGraph agents, with a speculative-branch helper (extra
  ``stpc-monitor[langchain]``).

Both map the monitor's five actions the same way (see :mod:`._common`):
ALLOW runs the tool with the agent's arguments, REWRITE with the rewritten
ones, SHADOW answers with the substitute's result without running the tool,
DEFER answers that the call waits for its branch to commit, BLOCK answers
with the rule and reason code (never the arguments). Which destination a
tool sends to, and which branch a call belongs to, are the embedder's to
say: the framework does not know them. A tool without a destination is sent
to none, which a verified table BLOCKs (fail closed).
"""

from ._common import Guard, Speculation, speculative

__all__ = ["Guard", "Speculation", "speculative"]
