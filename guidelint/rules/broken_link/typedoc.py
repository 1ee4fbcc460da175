"""TypeDoc's API reference: pages a docs build generates into its output folder.

A guide links `docs/api/@scope/client/x.md`; the repository's docs build runs
TypeDoc (its configuration, or a package.json script naming it), which writes that
folder, and the repository does not commit it. A link into it is no broken link.
"""

from __future__ import annotations

import posixpath
import re

from guidelint.project import Memo, Project

# TypeDoc's configuration at the root: its own files, or a package.json script naming it.
TYPEDOC_CONFIG_NAMES = tuple(
    f"{dot}typedoc{config}.{suffix}"
    for dot in ("", ".")
    for config in ("", ".config")
    for suffix in ("json", "jsonc", "js", "cjs", "mjs", "ts", "mts")
)

TYPEDOC_SCRIPT = re.compile(r'"[^"\n]*"\s*:\s*"([^"\n]*\btypedoc\b[^"\n]*)"')

# Its output folder: `"out": "docs/api"`, `out: 'docs/api'`, `typedoc --out docs/api`.
TYPEDOC_OUT = re.compile(r"""(?:["']?\bout["']?\s*[:=]\s*["']|--out[= ]\s*["']?)([\w./@-]+)""")

API_FOLDER = "api"  # the folder a docs site mounts TypeDoc's pages at, when `out` is unread


def typedoc_page(target: str, project: Project) -> bool:
    """`docs/api/@scope/client/x.md` in a repository whose docs build runs TypeDoc: the
    first missing folder of the target is TypeDoc's output (its `out`, or `api` when the
    configuration cannot be read), which the build writes and the repository does not
    commit."""
    outputs = project.memo(TYPEDOC_OUTPUTS)
    if outputs is None:
        return False
    missing = _first_missing_folder(target, project)
    if missing is None:
        return False
    if outputs:
        return missing in outputs
    return posixpath.basename(missing) == API_FOLDER


def _first_missing_folder(target: str, project: Project) -> str | None:
    parts = target.split("/")[:-1]
    for at in range(len(parts)):
        folder = "/".join(parts[: at + 1])
        if not project.exists(folder):
            return folder
    return None


def _typedoc_outputs(project: Project) -> frozenset[str] | None:
    """None without TypeDoc at the root; else the output folders its configuration names
    (none when they cannot be read)."""
    # TypeDoc configuration names, looked up one by one: listing the repository
    # (git) for every broken link would cost a plain README check a subprocess.
    configs = [rel for rel in TYPEDOC_CONFIG_NAMES if project.exists(rel)]
    package = project.read("package.json") if project.exists("package.json") else None
    scripts = TYPEDOC_SCRIPT.findall(package.text) if package else []
    if not configs and not scripts:
        return None
    outputs: set[str] = set()
    texts = [source.text for rel in configs if (source := project.read(rel))] + scripts
    for text in texts:
        for value in TYPEDOC_OUT.findall(text):
            outputs.add(posixpath.normpath(value).strip("/"))
    return frozenset(outputs - {"", "."})


TYPEDOC_OUTPUTS = Memo("GL502.typedoc_outputs", _typedoc_outputs)
