#!/usr/bin/env python3
"""Time `guidelint check` against its peers on the same Markdown corpus, side by side.

    .venv/bin/python scripts/bench_check.py [CORPUS] [--copies N] [--repeat N]
        [--peers-bin DIR] [--skip TOOL ...] [--startup] [--json FILE]

CORPUS defaults to ../shared/corpus/opentelemetry-docs (relative to the repository).
It is copied to a scratch folder first (`--copies N`: N copies side by side, for
linear growth and flat memory), without its markdownlint configuration (so every
linter runs its default rules) and with a guidelint.toml selecting every Markdown
file. Every tool then gets the same files:

- guidelint cold (no result cache), with markdown-it-pyrs where installed and with
  the reference parser (`GUIDELINT_MARKDOWN_PARSER=markdown-it-py`), and warm
  (an unchanged rerun with the cache);
- markdownlint-cli2 (npm; installed into scripts/.bench-deps/ on first use);
- rumdl and agnix (Rust, PyPI: `pip install rumdl agnix` into a scratch venv and
  pass `--peers-bin VENV/bin`), pymarkdownlnt (PyPI, opt in: `--with pymarkdownlnt`);
- a bare parse of every file with markdown-it-py and with markdown-it-pyrs.

The runs are interleaved (tool A, B, C, then A, B, C again) and each figure is the
minimum over --repeat runs, so a burst of load from elsewhere costs one run, not one
tool. Wall time is what a user waits; CPU time (user + sys of the tool and every
process it waited for) is steadier on a shared machine; peak RSS is the largest
resident set of the tool or any of its processes. `--startup` times one small file
(and `--version`) against rumdl and ruff. Then, in-process, guidelint's own time is
split into parsing and rules.
"""

from __future__ import annotations

import argparse
import compileall
import functools
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "opentelemetry-docs"
BENCH_DEPS = REPO / "scripts" / ".bench-deps"
MARKDOWNLINT = BENCH_DEPS / "node_modules" / ".bin" / "markdownlint-cli2"
VENV_BIN = Path(sys.executable).parent
DEFAULT_TOOL_LIMIT_S = 1800.0
TOOL_LIMIT_S = DEFAULT_TOOL_LIMIT_S  # per run; --tool-limit
PEER_CONFIGS = (".markdownlint", ".markdownlint-cli2", ".pymarkdown", ".rumdl", ".agnix")

BARE_PARSE_RS = """
import sys
from markdown_it_pyrs import MarkdownIt
md = MarkdownIt("commonmark").enable("table")
for name in open(sys.argv[1], encoding="utf-8").read().splitlines():
    with open(name, encoding="utf-8-sig") as handle:
        md.tree(handle.read())
"""

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
    peak_rss_mb: float = 0.0


@dataclass
class Tool:
    name: str
    command: list[str]
    env: dict[str, str] | None = None
    before: Callable[[], None] | None = None


def run_timed(tool: Tool, cwd: Path, limit: float) -> Timing:
    """Wall and CPU time and peak RSS of one command, its waited-for children included.

    A tool still running after `limit` seconds is stopped; its figures are then
    lower bounds, and its exit code is reported as -1.
    """
    if tool.before:
        tool.before()
    env = {**os.environ, **(tool.env or {})}
    with tempfile.TemporaryFile() as stderr, tempfile.NamedTemporaryFile("r") as rss_file:
        # GNU time's own child starts small: a child forked from this Python would
        # count this process's pages as its own peak.
        gnu_time = ["/usr/bin/time", "-q", "-f", "%M", "-o", rss_file.name]
        wrapper = gnu_time if os.path.exists("/usr/bin/time") else []
        start = time.perf_counter()
        process = subprocess.Popen(
            [*wrapper, *tool.command], cwd=cwd, stdout=subprocess.DEVNULL, stderr=stderr, env=env
        )
        timer = threading.Timer(limit, process.kill)
        timer.start()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        stopped = not timer.is_alive()
        timer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
        code = -1 if stopped else process.returncode
        stderr.seek(0)
        err = stderr.read().decode(errors="replace")
        measured = rss_file.read().strip().splitlines()
    cpu = usage.ru_utime + usage.ru_stime
    rss = int(measured[-1]) / 1024 if measured and measured[-1].isdigit() else 0.0  # KiB
    if code not in (0, 1):
        tail = err.strip().splitlines()[-3:]
        what = f"stopped after {limit:.0f} s" if code == -1 else f"exited {code}"
        print(f"  ! {tool.name} {what}: {' | '.join(tail)}", file=sys.stderr)
    return Timing(tool.name, wall, cpu, code, rss)


