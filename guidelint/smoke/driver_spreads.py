"""Settings a config file supplies through a spread: `TrainingArguments(**cfg["train"])`,
`L.Trainer(**cfg.trainer)`, `Trainer(args=training_args)` from HfArgumentParser.

Run after the driver is read (rulebase), when its constants are known: each spread is
followed to a config file (driver_configs) and each setting key it holds becomes a
Setting that reads `expr["key"]`, which the evaluator follows to the file's line.
"""

from __future__ import annotations

import json

import libcst as cst

from guidelint.smoke.driver_configs import ConfigTree
from guidelint.smoke.driver_facts import (
    LIGHTNING_KEYS,
    SETTING_KEYS,
    TRAINING_CONFIGS,
    DriverFacts,
    Setting,
)
from guidelint.smoke.driver_terms import Unfollowed, _Compiler


def add_config_settings(facts: DriverFacts) -> None:
    """Settings a config file supplies: `TrainingArguments(**cfg["train"])`, `Trainer(**cfg)`,
    and HfArgumentParser's parsed TrainingArguments (every key, its default when omitted)."""
    compiler = _Compiler(facts)
    for spread in facts.spreads:
        callee, expr, line, smoke, written = (
            spread.callee, spread.value, spread.line, spread.smoke, spread.written,
        )  # fmt: skip
        try:
            container = compiler.container(expr, 0)
        except Unfollowed:
            dials = {"num_train_epochs", "max_steps", "max_epochs"}
            training = TRAINING_CONFIGS.search(callee) or (facts.lightning and callee == "Trainer")
            if spread.star and training and not written & dials:
                key = "max_epochs" if facts.lightning else "num_train_epochs"
                synthetic = _entry(expr, key)
                facts.constant_lines[id(synthetic)] = line
                facts.settings.append(Setting("epochs", synthetic, line, smoke))
            continue
        if not isinstance(container, ConfigTree):
            continue
        keys = set(container.keys()) | set(container.defaults)
        for key in sorted(keys):
            setting = SETTING_KEYS.get(key) or _lightning_key(key, callee)
            if setting is None or key in written:
                continue
            synthetic = _entry(expr, key)
            facts.constant_lines[id(synthetic)] = line
            facts.settings.append(Setting(setting, synthetic, line, smoke))


def _lightning_key(key: str, callee: str) -> str | None:
    return LIGHTNING_KEYS.get(key) if callee in ("Trainer", "ModelCheckpoint", "") else None


def _entry(expr: cst.BaseExpression, key: str) -> cst.BaseExpression:
    """`expr["key"]`: a node the term compiler follows into the config tree."""
    index = cst.Index(cst.SimpleString(json.dumps(key)))
    return cst.Subscript(value=expr, slice=[cst.SubscriptElement(index)])
