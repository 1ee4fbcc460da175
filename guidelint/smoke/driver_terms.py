"""A driver's values as functions of the realized rows: a small symbolic evaluator over libcst.

`compile_term` turns an expression into a Term, a closure over an Env (the realized
row count n and the world size W), following module constants, dict entries
(`CFG["smoke"]["floor"]`), argparse and dataclass defaults, and functions whose
body is assignments and one return. Only a safe subset is understood: numbers,
strings, `len(rows)`, `+ - * / // % **`, `math.ceil/floor`, `max`, `min`, `int`,
`round`, `abs`, comparisons, `and/or/not` and conditional expressions. Anything
else raises Unfollowed with the reason: never eval, never a guess.
"""

from __future__ import annotations

import operator
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import libcst as cst

from guidelint.smoke.cst_names import called_name, last_name
from guidelint.smoke.driver_facts import SMOKE_WORD, DriverFacts, setting_for_name
from guidelint.smoke.driver_values import BINARY
from guidelint.smoke.driver_values import CALLS as VALUE_CALLS
from guidelint.smoke.unfollowed import ConfigUnfollowed, Guarded, Unfollowed

__all__ = ["Env", "Guarded", "Term", "Unfollowed", "compile_term", "const"]

MAX_DEPTH = 24
MAX_CODE = 120  # characters of source quoted in a message
# What `len(...)` of is the realized slice: rows, dataset, train_ds; not checkpoints.
ROWS_WORD = re.compile(r"row|data|example|sample|train|^ds$|slice|record|item|split", re.I)
NOT_ROWS_WORD = re.compile(r"checkpoint|ckpt|dir|path|file|glob", re.I)
# A bare name that holds the realized row count when the module does not assign it.
ROWS_NAME = re.compile(
    r"^(n|n_rows|num_rows|rows_count|row_count|n_realized|realized(_rows)?|n_examples|"
    r"num_examples|n_samples|num_samples|dataset_size|train_size|n_train)$",
    re.I,
)
WORLD_VARIABLES = ("WORLD_SIZE",)
# How a driver names the file it loads: wrappers take the path first, methods are its own.
PATH_WRAPPERS = frozenset({"open", "Path", "PurePath", "abspath", "realpath", "fspath", "str"})
PATH_METHODS = frozenset({"read_text", "read_bytes", "read", "resolve", "absolute", "open"})
GUARD_CALLS = ("require_floor", "dial")


@dataclass(frozen=True)
class Env:
    rows: int  # the realized row count n
    world: int = 1  # the world size W when the driver reads it from WORLD_SIZE


@dataclass(frozen=True)
class Term:
    at: Callable[[Env], Any]
    text: str  # the source it was compiled from
    rows: bool = False  # depends on the realized row count
    world: bool = False  # depends on the world size read from WORLD_SIZE
    cap: bool = False  # reads a row-cap constant
    computed: bool = False  # arithmetic or a call, not a bare literal
    line: int | None = None  # where the deciding literal or formula is written
    notes: tuple[str, ...] = ()  # where followed values came from (argparse defaults, ...)
    numbers: frozenset[int] = field(default_factory=frozenset)  # integer constants inside
    names: frozenset[str] = field(default_factory=frozenset)  # names, attributes, keys followed
    file: str | None = None  # where `line` is, when not the driver itself (a config, a module)

    def where(self, driver: str | None = None) -> str:
        """`line 7`, or `configs/smoke.yaml:3` for a value written in another file."""
        if self.file and self.file != driver:
            return f"{self.file}:{self.line}" if self.line else self.file
        return f"line {self.line}" if self.line else "?"

    def reads(self, key: str) -> bool:
        """Whether a name it follows holds a setting of this kind (accum, world, ...)."""
        return any(setting_for_name(name) == key for name in self.names)

    @property
    def constant(self) -> bool:
        return not (self.rows or self.world)

    def value(self) -> Any:
        """The value of a constant term."""
        return self.at(Env(rows=1))


def const(value: Any, text: str, line: int | None = None) -> Term:
    numbers = (
        frozenset({abs(value)})
        if isinstance(value, int) and not isinstance(value, bool)
        else frozenset()
    )
    return Term(lambda env: value, text, line=line, numbers=numbers)


def combine(func: Callable[..., Any], terms: list[Term], text: str, line: int | None) -> Term:
    """A term computed from others: its flags are the union of theirs."""
    parts = tuple(terms)

    def at(env: Env) -> Any:
        return func(*(t.at(env) for t in parts))

    return Term(
        at,
        text,
        rows=any(t.rows for t in parts),
        world=any(t.world for t in parts),
        cap=any(t.cap for t in parts),
        computed=True,
        line=line or next((t.line for t in parts if t.line), None),
        notes=tuple(dict.fromkeys(n for t in parts for n in t.notes)),
        numbers=frozenset().union(*(t.numbers for t in parts)),
        names=frozenset().union(*(t.names for t in parts)),
        file=next((t.file for t in parts if t.line), None) if not line else None,
    )


