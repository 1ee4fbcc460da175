"""`guidelint run --html DIR`: one static page per run, the images copied beside it.

The folder is self-contained (a CI artifact keeps it whole): `index.html` and
`images/`. The page opens with the verdict and a table of every example, failures
first, each linked to its section. Everything an example produced is escaped, and
a Content-Security-Policy lets only this page's own script and style run, so
hostile output stays text; terminal output is shown as a terminal would leave it
(colour and cursor escapes dropped, a line redrawn after `\r` shown as last drawn).
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from html import escape
from pathlib import Path

from guidelint.confine import copy_into, open_dir, open_subdir, write_at
from guidelint.printable import encodable, printable
from guidelint.runner.keep import MAX_IMAGE_BYTES
from guidelint.runner.outcomes import ExampleResult, Outcome
from guidelint.runner.reports import MARKS, summary_line
from guidelint.runner.run import RunReport

PAGE = "index.html"
IMAGES = "images"
OUR_COPY = re.compile(r"[0-9]{4}-[0-9]{2}\.\w+")  # the names _copy_images gives
# Tail kept per example, as in the other reports: a page must open, whatever was printed.
MAX_TEXT = 20000

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 75em; padding: 1em; }
header { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ccc; }
#filters label { margin-right: 1em; white-space: nowrap; }
.example { border: 1px solid #ccc; border-left-width: 6px; margin: 1em 0; padding: .2em 1em; }
.example[hidden] { display: none; }
.bad { border-left-color: #c62828; } .good { border-left-color: #2e7d32; }
.soft { border-left-color: #9e9e9e; }
h2 { font-size: 1.05em; } h2 .mark { font-family: monospace; margin-right: .6em; }
pre { background: #f6f8fa; overflow-x: auto; padding: .5em; margin: .3em 0; }
.src .ln { color: #888; display: inline-block; width: 3.5em; user-select: none; }
figure { display: inline-block; margin: .3em; text-align: center; }
figure img { max-width: 240px; max-height: 240px; border: 1px solid #ccc; }
/* A 16x16 image is a speck: shown at least 128px, its pixels kept sharp. */
figure img { min-width: 128px; min-height: 128px; object-fit: contain;
  image-rendering: pixelated; background: #fafafa; }
figcaption { font-size: .85em; }
#summary { font-size: 1.3em; font-weight: bold; padding: .3em .6em; border-radius: 4px; }
#summary.failed { background: #ffebee; color: #b71c1c; }
#summary.ok { background: #e8f5e9; color: #1b5e20; }
#overview { border-collapse: collapse; margin: 1em 0; width: 100%; }
#overview th, #overview td { border-bottom: 1px solid #ddd; padding: .25em .6em;
  text-align: left; vertical-align: top; }
#overview td.mark { font-family: monospace; white-space: nowrap; }
#overview tr.bad td.mark { color: #b71c1c; font-weight: bold; }
#overview td.reason { color: #555; }
#counts td.count { text-align: right; } #counts tr.bad td { color: #b71c1c; font-weight: bold; }
"""

SCRIPT = """
const boxes = document.querySelectorAll('#filters input');
function apply() {
  const shown = new Set([...boxes].filter(b => b.checked).map(b => b.value));
  for (const ex of document.querySelectorAll('.example, #overview tr[data-status]'))
    ex.hidden = !shown.has(ex.dataset.status);
}
boxes.forEach(b => b.addEventListener('change', apply));
apply();
"""


