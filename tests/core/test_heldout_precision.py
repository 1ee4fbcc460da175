"""scripts/heldout_precision.py on a tiny corpus repository made here: its lay-out, the
real `check .` it runs, and the tables of labelled findings (docs/PRECISION.md)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "heldout_precision.py"


def load_script():
    spec = importlib.util.spec_from_file_location("heldout_precision", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def fake_corpus(folder: Path) -> Path:
    """acme__demo: a README naming a listed-only source file, a missing file and a missing link."""
    repo = folder / "acme__demo"
    repo.mkdir(parents=True)
    (repo / "README.md").write_text(
        "# Demo\n\nThe entry point is `src/app.py`.\n\nSee [the guide](docs/guide.md).\n\n"
        "The build runs `scripts/gone.sh`.\n",
        encoding="utf-8",
    )
    # src/app.py and scripts/build.sh were not copied: placeholders make them exist.
    (repo / "LISTING.txt").write_text("README.md\nscripts/build.sh\nsrc/app.py\n", encoding="utf-8")
    (folder / "notes.txt").write_text("not a repository\n", encoding="utf-8")
    return repo


def test_findings_are_dumped_then_counted_by_their_labels(tmp_path, capsys):
    script = load_script()
    folder = tmp_path / "corpus"
    fake_corpus(folder)
    labels = tmp_path / "labels.json"
    dumped = tmp_path / "dump.json"

    assert script.main([str(folder), "--labels", str(labels), "--dump", str(dumped)]) == 0
    first = capsys.readouterr().out
    records = json.loads(dumped.read_text(encoding="utf-8"))
    reported = sorted((r["code"], r["line"]) for r in records)
    assert reported == [("GL501", 7), ("GL502", 5)]  # src/app.py exists as a placeholder
    assert "unlabelled findings: 2" in first
    assert {r["set"] for r in records} == {"held-out-2"}

    for record in records:
        record["label"] = "true" if record["code"] == "GL502" else "false"
        record["reason"] = "a test label"
    records.append(
        {
            "repo": "acme__demo",
            "path": "README.md",
            "line": 3,
            "code": "GL501",
            "label": "missed",
            "reason": "a defect found by reading",
            "set": "held-out-2",
        }
    )
    labels.write_text(json.dumps(records), encoding="utf-8")
    assert script.main([str(folder), "--labels", str(labels)]) == 0
    second = capsys.readouterr().out
    assert "| acme__demo | 2 | 2 | 2 | 1 | 1/2 (50%) |" in second
    assert "| GL502 | 1 | 1 | 1 | 1 | 1/1 (100%) |" in second
    assert "| GL501 | 1 | 1 | 1 | 0 | 0/1 (0%) |" in second
    assert "unlabelled findings: 0" in second
    assert "still missed: acme__demo README.md:3 GL501 a defect found by reading" in second


def test_a_labelled_finding_no_longer_reported_is_listed(tmp_path, capsys):
    script = load_script()
    folder = tmp_path / "corpus"
    fake_corpus(folder)
    labels = tmp_path / "labels.json"
    stale = {
        "repo": "acme__demo",
        "path": "README.md",
        "line": 9,
        "code": "GL502",
        "fingerprint": "0000",
        "message": "a finding the rules no longer report",
        "label": "true",
        "reason": "a test label",
    }
    labels.write_text(json.dumps([stale]), encoding="utf-8")
    assert script.main([str(folder), "--labels", str(labels)]) == 0
    out = capsys.readouterr().out
    assert "labelled findings no longer reported: 1" in out
    assert "true: acme__demo README.md:9 GL502 a finding the rules no longer report" in out


def test_bad_labels_are_one_line_naming_the_file(tmp_path, capsys):
    script = load_script()
    folder = tmp_path / "corpus"
    fake_corpus(folder)
    labels = tmp_path / "labels.json"
    labels.write_text('[{"label": "maybe"}]', encoding="utf-8")
    assert script.main([str(folder), "--labels", str(labels)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{labels}: record 1: label must be one of")
    assert "\n" not in err

    labels.write_text("[{", encoding="utf-8")
    assert script.main([str(folder), "--labels", str(labels)]) == 2
    assert capsys.readouterr().err.startswith(f"{labels}:1: not valid JSON")

    assert script.main([str(tmp_path / "empty-is-missing"), "--labels", str(labels)]) == 2


def test_a_label_on_the_findings_own_line_wins_over_one_on_another():
    script = load_script()
    # One broken front matter reported at two lines with one fingerprint: the first
    # line is the defect, the second the same defect again.
    records = [
        {
            "repo": "r",
            "path": "a.md",
            "line": 3,
            "code": "GL601",
            "fingerprint": "f",
            "label": "true",
        },
        {
            "repo": "r",
            "path": "a.md",
            "line": 9,
            "code": "GL601",
            "fingerprint": "f",
            "label": "false",
        },
    ]
    labels = script.index_labels(records)

    def finding(line: int):
        return script.Finding("r", "a.md", line, "GL601", "f", "m", on_placeholder=False)

    assert script.label_of(finding(3), labels) == "true"
    assert script.label_of(finding(9), labels) == "false"
    assert script.label_of(finding(12), labels) == "true"  # moved: the first record
    placeholder = script.Finding("r", "b.md", 1, "GL501", "g", "m", on_placeholder=True)
    assert script.label_of(placeholder, labels) == "unjudgeable"


@pytest.mark.parametrize(
    ("labels", "set_name"),
    [
        ("heldout.json", "held-out-2"),
        ("heldout3.json", "held-out-3"),
        ("heldout4.json", "held-out-4"),
        ("heldout5.json", "held-out-5"),
        ("heldout6.json", "held-out-6"),
        ("heldout7.json", "held-out-7"),
        ("heldout8.json", "held-out-8"),
        ("heldout9.json", "held-out-9"),
        ("heldout10.json", "held-out-10"),
        ("heldout11.json", "held-out-11"),
        ("heldout12.json", "held-out-12"),
        ("heldout13.json", "held-out-13"),
    ],
)
def test_the_committed_held_out_labels_are_well_formed(labels, set_name):
    script = load_script()
    records = script.read_labels(script.DEFAULT_LABELS.parent / labels)
    assert records, f"tests/data/labels/{labels} is empty"
    for record in records:
        assert record["set"] == set_name, record
        assert record["label"] in ("true", "false", "missed"), record
        assert record["reason"].strip(), record
        assert record["repo"] and record["path"] and record["line"] >= 1, record
        if record["label"] == "missed":
            assert record["fingerprint"] is None and record["reported"] is False, record
        else:
            assert record["fingerprint"] and record["code"] and record["message"], record