def named(term: Term, *names: str) -> Term:
    return replace(term, names=term.names | set(names))


def sourced(term: Term, name: str, file: str | None) -> Term:
    """A term compiled in another file (an imported module): its line is that file's."""
    if term.file is None and file:
        term = replace(term, file=file)
    if file:
        term = replace(term, notes=(*term.notes, f"`{name}` imported from {file}"))
    return term


COMPARE: dict[type[cst.BaseCompOp], Callable[[Any, Any], bool]] = {
    cst.LessThan: operator.lt,
    cst.LessThanEqual: operator.le,
    cst.GreaterThan: operator.gt,
    cst.GreaterThanEqual: operator.ge,
    cst.Equal: operator.eq,
    cst.NotEqual: operator.ne,
    cst.Is: operator.is_,
    cst.IsNot: operator.is_not,
}
# driver_values' calls, and the two a function of the rows may also use.
CALLS: dict[str, Callable[..., Any]] = {**VALUE_CALLS, "abs": abs, "bool": bool}
RUNTIME_CALLS = re.compile(r"^(load|loads|safe_load|read_text|read|open|getenv|get|input)$")


def compile_term(facts: DriverFacts, node: cst.BaseExpression) -> Term:
    """The term of an expression; raises Unfollowed (or Guarded) when it cannot be followed."""
    return _Compiler(facts).term(node, {}, 0)


