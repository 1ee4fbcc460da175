"""The import layers of docs/ARCHITECTURE.md, enforced over the whole package.

The table is read from the page itself, so the documentation and this check cannot
drift apart. Every import counts: top level, inside a function, under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import guidelint

PACKAGE = Path(guidelint.__file__).parent
ARCHITECTURE = PACKAGE.parent / "docs" / "ARCHITECTURE.md"
PILLAR_LAYER = "pillars"
CHECK_IMPORTERS = {"guidelint.commands.cli", "guidelint.api"}


@dataclass(frozen=True)
class Layer:
    rank: int
    name: str
    patterns: tuple[str, ...]


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the imported module
    line: int

    def where(self) -> str:
        return f"{module_path(self.source)}:{self.line}"


def read_layers(page: Path) -> list[Layer]:
    """The rows of the table under `## Layers`: rank and name, then module patterns."""
    tokens = MarkdownIt().enable("table").parse(page.read_text(encoding="utf-8"))
    in_section, layers, cells = False, [], []
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            in_section = tokens[index + 1].content == "Layers"
        elif in_section and token.type == "tr_open":
            cells = []
        elif in_section and token.type == "inline" and tokens[index - 1].type == "td_open":
            cells.append(token)
        elif in_section and token.type == "tr_close" and cells:
            rank, _, name = cells[0].content.partition(" ")
            patterns = [c.content for c in cells[1].children or [] if c.type == "code_inline"]
            layers.append(Layer(int(rank), name.strip(), tuple(patterns)))
    return layers


def package_modules() -> dict[str, Path]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


MODULES = package_modules()


def module_path(module: str) -> str:
    return MODULES[module].relative_to(PACKAGE.parent).as_posix()


def imports_of(module: str) -> list[Import]:
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            names = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names
            ]
        else:
            continue
        found += [Import(module, name, node.lineno) for name in names if name in MODULES]
    return sorted({i for i in found if i.target != module}, key=lambda i: (i.line, i.target))


def _imported_module(base: str, name: str) -> str:
    """`from pkg import mod` imports the module pkg.mod; `from mod import name`, mod."""
    return f"{base}.{name}" if f"{base}.{name}" in MODULES else base


def specificity(pattern: str) -> tuple[int, int, int]:
    """Exact names first, then patterns ending in a name (`guidelint.*.cli`), then the rest."""
    return ("*" not in pattern, not pattern.endswith("*"), len(pattern.replace("*", "")))


def matches(module: str, pattern: str) -> bool:
    # `guidelint.tools.*` covers the package `guidelint.tools` itself too.
    return fnmatch.fnmatchcase(module, pattern) or (
        pattern.endswith(".*") and module == pattern[:-2]
    )


def assign(layers: list[Layer]) -> dict[str, Layer]:
    """Each module's layer, decided by its most specific matching pattern."""
    assigned = {}
    for module in MODULES:
        best = None
        for layer in layers:
            for pattern in layer.patterns:
                if matches(module, pattern):
                    key = specificity(pattern)
                    if best is None or key > best[0]:
                        best = (key, layer)
        if best is not None:
            assigned[module] = best[1]
    return assigned


def pillar(module: str) -> str:
    return module.split(".")[1]


LAYERS = read_layers(ARCHITECTURE)
ASSIGNED = assign(LAYERS)
IMPORTS = [imp for module in MODULES for imp in imports_of(module)]


def test_the_table_is_read_and_ranked_in_order():
    assert [layer.rank for layer in LAYERS] == list(range(1, len(LAYERS) + 1))
    assert any(layer.name == PILLAR_LAYER for layer in LAYERS)
    assert all(layer.patterns for layer in LAYERS)


def test_every_module_has_a_layer():
    missing = sorted(set(MODULES) - set(ASSIGNED))
    assert missing == [], f"add these to the Layers table of docs/ARCHITECTURE.md: {missing}"


def test_every_pattern_names_a_module():
    stale = [
        p for layer in LAYERS for p in layer.patterns if not any(matches(m, p) for m in MODULES)
    ]
    assert stale == []


