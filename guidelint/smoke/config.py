"""[tool.guidelint.smoke] options (owned by the smoke-gate pillar)."""

from pydantic import Field

from guidelint.config_base import Section


class SmokeConfig(Section):
    """Options of GL301-GL304, the static checks over experiment drivers."""

    drivers: list[str] = Field(
        default_factory=lambda: ["scripts/**/*.py"],
        description="globs (.gitignore syntax) of the Python drivers GL301-GL304 read",
    )
    default_cap: int = Field(
        default=1000,
        ge=1,
        description="realized rows searched (n in [1, default-cap]) when a driver names no cap",
    )
