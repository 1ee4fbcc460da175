"""`path:line:col: CODE message`, the source line with a caret, and a summary."""

from __future__ import annotations

import click

from guidelint.findings import Finding, Severity
from guidelint.printable import printable
from guidelint.reporters.report import EXCERPT_WIDTH, Report


def render(report: Report) -> str:
    style = _styler(report.color)
    out = []
    for f in report.findings:
        where = style(f"{printable(f.path)}:{f.line}:{f.column}:", bold=True)
        color = "red" if f.severity is Severity.ERROR else "yellow"
        fixable = style(" [*]", fg="cyan") if f.fix and f.fix.safe else ""
        code = style(f.code, fg=color, bold=True)
        out.append(f"{where} {code}{fixable} {printable(f.message)}")
        if report.show_source:
            out.extend(_excerpt(report, f, style))
    if not report.quiet:
        out.append(_summary(report, style))
    return "\n".join(out) + "\n" if out else ""


def render_statistics(report: Report) -> str:
    """One line per rule with findings, most first: `12  GL501  stale-path  [*] 3`."""
    style = _styler(report.color)
    counts: dict[tuple[str, str], list[Finding]] = {}
    for f in report.findings:
        counts.setdefault((f.code, f.name), []).append(f)
    rows = sorted(counts.items(), key=lambda item: (-len(item[1]), item[0]))
    out = []
    for (code, name), found in rows:
        fixable = sum(f.fix is not None and f.fix.safe for f in found)
        mark = style(f"  [*] {fixable} fixable", fg="cyan") if fixable else ""
        out.append(f"{len(found):>5}  {style(code, bold=True)}  {name}{mark}")
    if not report.quiet:
        out.append(_summary(report, style))
    return "\n".join(out) + "\n" if out else ""


def _excerpt(report: Report, f, style) -> list[str]:
    end = f.end_column if f.end_line == f.line else f.column + EXCERPT_WIDTH
    source, column, end = report.excerpt(f.path, f.line, f.column, end)
    if not source.strip():
        return []
    source = source.expandtabs(1)  # keep columns aligned with the caret
    width = max(1, min(end - column, len(source) - column + 1))
    # Escaped control characters widen the line: the caret moves with them.
    before = printable(source[: column - 1])
    marked = printable(source[column - 1 : column - 1 + width])
    gutter = f"{f.line:>5} | "
    caret = " " * (len(gutter) - 2) + "| " + " " * len(before) + "^" * len(marked)
    return [style(gutter, dim=True) + printable(source), style(caret, fg="red")]


def _summary(report: Report, style) -> str:
    s = report.summary()
    parts = []
    if s["fixed"]:
        parts.append(f"Fixed {s['fixed']} finding{_plural(s['fixed'])}.")
    if not report.findings:
        parts.append(f"All checks passed ({_files(s['files_checked'])} checked).")
        return style(" ".join(parts), fg="green")
    parts.append(
        f"Found {s['errors']} error{_plural(s['errors'])} and "
        f"{s['warnings']} warning{_plural(s['warnings'])} in {_files(s['files_checked'])}."
    )
    if s["fixable"]:
        parts.append(f"[*] {s['fixable']} fixable with --fix.")
    if s["unsafe_fixable"]:
        parts.append(f"{s['unsafe_fixable']} more fixable with --unsafe-fixes.")
    return style(" ".join(parts), bold=True)


def _files(n: int) -> str:
    return f"{n} file{_plural(n)}"


def _plural(n: int) -> str:
    return "" if n == 1 else "s"


def _styler(color: bool):
    if color:
        return click.style
    return lambda text, **_: text
