"""Where a document's paths start: the repository, its folder, or a component's root.

A skill's SKILL.md names `scripts/x.sh` from the skill's folder, a package's README
`src/index.ts` from the package, a workspace README `tests/driver.rs` from a member
crate, a CLAUDE.md `legacy/` as a top-level folder. A path is looked up from each
root the document may speak from, and is taken as meant for this repository only
when its first segment is there (`anchored`), else it is an example from elsewhere.
"""

from __future__ import annotations

import json
import posixpath

import tomllib

from guidelint.project import Memo, Project
from guidelint.rules.stale_path.project_files import FILE_INDEX, FOLDER_NAMES, join_rel

COMPONENT_MARKERS = ("SKILL.md", ".claude-plugin/plugin.json", "package.json", "pyproject.toml")

# A Rust crate's or a Go module's root: its README names `tests/x.rs` and `examples/y`
# from there. Many crates share names (`src/lib.rs`), so such a root counts for a path
# in another document only when it lies under that document's folder (a workspace
# README speaking of its member crates), not anywhere in the repository.
NESTED_MARKERS = ("Cargo.toml", "go.mod")


def top_level_folder(path: str, project: Project) -> bool:
    """`legacy/`: one plain segment and a slash (a dot-folder may be a run's output),
    and no folder of that name anywhere (else it names that subfolder)."""
    if not path.endswith("/") or path.count("/") != 1 or path.startswith("."):
        return False
    folders = project.memo(FOLDER_NAMES)
    return path.rstrip("/") not in folders


# A harness's own folder: an agent, command or rule file under `x/.claude/` is read by
# the harness run in `x/`, which resolves the file's paths from there.
HARNESS_FOLDERS = frozenset({".claude", ".cursor", ".codex", ".gemini", ".roo", ".windsurf"})


def component_roots(rel: str, project: Project) -> list[str]:
    """A skill's or a package's files name paths from its folder (`scripts/x.sh`,
    `references/y.md`, a nested CLAUDE.md's `src/x.ts`): the nearest folder above the
    document holding a SKILL.md, a plugin manifest or a package manifest; and, for a
    file under a nested harness folder (`demo/.claude/agents/x.md`), the folder holding
    it (`demo/`), the project the harness runs in."""
    roots = harness_root(rel)
    folder = posixpath.dirname(rel)
    while folder:
        markers = COMPONENT_MARKERS + NESTED_MARKERS
        if any(project.exists(f"{folder}/{marker}") for marker in markers):
            return [*roots, folder] if folder not in roots else roots
        folder = posixpath.dirname(folder)
    return roots


def harness_root(rel: str) -> list[str]:
    """`demo/` of `demo/.claude/agents/x.md`: the folder holding the innermost harness
    folder above the document, when that is not the repository's root."""
    parts = rel.split("/")[:-1]
    for index in range(len(parts) - 1, 0, -1):
        if parts[index] in HARNESS_FOLDERS:
            return ["/".join(parts[:index])]
    return []


def in_some_component(path: str, project: Project) -> bool:
    """`scripts/x.py` in a document outside any skill, when some skill, plugin or
    package has it: the document speaks from that component's root."""
    by_name, _ = project.memo(FILE_INDEX)
    for rel in by_name.get(posixpath.basename(path.rstrip("/")), []):
        if rel.endswith("/" + path.rstrip("/")):
            root = rel[: -len(path.rstrip("/")) - 1]
            if any(project.exists(f"{root}/{m}") for m in COMPONENT_MARKERS):
                return True
    return False


def in_nested_crate(path: str, doc_dir: str, project: Project) -> bool:
    """`tests/driver.rs` in a workspace README, when a crate or Go module below the
    document's folder has it: the README speaks of that member from its root."""
    by_name, _ = project.memo(FILE_INDEX)
    for rel in by_name.get(posixpath.basename(path.rstrip("/")), []):
        if rel.endswith("/" + path.rstrip("/")):
            root = rel[: -len(path.rstrip("/")) - 1]
            if doc_dir and not root.startswith(doc_dir + "/"):
                continue
            if any(project.exists(f"{root}/{m}") for m in NESTED_MARKERS):
                return True
    return False


