"""Examples written by an attacker: each gets its own outcome and nothing escapes.

Every attack runs in real processes through `guidelint run` and is bounded (process
counts, bytes, seconds) so the test machine survives. Each test asserts the outcome
and that nothing escaped: the outside file is unchanged, no process is left (by
PID, after the run), the listeners received nothing, the later examples ran.
"""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from guidelint.runner.cgroup import MemoryCgroups, _mount_point
from guidelint.runner.run import RunOptions, RunReport, run_examples
from guidelint.runner.sandbox import SandboxFeatures, isolate_network

ROOT = Path(__file__).resolve().parents[2]
LINUX = sys.platform.startswith("linux")


def _features() -> SandboxFeatures:
    """What a worker on this machine gets (probed in a child: namespaces are one-way)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        features = SandboxFeatures.probe(isolate_network())
        flags = (features.landlock, features.pid_namespace, features.seccomp)
        os.write(write_fd, repr(flags).encode())
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd) as handle:
        landlock, pid_namespace, seccomp = eval(handle.read())  # noqa: S307 - our own repr
    os.waitpid(pid, 0)
    return SandboxFeatures(landlock, pid_namespace, seccomp)


FEATURES = _features() if LINUX else SandboxFeatures()
needs_landlock = pytest.mark.skipif(FEATURES.landlock < 6, reason="Landlock ABI >= 6 needed")
needs_pid_namespace = pytest.mark.skipif(not FEATURES.pid_namespace, reason="no PID namespace")
needs_seccomp = pytest.mark.skipif(not FEATURES.seccomp, reason="no seccomp")


def _memory_cgroups() -> MemoryCgroups | None:
    """Whether a worker here can make memory cgroups (made and removed at once)."""
    groups = MemoryCgroups.create() if LINUX else None
    if groups:
        groups.close()
    return groups


CGROUPS = _memory_cgroups()
needs_memory_cgroup = pytest.mark.skipif(CGROUPS is None, reason="no memory cgroup here")


def _fence(source: str, info: str = "") -> str:
    return f"```python{(' ' + info) if info else ''}\n{source.strip()}\n```\n\n"


def _run(tmp_path: Path, *blocks: str, config: str = "", jobs: int = 2) -> RunReport:
    (tmp_path / "pyproject.toml").write_text(f"[tool.guidelint.runner]\n{config}")
    guide = tmp_path / "guide.md"
    guide.write_text("".join(blocks))
    before = guide.read_bytes()
    report = run_examples(RunOptions(paths=[guide], report_dir=tmp_path / "report", jobs=jobs))
    assert guide.read_bytes() == before, "the guide changed without --update"
    return report


def _by_id(report: RunReport) -> dict[str, object]:
    return {r.id: r for r in report.results}


def _gone(pid: int, seconds: float = 10.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        try:
            with open(f"/proc/{pid}/stat") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    if int(handle.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return found


@pytest.fixture
def outside(tmp_path_factory):
    """A file outside every scratch folder, and its content, to check it after."""
    path = tmp_path_factory.mktemp("outside") / "outside.txt"
    path.write_text("original\n")
    return path


# -- the result channel ---------------------------------------------------------------


def test_a_forged_pass_on_every_descriptor_is_the_examples_own_error(tmp_path):
    forge = """
import os
for fd in range(3, 256):
    try:
        os.write(fd, b'{"status": "passed"}\\n')
    except OSError:
        pass
raise ValueError("this example fails")
"""
    report = _run(tmp_path, _fence(forge, "{id=forge}"), _fence("print('later')", "{id=later}"))
    forged, later = _by_id(report)["forge"], _by_id(report)["later"]
    assert forged.status.value == "error", forged.message
    assert "result channel" in forged.message
    assert later.status.value == "passed" and later.stdout == "later\n"


def test_a_well_formed_record_without_the_seal_is_refused(tmp_path):
    forge = """
import json, os
line = json.dumps({"index": 0, "status": "passed", "message": "", "duration_s": 0.0,
                   "substitutions": [], "images": [], "pipelines": [],
                   "seal": "guess"}) + "\\n"
for fd in range(3, 256):
    try:
        os.write(fd, line.encode())
    except OSError:
        pass
