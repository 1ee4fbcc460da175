"""Artifacts a repository distributes: skills, plugins, extensions, agent and
instruction files that users install INTO their own projects.

A collection (github/awesome-copilot, a Claude Code plugin marketplace) keeps each
artifact in a folder of its own, and a user copies it to `.github/skills/<name>/`,
`.claude/skills/<name>/`, `~/.copilot/extensions/<name>/`. What the artifact's text
names is then one of three things:

- a file of its own bundle (a skill's `references/x.md`, an extension's `assets/`),
  checked against the artifact's folder, where it will land with it (issue #27's
  "a tree copied into other projects is checked against its own root");
- a file of the user's project (`docs/diagrams/`, `src/lib/x.ts`) or of the install
  location (`.github/skills/<name>/`): not this repository's, so never a stale path
  here, nor is an MCP server it names one this repository must declare;
- another artifact of the collection by its install location
  (`.github/skills/<name>/SKILL.md` where `skills/<name>/` is shipped): checked
  against that artifact (`install_target`).

The evidence, none of it one repository's folder names: the repository is a
collection (a plugin marketplace at the root, `.github/plugin/marketplace.json` or
`.claude-plugin/marketplace.json`; or several artifacts outside dot-folders and a
README or AGENTS.md that calls it "a collection of ... agents/skills/..."), and in it:

1. a folder holding a SKILL.md outside the repository's own agent folders (a
   dot-folder: `.claude/`, `.github/`, `.agents/`): a skill, installed as a whole;
2. a folder holding a plugin's or an extension's manifest, and the standalone
   artifact files of Copilot (`*.agent.md`, `*.instructions.md`, `*.prompt.md`,
   `*.chatmode.md`), which land in the user's `.github/`.

Skills at the root of a repository that is no collection are its own (Megatron-LM's
`skills/` name its `megatron/` code): read as any steering file.

Which agent a file steers (`steers_copilot`): Copilot's plugin marketplace
(`.github/plugin/marketplace.json`) or its own manifest (`.github/plugin/plugin.json`)
with no Claude Code manifest (`.claude-plugin/`) beside or above: its skills' tool
lists name Copilot's tools, not Claude Code's.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from guidelint.project import Memo

if TYPE_CHECKING:
    from guidelint.project import Project

# A folder holding one of these is a plugin or an extension installed as a whole:
# Claude Code's, Codex's and Cursor's plugin manifests, Copilot's (`.github/plugin/`,
# or a bare `plugin.json` of the agent-plugins schema), Copilot CLI's extensions
# (`extension.mjs`, `copilot-extension.json`), Gemini CLI's.
BUNDLE_MANIFESTS = (
    ".claude-plugin/plugin.json",
    ".codex-plugin/plugin.json",
    ".cursor-plugin/plugin.json",
    ".github/plugin/plugin.json",
    "plugin.json",
    "copilot-extension.json",
    "extension.mjs",
    "gemini-extension.json",
)
# A collection's index of its plugins, at the repository's root.
MARKETPLACES = (".github/plugin/marketplace.json", ".claude-plugin/marketplace.json")
# Copilot's artifact files, installed one by one into the user's `.github/`.
ARTIFACT_SUFFIXES = (".agent.md", ".instructions.md", ".prompt.md", ".chatmode.md")
# Where a user installs an artifact: `.github/skills/<name>/`, `.claude/agents/x.md`.
INSTALL_FOLDERS = frozenset({".github", ".claude", ".copilot", ".agents", ".codex", ".cursor"})
# Several artifacts outside dot-folders make a collection even without a marketplace.
COLLECTION_MIN = 3
NEAR_NAME = 0.8  # difflib ratio: `draw-io` for the shipped `drawio`
# "A community-driven collection of custom agents and instructions", "a curated list of
# Claude Code subagents": what a collection's README or AGENTS.md says of itself.
COLLECTION_WORDS = re.compile(
    r"\b(?:collection|catalog(?:ue)?|curated list|marketplace|directory) of\b"
    r"(?:[\s\w,-]){0,60}?\b(?:skills|agents|sub-?agents|plugins|prompts|instructions|"
    r"extensions|chat ?modes|commands|hooks)\b",
    re.IGNORECASE,
)
COLLECTION_READMES = ("README.md", "AGENTS.md")
HEAD_CHARS = 3000  # the opening a repository describes itself in


class Artifact:
    """A distributed artifact a file belongs to: `root` is the folder installed as a
    whole (None for a lone agent or instructions file, which brings nothing along)."""

    __slots__ = ("root",)

    def __init__(self, root: str | None) -> None:
        self.root = root

    def __repr__(self) -> str:
        return f"Artifact({self.root!r})"


def _in_dot_folder(folder: str) -> bool:
    return any(part.startswith(".") for part in folder.split("/") if part)


def _skill_folders(project: Project) -> frozenset[str]:
    return frozenset(
        posixpath.dirname(rel)
        for rel in project.files()
        if posixpath.basename(rel) == "SKILL.md"
        and "/" in rel
        and not _in_dot_folder(posixpath.dirname(rel))
    )


def _bundle_folders(project: Project) -> frozenset[str]:
    """Folders outside dot-folders holding a plugin's or an extension's manifest."""
    found = set()
    for rel in project.files():
        for manifest in BUNDLE_MANIFESTS:
            if rel.endswith("/" + manifest):
                folder = rel[: -len(manifest) - 1]
                if folder and not _in_dot_folder(folder):
                    found.add(folder)
    return frozenset(found)


def _artifact_files(project: Project) -> int:
    return sum(
        1
        for rel in project.files()
        if rel.endswith(ARTIFACT_SUFFIXES) and not _in_dot_folder(posixpath.dirname(rel))
    )


def _is_collection(project: Project) -> bool:
    if any(project.exists(name) for name in MARKETPLACES):
        return True
    # Several skills at the root may be the repository's own (Megatron-LM's `skills/`
    # name its `megatron/` code): its README or AGENTS.md must call it a collection.
    # Read first, so that most repositories never count their artifacts: counting walks
    # the file list, and every file whose result rests on it is checked again whenever
    # a file is added or removed (cache.RecordingProject).
    if not any(_calls_itself_a_collection(project, name) for name in COLLECTION_READMES):
        return False
    shipped = len(project.memo(SKILL_FOLDERS)) + len(project.memo(BUNDLE_FOLDERS))
    return shipped + _artifact_files(project) >= COLLECTION_MIN


def _calls_itself_a_collection(project: Project, name: str) -> bool:
    source = project.read(name)
    return source is not None and bool(COLLECTION_WORDS.search(source.text[:HEAD_CHARS]))


def is_collection(project: Project) -> bool:
    """A repository whose artifacts users install: a plugin marketplace at the root, or
    several skills, plugins, extensions or Copilot artifact files outside dot-folders
    and a README or AGENTS.md that calls it a collection of them."""
    return bool(project.memo(COLLECTION))


def artifact_of(rel: str, project: Project) -> Artifact | None:
    """The distributed artifact the file at `rel` belongs to, or None."""
    folder = posixpath.dirname(rel)
    if _in_dot_folder(folder) or not is_collection(project):
        return None  # its own agent folders, or skills of a repository that is none
    skills = project.memo(SKILL_FOLDERS)
    bundles = project.memo(BUNDLE_FOLDERS)
    at = folder
    while at:
        if at in skills or at in bundles:
            return Artifact(at)
        at = posixpath.dirname(at)
    if rel.endswith(ARTIFACT_SUFFIXES):
        return Artifact(None)
    return None


def install_target(path: str, project: Project) -> tuple[str, bool] | None:
    """For a path into an install location that names an artifact this collection
    ships (`.github/skills/<name>/x.md`, `.claude/agents/<name>.md`): the path it
    stands for here, and whether it is there. A name close to a shipped one
    (`draw-io` for `drawio`) is that artifact misnamed: (path, False). Any other name
    is the user's own artifact: None."""
    segments = [s for s in path.split("/") if s not in ("", ".")]
    if len(segments) < 3 or segments[0] not in INSTALL_FOLDERS:
        return None
    kind, name, rest = segments[1], segments[2], segments[3:]
    if kind.startswith(".") or not project.exists(kind):
        return None
    here = "/".join([kind, name, *rest])
    if project.exists(f"{kind}/{name}"):
        return here, project.exists(here)
    if not rest and not path.endswith("/"):
        return None  # `.github/skills/SKILL.md`: no artifact's folder named
    shipped = project.memo(TOP_CHILDREN).get(kind, ())
    import difflib  # only here: a plain check imports nothing it does not use (tests/perf)

    if difflib.get_close_matches(name, shipped, n=1, cutoff=NEAR_NAME):
        return here, False
    return None


