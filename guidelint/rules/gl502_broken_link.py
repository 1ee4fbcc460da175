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

import bisect
import functools
import os
import posixpath
import re
from collections.abc import Callable, Iterator
from urllib.parse import unquote

from guidelint.doc_kind import reading_of, template_root
from guidelint.fences import exposed, in_regions
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
# The files a site generator serves at a page URL (`../admin/overview`): Hugo, MkDocs,
# Docusaurus and Mintlify (`.mdx`), and GitHub's folder README.
PAGE_FILES = (".md", ".mdx", "/index.md", "/index.mdx", "/_index.md", "/README.md")
# A MyST target, `(unknowns)=` on its own line before a heading: Sphinx resolves
# `[text](unknowns)` to it from any page.
MYST_LABEL = re.compile(r"^\(([\w.:-]+)\)=[ \t]*$", re.MULTILINE)


def linked_folders(project: Project) -> frozenset[str]:
    """Folders of the repository that an entry of `.claude/` links to (`.claude/skills ->
    ../skills`): a symlink, or the small file holding its target that git writes where
    it makes no symlinks. Their files steer Claude Code as much as `.claude/**` does."""
    return project.memo("GL502.linked_folders", lambda: _linked_folders(project))


def _linked_folders(project: Project) -> frozenset[str]:
    claude = project.root / ".claude"
    if not claude.is_dir():
        return frozenset()
    found = set()
    for entry in os.scandir(claude):
        target = _link_target(entry)
        if target is None:
            continue
        project.exists(f".claude/{entry.name}")  # the result cache then knows the link counts
        folder = posixpath.normpath(posixpath.join(".claude", target))
        path = project.root / folder
        if not folder.startswith("../") and folder != ".." and path.is_dir():
            if project.contains(path) and not folder.startswith(".claude"):
                found.add(folder)
    return frozenset(found)


def _link_target(entry: os.DirEntry[str]) -> str | None:
    try:
        if entry.is_symlink():
            return os.readlink(entry.path).replace(os.sep, "/")
        if entry.is_file(follow_symlinks=False) and entry.stat().st_size <= 256:
            with open(entry.path, encoding="utf-8") as handle:
                text = handle.read()
            if "\n" not in text and text.strip() == text and "/" in text:
                return text
    except (OSError, UnicodeDecodeError):
        return None
    return None


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
        links = project.globs(project.config.paths.links)
        if links.matches(file.rel):
            return True
        # A folder that `.claude/skills` (say) links to is Claude Code's too.
        if any(file.rel.startswith(f"{folder}/") for folder in linked_folders(project)):
            return True
        # A template tree's files are judged as where they land: `templates/app/CLAUDE.md`
        # and `templates/app/.claude/x.md` are steering files of the projects made from it.
        root = template_root(file.rel)
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
            for span, target in _imports(file, doc):
                if not _exists(project, _join(folder, target)):
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
            if fragment and not _templated(file) and not _has_anchor(file, fragment):
                if not _generated_anchor(file, fragment, project):
                    return f"`#{fragment}` is no heading or anchor of this document"
            return None
        bases = _bases(file.rel, folder, path)
        root = template_root(file.rel)
        if root is not None:  # the project made from the template is its root, not ours
            bases = [root if base == "" else base for base in bases]
        targets = [_join(base, path) for base in bases]
        if root is not None:  # a target outside the template is outside that project
            targets = [t if t.startswith(root + "/") else "../" for t in targets]
        inside = [t for t in targets if not (t == ".." or t.startswith("../"))]
        if not inside or any(_in_submodule(project, t) for t in inside):
            return None  # outside the repository, or in a checkout of another one
        found = next((f for t in inside if (f := _found(project, t)) is not None), None)
        if found is None:
            found = _translation_fallback(file.rel, inside, project)
        if found is None:
            if _symbol_reference(path, project) or any(_git_ignored(project, t) for t in inside):
                return None
            if _slug_placeholder(path, bases, project) and not _parallel_page(
                path, folder, project
            ):
                return None
            if _myst_label(path, project):
                return None
            if any(_published_page(t, project) for t in inside):
                return None  # the docs build writes it: the site serves it at its URL
            if any(_typedoc_page(t, project) for t in inside):
                return None  # a page of the API reference TypeDoc generates
            return f"`{href}` links to a file that does not exist"
        if fragment and MARKDOWN_TARGET.search(found):
            other = project.read(found)
            if other is not None and other.kind == FileKind.MARKDOWN:
                if not _has_anchor(other, fragment):
                    if not _generated_anchor(other, fragment, project):
                        return f"`{href}`: `{found}` has no heading or anchor `#{fragment}`"
        return None


