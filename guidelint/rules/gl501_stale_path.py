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
(`tools/call`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator

from guidelint.doc_kind import reading_of
from guidelint.fences import exposed, in_regions
from guidelint.findings import Finding, Severity
from guidelint.lazy_re import LazyPattern
from guidelint.markdown import CodeSpan, Link, may_hold_code_spans
from guidelint.project import Memo, Project
from guidelint.rule import Rule
from guidelint.rules.gl502_broken_link import is_steering_file
from guidelint.sources import Derived, FileKind, SourceFile
from guidelint.spans import Span

PATH_CHARS = re.compile(r"^[\w.@+\-/]+$")
LOCATION_SUFFIX = re.compile(r"(:\d+(-\d+)?(:\d+)?|#[\w\-.]*)$")
PLACEHOLDER_SEGMENTS = {"path", "to", "your", "my", "foo", "bar", "baz", "example", "xxx", "..."}
# A segment (or a `-`/`.`-separated part of one) that stands for something to fill in.
PLACEHOLDER_PART = re.compile(
    r"^(?:Y{2,4}|y{4}|M{2}|D{2}|A{4}|J{4}|x{2,3}|X{2,3}|your|YOUR|"  # dates, xx, your
    r"MAJOR|MINOR|PATCH|VERSION|NNN?|N)$"  # `0.MINOR.x.md`, `SPEC-NNN`
)
# `some_kernel.cuh`, `my-feature.md`, `ComponentName/`: a name standing for the reader's own.
FILLER_NAME = re.compile(
    r"^(?:some|my|your)[_-]\w|^(?:Component|Module|Package|Feature)Name\b|"
    r"(?:^|_)(?:Event|Component|Module|Package|Feature|Class|Tool|Service|Skill|Plugin|Agent|"
    r"Action|Command|Hook)(?:Name|Example)(?:[._-]|$)"
)
CAPS_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")  # LANG_ID, PROJECT_NAME
# A word of a name that stands for one to fill in: `test_action_EventNameHere.py`
# (a CamelCase `...Here`), `middleware/foo.py`, `test_foo.py`.
FILLER_WORD = re.compile(r"^(?:(?:[A-Z][a-z0-9]+)+Here|foo|bar|baz|qux)$")
# A file named only `example` or `sample` (`docs/example.md`) is one to write, not one kept;
# `.env.example` keeps the word as a suffix and is a real file.
FILLER_STEMS = frozenset({"example", "sample"})
NAME_WORDS = re.compile(r"[-._]")
WORDS = re.compile(r"[-.]")
# Said of a path on its own line: it is an illustration, a file a run or the user creates,
# not yet there, or where something used to be. Not a stale path of this repository.
ILLUSTRATION = LazyPattern(r"\b(?:e\.\s?g\.|for example|for instance|such as)", re.IGNORECASE)
OR_SIMILAR = LazyPattern(r"\bor (?:similar|the like|equivalent)\b", re.IGNORECASE)
NEGATED = LazyPattern(r"\b(?:no|not|without|never|n't)\b(?:\s+[\w-]+){0,5}\s*$", re.IGNORECASE)
WAS = LazyPattern(r"^\s*(?:was|used to be|has been (?:removed|renamed|split|moved))\b", re.I)
CREATED = LazyPattern(
    r"\b(?:creat(?:e|es|ed|ing)|generat(?:e|es|ed)|writ(?:e|es|ten)|initiali[sz]\w*|"
    r"first run|on first use|at run ?time|if (?:it )?(?:does not|doesn't) exist|mkdir|"
    r"saved (?:to|in|under)|(?:git-?)?ignored|gitignore`?d|if present|"
    r"(?:lands?|cached|stored|dumped|appears?) (?:in|under|at|to|into)|"
    r"if [\w\- ]{0,30}exists?|append\w*|stor(?:es|ing) [\w ]{0,40}\b(?:in|under|to)|"
    r"in (?:that|the other|another) repo(?:sitory)?)\b",
    re.IGNORECASE,
)
NOT_YET = LazyPattern(r"^\s*\((?:future|planned|proposed|not yet|to be|coming)", re.IGNORECASE)
USED_TO_BE = LazyPattern(
    r"\b(?:original path|formerly|previously|renamed from|moved from|"
    r"was at|old path)\b[^`]*$",
    re.IGNORECASE,
)
CODE_SPAN_TEXT = LazyPattern(r"`[^`]*`")
# A line that starts a block of its own, not one that goes on with the sentence above.
NEW_BLOCK = LazyPattern(r"^\s*(?:[-*+>|#]|\d+[.)]\s|```|~~~)")
# Written by a run, never committed: the first missing folder of the path says so
# (`cached_ops/`, `results/`, `.cache/`, `logs/`, `tmp/`, `output/`, `artifacts/`).
RUN_TIME_FOLDER = re.compile(
    r"^(?:\.?cache[sd]?|cached[_-]\w+|\w+[_-]cache|\.?tmp|temp|logs?|results?|outputs?|"
    r"artifacts?)$",
    re.IGNORECASE,
)
# A shell line in a fence that makes a path: `git clone URL DEST`, `mkdir -p DIR`, `touch F`.
MAKES = LazyPattern(r"(?:^[ \t]*|[;&|]\s*|\$\s+)(git\s+clone|mkdir|touch)\s+([^;&|#\n]+)", re.M)
# Methods of the Model Context Protocol (its specification): `tools/call` is a JSON-RPC
# method, not a path, however much it looks like one.
MCP_METHODS = frozenset(
    {
        "tools/call",
        "tools/list",
        "resources/read",
        "resources/list",
        "resources/subscribe",
        "resources/unsubscribe",
        "resources/templates/list",
        "prompts/get",
        "prompts/list",
        "completion/complete",
        "logging/setLevel",
        "sampling/createMessage",
        "roots/list",
        "elicitation/create",
        "notifications/initialized",
        "notifications/cancelled",
        "notifications/progress",
        "notifications/message",
        "notifications/tools/list_changed",
        "notifications/resources/list_changed",
        "notifications/resources/updated",
        "notifications/prompts/list_changed",
        "notifications/roots/list_changed",
    }
)
SENTENCE_END = LazyPattern(r"(?<!\be\.g)(?<!\bi\.e)[.!?]\s+(?=[A-Z`*])")


def candidate_path(text: str) -> str | None:
    """The repository path a code span names, or None if it is not one."""
    if "/" not in text:
        return None  # most code spans; dropping a suffix would not add a slash
    text = LOCATION_SUFFIX.sub("", text.strip())
    if not text or "/" not in text or not PATH_CHARS.match(text):
        return None
    if text.startswith(("/", "~", "//")) or "://" in text or "//" in text:
        return None
    segments = [s for s in text.split("/") if s not in ("", ".")]
    if not segments or _is_placeholder(segments):
        return None
    if text in MCP_METHODS:
        return None  # an MCP method (`tools/call`), not a path
    return text


def _is_placeholder(segments: list[str]) -> bool:
    if any(s.strip(".") == "" for s in segments):  # `.claude/skills/...`
        return True
    lowered = [s.lower() for s in segments]
    if "to" in lowered and "path" in lowered:  # path/to/file
        return True
    if any(_placeholder_segment(s) for s in segments):
        return True
    if lowered[-1].split(".", 1)[0] in FILLER_STEMS:
        return True
    return all(s in PLACEHOLDER_SEGMENTS or s.startswith("your") for s in lowered[:-1]) and (
        len(lowered) > 1 and lowered[0] in PLACEHOLDER_SEGMENTS | {"your"}
    )


def _placeholder_segment(segment: str) -> bool:
    """`YYYY`, `xx`, `short-name-for-your-post`, `LANG_ID`, `LANG_ID-words.txt`.

    An all-caps name is a placeholder only with lowercase beside it or no extension:
    `CODE_OF_CONDUCT.md` is a real file name.
    """
    parts = WORDS.split(segment)
    if any(PLACEHOLDER_PART.match(part) for part in parts) or FILLER_NAME.search(segment):
        return True
    if any(FILLER_WORD.match(word) for word in NAME_WORDS.split(segment)):
        return True
    stem = segment.split(".", 1)[0]
    caps = [part for part in stem.split("-") if CAPS_NAME.match(part)]
    return bool(caps) and ("." not in segment or stem != "-".join(caps))


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
        explained: dict[int, set[str]] | None = None
        url_links: list[Link] | None = None
        roots: list[str] | None = None
        made: set[str] | None = None
        # A steering file's `legacy/` names a top-level folder of this repository.
        steering = is_steering_file(file.rel) and "/" not in file.rel.removeprefix(".claude/")
        reported: set[tuple[int, str]] = set()
        for span in code_spans:
            if "/" not in span.content:
                continue  # most code spans: no path (candidate_path's own first test)
            path = candidate_path(span.content)
            if path is None:
                continue
            if explained is None:
                explained = _explained_names(code_spans)
                url_links = [link for link in file.markdown.links if "://" in link.href]
            if _explained(path, explained.get(id(span.block), set())):
                continue
            if any(_names_another_place(link, span, path) for link in url_links or ()):
                continue  # `owner/repo/file.md` as the text of a link to another repository
            if path.startswith(("./", "../")):
                bases = [doc_dir]  # relative to this document, as in a Markdown link
            else:
                bases = [""] if not doc_dir or doc_dir.startswith("/") else ["", doc_dir]
                if roots is None:  # the document's own folder decides: once per file
                    roots = _component_roots(file.rel, project)
                bases += roots
            if not self._anchored(path, bases, project) and not (
                steering and _top_level_folder(path, project)
            ):
                continue
            if any(project.exists(_join(base, path)) for base in bases):
                continue
            if _module_path(path, bases, project):
                continue  # `src/email/generateEmailHTML`: an import path, extension left off
            # Asked only for a missing path: the file list, the sentence's patterns.
            if path.startswith(".claude/") and project.memo(PLUGIN_REPOSITORY):
                continue  # a plugin's docs describe its users' `.claude/`, not its own
            if _not_a_claim(file.text, span.span.start, span.span.end):
                continue
            if made is None:  # once per file, and only for a path still unexplained
                made = _made_in_document(file)
            if path.rstrip("/").removeprefix("./") in made:
                continue  # another sentence or a command of this document makes it
            # Asked only here: a file whose paths all exist never reads .gitignore.
            ignored = project.memo(IGNORED)
            if any(ignored(_join(base, path)) for base in bases):
                continue
            if posixpath.basename(path.rstrip("/")).startswith(".env"):
                continue  # made from `.env.example` on each machine, never committed
            if len(bases) < 3 and _in_some_component(path, project):
                continue
            if _in_nested_crate(path, doc_dir, project):
                continue
            if _run_time_folder(path, bases, project):
                continue  # `cached_ops/`, `results/`: what a run writes, never committed
            if not _known_file_type(path, project):
                continue
            if in_regions(span.span.start, exposed(file)):
                continue  # an example a broken fence left as prose: GL503 reports the fence
            if _illustrative(path, file, span):
                continue
            if _action_reference(path, file, span, project):
                continue  # `actions/create-github-app-token`: a GitHub Action, not a path
            if _per_item_path(path, doc_dir, project):
                continue  # `tests/case.json` of each task folder the document describes
            if _user_location(file.text, span.span):
                continue  # "**Workspace Location**: `.clinerules/hooks/X`": the user's file
            if _said_built(file.text, span.span) or _build_output(path, bases, project):
                continue  # `dist/`, `site/`: what a build writes, not committed
            # `dist/` three times on one line is one stale path, reported once.
            line_key = (file.text.rfind("\n", 0, span.span.start), path)
            if line_key in reported:
                continue
            reported.add(line_key)
            yield self.finding(
                file,
                span.span,
                f"`{path}` does not exist in this repository{_hint(path, project)}{reading.note}",
                severity=severity,
            )

    @staticmethod
    def _anchored(path: str, bases: list[str], project: Project) -> bool:
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
        return any(project.exists(_join(base, first)) for base in bases)


def _module_path(path: str, bases: list[str], project: Project) -> bool:
    """A path with no extension that names a source file without its suffix, as JS, TS
    and Python imports do (`src/email/generateEmailHTML` for `generateEmailHTML.ts`)."""
    if path.endswith("/") or "." in posixpath.basename(path):
        return False
    _, by_folder = project.memo(FILE_INDEX)
    for base in bases:
        full = _join(base, path)
        prefix = posixpath.basename(full) + "."
        if any(
            posixpath.basename(rel).startswith(prefix)
            for rel in by_folder.get(posixpath.dirname(full), [])
        ):
            return True
    return False


CLAIM_WINDOW = 600  # characters read on each side of a path for its sentence


def _not_a_claim(text: str, start: int, end: int) -> bool:
    """The path's sentence says it is an example, created later, not there yet, or old."""
    # Only the text near the span: a sentence is short, and on a 75 KB line reading the
    # whole line for each of its spans would cost time quadratic in its length.
    near_start, near_end = max(0, start - CLAIM_WINDOW), min(len(text), end + CLAIM_WINDOW)
    line_start = max(text.rfind("\n", near_start, start) + 1, near_start)
    line_end = text.find("\n", end, near_end)
    line_end = near_end if line_end == -1 else line_end
    before, after = text[line_start:start], text[end:line_end]
    # A line before that introduces this one may say so: "Build creates symlinks:\n- `x`".
    # (its last CLAIM_WINDOW characters; none when the window, not a newline, cut the line)
    starts_line = line_start > 0 and text[line_start - 1] == "\n"
    previous_from = max(0, line_start - 1 - CLAIM_WINDOW)
    previous_start = max(text.rfind("\n", previous_from, max(line_start - 1, 0)) + 1, previous_from)
    previous = text[previous_start : line_start - 1] if starts_line else ""
    previous = CODE_SPAN_TEXT.sub("", previous)  # its words, not its paths' names
    # A line that goes on with the paragraph above: its sentence may start there
    # ("Failed tests write the diff to\n`results/`"). The previous line's own words.
    went_on = starts_line and not NEW_BLOCK.match(text[line_start:line_end])
    lead = text[previous_start : line_start - 1] + " " if went_on and previous else ""
    sentence = SENTENCE_END.split(before)[-1] + " " + SENTENCE_END.split(after)[0]
    own_before = SENTENCE_END.split(before)[-1]
    joined = SENTENCE_END.split(lead + before)[-1] if lead else ""
    return bool(
        ILLUSTRATION.search(own_before)
        or OR_SIMILAR.search(sentence)
        or CREATED.search(sentence)
        or _made_across_lines(joined)
        or NOT_YET.match(after)
        or WAS.match(after)
        or NEGATED.search(own_before)
        or USED_TO_BE.search(before)
        or (previous.rstrip().endswith(":") and bool(CREATED.search(previous)))
        or (not own_before.strip(" -*>") and bool(ILLUSTRATION.search(previous[-24:])))
    )


COMPONENT_MARKERS = ("SKILL.md", ".claude-plugin/plugin.json", "package.json", "pyproject.toml")
# A Rust crate's or a Go module's root: its README names `tests/x.rs` and `examples/y`
# from there. Many crates share names (`src/lib.rs`), so such a root counts for a path
# in another document only when it lies under that document's folder (a workspace
# README speaking of its member crates), not anywhere in the repository.
NESTED_MARKERS = ("Cargo.toml", "go.mod")


def _names_another_place(link: Link, span: CodeSpan, path: str) -> bool:
    """A code span as a link's text, the link a URL that does not end in the same path
    (one that does, `.../blob/main/<path>`, still names the path in a repository that
    may be this one)."""
    if not link.span.start <= span.span.start < link.span.end:
        return False
    target = link.href.split("#", 1)[0].split("?", 1)[0].rstrip("/")
    return not target.endswith("/" + path.strip("/"))


def _top_level_folder(path: str, project: Project) -> bool:
    """`legacy/`: one plain segment and a slash (a dot-folder may be a run's output),
    and no folder of that name anywhere (else it names that subfolder)."""
    if not path.endswith("/") or path.count("/") != 1 or path.startswith("."):
        return False
    folders = project.memo(FOLDER_NAMES)
    return path.rstrip("/") not in folders


def _folder_names(project: Project) -> set[str]:
    return {part for rel in project.files() for part in rel.split("/")[:-1]}


FOLDER_NAMES = Memo("GL501.folder_names", _folder_names)


def _component_roots(rel: str, project: Project) -> list[str]:
    """A skill's or a package's files name paths from its folder (`scripts/x.sh`,
    `references/y.md`, a nested CLAUDE.md's `src/x.ts`): the nearest folder above the
    document holding a SKILL.md, a plugin manifest or a package manifest."""
    folder = posixpath.dirname(rel)
    while folder:
        markers = COMPONENT_MARKERS + NESTED_MARKERS
        if any(project.exists(f"{folder}/{marker}") for marker in markers):
            return [folder]
        folder = posixpath.dirname(folder)
    return []


def _in_some_component(path: str, project: Project) -> bool:
    """`scripts/x.py` in a document outside any skill, when some skill, plugin or
    package has it: the document speaks from that component's root."""
    by_name, _ = project.memo(FILE_INDEX)
    for rel in by_name.get(posixpath.basename(path.rstrip("/")), []):
        if rel.endswith("/" + path.rstrip("/")):
            root = rel[: -len(path.rstrip("/")) - 1]
            if any(project.exists(f"{root}/{m}") for m in COMPONENT_MARKERS):
                return True
    return False


def _in_nested_crate(path: str, doc_dir: str, project: Project) -> bool:
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


def _build_output(path: str, bases: list[str], project: Project) -> bool:
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
            if project.exists(_join(base, "/".join(segments[: at + 1]))):
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


def _said_built(text: str, span: Span) -> bool:
    before = text[max(0, span.start - 80) : span.start].rsplit("\n", 1)[-1]
    after = text[span.end : span.end + 40].split("\n", 1)[0]
    return bool(BUILT_BEFORE.search(before) or BUILT_AFTER.match(after))


def _is_plugin_repository(project: Project) -> bool:
    """A Claude Code plugin or marketplace (a `.claude-plugin/` manifest anywhere)."""
    return any("/.claude-plugin/" in f"/{rel}" for rel in project.files())


PLUGIN_REPOSITORY = Memo("GL501.plugin_repo", _is_plugin_repository)


def _explained_names(code_spans: list[CodeSpan]) -> dict[int, set[str]]:
    """Per paragraph, the code spans that are single names: "where `xx` is the code"."""
    names: dict[int, set[str]] = {}
    for span in code_spans:
        content = span.content.strip()
        if content and "/" not in content:
            names.setdefault(id(span.block), set()).add(content)
    return names


def _explained(path: str, names: set[str]) -> bool:
    """A last segment the same paragraph names on its own is a variable to fill in."""
    segments = [s for s in path.split("/") if s not in ("", ".", "..")]
    return len(segments) > 1 and segments[-1] in names


def _ignored_matcher(project: Project) -> Callable[[str], bool]:
    """Paths never reported: `[tool.guidelint.paths] ignore`, and what the root
    .gitignore ignores (outputs written at run time, caches, scratch folders)."""
    patterns = list(project.config.paths.ignore)
    gitignore = project.read(".gitignore")
    git_patterns = gitignore.text.splitlines() if gitignore else []
    # pathspec compiles each list only when a path is one the globs' text cannot decide.
    configured = project.globs(patterns).matches
    from_git = project.globs(git_patterns).matches

    def ignored(path: str) -> bool:
        if configured(path):
            return True
        # A folder pattern (`tmp/`) matches the folder itself only with a slash.
        return from_git(path) or from_git(path.rstrip("/") + "/")

    return ignored


IGNORED = Memo("GL501.ignored", _ignored_matcher)


def _known_file_type(path: str, project: Project) -> bool:
    """`config/routes.rb` in a repository without Ruby is about someone else's app."""
    name = posixpath.basename(path.rstrip("/"))
    _, ext = posixpath.splitext(name)
    if not ext or path.endswith("/"):
        return True
    return ext.lower() in project.extensions()


def _join(base: str, path: str) -> str:
    return posixpath.normpath(posixpath.join(base, path)) if base else posixpath.normpath(path)


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


def _file_index(project: Project) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    by_name: dict[str, list[str]] = {}
    by_folder: dict[str, list[str]] = {}
    for rel in project.files():
        folder, name = posixpath.split(rel)
        by_name.setdefault(name, []).append(rel)
        by_folder.setdefault(folder, []).append(rel)
    return by_name, by_folder


FILE_INDEX = Memo("GL501.file_index", _file_index)


# -- paths of a thing being described, not of this repository -----------------------
# A generic tree's root: `skill-name/`, `plugin-name/`, `my-skill/`, `<name>/`.
TREE_ROOT = LazyPattern(r"^\s*(?:<[\w\- ]+>|[\w.\-]*\bname|my-[\w\-]+|your-[\w\-]+)/\s*$", re.I)
TREE_FOLDER = LazyPattern(r"^[\s│├└─|`+\\-]*([\w.\-]+)/(?:\s|$)")
# A table column of sample values: "Example input", "Pattern", "Matches", "Sample".
EXAMPLE_HEADER = LazyPattern(
    r"\b(?:examples?|inputs?|samples?|patterns?|match(?:es)?|e\.g\.)\b", re.IGNORECASE
)
TEMPLATE_CELL = LazyPattern(r"\{[+#./;?&]?[\w*,]+\}")  # `{name}`, `{+path}`, `{/path*}`
TABLE_SEPARATOR = LazyPattern(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _illustrative(path: str, file: SourceFile, span: CodeSpan) -> bool:
    """A path that stands for one in something the document describes, not in this
    repository: a folder of a generic tree it draws (a guide to writing skills shows
    `skill-name/` holding `scripts/`, then says "`scripts/rotate_pdf.py` for PDF
    rotation"), or a sample value in a table (a URI template's example input)."""
    first = path.removeprefix("./").split("/", 1)[0]
    return first in file.derived(GENERIC_TREE_FOLDERS) or _sample_cell(file.text, span)


def _generic_tree_folders(file: SourceFile) -> frozenset[str]:
    """The folders of the trees a document draws for a generic thing (a fence whose
    first line is a placeholder root such as `skill-name/`): `scripts`, `references`."""
    folders: set[str] = set()
    for fence in file.markdown.fences:
        lines = [line for line in fence.content.split("\n") if line.strip()]
        if not lines or not TREE_ROOT.match(lines[0]):
            continue
        for line in lines[1:]:
            match = TREE_FOLDER.match(line)
            if match:
                folders.add(match.group(1))
    return frozenset(folders)


GENERIC_TREE_FOLDERS = Derived("GL501.generic_tree_folders", _generic_tree_folders)


def _sample_cell(text: str, span: CodeSpan) -> bool:
    """The path is a cell of a Markdown table row whose column header names samples
    (`Example input`, `Pattern`) or whose row holds a template (`{name}`) that the
    path is an input of: `| {name} | docs/intro.md | no match |`."""
    line_start = text.rfind("\n", 0, span.span.start) + 1
    line_end = text.find("\n", span.span.start)
    line = text[line_start : len(text) if line_end == -1 else line_end]
    if not line.lstrip().startswith("|"):
        return False
    cells = _cells(line)
    column = _cells(line[: span.span.start - line_start]).__len__() - 1
    others = [cell for index, cell in enumerate(cells) if index != column]
    if any(TEMPLATE_CELL.search(cell) for cell in others):
        return True
    header = _table_header(text, line_start)
    return 0 <= column < len(header) and bool(EXAMPLE_HEADER.search(header[column]))


def _cells(row: str) -> list[str]:
    """A table row's cells (the text between `|`s; a leading `|` opens no cell)."""
    return row.strip().removeprefix("|").split("|")


def _table_header(text: str, row_start: int) -> list[str]:
    """The cells of the header row of the table a row belongs to: the line above the
    `|---|` separator, found by walking up the table's lines (at most 200)."""
    end = row_start - 1
    for _ in range(200):
        if end <= 0:
            return []
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end]
        if not line.lstrip().startswith("|") and not TABLE_SEPARATOR.match(line):
            return []
        if TABLE_SEPARATOR.match(line):
            header_end = start - 1
            header_start = text.rfind("\n", 0, max(header_end, 0)) + 1
            return _cells(text[header_start:header_end]) if header_end > 0 else []
        end = start - 1
    return []


def _run_time_folder(path: str, bases: list[str], project: Project) -> bool:
    """The first folder of the path that is missing is one runs write and repositories
    do not commit: a cache, `tmp/`, `logs/`, `results/`, `output/`, `artifacts/`."""
    segments = [s for s in path.split("/") if s not in ("", ".")]
    folders = segments if path.endswith("/") or "." not in segments[-1] else segments[:-1]
    for base in bases:
        for index, segment in enumerate(folders):
            if segment == "..":
                continue
            if not project.exists(_join(base, "/".join(segments[: index + 1]))):
                if RUN_TIME_FOLDER.match(segment):
                    return True
                break
    return False


def _made_in_document(file: SourceFile) -> set[str]:
    """Paths this document says are made: by a sentence that says it creates, writes
    or generates them ("Failed tests write a diff to `results/`"), or by a command of
    its fences (`git clone URL DEST`, `mkdir -p DIR`, `touch FILE`). Every mention of
    such a path in the document is then about the same made thing."""
    made: set[str] = set()
    for fence in file.markdown.fences:
        for match in MAKES.finditer(fence.content):
            words = [w for w in match.group(2).split() if not w.startswith("-")]
            words = [w.strip("'\"") for w in words if "://" not in w and "@" not in w]
            if match.group(1).startswith("git"):
                words = words[-1:] if len(match.group(2).split()) > 1 else []
            made.update(w.rstrip("/").removeprefix("./") for w in words if w)
    for span in file.markdown.code_spans:
        path = candidate_path(span.content) if "/" in span.content else None
        if path is not None and _said_made(file.text, span.span.start, span.span.end):
            made.add(path.rstrip("/").removeprefix("./"))
    return made


def _said_made(text: str, start: int, end: int) -> bool:
    """The span's sentence (or the line that introduces it) says it is made."""
    line_start = _window_start(text, start)
    line_end = text.find("\n", end, end + CLAIM_WINDOW)
    line_end = min(len(text), end + CLAIM_WINDOW) if line_end == -1 else line_end
    has_previous = line_start > 0 and text[line_start - 1] == "\n"
    previous_start = _window_start(text, line_start - 1) if has_previous else line_start
    previous = text[previous_start : line_start - 1] if has_previous else ""
    before, after = text[line_start:start], text[end:line_end]
    went_on = not NEW_BLOCK.match(text[line_start:line_end])
    lead = previous + " " if went_on and previous.strip() else ""
    sentence = SENTENCE_END.split(before)[-1] + " " + SENTENCE_END.split(after)[0]
    joined = SENTENCE_END.split(lead + before)[-1] if lead else ""
    return bool(CREATED.search(sentence)) or _made_across_lines(joined)


def _window_start(text: str, at: int) -> int:
    """Where the line holding `at` starts, at most CLAIM_WINDOW characters back: on one
    long line the sentence is read from a window, never from the file's start (which
    made GL501 quadratic on a one-line document)."""
    newline = text.rfind("\n", max(0, at - CLAIM_WINDOW), at)
    return newline + 1 if newline != -1 else max(0, at - CLAIM_WINDOW)


# "create a new directory in `x`": `x` is where things are made, so it must exist.
CREATE_VERB = LazyPattern(r"\b(?:creat\w*|mkdir|initiali[sz]\w*)\b", re.IGNORECASE)
CONTAINER = LazyPattern(r"\b(?:in|under|inside|within|into)\s*$", re.IGNORECASE)


def _made_across_lines(joined: str) -> bool:
    """The sentence, begun on the line above, says the path is written or made
    ("Failed tests write a diff to\n`results/`"), and not that things are created in
    it ("create a new directory in\n`testdata/`", which then must exist)."""
    if not joined or not CREATED.search(joined):
        return False
    return not (CREATE_VERB.search(joined) and CONTAINER.search(joined))


# -- names that are not paths of this repository ------------------------------------
# `owner/action` with an optional `@ref`: a GitHub Action as a workflow's `uses:` names it.
ACTION_NAME = re.compile(r"^[\w.-]+/[\w-]+(?:@[\w.\-]+)?$")
ACTION_CUE = LazyPattern(r"\buses:|\bGitHub Actions?\b|\baction\b", re.IGNORECASE)
USES = re.compile(r"^\s*-?\s*uses:\s*['\"]?([\w.-]+/[\w.-]+)", re.MULTILINE)


def _action_reference(path: str, file: SourceFile, span: CodeSpan, project: Project) -> bool:
    """`actions/create-github-app-token`: an `owner/action` with no file suffix that its
    line calls an action (`uses:`, "GitHub Action", "the ... action") or that a workflow
    of this repository `uses:`."""
    if not ACTION_NAME.match(path):
        return False
    name = path.split("@", 1)[0]
    line_start = file.text.rfind("\n", 0, span.span.start) + 1
    line_end = file.text.find("\n", span.span.end)
    line = file.text[line_start : len(file.text) if line_end == -1 else line_end]
    return bool(ACTION_CUE.search(CODE_SPAN_TEXT.sub("", line))) or name in project.memo(
        WORKFLOW_ACTIONS
    )


def _workflow_actions(project: Project) -> frozenset[str]:
    """The `owner/action` names the repository's GitHub workflows and actions use."""
    names: set[str] = set()
    for rel in project.files():
        if rel.startswith(".github/") and rel.endswith((".yml", ".yaml")):
            source = project.read(rel)
            names.update(USES.findall(source.text if source else ""))
    return frozenset(names)


WORKFLOW_ACTIONS = Memo("GL501.workflow_actions", _workflow_actions)


def _per_item_path(path: str, doc_dir: str, project: Project) -> bool:
    """`tests/case.json` in a README whose folder holds one folder per task, each with
    its `tests/`: the path (or, for a file, its folder) is there below at least two
    subfolders of the document's folder, so it names each item's file. A README of a
    dataset whose tasks are generated (its folder holds no subfolder) speaks of the same
    layout as its sibling datasets': below two subfolders of one sibling folder counts too."""
    if not doc_dir or path.startswith(("./", "../")):
        return False
    clean = path.strip("/")
    wanted = {clean, posixpath.dirname(clean)} - {""}
    parent = posixpath.dirname(doc_dir)
    prefix = parent + "/" if parent else ""
    items: dict[str, set[str]] = {}  # a folder (the document's or a sibling) -> its items
    _, by_folder = project.memo(FILE_INDEX)
    for folder in by_folder:
        if not folder.startswith(prefix):
            continue
        owner, _, below = folder[len(prefix) :].partition("/")
        item, _, rest = below.partition("/")
        if rest and any(rest == w or rest.startswith(w + "/") for w in wanted):
            items.setdefault(owner, set()).add(item)
    if len(items.get(posixpath.basename(doc_dir), ())) >= 2:
        return True
    if not parent or any(folder.startswith(doc_dir + "/") for folder in by_folder):
        return False  # a top-level folder's siblings are the whole repository's
    return any(len(found) >= 2 for found in items.values())


# "- **Workspace Location**: `.clinerules/hooks/TaskStart`" beside "- **Global Location**:
# `~/Documents/...`": where a user puts their own file, as a labelled field.
LOCATION_FIELD = LazyPattern(r"^\s*(?:[-*+]\s+)?\*\*[\w /-]*\b(?:Location|Path)\*\*\s*:", re.I)
HOME_FIELD = LazyPattern(
    r"^\s*(?:[-*+]\s+)?\*\*[\w /-]*\b(?:Location|Path)\*\*\s*:\s*`(?:~|/|%|\$HOME)", re.I
)
FIELD_LINES = 3  # lines above and below a field that a neighbouring field may be on


def _user_location(text: str, span: Span) -> bool:
    """The path is the value of a labelled location field, and a neighbouring field gives
    a location in the user's home or an absolute one: the guide documents where users put
    their files (a workspace and a global place), not files of this repository."""
    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = text.find("\n", span.end)
    line = text[line_start : len(text) if line_end == -1 else line_end]
    if not LOCATION_FIELD.match(line):
        return False
    window = 200 * FIELD_LINES  # characters: a field line is short
    lines = text[max(0, line_start - window) : line_start].split("\n")[-FIELD_LINES - 1 : -1]
    after_start = len(text) if line_end == -1 else line_end + 1
    after = text[after_start : after_start + window].split("\n", FIELD_LINES)
    return any(HOME_FIELD.match(near) for near in lines + after[:FIELD_LINES])