def _top_children(project: Project) -> dict[str, list[str]]:
    """Per top-level folder, the names directly in it."""
    children: dict[str, set[str]] = {}
    for rel in project.files():
        parts = rel.split("/")
        if len(parts) >= 2:
            children.setdefault(parts[0], set()).add(parts[1])
    return {folder: sorted(names) for folder, names in children.items()}


def declares_servers(rel: str, project: Project) -> bool:
    """Whether the artifact holding `rel` brings MCP servers of its own: an `.mcp.json`
    (or `mcp.json`) in its folder or a folder above it. A collection's root
    configuration serves the collection's own maintenance, not what users install;
    outside a collection a skill may be the repository's own, so its servers are
    taken as declared wherever the repository declares them (answer True)."""
    folder = posixpath.dirname(rel)
    while folder:
        if _mcp_config_in(folder, project):
            return True
        folder = posixpath.dirname(folder)
    return not is_collection(project)


def _mcp_config_in(folder: str, project: Project) -> bool:
    prefix = f"{folder}/" if folder else ""
    return project.exists(f"{prefix}.mcp.json") or project.exists(f"{prefix}mcp.json")


def steers_copilot(rel: str, project: Project) -> bool:
    """Whether the file is an artifact of a GitHub Copilot collection, not Claude
    Code's: Copilot's plugin manifest in a folder above it, or Copilot's marketplace
    at the root, and no Claude Code plugin manifest or marketplace on the way."""
    if rel.startswith(".claude/") or "/.claude/" in rel:
        return False
    folder = posixpath.dirname(rel)
    while folder:
        if project.exists(f"{folder}/.claude-plugin/plugin.json"):
            return False
        if project.exists(f"{folder}/.github/plugin/plugin.json"):
            return True
        folder = posixpath.dirname(folder)
    if project.exists(".claude-plugin/marketplace.json") or project.exists(".claude-plugin"):
        return False
    return (
        project.exists(".github/plugin/marketplace.json") and artifact_of(rel, project) is not None
    )


SKILL_FOLDERS = Memo("catalogue.skill_folders", _skill_folders)
BUNDLE_FOLDERS = Memo("catalogue.bundle_folders", _bundle_folders)
COLLECTION = Memo("catalogue.collection", _is_collection)
TOP_CHILDREN = Memo("catalogue.top_children", _top_children)
