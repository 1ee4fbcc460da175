"""Shared by GL301-GL303: which files are drivers, and their facts parsed once per run."""

from __future__ import annotations

from guidelint.smoke.driver_check import SmokeDial, smoke_dial


def is_driver(file, project) -> bool:
    import pathspec

    spec = project.memo(
        "smoke.drivers",
        lambda: pathspec.GitIgnoreSpec.from_lines(project.config.smoke.drivers),
    )
    return file.kind == "python" and spec.match_file(file.rel)


def driver_facts(file, project):
    """The driver's facts, or None when it is not valid Python (not these rules' business)."""

    def read():
        import libcst as cst

        from guidelint.smoke.driver_facts import read_driver

        try:
            return read_driver(file.text)
        except cst.ParserSyntaxError:
            return None

    return project.memo(f"smoke.facts:{file.rel}:{hash(file.text)}", read)


def gate_span(file, gate):
    from guidelint.spans import Span

    lines = file.lines
    return Span(lines.offset(gate.line, gate.column), lines.offset(gate.end_line, gate.end_column))


def dial_note(dial: SmokeDial, computed_from: str) -> str:
    return f"dial {dial.describe()} at line {dial.line} {computed_from}"


__all__ = ["dial_note", "driver_facts", "gate_span", "is_driver", "smoke_dial"]
