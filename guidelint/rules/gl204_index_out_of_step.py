"""GL204 index-out-of-step: index rows out of entry order, or with a stale headline.

The comparison and the shared fix live in guidelint/gotchas/index.py.
"""

from __future__ import annotations

from guidelint.findings import Severity
from guidelint.gotchas.rulebase import IndexRule


class IndexOutOfStep(IndexRule):
    code = "GL204"
    name = "index-out-of-step"
    summary = "LESSONS index rows are out of entry order or show a stale headline."
    severity = Severity.ERROR
