"""GL622 invalid-front-matter-value: an agent's, skill's, command's or output style's
front-matter value that Claude Code cannot use: a `permissionMode`, `effort`, `memory` or
`isolation` outside its documented values, a `maxTurns` that is no positive whole
number, a `background` that is no boolean, a `model` that is a misspelt alias, a tool
both allowed and disallowed, a preloaded skill that is a misspelling of one the project
defines, a shared skill's description past the specification's 1,024 characters, a
project skill's past the listing Claude Code cuts it to; an output style's
`keep-coding-instructions` that is no boolean, a `force-for-plugin` outside a plugin."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator
from typing import Any

from guidelint.findings import Finding, Severity
from guidelint.frontmatter import Entry, FrontMatterData, front_matter, string_items
from guidelint.project import Memo, Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.catalog import close_names
from guidelint.tools.claude_code import (
    facts,
    front_matter_kind,
    is_plugin_output_style,
    is_skill_file,
    json_doc,
)

# A preloaded skill is reported only when a defined skill is this close to it: one that
# is nowhere in the repository may be the user's own (~/.claude/skills).
MISSPELT = 0.8


class InvalidFrontMatterValue(Rule):
    code = "GL622"
    name = "invalid-front-matter-value"
    severity = Severity.WARNING
    file_kinds = frozenset({FileKind.MARKDOWN})
    scope = "agent-files"

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        return front_matter_kind(file, project) is not None

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        data = front_matter(file)
        if data is None or data.problems or not data.is_mapping:
            return  # no front matter (GL607) or unreadable (GL601)
        values = facts()["front_matter_values"]
        kind = front_matter_kind(file, project) or "agent"
        for key, spec in values[kind].items():
            entry = data.entries.get(key)
            if entry is None:
                continue
            if spec.get("plugin_only") and not is_plugin_output_style(file.rel):
                if entry.value not in (True, "true"):
                    continue  # ignored, but it asks for what Claude Code does anyway
                yield self.finding(
                    file,
                    entry.key_span,
                    f"`{key}` applies to a plugin's output styles only: Claude Code ignores "
                    "it here, so this style is applied only when someone selects it",
                )
                continue
            problem = _value_problem(entry.value, spec, values["model_aliases"])
            if problem:
                yield self.finding(file, entry.value_span, f"`{key}` {problem}")
        if kind in ("command", "output-style"):
            return
        if kind == "agent":
            yield from self._conflicts(file, data)
            yield from self._preloaded(file, project, data)
        elif _shared(file.rel):
            yield from self._description(file, data, values["skill_description_max"])
        else:
            yield from self._listing(file, project, data, values["skill_listing_max_chars"])

    def _conflicts(self, file: SourceFile, data: FrontMatterData) -> Iterator[Finding]:
        tools, denied = data.entries.get("tools"), data.entries.get("disallowedTools")
        if tools is None or denied is None:
            return
        allowed = {name for name, _ in string_items(tools)}
        for name, span in string_items(denied):
            if name in allowed:
                yield self.finding(
                    file,
                    span,
                    f"`{name}` is in both `tools` and `disallowedTools`: Claude Code removes "
                    f"disallowed tools from the list, so this agent cannot use `{name}`",
                )

    def _preloaded(
        self, file: SourceFile, project: Project, data: FrontMatterData
    ) -> Iterator[Finding]:
        entry = data.entries.get("skills")
        if entry is None:
            return
        defined = project.memo(SKILLS)
        for name, span in _names(entry):
            if ":" in name or name in defined:
                continue  # a plugin's skill (`plugin:skill`) or one of the project's
            close = close_names(name, defined, n=1, cutoff=MISSPELT)
            if close:
                yield self.finding(
                    file,
                    span,
                    f"`skills` preloads `{name}`, which no skill here defines, so nothing "
                    f"is preloaded (did you mean `{close[0]}`?)",
                )

    def _description(
        self, file: SourceFile, data: FrontMatterData, limit: int
    ) -> Iterator[Finding]:
        entry = data.entries.get("description")
        if entry is None or not isinstance(entry.value, str) or len(entry.value) <= limit:
            return
        yield self.finding(
            file,
            entry.value_span,
            f"the description is {len(entry.value):,} characters; the Agent Skills "
            f"specification allows {limit:,}, and harnesses may cut or reject it",
        )

    def _listing(
        self, file: SourceFile, project: Project, data: FrontMatterData, default: int
    ) -> Iterator[Finding]:
        """A project skill's description and `when_to_use` past the cap of the listing
        Claude sees: the rest is cut before the model reads it."""
        entry = data.entries.get("description")
        if entry is None or not isinstance(entry.value, str):
            return
        if data.get("disable-model-invocation") is True:
            return  # not in the model's listing at all
        extra = data.get("when_to_use")
        size = len(entry.value) + (len(extra) if isinstance(extra, str) else 0)
        cap = _listing_cap(file.rel, project) or default
        if size > cap:
            what = "description and `when_to_use`" if isinstance(extra, str) else "description"
            yield self.finding(
                file,
                entry.value_span,
                f"the {what} run to {size:,} characters; Claude Code lists {cap:,} of them "
                f"(`skillListingMaxDescChars`) and cuts the rest before the model reads it",
            )


def _listing_cap(rel: str, project: Project) -> int | None:
    """`skillListingMaxDescChars` of the settings beside the skill's `.claude/` (the
    local file over the checked-in one), when set to a positive whole number."""
    claude = rel.split("/skills/")[0] if "/skills/" in rel else ".claude"
    for name in ("settings.local.json", "settings.json"):
        settings = project.read(posixpath.join(claude, name))
        if settings is None:
            continue
        data = json_doc(settings).data
        cap = data.get("skillListingMaxDescChars") if isinstance(data, dict) else None
        if isinstance(cap, int) and not isinstance(cap, bool) and cap > 0:
            return cap
    return None


def _value_problem(value: Any, spec: dict[str, Any], models: dict[str, Any]) -> str | None:
    if value is None:
        return None  # an empty key asks for the default
    if spec.get("type") == "model":
        return _model_problem(value, models)
    if spec.get("type") == "loose-boolean" and value not in (True, False, "true", "false"):
        return f"must be `true` or `false`, not {_shown(value)}: Claude Code reads it as unset"
    allowed = spec.get("enum")
    if allowed is not None:
        if isinstance(value, str) and value in allowed:
            return None
        shown = ", ".join(f"`{v}`" for v in allowed)
        close = close_names(str(value), allowed, n=1) if isinstance(value, str) else []
        hint = f" (did you mean `{close[0]}`?)" if close else ""
        return f"is `{value}`, not one of {shown}{hint}"
    if spec.get("type") == "positive-integer":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return f"must be a whole number above 0, not {_shown(value)}"
    if spec.get("type") == "boolean" and not isinstance(value, bool):
        return f"must be `true` or `false`, not {_shown(value)}"
    return None


def _model_problem(value: Any, models: dict[str, Any]) -> str | None:
    """A `model` that is a near spelling of an alias (`sonet`, `opus-plan`). Anything
    shaped like a model id or a deployment name is left alone: new ones ship every few
    weeks, and an unknown one is more likely new than wrong."""
    if not isinstance(value, str):
        return None
    name = value.strip().lower()  # Claude Code lowercases it before resolving an alias
    aliases = models["names"]
    if not name or name in aliases or re.search(models["id_shape"], name):
        return None
    close = close_names(name, aliases, n=1, cutoff=models["misspelt_cutoff"])
    if not close:
        return None  # a gateway's or provider's own name, perhaps
    return (
        f"is `{value}`, which is no model alias (did you mean `{close[0]}`?): Claude Code "
        "takes it for a full model name, which no model has"
    )


def _shown(value: Any) -> str:
    """A value as YAML would show it: a string quoted, so `"10"` is not read as 10."""
    return f"`{json.dumps(value)}`" if isinstance(value, str) else f"`{value}`"


def _names(entry: Entry) -> Iterator[tuple[str, Any]]:
    for name, span in string_items(entry):
        if name:
            yield name, span


def _shared(rel: str) -> bool:
    """A skill made to be shared (GL608's reading): not a project's own `.claude/skills`."""
    return ".claude" not in rel.split("/")[:-3]


def _skills(project: Project) -> frozenset[str]:
    """Every skill the repository defines: its folder name and its front-matter `name`."""
    found: set[str] = set()
    for rel in project.files():
        if not is_skill_file(rel):
            continue
        found.add(posixpath.basename(posixpath.dirname(rel)))
        file = project.read(rel)
        data = front_matter(file) if file is not None else None
        name = data.get("name") if data is not None and data.is_mapping else None
        if isinstance(name, str) and name.strip():
            found.add(name.strip())
    return frozenset(found)


SKILLS = Memo("GL622.skills", _skills)
