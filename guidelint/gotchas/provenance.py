"""What an entry names as its origin: issue ids (#1489, owner/repo#12), a fingerprint."""

from __future__ import annotations

import re

ISSUE_ID = re.compile(r"(?<![\w&#/])(?:[\w.-]+/[\w.-]+)?#\d+(?![\w-])")
FINGERPRINT = re.compile(r"fingerprint:\s*`?([0-9a-fA-F]{6,64})\b`?", re.IGNORECASE)


def issue_ids(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m.group(0) for m in ISSUE_ID.finditer(text)))


def fingerprint_of(text: str) -> str | None:
    match = FINGERPRINT.search(text)
    return match.group(1).lower() if match else None
