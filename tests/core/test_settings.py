"""The pydantic-free defaults (guidelint.settings) hold what the models' defaults hold.

A run with no configuration file never imports pydantic; its records are written
from the models by scripts/gen_settings_defaults.py, and these tests check that they
are current and behave as the models do.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guidelint.config import Config, LoadedConfig, load_config, parse_config
from guidelint.findings import Severity
from guidelint.settings import DefaultConfig, plain_config


@pytest.mark.parametrize("mode", ["python", "json"])
def test_the_defaults_dump_as_the_models_defaults(mode):
    assert DefaultConfig().model_dump(mode=mode) == Config().model_dump(mode=mode)


def test_an_empty_table_validates_to_the_defaults(tmp_path):
    parsed = parse_config({}, tmp_path / "pyproject.toml")
    assert parsed.model_dump(mode="json") == DefaultConfig().model_dump(mode="json")


def test_the_records_are_what_the_script_writes_now():
    path = Path(__file__).resolve().parents[2] / "scripts" / "gen_settings_defaults.py"
    spec = importlib.util.spec_from_file_location("gen_settings_defaults", path)
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    current = generator.SETTINGS.read_text(encoding="utf-8")
    stale = "guidelint/settings.py is stale: run scripts/gen_settings_defaults.py"
    assert generator.rendered(current) == current, stale


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
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint]\nseverity = {GL501 = 'warning'}\n")
    loaded = load_config(tmp_path)
    assert isinstance(loaded.config, Config)
    assert loaded.config.severity == {"GL501": Severity.WARNING}
    assert loaded.source == tmp_path / "pyproject.toml"


def test_a_plain_table_is_read_without_the_models(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint]\nselect = ['GL5']\n")
    loaded = load_config(tmp_path)
    assert isinstance(loaded.config, DefaultConfig)
    assert loaded.config.select == ["GL5"]
    assert loaded.config.model_dump() == parse_config({"select": ["GL5"]}, tmp_path).model_dump()


PLAIN_TABLES = [
    {"include": ["**/*.md"]},
    {"include": [], "extend-include": ["x.md"], "exclude": ["a/**"], "respect-gitignore": False},
    {"select": ["GL1", "GL501"], "extend-select": [], "ignore": ["GL104"], "cache": False},
    {"max-file-size": 1, "jobs": 3},
    {"per-file-ignores": {"docs/*.md": ["GL501"], "x.md": []}},
    {"paths": {"not-this-tree": [], "ignore": ["tmp/**"], "links": ["README.md"]}},
    {"paths": {}},
]


@pytest.mark.parametrize("raw", PLAIN_TABLES)
def test_plain_tables_read_as_the_models_read_them(raw, tmp_path):
    plain = plain_config(raw)
    assert isinstance(plain, DefaultConfig)
    models = parse_config(raw, tmp_path / "guidelint.toml")
    assert plain.model_dump() == models.model_dump()
    assert plain.model_dump(mode="json") == models.model_dump(mode="json")


NOT_PLAIN = [
    {"include": "**/*.md"},  # a string where a list goes: the models word the error
    {"include": ["a", 1]},
    {"cache": "yes"},
    {"cache": 1},
    {"jobs": 0},
    {"jobs": True},
    {"max-file-size": 2.5},
    {"extend_include": ["x"]},  # the field's name, not its key: the models decide
    {"cache-dir": "../out"},
    {"severity": {"GL501": "info"}},
    {"paths": {"links": "README.md"}},
    {"paths": {"unknown": []}},
    {"paths": []},
    {"per-file-ignores": {"x.md": "GL501"}},
    {"tools": {"live": True}},
    {"includes": ["x"]},
]


@pytest.mark.parametrize("raw", NOT_PLAIN)
def test_anything_else_goes_to_the_models(raw):
    assert plain_config(raw) is None


KEYS = [
    "include",
    "extend-include",
    "exclude",
    "select",
    "extend-select",
    "ignore",
    "respect-gitignore",
    "cache",
    "max-file-size",
    "jobs",
    "per-file-ignores",
    "paths",
    "cache-dir",
    "extend_select",
    "severity",
    "tools",
]
NESTED_KEYS = ["not-this-tree", "links", "a.md"]
SCALARS = st.one_of(
    st.booleans(), st.integers(-2, 3), st.floats(allow_nan=False), st.text(max_size=4), st.none()
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from([*KEYS, "not-this-tree", "links", "a.md"]), inner, max_size=3
        )
    ),
    max_leaves=6,
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=4))
def test_whatever_the_plain_reading_accepts_the_models_accept_alike(raw):
    plain = plain_config(raw)
    if plain is not None:
        models = parse_config(raw, Path("guidelint.toml"))
        assert plain.model_dump(mode="json") == models.model_dump(mode="json")


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
