"""Warm re-check after one edit: CPU seconds and how many files were checked again.

    python scripts/bench_recheck.py [DOCS_FOLDER] [--runs 3]

Copies DOCS_FOLDER (default: the OTel en/docs of the shared corpus) into a fresh git
repository; then for each kind of edit, `--runs` times: a fresh cache warmed on the
unedited tree, the edit, one timed `guidelint check` (a subprocess; its CPU
seconds; the minimum is reported), the edit undone. The re-checked count comes from
one more such run in a subprocess that reads the cache's hits. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
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


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def make_repo(docs: Path, into: Path) -> Path:
    root = into / "repo"
    shutil.copytree(docs, root / "docs")
    (root / ".gitignore").write_text(".guidelint_cache/\n", encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.email=b@example.com", "-c", "user.name=bench", "commit", "-qm", "docs")
    return root


def cpu_of_check(root: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(CHECK, cwd=root, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def warm_fresh(root: Path) -> None:
    shutil.rmtree(root / ".guidelint_cache", ignore_errors=True)
    cpu_of_check(root)


def rechecked(root: Path) -> tuple[int, int]:
    """(files checked again, files checked) of one cached run, in a subprocess."""
    code = (
        "import sys; from pathlib import Path; from guidelint.check import run_check, CheckOptions;"
        "from guidelint import engine as e; seen = [];"
        "orig = e.Engine.use_cache\n"
        "def use(self):\n c = orig(self); seen.append(c); return c\n"
        "e.Engine.use_cache = use\n"
        "r = run_check(CheckOptions(paths=[Path('.')], jobs=1));"
        "print(r.files_checked - seen[0].hits, r.files_checked)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    again, total = out.stdout.split()
    return int(again), int(total)


def edits(root: Path) -> dict[str, tuple[Callable[[], None], Callable[[], None]]]:
    """Each kind of edit: (apply, undo)."""
    md = sorted((root / "docs").rglob("*.md"))
    victim = md[len(md) // 2]
    renamed = victim.with_name("renamed-" + victim.name)
    gitignore = root / ".gitignore"
    original_ignore = gitignore.read_text(encoding="utf-8")
    note, script = root / "docs/notes.txt", root / "tools/helper.py"
    victim_text = victim.read_text(encoding="utf-8")

    def write(path: Path, text: str) -> Callable[[], None]:
        def apply() -> None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")

        return apply

    return {
        "edit one .md": (
            write(victim, victim_text + "\nOne more line.\n"),
            write(victim, victim_text),
        ),
        "edit .gitignore": (
            write(gitignore, original_ignore + "scratch/\n"),
            write(gitignore, original_ignore),
        ),
        "add an untracked .txt": (write(note, "notes\n"), note.unlink),
        "rename one .md": (lambda: victim.rename(renamed), lambda: renamed.rename(victim)),
        "add a .py": (write(script, "print('hi')\n"), script.unlink),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("docs", nargs="?", type=Path, default=DEFAULT_DOCS)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-recheck-") as tmp:
        root = make_repo(args.docs, Path(tmp))
        shutil.rmtree(root / ".guidelint_cache", ignore_errors=True)
        cold = min(cpu_of_check(root) for _ in range(1))
        warm = min(cpu_of_check(root) for _ in range(args.runs))
        print(f"| edit | files checked again | CPU s (min of {args.runs}) |")
        print("|------|---------------------|------------|")
        print(f"| none (cold, one run) | all | {cold:.2f} |")
        print(f"| none (warm) | {rechecked(root)[0]} | {warm:.2f} |")
        for name, (apply, undo) in edits(root).items():
            times = []
            for _ in range(args.runs):
                warm_fresh(root)
                apply()
                times.append(cpu_of_check(root))
                undo()
            warm_fresh(root)
            apply()
            again, total = rechecked(root)
            undo()
            print(f"| {name} | {again} of {total} | {min(times):.2f} |", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    main()
