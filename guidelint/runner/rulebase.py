"""What every GL4xx rule shares: it reads the Python examples of a Markdown file."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from guidelint.rule import Rule
from guidelint.sources import Derived, FileKind

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.runner.examples import Example
    from guidelint.sources import SourceFile


class ExampleRule(Rule):
    """A rule over the fenced examples of a guide, extracted once per file."""

    file_kinds: ClassVar[frozenset[FileKind]] = frozenset({FileKind.MARKDOWN})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        # No fence, no example: skip the extraction (most Markdown files). Asked by each
        # GL4xx rule and GL402's prepare: the text is searched once per file. A copy of
        # the docs for a released version is history (`doc_kind.unread_snapshot`).
        from guidelint.doc_kind import unread_snapshot

        fenced = file.kind == FileKind.MARKDOWN and file.derived(FENCED)
        return fenced and not unread_snapshot(file, project)

    def examples(self, file: SourceFile) -> list[Example]:
        from guidelint.runner.examples import examples_of

        return examples_of(file)


def _fenced(file: SourceFile) -> bool:
    return "```" in file.text or "~~~" in file.text


FENCED = Derived("runner.fenced", _fenced)
