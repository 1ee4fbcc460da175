"""What runs inside one forked example process: sandbox, execute, report, exit.

The child runs one unit (a lone example, or every example of a session in
order, sharing one namespace). After each example it flushes stdout/stderr, writes
a boundary marker into both (so the worker can split the streams per example), and
sends one ChildRecord (a JSON line) on the result pipe. It never returns: it ends
with os._exit.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from guidelint.runner.outcomes import Outcome
from guidelint.runner.protocol import (
    Backend,
    ChildRecord,
    ExamplePayload,
    Judgement,
    UnitPayload,
    seal_record,
)
from guidelint.runner.verdict import classify_exception, one_line

# Kept in the report folder: images, and the videos export_to_video writes.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tiff", ".mp4", ".webm")


@dataclass
class ChildContext:
    """What the warm worker shares with every child it forks (inherited, never sent)."""

    settings: dict[str, Any]  # RunnerConfig.model_dump()
    root: str | None  # the project root
    removed_env: list[str]  # variables the allowlist removed
    gpu: bool = False
    backend: Backend | None = None  # preloaded
    backend_error: str | None = None  # why preloading failed
    sandbox: Any = None  # the worker's SandboxFeatures: which kernel walls to raise


def run_child(
    unit: UnitPayload,
    scratch: str,
    context: ChildContext,
    result_fd: int,
    marker: str,
    seal: str,
) -> None:
    """Entry point in the child; `scratch` is its own empty folder."""
    code = 0
    try:
        _single_threaded_torch()
        _enter_sandbox(scratch, context)
        backend = _activate_backend(unit, context)  # trusted code: before the file guard
        _guard_files(unit, scratch, context)
        namespace = {"__name__": "__main__", "__builtins__": __builtins__}
        images = _Images(scratch, unit["report_dir"], per_example=bool(unit["session"]))
        for index, example in enumerate(unit["examples"]):
            record = _run_one(index, example, namespace, context, backend, images)
            _boundary(marker)
            _write_all(result_fd, seal_record(record, seal))
    except BaseException:  # noqa: BLE001 - the worker reports a crash from the exit code
        traceback.print_exc()
        code = 70
    finally:
        _flush()
        os._exit(code)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def prepare() -> None:
    """Import, in the warm worker, what every child needs: forks then start warm."""
    import ast  # noqa: F401
    import asyncio  # noqa: F401
    import doctest  # noqa: F401
    import resource  # noqa: F401
    import shutil  # noqa: F401
    import tempfile  # noqa: F401

    from guidelint.runner import repl, sandbox  # noqa: F401


def _single_threaded_torch() -> None:
    """Forked after torch ran ops, its thread pool can deadlock unless we do this first."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def _enter_sandbox(scratch: str, context: ChildContext) -> None:
    from guidelint.runner import sandbox

    for sub in ("home", "tmp"):
        os.makedirs(os.path.join(scratch, sub), exist_ok=True)
    os.chdir(scratch)
    os.environ["HOME"] = os.path.join(scratch, "home")
    os.environ["TMPDIR"] = os.path.join(scratch, "tmp")
    import tempfile

    tempfile.tempdir = None  # re-read TMPDIR
    sys.dont_write_bytecode = True
    # The warm worker already moved into an empty network namespace where the kernel
    # allows it; the audit hook (installed later) refuses connections everywhere.
    if not context.gpu:  # CUDA cannot start under an address-space limit
        sandbox.limit_memory(context.settings["memory_limit_mb"])
    features = context.sandbox
    if features is not None and features.network_namespace:
        # Counted per user namespace: the worker's own, so only its processes count.
        sandbox.limit_processes(context.settings.get("max_processes", 512))


def _guard_files(unit: UnitPayload, scratch: str, context: ChildContext) -> None:
    from guidelint.runner import sandbox

    cache = context.settings.get("tiny_cache")
    if cache:
        cache = os.path.join(context.root or "", os.path.expanduser(cache))
    writable = [scratch, unit["report_dir"], cache or ""]
    features = context.sandbox
    if features is not None and features.landlock:
        devices = sandbox.writable_devices(context.gpu)
        if context.gpu and os.path.isdir("/dev/shm"):
            writable.append("/dev/shm")  # CUDA's inter-process memory lives there
        if not sandbox.confine_writes([p for p in writable if p], devices):
            raise RuntimeError("Landlock was available but could not be applied")
    if features is not None and features.seccomp and not sandbox.refuse_unix_sockets():
        raise RuntimeError("the seccomp filter was available but could not be applied")
    sandbox.install_guard(writable)


class _Backend:
    """The diffusers backend's hook for this child, and what it recorded."""

    def __init__(self, module: Backend | None, error: str | None) -> None:
        self.module, self.error = module, error
        self.substitutions: list[str] = []
        self.pipelines: list[str] = []  # classes instantiated, in order, repeats kept
        self.activation_count = 0

    def record(self, text: str) -> None:
        self.substitutions.append(str(text))

    def pipeline(self, class_name: str) -> None:
        self.pipelines.append(str(class_name))


