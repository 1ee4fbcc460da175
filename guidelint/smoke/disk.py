"""Counting checkpoint-* dirs on disk, ignoring stale ones from earlier runs.

How stale dirs are told apart: call `mark_run_start(output_dir)` before training.
It writes a marker file; a checkpoint then belongs to this run when a file inside
it (trainer_state.json, the weights) was written at or after the marker. Both
times come from the same filesystem clock, and a stale dir that this run
overwrites in place counts, because its files are rewritten. Without a marker
every checkpoint-* dir counts, so point the run at a fresh output_dir.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

MARKER = ".guidelint-run-start"
CHECKPOINT_DIR = re.compile(r"^checkpoint-(\d+)$")


def mark_run_start(output_dir: str | os.PathLike) -> float:
    """Write the run-start marker in output_dir; returns its mtime."""
    folder = Path(output_dir)
    folder.mkdir(parents=True, exist_ok=True)
    marker = folder / MARKER
    marker.write_text("checkpoints written after this file belong to the current run\n")
    return marker.stat().st_mtime


def checkpoint_dirs(output_dir: str | os.PathLike) -> dict[int, Path]:
    """Every checkpoint-<step> dir in output_dir, by step."""
    folder = Path(output_dir)
    if not folder.is_dir():
        return {}
    found = {}
    for entry in folder.iterdir():
        match = CHECKPOINT_DIR.match(entry.name)
        if match and entry.is_dir():
            found[int(match.group(1))] = entry
    return dict(sorted(found.items()))


def run_checkpoints(
    output_dir: str | os.PathLike, since: float | None = None
) -> tuple[list[int], list[int]]:
    """(steps of this run's checkpoints, steps of stale ones), by the marker or `since`."""
    if since is None:
        marker = Path(output_dir) / MARKER
        since = marker.stat().st_mtime if marker.is_file() else None
    ours: list[int] = []
    stale: list[int] = []
    for step, path in checkpoint_dirs(output_dir).items():
        (ours if since is None or _newest_write(path) >= since else stale).append(step)
    return ours, stale


def count_checkpoints(output_dir: str | os.PathLike, since: float | None = None) -> int:
    """How many checkpoint-* dirs this run left (all of them when there is no marker)."""
    return len(run_checkpoints(output_dir, since)[0])


def assert_checkpoints(output_dir: str | os.PathLike, floor: int, since: float | None = None):
    """The on-disk gate for tests and drivers: AssertionError that lists what was found."""
    ours, stale = run_checkpoints(output_dir, since)
    if len(ours) < floor:
        ignored = f"; ignored stale {_names(stale)}" if stale else ""
        raise AssertionError(
            f"{output_dir}: {len(ours)} checkpoint(s) from this run < floor {floor} "
            f"(found {_names(ours) or 'none'}{ignored})"
        )
    return ours


def _names(steps: list[int]) -> str:
    return ", ".join(f"checkpoint-{s}" for s in steps)


def _newest_write(path: Path) -> float:
    times = [path.stat().st_mtime]
    for entry in path.iterdir():
        try:
            times.append(entry.stat().st_mtime)
        except OSError:
            continue
    return max(times)
