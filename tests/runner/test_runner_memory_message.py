"""An example stopped by the memory limit is `crashed`, and says what it asked for where
the allocator told (numpy's MemoryError names the array's size)."""

from __future__ import annotations

from guidelint.runner import verdict
from guidelint.runner.outcomes import Outcome

EXAMPLE = {"filename": "GUIDE.md", "expect_error": None}


def raised_in_guide(error: BaseException) -> BaseException:
    code = compile("raise error", "GUIDE.md", "exec")
    try:
        exec(code, {"error": error})
    except BaseException as caught:  # noqa: BLE001 - what the example raised
        return caught
    raise AssertionError("not raised")


def test_numpys_memory_error_names_the_array_it_could_not_allocate():
    asked = (
        "Unable to allocate 1.15 GiB for an array with shape (1, 121, 704, 1216, 3) "
        "and data type float32"
    )
    judged = verdict.classify_exception(raised_in_guide(MemoryError(asked)), EXAMPLE, [])  # type: ignore[arg-type]
    assert judged["status"] is Outcome.CRASHED
    assert "memory limit (runner.memory-limit-mb) was exceeded" in judged["message"]
    assert asked in judged["message"]


def test_a_bare_memory_error_says_only_that_the_limit_was_exceeded():
    judged = verdict.classify_exception(raised_in_guide(MemoryError()), EXAMPLE, [])  # type: ignore[arg-type]
    assert judged["status"] is Outcome.CRASHED
    assert judged["message"].endswith("(runner.memory-limit-mb) was exceeded")
