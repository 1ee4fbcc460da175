"""GL202 unindexed-entry: An entry of a gotchas file has no row in the LESSONS index.

The comparison and the shared fix live in guidelint/gotchas/index.py.
"""

from __future__ import annotations

from guidelint.findings import Severity
from guidelint.gotchas.rulebase import IndexRule


class UnindexedEntry(IndexRule):
    code = "GL202"
    name = "unindexed-entry"
    summary = "An entry of a gotchas file has no row in the LESSONS index."
    severity = Severity.ERROR
