"""The tiny diffusers backend of the runner: every pipeline family built tiny, run
and checked; `tiny_pipelines.py` holds the helpers only this wing uses.

Shared fixtures (scratch projects, the real CLI, the corpus mark) live in
tests/conftest.py; this file holds what only this wing uses.
"""
