"""Evaluating driver expressions to constants where the module alone decides them."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import libcst as cst

from guidelint.smoke.cst_names import last_name
from guidelint.smoke.driver_facts import SMOKE_WORD, DriverFacts, setting_for_name


def _bounded_pow(base: Any, exponent: Any) -> Any:
    """`**`, refused beyond any dial: a hostile `10 ** 10 ** 10` must not hang a check."""
    if abs(exponent) > 64 or (abs(base) > 1 and abs(exponent) * math.log2(abs(base)) > 60):
        raise OverflowError("a power beyond any dial")
    return operator.pow(base, exponent)


BINARY: dict[type[cst.BaseBinaryOp], Callable[[Any, Any], Any]] = {
    cst.Add: operator.add,
    cst.Subtract: operator.sub,
    cst.Multiply: operator.mul,
    cst.Divide: operator.truediv,
    cst.FloorDivide: operator.floordiv,
    cst.Modulo: operator.mod,
    cst.Power: _bounded_pow,
}
CALLS: dict[str, Callable[..., Any]] = {
    "ceil": math.ceil,
    "floor": math.floor,
    "max": max,
    "min": min,
    "int": int,
    "round": round,
    "float": float,
}
MAX_DEPTH = 8


@dataclass(frozen=True)
class Value:
    value: object = None  # int, float, str, bool, or None when the module does not decide it
    computed: bool = False  # arithmetic or a call, not a bare literal
    literal_line: int | None = None  # where the deciding literal (or formula) is written
    uses_cap: bool = False  # the formula reads a row-cap constant


UNKNOWN = Value()


def evaluate(facts: DriverFacts, node: cst.BaseExpression, depth: int = 0) -> Value:
    if depth > MAX_DEPTH:
        return UNKNOWN
    line = facts.line_of(node)
    if isinstance(node, cst.Integer | cst.Float):
        return Value(node.evaluated_value, False, line)
    if isinstance(node, cst.SimpleString):
        return Value(node.evaluated_value, False, line)
    if isinstance(node, cst.Name):
        return _name(facts, node.value, depth)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = evaluate(facts, node.expression, depth + 1)
        return _same(inner, -inner.value) if isinstance(inner.value, int | float) else UNKNOWN
    if isinstance(node, cst.BinaryOperation):
        return _binary(facts, node, depth, line)
    if isinstance(node, cst.Call):
        return _call(facts, node, depth, line)
    if isinstance(node, cst.IfExp):
        return _smoke_branch(facts, node, depth)
    return UNKNOWN


def _same(value: Value, new: object) -> Value:
    return Value(new, value.computed, value.literal_line, value.uses_cap)


def _name(facts: DriverFacts, name: str, depth: int) -> Value:
    if name in ("True", "False"):
        return Value(name == "True")
    values = facts.constants.get(name, [])
    if name in facts.counters:
        return UNKNOWN  # `steps += 1`: a counter, not a constant
    results = {evaluate(facts, v, depth + 1) for v in values}
    decided = {r.value for r in results}
    if len(values) == 0 or len(decided) != 1 or None in decided:
        return UNKNOWN  # unassigned here, assigned at run time, or ambiguous
    result = next(iter(results))
    return Value(
        result.value,
        result.computed,
        result.literal_line,
        result.uses_cap or setting_for_name(name) == "cap",
    )


def _binary(facts: DriverFacts, node: cst.BinaryOperation, depth: int, line: int | None) -> Value:
    func = BINARY.get(type(node.operator))
    left, right = evaluate(facts, node.left, depth + 1), evaluate(facts, node.right, depth + 1)
    if func is None or not _numbers(left, right):
        return UNKNOWN
    try:
        value = func(left.value, right.value)
    except (ArithmeticError, ValueError):
        return UNKNOWN
    return Value(value, True, line or left.literal_line, left.uses_cap or right.uses_cap)


def _call(facts: DriverFacts, node: cst.Call, depth: int, line: int | None) -> Value:
    func = CALLS.get(last_name(node.func))
    if func is None or any(arg.keyword or arg.star for arg in node.args):
        return UNKNOWN
    args = [evaluate(facts, arg.value, depth + 1) for arg in node.args]
    if not args or not _numbers(*args):
        return UNKNOWN
    try:
        value = func(*(a.value for a in args))
    except (ArithmeticError, ValueError, TypeError):
        return UNKNOWN
    return Value(value, True, line or args[0].literal_line, any(a.uses_cap for a in args))


def _smoke_branch(facts: DriverFacts, node: cst.IfExp, depth: int) -> Value:
    """`1 if args.smoke else 3` is 1 on the smoke path; other conditions decide at run time."""
    test = facts.code(node.test)
    if not SMOKE_WORD.search(test):
        return UNKNOWN
    negated = test.lstrip().startswith("not ")
    return evaluate(facts, node.orelse if negated else node.body, depth + 1)


def _numbers(*values: Value) -> bool:
    return all(isinstance(v.value, int | float) and not isinstance(v.value, bool) for v in values)
