"""The rule registry: every `glNNN_*.py` module in this package holds one rule.

Adding a rule means adding its module here, its row in `index.py` (which the engine
reads to import a rule only for a file it may apply to; a test keeps the two equal)
and its page in `rules/GLNNN.md`; nothing else registers it.
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from guidelint.rule import Rule


@lru_cache(maxsize=1)
def all_rules() -> dict[str, type[Rule]]:
    """Rule classes by code, in code order."""
    import pkgutil

    found: dict[str, type[Rule]] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("gl"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Rule) and value is not Rule:
                if value.__module__ == module.__name__ and getattr(value, "code", None):
                    if value.code in found:
                        raise RuntimeError(f"rule code {value.code} defined twice")
                    found[value.code] = value
    return dict(sorted(found.items()))


def rule_rows() -> list[dict[str, object]]:
    """Every rule as `guidelint rules --format json` lists it."""
    return [
        {
            "code": code,
            "name": rule.name,
            "severity": rule.severity.value,
            "fixable": rule.fixable,
            "summary": rule.summary,
        }
        for code, rule in all_rules().items()
    ]


def rule_by_name_or_code(key: str) -> type[Rule] | None:
    """The rule a code or name names; only its module is imported (`rules.index`)."""
    from guidelint.rules.index import RULES, load

    key_upper = key.upper()
    for entry in RULES:
        if entry.code == key_upper or entry.name == key:
            return load(entry)
    return None
