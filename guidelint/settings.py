"""The configuration a run reads, found and loaded without pydantic when there is none.

Most runs (a pre-commit hook, a one-file check) have no `[tool.guidelint]` table:
they get `DefaultConfig`, plain frozen records holding the same values as the
pydantic models' defaults. Only a configuration file that is actually read is
validated, by the strict models of `guidelint.config` (imported then, with
pydantic; `Project.load` decides). Both answer the same attributes, `model_copy(update=...)` and
`model_dump(mode=...)`. The records are written from the models by
scripts/gen_settings_defaults.py; `tests/core/test_settings.py` fails while they are stale.
"""

from __future__ import annotations

import enum
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from guidelint.errors import ConfigError
from guidelint.findings import Severity
from guidelint.records import FrozenRecord

if TYPE_CHECKING:
    from typing_extensions import Self

# A configuration is read before its own max-file-size is known: the default applies.
MAX_CONFIG_BYTES = 5_000_000

DEFAULT_INCLUDE = [
    "docs/**/*.md",
    "CLAUDE.md",
    "CLAUDE.local.md",
    "AGENTS.md",
    ".claude/**/*.md",
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".mcp.json",
    # Hooks and MCP servers of plugins (GL6xx): manifests, hooks files, server files.
    "/.claude-plugin/plugin.json",
    "/.claude-plugin/marketplace.json",
    "/hooks/hooks.json",
    "plugins/*/.claude-plugin/plugin.json",
    "plugins/*/hooks/hooks.json",
    "plugins/*/.mcp.json",
    "scripts/**/*.py",
    # Claude Code plugins: a plugin folder's agents, commands and skills, whether the
    # repository is one plugin (at its root) or a marketplace of them (plugins/*).
    "/agents/**/*.md",
    "/commands/**/*.md",
    "/skills/**/*.md",
    "plugins/*/agents/**/*.md",
    "plugins/*/commands/**/*.md",
    "plugins/*/skills/**/*.md",
    "/output-styles/*.md",
    "plugins/*/output-styles/*.md",
    # Other coding agents' instruction and MCP server files (guidelint/tools/harnesses.json).
    "GEMINI.md",
    ".gemini/settings.json",
    ".github/copilot-instructions.md",
    ".github/instructions/**/*.instructions.md",
    ".github/agents/*.agent.md",
    ".vscode/mcp.json",
    ".cursor/rules/**/*.mdc",
    ".cursor/mcp.json",
    ".codex/config.toml",
    ".codex/skills/*/SKILL.md",
]

DEFAULT_LINK_FILES = [
    "CLAUDE.md",
    "CLAUDE.local.md",
    "AGENTS.md",
    "**/CLAUDE.md",
    "**/AGENTS.md",
    ".claude/**",
    "docs/**",
    "README.md",
    "plugins/**",
    # The repository's own pages at the top (CONTRIBUTING.md, SECURITY.md): GitHub
    # renders them as it renders the README, links relative to the root.
    "/*.md",
    # Other coding agents' instruction files (guidelint/tools/harnesses.json): they
    # steer an agent as CLAUDE.md does, and a link there sends it to a file. (Not their
    # skills' folders, whose assets hold report templates with placeholder links.)
    "GEMINI.md",
    ".github/copilot-instructions.md",
    ".github/instructions/**",
    ".github/agents/**",
    ".github/prompts/**",
    ".cursor/rules/**",
    ".clinerules/**",
    ".windsurf/rules/**",
    ".roo/**",
    ".kiro/steering/**",
    ".continue/rules/**",
    ".junie/**",
]

# Documents about other trees than this one: a changelog describes its users' files, a
# plan or brainstorm the files it proposes. GL501 does not read them.
DEFAULT_NOT_THIS_TREE = [
    "CHANGELOG*.md",
    "**/CHANGELOG*.md",
    "HISTORY.md",
    "RELEASE_NOTES*.md",
    "**/plans/**",
    "**/brainstorms/**",
    # Third-party notices quote other projects' licences and name their files.
    "ThirdPartyNotices*.md",
    "**/ThirdPartyNotices*.md",
    "THIRD_PARTY_NOTICES*.md",
    "**/THIRD_PARTY_NOTICES*.md",
]

