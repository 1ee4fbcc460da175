"""GL502 broken-link: a relative Markdown link or an `@import` whose target is missing.

What counts (also in rules/GL502.md): a link `[text](target)` whose target has no
URL scheme and is not site-absolute (`/docs/...` is a web site's URL, not a path in
this repository), taken relative to the document; its `#fragment`, when the target
is a Markdown file of this repository (or the document itself), must be one of its
anchors (GitHub's heading ids, `{#id}`, HTML `id`/`name`). Site generators' pretty
URLs count as found: `../install/` for `install.md`, `setup` for `setup.md`.
In steering files (CLAUDE.md, CLAUDE.local.md, AGENTS.md, `.claude/**`), an
`@path/to/file` outside code is Claude Code's import: the file must exist.
A target that would leave the repository, or lies in a git submodule, is never
looked up. Only the files `[tool.guidelint.paths] links` names are followed
(steering files and guides by default: a site generator's content tree resolves
links its own way).
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Iterator
from urllib.parse import unquote

from guidelint.findings import Finding, Severity
from guidelint.markdown import MarkdownDocument, may_hold_links
from guidelint.project import Memo, Project
from guidelint.rule import Rule
from guidelint.sources import Derived, FileKind, SourceFile
from guidelint.spans import Span

SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
MARKDOWN_TARGET = re.compile(r"\.(md|markdown|mdx)$", re.IGNORECASE)
# Claude Code's memory import: `@docs/setup.md`, `@./notes.md`, `@AGENTS.md`; not an
# e-mail address, a @mention or an npm scope (a file has an extension, or `./`).
# The `@` first and the look back after it: the scanner then jumps from `@` to `@`.
IMPORT = re.compile(r"@(?<![\w@/`.]@)((?:\.{1,2}/)?[\w\-]+(?:[./][\w\-]+)*)")
SUBMODULE_PATH = re.compile(r"^\s*path\s*=\s*(.+)$", re.MULTILINE)
TEMPLATE = re.compile(r"[{}]|%7B|\$\(", re.IGNORECASE)  # {{ x }}, {name}, f-strings
STEERING_NAMES = ("CLAUDE.md", "CLAUDE.local.md", "AGENTS.md")


def is_steering_file(rel: str) -> bool:
    return posixpath.basename(rel) in STEERING_NAMES or rel.startswith(".claude/")


class BrokenLink(Rule):
    code = "GL502"
    name = "broken-link"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        if file.kind != FileKind.MARKDOWN:
            return False
        return project.globs(project.config.paths.links).matches(file.rel)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        if not may_hold_links(file.text) and "@" not in file.text:
            return  # no link and no @import: the document need not be parsed
        doc = file.markdown
        folder = posixpath.dirname(file.rel)
        # A gotchas file's own `(#anchor)` links are its LESSONS index: GL203's to judge.
        index_owned = _is_gotchas_file(file, project)
        for link in doc.links:
            if index_owned and link.href.startswith("#"):
                continue
            problem = self._link_problem(link.href, folder, file, project)
            if problem:
                yield self.finding(file, link.span, problem)
        if is_steering_file(file.rel):
            for span, target in _imports(file, doc):
                if not _exists(project, _join(folder, target)):
                    yield self.finding(
                        file, span, f"`@{target}` imports a file that does not exist"
                    )

    def _link_problem(
        self, href: str, folder: str, file: SourceFile, project: Project
    ) -> str | None:
        href = href.strip()
        if not href or SCHEME.match(href) or href.startswith(("/", "//", "<")):
            return None  # a URL, or a site-absolute path: not a file of this repository
        path, _, fragment = href.partition("#")
        path = unquote(path.partition("?")[0])
        if TEMPLATE.search(path) or TEMPLATE.search(fragment):
            return None  # filled in by a site generator
        if not path:
            if fragment and not _templated(file) and fragment not in file.derived(ANCHORS):
                return f"`#{fragment}` is no heading or anchor of this document"
            return None
        targets = [_join(base, path) for base in _bases(file.rel, folder, path)]
        inside = [t for t in targets if not (t == ".." or t.startswith("../"))]
        if not inside or any(_in_submodule(project, t) for t in inside):
            return None  # outside the repository, or in a checkout of another one
        found = next((f for t in inside if (f := _found(project, t)) is not None), None)
        if found is None:
            if _slug_placeholder(path, _bases(file.rel, folder, path), project):
                return None
            return f"`{href}` links to a file that does not exist"
        if fragment and MARKDOWN_TARGET.search(found):
            other = project.read(found)
            if other is not None and other.kind == FileKind.MARKDOWN:
                if fragment not in other.derived(ANCHORS):
                    return f"`{href}`: `{found}` has no heading or anchor `#{fragment}`"
        return None


def _slug_placeholder(path: str, bases: list[str], project: Project) -> bool:
    """`[runbook](internal-wiki/deployment-runbook)` in a template: a wiki slug of the
    reader's own (no extension, several segments, a first folder this repository has
    under none of the link's bases), not a file of this one."""
    if path.startswith(("./", "../")) or path.endswith("/") or "/" not in path:
        return False
    if "." in posixpath.basename(path):
        return False
    first = path.split("/", 1)[0]
    return not any(project.exists(_join(base, first)) for base in bases)


