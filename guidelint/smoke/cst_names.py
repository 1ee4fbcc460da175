"""How libcst nodes read as names and code: what a call calls, a value's last name.

Shared by the driver reader and the expression evaluator (imported by callers lazily:
it imports libcst).
"""

from __future__ import annotations

import libcst as cst


def last_name(node: cst.BaseExpression) -> str:
    """The last name of a callee or value: `math.ceil` -> ceil, `self.rows` -> rows."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return ""


def called_name(node: cst.BaseExpression) -> str:
    """The last name of what a call calls (`math.ceil(x)` -> ceil); "" for anything else."""
    return last_name(node.func) if isinstance(node, cst.Call) else ""


def code_of(node: cst.CSTNode) -> str:
    """A node's source text, outside any module (default formatting)."""
    return cst.Module([]).code_for_node(node)
