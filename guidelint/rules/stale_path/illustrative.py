"""Paths of a thing the document describes, not of this repository.

A guide to writing skills draws a generic `skill-name/` tree and then names its
`scripts/x.py`; a table lists sample inputs of a URI template; a dataset's README
names the `tests/case.json` each of its task folders holds. The path is real in the
thing described (any skill, each task), never at the place it is looked up.
"""

from __future__ import annotations

import posixpath
import re

from guidelint.lazy_re import LazyPattern
from guidelint.markdown import CodeSpan
from guidelint.project import Project
from guidelint.rules.stale_path.project_files import FILE_INDEX
from guidelint.sources import Derived, SourceFile

# A generic tree's root: `skill-name/`, `plugin-name/`, `my-skill/`, `<name>/`.
TREE_ROOT = LazyPattern(r"^\s*(?:<[\w\- ]+>|[\w.\-]*\bname|my-[\w\-]+|your-[\w\-]+)/\s*$", re.I)

TREE_FOLDER = LazyPattern(r"^[\s│├└─|`+\\-]*([\w.\-]+)/(?:\s|$)")

# A table column of sample values: "Example input", "Pattern", "Matches", "Sample".
EXAMPLE_HEADER = LazyPattern(
    r"\b(?:examples?|inputs?|samples?|patterns?|match(?:es)?|e\.g\.)\b", re.IGNORECASE
)

# A table introduced as a format to follow: "Results table in this format:", "Report
# it like this:". Its rows are samples of what to produce, not this tree's files.
SAMPLE_TABLE_INTRO = LazyPattern(
    r"\b(?:in|with|using|follow(?:ing)?) (?:this|the following) (?:format|layout|template|shape)|"
    r"\b(?:format|template)\s*:\s*$|\blike this\s*:\s*$",
    re.IGNORECASE,
)

TEMPLATE_CELL = LazyPattern(r"\{[+#./;?&]?[\w*,]+\}")  # `{name}`, `{+path}`, `{/path*}`

TABLE_SEPARATOR = LazyPattern(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


def illustrative(path: str, file: SourceFile, span: CodeSpan) -> bool:
    """A path that stands for one in something the document describes, not in this
    repository: a folder of a generic tree it draws (a guide to writing skills shows
    `skill-name/` holding `scripts/`, then says "`scripts/rotate_pdf.py` for PDF
    rotation"), or a sample value in a table (a URI template's example input)."""
    first = path.removeprefix("./").split("/", 1)[0]
    return first in file.derived(GENERIC_TREE_FOLDERS) or _sample_cell(file.text, span)


def _generic_tree_folders(file: SourceFile) -> frozenset[str]:
    """The folders of the trees a document draws for a generic thing (a fence whose
    first line is a placeholder root such as `skill-name/`): `scripts`, `references`."""
    folders: set[str] = set()
    for fence in file.markdown.fences:
        lines = [line for line in fence.content.split("\n") if line.strip()]
        if not lines or not TREE_ROOT.match(lines[0]):
            continue
        for line in lines[1:]:
            match = TREE_FOLDER.match(line)
            if match:
                folders.add(match.group(1))
    return frozenset(folders)


GENERIC_TREE_FOLDERS = Derived("GL501.generic_tree_folders", _generic_tree_folders)


def _sample_cell(text: str, span: CodeSpan) -> bool:
    """The path is a cell of a Markdown table row whose column header names samples
    (`Example input`, `Pattern`) or whose row holds a template (`{name}`) that the
    path is an input of: `| {name} | docs/intro.md | no match |`."""
    line_start = text.rfind("\n", 0, span.span.start) + 1
    line_end = text.find("\n", span.span.start)
    line = text[line_start : len(text) if line_end == -1 else line_end]
    if not line.lstrip().startswith("|"):
        return False
    cells = _cells(line)
    column = _cells(line[: span.span.start - line_start]).__len__() - 1
    others = [cell for index, cell in enumerate(cells) if index != column]
    if any(TEMPLATE_CELL.search(cell) for cell in others):
        return True
    header_start = _table_header_start(text, line_start)
    if header_start is None:
        return False
    if SAMPLE_TABLE_INTRO.search(_line_above(text, header_start)):
        return True  # "Results table in this format:": every row is a sample to follow
    header_end = text.find("\n", header_start)
    header = _cells(text[header_start:header_end])
    return 0 <= column < len(header) and bool(EXAMPLE_HEADER.search(header[column]))


def _cells(row: str) -> list[str]:
    """A table row's cells (the text between `|`s; a leading `|` opens no cell)."""
    return row.strip().removeprefix("|").split("|")


def _table_header_start(text: str, row_start: int) -> int | None:
    """Where the header row of the table a row belongs to starts: the line above the
    `|---|` separator, found by walking up the table's lines (at most 200)."""
    end = row_start - 1
    for _ in range(200):
        if end <= 0:
            return None
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end]
        if not line.lstrip().startswith("|") and not TABLE_SEPARATOR.match(line):
            return None
        if TABLE_SEPARATOR.match(line):
            header_end = start - 1
            return text.rfind("\n", 0, max(header_end, 0)) + 1 if header_end > 0 else None
        end = start - 1
    return None


