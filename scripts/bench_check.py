#!/usr/bin/env python3
"""Time `guidelint check` against its peers on the same Markdown corpus, side by side.

    .venv/bin/python scripts/bench_check.py [CORPUS] [--repeat N] [--skip TOOL ...]

CORPUS defaults to ../shared/corpus/opentelemetry-docs (relative to the repository).
It is copied to a scratch folder first, without its markdownlint configuration (so
every linter runs its default rules) and with a guidelint.toml selecting every
Markdown file. Every tool then gets the same files:

- guidelint cold (empty result cache, which it fills) and warm (unchanged rerun);
- markdownlint-cli2 (npm; installed into scripts/.bench-deps/ on first use);
- pymarkdownlnt (PyPI, from this virtual environment);
- a bare markdown-it-py parse of every file (one process, the parser guidelint uses).

Wall time is what a user waits; CPU time (user + sys of the tool and its worker
processes) is steadier on a shared machine. Each figure is the best of --repeat runs.
Then, in-process, guidelint's own time is split into parsing and rules.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "opentelemetry-docs"
BENCH_DEPS = REPO / "scripts" / ".bench-deps"
MARKDOWNLINT = BENCH_DEPS / "node_modules" / ".bin" / "markdownlint-cli2"
VENV_BIN = Path(sys.executable).parent
DEFAULT_TOOL_LIMIT_S = 1800.0
TOOL_LIMIT_S = DEFAULT_TOOL_LIMIT_S  # per run; --tool-limit
PEER_CONFIGS = (".markdownlint", ".markdownlint-cli2", ".pymarkdown")

BARE_PARSE = """
import sys
from markdown_it import MarkdownIt
md = MarkdownIt("commonmark").enable("table")
for name in open(sys.argv[1], encoding="utf-8").read().splitlines():
    with open(name, encoding="utf-8-sig") as handle:
        md.parse(handle.read())
"""


@dataclass
class Timing:
    tool: str
    wall_s: float
    cpu_s: float
    exit_code: int


def run_timed(tool: str, command: list[str], cwd: Path, limit: float) -> Timing:
    """Wall and CPU time of one command, children (worker processes) included.

    A tool still running after `limit` seconds is stopped; its figures are then
    lower bounds, and its exit code is reported as -1.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    ) as process:
        try:
            _, stderr = process.communicate(timeout=limit)
            code = process.returncode
        except subprocess.TimeoutExpired:
            process.kill()
            _, stderr = process.communicate()
            code = -1
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if code not in (0, 1):
        tail = stderr.decode(errors="replace").strip().splitlines()[-3:]
        what = f"stopped after {limit:.0f} s" if code == -1 else f"exited {code}"
        print(f"  ! {tool} {what}: {' | '.join(tail)}", file=sys.stderr)
    return Timing(tool, wall, cpu, code)


def best_of(repeat: int, tool: str, command: list[str], cwd: Path, before=None) -> Timing:
    runs = []
    for _ in range(repeat):
        if before:
            before()
        runs.append(run_timed(tool, command, cwd, TOOL_LIMIT_S))
        print(f"  {tool}: {runs[-1].wall_s:.2f} s wall, {runs[-1].cpu_s:.2f} s CPU", flush=True)
    return min(runs, key=lambda t: t.cpu_s)


def prepare_copy(corpus: Path, scratch: Path) -> list[str]:
    """Copy the corpus, drop peers' configurations, select every Markdown file."""
    target = scratch / "corpus"
    shutil.copytree(corpus, target, symlinks=True)
    for path in list(target.rglob("*")):
        path.chmod(path.stat().st_mode | 0o200)
        if path.is_file() and path.name.startswith(PEER_CONFIGS):
            path.unlink()
    (target / "guidelint.toml").write_text('include = ["**/*.md"]\n', encoding="utf-8")
    sys.path.insert(0, str(REPO))
    from guidelint.config import load_config
    from guidelint.discovery import discover

    loaded = load_config(target)
    return discover(loaded.root, loaded.config)


