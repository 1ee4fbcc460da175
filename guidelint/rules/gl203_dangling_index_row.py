"""GL203 dangling-index-row: A LESSONS index row points to no entry.

The comparison and the shared fix live in guidelint/gotchas/index.py.
"""

from __future__ import annotations

from guidelint.findings import Severity
from guidelint.gotchas.rulebase import IndexRule


class DanglingIndexRow(IndexRule):
    code = "GL203"
    name = "dangling-index-row"
    summary = "A LESSONS index row points to no entry."
    severity = Severity.ERROR
