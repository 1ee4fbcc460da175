"""Reporters turn collected findings into text, JSON, GitHub annotations or SARIF."""

from __future__ import annotations

from collections.abc import Callable

from guidelint.reporters.report import Report

__all__ = ["FORMATS", "Report", "renderer"]

FORMATS = ("text", "json", "github", "sarif")


def renderer(fmt: str) -> Callable[[Report], str]:
    from guidelint.reporters import github, json_report, sarif, text

    return {
        "text": text.render,
        "json": json_report.render,
        "github": github.render,
        "sarif": sarif.render,
    }[fmt]
