"""The pydantic-free defaults (guidelint.settings) hold what the models' defaults hold.

A run with no configuration file never imports pydantic; these tests keep its
defaults and the validated models' from drifting apart, field by field.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from pydantic import BaseModel

from guidelint.config import Config, LoadedConfig, load_config, parse_config
from guidelint.findings import Severity
from guidelint.settings import DefaultConfig


@pytest.mark.parametrize("mode", ["python", "json"])
def test_the_defaults_dump_as_the_models_defaults(mode):
    assert DefaultConfig().model_dump(mode=mode) == Config().model_dump(mode=mode)


def test_an_empty_table_validates_to_the_defaults(tmp_path):
    parsed = parse_config({}, tmp_path / "pyproject.toml")
    assert parsed.model_dump(mode="json") == DefaultConfig().model_dump(mode="json")


def _sections(model: type[BaseModel], default: type) -> list[tuple[str, type[BaseModel], type]]:
    """Every (path, model, mirror) pair, the nested tables included."""
    pairs = [("", model, default)]
    made = default()
    for name, info in model.model_fields.items():
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            mirror = type(getattr(made, name))
            pairs += [(f"{name}.{p}", m, d) for p, m, d in _sections(annotation, mirror)]
    return pairs


@pytest.mark.parametrize(
    ("path", "model", "mirror"), _sections(Config, DefaultConfig), ids=lambda v: str(v)
)
def test_each_table_has_the_same_fields_in_the_same_order(path, model, mirror):
    assert list(mirror._fields) == list(model.model_fields)


def test_a_copy_with_changes_behaves_as_the_models(tmp_path):
    update = {"select": ["GL5"], "extend_select": ["GL1"]}
    mine = DefaultConfig().model_copy(update=update)
    theirs = Config().model_copy(update=update)
    assert mine.model_dump(mode="json") == theirs.model_dump(mode="json")
    assert DefaultConfig().select == ["GL"]  # the original is untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        mine.cache = False  # type: ignore[misc]


def test_enums_stay_enums_in_a_python_dump():
    dumped = DefaultConfig().model_dump()
    assert dumped["gotchas"]["provenance_severity"] is Severity.WARNING


def test_no_file_gives_the_defaults_and_a_file_the_models(tmp_path: Path):
    assert load_config(tmp_path) == LoadedConfig(DefaultConfig(), tmp_path.resolve(), None)
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint]\nselect = ['GL5']\n")
    loaded = load_config(tmp_path)
    assert isinstance(loaded.config, Config)
    assert loaded.config.select == ["GL5"]
    assert loaded.source == tmp_path / "pyproject.toml"


def test_the_defaults_keep_dataclass_semantics():
    first, second = DefaultConfig(), DefaultConfig()
    assert first == second and first.include is not second.include  # a fresh list each
    assert first.paths == second.paths and first.paths is not second.paths
    copied = first.model_copy(update={"cache": False})
    assert copied.include is first.include and copied.cache is False  # as dataclasses.replace
    dumped = first.model_dump()
    dumped["include"].append("x")
    assert "x" not in first.include  # a dump copies, as dataclasses.asdict
    with pytest.raises(TypeError, match="unexpected field 'cach'"):
        DefaultConfig(cach=False)
    with pytest.raises(TypeError):
        hash(first)  # its fields hold lists, as the frozen dataclass's did
    with pytest.raises(dataclasses.FrozenInstanceError):
        del first.paths  # type: ignore[misc]
    smoke = "DefaultSmoke(drivers=['scripts/**/*.py'], default_cap=1000)"
    assert repr(DefaultConfig().smoke) == smoke
