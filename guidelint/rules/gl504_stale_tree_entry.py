"""GL504 stale-tree-entry: a file tree drawn in a document names an entry that does
not exist.

A fenced block drawn with `├──`/`└──`/`│` (or ASCII `|--`, `+--`, `` `-- ``) lines
is read into full paths by the column of each line's branch, below its root line
(`strands-agents/` stands for the repository, `src/` for that folder). Precision
first, so a tree is judged only when it demonstrably describes this repository: at
least three of its entries exist and at least two thirds of those it can check, with
the root resolved where most of them do. Then each entry that does not exist is
reported, once: the entries below a missing folder are not. Not judged: a generic
tree (`skill-name/`, `<name>/`, `my-app/`), one the text around it introduces as what
a command makes, proposes or shows as an example, a tree in a history document, a
fixture or a template; nor an entry that is a placeholder (`...`, `*`, `{x}`,
`<name>`), one its comment marks as generated, planned, optional or ignored, one
.gitignore (or `[tool.guidelint.paths] ignore`) ignores, or one inside a submodule.
Inside a fence no code span is read, so GL501 never reports the same line.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass

from guidelint.doc_kind import reading_of, template_root
from guidelint.findings import Finding, Severity
from guidelint.globs import Globs
from guidelint.lazy_re import LazyPattern
from guidelint.markdown import Fence
from guidelint.project import Memo, Project
from guidelint.rule import Rule
from guidelint.rules.gl501_stale_path import _hint as did_you_mean
from guidelint.rules.stale_path.illustrative import TREE_ROOT
from guidelint.rules.stale_path.made import IGNORED, env_file
from guidelint.rules.stale_path.placeholders import is_placeholder
from guidelint.rules.stale_path.project_files import join_rel
from guidelint.sources import FileKind, SourceFile
from guidelint.spans import Span

# A tree's line: what leads to its branch (`│   `, `|   `, spaces), the branch
# (`├── `, `└─ `, `|-- `, `+-- `, `` `-- ``) and what follows (the entry, a comment).
BRANCH = LazyPattern(r"^([ \t│|]*?)(?:[├└]\s?[─━-]+|[|+`]--+)[ \t]?(.*)$")
# Where an entry's name ends and a comment begins: `# ...`, `<- ...`, `← ...`, ` - ...`,
# `(...)`, `: ...`, `// ...`, or two spaces.
COMMENT = re.compile(r"\s+(?:#|//|<-+|←|→|-+>|--?\s|–|—|\(|:\s|\[)|\s{2,}|\t")
# A tree's root line: one name, maybe a comment (`strands-agents/`, `.`, `src/  # code`).
ROOT_LINE = LazyPattern(r"^\s*(\.{1,2}/?|[\w.@\-]+(?:/[\w.@\-]+)*/?)\s*(?:(?:#|//|<-|←).*)?$")
# Decoration around a name: Markdown emphasis, backticks, an icon.
DECORATION = re.compile(r"^(?:\*\*|[^\w.@~\-*])+|(?:`|\*\*)+$")
NAME_CHAR = re.compile(r"[A-Za-z0-9]")
PLACEHOLDER_CHARS = re.compile(r"[<>{}\[\]*$…?|%]|\.\.\.|^\.{1,2}$|^-+$")
# An entry the document marks as not (yet) committed: made by a run or a build,
# planned, optional, ignored, the user's own, or an example.
NOT_COMMITTED = LazyPattern(
    r"\b(?:generated|auto[- ]?generated|gitignored|git[- ]?ignored|ignored|not (?:yet )?"
    r"(?:committed|tracked|checked in|in git|in (?:the )?repo)|created|creates?|"
    r"run[- ]?time|runtime|todo|planned|future|coming soon|optional|if (?:any|present|"
    r"needed|exists?)|(?:will|to) be|new\b|output|build output|built|compiled|downloaded|"
    r"cache[sd]?|local(?:ly)?|symlink|copied|your|user'?s?|example|e\.g\.|sample|"
    r"placeholder|deprecated|removed|legacy|old|moved|after (?:running|build|install)|"
    r"submodule|(?:each|per|every) run|working dir\w*|scratch|clean(?:ed)?|temp\w*|"
    r"database|\w+\.db\b)",
    re.IGNORECASE,
)
# A paragraph or heading that introduces the tree as what a command makes, what a
# project of the reader's looks like, a proposal or an example.
NOT_THIS_TREE = LazyPattern(
    r"\b(?:generat\w*|creat\w*|scaffold\w*|will (?:look|be|contain|have|create)|"
    r"should (?:look|be|contain|have)|examples?|e\.g\.|for instance|your (?:project|app|"
    r"repo\w*|workspace|folder|directory|skill|plugin)|output|after (?:running|install\w*)|"
    r"propos\w*|planned|target|future|recommend\w*|suggest\w*|typical|initiali[sz]\w*|"
    r"install(?:ed|s)? (?:in|into|to)|template|sample|like this|new project|migrat\w*|"
    r"before|after|old|legacy|previous\w*|would)",
    re.IGNORECASE,
)
# A root that names a generic project, not this repository, when no folder has its name.
GENERIC_ROOTS = frozenset(
    {
        "project",
        "projects",
        "app",
        "myapp",
        "my_app",
        "my_project",
        "myproject",
        "workspace",
        "root",
        "repo",
        "repository",
        "example",
        "demo",
        "sample",
        "your_project",
        "my-project",
        "project-root",
        "project_root",
        "home",
        "~",
    }
)
# Never committed, whatever .gitignore says: installs, caches, a machine's settings.
NEVER_COMMITTED = frozenset(
    {
        "node_modules",
        ".venv",
        "venv",
        "env",
        "__pycache__",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
        ".git",
        ".idea",
        ".vscode",
        ".DS_Store",
        "target",
        "dist",
        "build",
        "out",
        ".next",
        ".turbo",
        ".cache",
        "coverage",
        ".coverage",
        "logs",
        "tmp",
        ".tox",
        "site-packages",
    }
)
HINT_CLOSE = 0.6  # how alike an offered name must be to the entry's
# Names any project may hold: that they exist says nothing of whether the tree is this
# repository's (a reader's new project also has `README.md`, `src/` and `.gitignore`).
COMMON_NAMES = frozenset(
    """
    readme.md readme readme.rst license license.md license.txt changelog.md contributing.md
    .gitignore .env.example .editorconfig .dockerignore .github .vscode .claude claude.md
    agents.md pyproject.toml setup.py setup.cfg requirements.txt requirements-dev.txt
    uv.lock poetry.lock package.json package-lock.json pnpm-lock.yaml yarn.lock
    tsconfig.json cargo.toml cargo.lock go.mod go.sum makefile dockerfile
    docker-compose.yml docker-compose.yaml src lib app apps bin cmd pkg internal tests test
    docs doc examples scripts config configs public assets static utils components pages
    types index.ts index.js main.py main.ts main.go __init__.py app.py mkdocs.yml
    """.split()
)
MIN_RESOLVED = 3
MIN_SHARE = 2 / 3
NEAR_LINES = 3  # lines above a fence that may introduce it
# What no repository's tree holds (#28): an entry deeper than MAX_DEPTH folders, a name
# longer than a file name may be (NAME_MAX), or a path longer than the kernel takes
# (PATH_MAX) is not read, nor is anything below it. Each entry's cost (its path, the
# .gitignore files above it) is so bounded, whatever the names above it hold: a tree
# nesting 400 folders deep took 80 s (every ancestor's .gitignore read by a realpath
# of each), long names on every level made each short line a path of kilobytes.
MAX_DEPTH = 64
MAX_NAME = 255
MAX_PATH = 4096
SHOWN_PATH = 200  # the characters of a long path a message shows (its head and tail)


@dataclass
class Entry:
    line: int  # 1-based line of the file
    start: int  # offset of the name in the file
    name: str  # as written (`src/`, `a/b.py`); "\0": unreadable, and so is all below
    parent: Entry | None  # the folder entry above it
    column: int  # where its branch starts: its depth
    checkable: bool  # a real name, not a placeholder or marked as not committed
    depth: int = 1  # entries from the tree's root down to this one
    length: int = 0  # len(self.path), known without building it

    @property
    def path(self) -> str:
        """The path relative to the tree's root, built when asked (not kept: below
        names of kilobytes, a short line's path is long)."""
        if self.name == "\0":
            return "\0"  # (every entry below an unreadable one is named so too)
        names = [self.name]
        above = self.parent
        while above is not None:
            names.append(above.name.rstrip("/"))
            above = above.parent
        return "/".join(reversed(names))