def test_imports_run_down_the_layers():
    upward = [
        f"{imp.where()}: {imp.source} ({ASSIGNED[imp.source].name}) imports "
        f"{imp.target} ({ASSIGNED[imp.target].name})"
        for imp in IMPORTS
        if ASSIGNED[imp.target].rank > ASSIGNED[imp.source].rank
    ]
    assert not upward, "\n".join(upward)


def test_a_pillar_never_imports_another_pillar():
    crossing = [
        f"{imp.where()}: {imp.source} imports {imp.target}"
        for imp in IMPORTS
        if ASSIGNED[imp.source].name == ASSIGNED[imp.target].name == PILLAR_LAYER
        and pillar(imp.source) != pillar(imp.target)
    ]
    assert not crossing, "\n".join(crossing)


def third_party_imports(module: str) -> set[str]:
    """The dotted names a module imports from outside the package."""
    names = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
    return {name for name in names if name.split(".")[0] != "guidelint"}


# What only a door imports: the command line, the MCP server side (the MCP client is
# a tool source's business), the language server.
DOOR_LIBRARIES = ("click", "mcp.server", "pygls", "lsprotocol")


def test_no_pillar_is_a_door():
    # The doors live in guidelint/commands/; a pillar offers its face as plain
    # functions and typed values.
    found = [
        f"{module_path(module)}: imports {name}"
        for module, layer in ASSIGNED.items()
        if layer.name == PILLAR_LAYER
        for name in sorted(third_party_imports(module))
        if any(name == lib or name.startswith(f"{lib}.") for lib in DOOR_LIBRARIES)
    ]
    assert not found, "\n".join(found)


def test_only_the_cli_and_the_api_import_check():
    others = [
        f"{imp.where()}: {imp.source}"
        for imp in IMPORTS
        if imp.target == "guidelint.check" and imp.source not in CHECK_IMPORTERS
    ]
    assert not others, "\n".join(others)


def test_no_import_cycles():
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for imp in IMPORTS:
        graph[imp.source].add(imp.target)
    cycles = [sorted(c) for c in strongly_connected(graph) if len(c) > 1]
    assert not cycles, "\n".join(" <-> ".join(c) for c in cycles)


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (the package is small, but recursion is fragile)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
    return components


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ],
)
def test_cycle_finder_finds_cycles_and_nothing_else(graph, expected):
    found = [sorted(c) for c in strongly_connected(graph) if len(c) > 1]
    assert found == expected


def test_the_most_specific_pattern_decides():
    layers = [
        Layer(5, "pillars", ("guidelint.runner.*",)),
        Layer(9, "commands", ("guidelint.*.cli",)),
    ]
    by_module = {m: layer.name for m, layer in assign(layers).items()}
    assert by_module["guidelint.runner.diffusers_backend.cli"] == "commands"
    assert by_module["guidelint.runner"] == "pillars"
    assert by_module["guidelint.runner.plan"] == "pillars"


ARROW = re.compile(r"^- `(guidelint[\w.]*) -> (guidelint[\w.]*)`$", re.MULTILINE)
MOST_ARROWS_BACK_UP = 4


def folder_rank(module: str) -> int:
    """The highest rank of the packages an import of module runs first."""
    parts = module.split(".")
    packages = (".".join(parts[:end]) for end in range(2, len(parts)))
    return max((ASSIGNED[p].rank for p in packages if p in ASSIGNED), default=0)


def test_the_arrows_back_up_are_the_page_s_few():
    """An import into a package folder ranked above the importer runs that package's
    `__init__.py`: the page names each such arrow and why, and there are at most four."""
    back_up = {
        (imp.source, imp.target)
        for imp in IMPORTS
        if folder_rank(imp.target) > ASSIGNED[imp.source].rank
    }
    listed = set(ARROW.findall(ARCHITECTURE.read_text(encoding="utf-8")))
    assert back_up == listed
    assert len(listed) <= MOST_ARROWS_BACK_UP
