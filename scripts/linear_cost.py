#!/usr/bin/env python3
"""How each rule's cost grows for 4x its input: long line, long paragraph, many entries.

    nice -n 5 .venv/bin/python scripts/linear_cost.py [--measure callgrind|cpu]
        [--items N] [--scenario NAME ...] [--limit 4.0] [--json FILE]

The inputs are the scenarios of tests/core/test_linear_time_rules.py (one file a
group of rules applies to, made of N items), in three shapes: `lines` (a long
paragraph: N short lines, no blank line between them; for JSON and Python files,
N entries one per line), `one-line` (the same on ONE line) and `entries` (N
paragraphs or list items with blank lines between them; Markdown scenarios only).
Each is measured at N and 4N items: the whole scenario from cold (parse and every
rule), and each rule on its own on a file whose shared parts are computed already.

The figure is load-independent where it can be: with valgrind installed, the
instructions each measurement executes (callgrind; the program runs once under it,
each measurement is called through a C function, `ffi_call`, which callgrind
collects inclusively and dumps after, and the cost of an empty measurement is
subtracted). Without valgrind, the least CPU time of several tries. Either way the
garbage collector is frozen and off meanwhile: a collection walks everything alive,
so its cost depends on the heap the run built up, not on this input (with it on,
GL205 and GL101 measured 4.02-4.25x; #28). Prints a table of ratios and exits 1
when one is above --limit: the cost at 4N over the cost at N, scaled to exactly 4x
the input (numbers in the items grow a digit, so 4N items are 4.0-4.25x the bytes
of N); linear is 4, quadratic 16. `--merge` prints one table from runs saved with
--json (one scenario a run, say, to see the first results early).
A cost under --floor at 4N is "too small" to tell from overhead and not judged.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[1]
SHAPES = ("lines", "one-line", "entries")
MARKER = "ffi_call"  # the C function each measurement is called through (ctypes)
FLOORS = {"callgrind": 2e6, "cpu": 2e-3}  # instructions; seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measure", choices=["callgrind", "cpu"], default=None)
    parser.add_argument("--items", type=int, default=None, help="N (default 150; cpu: 500)")
    parser.add_argument("--scenario", action="append", default=[], help="only these")
    parser.add_argument("--limit", type=float, default=4.0)
    parser.add_argument("--floor", type=float, default=None, help="see above")
    parser.add_argument("--json", type=Path, help="write the measurements here too")
    parser.add_argument("--merge", type=Path, nargs="+", help="one table from saved --json files")
    parser.add_argument("--worst", action="store_true", help="one row a rule: its largest")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    measure = args.measure or ("callgrind" if shutil.which("valgrind") else "cpu")
    items = args.items or (150 if measure == "callgrind" else 500)
    if args.worker:
        return _worker(args.worker, measure, items, args.scenario)
    floor = args.floor if args.floor is not None else FLOORS[measure]
    if args.merge:
        missing = [str(path) for path in args.merge if not path.is_file()]
        if missing:
            raise SystemExit(f"linear_cost: no such file: {', '.join(missing)}")
        saved = [json.loads(path.read_text()) for path in args.merge]
        measure, items = saved[0]["measure"], saved[0]["items"]
        floor = args.floor if args.floor is not None else FLOORS[measure]
        rows = _judged([row for run in saved for row in run["rows"]], floor, items)
    elif measure == "callgrind":
        rows = _ratios(_callgrind(items, args.scenario), floor, items)
    else:
        rows = _ratios(_in_process(items, args), floor, items)
    print(f"{measure}, {items} -> {4 * items} items, garbage collector frozen and off\n")
    print(_table(_worst_per_rule(rows) if args.worst else rows))
    if args.json:
        args.json.write_text(json.dumps({"measure": measure, "items": items, "rows": rows}))
    over = [row for row in rows if (row["ratio"] or 0) > args.limit]
    for row in over:
        print(f"over {args.limit}: {row['rule']} on {row['scenario']} ({row['shape']})")
    return 1 if over else 0


# --- the measurements (run in-process, or as the worker under callgrind) -----------


def _measurements(items: int, only: list[str]):
    """(label, thunk) pairs, each thunk one measurement; setup happens between them."""
    sys.path.insert(0, str(ROOT))
    from guidelint.sources import SourceFile
    from tests.core.test_linear_time_rules import SCENARIOS, engine_for, make_root

    root = make_root(Path(tempfile.mkdtemp(prefix="linear-cost-")))
    try:
        for name in sorted(SCENARIOS):
            if only and name not in only:
                continue
            rel, make, codes = SCENARIOS[name]
            for shape in _shapes(make):
                engine = engine_for(root, codes)
                # Once on a tiny file first: imports and caches are not this input's cost.
                engine.check_source(SourceFile(path=root / rel, rel=rel, text=make(3, shape)))
                for size in (items, 4 * items):
                    label = {"scenario": name, "shape": shape, "size": size}
                    text = make(size, shape)
                    yield {**label, "rule": "all, from cold"}, _cold(engine, root, rel, text)
                    file = SourceFile(path=root / rel, rel=rel, text=text)
                    engine.check_source(file)  # what the rules share, computed once
                    for rule in engine.rules:
                        if file.kind in rule.file_kinds and rule.applies_to(file, engine.project):
                            yield {**label, "rule": rule.code}, _alone(rule, file, engine.project)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _cold(engine, root: Path, rel: str, text: str) -> Callable[[], object]:
    """The whole scenario: a fresh file, parsed and checked by every rule."""
    from guidelint.sources import SourceFile

    return lambda: engine.check_source(SourceFile(path=root / rel, rel=rel, text=text))


def _alone(rule, file, project) -> Callable[[], object]:
    """One rule on a file already parsed."""
    return lambda: list(rule.check(file, project))


def _shapes(make: Callable[[int, str], str]) -> tuple[str, ...]:
    """`entries` where the scenario has a shape of its own for it (Markdown)."""
    apart = make(3, "entries")
    return SHAPES if apart not in (make(3, "lines"), make(3, "one-line")) else SHAPES[:2]


def _quietly(measure: Callable[[], T]) -> T:
    """`measure()` with the garbage collector frozen and off (collected before, outside
    what is measured), every `functools.lru_cache` emptied first: a cache that holds
    all of N's answers and a fraction of 4N's (urllib's `urlsplit` keeps 128) made
    GL609 look superlinear), and `re`'s cache of compiled patterns (512) likewise."""
    re.purge()
    for cached in gc.get_objects():
        if isinstance(cached, functools._lru_cache_wrapper):
            cached.cache_clear()
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        return measure()
    finally:
        gc.enable()
        gc.unfreeze()


