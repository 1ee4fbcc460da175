"""Link targets that name something a docs generator resolves, not a file.

`[Create](pulumirpc.ResourceProvider.Create)` is an API symbol Sphinx links, `[x](unknowns)`
a MyST label, `[runbook](internal-wiki/deployment-runbook)` in a template a slug of
the reader's own wiki. None is a file of this repository to find.
"""

from __future__ import annotations

import posixpath
import re

from guidelint.project import Memo, Project
from guidelint.rules.broken_link.anchors import MYST_LABEL
from guidelint.rules.broken_link.targets import join_rel


def slug_placeholder(path: str, bases: list[str], project: Project) -> bool:
    """`[runbook](internal-wiki/deployment-runbook)` in a template: a wiki slug of the
    reader's own (no extension, several segments, a first folder this repository has
    under none of the link's bases), not a file of this one."""
    if path.startswith(("./", "../")) or path.endswith("/") or "/" not in path:
        return False
    if "." in posixpath.basename(path):
        return False
    first = path.split("/", 1)[0]
    return not any(project.exists(join_rel(base, first)) for base in bases)


# A page template's file: `concept_template.md`, `page-template.md`, `template.md`.
TEMPLATE_FILE = re.compile(r"(?:^|[-_])template\.mdx?$", re.IGNORECASE)

# A page template's stand-in for a page to link once written: a generic word numbered
# (`related1`, `example_2`) or followed by `name`/`title` (`page-name`), nothing else.
GENERIC_PAGE = re.compile(
    r"^(?:related|example|page|concept|guide|doc|topic|section|article|post|tutorial|"
    r"recipe|other|another|link|item)(?:[-_]?\d+|[-_]?(?:name|title|slug))$",
    re.IGNORECASE,
)


def template_placeholder(rel: str, path: str) -> bool:
    """`[Example 1](../examples/example1.md)` in `docs/templates/concept_template.md`:
    a page template (a `*_template.md`, or a page of a `templates/` folder) links a
    generic, numbered stand-in for the pages written from it, not a file of this
    repository. A template's link to a page with a real name is checked as any."""
    folders = posixpath.dirname(rel).split("/")
    if not TEMPLATE_FILE.search(posixpath.basename(rel)) and "templates" not in folders:
        return False
    stem = posixpath.splitext(posixpath.basename(path.rstrip("/")))[0]
    return bool(GENERIC_PAGE.match(stem))


def symbol_reference(path: str, project: Project) -> bool:
    """`[Create](pulumirpc.ResourceProvider.Create)`: a dotted name with no folder whose
    suffix is no file type of this repository names an API symbol a docs generator
    (Sphinx, MyST) resolves, not a file."""
    if "/" in path or "." not in path.strip("."):
        return False
    ext = posixpath.splitext(path)[1]
    if ext[1:2].isupper():
        return True  # `.Pack`, `.ResourceProvider`: a type or method, not a file suffix
    return bool(ext) and ext.lower() not in project.extensions() and not ext[1:].isdigit()


def myst_label(path: str, project: Project) -> bool:
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


MYST_LABELS = Memo("GL502.myst_labels", _myst_labels)
