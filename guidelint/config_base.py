"""The base of every configuration table, shared by the core and the pillars."""

from __future__ import annotations

import posixpath
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict


def kebab(name: str) -> str:
    return name.replace("_", "-")


class Section(BaseModel):
    """A config table: kebab-case keys, unknown keys rejected, immutable."""

    model_config = ConfigDict(
        extra="forbid", alias_generator=kebab, populate_by_name=True, frozen=True
    )


def _inside_project(path: str) -> str:
    """A path (or glob) relative to the project root that cannot lead out of it:
    guidelint writes and prunes there (the cache, the gotchas file)."""
    normal = posixpath.normpath(path.replace("\\", "/"))
    if path.startswith(("/", "~")) or normal == ".." or normal.startswith("../"):
        raise ValueError("must be a path inside the project (relative, no leading '..')")
    return path


# A configured path guidelint may write to: relative, and inside the project.
ProjectPath = Annotated[str, AfterValidator(_inside_project)]
