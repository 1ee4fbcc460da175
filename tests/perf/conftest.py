"""Performance invariants that need no clock: batching, lazy imports, fast paths that
give the plain path's answers, per-rule costs cut. Speed itself is measured by
scripts/bench_*.py, never asserted here.

Shared fixtures (scratch projects, the real CLI, the corpus mark) live in
tests/conftest.py; this file holds what only this wing uses.
"""
