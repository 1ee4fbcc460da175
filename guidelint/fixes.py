"""Applying fixes: non-overlapping edits, written atomically (fsio), repeated until stable;
and the one unified-diff writer for what they change."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from guidelint.findings import Edit, Finding, Fix
from guidelint.fsio import read_text_exact, replace_if_unchanged

MAX_PASSES = 10


def apply_edits(text: str, fixes: list[Fix]) -> tuple[str, int]:
    """Apply every fix whose edits overlap no earlier accepted fix; count applied."""
    accepted: list[Edit] = []
    applied = 0
    for fix in fixes:
        edits = sorted(fix.edits, key=lambda e: (e.start, e.end))
        if any(_overlaps(e, other) for e in edits for other in accepted):
            continue
        accepted.extend(edits)
        applied += 1
    for edit in sorted(accepted, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: edit.start] + edit.content + text[edit.end :]
    return text, applied


def _overlaps(a: Edit, b: Edit) -> bool:
    if a.start == a.end == b.start == b.end:
        return True  # two insertions at one point: order would be arbitrary
    return a.start < b.end and b.start < a.end


def fix_file(
    path: Path,
    check: Callable[[str], list[Finding]],
    unsafe: bool = False,
    root: Path | None = None,
) -> tuple[int, list[Finding]]:
    """Fix one file until no fixable finding is left; return (findings fixed, findings).

    `check` gives the findings of a text. Edits are applied only to the text they
    were computed on, and written only if the file still holds that text (compare
    and swap, under a lock): a file changed meanwhile is read and checked again.
    The count is `fixed_count`'s. Raises OSError or UnicodeDecodeError when the file
    cannot be read or written; with `root`, a write that would leave the project (a
    symlink out) is one.
    """
    text = read_text_exact(path, root)
    findings = first = check(text)
    for _ in range(MAX_PASSES):
        step = _next_text(text, findings, unsafe)
        if step is None:
            break
        new_text, _applied = step
        if replace_if_unchanged(path, text, new_text, root):
            text = new_text
        else:  # someone else wrote it: start again from what is there now
            text = read_text_exact(path, root)
        findings = check(text)
    return fixed_count(first, findings, unsafe), findings


def fix_text(
    text: str, check: Callable[[str], list[Finding]], unsafe: bool = False
) -> tuple[str, int, list[Finding]]:
    """What fix_file would write, without writing: (fixed text, findings fixed, findings)."""
    findings = first = check(text)
    for _ in range(MAX_PASSES):
        step = _next_text(text, findings, unsafe)
        if step is None:
            break
        text, _applied = step
        findings = check(text)
    return text, fixed_count(first, findings, unsafe), findings


def fixed_count(before: list[Finding], after: list[Finding], unsafe: bool = False) -> int:
    """The one count of fixes (check's "N fixable", `--diff`'s "Would fix N", `--fix`'s
    "Fixed N", the editor's "apply N safe fixes", the MCP `fix` tool): the findings of
    the text as it was that carry a fix the run may apply and are gone once the
    fix-until-stable loop ends, whichever fix removed them (one fix that makes another
    finding's fix moot counts both). Findings are matched by fingerprint, which
    survives the lines moving. A fixable finding the loop cannot remove is not
    counted; findings a fix creates and a later pass fixes were never seen, so are
    not either."""
    from collections import Counter

    left = Counter(f.fingerprint() for f in after)
    count = 0
    for finding in before:
        if not applicable(finding, unsafe):
            continue
        key = finding.fingerprint()
        if left[key]:
            left[key] -= 1
        else:
            count += 1
    return count


def applicable(finding: Finding, unsafe: bool = False) -> bool:
    """Whether a run may apply the finding's fix (a safe one; any with unsafe)."""
    return finding.fix is not None and (finding.fix.safe or unsafe)


def _next_text(text: str, findings: list[Finding], unsafe: bool) -> tuple[str, int] | None:
    """One pass: the text with the findings' fixes applied and how many, or None
    when nothing (more) can be fixed."""
    fixes = [f.fix for f in findings if f.fix is not None and applicable(f, unsafe)]
    if not fixes:
        return None
    new_text, applied = apply_edits(text, fixes)
    if applied == 0 or new_text == text:
        return None
    return new_text, applied


NO_NEWLINE = "\\ No newline at end of file\n"


def unified_diff(changes: Mapping[str, tuple[str, str]]) -> str:
    """One unified diff per file whose text changes (`a/` before, `b/` after), by path.

    `changes` maps a path relative to the root to its text before and after. A last
    line without a newline is followed by `\\ No newline at end of file`, as diff and
    git write it, so `patch` and `git apply` take the result as it is.
    """
    import difflib  # only a diff needs it, not every check that loads fixes

    parts: list[str] = []
    for rel, (before, after) in sorted(changes.items()):
        if before == after:
            continue
        for line in difflib.unified_diff(
            _lines(before), _lines(after), fromfile=f"a/{rel}", tofile=f"b/{rel}"
        ):
            parts.append(line if line.endswith("\n") else f"{line}\n{NO_NEWLINE}")
    return "".join(parts)


def _lines(text: str) -> list[str]:
    """The lines of a text as patch sees them: ended by "\\n" only (a lone CR or a
    form feed is part of its line), the last without one when the text has none."""
    lines = text.split("\n")
    ended = [line + "\n" for line in lines[:-1]]
    return [*ended, lines[-1]] if lines[-1] else ended
