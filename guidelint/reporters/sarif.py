"""SARIF 2.1.0 as GitHub code scanning accepts it."""

from __future__ import annotations

import json
from urllib.parse import quote

from guidelint import __version__
from guidelint.findings import Finding, Severity
from guidelint.printable import encodable
from guidelint.reporters.report import Report
from guidelint.rules import all_rules

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
HELP_URI = "https://github.com/guidelint/guidelint/blob/main/rules/{code}.md"


def _rules() -> list[dict]:
    from guidelint.docs import rule_page

    rules = []
    for code, rule in all_rules().items():
        level = "error" if rule.severity is Severity.ERROR else "warning"
        page = rule_page(code) or f"# {code} {rule.name}\n\n{rule.summary}\n"
        what = _section(page, "What it does") or rule.summary
        why = _section(page, "Why it matters")
        rules.append(
            {
                "id": code,
                "name": rule.name,
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": what},
                "help": {"text": f"{what}\n\n{why}".strip(), "markdown": page},
                "helpUri": HELP_URI.format(code=code),
                "defaultConfiguration": {"level": level},
            }
        )
    return rules


def _section(page: str, title: str) -> str:
    """The text of a rule page's `## title` section, up to the next heading."""
    lines = page.splitlines()
    heading = f"## {title}"
    if heading not in lines:
        return ""
    body = []
    for line in lines[lines.index(heading) + 1 :]:
        if line.startswith("## "):
            break
        body.append(line)
    return "\n".join(body).strip()


def _region(report: Report, f: Finding) -> dict[str, int]:
    """The finding's region in UTF-16 code units (the run's `columnKind`)."""
    end_line = max(f.end_line, f.line)
    end_column = max(f.end_column, f.column + 1) if end_line == f.line else f.end_column
    return {
        "startLine": f.line,
        "startColumn": report.utf16_column(f.path, f.line, f.column),
        "endLine": end_line,
        "endColumn": report.utf16_column(f.path, end_line, end_column),
    }


def render(report: Report) -> str:
    rules = _rules()
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    results = []
    for f in report.findings:
        results.append(
            {
                "ruleId": f.code,
                "ruleIndex": index.get(f.code, 0),
                "level": "error" if f.severity is Severity.ERROR else "warning",
                "message": {"text": f.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {
                                "uri": quote(encodable(report.repo_path(f.path))),
                                "uriBaseId": "%SRCROOT%",
                            },
                            "region": _region(report, f),
                        }
                    }
                ],
                "partialFingerprints": {"guidelint/v2": f.fingerprint()},
            }
        )
    sarif = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "guidelint",
                        "version": __version__,
                        "informationUri": "https://github.com/guidelint/guidelint",
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": report.repo_root.as_uri() + "/"}},
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }
    return json.dumps(sarif, indent=2) + "\n"
