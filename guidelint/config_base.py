"""The base of every configuration table, shared by the core and the pillars."""

from pydantic import BaseModel, ConfigDict


def kebab(name: str) -> str:
    return name.replace("_", "-")


class Section(BaseModel):
    """A config table: kebab-case keys, unknown keys rejected, immutable."""

    model_config = ConfigDict(
        extra="forbid", alias_generator=kebab, populate_by_name=True, frozen=True
    )
