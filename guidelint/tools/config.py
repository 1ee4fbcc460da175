"""[tool.guidelint.tools] options (owned by the tool-references pillar)."""

from guidelint.config_base import Section


class ToolsConfig(Section):
    pass
