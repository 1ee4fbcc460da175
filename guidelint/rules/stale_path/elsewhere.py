"""Paths of another repository, said so by the path's sentence.

A document names files of other repositories as freely as its own: the TypeScript
SDK's folder linked by its URL ("This mirrors the S3 adapter in the TypeScript SDK's
[`examples/session-stores/s3/`](https://github.com/.../claude-agent-sdk-typescript/...)"),
the sibling SDK's equivalent ("TS-SDK equivalent: `examples/hono/`"), the upstream
checkout ("lives upstream at `~/playwright/packages/...` (and `tests/mcp/`)"), a
repository the example mounts ("mounts `pypa/sampleproject` ... `src/sample/simple.py`"),
and an `owner/name` slug that is no path at all ("the `openai/openai-agents-python`
repository"). Missing here, none of them is a stale path of this repository. Each
signal needs the other repository named on the path's line, in its sentence or (for
a mounted one) in its paragraph; a repository named like this checkout counts as this
one, and so does a link whose folder exists here.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter

from guidelint.lazy_re import LazyPattern
from guidelint.markdown import Block, CodeSpan, Link
from guidelint.project import Memo, Project
from guidelint.rules.stale_path.conventions import ACTION_CUE, WORKFLOW_ACTIONS
from guidelint.rules.stale_path.sentences import (
    CLAIM_WINDOW,
    CODE_SPAN_TEXT,
    NEW_BLOCK,
    SENTENCE_END,
    sentence_tail,
)
from guidelint.sources import Derived, SourceFile

# `https://github.com/OWNER/NAME/tree/REF/...`: a file or folder of the repository NAME.
REPOSITORY_URL = re.compile(
    r"^https?://(?:www\.)?github\.com/[\w.-]+/([\w.-]+)/(?:tree|blob)/[^/]+/([^#?]*)"
)

# "the TypeScript SDK's", "TS-SDK equivalent": the sibling SDK in another language.
SDK_LANGUAGE = LazyPattern(
    r"\b(TypeScript|TS|JavaScript|JS|Python|Go|Rust|Java|Kotlin|C#|Swift|Ruby|PHP)[- ]SDK\b",
    re.IGNORECASE,
)

# Each language's source suffixes: a repository with none of them is not that SDK.
LANGUAGE_SUFFIXES = {
    "typescript": (".ts", ".tsx"),
    "ts": (".ts", ".tsx"),
    "javascript": (".js", ".mjs", ".ts"),
    "js": (".js", ".mjs", ".ts"),
    "python": (".py",),
    "go": (".go",),
    "rust": (".rs",),
    "java": (".java",),
    "kotlin": (".kt",),
    "c#": (".cs",),
    "swift": (".swift",),
    "ruby": (".rb",),
    "php": (".php",),
}

SOURCE_SUFFIXES = frozenset(s for suffixes in LANGUAGE_SUFFIXES.values() for s in suffixes)

# "lives upstream at `~/playwright/...`": a checkout of another repository beside this one.
UPSTREAM = LazyPattern(r"\bupstream\b", re.IGNORECASE)
CHECKOUT_SPAN = LazyPattern(r"`(?:~|\.\.)/[\w.-]+/[^`]*`")

# "mounts `pypa/sampleproject`", "clones `owner/name`": the example works in that repository.
WORKS_IN = LazyPattern(
    r"\b(?:mount|clone|check(?:s|ed|ing)? out|fork|vendor)\w*\s+(?:the\s+)?`([\w.-]+)/([\w.-]+)`",
    re.IGNORECASE,
)

# "the `owner/name` repository", "repository `owner/name`": a slug, not a path.
REPOSITORY_AFTER = LazyPattern(r"^`?\s+(?:GitHub\s+)?(?:repository|repo)\b", re.IGNORECASE)
REPOSITORY_BEFORE = LazyPattern(r"\b(?:repository|repo)\s*:?\s*`?$", re.IGNORECASE)

# "the **`pipecat-examples` repo** groups demos ...; `scripts/demos.json` lists ...": a
# repository named in code (or an `owner/name`) earlier in the path's sentence, so
# "this repo" or "the main repository" never counts.
NAMED_REPOSITORY = LazyPattern(
    r"[*_]*`(?:[\w.-]+/)?([\w.-]+)`[*_]*\s+(?:GitHub\s+)?(?:repository|repo)\b", re.IGNORECASE
)


# "Load these files from `github/gh-aw` (they are not available locally):", "Key
# conventions in the upstream content:": the line that introduces a list, naming
# another repository by its `owner/name` or calling it upstream.
OWNER_NAME_SPAN = LazyPattern(r"`([\w.-]+)/([\w.-]+)`")
UPSTREAM_WORD = LazyPattern(r"\bupstream\b", re.IGNORECASE)
# "Upstream `docs/README.md` → ...": the word right before the path.
UPSTREAM_BEFORE = LazyPattern(r"\bupstream(?:'s)?\s*[*_]*$", re.IGNORECASE)
# A table cell that is only repositories: "`langfuse/langfuse-js`", "`a/b`, `a/c`"; an
# owner starts with no dot (`.claude-plugin/tests` is a folder, not a repository).
REPOSITORY_CELL = LazyPattern(r"^\s*`[\w-][\w.-]*/[\w.-]+`(?:\s*,\s*`[\w-][\w.-]*/[\w.-]+`)*\s*$")
# "`langfuse-js`:" alone on its line: a repository's short name introducing its list.
SHORT_NAME_LINE = LazyPattern(r"^\s*[*_]*`([\w.-]+)`[*_]*\s*:?[*_]*\s*$")
LIST_LINE = LazyPattern(r"^\s*(?:[-*+]|\d+[.)])\s")
LIST_REACH = 400  # lines walked up a list to the line that introduces it
# How far before a span the same path is looked for: a window, so that a page of many
# missing paths costs each of them a bounded search, not one from the page's start.
EARLIER_REACH = 64 * 1024


def another_repository(
    path: str, file: SourceFile, span: CodeSpan, links: list[Link], project: Project
) -> bool:
    """The path's line, sentence or paragraph says it is a file of another repository,
    or the path is itself an `owner/name` repository slug, or it is an item of a list
    the line above it says is another repository's."""
    text = file.text
    if repository_slug(path, text, span):
        return True
    line_start = text.rfind("\n", 0, span.span.start) + 1
    if UPSTREAM_BEFORE.search(text[line_start : span.span.start]):
        return True  # "Upstream `docs/README.md` → `learning-hub/index.md`"
    if _listed_from_another_repository(text, line_start, project):
        return True
    if _row_of_another_repository(text, line_start, span, project):
        return True  # | JS/TS SDKs | `langfuse/langfuse-js` | `packages/client` |
    # the same path, listed earlier under another repository
    first = text.find(f"`{path}`", max(0, span.span.start - EARLIER_REACH), span.span.start)
    if first != -1:
        first_line = text.rfind("\n", 0, first) + 1
        if first_line != line_start and _listed_from_another_repository(text, first_line, project):
            return True
    if any(_links_elsewhere(link, span, project) for link in links):
        return True
    sentence = _sentence(text, span)
    if UPSTREAM.search(sentence) and CHECKOUT_SPAN.search(sentence):
        return True  # "lives upstream at `~/playwright/src/` (and `tests/mcp/`)"
    if any(_other_language(m.group(1), project) for m in SDK_LANGUAGE.finditer(sentence)):
        return True
    if _named_before(_wrapped_sentence_before(text, span), project):
        return True  # "the `pipecat-examples` repo groups demos ...; `scripts/demos.json`"
    return any(not own_name(name, project) for name in _worked_in(file, span.block))


