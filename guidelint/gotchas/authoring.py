"""`gotcha add` as a function: texts in, texts out, or a one-line refusal.

The new entry goes after the last entry (of its section, when one is named).
add_plan.py generates its index row the same way `--fix` regenerates the index,
and checks the result with the GL2xx rules before anything is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from guidelint.findings import Edit, Finding, Fix, Severity
from guidelint.fixes import apply_edits
from guidelint.gotchas.headlines import headline_tokens, normalize_headline, similarity, slugify
from guidelint.gotchas.model import Entry, GotchasDocument
from guidelint.gotchas.parse import parse_gotchas
from guidelint.gotchas.provenance import issue_ids
from guidelint.spans import Span

HEX = re.compile(r"^[0-9a-fA-F]{6,64}$")


class Refusal(Exception):
    """Why an entry was not added: one line, exit code 1."""


@dataclass(frozen=True)
class NewEntry:
    headline: str
    body: str
    provenance: tuple[str, ...]
    fingerprint: str | None = None
    section: str | None = None


@dataclass
class Added:
    texts: dict[str, str]  # path (relative to the root) -> new text, for every changed file
    rel: str  # the gotchas file
    line: int  # where the new entry starts
    anchor: str
    entries: int
    row_cap: int | None
    warnings: list[Finding] = field(default_factory=list)


def validate(new: NewEntry) -> NewEntry:
    headline = " ".join(new.headline.split())
    if not normalize_headline(headline):
        raise Refusal("--headline is empty")
    if "**" in headline or "__" in headline:
        raise Refusal("--headline must not contain bold markers (** or __)")
    if not new.body.strip():
        raise Refusal("--body is empty")
    ids = []
    for value in new.provenance:
        for token in re.split(r"[\s,;]+", value.strip()):
            if not token:
                continue
            if issue_ids(token) != (token,):
                raise Refusal(f"--provenance '{token}' is not an issue id like #1489")
            ids.append(token)
    if not ids:
        raise Refusal("--provenance names no issue id (like #1489)")
    if new.fingerprint is not None and not HEX.match(new.fingerprint):
        raise Refusal(f"--fingerprint '{new.fingerprint}' is not 6-64 hex digits")
    fingerprint = new.fingerprint.lower() if new.fingerprint else None
    section = " ".join(new.section.split()) if new.section else None
    return NewEntry(headline, new.body.strip(), tuple(dict.fromkeys(ids)), fingerprint, section)


def refuse_duplicates(new: NewEntry, entries: list[Entry], threshold: float) -> None:
    tokens = headline_tokens(new.headline)
    for entry in entries:
        if new.fingerprint and entry.fingerprint == new.fingerprint:
            raise Refusal(
                f"fingerprint {new.fingerprint} is already entry '{entry.headline}' "
                f"(line {entry.line})"
            )
        score = similarity(tokens, headline_tokens(entry.headline))
        if score >= threshold:
            raise Refusal(
                f"headline repeats entry '{entry.headline}' (line {entry.line}): token "
                f"similarity {score:.2f} >= duplicate-threshold {threshold:g}; extend that "
                f"entry instead"
            )


def refuse_over_cap(entries: list[Entry], cap: int | None) -> None:
    if cap is not None and len(entries) + 1 > cap:
        oldest = entries[0]
        raise Refusal(
            f"the file holds {len(entries)} entries, its row cap is {cap}: retire or merge "
            f"one first (the oldest is '{oldest.headline}', line {oldest.line})"
        )


def entry_markdown(new: NewEntry, anchor: str, newline: str) -> str:
    """The entry as Markdown: anchor, bold headline, body, provenance; body lines indented."""
    headline = new.headline if new.headline[-1] in ".!?" else new.headline + "."
    tail = "; ".join(new.provenance)
    if new.fingerprint:
        tail += f"; fingerprint: `{new.fingerprint}`"
    lines = f'<a id="{anchor}"></a>**{headline}** {new.body} ({tail})'.split("\n")
    indented = [lines[0]] + [f"  {line}" if line.strip() else "" for line in lines[1:]]
    return "- " + newline.join(line.rstrip() for line in indented)


def new_anchor(headline: str, entries: list[Entry]) -> str:
    taken = {e.anchor for e in entries}
    base = slugify(headline)
    anchor, count = base, 0
    while anchor in taken:
        count += 1
        anchor = f"{base}-{count}"
    return anchor


def insert_entry(text: str, document: GotchasDocument, new: NewEntry, entry: str) -> Edit:
    """Where the entry goes: after the last entry of its section (or of the file)."""
    newline = document.newline
    entries = document.entries
    if new.section:
        in_section = [e for e in entries if e.section.casefold() == new.section.casefold()]
        if in_section:
            return _after(text, in_section[-1], entries, entry, newline)
        block = f"## {new.section}{newline}{newline}{entry}"
        return _new_block(text, document, block, newline)
    if entries:
        return _after(text, entries[-1], entries, entry, newline)
    return _new_block(text, document, entry, newline)


def _after(text: str, last: Entry, entries: list[Entry], entry: str, newline: str) -> Edit:
    # Keep the list's style: a blank line between entries when the file uses one.
    loose = len(entries) > 1 and _blank_between(text, entries[-2].span, entries[-1].span)
    gap = newline * (2 if loose else 1)
    return Edit(last.span.end, last.span.end, gap + entry)


def _blank_between(text: str, first: Span, second: Span) -> bool:
    return "\n\n" in text[first.end : second.start].replace("\r", "").replace(" ", "")


def _new_block(text: str, document: GotchasDocument, block: str, newline: str) -> Edit:
    """A new block before an index section that follows every entry, else at the end."""
    index = document.index
    last_entry_end = document.entries[-1].span.end if document.entries else 0
    if index is not None and index.heading_line is not None:
        heading_start = _line_start(text, index.heading_line)
        if heading_start >= last_entry_end and heading_start > 0:
            return Edit(heading_start, heading_start, block + newline + newline)
    lead = "" if not text or text.endswith("\n") else newline
    if text.strip() and not text.endswith(newline * 2):
        lead += newline
    return Edit(len(text), len(text), lead + block + newline)


def _line_start(text: str, line: int) -> int:
    offset = 0
    for _ in range(line - 1):
        offset = text.index("\n", offset) + 1
    return offset


def add_to_text(text: str, new: NewEntry, heading: str) -> tuple[str, str]:
    """The gotchas text with the entry added (its index row not yet), and its anchor."""
    document = parse_gotchas(text, heading)
    anchor = new_anchor(new.headline, document.entries)
    entry = entry_markdown(new, anchor, document.newline)
    edit = insert_entry(text, document, new, entry)
    result, _ = apply_edits(text, [Fix((edit,))])
    return result, anchor


def errors(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity is Severity.ERROR]
