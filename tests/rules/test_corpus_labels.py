"""`guidelint check .` over every real repository of ../shared/corpus, against labels.

Each repository of `agent-repos-full/` and `agent-repos/` is laid out in a scratch
folder with an empty placeholder for every listed file the corpus did not copy, and
checked as a user would (`check .`, the default configuration). Its findings, read one
by one (true = a careful maintainer would agree it is a defect to fix), are kept as
data in `tests/data/labels/corpus.json`: repository, file, line, rule, fingerprint,
message, label, a one-line reason, and whether today's check still reports it.

The test fails when a finding labelled true is no longer reported (recall lost) or
one labelled false that the check stopped reporting comes back. docs/PRECISION.md
gives the figures.
"""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check
from scripts.corpus_layout import lay_out
from tests.conftest import shared_corpus

CORPUS = shared_corpus()
LABELS = Path(__file__).parents[1] / "data" / "labels" / "corpus.json"

pytestmark = [pytest.mark.slow, pytest.mark.corpus("agent-repos-full")]


def fingerprints(root: Path) -> set[tuple[str, str]]:
    """(rule, fingerprint) of every finding of `check .` at the root."""
    report = run_check(CheckOptions(paths=[root], use_cache=False))
    return {(f.code, f.fingerprint()) for f in report.findings}


def labels_by_repo() -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = defaultdict(list)
    for label in json.loads(LABELS.read_text(encoding="utf-8")):
        grouped[label["repo"]].append(label)
    return grouped


def corpus_folder(repo: str) -> Path:
    for part in ("agent-repos-full", "agent-repos"):
        if (CORPUS / part / repo).is_dir():
            return CORPUS / part / repo
    raise AssertionError(f"{repo} is in the labels but not in the corpus")


@pytest.fixture(scope="module")
def found(tmp_path_factory) -> dict[str, set[tuple[str, str]]]:
    into = tmp_path_factory.mktemp("corpus")
    result = {}
    for repo in sorted(labels_by_repo()):
        root = lay_out(corpus_folder(repo), into)
        result[repo] = fingerprints(root)
        shutil.rmtree(root)  # the largest lay-outs hold tens of thousands of files
    return result


@pytest.mark.slow
def test_the_labels_are_well_formed():
    for label in json.loads(LABELS.read_text(encoding="utf-8")):
        assert label["label"] in ("true", "false"), label
        assert label["reported"] in (True, False), label
        assert label["reason"].strip(), label
        assert label["set"] in ("tuning", "held-out"), label


def test_no_true_finding_is_lost_and_no_fixed_false_one_returns(found):
    lost, returned = [], []
    for repo, labels in labels_by_repo().items():
        for label in labels:
            key = (label["code"], label["fingerprint"])
            where = f"{repo} {label['path']}:{label['line']} {label['code']} {label['message']}"
            if label["label"] == "true" and key not in found[repo]:
                lost.append(where)
            if label["label"] == "false" and not label["reported"] and key in found[repo]:
                returned.append(where)
    assert not lost, "true findings no longer reported:\n" + "\n".join(lost)
    assert not returned, "false findings reported again:\n" + "\n".join(returned)
