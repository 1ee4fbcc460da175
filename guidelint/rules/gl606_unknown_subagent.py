"""GL606 unknown-subagent: a delegation to a subagent no agent file defines.

What counts as a delegation (also in rules/GL606.md): `subagent_type: "x"` (and
`subagent_type="x"`, `"subagent_type": "x"`) of an Agent/Task call, and "use / invoke /
launch / dispatch / delegate to the X agent (subagent)" where X is a code span or a
hyphenated name. A name resolves to an agent the project defines (`.claude/agents`,
a plugin's `agents/`: its `name`, else its file name), Claude Code's built-in ones, a
plugin-qualified `plugin:agent`, or a marketplace's `<plugin>-<agent>`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.rules.broken_link.steering import is_steering_file
from guidelint.sources import FileKind, SourceFile
from guidelint.spans import Span
from guidelint.tools.claude_code import (
    defined_agents,
    did_you_mean,
    is_agent_file,
    is_skill_file,
    listed_subagents,
    names,
    plugin_roots,
    read_by_claude_code,
)

CALL = re.compile(r"""["']?subagent_type["']?\s*[:=]\s*["'](?P<name>[^"'\s{}<>$]+)["']""")
# The lookahead (a verb's first letter) lets the scanner skip most positions at once.
PROSE = re.compile(
    r"(?=[uildhsc])\b(?:use|invoke|launch|dispatch|delegate to|hand off to|spawn|call)"
    r"\s+(?:the\s+)?"
    r"(?:`(?P<code>[A-Za-z0-9:_\-]+)`|(?P<name>[a-z0-9]+(?:-[a-z0-9]+)+))\s+"
    r"(?:sub-?agent|agent)\b",
    re.IGNORECASE,
)
# A delegation ends in "agent"; before any "agent" inside it there are at most five runs
# of whitespace (in "hand off to", after the verb, after "the", before "agent"). So one
# that holds an "agent" starts in the WINDOW characters before it wherever those hold
# more runs than that (DENSE); elsewhere the scan reaches back further.
WINDOW = 160
# Claude Code's delegation tool, as a document names it (`Task(`, "the Agent tool");
# deepagents' lower-case `task` tool takes a `subagent_type` of its own.
CLAUDE_TOOL = re.compile(r"\b(?:Task|Agent)(?:\s+tool\b|\s*\(|`)")
DENSE = re.compile(r"(?:\s+\S+){5}\s")  # six runs of whitespace


class UnknownSubagent(Rule):
    code = "GL606"
    name = "unknown-subagent"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    scope = "agent-files"

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        rel = file.rel
        if file.kind != FileKind.MARKDOWN:
            return False
        return (
            is_steering_file(rel)
            or is_agent_file(rel, project)
            or is_skill_file(rel)
            or "/commands/" in f"/{rel}"
        )

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        known: frozenset[str] = frozenset()  # never empty once read: the built-ins
        claude_doc: bool | None = None
        for span, name, is_call in _delegations(file.text):
            if claude_doc is None:  # at the first delegation, as `known`
                claude_doc = read_by_claude_code(file.rel, project)
            if not (claude_doc or (is_call and CLAUDE_TOOL.search(file.text))):
                continue  # another harness's or framework's agents (rules/GL606.md)
            if not known:  # at the first delegation: a file without one rests on no
                # agent file and not on the file list (the result cache re-checks less)
                known = (
                    defined_agents(project)
                    | listed_subagents(project)
                    | frozenset(names("builtin_agents"))
                )
            if _resolves(name, known, project):
                continue
            candidates = known | {n.lower() for n in known}
            yield self.finding(
                file,
                span,
                f"no agent named `{name}` is defined here{did_you_mean(name, candidates)}",
            )


def _delegations(text: str) -> Iterator[tuple[Span, str, bool]]:
    """Each delegation's name, where it is, and whether it is a `subagent_type` call."""
    # Cheap exact prefilters: each pattern needs its literal word (most files have neither).
    calls = CALL.finditer(text) if "subagent_type" in text else ()
    for match in calls:
        yield Span(match.start("name"), match.end("name")), match.group("name"), True
    lowered = text.lower()
    if "agent" not in lowered:
        return
    # Each character lower-cased in place (as nearly always): only the parts around an
    # "agent" can hold a delegation; PROSE reads them in the text itself.
    parts = _around_agent(lowered) if len(lowered) == len(text) else [(0, len(text))]
    for begin, stop in parts:
        for match in PROSE.finditer(text, begin, stop):
            group = "code" if match.group("code") else "name"
            yield Span(match.start(group), match.end(group)), match.group(group), False


def _around_agent(lowered: str) -> list[tuple[int, int]]:
    """The parts of a lower-cased text where PROSE can match, in order, apart:
    the WINDOW before each "agent" and one character after it (for the last boundary),
    joined where they overlap, or where a window is not DENSE (a match may start
    before it: then the part reaches back to the one before, or to the start)."""
    parts: list[list[int]] = []
    at = lowered.find("agent")
    while at != -1:
        start, stop = max(0, at - WINDOW), at + len("agent") + 1
        if start and not DENSE.search(lowered, start, at):
            start = parts[-1][0] if parts else 0
        if parts and start <= parts[-1][1]:
            parts[-1][1] = stop
        else:
            parts.append([start, stop])
        at = lowered.find("agent", at + 1)
    return [(start, stop) for start, stop in parts]


def _resolves(name: str, known: set[str] | frozenset[str], project: Project) -> bool:
    if name in known or name.lower() in {k.lower() for k in known}:
        return True
    last = re.split(r":+", name)[-1]
    if last != name and last in known:
        return True  # plugin:agent, plugin::agent
    plugins = {root.rsplit("/", 1)[-1] for root in plugin_roots(project) if root}
    return any(
        name.startswith(f"{plugin}-") and name[len(plugin) + 1 :] in known for plugin in plugins
    )
