"""Rendering a run: text (progress bar on a TTY, summary table), json, junit, github.

Every renderer handles every Outcome; the JSON shape is documented in
docs/RUNNING.md and checked against guidelint/runner/report_schema.json.
"""

from __future__ import annotations

import json
from xml.etree import ElementTree

from guidelint.annotations import workflow_command
from guidelint.printable import log_safe, printable
from guidelint.runner.outcomes import ExampleResult, Outcome
from guidelint.runner.run import RunReport

FORMATS = ("text", "json", "junit", "github")
MARKS = {
    Outcome.PASSED: "ok",
    Outcome.FAILED: "FAIL",
    Outcome.ERROR: "ERROR",
    Outcome.TIMEOUT: "TIMEOUT",
    Outcome.CRASHED: "CRASH",
    Outcome.MISSING_DEPENDENCY: "MISSING",
    Outcome.UNSUPPORTED_MODEL: "UNSUPPORTED",
    Outcome.BUILD_FAILED: "BUILD FAILED",
    Outcome.REFUSED: "REFUSED",
    Outcome.SKIPPED: "skip",
    Outcome.PENDING_PASSED: "pending ok",
    Outcome.PENDING_FAILED: "pending fail",
}
# How JUnit counts each outcome (the others are plain passes).
JUNIT_FAILURES = (Outcome.FAILED, Outcome.TIMEOUT)
JUNIT_ERRORS = (
    Outcome.ERROR,
    Outcome.CRASHED,
    Outcome.MISSING_DEPENDENCY,
    Outcome.UNSUPPORTED_MODEL,
    Outcome.BUILD_FAILED,
    Outcome.REFUSED,
)
JUNIT_SKIPPED = (Outcome.SKIPPED, Outcome.PENDING_FAILED)


def render(report: RunReport, fmt: str) -> str:
    return {
        "text": render_text,
        "json": render_json,
        "junit": render_junit,
        "github": render_github,
    }[fmt](report)


def result_line(result: ExampleResult) -> str:
    label = f"{result.path}:{result.line}"
    if result.id != label:
        label += f" [{result.id}]"
    label = log_safe(label)
    return f"{MARKS[result.status]:<12} {label} ({result.duration_s:.2f}s)"


def render_text(report: RunReport) -> str:
    lines = []
    for result in report.results:
        where = log_safe(f"{result.path}:{result.line}")
        if not result.status.ok or result.status is Outcome.PENDING_FAILED:
            message = _indent(log_safe(result.message))
            lines.append(f"{where}: {result.status.value}: {message}")
            if result.details.strip() and result.status is not Outcome.FAILED:
                lines.append(_block(log_safe(result.details.rstrip())))
        if result.status is Outcome.PENDING_PASSED:
            done = "marked verified" if report.promoted else "ready: run with --promote"
            lines.append(f"{where}: {result.status.value}: {done}")
        if result.substitutions:
            substitutions = log_safe("; ".join(result.substitutions))
            lines.append(f"{where}: substitutions: {substitutions}")
        for image in result.images:
            lines.append(f"{where}: image kept: {log_safe(image)}")
    lines.extend(log_safe(note) for note in report.notes)
    lines.append(summary_table(report))
    return "\n".join(lines) + "\n"


def summary_table(report: RunReport) -> str:
    """Counts per outcome (those that occurred), then the verdict line."""
    counts = {k: v for k, v in report.counts().items() if v}
    rows = [f"  {outcome.value:<20} {count:>5}" for outcome, count in counts.items()]
    return "\n".join([*rows, summary_line(report)])


def summary_line(report: RunReport) -> str:
    counts = {k: v for k, v in report.counts().items() if v}
    parts = ", ".join(f"{v} {k.value}" for k, v in counts.items()) or "no examples"
    verdict = "OK" if report.ok else "FAILED"
    return f"{verdict}: {len(report.results)} example(s): {parts} in {report.duration_s:.2f}s"


def render_json(report: RunReport) -> str:
    return json.dumps(report.as_json(), indent=2) + "\n"


def render_junit(report: RunReport) -> str:
    counts = report.counts()
    suite = ElementTree.Element(
        "testsuite",
        name="guidelint-examples",
        tests=str(len(report.results)),
        failures=str(sum(counts[o] for o in JUNIT_FAILURES)),
        errors=str(sum(counts[o] for o in JUNIT_ERRORS)),
        skipped=str(sum(counts[o] for o in JUNIT_SKIPPED)),
        time=f"{report.duration_s:.3f}",
    )
    for result in report.results:
        case = ElementTree.SubElement(
            suite,
            "testcase",
            # Names from the guide and the file system, as the text report shows them: an
            # `id=` or a file name holding ESC or BEL made the whole report unparseable.
            classname=printable(result.path),
            name=printable(result.id),  # `id=` when set, else FILE:LINE
            file=printable(result.path),
            line=str(result.line),
            time=f"{result.duration_s:.3f}",
        )
        if result.images:
            properties = ElementTree.SubElement(case, "properties")
            for image in result.images:
                ElementTree.SubElement(
                    properties, "property", name="attachment", value=printable(image)
                )
        tag = _junit_tag(result.status)
        if tag:
            child = ElementTree.SubElement(
                case, tag, message=_clean(result.message)[:500], type=result.status.value
            )
            child.text = _clean(result.message + ("\n" + result.details if result.details else ""))
        # The images also as attachments in the [[ATTACHMENT|path]] form Jenkins and GitLab read.
        attachments = "".join(f"\n[[ATTACHMENT|{printable(image)}]]" for image in result.images)
        if result.stdout or attachments:
            out = _clean(result.stdout[-20000:]) + attachments
            ElementTree.SubElement(case, "system-out").text = out
    ElementTree.indent(suite)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        + ElementTree.tostring(suite, encoding="unicode")
        + "\n"
    )


def _junit_tag(status: Outcome) -> str | None:
    if status in JUNIT_FAILURES:
        return "failure"
    if status in JUNIT_ERRORS:
        return "error"
    if status in JUNIT_SKIPPED:
        return "skipped"
    return None


def _clean(text: str) -> str:
    """XML 1.0 cannot hold most control characters (an example may print them), lone
    surrogates (undecodable bytes) or U+FFFE and U+FFFF."""
    return "".join(c for c in text if c in "\t\n\r" or _xml_char(ord(c)))


def _xml_char(code: int) -> bool:
    return code >= 0x20 and not 0xD800 <= code <= 0xDFFF and code not in (0xFFFE, 0xFFFF)


def render_github(report: RunReport) -> str:
    lines = []
    for result in report.results:
        if result.status.ok and result.status is not Outcome.PENDING_FAILED:
            continue
        level = "warning" if result.status.ok else "error"
        props: dict[str, str | int] = {
            "file": result.path,
            "line": result.line,
            "title": f"example {result.status.value}",
        }
        message = log_safe(result.message or result.status.value)
        lines.append(workflow_command(level, message, props))
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def _indent(text: str, prefix: str = "    ") -> str:
    """Indent every line after the first (messages continue under their heading)."""
    first, *rest = text.split("\n")
    return "\n".join([first, *(prefix + line for line in rest)])


def _block(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.split("\n"))
