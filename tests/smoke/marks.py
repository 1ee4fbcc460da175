"""The `# expect: GL301(n=1) "text"` marks of the smoke driver fixtures, and the check
that a driver's findings are exactly what its marks say."""

from __future__ import annotations

import re

MARK = re.compile(r"#\s*expect:\s*(.+)$")
# GL301(n=1) "ignores save_steps=5": the code, the counterexample n, a part of the message.
EXPECTATION = re.compile(r'(GL\d{3})(?:\(n=(\d+)\))?(?:\s+"([^"]+)")?')


def expectations(text: str) -> dict[tuple[str, int], tuple[str | None, str | None]]:
    found = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = MARK.search(line)
        if match:
            for code, rows, part in EXPECTATION.findall(match.group(1)):
                found[(code, number)] = (rows or None, part or None)
    return found


def assert_findings_match_marks(findings, text: str) -> None:
    """Each finding at a marked line with the mark's code, n and text; nothing else."""
    expected = expectations(text)
    got = {(f.code, f.line) for f in findings}
    assert got == set(expected), [f"{f.line}: {f.code} {f.message}" for f in findings]
    for finding in findings:
        rows, part = expected[(finding.code, finding.line)]
        if rows:
            assert f"realized n={rows} row" in finding.message, finding.message
        if part:
            assert part in finding.message, finding.message
