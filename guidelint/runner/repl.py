"""REPL-style examples (`>>>` prompts), run with the standard library's doctest.

Each statement runs in turn in the shared namespace; its printed output and echoed
value are compared with the lines under it (`...` in expected output matches
anything, doctest's ELLIPSIS). Line numbers in failures are Markdown lines.
"""

from __future__ import annotations

import doctest
import re
from typing import Any

from guidelint.runner.outcomes import Outcome
from guidelint.runner.protocol import ExamplePayload, Judgement
from guidelint.runner.verdict import classify_exception


class _Runner(doctest.DocTestRunner):
    """Remembers the first unexpected exception, so it can become an outcome."""

    unexpected: BaseException | None = None

    def report_unexpected_exception(self, out, test, example, exc_info):
        if self.unexpected is None:
            self.unexpected = exc_info[1]
        super().report_unexpected_exception(out, test, example, exc_info)


def run_repl(
    example: ExamplePayload, namespace: dict[str, Any], removed_env: list[str]
) -> Judgement:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(
        example["source"],
        namespace,
        example["id"],
        example["filename"],
        example["content_line"] - 1,
    )
    runner = _Runner(optionflags=doctest.ELLIPSIS, verbose=False)
    report: list[str] = []
    result = runner.run(test, out=report.append, clear_globs=False)
    if runner.unexpected is not None:
        judgement = classify_exception(runner.unexpected, example, removed_env)
        if judgement["status"] is not Outcome.PASSED:
            judgement["message"] = _first_failure(report) or judgement["message"]
            return judgement
    if result.failed:
        return {"status": Outcome.FAILED, "message": _first_failure(report)}
    return {"status": Outcome.PASSED, "message": ""}


def _first_failure(report: list[str]) -> str:
    """doctest's report of the first failing statement, without the rulers."""
    text = report[0] if report else ""
    lines = [line for line in text.splitlines() if not line.startswith("*****")]
    text = "\n".join(lines).strip()
    return re.sub(r'^File ".*", line (\d+), in .*', r"line \1:", text)[:2000]
