"""What every GL3xx rule shares: it looks only at driver files (the smoke.drivers globs)."""

from __future__ import annotations

from guidelint.rules.base import Rule


class DriverRule(Rule):
    file_kinds = frozenset({"python"})

    def applies_to(self, file, project) -> bool:
        from guidelint.smoke.driver_rules import is_driver  # libcst stays off the import path

        return is_driver(file, project)
