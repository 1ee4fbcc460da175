"""The example runner (`guidelint run`, GL4xx): extraction, the worker and sandbox,
reports, the pytest plugin and hostile examples.

Shared fixtures (scratch projects, the real CLI, the corpus mark) live in
tests/conftest.py; this file holds what only this wing uses.
"""
