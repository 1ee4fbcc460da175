"""Names that look like paths by convention but are not files of this repository.

An MCP method (`tools/call`), a GitHub Action (`actions/checkout@v4`), an import path
with its suffix left off (`src/email/generateEmailHTML`), the user's own file in a
labelled location field, `owner/repo/file.md` as the text of a link to another
repository, a linked file named from its own folder, and the users' `.claude/` that a
Claude Code plugin's docs describe.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from urllib.parse import unquote

from guidelint.lazy_re import LazyPattern
from guidelint.markdown import CodeSpan, Link
from guidelint.project import Memo, Project
from guidelint.rules.stale_path.project_files import FILE_INDEX, join_rel
from guidelint.rules.stale_path.sentences import CODE_SPAN_TEXT
from guidelint.sources import SourceFile
from guidelint.spans import Span

# Methods of the Model Context Protocol (its specification): `tools/call` is a JSON-RPC
# method, not a path, however much it looks like one.
MCP_METHODS = frozenset(
    {
        "tools/call",
        "tools/list",
        "resources/read",
        "resources/list",
        "resources/subscribe",
        "resources/unsubscribe",
        "resources/templates/list",
        "prompts/get",
        "prompts/list",
        "completion/complete",
        "logging/setLevel",
        "sampling/createMessage",
        "roots/list",
        "elicitation/create",
        "notifications/initialized",
        "notifications/cancelled",
        "notifications/progress",
        "notifications/message",
        "notifications/tools/list_changed",
        "notifications/resources/list_changed",
        "notifications/resources/updated",
        "notifications/prompts/list_changed",
        "notifications/roots/list_changed",
    }
)


# The protocol's method families and the verbs its methods end in: a newer method of a
# known family (`subscriptions/listen`, `tasks/get`) is as little a path as `tools/call`.
MCP_NAMESPACES = frozenset(
    {"tools", "resources", "prompts", "completion", "logging", "sampling", "roots"}
    | {"elicitation", "notifications", "subscriptions", "tasks"}
)
MCP_VERBS = frozenset(
    {"list", "call", "read", "get", "listen", "subscribe", "unsubscribe", "create", "cancel"}
    | {"complete", "setLevel", "result", "list_changed", "updated", "status", "cancelled"}
)


def mcp_method(text: str) -> bool:
    """`tools/call`, or a method of an MCP family with an MCP verb and no file suffix."""
    if text in MCP_METHODS:
        return True
    segments = text.split("/")
    return (
        2 <= len(segments) <= 3
        and segments[0] in MCP_NAMESPACES
        and segments[-1] in MCP_VERBS
        and "." not in text
    )


def module_path(path: str, bases: list[str], project: Project) -> bool:
    """A path with no extension that names a source file without its suffix, as JS, TS
    and Python imports do (`src/email/generateEmailHTML` for `generateEmailHTML.ts`)."""
    if path.endswith("/") or "." in posixpath.basename(path):
        return False
    _, by_folder = project.memo(FILE_INDEX)
    for base in bases:
        full = join_rel(base, path)
        prefix = posixpath.basename(full) + "."
        if any(
            posixpath.basename(rel).startswith(prefix)
            for rel in by_folder.get(posixpath.dirname(full), [])
        ):
            return True
    return False


def names_another_place(link: Link, span: CodeSpan, path: str) -> bool:
    """A code span as a link's text, the link a URL that does not end in the same path
    (one that does, `.../blob/main/<path>`, still names the path in a repository that
    may be this one)."""
    if not link.span.start <= span.span.start < link.span.end:
        return False
    target = link.href.split("#", 1)[0].split("?", 1)[0].rstrip("/")
    return not target.endswith("/" + path.strip("/"))


def named_from_its_folder(
    path: str, span: CodeSpan, link: Link | None, doc_dir: str, project: Project
) -> bool:
    """A code span as the text of a relative link whose target exists and ends with the
    path: "Run its [`references/checklist.md`](../security-review/references/checklist.md)"
    names the file from the linked skill's folder, as that skill's own pages do. Where
    the link itself goes wrong, GL502 reports it."""
    if link is None or not link.span.start <= span.span.start < link.span.end:
        return False
    href = unquote(link.href.split("#", 1)[0].split("?", 1)[0])
    if not href or href.startswith("/") or ":" in href:
        return False  # no target, a site-absolute one, or a URL (`mailto:`, `https:`)
    target = posixpath.normpath(posixpath.join(doc_dir, href)).rstrip("/")
    named = posixpath.normpath(path.removeprefix("./")).rstrip("/")
    if target.startswith("../") or not (target == named or target.endswith("/" + named)):
        return False
    return project.exists(target)


def link_around(links: list[Link], starts: list[int], offset: int) -> Link | None:
    """The link (of `links`, sorted by start; `starts` their starts) that begins last
    at or before `offset`: the only one that can hold it, links being never nested."""
    index = bisect.bisect_right(starts, offset)
    return links[index - 1] if index else None


def _is_plugin_repository(project: Project) -> bool:
    """A Claude Code plugin or marketplace (a `.claude-plugin/` manifest anywhere)."""
    return any("/.claude-plugin/" in f"/{rel}" for rel in project.files())


PLUGIN_REPOSITORY = Memo("GL501.plugin_repo", _is_plugin_repository)


def plugin_users_claude(path: str, project: Project) -> bool:
    """`.claude/agents/x.md` in a Claude Code plugin or marketplace: its docs describe
    the `.claude/` of the projects that install it, not a folder of its own."""
    return path.startswith(".claude/") and project.memo(PLUGIN_REPOSITORY)


# `owner/action` with an optional `@ref`: a GitHub Action as a workflow's `uses:` names it.
ACTION_NAME = re.compile(r"^[\w.-]+/[\w-]+(?:@[\w.\-]+)?$")

ACTION_CUE = LazyPattern(r"\buses:|\bGitHub Actions?\b|\baction\b", re.IGNORECASE)

USES = re.compile(r"^\s*-?\s*uses:\s*['\"]?([\w.-]+/[\w.-]+)", re.MULTILINE)


def action_reference(path: str, file: SourceFile, span: CodeSpan, project: Project) -> bool:
    """`actions/create-github-app-token`: an `owner/action` with no file suffix that its
    line calls an action (`uses:`, "GitHub Action", "the ... action") or that a workflow
    of this repository `uses:`."""
    if not ACTION_NAME.match(path):
        return False
    name = path.split("@", 1)[0]
    line_start = file.text.rfind("\n", 0, span.span.start) + 1
    line_end = file.text.find("\n", span.span.end)
    line = file.text[line_start : len(file.text) if line_end == -1 else line_end]
    return bool(ACTION_CUE.search(CODE_SPAN_TEXT.sub("", line))) or name in project.memo(
        WORKFLOW_ACTIONS
    )


def _workflow_actions(project: Project) -> frozenset[str]:
    """The `owner/action` names the repository's GitHub workflows and actions use."""
    names: set[str] = set()
    for rel in project.files():
        if rel.startswith(".github/") and rel.endswith((".yml", ".yaml")):
            source = project.read(rel)
            names.update(USES.findall(source.text if source else ""))
    return frozenset(names)


