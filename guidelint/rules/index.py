"""A static index of the rules, so the engine imports a rule's module only when a file
it can apply to is checked (a one-file check of a README never imports the gotchas
parser, the smoke readers or the agent-configuration rules).

Each row names a rule (code, name, module under `guidelint.rules`), the file kinds it
reads (`Rule.file_kinds`), whether it declares `Rule.cache_inputs` (those rules load
for the result cache's key), and two cheap tests that need no import of the rule:

- `scope`: a superset of the rule's `applies_to()`: when it is false the rule does not
  apply to the file, so its module need not be imported for it;
- `needs`: for a rule that applies to every file of its kinds, what a file's text must
  hold for `check()` to find anything; when it does not, the rule counts as run there
  (an unused suppression of it is still reported) without being imported.

`tests/test_rule_index.py` derives the rows from the rule classes (`all_rules()`) and
compares, and checks both tests against the rules over the corpora.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.rules.base import Rule
    from guidelint.sources import SourceFile

MD = frozenset({"markdown"})
JSON = frozenset({"json"})
PY = frozenset({"python"})
ENGINE = frozenset[str]()  # produced by the engine itself, never run as a check


class RuleEntry(NamedTuple):
    code: str
    name: str
    module: str  # under guidelint.rules
    kinds: frozenset[str]
    inputs: bool = False  # overrides Rule.cache_inputs
    scope: str = "kinds"  # a key of SCOPES
    needs: str = ""  # a key of NEEDS, or none


RULES: tuple[RuleEntry, ...] = (
    RuleEntry("GL000", "internal-error", "gl000_internal_error", ENGINE),
    RuleEntry("GL001", "unreadable-file", "gl001_unreadable_file", ENGINE),
    RuleEntry("GL002", "unused-suppression", "gl002_unused_suppression", ENGINE),
    RuleEntry("GL101", "unknown-tool", "gl101_unknown_tool", MD, True, needs="code-spans"),
    RuleEntry("GL102", "unknown-server", "gl102_unknown_server", MD, True, needs="code-spans"),
    RuleEntry("GL103", "wrong-server", "gl103_wrong_server", MD, True, needs="code-spans"),
    RuleEntry(
        "GL104", "unknown-bare-tool", "gl104_unknown_bare_tool", MD, True, needs="code-spans"
    ),
    RuleEntry("GL105", "unknown-argument", "gl105_unknown_argument", MD, True, needs="code-spans"),
    RuleEntry("GL106", "unknown-permission-tool", "gl106_unknown_permission_tool", JSON, True),
    RuleEntry("GL107", "unknown-agent-tool", "gl107_unknown_agent_tool", MD, True, "front-matter"),
    RuleEntry("GL108", "stale-snapshot", "gl108_stale_snapshot", JSON, True),
    RuleEntry("GL109", "malformed-tool-source", "gl109_malformed_tool_source", JSON, True),
    RuleEntry("GL110", "unlisted-server", "gl110_unlisted_server", JSON, True),
    RuleEntry("GL201", "row-cap-exceeded", "gl201_row_cap_exceeded", MD, scope="gotchas"),
    RuleEntry("GL202", "unindexed-entry", "gl202_unindexed_entry", MD, scope="gotchas"),
    RuleEntry("GL203", "dangling-index-row", "gl203_dangling_index_row", MD, scope="gotchas"),
    RuleEntry("GL204", "index-out-of-step", "gl204_index_out_of_step", MD, scope="gotchas"),
    RuleEntry("GL205", "duplicate-gotcha", "gl205_duplicate_gotcha", MD, scope="gotchas"),
    RuleEntry("GL206", "missing-provenance", "gl206_missing_provenance", MD, scope="gotchas"),
    RuleEntry("GL207", "entry-too-long", "gl207_entry_too_long", MD, scope="gotchas"),
    RuleEntry("GL208", "malformed-entry", "gl208_malformed_entry", MD, scope="gotchas"),
    RuleEntry("GL301", "smoke-floor-unproven", "gl301_smoke_floor_unproven", PY, scope="drivers"),
    RuleEntry("GL302", "smoke-dial-from-cap", "gl302_smoke_dial_from_cap", PY, scope="drivers"),
    RuleEntry(
        "GL303", "gate-without-disk-check", "gl303_gate_without_disk_check", PY, scope="drivers"
    ),
    RuleEntry("GL304", "smoke-dial-unprovable", "gl304_smoke_dial_unprovable", PY, scope="drivers"),
    RuleEntry("GL401", "example-syntax-error", "gl401_example_syntax_error", MD, scope="fenced"),
    RuleEntry("GL402", "example-lint", "gl402_example_lint", MD, scope="fenced"),
    RuleEntry("GL403", "unknown-directive", "gl403_unknown_directive", MD, scope="fenced"),
    RuleEntry("GL501", "stale-path", "gl501_stale_path", MD),
    RuleEntry("GL502", "broken-link", "gl502_broken_link", MD),
    RuleEntry("GL503", "broken-fence", "gl503_broken_fence", MD, scope="fenced"),
    RuleEntry(
        "GL601",
        "malformed-front-matter",
        "gl601_malformed_front_matter",
        MD,
        needs="front-matter-in-doubt",
    ),
    RuleEntry("GL602", "unknown-hook-event", "gl602_unknown_hook_event", JSON),
    RuleEntry("GL603", "unknown-hook-matcher", "gl603_unknown_hook_matcher", JSON, True),
    RuleEntry("GL604", "malformed-hook", "gl604_malformed_hook", JSON),
    RuleEntry("GL605", "malformed-mcp-server", "gl605_malformed_mcp_server", JSON),
    RuleEntry("GL606", "unknown-subagent", "gl606_unknown_subagent", MD, scope="agent-files"),
    RuleEntry(
        "GL607", "incomplete-front-matter", "gl607_incomplete_front_matter", MD, scope="agent-files"
    ),
)

BY_CODE = {entry.code: entry for entry in RULES}


def rule_codes() -> list[str]:
    """Every rule code, in code order, without importing a rule."""
    return list(BY_CODE)


def rule_names() -> dict[str, str]:
    """Code of each rule name."""
    return {entry.name: entry.code for entry in RULES}


def load(entry: RuleEntry) -> type[Rule]:
    """The rule class the row names (its module imported now)."""
    import importlib

    from guidelint.rules.base import Rule

    module = importlib.import_module(f"guidelint.rules.{entry.module}")
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, Rule) and value is not Rule:
            if value.__module__ == module.__name__ and getattr(value, "code", None) == entry.code:
                return value
    raise LookupError(f"guidelint.rules.{entry.module} defines no rule {entry.code}")


def _any_file(file: SourceFile, project: Project) -> bool:
    return True


def _fenced(file: SourceFile, project: Project) -> bool:
    return "```" in file.text or "~~~" in file.text  # as ExampleRule.applies_to


def _front_matter(file: SourceFile, project: Project) -> bool:
    return file.text.startswith("---")  # markdown.FRONT_MATTER opens so


def _gotchas(file: SourceFile, project: Project) -> bool:
    from guidelint.gotchas.files import role

    return role(file.rel, project) is not None


def _drivers(file: SourceFile, project: Project) -> bool:
    from guidelint.smoke.rulebase import is_driver

    return is_driver(file, project)


def _agent_files(file: SourceFile, project: Project) -> bool:
    """Steering files, `.claude/`, agents, skills and commands (GL606, GL607)."""
    rel = file.rel
    parts = rel.split("/")
    return (
        posixpath.basename(rel) in ("CLAUDE.md", "CLAUDE.local.md", "AGENTS.md")
        or rel.startswith(".claude/")
        or "agents" in parts[:-1]
        or "skills" in parts[:-1]
        or "/commands/" in f"/{rel}"
    )


def _code_spans(file: SourceFile, project: Project) -> bool:
    return "`" in file.text  # markdown.may_hold_code_spans


def _front_matter_in_doubt(file: SourceFile, project: Project) -> bool:
    """Front matter that may hold a problem (GL601): not plain `key: value` lines, which
    always read (`frontmatter.plainly_a_mapping`), so need not be composed to know."""
    if not file.text.startswith("---"):
        return False
    if _agent_files(file, project):
        return True  # GL606 and GL607 read its YAML anyway: no need to look closer
    from guidelint.frontmatter import front_text, plainly_a_mapping

    front = front_text(file)
    return front is not None and not plainly_a_mapping(front.text)


Test = Callable[["SourceFile", "Project"], bool]
SCOPES: dict[str, Test] = {
    "kinds": _any_file,
    "fenced": _fenced,
    "front-matter": _front_matter,
    "gotchas": _gotchas,
    "drivers": _drivers,
    "agent-files": _agent_files,
}
NEEDS: dict[str, Test] = {
    "code-spans": _code_spans,
    "front-matter-in-doubt": _front_matter_in_doubt,
}


def in_scope(entry: RuleEntry, file: SourceFile, project: Project) -> bool:
    """Whether the rule may apply to the file (False: it surely does not)."""
    return file.kind in entry.kinds and SCOPES[entry.scope](file, project)


def idle_on(entry: RuleEntry, file: SourceFile, project: Project) -> bool:
    """Whether the rule applies to the file but surely finds nothing there."""
    return bool(entry.needs) and not NEEDS[entry.needs](file, project)
