"""Where GL502 looks for a link's target: the files a relative link may reach.

A link is read from the document's folder (GitHub), from its page URL's folder (a
site generator serves `java/sdk.md` as `java/sdk/`) and from the repository root
(where an agent starts); a target may be a page a site generator serves at a pretty
URL (`../install/` for `install.md`, `setup` for `setup.md`, Mintlify's `.mdx`). A
target in a git submodule is another repository's, never looked up.
"""

from __future__ import annotations

import posixpath
import re

from guidelint.project import Memo, Project

MARKDOWN_TARGET = re.compile(r"\.(md|markdown|mdx)$", re.IGNORECASE)

SUBMODULE_PATH = re.compile(r"^\s*path\s*=\s*(.+)$", re.MULTILINE)

# The files a site generator serves at a page URL (`../admin/overview`): Hugo, MkDocs,
# Docusaurus and Mintlify (`.mdx`), and GitHub's folder README.
PAGE_FILES = (".md", ".mdx", "/index.md", "/index.mdx", "/_index.md", "/README.md")


def bases_of(rel: str, folder: str, path: str) -> list[str]:
    """Where a relative link may start: the document's folder (GitHub); for a page
    that is not an index, its own URL folder (`java/sdk.md` is served as
    `java/sdk/`, so Hugo's and MkDocs' `../api/` from it means `java/api`); and the
    repository root, where an agent reading `docs/x.md` starts (not for `./` or
    `../` links, which say where they start)."""
    stem = posixpath.splitext(posixpath.basename(rel))[0]
    pages = [] if stem.lower() in ("index", "_index", "readme") else [join_rel(folder, stem)]
    # Agents read `docs/x.md` from the repository root; `./x` and `../x` say otherwise.
    root = [] if path.startswith(("./", "../")) else [""]
    return [folder, *pages, *root]


def in_submodule(project: Project, target: str) -> bool:
    """Submodules (`.gitmodules`) are other repositories, often not checked out in CI."""
    paths = project.memo(SUBMODULES)
    return any(target == p or target.startswith(p + "/") for p in paths)


def _submodule_paths(project: Project) -> list[str]:
    modules = project.read(".gitmodules")
    if modules is None:
        return []
    return [m.group(1).strip().rstrip("/") for m in SUBMODULE_PATH.finditer(modules.text)]


SUBMODULES = Memo("GL502.submodules", _submodule_paths)


def join_rel(folder: str, path: str) -> str:
    """The repository path of `path` read from `folder` (`""`: the root), normalised."""
    return posixpath.normpath(posixpath.join(folder, path)) if folder else posixpath.normpath(path)


def exists(project: Project, target: str) -> bool:
    """The target is a file or folder inside the repository (`../` leaves it)."""
    return not target.startswith("../") and project.exists(target)


def found_file(project: Project, target: str) -> str | None:
    """The file a link reaches: itself, or a site generator's page for it."""
    candidates = [target]
    if not MARKDOWN_TARGET.search(target):  # `setup` or `../install/` for a page
        bare = target.rstrip("/")
        candidates += [f"{bare}{page}" for page in PAGE_FILES]
    found = next((c for c in candidates if project.exists(c)), None)
    if found is None and target.lower().endswith(".md"):
        found = _mintlify_page(project, target)
    return found


def _mintlify_page(project: Project, target: str) -> str | None:
    """`agents.mdx` for a link to `agents.md`, inside a Mintlify site (its `docs.json`
    or `mint.json` in a folder above the page): Mintlify serves a page at its path
    without the extension and resolves the link to it, whatever the extension."""
    page = target[: -len(".md")] + ".mdx"
    if not project.exists(page):
        return None
    folder = posixpath.dirname(page)
    while True:
        if _mintlify_root(project, folder):
            return page
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def _mintlify_root(project: Project, folder: str) -> bool:
    """The folder holds a Mintlify site's configuration: `mint.json`, or a `docs.json`
    that names Mintlify (its `$schema` URL); other tools use that file name too."""
    return project.memo(f"GL502.mintlify:{folder}", lambda: _names_mintlify(project, folder))


def _names_mintlify(project: Project, folder: str) -> bool:
    if project.exists(join_rel(folder, "mint.json")):
        return True
    config = join_rel(folder, "docs.json")
    if not project.exists(config):
        return False
    file = project.read(config)
    return file is not None and "mintlify" in file.text.lower()
