"""GL203 dangling-index-row: A LESSONS index row points to no entry.

The comparison lives in guidelint/gotchas/index.py, the report and fix the three
index rules share in guidelint/gotchas/index_report.py.
"""

from __future__ import annotations

from guidelint.findings import Severity
from guidelint.gotchas.index import IndexProblemKind
from guidelint.gotchas.rulebase import IndexRule


class DanglingIndexRow(IndexRule):
    code = "GL203"
    name = "dangling-index-row"
    severity = Severity.ERROR
    problem_kind = IndexProblemKind.DANGLING_INDEX_ROW