class StaleTreeEntry(Rule):
    code = "GL504"
    name = "stale-tree-entry"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    scope = "fenced"

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        if file.kind != FileKind.MARKDOWN or ("```" not in file.text and "~~~" not in file.text):
            return False
        return not project.globs(project.config.paths.not_this_tree).matches(file.rel)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        if not _may_draw_tree(file.text) or template_root(file.rel) is not None:
            return
        reading = reading_of(file, project)
        if reading.skip:
            return  # a fixture, or a plan, spec or report: what was or will be, not what is
        severity = Severity.WARNING if reading.note else None
        doc_dir = posixpath.dirname(file.rel)
        reported: set[tuple[int, str]] = set()
        for fence in file.markdown.fences:
            for entry, full in _stale_entries(fence, file, doc_dir, project):
                key = (entry.line, full)
                if key in reported:
                    continue
                reported.add(key)
                shown = full + ("/" if entry.name.endswith("/") else "")
                name = _name(entry.name)
                yield self.finding(
                    file,
                    Span(entry.start, entry.start + len(name)),
                    f"`{_cut(shown)}` in this file tree does not exist in this repository"
                    f"{_hint(shown, project)}{reading.note}",
                    severity=severity,
                )


def _cut(path: str) -> str:
    """The path as a message shows it: a long one's head and tail, not the kilobytes."""
    if len(path) <= SHOWN_PATH:
        return path
    return f"{path[: SHOWN_PATH // 4]}...{path[-(SHOWN_PATH * 3 // 4) :]}"


