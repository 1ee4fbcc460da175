"""Hostile examples: each gets its own clear outcome, the run goes on, nothing is corrupted."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import jsonschema
import pytest

from guidelint.runner.run import RunOptions, run_examples

FIXTURES = Path(__file__).parents[1] / "fixtures" / "runner"
SCHEMA = Path(__file__).parents[2] / "guidelint" / "runner" / "report_schema.json"
OUTSIDE = Path("/tmp/guidelint-hostile-outside.txt")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    source = FIXTURES / "hostile.md"
    before = hashlib.sha256(source.read_bytes()).hexdigest()
    OUTSIDE.unlink(missing_ok=True)
    os.environ["GUIDELINT_TEST_SECRET"] = "hunter2-secret-value"
    try:
        report = run_examples(
            RunOptions(paths=[source], report_dir=tmp_path_factory.mktemp("report"), jobs=2)
        )
    finally:
        del os.environ["GUIDELINT_TEST_SECRET"]
    after = hashlib.sha256(source.read_bytes()).hexdigest()
    return report, {r.id: r for r in report.results}, before == after


def test_every_hostile_example_has_a_result(hostile):
    report, by_id, _ = hostile
    expected = {
        "loop",
        "exit3",
        "segfault",
        "huge-alloc",
        "flood",
        "network",
        "write-outside",
        "secret-get",
        "secret-index",
        "syntax",
        "typo",
        "fine",
        "unterminated",
    }
    assert set(by_id) == expected
    assert not report.ok


def test_infinite_loop_times_out(hostile):
    result = hostile[1]["loop"]
    assert result.status.value == "timeout"
    assert "process group was killed" in result.message


def test_os_exit_is_a_crash_with_its_status(hostile):
    result = hostile[1]["exit3"]
    assert result.status.value == "crashed"
    assert "status 3" in result.message
    assert result.stdout.startswith("before exit")


def test_segfault_is_a_crash_naming_the_signal(hostile):
    result = hostile[1]["segfault"]
    assert result.status.value == "crashed"
    assert "SIGSEGV" in result.message


def test_huge_allocation_hits_the_memory_limit(hostile):
    result = hostile[1]["huge-alloc"]
    assert result.status.value == "crashed"
    assert "memory limit" in result.message


def test_output_flood_is_stopped_and_truncated(hostile):
    result = hostile[1]["flood"]
    assert result.status.value == "crashed"
    assert "output limit" in result.message
    assert len(result.stdout) < 1024 * 1024


def test_network_is_refused(hostile):
    result = hostile[1]["network"]
    assert result.status.value == "refused"
    assert "network access is disabled" in result.message


def test_write_outside_scratch_is_refused(hostile):
    result = hostile[1]["write-outside"]
    assert result.status.value == "refused"
    assert "outside the example's scratch folder" in result.message
    assert not OUTSIDE.exists()


def test_secrets_are_not_in_the_environment(hostile):
    by_id = hostile[1]
    assert by_id["secret-get"].status.value == "passed"
    assert by_id["secret-get"].stdout.strip() == "None"
    assert by_id["secret-index"].status.value == "error"
    assert "env-allowlist" in by_id["secret-index"].message
    assert all("hunter2" not in r.stdout + r.message + r.details for r in by_id.values())


def test_syntax_error_is_an_error_at_its_markdown_line(hostile):
    result = hostile[1]["syntax"]
    assert result.status.value == "error"
    assert "SyntaxError" in result.message
    assert "line 62" in result.message


def test_directive_typo_is_an_error_and_not_run(hostile):
    result = hostile[1]["typo"]
    assert result.status.value == "error"
    assert "did you mean 'pending'" in result.message
    assert result.stdout == ""


def test_unterminated_fence_is_an_error_and_not_run(hostile):
    result = hostile[1]["unterminated"]
    assert result.status.value == "error"
    assert "never closed" in result.message


def test_the_run_continues_after_hostile_examples(hostile):
    assert hostile[1]["fine"].status.value == "passed"


def test_markdown_untouched_and_report_valid(hostile):
    report, _, unchanged = hostile
    assert unchanged
    data = json.loads(json.dumps(report.as_json()))
    jsonschema.validate(data, json.loads(SCHEMA.read_text()))


def _namespaces_allowed() -> bool:
    from guidelint.runner.sandbox import isolate_network

    pid = os.fork()
    if pid == 0:
        os._exit(0 if isolate_network() else 1)
    return os.waitpid(pid, 0)[1] == 0


def test_native_code_cannot_reach_the_network_either(tmp_path):
    """Below the audit hook: a raw libc connect() to a port that is really listening."""
    import socket

    if not _namespaces_allowed():
        pytest.skip("this kernel does not allow unprivileged network namespaces")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        guide = tmp_path / "guide.md"
        guide.write_text(
            "```python\nimport ctypes, socket, struct\n\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "fd = libc.socket(socket.AF_INET, socket.SOCK_STREAM, 0)\n"
            f"addr = struct.pack('=H', socket.AF_INET) + struct.pack('!H', {port})\n"
            "addr += socket.inet_aton('127.0.0.1') + bytes(8)\n"
            "print('connected' if libc.connect(fd, addr, len(addr)) == 0 else 'blocked')\n"
            "```\n\n```output\nblocked\n```\n"
        )
        (result,) = run_examples(RunOptions(paths=[guide], report_dir=tmp_path / "r")).results
    assert result.status.value == "passed", (result.message, result.stdout)
