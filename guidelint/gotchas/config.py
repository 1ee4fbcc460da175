"""[tool.guidelint.gotchas] options (owned by the gotchas pillar)."""

from pydantic import Field

from guidelint.config_base import ProjectPath, Section
from guidelint.findings import Severity
from guidelint.settings import DEFAULT_SURFACE

__all__ = ["DEFAULT_SURFACE", "GotchasConfig"]


class GotchasConfig(Section):
    files: list[ProjectPath] = Field(
        default_factory=lambda: [".claude/rules/gotchas.md"],
        description="globs (.gitignore syntax) of the gotchas files",
    )
    row_cap: int | None = Field(
        default=None, ge=1, description="most entries a file may hold (a file's own directive wins)"
    )
    index_file: ProjectPath | None = Field(
        default=None, description="a separate LESSONS index file (default: a section of the file)"
    )
    index_heading: str = Field(default="LESSONS index", min_length=1)
    duplicate_threshold: float = Field(
        default=0.8, gt=0, le=1, description="headline token similarity that counts as a repeat"
    )
    max_entry_chars: int = Field(default=1200, ge=1)
    provenance_severity: Severity = Severity.WARNING
    surface: list[str] = Field(
        default_factory=lambda: list(DEFAULT_SURFACE),
        description="globs a workflow-fix change may touch (`guidelint surface`)",
    )