def _hint(shown: str, project: Project) -> str:
    """GL501's did-you-mean, kept only when the name it offers is close to the entry's:
    a long shared folder makes `nodes/` look like its sibling `base.py`. None for a
    path over a file name's length: difflib compares paths in quadratic time."""
    import difflib

    if len(shown) > MAX_NAME:
        return ""
    hint = did_you_mean(shown, project)
    offered = re.search(r"`([^`]+)`", hint)
    if offered is None:
        return ""
    name = posixpath.basename(shown.rstrip("/"))
    other = posixpath.basename(offered.group(1).rstrip("/"))
    close = difflib.SequenceMatcher(None, name, other).ratio() >= HINT_CLOSE
    return hint if close else ""


def _may_draw_tree(text: str) -> bool:
    return any(mark in text for mark in ("├", "└", "|--", "+--", "`--"))


def _stale_entries(
    fence: Fence, file: SourceFile, doc_dir: str, project: Project
) -> Iterator[tuple[Entry, str]]:
    """The entries of the tree a fence draws that do not exist, with their full paths,
    when the tree describes this repository."""
    if not _may_draw_tree(fence.content) or _introduced_as_other(fence, file):
        return
    for root, entries in _trees(fence, file):
        if root is not None and _generic_root(root, project):
            continue
        base, missing = _best_base(root, entries, doc_dir, project)
        if base is not None:
            yield from missing


def _introduced_as_other(fence: Fence, file: SourceFile) -> bool:
    """The fence's heading or the lines just above it say the tree is one a command
    makes, the reader's own project, a proposal or an example."""
    if NOT_THIS_TREE.search(fence.section or ""):
        return True
    above = [file.lines.line_text(n) for n in range(max(1, fence.line - NEAR_LINES), fence.line)]
    return any(NOT_THIS_TREE.search(line) for line in above) or bool(
        NOT_THIS_TREE.search(fence.info)
    )


