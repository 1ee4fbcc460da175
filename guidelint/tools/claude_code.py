"""Claude Code's facts (claude_code.json, each with its source), which files hold hooks
and MCP servers, the JSON of a file with the span of every value, and the agents and
skills a project defines: what the GL6xx agent-configuration rules share."""

from __future__ import annotations

import fnmatch
import json
import posixpath
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from guidelint.doc_kind import template_root
from guidelint.project import Memo
from guidelint.sources import Derived, FileKind
from guidelint.spans import Span
from guidelint.tools.jsonpos import KEY

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile

SETTINGS_NAMES = ("settings.json", "settings.local.json")
SCRIPT_EXTENSIONS = (".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl")
ROOT_VARIABLE = re.compile(r"\$\{?CLAUDE_PROJECT_DIR\}?")
PLUGIN_VARIABLE = re.compile(r"\$\{?CLAUDE_PLUGIN_ROOT\}?")


@lru_cache(maxsize=1)
def facts() -> dict[str, Any]:
    from importlib import resources

    text = resources.files("guidelint.tools").joinpath("claude_code.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def names(key: str) -> list[str]:
    return list(facts()[key]["names"])


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    from guidelint.tools.catalog import close_names

    close = close_names(name, candidates, n=1)
    return f" (did you mean `{close[0]}`?)" if close else ""


def point(file: SourceFile, offset: int) -> Span:
    """One character at offset, or an empty span on a line break (it ends its line)."""
    start = max(0, min(offset, len(file.text)))
    at_break = file.text[start : start + 1] in ("\r", "\n")
    return Span(start, start if at_break else min(start + 1, len(file.text)))


@dataclass(frozen=True)
class JsonDoc:
    """A JSON file's value and the span of every value (`jsonpos.value_spans` paths),
    or the problem that stops it being read."""

    data: Any
    spans: dict[tuple, Span]
    problem: tuple[int, str] | None = None

    def span(self, file: SourceFile, path: tuple) -> Span:
        """The value's span, else its key's, else its container's (never nothing)."""
        for candidate in (path, (*path, KEY)):
            if candidate in self.spans:
                return self.spans[candidate]
        while path:
            path = path[:-1]
            if path in self.spans:
                return self.spans[path]
        return point(file, 0)

    def key_span(self, file: SourceFile, path: tuple) -> Span:
        return self.spans.get((*path, KEY)) or self.span(file, path)


def json_doc(file: SourceFile) -> JsonDoc:
    return file.derived(JSON_DOC)


def _read_json(file: SourceFile) -> JsonDoc:
    from guidelint.tools.jsonpos import JSON_SPANS, JsonProblem, parse

    try:
        data = parse(file.text)
    except JsonProblem as err:
        return JsonDoc(None, {}, (err.offset, err.message))
    return JsonDoc(data, file.derived(JSON_SPANS))


JSON_DOC = Derived("agent_config.json", _read_json)


def is_settings_file(rel: str) -> bool:
    folder, name = posixpath.split(rel)
    return name in SETTINGS_NAMES and posixpath.basename(folder) == ".claude"


def is_plugin_manifest(rel: str) -> bool:
    return rel.endswith(".claude-plugin/plugin.json") and (
        rel == ".claude-plugin/plugin.json" or rel.endswith("/.claude-plugin/plugin.json")
    )


def is_hooks_file(rel: str) -> bool:
    """A plugin's `hooks/hooks.json` (not another harness's, under `.codex-plugin/`)."""
    if not (rel == "hooks/hooks.json" or rel.endswith("/hooks/hooks.json")):
        return False
    return not any(p.startswith(".") and p != ".claude" for p in rel.split("/")[:-2])


def is_loaded_hooks_file(rel: str, project: Project) -> bool:
    """A plugin's `hooks/hooks.json` that Claude Code loads: at the repository's root,
    in a marketplace's `plugins/<name>/`, or beside a `.claude-plugin/plugin.json`. One
    elsewhere is a fixture or an example (a converter's `tests/fixtures/sample-plugin/`)."""
    if not is_hooks_file(rel):
        return False
    root = plugin_root(rel)
    if root == "" or (root.startswith("plugins/") and root.count("/") == 1):
        return True
    return root in plugin_roots(project)


def hooks_path(file: SourceFile, doc: JsonDoc) -> tuple | None:
    """Where the file keeps its `hooks` object (settings, plugin.json, hooks.json)."""
    if not isinstance(doc.data, dict):
        return None
    if is_settings_file(file.rel) or is_plugin_manifest(file.rel):
        return ("hooks",) if "hooks" in doc.data else None
    if is_hooks_file(file.rel):
        return ("hooks",) if "hooks" in doc.data else ()
    return None


def hooks_table(file: SourceFile, doc: JsonDoc) -> tuple[tuple, dict] | None:
    """(where, the `hooks` mapping) of a file that registers hooks as one; None when it
    has none or it is not a mapping (GL604 reports the shape)."""
    where = hooks_path(file, doc)
    if where is None:
        return None
    hooks = doc.data.get("hooks") if where else doc.data
    return (where, hooks) if isinstance(hooks, dict) else None


def plugin_root(rel: str) -> str:
    """The plugin folder a hooks.json or plugin.json belongs to ('' for the root)."""
    folder = posixpath.dirname(posixpath.dirname(rel))
    return folder


def is_mcp_file(rel: str) -> bool:
    return posixpath.basename(rel) == ".mcp.json"


def mcp_servers_path(file: SourceFile, doc: JsonDoc, project: Project) -> tuple | None:
    """Where the servers are: `mcpServers` of .mcp.json, settings or plugin.json; a
    plugin's .mcp.json may also list them at its top level."""
    data = doc.data
    if not isinstance(data, dict):
        return None
    if "mcpServers" in data:
        return ("mcpServers",)
    if is_mcp_file(file.rel) and file.rel != project.config.tools.mcp_config:
        return ()
    return None


def script_paths(command: str, plugin: str | None) -> Iterator[tuple[str, int]]:
    """Paths in this repository that a hook command runs, with their offsets in the
    command: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`, `${CLAUDE_PLUGIN_ROOT}/x.py`,
    `./scripts/check.sh`, `python .claude/hooks/x.py`. Anything else (a program on
    PATH, `npx pkg`, an absolute or home path) is not looked up. `plugin` is the plugin
    folder of a plugin's hooks (None for settings): its relative paths are the user's."""
    for match in re.finditer(r"""[^\s;&|<>()]+""", command):
        token = match.group(0)
        raw = token.replace('"', "").replace("'", "")
        if ROOT_VARIABLE.match(raw):
            if plugin is not None:
                continue  # a plugin's $CLAUDE_PROJECT_DIR is its user's project, not this one
            path = ROOT_VARIABLE.sub("", raw, count=1).lstrip("/")
        elif PLUGIN_VARIABLE.match(raw):
            if plugin is None:
                continue
            path = posixpath.join(plugin, PLUGIN_VARIABLE.sub("", raw, count=1).lstrip("/"))
        elif (
            plugin is None
            and raw.startswith(("./", ".claude/"))
            or (plugin is None and "/" in raw and raw.endswith(SCRIPT_EXTENSIONS))
        ):
            path = raw
        else:
            continue
        if "$" in path or "*" in path or not path.strip("/."):
            continue
        if not path.endswith(SCRIPT_EXTENSIONS) and not raw.startswith("./"):
            if not (ROOT_VARIABLE.match(raw) or PLUGIN_VARIABLE.match(raw)):
                continue
        yield posixpath.normpath(path), match.start()


# --- agents and skills --------------------------------------------------------------


def plugin_roots(project: Project) -> frozenset[str]:
    return project.memo(PLUGIN_ROOTS)


def _plugin_roots(project: Project) -> frozenset[str]:
    return frozenset(plugin_root(rel) for rel in project.files() if is_plugin_manifest(rel))


PLUGIN_ROOTS = Memo("GL6xx.plugin_roots", _plugin_roots)


def is_agent_file(rel: str, project: Project) -> bool:
    """`.claude/agents/**.md`, or `agents/**.md` at a plugin's root (a marketplace's
    `plugins/*/agents` too). Prompt files elsewhere (`references/agents/`) are not agents."""
    if not rel.endswith(".md") or posixpath.basename(rel).lower() == "readme.md":
        return False
    parts = rel.split("/")
    if "agents" not in parts[:-1]:
        return False
    index = parts.index("agents")
    owner = "/".join(parts[:index])
    if owner == ".claude" or owner.endswith("/.claude"):
        return True
    roots = plugin_roots(project)
    return owner in roots or (owner.startswith("plugins/") and owner.count("/") == 1)


def is_command_file(rel: str, project: Project) -> bool:
    """`.claude/commands/**.md`, or `commands/**.md` at a plugin's root: slash commands,
    whose front matter `allowed-tools` Claude Code reads."""
    if not rel.endswith(".md") or posixpath.basename(rel).lower() == "readme.md":
        return False
    parts = rel.split("/")
    if "commands" not in parts[:-1]:
        return False
    owner = "/".join(parts[: parts.index("commands")])
    if owner == ".claude" or owner.endswith("/.claude"):
        return True
    return owner in plugin_roots(project) or (
        owner.startswith("plugins/") and owner.count("/") == 1
    )


def names_claude_code_tools(rel: str, project: Project) -> bool:
    """Whether Claude Code loads the file as an agent, command or skill, so its front
    matter's tool lists name Claude Code's tools. A Markdown file elsewhere (another
    tool's spec with `tools: run_commands`) and what another harness loads (Copilot's
    `.github/agents/*.agent.md`, Codex's skills) name that tool's own tools."""
    if _loaded_by_another_harness(rel):
        return False
    if posixpath.basename(rel) == "SKILL.md":
        return True
    return is_agent_file(rel, project) or is_command_file(rel, project)


def _loaded_by_another_harness(rel: str) -> bool:
    from guidelint.tools.harnesses import harnesses

    for key, harness in harnesses().items():
        if key == "claude-code":
            continue
        if any(fnmatch.fnmatchcase(rel, pattern) for pattern in harness.components):
            return True
    return False


def is_skill_file(rel: str) -> bool:
    parts = rel.split("/")
    return parts[-1] == "SKILL.md" and len(parts) >= 3 and parts[-3] == "skills"


# What a folder holds when the `skills/` in it is loaded or installed as a whole: a
# plugin's or extension's manifest (Claude Code's `.claude-plugin/plugin.json`, the
# same layout under `.codex-plugin/` and `.cursor-plugin/`, Gemini CLI's
# `gemini-extension.json`), or a package's, whose skills an installer copies out.
SKILL_OWNER_MANIFESTS = (
    ".claude-plugin/plugin.json",
    ".codex-plugin/plugin.json",
    ".cursor-plugin/plugin.json",
    "plugin.json",
    "gemini-extension.json",
    "package.json",
    "pyproject.toml",
    "__init__.py",
)


def is_loaded_skill(rel: str, project: Project) -> bool:
    """A `skills/<name>/SKILL.md` where a harness loads skills: a harness's own folder
    (`.claude/skills`, `.agents/skills`, `.codex/skills`, `.gemini/skills`, at any
    depth), a repository's root `skills/` (what a marketplace or a skills installer
    reads), the `skills/` beside a plugin's, extension's or package's manifest, or a
    template tree's (beads' `internal/templates/skills/`, copied into projects).
    Another framework's agent folder (an example agent's `skills/` that its own
    AGENTS.md reads as files) is none of them."""
    if not is_skill_file(rel):
        return False
    owner = "/".join(rel.split("/")[:-3])
    if not owner or posixpath.basename(owner).startswith("."):
        return True
    if template_root(rel, project) is not None:
        return True  # a template tree's skills land where a harness loads them
    if owner in plugin_roots(project) or (owner.startswith("plugins/") and owner.count("/") == 1):
        return True
    if any(project.exists(f"{owner}/{name}") for name in SKILL_OWNER_MANIFESTS):
        return True
    return owner in project.memo(NAMED_PLUGIN_MANIFEST_FOLDERS)


def _named_plugin_manifest_folders(project: Project) -> frozenset[str]:
    """Folders holding another harness's `<name>.plugin.json` (OpenClaw's
    `openclaw.plugin.json`), found once per run."""
    return frozenset(
        posixpath.dirname(rel) for rel in project.files() if rel.endswith(".plugin.json")
    )


NAMED_PLUGIN_MANIFEST_FOLDERS = Memo(
    "skills.named_plugin_manifests", _named_plugin_manifest_folders
)


def is_output_style_file(rel: str, project: Project) -> bool:
    """`.claude/output-styles/*.md`, or `output-styles/*.md` at a plugin's root: the
    Markdown files Claude Code adds to its system prompt as output styles."""
    parts = rel.split("/")
    if len(parts) < 2 or parts[-2] != "output-styles" or not rel.endswith(".md"):
        return False
    owner = "/".join(parts[:-2])
    if owner == ".claude" or owner.endswith("/.claude"):
        return True
    return owner in plugin_roots(project) or (
        owner.startswith("plugins/") and owner.count("/") == 1
    )


def is_plugin_output_style(rel: str) -> bool:
    """An output style a plugin ships (not one of a `.claude/` folder)."""
    return rel.split("/")[-3:-2] != [".claude"]


def front_matter_kind(file: SourceFile, project: Project) -> str | None:
    """Which of Claude Code's Markdown files this is, by the front matter it reads:
    `agent`, `skill`, `command` or `output-style` (GL611 and GL622), else None."""
    from guidelint.sources import FileKind

    if file.kind != FileKind.MARKDOWN:
        return None
    if is_skill_file(file.rel):
        return "skill"
    if is_agent_file(file.rel, project):
        return "agent"
    if is_command_file(file.rel, project):
        return "command"
    if is_output_style_file(file.rel, project):
        return "output-style"
    return None


def defined_agents(project: Project) -> frozenset[str]:
    """Names of every agent the project defines (front matter `name`, else the file's stem)."""

    return project.memo(AGENTS)


def _agents(project: Project) -> frozenset[str]:
    from guidelint.frontmatter import front_matter, front_text, plain_string

    found: set[str] = set()
    for rel in project.files():
        if not is_agent_file(rel, project):
            continue
        found.add(posixpath.splitext(posixpath.basename(rel))[0])
        file = project.read(rel)
        if file is None or file.kind != FileKind.MARKDOWN:
            continue
        # `name: reviewer` read from the lines where that is sure; else composed.
        front = front_text(file)
        known, name = plain_string(front.text, "name") if front else (True, None)
        if not known:
            data = front_matter(file)
            name = data.get("name") if data else None
        if isinstance(name, str) and name.strip():
            found.add(name.strip())
    return frozenset(found)


AGENTS = Memo("GL6xx.agents", _agents)


# `@path` imports of a CLAUDE.md: Claude Code reads the imported file as its own.
IMPORT = re.compile(r"(?:^|(?<=\s))@(?P<path>[\w.~/-]+\.md)\b", re.MULTILINE)
INSTRUCTION_NAMES = ("CLAUDE.md", "CLAUDE.local.md")


def read_by_claude_code(rel: str, project: Project) -> bool:
    """Whether Claude Code reads the Markdown file: CLAUDE.md and what it imports,
    anything under `.claude/`, and the agents, commands and skills of a plugin. Other
    steering files (AGENTS.md, another framework's `skills/`) may name another
    harness's agents and tools."""
    if posixpath.basename(rel) in INSTRUCTION_NAMES:
        return True
    if rel.startswith(".claude/") or "/.claude/" in rel:
        return True
    if is_agent_file(rel, project) or is_command_file(rel, project):
        return True
    parts = rel.split("/")
    if is_skill_file(rel) and "/".join(parts[:-3]) in plugin_roots(project):
        return True
    return rel in project.memo(CLAUDE_IMPORTS)


def _claude_imports(project: Project) -> frozenset[str]:
    imported: set[str] = set()
    for rel in project.files():
        if posixpath.basename(rel) not in INSTRUCTION_NAMES:
            continue
        file = project.read(rel)
        if file is None:
            continue
        folder = posixpath.dirname(rel)
        for match in IMPORT.finditer(file.text):
            path = posixpath.normpath(posixpath.join(folder, match.group("path")))
            if not path.startswith(("../", "~")):
                imported.add(path)
    return frozenset(imported)


CLAUDE_IMPORTS = Memo("GL6xx.claude_imports", _claude_imports)
# Another framework's subagents, listed by name in a YAML or JSON file (deepagents'
# `subagents.yaml`): a mapping keyed by name, or a list of entries with `name`.
SUBAGENT_LISTS = (".yaml", ".yml", ".json")


def listed_subagents(project: Project) -> frozenset[str]:
    """Names of the subagents a `*subagents*.yaml`/`.json` file of the project lists."""
    return project.memo(LISTED_SUBAGENTS)


def _listed_subagents(project: Project) -> frozenset[str]:
    found: set[str] = set()
    for rel in project.files():
        base = posixpath.basename(rel).lower()
        if "subagent" not in base or not base.endswith(SUBAGENT_LISTS):
            continue
        file = project.read(rel)
        if file is not None:
            found.update(_subagent_names(file.text, json_file=base.endswith(".json")))
    return frozenset(found)


def _subagent_names(text: str, *, json_file: bool) -> Iterator[str]:
    import yaml  # only for a subagent list

    try:
        data = json.loads(text) if json_file else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError):
        return
    if isinstance(data, dict) and isinstance(data.get("subagents"), (list, dict)):
        data = data["subagents"]
    entries = data.values() if isinstance(data, dict) else data if isinstance(data, list) else []
    if isinstance(data, dict):
        yield from (key for key in data if isinstance(key, str))
    for entry in entries:
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            yield entry["name"]


LISTED_SUBAGENTS = Memo("GL6xx.listed_subagents", _listed_subagents)
