"""The project's files as GL501 looks paths up in them, indexed once per run.

Every signal that asks "is there such a file somewhere" (a did-you-mean hint, a
component that holds the path, an import path with its suffix left off) reads one
index of the file list by name and by folder, not the list itself per span.
"""

from __future__ import annotations

import posixpath

from guidelint.project import Memo, Project


def _folder_names(project: Project) -> set[str]:
    return {part for rel in project.files() for part in rel.split("/")[:-1]}


FOLDER_NAMES = Memo("GL501.folder_names", _folder_names)


def known_file_type(path: str, project: Project) -> bool:
    """`config/routes.rb` in a repository without Ruby is about someone else's app."""
    name = posixpath.basename(path.rstrip("/"))
    _, ext = posixpath.splitext(name)
    if not ext or path.endswith("/"):
        return True
    return ext.lower() in project.extensions()


def join_rel(base: str, path: str) -> str:
    """The repository path of `path` read from `base` (`""`: the root), normalised."""
    return posixpath.normpath(posixpath.join(base, path)) if base else posixpath.normpath(path)


def _file_index(project: Project) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    by_name: dict[str, list[str]] = {}
    by_folder: dict[str, list[str]] = {}
    for rel in project.files():
        folder, name = posixpath.split(rel)
        by_name.setdefault(name, []).append(rel)
        by_folder.setdefault(folder, []).append(rel)
    return by_name, by_folder


FILE_INDEX = Memo("GL501.file_index", _file_index)
