"""The bundled catalog of published MCP servers (`catalog_data/<package>@<version>.json`).

scripts/catalog_servers.py installs each package from npm or PyPI, starts it over
stdio and stores its `tools/list` answer with the package, registry and version.
A server of `.mcp.json` that starts a catalogued package (`npx -y <package>`,
`uvx <package>`, its executable, `python -m <module>`) resolves against that entry
when no snapshot is committed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

# Launchers whose first non-option argument is the package (`npx -y pkg@1.2 args`).
LAUNCHERS = {"npx", "bunx", "pnpx", "uvx", "pipx", "npm", "pnpm", "yarn", "bun"}
LAUNCHER_WORDS = {"run", "exec", "dlx", "x"}  # `pipx run pkg`, `pnpm dlx pkg`, `bun x pkg`
SHELLS = {"bash", "sh", "zsh", "dash"}  # `bash -l -c "exec npx -y pkg"` wraps a launcher
OPTIONS_WITH_VALUE = {"--from", "--python", "-p", "--package", "--with", "--spec"}


def entry_file_name(package: str, version: str) -> str:
    """`@scope/name` at 1.2.0 -> `scope__name@1.2.0.json` (a file name, no slash)."""
    return f"{package.lstrip('@').replace('/', '__')}@{version}.json"


@dataclass(frozen=True)
class Entry:
    package: str
    registry: str
    version: str
    commands: tuple[str, ...]  # executables that start it
    modules: tuple[str, ...]  # `python -m` module names
    data: dict[str, Any]  # the tools/list answer (tools, prompts, resources)

    @property
    def label(self) -> str:
        return f"{self.package}@{self.version}"


@lru_cache(maxsize=1)
def entries() -> dict[str, Entry]:
    """Every bundled entry, by package name."""
    found: dict[str, Entry] = {}
    folder = resources.files("guidelint.tools") / "catalog_data"
    for item in sorted(folder.iterdir(), key=lambda i: i.name):
        if not item.name.endswith(".json"):
            continue
        data = json.loads(item.read_text(encoding="utf-8"))
        found[data["package"]] = Entry(
            package=data["package"],
            registry=data["registry"],
            version=data["version"],
            commands=tuple(c for c in data.get("commands", []) if " " not in c),
            modules=tuple(data.get("modules", [])),
            data=data,
        )
    return found


@dataclass(frozen=True)
class Started:
    """Which package a server's command starts, and the version it pins (if any)."""

    package: str
    pinned: str | None


def started_package(command: str | None, args: list[str]) -> Started | None:
    """The catalogued package a stdio command starts, or None."""
    if not command:
        return None
    known = entries()
    program = command.replace("\\", "/").rsplit("/", 1)[-1]
    if program in SHELLS:
        inner = _shell_command(args)  # `bash -l -c "exec npx -y pkg"`: the command it runs
        return started_package(inner[0], inner[1:]) if inner else None
    if program in LAUNCHERS:
        spec = _launched(args)
        if spec is None:
            return None
        name, pinned = _split_version(spec)
        return Started(name, pinned) if name in known else None
    if program.startswith("python") and args[:1] == ["-m"] and len(args) > 1:
        module = args[1]
        return next((Started(e.package, None) for e in known.values() if module in e.modules), None)
    return next((Started(e.package, None) for e in known.values() if program in e.commands), None)


def _shell_command(args: list[str]) -> list[str]:
    """The words of the command a shell runs with `-c` (or `-lc`), with a leading
    `exec` and `NAME=value` assignments dropped; [] when it is not one command."""
    import shlex

    flag = next((i for i, a in enumerate(args) if a.startswith("-") and "c" in a[1:]), None)
    if flag is None or flag + 1 >= len(args):
        return []
    try:
        words = shlex.split(args[flag + 1])
    except ValueError:
        return []
    if any(word in ("&&", "||", ";", "|") for word in words):
        return []
    while words and (words[0] == "exec" or "=" in words[0]):
        words = words[1:]
    return words


def _launched(args: list[str]) -> str | None:
    """The package argument of a launcher (`-y pkg`, `--from pkg cmd`, `run pkg`)."""
    names_package = {"--from", "--spec", "--package", "-p"}
    position = 0
    while position < len(args):
        arg = args[position]
        if arg in names_package and position + 1 < len(args):
            return args[position + 1]
        if arg in OPTIONS_WITH_VALUE:
            position += 2
            continue
        if not arg.startswith("-") and arg not in LAUNCHER_WORDS:
            return arg
        position += 1
    return None


def _split_version(spec: str) -> tuple[str, str | None]:
    """`@scope/pkg@1.2.3` -> ("@scope/pkg", "1.2.3"); `pkg==1.0` -> ("pkg", "1.0")."""
    if "==" in spec:
        name, version = spec.split("==", 1)
        return name, version or None
    at = spec.rfind("@")
    if at > 0:
        version = spec[at + 1 :]
        return spec[:at], (None if version in ("latest", "") else version)
    return spec, None
