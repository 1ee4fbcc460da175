"""GL501 stale-path: a backticked repository path that does not exist.

Which code spans count as repository paths (the heuristic, also in rules/GL501.md):
one token with no spaces, containing a `/`, made only of path characters; not a
URL, glob, variable, absolute/home path or placeholder (`path/to`, `YYYY`, `xx`,
`LANG_ID`, `your-...`, or a last segment the same paragraph explains as a code
span: "`layouts/pt`, where `pt` is ..."); anchored in this repository (its first segment
exists relative to the root or the document; `./` and `../` paths relative to the
document only); not git-ignored (outputs a run writes); and of a file type the
repository has; not a build's output (`dist/`, `site/`: named as built on its line, or the
conventional output folder of a build the repository configures). A `:LINE` or `#anchor`
suffix is dropped first. One path is reported once per line. Not a path its document says is
made (by a sentence, also one begun on the line above, or a command of its fences), nor one
whose first missing folder is a run's (`cache`, `tmp`, `results`), nor an MCP method
(`tools/call`). Nor a git branch prefix in a table of branch names (`feat/`), a path
the document says is not shipped yet (or one under it), the repository's own name as a
first segment (`dspy/docs`), a module path from a src-layout package
(`utils/x.py` or `utils/x` of `src/pkg/utils/x.py`), or a program a build writes
(`hld/hld-dev`). Nor a file an unchecked task makes ("- [ ] `x/new.py`"), a folder
symlinked in (`ln -s`), a sample row of a table given as a format, or a path its
sentence calls old and gone or says is being relocated. Nor a folder said to be absent on
purpose ("would go under", "currently empty", "no-ops if missing"), a coverage report
(`coverage/`), or the path of an item labelled "Example:" (also inside its supposition:
"Example: If subtask 1.1 modifies `src/api.js`"), or of a "✅ Right:" / "❌ Wrong:" line,
or one in a section whose heading says it is not built yet ("Future work", "Roadmap",
"Not yet implemented"). Nor a link's text naming its existing target from the target's
folder, a path in a table row or list of another repository, or one its sentence places
in the user's project ("For existing projects: ..."). A file under a nested harness
folder (`demo/.claude/agents/x.md`) also speaks from the folder holding it (`demo/`).
"""

from __future__ import annotations

import bisect
import posixpath
from collections.abc import Iterator

from guidelint.catalogue import Artifact, artifact_of
from guidelint.doc_kind import planned_section, reading_of
from guidelint.fences import exposed, in_regions
from guidelint.findings import Finding, Severity
from guidelint.markdown import Link, may_hold_code_spans
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.rules.broken_link.steering import is_steering_file
from guidelint.rules.stale_path.agent_memory import memory_files
from guidelint.rules.stale_path.builds import build_output, built_binary, said_built
from guidelint.rules.stale_path.candidates import candidate_path
from guidelint.rules.stale_path.conventions import (
    action_reference,
    branch_prefix,
    link_around,
    module_path,
    named_from_its_folder,
    names_another_place,
    plugin_users_claude,
    user_location,
)
from guidelint.rules.stale_path.described import (
    downloaded_in_document,
    in_worked_project,
    quoted_utterance,
    section_component,
    worked_projects,
)
from guidelint.rules.stale_path.distributed import bundle_verdict
from guidelint.rules.stale_path.elsewhere import another_repository
from guidelint.rules.stale_path.illustrative import (
    illustrative,
    numbered_instance,
    per_item_path,
    stand_in_item,
)
from guidelint.rules.stale_path.made import (
    IGNORED,
    env_file,
    made_in_document,
    not_shipped_in_document,
    run_time_folder,
    under_not_shipped,
)
from guidelint.rules.stale_path.placeholders import explained, explained_names
from guidelint.rules.stale_path.project_files import FILE_INDEX, join_rel, known_file_type
from guidelint.rules.stale_path.roots import (
    anchored,
    component_roots,
    in_nested_crate,
    in_package_root,
    in_some_component,
    top_level_folder,
    under_repository_name,
)
from guidelint.rules.stale_path.sentences import not_a_claim
from guidelint.sources import FileKind, SourceFile