os._exit(0)
"""
    (result,) = _run(tmp_path, _fence(forge)).results
    assert result.status.value == "error", result.message
    assert "the unit's seal" in result.message


@pytest.mark.parametrize(
    "garbage",
    [
        b"\\xff\\xfe not json at all\\n",
        b'{"status": "no-such-status"}\\n',
        b"[1, 2, 3]\\n",
        b'{"status": "passed", "index": "0"}\\n',
        b"\\n\\n{{{{\\n",
    ],
)
def test_garbage_on_the_result_channel_is_that_examples_outcome(tmp_path, garbage):
    attack = f"""
import os, time
for fd in range(3, 256):
    try:
        os.write(fd, {garbage.decode()!r}.encode("latin-1"))
    except OSError:
        pass
time.sleep(0.2)
"""
    report = _run(tmp_path, _fence(attack, "{id=garbage}"), _fence("print('ok')", "{id=after}"))
    by_id = _by_id(report)
    assert by_id["garbage"].status.value == "error", by_id["garbage"].message
    assert "result channel" in by_id["garbage"].message
    assert by_id["after"].status.value == "passed"


def test_os_exit_zero_mid_example_is_not_a_pass(tmp_path):
    attack = "import os\nprint('half')\nos._exit(0)\nraise AssertionError('never')"
    session = _fence("x = 1", "{session=s id=first}") + _fence(attack, "{session=s id=exits}")
    report = _run(tmp_path, session, _fence("print('after')", "{id=after}"))
    by_id = _by_id(report)
    assert by_id["first"].status.value == "passed"
    assert by_id["exits"].status.value == "crashed", by_id["exits"].message
    assert "status 0" in by_id["exits"].message
    assert by_id["after"].status.value == "passed"


def test_a_printed_boundary_marker_cannot_shift_outputs(tmp_path):
    attack = """
import sys
markers = set()
frame = sys._getframe()
while frame is not None:  # the harness's frames, below the example's
    value = frame.f_locals.get("marker")
    if isinstance(value, str) and value.startswith("\\x00guidelint-boundary-"):
        markers.add(value)
    frame = frame.f_back
print(len(markers), end="")
for marker in markers:
    print(marker, end="")
print("expected")
"""
    (result,) = _run(tmp_path, _fence(attack) + "```output\n1expected\n```\n").results
    assert result.status.value == "error", result.message
    assert "a boundary marker in its output" in result.message


# -- isolation between examples ---------------------------------------------------------


@needs_pid_namespace
def test_killing_the_parent_does_not_sink_the_later_examples(tmp_path):
    attack = """
import os, signal
for pid in (os.getppid(), 0):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError as error:
        print(type(error).__name__)
stat = open('/proc/self/stat').read().rsplit(')', 1)[1].split()
host_parent = int(stat[1])
grandparent = int(open(f'/proc/{host_parent}/stat').read().rsplit(')', 1)[1].split()[1])
for pid in (host_parent, grandparent):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError as error:
        print(type(error).__name__)
"""
    blocks = [_fence(attack, "{id=killer}")] + [
        _fence(f"print({n})", f"{{id=later-{n}}}") for n in range(4)
    ]
    report = _run(tmp_path, *blocks, jobs=1)
    by_id = _by_id(report)
    assert by_id["killer"].status.value in ("passed", "crashed")
    for n in range(4):
        assert by_id[f"later-{n}"].status.value == "passed", by_id[f"later-{n}"].message
        assert by_id[f"later-{n}"].stdout == f"{n}\n"


def test_a_killed_worker_is_replaced_and_the_rest_still_run(tmp_path):
    """Kill the warm worker (as native code might) while an example runs in it."""
    report_dir = tmp_path / "report"
    flag = tmp_path / "killed-once"
    victim = f"""
import os, pathlib, time
if pathlib.Path({str(flag)!r}).exists():
    print("rerun")
else:
    me = os.readlink('/proc/self')
    def parent(pid):
        return int(open(f'/proc/{{pid}}/stat').read().rsplit(')', 1)[1].split()[1])
    worker = parent(parent(me)) if os.getpid() == 1 else parent(me)
    pathlib.Path({str(report_dir / "victim" / "worker")!r}).write_text(str(worker))
    time.sleep(60)
