"""From extracted examples to units of work, and from raw results to outcomes.

A unit is what one forked child runs: a lone example, or every example of one
`session=NAME` of one Markdown file, in document order (they share one namespace).
"""

from __future__ import annotations

import ast
from pathlib import Path

from guidelint.confine import safe_name
from guidelint.runner.config import RunnerConfig, RunnerSettings
from guidelint.runner.examples import Example
from guidelint.runner.outcomes import ExampleResult, Outcome, settle_pending
from guidelint.runner.outputs import compare
from guidelint.runner.protocol import ExamplePayload, RawResult, UnitPayload

BACKEND_MODULES = {"diffusers"}  # importing these needs the backend
BACKEND_FRIENDLY = {"diffusers", "torch", "transformers"}  # the backend may help these
# Imported by the warm worker before the fork when a backend example imports them (as
# `runner.warm-imports` are): otherwise each example pays for its own import inside its
# timeout (controlnet_aux: 0.2-0.6 s, measured in the Flux Control example).
BACKEND_WARM_IMPORTS = {"controlnet_aux", "torchvision"}


def slug(text: str) -> str:
    """A folder name for an id: a name, never a path (`..` and `/` cannot lead out)."""
    return safe_name(text)


def imports_of(example: Example) -> set[str]:
    """Top-level module names an example imports. One that does not parse as a whole (a
    broken line further down) still imports what its own import lines name: those lines
    run before the broken one fails."""
    source = example.python_source()
    try:
        trees = [ast.parse(source)]
    except (SyntaxError, ValueError):
        trees = [tree for line in source.splitlines() if (tree := _import_line(line))]
    return set().union(*(_imported(tree) for tree in trees))


def _import_line(line: str) -> ast.Module | None:
    if not line.startswith(("import ", "from ")):
        return None
    try:
        return ast.parse(line)
    except (SyntaxError, ValueError):
        return None


def _imported(tree: ast.Module) -> set[str]:
    names: set[str] = set()
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


def broken_unit(unit: list[Example]) -> list[ExampleResult] | None:
    """The outcomes of a unit that cannot run (an example in it cannot), else None."""
    problems = [static_problem(e) for e in unit]
    if not any(problems):
        return None
    return [
        not_run(e, Outcome.ERROR, p or "not run: its session has a broken example")
        for e, p in zip(unit, problems, strict=True)
    ]


def unit_payload(
    examples: list[Example], root: Path, config: RunnerSettings, report_dir: Path
) -> UnitPayload:
    first = examples[0]
    unit_id = f"{first.rel}:{first.line}"
    imports: set[str] = set().union(*(imports_of(e) for e in examples))
    wants_backend = bool(imports & BACKEND_FRIENDLY) or any(_needs_backend(e) for e in examples)
    warm = set(config.warm_imports) | (BACKEND_WARM_IMPORTS if wants_backend else set())
    return {
        "unit_id": unit_id,
        "session": first.settings.session,
        "report_dir": str(report_dir / slug(first.settings.session or first.id)),
        "wants_backend": wants_backend,
        "warm_imports": sorted(imports & warm),
        "examples": [_example_payload(e, root, config) for e in examples],
    }


def _needs_backend(example: Example) -> bool:
    return "diffusers" in example.settings.needs or bool(imports_of(example) & BACKEND_MODULES)


def _example_payload(example: Example, root: Path, config: RunnerSettings) -> ExamplePayload:
    settings = example.settings
    return {
        "id": example.id,
        "slug": slug(example.id),
        "filename": str(root / example.rel) if not Path(example.rel).is_absolute() else example.rel,
        "line": example.line,
        "content_line": example.content_line,
        "source": example.source,
        "repl": example.is_repl,
        "expect_error": settings.expect_error,
        "timeout_s": settings.timeout or config.timeout,
        "needs": list(settings.needs),
        "skip": settings.skip,
        "requires_backend": _needs_backend(example),
    }


def settle(example: Example, raw: RawResult, config: RunnerSettings) -> ExampleResult:
    """The final outcome: the child's verdict, then the output block, then pending."""
    status = raw["status"]
    message = raw["message"]
    stdout = raw["stdout"]
    if status is Outcome.PASSED and example.output is not None and not example.is_repl:
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
        duration_s=float(raw["duration_s"]),
        message=message,
        stdout=stdout,
        substitutions=list(raw["substitutions"]),
        images=list(raw["images"]),
        pipelines=list(raw.get("pipelines", [])),
        pending=example.settings.pending,
        details=raw.get("traceback") or raw["stderr"],
        source=example.source,
        source_line=example.content_line,
    )


def not_run(example: Example, status: Outcome, message: str) -> ExampleResult:
    """The outcome of an example that never reached a child."""
    raw: RawResult = {
        "status": status,
        "message": message,
        "index": 0,
        "duration_s": 0.0,
        "substitutions": [],
        "images": [],
        "pipelines": [],
        "stdout": "",
        "stderr": "",
    }
    return settle(example, raw, RunnerConfig())
