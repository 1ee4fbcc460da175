"""Baselines: adopt guidelint on a repo with findings, fail only on new ones.

Findings are matched by fingerprint (code, path, message, flagged text), so
unrelated line shifts do not make an old finding look new. Each fingerprint is
counted: two identical findings in a file need two baseline entries.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from guidelint.config import ConfigError
from guidelint.findings import Finding

BASELINE_VERSION = 1


def write_baseline(path: Path, findings: list[Finding]) -> None:
    from guidelint.fsio import write_atomic

    entries = [
        {"fingerprint": f.fingerprint(), "code": f.code, "path": f.path, "message": f.message}
        for f in findings
    ]
    data = {"version": BASELINE_VERSION, "findings": entries}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def read_baseline(path: Path) -> Counter[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != BASELINE_VERSION:
            raise ValueError(f"unsupported baseline version {data.get('version')!r}")
        return Counter(entry["fingerprint"] for entry in data["findings"])
    except FileNotFoundError:
        raise ConfigError(f"{path}: baseline file not found") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        raise ConfigError(f"{path}: not a guidelint baseline ({err})") from None


def new_findings(findings: list[Finding], baseline: Counter[str]) -> list[Finding]:
    remaining = Counter(baseline)
    fresh = []
    for f in findings:
        key = f.fingerprint()
        if remaining[key] > 0:
            remaining[key] -= 1
        else:
            fresh.append(f)
    return fresh
