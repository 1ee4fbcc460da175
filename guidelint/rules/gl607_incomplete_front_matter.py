"""GL607 incomplete-front-matter: an agent without `name` and `description`, or a skill
without `description` (Claude Code decides when to load a skill by it; a skill's `name`
defaults to its folder's, so it is not required). Only skills where a harness loads
them (`is_loaded_skill`): a `SKILL.md` in another framework's agent folder is that
framework's file."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.doc_kind import is_fixture
from guidelint.findings import Finding, Severity
from guidelint.frontmatter import front_matter
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.claude_code import (
    facts,
    is_agent_file,
    is_loaded_skill,
    is_skill_file,
    point,
)


class IncompleteFrontMatter(Rule):
    code = "GL607"
    name = "incomplete-front-matter"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    scope = "agent-files"

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        if file.kind != FileKind.MARKDOWN or is_fixture(file.rel):
            return False  # a test fixture's skill is incomplete on purpose
        return is_loaded_skill(file.rel, project) or is_agent_file(file.rel, project)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        skill = is_skill_file(file.rel)
        what = "skill" if skill else "agent"
        severity = Severity.WARNING if skill else Severity.ERROR
        required = facts()["skill_required" if skill else "agent_required"]["keys"]
        data = front_matter(file)
        if data is None:
            yield self.finding(
                file,
                point(file, 0),
                f"this {what} has no front matter: Claude Code needs "
                + " and ".join(f"`{k}`" for k in required),
                severity=severity,
            )
            return
        if data.problems or not data.is_mapping:
            return  # GL601 reports it; keys past the broken line are unknown
        for key in required:
            value = data.get(key)
            if not isinstance(value, str) or not value.strip():
                span = data.entries[key].value_span if key in data.entries else data.span
                lacks = "an empty" if key in data.entries else "no"
                yield self.finding(
                    file,
                    span if span.end > span.start else point(file, span.start),
                    f"this {what} has {lacks} `{key}` in its front matter",
                    severity=severity,
                )
