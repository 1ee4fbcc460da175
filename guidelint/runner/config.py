"""[tool.guidelint.runner] options (owned by the example-runner pillar)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from guidelint.config_base import Section
from guidelint.settings import (
    DEFAULT_ENV_ALLOWLIST,
    DEFAULT_LINT_IGNORE,
    DEFAULT_LINT_SELECT,
    DEFAULT_WARM_IMPORTS,
    DefaultRunner,
)

OUTPUT_PATTERNS = ("addresses", "timings")
MAX_TIMEOUT_S = 86400.0  # a day: longer is a typo or an attack on the run's own timeout


class RunnerConfig(Section):
    """How `guidelint run` executes examples and how GL402 lints them."""

    timeout: float = Field(
        default=60.0, gt=0, le=MAX_TIMEOUT_S, allow_inf_nan=False, description="seconds per example"
    )
    memory_limit_mb: int = Field(default=4096, gt=0, description="memory per example")
    memory_cgroup: bool = Field(
        default=True, description="each example in its own memory cgroup, where one can be made"
    )
    max_output_mb: float = Field(default=10.0, gt=0, description="stdout+stderr per example")
    disk_limit_mb: int = Field(
        default=1024, gt=0, description="what an example may write in its scratch folder"
    )
    jobs: int | None = Field(default=None, ge=1, description="examples run in parallel")
    env_allowlist: list[str] = Field(default_factory=lambda: list(DEFAULT_ENV_ALLOWLIST))
    output_patterns: list[str] = Field(
        default_factory=list, description="opt-in normalisations: addresses, timings"
    )
    warm_imports: list[str] = Field(default_factory=lambda: list(DEFAULT_WARM_IMPORTS))
    lint_select: list[str] = Field(default_factory=lambda: list(DEFAULT_LINT_SELECT))
    lint_ignore: list[str] = Field(default_factory=lambda: list(DEFAULT_LINT_IGNORE))
    report_dir: str = Field(default=".guidelint_cache/run", description="images and artifacts")
    # `>>>` statements with no output under them: run as script lines ("stated"), or
    # compared with nothing as doctest does ("strict").
    doctest_output: Literal["stated", "strict"] = "stated"
    # For the diffusers backend: hub-id glob -> tiny pipeline name or local folder,
    # URL glob -> local file, and where tiny checkpoints are cached.
    models: dict[str, str] = Field(default_factory=dict)
    fixtures: dict[str, str] = Field(default_factory=dict)
    tiny_cache: str | None = None

    @field_validator("output_patterns")
    @classmethod
    def _known_patterns(cls, value: list[str]) -> list[str]:
        unknown = [v for v in value if v not in OUTPUT_PATTERNS]
        if unknown:
            raise ValueError(f"unknown pattern {unknown[0]!r}; known: {', '.join(OUTPUT_PATTERNS)}")
        return value


# What a run's runner options are: the defaults (no configuration file) or a table.
RunnerSettings = RunnerConfig | DefaultRunner
