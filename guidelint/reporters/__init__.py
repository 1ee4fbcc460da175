"""Reporters turn collected findings into text, JSON, GitHub annotations or SARIF."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from guidelint.reporters.report import Report

__all__ = ["FORMATS", "Report", "renderer"]

FORMATS = ("text", "json", "github", "sarif")


def renderer(fmt: str) -> Callable[[Report], str]:
    # Only the renderer asked for is imported (start-up of a one-file check).
    module = {"text": "text", "json": "json_report", "github": "github", "sarif": "sarif"}[fmt]
    render: Callable[[Report], str] = importlib.import_module(f"{__name__}.{module}").render
    return render
