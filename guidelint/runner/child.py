"""What runs inside one forked example process: sandbox, execute, report, exit.

The child runs one unit (a lone example, or every example of a session in
order, sharing one namespace). After each example it flushes stdout/stderr, writes
a boundary marker into both (so the worker can split the streams per example), and
sends one JSON line on the result pipe. It never returns: it ends with os._exit.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback

from guidelint.runner.verdict import classify_exception, one_line

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tiff")


def run_child(unit: dict, context: dict, result_fd: int, marker: str) -> None:
    """Entry point in the child; `context` is the worker's shared state."""
    code = 0
    try:
        _single_threaded_torch()
        _enter_sandbox(unit, context)
        backend = _activate_backend(unit, context)  # trusted code: before the file guard
        _guard_files(unit, context)
        namespace = {"__name__": "__main__", "__builtins__": __builtins__}
        for index, example in enumerate(unit["examples"]):
            record = _run_one(example, namespace, unit, context, backend)
            _boundary(marker)
            record["index"] = index
            os.write(result_fd, (json.dumps(record) + "\n").encode())
    except BaseException:  # noqa: BLE001 - the worker reports a crash from the exit code
        traceback.print_exc()
        code = 70
    finally:
        _flush()
        os._exit(code)


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


def _enter_sandbox(unit: dict, context: dict) -> None:
    from guidelint.runner import sandbox

    scratch = unit["scratch"]
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
    if not context.get("gpu"):  # CUDA cannot start under an address-space limit
        sandbox.limit_memory(context["settings"]["memory_limit_mb"])


def _guard_files(unit: dict, context: dict) -> None:
    from guidelint.runner import sandbox

    cache = context["settings"].get("tiny_cache")
    if cache:
        cache = os.path.join(context.get("root") or "", os.path.expanduser(cache))
    sandbox.install_guard([unit["scratch"], unit["report_dir"], cache or ""])


class _Backend:
    """The diffusers backend's hook for this child, and what it recorded."""

    def __init__(self, module, error: str | None) -> None:
        self.module, self.error = module, error
        self.substitutions: list[str] = []
        self.activation_count = 0

    def record(self, text: str) -> None:
        self.substitutions.append(str(text))


def _activate_backend(unit: dict, context: dict) -> _Backend:
    module = context.get("backend")
    backend = _Backend(module, context.get("backend_error"))
    if module is None or not unit.get("wants_backend"):
        return backend
    settings = dict(context["settings"])
    settings.update(
        report_dir=unit["report_dir"], gpu=context.get("gpu", False), root=context.get("root")
    )
    try:
        module.activate(settings, backend.record)
        backend.activation_count = len(backend.substitutions)
    except Exception as error:  # reported on each example of the unit
        backend.error = f"the diffusers backend failed to activate: {one_line(error)}"
        backend.module = None
    return backend


def _run_one(example: dict, namespace: dict, unit: dict, context: dict, backend) -> dict:
    # What the backend recorded while activating applies to every example of the unit.
    activation = backend.substitutions[: backend.activation_count]
    started_subs = len(backend.substitutions)
    clock = time.perf_counter()
    record = _precheck(example, context, backend)
    if record is None:
        record = _execute(example, namespace)
    record["duration_s"] = time.perf_counter() - clock
    record["substitutions"] = activation + backend.substitutions[started_subs:]
    record["images"] = _keep_images(unit, example)
    return record


def _precheck(example: dict, context: dict, backend) -> dict | None:
    """Outcomes decided without running: skip, needs=gpu, an unavailable backend."""
    if example.get("skip"):
        return {"status": "skipped", "message": "skip directive"}
    if "gpu" in example.get("needs", ()) and not context.get("gpu"):
        return {"status": "skipped", "message": "needs=gpu: no GPU on this machine"}
    if example.get("requires_backend") and backend.module is None:
        reason = backend.error or "the diffusers backend is not installed"
        return {"status": "missing-dependency", "message": reason}
    return None


def _execute(example: dict, namespace: dict) -> dict:
    if example["session"]:
        from guidelint.runner.repl import run_repl

        result = run_repl(example, namespace)
    else:
        result = _run_script(example, namespace)
    _flush()
    return result


def _run_script(example: dict, namespace: dict) -> dict:
    import ast

    source = "\n" * (example["content_line"] - 1) + example["source"]
    expected = example.get("expect_error")
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
            return {"status": "error", "message": f"the example exited with status {error.code}"}
    except BaseException as error:  # noqa: BLE001 - every failure becomes an outcome
        return classify_exception(error, example, expected)
    if expected:
        return {"status": "failed", "message": f"expected {expected} to be raised; nothing was"}
    return {"status": "passed", "message": ""}


async def _await(awaitable):
    return await awaitable


def _keep_images(unit: dict, example: dict) -> list[str]:
    """Copy images the example wrote in its scratch folder into the report folder."""
    import shutil

    kept = []
    seen = unit.setdefault("_images_seen", {})
    scratch, target = unit["scratch"], unit["report_dir"]
    if unit.get("session"):  # one folder per session, one per example inside it
        target = os.path.join(target, example["slug"])
    for folder, dirs, files in os.walk(scratch):
        dirs[:] = [d for d in dirs if d not in ("home", "tmp")]
        for name in files:
            path = os.path.join(folder, name)
            if not name.lower().endswith(IMAGE_SUFFIXES):
                continue
            try:
                mtime = os.path.getmtime(path)
                if seen.get(path) == mtime:
                    continue  # an earlier example of the session wrote it
                seen[path] = mtime
                destination = os.path.join(target, os.path.relpath(path, scratch))
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