def _worked_in_by_block(file: SourceFile) -> dict[int, list[str]]:
    return {}  # filled by `_worked_in`, one paragraph at a time


WORKED_IN = Derived("GL501.worked_in", _worked_in_by_block)


def _worked_in(file: SourceFile, block: Block) -> list[str]:
    """The repositories a paragraph says the example mounts, clones or forks (`WORKS_IN`),
    read once per paragraph: a paragraph of many paths was read again for each of them."""
    by_block = file.derived(WORKED_IN)
    names = by_block.get(id(block))
    if names is None:
        names = by_block[id(block)] = [m.group(2) for m in WORKS_IN.finditer(block.text)]
    return names


def repository_slug(path: str, text: str, span: CodeSpan) -> bool:
    """`owner/name` right before or after the word "repository" (or "repo")."""
    if path.count("/") != 1 or "." in path.rsplit("/", 1)[1]:
        return False
    before = text[max(0, span.span.start - 40) : span.span.start]
    after = text[span.span.end : span.span.end + 40]
    return bool(REPOSITORY_AFTER.match(after) or REPOSITORY_BEFORE.search(before))


def _named_before(before: str, project: Project) -> bool:
    """Another repository, named in code before "repo" or "repository", earlier in the
    sentence than the path: what follows it in the sentence is that repository's."""
    return any(not own_name(match.group(1), project) for match in NAMED_REPOSITORY.finditer(before))


