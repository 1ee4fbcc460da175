"""What `guidelint run` passes between its processes, typed.

The client (`guidelint run` or the pytest plugin) writes JSON lines on the warm
worker's stdin: one `WorkerSetup`, then one `RunRequest` per unit. The worker
answers on its result pipe: `WorkerReady`, then one `UnitFinished` per unit. For
each unit it forks a child, which writes one `ChildRecord` per example on its own
result pipe; the worker adds each example's share of the streams (`RawResult`),
and plan.settle turns that into an ExampleResult.

Statuses are `Outcome` members all the way. Outcome is a str enum, so its JSON is
its value; `decode_record` and `decode_unit_finished` turn the value back into
the member on the reading side.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Mapping
from typing import Any, Literal, NotRequired, Protocol, TypedDict

from guidelint.runner.outcomes import Outcome


class Backend(Protocol):
    """What the warm worker asks of a backend (`guidelint.runner.diffusers_backend`,
    or the module `WorkerSetup.backend_module` names): a module with these two.

    `preload` runs once in the worker; it may take `names` (those the examples use)
    and `settings` (the runner's, with `root`), which the worker passes only where
    its signature names them. `activate` runs in each child whose unit wants the
    backend; `settings` holds the runner's settings, `report_dir`, `gpu`, `root`
    and `on_pipeline` (called with each pipeline class built); `record` hears each
    substitution made.
    """

    preload: Callable[..., object]

    def activate(self, settings: dict[str, Any], record: Callable[[str], None]) -> object: ...


DEFAULT_BACKEND = "guidelint.runner.diffusers_backend"


def load_backend(name: str | None) -> Backend:
    """The backend module `name` names (default: the diffusers one); ImportError if
    it cannot be imported."""
    import importlib

    module: Backend = importlib.import_module(name or DEFAULT_BACKEND)
    return module


class ExamplePayload(TypedDict):
    """One example of a unit, as its child needs it."""

    id: str
    slug: str  # its folder inside a session's report folder
    filename: str  # the Markdown file: tracebacks and doctest name it
    line: int  # the opening fence
    content_line: int  # the first line of code: errors give Markdown line numbers
    source: str
    repl: bool  # `>>>` prompts: run statement by statement with doctest
    expect_error: str | None  # the exception class it must raise
    timeout_s: float
    needs: list[str]
    skip: bool
    requires_backend: bool  # without the backend it is a missing dependency


class UnitPayload(TypedDict):
    """What one forked child runs: a lone example, or one session's examples in order."""

    unit_id: str  # FILE:LINE of its first example
    session: str | None  # the session's name (`session=NAME`), None for a lone example
    report_dir: str  # where the images its examples write are kept
    wants_backend: bool  # activate the backend in the child (it imports diffusers, torch...)
    warm_imports: list[str]  # modules the worker imports before forking it
    examples: list[ExamplePayload]


class WorkerSetup(TypedDict):
    """The first line on the worker's stdin."""

    settings: dict[str, Any]  # RunnerConfig.model_dump()
    jobs: int  # children running at once
    warm_imports: NotRequired[list[str]]
    preload_backend: NotRequired[bool]
    backend_module: NotRequired[str | None]  # default: guidelint.runner.diffusers_backend
    backend_names: NotRequired[list[str]]  # names the examples use: what preload imports
    root: NotRequired[str]  # the project root
    removed_env: NotRequired[list[str]]  # variables the allowlist removed (for hints)


class RunRequest(TypedDict):
    op: Literal["run"]
    unit: UnitPayload


class WorkerReady(TypedDict):
    """The worker's first answer, once its warm imports are done."""

    op: Literal["ready"]
    warm: list[str]  # the warm imports that succeeded
    gpu: bool
    backend: bool  # the backend was preloaded
    backend_error: str | None
    network_namespace: bool  # the worker moved into an empty network namespace
    sandbox: dict[str, Any]  # SandboxFeatures.as_json(): which walls the kernel enforces


class Judgement(TypedDict):
    """How one example ended, as its child decided (or the worker, for a child it stopped)."""

    status: Outcome
    message: str
    traceback: NotRequired[str]  # of an unexpected exception, without guidelint's frames


class ChildRecord(Judgement):
    """One JSON line on a child's result pipe, written after each example."""

    index: int  # the example's position in its unit
    duration_s: float
    substitutions: list[str]  # what the backend replaced
    images: list[str]  # copied into the report folder
    pipelines: list[str]  # the diffusers pipeline classes its process instantiated


class RawResult(ChildRecord):
    """One example's result as the worker reports it: its record and its streams."""

    stdout: str
    stderr: str


class UnitStarted(TypedDict):
    """Sent when a unit's child is forked: if the worker dies, these units were running."""

    op: Literal["started"]
    unit_id: str


class UnitFinished(TypedDict):
    op: Literal["unit"]
    unit_id: str
    results: list[RawResult]  # one per example of the unit, in order


def encode(message: Mapping[str, Any]) -> bytes:
    """One JSON line."""
    return (json.dumps(message) + "\n").encode()


class RecordRejected(ValueError):
    """A line on a child's result pipe that its harness did not write."""


RECORD_FIELDS: dict[str, type | tuple[type, ...]] = {
    "seal": str,
    "index": int,
    "status": str,
    "message": str,
    "duration_s": (int, float),
    "substitutions": list,
    "images": list,
    "pipelines": list,
}


def seal_digest(seal: str) -> str:
    return hashlib.sha256(seal.encode()).hexdigest()


def commitment_line(seal: str) -> bytes:
    """The first line a child's harness writes, before any example code runs: the
    digest of the seal it made after the fork. The worker keeps only the digest, so a
    child forked later (a copy of the worker's memory) never holds another's seal."""
    return encode({"commit": seal_digest(seal)})


def decode_commitment(line: bytes) -> str:
    """The seal digest on a child's first line; RecordRejected if it is not one."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise RecordRejected("a first line that is not the harness's commitment") from None
    digest = data.get("commit") if isinstance(data, dict) else None
    if not isinstance(digest, str) or len(digest) != 64:
        raise RecordRejected("a first line that is not the harness's commitment")
    return digest


def seal_record(record: ChildRecord, seal: str) -> bytes:
    """The line a child's harness writes: its record and the unit's seal."""
    return encode({**record, "seal": seal})


def decode_record(line: bytes, digest: str, index: int) -> ChildRecord:
    """The record on one line, checked field by field; RecordRejected says why not.

    `digest` is the digest of the unit's random seal (its commitment), `index` the
    example the next record must be for: a second record for one example, a line
    without the seal, an unknown status or a malformed line is the example's own
    failure, never a crash of the worker.
    """
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise RecordRejected("a line that is not JSON") from None
    if not isinstance(data, dict):
        raise RecordRejected("a line that is not a record")
    for name, kind in RECORD_FIELDS.items():
        value = data.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise RecordRejected(f"a record without a valid {name!r}")
    if not hmac.compare_digest(seal_digest(data["seal"]), digest):
        raise RecordRejected("a record without the unit's seal")
    if data["index"] != index:
        raise RecordRejected(f"a record for example {data['index']} where {index} was next")
    if data["status"] not in {o.value for o in Outcome}:
        raise RecordRejected(f"an unknown status {data['status'][:40]!r}")
    texts = data["substitutions"] + data["images"] + data["pipelines"] + [data.get("traceback", "")]
    if not all(isinstance(t, str) for t in texts):
        raise RecordRejected("a record with a non-text list item")
    record: ChildRecord = {
        "status": Outcome(data["status"]),
        "message": data["message"],
        "index": data["index"],
        "duration_s": float(data["duration_s"]),
        "substitutions": data["substitutions"],
        "images": data["images"],
        "pipelines": data["pipelines"],
    }
    if "traceback" in data:
        record["traceback"] = data["traceback"]
    return record


def decode_unit_finished(message: Mapping[str, Any]) -> UnitFinished:
    finished: UnitFinished = {
        "op": "unit",
        "unit_id": message["unit_id"],
        "results": list(message["results"]),
    }
    for result in finished["results"]:
        result["status"] = Outcome(result["status"])
    return finished


def worker_message(line: bytes) -> dict[str, Any]:
    """One line from the worker: a JSON object with an `op`, or ValueError."""
    data = json.loads(line)
    if not isinstance(data, dict) or not isinstance(data.get("op"), str):
        raise ValueError("not a worker message")
    return data
