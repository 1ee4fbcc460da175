"""Properties: `gotcha add` leaves a clean file; `--fix` twice equals `--fix` once."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guidelint.api import lint_files
from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.fixes import fix_file
from guidelint.gotchas.add_plan import plan_add
from guidelint.gotchas.authoring import NewEntry, Refusal
from guidelint.gotchas.parse import parse_gotchas
from guidelint.project import Project

GOTCHAS = ".claude/rules/gotchas.md"
WORDS = (
    "smoke gate floor slice realized cap epoch batch seed loader checkpoint save step "
    "geometry tokenizer shard cache queue gpu memory eval metric warmup schedule lora "
    "adapter merge export manifest registry workspace sampler prompt template budget"
).split()
# A longer bug hunt: GOTCHAS_HYPOTHESIS_EXAMPLES=500 pytest tests/gotchas/test_gotchas_hypothesis.py
EXAMPLES = int(os.environ.get("GOTCHAS_HYPOTHESIS_EXAMPLES", "20"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

headline = st.lists(st.sampled_from(WORDS), min_size=3, max_size=6, unique=True).map(
    lambda words: " ".join(words).capitalize()
)
body = st.lists(
    st.sampled_from(WORDS + ["(see", "notes)", "x=1,", "`cfg.yaml`"]), min_size=1, max_size=12
).map(" ".join)
entry = st.tuples(
    headline, body, st.integers(1, 99999), st.sampled_from([None, "Training", "Eval"])
)
layout = st.fixed_dictionaries(
    {"crlf": st.booleans(), "table": st.booleans(), "index_first": st.booleans()}
)


def initial_text(style: dict) -> str:
    index = "| Lesson |\n|---|\n" if style["table"] else ""
    index_section = f"## LESSONS index\n\n{index}" if index else "## LESSONS index\n"
    if style["index_first"]:
        text = f"# Gotchas\n\nIntro.\n\n{index_section}\n## Lessons\n\nLessons follow.\n"
    else:
        text = f"# Gotchas\n\nIntro.\n\n## Lessons\n\nLessons follow.\n\n{index_section}"
    return text.replace("\n", "\r\n") if style["crlf"] else text


def engine(root: Path) -> Engine:
    config = Config(select=["GL2"])
    return Engine(Project(root, config), build_selection(config))


def add_all(root: Path, entries) -> int:
    """Add each entry through `gotcha add`'s planner and write it; return how many went in."""
    added = 0
    for head, text, issue, section in entries:
        project = Project(root, Config())
        try:
            new = NewEntry(head, text, (f"#{issue}",), None, section)
            plan = plan_add(project, GOTCHAS, new, lint_files)
        except Refusal as refusal:
            assert "repeats entry" in str(refusal), str(refusal)
            continue
        for rel, new_text in plan.texts.items():
            (root / rel).write_bytes(new_text.encode("utf-8"))
        added += 1
    return added


@SETTINGS
@given(style=layout, entries=st.lists(entry, min_size=1, max_size=6))
def test_add_then_check_is_clean(style, entries):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path = root / GOTCHAS
        path.parent.mkdir(parents=True)
        path.write_bytes(initial_text(style).encode())
        added = add_all(root, entries)
        assert added >= 1
        assert engine(root).check_file(GOTCHAS) == []
        data = path.read_bytes()
        if style["crlf"]:
            assert b"\n" not in data.replace(b"\r\n", b"")
        else:
            assert b"\r" not in data
        assert len(parse_gotchas(data.decode()).entries) == added


@SETTINGS
@given(
    style=layout,
    entries=st.lists(entry, min_size=2, max_size=6),
    drop=st.integers(0, 5),
    dangling=st.booleans(),
    reverse=st.booleans(),
)
def test_fix_twice_equals_fix_once(style, entries, drop, dangling, reverse):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path = root / GOTCHAS
        path.parent.mkdir(parents=True)
        path.write_bytes(initial_text(style).encode())
        add_all(root, entries)
        clean = path.read_bytes().decode()
        drifted = drift(clean, drop, dangling, reverse)
        path.write_bytes(drifted.encode())
        check = engine(root)
        fix_file(path, lambda text: check.check_text(GOTCHAS, text))
        once = path.read_bytes()
        fix_file(path, lambda text: check.check_text(GOTCHAS, text))
        assert path.read_bytes() == once
        assert check.check_file(GOTCHAS) == []
        # The rows are a function of the entries: the fix restores what `gotcha add` wrote
        # (unless every row was lost; then blank lines around the old rows stay).
        if parse_gotchas(drifted).index.rows:
            assert once.decode() == clean
        assert parse_gotchas(once.decode()).entries == parse_gotchas(clean).entries


def drift(text: str, drop: int, dangling: bool, reverse: bool) -> str:
    """Break the index the ways hand edits do: lose a row, add a stray one, reorder."""
    index = parse_gotchas(text).index
    rows = [row.source for row in index.rows]
    newline = "\r\n" if "\r\n" in text else "\n"
    if rows:
        rows.pop(drop % len(rows))
    if reverse:
        rows.reverse()
    if dangling:
        stray = "| [Gone](#gone) |" if index.form == "table" else "- [Gone](#gone)"
        rows.append(stray)
    region = index.region
    if not rows:
        return text[: region.start] + text[region.end :]
    return text[: region.start] + newline.join(rows) + text[region.end :]