def _line_above(text: str, line_start: int) -> str:
    """The nearest line above `line_start` that is not blank (at most 3 lines up)."""
    end = line_start - 1
    for _ in range(3):
        if end <= 0:
            return ""
        start = text.rfind("\n", 0, end) + 1
        if text[start:end].strip():
            return text[start:end]
        end = start - 1
    return ""


def per_item_path(path: str, doc_dir: str, project: Project) -> bool:
    """`tests/case.json` in a README whose folder holds one folder per task, each with
    its `tests/`: the path (or, for a file, its folder) is there below at least two
    subfolders of the document's folder, so it names each item's file. A README of a
    dataset whose tasks are generated (its folder holds no subfolder) speaks of the same
    layout as its sibling datasets': below two subfolders of one sibling folder counts too."""
    if not doc_dir or path.startswith(("./", "../")):
        return False
    clean = path.strip("/")
    wanted = {clean, posixpath.dirname(clean)} - {""}
    parent = posixpath.dirname(doc_dir)
    prefix = parent + "/" if parent else ""
    items: dict[str, set[str]] = {}  # a folder (the document's or a sibling) -> its items
    _, by_folder = project.memo(FILE_INDEX)
    for folder in by_folder:
        if not folder.startswith(prefix):
            continue
        owner, _, below = folder[len(prefix) :].partition("/")
        item, _, rest = below.partition("/")
        if rest and any(rest == w or rest.startswith(w + "/") for w in wanted):
            items.setdefault(owner, set()).add(item)
    if len(items.get(posixpath.basename(doc_dir), ())) >= 2:
        return True
    if not parent or any(folder.startswith(doc_dir + "/") for folder in by_folder):
        return False  # a top-level folder's siblings are the whole repository's
    return any(len(found) >= 2 for found in items.values())


# A folder named for a kind of item, not one item: `test_provider`, `example-name`. Its
# prefix (`test_`) is what each real item's folder shares.
STAND_IN_FOLDER = LazyPattern(
    r"^([a-z0-9]+[_-])(?:provider|name|model|backend|service|vendor|client|integration|"
    r"platform|framework|language|lang|plugin|package|module|item)$"
)

STAND_IN_ITEMS = 2  # real folders it stands for: one could be a rename of it


def stand_in_item(path: str, project: Project) -> bool:
    """`tests/llm/test_provider/evals/` where `tests/llm/` holds `test_anthropic/evals/`
    and `test_openai/evals/`: a folder named for the kind of item (`test_` + provider)
    stands for each item's folder, which holds what the rest of the path names. A
    missing folder with a real item's name (`test_mistral/`) is still stale."""
    segments = path.removeprefix("./").strip("/").split("/")
    for at, segment in enumerate(segments):
        shape = STAND_IN_FOLDER.match(segment)
        if shape and len(_items_holding(segments, at, shape.group(1), project)) >= STAND_IN_ITEMS:
            return True
    return False


def _items_holding(segments: list[str], at: int, prefix: str, project: Project) -> set[str]:
    """The folders beside `segments[at]`, named with its prefix, that hold the rest of
    the path (or, for a file, its folder)."""
    parent = "/".join(segments[:at])
    above = f"{parent}/" if parent else ""
    rest = "/".join(segments[at + 1 :])
    wanted = {rest, posixpath.dirname(rest)} - {""}
    _, by_folder = project.memo(FILE_INDEX)
    items: set[str] = set()
    for folder in by_folder:
        if not folder.startswith(above + prefix):
            continue
        item, _, below = folder[len(above) :].partition("/")
        if item == segments[at]:
            continue
        if not wanted or any(below == w or below.startswith(w + "/") for w in wanted):
            items.add(item)
    return items


# A run of at least three digits in a file name: a pull request's or an issue's number
# (`1234.added.md`), not a version's part (`v1.2.md`) or a date's day (`2024-01-05.md`).
NUMBER_RUN = LazyPattern(r"\d{3,}")

NUMBERED_SIBLINGS = 3  # fewer files of the shape are a few files, not a naming pattern


def numbered_instance(path: str, project: Project) -> bool:
    """`changelog/1234.added.md` where the folder holds at least three files that differ
    from it only in that run of digits (`changelog/5314.added.md`, ...): a towncrier
    fragment, a numbered ADR given as an instance of the folder's naming pattern, not a
    file that went missing. A stale numbered file whose words differ from every
    sibling's (`examples/07-interruptible.py`) still counts."""
    clean = path.removeprefix("./")
    folder, name = posixpath.split(clean)
    runs = list(NUMBER_RUN.finditer(name))
    if not runs:
        return False
    _, by_folder = project.memo(FILE_INDEX)
    siblings = [posixpath.basename(rel) for rel in by_folder.get(folder, ())]
    for run in runs:
        shape = re.compile(
            re.escape(name[: run.start()]) + r"\d{3,}" + re.escape(name[run.end() :]) + r"\Z"
        )
        if sum(1 for sibling in siblings if shape.match(sibling)) >= NUMBERED_SIBLINGS:
            return True
    return False