def _through_ffi(thunk: Callable[[], object]) -> None:
    """Call `thunk` from inside a C function (libc's bsearch over one element, which
    calls its comparison once), so callgrind can collect and dump exactly it."""
    compare_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)

    failed: list[BaseException] = []

    def compare(_a, _b) -> int:
        try:
            thunk()
        except BaseException as error:  # noqa: BLE001 - raised again below, not lost in C
            failed.append(error)
        return 0

    libc = ctypes.CDLL(None)
    libc.bsearch.restype = ctypes.c_void_p
    key, one = ctypes.c_int(0), (ctypes.c_int * 1)(0)
    libc.bsearch(ctypes.byref(key), one, 1, ctypes.sizeof(ctypes.c_int), compare_type(compare))
    if failed:
        raise failed[0]


def _worker(out: Path, measure: str, items: int, only: list[str]) -> int:
    """Under callgrind: each measurement through ffi_call, its label written in order;
    the first is an empty measurement (the cost of the call itself)."""
    labels = [{"rule": "(empty)"}]
    _quietly(lambda: _through_ffi(lambda: None))
    for label, thunk in _measurements(items, only):
        _quietly(functools.partial(_through_ffi, thunk))
        labels.append(label)
    out.write_text(json.dumps(labels))
    return 0