def _bases(rel: str, folder: str, path: str) -> list[str]:
    """Where a relative link may start: the document's folder (GitHub); for a page
    that is not an index, its own URL folder (`java/sdk.md` is served as
    `java/sdk/`, so Hugo's and MkDocs' `../api/` from it means `java/api`); and the
    repository root, where an agent reading `docs/x.md` starts (not for `./` or
    `../` links, which say where they start)."""
    stem = posixpath.splitext(posixpath.basename(rel))[0]
    pages = [] if stem.lower() in ("index", "_index", "readme") else [_join(folder, stem)]
    # Agents read `docs/x.md` from the repository root; `./x` and `../x` say otherwise.
    root = [] if path.startswith(("./", "../")) else [""]
    return [folder, *pages, *root]


def _is_gotchas_file(file: SourceFile, project: Project) -> bool:
    return project.globs(project.config.gotchas.files).matches(file.rel)


def _in_submodule(project: Project, target: str) -> bool:
    """Submodules (`.gitmodules`) are other repositories, often not checked out in CI."""
    paths = project.memo(SUBMODULES)
    return any(target == p or target.startswith(p + "/") for p in paths)


def _submodule_paths(project: Project) -> list[str]:
    modules = project.read(".gitmodules")
    if modules is None:
        return []
    return [m.group(1).strip().rstrip("/") for m in SUBMODULE_PATH.finditer(modules.text)]


SUBMODULES = Memo("GL502.submodules", _submodule_paths)


def _templated(file: SourceFile) -> bool:
    """Headings a site generator's shortcodes may add: anchors cannot be known."""
    return file.derived(TEMPLATED)


# Once per file, not per link: both read the whole text (a paragraph of 10k links).
ANCHORS = Derived("GL502.anchors", lambda file: file.markdown.anchors())
TEMPLATED = Derived("GL502.templated", lambda file: "{{<" in file.text or "{{%" in file.text)


def _join(folder: str, path: str) -> str:
    return posixpath.normpath(posixpath.join(folder, path)) if folder else posixpath.normpath(path)


def _exists(project: Project, target: str) -> bool:
    return not target.startswith("../") and project.exists(target)


def _found(project: Project, target: str) -> str | None:
    """The file a link reaches: itself, or a site generator's page for it."""
    candidates = [target]
    if not MARKDOWN_TARGET.search(target):  # `setup` or `../install/` for a page
        bare = target.rstrip("/")
        candidates += [f"{bare}.md", f"{bare}/index.md", f"{bare}/_index.md", f"{bare}/README.md"]
    return next((c for c in candidates if project.exists(c)), None)


def _imports(file: SourceFile, doc: MarkdownDocument) -> Iterator[tuple[Span, str]]:
    """`@path` imports outside code spans and fences, with their spans."""
    code = sorted((c.span.start, c.span.end) for c in doc.code_spans)
    code += sorted((f.span.start, f.span.end) for f in doc.fences)
    code.sort()
    starts = [start for start, _ in code]
    for match in IMPORT.finditer(file.text):
        target = match.group(1).rstrip(".")
        if not target.startswith(".") and "." not in posixpath.basename(target):
            continue  # @someone or an npm scope (@scope/pkg), not a file
        index = bisect.bisect_right(starts, match.start()) - 1
        if index >= 0 and code[index][0] <= match.start() < code[index][1]:
            continue  # inside code: Claude Code does not import there
        yield Span(match.start(), match.start() + 1 + len(target)), target
