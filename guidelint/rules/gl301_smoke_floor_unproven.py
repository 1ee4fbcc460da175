"""GL301 smoke-floor-unproven: a post-smoke gate whose dial is a literal constant.

A gate (`assert len(ckpts) >= 2`, `if trainer.state.global_step < 2: raise`) on
a driver whose smoke dial (num_train_epochs / max_steps) is a constant, not
derived from the realized row count. The constants of the module are evaluated
with guidelint.smoke; a realized n in [1, cap] that breaks the floor is named in
the message. A dial that provably holds for every n is not reported.
"""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.smoke.rulebase import (
    DriverRule,
    dial_note,
    driver_facts,
    driver_refusal,
    gate_span,
)
from guidelint.sources import SourceFile
from guidelint.spans import Span


class SmokeFloorUnproven(DriverRule):
    code = "GL301"
    name = "smoke-floor-unproven"
    summary = (
        "A post-smoke gate's floor is not proven for every realized slice: the dial is a constant."
    )
    severity = Severity.ERROR

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.smoke.driver_check import judge, smoke_dial

        refusal = driver_refusal(file)
        if refusal is not None:  # reported once, here: its gates are unchecked
            line = min(refusal.line, file.lines.line_count)
            span = Span(file.lines.offset(line), file.lines.line_end(line))
            yield self.finding(file, span, refusal.message, severity=Severity.WARNING)
            return
        facts = driver_facts(file)
        if facts is None or not facts.gates:
            return
        dial = smoke_dial(facts)
        if dial is None or not dial.constant or dial.value.computed:
            return  # no dial, a derived dial, or a computed one (GL302)
        note = dial_note(dial, "is a constant")
        for gate in facts.gates:
            verdict = judge(facts, gate, dial, project.config.smoke.default_cap)
            if verdict.proven:
                continue
            if verdict.counterexample:
                message = f"{verdict.counterexample} ({note}; {verdict.suggestion})"
            else:
                message = (
                    f"floor {gate.floor} is unproven: {note} and {verdict.why_unknown}; "
                    "derive the dial from the realized rows (guidelint.smoke.require_floor)"
                )
            yield self.finding(file, gate_span(file, gate), message)
