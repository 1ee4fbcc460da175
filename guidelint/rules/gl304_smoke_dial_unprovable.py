"""GL304 smoke-dial-unprovable: a post-smoke gate whose dial the static check cannot follow.

The dial, the geometry, the save policy or the floor comes from somewhere the
module alone does not decide (a file or the environment read at run time, a
function with a loop, a hand-written loop's own saves): the floor is neither
proven nor refuted. Said once per gate, never a silent pass, never a guess; a
driver that calls guidelint.smoke.require_floor is guarded at run time and not
reported.
"""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.smoke.rulebase import DriverRule, driver_facts, gate_span
from guidelint.sources import SourceFile


class SmokeDialUnprovable(DriverRule):
    code = "GL304"
    name = "smoke-dial-unprovable"
    severity = Severity.WARNING

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.smoke.driver_check import smoke_dial
        from guidelint.smoke.judging import judge

        facts = driver_facts(file, project)
        if facts is None or not facts.gates or facts.guarded:
            return
        dial = smoke_dial(facts)
        if dial is None:
            return
        for gate in facts.gates:
            verdict = judge(facts, gate, dial, project.config.smoke.default_cap)
            if verdict.proven or verdict.counterexample or not verdict.why_unknown:
                continue
            yield self.finding(
                file,
                gate_span(file, gate),
                f"dial not provable statically (floor {gate.floor_text}, "
                f"{dial.name} at {dial.where}): {verdict.why_unknown}; guard it with "
                "`guidelint.smoke.require_floor`",
            )