def _trees(fence: Fence, file: SourceFile) -> Iterator[tuple[str | None, list[Entry]]]:
    """Each tree of a fence: its root line's name (None: the fence opens with branches)
    and its entries, read into paths by the column of their branch."""
    count = fence.content.count("\n") + (0 if fence.content.endswith("\n") else 1)
    root: str | None = None
    entries: list[Entry] = []
    stack: list[Entry] = []  # the open folders above the line being read
    for number in range(fence.content_line, fence.content_line + count):
        text = file.lines.line_text(number)
        match = BRANCH.match(text)
        if match is None:
            if not text.strip() or text[:1] in " \t│|":
                continue  # a spacer, a wrapped comment, a `│   ...` line: inside the tree
            if entries or root is not None:
                yield root, entries
            root_match = ROOT_LINE.match(text)
            root, entries, stack = (root_match.group(1) if root_match else None), [], []
            continue
        column = len(match.group(1).expandtabs(4))
        while stack and stack[-1].column >= column:
            stack.pop()
        parent = stack[-1] if stack else None
        entry = _entry(match.group(2), number, file, match.start(2), column, parent)
        if entry is None:
            entry = Entry(number, 0, "\0", parent, column, False)  # unreadable: so are its children
        entries.append(entry)
        stack.append(entry)
    if entries:
        yield root, entries


def _entry(
    rest: str, number: int, file: SourceFile, at: int, column: int, parent: Entry | None
) -> Entry | None:
    """The entry a branch names, or None when its name cannot be read."""
    cut = COMMENT.search(rest)
    raw, comment = (rest[: cut.start()], rest[cut.start() :]) if cut else (rest, "")
    name = DECORATION.sub("", raw.strip())
    if not name or " " in name:
        return None
    lead = raw.find(name)
    start = file.lines.offset(number) + at + max(lead, 0)
    depth = parent.depth + 1 if parent else 1
    length = parent.length + 1 + len(name) if parent else len(name)
    if depth > MAX_DEPTH or length > MAX_PATH or len(name) > MAX_NAME:
        return None  # no repository holds it (MAX_DEPTH above), nor anything below it
    parent_ok = parent is None or (parent.checkable and parent.name != "\0")
    segments = [s for s in name.split("/") if s]
    checkable = (
        parent_ok
        and bool(segments)
        and bool(NAME_CHAR.search(name))
        and not PLACEHOLDER_CHARS.search(name)
        and not name.startswith(("/", "~"))
        and not is_placeholder(segments)
        and not NOT_COMMITTED.search(comment)
        and not any(s in NEVER_COMMITTED for s in segments)
        and not env_file(name)
    )
    if parent and not parent_ok:
        name = "\0"
    return Entry(number, start, name, parent, column, checkable, depth, length)


