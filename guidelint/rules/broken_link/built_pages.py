"""Pages a docs build writes, which the repository does not commit.

A page listed in a folder's .gitignore, an MkDocs `nav` entry or `not_in_nav`
folder with no file, a page of the site the repository links by its `site_url`
(TypeDoc's reference: `typedoc.py`): a link to one is found once the site is
built, so missing from the checkout is no broken link.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable

from guidelint.project import Memo, Project

MAX_DEPTH = 64  # folders below the root whose .gitignore is asked (no repository has more)


def git_ignored(project: Project, target: str) -> bool:
    """A page a docs build writes (`docs/settings.md`, listed in `docs/.gitignore`): the
    root's or any enclosing folder's .gitignore ignores the target. Only the first
    MAX_DEPTH folders are asked: a link thousands of folders deep asked of each (#28)."""
    folder = posixpath.dirname(target)
    if folder.count("/") >= MAX_DEPTH:
        folder = "/".join(folder.split("/", MAX_DEPTH)[:MAX_DEPTH])
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
    name = f"{folder}/.gitignore" if folder else ".gitignore"
    # Asked first whether it exists (one stat): a read resolves every folder of the
    # path, and a link 2,000 folders deep asks of each folder above its target (#28).
    source = project.read(name) if project.exists(name) else None
    if source is None or not source.text.strip():
        return None
    return project.file_globs(source.text).matches


MKDOCS_CONFIG = re.compile(r"^mkdocs(?:[.\w-]*)\.ya?ml$")

TOP_KEY = re.compile(r"^(site_url|docs_dir)\s*:\s*['\"]?([^'\"\s#]+)", re.MULTILINE)

URL_TAIL = re.compile(r"[\w.~%/-]*")

# `not_in_nav: |` and its indented lines (gitignore-style patterns of pages)
NOT_IN_NAV = re.compile(r"^not_in_nav:\s*\|?[^\n]*\n((?:[ \t]+[^\n]*\n?)*)", re.MULTILINE)

# A nav entry: `- page.md` or `- Title: page.md`
NAV_PAGE = re.compile(r"^\s*-\s*(?:[^:\n]+:\s*)?([\w./-]+\.md)\s*$", re.MULTILINE)


def published_page(target: str, project: Project) -> bool:
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
