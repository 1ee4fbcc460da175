"""How an example ended: its exception, and what its child left behind.

`classify_exception` runs in the child, on what an example raised (a script's, or
the first unexpected one of a REPL example). `unit_results` runs in the worker
after a unit's child is gone, on its records, streams and exit status. The raw
status is final except for output checking and pending, which the caller settles
(it has the documents).
"""

from __future__ import annotations

import os
import re
import signal
import traceback
from collections.abc import Sequence
from typing import Protocol

from guidelint.runner.outcomes import Outcome
from guidelint.runner.protocol import ChildRecord, ExamplePayload, Judgement, RawResult, UnitPayload

MAX_MESSAGE_CHARS = 4000
# diffusers' and transformers' requires_backends: "X requires the scipy library but ..."
REQUIRES_LIBRARY = re.compile(r"requires the ([\w.-]+) library")
# diffusers' own checks name the pip command: "insightface is not available. Please
# install it using 'pip install insightface'", "PyAV is required ... `pip install av`".
PIP_INSTALL = re.compile(r"\bpip install (?:-U |--upgrade )?['\"`]?([A-Za-z0-9][\w.-]*)")
# torchaudio's load() without torchcodec: "TorchCodec is required for load_with_torchcodec.
# Please install torchcodec to use this function."
PLEASE_INSTALL = re.compile(r"\bis required\b.*\bPlease install ([A-Za-z][\w.-]*) to use\b")
# diffusers' Mel (audio diffusion) without librosa: a ValueError, "Cannot import librosa
# because No module named 'librosa'. Make sure to correctly install librosa ..."
CANNOT_IMPORT = re.compile(r"^Cannot import ([A-Za-z][\w.-]*) because")
# diffusers' LoRA methods without peft: a ValueError that names no pip command.
NEEDS_PEFT = "PEFT backend is required"
# Module names whose pip distribution is named otherwise.
PIP_NAMES = {
    "cv2": "opencv-python-headless",
    "PIL": "Pillow",
    "sklearn": "scikit-learn",
    "imageio_ffmpeg": "imageio-ffmpeg",
    "OpenCV": "opencv-python-headless",
    "PyTorch": "torch",
    "Torchvision": "torchvision",  # transformers capitalizes it
    "invisible_watermark": "invisible-watermark",
}
KEEP_STREAM_BYTES = 256 * 1024  # of stdout and of stderr, per unit, for the report
SIGNAL_NUMBERS = {s.value for s in signal.Signals}
SIGNAL_HINTS: dict[int, str] = {  # Signals are ints: a wait status's number finds them
    signal.SIGSEGV: "segmentation fault",
    signal.SIGABRT: "aborted",
    signal.SIGBUS: "bus error",
    signal.SIGFPE: "floating-point exception",
    signal.SIGKILL: "killed, possibly for running out of memory",
}


class FinishedChild(Protocol):
    """What a unit's child left behind (the worker's Child)."""

    unit: UnitPayload
    buffers: dict[str, bytes]  # "stdout", "stderr": what was kept of each stream
    written: int  # bytes of stdout + stderr, counted even beyond what was kept
    records: list[ChildRecord]
    stopped: tuple[Outcome, str] | None  # (outcome, why) when the worker stopped it
    tampered: str | None  # why its result channel is not trusted
    wait_status: int | None
    example_started: float  # when its last record came (or it started)
    ended_at: float | None  # when it was reaped


