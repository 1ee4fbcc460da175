"""What kind of document a path sits in: one that steers, one that records history,
or a test fixture.

A steering document (CLAUDE.md, AGENTS.md, rules, agents, commands, skills, guides,
READMEs) states what is: a path it names that does not exist is a defect. A history
document (plans, specs, ADRs, changelogs, release notes, reports, research, dated
notes, archived versions of the docs) states what was or will be: a path it names
may be one it proposes, one since moved, or one never made. A fixture is a test's
input (`testdata/`, `fixtures/`, a test's `specs/`): its defects are on purpose.

The decision rests on evidence that holds across repositories, strongest first:

1. a steering file's own name or place (`CLAUDE.md`, `.claude/`, `skills/`, ...);
2. a test fixture tree;
3. the file name: a changelog, release notes, a dated name (`2024-05-01-...`,
   `2026-June.md`), an ADR's number (`0007-use-x.md`), a design document's, an RFC's
   or a proposal's (`telemetry-design.md`, `SDK_DESIGN.md`, `x-rfc.md`), a plan's or
   a roadmap's (`update-task-migration-plan.md`, `ROADMAP.md`);
4. front matter or a header line that records a status or a date
   (`status: implemented`, `**Status**: Draft`, `Date: 2024-05-01`), a title that
   calls the document a plan, a roadmap or a proposal ("# Plugin Re-organization
   Plan"), or two of a design document's or a project plan's sections ("Proposed
   Solution", "Implementation Plan", "Deliverables", "Estimated Effort"), or a
   recorded chat transcript (its head says so; `#### ` prompts and `> ` output lines);
5. a folder by convention for history (`plans/`, `specs/`, `spec/`, `specification/`,
   `rfcs/`, `adr/`, `design/`, `design-doc/`, `design_docs/`, `proposal/`, `reports/`,
   `research/`, `archive/`, `*-notes/`), or a periodical's (`newsletters/`, `blog/`,
   `weekly/`);
6. a frozen copy of the docs for a released version (`versioned_snapshot`): a folder
   named like a version (`v1.10.0`, `1.2`, `version-1.2`) with sibling versions and a
   current one (`edge/`, `latest/`, `next/`, ..., or the unversioned docs root), or
   the site's configuration declaring versions (Mintlify `docs.json` `versions`, MkDocs
   `mike`), or Docusaurus's `versioned_docs/` beside its `versions.json`. A lone
   `api/v2/` is a current API's.

A history document stays a steering one when a steering file names it (then agents are
sent to it), unless it calls itself a plan by its name or title: a plan names work to
do, whoever sends agents to read it. Within any document, a section whose heading says
it holds what is not built yet ("Future work", "Not yet implemented") is read as a
plan's (`planned_section`).
"""

from __future__ import annotations

import json
import posixpath
import re
from typing import TYPE_CHECKING, Literal

from guidelint.project import Memo
from guidelint.sources import Derived

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile

DocKind = Literal["steering", "history", "fixture", "guide"]

