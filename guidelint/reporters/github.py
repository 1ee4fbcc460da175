"""GitHub Actions workflow commands: one ::error/::warning annotation per finding."""

from __future__ import annotations

from guidelint.findings import Severity
from guidelint.reporters import Report


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report) -> str:
    lines = []
    for f in report.findings:
        level = "error" if f.severity is Severity.ERROR else "warning"
        props = [
            f"file={_escape_property(f.path)}",
            f"line={f.line}",
            f"col={f.column}",
            f"endLine={f.end_line}",
            f"title={_escape_property(f'{f.code} {f.name}')}",
        ]
        if f.end_line == f.line:
            props.insert(4, f"endColumn={f.end_column}")
        lines.append(f"::{level} {','.join(props)}::{_escape_data(f.message)}")
    return "\n".join(lines) + ("\n" if lines else "")
