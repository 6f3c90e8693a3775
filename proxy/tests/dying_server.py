"""An MCP server (the official SDK's MCPServer) whose `crash` tool kills
the process mid-call, and whose `echo` tool answers: the proxy suite's
upstream for a server that dies while a call is in flight."""

import os

from mcp.server.mcpserver import MCPServer

server = MCPServer("dying")


@server.tool()
def echo(text: str) -> str:
    """Answer with the text."""
    return text


@server.tool()
def crash(text: str) -> str:
    """Die without answering."""
    os._exit(3)


if __name__ == "__main__":
    server.run()
