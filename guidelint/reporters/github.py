"""GitHub Actions workflow commands: one ::error/::warning annotation per finding."""

from __future__ import annotations

from guidelint.annotations import workflow_command
from guidelint.findings import Severity
from guidelint.printable import printable
from guidelint.reporters.report import Report


def render(report: Report) -> str:
    lines = []
    for f in report.findings:
        level = "error" if f.severity is Severity.ERROR else "warning"
        props: dict[str, str | int] = {
            "file": printable(f.path),
            "line": f.line,
            "col": f.column,
            "endLine": f.end_line,
        }
        if f.end_line == f.line:
            props["endColumn"] = f.end_column
        props["title"] = f"{f.code} {f.name}"
        lines.append(workflow_command(level, f.message, props))  # %0A keeps lines
    return "\n".join(lines) + ("\n" if lines else "")
