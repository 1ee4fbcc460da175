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
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from guidelint.runner.outcomes import Outcome
from guidelint.runner.protocol import (
    Backend,
    ChildRecord,
    ExamplePayload,
    Judgement,
    UnitPayload,
    commitment_line,
    seal_record,
)
from guidelint.runner.verdict import TINY_CACHES, classify_exception, one_line


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
) -> None:
    """Entry point in the child; `scratch` is its own empty folder."""
    import secrets

    code = 0
    try:
        # Made here, after the fork: the worker (and so every sibling forked from it)
        # only ever holds its digest.
        seal = secrets.token_hex(16)
        _write_all(result_fd, commitment_line(seal))
        _single_threaded_torch()
        _enter_sandbox(scratch, context)
        backend = _activate_backend(unit, context)  # trusted code: before the file guard
        _guard_files(scratch, context)
        namespace = _main_module()
        harness = HarnessState()
        for index, example in enumerate(unit["examples"]):
            changed = harness.changed() if index else None
            if changed is None:
                record = _run_one(index, example, namespace, context, backend)
            else:  # an earlier block rewrote the code that judges this one
                record = _not_judged(index, unit["session"], changed)
            _boundary(marker)
            _write_all(result_fd, seal_record(record, seal))
    except BaseException:  # noqa: BLE001 - the worker reports a crash from the exit code
        traceback.print_exc()
        code = 70
    finally:
        _flush()
        os._exit(code)


# What judges a session's blocks, in the process their code shares: an earlier block
# that rebinds any of it (a function, its code, a builtin the harness calls) could
# turn a later block's failure into a pass, so such a later block is not judged.
HARNESS_MODULES = (
    "guidelint.runner.child",
    "guidelint.runner.verdict",
    "guidelint.runner.repl",
    "guidelint.runner.protocol",
    "guidelint.runner.outcomes",
    "doctest",  # judges REPL examples
    "json",  # writes the records
)
HARNESS_BUILTINS = (
    "compile", "eval", "exec", "isinstance", "issubclass", "type", "getattr", "hasattr",
    "len", "str", "repr", "BaseException", "Exception", "SystemExit", "KeyboardInterrupt",
)  # fmt: skip


class HarnessState:
    """A snapshot of the harness's functions, classes, their code and the builtins it
    uses; `changed()` names the first one rebound since (an identity check, so a
    block that monkeypatches or swaps `__code__` is caught)."""

    def __init__(self) -> None:
        self.snapshot = _harness_objects()

    def changed(self) -> str | None:
        now = _harness_objects()
        for name, value in self.snapshot.items():
            if now.get(name) is not value:
                return name
        return None


def _harness_objects() -> dict[str, object]:
    import builtins

    found: dict[str, object] = {f"builtins.{n}": getattr(builtins, n) for n in HARNESS_BUILTINS}
    found.update({"os.write": os.write, "os._exit": os._exit, "sys.modules": sys.modules})
    for module_name in HARNESS_MODULES:
        module = sys.modules.get(module_name)
        found[module_name] = module
        for name, value in list(vars(module).items()) if module else []:
            if callable(value):
                _with_code(found, f"{module_name}.{name}", value)
            if isinstance(value, type) and value.__module__ == module_name:
                for attribute, member in list(vars(value).items()):
                    if callable(member):
                        _with_code(found, f"{module_name}.{name}.{attribute}", member)
    return found


def _with_code(found: dict[str, object], name: str, value: object) -> None:
    found[name] = value
    code = getattr(value, "__code__", None)
    if code is not None:
        found[f"{name}.__code__"] = code
        found[f"{name}.__defaults__"] = getattr(value, "__defaults__", None)


def _not_judged(index: int, session: str | None, changed: str) -> ChildRecord:
    message = (
        f"not judged: an earlier example of session '{session}' rebound guidelint's "
        f"harness in this process ({changed}); each block is judged on its own"
    )
    return {
        "status": Outcome.ERROR,
        "message": message,
        "index": index,
        "duration_s": 0.0,
        "substitutions": [],
        "images": [],
        "pipelines": [],
    }


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
    from multiprocessing import resource_sharer  # noqa: F401

    from guidelint.runner import fdshare, repl, sandbox  # noqa: F401

    sandbox.syscall_filter(os.uname().machine)  # the seccomp program, built once here


def _single_threaded_torch() -> None:
    """Forked after torch ran ops, its thread pool can deadlock unless we do this first.
    Autograd back on, as in a fresh interpreter: a library the warm worker imported
    for another example (cosmos_guardrail turns it off at import) must not decide it
    for this one."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
        torch.set_grad_enabled(True)


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
    if features is not None and features.private_shm:
        if not sandbox.private_shm(context.settings.get("memory_limit_mb", 4096)):
            raise RuntimeError("a private /dev/shm was available but could not be made")
    sandbox.limit_file_size(context.settings.get("disk_limit_mb", 1024))


def _guard_files(scratch: str, context: ChildContext) -> None:
    from guidelint.runner import sandbox

    # The scratch folder: nothing guidelint later reads outside the sandbox (the report
    # folder, .guidelint_cache, the tiny-model cache) is writable from here. The warm
    # worker builds what the examples load before the sandbox closes; a build still
    # needed after it is `build-failed` naming the component (build.in_writable_cache,
    # verdict.tiny_build_refusal), never made late, here or in the shared cache.
    writable = [scratch]
    TINY_CACHES[:] = _tiny_caches(context)
    features = context.sandbox
    if features is not None and features.private_shm:
        writable.append("/dev/shm")  # its own tmpfs (_enter_sandbox), not the host's
    elif context.gpu and os.path.isdir("/dev/shm"):
        writable.append("/dev/shm")  # CUDA's inter-process memory: the host's, shared
    if features is not None and features.landlock:
        devices = sandbox.writable_devices(context.gpu)
        if not sandbox.confine_writes(writable, devices):
            raise RuntimeError("Landlock was available but could not be applied")
    if features is not None and features.seccomp and not sandbox.restrict_syscalls():
        raise RuntimeError("the seccomp filter was available but could not be applied")
    sandbox.install_guard(writable)
    from guidelint.runner import fdshare

    fdshare.install()  # multiprocessing passes descriptors without a Unix socket


def _tiny_caches(context: ChildContext) -> list[str]:
    """Where the diffusers backend keeps tiny checkpoints: `runner.tiny-cache`,
    `$GUIDELINT_TINY_CACHE`, and its default in the user's cache."""
    from guidelint.confine import user_cache

    settings = context.settings
    configured = settings.get("tiny_cache")
    caches = (
        [os.path.join(context.root or "", os.path.expanduser(configured))] if configured else []
    )
    if settings.get("tiny_cache_env"):
        caches.append(os.path.expanduser(settings["tiny_cache_env"]))
    caches.append(os.path.join(user_cache(), "tiny"))
    return caches


def _main_module() -> dict[str, Any]:
    """The examples' namespace, as the `__main__` module: multiprocessing pickles a
    function an example defines by looking it up there (Pool.map(square, ...))."""
    main = ModuleType("__main__")
    main.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main
    return main.__dict__


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
    settings["timeouts"] = [example["timeout_s"] for example in unit["examples"]]
    settings["sources"] = [(example["source"], example["repl"]) for example in unit["examples"]]
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
        "images": [],  # the worker copies them from the scratch folder (keep.py)
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
        reason = backend.error or (
            "the diffusers backend is not installed: install guidelint[diffusers]"
        )
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
