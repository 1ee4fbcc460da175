"""GL401 example-syntax-error: a Python example in a guide does not parse."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.doc_kind import is_fixture
from guidelint.fences import (
    misplaced_close,
    misplaced_close_message,
    nested_fences,
    runs_to_end,
)
from guidelint.findings import Finding, Severity
from guidelint.lazy_re import LazyPattern
from guidelint.runner.rulebase import ExampleRule
from guidelint.spans import Span

# Syntax newer than the running Python: PEP 695 type parameters and `type` aliases.
NEWER_SYNTAX = LazyPattern(r"^\s*(?:(?:async\s+)?def|class)\s+\w+\[|^\s*type\s+\w+", re.MULTILINE)
# The first line of code says another language: a TOML table, a YAML key or list, a C
# declaration, a shell prompt; or a template's `${NAME}` / `{{ name }}` to fill in.
OTHER_LANGUAGE = LazyPattern(
    r"^(?:\[[\w.\-\"]+\]\s*$|[\w\-]+:\s*(?:#.*)?$|- |\$ |(?:struct|typedef|enum)\s+\w+\s*\{|"
    r"#include\b|(?:int|void|char|uint\w*)\s+\w+\s*\()"
)
# Placeholders to fill in: `<name>`, `<CURSOR: x>`, a C comment standing for values.
# A quoted one too (`lora_model_id = <"lora-sdxl-dreambooth-id">`).
PLACEHOLDER = LazyPattern(
    r"<[A-Za-z_][^<>\n]{0,60}>|<\"[^\"<>\n]{1,60}\">|<'[^'<>\n]{1,60}'>|/\*[^*\n]{0,60}\*/"
)
TEMPLATE = LazyPattern(r"\$\{\w+\}|\{\{[^}]*\}\}")
FSTRING = LazyPattern(r"\b[rRbB]?[fF][rR]?[\"']")
ELIDED = ("*__", "**__")  # what an elided argument list parses as
BLOCK_OPENER = LazyPattern(r":\s*(?:#.*)?$")
# `from typing import ...`, `from ._x import (A, ...)`: the names imported, left out.
ELIDED_IMPORT = LazyPattern(r"\bimport\s+\.\.\.")
IMPORT_LIST = re.compile(r"(\bimport\s*\()([^()]*)\)")
# `close(...)`, `f(a, ...)`: the arguments, left out (a body `: ...` stays as it is).
ELIDED_ARGUMENTS = re.compile(r"\(\s*\.\.\.\s*\)|,\s*\.\.\.\s*(?=\))")

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile


class ExampleSyntaxError(ExampleRule):
    code = "GL401"
    name = "example-syntax-error"
    severity = Severity.ERROR
    scope = "fenced"  # a fence in the text (ExampleRule.applies_to)

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        # A test fixture's broken example is the input its test feeds a tool.
        return super().applies_to(file, project) and not is_fixture(file.rel)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.runner.examples import source_offset, syntax_errors_of

        crossed: set[int] | None = None
        for example, error in zip(self.examples(file), syntax_errors_of(file), strict=True):
            if example.settings.skip:
                continue
            if error is not None or not example.closed:
                if crossed is None:  # fences closed early by a nested one: GL503's
                    crossed = {f.line for f, _ in nested_fences(file.text, file.markdown)}
                if example.line in crossed:
                    continue
            if not example.closed:
                start = file.lines.offset(example.line)
                span = Span(start, file.lines.line_end(example.line))
                ended = _ended_by_container(file)
                if example.line not in ended:
                    message = "is never closed (everything after it would be code)"
                elif (close := ended[example.line]) is not None:
                    fence = next(f for f in file.markdown.fences if f.line == example.line)
                    message = "is not closed: " + misplaced_close_message(file, fence, close)
                else:
                    continue  # a list item's or a quote's end closed it: nothing runs on
                yield self.finding(file, span, f"the ```{example.lang} fence opened here {message}")
                continue
            if error is not None and _session_reads(example.source):
                continue
            if error is not None and _introduced_as_output(file, example.line):
                continue
            if error is not None and IPYTHON_LINE.search(example.python_source()):
                error = _error_past_ipython_lines(example.python_source())
            if error is None or not_python_code(example.python_source()):
                continue
            if sys.version_info < (3, 12) and _in_fstring(example.python_source(), error):
                continue  # PEP 701 f-strings (nested quotes) parse from Python 3.12 on
            error = _error_past_conventions(example.python_source(), error)
            offset = source_offset(example, file.lines, error.lineno or 1, error.offset or 1)
            yield self.finding(file, Span(offset, offset), f"example does not parse: {error.msg}")


# The prose line right above a fence that says output follows (`Expected output:`,
# `**Sample output:**`, `Output:`): a notebook's output cell, turned into a page in
# a `python` fence as its code cells are, shows what the code printed.
OUTPUT_LEAD_IN = LazyPattern(r"(?:.*\W)?outputs?[ \t]*(?:\([^()\n]*\))?[ \t]*:[\W_]*", re.I)
LEAD_IN_REACH = 6  # lines looked back over: a conversion leaves blank lines between


def _introduced_as_output(file: SourceFile, line: int) -> bool:
    """The fence at `line` is printed output, as the text just before it says."""
    for above in range(line - 1, max(line - 1 - LEAD_IN_REACH, 0), -1):
        text = file.lines.line_text(above).strip()
        if text:
            return OUTPUT_LEAD_IN.fullmatch(text) is not None
    return False


def _ended_by_container(file: SourceFile) -> dict[int, int | None]:
    """The fences left unclosed that their container ends, by opening line: the line
    of their author's closing fence, indented too far to close them, or None."""
    return {
        fence.line: misplaced_close(file, fence)
        for fence in file.markdown.fences
        if not runs_to_end(file.text, fence)
    }


# A `>>> ` or `... ` prompt, as the runner strips it (guidelint/runner/examples.py).
SESSION_PROMPT = re.compile(r"^(>>>|\.\.\.)( |$)")


def _session_reads(source: str) -> bool:
    """A `>>>` session that parses once read as its writer meant, where the reading
    the runner gives it does not: comment lines above its first prompt (`# Download
    from the v1.0 tag` then `>>> hf_hub_download(...)`), which make a ```python
    fence no session to the runner, read as a pycon session (the prompted lines are
    the code; comments, blank lines and output between them are not); or prompts
    on the first lines of statements only (`>>> client = InferenceClient(` then
    `    provider="replicate",` with no `... `), read as Python once the prompts are
    taken off. Each reading must parse whole, so no real error hides behind it: a
    missing comma among `... ` lines fails both."""
    lines = source.split("\n")
    prompts = [SESSION_PROMPT.match(line.lstrip()) for line in lines]
    first = next((index for index, prompt in enumerate(prompts) if _opens(prompt)), None)
    if first is None:  # no `>>>`: a `...` alone is an elision, not a prompt
        return False
    unprompted = [
        line.lstrip()[prompt.end() :] if prompt else line
        for line, prompt in zip(lines, prompts, strict=True)
    ]
    if _compiles("\n".join(unprompted)):
        return True
    if any(_code(line) for line in lines[:first]):
        return False  # code before the first prompt: no session, the runner's reading holds
    session = [
        line.lstrip()[prompt.end() :] if prompt else ""
        for line, prompt in zip(lines, prompts, strict=True)
    ]
    return _compiles("\n".join(session))


