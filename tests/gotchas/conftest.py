"""The gotchas pillar (GL2xx): parsing, the rules, fixes, the `gotcha` CLI and
property-based checks.

Shared fixtures (scratch projects, the real CLI, the corpus mark) live in
tests/conftest.py; this file holds what only this wing uses.
"""
