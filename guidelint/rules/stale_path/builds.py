"""Paths a build writes: its output folder (`dist/`, `site/`, a tsconfig's `outDir`),
and the programs it compiles (`hld/hld-dev`, named after the Go module's folder or
written by a Makefile's `-o NAME`).

A README tells users to open `dist/extension.js` or serve `site/`; the build writes
them and the repository does not commit them. Known by the builds the repository
configures (a mkdocs.yml, a package.json, a Cargo.toml) or by the line saying so
("compiled `dist/`", "`site/`: built documentation output").
"""

from __future__ import annotations

import posixpath
import re

from guidelint.lazy_re import LazyPattern
from guidelint.project import Memo, Project
from guidelint.rules.stale_path.project_files import join_rel
from guidelint.spans import Span

# A build's conventional output folder, and the configuration files whose build writes it.
OUTPUT_FOLDERS = {
    "site": ("mkdocs.yml", "mkdocs.yaml"),
    "dist": ("package.json", "tsconfig.json", "pyproject.toml", "setup.py"),
    "build": ("package.json", "tsconfig.json", "pyproject.toml", "setup.py"),
    "out": ("package.json", "tsconfig.json"),
    "target": ("Cargo.toml", "pom.xml"),
}

# What a build writes into its output folder (a source script there is no output).
BUILT_FILES = (
    ".js",
    ".mjs",
    ".cjs",
    ".d.ts",
    ".map",
    ".css",
    ".html",
    ".wasm",
    ".whl",
    ".tar.gz",
    ".jar",
    ".vsix",
    ".so",
    ".dll",
    ".exe",
    ".node",
)

OUT_DIR = re.compile(r'"outDir"\s*:\s*"([^"]+)"')

TSCONFIG = re.compile(r"^tsconfig[\w.\-]*\.json$")


def build_output(path: str, bases: list[str], project: Project) -> bool:
    """The path is a build's output folder that is not there, or a built file in one
    (`dist/extension.js`): `site/` of a repository with a mkdocs.yml, `webview-ui/build/`
    or `dist/` of one with a package.json, a tsconfig's `outDir`. What a build writes
    is seldom committed."""
    if not path.endswith("/") and not path.lower().endswith(BUILT_FILES):
        return False  # `build/gen.py`: a script kept in a build folder, not its output
    outputs = project.memo(BUILD_OUTPUTS)
    if not outputs:
        return False
    segments = [s for s in path.split("/") if s not in ("", ".")]
    for base in bases:
        for at, segment in enumerate(segments):
            if project.exists(join_rel(base, "/".join(segments[: at + 1]))):
                continue
            if segment in outputs:  # the first missing folder is an output
                return True
            break
    return False


def _build_outputs(project: Project) -> frozenset[str]:
    """The output folder names of the builds this repository configures."""
    names = {posixpath.basename(rel) for rel in project.files()}
    found = {out for out, configs in OUTPUT_FOLDERS.items() if names & set(configs)}
    for rel in project.files():
        if TSCONFIG.match(posixpath.basename(rel)):
            config = project.read(rel)
            for value in OUT_DIR.findall(config.text if config else ""):
                found.add(posixpath.basename(posixpath.normpath(value)))
    return frozenset(found - {"", ".", ".."})


BUILD_OUTPUTS = Memo("GL501.build_outputs", _build_outputs)

# The line says the path is what a build writes: "compiled `dist/`", "bundles `src/x.ts`
# → `dist/x.js`", "`site/`: Built documentation output".
BUILT_BEFORE = LazyPattern(
    r"(?:\b(?:compiled|built|bundled|transpiled|minified|build output)\s+(?:in(?:to)?\s+|to\s+)?"
    r"|\b(?:builds?|compiles?|bundles?|transpiles?|emits?)\b[^\n]{0,60}?(?:→|->|=>|\binto\b)\s*)$",
    re.IGNORECASE,
)

BUILT_AFTER = LazyPattern(
    r"^\s*(?:[:—–]|-)\s*(?:the\s+)?(?:built|compiled|bundled|build output)\b", re.IGNORECASE
)


def said_built(text: str, span: Span) -> bool:
    """The path's line calls it what a build writes: "compiled `dist/`", "bundles
    `src/x.ts` → `dist/x.js`", "`site/`: Built documentation output"."""
    before = text[max(0, span.start - 80) : span.start].rsplit("\n", 1)[-1]
    after = text[span.end : span.end + 40].split("\n", 1)[0]
    return bool(BUILT_BEFORE.search(before) or BUILT_AFTER.match(after))


# Where a compiled program's build is configured: its binary lands in that folder.
BINARY_BUILDS = ("go.mod", "Makefile", "makefile", "GNUmakefile", "Cargo.toml")

# `go build -o hld-dev ./cmd/hld`, `gcc -o bin/tool`, `cargo build ... -o x`: a build's output.
OUTPUT_OPTION = re.compile(r"(?:^|\s)-o\s+['\"]?([\w./\-]+)")

MAKEFILE = re.compile(r"^(?:GNUmakefile|[Mm]akefile|[\w.\-]+\.mk)$")


def built_binary(path: str, bases: list[str], project: Project) -> bool:
    """`hld/hld-dev`: a program a build writes, so not committed. A file with no
    extension in a folder whose build is configured there (a go.mod, a Makefile, a
    Cargo.toml) and named after that folder (`go build`'s default name, or a variant of
    it: `hld-dev`, `hld-nightly`), or one a Makefile writes with `-o NAME`."""
    name = posixpath.basename(path)
    if path.endswith("/") or not name or "." in name:
        return False
    if name in project.memo(MAKE_OUTPUTS):
        return True
    for base in bases:
        folder = posixpath.dirname(join_rel(base, path))
        if not folder or not any(project.exists(f"{folder}/{b}") for b in BINARY_BUILDS):
            continue
        stem = posixpath.basename(folder)
        if name == stem or (name.startswith(stem) and name[len(stem)] in "-_"):
            return True
    return False


def _make_outputs(project: Project) -> frozenset[str]:
    """The file names the repository's Makefiles build with `-o NAME`."""
    names: set[str] = set()
    for rel in project.files():
        if MAKEFILE.match(posixpath.basename(rel)):
            source = project.read(rel)
            for value in OUTPUT_OPTION.findall(source.text if source else ""):
                names.add(posixpath.basename(value))
    return frozenset(name for name in names if name and "." not in name)


MAKE_OUTPUTS = Memo("GL501.make_outputs", _make_outputs)
