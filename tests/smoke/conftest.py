"""The smoke pillar (GL3xx): driver checks, the dial, trainer arithmetic and the
`smoke` CLI. `pytest tests/smoke -m "not slow"` is its fast loop.

Shared fixtures (scratch projects, the real CLI, the corpus mark) live in
tests/conftest.py; this file holds what only this wing uses.
"""