def _callgrind(items: int, only: list[str]) -> list[dict]:
    python = sys.executable  # the virtual environment's (a link), which valgrind runs
    with tempfile.TemporaryDirectory(prefix="linear-cost-") as scratch:
        labels_file = Path(scratch) / "labels.json"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            f"--toggle-collect={MARKER}",
            f"--dump-after={MARKER}",
            f"--callgrind-out-file={scratch}/cg.%p",
            python,
            __file__,
            "--worker",
            str(labels_file),
            "--items",
            str(items),
            *(f"--scenario={name}" for name in only),
        ]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        subprocess.run(command, check=True, env=env, stderr=subprocess.DEVNULL)
        labels = json.loads(labels_file.read_text())
        dumps = sorted(Path(scratch).glob("cg.*.*"), key=lambda p: int(p.suffix[1:]))
        counts = [_summary(dump) for dump in dumps]
    if len(counts) != len(labels):
        raise SystemExit(f"{len(counts)} callgrind dumps for {len(labels)} measurements")
    empty = counts[0]
    pairs = zip(labels[1:], counts[1:], strict=True)
    return [{**label, "cost": max(0, n - empty)} for label, n in pairs]


def _summary(dump: Path) -> int:
    for line in dump.read_text().splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise SystemExit(f"{dump}: no summary line")


def _in_process(items: int, args) -> list[dict]:
    costs = []
    for label, thunk in _measurements(items, args.scenario):
        best = float("inf")
        for _ in range(3):
            best = min(best, _quietly(functools.partial(_seconds, thunk)))
        costs.append({**label, "cost": best})
    return costs


def _seconds(thunk: Callable[[], object]) -> float:
    start = time.process_time()
    thunk()
    return time.process_time() - start


# --- the report ----------------------------------------------------------------------


def _ratios(costs: list[dict], floor: float, items: int) -> list[dict]:
    by_key: dict[tuple, dict[int, float]] = {}
    for cost in costs:
        key = (cost["scenario"], cost["shape"], cost["rule"])
        by_key.setdefault(key, {})[cost["size"]] = cost["cost"]
    return _judged(
        [
            {"scenario": s, "shape": shape, "rule": rule, "small": c[items], "large": c[4 * items]}
            for (s, shape, rule), c in by_key.items()
        ],
        floor,
        items,
    )


def _judged(rows: list[dict], floor: float, items: int) -> list[dict]:
    """Each row with `input` (how much larger the 4N file is than the N one: a number
    grows a digit, so 4x the items is 4.0-4.25x the bytes) and `ratio`, the cost's
    growth for exactly 4x the input (cost growth x 4 / input growth), None when
    the cost at 4N is under `floor`."""
    sys.path.insert(0, str(ROOT))
    from tests.core.test_linear_time_rules import SCENARIOS

    judged = []
    for row in rows:
        make = SCENARIOS[row["scenario"]][1]
        grown = len(make(4 * items, row["shape"])) / len(make(items, row["shape"]))
        cost = row["large"] / max(row["small"], 1e-12)
        ratio = round(cost * 4 / grown, 2) if row["large"] >= floor else None
        judged.append({**row, "input": round(grown, 3), "cost": round(cost, 2), "ratio": ratio})
    return sorted(judged, key=lambda row: (-(row["ratio"] or 0), row["rule"], row["scenario"]))


def _worst_per_rule(rows: list[dict]) -> list[dict]:
    """Each rule's row with the largest ratio (rows come largest first)."""
    worst: dict[str, dict] = {}
    for row in rows:
        if row["ratio"] is not None:
            worst.setdefault(row["rule"], row)
    return list(worst.values())


def _table(rows: list[dict]) -> str:
    lines = [
        "| rule | scenario (shape) | cost at N | at 4N | input x | cost x | per 4x input |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['rule']} | {row['scenario']} ({row['shape']}) | {row['small']:.3g} "
            f"| {row['large']:.3g} | {row['input']:.3f} | {row['cost']:.2f} "
            f"| {_shown(row['ratio'])} |"
        )
    return "\n".join(lines)


def _shown(ratio: float | None) -> str:
    return "too small" if ratio is None else f"{ratio:.2f}"


if __name__ == "__main__":
    sys.exit(main())
