"""Stand-ins cheap enough per call for the sizes slow examples ask for (recipes/slow.py)."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402


def config(pipeline_class: str, name: str) -> dict:
    return slot(build._plan(pipeline_class), name).config


def test_repaint_gets_its_own_narrow_unet_and_ddpm_keeps_the_shared_one():
    repaint = config("RePaintPipeline", "unet")
    assert repaint["block_out_channels"] == (2,)
    assert repaint["block_out_channels"][0] % repaint["norm_num_groups"] == 0
    assert config("DDPMPipeline", "unet")["block_out_channels"] == (8,)


@pytest.mark.slow
def test_repaint_runs_tiny_with_its_narrow_unet(tmp_path):
    folder = build.checkpoint_for("RePaintPipeline", tmp_path)
    pipe, output = run_tiny("RePaintPipeline", folder, jump_length=1, jump_n_sample=2)
    assert pipe.unet.config.block_out_channels == [2]
    assert output.images[0].shape == (64, 64, 3)
