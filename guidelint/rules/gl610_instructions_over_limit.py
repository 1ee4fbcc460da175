"""GL610 instructions-over-limit: AGENTS.md text past what Codex reads.

Codex joins one instructions file per folder, from the project root down to the folder
it works in (`AGENTS.override.md` where there is one, else `AGENTS.md`), and stops
adding text once the combined size reaches `project_doc_max_bytes` (32 KiB unless
`.codex/config.toml` says otherwise; guidelint/tools/harnesses.json has the sources).
The text past that point never reaches Codex. A template tree (`templates/<name>/`,
or a `*_templates/` folder holding an AGENTS.md, copied into other projects) is
measured from its own root, where it lands: this repository's AGENTS.md files above
it are not joined to it there. An AGENTS.md in a skill's folder (a SKILL.md beside it or
in a folder above it: `.agents/skills/<name>/AGENTS.md`) is the skill's own document,
which the skill's SKILL.md sends agents to: nobody runs Codex inside a skill's folder, so
no chain of instructions files ends there.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.doc_kind import template_root
from guidelint.findings import Finding, Severity
from guidelint.rule import Rule
from guidelint.sources import FileKind
from guidelint.spans import Span

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile

NAMES = ("AGENTS.override.md", "AGENTS.md")  # in Codex's order of preference
CODEX_CONFIG = ".codex/config.toml"
MAX_BYTES = re.compile(r"^\s*project_doc_max_bytes\s*=\s*(\d+)\s*(#.*)?$", re.MULTILINE)


class InstructionsOverLimit(Rule):
    code = "GL610"
    name = "instructions-over-limit"
    severity = Severity.WARNING
    file_kinds = frozenset({FileKind.MARKDOWN})
    scope = "agent-files"

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        return file.kind == FileKind.MARKDOWN and posixpath.basename(file.rel) in NAMES

    def cache_inputs(self, project: Project) -> list[str]:
        return [CODEX_CONFIG]

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        folder = posixpath.dirname(file.rel)
        if in_skill_folder(project, folder):
            return  # a skill's own document, read through its SKILL.md, not Codex's chain
        if _chosen(project, folder) != file.rel:
            return  # an AGENTS.md beside an AGENTS.override.md: Codex reads the override
        limit = _limit(project)
        before = _chain(project, folder)[:-1]
        template = template_root(file.rel, project)
        if template is not None:  # a tree copied into projects: it lands as their root
            before = [rel for rel in before if rel.startswith(template + "/")]
        used = sum(_size(project, rel) for rel in before)
        data = file.text.encode("utf-8")
        if used + len(data) <= limit:
            return
        room = max(0, limit - used)
        cut = len(data[:room].decode("utf-8", errors="ignore"))  # characters that fit
        line = file.lines.position(cut).line
        start = file.text.rfind("\n", 0, cut) + 1
        end = file.text.find("\n", cut)
        span = Span(start, end if end >= 0 else len(file.text))
        above = (
            f"the {used:,} bytes of {', '.join(f'`{r}`' for r in before)} before it and "
            if before
            else ""
        )
        yield self.finding(
            file,
            span,
            f"Codex reads {limit:,} bytes of AGENTS.md files (project_doc_max_bytes); with "
            f"{above}its own {len(data):,}, the text from line {line} on does not reach Codex",
        )


def _limit(project: Project) -> int:
    """`project_doc_max_bytes` of `.codex/config.toml`, else Codex's documented default."""
    from guidelint.tools.harnesses import harnesses

    default = harnesses()["codex"].instruction_limit or 32768
    config = project.read(CODEX_CONFIG) if project.exists(CODEX_CONFIG) else None
    match = MAX_BYTES.search(config.text) if config is not None else None
    return int(match.group(1)) if match else default


def _chosen(project: Project, folder: str) -> str | None:
    """The instructions file Codex reads in a folder: the override, else AGENTS.md
    (an empty file is skipped)."""
    for name in NAMES:
        rel = posixpath.join(folder, name) if folder else name
        if project.exists(rel) and _size(project, rel) > 0:
            return rel
    return None


def in_skill_folder(project: Project, folder: str) -> bool:
    """Whether `folder` or a folder above it holds a SKILL.md: the skill's bundle."""
    while folder:
        if project.exists(posixpath.join(folder, "SKILL.md")):
            return True
        folder = posixpath.dirname(folder)
    return False


def _chain(project: Project, folder: str) -> list[str]:
    """The files Codex joins for work in `folder`, from the root down."""
    parts = folder.split("/") if folder else []
    folders = [""] + ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return [rel for rel in (_chosen(project, f) for f in folders) if rel is not None]


def _size(project: Project, rel: str) -> int:
    file = project.read(rel)
    return len(file.text.encode("utf-8")) if file is not None else 0
