"""The engine, project, cache, configuration and the doors (CLI, API, MCP, LSP,
pre-commit, action), and the invariants that cut across every pillar: the import
layers, CLI/JSON/MCP output parity, bad input as one line, linear time, the record
types and the pydantic-free settings.

Shared fixtures (scratch projects, the real CLI, the corpus mark) live in
tests/conftest.py; this file holds what only this wing uses.
"""
