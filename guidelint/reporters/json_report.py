"""The versioned JSON report (schema: docs/OUTPUT.md)."""

from __future__ import annotations

import json

from guidelint.findings import Finding
from guidelint.reporters.report import Report

SCHEMA_VERSION = 1


def finding_dict(f: Finding) -> dict:
    """A finding as the report writes it: `Finding.as_json`, the one codec."""
    return f.as_json()


def render(report: Report) -> str:
    data = {
        "version": SCHEMA_VERSION,
        "findings": [finding_dict(f) for f in report.findings],
        "summary": report.summary(),
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
