"""Paths written to be filled in: placeholders a reader replaces with their own.

Guides show `path/to/file`, `docs/YYYY-MM-DD-title.md`, `LANG_ID/`, `my-feature.md`
or `skills/.../SKILL.md`; and "`layouts/pt`, where `pt` is the language code" names
its last segment as a variable. None is a stale path of the repository, so none is
taken as one.
"""

from __future__ import annotations

import re

from guidelint.markdown import CodeSpan

PLACEHOLDER_SEGMENTS = {"path", "to", "your", "my", "foo", "bar", "baz", "example", "xxx", "..."}

# A segment (or a `-`/`.`-separated part of one) that stands for something to fill in.
PLACEHOLDER_PART = re.compile(
    r"^(?:Y{2,4}|y{4}|M{2}|D{2}|A{4}|J{4}|x{2,3}|X{2,3}|your|YOUR|"  # dates, xx, your
    r"MAJOR|MINOR|PATCH|VERSION|NNN?|N)$"  # `0.MINOR.x.md`, `SPEC-NNN`
)

# `some_kernel.cuh`, `my-feature.md`, `ComponentName/`: a name standing for the reader's own.
FILLER_NAME = re.compile(
    r"^(?:some|my|your)[_-]\w|^(?:Component|Module|Package|Feature)Name\b|"
    r"(?:^|_)(?:Event|Component|Module|Package|Feature|Class|Tool|Service|Skill|Plugin|Agent|"
    r"Action|Command|Hook)(?:Name|Example)(?:[._-]|$)|"
    # `.github/skills/skill-name/`, `plugins/plugin_name/`: the kind of thing, then "name"
    r"^(?:skill|plugin|agent|command|hook|tool|project|package|module|component|extension|"
    r"server|repo|file)[-_]name$"
)

# `phase_prompts/phaseN.md`, `stepN`: a word and a capital N standing for its number.
NUMBERED_STEM = re.compile(r"^[a-z]{2,}[-_]?N$")

CAPS_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")  # LANG_ID, PROJECT_NAME

# A folder named in capitals joined by hyphens, `docs/source/LANG-ID/`, `YOUR-NAME/`: a
# stand-in the reader fills in. A file (`LICENSE-MIT.txt`) or a version (`GPT-4`) is none.
CAPS_HYPHEN_NAME = re.compile(r"^[A-Z]{2,}(?:-[A-Z]{2,})+$")

# A word of a name that stands for one to fill in: `test_action_EventNameHere.py`
# (a CamelCase `...Here`), `middleware/foo.py`, `test_foo.py`.
FILLER_WORD = re.compile(r"^(?:(?:[A-Z][a-z0-9]+)+Here|foo|bar|baz|qux)$")

# A file named only `example`, `sample` or `filename` (`docs/example.md`) is one to
# write, not one kept; `.env.example` keeps the word as a suffix and is a real file.
FILLER_STEMS = frozenset({"example", "sample", "filename", "file-name", "file_name"})

NAME_WORDS = re.compile(r"[-._]")

WORDS = re.compile(r"[-.]")


def is_placeholder(segments: list[str]) -> bool:
    if any(s.strip(".") == "" for s in segments):  # `.claude/skills/...`
        return True
    lowered = [s.lower() for s in segments]
    if "to" in lowered and "path" in lowered:  # path/to/file
        return True
    if any(_placeholder_segment(s) for s in segments):
        return True
    if lowered[-1].split(".", 1)[0] in FILLER_STEMS:
        return True
    return all(s in PLACEHOLDER_SEGMENTS or s.startswith("your") for s in lowered[:-1]) and (
        len(lowered) > 1 and lowered[0] in PLACEHOLDER_SEGMENTS | {"your"}
    )


def _placeholder_segment(segment: str) -> bool:
    """`YYYY`, `xx`, `short-name-for-your-post`, `LANG_ID`, `LANG_ID-words.txt`.

    An all-caps name is a placeholder only with lowercase beside it or no extension:
    `CODE_OF_CONDUCT.md` is a real file name.
    """
    parts = WORDS.split(segment)
    if any(PLACEHOLDER_PART.match(part) for part in parts) or FILLER_NAME.search(segment):
        return True
    if any(FILLER_WORD.match(word) for word in NAME_WORDS.split(segment)):
        return True
    if CAPS_HYPHEN_NAME.match(segment) or NUMBERED_STEM.match(segment.split(".", 1)[0]):
        return True
    stem = segment.split(".", 1)[0]
    caps = [part for part in stem.split("-") if CAPS_NAME.match(part)]
    return bool(caps) and ("." not in segment or stem != "-".join(caps))


def explained_names(code_spans: list[CodeSpan]) -> dict[int, set[str]]:
    """Per paragraph, the code spans that are single names: "where `xx` is the code"."""
    names: dict[int, set[str]] = {}
    for span in code_spans:
        content = span.content.strip()
        if content and "/" not in content:
            names.setdefault(id(span.block), set()).add(content)
    return names


def explained(path: str, names: set[str]) -> bool:
    """A last segment the same paragraph names on its own is a variable to fill in."""
    segments = [s for s in path.split("/") if s not in ("", ".", "..")]
    return len(segments) > 1 and segments[-1] in names
