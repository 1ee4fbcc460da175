"""The record types (guidelint.records) behave as the dataclasses they replaced.

Each converted class is compared with a dataclass twin made from its own fields
and `__init__` defaults: the same constructor, repr, equality, hash, frozenness,
pickling, copying and pattern matching.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest

from guidelint.comments import Directive, Token
from guidelint.findings import Edit, Finding, Fix, Severity
from guidelint.markdown import (
    Block,
    CodeSpan,
    Fence,
    FrontMatter,
    Heading,
    HtmlComment,
    Link,
    ListItem,
    MarkdownDocument,
)
from guidelint.records import FrozenRecord, Record
from guidelint.runner.examples import Region
from guidelint.runner.lint import LintMessage
from guidelint.spans import LineIndex, Position, Span

FROZEN = (
    *(Position, Span, CodeSpan, Fence, Heading, ListItem, Link, HtmlComment, FrontMatter),
    *(Edit, Fix, Finding, Token, Directive, LintMessage, Region),
)
MUTABLE = (Block, MarkdownDocument)


def twin(cls: type[Record]) -> type:
    """The dataclass the record stands for: its fields, defaults, repr and frozenness."""
    parameters = inspect.signature(cls.__init__).parameters
    fields = []
    for name in cls._fields:
        default = parameters[name].default
        shown, compared = name not in cls._no_repr, name not in cls._no_compare
        spec = dataclasses.field(repr=shown, compare=compared)
        if default is not inspect.Parameter.empty:
            spec = dataclasses.field(repr=shown, compare=compared, default=default)
        fields.append((name, object, spec))
    frozen = issubclass(cls, FrozenRecord)
    made = dataclasses.make_dataclass(cls.__name__, fields, frozen=frozen, slots=True)
    made.__qualname__ = cls.__qualname__
    return made


def values(cls: type[Record], seed: int) -> dict[str, object]:
    """Hashable sample values for every field, different for each seed."""
    return {name: (seed, index, name) for index, name in enumerate(cls._fields)}


@pytest.mark.parametrize("cls", FROZEN + MUTABLE, ids=lambda cls: cls.__name__)
def test_fields_are_the_init_parameters_in_order(cls: type[Record]) -> None:
    parameters = list(inspect.signature(cls.__init__).parameters)[1:]
    assert list(cls._fields) == parameters
    assert cls.__match_args__ == cls._fields
    assert not hasattr(cls(**values(cls, 0)), "__dict__")  # slotted, as before


@pytest.mark.parametrize("cls", FROZEN + MUTABLE, ids=lambda cls: cls.__name__)
def test_repr_and_equality_match_the_dataclass(cls: type[Record]) -> None:
    made = twin(cls)
    one, same, other = cls(**values(cls, 1)), cls(**values(cls, 1)), cls(**values(cls, 2))
    assert repr(one) == repr(made(**values(cls, 1)))
    assert one == same and one != other
    assert one != made(**values(cls, 1))  # another class is never equal, as dataclasses
    assert (one == object()) is False


@pytest.mark.parametrize("cls", FROZEN, ids=lambda cls: cls.__name__)
def test_frozen_records_hash_freeze_and_pickle_as_the_dataclass(cls: type[Record]) -> None:
    made = twin(cls)
    record = cls(**values(cls, 3))
    assert hash(record) == hash(made(**values(cls, 3)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(record, cls._fields[0], None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(record, cls._fields[0])
    for clone in (pickle.loads(pickle.dumps(record)), copy.copy(record), copy.deepcopy(record)):
        assert clone == record and clone is not record


@pytest.mark.parametrize("cls", FROZEN + MUTABLE, ids=lambda cls: cls.__name__)
def test_replace_copies_with_changes_as_dataclasses_replace(cls: type[Record]) -> None:
    made = twin(cls)
    first, new = cls._fields[0], (5, -1, "changed")  # sorts before the others (Span)
    changed = cls(**values(cls, 5)).replace(**{first: new})
    expected = dataclasses.replace(made(**values(cls, 5)), **{first: new})
    assert repr(changed) == repr(expected) and getattr(changed, first) == new


def test_fields_left_out_of_comparison_do_not_count() -> None:
    finding = Finding("GL001", "n", Severity.ERROR, "m", "a.md", 1, 1, 1, 2, snippet="x")
    other = finding.replace(snippet="y", context="z")
    assert finding == other and hash(finding) == hash(other)
    assert finding != finding.replace(message="other")


@pytest.mark.parametrize("cls", MUTABLE, ids=lambda cls: cls.__name__)
def test_mutable_records_are_unhashable_and_assignable(cls: type[Record]) -> None:
    record = cls(**values(cls, 4))
    with pytest.raises(TypeError):
        hash(record)
    setattr(record, cls._fields[0], "changed")
    assert getattr(record, cls._fields[0]) == "changed"
    assert pickle.loads(pickle.dumps(record)) == record


def test_defaults_and_validation_are_kept() -> None:
    document = MarkdownDocument("text", LineIndex("text"), None)
    assert (
        document.code_spans == []
        and document.code_spans is not MarkdownDocument("", LineIndex(""), None).code_spans
    )  # a fresh list each, as default_factory=list
    assert document.front_matter is None and document.list_items == []
    assert Heading(1, "T", Span(0, 3), 1).plain == ""
    assert ListItem(Span(0, 1), 1, 1, 1, False).children == ()
    block = Block("paragraph", "a", 1, "", 0, False)
    assert (block.table_header, block.table_row_is_header) == (None, False)
    with pytest.raises(ValueError, match="span end 1 before start 2"):
        Span(2, 1)
    match Span(1, 4):
        case Span(start, end):
            assert (start, end) == (1, 4)
