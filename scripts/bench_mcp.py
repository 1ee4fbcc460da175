#!/usr/bin/env python3
"""Time a `check` through the warm `guidelint mcp` server against the CLI's cold start.

    .venv/bin/python scripts/bench_mcp.py [WORKSPACE ...] [--repeat N]

Each WORKSPACE (default: examples/workspace and this repository) is copied to a
scratch folder, then, best of --repeat each:

- CLI, no cache: `python -m guidelint check --format json --no-cache`, a new process;
- CLI, warm cache: the same without --no-cache after a first run filled the cache
  (the CLI's best case: only the start-up and the cache lookups are left);
- MCP, first call: the server's first `check` (its imports are paid at start-up);
- MCP, warm: a later `check` of the unchanged workspace through the same server,
  over real stdio with the SDK's client (request, JSON-RPC, structured result).

The ratio printed is CLI (warm cache) / MCP (warm): what an agent saves per check by
calling the server instead of shelling out. Every run's findings are compared, so a
fast wrong answer cannot win.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULTS = [REPO / "examples/workspace", REPO]
IGNORED = shutil.ignore_patterns(".git", ".venv*", "workspaces", "__pycache__", ".*cache*")


def env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path}


def cli_check(root: Path, *extra: str) -> tuple[float, list]:
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "guidelint", "check", "--format", "json", *extra],
        cwd=root,
        capture_output=True,
        text=True,
        env=env(),
        stdin=subprocess.DEVNULL,
        timeout=600,
    )
    seconds = time.perf_counter() - started
    if result.returncode not in (0, 1):
        raise SystemExit(f"guidelint check failed in {root}: {result.stderr.strip()}")
    return seconds, json.loads(result.stdout)["findings"]


def mcp_checks(root: Path, calls: int) -> tuple[float, list[float], list]:
    """Seconds to start the server, each call's seconds, the last call's findings."""
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import get_default_environment, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "guidelint", "mcp"],
        cwd=str(root),
        env={**get_default_environment(), "PYTHONPATH": env()["PYTHONPATH"]},
    )
    timings: list[float] = []
    out: dict = {}

    async def main() -> None:
        started = time.perf_counter()
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                out["start"] = time.perf_counter() - started
                for _ in range(calls):
                    begun = time.perf_counter()
                    result = await session.call_tool("check", {})
                    timings.append(time.perf_counter() - begun)
                    if result.is_error:
                        raise SystemExit(f"mcp check failed in {root}: {result.content}")
                    out["findings"] = result.structured_content["findings"]

    anyio.run(main)
    return out["start"], timings, out["findings"]


def bench(source: Path, repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / source.name
        shutil.copytree(source, root, ignore=IGNORED)
        cold = [cli_check(root, "--no-cache") for _ in range(repeat)]
        cli_check(root)  # fills the cache
        warm_cli = [cli_check(root) for _ in range(repeat)]
        start, calls, mcp_findings = mcp_checks(root, repeat + 1)
        if not cold[0][1] == warm_cli[0][1] == mcp_findings:
            raise SystemExit(f"{source}: the CLI and the server disagree on the findings")
        return {
            "workspace": str(source.relative_to(REPO)) if source != REPO else ".",
            "findings": len(mcp_findings),
            "cli_no_cache_s": min(s for s, _ in cold),
            "cli_warm_cache_s": min(s for s, _ in warm_cli),
            "mcp_start_s": start,
            "mcp_first_call_s": calls[0],
            "mcp_warm_call_s": min(calls[1:]),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspaces", nargs="*", type=Path, default=DEFAULTS)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, best of {args.repeat}")
    header = (
        f"{'workspace':<20} {'findings':>8} {'CLI no cache':>12} {'CLI cached':>10} "
        f"{'MCP 1st':>8} {'MCP warm':>9} {'speed-up':>8}"
    )
    print(header)
    for workspace in args.workspaces:
        row = bench(workspace.resolve(), args.repeat)
        ratio = row["cli_warm_cache_s"] / row["mcp_warm_call_s"]
        print(
            f"{row['workspace']:<20} {row['findings']:>8} {row['cli_no_cache_s'] * 1000:>10.0f}ms "
            f"{row['cli_warm_cache_s'] * 1000:>8.0f}ms {row['mcp_first_call_s'] * 1000:>6.0f}ms "
            f"{row['mcp_warm_call_s'] * 1000:>7.1f}ms {ratio:>7.1f}x"
        )


if __name__ == "__main__":
    main()
