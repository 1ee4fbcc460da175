"""What a driver says about its smoke run: the facts driver_reader collects, as data.

Constants (`NAME = value`), training settings (batch, accumulation, epochs,
max_steps, save policy, row cap) with whether each sits on the smoke path,
post-smoke gates, and whether anything counts checkpoint dirs on disk. Also the
naming vocabulary the reader and the evaluator share (what a constant's name means).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import libcst as cst
    from libcst.metadata import CodeRange

# Keyword / dict-key names, as the Trainer (or a DataLoader) spells them.
TRAINER_KEYS = {
    "per_device_train_batch_size": "batch",
    "batch_size": "batch",
    "train_batch_size": "batch",
    "gradient_accumulation_steps": "accum",
    "num_train_epochs": "epochs",
    "num_epochs": "epochs",
    "epochs": "epochs",
    "max_steps": "max_steps",
    "max_train_steps": "max_steps",
    "save_steps": "save_steps",
    "checkpointing_steps": "save_steps",
    "save_strategy": "save_strategy",
    "save_total_limit": "save_total_limit",
    "dataloader_drop_last": "drop_last",
    "drop_last": "drop_last",
    "world_size": "world",
    "max_rows": "cap",
    "smoke_max_rows": "cap",
    "row_cap": "cap",
}
# Lightning's Trainer and ModelCheckpoint keywords (guidelint/smoke/lightning.py models them).
LIGHTNING_KEYS = {
    "max_epochs": "epochs",
    "max_steps": "max_steps",
    "accumulate_grad_batches": "accum",
    "limit_train_batches": "limit_batches",
    "every_n_train_steps": "every_n_train_steps",
    "every_n_epochs": "every_n_epochs",
    "save_top_k": "save_top_k",
    "save_last": "save_last",
    "batch_size": "batch",
    "drop_last": "drop_last",
}
SETTING_KEYS = {**TRAINER_KEYS, **LIGHTNING_KEYS}
# TRL's configs are TrainingArguments too: SFTConfig, DPOConfig, GRPOConfig, ...
TRAINING_CONFIGS = re.compile(r"(TrainingArguments|(SFT|DPO|GRPO|ORPO|KTO|PPO|CPO|Reward)Config)$")
# Calls whose `**config` (or `args=`) may carry settings from a config file.
CONFIGURED_CALLS = ("Trainer", "ModelCheckpoint", "DataLoader")

SMOKE_WORD = re.compile(r"smoke", re.IGNORECASE)
AGGREGATE_WORD = re.compile(r"effective|global|total", re.IGNORECASE)

# Named constants (any case), matched by the end of the name: SMOKE_EPOCHS, BATCH_SIZE.
NAME_PATTERNS = [
    (re.compile(r"(^|_)(?<!per_)(num_)?(train_)?epochs?$", re.I), "epochs"),
    (re.compile(r"max_(train_)?steps$", re.I), "max_steps"),
    (re.compile(r"(^|_)(per_device_)?(train_)?batch(_size)?$", re.I), "batch"),
    (re.compile(r"(grad(ient)?_)?accum(ulation)?(_steps)?$", re.I), "accum"),
    (re.compile(r"save_steps$", re.I), "save_steps"),
    (re.compile(r"(max_rows|row_cap|rows_cap|(^|_)cap)$", re.I), "cap"),
    (re.compile(r"world_size$", re.I), "world"),
]


@dataclass(frozen=True)
class Origin:
    """Where a driver lives and how it may read the project's other files (never outside it).

    `read(rel)` is the text of a file inside the project root, or None; `contains(rel)`
    says whether a path, symlinks resolved, stays inside the root.
    """

    rel: str  # the driver's path, relative to the project root (POSIX)
    read: Callable[[str], str | None]
    contains: Callable[[str], bool]
    exists: Callable[[str], bool] = lambda rel: False


class CountKind(str, enum.Enum):
    DISK = "disk"  # checkpoint-* dirs counted on disk
    STATE = "state"  # trainer.state.global_step
    COUNTER = "counter"  # a steps counter incremented in a loop
    ARITH = "arith"  # a count computed from configuration arithmetic


@dataclass
class Setting:
    key: str  # batch, accum, epochs, ...
    value: cst.BaseExpression
    line: int
    smoke: bool  # on the smoke path
    named: bool = False  # a named constant (BATCH_SIZE = 4), not a keyword or dict entry


@dataclass(frozen=True)
class Spread:
    """`TrainingArguments(**cfg["train"])` or `Trainer(args=training_args)`: settings that
    may come from a config file (driver_configs.add_config_settings)."""

    callee: str
    value: cst.BaseExpression
    line: int
    smoke: bool
    written: frozenset[str]  # keywords the call writes itself
    star: bool  # `**value`, not `args=value`


@dataclass
class Gate:
    node: cst.CSTNode
    line: int  # 1-based
    column: int  # 1-based
    end_line: int
    end_column: int
    kind: CountKind
    floor: int | None  # None when the module alone does not decide it: see bound
    counts_checkpoints: bool
    bound: cst.BaseExpression | None = None  # the floor as written
    offset: int = 0  # added to the bound: `count > K` demands K + 1

    @property
    def floor_text(self) -> str:
        return str(self.floor) if self.floor is not None else "not a constant"


@dataclass
class DriverFacts:
    constants: dict[str, list[cst.BaseExpression]] = field(default_factory=dict)
    constant_lines: dict[int, int] = field(default_factory=dict)  # id(node) -> line
    settings: list[Setting] = field(default_factory=list)
    gates: list[Gate] = field(default_factory=list)
    counters: set[str] = field(default_factory=set)
    disk_check: bool = False
    uses_trainer: bool = False
    module: cst.Module | None = None
    positions: Mapping[cst.CSTNode, CodeRange] | None = None
    smoke_values: set[int] = field(default_factory=set)  # id() of values assigned on the smoke path
    arg_defaults: dict[str, tuple[cst.BaseExpression | None, str, int]] = field(
        default_factory=dict
    )  # argparse dest -> (default, flag, line)
    class_fields: dict[str, dict[str, cst.BaseExpression]] = field(
        default_factory=dict
    )  # dataclass (or pydantic model) -> field -> default
    functions: dict[str, cst.FunctionDef] = field(default_factory=dict)
    smoke_imports: set[str] = field(default_factory=set)  # names imported from guidelint.smoke
    iterable: bool = False  # the training data is an IterableDataset or a stream
    guarded: bool = False  # require_floor (or dial) checks the floor at run time
    reads_world: bool = False  # reads WORLD_SIZE: the world size is the launcher's
    verdicts: dict[tuple, object] = field(default_factory=dict)  # judging.judge's memo
    origin: Origin | None = None  # the driver's path and the project's files
    imports: dict[str, tuple[str, str, int]] = field(
        default_factory=dict
    )  # local name -> (module as written, imported name or "" for the module, line)
    hydra: dict[str, tuple[cst.BaseExpression | None, cst.BaseExpression | None, int]] = field(
        default_factory=dict
    )  # the config parameter of a @hydra.main function -> (config_path, config_name, line)
    spreads: list[Spread] = field(default_factory=list)  # `**cfg`, `args=training_args`
    modules: dict[str, object] = field(default_factory=dict)  # imported modules' facts, memo
    enumerated: set[str] = field(default_factory=set)  # `for step, batch in enumerate(...)`
    syncs: bool = False  # `if accelerator.sync_gradients:`: a counter under it counts steps
    stepped: set[int] = field(default_factory=set)  # id() of `X += k` as X = before + k
    hydra_initialize: cst.BaseExpression | None = None  # hydra.initialize(config_path=...)
    lightning: bool = False  # builds a Lightning Trainer (with max_epochs / ModelCheckpoint)
    lightning_import: bool = False  # imports lightning or pytorch_lightning
    lightning_unmodelled: list[tuple[str, int, bool]] = field(
        default_factory=list
    )  # (a Lightning setting the model leaves out, its line, whether only saves depend on it)
    accelerate_saves: list[tuple[cst.BaseExpression, cst.BaseExpression, int]] = field(
        default_factory=list
    )  # `if step % K == 0: accelerator.save_state(...)`: (the counter, K, line)

    @property
    def rel(self) -> str | None:
        return self.origin.rel if self.origin else None

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node) if self.module else ""

    def line_of(self, node: cst.CSTNode) -> int | None:
        return self.constant_lines.get(id(node))

    def line_at(self, node: cst.CSTNode) -> int | None:
        """The line of any node of the module."""
        position = self.positions.get(node) if self.positions else None
        return position.start.line if position else None


def setting_for_name(name: str) -> str | None:
    if AGGREGATE_WORD.search(name):
        return None  # EFFECTIVE_BATCH, GLOBAL_BATCH: not the per-device batch
    for pattern, key in NAME_PATTERNS:
        if pattern.search(name):
            return key
    return None
