#!/usr/bin/env python3
"""Fidelity of the tool-reference rules on published servers' own READMEs.

    /work/main/.venv/bin/python scripts/fidelity_tools.py [--json] [PACKAGE ...]

Each README in tests/fixtures/tools/readmes/ (copied from the package's npm
tarball or PyPI wheel by scripts/catalog_servers.py; tests/fixtures/tools/readmes/
SOURCES.md names package and version) is checked as `docs/README.md` of a scratch
project whose `.mcp.json` starts that package, so its references resolve against
the bundled catalog entry of the same version, and a second catalogued server is
declared beside it. Then one drift at a time is appended to the README:

- misspelt: a tool named in a tool sentence with two letters swapped, bare and
  qualified (`mcp__srv__...`);
- renamed: the server renames the tool (its snapshot says `<tool>_v2`), the
  README still calls the old name;
- wrong server: the tool under the other server's prefix, and under a server
  that is not declared at all;
- invented sibling: a made-up name in a parenthesised run of real tools;
- hyphenated: the tool with `_` and `-` swapped after "Use".

Reported: misses (a drift with no finding of the expected rule on its line), false
flags (a finding on the unchanged README, or one more than the drift's on a
variant), and the share of findings whose did-you-mean names the right tool.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from guidelint.check import CheckOptions, run_check  # noqa: E402
from guidelint.tools.published import Entry, entries, entry_file_name  # noqa: E402

READMES = REPO / "tests" / "fixtures" / "tools" / "readmes"
SERVER = "srv"
OTHER = "other"


# Names the READMEs themselves get wrong against their own release's tools/list,
# reviewed by hand: findings on them are real defects of the README, not false flags.
REVIEWED_README_DRIFT = {
    # The server lists `describe_table`.
    "mcp-server-sqlite": {"describe-table"},
    # The server lists `sequentialthinking`.
    "@modelcontextprotocol/server-sequential-thinking": {"sequential_thinking"},
    # The server lists `query-docs`; `get-library-docs` is the tool's old name.
    "@upstash/context7-mcp": {"get-library-docs"},
    # The server prefixes every tool with `API-` (`API-query-data-source`); the README
    # names them without it.
    "@notionhq/notion-mcp-server": {
        "query-data-source",
        "retrieve-a-data-source",
        "update-a-data-source",
        "create-a-data-source",
        "list-data-source-templates",
        "retrieve-a-database",
        "retrieve-page-markdown",
        "update-page-markdown",
    },
}


@dataclass
class Drift:
    kind: str
    line: str  # appended to the README
    code: str  # the rule expected to report it
    suggestion: str | None  # what the did-you-mean must name (None: nothing to suggest)
    snapshot: list[dict] | None = None  # the server's list when the drift renames a tool


@dataclass
class Result:
    package: str
    version: str
    baseline: list[str] = field(default_factory=list)  # findings on the unchanged README
    readme_defects: list[str] = field(default_factory=list)  # the reviewed ones among them
    misses: list[str] = field(default_factory=list)
    false_flags: list[str] = field(default_factory=list)
    suggestions: int = 0
    right_suggestions: int = 0
    drifts: int = 0


def launcher(entry: Entry) -> dict:
    if entry.registry == "npm":
        return {"command": "npx", "args": ["-y", entry.package]}
    return {"command": "uvx", "args": [entry.package]}


def swap(name: str) -> str:
    """Two neighbouring letters swapped, in the middle of the name."""
    middle = len(name) // 2
    for at in [middle, *range(1, len(name) - 1)]:
        pair = name[at : at + 2]
        if len(pair) == 2 and pair.isalpha() and pair[0] != pair[1]:
            return name[:at] + pair[::-1] + name[at + 2 :]
    return name + "x"


def hyphenated(name: str) -> str | None:
    if "_" in name:
        return name.replace("_", "-")
    if "-" in name:
        return name.replace("-", "_")
    return None


def drifts(entry: Entry, other: Entry) -> list[Drift]:
    names = [t["name"] for t in entry.data["tools"]]
    tool = max(names, key=lambda n: (len(n) >= 6, "_" in n or "-" in n, -names.index(n)))
    siblings = [n for n in names if n != tool][:2] or [tool]
    found = [
        Drift("misspelt", f"Call `{swap(tool)}` with the arguments above.", "GL104", tool),
        Drift("misspelt, qualified", f"Call `mcp__{SERVER}__{swap(tool)}`.", "GL101", tool),
        Drift(
            "renamed",
            f"Then call `mcp__{SERVER}__{tool}` again.",
            "GL101",
            f"{tool}_v2",
            snapshot=[
                {**t, "name": f"{tool}_v2"} if t["name"] == tool else t for t in entry.data["tools"]
            ],
        ),
        Drift("wrong server", f"Call `mcp__{OTHER}__{tool}`.", "GL103", SERVER),
        Drift("unknown server", f"Call `mcp__clock__{tool}`.", "GL102", f"mcp__{SERVER}__{tool}"),
        Drift(
            "invented sibling",
            "The server's tools ("
            + ", ".join(f"`{n}`" for n in [*siblings, "frobnicate_widgets"])
            + ") are listed above.",
            "GL104",
            None,
        ),
    ]
    flipped = hyphenated(tool)
    if flipped:
        found.append(Drift("hyphenated", f"Use `{flipped}` for this.", "GL104", tool))
    found.append(
        Drift("hyphenated, invented", f"Use `start-long-task-async` or `{tool}`.", "GL104", None)
    )
    return found


def findings(root: Path) -> list[tuple[int, str, str]]:
    report = run_check(CheckOptions(paths=[root], select=["GL1"], use_cache=False))
    return [(f.line, f.code, f.message) for f in report.findings if f.path == "docs/README.md"]


def write_project(root: Path, entry: Entry, other: Entry, readme: str) -> None:
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "README.md").write_text(readme, encoding="utf-8")
    servers = {SERVER: launcher(entry), OTHER: launcher(other)}
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def measure(entry: Entry, other: Entry, readme: str, scratch: Path) -> Result:
    result = Result(entry.package, entry.version)
    base_root = scratch / "base"
    write_project(base_root, entry, other, readme)
    baseline = findings(base_root)
    reviewed = REVIEWED_README_DRIFT.get(entry.package, set())
    for line, code, message in baseline:
        named = message.split("`")[1] if "`" in message else ""
        shown = f"{line}: {code} {message}"
        (result.readme_defects if named in reviewed else result.baseline).append(shown)
    text = readme if readme.endswith("\n") else readme + "\n"
    drift_line = text.count("\n") + 3  # after a blank line and a heading
    for number, drift in enumerate(drifts(entry, other)):
        root = scratch / f"drift{number}"
        write_project(root, entry, other, f"{text}\n## Drift\n\n{drift.line}\n")
        if drift.snapshot is not None:
            folder = root / ".guidelint" / "tools"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{SERVER}.json").write_text(json.dumps({"tools": drift.snapshot}))
        got = findings(root)
        result.drifts += 1
        on_line = [f for f in got if f[0] == drift_line + 1]
        if drift.snapshot is None:  # a renamed tool is rightly reported wherever it is named
            for extra in sorted(set(got) - set(baseline) - set(on_line)):
                result.false_flags.append(f"{drift.kind}: {extra[0]}: {extra[1]} {extra[2]}")
        hits = [f for f in on_line if f[1] == drift.code]
        for extra in on_line:
            if extra not in hits[:1]:
                result.false_flags.append(f"{drift.kind}: {extra[0]}: {extra[1]} {extra[2]}")
        if not hits:
            result.misses.append(f"{drift.kind}: {drift.line}")
            continue
        if drift.suggestion is not None:
            result.suggestions += 1
            if f"`{drift.suggestion}`" in hits[0][2]:
                result.right_suggestions += 1
            else:
                result.misses.append(f"{drift.kind}: wrong did-you-mean: {hits[0][2]}")
    result.false_flags = result.baseline + result.false_flags
    return result


def readme_of(entry: Entry) -> Path:
    return READMES / (entry_file_name(entry.package, entry.version)[: -len(".json")] + ".md")


def run(packages: list[str] | None = None) -> list[Result]:
    catalog = entries()
    wanted = [e for e in catalog.values() if packages is None or e.package in packages]
    results = []
    for entry in wanted:
        path = readme_of(entry)
        if not path.exists():
            continue
        other_name = "mcp-server-time" if entry.package != "mcp-server-time" else "mcp-server-fetch"
        with tempfile.TemporaryDirectory(prefix="guidelint-fidelity-") as tmp:
            readme = path.read_text(encoding="utf-8")
            results.append(measure(entry, catalog[other_name], readme, Path(tmp)))
    return results


def summary(results: list[Result]) -> dict:
    suggestions = sum(r.suggestions for r in results)
    right = sum(r.right_suggestions for r in results)
    return {
        "readmes": len(results),
        "drifts": sum(r.drifts for r in results),
        "misses": sum(len(r.misses) for r in results),
        "false_flags": sum(len(r.false_flags) for r in results),
        "readme_defects": sum(len(r.readme_defects) for r in results),
        "did_you_mean_right": f"{right}/{suggestions}",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", help="only these packages")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    options = parser.parse_args()
    results = run(options.packages or None)
    if options.json:
        print(json.dumps([r.__dict__ for r in results], indent=2))
    else:
        for r in results:
            right = f"{r.right_suggestions}/{r.suggestions}"
            print(
                f"{r.package}@{r.version}: {r.drifts} drifts, {len(r.misses)} missed, "
                f"{len(r.false_flags)} false flags, did-you-mean right {right}, "
                f"{len(r.readme_defects)} real defects of the README"
            )
            for line in r.misses:
                print(f"  miss: {line}")
            for line in r.false_flags:
                print(f"  false flag: {line}")
            for line in r.readme_defects:
                print(f"  README defect: {line}")
    print(json.dumps(summary(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
