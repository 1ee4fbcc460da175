"""Baselines: adopt guidelint on a repo with findings, fail only on new ones.

Findings are matched by fingerprint (`Finding.fingerprint`: the rule, the path, the
flagged text and its line's text, never the message), so unrelated line shifts and
a reworded message (a new did-you-mean) do not make an old finding look new. Each
fingerprint is counted: two identical findings in a file need two baseline entries.

Format 1 fingerprints held the message; such a file is still matched the old way
(`Finding.message_fingerprint`), with a note to write it again.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from guidelint.config import ConfigError
from guidelint.findings import Finding

BASELINE_VERSION = 2
READABLE_VERSIONS = (1, 2)


@dataclass
class Baseline:
    version: int
    fingerprints: Counter[str]

    def key(self, finding: Finding) -> str:
        return finding.fingerprint() if self.version >= 2 else finding.message_fingerprint()


def write_baseline(path: Path, findings: list[Finding], root: Path) -> None:
    """Write the baseline: a path named in the project is confined to it (a committed
    symlink out is one ConfigError line, nothing written); one named outside is the
    user's."""
    from guidelint.fsio import write_named

    entries = [
        {"fingerprint": f.fingerprint(), "code": f.code, "path": f.path, "message": f.message}
        for f in findings
    ]
    data = {"version": BASELINE_VERSION, "findings": entries}
    try:
        write_named(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n", root)
    except OSError as err:
        raise ConfigError(f"{path}: baseline not written: {_reason(path, err)}") from None


def read_baseline(path: Path, root: Path) -> Baseline:
    """The baseline's fingerprints; one named in the project is read only when it lies
    there, symlinks resolved (a linked file from outside could hide every finding)."""
    from guidelint.confine import named_inside
    from guidelint.fsio import read_text_exact

    try:
        text = read_text_exact(path, root if named_inside(root, path) else None, "baseline")
    except FileNotFoundError:
        raise ConfigError(f"{path}: baseline file not found") from None
    except PermissionError as err:
        raise ConfigError(f"{path}: baseline not read: {_reason(path, err)}") from None
    except (OSError, ValueError) as err:
        raise ConfigError(f"{path}: not a guidelint baseline ({err})") from None
    try:
        data = json.loads(text)
        version = data.get("version")
        if version not in READABLE_VERSIONS:
            raise ValueError(f"unsupported baseline version {version!r}")
        return Baseline(version, Counter(entry["fingerprint"] for entry in data["findings"]))
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        raise ConfigError(f"{path}: not a guidelint baseline ({err})") from None


def _reason(path: Path, error: OSError) -> str:
    """Why, without the path again (confine's messages start with it)."""
    reason = str(error.strerror or error)
    return reason.removeprefix(f"{path}: ")


def old_format_note(path: Path, baseline: Baseline) -> str | None:
    """One line for a format 1 baseline: it works, and how to make it last."""
    if baseline.version >= BASELINE_VERSION:
        return None
    return (
        f"{path}: baseline format {baseline.version} matches findings by their message, "
        "so a reworded message comes back as new; rewrite it with "
        f"`guidelint check --write-baseline {path}` (format {BASELINE_VERSION})"
    )


def new_findings(findings: list[Finding], baseline: Baseline) -> list[Finding]:
    remaining = Counter(baseline.fingerprints)
    fresh = []
    for f in findings:
        key = baseline.key(f)
        if remaining[key] > 0:
            remaining[key] -= 1
        else:
            fresh.append(f)
    return fresh