def freeze_guidelint(folder: Path) -> None:
    """Run a copy of the package: edits made meanwhile would change the cache's key."""
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "guidelint", folder / "guidelint", ignore=ignore)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(folder), os.environ.get("PYTHONPATH")])
    )


def ensure_markdownlint() -> Path | None:
    if MARKDOWNLINT.exists():
        return MARKDOWNLINT
    if shutil.which("npm") is None:
        return None
    BENCH_DEPS.mkdir(parents=True, exist_ok=True)
    (BENCH_DEPS / ".gitignore").write_text("*\n", encoding="utf-8")
    print("  installing markdownlint-cli2 into scripts/.bench-deps ...", flush=True)
    subprocess.run(
        [
            "npm",
            "install",
            "--no-audit",
            "--no-fund",
            "--prefix",
            str(BENCH_DEPS),
            "markdownlint-cli2",
        ],
        check=False,
        stdout=subprocess.DEVNULL,
    )
    return MARKDOWNLINT if MARKDOWNLINT.exists() else None


def tool_version(command: list[str]) -> str:
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    text = (out.stdout or out.stderr).strip().splitlines()
    return text[0] if text else "?"


def _cpu_now() -> float:
    """CPU seconds of this process and the children it waited for (ruff, say)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def split_guidelint(root: Path, rels: list[str]) -> dict[str, float]:
    """In one process: a bare parse, guidelint's parse (document model) and its rules."""
    from markdown_it import MarkdownIt

    from guidelint.config import load_config
    from guidelint.engine import Engine, build_selection
    from guidelint.project import Project
    from guidelint.sources import from_bytes

    loaded = load_config(root)
    project = Project(loaded.root, loaded.config)
    engine = Engine(project, build_selection(loaded.config))
    texts = [(root / rel, rel, (root / rel).read_bytes()) for rel in rels]
    bare = MarkdownIt("commonmark").enable("table")
    bare_s = parse = rules = 0.0
    # File by file, keeping nothing: a heap of retained documents would bill the
    # garbage collector to whichever loop runs second.
    for path, rel, data in texts:
        file = from_bytes(path, rel, data, loaded.config.max_file_size)
        start = _cpu_now()
        bare.parse(file.text)
        middle = _cpu_now()
        file.markdown  # noqa: B018 - parse and build the document model
        parsed = _cpu_now()
        engine.check_source(file)
        done = _cpu_now()
        bare_s, parse, rules = (
            bare_s + middle - start,
            parse + parsed - middle,
            rules + done - parsed,
        )
    return {"bare_parse_cpu_s": bare_s, "parse_cpu_s": parse, "rules_cpu_s": rules}


def report(timings: list[Timing], files: int, megabytes: float) -> list[dict]:
    peer = next((t for t in timings if t.tool == "markdownlint-cli2"), None)
    rows = []
    print()
    header = f"{'tool':<22}{'wall s':>8}{'CPU s':>8}{'files/s':>9}{'MB/s':>7}"
    header += f"{'x mdl wall':>12}{'x mdl CPU':>11}"
    print(header)
    for t in timings:
        row = {
            **asdict(t),
            "files_per_s": files / t.wall_s,
            "mb_per_s": megabytes / t.wall_s,
            "files_per_cpu_s": files / t.cpu_s if t.cpu_s else None,
            "vs_markdownlint_wall": peer.wall_s / t.wall_s if peer else None,
            "vs_markdownlint_cpu": peer.cpu_s / t.cpu_s if peer and t.cpu_s else None,
        }
        rows.append(row)
        ratio_wall = f"{row['vs_markdownlint_wall']:.2f}x" if peer else "-"
        ratio_cpu = f"{row['vs_markdownlint_cpu']:.2f}x" if peer and t.cpu_s else "-"
        print(
            f"{t.tool:<22}{t.wall_s:>8.2f}{t.cpu_s:>8.2f}{row['files_per_s']:>9.0f}"
            f"{row['mb_per_s']:>7.2f}{ratio_wall:>12}{ratio_cpu:>11}"
            + ("  (stopped: lower bound)" if t.exit_code == -1 else "")
        )
    return rows