def _translation_fallback(rel: str, targets: list[str], project: Project) -> str | None:
    """A page missing in a translated page's language that MkDocs' i18n plugin serves
    from the default language (`docs/ja/x.md` linking `ref/y.md`: `docs/ref/y.md`)."""
    if not any(MARKDOWN_TARGET.search(t) for t in targets):
        return None
    from guidelint.mkdocs_i18n import fallback_page

    return fallback_page(rel, targets, project)


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


def _parallel_page(path: str, folder: str, project: Project) -> bool:
    """`tutorials/tools` in `docs/es/index.md` where `docs/en/tutorials/tools.md` exists:
    a page of a parallel tree (another language's, another version's) beside the
    document's folder, so the link names a page of these docs that this tree lacks,
    not a slug of the reader's wiki."""
    parent = posixpath.dirname(folder)
    if not folder or not path.strip("/"):
        return False
    stem = posixpath.normpath(path.rstrip("/"))
    pages = project.memo(PARALLEL_PAGES)
    return (parent, stem) in pages or (parent, f"{stem}/index") in pages


def _parallel_pages(project: Project) -> frozenset[tuple[str, str]]:
    """Every Markdown page as (a folder, the page's path below one child of that
    folder, without its extension): `docs/en/tutorials/tools.md` gives
    ("docs", "tutorials/tools") and ("", "en/tutorials/tools"), among others."""
    found: set[tuple[str, str]] = set()
    for rel in project.files():
        if not MARKDOWN_TARGET.search(rel):
            continue
        parts = posixpath.splitext(rel)[0].split("/")
        for at in range(len(parts) - 1):
            found.add(("/".join(parts[:at]), "/".join(parts[at + 1 :])))
    return frozenset(found)


def _generated_anchor(file: SourceFile, fragment: str, project: Project) -> bool:
    """An anchor the docs build makes that no heading shows: an API object's id from
    a doc-builder `[[autodoc]] X` directive, or a heading's id as MkDocs slugs it."""
    return _autodoc_anchor(file, fragment) or _mkdocs_anchor(file, fragment, project)


AUTODOC = re.compile(r"^\[\[autodoc\]\][ \t]+([\w.]+)", re.MULTILINE)


def _autodoc_names(file: SourceFile) -> frozenset[str]:
    if "[[autodoc]]" not in file.text:
        return frozenset()
    return frozenset(AUTODOC.findall(file.text))


def _autodoc_anchor(file: SourceFile, fragment: str) -> bool:
    """Hugging Face doc-builder turns `[[autodoc]] CodeAgent` into the API entry
    `#smolagents.CodeAgent` and one per member (`#smolagents.Tool.from_space`): a
    dotted fragment holding a documented name's segments in a row, followed by at
    most one member name, is one of the page's anchors."""
    names = file.derived(AUTODOC_NAMES)
    if not names:
        return False
    segments = unquote(fragment).split(".")
    for name in names:
        wanted = name.split(".")
        for at in range(len(segments) - len(wanted) + 1):
            tail = len(segments) - at - len(wanted)
            if segments[at : at + len(wanted)] == wanted and tail <= 1:
                return True
    return False


MKDOCS_CONFIGS = ("mkdocs.yml", "mkdocs.yaml")
HYPHEN_RUN = re.compile(r"-{2,}")


def _mkdocs_anchor(file: SourceFile, fragment: str, project: Project) -> bool:
    """In a MkDocs project, a heading's id is Python-Markdown's slug, which makes a
    run of hyphens one (`` `Mcp-Param-*` headers`` gives `mcp-param-headers`, GitHub
    `mcp-param--headers`)."""
    if not any(project.exists(name) for name in MKDOCS_CONFIGS):
        return False
    collapsed = HYPHEN_RUN.sub("-", unquote(fragment).lower()).strip("-")
    anchors = file.derived(ANCHOR_FACTS)[0]
    return any(HYPHEN_RUN.sub("-", anchor).strip("-") == collapsed for anchor in anchors)


