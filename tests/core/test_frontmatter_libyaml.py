"""libyaml's composer against PyYAML's own, on every front matter of the real corpora.

`guidelint.frontmatter` composes with libyaml where PyYAML was built with it and
falls back to PyYAML's pure-Python composer (the reference) on any error. The
entries (keys, values, key and value spans), the problems and the listed names of
every front matter must be the same either way.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from guidelint import frontmatter
from guidelint.sources import SourceFile
from tests.conftest import shared_corpus

CORPUS = shared_corpus()

pytestmark = pytest.mark.skipif(
    getattr(yaml, "CSafeLoader", None) is None, reason="PyYAML was built without libyaml"
)


def reading(text: str) -> tuple:
    data = frontmatter._parse(SourceFile(Path("/x.md"), "x.md", text))
    if data is None:
        return ()
    entries = [
        (
            e.key,
            repr(e.value),
            e.key_span,
            e.value_span,
            list(frontmatter.string_items(e)),
        )
        for e in data.entries.values()
    ]
    return entries, [(p.offset, p.message) for p in data.problems], data.is_mapping


def front_matter_texts() -> list[str]:
    texts = []
    for path in sorted(CORPUS.rglob("*.md")):
        text = path.read_text("utf-8", errors="replace")
        if text.startswith("---"):
            texts.append(text)
    return texts


HAND_MADE = [
    '---\nname: héllo wörld\ndescription: "ça va"\ntools: [Read, Bash]\n---\n',
    "---\nx: |\n  block ü\ny: 😀 emoji, Read\n---\n",
    "---\ndescription: Use when: the build breaks\ntools: Read, Bash(git diff:*)\n---\n",
    "---\na: [unclosed\nb: fine\n---\n",
    "---\n\tname: tab\n---\n",
    "---\n- a list\n---\n",
    "---\nk: &a [1, *a]\n---\n",
]


@pytest.mark.parametrize("text", HAND_MADE)
def test_hand_made_front_matter_reads_the_same(monkeypatch, text):
    fast = reading(text)
    monkeypatch.setattr(frontmatter, "_FAST_LOADER", False)
    assert reading(text) == fast


@pytest.mark.slow
@pytest.mark.corpus()
def test_every_corpus_front_matter_reads_the_same(monkeypatch):
    texts = front_matter_texts()
    assert len(texts) > 500  # both corpora: most OTel pages and agents carry one
    fast = [reading(t) for t in texts]
    monkeypatch.setattr(frontmatter, "_FAST_LOADER", False)
    assert [reading(t) for t in texts] == fast


def test_libyaml_composes_what_it_can_and_the_reference_the_rest():
    plain = frontmatter._compose("name: x\n").value[0][1]
    assert plain.style == ""  # libyaml's mark: PyYAML's own composer gives None
    # a tab before a key: libyaml refuses it, PyYAML's composer decides (and words) it
    with pytest.raises(yaml.YAMLError) as refused:
        frontmatter._compose("\tname: tab\n")
    with pytest.raises(yaml.YAMLError) as reference:
        yaml.compose("\tname: tab\n", Loader=yaml.SafeLoader)
    assert str(refused.value) == str(reference.value)