"""
    killed: list[int] = []

    def kill_once() -> None:
        pid_file = report_dir / "victim" / "worker"
        for _ in range(600):
            if pid_file.exists() and pid_file.read_text():
                flag.write_text("x")
                killed.append(int(pid_file.read_text()))
                os.kill(killed[0], signal.SIGKILL)
                return
            time.sleep(0.05)

    thread = threading.Thread(target=kill_once, daemon=True)
    thread.start()
    blocks = [_fence(victim, "{id=victim timeout=30}")] + [
        _fence(f"print({n})", f"{{id=after-{n}}}") for n in range(3)
    ]
    report = _run(tmp_path, *blocks, jobs=1)
    thread.join(timeout=5)
    by_id = _by_id(report)
    assert killed and _gone(killed[0])
    assert by_id["victim"].status.value == "passed", by_id["victim"].message
    assert by_id["victim"].stdout == "rerun\n"  # retried alone in a fresh worker
    for n in range(3):
        assert by_id[f"after-{n}"].status.value == "passed", by_id[f"after-{n}"].message


def test_a_warm_import_that_kills_the_worker_fails_only_its_example(tmp_path, monkeypatch):
    """The worker imports what examples import before forking them; one such import
    ending the process must not crash the examples that never asked for it."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "fatal_import.py").write_text("import os\nos._exit(3)\n")
    path = os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH")) if p)
    monkeypatch.setenv("PYTHONPATH", path)
    config = 'warm-imports = ["fatal_import"]\nenv-allowlist = ["PATH", "PYTHONPATH"]\n'
    blocks = [_fence("import fatal_import", "{id=fatal}")] + [
        _fence(f"print({n})", f"{{id=plain-{n}}}") for n in range(3)
    ]
    by_id = _by_id(_run(tmp_path, *blocks, config=config, jobs=1))
    assert by_id["fatal"].status.value == "crashed"
    assert "status 3" in by_id["fatal"].message, by_id["fatal"].message
    for n in range(3):
        assert by_id[f"plain-{n}"].status.value == "passed", by_id[f"plain-{n}"].message


@needs_pid_namespace
def test_a_double_forked_daemon_dies_with_its_example(tmp_path, outside):
    attack = f"""
import os, time
read, write = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.write(write, os.readlink('/proc/self').encode())
        time.sleep(3)
        try:
            open({str(outside)!r}, 'a').write('daemon\\n')
        finally:
            os._exit(0)
    os._exit(0)
print(os.read(read, 32).decode())
"""
    (result,) = _run(tmp_path, _fence(attack)).results
    assert result.status.value == "passed", result.message
    assert _gone(int(result.stdout))
    time.sleep(3.5)  # past the moment the daemon would have written
    assert outside.read_text() == "original\n"


@needs_pid_namespace
def test_a_fork_bomb_is_bounded_and_leaves_nothing(tmp_path):
    attack = """
import os, time
me = os.readlink('/proc/self')
print(me, flush=True)
for _ in range(600):  # bounded: the limit is 256 processes per example
    try:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
    except OSError:
        break
time.sleep(30)
"""
    (result,) = _run(tmp_path, _fence(attack, "{timeout=20}"), jobs=1).results
    assert result.status.value in ("crashed", "error"), result.message
    example = int(result.stdout.split()[0])
    assert _gone(example)
    assert all(_gone(pid) for pid in _children(example))


def test_memory_of_forked_children_counts_against_the_limit(tmp_path):
    attack = """
import os, time
for _ in range(4):
    if os.fork() == 0:
        data = b'x' * (100 * 2**20)
        time.sleep(30)
        os._exit(0)
time.sleep(30)
"""
    report = _run(tmp_path, _fence(attack, "{timeout=25}"), config="memory-limit-mb = 256\n")
    (result,) = report.results
    assert result.status.value == "crashed", result.message
    assert "memory limit" in result.message


@needs_memory_cgroup
def test_each_example_has_its_own_memory_cgroup_at_the_limit_removed_after(tmp_path):
    assert CGROUPS is not None
    with open("/proc/self/mountinfo") as handle:
        mounts = [line.split() for line in handle]
    if CGROUPS.v2:
        mount, limit_file = _mount_point(mounts, "cgroup2", None), "memory.max"
    else:
        mount, limit_file = _mount_point(mounts, "cgroup", "memory"), "memory.limit_in_bytes"
    probe = f"""
line = next(line for line in open("/proc/self/cgroup") if "/guidelint-" in line)
folder = {mount!r} + line.rstrip().split(":", 2)[2]
print(folder)
print(open(folder + "/{limit_file}").read().strip())
"""
    report = _run(tmp_path, _fence(probe), _fence(probe), config="memory-limit-mb = 192\n")
    folders = []
    for result in report.results:
        assert result.status.value == "passed", result.message
        folder, limit = result.stdout.split()
        assert os.path.basename(os.path.dirname(folder)).startswith("guidelint-")
        assert os.path.basename(folder).startswith("example-")
        assert int(limit) == 192 * 2**20
        folders.append(folder)
    assert len(set(folders)) == 2, "two examples, two groups"
    assert not any(os.path.exists(f) or os.path.exists(os.path.dirname(f)) for f in folders)


