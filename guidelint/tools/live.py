"""Live listing: start each MCP server, ask `tools/list` (and prompts, resources).

Uses the official `mcp` SDK (imported here, never on the plain `check` path).
Servers are queried concurrently, each under its own timeout; the SDK's stdio
transport starts the server in its own process group and kills the group on the
way out, so a server that hangs or misbehaves leaves no process behind. Every
failure becomes one line naming the server and what went wrong.
"""

from __future__ import annotations

import logging
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from guidelint.tools.servers import ServerSpec

MAX_PAGES = 10_000


@dataclass
class Listing:
    server: str
    tools: list[dict[str, Any]] = field(default_factory=list)
    prompts: list[dict[str, Any]] = field(default_factory=list)
    resources: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0


def list_servers(specs: list[ServerSpec], root: Path) -> dict[str, Listing]:
    """List every server concurrently; one Listing per server, errors included."""
    import anyio

    _import_sdk()  # before any clock starts: a slow import is not a slow server
    mcp_logger = logging.getLogger("mcp")
    level, mcp_logger.level = mcp_logger.level, logging.CRITICAL + 1  # errors come back as lines
    try:
        return anyio.run(_list_all, specs, root)
    finally:
        mcp_logger.setLevel(level)


def _import_sdk() -> None:
    from guidelint.config import ConfigError

    try:
        import mcp  # noqa: F401
        import mcp.client.sse  # noqa: F401
        import mcp.client.stdio  # noqa: F401
        import mcp.client.streamable_http  # noqa: F401
    except ImportError as err:
        raise ConfigError(
            f"live tool listing needs the mcp SDK ({err}): pip install 'guidelint[tools]'"
        ) from None


async def _list_all(specs: list[ServerSpec], root: Path) -> dict[str, Listing]:
    import anyio

    results: dict[str, Listing] = {}

    async def one(spec: ServerSpec) -> None:
        results[spec.name] = await list_one(spec, root)

    async with anyio.create_task_group() as group:
        for spec in specs:
            group.start_soon(one, spec)
    return {spec.name: results[spec.name] for spec in specs}


class _Progress:
    """What the conversation got to, for the error message."""

    def __init__(self) -> None:
        self.phase = "start"
        self.problem: str | None = None


async def list_one(spec: ServerSpec, root: Path) -> Listing:
    import anyio

    started = time.monotonic()
    progress = _Progress()
    listing = Listing(spec.name)
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        try:
            with anyio.move_on_after(spec.timeout) as scope:
                await _converse(spec, root, errlog, progress, scope, listing)
            if scope.cancelled_caught:
                listing.error = progress.problem or (
                    f"no answer to {progress.phase} within {spec.timeout:g}s"
                )
        except Exception as err:  # every failure is reported, never raised
            listing.error = progress.problem or _explain(_leaf(err), progress.phase)
        if listing.error:
            listing.error = f"{spec.name}: {listing.error}{_stderr_tail(errlog)}"
    listing.seconds = time.monotonic() - started
    return listing


async def _converse(spec, root, errlog, progress: _Progress, scope, listing: Listing) -> None:
    from mcp import ClientSession

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception) and progress.problem is None:
            progress.problem = f"wrote a line that is not JSON-RPC to stdout{_bad_line(message)}"
            scope.cancel()

    progress.phase = "start"
    async with _transport(spec, root, errlog) as (read, write):
        async with ClientSession(
            read,
            write,
            sampling_callback=_decline_sampling,
            elicitation_callback=_decline_elicitation,
            list_roots_callback=_roots(root),
            message_handler=on_message,
        ) as session:
            progress.phase = "initialize"
            result = await session.initialize()
            capabilities = result.capabilities
            listing.tools = await _all_pages(session.list_tools, "tools", progress)
            if capabilities.prompts is not None:
                listing.prompts = await _optional(session.list_prompts, "prompts", progress)
            if capabilities.resources is not None:
                listing.resources = await _optional(session.list_resources, "resources", progress)


def _transport(spec: ServerSpec, root: Path, errlog):
    if spec.type in ("http", "sse") or (spec.url and not spec.command):
        return _http_transport(spec)
    from mcp import StdioServerParameters
    from mcp.client.stdio import stdio_client

    cwd = root / spec.cwd if spec.cwd else root
    params = StdioServerParameters(
        command=spec.command or "", args=spec.args, env=spec.env or None, cwd=str(cwd)
    )
    return stdio_client(params, errlog=errlog)