def anchored(path: str, bases: list[str], project: Project) -> bool:
    """Is this path meant as one in this repository (not an example elsewhere)?"""
    segments = [s for s in path.split("/") if s not in ("", ".")]
    lead = []
    for segment in segments:  # `../../docs/x.md` is anchored by `../../docs`
        lead.append(segment)
        if segment != "..":
            break
    if lead[-1].startswith(".") and lead[-1] != ".." and len(segments) > len(lead):
        # A dot-folder (`.github`, `.claude`, `.beads`) holds what tools and runs write
        # (`.beads/dolt/`, `.github/agents/` of another harness): anchor on two segments,
        # and never report a file right inside it.
        if len(segments) == len(lead) + 1:
            return False
        lead.append(segments[len(lead)])
    first = "/".join(lead)
    return any(project.exists(join_rel(base, first)) for base in bases)


# Where a manifest names its project: pyproject.toml's [project] (or Poetry's table),
# Cargo.toml's [package].
MANIFEST_NAME_TABLES = (("project",), ("tool", "poetry"), ("package",))


def _manifest_name(text: str) -> str | None:
    """The project name a pyproject.toml or Cargo.toml gives, read with a TOML parser."""
    try:
        data: object = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return None
    for keys in MANIFEST_NAME_TABLES:
        table = data
        for key in keys:
            table = table.get(key) if isinstance(table, dict) else None
        name = table.get("name") if isinstance(table, dict) else None
        if isinstance(name, str):
            return name
    return None


def _project_names(project: Project) -> frozenset[str]:
    """What this repository is called: its root folder's name (a clone's) and the name
    its root manifest gives (pyproject.toml, Cargo.toml, package.json without a scope)."""
    names = {project.root.name}
    for manifest in ("pyproject.toml", "Cargo.toml"):
        source = project.read(manifest)
        name = _manifest_name(source.text) if source else None
        if name:
            names.add(name)
    package = project.read("package.json")
    if package is not None:
        try:
            data = json.loads(package.text)
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            names.add(data["name"].rsplit("/", 1)[-1])
    return frozenset(name for name in names if name)


PROJECT_NAMES = Memo("GL501.project_names", _project_names)


def under_repository_name(path: str, project: Project) -> bool:
    """`dspy/docs` in the dspy repository's docs: the repository's own name as a first
    segment, the rest a path of this repository (and `dspy/docs` itself is not one,
    which the caller has found)."""
    first, _, rest = path.partition("/")
    if not rest.strip("/") or first not in project.memo(PROJECT_NAMES):
        return False
    return project.exists(rest.rstrip("/"))


def _package_roots(project: Project) -> tuple[str, ...]:
    """The packages of a src layout (`src/<package>/__init__.py`): module paths such as
    `utils/import_utils.py` are written from there."""
    _, by_folder = project.memo(FILE_INDEX)
    roots = []
    for folder in by_folder:
        parts = folder.split("/")
        if len(parts) == 2 and parts[0] == "src" and f"{folder}/__init__.py" in by_folder[folder]:
            roots.append(folder)
    return tuple(sorted(roots))


PACKAGE_ROOTS = Memo("GL501.package_roots", _package_roots)


def in_package_root(path: str, project: Project) -> bool:
    """`utils/import_utils.py` that is `src/lerobot/utils/import_utils.py`: a path
    written from a src-layout package's root, the root its module paths start at; also
    with the `.py` left off, as a module is named (`utils/torch_utils`)."""
    roots = project.memo(PACKAGE_ROOTS)
    if any(project.exists(join_rel(root, path)) for root in roots):
        return True
    module = path.rstrip("/")
    if path.endswith("/") or "." in posixpath.basename(module):
        return False
    return any(project.exists(join_rel(root, module + ".py")) for root in roots)
