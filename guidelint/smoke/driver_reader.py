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
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from guidelint.smoke.cst_names import called_name, code_of, last_name
from guidelint.smoke.driver_facts import (
    CONFIGURED_CALLS,
    SETTING_KEYS,
    SMOKE_WORD,
    TRAINING_CONFIGS,
    CountKind,
    DriverFacts,
    Gate,
    Origin,
    Setting,
    Spread,
    setting_for_name,
)
from guidelint.smoke.driver_values import evaluate

CHECKPOINT_WORD = re.compile(r"checkpoint|ckpt", re.IGNORECASE)
STEP_WORD = re.compile(r"step", re.IGNORECASE)
# What a row-cap slice is taken of: rows[:30], dataset[:30], not message[:80].
ROWS_WORD = re.compile(r"row|data|example|sample|train|^ds$|slice|record|line|item", re.I)
DISK_PATTERN = re.compile(r"^[rbuf]*['\"]checkpoint-?\*?['\"]$|checkpoint-?\*", re.IGNORECASE)


def read_driver(text: str, origin: Origin | None = None) -> DriverFacts:
    """Facts of a driver; raises cst.ParserSyntaxError on invalid Python.

    With an origin, constants imported from the project's modules and the config
    files the driver loads are followed too (read inside the project root only);
    driver_spreads.add_config_settings adds the settings a `**config` carries.
    """
    module = cst.parse_module(text)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    collector = _Collector(wrapper.resolve(PositionProvider))
    collector.facts.module = module
    collector.facts.positions = collector.positions
    collector.facts.origin = origin
    wrapper.visit(collector)
    facts = collector.facts
    _classify_gates(collector, facts)
    return facts


@dataclass
class _Block:
    """A block of statements: the value each name was last given in it, straight-line."""

    node_id: int
    function: bool  # a function's body: names above it are another scope
    last: dict[str, cst.BaseExpression] = field(default_factory=dict)