def _listed_from_another_repository(text: str, line_start: int, project: Project) -> bool:
    """The line at `line_start` is an item of a list whose introducing line (the first
    line above the list) names another repository (`owner/name` in code, not a path
    here) or calls its source upstream."""
    line_end = text.find("\n", line_start)
    if not LIST_LINE.match(text[line_start : len(text) if line_end == -1 else line_end]):
        return False
    at = line_start
    for _ in range(LIST_REACH):
        if at == 0:
            return False
        above_start = text.rfind("\n", 0, at - 1) + 1
        above = text[above_start : at - 1]
        at = above_start
        if not above.strip() or LIST_LINE.match(above) or above[:1].isspace():
            continue  # another item, its continuation, or a blank line inside the list
        if above.lstrip().startswith(("#", "```", "~~~", "|")):
            return False  # a heading, a fence or a table: no sentence introduces the list
        return _names_another_repository(above, project) or _short_name_of_another(
            above, text, project
        )
    return False


def _names_another_repository(line: str, project: Project) -> bool:
    if UPSTREAM_WORD.search(line):
        return True
    return _owner_name_elsewhere(line, project)


def _owner_name_elsewhere(text: str, project: Project, skip: frozenset[str] = frozenset()) -> bool:
    """`owner/name` in code, naming a repository that is not this one (its owner no
    folder here: `docs/api` is a path of this repository), nor one of `skip`."""
    return any(
        "." not in match.group(2)
        and not own_name(match.group(2), project)
        and not project.exists(match.group(1))
        and match.group(0).strip("`") not in skip
        for match in OWNER_NAME_SPAN.finditer(text)
    )


def _short_name_of_another(line: str, text: str, project: Project) -> bool:
    """A line that is only a repository's name in code ("`langfuse-js`:"), the name of
    one the same page names in full as `owner/name` in code: a heading, in effect, of
    that repository's files."""
    match = SHORT_NAME_LINE.match(line)
    if match is None or own_name(match.group(1), project):
        return False
    name = re.escape(match.group(1))
    return any(
        not project.exists(full.group(1)) for full in re.finditer(r"`([\w.-]+)/" + name + "`", text)
    )


def _row_of_another_repository(
    text: str, line_start: int, span: CodeSpan, project: Project
) -> bool:
    """The path is a cell of a table row whose other cell is only another repository's
    `owner/name` in code: a map of several repositories, the row's paths that one's. A
    GitHub Action (a row that says so, or one this repository's workflows use) is none."""
    line_end = text.find("\n", line_start)
    line = text[line_start : len(text) if line_end == -1 else line_end]
    if not line.lstrip().startswith("|"):
        return False
    at = span.span.start - line_start
    cell_start = line.rfind("|", 0, at) + 1
    cell_end = line.find("|", at)
    others = line[:cell_start] + line[len(line) if cell_end == -1 else cell_end :]
    if ACTION_CUE.search(CODE_SPAN_TEXT.sub("", line)):
        return False  # `actions/checkout` beside `.github/workflows/ci.yml`: a step, no repository
    skip = project.memo(WORKFLOW_ACTIONS)
    return any(
        REPOSITORY_CELL.match(cell) and _owner_name_elsewhere(cell, project, skip)
        for cell in others.split("|")
    )