STEERING_NAMES = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "SKILL.md", "GEMINI.md"})
STEERING_FOLDERS = frozenset({".claude", ".agents", "skills", "agents", "commands", "rules"})
# Test inputs: their broken links and bad examples are what the tests feed a tool.
FIXTURE_FOLDERS = frozenset(
    {"testdata", "test-data", "test_data", "fixtures", "fixture", "__fixtures__", "__snapshots__"}
)
TEST_FOLDERS = frozenset({"test", "tests", "__tests__", "spec"})
# Under a test folder, or in a crate's or package's `resources/`: inputs of its tests.
FIXTURE_UNDER_TESTS = re.compile(r"spec|suite|snapshot|resource|case|data|input|sample|corpus")
HISTORY_NAME = re.compile(
    r"^(?:change[-_ ]?log|changes|history|news|release[-_ ]?notes?|releases|"
    r"upgrad\w*[-_]notes?)(?:[-_.][\w.-]*)?\.(?:md|mdx|markdown)$",
    re.IGNORECASE,
)
DATED_NAME = re.compile(r"(?:^|[-_/])(?:19|20)\d\d[-_]?(?:0[1-9]|1[0-2])(?:[-_]?\d\d)?(?:[-_.]|$)")
# A month written as a word next to a year: `2026-June`, `june-2026`, `2024_sep_03`.
MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
MONTH_DATED_NAME = re.compile(
    rf"(?:^|[-_ ])(?:(?:19|20)\d\d[-_ ]?{MONTH}|{MONTH}[-_ ]?(?:19|20)\d\d)(?:[-_ .]|$)",
    re.IGNORECASE,
)
# A periodical: its issues record what happened in their period (`newsletters/`,
# `blog/`, `weekly/`), whatever their file names.
PERIODICAL_FOLDER = re.compile(
    r"^(?:newsletters?|digests?|bulletins?|blog|(?:weekly|monthly)(?:[-_]\w+)?|"
    r"\w+[-_](?:weekly|monthly|updates))$",
    re.IGNORECASE,
)
ADR_NAME = re.compile(r"^\d{3,4}[-_][a-z]")
# A design document, an RFC or a proposal by its name: `telemetry-design.md`,
# `SDK_DESIGN.md`, `extension-rfc.md`, `cache-design-doc.md`.
DESIGN_NAME = re.compile(r"[-_ ](?:design(?:[-_ ]?docs?)?|rfc|proposal)$", re.IGNORECASE)
# A plan or a roadmap by its name: `update-task-migration-plan.md`, `v2_ux_plan.md`,
# `AI_FILTER_PLAN.md`, `ROADMAP.md`. (`PLANNING.md`, `plan-mode.md` are not.) A test
# plan, a query plan or an execution plan describes what is; a workflow's step
# (`step-02-plan.md`) is an instruction.
PLAN_NAME = re.compile(
    r"^(?!step[-_ ]?\d)(?:.*(?<!test)(?<!query)(?<!execution)[-_ ])?"
    r"(?:plan|roadmap)$",
    re.IGNORECASE,
)
# A plan or a proposal by its title: "# SuperClaude Plugin Re-organization Plan",
# "# Migration Roadmap", "# Caching Proposal ✅", "# RFC: ...", "# Plan: ...". ("# Plan
# Mode" names a feature; "# Step 2: Plan" is a workflow's step.)
PLAN_TITLE = re.compile(
    r"^#[ \t]+(?!step[ \t]*\d)"
    r"(?:[^\n]*(?<!test)(?<!query)(?<!execution)[ \t](?:plan|roadmap|proposal)[^\w\n]*|"
    r"rfc\b[^\n]*|(?:plan|roadmap|proposal)[ \t]*[:\u2013\u2014-][^\n]*)$",
    re.IGNORECASE,
)
FIRST_HEADING = re.compile(r"^#{1,6}[ \t]+[^\n]*$", re.MULTILINE)
# The sections a design document, a proposal or a project plan is made of: two of them
# make one. A heading may add a note in parentheses ("Out of Scope (Phase 1)").
DESIGN_HEADING = re.compile(
    r"^#{1,4}[ \t]+(?:[\d.]+[ \t]+)?(proposed (?:solution|design|changes?|components)|"
    r"implementation plan|technical design|alternatives considered|non[-\u2011 ]?goals|"
    r"goals and non[-\u2011 ]?goals|open questions|rollout plan|problem statement|"
    r"deliverables|success criteria|out of scope|estimated effort|effort estimate|"
    r"risks (?:&|and) mitigations?|milestones|next phase)"
    r"(?:[ \t]*\([^)\n]*\))?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
HISTORY_FOLDERS = frozenset(
    {
        "plans",
        "plan",
        "specs",
        "spec",
        "specification",
        "specifications",
        "rfcs",
        "rfc",
        "adr",
        "adrs",
        "decisions",
        "design",
        "design_doc",
        "design-doc",
        "design_docs",
        "design-docs",
        "designdocs",
        "designs",
        "proposal",
        "proposals",
        "brainstorms",
        "reports",
        "research",
        "archive",
        "archives",
        "archived",
        "changelog",
        "changelogs",
        "release-notes",
        "release_notes",
        "postmortems",
        "retrospectives",
        "history",
        "notes",
    }
)
NOTES_FOLDER = re.compile(r"^[\w.]+[-_]notes$", re.IGNORECASE)  # v3-notes, dev_notes
DOCS_FOLDERS = frozenset({"docs", "doc", "documentation", "content", "site", "website"})
# A folder named like a version: `v2`, `v1.10.0`, `1.2`, `2.x`, Docusaurus's `version-1.2`.
VERSION_FOLDER = re.compile(
    r"^(?:v\d+(?:\.\d+)*(?:\.x)?|\d+(?:\.\d+)+(?:\.x)?|\d+\.x|version-[\w.-]+)$", re.IGNORECASE
)
# Beside version folders, the one a docs site serves as today's docs.
CURRENT_FOLDERS = frozenset(
    {"edge", "latest", "next", "current", "main", "master", "stable", "dev", "unreleased"}
)
# Docs-site configurations that can declare versions, looked for from the versions'
# parent up to the root: Mintlify (`versions`), MkDocs with mike.
SITE_CONFIGS = ("docs.json", "mint.json", "mkdocs.yml", "mkdocs.yaml")
# A line near the top that records a status or a date: a plan's or a spec's header.
STATUS_LINE = re.compile(
    r"^\W{0,4}(?:status|state)\W{0,4}:\W{0,4}(?:draft|proposed|accepted|implemented|"
    r"superseded|deprecated|done|complete[d]?|archived|in[- ]progress|shipped|rejected|"
    r"planned|approved|wip|merged|landed)\b",
    re.IGNORECASE | re.MULTILINE,
)
DATE_LINE = re.compile(
    r"^\W{0,4}(?:date|created|last[ _-]updated|updated)\W{0,4}:\W{0,4}['\"]?\d{4}-\d\d-\d\d",
    re.IGNORECASE | re.MULTILINE,
)
HEAD_CHARS = 1500  # the header a plan or spec keeps its status in
# A recorded chat session: its head says it is a transcript, and its body holds the
# user's turns (`#### ` prompts) and the tool's recorded output (`> ` lines), two each.
TRANSCRIPT_HEAD = re.compile(
    r"\b(?:chat|session|conversation)[ -]transcripts?\b|\btranscripts? of (?:a|an|the|my|our)\b",
    re.IGNORECASE,
)
PROMPT_TURN = re.compile(r"^#### \S", re.MULTILINE)
RECORDED_OUTPUT = re.compile(r"^> \S", re.MULTILINE)
TRANSCRIPT_TURNS = 2


def is_steering(rel: str) -> bool:
    """CLAUDE.md, AGENTS.md, SKILL.md, and what sits in `.claude/`, `skills/`, ..."""
    name = posixpath.basename(rel)
    if name in STEERING_NAMES:
        return True
    return any(part in STEERING_FOLDERS for part in rel.split("/")[:-1])


def is_fixture(rel: str) -> bool:
    """A test's input: under `testdata/`, `fixtures/`, or a test folder's `specs/`,
    `snapshots/`, `resources/` (a crate's `resources/` holds its tests' inputs)."""
    folders = rel.split("/")[:-1]
    if any(part in FIXTURE_FOLDERS for part in folders):
        return True
    for index, part in enumerate(folders):
        if index > 0 and FIXTURE_UNDER_TESTS.search(part.lower()):
            above = folders[:index]
            if any(p in TEST_FOLDERS for p in above):
                return True
            if part == "resources" and not any(p in DOCS_FOLDERS for p in above):
                return True
    return False


def history_by_path(rel: str) -> str | None:
    """Why the path alone says the document records history, or None."""
    name = posixpath.basename(rel)
    if HISTORY_NAME.match(name):
        return "a changelog or release notes"
    folders = rel.split("/")[:-1]
    stem = posixpath.splitext(name)[0]
    if DATED_NAME.search(stem) or MONTH_DATED_NAME.search(stem):
        return "a dated note"
    if DESIGN_NAME.search(stem):
        return "a design document, an RFC or a proposal by its name"
    if PLAN_NAME.match(stem):
        return "a plan or a roadmap by its name"
    for part in folders:
        lowered = part.lower()
        if lowered in HISTORY_FOLDERS or NOTES_FOLDER.match(part):
            return f"in `{part}/`, a folder of plans, specs, notes or reports"
        if PERIODICAL_FOLDER.match(part):
            return f"in `{part}/`, the issues of a periodical"
    if ADR_NAME.match(name) and folders and folders[-1].lower() in {"adr", "adrs", "decisions"}:
        return "an architecture decision record"
    return None


def versioned_snapshot(rel: str, project: Project) -> str | None:
    """Why `rel` lies in a frozen copy of the docs for a released version, or None.

    A version-named folder alone proves nothing (`docs/api/v2/` documents a current
    API); it takes sibling versions plus a current folder (`edge/`, or the parent
    itself when it holds the same folders as the copy), the site's configuration
    declaring versions (then every version but the newest is a copy), or Docusaurus's
    `versioned_docs/` beside its `versions.json`."""
    folders = rel.split("/")[:-1]
    for index, part in enumerate(folders):
        if not VERSION_FOLDER.match(part):
            continue
        parent = "/".join(folders[:index])
        if index and folders[index - 1] == "versioned_docs":
            if project.exists(posixpath.join(posixpath.dirname(parent), "versions.json")):
                return f"in `{part}/`, a Docusaurus copy of the docs of a released version"
            continue
        children = project.memo(CHILD_FOLDERS)
        siblings = children.get(parent, frozenset())
        versions = sorted(name for name in siblings if VERSION_FOLDER.match(name))
        if len(versions) < 2:
            continue
        current = sorted(name for name in siblings if name.lower() in CURRENT_FOLDERS)
        copy = f"in `{part}/`, a copy of the docs of a released version"
        if current:
            return f"{copy} (current: `{current[0]}/`)"
        # The current docs at the versions' parent itself: its folders repeat the copy's.
        mirrored = children.get(posixpath.join(parent, part), frozenset()) & siblings
        if mirrored:
            return f"{copy} (current: `{parent or '.'}/`, beside it)"
        if part != max(versions, key=_version_key) and _declares_versions(project, parent):
            return f"{copy} (the site declares versions)"
    return None


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(number) for number in re.findall(r"\d+", name))


