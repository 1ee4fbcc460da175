"""Comparing what an example printed with its ```output block.

Normalisation (always): line endings become `\\n`, trailing whitespace on each line
and blank lines at the end are ignored. Opt-in patterns (runner.output-patterns)
replace things that change from run to run, on both sides, before comparing:

- `addresses`: `0x7f3a2c1b9d60` -> `0x...`
- `timings`: `0.532s`, `12 ms`, `3.1 seconds` -> `<time>`
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

PATTERNS = {
    "addresses": (re.compile(r"\b0x[0-9a-fA-F]{4,}\b"), "0x..."),
    "timings": (
        re.compile(r"\b\d+(?:\.\d+)?\s?(?:ns|us|µs|ms|s|sec|secs|seconds?|min|minutes?)\b"),
        "<time>",
    ),
}
MAX_DIFF_LINES = 40


def normalise(text: str, patterns: Sequence[str] = ()) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for name in patterns:
        regex, replacement = PATTERNS[name]
        text = regex.sub(replacement, text)
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def compare(expected: str, actual: str, patterns: Sequence[str] = ()) -> str | None:
    """None when they match, else a short unified diff (expected -> actual)."""
    want, got = normalise(expected, patterns), normalise(actual, patterns)
    if want == got:
        return None
    diff = list(
        difflib.unified_diff(
            want.split("\n"), got.split("\n"), "expected output", "actual output", lineterm=""
        )
    )
    if len(diff) > MAX_DIFF_LINES:
        diff = diff[:MAX_DIFF_LINES] + [f"... ({len(diff) - MAX_DIFF_LINES} more diff lines)"]
    return "\n".join(diff)


def block_text(stdout: str) -> str:
    """What `--update` writes into an output block: normalised, newline-terminated."""
    text = normalise(stdout)
    return text + "\n" if text else ""
