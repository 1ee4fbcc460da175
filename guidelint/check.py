"""`guidelint check` as a function: configuration, discovery, engine, fixes, baseline."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from guidelint.discovery import discover
from guidelint.engine import Engine, build_selection, fold_roles, role_links, sibling_roles
from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.reporters import Report
from guidelint.settings import DEFAULT_INCLUDE


@dataclass
class CheckOptions:
    paths: list[Path] = field(default_factory=list)
    config_file: Path | None = None
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    fix: bool = False
    unsafe_fixes: bool = False
    dry_run: bool = False  # with fix: compute the fixed texts (Report.changes), write nothing
    baseline: Path | None = None
    write_baseline: Path | None = None
    since: str | None = None
    # The paths are what changed: check them and every file whose findings rest on
    # them (the pre-commit hook).
    dependents: bool = False
    live: bool | None = None
    jobs: int | None = None
    use_cache: bool = True
    stdin: tuple[Path, str] | None = None  # (as if this file, its text): check text, not disk
    # Called with (files done, files in all) every `progress_every` files of a long run.
    progress: Callable[[int, int], None] | None = None
    progress_every: int = 500
    # Report only findings of this severity or worse (`--min-severity error`).
    min_severity: Severity = Severity.WARNING


def run_check(options: CheckOptions) -> Report:
    paths = options.paths
    if options.stdin is not None:  # the file may not exist yet: its folder places it
        paths = [_existing_folder(options.stdin[0])]
    project = Project.load(paths, options.config_file, live=options.live)
    config = project.config
    build_selection(config, project.config_source)  # the file's own codes, named as its
    updates: dict[str, list[str]] = {}
    if options.select is not None:
        updates["select"] = options.select
    if options.extend_select:
        updates["extend_select"] = config.extend_select + options.extend_select
    if options.ignore:
        updates["ignore"] = config.ignore + options.ignore
    if updates:
        config = config.model_copy(update=updates)
        project.config = config

    skipped: list[str] = []  # paths named that lead outside the project, a line each
    links: dict[str, str] = {}  # symlinks checked as their targets
    rels = discover(
        project.root, config, scope_paths(project, options.paths), project.files, skipped, links
    )
    for line in skipped:
        project.warn(line)
    roles = _roles(project, rels, links, bool(options.paths))
    engine = Engine(project, build_selection(config))  # now naming the command line
    if options.use_cache and not options.fix:
        engine.use_cache()
    findings: list[Finding] | None = None
    if options.since or options.dependents:
        rels, findings = _reached(engine, rels, roles, options)

    fixed: dict[str, int] = {}
    changes: dict[str, tuple[str, str]] = {}
    if options.stdin is not None:
        rels = [project.rel(options.stdin[0])]
        findings = _check_stdin(engine, rels[0], options, fixed, changes)
    elif options.fix:
        findings = _fix_all(engine, rels, roles, options, fixed, changes)
    elif findings is None:
        findings = _check_all(engine, rels, roles, options)

    if options.write_baseline is not None:
        from guidelint.baseline import write_baseline

        write_baseline(options.write_baseline, findings, project.root)
    elif options.baseline is not None:
        from guidelint.baseline import new_findings, old_format_note, read_baseline

        baseline = read_baseline(options.baseline, project.root)
        note = old_format_note(options.baseline, baseline)
        if note:
            project.warn(note)
        findings = new_findings(findings, baseline)
    if options.min_severity is Severity.ERROR:
        findings = [f for f in findings if f.severity is Severity.ERROR]
    return Report(
        findings=findings,
        root=project.root,
        files_checked=len(rels),
        fixed=fixed,
        changes=changes,
        notices=project.warnings,
    )


def _roles(project: Project, rels: list[str], links: dict[str, str], named: bool) -> dict[str, str]:
    """The steering-named links to the files checked (link -> target): those the
    discovery met and, where paths were named, those beside them (`check AGENTS.md`
    reads it as its `CLAUDE.md` too); not one `exclude` leaves out. Each is checked
    under its own name as well, its findings reported at the target (fold_roles)."""
    found = role_links(links)
    if named:  # a file named alone: the file list, and its links, were not read
        found = {**sibling_roles(project.root, rels), **found}
    excluded = project.globs(project.config.exclude)
    return {link: target for link, target in found.items() if not excluded.matches(link)}


def scope_paths(project: Project, paths: list[Path]) -> list[Path]:
    """What `check` with no path checks: the project root, as `check .` from there,
    unless the configuration names its own `include` (then those globs select)."""
    if paths or project.config.include != DEFAULT_INCLUDE:
        return paths
    return [project.root]


def file_scope(project: Project, paths: list[Path]) -> list[str]:
    """One line per project file: checked, or skipped and why (`--show-files`)."""
    from guidelint.printable import printable
    from guidelint.sources import MARKDOWN_SUFFIXES

    config = project.config
    scope = scope_paths(project, paths)
    links: dict[str, str] = {}
    checked = set(discover(project.root, config, scope, project.files, links=links))
    roles = role_links(links)
    excluded = project.globs(config.exclude)
    folders = [project.rel(p).rstrip("/") for p in scope if p.is_dir()]

    lines = []
    for rel in project.files():
        shown = printable(rel)
        if rel in roles:
            lines.append(
                f"{shown}: skipped: a symlink to {printable(links[rel])}, checked as it "
                "(with the rules for this name too)"
            )
        elif rel in links:
            lines.append(f"{shown}: skipped: a symlink to {printable(links[rel])}, checked as it")
        elif rel in checked:
            lines.append(f"{shown}: checked")
        elif config.exclude and excluded.matches(rel):
            lines.append(f"{shown}: skipped: matches `exclude`")
        elif scope and not any(f in (".", "") or rel.startswith(f + "/") for f in folders):
            lines.append(f"{shown}: skipped: outside the paths given")
        elif rel.lower().endswith(MARKDOWN_SUFFIXES):
            lines.append(f"{shown}: skipped: no `include` glob selects it")
        else:
            lines.append(f"{shown}: skipped: not Markdown, and no `include` glob selects it")
    lines.extend(project.warnings)  # symlinks out of the repository, FIFOs
    return lines


def _reached(
    engine: Engine, rels: list[str], roles: dict[str, str], options: CheckOptions
) -> tuple[list[str], list[Finding]]:
    """The files a change reaches (module `dependents`), and their findings.

    Every file in scope is checked (from the cache where it can), so that what each
    one's findings rest on is known; only the reached ones are reported. A target is
    reached when it is, or when a role link to it is (its findings under that name).
    """
    from guidelint.dependents import Reach
    from guidelint.discovery import changes_since, staged_changes

    project = engine.project
    if options.since:
        changes = changes_since(project.root, options.since)
        scope = rels
    else:
        changes = staged_changes(project.root, rels)
        scope = sorted({*discover(project.root, project.config, [], project.files()), *rels})
    engine.record_lookups()
    roles = {link: target for link, target in roles.items() if target in scope}
    findings = engine.check_files([*scope, *roles], options.jobs)
    reach = Reach(engine.project, engine.rules_with_inputs(), changes)
    lookups = engine.lookups or {}
    kept = {rel for rel in scope if reach.reaches(rel, lookups.get(rel))}
    kept |= {target for link, target in roles.items() if reach.reaches(link, lookups.get(link))}
    reached = [rel for rel in scope if rel in kept]
    return reached, [f for f in fold_roles(findings, roles) if f.path in kept]


def _fix_all(
    engine: Engine,
    rels: list[str],
    roles: dict[str, str],
    options: CheckOptions,
    fixed: dict[str, int],
    changes: dict[str, tuple[str, str]],
) -> list[Finding]:
    from guidelint.fixes import fix_file, fix_text
    from guidelint.fsio import read_text_exact

    findings: list[Finding] = []
    for rel in rels:
        path = engine.project.root / rel
        check = functools.partial(engine.check_text, rel)
        try:
            before = read_text_exact(path, engine.project.root)
            if options.dry_run:
                after, count, remaining = fix_text(before, check, options.unsafe_fixes)
            else:
                count, remaining = fix_file(path, check, options.unsafe_fixes, engine.project.root)
                after = read_text_exact(path, engine.project.root) if count else before
        except (OSError, UnicodeDecodeError) as error:
            # One file that cannot be fixed is one line; the others are still fixed.
            reason = error.strerror if isinstance(error, OSError) else "not valid UTF-8"
            engine.project.warn(f"{rel}: not fixed: {reason or error}")
            count, remaining = 0, engine.check_file(rel)
        if count:
            fixed[rel] = count
            changes[rel] = (before, after)
        findings.extend(remaining)
    # Each target is fixed once, above, as itself; its role links read its text after
    # the fixes (`--dry-run` writes none: the fixed text is in `changes`).
    for link, target in sorted(roles.items()):
        if target in changes:
            findings.extend(engine.check_text(link, changes[target][1]))
        else:
            findings.extend(engine.check_file(link))
    return fold_roles(findings, roles)


def _check_all(
    engine: Engine, rels: list[str], roles: dict[str, str], options: CheckOptions
) -> list[Finding]:
    """All files at once; a long run with a progress callback tells it every
    `progress_every` files (a CI log then shows the check going). Role links are
    checked under their own names, their findings moved to their targets."""
    every = max(1, options.progress_every)
    named = [*rels, *sorted(roles)]
    if options.progress is None or len(named) < 2 * every:
        return fold_roles(engine.check_files(named, options.jobs), roles)
    return fold_roles(engine.check_files(named, options.jobs, options.progress, every), roles)


def _existing_folder(path: Path) -> Path:
    folder = path.absolute().parent
    while not folder.is_dir():
        folder = folder.parent
    return folder


def _check_stdin(
    engine: Engine,
    rel: str,
    options: CheckOptions,
    fixed: dict[str, int],
    changes: dict[str, tuple[str, str]],
) -> list[Finding]:
    """`--stdin-filename`: the text as if it were that file; fixes are computed, never
    written (the CLI prints the fixed text or its diff)."""
    from guidelint.fixes import fix_text

    assert options.stdin is not None
    text = options.stdin[1]
    check = functools.partial(engine.check_text, rel)
    if not options.fix:
        return check(text)
    after, count, remaining = fix_text(text, check, options.unsafe_fixes)
    if count:
        fixed[rel] = count
    changes[rel] = (text, after)
    return remaining