class StalePath(Rule):
    code = "GL501"
    name = "stale-path"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        if file.kind != FileKind.MARKDOWN:
            return False
        return not project.globs(project.config.paths.not_this_tree).matches(file.rel)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        if not may_hold_code_spans(file.text):
            return  # no backtick, no path to check: the document need not be parsed
        reading = reading_of(file, project)
        if reading.skip:
            return  # a fixture, or a plan, spec or report: what was or will be, not what is
        severity = Severity.WARNING if reading.note else None
        doc_dir = posixpath.dirname(file.rel)
        code_spans = file.markdown.code_spans
        # Read once per file, and only once a span names a path (most spans do not).
        paragraph_names: dict[int, set[str]] | None = None
        url_links: list[Link] | None = None
        local_links: list[Link] | None = None  # relative links, by where they start
        link_starts: list[int] = []
        roots: list[str] | None = None
        made: set[str] | None = None
        not_shipped: set[str] | None = None
        theirs: set[str] | None = None  # an agent's memory, a download's destination
        worked: frozenset[str] | None = None  # projects a documented command works on
        # A steering file's `legacy/` names a top-level folder of this repository.
        steering = is_steering_file(file.rel) and "/" not in file.rel.removeprefix(".claude/")
        reported: set[tuple[int, str]] = set()
        newlines: list[int] | None = None  # the text's "\n" offsets, once a path is reported
        # A skill, plugin or extension users install: it speaks from its own folder.
        artifact: Artifact | None | bool = False  # False: not yet asked
        for span in code_spans:
            if "/" not in span.content:
                continue  # most code spans: no path (candidate_path's own first test)
            path = candidate_path(span.content)
            if path is None:
                continue
            if paragraph_names is None:
                paragraph_names = explained_names(code_spans)
                url_links = [link for link in file.markdown.links if "://" in link.href]
            if explained(path, paragraph_names.get(id(span.block), set())):
                continue
            if any(names_another_place(link, span, path) for link in url_links or ()):
                continue  # `owner/repo/file.md` as the text of a link to another repository
            if artifact is False:
                artifact = artifact_of(file.rel, project)
            from_bundle = False  # checked from the artifact's own folder
            if path.startswith(("./", "../")):
                bases = [doc_dir]  # relative to this document, as in a Markdown link
            elif isinstance(artifact, Artifact):
                bases = [base for base in (artifact.root, doc_dir) if base is not None]
                if any(project.exists(join_rel(base, path)) for base in ["", *bases]):
                    continue
                go_on, bases = bundle_verdict(path, artifact, file.text, span.span.start, project)
                if not go_on:
                    continue  # the user's project's path, or the install location's
                from_bundle = True
            else:
                bases = [""] if not doc_dir or doc_dir.startswith("/") else ["", doc_dir]
                if roots is None:  # the document's own folder decides: once per file
                    roots = component_roots(file.rel, project)
                bases += roots
            if (
                not from_bundle
                and not anchored(path, bases, project)
                and not (steering and top_level_folder(path, project))
            ):
                continue
            if any(project.exists(join_rel(base, path)) for base in bases):
                continue
            if under_repository_name(path, project):
                continue  # `dspy/docs` in the dspy repository: its own `docs/`
            if in_package_root(path, project):
                continue  # `utils/x.py` of `src/<package>/utils/x.py`: a module path
            if module_path(path, bases, project):
                continue  # `src/email/generateEmailHTML`: an import path, extension left off
            # Asked only for a missing path: the file list, the sentence's patterns.
            if plugin_users_claude(path, project):
                continue  # a plugin's docs describe its users' `.claude/`, not its own
            if local_links is None:  # once per file, and only for a path still missing
                local_links = sorted(
                    (link for link in file.markdown.links if "://" not in link.href),
                    key=lambda link: link.span.start,
                )
                link_starts = [link.span.start for link in local_links]
            link = link_around(local_links, link_starts, span.span.start)
            if named_from_its_folder(path, span, link, doc_dir, project):
                continue  # [`references/x.md`](../other-skill/references/x.md)
            if not_a_claim(file.text, span.span.start, span.span.end):
                continue
            if planned_section(file, span.span.start):
                continue  # under "Future work", "Not yet implemented": planned, not made
            if made is None:  # once per file, and only for a path still unexplained
                made = made_in_document(file)
            if path.rstrip("/").removeprefix("./") in made:
                continue  # another sentence or a command of this document makes it
            if not_shipped is None:
                not_shipped = not_shipped_in_document(file)
            if under_not_shipped(path, not_shipped):
                continue  # under a folder the document says "will live under", not yet made
            # Asked only here: a file whose paths all exist never reads .gitignore.
            ignored = project.memo(IGNORED)
            if any(ignored(join_rel(base, path)) for base in bases):
                continue
            if env_file(path):
                continue  # made from `.env.example` on each machine, never committed
            if not from_bundle and len(bases) < 3 and in_some_component(path, project):
                continue
            if in_nested_crate(path, doc_dir, project):
                continue
            if run_time_folder(path, bases, project):
                continue  # `cached_ops/`, `results/`: what a run writes, never committed
            if not known_file_type(path, project):
                continue
            if in_regions(span.span.start, exposed(file)):
                continue  # an example a broken fence left as prose: GL503 reports the fence
            if illustrative(path, file, span):
                continue
            if numbered_instance(path, project):
                continue  # `changelog/1234.added.md` beside many `changelog/<n>.added.md`
            if action_reference(path, file, span, project):
                continue  # `actions/create-github-app-token`: a GitHub Action, not a path
            if per_item_path(path, doc_dir, project):
                continue  # `tests/case.json` of each task folder the document describes
            if stand_in_item(path, project):
                continue  # `tests/test_provider/evals/` beside `tests/test_openai/evals/`
            if branch_prefix(path, file.text, span.span):
                continue  # `feat/` in a table of git branch names, not a folder
            if another_repository(path, file, span, url_links or [], project):
                continue  # the TypeScript SDK's `examples/x/`, the `owner/name` repository
            if theirs is None:  # once per file, and only for a path still unexplained
                theirs = memory_files(file) | downloaded_in_document(file)
            if path.removeprefix("./") in theirs:
                continue  # the agent's memory file its runs write; a reader's `curl -o`
            if worked is None:
                worked = worked_projects(file, doc_dir, project)
            if in_worked_project(path, worked):
                continue  # `src/types/x.ts` after `main.py --project-path ./src`
            if section_component(path, file, span, project) or quoted_utterance(file.text, span):
                continue  # `scripts/x.sh` under "## ralph-wiggum Plugin"; a quoted message
            if user_location(file.text, span.span):
                continue  # "**Workspace Location**: `.clinerules/hooks/X`": the user's file
            if said_built(file.text, span.span) or build_output(path, bases, project):
                continue  # `dist/`, `site/`: what a build writes, not committed
            if built_binary(path, bases, project):
                continue  # `hld/hld-dev`: a program the module's build writes
            # `dist/` three times on one line is one stale path, reported once.
            if newlines is None:  # (rfind from each span read back over its whole line: #28)
                newlines = _newline_offsets(file.text)
            line_key = (_newline_before(newlines, span.span.start), path)
            if line_key in reported:
                continue
            reported.add(line_key)
            yield self.finding(
                file,
                span.span,
                f"`{path}` does not exist in this repository{_hint(path, project)}{reading.note}",
                severity=severity,
            )


