"""From extracted examples to units of work, and from raw results to outcomes.

A unit is what one forked child runs: a lone example, or every example of one
`session=NAME` of one Markdown file, in document order (they share one namespace).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from guidelint.runner.config import RunnerConfig
from guidelint.runner.examples import Example
from guidelint.runner.outcomes import ExampleResult, Outcome, settle_pending
from guidelint.runner.outputs import compare

BACKEND_MODULES = {"diffusers"}  # importing these needs the backend
BACKEND_FRIENDLY = {"diffusers", "torch", "transformers"}  # the backend may help these


def slug(text: str) -> str:
    return re.sub(r"[^\w.-]+", "_", text).strip("_")[:120] or "example"


def imports_of(example: Example) -> set[str]:
    """Top-level module names an example imports (none when it does not parse)."""
    try:
        tree = ast.parse(example.python_source())
    except (SyntaxError, ValueError):
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def static_problem(example: Example) -> str | None:
    """Why an example cannot be run at all (reported as `error` without running)."""
    if not example.closed:
        return f"the ```{example.lang} fence opened at line {example.line} is never closed"
    if example.directives.problems:
        return "bad directive: " + "; ".join(p.message for p in example.directives.problems)
    return None


def group_units(examples: list[Example]) -> list[list[Example]]:
    """Lone examples one per unit; a file's session examples together, in order."""
    units: list[list[Example]] = []
    sessions: dict[tuple[str, str], list[Example]] = {}
    for example in examples:
        name = example.settings.session
        if name is None:
            units.append([example])
            continue
        key = (example.rel, name)
        if key not in sessions:
            sessions[key] = []
            units.append(sessions[key])
        sessions[key].append(example)
    return units


def unit_payload(
    examples: list[Example],
    root: Path,
    config: RunnerConfig,
    report_dir: Path,
    removed_env: list[str],
) -> dict:
    first = examples[0]
    unit_id = f"{first.rel}:{first.line}"
    imports = set().union(*(imports_of(e) for e in examples))
    return {
        "unit_id": unit_id,
        "session": first.settings.session,
        "report_dir": str(report_dir / slug(first.settings.session or first.id)),
        "wants_backend": bool(imports & BACKEND_FRIENDLY)
        or any(_needs_backend(e) for e in examples),
        "warm": sorted(imports & set(config.warm_imports)),
        "examples": [_example_payload(e, root, config, removed_env) for e in examples],
    }


def _needs_backend(example: Example) -> bool:
    return "diffusers" in example.settings.needs or bool(imports_of(example) & BACKEND_MODULES)


def _example_payload(example: Example, root: Path, config: RunnerConfig, removed: list) -> dict:
    settings = example.settings
    return {
        "id": example.id,
        "slug": slug(example.id),
        "filename": str(root / example.rel) if not Path(example.rel).is_absolute() else example.rel,
        "line": example.line,
        "content_line": example.content_line,
        "source": example.source,
        "session": example.is_session,
        "expect_error": settings.expect_error,
        "timeout": settings.timeout or config.timeout,
        "needs": list(settings.needs),
        "skip": settings.skip,
        "requires_backend": _needs_backend(example),
        "removed_env": removed,
    }


def settle(example: Example, raw: dict, config: RunnerConfig) -> ExampleResult:
    """The final outcome: the child's verdict, then the output block, then pending."""
    status = Outcome(raw["status"])
    message = raw.get("message", "")
    stdout = raw.get("stdout", "")
    if status is Outcome.PASSED and example.output is not None and not example.is_session:
        diff = compare(example.output.content, stdout, config.output_patterns)
        if diff is not None:
            status = Outcome.FAILED
            message = f"stdout differs from the output block at line {example.output.line}:\n{diff}"
    if example.settings.pending and status is not Outcome.SKIPPED:
        message = (
            f"{status.value}: {message}" if message and status is not Outcome.PASSED else (message)
        )
        status = settle_pending(status)
    return ExampleResult(
        id=example.id,
        path=example.rel,
        line=example.line,
        status=status,
        duration_s=float(raw.get("duration_s", 0.0)),
        message=message,
        stdout=stdout,
        substitutions=list(raw.get("substitutions", [])),
        images=list(raw.get("images", [])),
        pending=example.settings.pending,
        details=raw.get("traceback") or raw.get("stderr", ""),
    )


def not_run(example: Example, status: Outcome, message: str) -> ExampleResult:
    return settle(example, {"status": status.value, "message": message}, RunnerConfig())
