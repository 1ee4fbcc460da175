"""`guidelint run --html DIR` in a real headless browser (Debian's chromium, via Playwright).

The page must render, its images load from the folder itself (copied there, so the
folder is a self-contained CI artifact), the outcome filter must hide and show
examples, and an example's hostile output must stay text.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

GUIDE = """# A guide with pictures

```python {id=draws}
from PIL import Image

image = Image.new("RGB", (96, 64))
image.putdata([(x * 2, y * 3, 160) for y in range(64) for x in range(96)])
image.save("gradient.png")
print("saved gradient.png")
```

```python {id=hostile}
print("<script>window.pwned = 1</script><img src=x onerror='window.pwned = 2'>")
raise SystemExit("</pre><b id=injected>bold</b>")
```

```python {id=speck}
import sys

from PIL import Image

Image.new("RGB", (16, 16), (200, 30, 30)).save("speck.png")
sys.stderr.write("\\x1b[33mwarning\\x1b[0m: colours\\r\\n 10%|#  |\\r100%|###|\\n")
```

<!-- guidelint: skip -->
```python {id=later}
print("not now")
```
"""


def _chromium() -> str | None:
    found = os.environ.get("GUIDELINT_CHROMIUM") or shutil.which("chromium")
    if found is None and os.environ.get("CI"):
        pytest.fail("CI must test the HTML report in chromium (.ci/run installs it)")
    return found


@pytest.fixture(scope="module")
def report_folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("guide")
    (root / "pyproject.toml").write_text("[tool.guidelint]\n")
    (root / "guide.md").write_text(GUIDE)
    html = root / "html"
    (html / "images").mkdir(parents=True)
    (html / "images" / "0007-01.png").write_bytes(b"a previous report's copy")
    (html / "images" / "logo.png").write_bytes(b"someone else's file")
    done = subprocess.run(
        [sys.executable, "-m", "guidelint", "run", "guide.md", "--html", str(html), "-q"],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert done.returncode == 1, done.stderr  # the hostile example fails the run
    assert f"HTML report: {html / 'index.html'}" in done.stderr
    return html


def test_the_folder_is_self_contained(report_folder):
    page = (report_folder / "index.html").read_text()
    image, speck = sorted((report_folder / "images").glob("[0-9]*.png"))
    assert image.read_bytes().startswith(b"\x89PNG")
    assert f"src='images/{image.name}'" in page
    assert "http" not in page.replace("http-equiv", "")  # no CDN, nothing fetched
    # A previous report's copies are replaced; other files in the folder are left alone.
    assert sorted(p.name for p in (report_folder / "images").iterdir()) == [
        image.name,
        speck.name,
        "logo.png",
    ]


def test_hostile_output_is_escaped_in_the_source(report_folder):
    page = (report_folder / "index.html").read_text()
    assert "<script>window.pwned" not in page
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt;" in page
    assert page.count("<script>") == 1  # the page's own filter


@pytest.fixture(scope="module")
def browser_page(report_folder):
    chromium = _chromium()
    if chromium is None:
        pytest.skip("no chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto((report_folder / "index.html").as_uri())
        page.wait_for_load_state("load")
        yield page, errors
        browser.close()


def test_the_page_renders_every_example(browser_page):
    page, errors = browser_page
    assert page.locator(".example").count() == 4
    assert "FAILED: 4 example(s)" in page.locator("#summary").inner_text()
    source = page.locator("#example-1 .src").inner_text()
    assert source.splitlines()[0] == "4from PIL import Image"  # Markdown line numbers
    assert errors == []  # the Content-Security-Policy blocked nothing of the page's own


def test_images_load(browser_page):
    page, _ = browser_page
    image = page.locator("#example-1 figure img")
    assert image.evaluate("img => img.complete && img.naturalWidth") == 96
    assert image.locator("xpath=..").get_attribute("href") == image.get_attribute("src")


def test_hostile_output_stays_text(browser_page):
    page, _ = browser_page
    assert page.evaluate("window.pwned") is None
    assert page.locator("#injected").count() == 0
    stdout = page.locator("#example-2 .stdout").inner_text()
    assert "<script>window.pwned = 1</script>" in stdout


def test_filtering_by_outcome(browser_page, tmp_path):
    page, _ = browser_page
    visible = page.locator(".example:visible")
    assert visible.count() == 4
    page.get_by_label("passed (2)", exact=True).uncheck()
    page.get_by_label("skipped (1)", exact=True).uncheck()
    assert visible.count() == 1
    assert visible.first.get_attribute("data-status") == "error"
    assert page.locator("#overview tr[data-status]:visible").count() == 1  # the table too
    page.get_by_label("passed (2)", exact=True).check()
    assert sorted(e.get_attribute("data-status") for e in visible.all()) == [
        "error",
        "passed",
        "passed",
    ]
    page.get_by_label("skipped (1)", exact=True).check()
    shot = tmp_path / "report.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes().startswith(b"\x89PNG")


def test_the_page_opens_with_the_verdict_and_the_failures_first(browser_page):
    page, _ = browser_page
    summary = page.locator("#summary")
    assert summary.get_attribute("class") == "failed"
    assert summary.evaluate("e => getComputedStyle(e).fontWeight") == "700"
    counts = page.locator("#counts tr").all_inner_texts()
    assert [row.split("\t") for row in counts] == [
        ["Outcome", "Examples"],
        ["error", "1"],
        ["passed", "2"],
        ["skipped", "1"],
    ]
    rows = page.locator("#overview tr[data-status]")
    assert [r.get_attribute("data-status") for r in rows.all()] == [
        "error",
        "passed",
        "passed",
        "skipped",
    ]
    first = rows.first.locator("a")
    assert first.inner_text() == "guide.md:12"
    first.click()
    assert page.evaluate("location.hash") == "#example-2"
    reason = rows.first.locator(".reason").inner_text()
    assert reason == "the example exited with status </pre><b id=injected>bold</b>"  # as text
    # The table comes before every example.
    above = page.evaluate(
        "document.querySelector('#overview').getBoundingClientRect().top"
        " < document.querySelector('.example').getBoundingClientRect().top"
    )
    assert above


def test_a_small_image_is_shown_at_a_visible_size(browser_page):
    page, _ = browser_page
    speck = page.locator("#example-3 figure img")
    assert speck.evaluate("img => img.naturalWidth") == 16
    box = speck.bounding_box()
    assert box["width"] >= 128 and box["height"] >= 128
    assert speck.evaluate("img => getComputedStyle(img).imageRendering") == "pixelated"


def test_terminal_output_is_text_without_escapes(browser_page, report_folder):
    page, _ = browser_page
    page.locator("#example-3 details summary").click()  # unfold stderr
    shown = page.locator("#example-3 details pre").inner_text()
    assert "warning: colours" in shown and "100%|###|" in shown
    assert "\x1b" not in shown and "[33m" not in shown and "10%|#" not in shown
    assert "\x1b" not in (report_folder / "index.html").read_text()
