"""[tool.guidelint.smoke] options (owned by the smoke-gate pillar)."""

from guidelint.config_base import Section


class SmokeConfig(Section):
    pass
