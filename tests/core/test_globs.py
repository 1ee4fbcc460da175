"""`globs.decided` answers only what pathspec would answer the same way; `Globs` asks
pathspec only for what it leaves open."""

from __future__ import annotations

import itertools
from pathlib import Path

import pathspec
import pytest

from guidelint import globs, settings
from guidelint.config import Config
from tests.conftest import shared_corpus

REPO = Path(__file__).resolve().parents[2]
CORPUS = shared_corpus()

# Literal names and paths, folders, anchors, wildcards, negations, classes, escapes.
PATTERNS = [
    "README.md",
    "/README.md",
    "docs/",
    "docs/**",
    "/docs/",
    "**/CLAUDE.md",
    "**/a/**",
    ".claude/**",
    "*.md",
    "CHANGELOG*.md",
    "**/plans/**",
    "a/b",
    "!docs/x.md",
    "build",
    "/build/",
    "x/**/y.md",
    "**",
    "docs/**/*.md",
    "scripts/workflow_*",
    "**/a/b",
    "[Rr]eadme.md",
    "\\#notes",
    "# a comment",
    "",
    "/hooks/hooks.json",
    "plugins/*/hooks/hooks.json",
    "./x",
    "*",
    "?.md",
    "a*/",
    "**/CHANGELOG*.md",
    "docs*/**",
]
PATHS = [
    "README.md",
    "docs/README.md",
    "docs",
    "docs/x.md",
    "x/docs/y.md",
    "CLAUDE.md",
    "a/CLAUDE.md",
    "a/b",
    "a/b/c",
    "q/a/b",
    ".claude/rules/gotchas.md",
    "x/.claude/y",
    "plans/p.md",
    "z/plans/p.md",
    "build/",
    "build",
    "x/build/",
    "x/y.md",
    "x/z/y.md",
    "CHANGELOG-1.md",
    "scripts/workflow_a.py",
    "readme.md",
    "#notes",
    "hooks/hooks.json",
    "r/hooks/hooks.json",
    "plugins/p/hooks/hooks.json",
    "r/plugins/p/hooks/hooks.json",
    "x",
    "a.md",
    "ab/c.md",
    "ab/",
    "z/CHANGELOG-2.md",
    "docs2/x/y.md",
]


def disagreements(patterns: list[str], paths: list[str]) -> list[tuple[str, bool]]:
    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    return [
        (rel, answer)
        for rel in paths
        if (answer := globs.decided(patterns, rel)) is not None and answer != spec.match_file(rel)
    ]


@pytest.mark.parametrize("size", [1, 2])
def test_pairs_of_patterns_agree_with_pathspec(size):
    for patterns in itertools.combinations(PATTERNS, size):
        assert disagreements(list(patterns), PATHS) == [], patterns


def test_plain_questions_are_decided_and_subtle_ones_are_not():
    links = settings.DEFAULT_LINK_FILES
    assert globs.decided(links, "README.md") is True
    assert globs.decided([".claude/rules/gotchas.md"], "README.md") is False
    assert globs.decided(settings.DEFAULT_NOT_THIS_TREE, "README.md") is False
    # Anchored patterns whose first folder is not the path's (a repository in a folder).
    assert globs.decided(settings.DEFAULT_INCLUDE, "repo/.claude-plugin/plugin.json") is False
    assert globs.decided(settings.DEFAULT_INCLUDE, "repo/scripts/a.py") is False
    # A name with wildcards, anywhere.
    assert globs.decided(["CHANGELOG*.md", "**/plans/**"], "repo/CHANGELOG.md") is True
    assert globs.decided(["docs/**", "!docs/x.md"], "docs/x.md") is None  # a negation
    assert globs.decided(["[Rr]eadme.md"], "README.md") is None  # a character class


def test_globs_compile_only_for_an_open_question(monkeypatch):
    compiled: list[tuple[str, ...]] = []
    compile_spec = globs._compile

    def counted(patterns):
        compiled.append(tuple(patterns))
        return compile_spec(patterns)

    monkeypatch.setattr(globs, "_compile", counted)
    found = globs.Globs(["docs/**", "!docs/x.md"])
    assert found.matches("src/a.py") is False and compiled == []
    assert found.matches("docs/x.md") is False and found.matches("docs/y.md") is True
    assert compiled == [("docs/**", "!docs/x.md")]  # once


def test_globs_without_a_pattern_match_nothing_and_need_no_pathspec(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pathspec(name, *args, **kwargs):
        assert name != "pathspec", "pathspec imported for globs with no pattern"
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pathspec)
    for patterns in ([], ["", "# a comment"]):
        assert globs.Globs(patterns).compiled()("docs/a.md") is False
        assert globs.Globs(patterns).matches("docs/a.md") is False


