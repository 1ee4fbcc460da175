"""Live listings over real stdio: the bundled lab server and the fault servers.

Every fault must end with one line naming the server and what went wrong, and
leave no server process behind. The servers run concurrently, in one listing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check
from guidelint.tools.live import list_servers
from guidelint.tools.servers import ServerSpec

TESTS = Path(__file__).parents[1]
FAULT = str(TESTS / "fixtures/tools/fault_server.py")
WORKSPACE = TESTS.parent / "examples/workspace"

FAULTS = {  # name: (arguments, timeout)
    "healthy": (["normal"], 30),
    "mute": (["silent"], 1.5),
    "crasher": (["exit"], 30),
    "chatty": (["garbage"], 30),
    "paged": (["pages", "2500"], 30),
    "sluggish": (["slow", "60"], 1.5),
    "patient": (["slow", "0.5"], 30),
    "looper": (["loop"], 30),
    "picky": (["picky"], 30),
}


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead, merely not yet reaped
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


@pytest.fixture(scope="module")
def fault_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("faults")
    specs = [
        ServerSpec(
            name,
            "stdio",
            sys.executable,
            [FAULT, *args],
            env={"PIDFILE": str(tmp / f"{name}.pid")},
            timeout=timeout,
        )
        for name, (args, timeout) in FAULTS.items()
    ]
    listings = list_servers(specs, tmp)
    pids = {
        name: int((tmp / f"{name}.pid").read_text())
        for name in FAULTS
        if (tmp / f"{name}.pid").exists()
    }
    return listings, pids


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("mute", "mute: no answer to initialize within 1.5s"),
        ("crasher", "crasher: the server closed the connection during initialize"),
        (
            "chatty",
            "chatty: wrote a line that is not JSON-RPC to stdout: 'Loading model weights... 100%'",
        ),
        ("sluggish", "sluggish: no answer to initialize within 1.5s"),
        ("looper", "looper: tools/list returned the same nextCursor twice ('same')"),
    ],
)
def test_fault_is_one_line_naming_the_server(fault_run, name, expected):
    listing = fault_run[0][name]
    assert listing.error is not None and listing.error.startswith(expected)
    assert "\n" not in listing.error and "Traceback" not in listing.error


def test_crash_reason_comes_from_the_servers_stderr(fault_run):
    assert fault_run[0]["crasher"].error.endswith(
        "stderr: fault server: cannot open database /nonexistent/lab.db"
    )


def test_many_pages_are_followed_to_the_end(fault_run):
    listing = fault_run[0]["paged"]
    assert listing.error is None
    names = [t["name"] for t in listing.tools]
    assert len(names) == 2500 and names[0] == "tool_00000" and names[-1] == "tool_02499"


def test_healthy_servers_list_tools_and_prompts_beside_faulty_ones(fault_run):
    for name in ("healthy", "patient"):
        listing = fault_run[0][name]
        assert listing.error is None
        assert [t["name"] for t in listing.tools] == ["job_submit", "job_status"]
        assert [p["name"] for p in listing.prompts] == ["triage"]


def test_roots_sampling_and_elicitation_are_advertised(fault_run):
    listing = fault_run[0]["picky"]  # lists nothing to a client without them
    assert [t["name"] for t in listing.tools] == ["job_submit", "job_status"]


def test_no_server_process_outlives_the_listing(fault_run):
    _, pids = fault_run
    assert set(pids) == set(FAULTS)  # every server really started
    assert [name for name, pid in pids.items() if alive(pid)] == []


def test_bundled_lab_server_matches_its_committed_snapshot(tmp_path):
    spec = ServerSpec(
        "lab",
        "stdio",
        sys.executable,
        ["server/lab_server.py"],
        env={"LAB_ROOT": str(tmp_path)},
        cwd=str(WORKSPACE),
        timeout=60,
    )
    listing = list_servers([spec], WORKSPACE)["lab"]
    assert listing.error is None
    snapshot = json.loads((WORKSPACE / ".guidelint/tools/lab.json").read_text())
    assert sorted(t["name"] for t in listing.tools) == [t["name"] for t in snapshot["tools"]]
    live_schemas = {t["name"]: t["inputSchema"] for t in listing.tools}
    assert live_schemas == {t["name"]: t["inputSchema"] for t in snapshot["tools"]}
    assert [p["name"] for p in listing.prompts] == ["plan_smoke_run"]
    assert [r["uri"] for r in listing.resources] == ["lab://workspaces"]


def _project(tmp_path: Path, mode: str, toml: str = "") -> Path:
    (tmp_path / ".mcp.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "lab": {
                        "command": sys.executable,
                        "args": [FAULT, mode],
                        "env": {"PIDFILE": str(tmp_path / "server.pid")},
                    }
                }
            }
        )
    )
    (tmp_path / "pyproject.toml").write_text(f"[tool.guidelint.tools]\ntimeout = 60\n{toml}")
    (tmp_path / ".guidelint/tools").mkdir(parents=True)
    (tmp_path / ".guidelint/tools/lab.json").write_text(
        json.dumps({"tools": [{"name": "job_submit"}, {"name": "job_get_status"}]})
    )
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/guide.md").write_text("# Jobs\n\nPoll `mcp__lab__job_get_status`.\n")
    return tmp_path


def _check(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "guidelint", "check", "--no-cache", *args, str(root)],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=120,
    )


def test_live_failure_exits_2_with_one_line(tmp_path):
    result = _check(_project(tmp_path, "exit"), "--live")
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("guidelint: error: live tool listing failed: lab:")
    assert "cannot open database" in lines[0]


def test_live_failure_falls_back_to_the_snapshot_when_configured(tmp_path):
    root = _project(tmp_path, "exit", "fallback-to-snapshot = true\n")
    report = run_check(CheckOptions(paths=[root], live=True, use_cache=False))
    assert report.findings == []  # resolved against the snapshot
    [notice] = report.notices  # rules never print: the run collects the warning
    assert notice.startswith("lab: the server closed the connection")
    assert "using the snapshot .guidelint/tools/lab.json" in notice
    result = _check(root, "--live")
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("guidelint: warning: lab: the server closed the connection")


def test_live_mode_resolves_against_the_server_and_reports_the_stale_snapshot(tmp_path):
    report = run_check(
        CheckOptions(paths=[_project(tmp_path, "normal")], live=True, use_cache=False)
    )
    got = {(f.path, f.line, f.code): f.message for f in report.findings}
    assert set(got) == {("docs/guide.md", 3, "GL101"), (".mcp.json", 1, "GL108")}
    assert "(did you mean `job_status`?)" in got["docs/guide.md", 3, "GL101"]
    assert "added: `job_status`; removed: `job_get_status`" in got[".mcp.json", 1, "GL108"]


def test_plain_check_starts_no_server(tmp_path):
    root = _project(tmp_path, "exit")  # would fail loudly if started
    report = run_check(CheckOptions(paths=[root], use_cache=False))
    assert report.findings == []  # the snapshot still has the old name
    assert not (root / "server.pid").exists()


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen) -> None:
    import socket
    import time

    while process.poll() is None:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"lab server exited: {process.stderr.read()}")


def test_bundled_lab_server_over_streamable_http(tmp_path):
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "server/lab_server.py", "--http", str(port)],
        cwd=WORKSPACE,
        env={**os.environ, "LAB_ROOT": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for_port(port, process)
        spec = ServerSpec("lab", "http", url=f"http://127.0.0.1:{port}/mcp", timeout=60)
        listing = list_servers([spec], tmp_path)["lab"]
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert listing.error is None
    assert "job_status" in [t["name"] for t in listing.tools]
    assert [r["uri"] for r in listing.resources] == ["lab://workspaces"]


def test_unreachable_http_server_is_one_line(tmp_path):
    spec = ServerSpec("remote", "http", url=f"http://127.0.0.1:{_free_port()}/mcp", timeout=10)
    error = list_servers([spec], tmp_path)["remote"].error
    assert error.startswith("remote: cannot connect to the server (") and "\n" not in error
