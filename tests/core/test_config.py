"""[tool.guidelint] is validated strictly; bad configuration is one line and exit 2."""

from __future__ import annotations

import pytest

from guidelint.config import ConfigError, load_config
from guidelint.engine import build_selection
from tests.conftest import run_cli


def test_defaults_without_config(tmp_path):
    loaded = load_config(tmp_path)
    assert loaded.source is None
    assert loaded.root == tmp_path.resolve()
    assert "docs/**/*.md" in loaded.config.include


def test_kebab_case_keys_and_nested_sections(make_project):
    root = make_project(
        {},
        config='select = ["GL5"]\nmax-file-size = 10\n'
        'per-file-ignores = {"docs/old/*.md" = ["GL501"]}\n'
        '[tool.guidelint.paths]\nignore = ["outputs/**"]',
    )
    config = load_config(root).config
    assert config.select == ["GL5"]
    assert config.max_file_size == 10
    assert config.per_file_ignores == {"docs/old/*.md": ["GL501"]}
    assert config.paths.ignore == ["outputs/**"]


def test_guidelint_toml_wins_and_is_found_from_subfolders(tmp_path):
    (tmp_path / "guidelint.toml").write_text('select = ["GL501"]\n')
    (tmp_path / "docs").mkdir()
    loaded = load_config(tmp_path / "docs")
    assert loaded.root == tmp_path.resolve()
    assert loaded.config.select == ["GL501"]


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ('selcet = ["GL5"]', "unknown key 'selcet' (did you mean 'select'?)"),
        ("max-file-size = -1", "key 'max-file-size'"),
        (
            '[tool.guidelint.paths]\nignroe = ["x"]',
            "unknown key 'paths.ignroe' (did you mean 'ignore'?)",
        ),
        ('severity = {GL501 = "fatal"}', "key 'severity.GL501'"),
    ],
)
def test_bad_config_is_one_clear_line(make_project, config, expected):
    root = make_project({}, config=config)
    with pytest.raises(ConfigError) as err:
        load_config(root)
    message = str(err.value)
    assert expected in message
    assert "pyproject.toml" in message
    assert "\n" not in message


def test_unknown_rule_code_in_config_is_one_line_naming_the_file(make_project):
    # Configuration imports no rule: the engine checks codes when it builds the selection.
    root = make_project({"docs/a.md": "# A\n"}, config='select = ["GL999"]')
    loaded = load_config(root)
    with pytest.raises(ConfigError) as err:
        build_selection(loaded.config, loaded.source)
    message = str(err.value)
    assert "pyproject.toml: [tool.guidelint] select: unknown rule code 'GL999'" in message
    assert "\n" not in message
    result = run_cli("check", cwd=root)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "unknown rule code 'GL999'" in result.stderr


def test_bad_config_line_number(make_project):
    root = make_project({}, config='include = ["docs/**/*.md"]\nselcet = ["GL5"]')
    with pytest.raises(ConfigError, match=r"pyproject.toml:3: "):
        load_config(root)


def test_not_toml_exits_2_with_one_line(make_project):
    root = make_project({"docs/a.md": "# A\n"}, config=None)
    (root / "pyproject.toml").write_text("[tool.guidelint\nselect = \n")
    result = run_cli("check", cwd=root)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "not valid TOML" in lines[0] and "pyproject.toml" in lines[0]


def test_unknown_code_on_command_line_exits_2(make_project):
    root = make_project({"docs/a.md": "# A\n"})
    result = run_cli("check", "--select", "GL9999", cwd=root)
    assert result.returncode == 2
    assert "unknown rule code 'GL9999'" in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_select_overrides_config(make_project):
    root = make_project({"docs/a.md": "See `docs/missing.md`.\n"}, config='select = ["GL001"]')
    assert run_cli("check", cwd=root).returncode == 0
    result = run_cli("check", "--select", "GL501", cwd=root)
    assert result.returncode == 1 and "GL501" in result.stdout
    assert run_cli("check", "--select", "GL5", "--ignore", "GL501", cwd=root).returncode == 0
