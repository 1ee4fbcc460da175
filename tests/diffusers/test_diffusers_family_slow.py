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
    assert repaint["block_out_channels"] == (1,)  # one channel, one norm group
    assert repaint["block_out_channels"][0] % repaint["norm_num_groups"] == 0
    assert repaint["down_block_types"] == ("DownBlock2D",)
    assert repaint["layers_per_block"] == 0  # its up block keeps one resnet, the mid two
    assert config("DDPMPipeline", "unet")["block_out_channels"] == (8,)


@pytest.mark.slow
def test_repaint_runs_tiny_with_its_narrow_unet(tmp_path):
    folder = build.checkpoint_for("RePaintPipeline", tmp_path)
    pipe, output = run_tiny("RePaintPipeline", folder, jump_length=1, jump_n_sample=2)
    assert pipe.unet.config.block_out_channels == [1]
    assert output.images[0].shape == (64, 64, 3)


@pytest.mark.slow
def test_repaint_keeps_its_examples_schedule_and_image_size(tmp_path):
    """The docstring's call (250 steps, jump_length 10, jump_n_sample 10) is 4,570
    scheduler steps, 2,410 of them UNet calls, on the checkpoint's scheduler; the narrow
    UNet inpaints its 256x256 image at that size (here 10 steps, no resampling)."""
    import diffusers
    import torch

    folder = build.checkpoint_for("RePaintPipeline", tmp_path)
    pipe = diffusers.RePaintPipeline.from_pretrained(folder)
    pipe.scheduler.set_timesteps(250, 10, 10)
    timesteps = pipe.scheduler.timesteps.tolist()
    unet_calls = sum(
        1
        for last, now in zip([timesteps[0] + 1, *timesteps[:-1]], timesteps, strict=True)
        if now < last
    )
    assert (len(timesteps), unet_calls) == (4570, 2410)
    image = torch.rand(1, 3, 256, 256) * 2 - 1
    mask = (torch.rand(1, 1, 256, 256) > 0.5).float()
    pipe.set_progress_bar_config(disable=True)
    output = pipe(
        image, mask, num_inference_steps=10, jump_length=1, jump_n_sample=1, output_type="np"
    )
    assert output.images.shape == (1, 256, 256, 3)
