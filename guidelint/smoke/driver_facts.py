"""What a driver says about its smoke run: the facts driver_reader collects, as data.

Constants (`NAME = value`), training settings (batch, accumulation, epochs,
max_steps, save policy, row cap) with whether each sits on the smoke path,
post-smoke gates, and whether anything counts checkpoint dirs on disk. Also the
naming vocabulary the reader and the evaluator share (what a constant's name means).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import libcst as cst
    from libcst.metadata import CodeRange

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
    verdicts: dict[tuple, object] = field(default_factory=dict)  # driver_check.judge's memo

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
