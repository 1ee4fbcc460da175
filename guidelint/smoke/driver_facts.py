"""What a driver says about its smoke run: the facts driver_reader collects, as data.

Constants (`NAME = value`), training settings (batch, accumulation, epochs,
max_steps, save policy, row cap) with whether each sits on the smoke path,
post-smoke gates, and whether anything counts checkpoint dirs on disk. Also the
naming vocabulary the reader and the evaluator share (what a constant's name means).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import libcst as cst

SMOKE_WORD = re.compile(r"smoke", re.IGNORECASE)
AGGREGATE_WORD = re.compile(r"effective|global|total", re.IGNORECASE)

# Named constants (any case), matched by the end of the name: SMOKE_EPOCHS, BATCH_SIZE.
NAME_PATTERNS = [
    (re.compile(r"(^|_)(num_)?(train_)?epochs?$", re.I), "epochs"),
    (re.compile(r"max_(train_)?steps$", re.I), "max_steps"),
    (re.compile(r"(^|_)(per_device_)?(train_)?batch(_size)?$", re.I), "batch"),
    (re.compile(r"(grad(ient)?_)?accum(ulation)?(_steps)?$", re.I), "accum"),
    (re.compile(r"save_steps$", re.I), "save_steps"),
    (re.compile(r"(max_rows|row_cap|rows_cap|(^|_)cap)$", re.I), "cap"),
    (re.compile(r"world_size$", re.I), "world"),
]


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


@dataclass
class Gate:
    node: cst.CSTNode
    line: int  # 1-based
    column: int  # 1-based
    end_line: int
    end_column: int
    kind: CountKind
    floor: int
    counts_checkpoints: bool


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

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node) if self.module else ""

    def line_of(self, node: cst.CSTNode) -> int | None:
        return self.constant_lines.get(id(node))


def setting_for_name(name: str) -> str | None:
    if AGGREGATE_WORD.search(name):
        return None  # EFFECTIVE_BATCH, GLOBAL_BATCH: not the per-device batch
    for pattern, key in NAME_PATTERNS:
        if pattern.search(name):
            return key
    return None
