"""Configuration: `[tool.guidelint]` in pyproject.toml or a guidelint.toml, via pydantic.

Every section is a strict model (unknown keys are errors); a bad file becomes one
ConfigError line naming the file, the line where we can find it, and the key.
Rule codes in select/ignore are checked by the engine (`build_selection`), which
knows the rules: configuration imports no rule.
"""

from __future__ import annotations

import difflib
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from guidelint.config_base import ProjectPath, Section
from guidelint.errors import ConfigError
from guidelint.findings import Severity
from guidelint.gotchas.config import GotchasConfig
from guidelint.runner.config import RunnerConfig
from guidelint.settings import (
    DEFAULT_INCLUDE,
    DEFAULT_LINK_FILES,
    DEFAULT_NOT_THIS_TREE,
    DefaultConfig,
    check_globs,
    find_config_file,
    plain_config,
    read_table,
    table_name,
)
from guidelint.smoke.config import SmokeConfig
from guidelint.tools.config import ToolsConfig

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = [
    "Config",
    "ConfigError",
    "LoadedConfig",
    "Settings",
    "find_config_file",
    "load_config",
    "parse_config",
    "table_name",
    "tomllib",
]


class PathsConfig(Section):
    """Options of GL501 stale-path and GL502 broken-link."""

    not_this_tree: list[str] = Field(
        default_factory=lambda: list(DEFAULT_NOT_THIS_TREE),
        description="globs of documents GL501 does not read: they describe other trees "
        "(changelogs: users' files; plans and brainstorms: files they propose)",
    )

    ignore: list[str] = Field(
        default_factory=list, description="globs of referenced paths never reported"
    )
    links: list[str] = Field(
        default_factory=lambda: list(DEFAULT_LINK_FILES),
        description="globs of the files whose links GL502 follows (steering files and guides; "
        "a site generator's content tree resolves links its own way)",
    )
    report_history: bool = Field(
        default=False,
        description="also report stale paths, broken links and unknown servers in documents "
        "that record history (plans, specs, changelogs, reports, dated notes), as warnings",
    )


class Config(Section):
    include: list[str] = Field(default_factory=lambda: list(DEFAULT_INCLUDE))
    extend_include: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)
    respect_gitignore: bool = True
    select: list[str] = Field(default_factory=lambda: ["GL"])
    extend_select: list[str] = Field(default_factory=list)
    ignore: list[str] = Field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = Field(default_factory=dict)
    severity: dict[str, Severity] = Field(default_factory=dict)
    max_file_size: int = Field(default=5_000_000, gt=0)
    cache: bool = True
    cache_dir: ProjectPath = ".guidelint_cache"
    jobs: int | None = Field(default=None, ge=1)
    # The coding agents the repository steers (`codex`, `cursor`, ...): only their rules
    # and server files; [] is every harness. Keys are checked with the rule selection.
    harnesses: list[str] = Field(default_factory=list)
    paths: PathsConfig = Field(default_factory=PathsConfig)
    tools: ToolsConfig = Field(default_factory=ToolsConfig)
    gotchas: GotchasConfig = Field(default_factory=GotchasConfig)
    smoke: SmokeConfig = Field(default_factory=SmokeConfig)
    runner: RunnerConfig = Field(default_factory=RunnerConfig)


# What a run's configuration is: the defaults (no file read, no pydantic) or a
# file's validated table. Both answer the same attributes (tests/core/test_settings.py).
Settings = Config | DefaultConfig


@dataclass(frozen=True)
class LoadedConfig:
    config: Settings
    root: Path  # the folder holding the configuration, else the start folder
    source: Path | None  # the file it came from


def load_config(start: Path, explicit: Path | None = None) -> LoadedConfig:
    """The configuration for a run started at `start`: the nearest file's table,
    validated, or the defaults when there is none."""
    path = explicit or find_config_file(start)
    if path is None:
        root = start.resolve() if start.is_dir() else start.resolve().parent
        return LoadedConfig(config=DefaultConfig(), root=root, source=None)
    raw = read_table(path)
    config = plain_config(raw) or parse_config(raw, path)
    check_globs(config, path)
    return LoadedConfig(config=config, root=path.resolve().parent, source=path)


def parse_config(raw: dict[str, Any], path: Path) -> Config:
    try:
        config = Config.model_validate(raw)
    except ValidationError as err:
        raise ConfigError(_describe(err, path)) from None
    return config


def _describe(err: ValidationError, path: Path) -> str:
    """The first validation error as `file:line: table key: problem`."""
    first = err.errors()[0]
    loc = [str(part) for part in first["loc"]]
    key = ".".join(loc)
    line = _line_of(path, loc[-1] if loc else "")
    where = f"{path}:{line}" if line else str(path)
    if first["type"] == "extra_forbidden":
        known = _known_keys(loc[:-1])
        hint = difflib.get_close_matches(loc[-1], known, n=1)
        suggestion = f" (did you mean '{hint[0]}'?)" if hint else ""
        return f"{where}: {table_name(path)} unknown key '{key}'{suggestion}"
    value = first.get("input")
    return f"{where}: {table_name(path)} key '{key}': {first['msg']} (got {value!r})"


def _known_keys(loc: list[str]) -> list[str]:
    model: Any = Config
    for part in loc:
        fields = {f.alias or name: f for name, f in model.model_fields.items()}
        field = fields.get(part)
        annotation = getattr(field, "annotation", None)
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return []
        model = annotation
    return [f.alias or name for name, f in model.model_fields.items()]


def _line_of(path: Path, key: str) -> int | None:
    if not key:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=", re.MULTILINE)
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else None
