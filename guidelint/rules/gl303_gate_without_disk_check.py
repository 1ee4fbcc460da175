"""GL303 gate-without-disk-check: a gate on steps from configuration arithmetic only.

`assert math.ceil(len(rows) / 16) * EPOCHS >= 2` proves arithmetic, not that the
Trainer saved anything. Reported when the driver counts no checkpoint dirs on
disk anywhere (a `checkpoint-*` glob, `count_checkpoints`, `assert_checkpoints`).
"""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.smoke.rulebase import DriverRule, driver_facts, gate_span
from guidelint.sources import SourceFile


class GateWithoutDiskCheck(DriverRule):
    code = "GL303"
    name = "gate-without-disk-check"
    severity = Severity.WARNING

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.smoke.driver_check import arithmetic_gates

        facts = driver_facts(file, project)
        if facts is None or facts.disk_check:
            return
        for gate in arithmetic_gates(facts):
            yield self.finding(
                file,
                gate_span(file, gate),
                f"gate (floor {gate.floor_text}) counts from configuration arithmetic only and "
                "nothing checks checkpoint-* dirs on disk; add "
                "guidelint.smoke.assert_checkpoints(output_dir, floor) after training",
            )
