"""Tool sources: MCP servers (live or snapshot) and the coding agent's built-ins."""
