"""A link's `#fragment` and the anchors a page has, as the sites that serve it make them.

GitHub's heading slugs, and what docs sites also accept or generate: an id in
another case, a custom id glued to a heading's end (`## Node.js#node`), a MyST
target `(name)=`, a Unicode heading's id (`#工具`, percent-encoded by the parser),
MkDocs' slug that makes a run of hyphens one, doc-builder's `[[autodoc]]` API ids
and explicit heading ids (`## 개요 [[overview]]`), and a page whose shortcodes add
headings, or that mkdocstrings fills from `::: module.path` lines, whose anchors
cannot be known. A fragment any of them makes is no broken anchor.
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote

from guidelint.project import Project
from guidelint.sources import Derived, SourceFile

# A MyST target, `(unknowns)=` on its own line before a heading: Sphinx resolves
# `[text](unknowns)` to it from any page.
MYST_LABEL = re.compile(r"^\(([\w.:-]+)\)=[ \t]*$", re.MULTILINE)


def generated_anchor(file: SourceFile, fragment: str, project: Project) -> bool:
    """An anchor the docs build makes that no heading shows: an API object's id from
    a doc-builder `[[autodoc]] X` directive, or a heading's id as MkDocs or doc-builder
    slugs it."""
    return (
        _autodoc_anchor(file, fragment)
        or _mkdocstrings_page(file, project)
        or _mkdocs_anchor(file, fragment, project)
        or _doc_builder_anchor(file, fragment, project)
    )


# mkdocstrings' directive, `::: instructor.dsl.validators` on its own line: the build
# writes that object's API entry there, with headings and ids of its own.
MKDOCSTRINGS = re.compile(r"^:::[ \t]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]*$", re.MULTILINE)


def _directive_names(file: SourceFile, marker: str, directive: re.Pattern[str]) -> frozenset[str]:
    """The names an API directive documents on a page (read only where its marker is)."""
    if marker not in file.text:
        return frozenset()
    return frozenset(directive.findall(file.text))


def _mkdocstrings_names(file: SourceFile) -> frozenset[str]:
    return _directive_names(file, ":::", MKDOCSTRINGS)


def _mkdocstrings_page(file: SourceFile, project: Project) -> bool:
    """A page that mkdocstrings fills from `::: module.path` lines: the anchors of its
    API entries (`#llm_validator`, `#instructor.dsl.validators.llm_validator`) come
    from the code it documents, so an anchor no heading makes cannot be known. A
    dotted path always; a bare name (`::: logfire`) only in a MkDocs project, since
    Docusaurus and Pandoc write `::: info` for an admonition or a div."""
    names = file.derived(MKDOCSTRINGS_NAMES)
    if any("." in name for name in names):
        return True
    return bool(names) and any(project.exists(name) for name in MKDOCS_CONFIGS)


# What Hugging Face doc-builder keeps of a heading for its id: lowercase a-z, digits,
# spaces (each one a `-`) and `-`. `### HF_TOKEN` is `#hftoken`, `## Installation
# überprüfen` is `#installation-berprfen`: the ids huggingface.co serves and links.
DOC_BUILDER_DROPPED = re.compile(r"[^a-z0-9 -]")


def doc_builder_page(rel: str, project: Project) -> bool:
    """A page of Hugging Face doc-builder docs: a `_toctree.yml` (its table of
    contents, one per language folder) in the page's folder or one above it."""
    folder = posixpath.dirname(rel)
    while True:
        if project.exists(posixpath.join(folder, "_toctree.yml")):
            return True
        if not folder:
            return False
        folder = posixpath.dirname(folder)


def _doc_builder_anchor(file: SourceFile, fragment: str, project: Project) -> bool:
    """On a doc-builder page, a heading's id as doc-builder makes it. A translated
    heading keeps only its ASCII letters (`## Anmelden` makes no `#login`), and a
    heading of no ASCII letters makes no id that matches."""
    wanted = unquote(fragment)
    if not wanted.strip("-") or not doc_builder_page(file.rel, project):
        return False
    return wanted in file.derived(DOC_BUILDER_IDS)


