"""Which inline code spans are tool references, and how strongly the text says so.

The heuristic (also in rules/GL101.md .. GL105.md), chosen for precision:

- `mcp__<server>__<tool>` (optionally with a call's parentheses) is always a
  reference; `mcp__<server>` names the whole server.
- `name(...)`: a call form. A reference when `name` is a known tool, or when the
  context marks a tool, or when `name` is a near miss of a known MCP tool.
- A bare identifier (letters, digits, `_`, `-`; no dots, slashes, spaces, `$`,
  `<...>`): resolves silently when it is a known tool; otherwise it counts only in
  a tool context (see `context_strength`), or as a near miss.
- `mcp__<server>__...` with a literal `...` is a placeholder, and `...` among a
  call's arguments marks it as incomplete (no missing-argument warning).
- Never references: anything else (paths, commands with spaces, JSON, dotted
  Python, `$VARS`, placeholders), ALL_CAPS names (environment variables), argument
  names of any known tool's inputSchema, and prompt and resource names and URIs.
"""

from __future__ import annotations

import ast
import keyword
import re
import warnings
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from guidelint.markdown import CodeSpan

QUALIFIED = re.compile(r"^mcp__(?P<rest>[A-Za-z0-9_.\-*]+?)(?:\((?P<args>.*)\))?$", re.DOTALL)
CALL = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_\-]*)\((?P<args>.*)\)$", re.DOTALL)
BARE = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")
# `files.read`, `browser.navigate`: a dotted name, a tool only where a known tool is
# dotted too (GL104), never a Python attribute in prose.
DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*(\.[A-Za-z_][A-Za-z0-9_\-]*)+$")
ENV_VAR = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$")

STRONG_BEFORE = re.compile(
    r"\b(call|calls|calling|called|invoke|invokes|invoking|invoked|tool|tools)\b"
    r"(\s+(the|a|an|its|this|that|MCP|lab))*\s*$",
    re.IGNORECASE,
)
TOOL_BEFORE = re.compile(r"\b(tool|tools)\b(\s+(the|a|an|its|this|that|MCP))*\s*$", re.IGNORECASE)
STRONG_AFTER = re.compile(r"^\s*(MCP\s+)?(tool|tools)\b", re.IGNORECASE)
WEAK_BEFORE = re.compile(
    r"\b(use|uses|using|used|run|runs|running|via|with)\b(\s+(the|a|an|its))*\s*$",
    re.IGNORECASE,
)
TOOL_WORD = re.compile(r"\btools?\b", re.IGNORECASE)


class Context(IntEnum):
    NONE = 0
    WEAK = 1  # use / run / via next to it, or a paragraph in a Tools section
    STRONG = 2  # call / invoke / tool next to it, a Tool column, a Tools list


@dataclass(frozen=True)
class CallArgs:
    keywords: tuple[str, ...]
    positional: int
    open: bool  # `**kwargs`, `*args` or `...`: the argument list is not complete


@dataclass(frozen=True)
class Reference:
    kind: str  # "qualified" | "call" | "bare" | "dotted"
    name: str  # tool name ("" for a whole-server reference)
    server: str | None  # as written after mcp__, for qualified references
    args: CallArgs | None
    token: str  # the text to rewrite for a fix (e.g. "mcp__lab__job_inspect")
    style: str = "claude"  # how the harness names MCP tools: "claude" (and Codex), "gemini"


def parse_reference(
    content: str, known_servers: AbstractSet[str] = frozenset()
) -> Reference | None:
    """The reference a code span's text makes, before any catalog lookup."""
    text = content.strip()
    match = QUALIFIED.match(text)
    if match and "..." not in match.group("rest"):  # `mcp__srv__...` is a placeholder
        server, tool = split_qualified(match.group("rest"), known_servers)
        token = f"mcp__{match.group('rest')}"
        return Reference("qualified", tool, server, _call_args(match.group("args")), token)
    gemini = _gemini_reference(text, known_servers)
    if gemini is not None:
        return gemini
    match = CALL.match(text)
    if match:
        name = match.group("name")
        return Reference("call", name, None, _call_args(match.group("args")), name)
    if BARE.match(text):
        return Reference("bare", text, None, None, text)
    if DOTTED.match(text):
        return Reference("dotted", text, None, None, text)
    return None