def interleaved(tools: list[Tool], repeat: int, cwd: Path) -> list[Timing]:
    """Each tool `repeat` times, round-robin; the run with the least CPU is kept."""
    runs: dict[str, list[Timing]] = {tool.name: [] for tool in tools}
    for round_no in range(repeat):
        for tool in tools:
            timing = run_timed(tool, cwd, TOOL_LIMIT_S)
            runs[tool.name].append(timing)
            print(
                f"  [{round_no + 1}/{repeat}] {tool.name}: {timing.wall_s:.2f} s wall, "
                f"{timing.cpu_s:.2f} s CPU, {timing.peak_rss_mb:.0f} MB",
                flush=True,
            )
    return [min(runs[tool.name], key=lambda t: t.cpu_s) for tool in tools]


def prepare_copy(corpus: Path, scratch: Path, copies: int = 1) -> list[str]:
    """Copy the corpus (`copies` times, side by side), drop peers' configurations,
    select every Markdown file."""
    target = scratch / "corpus"
    if copies == 1:
        shutil.copytree(corpus, target, symlinks=True)
    for number in range(1, copies + 1 if copies > 1 else 1):
        shutil.copytree(corpus, target / f"copy{number}", symlinks=True)
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


def commit_all(root: Path) -> None:
    """The copy as one git repository with every file committed."""
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "corpus"]):
        subprocess.run([*git, *step], cwd=root, check=True, stdout=subprocess.DEVNULL)


def freeze_guidelint(folder: Path) -> None:
    """Run a copy of the package: edits made meanwhile would change the cache's key."""
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "guidelint", folder / "guidelint", ignore=ignore)
    # Bytecode, as pip writes it at install: without it, where PYTHONDONTWRITEBYTECODE
    # is set, every run would also compile every module it imports (0.1-0.3 s of CPU).
    compileall.compile_dir(folder / "guidelint", quiet=1)
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
    """The table: each tool's figures, and how guidelint's CPU time compares."""
    by_name = {t.tool: t for t in timings}
    ours = by_name.get("guidelint")
    rows = []
    print()
    print(
        f"{'tool':<24}{'wall s':>8}{'CPU s':>8}{'peak MB':>9}{'files/CPU s':>13}"
        f"{'guidelint CPU / this CPU':>26}"
    )
    for t in timings:
        row = {
            **asdict(t),
            "files_per_cpu_s": files / t.cpu_s if t.cpu_s else None,
            "mb_per_cpu_s": megabytes / t.cpu_s if t.cpu_s else None,
            # >1: guidelint is that many times faster; <1: slower.
            "guidelint_speedup_cpu": t.cpu_s / ours.cpu_s if ours and ours.cpu_s else None,
            "guidelint_speedup_wall": t.wall_s / ours.wall_s if ours and ours.wall_s else None,
        }
        rows.append(row)
        speedup = row["guidelint_speedup_cpu"]
        ratio = f"{speedup:.2f}x" if speedup else "-"
        per_s = f"{row['files_per_cpu_s']:.0f}" if row["files_per_cpu_s"] else "-"
        print(
            f"{t.tool:<24}{t.wall_s:>8.2f}{t.cpu_s:>8.2f}{t.peak_rss_mb:>9.0f}{per_s:>13}"
            f"{ratio:>26}" + ("  (stopped: lower bound)" if t.exit_code == -1 else "")
        )
    return rows


def peer(name: str, bin_dir: Path | None) -> str | None:
    """A peer's executable: in --peers-bin, beside this Python, else on PATH."""
    for folder in (bin_dir, VENV_BIN):
        if folder is not None and (folder / name).exists():
            return str(folder / name)
    return shutil.which(name)