@needs_memory_cgroup
def test_a_burst_of_processes_between_two_checks_is_stopped_by_the_kernel(tmp_path):
    # Three processes of 100 MB each against 128 MB, each gone within milliseconds: a
    # watchdog that looks five times a second can miss them; the cgroup cannot.
    burst = """
import subprocess, sys
fill = "data = b'x' * (100 * 2**20)"
processes = [subprocess.Popen([sys.executable, "-c", fill]) for _ in range(3)]
print([p.wait() for p in processes])
"""
    report = _run(tmp_path, _fence(burst, "{timeout=30}"), config="memory-limit-mb = 128\n")
    (result,) = report.results
    assert result.status.value == "crashed", (result.message, result.stdout)
    assert "memory cgroup" in result.message


def test_sigterm_ends_every_example_and_worker_and_removes_their_folders(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    report_dir = tmp_path / "report"
    example = f"""
import os, pathlib, time
if os.fork() == 0:
    os.setsid()
    time.sleep(120)
    os._exit(0)
me = os.readlink('/proc/self')
pathlib.Path({str(report_dir / "slow" / "pids")!r}).write_text(me + " " + os.getcwd())
time.sleep(120)
"""
    (tmp_path / "guide.md").write_text(_fence(example, "{id=slow timeout=100}"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "guidelint", "run", "guide.md", "--report-dir", str(report_dir)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    pid_file = report_dir / "slow" / "pids"
    for _ in range(600):
        if pid_file.exists() and pid_file.read_text():
            break
        time.sleep(0.05)
    example_pid, scratch = pid_file.read_text().split(" ", 1)
    workers = [p for p in _children(process.pid)]
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=20)
    assert process.returncode == 128 + signal.SIGTERM, stderr
    assert stderr.decode().strip().count("\n") == 0  # one line
    assert "stopped by SIGTERM" in stderr.decode()
    assert _gone(int(example_pid), seconds=3)
    assert all(_gone(w, seconds=3) for w in workers)
    assert not Path(scratch).exists()


# -- the file, socket and network walls -----------------------------------------------------


@needs_landlock
@pytest.mark.parametrize(
    "attack",
    [
        "import subprocess\nsubprocess.run(['sh', '-c', 'echo pwned >> OUTSIDE'])",
        "import os\nos.link('OUTSIDE', 'hl')\nopen('hl', 'w').write('pwned')",
        "import os\nd = os.open(os.path.dirname('OUTSIDE'), os.O_RDONLY)\n"
        "fd = os.open(os.path.basename('OUTSIDE'), os.O_WRONLY | os.O_TRUNC, dir_fd=d)\n"
        "os.write(fd, b'pwned')",
        "import sqlite3\n"
        "sqlite3.connect(os.path.dirname('OUTSIDE') + '/x.db').execute('create table t(x)')",
        "import ctypes\nlibc = ctypes.CDLL(None)\n"
        "fd = libc.open(b'OUTSIDE', 0o1001)\nassert fd < 0, 'native open succeeded'",
        "import multiprocessing as mp\nctx = mp.get_context('spawn')\n"
        "p = ctx.Process(target=open, args=('OUTSIDE', 'w'))\np.start(); p.join()",
        "open('/dev/shm/guidelint-escape', 'w').write('x')",
    ],
    ids=["subprocess", "hardlink", "dir-fd", "sqlite", "ctypes", "spawn", "dev-shm"],
)
def test_writes_outside_scratch_are_refused_by_the_kernel(tmp_path, outside, attack):
    source = "import os\n" + attack.replace("OUTSIDE", str(outside))
    report = _run(tmp_path, _fence(source, "{id=attack}"), _fence("print('ok')", "{id=after}"))
    assert outside.read_text() == "original\n"
    assert sorted(p.name for p in outside.parent.iterdir()) == ["outside.txt"]
    assert not Path("/dev/shm/guidelint-escape").exists()
    assert _by_id(report)["after"].status.value == "passed"


@needs_landlock
def test_git_hooks_cannot_be_planted(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    hooks = repo / ".git" / "hooks"
    before = sorted(p.name for p in hooks.iterdir())
    attack = f"""
import subprocess
hook = '{hooks}/pre-commit'
subprocess.run(['sh', '-c', f'echo "touch /tmp/pwned" > {{hook}}; chmod +x {{hook}}'])
"""
    (result,) = _run(repo, _fence(attack)).results
    assert sorted(p.name for p in hooks.iterdir()) == before


@needs_seccomp
def test_a_host_unix_socket_is_not_reachable(tmp_path):
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    path = tmp_path / "host.sock"
    listener.bind(str(path))
    listener.listen(4)
    listener.setblocking(False)
    attack = f"""
import ctypes, socket
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect({str(path)!r})
    s.sendall(b'hello')
    print('connected')
except OSError as error:
    print(type(error).__name__)
libc = ctypes.CDLL(None)
print('native', libc.socket(1, 1, 0))
"""
    try:
        (result,) = _run(tmp_path, _fence(attack)).results
        with pytest.raises(BlockingIOError):
            listener.accept()
    finally:
        listener.close()
    assert "connected" not in result.stdout
    assert "native -1" in result.stdout


def test_a_host_tcp_listener_receives_nothing(tmp_path):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.setblocking(False)
    port = listener.getsockname()[1]
    attack = f"""
import ctypes, socket, struct
libc = ctypes.CDLL(None)
fd = libc.socket(2, 1, 0)
address = struct.pack('<HH4s8x', 2, socket.htons({port}), socket.inet_aton('127.0.0.1'))
print('native', libc.connect(fd, address, len(address)))
"""
    try:
        (result,) = _run(tmp_path, _fence(attack)).results
        with pytest.raises(BlockingIOError):
            listener.accept()
    finally:
        listener.close()
    assert "native -1" in result.stdout, result.stdout + result.message


def test_removing_a_scratch_file_by_absolute_path_after_chdir_is_allowed(tmp_path):
    example = """
import os
path = os.path.abspath('note.txt')
open(path, 'w').write('x')
os.chdir('/')
os.remove(path)
print('removed')
"""
    (result,) = _run(tmp_path, _fence(example)).results
    assert result.status.value == "passed", result.message


def test_the_canary_secret_is_not_there(tmp_path, monkeypatch):
    monkeypatch.setenv("GUIDELINT_CANARY_TOKEN", "canary-4f1d")
    example = "import subprocess\nprint(subprocess.run(['env'], capture_output=True).stdout)"
    (result,) = _run(tmp_path, _fence(example)).results
    assert "canary-4f1d" not in result.stdout


def test_the_report_says_which_walls_the_kernel_enforces(tmp_path):
    report = _run(tmp_path, _fence("print(1)"))
    assert report.sandbox is not None
    assert report.sandbox["landlock_abi"] == FEATURES.landlock
    assert report.sandbox["memory_cgroup"] == (CGROUPS is not None)
    gaps = report.sandbox["gaps"]
    assert ("sandbox: landlock unavailable, writes not confined" in gaps) == (not FEATURES.landlock)
    assert all(gap in report.notes for gap in gaps)
    assert report.as_json()["sandbox"] == report.sandbox


# -- guides are inputs ------------------------------------------------------------------


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "guidelint", "run", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "content",
    [b"```python\nprint(1)\n```\n\xff\n", b"```python\nprint(1)\x00\n```\n"],
    ids=["not-utf8", "binary"],
)
def test_an_unreadable_guide_fails_the_run_in_one_line(tmp_path, content):
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    (tmp_path / "guide.md").write_bytes(content)
    completed = _cli(tmp_path, "guide.md", "--report-dir", "r")
    assert completed.returncode == 1, completed.stdout + completed.stderr
    assert "OK:" not in completed.stdout
    lines = [line for line in completed.stdout.splitlines() if line.startswith("guide.md")]
    assert len(lines) == 1


def test_update_never_writes_control_bytes_into_a_guide(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    guide = tmp_path / "guide.md"
    guide.write_text("```python\nprint('a\\x00b\\x1bc')\n```\n\n```output\nold\n```\n")
    before = hashlib.sha256(guide.read_bytes()).hexdigest()
    completed = _cli(tmp_path, "guide.md", "--update", "--report-dir", "r")
    assert hashlib.sha256(guide.read_bytes()).hexdigest() == before
    notes = [line for line in completed.stdout.splitlines() if "not updated" in line]
    assert len(notes) == 1 and "control character" in notes[0]
    assert completed.returncode == 1
