"""No rule or parse step is quadratic in a paragraph, a table row or a list (#14).

Measured as a ratio within one test run, never as a wall-clock limit: checking a
file 4x as long must cost about 4x (quadratic would be 16x). Best of three runs of
each size keeps a noisy neighbour from deciding the ratio.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from guidelint.sources import SourceFile

SMALL, LARGE = 4_000, 16_000
LINEAR_ENOUGH = 9.0  # linear is 4; quadratic 16


def paragraph(n: int) -> str:
    return "\n".join(f"word{i} `x{i}`" for i in range(n)) + "\n"


def table_row(n: int) -> str:
    return "| a | b |\n|---|---|\n| " + " ".join(f"`c{i}`" for i in range(n)) + " | x |\n"


def bullet_list(n: int) -> str:
    return "".join(f"- item `x{i}` in `scripts/s{i}.py`\n" for i in range(n))


def crlf_paragraph(n: int) -> str:
    return paragraph(n).replace("\n", "\r\n")


def check_seconds(engine: Engine, text: str) -> float:
    best = float("inf")
    for _ in range(3):
        file = SourceFile(path=Path("/nonexistent/docs/a.md"), rel="docs/a.md", text=text)
        start = time.process_time()
        engine.check_source(file)
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.slow
@pytest.mark.parametrize("make", [paragraph, table_row, bullet_list, crlf_paragraph])
def test_checking_grows_linearly(tmp_path, make):
    (tmp_path / "scripts").mkdir()
    config = Config()
    engine = Engine(Project(tmp_path, config), build_selection(config))
    # Two tries: another job's burst can inflate one measurement (seen at 9.5 once, on
    # 2 loaded cores); quadratic growth (16x) fails both.
    ratios = []
    for _ in range(2):
        small = check_seconds(engine, make(SMALL))
        large = check_seconds(engine, make(LARGE))
        ratios.append(large / small)
        if ratios[-1] < LINEAR_ENOUGH:
            break
    assert min(ratios) < LINEAR_ENOUGH, f"{SMALL} -> {LARGE} lines: {ratios}"