def unit_results(child: FinishedChild, marker: str) -> list[RawResult]:
    """Every example's result, as the worker observed it.

    A record stands only when the harness's records match the streams and its
    process then ended cleanly (exit status 0): a pass cannot come from a child
    that wrote a forged line, printed a boundary marker, or left with os._exit.
    """
    examples = child.unit["examples"]
    _distrust_forged_markers(child, marker)
    stdout = _split(child.buffers["stdout"], marker, len(examples))
    stderr = _split(child.buffers["stderr"], marker, len(examples))
    truncated = child.written > 0 and any(
        len(child.buffers[name]) >= KEEP_STREAM_BYTES for name in ("stdout", "stderr")
    )
    results: list[RawResult] = []
    for index in range(len(examples)):
        if index < len(child.records):
            record = child.records[index]
        elif index == len(child.records):
            record = _unrecorded(
                index,
                {"status": _end_status(child), "message": _end_message(child, stderr[index])},
                duration_s=(child.ended_at or 0) - child.example_started,
            )
        else:
            not_run: Judgement = {"status": Outcome.ERROR, "message": _not_run(child)}
            record = _unrecorded(index, not_run)
        result: RawResult = {
            **record,
            "index": index,
            "stdout": stdout[index],
            "stderr": stderr[index][-4000:],
        }
        if truncated and index == len(child.records):
            result["stdout"] += "\n[output truncated by guidelint]"
        results.append(result)
    last = results[-1] if results and len(child.records) == len(examples) else None
    if last is not None and child.tampered:
        last["status"], last["message"] = Outcome.ERROR, _tamper_message(child.tampered)
    elif last is not None and not _clean_exit(child):
        last["status"], last["message"] = _end_status(child), _after_end_message(child)
    return results


def _distrust_forged_markers(child: FinishedChild, marker: str) -> None:
    """More boundary markers than records: the example printed one to shift outputs."""
    token = marker.encode()
    if child.tampered is None and any(
        child.buffers[name].count(token) > len(child.records) for name in ("stdout", "stderr")
    ):
        child.tampered = "a boundary marker in its output"
        child.stopped = child.stopped or (Outcome.ERROR, _tamper_message(child.tampered))


def _tamper_message(why: str) -> str:
    return (
        "its result channel carried something guidelint's runner did not write "
        f"({why}); the example was stopped"
    )


def _clean_exit(child: FinishedChild) -> bool:
    status = child.wait_status or 0
    return child.stopped is None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def _after_end_message(child: FinishedChild) -> str:
    if child.stopped:
        return child.stopped[1]
    return "ran to its end, but then " + _end_message(child, "").removeprefix("the example's ")


def _unrecorded(index: int, judgement: Judgement, duration_s: float = 0.0) -> ChildRecord:
    """The record of an example its child never reported on."""
    return {
        **judgement,
        "index": index,
        "duration_s": duration_s,
        "substitutions": [],
        "images": [],
        "pipelines": [],
    }


def _split(data: bytes, marker: str, count: int) -> list[str]:
    parts = data.decode("utf-8", "replace").split(marker)
    parts += [""] * (count - len(parts))
    return parts[:count]


def _end_status(child: FinishedChild) -> Outcome:
    return child.stopped[0] if child.stopped else Outcome.CRASHED


def _end_message(child: FinishedChild, stderr: str) -> str:
    if child.stopped:
        return child.stopped[1]
    status = child.wait_status or 0
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        name = signal.Signals(number).name if number in SIGNAL_NUMBERS else number
        hint = SIGNAL_HINTS.get(number)
        return f"the example's process was killed by {name}" + (f" ({hint})" if hint else "")
    code = os.WEXITSTATUS(status)
    if code == 70 and "Traceback" in stderr:
        return "guidelint's runner failed inside the example process: " + _last_line(stderr)
    return f"the example's process exited with status {code} before it finished (os._exit?)"


