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
        # Paths from the repository root, columns in UTF-16 code units: what GitHub
        # places annotations by.
        props: dict[str, str | int] = {
            "file": printable(report.repo_path(f.path)),
            "line": f.line,
            "col": report.utf16_column(f.path, f.line, f.column),
            "endLine": f.end_line,
        }
        if f.end_line == f.line:
            props["endColumn"] = report.utf16_column(f.path, f.line, f.end_column)
        props["title"] = f"{f.code} {f.name}"
        lines.append(workflow_command(level, f.message, props))  # %0A keeps lines
    return "\n".join(lines) + ("\n" if lines else "")
