"""GL301 smoke-floor-unproven: a post-smoke gate that some realized slice breaks.

A gate (`assert len(ckpts) >= 2`, `if trainer.state.global_step < 2: raise`) whose
floor fails for some realized n in [1, cap] under the driver's own dial: a
literal constant, or a formula over `len(rows)` (and the world size) that is
wrong, evaluated with guidelint.smoke for every n. The message names the
smallest n, the part of the dial that is wrong and the dial that holds. A dial
that provably holds for every n is not reported; one that cannot be followed is
GL304's, one computed from the cap GL302's.
"""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.smoke.rulebase import DriverRule, driver_facts, driver_refusal, gate_span
from guidelint.sources import SourceFile
from guidelint.spans import Span


class SmokeFloorUnproven(DriverRule):
    code = "GL301"
    name = "smoke-floor-unproven"
    severity = Severity.ERROR

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.smoke.driver_check import dial_sources, from_cap, smoke_dial
        from guidelint.smoke.judging import judge

        refusal = driver_refusal(file, project)
        if refusal is not None:  # reported once, here: its gates are unchecked
            line = min(refusal.line, file.lines.line_count)
            span = Span(file.lines.offset(line), file.lines.line_end(line))
            yield self.finding(file, span, refusal.message, severity=Severity.WARNING)
            return
        facts = driver_facts(file, project)
        if facts is None or not facts.gates:
            return
        dial = smoke_dial(facts)
        if dial is None or dial.term is None or from_cap(facts, dial):
            return  # no dial, one not followed (GL304), or one from the cap (GL302)
        for gate in facts.gates:
            verdict = judge(facts, gate, dial, project.config.smoke.default_cap)
            if verdict.counterexample:
                message = (
                    f"{verdict.counterexample}: dial {dial.describe()} at {dial.where}"
                    f"{dial_sources(dial)} {verdict.cause} ({verdict.suggestion})"
                )
                if verdict.values:
                    message += f"; values used: {verdict.values}"
                yield self.finding(file, gate_span(file, gate), message)
