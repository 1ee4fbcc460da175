"""Tiny checkpoints: deterministic, cached by version, and the `guidelint tiny` commands."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("diffusers")

from guidelint.commands.cli import main  # noqa: E402
from guidelint.runner.diffusers_backend import cache  # noqa: E402

HAS_TORCHVISION = importlib.util.find_spec("torchvision") is not None


def files_of(folder):
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


@pytest.mark.parametrize("name", ["sd", "sdxl-controlnet"])
def test_rebuilding_gives_byte_identical_files(tmp_path, name):
    cache.build_into(name, tmp_path / "first")
    cache.build_into(name, tmp_path / "second")
    first, second = files_of(tmp_path / "first"), files_of(tmp_path / "second")
    assert first == second
    assert "model_index.json" in first
    assert any(path.endswith(".safetensors") for path in first)
    assert not any(path.endswith((".bin", ".pt")) for path in first)


def test_a_lost_build_race_keeps_the_winner(tmp_path):
    target = tmp_path / "ddim"
    cache.build_into("ddim", target)
    before = files_of(target)
    cache.build_into("ddim", target)  # another worker finished first: no error, no mixing
    assert files_of(target) == before
    assert [p.name for p in tmp_path.iterdir()] == ["ddim"]  # no staging folder left


def test_tiny_list_then_build_then_list(tmp_path):
    runner = CliRunner()
    listed = runner.invoke(main, ["tiny", "list", "--cache", str(tmp_path), "--format", "json"])
    assert listed.exit_code == 0, listed.output
    before = json.loads(listed.output)
    assert before["cache"] == str(cache.cache_dir(tmp_path))
    names = [row["name"] for row in before["pipelines"]]
    assert names == ["ddpm", "ddim", "sd", "sd-inpaint", "sd-controlnet", "sdxl", "sdxl-controlnet"]
    assert not any(row["built"] for row in before["pipelines"])

    built = runner.invoke(main, ["tiny", "build", "--cache", str(tmp_path), "ddpm"])
    assert built.exit_code == 0, built.output
    assert built.output.startswith("ddpm             built in ")
    again = runner.invoke(main, ["tiny", "build", "--cache", str(tmp_path), "ddpm"])
    assert "already built" in again.output

    text = runner.invoke(main, ["tiny", "list", "--cache", str(tmp_path)])
    rows = {line.split()[0]: line.split()[1] for line in text.output.splitlines()[1:]}
    assert rows["ddpm"] == "built" and rows["sd"] == "-"


def test_an_unknown_tiny_pipeline_is_one_line_and_exit_2(tmp_path):
    result = CliRunner().invoke(main, ["tiny", "build", "--cache", str(tmp_path), "sd3"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "guidelint: error: unknown tiny pipeline 'sd3' (known: ddpm, ddim, sd, sd-inpaint, "
        "sd-controlnet, sdxl, sdxl-controlnet, or a pipeline class such as FluxPipeline)"
    ]


def test_tiny_build_takes_a_pipeline_class(tmp_path):
    runner = CliRunner()
    built = runner.invoke(main, ["tiny", "build", "--cache", str(tmp_path), "DiTPipeline"])
    assert built.exit_code == 0, built.output
    name, state, *_ = built.output.split()
    assert (name, state) == ("DiTPipeline", "ready")
    folder = built.output.split()[-1]
    assert (
        json.loads((Path(folder) / "model_index.json").read_text())["_class_name"] == "DiTPipeline"
    )

    refused = runner.invoke(main, ["tiny", "build", "--cache", str(tmp_path), "GlmImagePipeline"])
    assert refused.exit_code == 2
    assert refused.output.strip().splitlines() == [
        "guidelint: error: no tiny GlmImageProcessor can be built: no tiny recipe "
        "(component 'processor' of GlmImagePipeline)"
    ]


@pytest.mark.skipif(HAS_TORCHVISION, reason="torchvision is installed: the processor builds")
def test_tiny_build_names_the_package_a_component_needs(tmp_path):
    # a component whose class needs a package missing here: one line, not a traceback
    runner = CliRunner()
    needing = runner.invoke(
        main, ["tiny", "build", "--cache", str(tmp_path), "QwenImage21Pipeline"]
    )
    assert needing.exit_code == 2
    (line,) = needing.output.strip().splitlines()
    assert line.startswith(
        "guidelint: error: no tiny QwenImage21Pipeline can be built here: "
        "Qwen3VLVideoProcessor requires the Torchvision library"
    )