def write_html(report: RunReport, folder: Path) -> Path:
    """Write the page and copy the images it shows; returns the page's path.

    `folder` must lie inside the project root or be guidelint's own
    (guidelint/confine.py), and nothing in it is written through a symlink: an
    `index.html` or `images` planted as a link is an error, not a way out.
    """
    root = report.root or Path.cwd()
    folder = folder.absolute()  # as given on the command line: relative to the cwd
    folder_fd = open_dir(root, folder, "HTML report folder")
    try:
        images = open_subdir(folder_fd, IMAGES)
        try:
            for old in os.listdir(images):
                if OUR_COPY.fullmatch(old):  # a previous report's (DIR may hold other files)
                    os.unlink(old, dir_fd=images)
            sections = [
                _section(index, result, _copy_images(index, result, images))
                for index, result in enumerate(report.results, 1)
            ]
        finally:
            os.close(images)
        # A guide's file name that is not UTF-8 (`caf\xe9.md`) is shown escaped, as in the
        # text report: its lone surrogates cannot be written (a UnicodeEncodeError).
        write_at(folder_fd, PAGE, encodable(_page(report, sections)).encode("utf-8"))
    finally:
        os.close(folder_fd)
    return Path(os.path.normpath(folder)) / PAGE


def _copy_images(index: int, result: ExampleResult, images: int) -> list[tuple[str, str | None]]:
    """Copy the example's kept images: (kept path, path relative to the page or None)."""
    copied: list[tuple[str, str | None]] = []
    for number, image in enumerate(result.images, 1):
        name = f"{index:04d}-{number:02d}{Path(image).suffix.lower()}"
        if _copy_one(image, images, name):
            copied.append((image, f"{IMAGES}/{name}"))
        else:  # removed since the run: the page names it without a picture
            copied.append((image, None))
    return copied


def _copy_one(image: str, images: int, name: str) -> bool:
    try:
        source = os.open(image, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        return copy_into(source, images, name, MAX_IMAGE_BYTES)
    except OSError:
        return False
    finally:
        os.close(source)


def _page(report: RunReport, sections: list[str]) -> str:
    policy = (
        "default-src 'none'; img-src 'self'; "
        f"style-src '{_digest(STYLE)}'; script-src '{_digest(SCRIPT)}'"
    )
    notes = "".join(f"<li>{escape(note)}</li>" for note in [*report.unreadable, *report.notes])
    verdict = "ok" if report.ok else "failed"
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<meta http-equiv='Content-Security-Policy' content=\"{policy}\">"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>guidelint run: {escape(summary_line(report))}</title>"
        f"<style>{STYLE}</style></head><body>"
        f"<header><h1>guidelint run</h1><p id='summary' class='{verdict}'>"
        f"{escape(summary_line(report))}</p>"
        f"{_filters(report)}</header>"
        + (f"<ul id='notes'>{notes}</ul>" if notes else "")
        + _counts(report)
        + _overview(report)
        + "".join(sections)
        + f"<script>{SCRIPT}</script></body></html>\n"
    )


def _digest(text: str) -> str:
    """A CSP source that allows exactly this inline text."""
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def _filters(report: RunReport) -> str:
    boxes = [
        f"<label><input type='checkbox' value='{outcome.value}' checked> "
        f"{escape(outcome.value)} ({count})</label>"
        for outcome, count in report.counts().items()
        if count
    ]
    return f"<p id='filters'>Show: {''.join(boxes)}</p>"


def _counts(report: RunReport) -> str:
    """How many examples ended with each outcome, the ones that fail the run first."""
    counts = [(outcome, n) for outcome, n in report.counts().items() if n]
    counts.sort(key=lambda pair: pair[0].ok)  # stable: enum order within each group
    rows = "".join(
        f"<tr class='{_tone(outcome)}'><td>{escape(outcome.value)}</td>"
        f"<td class='count'>{n}</td></tr>"
        for outcome, n in counts
    )
    return f"<table id='counts'><tr><th>Outcome</th><th>Examples</th></tr>{rows}</table>"


def _overview(report: RunReport) -> str:
    """One row per example, failures first (then in file order), linked to its section."""
    numbered = list(enumerate(report.results, 1))
    numbered.sort(key=lambda pair: (pair[1].status.ok, pair[0]))
    rows = []
    for index, result in numbered:
        label = f"{result.path}:{result.line}"
        reason = terminal_text(result.message).strip().split("\n")[0] if result.message else ""
        rows.append(
            f"<tr class='{_tone(result.status)}' data-status='{result.status.value}'>"
            f"<td class='mark'>{escape(MARKS[result.status])}</td>"
            f"<td><a href='#example-{index}'>{escape(label)}</a></td>"
            f"<td>{result.duration_s:.2f}s</td><td class='reason'>{escape(reason[:200])}</td></tr>"
        )
    return (
        "<table id='overview'><tr><th>Outcome</th><th>Example</th><th>Time</th>"
        f"<th>Message</th></tr>{''.join(rows)}</table>"
    )