# [tool.guidelint.gotchas]: what a workflow-fix change may touch (`guidelint surface`).
DEFAULT_SURFACE = [".claude/", "CLAUDE.md", "AGENTS.md", "docs/", "scripts/workflow_*"]

# [tool.guidelint.runner]: names an example sees in its environment; everything else
# (tokens, keys) is removed.
DEFAULT_ENV_ALLOWLIST = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "PYTHONHASHSEED"]
# ruff rules that find real bugs in snippets; names defined elsewhere in a guide
# (F821), imports shown for context (F401) and the like are normal in docs.
DEFAULT_LINT_SELECT = ["F", "E9"]
DEFAULT_LINT_IGNORE = [
    # Fragments: names defined elsewhere, imports shown once, values left unused.
    *("F401", "F403", "F405", "F704", "F706", "F811", "F821", "F841"),
    # Style, not defects, in an example: an f-string with no field, `Annotated` metadata
    # strings read as forward annotations, a `.format` demo with unused arguments, a
    # loop variable named as an import the snippet no longer uses (`for tool in tools`).
    *("F402", "F523", "F541", "F722"),
]
# Modules a warm worker imports once, when a selected example imports them.
DEFAULT_WARM_IMPORTS = ["numpy", "torch", "transformers", "diffusers", "PIL"]


def _list(values: list[str]) -> Callable[[], list[str]]:
    return lambda: list(values)