def _doc_builder_ids(file: SourceFile) -> frozenset[str]:
    ids = set()
    for heading in file.markdown.headings:
        text = DOC_BUILDER_ID.sub("", heading.plain or heading.text).strip()
        slug = DOC_BUILDER_DROPPED.sub("", text.lower()).replace(" ", "-")
        if slug.strip("-"):
            ids.add(slug)
    return frozenset(ids)


AUTODOC = re.compile(r"^\[\[autodoc\]\][ \t]+([\w.]+)", re.MULTILINE)


def _autodoc_names(file: SourceFile) -> frozenset[str]:
    """The names a page's `[[autodoc]] X` directives document."""
    return _directive_names(file, "[[autodoc]]", AUTODOC)


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


def has_anchor(file: SourceFile, fragment: str) -> bool:
    """GitHub's ids, and what docs sites also accept: an id in another case
    (`#initiatePayment` for `initiatepayment`), or one glued to the heading's end
    (`## Node.js#node`, a custom id Payload's and similar sites read), a MyST
    target `(name)=`, or a doc-builder heading id `[[id]]`. Read from the document
    once (`ANCHOR_FACTS`), not per link."""
    anchors, named, glued = file.derived(ANCHOR_FACTS)
    for form in _fragment_forms(fragment):
        if form in anchors or form.lower() in anchors:
            return True
        if form in named or form in glued:
            return True
    return False


def _fragment_forms(fragment: str) -> tuple[str, ...]:
    """A fragment as written and as decoded: the Markdown parser percent-encodes a
    link's non-ASCII characters (`#工具` arrives as `#%E5%B7%A5%E5%85%B7`), while a
    heading's id keeps its Unicode letters (GitHub's slug), so they compare decoded."""
    decoded = unquote(fragment)
    return (fragment,) if decoded == fragment else (fragment, decoded)


GLUED_MOST = 8  # `#` signs read back from a heading's end (`## a#b#c`: `c`, `b#c`)

# Hugging Face doc-builder's explicit heading id, `## My section[[some-section]]`: the
# page's anchor is `some-section` (its README, "anchor link"), which translated pages
# use to keep the English anchors (`## 개요 [[overview]]`). No spaces in the id: a
# wiki link at a heading's end (`## See [[Other page]]`) is no id.
DOC_BUILDER_ID = re.compile(r"\[\[([^\[\]\s]+)\]\]\s*$")


def _anchor_facts(file: SourceFile) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """A document's anchors; the ids it names itself (MyST targets, doc-builder
    heading ids); and what follows each of the last `#` signs of each heading (a
    link's fragment glued to the heading's end)."""
    doc = file.markdown
    glued: set[str] = set()
    named = set(MYST_LABEL.findall(doc.text))
    for heading in doc.headings:
        text = heading.text.rstrip()
        explicit = DOC_BUILDER_ID.search(text)
        if explicit:
            named.add(explicit.group(1))
        at = len(text)
        for _ in range(GLUED_MOST):
            at = text.rfind("#", 0, at)
            if at < 0:
                break
            glued.add(text[at + 1 :])
    return doc.anchors(), frozenset(named), frozenset(glued)


def templated(file: SourceFile) -> bool:
    """Headings a site generator's shortcodes may add: anchors cannot be known."""
    return file.derived(TEMPLATED)


# Once per file, not per link: both read the whole text (a paragraph of 10k links).
ANCHOR_FACTS = Derived("GL502.anchor_facts", _anchor_facts)

DOC_BUILDER_IDS = Derived("GL502.doc_builder_ids", _doc_builder_ids)

AUTODOC_NAMES = Derived("GL502.autodoc_names", _autodoc_names)

MKDOCSTRINGS_NAMES = Derived("GL502.mkdocstrings_names", _mkdocstrings_names)

TEMPLATED = Derived("GL502.templated", lambda file: "{{<" in file.text or "{{%" in file.text)
