"""Warm re-check after one edit: CPU seconds and how many files were checked again.

    python scripts/bench_recheck.py [DOCS_FOLDER] [--runs 3] [--tools] [--tree DIR ...]
        [--at-root]

Copies DOCS_FOLDER (default: the OTel en/docs of the shared corpus) into a fresh git
repository under `docs/` (`--at-root`: at its root, with every `.md` included, as
for ../shared/corpus/agent-repos); then for each kind of edit, `--runs` times: a fresh cache
warmed on the unedited tree, the edit, one timed `guidelint check --jobs 1` (a
subprocess; its CPU seconds; the minimum is reported), the edit undone. The
re-checked count comes from one more such run in a subprocess that reads the cache's
hits (exact, unlike the seconds). Prints a Markdown table.

`--tools` adds an MCP server to the copy (`.mcp.json` and a snapshot with one
malformed tool entry, a GL109 problem placed on `.mcp.json`), so that every page
with a code span builds the tool catalog, and two more edits (the snapshot,
`.mcp.json`). `--tree DIR` (repeatable) runs the same edits with the `guidelint`
package found in DIR (e.g. a `git archive` of main, compiled) and the current one
side by side, interleaved: one column pair per tree.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

DEFAULT_DOCS = Path(__file__).resolve().parents[2] / "shared/corpus/opentelemetry-docs"
DEFAULT_DOCS = DEFAULT_DOCS / "content/en/docs"
CHECK = [sys.executable, "-m", "guidelint", "check", "--quiet", "--jobs", "1"]
HERE = Path(__file__).resolve().parents[1]

MCP_CONFIG = {"mcpServers": {"lab": {"command": "python", "args": ["server/lab.py"]}}}
SNAPSHOT = {
    "tools": [
        {"name": "job_submit", "description": "Submit a job.", "inputSchema": {}},
        {"description": "An entry with no name: GL109."},
    ]
}


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def make_repo(docs: Path, into: Path, tools: bool, at_root: bool = False) -> Path:
    root = into / "repo"
    shutil.copytree(docs, root if at_root else root / "docs")
    if at_root:  # a repository of its own (agent-repos): every Markdown file checked
        (root / "guidelint.toml").write_text('include = ["**/*.md"]\n', encoding="utf-8")
    (root / ".gitignore").write_text(".guidelint_cache/\n", encoding="utf-8")
    if tools:
        (root / ".mcp.json").write_text(json.dumps(MCP_CONFIG, indent=2) + "\n")
        snapshot = root / ".guidelint/tools/lab.json"
        snapshot.parent.mkdir(parents=True)
        snapshot.write_text(json.dumps(SNAPSHOT, indent=2) + "\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.email=b@example.com", "-c", "user.name=bench", "commit", "-qm", "docs")
    return root


def environment(tree: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env["PYTHONPATH"] = str(tree)
    return env


def cpu_of_check(root: Path, tree: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(CHECK, cwd=root, env=environment(tree), capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def warm_fresh(root: Path, tree: Path) -> None:
    shutil.rmtree(root / ".guidelint_cache", ignore_errors=True)
    cpu_of_check(root, tree)


RECHECKED = """
from pathlib import Path
from guidelint import engine
from guidelint.check import CheckOptions, run_check
seen = []
original = engine.Engine.use_cache
def use(self):
    cache = original(self)
    seen.append(cache)
    return cache