def _opens(prompt: re.Match[str] | None) -> bool:
    return prompt is not None and prompt.group(1) == ">>>"


def _compiles(source: str) -> bool:
    """The source parses as the runner compiles it (top-level `await` allowed)."""
    import ast

    flags = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    try:
        compile(source, "<example>", "exec", flags=flags, dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


# IPython's own syntax, which a notebook or `ipython` runs before Python sees the cell:
# a shell escape (`!pip install x`), a line magic (`%pip`, `%time f()`), a cell magic
# (`%%time`); a space may follow the `!` (`! composio apps update`). Not a `%` or `!`
# that continues an expression (`a % b` split over lines, `!= b`).
IPYTHON_LINE = LazyPattern(r"^[ \t]*(?:![ \t]*(?!=)[^\s=]|%%?[A-Za-z_])", re.MULTILINE)


def _error_past_ipython_lines(source: str) -> SyntaxError | None:
    """The cell's syntax error once its IPython lines are what IPython makes them (a
    call, so `pass` here, at the same indentation and line): None when the rest is
    Python, so a notebook example with `%pip install` is no defect; its first real
    error otherwise, at its own line."""
    lines = source.split("\n")
    for index, line in enumerate(lines):
        if IPYTHON_LINE.match(line):
            lines[index] = line[: len(line) - len(line.lstrip())] + "pass"
    import ast

    flags = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT  # as the first parse
    try:
        compile("\n".join(lines), "<example>", "exec", flags=flags, dont_inherit=True)
    except SyntaxError as error:
        return error
    except ValueError:
        return None  # a NUL byte: the parse above reported nothing of it either
    return None


def not_python_code(source: str) -> bool:
    """A `python` fence that holds no program, so its parse error is no defect: an API
    reference's signatures (`tool(self, fn: F) -> F`), an outline of `def` lines with
    no bodies, prose, a list or a drawing (most of its code lines prose-shaped: a file
    tree, a checklist, a printed message), or syntax newer than the Python guidelint
    runs on."""
    if sys.version_info < (3, 12) and NEWER_SYNTAX.search(source):
        return True
    if TEMPLATE.search(source) or OTHER_LANGUAGE.match(_first_code_line(source)):
        return True
    if _shell_commands_only(source):
        return True
    stripped = source.strip()
    if stripped and any(_parses(sig) for sig in ("def " + stripped + ": ...", stripped + ": ...")):
        return True  # a signature, as API reference pages show them
    if stripped and _printed_signature(stripped):
        return True
    filled = PLACEHOLDER.sub("__", source)
    if filled != source and (_parses(filled) or _parses("{\n" + filled + "\n}")):
        return True  # `<minimal reproducer>`, `hidden_size=<real>`, `/* first 5 */`
    if _parses(_with_bodies(source)):
        return True
    # An outline's elisions: `from typing import ...`, `import (A, ...)`, `close(...)`.
    outlined = _without_elisions(source)
    if outlined != source and (_parses(outlined) or _parses(_with_bodies(outlined))):
        return True
    if _sketch(source) or _cli_overrides_only(source) or _mostly_prose(source):
        return True
    # `f(a=1, ...)`, `def g(x, ...)`: `...` standing for arguments left out.
    if "..." in source and any(_parses(source.replace("...", stand)) for stand in ELIDED):
        return True
    return _read_as_sketch(source) is None


# `pixie.wrap(data: 'T', *, name: 'str' = <factory>) -> 'T'`: a signature as
# `inspect.signature` prints it (a generated API reference), under the callable's
# qualified name, each default shown as its repr (`<object object at 0x7788c2ad5c80>`).
QUALIFIED_CALLABLE = LazyPattern(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?=[ \t]*\()")


def _printed_signature(source: str) -> bool:
    """The source is one printed signature: `def` before it, under its last name and
    with its reprs filled in, parses."""
    named = QUALIFIED_CALLABLE.compiled.sub(lambda match: match.group(0).rsplit(".")[-1], source)
    filled = PLACEHOLDER.sub("__", PRINTED_REPR.sub("__", named))
    return filled != source and _parses("def " + filled + ": ...")


def _read_as_sketch(source: str) -> SyntaxError | None:
    """The syntax error left once a guide's sketch conventions are read as what they
    stand for (SKETCH_CONVENTIONS, in order), None when none is left.

    A convention is kept only where the first error stays where it was, moves later or
    clears: one that a real expression trips over earlier (a lambda's `x: y` read as
    an annotated argument) is dropped, so no real error is hidden behind it."""
    current = source
    error = _first_error(current)
    for convention in SKETCH_CONVENTIONS:
        if error is None:
            return None
        candidate = convention(current)
        if candidate == current:
            continue
        candidate_error = _first_error(candidate)
        if candidate_error is None or _position(candidate_error) >= _position(error):
            current, error = candidate, candidate_error
    return error


def _error_past_conventions(source: str, error: SyntaxError) -> SyntaxError:
    """The error to report: the one left once the sketch conventions are read, where
    it lies later than the first (`...` then `steps=[...]` with no comma after it: the
    missing comma, not the `...` Python stumbles on first). Its column holds where
    the conventions left its line as written, else the line's start."""
    left = _read_as_sketch(source)
    if left is None or _position(left) <= _position(error):
        return error
    index = (left.lineno or 1) - 1
    lines = source.split("\n")
    if not (0 <= index < len(lines) and (left.text or "").rstrip("\n") == lines[index]):
        left.offset = 1
    return left


def _first_error(source: str) -> SyntaxError | None:
    """The first syntax error of the source, where a block opener's missing body is
    no error (an outline's `def f():` with nothing under it)."""
    import ast

    if _parses(source):
        return None
    bodied, origins = _bodies_added(source)
    try:
        ast.parse(bodied)
    except SyntaxError as error:
        # At its line in the source as written (the added bodies shift the lines).
        index = min(max((error.lineno or 1) - 1, 0), len(origins) - 1)
        error.lineno = origins[index] + 1
        error.text = source.split("\n")[origins[index]]
        return error
    except ValueError:
        return None  # a NUL byte: not this rule's to report
    return None


def _position(error: SyntaxError) -> tuple[int, int]:
    return (error.lineno or 0, error.offset or 0)


def _dedented(source: str) -> str:
    """A method shown out of its class, every line indented alike."""
    import textwrap

    return textwrap.dedent(source)


def _excerpts_dedented(source: str) -> str:
    """Excerpts one block shows in turn, each after a comment at the margin and a
    blank line (module code, then `#Use them in your Crew like this:` and a method
    indented as in its class): each indented excerpt read at the margin. Its lines
    stay where they are; an excerpt that follows no such comment is left as it is
    (a first line that lost its indentation is an error)."""
    import textwrap

    lines = source.split("\n")
    starts = [
        index + 1
        for index in range(1, len(lines) - 1)
        if lines[index].startswith("#") and not lines[index - 1].strip()
    ]
    ends = [*starts[1:], len(lines)] if starts else []
    for start, end in zip(starts, ends, strict=True):
        excerpt = "\n".join(lines[start:end])
        lines[start:end] = textwrap.dedent(excerpt).split("\n")
    return "\n".join(lines)


# Prose standing for code: `{write your own constructor}` (three words or more, in
# braces), a line `[Code snippet showing new behavior]` (a capitalised phrase in
# brackets), beside PLACEHOLDER's `<fps>` and `/* first 5 */`.
BRACED_PROSE = LazyPattern(r"\{\s*[A-Za-z]+(?:\s+[A-Za-z'\-]+){2,}\s*\}")
BRACKETED_PROSE = LazyPattern(
    r"^([ \t]*)\[[A-Z][\w'\-]*(?:[ \t]+[\w'\-,.]+)+\][ \t]*$", re.MULTILINE
)


# An object's repr as Python prints it, inside printed output shown as code:
# `type_hint=<class 'diffusers.X'>`, `<PIL.Image.Image image mode=RGB at 0x7F3E...>`.
PRINTED_REPR = LazyPattern(
    r"<(?:class|function|module|bound method|built-in function|enum|coroutine object)"
    r"[ \t][^<>\n]*>|<[A-Za-z_][\w.]*[ \t][^<>\n]*\bat 0x[0-9A-Fa-f]+>"
)


# `BlockState(image: <PIL.Image.Image ...>)`: an attribute and its value, as a repr
# prints them, read as a keyword argument.
REPR_ATTRIBUTE = LazyPattern(rf"(?<=[(,])(\s*[A-Za-z_]\w*)[ \t]*:[ \t]*(?={PRINTED_REPR.pattern})")


def _placeholders_filled(source: str) -> str:
    filled = PRINTED_REPR.sub("__", REPR_ATTRIBUTE.sub(r"\1=", source))
    filled = PLACEHOLDER.sub("__", filled)
    filled = BRACED_PROSE.sub("__", filled)
    return BRACKETED_PROSE.sub(r"\1__", filled)


# A parameter written with its type where a call is shown (an API reference's
# `registry.add(extension_id: str, metadata: dict)`): right after `(` or `,` (and a
# comment on that line, `objective: str = None,  # note`), a name,
# `:` and a type (dotted, subscripted once or twice, `|` unions), then `,` `)` or `=`.
_TYPE = r"[A-Za-z_][\w.]*(?:\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\])?"
ANNOTATED_ARGUMENT = LazyPattern(
    rf"(?<=[(,])((?:[ \t]*#[^\n]*)?\s*[A-Za-z_]\w*)[ \t]*:"
    rf"[ \t]*{_TYPE}(?:[ \t]*\|[ \t]*{_TYPE})*(?=\s*[,)=])"
)


def _annotations_dropped(source: str) -> str:
    return ANNOTATED_ARGUMENT.sub(r"\1", source)


# A call shown with what it returns, an API's shape in a line: `client.create(
# model="gpt-4", response_model=type[T]) -> T`. Only a line that is a call and no more
# (no `def`, no assignment) before `-> annotation` at its end.
CALL_RETURNS = LazyPattern(
    rf"^([ \t]*[A-Za-z_][\w.]*\(.*\))[ \t]*->[ \t]*{_TYPE}(?:[ \t]*\|[ \t]*{_TYPE})*[ \t]*$",
    re.MULTILINE,
)


def _call_returns_dropped(source: str) -> str:
    return CALL_RETURNS.sub(r"\1", source)


# `def validate(self, data: dict)` then `    -> tuple[bool, list[str]]:` on the next
# line: a signature broken before its return annotation, as a design note draws it;
# joined with a `\` (the lines keep their numbers).
BROKEN_RETURN = LazyPattern(
    r"^([ \t]*(?:async[ \t]+)?def[ \t]+\w+[ \t]*\(.*\))[ \t]*(?=\n[ \t]*->)", re.MULTILINE
)


def _return_arrows_joined(source: str) -> str:
    return BROKEN_RETURN.sub(r"\1 \\", source)


# `...` where an argument stands, after `(` or `,`, on its line or alone on one
# (`GRPOConfig(\n    ...\n    beta=0.0,`): the arguments left out.
ELIDED_ARGUMENT = LazyPattern(
    r"(?<=[(,])([ \t]*(?:#[^\n]*)?(?:\n[ \t]*)*)\.\.\.(?=([ \t]*)([,)]|#|\n))"
)


def _elided_arguments_named(source: str) -> str:
    """Each elided argument as a keyword of its own (`__e1=...`), which a call and a
    `def` both take after keywords and defaults; a comma after one alone on its line."""
    count = 0

    def named(match: re.Match[str]) -> str:
        nonlocal count
        if not _in_arguments(source, match.start()):
            return match.group(0)
        count += 1
        comma = "" if match.group(3) in (",", ")") else ","
        return f"{match.group(1)}__e{count}=...{comma}"

    return ELIDED_ARGUMENT.compiled.sub(named, source)


def _in_arguments(source: str, start: int) -> bool:
    """The `...` at `start` follows a `,`, or the `(` of a call or `def` (a name, `)`
    or `]` before it): not a class body's `(...)` alone on its line, which stands
    for the members left out and parses as it is."""
    if start == 0 or source[start - 1] != "(":  # the match starts right after it
        return True
    index = start - 2
    while index >= 0 and source[index] in " \t":  # runs apart for each match: linear
        index -= 1
    return index >= 0 and (source[index].isalnum() or source[index] in "_)]")


# `...` alone where an entry of a dict or list display stands, after `{`, `[` or `,`
# (`FACTORIES = {\n    ...\n    "mine": make,\n}`): the other entries, left out.
ELIDED_ENTRY = LazyPattern(
    r"(?<=[{\[,])([ \t]*(?:#[^\n]*)?(?:\n[ \t]*)*)\.\.\.(?=([ \t]*)([,}\]]|#|\n))"
)


def _elided_entries_named(source: str) -> str:
    """Each elided entry of a dict display as an unpacking of its own (`**__e1`), which
    a dict takes among its keys; in a list, `...` stays an element. Either way a comma
    after one alone on its line, where the next entry follows it."""
    count = 0
    brackets = _Brackets(source)  # asked at each match, in order: one reading in all

    def named(match: re.Match[str]) -> str:
        nonlocal count
        opener = brackets.opener_at(match.start())
        if opener not in "{[":
            return match.group(0)  # a call's or a signature's: _elided_arguments_named's
        count += 1
        comma = "" if match.group(3) in (",", "}", "]") else ","
        entry = f"**__e{count}" if opener == "{" and _holds_keys(source, match.end()) else "..."
        return f"{match.group(1)}{entry}{comma}"

    return ELIDED_ENTRY.compiled.sub(named, source)


class _Brackets:
    """The bracket still open at each of a rising series of offsets (`(`, `[` or `{`,
    "" when none), read once over the source: over strings (a one-quote string ends
    at its line's end) and comments, which hold brackets that open nothing."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.index = 0
        self.openers: list[str] = []

    def opener_at(self, at: int) -> str:
        source, length = self.source, min(at, len(self.source))
        index = self.index
        while index < length:
            char = source[index]
            if char == "#":
                newline = source.find("\n", index)
                index = len(source) if newline == -1 else newline
            elif char in "\"'":
                index = _string_end(source, index)
            else:
                if char in "([{":
                    self.openers.append(char)
                elif char in ")]}" and self.openers:
                    self.openers.pop()
                index += 1
        self.index = index
        return self.openers[-1] if self.openers else ""


def _string_end(source: str, start: int) -> int:
    """Just past the string literal opened at `start`."""
    triple = source[start : start + 3]
    quote = triple if triple in ('"""', "'''") else source[start]
    end = source.find(quote, start + len(quote))
    while end != -1 and len(quote) == 1 and _escaped(source, end):
        end = source.find(quote, end + 1)
    if len(quote) == 1:
        newline = source.find("\n", start)
        if newline != -1 and (end == -1 or end > newline):
            return newline  # unclosed on its line: no string to read past
    return len(source) if end == -1 else end + len(quote)


def _escaped(source: str, at: int) -> bool:
    """The character at `at` follows an odd run of backslashes."""
    slashes = 0
    while at - slashes - 1 >= 0 and source[at - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


# A dict's entry: a key (a string, a name or a number) and a colon, not `:=`.
DICT_KEY = LazyPattern(r"(?:[\"'][^\"'\n]*[\"']|[\w.]+)[ \t]*:(?!=)")


def _holds_keys(source: str, at: int) -> bool:
    """The display the `...` at `at` stands in has `key: value` entries: the next entry
    after it is one (`{\n    ...\n    "mine": make,\n}`), or an earlier one was."""
    after = source[at : at + 200].lstrip(" \t\n,")  # a bounded read: linear in all
    if DICT_KEY.match(after):
        return True
    return bool(DICT_KEY.search(source[max(0, at - 200) : at]))


# `"content": "What color is the sky?"`: a dict's entry shown alone, at the example's
# own indentation (an entry inside a dict literal is indented past its opener).
DICT_ENTRY = LazyPattern(r"^([ \t]*)([\"'][^\"'\n]*[\"'])[ \t]*:(?!=)", re.MULTILINE)


def _dict_entries_assigned(source: str) -> str:
    margin = min(
        (len(line) - len(line.lstrip()) for line in source.split("\n") if _code(line)), default=0
    )

    def assigned(match: re.Match[str]) -> str:
        if len(match.group(1)) != margin:
            return match.group(0)
        return f"{match.group(1)}__ ="

    return DICT_ENTRY.compiled.sub(assigned, source)


def _comment_bodies(source: str) -> str:
    """A body of comments alone given one, on its first comment's line, where it
    outlines code to write: a `def` or `class` body (`class L(Base):` then
    `# ... implementation ...`, then more code), an `if` branch another branch
    follows (`if e.type == "rate_limit_error":` then `# handle it`, then `elif`), any
    block whose comment starts with `...` (`if Confirm.ask("Go?"):` then `# ...`),
    any block that ends the example. The lines keep their numbers. An `if`, `for` or
    `try:` body of comments with more code after it is left as it is (`# process`):
    that snippet fails when pasted, and the rule says so."""
    lines = source.split("\n")
    opener: str | None = None  # the opener whose body is still comments alone
    comment: int | None = None  # the index of that body's first comment line
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        if opener is not None and not _code(line) and _indent(line) > _indent(opener):
            comment = index if comment is None else comment
            continue
        if opener is not None and comment is not None and _indent(line) <= _indent(opener):
            if (
                OUTLINED_BODY.match(opener)
                or (BRANCH.match(opener) and LATER_BRANCH.match(line))
                or ELIDED_BODY.match(lines[comment])
            ):
                _body_on(lines, comment)
        opener = comment = None
        if _code(line) and BLOCK_OPENER.search(line):
            opener = line
    if comment is not None:
        _body_on(lines, comment)
    return "\n".join(lines)


OUTLINED_BODY = LazyPattern(r"[ \t]*(?:(?:async[ \t]+)?def|class)\b")
# `# ...` (`# ... handle it ...`, `# …`): the body's code, left out in so many words.
ELIDED_BODY = LazyPattern(r"[ \t]*#[ \t]*(?:\.\.\.|…)")
BRANCH = LazyPattern(r"[ \t]*(?:if|elif)\b")
LATER_BRANCH = LazyPattern(r"[ \t]*(?:elif|else)\b")


def _body_on(lines: list[str], index: int) -> None:
    line = lines[index]
    lines[index] = line[: _indent(line)] + "...  " + line.strip()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _elided_handlers(source: str) -> str:
    """A `try:` whose handlers a comment stands for (`# Error handling...` at the
    `try:`'s indentation after its body, and no `except` or `finally` after it): an
    `except` added on the comment's line."""
    lines = source.split("\n")
    opened: list[int] = []  # the indentation of each `try:` with no handler yet
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        indent = _indent(line)
        opened = [t for t in opened if t <= indent]
        if TRY_OPENER.match(line):
            opened.append(indent)
        elif indent in opened and HANDLER.match(line):
            opened.remove(indent)
        elif indent in opened and line.strip().startswith("#"):
            after = next((later for later in lines[index + 1 :] if _code(later)), "")
            if not (after and _indent(after) == indent and HANDLER.match(after)):
                lines[index] = " " * indent + "except Exception: ...  " + line.strip()
                opened.remove(indent)
    return "\n".join(lines)


TRY_OPENER = LazyPattern(r"[ \t]*try[ \t]*:[ \t]*(?:#.*)?$")
HANDLER = LazyPattern(r"[ \t]*(?:except\b|finally[ \t]*:)")


def _handlers_without_try(source: str) -> str:
    """`except X as e:` as the example's first code line: handlers shown without
    their `try:`, read (on the same lines) as an `if` chain whose bodies they hold."""
    first = next((line for line in source.split("\n") if _code(line)), "")
    if not HANDLER.match(first):
        return source
    margin = _indent(first)
    out = []
    chained = False
    for line in source.split("\n"):
        if _code(line) and _indent(line) == margin and HANDLER.match(line):
            out.append(" " * margin + ("elif" if chained else "if") + " __:")
            chained = True
        else:
            out.append(line)
    return "\n".join(out)


# An excerpt of an `if` chain that starts at a later branch (`elif item["type"] == x:`).
LATER_BRANCH = LazyPattern(r"([ \t]*)(elif\b|else[ \t]*:)")


def _branch_without_if(source: str) -> str:
    """`elif x:` or `else:` as the example's first code line: a branch of a larger `if`,
    read (on the same line) as the `if` that starts the excerpt's chain."""
    lines = source.split("\n")
    first = next((index for index, line in enumerate(lines) if _code(line)), None)
    branch = LATER_BRANCH.match(lines[first]) if first is not None else None
    if first is None or branch is None:
        return source
    opener = "if" if branch.group(2) == "elif" else "if __:"
    lines[first] = branch.group(1) + opener + lines[first][branch.end(2) :]
    return "\n".join(lines)


# A comment that names another file than Python's as what follows (`# .env file
# (git-ignored)`, `# config.yaml`, `# In requirements.txt:`): that file's lines, shown
# beside the code that reads them.
OTHER_FILE_HEADING = LazyPattern(
    r"[ \t]*#[ \t]*(?:(?:in|file:?)[ \t]+)?`?[\w./\-]*\.(?:env|ya?ml|toml|ini|cfg|conf|"
    r"json|txt|sh|properties)\b`?(?:[ \t]+file\b)?[^\w\n]*(?:\([^()\n]*\))?[ \t:]*$",
    re.IGNORECASE,
)


# A comment that names a data file among other words (`# Configuration (in
# mcp_agent.secrets.yaml or mcp_agent.config.yaml)`): a heading only where the lines
# under it are that file's language and not Python.
NAMED_DATA_FILE = LazyPattern(r"[ \t]*#.*?[\w\-]\.(?:ya?ml|json)\b", re.IGNORECASE)


def _other_files_commented(source: str) -> str:
    """The lines under such a heading, up to a blank line, read as comments."""
    lines = source.split("\n")
    blank_after = [len(lines)] * len(lines)  # the first blank line past each
    for index in range(len(lines) - 2, -1, -1):
        following = lines[index + 1]
        blank_after[index] = index + 1 if not following.strip() else blank_after[index + 1]
    tried = -1  # a paragraph read as data once, by its first naming comment
    for index, line in enumerate(lines):
        end = blank_after[index]
        if OTHER_FILE_HEADING.fullmatch(line):
            _comment_out(lines, index + 1, end)
        elif index > tried and NAMED_DATA_FILE.match(line):
            tried = end
            if _data_not_python("\n".join(lines[index + 1 : end])):
                _comment_out(lines, index + 1, end)
    return "\n".join(lines)


def _data_not_python(text: str) -> bool:
    """`text` is a YAML or JSON mapping or list, and no Python (`openai:` then
    `  api_key: "..."`)."""
    import textwrap

    if not text.strip() or _parses(textwrap.dedent(text)):
        return False
    import yaml  # JSON's displays load as YAML too

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return False
    return isinstance(data, (dict, list)) and bool(data)


# Prose, a list or a drawing in a `python` fence, line by line (a design note's flow,
# a checklist, a file tree, what a program printed): a character no Python code has
# outside a string or comment (an arrow `↓`, box drawing `├──`, a mark `✅`, CJK text
# and its full-width punctuation `（`); two words side by side (`Token Cost ~2K`,
# `fixture 'x' not found`, `- Load memory`), not in a statement or an assignment; a
# label alone (`Example:`); a file's path (`setup/data/*.md  # specs`, `File: a/b.py`).
PROSE_CHARACTERS = (
    (0x2190, 0x21FF),  # arrows
    (0x2500, 0x27BF),  # box drawing, blocks, shapes, symbols, dingbats
    (0x2B00, 0x2BFF),  # more arrows and symbols
    (0x3000, 0x30FF),  # CJK punctuation, hiragana, katakana
    (0x3400, 0x9FFF),  # CJK ideographs
    (0xAC00, 0xD7AF),  # hangul
    (0xFF00, 0xFFEF),  # full-width forms
    (0x1F000, 0x1FAFF),  # emoji
)
LINE_TOKEN = re.compile(
    r"""(?P<string>(?i:[rbuft]{0,2})(?:\"\"\"|'''|"|'))|(?P<comment>\#)|"""
    r"(?P<word>[^\W\d]\w*|\d[\w.]*)|(?P<space>\s+)|(?P<other>.)"
)
PATH_LINE = LazyPattern(
    r"(?:[A-Z][\w \t]*:[ \t]*)?(?:[-*][ \t]+)?(?:~|\.{1,2})?/?[\w.\-*]+(?:/[\w.\-*]*)+"
    r"[ \t]*(?:#.*)?"
)
PATH_MARK = LazyPattern(r"[*~]|/[ \t]*(?:#|$)|/[^/\s#]*\.[A-Za-z]\w*[ \t]*(?:#|$)")
# `**Privacy by Design**`, a `code` span, a [link](url): Markdown, not a note.
MARKDOWN_MARKUP = LazyPattern(r"\*\*[^\s*][^*]*\*\*|`[^`\n]+`|\]\([^)\n]*\)")
SOFT_KEYWORDS = frozenset({"match", "case", "type", "print", "exec", "_"})
Token = tuple[str, str]


def _line_shapes(source: str) -> list[bool | None]:
    """For each line: True where it is prose (above), False where it is code, None
    where it holds no code (blank, a comment, inside a string over lines)."""
    shapes: list[bool | None] = []
    open_quote: str | None = None  # the triple quote a string over lines opened with
    for line in source.split("\n"):
        tokens, open_quote = _code_tokens(line, open_quote)
        shapes.append(_prose_shaped(line, tokens) if tokens else None)
    return shapes


def _code_tokens(line: str, open_quote: str | None) -> tuple[list[Token], str | None]:
    """The line's words and punctuation outside strings and comments (a string is a
    token of its own, its text left out), and the triple quote left open at its end."""
    tokens: list[Token] = []
    index = 0
    if open_quote is not None:
        end = _quote_end(line, 0, open_quote)
        if end == -1:
            return tokens, open_quote
        tokens.append(("string", ""))
        index = end + 3
    while index < len(line):
        match = LINE_TOKEN.match(line, index)
        if match is None:  # `.` takes any character but a newline, which split took
            break
        kind = match.lastgroup or "other"
        if kind == "comment":
            break
        index = match.end()
        if kind == "string":
            quote = match.group().lstrip("rbuftRBUFT")
            end = _quote_end(line, index, quote)
            tokens.append(("string", ""))
            if end == -1:
                return tokens, quote if len(quote) == 3 else None
            index = end + len(quote)
        elif kind != "space":
            tokens.append((kind, match.group()))
    return tokens, None


def _quote_end(line: str, start: int, quote: str) -> int:
    index = line.find(quote, start)
    while index != -1 and _escaped(line, index):
        index = line.find(quote, index + 1)
    return index


def _prose_shaped(line: str, tokens: list[Token]) -> bool:
    import keyword

    if MARKDOWN_MARKUP.search(line):
        return False  # the page's own text, which a fence left open took in: a defect
    if any(_prose_character(char) for _, text in tokens for char in text):
        return True
    if "'" not in line and '"' not in line and PATH_LINE.fullmatch(line.strip()):
        return PATH_MARK.search(line.split("#")[0] + "#") is not None
    first = tokens[0][1]
    if keyword.iskeyword(first):
        return False  # a statement (`from x import compile regions`): a typo in code
    words = [text for kind, text in tokens[:-1] if kind == "word"]
    if tokens[-1][1] == ":" and len(words) == len(tokens) - 1 and first not in SOFT_KEYWORDS:
        return True  # `Example:`, `Token Cost:`
    return _words_side_by_side(tokens) and not _assigns(tokens)


def _prose_character(char: str) -> bool:
    code = ord(char)
    return code > 0x7F and any(low <= code <= high for low, high in PROSE_CHARACTERS)


def _words_side_by_side(tokens: list[Token]) -> bool:
    import keyword

    for (kind, text), (next_kind, next_text) in zip(tokens, tokens[1:], strict=False):
        if kind not in ("word", "string") or next_kind not in ("word", "string"):
            continue
        if kind == next_kind == "string":
            continue  # implicit concatenation
        if any(keyword.iskeyword(t) or t in SOFT_KEYWORDS for t in (text, next_text)):
            continue
        return True
    return False


def _assigns(tokens: list[Token]) -> bool:
    """An `=` outside brackets that is no comparison: `pipe line= X()` is code."""
    depth = 0
    for index, (kind, text) in enumerate(tokens):
        if kind != "other":
            continue
        depth += (text in "([{") - (text in ")]}")
        before = tokens[index - 1][1] if index else ""
        after = tokens[index + 1][1] if index + 1 < len(tokens) else ""
        if text == "=" and depth == 0 and before not in "=<>!" and after != "=":
            return True
    return False


def _mostly_prose(source: str) -> bool:
    """More than half the code lines are prose: the fence's language is wrong."""
    shapes = [shape for shape in _line_shapes(source) if shape is not None]
    return 2 * sum(shapes) > len(shapes)


def _prose_regions_commented(source: str) -> str:
    """Each run of lines between blank lines whose code lines are all prose read as
    comments (`Token Cost: ~2K` under the code it prices)."""
    lines = source.split("\n")
    shapes = _line_shapes(source)
    start = 0
    while start < len(lines):
        if not lines[start].strip():
            start += 1
            continue
        end = next((k for k in range(start, len(lines)) if not lines[k].strip()), len(lines))
        region = [shape for shape in shapes[start:end] if shape is not None]
        if region and all(region):  # at their indentation: no margin comment made
            for index in range(start, end):
                lines[index] = " " * _indent(lines[index]) + "# " + lines[index].lstrip()
        start = end
    return "\n".join(lines)


# `llm= # pass an llm`: a keyword's value left to the reader, a comment in its place.
COMMENTED_VALUE = LazyPattern(r"(?<=\w)([ \t]*=[ \t]*)(?=#)")
# `lambda ...: ...`: a function's parameters and body left out.
ELIDED_LAMBDA = LazyPattern(r"\blambda[ \t]+\.\.\.[ \t]*:")


def _elided_values_filled(source: str) -> str:
    filled = COMMENTED_VALUE.sub(r"\1__ ", source)
    return ELIDED_LAMBDA.sub("lambda *__:", filled)


# A line that closes a bracket a decorator's call opened over lines.
CLOSER = LazyPattern(r"[ \t]*[)\]}]")


def _decorators_alone(source: str) -> str:
    """An example that ends on a decorator (`@human_feedback(message="Review this:")`,
    good and bad ones shown alone): the function it decorates added after it."""
    lines = source.rstrip().split("\n")
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        if not _code(line):
            continue
        if line.lstrip().startswith("@"):
            later = [x for x in lines[index + 1 :] if _code(x)]
            if all(_indent(x) > _indent(line) or CLOSER.match(x) for x in later):
                return "\n".join([*lines, " " * _indent(line) + "def __(): ..."]) + "\n"
            return source
        if _indent(line) <= _first_indent(lines) and not CLOSER.match(line):
            return source
    return source


DECORATED = LazyPattern(r"[ \t]*(?:@|(?:async[ \t]+)?def\b|class\b)")


def _catalogued_decorators(source: str) -> str:
    """A catalogue of one-line items, a decorator among them (`@csrf_exempt  # only
    for token auth`, then a blank line, `# Debug mode` and `DEBUG = True`): a
    decorator with a blank line after it and no `def` or `class` next is shown
    alone, read as its expression on the same line."""
    lines = source.split("\n")
    for index, line in enumerate(lines):
        if not line.lstrip().startswith("@"):
            continue
        following = next((k for k in range(index + 1, len(lines)) if _code(lines[k])), None)
        if following is None or DECORATED.match(lines[following]):
            continue
        if any(not lines[k].strip() for k in range(index + 1, following)):
            lines[index] = line.replace("@", "", 1)
    return "\n".join(lines)


def _first_indent(lines: list[str]) -> int:
    return min((_indent(line) for line in lines if _code(line)), default=0)


# Printed output shown in a code example, after the statement that prints it: a
# notebook's `# Out[1]` marker; a `print(...)` or a bare name (`pipe`,
# `pipeline.scheduler`), which a REPL echoes, then an object dump (`PNDMScheduler {`,
# `"StableDiffusionXLPipeline {`) or text with prose in it (`print(block.doc)`).
NOTEBOOK_OUT = LazyPattern(r"[ \t]*#[ \t]*Out[ \t]*\[\d*\][ \t]*:?[ \t]*$")
NOTEBOOK_IN = LazyPattern(r"[ \t]*#[ \t]*In[ \t]*\[\d*\][ \t]*:?[ \t]*$")
DUMP_OPENER = LazyPattern(r"([ \t]*)([\"']?)[A-Za-z_][\w.]*[ \t]*\{[ \t]*$")
WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*[.,:;]?")
PROSE_WORDS = 4  # plain words in a row, none a keyword: a sentence, never code


def _has_prose(line: str) -> bool:
    import keyword

    run = 0
    for token in line.split():
        plain = WORD.fullmatch(token) and not keyword.iskeyword(token.rstrip(".,:;"))
        run = run + 1 if plain else 0
        if run >= PROSE_WORDS:
            return True
    return False


def _comment_out(lines: list[str], start: int, end: int) -> None:
    """Lines start..end-1 as comments, so they keep their numbers."""
    for index in range(start, end):
        if lines[index].strip():
            lines[index] = "# " + lines[index]


def _echoes(line: str) -> bool:
    """A statement whose only effect is to show a value: `print(...)`, or a bare name
    or attribute, which a notebook or REPL echoes."""
    import ast

    try:
        tree = ast.parse(line.strip())
    except (SyntaxError, ValueError):
        return False
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return False
    value = tree.body[0].value
    if isinstance(value, ast.Call):
        return isinstance(value.func, ast.Name) and value.func.id == "print"
    return isinstance(value, (ast.Name, ast.Attribute))


def _notebook_outputs(source: str) -> str:
    """A notebook transcript's output cells: from a `# Out[1]` line to the next
    `# In[2]` or blank line."""
    lines = source.split("\n")
    for index, line in enumerate(lines):
        if not NOTEBOOK_OUT.match(line):
            continue
        first = next((k for k in range(index + 1, len(lines)) if lines[k].strip()), len(lines))
        end = next(
            (
                k
                for k in range(first, len(lines))
                if not lines[k].strip() or NOTEBOOK_IN.match(lines[k])
            ),
            len(lines),
        )
        _comment_out(lines, first, end)
    return "\n".join(lines)


def _printed_output(source: str) -> str:
    """What a statement that shows a value printed, shown after it: an object dump up
    to its closing line (`}` or the quote it opened with), or text with a sentence in
    it up to the next line back at the statement's indentation."""
    lines = source.split("\n")
    index = 0
    while index < len(lines) - 1:
        line = lines[index]
        if not _code(line) or not _echoes(line):
            index += 1
            continue
        following = next((k for k in range(index + 1, len(lines)) if lines[k].strip()), None)
        if following is None:
            break
        end = _output_end(lines, following, _indent(line))
        if end is not None:
            _comment_out(lines, following, end)
            index = end
        else:
            index += 1
    return "\n".join(lines)


def _output_end(lines: list[str], start: int, margin: int) -> int | None:
    """Where the printed output that starts at `start` ends (an index past it), None
    when that line reads as code, not output."""
    first = lines[start]
    if _parses(first.strip()):
        return None
    dump = DUMP_OPENER.match(first)
    if dump:
        closers = ("}", '}"', "}'") + ((dump.group(2),) if dump.group(2) else ())
        for index in range(start + 1, len(lines)):
            if lines[index].strip() in closers and _indent(lines[index]) <= len(dump.group(1)):
                return index + 1
        return len(lines)
    end = next(
        (
            k
            for k in range(start + 1, len(lines))
            if _code(lines[k]) and _indent(lines[k]) <= margin
        ),
        len(lines),
    )
    return end if any(_has_prose(lines[k]) for k in range(start, end)) else None


# Lines of output with no statement before them: a logger's line (`ComponentsManager:
# adding component ...`), a line that starts with an emoji (`⚡️Cache Steps ...`), and
# the rows of a Markdown table printed with such a line.
LOG_LINE = LazyPattern(r"[ \t]*[A-Z][\w.]*:[ \t]+\S")
TABLE_ROW = LazyPattern(r"[ \t]*\|.*\|[ \t]*$")
TABLE_RULE = LazyPattern(r"^[ \t]*\|(?:[ \t:]*-{3,}[ \t:]*\|)+[ \t]*$", re.MULTILINE)


def _output_lines(source: str) -> str:
    import unicodedata

    lines = source.split("\n")
    table = bool(TABLE_RULE.search(source))
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or _parses(stripped):
            continue
        log = LOG_LINE.match(line) and _has_prose(line)
        emoji = unicodedata.category(stripped[0]) == "So"
        if log or emoji or (table and TABLE_ROW.match(line)):
            _comment_out(lines, index, index + 1)
    return "\n".join(lines)


# A repr printed without commas between its entries (diffusers' `PipelineState(`
# then `'prompt': 'a cat'` and `'guidance_scale': 7.0` on the lines after): a call
# of a class at the margin, up to its `)` there, with no double-quoted string (Python
# prints strings in single quotes), and no entry line in it ending with a comma. A
# single comma missing among others is a typo, and stays reported.
REPR_OPENER = LazyPattern(r"[A-Z]\w*\([ \t]*$")
REPR_ENTRY = LazyPattern(r"[ \t]+(?:'[^'\n]*'|[A-Za-z_]\w*)[ \t]*[:=][ \t]*\S")
REPR_ENTRIES = 2


def _repr_commas(source: str) -> str:
    lines = source.split("\n")
    closers: list[int | None] = [None] * len(lines)  # each line's next `)` at the margin
    closer: int | None = None
    for index in range(len(lines) - 1, -1, -1):
        closers[index] = closer
        closer = index if lines[index].startswith(")") else closer
    start = 0
    while start < len(lines):
        end = closers[start]
        if end is None or not REPR_OPENER.match(lines[start]):
            start += 1
            continue
        _commas_added(lines, start, end)
        start = end
    return "\n".join(lines)


def _commas_added(lines: list[str], start: int, end: int) -> None:
    if any('"' in lines[k] for k in range(start, end)):
        return
    entries = [
        k
        for k in range(start + 1, end)
        if REPR_ENTRY.match(lines[k]) and not lines[k].rstrip().endswith(("{", "(", "["))
    ]
    if len(entries) >= REPR_ENTRIES and not any(lines[k].rstrip().endswith(",") for k in entries):
        for k in entries:
            lines[k] = lines[k].rstrip() + ","


# A diff shown in a Python fence: `-` lines (the old code) and `+` lines (the new)
# at the margin, both; read as the new code.
DIFF_LINE = LazyPattern(r"^([-+])(?=[ \t]|[A-Za-z_])", re.MULTILINE)
DIFF_HEADER = LazyPattern(r"(?:---|\+\+\+)[ \t]|@@[ \t]")


def _diff_applied(source: str) -> str:
    markers = {match.group(1) for match in DIFF_LINE.finditer(source)}
    if markers != {"-", "+"}:
        return source
    lines = source.split("\n")
    for index, line in enumerate(lines):
        if DIFF_HEADER.match(line) or (DIFF_LINE.match(line) and line.startswith("-")):
            lines[index] = "# " + line
        elif DIFF_LINE.match(line):
            lines[index] = line[1:]
    return "\n".join(lines)


# An edit block in a Python fence (aider's SEARCH/REPLACE format, git's conflict
# markers): a line of seven `<` or `>` (`<<<<<<< SEARCH`, `<<<<<<< ORIGINAL`,
# `<<<<<<< HEAD`), the old lines, `=======`, the new lines, seven `>` or `<` again
# (`>>>>>>> REPLACE`, `>>>>>>> UPDATED`); a file's name may stand on the line before.
EDIT_MARKER = LazyPattern(r"(?:<{7}|>{7})(?:[ \t]+\S.*)?")
EDIT_SEPARATOR = LazyPattern(r"={7}[ \t]*")
EDIT_FILE_NAME = LazyPattern(r"[\w.\-]+(?:/[\w.\-]+)*\.\w+[ \t]*")


def _edit_blocks_applied(source: str) -> str:
    """Each edit block read as its new code, where that parses by itself at the
    margin (the excerpt of a file it replaces); the file name, the markers and the
    old lines as comments, and the new lines too where they are a fragment (an edit
    may start or end anywhere in a file). Lines outside the blocks are left as they
    are, so an error there is still found."""
    import textwrap

    lines = source.split("\n")
    index = 0
    while index < len(lines):
        end = _edit_block_end(lines, index)
        if end is None:
            index += 1
            continue
        separator = next(k for k in range(index + 1, end) if EDIT_SEPARATOR.fullmatch(lines[k]))
        if index > 0 and EDIT_FILE_NAME.fullmatch(lines[index - 1].strip()):
            _comment_out(lines, index - 1, index)
        new = textwrap.dedent("\n".join(lines[separator + 1 : end]))
        _comment_out(lines, index, separator + 1)
        if _first_error(new) is None:
            lines[separator + 1 : end] = new.split("\n")[: end - separator - 1]
        else:
            _comment_out(lines, separator + 1, end)
        _comment_out(lines, end, end + 1)
        index = end + 1
    return "\n".join(lines)


def _edit_block_end(lines: list[str], start: int) -> int | None:
    """The closing marker's index of the edit block that opens at `start`: one
    separator line between the two markers, None where no block opens there."""
    if not EDIT_MARKER.fullmatch(lines[start]):
        return None
    separators = 0
    for index in range(start + 1, len(lines)):
        if EDIT_SEPARATOR.fullmatch(lines[index]):
            separators += 1
        elif EDIT_MARKER.fullmatch(lines[index]):
            return index if separators == 1 else None
    return None


# `"skills": ["pptx"]` then `# or` then `"skills": ["pptx", "xlsx"]`: alternatives
# shown in one dict or call, a comment between them; the later ones read as comments.
ALTERNATIVE = LazyPattern(r"[ \t]*#[ \t]*(?:or|OR|Or)\b[ \t:,.]*$")


def _alternatives_dropped(source: str) -> str:
    lines = source.split("\n")
    before = ""  # the last code line seen
    index = 0
    while index < len(lines):
        line = lines[index]
        after = index + 1
        if (
            ALTERNATIVE.match(line)
            and before
            and after < len(lines)
            and _code(lines[after])
            and _indent(lines[after]) == _indent(before)
        ):
            end = after  # the alternative: up to a blank line or a line indented less
            while (
                end < len(lines) and lines[end].strip() and _indent(lines[end]) >= _indent(before)
            ):
                end += 1
            _comment_out(lines, after, end)
            index = end
            continue
        before = line if _code(line) else before
        index += 1
    return "\n".join(lines)


# `def __init__(self, ..., vae, transformer, ...):`: parameters left out of a
# signature, each a plain parameter, or one with a default after a default.
DEF_HEADER = LazyPattern(
    r"^([ \t]*(?:async[ \t]+)?def[ \t]+\w+[ \t]*\()(.*)(\)[^()]*:.*)$", re.MULTILINE
)
ELIDED_PARAMETER = re.compile(r"(?<=[(,])([ \t]*)\.\.\.(?=[ \t]*(?:,|$))")


def _elided_parameters_named(source: str) -> str:
    count = 0

    def parameters(match: re.Match[str]) -> str:
        text = "(" + match.group(2)

        def named(elided: re.Match[str]) -> str:
            nonlocal count
            count += 1
            default = "=..." if "=" in text[: elided.start()] else ""
            return f"{elided.group(1)}__p{count}{default}"

        return match.group(1) + ELIDED_PARAMETER.sub(named, text)[1:] + match.group(3)

    return DEF_HEADER.compiled.sub(parameters, source)


SKETCH_CONVENTIONS = (
    _edit_blocks_applied,
    _other_files_commented,
    _prose_regions_commented,
    _dedented,
    _excerpts_dedented,
    _notebook_outputs,
    _printed_output,
    _output_lines,
    _repr_commas,
    _diff_applied,
    _alternatives_dropped,
    _comment_bodies,
    _elided_handlers,
    _handlers_without_try,
    _branch_without_if,
    _decorators_alone,
    _catalogued_decorators,
    _elided_values_filled,
    _placeholders_filled,
    _annotations_dropped,
    _call_returns_dropped,
    _return_arrows_joined,
    _elided_parameters_named,
    _elided_entries_named,
    _elided_arguments_named,
    _dict_entries_assigned,
)

# `policy.path=your-org/checkpoint`, `--steps=100`: a program's command-line settings
# (draccus, Hydra, argparse), no spaces about `=`, a dotted key or a `--` flag.
CLI_OVERRIDE = LazyPattern(
    r"(?:--[\w\-.]+(?:=\S+)?|[A-Za-z_][\w\-]*(?:\.[\w\-]+)+=[^\s\"'()\[\]{}]+)(?:[ \t]+\\)?"
)


def _cli_overrides_only(source: str) -> bool:
    """`policy.vlm_base=Qwen/Qwen2.5-VL-3B-Instruct` in a `python` fence: settings to
    pass a script, the fence's language wrong, not its code."""
    lines = [line.strip() for line in source.split("\n") if _code(line)]
    return bool(lines) and all(CLI_OVERRIDE.fullmatch(line) for line in lines)


# A command line: a program that runs scripts or installs packages, then an argument
# that no Python expression continues with (a file, a flag, a sub-command word); an
# `=` only in a version specifier (`maxim-py>=3.6.2`, `x==1`, `"camel-ai[rag]==0.2.22"`).
SHELL_COMMAND = LazyPattern(
    r"(?:python3?|pip3?|uv|uvx|poetry|pipx|conda|npm|npx|pnpm|yarn|node|git|make|docker|"
    r"curl|wget|bash|sh|cd|export|sudo|brew|apt(?:-get)?)[ \t]+[\w./\-~\"']"
    r"(?:[^=]|(?<=[\w\-.\]])==|(?<=[\w\-.\]][<>~!])=)*$"
)


# Any program's command line: a lower-case name (`neo4j`, `redis-server`), then words,
# flags and paths only (`neo4j start`, `ollama serve --port 8080`). Two names side by
# side are never Python, unless the first is a keyword or Python 2's `print`/`exec`.
BARE_COMMAND = LazyPattern(r"[a-z][\w.\-]*(?:[ \t]+(?:--?[\w\-]+(?:=[^\s\"'()]+)?|[\w./\-~:@]+))+")
PYTHON_2_STATEMENTS = frozenset({"print", "exec"})


def _shell_commands_only(source: str) -> bool:
    """`python plan_customization.py` alone in a `python` fence: every code line is a
    command line, so the fence's language is wrong, not its code (a shell session,
    which a reader runs in a terminal; a notebook's cell turned into a page)."""
    lines = [line.strip() for line in source.split("\n") if _code(line)]
    return bool(lines) and all(
        SHELL_COMMAND.fullmatch(line) or _bare_command(line) for line in lines
    )


def _bare_command(line: str) -> bool:
    import keyword

    program = line.split()[0]
    if keyword.iskeyword(program) or program in PYTHON_2_STATEMENTS:
        return False
    return BARE_COMMAND.fullmatch(line) is not None


ELISION_LINE = LazyPattern(r"^\s*\.\.\.\s*(?:#.*)?$|:\s*\.\.\.\s*(?:#.*)?$|\(\s*\.\.\.\s*\)")
SKETCH_LEAST = 3  # elided lines in a sketch, and at least one in SKETCH_SHARE of its lines
SKETCH_SHARE = 5


def _sketch(source: str) -> bool:
    """A sketch of a module, not a program: `...` stands for a body or the arguments on
    at least three lines and on one line in five (a prompt's or a spec's outline of
    the code to write, whose loose syntax is no defect)."""
    lines = [line for line in source.split("\n") if _code(line)]
    elided = sum(1 for line in lines if ELISION_LINE.search(line))
    return elided >= SKETCH_LEAST and elided * SKETCH_SHARE >= len(lines)


def _without_elisions(source: str) -> str:
    """The source with the names and arguments an outline leaves out as `...` filled
    in: `import ...` imports `__`, `(A, ...)` imports `A`, `f(...)` takes `*__`."""
    source = ELIDED_IMPORT.sub("import __", source)

    def members(match: re.Match[str]) -> str:
        kept = [m for m in match.group(2).split(",") if m.strip() not in ("", "...")]
        return match.group(1) + (",".join(kept) or "__") + ")"

    source = IMPORT_LIST.sub(members, source)
    return ELIDED_ARGUMENTS.sub(
        lambda match: "(*__)" if match.group(0).startswith("(") else ", *__", source
    )


def _with_bodies(source: str) -> str:
    """The source with `...` after each block opener that has no indented body."""
    return _bodies_added(source)[0]


def _bodies_added(source: str) -> tuple[str, list[int]]:
    """`_with_bodies`, and for each of its lines the index of the source line it is
    (an added body: its opener's)."""
    lines = source.split("\n")
    out = []
    origins = []
    for index, line in enumerate(lines):
        out.append(line)
        origins.append(index)
        if not BLOCK_OPENER.search(line) or not line.strip():
            continue
        # A comment under `try:` is no body (the snippet fails when pasted): kept as one.
        following = next((later for later in lines[index + 1 :] if later.strip()), "")
        indent = len(line) - len(line.lstrip())
        if len(following) - len(following.lstrip()) <= indent:
            out.append(" " * (indent + 4) + "...")  # on its own line: after a comment too
            origins.append(index)
    return "\n".join(out), origins


def _in_fstring(source: str, error: SyntaxError) -> bool:
    """The error is on a line with an f-string: newer f-string syntax, perhaps."""
    lines = source.split("\n")
    index = (error.lineno or 1) - 1
    line = lines[index] if 0 <= index < len(lines) else ""
    return bool(FSTRING.search(line)) or (error.msg or "").startswith("f-string")


def _code(line: str) -> bool:
    """A line with code on it (a comment-only line is no block's body)."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _first_code_line(source: str) -> str:
    return next((line.strip() for line in source.split("\n") if _code(line)), "")


def _parses(source: str) -> bool:
    import ast

    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    return True