def test_a_project_keeps_one_globs_per_pattern_list(tmp_path):
    from guidelint.project import Project

    project = Project(tmp_path, Config())
    assert project.globs(["docs/**"]) is project.globs(("docs/**",))
    assert project.globs(["docs/**"]) is not project.globs(["src/**"])
    assert project.globs(["docs/**"]).matches("docs/a.md")


def corpus_paths(root: Path) -> list[str]:
    files = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    folders = {rel.rsplit("/", 1)[0] + "/" for rel in files if "/" in rel}
    return files + sorted(folders)


@pytest.mark.slow
@pytest.mark.corpus("agent-repos")
@pytest.mark.corpus("opentelemetry-docs")
def test_every_corpus_path_agrees_with_pathspec():
    roots = sorted(p for p in (CORPUS / "agent-repos").iterdir() if p.is_dir())
    roots.append(CORPUS / "opentelemetry-docs")
    lists = [
        settings.DEFAULT_INCLUDE,
        settings.DEFAULT_LINK_FILES,
        settings.DEFAULT_NOT_THIS_TREE,
        settings.DEFAULT_SURFACE,
        [".claude/rules/gotchas.md"],
    ]
    decided = 0
    for root in roots:
        paths = corpus_paths(root)
        ignore = root / ".gitignore"
        own = [ignore.read_text().splitlines()] if ignore.is_file() else []
        for patterns in lists + own:
            assert disagreements(patterns, paths) == [], (root.name, patterns)
            decided += sum(globs.decided(patterns, rel) is not None for rel in paths)
    assert decided > 0


def test_a_pattern_list_is_read_once_for_every_path():
    globs._plan.cache_clear()
    for rel in ("README.md", "docs/a.md", "repo/scripts/x.py", "a/b/"):
        globs.decided(settings.DEFAULT_INCLUDE, rel)
    assert (globs._plan.cache_info().misses, globs._plan.cache_info().hits) == (1, 3)


def test_only_globs_compiles_pathspec():
    package = REPO / "guidelint"
    compiling = {
        path.relative_to(REPO).as_posix()
        for path in package.rglob("*.py")
        if "GitIgnoreSpec.from_lines(" in path.read_text(encoding="utf-8")
    }
    assert compiling == {"guidelint/globs.py"}


# -- globs a pull request writes cannot make matching backtrack (#28) ----------------
# Pieces of patterns and of paths, for a seeded comparison with pathspec's own regular
# expressions: wildcards in and across segments, classes (a negated one matches a
# slash in pathspec), escapes, anchors, folders.
GLOB_ATOMS = ["a", "b", "*", "?", "**", "/", "[ab]", "ab", "/**/", ".md", "[!a]", "\\*"]
GLOB_ATOMS += ["[a-c]", "**/", "a/", "[!/]", "x*", "-", "[/]", "\\?"]


def test_patterns_without_backtracking_match_what_pathspec_matches():
    """`without_backtracking` makes a gap and the fixed piece after it atomic where the
    first fit is as good as any: on 20,000 seeded patterns and 40 paths each, it
    answers what pathspec's own expression answers (and it changes many of them)."""
    import random
    import re

    chooser = random.Random(28)
    changed = 0
    for _ in range(20_000):
        text = "".join(chooser.choice(GLOB_ATOMS) for _ in range(chooser.randint(1, 7)))
        (pattern,) = pathspec.GitIgnoreSpec.from_lines([text]).patterns
        if pattern.regex is None:
            continue
        hardened = re.compile(globs.without_backtracking(pattern.regex.pattern))
        changed += hardened.pattern != pattern.regex.pattern
        for _ in range(40):
            segments = range(chooser.randint(1, 7))
            rel = "/".join(
                "".join(chooser.choice("ab.c*?-") for _ in range(chooser.randint(1, 4)))
                for _ in segments
            )
            assert bool(hardened.match(rel)) == bool(pattern.regex.match(rel)), (text, rel)
    assert changed > 1_000


@pytest.mark.parametrize(
    "pattern",
    ["*?" * 12 + "b", "*a" * 12 + "b", "**/" + "a/**/" * 8 + "b", "a" + "/**/a" * 8 + "/b"],
)
def test_a_pathological_glob_is_matched_without_backtracking(pattern):
    """Each of these took pathspec's expression seconds on a path of 80 characters
    at half the wildcards, five times more per wildcard added: hours here. The
    hardened expression answers a long, deep path at once (both answers are no)."""
    rel = "/".join(["a"] * 40) + "/" + "a" * 80
    assert globs.Globs([pattern]).compiled()(rel) is False
    assert globs.Globs([pattern, "!keep.md"]).compiled()(rel) is False  # pathspec's own loop
