"""GL501 in an artifact a collection distributes (guidelint/catalogue.py).

A skill's, plugin's or extension's text speaks from the folder it is installed as:
a path is checked against that folder (`references/x.md`, `assets/y.png`) when its
first segment is there, or when it is an item of a list whose other items are files
of the bundle (an extension README's "Files" list naming `.github/plugin/plugin.json`).
A path into an install location that names an artifact the collection ships is
checked against that artifact (`install_target`). Any other path is the user's
project's (`docs/diagrams/`, `src/lib/x.ts`) and is never reported.
"""

from __future__ import annotations

import re

from guidelint.catalogue import Artifact, install_target
from guidelint.project import Project
from guidelint.rules.stale_path.project_files import join_rel
from guidelint.rules.stale_path.roots import anchored

# A list item's line: `- `, `* `, `1. `; its first code span is the item's path.
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+`([^`\s]+)`")
SIBLINGS_MIN = 2  # two other items of the list are the bundle's files


def bundle_verdict(
    path: str, artifact: Artifact, text: str, start: int, project: Project
) -> tuple[bool, list[str]]:
    """(whether to go on checking the path, the folders to check it from). Called
    only for a path not found from the artifact's folder or the repository's root."""
    target = install_target(path, project)
    if target is not None:
        return not target[1], [""]  # another shipped artifact, by its install location
    root = artifact.root
    if root is None:
        return False, []  # a lone agent or instructions file: the user's paths
    bases = [root]
    if anchored(path, bases, project) or _listed_with_bundle_files(text, start, root, project):
        return True, bases
    return False, bases


def _listed_with_bundle_files(text: str, start: int, root: str, project: Project) -> bool:
    """The path is an item of a list whose other items are files of the bundle."""
    line_start = text.rfind("\n", 0, start) + 1
    lines = text.split("\n")
    index = text.count("\n", 0, line_start)
    own = LIST_ITEM.match(lines[index]) if index < len(lines) else None
    if own is None or line_start + own.start(1) - 1 != start:
        return False  # not the item's own path (`media/` in an item's description)
    found = 0
    for step in (-1, 1):
        at = index + step
        while 0 <= at < len(lines) and (item := LIST_ITEM.match(lines[at])):
            if project.exists(join_rel(root, item.group(1).removeprefix("./"))):
                found += 1
            at += step
    return found >= SIBLINGS_MIN
