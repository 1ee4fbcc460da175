"""[tool.guidelint.gotchas] options (owned by the gotchas pillar)."""

from guidelint.config_base import Section


class GotchasConfig(Section):
    pass
