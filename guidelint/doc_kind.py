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
   `2026-June.md`), an ADR's number (`0007-use-x.md`);
4. front matter or a header line that records a status or a date
   (`status: implemented`, `**Status**: Draft`, `Date: 2024-05-01`);
5. a folder by convention for history (`plans/`, `specs/`, `rfcs/`, `adr/`,
   `design_docs/`, `reports/`, `research/`, `archive/`, `*-notes/`, an older
   version of a docs site such as `docs/v2/`), or a periodical's (`newsletters/`,
   `blog/`, `weekly/`), unless a steering file names the
   document (then agents are sent to it, and it steers).
"""

from __future__ import annotations

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
HISTORY_FOLDERS = frozenset(
    {
        "plans",
        "plan",
        "specs",
        "rfcs",
        "rfc",
        "adr",
        "adrs",
        "decisions",
        "design_docs",
        "design-docs",
        "designs",
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
OLD_VERSION = re.compile(r"^(?:v\d+(?:\.\d+)*(?:\.x)?|version-[\w.]+|versioned_docs)$")
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
    for index, part in enumerate(folders):
        lowered = part.lower()
        if lowered in HISTORY_FOLDERS or NOTES_FOLDER.match(part):
            return f"in `{part}/`, a folder of plans, specs, notes or reports"
        if PERIODICAL_FOLDER.match(part):
            return f"in `{part}/`, the issues of a periodical"
        if OLD_VERSION.match(lowered) and any(p in DOCS_FOLDERS for p in folders[:index]):
            return f"in `{part}/`, the docs of another version"
    if ADR_NAME.match(name) and folders and folders[-1].lower() in {"adr", "adrs", "decisions"}:
        return "an architecture decision record"
    return None


def history_by_text(text: str) -> str | None:
    """Why the document's header says it records history (a status, a date), or None."""
    head = text[:HEAD_CHARS]
    if STATUS_LINE.search(head):
        return "its header records a status"
    if DATE_LINE.search(head):
        return "its header records a date"
    return None


def doc_kind(rel: str, text: str, project: Project) -> tuple[DocKind, str]:
    """The kind of document at `rel` with text `text`, and why (empty for a guide)."""
    if is_steering(rel):
        return "steering", ""
    if is_fixture(rel):
        return "fixture", "a test fixture"
    reason = history_by_path(rel) or history_by_text(text)
    if reason is None:
        return "guide", ""
    if _named_by_steering(rel, project):
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


def template_root(rel: str) -> str | None:
    """The root of a tree that is copied into other projects, when `rel` is in one:
    `templates/<name>/` (or a folder named `template/`). Its links and paths resolve
    from where it lands, that root, not from this repository's root."""
    parts = rel.split("/")[:-1]
    for index, part in enumerate(parts):
        if part.lower() in TEMPLATE_PARENTS:
            if part.lower() == "template":
                return "/".join(parts[: index + 1])
            if index + 1 < len(parts):
                return "/".join(parts[: index + 2])
    return None


# Per run, the text of the steering files at the top; per file, how it is read.
STEERING_TEXT = Memo("doc_kind.steering_text", _steering_text)
READING = Derived("doc_kind.reading", _reading)
