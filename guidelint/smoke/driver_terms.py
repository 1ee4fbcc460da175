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
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import libcst as cst

from guidelint.smoke.cst_names import called_name, last_name
from guidelint.smoke.driver_facts import SMOKE_WORD, DriverFacts, setting_for_name
from guidelint.smoke.driver_values import BINARY
from guidelint.smoke.driver_values import CALLS as VALUE_CALLS

MAX_DEPTH = 24
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
GUARD_CALLS = ("require_floor", "dial")


@dataclass(frozen=True)
class Env:
    rows: int  # the realized row count n
    world: int = 1  # the world size W when the driver reads it from WORLD_SIZE


class Unfollowed(Exception):
    """A value the check cannot follow statically; the message says which and why."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.line = reason, line


class Guarded(Unfollowed):
    """A value that guidelint.smoke.require_floor (or dial) decides at run time."""


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
    )


def named(term: Term, *names: str) -> Term:
    return replace(term, names=term.names | set(names))


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
    def __init__(self, facts: DriverFacts) -> None:
        self.facts = facts

    def code(self, node: cst.CSTNode) -> str:
        return self.facts.code(node).strip()

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
            return combine(func, [left, right], text, line)
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
        if name in ("True", "False", "None"):
            return const({"True": True, "False": False, "None": None}[name], name)
        if name in self.facts.counters:
            raise Unfollowed(f"`{name}` is a counter, changed at run time", self.line(node))
        values = self.assignments(name)
        if not values:
            if ROWS_NAME.match(name):
                return Term(lambda env: env.rows, name, rows=True)
            raise Unfollowed(f"`{name}` is not assigned in this module", self.line(node))
        terms = [self.term(v, scope, depth + 1) for v in values]
        chosen = terms[0]
        if len(terms) > 1 and not self._same(terms):
            raise Unfollowed(
                f"`{name}` is assigned {len(terms)} different values", self.line(values[0])
            )
        cap = chosen.cap or setting_for_name(name) == "cap"
        return named(replace(chosen, cap=cap), name)

    def assignments(self, name: str) -> list[cst.BaseExpression]:
        """The values a name is assigned; the smoke path's alone when it has some."""
        values = self.facts.constants.get(name, [])
        smoke = [v for v in values if id(v) in self.facts.smoke_values]
        return smoke if smoke and len(smoke) < len(values) else values

    def _same(self, terms: list[Term]) -> bool:
        if not all(t.constant for t in terms):
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
        if name in CALLS and isinstance(node.func, cst.Name | cst.Attribute):
            if any(arg.keyword or arg.star for arg in node.args) or not node.args:
                raise Unfollowed(f"`{text}` is a call the check does not follow", line)
            args = [self.term(arg.value, scope, depth + 1) for arg in node.args]
            return combine(CALLS[name], args, text, line)
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
        if attr in self.facts.arg_defaults:
            return self.arg_default(attr, depth)
        owners = [c for c, fields in self.facts.class_fields.items() if attr in fields]
        if len(owners) == 1:
            return self.field_default(owners[0], attr, text, line, depth)
        raise Unfollowed(f"`{text}` is decided at run time", line)

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

    # -- subscripts: dict configs and the environment
    def subscript(self, node: cst.Subscript, scope: Mapping[str, Term], depth: int) -> Term:
        text, line = self.code(node), self.line(node)
        key = self.key(node)
        if key in WORLD_VARIABLES and last_name(node.value) == "environ":
            return self.world_term(text, line)
        if key is None:
            raise Unfollowed(f"`{text}` is not a constant lookup", line)
        container = self.container(node.value, depth)
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
        return None

    def container(self, node: cst.BaseExpression, depth: int) -> cst.Dict:
        text, line = self.code(node), self.line(node)
        if depth > MAX_DEPTH:
            raise Unfollowed(f"`{text}` nests too deeply to follow", line)
        if isinstance(node, cst.Dict):
            return node
        if isinstance(node, cst.Name):
            values = self.assignments(node.value)
            if len(values) == 1:
                return self.container(values[0], depth + 1)
            if not values:
                raise Unfollowed(f"`{node.value}` is not assigned in this module", line)
            raise Unfollowed(f"`{node.value}` is assigned {len(values)} different values", line)
        if isinstance(node, cst.Subscript):
            key = self.key(node)
            for element in self.container(node.value, depth + 1).elements:
                if (
                    isinstance(element, cst.DictElement)
                    and isinstance(element.key, cst.SimpleString | cst.Integer)
                    and element.key.evaluated_value == key
                ):
                    return self.container(element.value, depth + 1)
            raise Unfollowed(f"`{text}` is not a dict written in this module", line)
        if isinstance(node, cst.Call):
            name = called_name(node)
            function = self.facts.functions.get(name)
            if function is not None:
                returned = _single_return(function)
                if returned is not None:
                    return self.container(returned, depth + 1)
            raise Unfollowed(f"`{text}` is read at run time", line)
        raise Unfollowed(f"`{text}` is not a dict written in this module", line)

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