engine.Engine.use_cache = use
report = run_check(CheckOptions(paths=[Path(".")], jobs=1))
print(report.files_checked - seen[0].hits, report.files_checked)
"""


def rechecked(root: Path, tree: Path) -> tuple[int, int]:
    """(files checked again, files checked) of one cached run, in a subprocess."""
    out = subprocess.run(
        [sys.executable, "-c", RECHECKED],
        cwd=root,
        env=environment(tree),
        capture_output=True,
        text=True,
        check=True,
    )
    again, total = out.stdout.split()
    return int(again), int(total)


Edit = tuple[Callable[[], None], Callable[[], None]]


def _rename(path: Path, to: Path) -> None:
    path.rename(to)


def edits(root: Path, tools: bool) -> dict[str, Edit]:
    """Each kind of edit: (apply, undo)."""
    md = sorted(p for p in root.rglob("*.md") if ".guidelint_cache" not in p.parts)
    victim = md[len(md) // 2]
    renamed = victim.with_name("renamed-" + victim.name)
    gitignore = root / ".gitignore"
    original_ignore = gitignore.read_text(encoding="utf-8")
    note, script, page = (
        root / "docs/notes.txt",
        root / "tools/helper.py",
        root / "docs/new-page.md",
    )
    victim_text = victim.read_text(encoding="utf-8")

    def write(path: Path, text: str) -> Callable[[], None]:
        def apply() -> None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")

        return apply

    found = {
        "edit one .md": (
            write(victim, victim_text + "\nOne more line.\n"),
            write(victim, victim_text),
        ),
        "edit .gitignore": (
            write(gitignore, original_ignore + "scratch/\n"),
            write(gitignore, original_ignore),
        ),
        "add an untracked .txt": (write(note, "notes\n"), note.unlink),
        "add a .py": (write(script, "print('hi')\n"), script.unlink),
        "rename one .md": (lambda: _rename(victim, renamed), lambda: _rename(renamed, victim)),
        "add a .md": (write(page, "# New page\n\nRun `npm run build`.\n"), page.unlink),
        "delete one .md": (victim.unlink, write(victim, victim_text)),
    }
    if tools:
        snapshot, mcp = root / ".guidelint/tools/lab.json", root / ".mcp.json"
        snapshot_text, mcp_text = snapshot.read_text(), mcp.read_text()
        found["edit the snapshot"] = (
            write(snapshot, snapshot_text.replace("Submit a job.", "Submit one job.")),
            write(snapshot, snapshot_text),
        )
        found["edit .mcp.json"] = (
            write(mcp, mcp_text.replace("server/lab.py", "server/lab2.py")),
            write(mcp, mcp_text),
        )
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("docs", nargs="?", type=Path, default=DEFAULT_DOCS)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tools", action="store_true", help="add an MCP server with a GL109")
    parser.add_argument(
        "--tree", type=Path, action="append", default=[], help="another guidelint tree"
    )
    parser.add_argument(
        "--at-root",
        action="store_true",
        help="copy the folder to the repository's root, every .md included (agent-repos)",
    )
    args = parser.parse_args()
    trees = [tree.resolve() for tree in args.tree] + [HERE]
    with tempfile.TemporaryDirectory(prefix="bench-recheck-") as tmp:
        root = make_repo(args.docs, Path(tmp), args.tools, args.at_root)
        heads = " | ".join(f"again, {t.name or t} | CPU s, {t.name or t}" for t in trees)
        print(f"| edit | {heads} |")
        print("|------|" + "---|---|" * len(trees))
        cold = []
        for tree in trees:
            shutil.rmtree(root / ".guidelint_cache", ignore_errors=True)
            cold.append(f"all | {cpu_of_check(root, tree):.2f}")
        print(f"| none (cold, one run) | {' | '.join(cold)} |", flush=True)
        warm: dict[Path, list[float]] = {tree: [] for tree in trees}
        shutil.rmtree(root / ".guidelint_cache", ignore_errors=True)
        for tree in trees:  # each tree's code is its own context: both caches stay
            cpu_of_check(root, tree)
        for _ in range(args.runs):
            for tree in trees:  # interleaved
                warm[tree].append(cpu_of_check(root, tree))
        cells = []
        for tree in trees:
            warm_fresh(root, tree)
            cells.append(f"{rechecked(root, tree)[0]} | {min(warm[tree]):.2f}")
        print(f"| none (warm) | {' | '.join(cells)} |", flush=True)
        for name, (apply, undo) in edits(root, args.tools).items():
            times: dict[Path, list[float]] = {tree: [] for tree in trees}
            for _ in range(args.runs):
                for tree in trees:  # interleaved: the load hits every tree alike
                    warm_fresh(root, tree)
                    apply()
                    times[tree].append(cpu_of_check(root, tree))
                    undo()
            cells = []
            for tree in trees:
                warm_fresh(root, tree)
                apply()
                again, total = rechecked(root, tree)
                undo()
                cells.append(f"{again} of {total} | {min(times[tree]):.2f}")
            print(f"| {name} | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()