def _child_folders(project: Project) -> dict[str, frozenset[str]]:
    """Per folder of the project, the names of the folders directly in it."""
    children: dict[str, set[str]] = {}
    for rel in project.files():
        parts = rel.split("/")[:-1]
        for index, part in enumerate(parts):
            children.setdefault("/".join(parts[:index]), set()).add(part)
    return {folder: frozenset(names) for folder, names in children.items()}


def _declares_versions(project: Project, folder: str) -> bool:
    """Whether a docs-site configuration in `folder` or above declares versions."""
    known = project.memo(DECLARES_VERSIONS)
    if folder not in known:
        known[folder] = _config_above(project, folder)
    return known[folder]


def _config_above(project: Project, folder: str) -> bool:
    while True:
        for name in SITE_CONFIGS:
            source = project.read(posixpath.join(folder, name))
            if source is not None and _config_has_versions(name, source.text):
                return True
        if not folder:
            return False
        folder = posixpath.dirname(folder)


def _config_has_versions(name: str, text: str) -> bool:
    if name.endswith(".json"):
        try:
            config = json.loads(text)
        except ValueError:
            return False
        navigation = config.get("navigation") if isinstance(config, dict) else None
        return isinstance(config, dict) and (
            bool(config.get("versions"))
            or (isinstance(navigation, dict) and bool(navigation.get("versions")))
        )
    return re.search(r"^\s*(?:-\s*)?mike\b|provider:\s*mike\b", text, re.MULTILINE) is not None