class _Collector(cst.CSTVisitor):
    def __init__(self, positions: Mapping[cst.CSTNode, CodeRange]) -> None:
        self.positions = positions
        self.facts = DriverFacts()
        self.smoke_depth = 0
        self.pending_gates: list[tuple[cst.CSTNode, cst.Comparison, bool]] = []
        self._smoke_container: int | None = None  # id of a dict/call assigned to SMOKE_*
        self.blocks: list[_Block] = []
        self.closed: dict[int, _Block] = {}  # blocks left, by id of their node: for `if`s
        self.branch_values: dict[int, dict[str, cst.BaseExpression]] = {}  # elif -> values
        self.elifs: set[int] = set()
        self.loops = 0
        self.named_settings: dict[int, Setting] = {}  # id(value) -> its named Setting
        self.function_bodies: set[int] = set()
        self.straight_bodies: set[int] = set()  # `with` bodies: no block of their own

    def _line(self, node: cst.CSTNode) -> int:
        position = self.positions.get(node)
        return position.start.line if position else 0

    # -- blocks and loops: where an assignment replaces the one before it
    def visit_Module(self, node: cst.Module) -> None:
        self.blocks.append(_Block(id(node), True))

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        if id(node) in self.straight_bodies:
            return  # a `with` body always runs: its assignments are the enclosing block's
        self.blocks.append(_Block(id(node), id(node) in self.function_bodies))

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock) -> None:
        if id(original_node) not in self.straight_bodies:
            self.closed[id(original_node)] = self.blocks.pop()

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        if id(node) not in self.straight_bodies:
            self.blocks.append(_Block(id(node), id(node) in self.function_bodies))

    def leave_SimpleStatementSuite(self, original_node: cst.SimpleStatementSuite) -> None:
        if id(original_node) not in self.straight_bodies:
            self.closed[id(original_node)] = self.blocks.pop()

    def visit_For(self, node: cst.For) -> None:
        self.loops += 1
        target, source = node.target, node.iter
        if called_name(source) == "enumerate" and isinstance(target, cst.Tuple):
            first = target.elements[0].value if target.elements else None
            if isinstance(first, cst.Name):
                self.facts.enumerated.add(first.value)
        if (
            isinstance(source, cst.Call)
            and called_name(source) == "range"
            and len(source.args) == 1
        ):
            if isinstance(target, cst.Name) and "epoch" in target.value.lower():
                # `for epoch in range(EPOCHS):` a hand-written loop's epochs dial
                self._setting("epochs", source.args[0].value, node, self.on_smoke_path)

    def leave_For(self, original_node: cst.For) -> None:
        self.loops -= 1

    def visit_While(self, node: cst.While) -> None:
        self.loops += 1

    def leave_While(self, original_node: cst.While) -> None:
        self.loops -= 1

    # -- smoke path: inside `if ...smoke...:`, a smoke function, a SMOKE_* assignment
    def visit_If(self, node: cst.If) -> None:
        test = code_of(node.test)
        if test.endswith("sync_gradients"):
            self.facts.syncs = True
        self._push(bool(SMOKE_WORD.search(test)) and not test.lstrip().startswith("not "))
        if _raises(node.body) and isinstance(node.test, cst.Comparison):
            self.pending_gates.append((node, node.test, True))
        if isinstance(node.orelse, cst.If):
            self.elifs.add(id(node.orelse))
        self._accelerate_save(node)

    def leave_If(self, original_node: cst.If) -> None:
        self._pop()
        self._merge_branches(original_node)

    def _merge_branches(self, node: cst.If) -> None:
        """`if c: X = a else: X = b` is X = (a if c else b); a branch that leaves X alone
        keeps the value X had before the `if`. The conditional is followed like any other."""
        body = self.closed.get(id(node.body))
        orelse: dict[str, cst.BaseExpression] = {}
        if isinstance(node.orelse, cst.Else):
            block = self.closed.get(id(node.orelse.body))
            orelse = dict(block.last) if block else {}
        elif isinstance(node.orelse, cst.If):
            orelse = self.branch_values.pop(id(node.orelse), {})
        merged: dict[str, cst.BaseExpression] = {}
        for name in dict.fromkeys([*(body.last if body else {}), *orelse]):
            before = self._visible(name)
            then = body.last.get(name, before) if body else before
            other = orelse.get(name, before)
            if then is None or other is None:  # one branch only, nothing before: as it was
                if name in orelse and isinstance(node.orelse, cst.If):
                    self._constant(name, orelse[name], node)
                continue
            merged[name] = cst.IfExp(test=node.test, body=then, orelse=other)
            for old in (then, other):
                if old is not before:
                    self._forget(name, old)
        if id(node) in self.elifs:
            self.branch_values[id(node)] = merged
            return
        for name, value in merged.items():
            before = self._visible(name)
            if before is not None:
                self._forget(name, before)
            self._record(name, value, node)

    def _accelerate_save(self, node: cst.If) -> None:
        """`if step % SAVE_EVERY == 0: accelerator.save_state(...)`: a literal save cadence."""
        test = node.test
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
            return
        target = test.comparisons[0]
        if not isinstance(target.operator, cst.Equal) or code_of(target.comparator) != "0":
            return
        left = test.left
        if not (isinstance(left, cst.BinaryOperation) and isinstance(left.operator, cst.Modulo)):
            return
        saves = [
            n
            for n in _walk(node.body)
            if isinstance(n, cst.Call) and called_name(n) in ("save_state", "save_model", "save")
        ]
        if saves:
            self.facts.accelerate_saves.append((left.left, left.right, self._line(node)))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._push(bool(SMOKE_WORD.search(node.name.value)))
        self.facts.functions.setdefault(node.name.value, node)
        self.function_bodies.add(id(node.body))
        self._hydra_main(node)

    def _hydra_main(self, node: cst.FunctionDef) -> None:
        """`@hydra.main(config_path="conf", config_name="config") def main(cfg)`: cfg is the
        composed config (driver_configs reads it)."""
        for decorator in node.decorators:
            call = decorator.decorator
            if not isinstance(call, cst.Call) or code_of(call.func) not in ("hydra.main", "main"):
                continue
            keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
            params = node.params.params
            if params:
                self.facts.hydra[params[0].name.value] = (
                    keywords.get("config_path"),
                    keywords.get("config_name"),
                    self._line(node),
                )

    # -- dataclass (and pydantic model) defaults, iterable datasets, guidelint.smoke imports
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        bases = {last_name(b.value) for b in node.bases}
        if "IterableDataset" in bases:
            self.facts.iterable = True
        self.function_bodies.add(id(node.body))  # a class body is a scope of its own
        decorators = {last_name(d.decorator) or called_name(d.decorator) for d in node.decorators}
        fields = self.facts.class_fields.setdefault(node.name.value, {})
        model = "dataclass" in decorators or bases & {"BaseModel", "BaseSettings"}
        for statement in node.body.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                # A field's default (dataclass, pydantic), or a plain class's constant:
                # `class Smoke: BATCH = 4` makes `Smoke.BATCH` 4.
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    if small.value is not None:
                        fields[small.target.value] = _field_default(small.value)
                elif isinstance(small, cst.Assign) and not model:
                    for target in small.targets:
                        if isinstance(target.target, cst.Name):
                            fields[target.target.value] = small.value
        if not fields:
            del self.facts.class_fields[node.name.value]

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        module = code_of(node.module) if node.module else ""
        if isinstance(node.names, cst.ImportStar):
            return
        if module.startswith("guidelint.smoke"):
            self.facts.smoke_imports.update(
                last_name(alias.asname.name if alias.asname else alias.name) for alias in node.names
            )
            return
        if module.split(".")[0] in ("lightning", "pytorch_lightning"):
            self.facts.lightning_import = True
        dots = "." * len(node.relative)
        for alias in node.names:
            local = code_of(alias.asname.name if alias.asname else alias.name)
            self.facts.imports[local] = (dots + module, code_of(alias.name), self._line(node))

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            if code_of(alias.name).split(".")[0] in ("lightning", "pytorch_lightning"):
                self.facts.lightning_import = True
            if alias.asname is not None:
                local = code_of(alias.asname.name)
                self.facts.imports[local] = (code_of(alias.name), "", self._line(node))
            elif isinstance(alias.name, cst.Name):
                self.facts.imports[alias.name.value] = (alias.name.value, "", self._line(node))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._pop()

    def _push(self, smoke: bool) -> None:
        self.smoke_depth = self.smoke_depth * 2 + (1 if smoke else 0)  # a bit stack

    def _pop(self) -> None:
        self.smoke_depth //= 2

    @property
    def on_smoke_path(self) -> bool:
        return self.smoke_depth > 0

    # -- constants and named settings, in every assignment form
    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value, node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, node.value, node)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, node.value, node)  # `(n := len(rows))`

    def visit_With(self, node: cst.With) -> None:
        self.straight_bodies.add(id(node.body))
        for item in node.items:  # `with open("smoke.yaml") as handle:`
            if item.asname is not None:
                self._bind(item.asname.name, item.item, node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        """`EPOCHS += 1` outside a loop is EPOCHS = <its value before> + 1; in a loop (or
        with nothing before it) a counter, changed at run time."""
        if not isinstance(node.target, cst.Name):
            return
        name = node.target.value
        before = self._visible(name)
        operator = AUGMENTED.get(type(node.operator))
        if self.loops or before is None or operator is None:
            if isinstance(node.operator, cst.AddAssign):
                self.facts.counters.add(name)
            return
        value = cst.BinaryOperation(left=before, operator=operator(), right=node.value)
        self.facts.stepped.add(id(value))
        self._forget(name, before, same_block_only=True)
        self._record(name, value, node)

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression, node: cst.CSTNode):
        """A name, or a tuple / list of targets (starred too) unpacked from `value`."""
        if isinstance(target, cst.Name):
            self._assign(target.value, value, node)
            return
        if not isinstance(target, cst.Tuple | cst.List):
            return
        targets = [e.value for e in target.elements]
        star = next(
            (i for i, e in enumerate(target.elements) if isinstance(e, cst.StarredElement)), None
        )
        values = _literal_items(value)
        after = len(targets) - (star or 0) - 1
        for index, part in enumerate(targets):
            if values is not None and len(values) >= len(targets) - (star is not None):
                if star is None or index < star:
                    item = values[index]
                elif index == star:
                    item = cst.List([cst.Element(v) for v in values[star : len(values) - after]])
                else:
                    item = values[len(values) - (len(targets) - index)]
            elif star is None or index < star:
                item = _indexed(value, index)  # `a, b = load()`: followed as load()[0]
            elif index == star:
                item = _indexed(value, None)
            else:
                item = _indexed(value, index - len(targets))
            if id(item) not in self.facts.constant_lines:
                self.facts.constant_lines[id(item)] = self._line(node)
            self._bind(part, item, node)

    def _assign(self, name: str, value: cst.BaseExpression, node: cst.CSTNode) -> None:
        before = self._visible(name)
        if before is not None and not self.loops:
            value = _substitute(value, name, before)  # `EPOCHS = EPOCHS * 2`
            self._forget(name, before, same_block_only=True)
        self._record(name, value, node)

    def _visible(self, name: str) -> cst.BaseExpression | None:
        """The value a name holds here, straight-line: this block's, or an enclosing one's
        up to the function's body."""
        for block in reversed(self.blocks):
            if name in block.last:
                return block.last[name]
            if block.function:
                break
        return None

    def _forget(self, name: str, value: cst.BaseExpression, same_block_only: bool = False):
        """A value replaced by a later assignment (or merged into a conditional)."""
        if same_block_only and self.blocks and self.blocks[-1].last.get(name) is not value:
            return
        values = self.facts.constants.get(name, [])
        for index, known in enumerate(values):
            if known is value:
                del values[index]
                break
        setting = self.named_settings.pop(id(value), None)
        if setting is not None and setting in self.facts.settings:
            self.facts.settings.remove(setting)
        for block in self.blocks:
            if block.last.get(name) is value:
                del block.last[name]

    def _record(self, name: str, value: cst.BaseExpression, node: cst.CSTNode) -> None:
        self._constant(name, value, node)
        if self.blocks:
            self.blocks[-1].last[name] = value

    def _constant(self, name: str, value: cst.BaseExpression, node: cst.CSTNode) -> None:
        self.facts.constants.setdefault(name, []).append(value)
        self.facts.constant_lines.setdefault(id(value), self._line(node))
        if self.on_smoke_path:
            self.facts.smoke_values.add(id(value))
        key = setting_for_name(name)
        if key:
            smoke = self.on_smoke_path or bool(SMOKE_WORD.search(name))
            setting = Setting(key, value, self._line(node), smoke, named=True)
            self.facts.settings.append(setting)
            self.named_settings[id(value)] = setting
        if isinstance(value, (cst.Dict, cst.Call)) and SMOKE_WORD.search(name):
            self._smoke_container = id(value)

    # -- keyword arguments and dict entries
    def visit_Call(self, node: cst.Call) -> None:
        name = last_name(node.func)
        if name.endswith("Trainer") or TRAINING_CONFIGS.search(name):
            self.facts.uses_trainer = True
        lightning_trainer = name == "Trainer" and (
            _lightning_keywords(node) or self.facts.lightning_import
        )
        if name == "ModelCheckpoint" or lightning_trainer:
            self.facts.lightning = True
            self._lightning_unmodelled(node)
        if name in ("initialize", "initialize_config_dir"):
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value in ("config_path", "config_dir"):
                    self.facts.hydra_initialize = arg.value
        if name.endswith(CONFIGURED_CALLS) or TRAINING_CONFIGS.search(name):
            self._spreads(name, node)
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

    def _lightning_unmodelled(self, node: cst.Call) -> None:
        """Settings under which Lightning's saves (or steps) are not the model's arithmetic:
        a monitored metric, validation-timed saves, a time interval, several devices."""
        for arg in node.args:
            if arg.keyword is None:
                continue
            key, value = arg.keyword.value, code_of(arg.value)
            saves_only = key in SAVE_ONLY_UNMODELLED and value not in ("None", "1", "1.0")
            if key in ("devices", "num_nodes") and value not in ("1", "None", '"auto"', "'auto'"):
                reason = f"{key}={value}: several processes are not modelled"
            elif key == "strategy" and "ddp" in value.lower():
                reason = f"strategy={value}: several processes are not modelled"
            elif saves_only:
                reason = f"{key}={value}: which checkpoints Lightning keeps is not arithmetic"
            else:
                continue
            self.facts.lightning_unmodelled.append((reason, self._line(arg), saves_only))

    def _spreads(self, name: str, node: cst.Call) -> None:
        written = frozenset(a.keyword.value for a in node.args if a.keyword is not None)
        smoke = self.on_smoke_path or self._smoke_container == id(node)
        for arg in node.args:
            star = arg.star == "**"
            if star or (arg.keyword is not None and arg.keyword.value == "args"):
                callee = name if star else "TrainingArguments"
                spread = Spread(callee, arg.value, self._line(node), smoke, written, star)
                self.facts.spreads.append(spread)

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
        label = last_name(node.value) or called_name(node.value)  # rows[:30], load_rows()[:30]
        if len(node.slice) != 1 or not ROWS_WORD.search(label):
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