def _git_ignored(project: Project, target: str) -> bool:
    """A page a docs build writes (`docs/settings.md`, listed in `docs/.gitignore`): the
    root's or any enclosing folder's .gitignore ignores the target."""
    folder = posixpath.dirname(target)
    while True:
        spec = project.memo(
            f"GL502.gitignore:{folder}", functools.partial(_gitignore, project, folder)
        )
        if spec is not None:
            rel = target[len(folder) + 1 :] if folder else target
            if spec(rel) or spec(rel.rstrip("/") + "/"):
                return True
        if not folder:
            return False
        folder = posixpath.dirname(folder)


def _gitignore(project: Project, folder: str) -> Callable[[str], bool] | None:
    source = project.read(f"{folder}/.gitignore" if folder else ".gitignore")
    if source is None or not source.text.strip():
        return None
    return project.globs(source.text.splitlines()).matches


def _has_anchor(file: SourceFile, fragment: str) -> bool:
    """GitHub's ids, and what docs sites also accept: an id in another case
    (`#initiatePayment` for `initiatepayment`), or one glued to the heading's end
    (`## Node.js#node`, a custom id Payload's and similar sites read), or a MyST
    target `(name)=`. Read from the document once (`ANCHOR_FACTS`), not per link."""
    anchors, myst_labels, glued = file.derived(ANCHOR_FACTS)
    for form in _fragment_forms(fragment):
        if form in anchors or form.lower() in anchors:
            return True
        if form in myst_labels or form in glued:
            return True
    return False


def _fragment_forms(fragment: str) -> tuple[str, ...]:
    """A fragment as written and as decoded: the Markdown parser percent-encodes a
    link's non-ASCII characters (`#工具` arrives as `#%E5%B7%A5%E5%85%B7`), while a
    heading's id keeps its Unicode letters (GitHub's slug), so they compare decoded."""
    decoded = unquote(fragment)
    return (fragment,) if decoded == fragment else (fragment, decoded)


GLUED_MOST = 8  # `#` signs read back from a heading's end (`## a#b#c`: `c`, `b#c`)


def _anchor_facts(file: SourceFile) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """A document's anchors, its MyST targets, and what follows each of the last `#`
    signs of each heading (a link's fragment glued to the heading's end)."""
    doc = file.markdown
    glued: set[str] = set()
    for heading in doc.headings:
        text = heading.text.rstrip()
        at = len(text)
        for _ in range(GLUED_MOST):
            at = text.rfind("#", 0, at)
            if at < 0:
                break
            glued.add(text[at + 1 :])
    return doc.anchors(), frozenset(MYST_LABEL.findall(doc.text)), frozenset(glued)


def _symbol_reference(path: str, project: Project) -> bool:
    """`[Create](pulumirpc.ResourceProvider.Create)`: a dotted name with no folder whose
    suffix is no file type of this repository names an API symbol a docs generator
    (Sphinx, MyST) resolves, not a file."""
    if "/" in path or "." not in path.strip("."):
        return False
    ext = posixpath.splitext(path)[1]
    if ext[1:2].isupper():
        return True  # `.Pack`, `.ResourceProvider`: a type or method, not a file suffix
    return bool(ext) and ext.lower() not in project.extensions() and not ext[1:].isdigit()


def _myst_label(path: str, project: Project) -> bool:
    """`[unknown](unknowns)`: a bare name in a repository whose pages declare MyST
    labels (`(unknowns)=`). Sphinx resolves such a name to a label, some of which its
    build generates (API pages), so it cannot be judged from the files."""
    if "/" in path or "." in path:
        return False
    return bool(project.memo(MYST_LABELS))


def _myst_labels(project: Project) -> frozenset[str]:
    labels: set[str] = set()
    for rel in project.files():
        if rel.endswith(".md"):
            source = project.read(rel)
            if source is not None and ")=" in source.text:
                labels.update(MYST_LABEL.findall(source.text))
    return frozenset(labels)


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
PARALLEL_PAGES = Memo("GL502.parallel_pages", _parallel_pages)