WORKFLOW_ACTIONS = Memo("GL501.workflow_actions", _workflow_actions)

# "- **Workspace Location**: `.clinerules/hooks/TaskStart`" beside "- **Global Location**:
# `~/Documents/...`": where a user puts their own file, as a labelled field.
LOCATION_FIELD = LazyPattern(r"^\s*(?:[-*+]\s+)?\*\*[\w /-]*\b(?:Location|Path)\*\*\s*:", re.I)

HOME_FIELD = LazyPattern(
    r"^\s*(?:[-*+]\s+)?\*\*[\w /-]*\b(?:Location|Path)\*\*\s*:\s*`(?:~|/|%|\$HOME)", re.I
)

FIELD_LINES = 3  # lines above and below a field that a neighbouring field may be on


def user_location(text: str, span: Span) -> bool:
    """The path is the value of a labelled location field, and a neighbouring field gives
    a location in the user's home or an absolute one: the guide documents where users put
    their files (a workspace and a global place), not files of this repository."""
    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = text.find("\n", span.end)
    line = text[line_start : len(text) if line_end == -1 else line_end]
    if not LOCATION_FIELD.match(line):
        return False
    window = 200 * FIELD_LINES  # characters: a field line is short
    lines = text[max(0, line_start - window) : line_start].split("\n")[-FIELD_LINES - 1 : -1]
    after_start = len(text) if line_end == -1 else line_end + 1
    after = text[after_start : after_start + window].split("\n", FIELD_LINES)
    return any(HOME_FIELD.match(near) for near in lines + after[:FIELD_LINES])


# The change types of Conventional Commits, as git branch names start with them.
CHANGE_TYPES = frozenset(
    {"feat", "feature", "fix", "bugfix", "hotfix", "chore", "docs", "refactor", "test"}
    | {"tests", "ci", "perf", "build", "style", "release", "revert", "community"}
)

BRANCH_WORD = LazyPattern(r"\bbranch(?:es|ing)?\b", re.IGNORECASE)

BRANCH_CONTEXT = 1500  # characters before the span: the section that speaks of branches


def branch_prefix(path: str, text: str, span: Span) -> bool:
    """`feat/` in a table of branch names ("| `feat/` | New features |
    `feat/2342-cli` |"): one segment and a slash, the text above speaks of branches,
    and the line gives an example name with that prefix or the segment is a change
    type of Conventional Commits. A naming rule for git branches, not a folder."""
    if not path.endswith("/") or path.count("/") != 1 or path.startswith("."):
        return False
    if not BRANCH_WORD.search(text[max(0, span.start - BRANCH_CONTEXT) : span.start]):
        return False
    if path.rstrip("/").lower() in CHANGE_TYPES:
        return True
    line_end = text.find("\n", span.end)
    rest = text[span.end : len(text) if line_end == -1 else line_end]
    return any(
        example.startswith(path) and len(example) > len(path)
        for example in (code.group(0).strip("`") for code in CODE_SPAN_TEXT.finditer(rest))
    )
