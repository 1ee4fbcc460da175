"""ruff on guide examples: the project's own `ruff` executable, one call per batch of files."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from guidelint.records import FrozenRecord


class RuffUnavailable(Exception):
    """ruff is not installed, or did not answer; the message says which."""


class LintMessage(FrozenRecord):
    __slots__ = ("code", "message", "row", "column", "end_row", "end_column")
    code: str
    message: str
    row: int  # 1-based, in the example's Python source
    column: int
    end_row: int
    end_column: int

    def __init__(
        self, code: str, message: str, row: int, column: int, end_row: int, end_column: int
    ) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "row", row)
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "end_row", end_row)
        object.__setattr__(self, "end_column", end_column)


def find_ruff() -> str | None:
    """The `ruff` installed next to this Python (the project's venv), else on PATH."""
    beside = Path(sys.executable).parent / ("ruff.exe" if os.name == "nt" else "ruff")
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    import shutil

    return shutil.which("ruff")


def lint_sources(
    sources: list[str], select: list[str], ignore: list[str]
) -> list[list[LintMessage]]:
    """ruff's messages for each source, in order; raises RuffUnavailable."""
    ruff = find_ruff()
    if ruff is None:
        raise RuffUnavailable(
            "ruff is not installed, so GL402 cannot lint: install guidelint[lint]"
        )
    import tempfile  # with shutil: only when an example is linted

    folder = _memory_folder()
    try:
        with tempfile.TemporaryDirectory(prefix="guidelint-lint-", dir=folder) as tmp:
            names, messages = _lint_in(tmp, ruff, sources, select, ignore)
    except OSError:
        if folder is None:
            raise
        # The memory folder is full or refused us: the usual temporary folder, as before.
        with tempfile.TemporaryDirectory(prefix="guidelint-lint-") as tmp:
            names, messages = _lint_in(tmp, ruff, sources, select, ignore)
    by_file: dict[str, list[LintMessage]] = {name: [] for name in names}
    for item in messages:
        if item.get("filename") in by_file and item.get("code"):
            by_file[item["filename"]].append(_message(item))
    return [by_file[name] for name in names]


def _memory_folder() -> str | None:
    """Where a batch's examples are written: a memory file system (`/dev/shm`) where
    there is one and no TMPDIR names another place. Hundreds of small files created
    and removed on a disk's journaled file system cost more system CPU than ruff's
    whole run over them (0.1-0.2 s for 400 examples on ext4, 0.005 s on tmpfs)."""
    if os.environ.get("TMPDIR") or sys.platform != "linux":
        return None
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


def _lint_in(
    tmp: str, ruff: str, sources: list[str], select: list[str], ignore: list[str]
) -> tuple[list[str], list[dict]]:
    """Each source as a file in tmp, ruff over all of them: the names and ruff's JSON."""
    names = []
    for index, source in enumerate(sources):
        name = os.path.join(tmp, f"example_{index}.py")
        with open(name, "w", encoding="utf-8") as out:  # Path.write_text: 2x the CPU
            out.write(source)
        names.append(name)
    command = [
        ruff,
        "check",
        "--isolated",
        "--no-cache",
        "--exit-zero",
        "--output-format",
        "json",
        "--select",
        ",".join(select) or "F",
    ]
    if ignore:
        command += ["--ignore", ",".join(ignore)]
    return names, _run(command + names)


def _run(command: list[str]) -> list[dict]:
    import subprocess

    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise RuffUnavailable(f"ruff did not run: {error}") from None
    if result.returncode != 0:
        reason = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuffUnavailable(f"ruff failed: {reason}")
    try:
        return json.loads(result.stdout or "[]")
    except json.JSONDecodeError:
        raise RuffUnavailable("ruff answered something that is not JSON") from None


def _message(item: dict) -> LintMessage:
    start, end = item.get("location") or {}, item.get("end_location") or {}
    return LintMessage(
        code=item["code"],
        message=item.get("message", ""),
        row=start.get("row", 1),
        column=start.get("column", 1),
        end_row=end.get("row", start.get("row", 1)),
        end_column=end.get("column", start.get("column", 1)),
    )
