"""Pages of a translated or versioned docs tree that another tree of it holds.

MkDocs' i18n plugin serves a page missing in a language from the default one
(`docs/ja/x.md` linking `ref/y.md` reaches `docs/ref/y.md`), and a link from
`docs/es/` to `tutorials/tools` names the page `docs/en/` has, not a wiki slug.
"""

from __future__ import annotations

import posixpath

from guidelint.project import Memo, Project
from guidelint.rules.broken_link.targets import MARKDOWN_TARGET


def translation_fallback(rel: str, targets: list[str], project: Project) -> str | None:
    """A page missing in a translated page's language that MkDocs' i18n plugin serves
    from the default language (`docs/ja/x.md` linking `ref/y.md`: `docs/ref/y.md`)."""
    if not any(MARKDOWN_TARGET.search(t) for t in targets):
        return None
    from guidelint.mkdocs_i18n import fallback_page

    return fallback_page(rel, targets, project)


def parallel_page(path: str, folder: str, project: Project) -> bool:
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


PARALLEL_PAGES = Memo("GL502.parallel_pages", _parallel_pages)