def _name(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def _generic_root(root: str, project: Project) -> bool:
    """A root line standing for any project (`my-app/`, `plugin-<name>/`, `project/`)
    that no folder of this repository is named."""
    segments = [s for s in root.split("/") if s]
    if not root.strip("./"):
        return False  # `.`, `./`: the folder the tree is about, this one
    if TREE_ROOT.match(root) or PLACEHOLDER_CHARS.search(root) or is_placeholder(segments):
        return True
    name = root.strip("/").lower()
    return name in GENERIC_ROOTS and not project.exists(root.strip("/"))


def _best_base(
    root: str | None, entries: list[Entry], doc_dir: str, project: Project
) -> tuple[str | None, list[tuple[Entry, str]]]:
    """The folder the tree's root stands for (the one where most entries exist), and
    the missing entries, when enough of them exist there; else (None, [])."""
    candidates = [""]
    if doc_dir:
        candidates.append(doc_dir)
    named = (root or "").strip("/")
    if named not in ("", ".", ".."):
        for folder in ("", doc_dir):
            candidate = join_rel(folder, named)
            if project.exists(candidate) and candidate not in candidates:
                candidates.insert(0, candidate)
    checked = [e for e in entries if e.checkable]
    if len(checked) < MIN_RESOLVED:
        return None, []
    best: tuple[int, str, list[tuple[Entry, str]]] | None = None
    for base in candidates:
        resolved, missing = _resolve(checked, base, project)
        if best is None or resolved > best[0]:
            best = (resolved, base, missing)
    assert best is not None
    resolved, base, missing = best
    if resolved < MIN_RESOLVED or resolved < MIN_SHARE * (resolved + len(missing)) - 1e-9:
        return None, []
    return base, _committed(missing, project)


def _resolve(
    checked: list[Entry], base: str, project: Project
) -> tuple[int, list[tuple[Entry, str]]]:
    """How many entries exist below `base` (those with a name any project may hold do
    not count), and the missing ones not below a missing one."""
    resolved = 0
    missing: list[tuple[Entry, str]] = []
    last_missing = "\0"
    for entry in checked:
        full = join_rel(base, entry.path.rstrip("/"))
        if full.startswith(last_missing + "/"):
            continue  # below a folder already missing (its lines follow it): absence follows
        if project.exists(full):
            resolved += _name(entry.name).lower() not in COMMON_NAMES
        else:
            missing.append((entry, full))
            last_missing = full
    return resolved, missing


def _committed(missing: list[tuple[Entry, str]], project: Project) -> list[tuple[Entry, str]]:
    """The missing entries that would be committed: not ignored, not in a submodule."""
    ignored = project.memo(IGNORED)
    modules = project.memo(SUBMODULES)
    nearer: dict[str, tuple[tuple[str, Globs], ...]] = {}  # a folder's .gitignore files
    return [
        (entry, full)
        for entry, full in missing
        if not ignored(full)
        and not _in_module(full, modules)
        and not _in_gitlink(full, project)
        and not _ignored_nearer(full, project, nearer)
    ]


def _in_module(full: str, modules: frozenset[str]) -> bool:
    """`full` is a submodule's folder or lies below one: asked of its own folders (a
    few), not of every folder .gitmodules declares (a pull request may declare many)."""
    end = len(full) if modules else 0
    while end > 0:
        if full[:end] in modules:
            return True
        end = full.rfind("/", 0, end)
    return False


def _in_gitlink(full: str, project: Project) -> bool:
    """The entry's folder is a file in the listing: a submodule's gitlink, whose files
    are another repository's."""
    parent = posixpath.dirname(full)
    if not parent or not project.exists(parent):
        return False
    return not os.path.isdir(os.path.join(project.root, parent))


def _ignored_nearer(
    full: str, project: Project, nearer: dict[str, tuple[tuple[str, Globs], ...]]
) -> bool:
    """A `.gitignore` in a folder above the entry (not the root's: IGNORED reads that)
    ignores it: `evals/.gitignore` keeping `baselines/` out of git."""
    for folder, globs in _gitignores_above(posixpath.dirname(full), project, nearer):
        rel = full[len(folder) + 1 :]
        if globs.matches(rel) or globs.matches(rel + "/"):
            return True
    return False


def _gitignores_above(
    folder: str, project: Project, known: dict[str, tuple[tuple[str, Globs], ...]]
) -> tuple[tuple[str, Globs], ...]:
    """(folder, its globs) of each `.gitignore` in `folder` and the folders above it,
    the root's left out, each folder looked up once per tree (`known`): entries in one
    folder share the answer (#28: each missing entry read every folder's `.gitignore`
    above it again, through a realpath of each, 80 s for a tree 400 folders deep)."""
    chain: list[str] = []  # the folders not yet known, deepest first
    while folder and folder not in known:
        chain.append(folder)
        folder = posixpath.dirname(folder)
    found = known.get(folder, ()) if folder else ()
    for below in reversed(chain):
        name = f"{below}/.gitignore"
        source = project.read(name) if project.exists(name) else None
        if source is not None and source.text.strip():
            found = ((below, project.file_globs(source.text)), *found)
        known[below] = found
    return found  # (the deepest folder's, the last one filled in)


def _submodules(project: Project) -> frozenset[str]:
    """The folders .gitmodules declares: their files are another repository's."""
    source = project.read(".gitmodules")
    if source is None:
        return frozenset()
    return frozenset(
        m.group(1).strip().strip("/")
        for m in re.finditer(r"^\s*path\s*=\s*(.+)$", source.text, re.MULTILINE)
    )


SUBMODULES = Memo("GL504.submodules", _submodules)