def _newline_offsets(text: str) -> list[int]:
    offsets, at = [], text.find("\n")
    while at != -1:
        offsets.append(at)
        at = text.find("\n", at + 1)
    return offsets


def _newline_before(newlines: list[int], offset: int) -> int:
    """The offset of the last "\n" before `offset`, -1 if none: `text.rfind("\n", 0, offset)`."""
    index = bisect.bisect_left(newlines, offset)
    return newlines[index - 1] if index else -1


def _hint(path: str, project: Project) -> str:
    """Did-you-mean: a project file with the same name, else a close name in the same folder."""
    import difflib

    by_name, by_folder = project.memo(FILE_INDEX)
    name = posixpath.basename(path.rstrip("/"))
    same_name = by_name.get(name)
    if same_name:
        best = difflib.get_close_matches(path, same_name, n=1, cutoff=0.0)
        return f" (did you mean `{best[0]}`?)"
    folder = posixpath.dirname(posixpath.normpath(path))
    stem_folder = posixpath.join(folder, posixpath.splitext(name)[0])
    if stem_folder != posixpath.normpath(path) and stem_folder in by_folder:
        return f" (did you mean `{stem_folder}/`?)"  # `adjust-pages.pl` became `adjust-pages/`
    # Only the path's own folder: comparing against every file costs seconds on big repos.
    neighbours = by_folder.get(folder, [])
    close = difflib.get_close_matches(path, neighbours, n=1, cutoff=0.8)
    return f" (did you mean `{close[0]}`?)" if close else ""