def _not_run(child: FinishedChild) -> str:
    session = child.unit["session"] or "?"
    return f"not run: an earlier example of session '{session}' did not finish"


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def classify_exception(
    error: BaseException, example: ExamplePayload, removed_env: Sequence[str]
) -> Judgement:
    """What an exception an example raised means (`removed_env`: the allowlist's victims)."""
    where = _where(error, example["filename"])
    described = f"{where}{type(error).__name__}: {full_message(error)}"
    expected = example["expect_error"]
    if expected and _is_a(error, expected):
        return {"status": Outcome.PASSED, "message": f"raised {type(error).__name__} as expected"}
    declared = _declared_outcome(error)
    if declared in (
        Outcome.UNSUPPORTED_MODEL.value,
        Outcome.BUILD_FAILED.value,
        Outcome.TIMEOUT.value,
    ):
        return {"status": Outcome(declared), "message": described}
    build = tiny_build_refusal(error)
    if build is not None and not expected:
        return {"status": Outcome.BUILD_FAILED, "message": f"{where}{build}"}
    refusal = sandbox_refusal(error, example["filename"])
    if refusal is not None and not expected:
        return {"status": Outcome.REFUSED, "message": f"{where}{refusal}"}
    package = missing_package(error)
    if package is not None:
        return {
            "status": Outcome.MISSING_DEPENDENCY,
            "message": f"{described}\n(missing package: {package}; {install_hint(package)})",
        }
    if isinstance(error, MemoryError):
        # numpy's says what it asked for ("Unable to allocate 1.15 GiB for an array with
        # shape (1, 121, 704, 1216, 3) and data type float32"): the measured cost
        asked_for = f" ({str(error).strip()})" if str(error).strip() else ""
        return {
            "status": Outcome.CRASHED,
            "message": f"{where}MemoryError: the memory limit "
            f"(runner.memory-limit-mb) was exceeded{asked_for}",
        }
    asked = TORCH_ALLOCATION.search(str(error)) if isinstance(error, RuntimeError) else None
    if asked:  # torch's allocator refused one tensor: the example's size, not a bug
        return {
            "status": Outcome.CRASHED,
            "message": f"{where}out of memory: torch could not allocate one tensor of "
            f"{int(asked.group(1)) / 2**30:.1f} GiB beside what the example already held "
            "(runner.memory-limit-mb)",
            "traceback": _traceback(error),
        }
    if isinstance(error, KeyError) and _env_key(error, removed_env):
        described += (
            " (environment variables outside runner.env-allowlist, and credentials, are removed)"
        )
    if expected:
        return {"status": Outcome.FAILED, "message": f"expected {expected}, got {described}"}
    return {"status": Outcome.ERROR, "message": described, "traceback": _traceback(error)}


# torch's CPU allocator: "DefaultCPUAllocator: can't allocate memory: you tried to
# allocate 26291374080 bytes"
TORCH_ALLOCATION = re.compile(r"can't allocate memory: you tried to allocate (\d+) bytes")


# How the diffusers backend's remote.py refuses a URL no fixture serves (raised as the
# library's own connection error): the sandbox has no network.
NO_NETWORK = "no network while examples run: "


# The diffusers backend's tiny-model caches, read-only inside the sandbox (set by the
# child before the example runs: `runner.tiny-cache`, $GUIDELINT_TINY_CACHE, the default).
TINY_CACHES: list[str] = []
BACKEND_DIR = os.path.join("guidelint", "runner", "diffusers_backend") + os.sep