def history_by_text(text: str) -> str | None:
    """Why the document's header says it records history (a status, a date), or its
    sections that it is a design document or proposal ("Proposed Solution",
    "Implementation Plan"), or None."""
    head = text[:HEAD_CHARS]
    if STATUS_LINE.search(head):
        return "its header records a status"
    if DATE_LINE.search(head):
        return "its header records a date"
    if plan_title(text):
        return "a plan, a roadmap or a proposal by its title"
    if _transcript(text):
        return "a recorded chat transcript"
    sections = {match.group(1).lower() for match in DESIGN_HEADING.finditer(text)}
    if len(sections) >= 2:
        named = ", ".join(f'"{name}"' for name in sorted(sections)[:2])
        return f"a design document or a plan: {named}"
    return None


def plan_title(text: str) -> bool:
    """Whether the document's first heading, a title, calls it a plan, a roadmap, a
    proposal or an RFC ("# Plugin Re-organization Plan")."""
    first = FIRST_HEADING.search(text[:HEAD_CHARS])
    return first is not None and PLAN_TITLE.match(first.group(0)) is not None


def declares_plan(rel: str, text: str) -> bool:
    """Whether the document calls itself a plan, by its name or its title: what it
    names is work to do, even where a steering file sends agents to read it."""
    stem = posixpath.splitext(posixpath.basename(rel))[0]
    return PLAN_NAME.match(stem) is not None or plan_title(text)