class _Defaults(FrozenRecord):
    """What the pydantic models offer that runs use: a copy with changes, a dump.

    A record (guidelint.records), not a dataclass: every run without a configuration
    file makes these. `_factories` gives each field's default, a fresh value per
    instance (`default_factory`); a class whose factories miss a field fails at import.
    """

    __slots__ = ()
    _factories: ClassVar[dict[str, Callable[[], Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if tuple(cls._factories) != cls._fields:
            raise TypeError(f"{cls.__name__}: _factories must name {cls._fields}, in order")

    def __init__(self, **values: Any) -> None:
        unknown = values.keys() - self._factories.keys()
        if unknown:
            raise TypeError(f"{type(self).__name__}: unexpected field {sorted(unknown)[0]!r}")
        for name, default in self._factories.items():
            object.__setattr__(self, name, values[name] if name in values else default())

    def model_copy(self, *, update: dict[str, Any] | None = None) -> Self:
        # As dataclasses.replace: the same values (not copies), the changes on top.
        values = {name: getattr(self, name) for name in self._fields}
        return type(self)(**{**values, **(update or {})})

    def model_dump(self, *, mode: Literal["python", "json"] = "python") -> dict[str, Any]:
        data: dict[str, Any] = _plain(self)
        return _jsonable(data) if mode == "json" else data


def _plain(value: Any) -> Any:
    """As dataclasses.asdict: nested records as dicts, lists and dicts copied."""
    if isinstance(value, _Defaults):
        return {name: _plain(getattr(value, name)) for name in value._fields}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value  # str, number, bool, None or an enum: immutable


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_jsonable(item) for item in value]
    return value.value if isinstance(value, enum.Enum) else value


# Each class mirrors a model of guidelint.config or guidelint.<pillar>.config: the
# same field names, types and defaults, written from the models by the script below
# (tests/core/test_settings.py fails while these are stale).
# BEGIN generated by scripts/gen_settings_defaults.py: edit the pydantic models.


class DefaultPaths(_Defaults):
    __slots__ = ("not_this_tree", "ignore", "links", "report_history")
    not_this_tree: list[str]
    ignore: list[str]
    links: list[str]
    report_history: bool
    _factories = {
        "not_this_tree": _list(DEFAULT_NOT_THIS_TREE),
        "ignore": list,
        "links": _list(DEFAULT_LINK_FILES),
        "report_history": lambda: False,
    }


class DefaultTools(_Defaults):
    __slots__ = (
        "live",
        "mcp_config",
        "snapshot_dir",
        "timeout",
        "fallback_to_snapshot",
        "servers",
        "external",
        "extra_builtins",
        "copilot_tool_aliases",
    )
    live: bool
    mcp_config: str
    snapshot_dir: str
    timeout: float
    fallback_to_snapshot: bool
    servers: dict[str, Any]
    external: list[str]
    extra_builtins: list[str]
    copilot_tool_aliases: bool
    _factories = {
        "live": lambda: False,
        "mcp_config": lambda: ".mcp.json",
        "snapshot_dir": lambda: ".guidelint/tools",
        "timeout": lambda: 20.0,
        "fallback_to_snapshot": lambda: False,
        "servers": dict,
        "external": list,
        "extra_builtins": list,
        "copilot_tool_aliases": lambda: False,
    }


class DefaultGotchas(_Defaults):
    __slots__ = (
        "files",
        "row_cap",
        "index_file",
        "index_heading",
        "duplicate_threshold",
        "max_entry_chars",
        "provenance_severity",
        "surface",
    )
    files: list[str]
    row_cap: int | None
    index_file: str | None
    index_heading: str
    duplicate_threshold: float
    max_entry_chars: int
    provenance_severity: Severity
    surface: list[str]
    _factories = {
        "files": _list([".claude/rules/gotchas.md"]),
        "row_cap": lambda: None,
        "index_file": lambda: None,
        "index_heading": lambda: "LESSONS index",
        "duplicate_threshold": lambda: 0.8,
        "max_entry_chars": lambda: 1200,
        "provenance_severity": lambda: Severity.WARNING,
        "surface": _list(DEFAULT_SURFACE),
    }


class DefaultSmoke(_Defaults):
    __slots__ = ("drivers", "default_cap")
    drivers: list[str]
    default_cap: int
    _factories = {"drivers": _list(["scripts/**/*.py"]), "default_cap": lambda: 1000}


class DefaultRunner(_Defaults):
    __slots__ = (
        "timeout",
        "memory_limit_mb",
        "memory_cgroup",
        "max_output_mb",
        "disk_limit_mb",
        "jobs",
        "env_allowlist",
        "output_patterns",
        "warm_imports",
        "lint_select",
        "lint_ignore",
        "report_dir",
        "doctest_output",
        "models",
        "fixtures",
        "tiny_cache",
    )
    timeout: float
    memory_limit_mb: int
    memory_cgroup: bool
    max_output_mb: float
    disk_limit_mb: int
    jobs: int | None
    env_allowlist: list[str]
    output_patterns: list[str]
    warm_imports: list[str]
    lint_select: list[str]
    lint_ignore: list[str]
    report_dir: str
    doctest_output: Literal["stated", "strict"]
    models: dict[str, str]
    fixtures: dict[str, str]
    tiny_cache: str | None
    _factories = {
        "timeout": lambda: 60.0,
        "memory_limit_mb": lambda: 4096,
        "memory_cgroup": lambda: True,
        "max_output_mb": lambda: 10.0,
        "disk_limit_mb": lambda: 1024,
        "jobs": lambda: None,
        "env_allowlist": _list(DEFAULT_ENV_ALLOWLIST),
        "output_patterns": list,
        "warm_imports": _list(DEFAULT_WARM_IMPORTS),
        "lint_select": _list(DEFAULT_LINT_SELECT),
        "lint_ignore": _list(DEFAULT_LINT_IGNORE),
        "report_dir": lambda: ".guidelint_cache/run",
        "doctest_output": lambda: "stated",
        "models": dict,
        "fixtures": dict,
        "tiny_cache": lambda: None,
    }


class DefaultConfig(_Defaults):
    __slots__ = (
        "include",
        "extend_include",
        "exclude",
        "respect_gitignore",
        "select",
        "extend_select",
        "ignore",
        "per_file_ignores",
        "severity",
        "max_file_size",
        "cache",
        "cache_dir",
        "jobs",
        "harnesses",
        "paths",
        "tools",
        "gotchas",
        "smoke",
        "runner",
    )
    include: list[str]
    extend_include: list[str]
    exclude: list[str]
    respect_gitignore: bool
    select: list[str]
    extend_select: list[str]
    ignore: list[str]
    per_file_ignores: dict[str, list[str]]
    severity: dict[str, Severity]
    max_file_size: int
    cache: bool
    cache_dir: str
    jobs: int | None
    harnesses: list[str]
    paths: DefaultPaths
    tools: DefaultTools
    gotchas: DefaultGotchas
    smoke: DefaultSmoke
    runner: DefaultRunner
    _factories = {
        "include": _list(DEFAULT_INCLUDE),
        "extend_include": list,
        "exclude": list,
        "respect_gitignore": lambda: True,
        "select": _list(["GL"]),
        "extend_select": list,
        "ignore": list,
        "per_file_ignores": dict,
        "severity": dict,
        "max_file_size": lambda: 5_000_000,
        "cache": lambda: True,
        "cache_dir": lambda: ".guidelint_cache",
        "jobs": lambda: None,
        "harnesses": list,
        "paths": DefaultPaths,
        "tools": DefaultTools,
        "gotchas": DefaultGotchas,
        "smoke": DefaultSmoke,
        "runner": DefaultRunner,
    }


# END generated by scripts/gen_settings_defaults.py


# [tool.guidelint.tools.servers]: checked here, without pydantic, because reading
# `.mcp.json` (no configuration file needed) asks it too.
def unsafe_server_name(name: str) -> str | None:
    """Why a server name cannot name its snapshot file `<snapshot-dir>/<name>.json`
    (None when it can): it must not lead out of the folder, nor hide a character."""
    if name in ("", ".", ".."):
        return "cannot name a snapshot file"
    if "/" in name or "\\" in name:
        return "cannot name a snapshot file (it holds a path separator)"
    if not name.isprintable():
        return "cannot name a snapshot file (it holds a control character)"
    return None


# Keys (as written: kebab-case) whose plainly valid values need no validation beyond
# their type: a table of only these is read without pydantic (`plain_config`).
_PLAIN_LISTS = frozenset(
    {"include", "extend-include", "exclude", "select", "extend-select", "ignore", "harnesses"}
)
_PLAIN_FLAGS = frozenset({"respect-gitignore", "cache"})
_PLAIN_COUNTS = {"max-file-size": 1, "jobs": 1}  # the least value each accepts
_PLAIN_PATHS = frozenset({"not-this-tree", "ignore", "links"})


def plain_config(raw: dict[str, Any]) -> DefaultConfig | None:
    """A configuration table read without pydantic, where that is sure: every key one
    of the plain ones above (or `[paths]` of lists of strings, `per-file-ignores` of
    lists of strings), every value plainly of its type and in range. The strict models
    would accept it and give the same values (tests/core/test_settings.py); anything else,
    a mistake included, is None: the models read it and word the error. A CI run with
    a plain table (`include`, `select`, `ignore`) so skips importing pydantic and
    building the models (about 0.13 s of CPU)."""
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key in _PLAIN_LISTS or key in _PLAIN_FLAGS or key in _PLAIN_COUNTS:
            if not _plain_value(key, value):
                return None
        elif key == "per-file-ignores":
            if not isinstance(value, dict) or not all(_strings(v) for v in value.values()):
                return None
        elif key == "paths":
            if not isinstance(value, dict) or not value.keys() <= _PLAIN_PATHS:
                return None
            if not all(_strings(v) for v in value.values()):
                return None
            value = DefaultPaths(**{k.replace("-", "_"): v for k, v in value.items()})
        else:
            return None
        values[key.replace("-", "_")] = value
    return DefaultConfig(**values)


def _plain_value(key: str, value: Any) -> bool:
    if key in _PLAIN_LISTS:
        return _strings(value)
    if key in _PLAIN_FLAGS:
        return type(value) is bool
    return type(value) is int and value >= _PLAIN_COUNTS[key]


def _strings(value: Any) -> bool:
    return type(value) is list and all(type(item) is str for item in value)


def find_config_file(start: Path) -> Path | None:
    """The nearest guidelint.toml, or pyproject.toml with [tool.guidelint], upward
    from where `start` is named (a folder symlink on the way is not followed out of
    the project it was named in)."""
    start = Path(os.path.abspath(start))
    for folder in (start, *start.parents):
        candidate = folder / "guidelint.toml"
        if candidate.is_file():
            return candidate
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and _mentions_guidelint(candidate):
            return candidate
    return None


def _mentions_guidelint(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return b"[tool.guidelint" in handle.read(MAX_CONFIG_BYTES + 1)
    except OSError:
        return False


def read_table(path: Path) -> dict[str, Any]:
    """The `[tool.guidelint]` table of a pyproject.toml, or a guidelint.toml's whole."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: configuration larger than {MAX_CONFIG_BYTES:,} bytes")
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: cannot read configuration: {err}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not valid TOML: {err}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML: nested too deeply") from None
    if path.name == "pyproject.toml":
        table: dict[str, Any] = data.get("tool", {}).get("guidelint", {})
        return table
    return data


def table_name(path: Path) -> str:
    """How messages name the configuration table of a file."""
    return "[tool.guidelint]" if path.name == "pyproject.toml" else "guidelint.toml"


# The configured keys (table, key as written) that hold `.gitignore`-style globs.
GLOB_KEYS = (
    ("", "include"),
    ("", "extend-include"),
    ("", "exclude"),
    ("paths", "not-this-tree"),
    ("paths", "ignore"),
    ("paths", "links"),
    ("gotchas", "files"),
    ("gotchas", "surface"),
    ("smoke", "drivers"),
)


def check_globs(config: DefaultConfig | Any, path: Path) -> None:
    """ConfigError naming `FILE:LINE`, the key and the glob, for the first configured
    glob pathspec cannot read (`docs/[z-a]`): said when the configuration is read,
    where its file and line are known, not when a walk first compiles the list."""
    from guidelint.globs import surely_valid, why_invalid

    for table, key, pattern in _configured_globs(config):
        why = None if surely_valid(pattern) else why_invalid(pattern)
        if why is None:
            continue
        if table == "per-file-ignores":  # the glob is the key: `"docs/*" = ["GL501"]`
            line, named = value_line(path, pattern, table, pattern), table
        else:
            line, named = value_line(path, key, table, pattern), f"{table}.{key}".lstrip(".")
        where = f"{path}:{line}" if line else str(path)
        raise ConfigError(
            f"{where}: {table_name(path)} key '{named}': glob {pattern!r}: "
            f"not a valid pattern ({why})"
        )


def _configured_globs(config: DefaultConfig | Any) -> Iterator[tuple[str, str, str]]:
    """(table, key, glob) of every configured glob, in GLOB_KEYS' order."""
    for table, key in GLOB_KEYS:
        section = getattr(config, table) if table else config
        for pattern in getattr(section, key.replace("-", "_")):
            yield table, key, pattern
    for pattern in config.per_file_ignores:
        yield "per-file-ignores", pattern, pattern


def value_line(path: Path, key: str, table: str = "", value: str | None = None) -> int | None:
    """The line of `key =` in the configuration file `path` (after guidelint's table
    header, and its `[table]` header when there is one), or of the quoted `value`
    after it where it can be found: a glob in a list over many lines is named at its
    own line. None when neither can be found."""
    import re

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    own = r"tool\.guidelint" if path.name == "pyproject.toml" else ""
    headers = [own] if own else []
    if table:
        headers.append(rf"{own}\.{re.escape(table)}" if own else re.escape(table))
    start = 0
    for header in headers:
        found_header = re.search(rf"^[ \t]*\[[ \t]*{header}[ \t]*\]", text, re.M)
        start = found_header.end() if found_header else start
    key_at = re.compile(rf"^[ \t]*(?:[\w-]+\.)?[\"']?{re.escape(key)}[\"']?[ \t]*=", re.M)
    found = key_at.search(text, start) or key_at.search(text)
    at = found.start() if found else None
    if value is not None:
        after = found.end() if found else start
        quoted = [text.find(q, after) for q in (_basic(value), f"'{value}'")]
        at = min((q for q in quoted if q >= 0), default=at)
    return None if at is None else text.count("\n", 0, at) + 1


def _basic(value: str) -> str:
    """`value` as a TOML basic string (JSON's escapes are TOML's for a glob)."""
    import json

    return json.dumps(value, ensure_ascii=False)
