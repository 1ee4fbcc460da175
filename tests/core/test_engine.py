"""Engine behaviour: selection, suppressions, severities, crash isolation, fixes."""

from __future__ import annotations

import dataclasses
import os
import stat

import pytest

from guidelint.config import Config
from guidelint.engine import Engine, build_selection, select_codes
from guidelint.findings import Edit, Fix, Severity
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.spans import Span


def engine_for(root, *extra_rules: Rule, **config) -> Engine:
    """An engine over the registry's rules plus test-only ones, placed first."""
    selection = build_selection(Config(**config))
    extra_codes = frozenset(rule.code for rule in extra_rules)
    selection = dataclasses.replace(selection, codes=selection.codes | extra_codes)
    engine = Engine(Project(root, Config(**config)), selection)
    engine.rules[:0] = extra_rules
    return engine


def test_select_longest_selector_wins():
    codes = ["GL001", "GL002", "GL501", "GL502"]
    assert select_codes(codes, ["GL"], ["GL5"]) == {"GL001", "GL002"}
    assert select_codes(codes, ["GL", "GL501"], ["GL5"]) == {"GL001", "GL002", "GL501"}
    assert select_codes(codes, ["ALL"], ["GL0"]) == {"GL501", "GL502"}
    assert select_codes(codes, ["GL501"], ["GL501"]) == set()


STALE = "# Guide\n\nRun `scripts/gone.py` now.\n"


def test_markdown_suppressions(make_project):
    root = make_project(
        {
            "scripts/real.py": "",
            "docs/a.md": "# A\n\n<!-- guidelint: disable-next-line GL501 -->\n\n"
            "Run `scripts/gone.py`.\n\nRun `scripts/gone2.py`.\n",
            "docs/b.md": "<!-- guidelint: disable GL501 -->\n`scripts/x.py`\n"
            "<!-- guidelint: enable GL501 -->\n`scripts/y.py`\n",
            "docs/c.md": "<!-- guidelint: disable-file GL5 -->\n`scripts/x.py`\n\n`scripts/z.py`\n",
        }
    )
    engine = engine_for(root)
    assert [(f.code, f.line) for f in engine.check_file("docs/a.md")] == [("GL501", 7)]
    assert [(f.code, f.line) for f in engine.check_file("docs/b.md")] == [("GL501", 4)]
    assert engine.check_file("docs/c.md") == []


def test_unused_suppression_reported_only_for_rules_that_ran(make_project):
    root = make_project(
        {
            "scripts/real.py": "",
            "docs/a.md": "<!-- guidelint: disable-next-line GL501 -->\n`scripts/real.py`\n",
            "docs/b.md": "<!-- guidelint: disable-next-line GL501 -->\n`scripts/real.py`\n",
        }
    )
    findings = engine_for(root).check_file("docs/a.md")
    assert [(f.code, f.line, f.severity) for f in findings] == [("GL002", 1, Severity.WARNING)]
    # With GL501 off for this file, the directive cannot be judged: no GL002.
    quiet = engine_for(root, per_file_ignores={"docs/b.md": ["GL501"]})
    assert quiet.check_file("docs/b.md") == []


def test_python_suppressions(make_project):
    root = make_project({"scripts/a.py": "x = 1  # guidelint: ignore[GL301]\n"})

    class Flag(Rule):
        code, name, summary, file_kinds = "GL997", "flag", "test", frozenset({"python"})

        def check(self, file, project):
            yield self.finding(file, Span(0, 1), "flagged")

    assert engine_for(root, Flag()).check_file("scripts/a.py") != []
    (root / "scripts/a.py").write_text("x = 1  # guidelint: ignore[GL997]\n")
    assert engine_for(root, Flag()).check_file("scripts/a.py") == []


def test_severity_override_and_per_file_ignores(make_project):
    root = make_project({"scripts/r.py": "", "docs/a.md": STALE, "docs/old/b.md": STALE})
    engine = engine_for(
        root, severity={"GL501": "warning"}, per_file_ignores={"docs/old/*.md": ["GL5"]}
    )
    findings = engine.check_files(["docs/a.md", "docs/old/b.md"])
    assert [(f.path, f.severity) for f in findings] == [("docs/a.md", Severity.WARNING)]


def test_crashing_rule_becomes_gl000_and_others_still_run(make_project):
    root = make_project({"scripts/r.py": "", "docs/a.md": STALE})

    class Boom(Rule):
        code, name, summary = "GL999", "boom", "test"

        def check(self, file, project):
            raise RuntimeError("kaput")

    engine = engine_for(root, Boom())
    codes = sorted(f.code for f in engine.check_file("docs/a.md"))
    assert codes == ["GL000", "GL501"]
    gl000 = next(f for f in engine.check_file("docs/a.md") if f.code == "GL000")
    assert "GL999" in gl000.message and "kaput" in gl000.message


class Upper(Rule):
    """Test rule: every code span must be upper case; fix by upper-casing."""

    code, name, summary, fixable = "GL998", "upper", "test", True

    def check(self, file, project):
        for span in file.markdown.code_spans:
            if span.content != span.content.upper():
                start, end = span.span.start + 1, span.span.end - 1
                fix = Fix((Edit(start, end, span.content.upper()),), "upper-case")
                yield self.finding(file, span.span, "not upper case", fix=fix)


