"""REPL-style examples (`>>>` prompts), run with the standard library's doctest.

Each statement runs in turn in the shared namespace; its printed output and echoed
value are compared with the lines under it (`...` in expected output matches
anything, doctest's ELLIPSIS). With `doctest-output = "stated"` (the default) a
statement with no lines under it runs as a script line: what it prints or echoes is
not compared, as authors of `>>> pipe.to("cuda")` mean; `"strict"` compares it with
nothing, as doctest does. Line numbers in failures are Markdown lines.
"""

from __future__ import annotations

import doctest
import re
from typing import Any

from guidelint.runner.outcomes import Outcome
from guidelint.runner.protocol import ExamplePayload, Judgement
from guidelint.runner.verdict import classify_exception


class _Runner(doctest.DocTestRunner):
    """Remembers the first unexpected exception (and its Markdown line), so it can
    become an outcome."""

    unexpected: BaseException | None = None
    unexpected_line = 0
    unexpected_report = ""  # doctest's report of that statement
    first_line = 0  # of the first failure of any kind (a differing output)

    def report_unexpected_exception(self, out, test, example, exc_info):
        self.first_line = self.first_line or test.lineno + example.lineno + 1
        if self.unexpected is not None:
            super().report_unexpected_exception(out, test, example, exc_info)
            return
        self.unexpected = exc_info[1]
        self.unexpected_line = test.lineno + example.lineno + 1
        captured: list[str] = []
        super().report_unexpected_exception(captured.append, test, example, exc_info)
        self.unexpected_report = "".join(captured)
        out(self.unexpected_report)

    def report_failure(self, out, test, example, got):
        self.first_line = self.first_line or test.lineno + example.lineno + 1
        super().report_failure(out, test, example, got)


class StatedOutputChecker(doctest.OutputChecker):
    """Compares output only where the example states some: no lines, no comparison."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        if not want.strip():
            return True
        return super().check_output(want, got, optionflags)


MAX_REPORT_CHARS = 2000  # of doctest's report of a failing statement
# Outcomes whose own message says more than doctest's report of the statement.
OWN_MESSAGE = (
    Outcome.MISSING_DEPENDENCY,
    Outcome.UNSUPPORTED_MODEL,
    Outcome.BUILD_FAILED,
    Outcome.CRASHED,
    Outcome.REFUSED,
)


def run_repl(
    example: ExamplePayload,
    namespace: dict[str, Any],
    removed_env: list[str],
    strict_output: bool = False,
) -> Judgement:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(
        example["source"],
        namespace,
        example["id"],
        example["filename"],
        example["content_line"] - 1,
    )
    checker = None if strict_output else StatedOutputChecker()
    runner = _Runner(checker=checker, optionflags=doctest.ELLIPSIS, verbose=False)
    report: list[str] = []
    result = runner.run(test, out=report.append, clear_globs=False)
    if runner.unexpected is not None:
        judgement = classify_exception(runner.unexpected, example, removed_env)
        if judgement["status"] in OWN_MESSAGE:
            judgement["message"] = _head(runner, judgement["message"])
            return judgement
        if judgement["status"] is not Outcome.PASSED:
            judgement["message"] = _exception_message(runner, judgement["message"])
            return judgement
    if result.failed:
        return {"status": Outcome.FAILED, "message": _first_failure(report)}
    return {"status": Outcome.PASSED, "message": ""}


def _exception_message(runner: _Runner, described: str) -> str:
    """`line N: Type: message` first, as a script's error reads, then doctest's report of
    the statement; an earlier statement whose output differed is named (it may be why)."""
    statement = _first_failure([runner.unexpected_report]).split("\n", 1)[-1]
    return f"{_head(runner, described)}\n{statement}"


def _head(runner: _Runner, described: str) -> str:
    head = f"line {runner.unexpected_line}: {described}"
    if runner.first_line and runner.first_line < runner.unexpected_line:
        differed = "its output differed from the lines under it"
        head += f"\n(earlier, line {runner.first_line}: {differed})"
    return head


def _first_failure(report: list[str]) -> str:
    """doctest's report of the first failing statement, without the rulers."""
    text = report[0] if report else ""
    lines = [line for line in text.splitlines() if not line.startswith("*****")]
    text = "\n".join(lines).strip()
    text = re.sub(r'^File ".*", line (\d+), in .*', r"line \1:", text)
    if len(text) > MAX_REPORT_CHARS:  # keep the statement and the exception's last line
        half = MAX_REPORT_CHARS // 2
        text = text[:half] + "\n...\n" + text[-half:]
    return text
