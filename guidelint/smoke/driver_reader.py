"""Reading a driver with libcst: one pass collects its DriverFacts (imported by callers lazily).

One pass over the module collects: constants (`NAME = value`), training settings
(keyword arguments, dict entries and named constants for batch, accumulation,
epochs, max_steps, save policy and row cap), whether each sits on the smoke path,
post-smoke gates (`assert count >= K`, `if count < K: raise`), and whether
anything counts checkpoint dirs on disk.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from guidelint.smoke.cst_names import called_name, code_of, last_name
from guidelint.smoke.driver_facts import (
    SMOKE_WORD,
    CountKind,
    DriverFacts,
    Gate,
    Setting,
    setting_for_name,
)
from guidelint.smoke.driver_values import evaluate

CHECKPOINT_WORD = re.compile(r"checkpoint|ckpt", re.IGNORECASE)
STEP_WORD = re.compile(r"step", re.IGNORECASE)
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


def read_driver(text: str) -> DriverFacts:
    """Facts of a driver; raises cst.ParserSyntaxError on invalid Python."""
    module = cst.parse_module(text)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    collector = _Collector(wrapper.resolve(PositionProvider))
    wrapper.visit(collector)
    facts = collector.facts
    facts.module = module
    facts.positions = collector.positions
    _classify_gates(collector, facts)
    return facts


class _Collector(cst.CSTVisitor):
    def __init__(self, positions: Mapping[cst.CSTNode, CodeRange]) -> None:
        self.positions = positions
        self.facts = DriverFacts()
        self.smoke_depth = 0
        self.pending_gates: list[tuple[cst.CSTNode, cst.Comparison, bool]] = []
        self._smoke_container: int | None = None  # id of a dict/call assigned to SMOKE_*

    def _line(self, node: cst.CSTNode) -> int:
        return self.positions[node].start.line

    # -- smoke path: inside `if ...smoke...:`, a smoke function, a SMOKE_* assignment
    def visit_If(self, node: cst.If) -> None:
        test = code_of(node.test)
        self._push(bool(SMOKE_WORD.search(test)) and not test.lstrip().startswith("not "))
        if _raises(node.body) and isinstance(node.test, cst.Comparison):
            self.pending_gates.append((node, node.test, True))

    def leave_If(self, original_node: cst.If) -> None:
        self._pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._push(bool(SMOKE_WORD.search(node.name.value)))
        self.facts.functions.setdefault(node.name.value, node)

    # -- dataclass (and pydantic model) defaults, iterable datasets, guidelint.smoke imports
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        bases = {last_name(b.value) for b in node.bases}
        if "IterableDataset" in bases:
            self.facts.iterable = True
        decorators = {last_name(d.decorator) or called_name(d.decorator) for d in node.decorators}
        if "dataclass" in decorators or bases & {"BaseModel", "BaseSettings"}:
            fields = self.facts.class_fields.setdefault(node.name.value, {})
            for statement in node.body.body:
                if isinstance(statement, cst.SimpleStatementLine):
                    for small in statement.body:
                        if (
                            isinstance(small, cst.AnnAssign)
                            and isinstance(small.target, cst.Name)
                            and small.value is not None
                        ):
                            fields[small.target.value] = _field_default(small.value)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        module = code_of(node.module) if node.module else ""
        if module.startswith("guidelint.smoke") and not isinstance(node.names, cst.ImportStar):
            self.facts.smoke_imports.update(
                last_name(alias.asname.name if alias.asname else alias.name) for alias in node.names
            )

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
        if self.on_smoke_path:
            self.facts.smoke_values.add(id(value))
        key = setting_for_name(name)
        if key:
            smoke = self.on_smoke_path or bool(SMOKE_WORD.search(name))
            self.facts.settings.append(Setting(key, value, self._line(node), smoke, named=True))
        if isinstance(value, (cst.Dict, cst.Call)) and SMOKE_WORD.search(name):
            self._smoke_container = id(value)

    # -- keyword arguments and dict entries
    def visit_Call(self, node: cst.Call) -> None:
        name = last_name(node.func)
        if name.endswith("Trainer") or name.endswith(("TrainingArguments", "SFTConfig")):
            self.facts.uses_trainer = True
        if name in ("count_checkpoints", "assert_checkpoints", "checkpoint_dirs"):
            self.facts.disk_check = True
        if name in ("require_floor", "dial") and name in self.facts.smoke_imports:
            self.facts.guarded = True
        if name == "require_floor" and isinstance(node.func, cst.Attribute):
            self.facts.guarded = True  # guidelint.smoke.require_floor(...)
        if name in ("to_iterable_dataset", "from_generator") or any(
            arg.keyword is not None
            and arg.keyword.value == "streaming"
            and code_of(arg.value) == "True"
            for arg in node.args
        ):
            self.facts.iterable = True
        if name == "add_argument":
            self._argument(node)
        smoke = self.on_smoke_path or self._smoke_container == id(node)
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value in SETTING_KEYS:
                key = SETTING_KEYS[arg.keyword.value]
                self._setting(key, arg.value, arg, smoke)
        if name in ("select", "take", "head") and node.args:
            self._cap_from(node.args[0].value, node)

    def _argument(self, node: cst.Call) -> None:
        """`parser.add_argument("--epochs", type=int, default=1)`: the default, by dest."""
        flags = [
            a.value.evaluated_value
            for a in node.args
            if a.keyword is None and isinstance(a.value, cst.SimpleString)
        ]
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        long = [f for f in flags if isinstance(f, str) and f.startswith("--")]
        flag = (long or [f for f in flags if isinstance(f, str)] or [""])[0]
        dest = keywords.get("dest")
        name = (
            dest.evaluated_value
            if isinstance(dest, cst.SimpleString)
            else flag.lstrip("-").replace("-", "_")
        )
        if not isinstance(name, str) or not name:
            return
        default = keywords.get("default")
        action = keywords.get("action")
        if default is None and isinstance(action, cst.SimpleString):
            if action.evaluated_value in ("store_true", "store_false"):
                default = cst.Name("False" if action.evaluated_value == "store_true" else "True")
        self.facts.arg_defaults[name] = (default, flag or name, self._line(node))

    def visit_Dict(self, node: cst.Dict) -> None:
        smoke = self.on_smoke_path or self._smoke_container == id(node)
        for element in node.elements:
            if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
                text = element.key.evaluated_value  # bytes for b"..." keys: never a setting
                key = SETTING_KEYS.get(text) if isinstance(text, str) else None
                if key:
                    self._setting(key, element.value, element, smoke)

    def _setting(self, key: str, value: cst.BaseExpression, node: cst.CSTNode, smoke: bool):
        line = self._line(node)
        self.facts.constant_lines.setdefault(id(value), line)
        self.facts.settings.append(Setting(key, value, line, smoke))

    def _cap_from(self, value: cst.BaseExpression, node: cst.CSTNode) -> None:
        if isinstance(value, cst.Call) and called_name(value) == "range" and value.args:
            value = value.args[-1].value
        self._setting("cap", value, node, True)

    # -- row caps written as slices: rows[:30]
    def visit_Subscript(self, node: cst.Subscript) -> None:
        if len(node.slice) != 1 or not ROWS_WORD.search(last_name(node.value)):
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
        if node.value.strip("'\"") == "WORLD_SIZE":
            self.facts.reads_world = True


STOP_CALLS = ("exit", "fail", "abort")  # `if count < K: sys.exit(...)` gates too


def _field_default(value: cst.BaseExpression) -> cst.BaseExpression:
    """`field(default=2)` is 2; any other value is the default as written."""
    if called_name(value) == "field" and isinstance(value, cst.Call):
        for arg in value.args:
            if arg.keyword is not None and arg.keyword.value == "default":
                return arg.value
    return value


def _raises(body: cst.BaseSuite) -> bool:
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    for statement in statements:
        # Only a line of simple statements holds them; an `if` or `for` inside holds a block.
        if not isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            continue
        for small in statement.body:
            if isinstance(small, cst.Raise):
                return True
            if isinstance(small, cst.Expr) and called_name(small.value) in STOP_CALLS:
                return True
    return False


# Comparison operators as "count OP K" -> the floor they demand; `if` gates are negated.
CompOp = type[cst.BaseCompOp]
ASSERT_FLOORS: dict[CompOp, int] = {cst.GreaterThanEqual: 0, cst.GreaterThan: 1, cst.Equal: 0}
RAISE_FLOORS: dict[CompOp, int] = {cst.LessThan: 0, cst.LessThanEqual: 1, cst.NotEqual: 0}
FLIP: dict[CompOp, CompOp] = {
    cst.GreaterThanEqual: cst.LessThanEqual,
    cst.LessThanEqual: cst.GreaterThanEqual,
    cst.GreaterThan: cst.LessThan,
    cst.LessThan: cst.GreaterThan,
    cst.Equal: cst.Equal,
    cst.NotEqual: cst.NotEqual,
}


def _classify_gates(collector: _Collector, facts: DriverFacts) -> None:
    for node, comparison, negated in collector.pending_gates:
        if len(comparison.comparisons) != 1:
            continue
        target = comparison.comparisons[0]
        count, bound, op = comparison.left, target.comparator, type(target.operator)
        if evaluate(facts, count).value is not None:  # written K <= count
            if op not in FLIP:
                continue  # `K in items`: membership, no floor
            count, bound, op = bound, count, FLIP[op]
        floor_value = evaluate(facts, bound).value
        table = RAISE_FLOORS if negated else ASSERT_FLOORS
        if op not in table or isinstance(bound, cst.SimpleString | cst.Float):
            continue
        if not isinstance(floor_value, int) or isinstance(floor_value, bool):
            floor_value = None  # followed later (driver_terms), or reported as unprovable
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
                None if floor_value is None else floor_value + table[op],
                checkpoints,
                bound,
                table[op],
            )
        )


def _count_kind(
    facts: DriverFacts, count: cst.BaseExpression, gate_text: str, depth: int = 0
) -> tuple[CountKind | None, bool]:
    code = facts.code(count)
    if called_name(count) == "count_checkpoints":
        return CountKind.DISK, True
    if isinstance(count, cst.Call) and called_name(count) == "len" and count.args:
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


def _name_kind(
    facts: DriverFacts, name: str, gate_text: str, depth: int
) -> tuple[CountKind | None, bool]:
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
    if isinstance(node, cst.Call) and called_name(node) in ("list", "sorted") and node.args:
        node = node.args[0].value
    if isinstance(node, cst.Name):
        return any(
            CHECKPOINT_WORD.search(facts.code(v)) for v in facts.constants.get(node.value, [])
        )
    return False


def _is_arithmetic(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.BinaryOperation):
        return True
    return called_name(node) in (
        "ceil",
        "floor",
        "max",
        "min",
        "int",
    )