def tiny_build_refusal(error: BaseException) -> str | None:
    """Why a tiny component could not be built, when the diffusers backend (not the
    example's own code) met the sandbox's refusal to write in the tiny-model cache: the
    warm worker did not build it before the sandbox closed, and after that the cache is
    read-only. None for any other error."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        path = _refused_path(current)
        if path is not None and _by_backend(current):
            component = _tiny_component(path)
            if component is not None:
                return (
                    f"guidelint could not build its tiny {component} (a fault of guidelint, "
                    "not of the example): it was not built before the sandbox closed, and "
                    f"the tiny-model cache is read-only inside it ({path})"
                )
        current = current.__cause__ or current.__context__
    return None


def _refused_path(error: BaseException) -> str | None:
    import errno

    if type(error).__name__ == "SandboxViolation":
        return getattr(error, "path", None)
    if isinstance(error, OSError) and error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        name = error.filename
        return os.fsdecode(name) if isinstance(name, (str, bytes)) else None
    return None


def _by_backend(error: BaseException) -> bool:
    frames = traceback.extract_tb(error.__traceback__)
    return any(BACKEND_DIR in frame.filename for frame in frames)


def _tiny_component(path: str) -> str | None:
    """The component or pipeline a path in a tiny-model cache belongs to
    (`<cache>/<versions>/components/DPTForDepthEstimation-1a2b/config.json` ->
    `DPTForDepthEstimation`); None outside every cache."""
    real = os.path.realpath(os.path.abspath(path))
    for cache in TINY_CACHES:
        base = os.path.realpath(cache)
        if real != base and not real.startswith(base.rstrip(os.sep) + os.sep):
            continue
        parts = os.path.relpath(real, base).split(os.sep)
        for kind, name in zip(parts, parts[1:], strict=False):
            if kind in ("components", "pipelines"):
                return name.split("-")[0] or name
        return parts[-1] if parts[-1] != "." else "model cache"
    return None


def sandbox_refusal(error: BaseException, filename: str) -> str | None:
    """What the sandbox refused, when that is why the example failed: a write outside
    the scratch folder (the audit hook's SandboxViolation, or the kernel's EACCES /
    EPERM / EROFS on a path outside it), a system call the seccomp allow-list does
    not let through (EPERM with no path), or a download no fixture serves (the
    backend's NO_NETWORK refusal). None for any other error."""
    import errno

    message = full_message(error)
    if NO_NETWORK in message:  # the diffusers backend's refusal of a download
        url = message[message.index(NO_NETWORK) + len(NO_NETWORK) :].strip().rstrip(">")
        return f"the sandbox refused a download: {url}"
    if type(error).__name__ == "SandboxViolation":
        return f"the sandbox refused it: {full_message(error).removeprefix('guidelint run: ')}"
    if not isinstance(error, OSError) or error.errno not in (
        errno.EACCES,
        errno.EPERM,
        errno.EROFS,
        errno.EXDEV,
    ):
        return None
    path = error.filename
    if path is not None:
        if _in_scratch(os.fsdecode(path) if isinstance(path, bytes) else str(path)):
            return None
        return (
            f"the sandbox refused a write outside the example's scratch folder: {path} "
            f"({error.strerror})"
        )
    if error.errno != errno.EPERM:
        return None
    call = _innermost_call(error, filename)
    return f"the sandbox refused the system call behind {call} ({error.strerror})"


def _in_scratch(path: str) -> bool:
    """Whether a path lies in the example's scratch folder (its working folder)."""
    scratch = os.path.realpath(os.getcwd())
    target = os.path.realpath(os.path.abspath(path))
    return target == scratch or target.startswith(scratch + os.sep)


def _innermost_call(error: BaseException, filename: str) -> str:
    """`socket.socket()` or the like: the call the example's line made that failed."""
    frames = traceback.extract_tb(error.__traceback__)
    inner = [f for f in frames if f.filename != filename]
    if inner:
        frame = inner[-1]
        return f"{os.path.basename(frame.filename)}:{frame.lineno} in {frame.name}()"
    own = [f for f in frames if f.filename == filename]
    return (own[-1].line or "the statement").strip() if own else "the statement"


def _declared_outcome(error: BaseException) -> str | None:
    """An outcome the raising code declares (the diffusers backend's UnsupportedModel),
    on the error or on what it was raised from."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        declared = getattr(type(current), "guidelint_outcome", None)
        if isinstance(declared, str):
            return declared
        current = current.__cause__ or current.__context__
    return None


def missing_package(error: BaseException) -> str | None:
    """The optional package an import failure is about, or None for another error.

    A module that is not installed (ModuleNotFoundError), and the ImportError that
    diffusers' and transformers' `requires_backends` raise ("X requires the scipy
    library but it was not found"), or diffusers' own checks that name the pip command
    ("... Please install it using 'pip install insightface'"), and its LoRA methods'
    "PEFT backend is required", and a name a library module imports only when a package
    is there (a NameError). A package that is installed is none of these (an old
    version, say). `cannot import name` is not one: that is a stale import, the
    example's own bug.
    """
    if isinstance(error, ModuleNotFoundError):
        top = (error.name or "?").split(".")[0]
        return None if _installed(top) and top != error.name else top
    if type(error).__name__ == "OptionalDependencyNotAvailable":
        return "an optional package of diffusers"
    if isinstance(error, ImportError):
        text = str(error)
        found = REQUIRES_LIBRARY.search(text) or PIP_INSTALL.search(text)
        found = found or PLEASE_INSTALL.search(text)
        if found and not _installed(_module_of(found.group(1))):
            return found.group(1)
    if isinstance(error, ValueError) and NEEDS_PEFT in str(error) and not _installed("peft"):
        return "peft"
    unimportable = CANNOT_IMPORT.search(str(error)) if isinstance(error, ValueError) else None
    if unimportable and not _installed(_module_of(unimportable.group(1))):
        return unimportable.group(1)
    if isinstance(error, NameError):
        return _guarded_import(error)
    return None


# diffusers' `if is_torchvision_available(): from .processor_omnigen import X`: without
# the package the name is never defined, and the first use is a NameError in that module.
GUARDED_IMPORT = (
    r"^if is_(\w+)_available\(\):\n"  # the guard, then its indented block
    r"(?:[ \t]+.*\n)*?[ \t]+from [\w.]+ import .*\b{name}\b"
)


def _guarded_import(error: NameError) -> str | None:
    """The missing package a library module imports `error.name` from only when present."""
    frames = traceback.extract_tb(error.__traceback__)
    if not error.name or not frames:
        return None
    try:
        with open(frames[-1].filename, encoding="utf-8") as module:
            source = module.read()
    except OSError:
        return None
    found = re.search(GUARDED_IMPORT.format(name=re.escape(error.name)), source, re.M)
    if found and not _installed(found.group(1)):
        return found.group(1)
    return None


def _module_of(package: str) -> str:
    """The module a pip name installs, as far as the name says (`imageio-ffmpeg`)."""
    by_pip_name = {pip: module for module, pip in PIP_NAMES.items()}
    return by_pip_name.get(package, package.replace("-", "_"))


def _installed(package: str) -> bool:
    """A module of an installed package that is missing is a stale import, not a
    missing package (`diffusers.models.controlnet_sd3` after diffusers moved it)."""
    import importlib.util

    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):
        return False


def install_hint(package: str) -> str:
    extra = extra_bringing(package)
    if extra:
        return f"pip install 'guidelint[{extra}]' brings it"
    return f"no guidelint extra brings it: pip install {PIP_NAMES.get(package, package)}"


def extra_bringing(package: str) -> str | None:
    """The guidelint extra whose requirements name `package` (module or pip name)."""
    from importlib.metadata import PackageNotFoundError, requires

    wanted = _normal(PIP_NAMES.get(package, package))
    try:
        requirements = requires("guidelint") or []
    except PackageNotFoundError:
        return None
    for line in requirements:
        name, _, marker = line.partition(";")
        found = re.match(r"[A-Za-z0-9._-]+", name.strip())
        extra = re.search(r"extra\s*==\s*[\"']([^\"']+)", marker)
        if found and extra and _normal(found.group()) == wanted and extra.group(1) != "all":
            return extra.group(1)
    return None


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _is_a(error: BaseException, name: str) -> bool:
    short = name.rsplit(".", 1)[-1]
    return any(k.__name__ == short or k.__qualname__ == name for k in type(error).__mro__)


def _env_key(error: KeyError, removed_env: Sequence[str]) -> bool:
    return bool(error.args) and error.args[0] in removed_env


def _where(error: BaseException, filename: str) -> str:
    """`line N: ` of the deepest frame inside the guide, if any."""
    line = None
    for frame, lineno in traceback.walk_tb(error.__traceback__):
        if frame.f_code.co_filename == filename:
            line = lineno
    return f"line {line}: " if line else ""


def _traceback(error: BaseException) -> str:
    """The traceback without the runner's frames that ran the example (they explain
    nothing to a reader). Runner frames the example's own call went through (the
    diffusers backend's stand-ins and patches) stay: a fault there is guidelint's, and
    the yardstick tells it from the example's by the innermost frame."""
    runner_dir = os.path.dirname(os.path.abspath(__file__))
    summary = traceback.TracebackException.from_exception(error)
    frames = list(summary.stack)
    while frames and frames[0].filename.startswith(runner_dir):
        frames.pop(0)
    summary.stack = traceback.StackSummary.from_list(frames)
    return "".join(summary.format())[-4000:]


def full_message(error: BaseException) -> str:
    """The whole message (diffusers' often spans lines), capped for the report."""
    return str(error).strip()[:MAX_MESSAGE_CHARS]


def one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return (text[0] if text else "")[:500]
