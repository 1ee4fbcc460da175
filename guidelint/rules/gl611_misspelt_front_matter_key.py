"""GL611 misspelt-front-matter-key: an agent's, skill's or output style's front-matter key
that Claude Code does not read, written like one it does (`user_invocable` for
`user-invocable`, an agent's `allowedTools` for `tools`, an output style's
`keep_coding_instructions`): the setting is silently ignored."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.frontmatter import front_matter
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.claude_code import facts, front_matter_kind

# The kinds whose keys claude_code.json lists (a command's are not listed).
KINDS = ("agent", "skill", "output-style")


class MisspeltFrontMatterKey(Rule):
    code = "GL611"
    name = "misspelt-front-matter-key"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    scope = "agent-files"

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        return front_matter_kind(file, project) in KINDS

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        data = front_matter(file)
        if data is None or data.problems or not data.is_mapping:
            return  # no front matter (GL607) or unreadable (GL601)
        kind = front_matter_kind(file, project) or "agent"
        what = {"skill": "a skill", "agent": "an agent", "output-style": "an output style"}[kind]
        keys = facts()["front_matter_keys"]
        known = keys[kind]
        by_form = {_form(k): k for k in known}
        confusions = keys["confusions"][kind]
        for key, entry in data.entries.items():
            if key in known:
                continue
            meant = confusions.get(key) or by_form.get(_form(key))
            if meant is None or meant in data.entries:
                continue  # metadata of its own, or the right key is there too
            if keys["defaults"].get(meant, ...) == data.get(key):
                continue  # ignored, but it asks for what Claude Code does anyway
            yield self.finding(
                file,
                entry.key_span,
                f"Claude Code does not read `{key}` in {what}'s front matter, so this "
                f"setting is ignored (did you mean `{meant}`?)",
            )


def _form(key: str) -> str:
    """A key without case or separators: `user_invocable`, `userInvocable` and
    `user-invocable` are one form."""
    return key.replace("-", "").replace("_", "").lower()
