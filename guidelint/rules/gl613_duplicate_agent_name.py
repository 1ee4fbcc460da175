"""GL613 duplicate-agent-name: two agents of one scope (a project's `.claude/agents`, one
plugin's `agents/`) declare the same `name`: a `subagent_type` or an @-mention of it
reaches only one of them."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.frontmatter import front_matter
from guidelint.project import Memo, Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.claude_code import is_agent_file


def _scope(rel: str) -> str:
    """The folder owning an agent's `agents/` (`.claude`, `plugins/x`, '' for a root plugin)."""
    parts = rel.split("/")
    return "/".join(parts[: parts.index("agents")])


def _names(project: Project) -> dict[tuple[str, str], list[str]]:
    """(scope, name) -> the agent files declaring it, in path order."""
    found: dict[tuple[str, str], list[str]] = {}
    for rel in sorted(project.files()):
        if not is_agent_file(rel, project):
            continue
        file = project.read(rel)
        data = front_matter(file) if file is not None else None
        name = data.get("name") if data is not None and data.is_mapping else None
        if isinstance(name, str) and name.strip():
            found.setdefault((_scope(rel), name.strip()), []).append(rel)
    return found


AGENT_NAMES = Memo("GL613.agent_names", _names)


class DuplicateAgentName(Rule):
    code = "GL613"
    name = "duplicate-agent-name"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    scope = "agent-files"

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        return file.kind == FileKind.MARKDOWN and is_agent_file(file.rel, project)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        data = front_matter(file)
        if data is None or data.problems or not data.is_mapping or "name" not in data.entries:
            return
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            return
        files = project.memo(AGENT_NAMES).get((_scope(file.rel), name.strip()), [])
        others = [rel for rel in files if rel != file.rel]
        if not others:
            return
        stem = posixpath.splitext(posixpath.basename(file.rel))[0]
        hint = f" (did you mean `{stem}`, the file's name?)" if stem != name.strip() else ""
        yield self.finding(
            file,
            data.entries["name"].value_span,
            f"agent name `{name.strip()}` is also declared by "
            + ", ".join(f"`{rel}`" for rel in others)
            + f": a `subagent_type` of that name reaches only one of them{hint}",
        )
