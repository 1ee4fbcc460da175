"""GL202 unindexed-entry: An entry of a gotchas file has no row in the LESSONS index.

The comparison lives in guidelint/gotchas/index.py, the report and fix the three
index rules share in guidelint/gotchas/index_report.py.
"""

from __future__ import annotations

from guidelint.findings import Severity
from guidelint.gotchas.index import IndexProblemKind
from guidelint.gotchas.rulebase import IndexRule


class UnindexedEntry(IndexRule):
    code = "GL202"
    name = "unindexed-entry"
    severity = Severity.ERROR
    problem_kind = IndexProblemKind.UNINDEXED_ENTRY