MKDOCS_CONFIG = re.compile(r"^mkdocs(?:[.\w-]*)\.ya?ml$")
TOP_KEY = re.compile(r"^(site_url|docs_dir)\s*:\s*['\"]?([^'\"\s#]+)", re.MULTILINE)
URL_TAIL = re.compile(r"[\w.~%/-]*")
# `not_in_nav: |` and its indented lines (gitignore-style patterns of pages)
NOT_IN_NAV = re.compile(r"^not_in_nav:\s*\|?[^\n]*\n((?:[ \t]+[^\n]*\n?)*)", re.MULTILINE)
# A nav entry: `- page.md` or `- Title: page.md`
NAV_PAGE = re.compile(r"^\s*-\s*(?:[^:\n]+:\s*)?([\w./-]+\.md)\s*$", re.MULTILINE)


def _published_page(target: str, project: Project) -> bool:
    """`docs/settings.md` that the repository lacks but the site it publishes has: an
    MkDocs site (`site_url` and `docs_dir` of a root `mkdocs*.yml`) whose page URL for
    the target (`<site_url>/settings/`) the repository links to elsewhere. A docs build
    that writes pages (a rules reference, a settings table) is known by the URLs the
    project itself sends readers to."""
    site = project.memo(MKDOCS_SITE)
    if site is None:
        return False
    docs_dir, pages = site
    if not target.startswith(docs_dir + "/"):
        return False
    key = _page_key(target[len(docs_dir) + 1 :])
    return key in pages or any(page.endswith("/*") and key.startswith(page[:-1]) for page in pages)


def _page_key(page: str) -> str:
    """`rules/x.md`, `rules/x/`, `rules/x/index.md`, `rules/x.html` -> `rules/x`."""
    page = page.strip("/")
    for suffix in (".md", ".mdx", ".html"):
        page = page.removesuffix(suffix)
    page = page.removesuffix("/index")
    return "" if page == "index" else page


def _mkdocs_site(project: Project) -> tuple[str, frozenset[str]] | None:
    """The docs folder of a root MkDocs configuration with a `site_url`, and the pages
    under that URL that the repository's documents and configuration link to."""
    if not (project.exists("mkdocs.yml") or project.exists("mkdocs.yaml")):
        return None  # no MkDocs site: the file list need not be read
    site_url, docs_dir, configs = "", "docs", []
    for rel in project.files():
        if "/" not in rel and MKDOCS_CONFIG.match(rel):
            source = project.read(rel)
            configs.append(source.text if source else "")
            for key, value in TOP_KEY.findall(configs[-1]):
                site_url = value if key == "site_url" else site_url
                docs_dir = value.strip("/") if key == "docs_dir" else docs_dir
    if not site_url.startswith(("http://", "https://")):
        return None
    pages = _pages_the_build_writes(configs, docs_dir, project)
    prefix = site_url.rstrip("/") + "/"
    for rel in project.files():
        if rel.endswith((".md", ".mdx", ".yml", ".yaml", ".toml", ".json")):
            source = project.read(rel)
            text = source.text if source is not None else ""
            at = text.find(prefix)
            while at != -1:
                tail = URL_TAIL.match(text, at + len(prefix))
                pages.add(_page_key(tail.group(0) if tail else ""))
                at = text.find(prefix, at + len(prefix))
    return docs_dir, frozenset(pages)


def _pages_the_build_writes(configs: list[str], docs_dir: str, project: Project) -> set[str]:
    """Pages the configuration names that the repository lacks: a `nav` entry with no
    file, a `not_in_nav` folder (`/rules/*`) with no file in it. The build writes them
    (`rules/*` as `rules/*`, matched by prefix)."""
    folders = project.memo(FILE_FOLDERS)
    pages: set[str] = set()
    for text in configs:
        for page in NAV_PAGE.findall(text):
            if not project.exists(f"{docs_dir}/{page.lstrip('/')}"):
                pages.add(_page_key(page))
        for block in NOT_IN_NAV.findall(text):
            for pattern in block.split():
                folder = pattern.strip("/").removesuffix("/*").removesuffix("/**")
                if pattern.rstrip("/").endswith("*") and folder and "*" not in folder:
                    if not any(f.startswith(f"{docs_dir}/{folder}/") for f in folders):
                        pages.add(folder + "/*")
    return pages


