"""The reference rules (GL0-GL6) and their pages: every page's examples, the static
rule index, the agent-config helpers, and the rules on the shared corpora.

Shared fixtures (scratch projects, the real CLI, the corpus mark) live in
tests/conftest.py; this file holds what only this wing uses.
"""
