"""Text from files and servers made safe to print as one line of a report.

A file name with a newline would forge a report line, an ANSI escape in a tool name
would repaint the terminal, and a non-UTF-8 file name (held as a lone surrogate)
cannot be written at all: each is shown as an escape instead.
"""

from __future__ import annotations


def printable(text: str) -> str:
    """`text` with control characters as `\\n`, `\\x1b`, ... and undecodable bytes
    of a file name as `\\xe9`; ordinary text comes back unchanged (and fast)."""
    if text.isprintable():
        return text
    return "".join(_escape(char) for char in text)


def encodable(text: str) -> str:
    """Only the undecodable bytes of a file name escaped: for JSON and SARIF, whose
    own escaping already covers control characters."""
    if text.isprintable() or not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return text
    return "".join(_escape(c) if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def _escape(char: str) -> str:
    if char.isprintable() or char == " ":
        return char
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    return repr(char)[1:-1]


def log_safe(text: str) -> str:
    """Text an example produced, made safe for a CI log, over several lines: each line
    `printable` (a CR cannot overwrite a line, an OSC or ANSI escape cannot reach the
    terminal), and no line a GitHub runner would take as a workflow command
    (`::error::`, `::add-mask::`, `::stop-commands::`, and the older `##[error]`
    anywhere in a line): such a line starts with a backslash."""
    lines = []
    for line in text.split("\n"):
        line = printable(line).replace("##[", "#\\#[")
        lines.append("\\" + line if line.strip().startswith("::") else line)
    return "\n".join(lines)
