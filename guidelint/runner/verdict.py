"""How an example ended: its exception, and what its child left behind.

`classify_exception` runs in the child, on what an example raised (a script's, or
the first unexpected one of a REPL example). `unit_results` runs in the worker
after a unit's child is gone, on its records, streams and exit status. The raw
status is final except for output checking and pending, which the caller settles
(it has the documents).
"""

from __future__ import annotations

import os
import signal
import traceback

SIGNAL_NUMBERS = {s.value for s in signal.Signals}
SIGNAL_HINTS = {
    signal.SIGSEGV: "segmentation fault",
    signal.SIGABRT: "aborted",
    signal.SIGBUS: "bus error",
    signal.SIGFPE: "floating-point exception",
    signal.SIGKILL: "killed, possibly for running out of memory",
}


def unit_results(child, marker: str) -> list[dict]:
    examples = child.unit["examples"]
    stdout = _split(child.buffers["stdout"], marker, len(examples))
    stderr = _split(child.buffers["stderr"], marker, len(examples))
    truncated = child.written > 0 and any(
        len(child.buffers[name]) >= 256 * 1024 for name in ("stdout", "stderr")
    )
    results = []
    for index, example in enumerate(examples):
        if index < len(child.records):
            record = dict(child.records[index])
        elif index == len(child.records):
            record = {
                "status": _end_status(child),
                "message": _end_message(child, stderr[index]),
                "duration_s": (child.ended_at or 0) - child.example_started,
            }
        else:
            record = {"status": "error", "message": _not_run(child, example)}
        record.update(index=index, stdout=stdout[index], stderr=stderr[index][-4000:])
        if truncated and index == len(child.records):
            record["stdout"] += "\n[output truncated by guidelint]"
        results.append(record)
    return results


def _split(data: bytes, marker: str, count: int) -> list[str]:
    parts = data.decode("utf-8", "replace").split(marker)
    parts += [""] * (count - len(parts))
    return parts[:count]


def _end_status(child) -> str:
    return child.ended[0] if child.ended else "crashed"


def _end_message(child, stderr: str) -> str:
    if child.ended:
        return child.ended[1]
    status = child.status or 0
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        name = signal.Signals(number).name if number in SIGNAL_NUMBERS else number
        hint = SIGNAL_HINTS.get(number)
        return f"the example's process was killed by {name}" + (f" ({hint})" if hint else "")
    code = os.WEXITSTATUS(status)
    if code == 70 and "Traceback" in stderr:
        return "guidelint's runner failed inside the example process: " + _last_line(stderr)
    return f"the example's process exited with status {code} before it finished (os._exit?)"


def _not_run(child, example: dict) -> str:
    session = child.unit.get("session") or "?"
    return f"not run: an earlier example of session '{session}' did not finish"


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def classify_exception(error: BaseException, example: dict, expected: str | None) -> dict:
    where = _where(error, example["filename"])
    described = f"{where}{type(error).__name__}: {one_line(error)}"
    if expected and _is_a(error, expected):
        return {"status": "passed", "message": f"raised {type(error).__name__} as expected"}
    if isinstance(error, ModuleNotFoundError):
        return {"status": "missing-dependency", "message": described}
    if isinstance(error, MemoryError):
        return {
            "status": "crashed",
            "message": f"{where}MemoryError: the memory limit "
            "(runner.memory-limit-mb) was exceeded",
        }
    if isinstance(error, KeyError) and _env_key(error, example):
        described += " (environment variables outside runner.env-allowlist are removed)"
    if expected:
        return {"status": "failed", "message": f"expected {expected}, got {described}"}
    return {"status": "error", "message": described, "traceback": _traceback(error)}


def _is_a(error: BaseException, name: str) -> bool:
    short = name.rsplit(".", 1)[-1]
    return any(k.__name__ == short or k.__qualname__ == name for k in type(error).__mro__)


def _env_key(error: KeyError, example: dict) -> bool:
    return bool(error.args) and error.args[0] in example.get("removed_env", ())


def _where(error: BaseException, filename: str) -> str:
    """`line N: ` of the deepest frame inside the guide, if any."""
    line = None
    for frame, lineno in traceback.walk_tb(error.__traceback__):
        if frame.f_code.co_filename == filename:
            line = lineno
    return f"line {line}: " if line else ""


def _traceback(error: BaseException) -> str:
    """The traceback without guidelint's own frames (they explain nothing to a reader)."""
    runner_dir = os.path.dirname(os.path.abspath(__file__))
    summary = traceback.TracebackException.from_exception(error)
    frames = [f for f in summary.stack if not f.filename.startswith(runner_dir)]
    summary.stack = traceback.StackSummary.from_list(frames)
    return "".join(summary.format())[-4000:]


def one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return (text[0] if text else "")[:500]
