"""`guidelint run --html DIR`: one static page per run, the images copied beside it.

The folder is self-contained (a CI artifact keeps it whole): `index.html` and
`images/`. Everything an example produced is escaped, and a Content-Security-Policy
lets only this page's own script and style run, so hostile output stays text.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from html import escape
from pathlib import Path

from guidelint.confine import copy_into, open_dir, open_subdir, write_at
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
figcaption { font-size: .85em; }
"""

SCRIPT = """
const boxes = document.querySelectorAll('#filters input');
function apply() {
  const shown = new Set([...boxes].filter(b => b.checked).map(b => b.value));
  for (const ex of document.querySelectorAll('.example'))
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
        write_at(folder_fd, PAGE, _page(report, sections).encode("utf-8"))
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
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<meta http-equiv='Content-Security-Policy' content=\"{policy}\">"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>guidelint run: {escape(summary_line(report))}</title>"
        f"<style>{STYLE}</style></head><body>"
        f"<header><h1>guidelint run</h1><p id='summary'>{escape(summary_line(report))}</p>"
        f"{_filters(report)}</header>"
        + (f"<ul id='notes'>{notes}</ul>" if notes else "")
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
    if len(text) > MAX_TEXT:
        text = f"[... {len(text) - MAX_TEXT} characters cut ...]\n" + text[-MAX_TEXT:]
    return escape(text)
