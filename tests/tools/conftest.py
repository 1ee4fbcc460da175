"""The tool-reference pillar (GL1xx): the catalog, sources, live MCP servers,
published servers, fidelity to their READMEs and hostile servers.

Shared fixtures (scratch projects, the real CLI, the corpus mark) live in
tests/conftest.py; this file holds what only this wing uses.
"""