def tools_for(args, root: Path, rels: list[str], listing: Path, notes: dict) -> list[Tool]:
    """Each tool on the same files."""
    guidelint = [sys.executable, "-m", "guidelint", "check", "--exit-zero"]
    cache = root / ".guidelint_cache"
    clear = functools.partial(shutil.rmtree, cache, ignore_errors=True)
    reference = {"GUIDELINT_MARKDOWN_PARSER": "markdown-it-py"}
    skip = set(args.skip)
    tools = [Tool("guidelint", [*guidelint, "--no-cache"])]
    if "reference" not in skip:
        tools.append(Tool("guidelint md-it-py", [*guidelint, "--no-cache"], env=reference))
    if "warm" not in skip:
        tools.append(Tool("guidelint warm", guidelint))
        clear()
        run_timed(Tool("fill the cache", guidelint), root, TOOL_LIMIT_S)
    if "markdownlint-cli2" not in skip and (mdl := ensure_markdownlint()):
        notes["markdownlint-cli2"] = tool_version([str(mdl), "--help"])
        tools.append(Tool("markdownlint-cli2", [str(mdl), *(f":{rel}" for rel in rels)]))
    for name, command in (("rumdl", ["check", "--no-cache", "."]), ("agnix", ["."])):
        if name not in skip and (found := peer(name, args.peers_bin)):
            notes[name] = tool_version([found, "--version"])
            tools.append(Tool(name, [found, *command]))
    if "pymarkdownlnt" in args.with_tools and (VENV_BIN / "pymarkdown").exists():
        notes["pymarkdownlnt"] = tool_version([str(VENV_BIN / "pymarkdown"), "version"])
        tools.append(Tool("pymarkdownlnt", [str(VENV_BIN / "pymarkdown"), "scan", *rels]))
    if "parse" in skip:
        return tools
    tools.append(Tool("markdown-it-py parse", [sys.executable, "-c", BARE_PARSE, str(listing)]))
    try:
        import markdown_it_pyrs  # noqa: F401

        rs = [sys.executable, "-c", BARE_PARSE_RS, str(listing)]
        tools.append(Tool("markdown-it-pyrs parse", rs))
    except ImportError:
        pass
    return tools


def startup(args, scratch: Path) -> list[Timing]:
    """One small file: what a pre-commit hook pays on every commit."""
    folder = scratch / "one"
    folder.mkdir()
    (folder / "CLAUDE.md").write_text("# Rules\n\nSee `docs/x.md` and [a](b.md).\n")
    tools = [
        Tool("python -c pass", [sys.executable, "-c", "pass"]),
        Tool("guidelint --version", [sys.executable, "-m", "guidelint", "--version"]),
        Tool(
            "guidelint, one file",
            [sys.executable, "-m", "guidelint", "check", "--no-cache", "--exit-zero", "CLAUDE.md"],
        ),
    ]
    for name, command in (
        ("rumdl", ["check", "--no-cache", "CLAUDE.md"]),
        ("ruff", ["check", "--isolated", "--no-cache", "x.py"]),
    ):
        if found := peer(name, args.peers_bin):
            tools.append(Tool(f"{name}, one file", [found, *command]))
    (folder / "x.py").write_text("print(1)\n")
    return interleaved(tools, max(args.repeat, 5), folder)


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
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs; least CPU kept")
    parser.add_argument("--copies", type=int, default=1, help="copies of the corpus side by side")
    parser.add_argument(
        "--git",
        action="store_true",
        help="make the scratch copy one git repository (the file list from git ls-files, "
        "every copy in one project)",
    )
    parser.add_argument("--peers-bin", type=Path, help="folder with rumdl and agnix executables")
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=["markdownlint-cli2", "rumdl", "agnix", "reference", "warm", "parse", "split"],
        help="leave out a peer, guidelint's reference-parser or warm run, the bare parses, "
        "or the in-process parse/rules split",
    )
    parser.add_argument(
        "--with",
        dest="with_tools",
        action="append",
        default=[],
        choices=["pymarkdownlnt"],
        help="add a slow peer (pymarkdownlnt takes minutes per thousand files)",
    )
    parser.add_argument("--startup", action="store_true", help="also time one small file")
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
        rels = prepare_copy(args.corpus, scratch, args.copies)
        if args.git:
            commit_all(scratch / "corpus")
        freeze_guidelint(scratch / "pkg")
        root = scratch / "corpus"
        megabytes = sum((root / rel).stat().st_size for rel in rels) / 1e6
        listing = scratch / "files.txt"
        listing.write_text("\n".join(rels) + "\n", encoding="utf-8")
        print(
            f"corpus: {len(rels)} Markdown files, {megabytes:.1f} MB "
            f"({args.corpus}, {args.copies} cop{'y' if args.copies == 1 else 'ies'}"
            f"{', one git repository' if args.git else ''})"
        )

        rows = []
        if not args.only_split:
            timings = interleaved(tools_for(args, root, rels, listing, notes), args.repeat, root)
            rows = report(timings, len(rels), megabytes)
        startup_rows = []
        if args.startup:
            startup_rows = report(startup(args, scratch), 1, 0.0)
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
            "startup": startup_rows,
            "copies": args.copies,
            "git": args.git,
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