def _section(index: int, result: ExampleResult, images: list[tuple[str, str | None]]) -> str:
    label = f"{result.path}:{result.line}"
    name = f" [{result.id}]" if result.id != label else ""
    parts = [
        f"<section class='example {_tone(result.status)}' id='example-{index}' "
        f"data-status='{result.status.value}'>",
        f"<h2><span class='mark'>{escape(MARKS[result.status])}</span>{escape(label)}"
        f"{escape(name)} <small>({result.duration_s:.2f}s)</small></h2>",
    ]
    if result.message:
        parts.append(f"<pre class='message'>{_text(result.message)}</pre>")
    if result.details.strip():
        parts.append(
            f"<details><summary>stderr / traceback</summary><pre>{_text(result.details)}</pre>"
        )
        parts.append("</details>")
    if result.source:
        parts.append(f"<h3>Source</h3><pre class='src'>{_numbered(result)}</pre>")
    if result.stdout:
        parts.append(f"<h3>Output</h3><pre class='stdout'>{_text(result.stdout)}</pre>")
    if result.substitutions:
        items = "".join(f"<li>{escape(s)}</li>" for s in result.substitutions)
        parts.append(f"<h3>Substitutions</h3><ul class='substitutions'>{items}</ul>")
    if result.images:
        parts.append("<h3>Images</h3>" + _figures(images))
    parts.append("</section>")
    return "".join(parts)


def _tone(status: Outcome) -> str:
    if not status.ok:
        return "bad"
    return "good" if status in (Outcome.PASSED, Outcome.PENDING_PASSED) else "soft"


def _numbered(result: ExampleResult) -> str:
    lines = result.source.rstrip("\n").split("\n")
    return "\n".join(
        f"<span class='ln'>{result.source_line + offset}</span>{escape(line)}"
        for offset, line in enumerate(lines)
    )


def _figures(images: list[tuple[str, str | None]]) -> str:
    figures = []
    for original, relative in images:
        name = escape(Path(original).name)
        if relative is None:
            figures.append(f"<p class='gone'>{escape(original)} (no longer on disk)</p>")
            continue
        href = escape(relative, quote=True)
        figures.append(
            f"<figure><a href='{href}' target='_blank'><img src='{href}' alt='{name}'>"
            f"</a><figcaption>{name}</figcaption></figure>"
        )
    return "".join(figures)


def _text(text: str) -> str:
    text = terminal_text(text)
    if len(text) > MAX_TEXT:
        text = f"[... {len(text) - MAX_TEXT} characters cut ...]\n" + text[-MAX_TEXT:]
    return escape(text)


# ANSI escapes: CSI (colours, cursor moves: `\x1b[31m`, `\x1b[2K`), OSC (titles,
# links: `\x1b]8;;url\x07`), and the two-character ones (`\x1b(B`, `\x1b=`).
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[ -/]*[0-~]"
    r"|\x9b[0-?]*[ -/]*[@-~]"
)


def terminal_text(text: str) -> str:
    """Terminal output as a terminal would leave it on screen: escapes dropped, a
    line redrawn after `\r` (a progress bar) shown as last drawn, any other
    control character written as an escape (`\x07`)."""
    if text.isprintable():
        return text
    text = _ANSI.sub("", text.replace("\r\n", "\n"))
    lines = []
    for line in text.split("\n"):
        drawn = [part for part in line.split("\r") if part]
        line = drawn[-1] if drawn else ""
        lines.append(line if line.isprintable() else "".join(_visible(c) for c in line))
    return "\n".join(lines)


def _visible(char: str) -> str:
    return char if char == "\t" or char.isprintable() else printable(char)