def _activate_backend(unit: UnitPayload, context: ChildContext) -> _Backend:
    module = context.backend
    backend = _Backend(module, context.backend_error)
    if module is None or not unit["wants_backend"]:
        return backend
    settings = dict(context.settings)
    settings.update(report_dir=unit["report_dir"], gpu=context.gpu, root=context.root)
    settings["on_pipeline"] = backend.pipeline  # called with each pipeline class built
    try:
        module.activate(settings, backend.record)
        backend.activation_count = len(backend.substitutions)
    except Exception as error:  # reported on each example of the unit
        backend.error = f"the diffusers backend failed to activate: {one_line(error)}"
        backend.module = None
    return backend


def _run_one(
    index: int,
    example: ExamplePayload,
    namespace: dict[str, Any],
    context: ChildContext,
    backend: _Backend,
    images: _Images,
) -> ChildRecord:
    # What the backend recorded while activating applies to every example of the unit.
    activation = backend.substitutions[: backend.activation_count]
    started_subs = len(backend.substitutions)
    started_pipelines = len(backend.pipelines)
    clock = time.perf_counter()
    judgement = _precheck(example, context, backend) or _execute(example, namespace, context)
    return {
        **judgement,
        "index": index,
        "duration_s": time.perf_counter() - clock,
        "substitutions": activation + backend.substitutions[started_subs:],
        "images": images.keep(example),
        "pipelines": list(dict.fromkeys(backend.pipelines[started_pipelines:])),
    }


def _precheck(
    example: ExamplePayload, context: ChildContext, backend: _Backend
) -> Judgement | None:
    """Outcomes decided without running: skip, needs=gpu, an unavailable backend."""
    if example["skip"]:
        return {"status": Outcome.SKIPPED, "message": "skip directive"}
    if "gpu" in example["needs"] and not context.gpu:
        return {"status": Outcome.SKIPPED, "message": "needs=gpu: no GPU on this machine"}
    if example["requires_backend"] and backend.module is None:
        reason = backend.error or "the diffusers backend is not installed"
        return {"status": Outcome.MISSING_DEPENDENCY, "message": reason}
    return None


def _execute(
    example: ExamplePayload, namespace: dict[str, Any], context: ChildContext
) -> Judgement:
    if example["repl"]:
        from guidelint.runner.repl import run_repl

        strict = context.settings.get("doctest_output") == "strict"
        judgement = run_repl(example, namespace, context.removed_env, strict_output=strict)
    else:
        judgement = _run_script(example, namespace, context.removed_env)
    _flush()
    return judgement


def _run_script(
    example: ExamplePayload, namespace: dict[str, Any], removed_env: list[str]
) -> Judgement:
    import ast

    source = "\n" * (example["content_line"] - 1) + example["source"]
    expected = example["expect_error"]
    try:
        code = compile(
            source,
            example["filename"],
            "exec",
            flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
            dont_inherit=True,
        )
        outcome = eval(code, namespace)  # noqa: S307 - running the example is the point
        if outcome is not None and hasattr(outcome, "__await__"):
            import asyncio

            asyncio.run(_await(outcome))
    except SystemExit as error:
        if error.code not in (None, 0):
            return {
                "status": Outcome.ERROR,
                "message": f"the example exited with status {error.code}",
            }
    except BaseException as error:  # noqa: BLE001 - every failure becomes an outcome
        return classify_exception(error, example, removed_env)
    if expected:
        return {
            "status": Outcome.FAILED,
            "message": f"expected {expected} to be raised; nothing was",
        }
    return {"status": Outcome.PASSED, "message": ""}


async def _await(awaitable: Any) -> Any:
    return await awaitable


@dataclass
class _Images:
    """Copies the images examples write in the scratch folder into the report folder."""

    scratch: str
    report_dir: str
    per_example: bool  # a session's: one folder per example inside the session's
    seen: dict[str, float] = field(default_factory=dict)  # path -> mtime when copied

    def keep(self, example: ExamplePayload) -> list[str]:
        """The images this example wrote, where they were copied to."""
        import shutil

        kept = []
        target = self.report_dir
        if self.per_example:
            target = os.path.join(target, example["slug"])
        for folder, dirs, files in os.walk(self.scratch):
            dirs[:] = [d for d in dirs if d not in ("home", "tmp")]
            for name in files:
                path = os.path.join(folder, name)
                if not name.lower().endswith(IMAGE_SUFFIXES):
                    continue
                try:
                    mtime = os.path.getmtime(path)
                    if self.seen.get(path) == mtime:
                        continue  # an earlier example of the session wrote it
                    self.seen[path] = mtime
                    destination = os.path.join(target, os.path.relpath(path, self.scratch))
                    os.makedirs(os.path.dirname(destination), exist_ok=True)
                    shutil.copy2(path, destination)
                    kept.append(destination)
                except OSError:
                    continue
        return kept


def _boundary(marker: str) -> None:
    _flush()
    for fd in (1, 2):
        try:
            os.write(fd, marker.encode())
        except OSError:
            pass


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a closed stream must not hide the result
            pass