# Each folder that holds a file, with a trailing slash.
FILE_FOLDERS = Memo(
    "GL502.file_folders",
    lambda project: frozenset(posixpath.dirname(rel) + "/" for rel in project.files()),
)
MKDOCS_SITE = Memo("GL502.mkdocs_site", _mkdocs_site)
MYST_LABELS = Memo("GL502.myst_labels", _myst_labels)


def _templated(file: SourceFile) -> bool:
    """Headings a site generator's shortcodes may add: anchors cannot be known."""
    return file.derived(TEMPLATED)


# Once per file, not per link: both read the whole text (a paragraph of 10k links).
ANCHOR_FACTS = Derived("GL502.anchor_facts", _anchor_facts)
AUTODOC_NAMES = Derived(
    "GL502.autodoc_names",
    lambda file: (
        frozenset(AUTODOC.findall(file.text)) if "[[autodoc]]" in file.text else frozenset()
    ),
)
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
        candidates += [f"{bare}{page}" for page in PAGE_FILES]
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


def memory_imports(file: SourceFile) -> list[tuple[Span, str]]:
    """A steering file's `@path` imports (outside code): each span, and the path it
    names relative to the repository root (GL612 follows them)."""
    if "@" not in file.text:
        return []
    folder = posixpath.dirname(file.rel)
    return [(span, _join(folder, target)) for span, target in _imports(file, file.markdown)]


# TypeDoc's configuration at the root: its own files, or a package.json script naming it.
TYPEDOC_CONFIG_NAMES = tuple(
    f"{dot}typedoc{config}.{suffix}"
    for dot in ("", ".")
    for config in ("", ".config")
    for suffix in ("json", "jsonc", "js", "cjs", "mjs", "ts", "mts")
)
TYPEDOC_SCRIPT = re.compile(r'"[^"\n]*"\s*:\s*"([^"\n]*\btypedoc\b[^"\n]*)"')
# Its output folder: `"out": "docs/api"`, `out: 'docs/api'`, `typedoc --out docs/api`.
TYPEDOC_OUT = re.compile(r"""(?:["']?\bout["']?\s*[:=]\s*["']|--out[= ]\s*["']?)([\w./@-]+)""")
API_FOLDER = "api"  # the folder a docs site mounts TypeDoc's pages at, when `out` is unread


def _typedoc_page(target: str, project: Project) -> bool:
    """`docs/api/@scope/client/x.md` in a repository whose docs build runs TypeDoc: the
    first missing folder of the target is TypeDoc's output (its `out`, or `api` when the
    configuration cannot be read), which the build writes and the repository does not
    commit."""
    outputs = project.memo(TYPEDOC_OUTPUTS)
    if outputs is None:
        return False
    missing = _first_missing_folder(target, project)
    if missing is None:
        return False
    if outputs:
        return missing in outputs
    return posixpath.basename(missing) == API_FOLDER


def _first_missing_folder(target: str, project: Project) -> str | None:
    parts = target.split("/")[:-1]
    for at in range(len(parts)):
        folder = "/".join(parts[: at + 1])
        if not project.exists(folder):
            return folder
    return None


def _typedoc_outputs(project: Project) -> frozenset[str] | None:
    """None without TypeDoc at the root; else the output folders its configuration names
    (none when they cannot be read)."""
    # TypeDoc configuration names, looked up one by one: listing the repository
    # (git) for every broken link would cost a plain README check a subprocess.
    configs = [rel for rel in TYPEDOC_CONFIG_NAMES if project.exists(rel)]
    package = project.read("package.json") if project.exists("package.json") else None
    scripts = TYPEDOC_SCRIPT.findall(package.text) if package else []
    if not configs and not scripts:
        return None
    outputs: set[str] = set()
    texts = [source.text for rel in configs if (source := project.read(rel))] + scripts
    for text in texts:
        for value in TYPEDOC_OUT.findall(text):
            outputs.add(posixpath.normpath(value).strip("/"))
    return frozenset(outputs - {"", "."})


TYPEDOC_OUTPUTS = Memo("GL502.typedoc_outputs", _typedoc_outputs)
