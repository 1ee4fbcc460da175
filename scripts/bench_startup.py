#!/usr/bin/env python3
"""Start-up CPU of a one-file `guidelint check`, side by side with `python -c pass`
and rumdl, for one or more guidelint source trees (before and after a change).

    .venv/bin/python scripts/bench_startup.py [--repeat 10] [--peers-bin DIR]
        [--file README.md] [TREE ...]

Each TREE is a folder holding a `guidelint/` package (default: this repository);
it goes first on PYTHONPATH. The file is copied into a scratch git repository with
no configuration (a pre-commit hook's usual case). The commands run interleaved,
`--repeat` rounds, and each figure is the least CPU (user + sys of the child and
what it waited for, `resource.getrusage`) over the rounds; compiled bytecode must be
present (`python -m compileall TREE/guidelint`), so PYTHONDONTWRITEBYTECODE is
dropped for the runs. The load average is printed with the figures: on a shared
machine compare trees within one run, and against `python -c pass` of that run.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def commands(trees: list[Path], peers_bin: Path | None) -> list[tuple[str, list[str], Path | None]]:
    python = sys.executable
    rows: list[tuple[str, list[str], Path | None]] = [
        ("python -c pass", [python, "-c", "pass"], None)
    ]
    for tree in trees:
        guidelint = [python, "-m", "guidelint"]
        rows += [
            (f"{tree}: --version", [*guidelint, "--version"], tree),
            (f"{tree}: check --no-cache", [*guidelint, "check", "--no-cache", "FILE"], tree),
            (f"{tree}: check (cache warm)", [*guidelint, "check", "FILE"], tree),
        ]
    rumdl = peers_bin / "rumdl" if peers_bin else shutil.which("rumdl")
    if rumdl and Path(rumdl).exists():
        rows.append(("rumdl check", [str(rumdl), "check", "--no-cache", "FILE"], None))
    return rows


def cpu_of(command: list[str], cwd: Path, tree: Path | None) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", type=Path, default=[REPO])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--peers-bin", type=Path)
    parser.add_argument("--file", type=Path, default=REPO / "README.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        shutil.copy(args.file, root / args.file.name)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        rows = commands([t.resolve() for t in args.trees], args.peers_bin)
        rows = [(n, [args.file.name if a == "FILE" else a for a in c], t) for n, c, t in rows]
        load_before = os.getloadavg()
        best: dict[str, float] = {}
        for _ in range(args.repeat):
            for name, command, tree in rows:
                best[name] = min(best.get(name, float("inf")), cpu_of(command, root, tree))
        print(f"load average {load_before} -> {os.getloadavg()}, {args.repeat} rounds")
        for name, _, _ in rows:
            print(f"{best[name]:7.3f} s  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
