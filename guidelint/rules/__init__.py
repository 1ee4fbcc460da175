"""The rule registry: every `glNNN_*.py` module in this package holds one rule.

Adding a rule means adding its module here and its page in `rules/GLNNN.md`, then
running scripts/gen_rule_index.py, which writes its row in `index.py` (the engine
reads that to import a rule only for a file it may apply to); nothing else registers
it.

A package here without the `gl` prefix (`stale_path/`, `broken_link/`) holds one
rule's signals, grouped by kind; the registry and the index generator skip it.
"""

from __future__ import annotations

from functools import lru_cache

from guidelint.rule import Rule


@lru_cache(maxsize=1)
def all_rules() -> dict[str, type[Rule]]:
    """Rule classes by code, in code order (every rule's module imported now)."""
    from guidelint.rules.index import RULES, load

    return {entry.code: load(entry) for entry in RULES}


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
