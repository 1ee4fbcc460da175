#!/usr/bin/env python3
"""Precision of `guidelint check .` on a folder of corpus repositories, against labels.

    .venv/bin/python scripts/heldout_precision.py FOLDER [--labels FILE] [--repo NAME ...]
        [--dump FILE [--set NAME]]

FOLDER holds repositories laid out as ../shared/corpus/agent-repos-full is (one
`OWNER__NAME/` each, with its text files and a `LISTING.txt`). Each is laid out in a
scratch folder with an empty placeholder for every listed path not copied
(scripts/corpus_layout.py, the method of docs/PRECISION.md), and
`guidelint check . --no-cache --format json` runs at its root with this checkout's
guidelint. Findings are matched to the labels (default
tests/data/labels/heldout.json) by repository, rule and fingerprint.

Printed: per repository and per rule, the findings, how many are labelled, judgeable
(`true` or `false`), true, and the precision; then every unlabelled finding, every
labelled finding no longer reported (a `true` one is recall lost), and the `missed`
records (defects found by reading) with whether a finding of that rule is now
reported on their line. `--dump FILE` writes every finding as a label record to
fill in (label and reason empty), for a first reading.

A finding on a placeholder (a listed file whose text the corpus lacks) is counted as
not judgeable.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # this checkout's scripts and guidelint

from scripts.corpus_layout import lay_out, placeholders  # noqa: E402

DEFAULT_LABELS = REPO / "tests" / "data" / "labels" / "heldout.json"
JUDGED = ("true", "false")
LABEL_VALUES = (*JUDGED, "unjudgeable", "missed")


class InputError(Exception):
    """Bad input, said in one line naming the file."""


@dataclass(frozen=True)
class Finding:
    repo: str
    path: str
    line: int
    code: str
    fingerprint: str
    message: str
    on_placeholder: bool

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.repo, self.code, self.fingerprint)


@dataclass
class Tally:
    findings: int = 0
    labelled: int = 0
    judgeable: int = 0
    true: int = 0

    def add(self, label: str | None) -> None:
        self.findings += 1
        self.labelled += label is not None
        self.judgeable += label in JUDGED
        self.true += label == "true"

    def precision(self) -> str:
        if not self.judgeable:
            return "-"
        return f"{self.true}/{self.judgeable} ({100 * self.true / self.judgeable:.0f}%)"


def read_labels(path: Path) -> list[dict]:
    """The label records; [] where the file does not exist yet."""
    if not path.exists():
        return []
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise InputError(f"{path}:{error.lineno}: not valid JSON ({error.msg})") from None
    if not isinstance(records, list):
        raise InputError(f"{path}:1: expected a list of label records")
    for number, record in enumerate(records, 1):
        if not isinstance(record, dict) or record.get("label") not in LABEL_VALUES:
            raise InputError(
                f"{path}: record {number}: label must be one of {', '.join(LABEL_VALUES)}"
            )
    return records


def repositories(folder: Path, only: list[str]) -> list[Path]:
    """The laid-out repositories in the folder (those with a LISTING.txt), sorted."""
    found = sorted(path for path in folder.iterdir() if (path / "LISTING.txt").is_file())
    if only:
        found = [path for path in found if path.name in only]
    if not found:
        raise InputError(f"{folder}: no repository folder with a LISTING.txt")
    return found


def check_json(root: Path) -> dict:
    """`guidelint check . --no-cache --format json` at the root, with this checkout's code."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "guidelint", "check", ".", "--no-cache", "--format", "json"]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise InputError(f"{root}: guidelint check gave no JSON report: {last}") from None


def findings_of(repo: Path, scratch: Path) -> list[Finding]:
    root = lay_out(repo, scratch)
    report = check_json(root)
    empty = placeholders(repo)
    return [
        Finding(
            repo=repo.name,
            path=item["path"],
            line=item["line"],
            code=item["code"],
            fingerprint=item["fingerprint"],
            message=item["message"],
            on_placeholder=item["path"] in empty,
        )
        for item in report["findings"]
    ]


Labels = dict[tuple[str, str, str], list[dict]]


def index_labels(records: list[dict]) -> Labels:
    """The judged records by (repository, rule, fingerprint); missed records have none."""
    labels: Labels = defaultdict(list)
    for record in records:
        if record.get("fingerprint"):
            labels[(record["repo"], record["code"], record["fingerprint"])].append(record)
    return labels


def label_of(finding: Finding, labels: Labels) -> str | None:
    """The finding's label: the record on its line where one fingerprint is on several lines."""
    records = labels.get(finding.key, [])
    on_line = [record for record in records if record.get("line") == finding.line]
    if on_line or records:
        return (on_line or records)[0]["label"]
    return "unjudgeable" if finding.on_placeholder else None


