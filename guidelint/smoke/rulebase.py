"""What every GL3xx rule shares: it looks only at driver files (the smoke.drivers globs),
reads each driver's facts once, and names gates and dials the same way in messages.

Light on purpose: libcst, pathspec and the arithmetic load only when a rule runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from guidelint.rule import Rule
from guidelint.sources import Derived, FileKind
from guidelint.spans import Span

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.smoke.driver_check import SmokeDial
    from guidelint.smoke.driver_facts import DriverFacts, Gate, Origin
    from guidelint.smoke.parse_guard import TooDeep
    from guidelint.sources import SourceFile


class DriverRule(Rule):
    file_kinds = frozenset({FileKind.PYTHON})
    scope = "drivers"

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        return is_driver(file, project)


def is_driver(file: SourceFile, project: Project) -> bool:
    return file.kind == FileKind.PYTHON and project.globs(project.config.smoke.drivers).matches(
        file.rel
    )


def driver_facts(file: SourceFile, project: Project | None = None) -> DriverFacts | None:
    """The driver's facts, or None when it is not valid Python (not these rules' business)
    or too deeply nested to read (GL301 says so: see `driver_refusal`). With the project,
    the config files and modules it reads are followed (inside the root only)."""
    facts, _ = _reading(file, project)
    return facts


def driver_refusal(file: SourceFile, project: Project | None = None) -> TooDeep | None:
    """Why a valid driver was not read: nested too deeply for libcst to parse safely."""
    _, refusal = _reading(file, project)
    return refusal


def _reading(
    file: SourceFile, project: Project | None
) -> tuple[DriverFacts | None, TooDeep | None]:
    return file.derived(DRIVER_FACTS, project)


def _facts_of(
    file: SourceFile, project: Project | None
) -> tuple[DriverFacts | None, TooDeep | None]:
    return _read_facts(file.text, _origin(file, project))


DRIVER_FACTS = Derived("smoke.driver_facts", _facts_of)


def _origin(file: SourceFile, project: Project | None) -> Origin | None:
    """The driver's door onto the project: reads and lookups go through Project (recorded
    for the cache), and nothing outside the root is read."""
    from guidelint.smoke.driver_facts import Origin

    if project is None:
        return None

    def read(rel: str) -> str | None:
        found = project.read(rel)
        return found.text if found is not None else None

    return Origin(
        file.rel,
        read,
        lambda rel: project.contains(project.root / rel),
        lambda rel: project.exists(rel),
    )


def _read_facts(
    text: str, origin: Origin | None = None
) -> tuple[DriverFacts | None, TooDeep | None]:
    import libcst as cst

    from guidelint.smoke.driver_reader import read_driver
    from guidelint.smoke.driver_spreads import add_config_settings
    from guidelint.smoke.parse_guard import NotPython, TooDeep, check_parsable

    try:
        refusal = check_parsable(text)  # before libcst: its parser can segfault
    except NotPython:
        return None, None
    if refusal is not None:
        return None, refusal
    try:
        facts = read_driver(text, origin)
        add_config_settings(facts)  # `**cfg` from a config file: its keys are settings
        return facts, None
    except cst.ParserSyntaxError:
        return None, None
    except Exception as err:  # the reader's visitors are recursive too
        if _from_recursion(err):
            return None, TooDeep(1)
        raise


def _from_recursion(err: BaseException | None) -> bool:
    """Whether a RecursionError is the error or behind it (libcst re-raises others)."""
    seen = 0
    while err is not None and seen < 100:
        if isinstance(err, RecursionError):
            return True
        err, seen = err.__context__, seen + 1
    return False


def gate_span(file: SourceFile, gate: Gate) -> Span:
    lines = file.lines
    return Span(lines.offset(gate.line, gate.column), lines.offset(gate.end_line, gate.end_column))


def dial_note(dial: SmokeDial, computed_from: str) -> str:
    return f"dial {dial.describe()} at {dial.where} {computed_from}"
