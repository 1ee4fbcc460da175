"""The configuration a run reads, found and loaded without pydantic when there is none.

Most runs (a pre-commit hook, a one-file check) have no `[tool.guidelint]` table:
they get `DefaultConfig`, plain frozen dataclasses holding the same values as the
pydantic models' defaults. Only a configuration file that is actually read is
validated, by the strict models of `guidelint.config` (imported then, with
pydantic; `Project.load` decides). Both answer the same attributes, `model_copy(update=...)` and
`model_dump(mode=...)`; `tests/test_settings.py` asserts that the defaults here
dump equal to `Config()`'s, field by field, so the two cannot drift.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from guidelint.errors import ConfigError
from guidelint.findings import Severity

if TYPE_CHECKING:
    from typing_extensions import Self

CONFIG_FILES = ("guidelint.toml", "pyproject.toml")
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
]

# [tool.guidelint.gotchas]: what a workflow-fix change may touch (`guidelint surface`).
DEFAULT_SURFACE = [".claude/", "CLAUDE.md", "AGENTS.md", "docs/", "scripts/workflow_*"]

# [tool.guidelint.runner]: names an example sees in its environment; everything else
# (tokens, keys) is removed.
DEFAULT_ENV_ALLOWLIST = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "PYTHONHASHSEED"]
# ruff rules that find real bugs in snippets; names defined elsewhere in a guide
# (F821), imports shown for context (F401) and the like are normal in docs.
DEFAULT_LINT_SELECT = ["F", "E9"]
DEFAULT_LINT_IGNORE = ["F401", "F403", "F405", "F704", "F706", "F811", "F821", "F841"]
# Modules a warm worker imports once, when a selected example imports them.
DEFAULT_WARM_IMPORTS = ["numpy", "torch", "transformers", "diffusers", "PIL"]


def _list(values: list[str]) -> Any:
    return field(default_factory=lambda: list(values))


class _Defaults:
    """What the pydantic models offer that runs use: a copy with changes, a dump."""

    def model_copy(self, *, update: dict[str, Any] | None = None) -> Self:
        return dataclasses.replace(self, **(update or {}))  # type: ignore[type-var]

    def model_dump(self, *, mode: Literal["python", "json"] = "python") -> dict[str, Any]:
        data: dict[str, Any] = dataclasses.asdict(self)  # type: ignore[call-overload]
        return _jsonable(data) if mode == "json" else data


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_jsonable(item) for item in value]
    return value.value if isinstance(value, enum.Enum) else value


# Each class mirrors a model of guidelint.config or guidelint.<pillar>.config: the
# same field names, types and defaults (tests/test_settings.py).


@dataclass(frozen=True)
class DefaultPaths(_Defaults):
    not_this_tree: list[str] = _list(DEFAULT_NOT_THIS_TREE)
    ignore: list[str] = _list([])
    links: list[str] = _list(DEFAULT_LINK_FILES)


@dataclass(frozen=True)
class DefaultTools(_Defaults):
    live: bool = False
    mcp_config: str = ".mcp.json"
    snapshot_dir: str = ".guidelint/tools"
    timeout: float = 20.0
    fallback_to_snapshot: bool = False
    servers: dict[str, Any] = field(default_factory=dict)  # none without a file
    external: list[str] = _list([])
    extra_builtins: list[str] = _list([])


@dataclass(frozen=True)
class DefaultGotchas(_Defaults):
    files: list[str] = _list([".claude/rules/gotchas.md"])
    row_cap: int | None = None
    index_file: str | None = None
    index_heading: str = "LESSONS index"
    duplicate_threshold: float = 0.8
    max_entry_chars: int = 1200
    provenance_severity: Severity = Severity.WARNING
    surface: list[str] = _list(DEFAULT_SURFACE)


@dataclass(frozen=True)
class DefaultSmoke(_Defaults):
    drivers: list[str] = _list(["scripts/**/*.py"])
    default_cap: int = 1000


@dataclass(frozen=True)
class DefaultRunner(_Defaults):
    timeout: float = 60.0
    memory_limit_mb: int = 4096
    memory_cgroup: bool = True
    max_output_mb: float = 10.0
    jobs: int | None = None
    env_allowlist: list[str] = _list(DEFAULT_ENV_ALLOWLIST)
    output_patterns: list[str] = _list([])
    warm_imports: list[str] = _list(DEFAULT_WARM_IMPORTS)
    lint_select: list[str] = _list(DEFAULT_LINT_SELECT)
    lint_ignore: list[str] = _list(DEFAULT_LINT_IGNORE)
    report_dir: str = ".guidelint_cache/run"
    doctest_output: Literal["stated", "strict"] = "stated"
    models: dict[str, str] = field(default_factory=dict)
    fixtures: dict[str, str] = field(default_factory=dict)
    tiny_cache: str | None = None


@dataclass(frozen=True)
class DefaultConfig(_Defaults):
    include: list[str] = _list(DEFAULT_INCLUDE)
    extend_include: list[str] = _list([])
    exclude: list[str] = _list([])
    respect_gitignore: bool = True
    select: list[str] = _list(["GL"])
    extend_select: list[str] = _list([])
    ignore: list[str] = _list([])
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    severity: dict[str, Severity] = field(default_factory=dict)
    max_file_size: int = 5_000_000
    cache: bool = True
    cache_dir: str = ".guidelint_cache"
    jobs: int | None = None
    paths: DefaultPaths = field(default_factory=DefaultPaths)
    tools: DefaultTools = field(default_factory=DefaultTools)
    gotchas: DefaultGotchas = field(default_factory=DefaultGotchas)
    smoke: DefaultSmoke = field(default_factory=DefaultSmoke)
    runner: DefaultRunner = field(default_factory=DefaultRunner)


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


def find_config_file(start: Path) -> Path | None:
    """The nearest guidelint.toml, or pyproject.toml with [tool.guidelint], upward."""
    start = start.resolve()
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
