"""The `lab` MCP server of distill-lab: workspaces, jobs, artifacts and checkpoints.

Everything is real work on local folders under LAB_ROOT (default: ./workspaces):
a workspace is a folder, a job is a JSON file in its jobs/ folder, artifacts and
checkpoints are whatever files the runs left behind. Run it over stdio, or over streamable HTTP at http://127.0.0.1:PORT/mcp:

    python server/lab_server.py
    python server/lab_server.py --http PORT
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from pathlib import Path

from mcp.server.mcpserver import MCPServer

server = MCPServer("lab", instructions="Create workspaces, submit jobs, inspect their results.")
NAME = re.compile(r"^[a-z0-9][a-z0-9_\-]{0,63}$")
GPUS = ("cpu", "a100", "h100", "h200")


def lab_root() -> Path:
    return Path(os.environ.get("LAB_ROOT", "workspaces")).resolve()


def workspace_dir(workspace: str) -> Path:
    if not NAME.match(workspace):
        raise ValueError(f"bad workspace name {workspace!r}: use lower-case letters, digits, - and _")
    return lab_root() / workspace


def existing_workspace(workspace: str) -> Path:
    folder = workspace_dir(workspace)
    if not folder.is_dir():
        raise ValueError(f"no workspace {workspace!r} (create it with workspace_create)")
    return folder


@server.tool()
def workspace_create(name: str, config: str = "configs/production.toml") -> dict:
    """Create a workspace folder with runs/, jobs/ and artifacts/ and record its config."""
    folder = workspace_dir(name)
    for sub in ("runs", "jobs", "artifacts"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / "workspace.json").write_text(json.dumps({"name": name, "config": config}))
    return {"workspace": name, "path": str(folder)}


@server.tool()
def workspace_list() -> list[str]:
    """The names of all workspaces."""
    root = lab_root()
    return sorted(p.name for p in root.iterdir() if (p / "workspace.json").is_file()) if root.is_dir() else []


@server.tool()
def job_submit(workspace: str, script: str, gpu: str = "cpu", priority: int = 0) -> dict:
    """Queue a job that runs `script` in a workspace; returns its job id."""
    folder = existing_workspace(workspace)
    if gpu not in GPUS:
        raise ValueError(f"unknown gpu {gpu!r}: one of {', '.join(GPUS)}")
    job_id = uuid.uuid4().hex[:12]
    job = {"id": job_id, "workspace": workspace, "script": script, "gpu": gpu,
           "priority": priority, "status": "queued", "submitted": time.time()}
    (folder / "jobs" / f"{job_id}.json").write_text(json.dumps(job))
    return job


def _job_file(job_id: str) -> Path:
    for path in lab_root().glob(f"*/jobs/{job_id}.json"):
        return path
    raise ValueError(f"no job {job_id!r}")


@server.tool()
def job_status(job_id: str) -> dict:
    """The recorded state of one job (queued, running, done, failed, cancelled)."""
    return json.loads(_job_file(job_id).read_text())


@server.tool()
def job_cancel(job_id: str, reason: str = "") -> dict:
    """Cancel a queued or running job."""
    path = _job_file(job_id)
    job = json.loads(path.read_text())
    job.update(status="cancelled", reason=reason)
    path.write_text(json.dumps(job))
    return job


@server.tool()
def artifacts_list(workspace: str, pattern: str = "*") -> list[str]:
    """Files under the workspace's artifacts/ folder matching a glob."""
    folder = existing_workspace(workspace) / "artifacts"
    return sorted(str(p.relative_to(folder)) for p in folder.rglob(pattern) if p.is_file())


@server.tool()
def checkpoints_list(workspace: str, run: str | None = None) -> list[str]:
    """The checkpoint-N folders the Trainer saved, per run, in step order."""
    runs = existing_workspace(workspace) / "runs"
    folders = [runs / run] if run else sorted(p for p in runs.iterdir() if p.is_dir())
    found = [c for f in folders if f.is_dir() for c in f.glob("checkpoint-*") if c.is_dir()]
    found.sort(key=lambda c: (c.parent.name, int(c.name.rsplit("-", 1)[-1] or 0)))
    return [f"{c.parent.name}/{c.name}" for c in found]


@server.prompt()
def plan_smoke_run(workspace: str) -> str:
    """Plan a smoke run whose gate holds for the realized slice."""
    return f"Plan a smoke run in workspace {workspace}: derive max_steps from the realized rows."


@server.resource("lab://workspaces")
def workspaces_resource() -> str:
    """The workspace index as JSON."""
    return json.dumps(workspace_list())


if __name__ == "__main__":
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "--http":  # streamable HTTP on a local port
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run()
