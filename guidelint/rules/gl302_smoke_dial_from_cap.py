"""GL302 smoke-dial-from-cap: the smoke dial is computed from the row cap, not the realized rows.

`epochs = ceil(2 / ceil(SMOKE_MAX_ROWS / 16))` is right for a slice that fills
its cap and wrong for the slice that realizes 2 rows. Reported at the dial: a
formula that evaluates to a constant from module constants, when it reads a
row-cap constant, or when the driver gates on a floor (an assumed size written
as a literal). A formula over `len(rows)` is derived and passes.
"""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.smoke.rulebase import DriverRule, dial_note, driver_facts
from guidelint.sources import SourceFile


class SmokeDialFromCap(DriverRule):
    code = "GL302"
    name = "smoke-dial-from-cap"
    severity = Severity.ERROR

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.smoke.driver_check import from_cap, smoke_dial
        from guidelint.smoke.judging import judge
        from guidelint.spans import Span

        facts = driver_facts(file, project)
        if facts is None:
            return
        dial = smoke_dial(facts)
        if dial is None or dial.term is None or not from_cap(facts, dial):
            return
        source = "the row cap" if dial.term.cap else "an assumed row count"
        note = dial_note(dial, f"is computed from {source}, not from the realized rows")
        detail = ""
        for gate in facts.gates:
            verdict = judge(facts, gate, dial, project.config.smoke.default_cap)
            if verdict.counterexample:
                detail = f": {verdict.counterexample} ({verdict.suggestion})"
                break
        lines = file.lines
        start = lines.offset(dial.line)
        yield self.finding(file, Span(start, lines.line_end(dial.line)), note + detail)
