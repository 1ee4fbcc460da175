"""[tool.guidelint.runner] options (owned by the example-runner pillar)."""

from guidelint.config_base import Section


class RunnerConfig(Section):
    pass
