"""GL601 malformed-front-matter: YAML front matter that cannot be read.

A template's front matter is read after its `{placeholders}` are filled in: a file in a
template or asset folder whose front matter reads once they are (BMAD's
`assets/experience-example-mobile.md`, `sources: - {planning_artifacts}/prds/...`) is
no defect of the file as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from guidelint.doc_kind import TEMPLATE_PARENTS, is_fixture
from guidelint.findings import Finding, Severity
from guidelint.frontmatter import Problem, front_matter, front_text
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.claude_code import point


class MalformedFrontMatter(Rule):
    code = "GL601"
    name = "malformed-front-matter"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    needs = "front-matter-in-doubt"

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        if is_fixture(file.rel):
            return  # a test fixture's broken front matter is what a Markdown tool is tested on
        data = front_matter(file)
        if data is None or not data.problems or _filled_in_template(file):
            return
        first = data.problems[0]
        yield self.finding(file, point(file, first.offset), _first_problem(first, data.problems))


def _first_problem(first: Problem, problems: list[Problem]) -> str:
    """One finding per file: a value broken early (an unquoted multi-line description)
    makes the parser trip again at every later line that looks like `key:`, and one fix
    clears them all, so the later trips are counted in the message, not reported."""
    later = len(problems) - 1
    if not later:
        return first.message
    lines = "1 later line fails" if later == 1 else f"{later} later lines fail"
    return f"{first.message}; {lines} with it"


# Folders of files that are copied and filled in, not read as they are: a template
# tree, and an Agent Skills `assets/` folder ("templates, images, data files").
FILLED_IN_FOLDERS = TEMPLATE_PARENTS | {"assets"}
# A `{name}` placeholder (Python's format fields, BMAD's variables), not Jinja's `{{`.
PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][\w.-]*)\}(?!\})")


def _filled_in_template(file: SourceFile) -> bool:
    """A file in a template or asset folder whose front matter reads as YAML once its
    `{placeholders}` stand for words: the placeholders break it only before filling."""
    folders = {part.lower() for part in file.rel.split("/")[:-1]}
    front = front_text(file)
    if not folders & FILLED_IN_FOLDERS or front is None or not PLACEHOLDER.search(front.text):
        return False
    import yaml  # already loaded: front_matter() composed this text

    try:  # composed, not constructed: aliases stay unexpanded, as in frontmatter.py
        yaml.compose(PLACEHOLDER.sub(r"\1", front.text), Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return False
    return True
