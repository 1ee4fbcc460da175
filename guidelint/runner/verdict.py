"""From what a child left behind (records, streams, exit status) to raw results.

Runs in the worker after a unit's child is gone. The raw status is final except
for output checking and pending, which the caller settles (it has the documents).
"""

from __future__ import annotations

import os
import signal

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