def test_fix_is_atomic_idempotent_and_keeps_mode_bom_and_crlf(make_project):
    from guidelint.fixes import fix_file

    root = make_project({})
    path = root / "docs" / "a.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xef\xbb\xbf# T\r\n\r\n`abc` and `def`\r\n")
    os.chmod(path, 0o640)
    engine = engine_for(root, Upper())
    count, remaining = fix_file(path, lambda text: engine.check_text("docs/a.md", text))
    assert (count, remaining) == (2, [])
    assert path.read_bytes() == b"\xef\xbb\xbf# T\r\n\r\n`ABC` and `DEF`\r\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert fix_file(path, lambda text: engine.check_text("docs/a.md", text)) == (0, [])
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".guidelint-tmp")]


def test_overlapping_edits_apply_one_per_pass():
    from guidelint.fixes import apply_edits

    fixes = [Fix((Edit(0, 3, "X"),)), Fix((Edit(2, 4, "Y"),)), Fix((Edit(5, 5, "!"),))]
    text, applied = apply_edits("abcdefg", fixes)
    assert (text, applied) == ("Xde!fg", 2)


@pytest.mark.parametrize(
    ("directive", "reported"),
    [
        # A misspelled code covers nothing: GL5O1 (letter O) must not hide all of GL5.
        ("<!-- guidelint: disable-next-line GL5O1 -->", ["GL002 3", "GL501 4"]),
        # ESLint's and markdownlint's spelling, on the line it covers.
        ("Run `scripts/gone.py`. <!-- guidelint: disable-line GL501 -->", []),
        # A rule name works like its code.
        ("<!-- guidelint: disable-next-line stale-path -->", []),
        # A misspelled verb is reported, and suppresses nothing.
        ("<!-- guidelint: disable-nextline GL501 -->", ["GL002 3", "GL501 4"]),
    ],
)
def test_suppressions_are_read_strictly(make_project, directive, reported):
    line_4 = "" if "disable-line" in directive else "Run `scripts/gone.py`.\n"
    root = make_project({"docs/a.md": f"# A\n\n{directive}\n{line_4}", "scripts/real.py": ""})
    findings = engine_for(root).check_file("docs/a.md")
    assert [f"{f.code} {f.line}" for f in findings] == reported, [f.message for f in findings]


def test_misspellings_get_a_did_you_mean(make_project):
    root = make_project(
        {
            "docs/a.md": "<!-- guidelint: disable-nextline GL5O1 -->\nRun `scripts/gone.py`.\n",
            "scripts/real.py": "",
        }
    )
    messages = [f.message for f in engine_for(root).check_file("docs/a.md") if f.code == "GL002"]
    assert messages == [
        "unknown suppression directive 'disable-nextline' (did you mean 'disable-next-line'?); "
        "it suppresses nothing"
    ]
    (root / "docs/a.md").write_text("<!-- guidelint: disable-file GL5O1 -->\n")
    [message] = [f.message for f in engine_for(root).check_file("docs/a.md")]
    assert message == "unknown rule code 'GL5O1' (did you mean 'GL501'?); it suppresses nothing"


def test_a_rule_whose_error_cannot_be_shown_is_still_one_gl000(make_project):
    # libcst raised a KeyError whose repr recursed: str(error) itself failed.
    root = make_project({"docs/a.md": "# A\n"})

    class Unprintable(Exception):
        def __str__(self) -> str:
            raise RecursionError("maximum recursion depth exceeded")

    class Crash(Rule):
        code, name, summary = "GL996", "crash", "test"

        def check(self, file, project):
            raise Unprintable()

    [finding] = engine_for(root, Crash()).check_file("docs/a.md")
    assert finding.code == "GL000"
    assert "Unprintable: (its message could not be shown)" in finding.message


@pytest.mark.parametrize(
    ("jobs", "page", "forked"),
    [
        (None, "# P\n\nText.\n", False),  # the default: 70 small files are not worth it
        (None, "# P\n\n" + "Text, and more text.\n" * 1000, True),  # 1.5 MB in all
        (2, "# P\n\nText.\n", True),  # asked for: as asked
    ],
)
def test_a_pool_forks_for_enough_text_or_when_asked(make_project, monkeypatch, jobs, page, forked):
    import guidelint.engine as engine_module

    root = make_project({f"docs/p{i}.md": page for i in range(70)})
    engine = engine_for(root, select=["GL001"])
    pools: list[int] = []
    real_pool = engine_module._check_in_pool
    monkeypatch.setattr(engine_module.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(
        engine_module,
        "_check_in_pool",
        lambda engine, rels, jobs, heard: (
            pools.append(len(rels)) or real_pool(engine, rels, jobs, heard)
        ),
    )
    rels = [f"docs/p{i}.md" for i in range(70)]
    assert engine.check_files(rels, jobs=jobs) == []
    assert pools == ([70] if forked else [])


def test_a_long_run_with_progress_forks_one_pool(make_project, monkeypatch):
    """Progress is told from one pool's chunks as they finish: a pool per slice of
    files made every slice pay the workers' set-up (and the cache's whole write)."""
    import guidelint.engine as engine_module

    root = make_project({f"docs/p{i}.md": "# P\n\nText.\n" for i in range(70)})
    engine = engine_for(root, select=["GL001"])
    pools: list[int] = []
    real_pool = engine_module._check_in_pool
    monkeypatch.setattr(
        engine_module,
        "_check_in_pool",
        lambda engine, rels, jobs, heard: (
            pools.append(len(rels)) or real_pool(engine, rels, jobs, heard)
        ),
    )
    heard: list[tuple[int, int]] = []
    rels = [f"docs/p{i}.md" for i in range(70)]
    assert engine.check_files(rels, 2, lambda *seen: heard.append(seen), 20) == []
    assert pools == [70]
    assert heard[-1] == (70, 70)
    assert [done for done, _ in heard] == sorted(done for done, _ in heard)
    assert len(heard) >= 3  # chunks of at most 20 files: told at least every 20 or so
