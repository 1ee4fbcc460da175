"""`guidelint check` as a function: configuration, discovery, engine, fixes, baseline."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from guidelint.config import ConfigError, check_rule_selectors, load_config
from guidelint.discovery import discover
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from guidelint.reporters import Report


@dataclass
class CheckOptions:
    paths: list[Path] = field(default_factory=list)
    config_file: Path | None = None
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    fix: bool = False
    unsafe_fixes: bool = False
    baseline: Path | None = None
    write_baseline: Path | None = None
    since: str | None = None
    live: bool | None = None
    jobs: int | None = None
    use_cache: bool = True


def load_project(paths: list[Path], config_file: Path | None = None) -> Project:
    for path in paths:
        if not path.exists():
            raise ConfigError(f"{path}: no such file or folder")
    start = paths[0] if paths else Path.cwd()
    loaded = load_config(start if start.is_dir() else start.parent, config_file)
    root = loaded.root if loaded.source else _default_root(paths)
    return Project(root, loaded.config, loaded.source)


def _default_root(paths: list[Path]) -> Path:
    """With no configuration: the current folder; for paths outside it, their git
    repository's top folder, else the first path's folder."""
    cwd = Path.cwd().resolve()
    if all(cwd in (p.resolve(), *p.resolve().parents) for p in paths):
        return cwd
    first = paths[0].resolve()
    folder = first if first.is_dir() else first.parent
    top = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "--show-toplevel"],
        capture_output=True,
        text=True,
        check=False,
    )
    return Path(top.stdout.strip()) if top.returncode == 0 else folder


def run_check(options: CheckOptions) -> Report:
    project = load_project(options.paths, options.config_file)
    config = project.config
    updates: dict = {}
    if options.select is not None:
        updates["select"] = options.select
    if options.extend_select:
        updates["extend_select"] = config.extend_select + options.extend_select
    if options.ignore:
        updates["ignore"] = config.ignore + options.ignore
    if updates:
        config = config.model_copy(update=updates)
        check_rule_selectors(config, None)
        project.config = config
    project.live = options.live

    rels = discover(project.root, config, options.paths)
    if options.since:
        changed = changed_files(project.root, options.since)
        rels = [rel for rel in rels if rel in changed]

    engine = Engine(project, build_selection(config))
    fixed: dict[str, int] = {}
    if options.fix:
        findings = _fix_all(engine, rels, options.unsafe_fixes, fixed)
    else:
        if options.use_cache:
            engine.use_cache()
        findings = engine.check_files(rels, options.jobs)

    if options.write_baseline is not None:
        from guidelint.baseline import write_baseline

        write_baseline(options.write_baseline, findings)
    elif options.baseline is not None:
        from guidelint.baseline import new_findings, read_baseline

        findings = new_findings(findings, read_baseline(options.baseline))
    return Report(findings=findings, root=project.root, files_checked=len(rels), fixed=fixed)


def _fix_all(engine: Engine, rels: list[str], unsafe: bool, fixed: dict[str, int]):
    from guidelint.fixes import fix_file

    findings = []
    for rel in rels:
        count, remaining = fix_file(
            engine.project.root / rel, lambda rel=rel: engine.check_file(rel), unsafe
        )
        if count:
            fixed[rel] = count
        findings.extend(remaining)
    return sorted(findings, key=lambda f: f.sort_key)


def changed_files(root: Path, rev: str) -> set[str]:
    """Files changed since `rev` (committed, staged, unstaged or untracked)."""

    def git(*args: str) -> list[str]:
        result = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            raise ConfigError(f"--since {rev}: {_git_error(result.stderr)}")
        return [line for line in result.stdout.splitlines() if line]

    diff = git("diff", "--name-only", "--relative", rev)
    untracked = git("ls-files", "--others", "--exclude-standard")
    return set(diff) | set(untracked)


def _git_error(stderr: str) -> str:
    """git's own one-line reason (its `fatal:` line), not the usage text after it."""
    if "not a git repository" in stderr.lower():
        return "not a git repository, so there is no history to compare with"
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line
    return lines[0] if lines else "git failed"