def own_name(name: str, project: Project) -> bool:
    """Whether a repository name is this checkout's (its folder's name, or the NAME of
    an `OWNER__NAME` folder as the corpus lays repositories out)."""
    folder = project.root.name.lower()
    name = name.lower().removesuffix(".git")
    return folder == name or folder.endswith("__" + name)


def _links_elsewhere(link: Link, span: CodeSpan, project: Project) -> bool:
    """The span is the text of a link into another GitHub repository's tree."""
    if not link.span.start <= span.span.start < link.span.end:
        return False
    match = REPOSITORY_URL.match(link.href)
    if match is None or own_name(match.group(1), project):
        return False
    # A checkout need not be named like its repository: a link whose folder exists here
    # (`.../blob/main/scripts/content-modules/adjust-pages.pl`) is into this tree.
    folder = posixpath.dirname(match.group(2).rstrip("/"))
    return not (folder and project.exists(folder))


def _other_language(language: str, project: Project) -> bool:
    """An SDK in a language that is not this repository's main one."""
    main = project.memo(MAIN_SUFFIX)
    return main is not None and main not in LANGUAGE_SUFFIXES[language.lower()]


def _main_suffix(project: Project) -> str | None:
    """The source suffix most files of the repository have (`.py`, `.ts`, ...)."""
    counts = Counter(
        suffix
        for rel in project.files()
        if (suffix := "." + rel.rsplit(".", 1)[-1]) in SOURCE_SUFFIXES and "." in rel
    )
    return counts.most_common(1)[0][0] if counts else None


MAIN_SUFFIX = Memo("GL501.main_suffix", _main_suffix)


def _sentence(text: str, span: CodeSpan) -> str:
    """The sentence holding the span, within its line and CLAIM_WINDOW characters."""
    before, after = _sentence_parts(text, span)
    return before + text[span.span.start : span.span.end] + after


def _wrapped_sentence_before(text: str, span: CodeSpan) -> str:
    """The span's sentence before it, from the line above too when the sentence began
    there (a hard-wrapped paragraph: "the `x` repo groups demos in its\nREADME; `y`")."""
    before = _sentence_parts(text, span)[0]
    line_start = span.span.start - len(text[: span.span.start].rsplit("\n", 1)[-1])
    if before != text[line_start : span.span.start] or line_start == 0:
        return before  # the sentence starts on this line (or the window cut it)
    line_end = text.find("\n", line_start)
    if NEW_BLOCK.match(text[line_start : len(text) if line_end == -1 else line_end]):
        return before  # a list item or a heading: a block of its own
    above_start = max(text.rfind("\n", 0, line_start - 1) + 1, line_start - 1 - CLAIM_WINDOW)
    above = text[above_start : line_start - 1]
    return sentence_tail(above + " " + before) if above.strip() else before


def _sentence_parts(text: str, span: CodeSpan) -> tuple[str, str]:
    """The span's sentence before it and after it, within its line and CLAIM_WINDOW."""
    start, end = span.span.start, span.span.end
    line_start = text.rfind("\n", max(0, start - CLAIM_WINDOW), start) + 1
    line_start = max(line_start, start - CLAIM_WINDOW)
    line_end = text.find("\n", end, end + CLAIM_WINDOW)
    line_end = min(len(text), end + CLAIM_WINDOW) if line_end == -1 else line_end
    before, after = text[line_start:start], text[end:line_end]
    return SENTENCE_END.split(before)[-1], SENTENCE_END.split(after)[0]
