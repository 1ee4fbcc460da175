"""GL612 broken-import-chain: a CLAUDE.md `@import` past the 5 hops Claude Code follows,
or one that closes a cycle.

Claude Code loads `@path` imports of its memory files recursively, "with a max-depth of
5 hops" (code.claude.com/docs/en/memory; guidelint/tools/claude_code.json): a file only
reachable in a 6th hop is never loaded. An import of a file that already imports this
one (directly or not) loads nothing new.
"""

from __future__ import annotations

import posixpath
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from guidelint.findings import Finding, Severity
from guidelint.project import Memo, Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile

ROOTS = ("CLAUDE.md", "CLAUDE.local.md")


@dataclass
class ImportGraph:
    """Every memory file Claude Code loads from the repository's CLAUDE.md files: its
    fewest hops from one, the path that reaches it that way, and its imports."""

    hops: dict[str, int] = field(default_factory=dict)
    via: dict[str, str] = field(default_factory=dict)  # file -> the file importing it
    imports: dict[str, list[str]] = field(default_factory=dict)

    def chain(self, rel: str) -> list[str]:
        path = [rel]
        while path[-1] in self.via:
            path.append(self.via[path[-1]])
        return path[::-1]

    def reaches(self, start: str, goal: str) -> bool:
        seen, todo = {start}, [start]
        while todo:
            for target in self.imports.get(todo.pop(), []):
                if target == goal:
                    return True
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        return False


def _build(project: Project) -> ImportGraph:
    from guidelint.rules.broken_link.steering import memory_imports

    graph = ImportGraph()
    roots = [rel for rel in project.files() if posixpath.basename(rel) in ROOTS]
    queue = deque(roots)
    graph.hops.update({rel: 0 for rel in roots})
    while queue:
        rel = queue.popleft()
        file = project.read(rel) if rel.endswith(".md") else None
        if file is None or file.kind != FileKind.MARKDOWN:
            continue
        targets = [target for _, target in memory_imports(file) if project.exists(target)]
        graph.imports[rel] = targets
        for target in targets:
            if target not in graph.hops:
                graph.hops[target] = graph.hops[rel] + 1
                graph.via[target] = rel
                queue.append(target)
    return graph


IMPORT_GRAPH = Memo("GL612.imports", _build)


class BrokenImportChain(Rule):
    code = "GL612"
    name = "broken-import-chain"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    needs = "imports"

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.rules.broken_link.steering import memory_imports

        # Only a file that imports something asks for the graph (the whole file list):
        # renaming a page then re-checks no page without an import.
        imports = [
            (span, target) for span, target in memory_imports(file) if project.exists(target)
        ]
        if not imports:
            return  # nothing imported, or only missing files (GL502's)
        graph = project.memo(IMPORT_GRAPH)
        hops = graph.hops.get(file.rel)
        if hops is None:
            return  # not loaded from any CLAUDE.md
        limit = _max_hops()
        for span, target in imports:
            if hops == limit and graph.hops.get(target, hops + 1) > limit:
                chain = " -> ".join(f"`{r}`" for r in [*graph.chain(file.rel), target])
                yield self.finding(
                    file,
                    span,
                    f"`{target}` is hop {hops + 1} of {chain}: Claude Code follows imports "
                    f"{limit} hops deep, so it is never loaded",
                )
            elif graph.hops.get(target, hops + 1) <= hops and (
                target == file.rel or graph.reaches(target, file.rel)
            ):
                yield self.finding(
                    file,
                    span,
                    f"`@{posixpath.relpath(target, posixpath.dirname(file.rel) or '.')}` "
                    f"closes an import cycle (`{target}` already imports `{file.rel}`): it "
                    "loads nothing new",
                    severity=Severity.WARNING,
                )


def _max_hops() -> int:
    from guidelint.tools.claude_code import facts

    return int(facts()["imports"]["max_hops"])