def _http_transport(spec: ServerSpec):
    from contextlib import asynccontextmanager

    # A url-less http server fails inside the SDK and is reported like any failure.
    url: str = spec.url  # type: ignore[assignment]
    if spec.type == "sse":
        from mcp.client.sse import sse_client

        return sse_client(url, headers=spec.headers or None, timeout=spec.timeout)

    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    @asynccontextmanager
    async def connect():
        async with create_mcp_http_client(headers=spec.headers or None) as client:
            async with streamable_http_client(url, http_client=client) as streams:
                yield streams

    return connect()


async def _all_pages(method, kind: str, progress: _Progress) -> list[dict[str, Any]]:
    """Follow nextCursor to the end; a cursor seen twice would loop forever."""
    from mcp.types import PaginatedRequestParams

    items: list[dict[str, Any]] = []
    cursor, seen = None, set()
    for page in range(1, MAX_PAGES + 1):
        progress.phase = f"{kind}/list" + (f" (page {page})" if page > 1 else "")
        params: PaginatedRequestParams | None = (
            PaginatedRequestParams(cursor=cursor) if cursor else None
        )
        result = await method(params=params)
        items.extend(_wire(item) for item in getattr(result, kind))
        cursor = result.next_cursor
        if not cursor:
            return items
        if cursor in seen:
            progress.problem = f"{kind}/list returned the same nextCursor twice ({cursor!r})"
            raise RuntimeError(progress.problem)
        seen.add(cursor)
    progress.problem = f"{kind}/list did not end after {MAX_PAGES} pages"
    raise RuntimeError(progress.problem)


async def _optional(method, kind: str, progress: _Progress) -> list[dict[str, Any]]:
    """Prompts and resources only help precision: a failure there costs nothing."""
    from mcp import MCPError

    try:
        return await _all_pages(method, kind, progress)
    except (MCPError, RuntimeError):
        progress.problem = None
        return []


def _wire(model: Any) -> dict[str, Any]:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


async def _decline_sampling(context, params):
    from mcp.types import INVALID_REQUEST, ErrorData

    return ErrorData(code=INVALID_REQUEST, message="guidelint only lists tools")


async def _decline_elicitation(context, params):
    from mcp.types import ElicitResult

    return ElicitResult(action="decline")


def _roots(root: Path):
    async def list_roots(context):
        from mcp.types import ListRootsResult, Root
        from pydantic import FileUrl

        uri = FileUrl(root.resolve().as_uri())
        return ListRootsResult(roots=[Root(uri=uri, name=root.name)])

    return list_roots


def _leaf(err: BaseException) -> BaseException:
    """The first real error inside (nested) exception groups."""
    inner = getattr(err, "exceptions", None)  # BaseExceptionGroup (exceptiongroup on 3.10)
    while inner:
        err = inner[0]
        inner = getattr(err, "exceptions", None)
    return err


def _explain(err: BaseException, phase: str) -> str:
    from mcp import MCPError

    if isinstance(err, FileNotFoundError):
        return f"cannot start the server: command not found ({err.filename or err})"
    if isinstance(err, PermissionError):
        return f"cannot start the server: permission denied ({err.filename or err})"
    if isinstance(err, MCPError):
        if "closed" in str(err.error.message).lower():
            return f"the server closed the connection during {phase} (did it exit?)"
        return f"{phase} failed: error {err.error.code}: {err.error.message}"
    text = str(err).splitlines()[0][:160] if str(err) else ""
    if type(err).__name__ in ("ConnectError", "ConnectTimeout"):  # httpx2, without importing it
        return f"cannot connect to the server ({text})"
    return f"{phase} failed: {type(err).__name__}{': ' + text if text else ''}"


def _bad_line(error: Exception) -> str:
    """The offending stdout line, when the SDK's validation error still holds it."""
    errors: Any = getattr(error, "errors", None)  # pydantic ValidationError
    try:
        bad = errors()[0].get("input")
    except (AttributeError, IndexError, TypeError):
        return ""
    return f": {str(bad)[:80]!r}" if isinstance(bad, (str, bytes)) else ""


def _stderr_tail(errlog) -> str:
    """The last line the server wrote to stderr: usually the reason it died."""
    try:
        errlog.flush()
        errlog.seek(0)
        lines = [line.strip() for line in errlog.read().splitlines() if line.strip()]
    except (OSError, ValueError):
        return ""
    return f"; stderr: {lines[-1][:200]}" if lines else ""