def _transcript(text: str) -> bool:
    """A recorded chat session (a prompt, the answer, what the tool printed, in turn):
    the paths in it were the session's, then."""
    return (
        TRANSCRIPT_HEAD.search(text[:HEAD_CHARS]) is not None
        and len(PROMPT_TURN.findall(text)) >= TRANSCRIPT_TURNS
        and len(RECORDED_OUTPUT.findall(text)) >= TRANSCRIPT_TURNS
    )


def doc_kind(rel: str, text: str, project: Project) -> tuple[DocKind, str]:
    """The kind of document at `rel` with text `text`, and why (empty for a guide)."""
    if is_steering(rel):
        return "steering", ""
    if is_fixture(rel):
        return "fixture", "a test fixture"
    reason = history_by_path(rel) or versioned_snapshot(rel, project) or history_by_text(text)
    if reason is None:
        return "guide", ""
    if not declares_plan(rel, text) and _named_by_steering(rel, project):
        return "steering", "a steering file sends agents to it"
    return "history", reason


def _named_by_steering(rel: str, project: Project) -> bool:
    """Whether a steering file at the top (CLAUDE.md, AGENTS.md, `.claude/`) names this
    document's path: it then tells agents what is, whatever its folder."""
    return rel in project.memo(STEERING_TEXT)


def _steering_text(project: Project) -> str:
    texts = []
    for rel in project.files():
        if posixpath.basename(rel) in STEERING_NAMES or rel.startswith(".claude/"):
            if rel.endswith((".md", ".mdx")):
                source = project.read(rel)
                if source is not None:
                    texts.append(source.text)
    return "\n".join(texts)


# A heading that says its section holds what is not built yet: "What's next (deliberately
# not built yet)", "Future work", "Roadmap", "Not yet implemented", "Planned features".
# ("Next steps" is not: a guide's next steps send the reader to what is there.)
# (A feature's name is no such heading: "Backlog Swipe Triage", "Upcoming events".)
PLANNED_HEADING = re.compile(
    r"\bfuture\b|\broadmap\b|\bnot (?:yet )?(?:built|implemented|available|done)\b|"
    r"\byet to be (?:built|implemented|done|made)\b|^planned\b|\bcoming soon\b|^todos?\b",
    re.IGNORECASE,
)


def planned_section(file: SourceFile, offset: int) -> bool:
    """Whether `offset` lies in a section whose heading says its content is not built
    yet: a path named there is planned, as in a plan (to the next heading at the same
    level or above)."""
    return any(start <= offset < end for start, end in file.derived(PLANNED_SECTIONS))


def _planned_sections(file: SourceFile) -> list[tuple[int, int]]:
    if "#" not in file.text:
        return []
    headings = file.markdown.headings
    sections = []
    for index, heading in enumerate(headings):
        if not PLANNED_HEADING.search(heading.plain or heading.text):
            continue
        end = len(file.text)
        for later in headings[index + 1 :]:
            if later.level <= heading.level:
                end = later.span.start
                break
        sections.append((heading.span.end, end))
    return sections