def _lightning_keywords(node: cst.Call) -> bool:
    keywords = {a.keyword.value for a in node.args if a.keyword is not None}
    return bool(
        keywords & {"max_epochs", "limit_train_batches", "accumulate_grad_batches", "callbacks"}
    )


# ModelCheckpoint and Trainer keywords that change when (or whether) a checkpoint is kept.
SAVE_ONLY_UNMODELLED = frozenset(
    {"monitor", "train_time_interval", "val_check_interval", "check_val_every_n_epoch"}
)

AUGMENTED: dict[type[cst.BaseAugOp], type[cst.BaseBinaryOp]] = {
    cst.AddAssign: cst.Add,
    cst.SubtractAssign: cst.Subtract,
    cst.MultiplyAssign: cst.Multiply,
    cst.DivideAssign: cst.Divide,
    cst.FloorDivideAssign: cst.FloorDivide,
    cst.ModuloAssign: cst.Modulo,
    cst.PowerAssign: cst.Power,
}


def _literal_items(value: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """The items of a tuple or list written out (`4, 4`), None when any is starred."""
    if not isinstance(value, cst.Tuple | cst.List):
        return None
    if any(isinstance(e, cst.StarredElement) for e in value.elements):
        return None
    return [e.value for e in value.elements]


def _indexed(value: cst.BaseExpression, index: int | None) -> cst.BaseExpression:
    """`value[index]`, as a node the evaluator follows (a slice, for a starred target, is not)."""
    if index is None:
        part: cst.BaseSlice = cst.Slice(lower=None, upper=None)
    elif index < 0:
        part = cst.Index(cst.UnaryOperation(cst.Minus(), cst.Integer(str(-index))))
    else:
        part = cst.Index(cst.Integer(str(index)))
    return cst.Subscript(value=value, slice=[cst.SubscriptElement(part)])


class _Replace(cst.CSTTransformer):
    def __init__(self, name: str, value: cst.BaseExpression) -> None:
        self.name, self.value = name, value

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        return self.value if original_node.value == self.name else updated_node

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return isinstance(node.value, cst.Name | cst.Attribute)  # `x.name` is not x

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        return updated_node.with_changes(attr=original_node.attr)

    def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> cst.Arg:
        return updated_node.with_changes(keyword=original_node.keyword)


def _substitute(
    value: cst.BaseExpression, name: str, before: cst.BaseExpression
) -> cst.BaseExpression:
    """`X = X * 2`: the X on the right is the value X had before."""
    if not any(
        isinstance(n, cst.Name) and n.value == name for n in _walk(value) if n is not value
    ) and not (isinstance(value, cst.Name) and value.value == name):
        return value
    replaced = value.visit(_Replace(name, before))
    assert isinstance(replaced, cst.BaseExpression)
    return replaced


def _walk(node: cst.CSTNode) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []
    stack = [node]
    while stack and len(found) < 10_000:
        current = stack.pop()
        found.append(current)
        if isinstance(current, cst.Attribute):
            stack.append(current.value)  # not the attribute's own name
            continue
        stack.extend(current.children)
    return found


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
        elif floor_value + table[op] < 1:
            continue  # `count >= 0`, `if x % y != 0: raise`: no floor to meet
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
    if setting_for_name(name) is not None:
        return None, False  # `if gradient_accumulation_steps != 1: raise`: a setting, not a count
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
