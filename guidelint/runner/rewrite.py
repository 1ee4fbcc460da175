"""`--update` (output blocks) and `--promote` (pending -> verified=DATE), in place.

Edits are computed on the text the examples were extracted from; when the file
changed during the run it is left alone. Writes go through fsio.write_atomic, so
an interrupted run never leaves a half-written guide.
"""

from __future__ import annotations

import re
from pathlib import Path

from guidelint.findings import Edit, Fix
from guidelint.fixes import apply_edits
from guidelint.fsio import read_text_exact, write_atomic
from guidelint.runner.examples import Example, Region
from guidelint.runner.outcomes import ExampleResult, Outcome
from guidelint.runner.outputs import block_text

# Bytes that would make a guide binary or unreadable text (tab and newline are fine).
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# Outcomes where the example ran to its end, so what it printed is its output.
RAN_TO_END = {Outcome.PASSED, Outcome.FAILED, Outcome.PENDING_PASSED}


def output_edit(example: Example, result: ExampleResult, text: str) -> Edit | None:
    """The edit that makes an output block hold what its example printed, if any."""
    region = example.output
    if region is None or example.is_repl or result.status not in RAN_TO_END:
        return None
    if result.status is Outcome.FAILED and not result.message.startswith("stdout differs"):
        return None  # failed for another reason (expect-error): its output proves nothing
    text_out = block_text(result.stdout)
    if refused_output(text_out):
        return None
    if any(line.lstrip().startswith(("```", "~~~")) for line in text_out.split("\n")):
        return None  # it would close the output fence early and corrupt the guide
    new = _with_prefix(text_out, region)
    current = text[region.span.start : region.span.end]
    return None if new == current else Edit(region.span.start, region.span.end, new)


def refused_output(printed: str) -> str | None:
    """Why `printed` may not go into a guide (a control byte would make it binary)."""
    found = CONTROL_CHARS.search(printed)
    if found is None:
        return None
    return f"the example printed the control character {found.group()!r}"


def output_refusal(example: Example, result: ExampleResult) -> str | None:
    """The one-line note when --update leaves an output block alone for its bytes."""
    if example.output is None or example.is_repl or result.status not in RAN_TO_END:
        return None
    why = refused_output(block_text(result.stdout))
    if why is None:
        return None
    return f"{result.path}:{example.output.line}: output block not updated: {why}"


def promote_edits(example: Example, result: ExampleResult, date: str) -> list[Edit]:
    if result.status is not Outcome.PENDING_PASSED:
        return []
    return [
        Edit(t.span.start, t.span.end, f"verified={date}")
        for t in example.directives.tokens
        if t.key == "pending"
    ]


def _with_prefix(text: str, region: Region) -> str:
    if not region.prefix:
        return text
    lines = text.split("\n")
    body = [(region.prefix + line) if line else region.prefix.rstrip() for line in lines[:-1]]
    return "\n".join(body + [lines[-1]])


def rewrite_file(path: Path, extracted_text: str, edits: list[Edit], root: Path) -> str | None:
    """Apply edits atomically; the reason when the file was not rewritten. The file
    is read and written inside the project `root` only (`guidelint.confine`): a guide
    swapped for a symlink out of it during the run is one line, neither read nor
    written."""
    if not edits:
        return None
    try:
        current = read_text_exact(path, root)
        if current != extracted_text:
            return f"{path}: not rewritten: the file changed during the run"
        new_text, _ = apply_edits(current, [Fix(tuple([e])) for e in edits])
        if new_text != current:
            write_atomic(path, new_text, root)
    except OSError as error:
        return f"{path}: not rewritten: {error.strerror or error}"
    return None