def tables(findings: list[Finding], labels: Labels) -> list[str]:
    by_repo: dict[str, Tally] = defaultdict(Tally)
    by_rule: dict[str, Tally] = defaultdict(Tally)
    by_repo_rule: dict[tuple[str, str], Tally] = defaultdict(Tally)
    total = Tally()
    for finding in findings:
        label = label_of(finding, labels)
        for tally in (
            by_repo[finding.repo],
            by_rule[finding.code],
            by_repo_rule[(finding.repo, finding.code)],
            total,
        ):
            tally.add(label)
    head = "| {} | findings | labelled | judgeable | true | precision |"
    rule = "|---|---:|---:|---:|---:|---|"
    lines = [head.format("repository"), rule]
    lines += [row(name, tally) for name, tally in sorted(by_repo.items())]
    lines += [row("**all**", total), "", head.format("rule"), rule]
    lines += [row(name, tally) for name, tally in sorted(by_rule.items())]
    lines += ["", head.format("repository / rule"), rule]
    lines += [row(f"{repo} {code}", tally) for (repo, code), tally in sorted(by_repo_rule.items())]
    return lines


def row(name: str, tally: Tally) -> str:
    counts = (tally.findings, tally.labelled, tally.judgeable, tally.true)
    return f"| {name} | " + " | ".join(map(str, counts)) + f" | {tally.precision()} |"


def unlabelled(findings: list[Finding], labels: Labels) -> list[str]:
    return [
        f"{f.repo} {f.path}:{f.line} {f.code} {f.fingerprint} {f.message}"
        for f in findings
        if label_of(f, labels) is None
    ]


def gone(findings: list[Finding], records: list[dict], checked: set[str]) -> list[str]:
    """Labelled findings of the checked repositories that are no longer reported."""
    reported = {f.key for f in findings}
    return [
        f"{r['label']}: {r['repo']} {r['path']}:{r['line']} {r['code']} {r['message']}"
        for r in records
        if r["label"] in JUDGED
        and r["repo"] in checked
        and (r["repo"], r["code"], r["fingerprint"]) not in reported
    ]


def misses(findings: list[Finding], records: list[dict], checked: set[str]) -> list[str]:
    """The `missed` records, each with whether its rule now reports its line."""
    reported = {(f.repo, f.path, f.line, f.code) for f in findings}
    lines = []
    for r in records:
        if r["label"] != "missed" or r["repo"] not in checked:
            continue
        now = (r["repo"], r["path"], r["line"], r.get("code")) in reported
        state = "now reported" if now else "still missed"
        rule = r.get("code") or "-"  # a defect no rule covers today
        lines.append(f"{state}: {r['repo']} {r['path']}:{r['line']} {rule} {r['reason']}")
    return lines


def dump(findings: list[Finding], path: Path, set_name: str) -> None:
    records = [
        {
            "repo": f.repo,
            "path": f.path,
            "line": f.line,
            "code": f.code,
            "fingerprint": f.fingerprint,
            "message": f.message,
            "label": "unjudgeable" if f.on_placeholder else "",
            "reason": "on an empty placeholder: its text is not in the corpus"
            if f.on_placeholder
            else "",
            "reported": True,
            "set": set_name,
        }
        for f in findings
    ]
    path.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")


def measure(
    folder: Path, labels_path: Path, only: list[str], dump_to: Path | None, set_name: str
) -> list[str]:
    """The report's lines; the dump written where asked."""
    records = read_labels(labels_path)
    labels = index_labels(records)
    repos = repositories(folder, only)
    findings: list[Finding] = []
    with tempfile.TemporaryDirectory(prefix="heldout-") as scratch:
        for repo in repos:
            findings += findings_of(repo, Path(scratch))
    if dump_to is not None:
        dump(findings, dump_to, set_name)
    checked = {repo.name for repo in repos}
    lines = tables(findings, labels)
    for title, items in (
        ("unlabelled findings", unlabelled(findings, labels)),
        ("labelled findings no longer reported", gone(findings, records, checked)),
        ("defects found by reading (missed records)", misses(findings, records, checked)),
    ):
        lines += ["", f"{title}: {len(items)}", *(f"  {item}" for item in items)]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="folder of OWNER__NAME repositories")
    parser.add_argument("--labels", type=Path, default=DEFAULT_LABELS)
    parser.add_argument("--repo", action="append", default=[], help="only this OWNER__NAME")
    parser.add_argument("--dump", type=Path, help="write every finding as a label record")
    parser.add_argument("--set", default="held-out-2", help="the set name of dumped records")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"{args.folder}: not a folder", file=sys.stderr)
        return 2
    try:
        lines = measure(args.folder, args.labels, args.repo, args.dump, args.set)
    except InputError as error:
        print(error, file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
