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
looked up; nor is a page an MkDocs build writes (its URL linked from the repository,
a `nav` entry, a `not_in_nav` folder with no file here). Only the files
`[tool.guidelint.paths] links` names are followed (steering files and guides by
default: a site generator's content tree resolves links its own way).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from urllib.parse import unquote

from guidelint.doc_kind import reading_of, template_root
from guidelint.fences import exposed, in_regions
from guidelint.findings import Finding, Severity
from guidelint.markdown import may_hold_links
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.rules.broken_link.anchors import generated_anchor, has_anchor, templated
from guidelint.rules.broken_link.built_pages import git_ignored, published_page
from guidelint.rules.broken_link.names import (
    myst_label,
    slug_placeholder,
    symbol_reference,
    template_placeholder,
)
from guidelint.rules.broken_link.steering import imports, is_steering_file, linked_folders
from guidelint.rules.broken_link.targets import (
    MARKDOWN_TARGET,
    bases_of,
    exists,
    found_file,
    in_submodule,
    join_rel,
)
from guidelint.rules.broken_link.translations import parallel_page, translation_fallback
from guidelint.rules.broken_link.typedoc import typedoc_page
from guidelint.sources import FileKind, SourceFile

SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
TEMPLATE = re.compile(r"[{}]|%7B|\$\(", re.IGNORECASE)  # {{ x }}, {name}, f-strings


class BrokenLink(Rule):
    code = "GL502"
    name = "broken-link"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        if file.kind != FileKind.MARKDOWN:
            return False
        links = project.globs(project.config.paths.links)
        if links.matches(file.rel):
            return True
        # A folder that `.claude/skills` (say) links to is Claude Code's too.
        if any(file.rel.startswith(f"{folder}/") for folder in linked_folders(project)):
            return True
        # A template tree's files are judged as where they land: `templates/app/CLAUDE.md`
        # and `templates/app/.claude/x.md` are steering files of the projects made from it.
        root = template_root(file.rel, project)
        inside = file.rel[len(root) + 1 :] if root else ""
        return bool(inside) and links.matches(inside)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        if not may_hold_links(file.text) and "@" not in file.text:
            return  # no link and no @import: the document need not be parsed
        reading = reading_of(file, project)
        if reading.skip:
            return  # a fixture, or a plan, spec or report: its links may be to what was
        severity = Severity.WARNING if reading.note else None
        doc = file.markdown
        folder = posixpath.dirname(file.rel)
        # A gotchas file's own `(#anchor)` links are its LESSONS index: GL203's to judge.
        index_owned = _is_gotchas_file(file, project)
        for link in doc.links:
            if index_owned and link.href.startswith("#"):
                continue
            problem = self._link_problem(link.href, folder, file, project)
            if problem and in_regions(link.span.start, exposed(file)):
                continue  # an example a broken fence left as prose: GL503 reports the fence
            if problem:
                yield self.finding(file, link.span, problem + reading.note, severity=severity)
        if is_steering_file(file.rel):
            for span, target in imports(file, doc):
                if not exists(project, join_rel(folder, target)):
                    message = f"`@{target}` imports a file that does not exist{reading.note}"
                    yield self.finding(file, span, message, severity=severity)

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
            if fragment and not templated(file) and not has_anchor(file, fragment):
                if not generated_anchor(file, fragment, project):
                    return f"`#{fragment}` is no heading or anchor of this document"
            return None
        bases = bases_of(file.rel, folder, path)
        root = template_root(file.rel, project)
        if root is not None:  # the project made from the template is its root, not ours
            bases = [root if base == "" else base for base in bases]
        targets = [join_rel(base, path) for base in bases]
        if root is not None:  # a target outside the template is outside that project
            targets = [t if t.startswith(root + "/") else "../" for t in targets]
        inside = [t for t in targets if not (t == ".." or t.startswith("../"))]
        if not inside or any(in_submodule(project, t) for t in inside):
            return None  # outside the repository, or in a checkout of another one
        found = next((f for t in inside if (f := found_file(project, t)) is not None), None)
        if found is None:
            found = translation_fallback(file.rel, inside, project)
        if found is None:
            if symbol_reference(path, project) or any(git_ignored(project, t) for t in inside):
                return None
            if slug_placeholder(path, bases, project) and not parallel_page(path, folder, project):
                return None
            if myst_label(path, project):
                return None
            if template_placeholder(file.rel, path):
                return None  # `related1.md` in a page template: a page to write from it
            if any(published_page(t, project) for t in inside):
                return None  # the docs build writes it: the site serves it at its URL
            if any(typedoc_page(t, project) for t in inside):
                return None  # a page of the API reference TypeDoc generates
            return f"`{href}` links to a file that does not exist"
        if fragment and MARKDOWN_TARGET.search(found):
            other = project.read(found)
            if other is not None and other.kind == FileKind.MARKDOWN:
                if not has_anchor(other, fragment):
                    if not generated_anchor(other, fragment, project):
                        return f"`{href}`: `{found}` has no heading or anchor `#{fragment}`"
        return None


def _is_gotchas_file(file: SourceFile, project: Project) -> bool:
    return project.globs(project.config.gotchas.files).matches(file.rel)
