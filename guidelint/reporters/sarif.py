"""SARIF 2.1.0 as GitHub code scanning accepts it."""

from __future__ import annotations

import json

from guidelint import __version__
from guidelint.findings import Severity
from guidelint.printable import encodable
from guidelint.reporters.report import Report
from guidelint.rules import all_rules

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
HELP_URI = "https://github.com/guidelint/guidelint/blob/main/rules/{code}.md"


def _rules() -> list[dict]:
    rules = []
    for code, rule in all_rules().items():
        level = "error" if rule.severity is Severity.ERROR else "warning"
        rules.append(
            {
                "id": code,
                "name": rule.name,
                "shortDescription": {"text": rule.summary},
                "helpUri": HELP_URI.format(code=code),
                "defaultConfiguration": {"level": level},
            }
        )
    return rules


def render(report: Report) -> str:
    rules = _rules()
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    results = []
    for f in report.findings:
        end_column = max(f.end_column, f.column + 1) if f.end_line == f.line else f.end_column
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
                                "uri": encodable(f.path),
                                "uriBaseId": "%SRCROOT%",
                            },
                            "region": {
                                "startLine": f.line,
                                "startColumn": f.column,
                                "endLine": max(f.end_line, f.line),
                                "endColumn": end_column,
                            },
                        }
                    }
                ],
                "partialFingerprints": {"guidelint/v1": f.fingerprint()},
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
                "originalUriBaseIds": {"%SRCROOT%": {"uri": report.root.as_uri() + "/"}},
                "results": results,
            }
        ],
    }
    return json.dumps(sarif, indent=2) + "\n"
