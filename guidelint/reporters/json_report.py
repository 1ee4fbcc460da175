"""The versioned JSON report (schema: docs/OUTPUT.md)."""

from __future__ import annotations

import json

from guidelint.findings import Finding
from guidelint.printable import encodable
from guidelint.reporters.report import Report

SCHEMA_VERSION = 1


def finding_dict(f: Finding) -> dict:
    fix = None
    if f.fix is not None:
        fix = {
            "description": f.fix.description,
            "safe": f.fix.safe,
            "edits": [{"start": e.start, "end": e.end, "content": e.content} for e in f.fix.edits],
        }
    return {
        "code": f.code,
        "name": f.name,
        "severity": f.severity.value,
        "message": f.message,
        "path": encodable(f.path),
        "line": f.line,
        "column": f.column,
        "end_line": f.end_line,
        "end_column": f.end_column,
        "fix": fix,
        "fingerprint": f.fingerprint(),
    }


def render(report: Report) -> str:
    data = {
        "version": SCHEMA_VERSION,
        "findings": [finding_dict(f) for f in report.findings],
        "summary": report.summary(),
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