class Reading:
    """How a rule that judges claims about the tree (GL501, GL502, GL102) treats a
    document: `skip` it, or report with this `severity` and `note` added."""

    __slots__ = ("kind", "reason", "skip", "note")

    def __init__(self, kind: DocKind, reason: str, skip: bool, note: str) -> None:
        self.kind = kind
        self.reason = reason
        self.skip = skip
        self.note = note


def reading_of(file: SourceFile, project: Project) -> Reading:
    """Steering files and guides: read as they are. A fixture: never. A history
    document: only with `[tool.guidelint.paths] report-history`, then as a warning."""
    return file.derived(READING, project)


def _reading(file: SourceFile, project: Project) -> Reading:
    kind, reason = doc_kind(file.rel, file.text, project)
    if kind == "fixture":
        return Reading(kind, reason, True, "")
    if kind == "history":
        report = bool(project.config.paths.report_history)
        return Reading(kind, reason, not report, f" (a history document: {reason})")
    return Reading(kind, reason, False, "")


TEMPLATE_PARENTS = frozenset(
    {"templates", "template", "scaffolds", "scaffold", "skeletons", "boilerplates", "starters"}
)


# A folder named for the templates it holds (`agent_templates/`, `project-templates/`):
# with an AGENTS.md or CLAUDE.md right in it, it is itself the tree a scaffold copies.
NAMED_TEMPLATES = re.compile(r"^[a-z0-9.]+[_-]?templates$", re.IGNORECASE)
TEMPLATE_STEERING = ("AGENTS.md", "CLAUDE.md")


def template_root(rel: str, project: Project | None = None) -> str | None:
    """The root of a tree that is copied into other projects, when `rel` is in one:
    `templates/<name>/` (or a folder named `template/`), or a `*_templates/` folder that
    holds an AGENTS.md or CLAUDE.md itself (pipecat's `cli/agent_templates/`, what its
    scaffold writes into a new project; below it, only with `project` to look there).
    Its links and paths resolve from where it lands, that root, not from this
    repository's root."""
    parts = rel.split("/")[:-1]
    for index, part in enumerate(parts):
        if part.lower() in TEMPLATE_PARENTS:
            if part.lower() == "template":
                return "/".join(parts[: index + 1])
            if index + 1 < len(parts):
                return "/".join(parts[: index + 2])
        elif NAMED_TEMPLATES.match(part):
            folder = "/".join(parts[: index + 1])
            if _holds_steering(folder, rel, project):
                return folder
    return None


def _holds_steering(folder: str, rel: str, project: Project | None) -> bool:
    """Whether an AGENTS.md or CLAUDE.md lies right in `folder`: `rel` itself, or (with
    a project to look in) a file beside the one asked about."""
    steering = [f"{folder}/{name}" for name in TEMPLATE_STEERING]
    if rel in steering:
        return True
    return project is not None and any(project.exists(path) for path in steering)


def unread_snapshot(file: SourceFile, project: Project) -> bool:
    """A copy of the docs for a released version, while `report-history` is off: the
    rules that check its examples skip it as well, since each finding would repeat in
    every copy and is fixed, if at all, in the current docs."""
    reading = reading_of(file, project)
    return (
        reading.skip and reading.kind == "history" and bool(versioned_snapshot(file.rel, project))
    )


# Per run, the text of the steering files at the top, the folders in each folder, and
# whether a docs site above a folder declares versions; per file, how it is read.
STEERING_TEXT = Memo("doc_kind.steering_text", _steering_text)
CHILD_FOLDERS = Memo("doc_kind.child_folders", _child_folders)
DECLARES_VERSIONS = Memo("doc_kind.declares_versions", lambda project: dict[str, bool]())
READING = Derived("doc_kind.reading", _reading)
PLANNED_SECTIONS = Derived("doc_kind.planned_sections", _planned_sections)
