"""`globs.decided` answers only what pathspec would answer the same way."""

from __future__ import annotations

import itertools
from pathlib import Path

import pathspec
import pytest

from guidelint import globs, settings
from tests.conftest import shared_corpus

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


def test_the_matcher_compiles_only_for_an_open_question():
    compiled: list[str] = []

    def compile_spec():
        compiled.append("spec")
        return pathspec.GitIgnoreSpec.from_lines(["docs/**", "!docs/x.md"]).match_file

    matches = globs.matcher(["docs/**", "!docs/x.md"], compile_spec)
    assert matches("src/a.py") is False and compiled == []
    assert matches("docs/x.md") is False and matches("docs/y.md") is True
    assert compiled == ["spec"]  # once


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