def time_tools(args, root: Path, rels: list[str], listing: Path, notes: dict) -> list[Timing]:
    """Each tool on the same files, side by side."""
    timings = []
    guidelint = [sys.executable, "-m", "guidelint", "check", "--exit-zero"]
    cache = root / ".guidelint_cache"
    timings.append(
        best_of(
            args.repeat,
            "guidelint (cold)",
            guidelint,
            root,
            before=lambda: shutil.rmtree(cache, ignore_errors=True),
        )
    )
    timings.append(best_of(args.repeat, "guidelint (warm)", guidelint, root))
    if "markdownlint-cli2" not in args.skip and (mdl := ensure_markdownlint()):
        notes["markdownlint-cli2"] = tool_version([str(mdl), "--help"])
        command = [str(mdl), *(f":{rel}" for rel in rels)]  # ':' = a literal path
        timings.append(best_of(args.repeat, "markdownlint-cli2", command, root))
    if "pymarkdownlnt" not in args.skip and (VENV_BIN / "pymarkdown").exists():
        notes["pymarkdownlnt"] = tool_version([str(VENV_BIN / "pymarkdown"), "version"])
        command = [str(VENV_BIN / "pymarkdown"), "scan", *rels]
        timings.append(best_of(args.repeat, "pymarkdownlnt", command, root))
    command = [sys.executable, "-c", BARE_PARSE, str(listing)]
    timings.append(best_of(args.repeat, "markdown-it-py parse", command, root))

    return timings


def machine_notes() -> dict:
    return {
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "node": tool_version(["node", "--version"]),
    }


def main() -> int:
    global TOOL_LIMIT_S
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=1, help="runs per tool; best is kept")
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=["markdownlint-cli2", "pymarkdownlnt", "split"],
        help="leave out a peer (or the in-process parse/rules split)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--only-split", action="store_true", help="just the in-process split")
    parser.add_argument(
        "--tool-limit",
        type=float,
        default=DEFAULT_TOOL_LIMIT_S,
        help="seconds before a run is stopped",
    )
    args = parser.parse_args()
    TOOL_LIMIT_S = args.tool_limit
    if not args.corpus.is_dir():
        print(f"bench_check: no corpus at {args.corpus}", file=sys.stderr)
        return 2

    notes = machine_notes()
    print(f"machine: {notes['cpus']} CPUs, load {notes['load_average']}, {notes['platform']}")
    with tempfile.TemporaryDirectory(prefix="guidelint-bench-") as tmp:
        scratch = Path(tmp)
        rels = prepare_copy(args.corpus, scratch)
        freeze_guidelint(scratch / "pkg")
        root = scratch / "corpus"
        megabytes = sum((root / rel).stat().st_size for rel in rels) / 1e6
        listing = scratch / "files.txt"
        listing.write_text("\n".join(rels) + "\n", encoding="utf-8")
        print(f"corpus: {len(rels)} Markdown files, {megabytes:.1f} MB ({args.corpus})")

        rows = []
        if not args.only_split:
            timings = time_tools(args, root, rels, listing, notes)
            rows = report(timings, len(rels), megabytes)
        split = None
        if "split" not in args.skip:
            split = split_guidelint(root, rels)
            print(
                f"\nin one process (CPU s, rules include their subprocesses): bare parse "
                f"{split['bare_parse_cpu_s']:.2f}, guidelint parse + model "
                f"{split['parse_cpu_s']:.2f} "
                f"({split['parse_cpu_s'] / split['bare_parse_cpu_s']:.2f}x), rules "
                f"{split['rules_cpu_s']:.2f} ({split['rules_cpu_s'] / split['parse_cpu_s']:.2f}"
                " of the parse)"
            )
    notes["load_average_after"] = os.getloadavg()
    print(f"load average after: {notes['load_average_after']}")
    if args.json:
        payload = {
            "files": len(rels),
            "megabytes": megabytes,
            "machine": notes,
            "timings": rows,
            "split": split,
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
