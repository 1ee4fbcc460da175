"""The packages an MCP server's launch fetches from a registry: the runner (`npx`,
`pnpm dlx`, `yarn dlx`, `bunx`, `uvx`, `uv tool run`, `pipx run`), the package as
written, and whether its version is pinned (GL614, GL617)."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

# An exact version: npm's semver (an optional `=` or `v`), PyPI's `1.2.3` / `1.2.3rc1`.
EXACT_NPM = re.compile(r"^[=v]?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
EXACT_PYPI = re.compile(r"^\d+(?:\.\d+)*(?:(?:a|b|rc|\.post|\.dev)\d+)*$")
NOT_REGISTRY = re.compile(r"^(?:\.{0,2}/|~|[A-Za-z]:\\|\$|[a-z+]+:|git@|[\w.-]+/[\w.-]+#)")
NPM_RUNNERS = {"npx": 1, "bunx": 1}  # runner -> words before the package
NPM_SUBCOMMANDS = {("pnpm", "dlx"), ("yarn", "dlx"), ("bun", "x"), ("pnpx", None)}
# Options of the runners that take a value (so the value is not the package).
NPM_VALUE_OPTIONS = {"-p", "--package", "-c", "--call", "--registry", "--cache", "--userconfig"}
UV_VALUE_OPTIONS = {
    "--from", "--with", "-w", "--with-editable", "--with-requirements", "--python", "-p",
    "--index", "--index-url", "-i", "--extra-index-url", "--default-index", "--find-links",
    "-f", "--constraints", "-c", "--overrides", "--directory", "--project", "--cache-dir",
    "--config-file", "--env-file", "--index-strategy", "--keyring-provider", "--resolution",
    "--prerelease", "--exclude-newer", "--python-platform", "--refresh-package",
    "--reinstall-package", "--upgrade-package", "--color", "--link-mode",
}  # fmt: skip
PIPX_VALUE_OPTIONS = {"--spec", "--python", "--index-url", "-i", "--pip-args", "--backend"}


@dataclass(frozen=True)
class Launch:
    runner: str  # as written: `npx`, `pnpm dlx`, `uvx`, ...
    ecosystem: str  # "npm" | "pypi"
    spec: str  # the package as written (`@playwright/mcp@latest`, `mcp-server-git`)
    index: int  # its place in the words (0 is the command)


def launch_words(entry: dict[str, Any], path: tuple) -> tuple[list[str], Any]:
    """The launch as words (`command` then `args`) and, for the word at an index, the
    path of the value that holds it. A `command` with spaces is split as a shell would."""
    command = entry.get("command")
    args = entry.get("args")
    if not isinstance(command, str):
        return [], lambda index: path
    try:
        head = shlex.split(command) if " " in command.strip() else [command.strip()]
    except ValueError:
        head = command.split()
    listed = args if isinstance(args, list) else []
    tail = [a for a in listed if isinstance(a, str)]
    positions = [i for i, a in enumerate(listed) if isinstance(a, str)]

    def where(index: int) -> tuple:
        if index < len(head):
            return (*path, "command")
        return (*path, "args", positions[index - len(head)])

    return head + tail, where


def launches(words: list[str]) -> Iterator[Launch]:
    """The packages a launch fetches from a registry, with the runner that fetches them."""
    if not words:
        return
    program = words[0].rsplit("/", 1)[-1].removesuffix(".cmd").removesuffix(".exe")
    if program in NPM_RUNNERS:
        yield from _npm(program, words, 1)
    elif len(words) > 1 and (program, words[1]) in NPM_SUBCOMMANDS:
        yield from _npm(f"{program} {words[1]}", words, 2)
    elif program == "pnpx":
        yield from _npm(program, words, 1)
    elif program == "uvx":
        yield from _uv(program, words, 1)
    elif program == "uv" and words[1:3] == ["tool", "run"]:
        yield from _uv("uv tool run", words, 3)
    elif program == "pipx" and words[1:2] == ["run"]:
        yield from _pipx(words, 2)


def _npm(runner: str, words: list[str], start: int) -> Iterator[Launch]:
    packages = False  # with -p/--package, the first word is a command, not a package
    index = start
    while index < len(words):
        word = words[index]
        if word == "--":
            index += 1
            break
        if word.startswith("-"):
            option, _, value = word.partition("=")
            if option in ("-p", "--package"):
                packages = True
                spec = value or (words[index + 1] if index + 1 < len(words) else "")
                at = index if value else index + 1
                if _registry(spec):
                    yield Launch(runner, "npm", spec, at)
            if option in NPM_VALUE_OPTIONS and not value:
                index += 1
            index += 1
            continue
        break
    if not packages and index < len(words) and _registry(words[index]):
        yield Launch(runner, "npm", words[index], index)


def _uv(runner: str, words: list[str], start: int) -> Iterator[Launch]:
    command_is_package = True
    index = start
    while index < len(words):
        word = words[index]
        if word == "--":
            index += 1
            break
        if not word.startswith("-"):
            break
        option, _, value = word.partition("=")
        spec = value or (words[index + 1] if index + 1 < len(words) else "")
        at = index if value else index + 1
        if option == "--from":
            command_is_package = False
            if _registry(spec):
                yield Launch(runner, "pypi", spec, at)
        elif option in ("--with", "-w") and _registry(spec):
            for part in spec.split(","):
                yield Launch(runner, "pypi", part.strip(), at)
        if option in UV_VALUE_OPTIONS and not value:
            index += 1
        index += 1
    if command_is_package and index < len(words) and _registry(words[index]):
        yield Launch(runner, "pypi", words[index], index)


def _pipx(words: list[str], start: int) -> Iterator[Launch]:
    index = start
    while index < len(words) and words[index].startswith("-"):
        option, _, value = words[index].partition("=")
        if option == "--spec":
            spec = value or (words[index + 1] if index + 1 < len(words) else "")
            if _registry(spec):
                yield Launch("pipx run", "pypi", spec, index if value else index + 1)
            return
        index += 2 if option in PIPX_VALUE_OPTIONS and not value else 1
    if index < len(words) and _registry(words[index]):
        yield Launch("pipx run", "pypi", words[index], index)


def _registry(spec: str) -> bool:
    """Whether a word names a registry package (not a path, URL, git source or variable)."""
    spec = spec.strip()
    if not spec or NOT_REGISTRY.match(spec) or spec.endswith((".tgz", ".whl", ".git")):
        return False
    return "/" not in spec or spec.startswith("@")  # `owner/repo` is GitHub, `@scope/x` npm


def split_spec(spec: str, ecosystem: str) -> tuple[str, str | None]:
    """`@scope/pkg@1.2.3` -> (`@scope/pkg`, `1.2.3`); `pkg==1.2` -> (`pkg`, `==1.2`);
    no version -> (name, None). A PyPI version keeps its operator."""
    if ecosystem == "npm":
        at = spec.find("@", 1)
        return (spec[:at], spec[at + 1 :]) if at > 0 else (spec, None)
    match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?)\s*(.*)$", spec)
    if match is None:
        return spec, None
    name, rest = match.group(1), match.group(2).strip()
    if rest.startswith("@"):
        rest = "==" + rest[1:] if rest[1:] != "latest" else "@latest"
    return name, rest or None


def version_is_pinned(version: str | None, ecosystem: str) -> bool:
    if not version:
        return False
    if ecosystem == "npm":
        return bool(EXACT_NPM.match(version.strip()))
    for operator in ("===", "=="):
        if version.startswith(operator):
            exact = version[len(operator) :].strip()
            return "," not in exact and "*" not in exact and bool(EXACT_PYPI.match(exact))
    return False
