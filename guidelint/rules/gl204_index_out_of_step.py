"""GL204 index-out-of-step: index rows out of entry order, or with a stale headline.

The comparison lives in guidelint/gotchas/index.py, the report and fix the three
index rules share in guidelint/gotchas/index_report.py.
"""

from __future__ import annotations

from guidelint.findings import Severity
from guidelint.gotchas.index import IndexProblemKind
from guidelint.gotchas.rulebase import IndexRule


class IndexOutOfStep(IndexRule):
    code = "GL204"
    name = "index-out-of-step"
    severity = Severity.ERROR
    problem_kind = IndexProblemKind.INDEX_OUT_OF_STEP
