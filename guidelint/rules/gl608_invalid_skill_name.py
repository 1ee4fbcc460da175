"""GL608 invalid-skill-name: a shared skill's `name` that the Agent Skills specification
rejects (1-64 lowercase letters, digits and single hyphens), or that differs from its
folder."""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.frontmatter import front_matter
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.claude_code import facts, is_skill_file

# `.agents/skills`: the folder the Agent Skills specification's harnesses share.
SHARED_FOLDERS = (".agents",)


class InvalidSkillName(Rule):
    code = "GL608"
    name = "invalid-skill-name"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    scope = "agent-files"

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        """Skills made to be shared (a plugin's, a root `skills/`, `.agents/skills`,
        `.codex/skills`): the specification is what other harnesses load them by. A
        project's own `.claude/skills` is Claude Code's alone, which takes other names
        too (`dyad:pr-push`, `torch_bisect`: reviewed on the corpora, docs/HARNESSES.md)."""
        if file.kind != FileKind.MARKDOWN or not is_skill_file(file.rel):
            return False
        owner = file.rel.split("/")[:-3]
        if ".claude" in owner:
            return False
        if owner and owner[-1].startswith(".") and owner[-1] not in SHARED_FOLDERS:
            return _harness_requires_spec(file.rel)
        return True

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        data = front_matter(file)
        if data is None or data.problems or not data.is_mapping or "name" not in data.entries:
            return  # no name: Claude Code uses the folder's; unreadable: GL601's
        value = data.get("name")
        span = data.entries["name"].value_span
        folder = posixpath.basename(posixpath.dirname(file.rel))
        if not isinstance(value, str):
            yield self.finding(file, span, "a skill's `name` must be a string")
            return
        rule = facts()["skill_name"]
        if len(value) > rule["max_length"] or not re.fullmatch(rule["pattern"], value):
            hint = _kebab(value)
            suggestion = f" (did you mean `{hint}`?)" if hint and hint != value else ""
            yield self.finding(
                file,
                span,
                f"skill name `{value}` is not 1-{rule['max_length']} lowercase letters, digits "
                f"and single hyphens (Agent Skills specification){suggestion}",
            )
            return
        if value != folder:
            yield self.finding(
                file,
                span,
                f"skill name `{value}` differs from its folder `{folder}`: the Agent Skills "
                f"specification requires them equal (did you mean `{folder}`?)",
                severity=Severity.WARNING,
            )


def _kebab(name: str) -> str:
    """`DeployStaging`, `deploy_staging`, `Deploy Staging` -> `deploy-staging` (cut at 64)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name.strip())
    words = re.split(r"[^A-Za-z0-9]+", spaced)
    return "-".join(w.lower() for w in words if w)[:64].strip("-")


def _harness_requires_spec(rel: str) -> bool:
    """A harness's own skills folder (`.codex/skills`, `.gemini/skills`): reported only
    where a harness that loads it declares GL608 (its docs or the specification it says
    it follows require the format, harnesses.json); Gemini CLI's docs read here do not."""
    from guidelint.tools.harnesses import harnesses

    return any(
        harness.concerns("GL608")
        and any(fnmatch.fnmatchcase(rel, pattern) for pattern in harness.components)
        for harness in harnesses().values()
    )