class _Compiler:
    def __init__(self, facts: DriverFacts, depth: int = 0) -> None:
        self.facts = facts
        self.module_depth = depth  # how many imports away from the driver

    def code(self, node: cst.CSTNode) -> str:
        """The node's source on one line, cut at MAX_CODE characters (it goes into messages)."""
        text = " ".join(self.facts.code(node).split())
        return text if len(text) <= MAX_CODE else text[: MAX_CODE - 3] + "..."

    def line(self, node: cst.CSTNode) -> int | None:
        return self.facts.line_of(node) or self.facts.line_at(node)

    def term(self, node: cst.BaseExpression, scope: Mapping[str, Term], depth: int) -> Term:
        if depth > MAX_DEPTH:
            raise Unfollowed(f"`{self.code(node)}` nests too deeply to follow", self.line(node))
        text, line = self.code(node), self.line(node)
        if isinstance(node, cst.Integer | cst.Float | cst.SimpleString):
            return const(node.evaluated_value, text, line)
        if isinstance(node, cst.Name):
            return self.name(node, scope, depth)
        if isinstance(node, cst.UnaryOperation):
            if isinstance(node.operator, cst.Minus) and isinstance(
                node.expression, cst.Integer | cst.Float
            ):
                return const(-node.expression.evaluated_value, text, line)  # a literal, -1
            inner = self.term(node.expression, scope, depth + 1)
            unary: dict[type, Callable[[Any], Any]] = {
                cst.Minus: operator.neg,
                cst.Plus: operator.pos,
                cst.Not: operator.not_,
            }
            negate = unary.get(type(node.operator))
            if negate is None:
                raise Unfollowed(f"`{text}` is not arithmetic the check follows", line)
            return combine(negate, [inner], text, line)
        if isinstance(node, cst.BinaryOperation):
            func = BINARY.get(type(node.operator))
            if func is None:
                raise Unfollowed(f"`{text}` is not arithmetic the check follows", line)
            left = self.term(node.left, scope, depth + 1)
            right = self.term(node.right, scope, depth + 1)
            combined = combine(func, [left, right], text, line)
            if id(node) in self.facts.stepped:  # `X += 1`: a value stepped, not a formula
                return replace(combined, computed=left.computed or right.computed)
            return combined
        if isinstance(node, cst.Comparison):
            return self.comparison(node, scope, depth)
        if isinstance(node, cst.BooleanOperation):
            left = self.term(node.left, scope, depth + 1)
            right = self.term(node.right, scope, depth + 1)
            if isinstance(node.operator, cst.And):
                return combine(lambda a, b: a and b, [left, right], text, line)
            return combine(lambda a, b: a or b, [left, right], text, line)
        if isinstance(node, cst.IfExp):
            return self.if_expression(node, scope, depth)
        if isinstance(node, cst.Call):
            return self.call(node, scope, depth)
        if isinstance(node, cst.Attribute):
            return self.attribute(node, scope, depth)
        if isinstance(node, cst.Subscript):
            return self.subscript(node, scope, depth)
        raise Unfollowed(f"`{text}` is not an expression the check follows", line)

    # -- names
    def name(self, node: cst.Name, scope: Mapping[str, Term], depth: int) -> Term:
        name = node.value
        if name in scope:
            return scope[name]
        if name == "__name__" and name not in self.facts.constants:
            return const("__main__", name, self.line(node))  # a driver is run as a script
        if name in ("True", "False", "None"):
            return const({"True": True, "False": False, "None": None}[name], name, self.line(node))
        if name in self.facts.counters:
            raise Unfollowed(f"`{name}` is a counter, changed at run time", self.line(node))
        values = self.assignments(name)
        if not values:
            if ROWS_NAME.match(name):
                return Term(lambda env: env.rows, name, rows=True)
            if name in self.facts.imports:
                return self.imported(name, node, depth)
            raise Unfollowed(f"`{name}` is not assigned in this module", self.line(node))
        terms = [self.term(v, scope, depth + 1) for v in values]
        chosen = terms[0]
        if len(terms) > 1 and not self._same(terms):
            raise Unfollowed(
                f"`{name}` is assigned {len(terms)} different values", self.line(values[0])
            )
        cap = chosen.cap or setting_for_name(name) == "cap"
        return named(replace(chosen, cap=cap), name)

    def imported(self, name: str, node: cst.Name, depth: int) -> Term:
        """`from smoke_config import BATCH`: BATCH as the project's module assigns it."""
        module, attr, line = self.facts.imports[name]
        if not attr:
            raise Unfollowed(f"`{name}` is a module, not a value", self.line(node))
        other = self.module(module, line)
        term = _Compiler(other, self.module_depth + 1).term(cst.Name(attr), {}, depth + 1)
        return sourced(named(term, name), name, other.rel)

    def module(self, module: str, line: int | None) -> DriverFacts:
        """The facts of a module of the project, imported by the driver (memoized)."""
        from guidelint.smoke.driver_modules import module_facts

        return module_facts(self.facts, module, line, self.module_depth)

    def assignments(self, name: str) -> list[cst.BaseExpression]:
        """The values a name is assigned; the smoke path's alone when it has some."""
        values = self.facts.constants.get(name, [])
        smoke = [v for v in values if id(v) in self.facts.smoke_values]
        return smoke if smoke and len(smoke) < len(values) else values

    def _same(self, terms: list[Term]) -> bool:
        if not all(t.constant for t in terms):
            if any(len(t.text) >= MAX_CODE for t in terms):
                return False  # a text cut short cannot tell two formulas apart
            return len({t.text for t in terms}) == 1
        try:
            return len({repr(t.value()) for t in terms}) == 1
        except Exception:
            return False

    # -- calls
    def call(self, node: cst.Call, scope: Mapping[str, Term], depth: int) -> Term:
        text, line, name = self.code(node), self.line(node), called_name(node)
        if name in GUARD_CALLS and name in self.facts.smoke_imports:
            raise Guarded(f"`{text}` decides the dial at run time", line)
        if name == "len" and len(node.args) == 1:
            return self.length(node.args[0].value, text, line)
        world = self.world_read(node)
        if world is not None:
            return world
        default = self.environment_default(node, scope, depth)
        if default is not None:
            return default
        entry = self.mapping_get(node, scope, depth)
        if entry is not None:
            return entry
        if name in CALLS and isinstance(node.func, cst.Name | cst.Attribute):
            if any(arg.keyword or arg.star for arg in node.args) or not node.args:
                raise Unfollowed(f"`{text}` is a call the check does not follow", line)
            args = [self.term(arg.value, scope, depth + 1) for arg in node.args]
            combined = combine(CALLS[name], args, text, line)
            if name in ("int", "float") and len(args) == 1:  # a conversion, not a formula
                return replace(combined, computed=args[0].computed)
            return combined
        function = self.facts.functions.get(name) if isinstance(node.func, cst.Name) else None
        if function is not None:
            return self.inline(function, node, scope, depth)
        if RUNTIME_CALLS.match(name):
            raise Unfollowed(f"`{text}` is read at run time", line)
        raise Unfollowed(f"`{text}` calls a function the check cannot evaluate", line)

    def length(self, target: cst.BaseExpression, text: str, line: int | None) -> Term:
        base = target
        while isinstance(base, cst.Subscript | cst.Call):
            base = base.value if isinstance(base, cst.Subscript) else base.func
            if isinstance(base, cst.Attribute) and ROWS_WORD.search(base.attr.value):
                break
        label = last_name(base) if isinstance(base, cst.Name | cst.Attribute) else ""
        if label and ROWS_WORD.search(label) and not NOT_ROWS_WORD.search(label):
            return Term(lambda env: env.rows, text, rows=True, line=line)
        raise Unfollowed(f"`{text}` is not the length of the training rows", line)

    def world_read(self, node: cst.Call) -> Term | None:
        """`os.environ.get("WORLD_SIZE", 1)`, `os.getenv("WORLD_SIZE")`: the world size."""
        if called_name(node) not in ("get", "getenv") or not node.args:
            return None
        first = node.args[0].value
        if not (isinstance(first, cst.SimpleString) and first.evaluated_value in WORLD_VARIABLES):
            return None
        return self.world_term(self.code(node), self.line(node))

    def environment_default(
        self, node: cst.Call, scope: Mapping[str, Term], depth: int
    ) -> Term | None:
        """`os.environ.get("SMOKE_BATCH", "4")`, `os.getenv("X", 4)`: the default, as a launch
        without the variable sees it (like an argparse default)."""
        name = called_name(node)
        owner = node.func.value if isinstance(node.func, cst.Attribute) else None
        environ = owner is not None and last_name(owner) == "environ"
        if not (name == "getenv" or (name == "get" and environ)) or len(node.args) != 2:
            return None
        first = node.args[0].value
        if not isinstance(first, cst.SimpleString) or node.args[0].keyword is not None:
            return None
        variable = first.evaluated_value
        if not isinstance(variable, str):
            return None
        term = self.term(node.args[1].value, scope, depth + 1)
        note = f"the default of ${variable} (line {self.line(node)})"
        return replace(term, notes=(*term.notes, note))

    def mapping_get(self, node: cst.Call, scope: Mapping[str, Term], depth: int) -> Term | None:
        """`cfg.get("epochs", 1)` on a dict or a config file: its entry, else the default."""
        if called_name(node) != "get" or not isinstance(node.func, cst.Attribute):
            return None
        if not 1 <= len(node.args) <= 2 or any(a.keyword or a.star for a in node.args):
            return None
        key_node, owner = node.args[0].value, node.func.value
        if not isinstance(key_node, cst.SimpleString) or not self.may_be_config(owner):
            return None
        key = key_node.evaluated_value
        text, line = self.code(node), self.line(node)
        try:
            return self.config_entry(owner, key, text, line, depth) or None
        except ConfigUnfollowed:
            raise
        except Unfollowed as why:
            if len(node.args) == 2 and "has no entry" in why.reason:
                return self.term(node.args[1].value, scope, depth + 1)  # the default
            raise

    def world_term(self, text: str, line: int | None) -> Term:
        return Term(lambda env: env.world, text, world=True, line=line)

    def inline(
        self, function: cst.FunctionDef, node: cst.Call, scope: Mapping[str, Term], depth: int
    ) -> Term:
        """A function of assignments and one return, with its arguments bound."""
        text, line = self.code(node), self.line(node)
        refusal = Unfollowed(
            f"`{text}` calls `{function.name.value}`, a function the check cannot evaluate "
            "(only assignments and one return are followed)",
            line,
        )
        params = function.params
        if params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or params.star_kwarg:
            raise refusal
        names = [p.name.value for p in (*params.posonly_params, *params.params)]
        names += [p.name.value for p in params.kwonly_params]
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        local: dict[str, Term] = {}
        positional = [a for a in node.args if a.keyword is None]
        if any(a.star for a in node.args) or len(positional) > len(names):
            raise refusal
        for param_name, arg in zip(names, positional, strict=False):
            local[param_name] = self.term(arg.value, scope, depth + 1)
        for arg in node.args:
            if arg.keyword is not None:
                local[arg.keyword.value] = self.term(arg.value, scope, depth + 1)
        for param in every:
            if param.name.value not in local:
                if param.default is None:
                    raise refusal
                local[param.name.value] = self.term(param.default, {}, depth + 1)
        statements = function.body.body if isinstance(function.body, cst.IndentedBlock) else []
        for statement in statements:
            if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
                raise refusal
            small = statement.body[0]
            if isinstance(small, cst.Return) and small.value is not None:
                return replace(self.term(small.value, local, depth + 1), text=text, computed=True)
            if (
                isinstance(small, cst.Assign)
                and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name)
            ):
                local[small.targets[0].target.value] = self.term(small.value, local, depth + 1)
                continue
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
                continue  # a docstring
            raise refusal
        raise refusal

    # -- attributes: argparse and dataclass defaults, dataset sizes
    def attribute(self, node: cst.Attribute, scope: Mapping[str, Term], depth: int) -> Term:
        text, line, attr = self.code(node), self.line(node), node.attr.value
        if attr == "num_rows":
            return Term(lambda env: env.rows, text, rows=True, line=line)
        return named(self._attribute(node, scope, depth), attr)

    def _attribute(self, node: cst.Attribute, scope: Mapping[str, Term], depth: int) -> Term:
        text, line, attr = self.code(node), self.line(node), node.attr.value
        owner = node.value
        built = self.built_by(owner.value) if isinstance(owner, cst.Name) else None
        guard = built if built is not None else owner
        if called_name(guard) in GUARD_CALLS and called_name(guard) in self.facts.smoke_imports:
            raise Guarded(f"`{text}` is decided at run time by guidelint.smoke", line)
        if isinstance(owner, cst.Name) and owner.value in self.facts.imports:
            module, imported, at = self.facts.imports[owner.value]
            if not imported and owner.value not in self.facts.constants:  # `import cfg; cfg.X`
                other = self.module(module, at)
                term = _Compiler(other, self.module_depth + 1).term(cst.Name(attr), {}, depth + 1)
                return sourced(term, f"{owner.value}.{attr}", other.rel)
        if isinstance(owner, cst.Name):
            if built is not None:
                for arg in built.args:
                    if arg.keyword is not None and arg.keyword.value == attr:
                        return self.term(arg.value, scope, depth + 1)
                cls = called_name(built)
                if cls in self.facts.class_fields:
                    return self.field_default(cls, attr, text, line, depth)
                if cls == "parse_args" and attr in self.facts.arg_defaults:
                    return self.arg_default(attr, depth)
        configured = self.config_entry(owner, attr, text, line, depth)
        if configured is not None:
            return configured
        if attr in self.facts.arg_defaults:
            return self.arg_default(attr, depth)
        owners = [c for c, fields in self.facts.class_fields.items() if attr in fields]
        if len(owners) == 1:
            return self.field_default(owners[0], attr, text, line, depth)
        raise Unfollowed(f"`{text}` is decided at run time", line)

    def config_entry(
        self, owner: cst.BaseExpression, key: object, text: str, line: int | None, depth: int
    ) -> Term | None:
        """`cfg.trainer.max_epochs`, `cfg["epochs"]`, `training_args.save_steps`: a value of a
        config file the driver loads, with its file and line; None when `owner` is no config."""
        from guidelint.smoke.driver_configs import ConfigTree, ConfigValue

        if not self.may_be_config(owner):
            return None
        try:
            tree = self.container(owner, depth + 1)
        except ConfigUnfollowed:
            raise  # a config file the driver loads, not read: say why
        except Unfollowed:
            return None  # not a config: argparse and dataclass defaults are tried next
        if isinstance(tree, cst.Dict):  # `OmegaConf.create({...})`, then `cfg.trainer.max_epochs`
            for element in tree.elements:
                if (
                    isinstance(element, cst.DictElement)
                    and isinstance(element.key, cst.SimpleString)
                    and element.key.evaluated_value == key
                ):
                    return named(self.term(element.value, {}, depth + 1), str(key))
            raise Unfollowed(f"`{text}`: the dict has no entry {key!r}", line)
        if not isinstance(tree, ConfigTree):
            return None
        found = tree.get(key)
        if found is None:
            raise Unfollowed(f"`{text}`: {tree.file} has no entry {key!r}", line)
        if isinstance(found, ConfigTree):
            raise Unfollowed(f"`{text}` is a table of {tree.file}, not a value", line)
        assert isinstance(found, ConfigValue)
        value = found.value
        where = f"{found.file}:{found.line}" if found.line else found.file
        term = const(value, f"{text}={value!r}", found.line)
        return replace(
            term,
            file=found.file,
            notes=(f"{key} = {value!r} at {where}",),
            names=frozenset({str(key)}),
        )

    def may_be_config(self, node: cst.BaseExpression) -> bool:
        """Whether a chain of names, attributes and subscripts starts at a name the driver
        binds (a config is always bound to a name, or loaded right there)."""
        while isinstance(node, cst.Attribute | cst.Subscript):
            node = node.value
        if isinstance(node, cst.Call):
            return True
        return isinstance(node, cst.Name) and (
            node.value in self.facts.constants or node.value in self.facts.hydra
        )

    def built_by(self, name: str) -> cst.Call | None:
        values = self.facts.constants.get(name, [])
        if len(values) == 1 and isinstance(values[0], cst.Call):
            return values[0]
        return None

    def arg_default(self, dest: str, depth: int) -> Term:
        default, flag, line = self.facts.arg_defaults[dest]
        note = f"the argparse default of {flag} (line {line})"
        if default is None:
            return replace(const(None, f"{flag} default None", line), notes=(note,))
        term = self.term(default, {}, depth + 1)
        return replace(term, notes=(*term.notes, note), line=line)

    def field_default(self, cls: str, attr: str, text: str, line: int | None, depth: int) -> Term:
        default = self.facts.class_fields[cls].get(attr)
        if default is None:
            raise Unfollowed(f"`{text}` has no default in {cls}", line)
        term = self.term(default, {}, depth + 1)
        note = f"the default of {cls}.{attr} (line {self.line(default) or line})"
        return replace(term, notes=(*term.notes, note))

    # -- subscripts: dict configs, config files, tuples and the environment
    def subscript(self, node: cst.Subscript, scope: Mapping[str, Term], depth: int) -> Term:
        from guidelint.smoke.driver_configs import ConfigTree

        text, line = self.code(node), self.line(node)
        key = self.key(node)
        if key in WORLD_VARIABLES and last_name(node.value) == "environ":
            return self.world_term(text, line)
        if key is None:
            raise Unfollowed(f"`{text}` is not a constant lookup", line)
        container = self.container(node.value, depth)
        if isinstance(container, ConfigTree):
            entry = self.config_entry(node.value, key, text, line, depth)
            assert entry is not None
            return entry
        if isinstance(container, cst.Tuple | cst.List):
            items = [e.value for e in container.elements]
            if any(isinstance(e, cst.StarredElement) for e in container.elements):
                raise Unfollowed(f"`{text}`: the sequence is unpacked at run time", line)
            if isinstance(key, int) and -len(items) <= key < len(items):
                return self.term(items[key], scope, depth + 1)
            raise Unfollowed(f"`{text}`: the sequence has no item {key!r}", line)
        for element in container.elements:
            if isinstance(element, cst.DictElement) and isinstance(
                element.key, cst.SimpleString | cst.Integer
            ):
                if element.key.evaluated_value == key:
                    return named(self.term(element.value, scope, depth + 1), str(key))
        raise Unfollowed(f"`{text}`: the dict has no entry {key!r}", line)

    def key(self, node: cst.Subscript) -> object:
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return None
        value = node.slice[0].slice.value
        if isinstance(value, cst.SimpleString | cst.Integer):
            return value.evaluated_value
        if (
            isinstance(value, cst.UnaryOperation)
            and isinstance(value.operator, cst.Minus)
            and isinstance(value.expression, cst.Integer)
        ):
            return -value.expression.evaluated_value
        return None

    def container(self, node: cst.BaseExpression, depth: int) -> Any:
        """The dict, tuple or list (cst) or config file (ConfigTree) an expression holds."""
        from guidelint.smoke.driver_configs import ConfigError

        text, line = self.code(node), self.line(node)
        if depth > MAX_DEPTH:
            raise Unfollowed(f"`{text}` nests too deeply to follow", line)
        if isinstance(node, cst.Dict | cst.Tuple | cst.List):
            return node
        if last_name(node) == "environ":
            raise Unfollowed(f"`{text}` (the environment) is read at run time", line)
        try:
            if isinstance(node, cst.Name):
                return self.named_container(node, depth)
            if isinstance(node, cst.Subscript | cst.Attribute):
                return self.entry_container(node, depth)
            if isinstance(node, cst.Call):
                return self.call_container(node, depth)
        except ConfigError as err:
            raise ConfigUnfollowed(str(err), line) from None
        raise Unfollowed(f"`{text}` is not a dict written in this module", line)

    def named_container(self, node: cst.Name, depth: int) -> Any:
        from guidelint.smoke.driver_configs import hydra_tree

        line = self.line(node)
        values = self.assignments(node.value)
        if len(values) == 1:
            return self.container(values[0], depth + 1)
        if not values and node.value in self.facts.hydra:
            config_path, config_name, _ = self.facts.hydra[node.value]
            return hydra_tree(
                self.facts.origin,
                self.text_value(config_path),
                self.text_value(config_name) or "config",
                [],
            )
        if not values:
            raise Unfollowed(f"`{node.value}` is not assigned in this module", line)
        raise Unfollowed(f"`{node.value}` is assigned {len(values)} different values", line)

    def entry_container(self, node: cst.Subscript | cst.Attribute, depth: int) -> Any:
        from guidelint.smoke.driver_configs import ConfigTree

        text, line = self.code(node), self.line(node)
        key = self.key(node) if isinstance(node, cst.Subscript) else node.attr.value
        outer = self.container(node.value, depth + 1)
        if isinstance(outer, ConfigTree) and outer.defaults and isinstance(key, int):
            return outer  # HfArgumentParser's tuple: each dataclass reads the same file
        if isinstance(outer, ConfigTree):
            found = outer.get(key)
            if isinstance(found, ConfigTree):
                return found
            raise Unfollowed(f"`{text}`: {outer.file} has no table {key!r}", line)
        if isinstance(outer, cst.Tuple | cst.List) and isinstance(key, int):
            items = [e.value for e in outer.elements]
            if -len(items) <= key < len(items):
                return self.container(items[key], depth + 1)
        if isinstance(outer, cst.Dict):
            for element in outer.elements:
                if (
                    isinstance(element, cst.DictElement)
                    and isinstance(element.key, cst.SimpleString | cst.Integer)
                    and element.key.evaluated_value == key
                ):
                    return self.container(element.value, depth + 1)
        raise Unfollowed(f"`{text}` is not a dict written in this module", line)

    def call_container(self, node: cst.Call, depth: int) -> Any:
        """A config file a call loads, or the dict a simple function returns."""
        from guidelint.smoke.driver_configs import (
            FILE_PARSERS,
            LOADERS,
            TRAINING_DEFAULTS,
            dotlist_tree,
            hydra_tree,
            load_tree,
            merged_tree,
        )

        text, line, name = self.code(node), self.line(node), called_name(node)
        if name in LOADERS and node.args:  # yaml.safe_load(open(p)), json.loads(p.read_text())
            return load_tree(self.facts.origin, self.path_of(node.args[0].value, depth))
        if name in FILE_PARSERS and node.args:  # HfArgumentParser(...).parse_json_file(p)
            tree = load_tree(self.facts.origin, self.path_of(node.args[0].value, depth))
            tree.defaults = dict(TRAINING_DEFAULTS)
            return tree
        if name == "compose":  # hydra.compose(config_name=..., overrides=[...])
            keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
            listed = keywords.get("overrides")
            overrides = self.overrides(listed, line) if listed is not None else []
            config_path = self.text_value(self.facts_initialize())
            return hydra_tree(
                self.facts.origin,
                config_path,
                self.text_value(keywords.get("config_name")) or "config",
                overrides,
            )
        if name == "create" and len(node.args) == 1:  # OmegaConf.create({...})
            return self.container(node.args[0].value, depth + 1)
        if name == "from_dotlist" and len(node.args) == 1:  # OmegaConf.from_dotlist([...])
            return dotlist_tree(self.facts.rel or "", self.overrides(node.args[0].value, line))
        if name in ("merge", "unsafe_merge") and node.args:  # OmegaConf.merge(base, {...}, ...)
            return merged_tree([self.as_tree(a.value, depth + 1) for a in node.args])
        if name == "dict" and node.args and all(a.keyword is not None for a in node.args):
            return cst.Dict(  # `dict(batch=4)` is {"batch": 4}
                [
                    cst.DictElement(cst.SimpleString(repr(a.keyword.value)), a.value)
                    for a in node.args
                    if a.keyword is not None
                ]
            )
        function = self.facts.functions.get(name)
        if function is not None:
            returned = _single_return(function)
            if returned is not None:
                return self.container(returned, depth + 1)
        raise Unfollowed(f"`{text}` is read at run time", line)

    def overrides(
        self, listed: cst.BaseExpression, line: int | None
    ) -> list[tuple[str, int | None]]:
        """`["trainer.max_epochs=2", ...]`: literal `key=value` strings, each with its line."""
        if not isinstance(listed, cst.List | cst.Tuple):
            raise Unfollowed(f"`{self.code(listed)}`: overrides that are not a literal list", line)
        found = []
        for element in listed.elements:
            value = self.text_value(element.value)
            if value is None:
                raise Unfollowed(f"the override `{self.code(element.value)}` is not literal", line)
            found.append((value, self.line(element.value) or line))
        return found

    def as_tree(self, node: cst.BaseExpression, depth: int) -> Any:
        """A config file, or a dict written in the driver as one (its values constants)."""
        from guidelint.smoke.driver_configs import ConfigTree

        container = self.container(node, depth)
        if isinstance(container, ConfigTree):
            return container
        if not isinstance(container, cst.Dict):
            raise Unfollowed(f"`{self.code(node)}` is not a mapping to merge", self.line(node))
        rel = self.facts.rel or ""
        tree = ConfigTree({}, rel)
        for element in container.elements:
            if not (
                isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString)
            ):
                raise Unfollowed(
                    f"`{self.code(node)}` has a key that is not literal", self.line(node)
                )
            key = element.key.evaluated_value
            if isinstance(element.value, cst.Dict):
                inner = self.as_tree(element.value, depth + 1)
                tree.data[key] = inner.data
                tree.lines.update({(key, *path): at for path, at in inner.lines.items()})
            else:
                term = self.term(element.value, {}, depth + 1)
                if not term.constant:
                    raise Unfollowed(f"`{self.code(element.value)}` is not a constant", term.line)
                tree.data[key] = term.value()
                tree.lines[(key,)] = (rel, self.line(element.value) or 0)
        return tree

    def facts_initialize(self) -> cst.BaseExpression | None:
        """The config_path of `hydra.initialize(config_path=...)` in the driver, if any."""
        for values in self.facts.constants.values():
            for value in values:
                if isinstance(value, cst.Call) and called_name(value) == "initialize":
                    for arg in value.args:
                        if arg.keyword is not None and arg.keyword.value == "config_path":
                            return arg.value
        return self.facts.hydra_initialize

    def text_value(self, node: cst.BaseExpression | None) -> str | None:
        if isinstance(node, cst.SimpleString):
            value = node.evaluated_value
            return value if isinstance(value, str) else None
        if isinstance(node, cst.Name):
            values = self.assignments(node.value)
            if len(values) == 1:
                return self.text_value(values[0])
        return None

    def path_of(self, node: cst.BaseExpression, depth: int) -> Any:
        """A file a driver opens, as written: `open("smoke.yaml")`, `Path(__file__).parent /
        "smoke.yaml"`, `os.path.join(HERE, "smoke.json")`, `p.read_text()`."""
        from guidelint.smoke.driver_configs import PathValue

        text, line = self.code(node), self.line(node)
        if depth > MAX_DEPTH:
            raise Unfollowed(f"`{text}` nests too deeply to follow", line)
        literal = self.text_value(node)
        if literal is not None:
            return PathValue(literal, anchored=False)
        if isinstance(node, cst.Name):
            if node.value == "__file__" and self.facts.rel is not None:
                return PathValue(self.facts.rel, anchored=True)
            values = self.assignments(node.value)
            if len(values) == 1:
                return self.path_of(values[0], depth + 1)
        if isinstance(node, cst.Call):
            name = called_name(node)
            method = isinstance(node.func, cst.Attribute) and name in PATH_METHODS
            if method:  # `p.read_text()`, `Path(p).open("rb")`: the path is the receiver
                assert isinstance(node.func, cst.Attribute)
                return self.path_of(node.func.value, depth + 1)
            if name in PATH_WRAPPERS and node.args:  # open(p), Path(p), os.path.abspath(p)
                return self.path_of(node.args[0].value, depth + 1)
            if name == "dirname" and node.args:
                return self.parent_of(self.path_of(node.args[0].value, depth + 1))
            if name == "join" and node.args:
                parts = [self.path_of(a.value, depth + 1) for a in node.args]
                return self.joined(parts)
        if isinstance(node, cst.Attribute) and node.attr.value == "parent":
            return self.parent_of(self.path_of(node.value, depth + 1))
        if isinstance(node, cst.Attribute):  # `args.config` with an argparse default
            try:
                term = self.term(node, {}, depth + 1)
            except Unfollowed:
                term = None
            if term is not None and term.constant and isinstance(term.value(), str):
                return PathValue(term.value(), anchored=False)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Divide):
            return self.joined(
                [self.path_of(node.left, depth + 1), self.path_of(node.right, depth + 1)]
            )
        raise Unfollowed(f"`{text}` is a path decided at run time", line)

    def parent_of(self, path: Any) -> Any:
        from guidelint.smoke.driver_configs import PathValue

        return PathValue(posixpath.normpath(posixpath.join(path.text, "..")), path.anchored)

    def joined(self, parts: list[Any]) -> Any:
        from guidelint.smoke.driver_configs import PathValue

        text = posixpath.join(*(p.text for p in parts))
        anchored = parts[0].anchored or any(p.anchored for p in parts[1:])
        return PathValue(text, anchored)

    # -- conditions
    def comparison(self, node: cst.Comparison, scope: Mapping[str, Term], depth: int) -> Term:
        text, line = self.code(node), self.line(node)
        terms = [self.term(node.left, scope, depth + 1)]
        funcs = []
        for target in node.comparisons:
            func = COMPARE.get(type(target.operator))
            if func is None:
                raise Unfollowed(f"`{text}` is a test the check does not follow", line)
            funcs.append(func)
            terms.append(self.term(target.comparator, scope, depth + 1))

        def chained(*values: Any) -> bool:
            return all(f(values[i], values[i + 1]) for i, f in enumerate(funcs))

        return combine(chained, terms, text, line)

    def if_expression(self, node: cst.IfExp, scope: Mapping[str, Term], depth: int) -> Term:
        """`1 if args.smoke else 3` is 1 on the smoke path; other tests are followed."""
        test_text = self.code(node.test)
        if SMOKE_WORD.search(test_text):
            negated = test_text.startswith("not ")
            return self.term(node.orelse if negated else node.body, scope, depth + 1)
        test = self.term(node.test, scope, depth + 1)
        if test.constant:  # `if FAST:` on a module constant: the branch it takes, as written
            chosen = node.body if test.value() else node.orelse
            return self.term(chosen, scope, depth + 1)
        body = self.term(node.body, scope, depth + 1)
        orelse = self.term(node.orelse, scope, depth + 1)
        return combine(lambda t, a, b: a if t else b, [test, body, orelse], self.code(node), None)


def _single_return(function: cst.FunctionDef) -> cst.BaseExpression | None:
    statements = function.body.body if isinstance(function.body, cst.IndentedBlock) else []
    returns = [
        s.body[0].value
        for s in statements
        if isinstance(s, cst.SimpleStatementLine) and isinstance(s.body[0], cst.Return)
    ]
    return returns[0] if len(returns) == 1 else None


def values_used(rel: str | None, labelled: Iterable[tuple[str, Term | None]], env: Env) -> str:
    """`epochs=1 (line 9), batch=4 (configs/smoke.yaml:3), ...`: each value a
    counterexample was computed from (at `env`), where it is written (`rel`: the driver)."""
    parts: list[str] = []
    for label, term in labelled:
        if term is None:
            continue
        try:
            value = term.at(env)
        except Exception:  # a value that does not evaluate here is not one it used
            continue
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        where = term.where(rel) if term.line or term.file else None
        parts.append(f"{label}={value!r}" + (f" ({where})" if where else ""))
    return ", ".join(parts)