def _gemini_reference(text: str, known_servers: AbstractSet[str]) -> Reference | None:
    """Gemini CLI's `mcp_<server>_<tool>` (optionally a call), for a declared server only:
    its single underscores cannot be split otherwise."""
    if not text.startswith("mcp_") or text.startswith("mcp__") or not known_servers:
        return None
    name, args = text, None
    match = CALL.match(text)
    if match:
        name, args = match.group("name"), match.group("args")
    elif not BARE.match(text):
        return None
    from guidelint.tools.harnesses import gemini_tool

    split = gemini_tool(name, known_servers)
    if split is None:
        return None
    server, tool = split
    return Reference("qualified", tool, server, _call_args(args), name, style="gemini")


def split_qualified(rest: str, known_servers: AbstractSet[str]) -> tuple[str, str]:
    """`lab__job_submit` -> ("lab", "job_submit"); prefers a split at a known server."""
    cuts = [m.start() for m in re.finditer("__", rest)]
    for cut in cuts:
        if rest[:cut] in known_servers:
            return rest[:cut], rest[cut + 2 :]
    if not cuts:
        return rest, ""
    return rest[: cuts[0]], rest[cuts[0] + 2 :]


def _call_args(args: str | None) -> CallArgs | None:
    if args is None:
        return None
    try:
        with warnings.catch_warnings():  # `tool("\d")` warns on newer Pythons; not ours
            warnings.simplefilter("ignore")
            tree = ast.parse(f"f({args})", mode="eval")
    except (SyntaxError, ValueError):
        return None  # not Python: a permission specifier such as `git diff:*`
    except (RecursionError, MemoryError):
        return None  # nested past CPython's own limits (`-` 100,000 times): not a call form
    call = tree.body
    if not isinstance(call, ast.Call):
        return None
    open_list = any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    )
    open_list |= any(
        isinstance(node, ast.Constant) and node.value is Ellipsis for node in ast.walk(call)
    )
    keywords = tuple(k.arg for k in call.keywords if k.arg is not None)
    positional = sum(1 for a in call.args if not isinstance(a, ast.Starred))
    return CallArgs(keywords, positional, open_list)


def never_a_tool(name: str, non_tool_names: set[str]) -> bool:
    """Identifiers that look like names but are not tools in any context."""
    return (
        name in non_tool_names
        or bool(ENV_VAR.match(name))
        or keyword.iskeyword(name)
        or name in ("true", "false", "null", "None", "True", "False")
        or len(name) < 3
    )


def context_strength(span: CodeSpan, text: str, tool_document: bool = True) -> Context:
    """How strongly the words, list or table around a code span mark a tool.

    "call `x`" is also how prose names a function: the words call and invoke make
    a strong context only in a document that names known tools elsewhere.
    """
    block = span.block
    if block.kind == "table_cell" and block.table_header and TOOL_WORD.search(block.table_header):
        return Context.STRONG if not block.table_row_is_header else Context.NONE
    from guidelint.spans import line_around

    before, after = line_around(text, span.span.start, span.span.end, 60, 30)
    if STRONG_AFTER.match(after) or TOOL_BEFORE.search(before):
        return Context.STRONG
    if STRONG_BEFORE.search(before):
        return Context.STRONG if tool_document else Context.WEAK
    in_tools_section = _tools_heading(block.section or "")
    if in_tools_section and block.list_depth == 1 and _leads_block(span, text):
        return Context.STRONG
    if WEAK_BEFORE.search(before) or in_tools_section:
        return Context.WEAK
    return Context.NONE


def _tools_heading(heading: str) -> bool:
    """`Tools`, `Query Tools`, `MCP tools`: a short heading about tools."""
    return bool(TOOL_WORD.search(heading)) and len(heading.split()) <= 4


def _leads_block(span: CodeSpan, text: str) -> bool:
    """The code span is the first thing in its paragraph (a list of tools)."""
    block = span.block
    lead = len(block.text) - len(block.text.lstrip())
    return block.offset(lead) == span.span.start
