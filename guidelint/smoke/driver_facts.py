"""What a driver says about its smoke run, read with libcst (imported by callers lazily).

One pass over the module collects: constants (`NAME = value`), training settings
(keyword arguments, dict entries and named constants for batch, accumulation,
epochs, max_steps, save policy and row cap), whether each sits on the smoke path,
post-smoke gates (`assert count >= K`, `if count < K: raise`), and whether
anything counts checkpoint dirs on disk.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

SMOKE_WORD = re.compile(r"smoke", re.IGNORECASE)
CHECKPOINT_WORD = re.compile(r"checkpoint|ckpt", re.IGNORECASE)
STEP_WORD = re.compile(r"step", re.IGNORECASE)
AGGREGATE_WORD = re.compile(r"effective|global|total", re.IGNORECASE)
# What a row-cap slice is taken of: rows[:30], dataset[:30], not message[:80].
ROWS_WORD = re.compile(r"row|data|example|sample|train|^ds$|slice|record|line|item", re.I)
DISK_PATTERN = re.compile(r"^[rbuf]*['\"]checkpoint-?\*?['\"]$|checkpoint-?\*", re.IGNORECASE)

# Keyword / dict-key names, as the Trainer (or a DataLoader) spells them.
SETTING_KEYS = {
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


def read_driver(text: str) -> DriverFacts:
    """Facts of a driver; raises cst.ParserSyntaxError on invalid Python."""
    module = cst.parse_module(text)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    collector = _Collector(wrapper.resolve(PositionProvider))
    wrapper.visit(collector)
    facts = collector.facts
    facts.module = module
    _classify_gates(collector, facts)
    return facts


class _Collector(cst.CSTVisitor):
    def __init__(self, positions) -> None:
        self.positions = positions
        self.facts = DriverFacts()
        self.smoke_depth = 0
        self.pending_gates: list[tuple[cst.CSTNode, cst.Comparison, bool]] = []
        self._smoke_container: int | None = None  # id of a dict/call assigned to SMOKE_*

    def _line(self, node: cst.CSTNode) -> int:
        return self.positions[node].start.line

    # -- smoke path: inside `if ...smoke...:`, a smoke function, a SMOKE_* assignment
    def visit_If(self, node: cst.If) -> None:
        test = cst.Module([]).code_for_node(node.test)
        self._push(bool(SMOKE_WORD.search(test)) and not test.lstrip().startswith("not "))
        if _raises(node.body) and isinstance(node.test, cst.Comparison):
            self.pending_gates.append((node, node.test, True))

    def leave_If(self, original_node: cst.If) -> None:
        self._pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._push(bool(SMOKE_WORD.search(node.name.value)))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._pop()

    def _push(self, smoke: bool) -> None:
        self.smoke_depth = self.smoke_depth * 2 + (1 if smoke else 0)  # a bit stack

    def _pop(self) -> None:
        self.smoke_depth //= 2

    @property
    def on_smoke_path(self) -> bool:
        return self.smoke_depth > 0

    # -- constants and named settings
    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self._constant(target.target.value, node.value, node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if isinstance(node.target, cst.Name) and node.value is not None:
            self._constant(node.target.value, node.value, node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name) and isinstance(node.operator, cst.AddAssign):
            self.facts.counters.add(node.target.value)

    def _constant(self, name: str, value: cst.BaseExpression, node: cst.CSTNode) -> None:
        self.facts.constants.setdefault(name, []).append(value)
        self.facts.constant_lines[id(value)] = self._line(node)
        key = setting_for_name(name)
        if key:
            smoke = self.on_smoke_path or bool(SMOKE_WORD.search(name))
            self.facts.settings.append(Setting(key, value, self._line(node), smoke, named=True))
        if isinstance(value, (cst.Dict, cst.Call)) and SMOKE_WORD.search(name):
            self._smoke_container = id(value)

    # -- keyword arguments and dict entries
    def visit_Call(self, node: cst.Call) -> None:
        name = _callee(node.func)
        if name.endswith("Trainer") or name.endswith(("TrainingArguments", "SFTConfig")):
            self.facts.uses_trainer = True
        if name in ("count_checkpoints", "assert_checkpoints", "checkpoint_dirs"):
            self.facts.disk_check = True
        smoke = self.on_smoke_path or self._smoke_container == id(node)
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value in SETTING_KEYS:
                key = SETTING_KEYS[arg.keyword.value]
                self._setting(key, arg.value, arg, smoke)
        if name in ("select", "take", "head") and node.args:
            self._cap_from(node.args[0].value, node)

    def visit_Dict(self, node: cst.Dict) -> None:
        smoke = self.on_smoke_path or self._smoke_container == id(node)
        for element in node.elements:
            if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
                key = SETTING_KEYS.get(element.key.evaluated_value)
                if key:
                    self._setting(key, element.value, element, smoke)

    def _setting(self, key: str, value: cst.BaseExpression, node: cst.CSTNode, smoke: bool):
        line = self._line(node)
        self.facts.constant_lines.setdefault(id(value), line)
        self.facts.settings.append(Setting(key, value, line, smoke))

    def _cap_from(self, value: cst.BaseExpression, node: cst.CSTNode) -> None:
        if isinstance(value, cst.Call) and _callee(value.func) == "range" and value.args:
            value = value.args[-1].value
        self._setting("cap", value, node, True)

    # -- row caps written as slices: rows[:30]
    def visit_Subscript(self, node: cst.Subscript) -> None:
        if len(node.slice) != 1 or not ROWS_WORD.search(_callee(node.value)):
            return
        part = node.slice[0].slice
        if isinstance(part, cst.Slice) and part.lower is None and part.step is None:
            if isinstance(part.upper, (cst.Integer, cst.Name)):
                self._setting("cap", part.upper, node, True)

    # -- gates and on-disk counts
    def visit_Assert(self, node: cst.Assert) -> None:
        if isinstance(node.test, cst.Comparison):
            self.pending_gates.append((node, node.test, False))

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        # A glob or prefix over checkpoint dirs: "checkpoint-*", startswith("checkpoint-").
        if DISK_PATTERN.search(node.value):
            self.facts.disk_check = True


def _callee(func: cst.BaseExpression) -> str:
    """The last name of a callee or value: `math.ceil` -> ceil, `self.rows` -> rows."""
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return ""


def _raises(body: cst.BaseSuite) -> bool:
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    for statement in statements:
        for small in getattr(statement, "body", []):
            if isinstance(small, cst.Raise):
                return True
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
                if _callee(small.value.func) in ("exit", "fail", "abort"):
                    return True
    return False


# Comparison operators as "count OP K" -> the floor they demand; `if` gates are negated.
ASSERT_FLOORS = {cst.GreaterThanEqual: 0, cst.GreaterThan: 1, cst.Equal: 0}
RAISE_FLOORS = {cst.LessThan: 0, cst.LessThanEqual: 1, cst.NotEqual: 0}
FLIP = {
    cst.GreaterThanEqual: cst.LessThanEqual,
    cst.LessThanEqual: cst.GreaterThanEqual,
    cst.GreaterThan: cst.LessThan,
    cst.LessThan: cst.GreaterThan,
    cst.Equal: cst.Equal,
    cst.NotEqual: cst.NotEqual,
}


def _classify_gates(collector: _Collector, facts: DriverFacts) -> None:
    from guidelint.smoke.driver_values import evaluate

    for node, comparison, negated in collector.pending_gates:
        if len(comparison.comparisons) != 1:
            continue
        target = comparison.comparisons[0]
        count, bound, op = comparison.left, target.comparator, type(target.operator)
        if evaluate(facts, count).value is not None:  # written K <= count
            count, bound, op = bound, count, FLIP[op]
        floor_value = evaluate(facts, bound).value
        table = RAISE_FLOORS if negated else ASSERT_FLOORS
        if not isinstance(floor_value, int) or op not in table:
            continue
        message = facts.code(node)
        kind, checkpoints = _count_kind(facts, count, message)
        if kind is None:
            continue
        position = collector.positions[node]
        facts.gates.append(
            Gate(
                node,
                position.start.line,
                position.start.column + 1,
                position.end.line,
                position.end.column + 1,
                kind,
                floor_value + table[op],
                checkpoints,
            )
        )


def _count_kind(
    facts: DriverFacts, count: cst.BaseExpression, gate_text: str, depth: int = 0
) -> tuple[CountKind | None, bool]:
    code = facts.code(count)
    if isinstance(count, cst.Call) and _callee(count.func) == "count_checkpoints":
        return CountKind.DISK, True
    if isinstance(count, cst.Call) and _callee(count.func) == "len" and count.args:
        inner = count.args[0].value
        if CHECKPOINT_WORD.search(code) or _assigned_from_checkpoints(facts, inner):
            return CountKind.DISK, True
        return None, False
    if isinstance(count, cst.Attribute) and count.attr.value == "global_step":
        return CountKind.STATE, False
    if isinstance(count, cst.Name):
        return _name_kind(facts, count.value, gate_text, depth)
    if _is_arithmetic(count) and (STEP_WORD.search(gate_text) or CHECKPOINT_WORD.search(gate_text)):
        return CountKind.ARITH, bool(CHECKPOINT_WORD.search(gate_text))
    return None, False


def _name_kind(facts, name: str, gate_text: str, depth: int):
    values = facts.constants.get(name, [])
    if depth < 3:
        for value in values:
            kind, checkpoints = _count_kind(facts, value, name, depth + 1)
            if kind is not None:
                return kind, checkpoints
    if name in facts.counters and (STEP_WORD.search(name) or CHECKPOINT_WORD.search(name)):
        return CountKind.COUNTER, bool(CHECKPOINT_WORD.search(name))
    if values and any(_is_arithmetic(v) for v in values):
        if STEP_WORD.search(name) or CHECKPOINT_WORD.search(name):
            return CountKind.ARITH, bool(CHECKPOINT_WORD.search(name))
    return None, False


def _assigned_from_checkpoints(facts: DriverFacts, node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Call) and _callee(node.func) in ("list", "sorted") and node.args:
        node = node.args[0].value
    if isinstance(node, cst.Name):
        return any(
            CHECKPOINT_WORD.search(facts.code(v)) for v in facts.constants.get(node.value, [])
        )
    return False


def _is_arithmetic(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.BinaryOperation):
        return True
    return isinstance(node, cst.Call) and _callee(node.func) in (
        "ceil",
        "floor",
        "max",
        "min",
        "int",
    )
