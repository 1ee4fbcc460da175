"""Wan-derived video families (recipes/wan_video.py): they plan, build tiny and run for real."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, generic, resolve  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

BUILT = [
    "WanImageToVideoPipeline",
    "ChronoEditPipeline",
    "SkyReelsV2Pipeline",
    "SkyReelsV2DiffusionForcingPipeline",
    "SkyReelsV2DiffusionForcingVideoToVideoPipeline",
    "SkyReelsV2ImageToVideoPipeline",
    "AnyFlowPipeline",
    "AnyFlowFARPipeline",
    "HeliosPipeline",
    "HeliosPyramidPipeline",
    "SanaVideoPipeline",
    "SanaImageToVideoPipeline",
]


@pytest.mark.parametrize("pipeline_class", BUILT)
def test_each_family_plans(pipeline_class):
    assert build.buildable(pipeline_class)


def test_rope_covers_the_patches_of_a_720p_frame():
    # 720x1280 is 45x80 patches of the 8x VAE's latents: the table RoPE indexes must cover both
    transformer = slot(generic.plan("WanPipeline"), "transformer").config
    assert transformer["rope_max_seq_len"] >= 1280 // 8 // transformer["patch_size"][2]


def test_image_to_video_sees_the_image_latents_mask_and_clip_states():
    plan = generic.plan("WanImageToVideoPipeline")
    transformer, vae = slot(plan, "transformer").config, slot(plan, "vae").config
    encoder = slot(plan, "image_encoder")
    assert encoder.class_name == "CLIPVisionModel"  # built, not left out as for SD's IP-Adapter
    assert transformer["in_channels"] == 2 * vae["z_dim"] + 4  # noise, image latents, 4-frame mask
    assert transformer["image_dim"] == encoder.config["hidden_size"]  # penultimate hidden states
    assert "image_encoder" in slot_names(generic.plan("ChronoEditPipeline"))
    assert "image_encoder" not in generic.plan("WanPipeline").nones + slot_names(
        generic.plan("WanPipeline")
    )


def slot_names(plan) -> tuple[str, ...]:
    return tuple(s.name for s in plan.slots)


def test_sana_video_pairs_its_dit_with_wans_vae():
    plan = generic.plan("SanaVideoPipeline")
    assert slot(plan, "vae").class_name == "AutoencoderKLWan"  # the annotation lists DC-AE first
    assert (
        slot(plan, "transformer").config["caption_channels"]
        == (slot(plan, "text_encoder").config["hidden_size"])
    )


@pytest.mark.parametrize(
    ("hub_id", "pipeline_class"),
    [
        ("Skywork/SkyReels-V2-DF-14B-720P-Diffusers", "SkyReelsV2DiffusionForcingPipeline"),
        ("Skywork/SkyReels-V2-I2V-14B-720P-Diffusers", "SkyReelsV2ImageToVideoPipeline"),
        ("nvidia/ChronoEdit-14B-Diffusers", "ChronoEditPipeline"),
        ("BestWishYsh/Helios-Base", "HeliosPipeline"),
    ],
)
def test_the_hub_ids_of_wan_derived_families_are_known(hub_id, pipeline_class):
    assert resolve.known_pipeline(hub_id) == pipeline_class


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-wan-video")


@pytest.mark.slow
@pytest.mark.parametrize("pipeline_class", ["SkyReelsV2Pipeline", "AnyFlowPipeline"])
def test_families_build_and_run_tiny(tiny_cache, pipeline_class):
    pipe, output = run_tiny(pipeline_class, build.checkpoint_for(pipeline_class, tiny_cache))
    assert type(pipe).__name__ == pipeline_class
    assert output.frames[0].shape[0] == 5  # 5 frames in, 5 out: the VAE's 4x time compression


@pytest.mark.slow
def test_image_to_video_encodes_its_image_with_the_tiny_clip(tiny_cache):
    import diffusers
    import torch
    from PIL import Image

    folder = build.checkpoint_for("WanImageToVideoPipeline", tiny_cache)
    pipe = diffusers.WanImageToVideoPipeline.from_pretrained(folder)
    pipe.set_progress_bar_config(disable=True)
    seen = []
    pipe.image_encoder.register_forward_hook(lambda module, args, output: seen.append(output))
    image = Image.new("RGB", (64, 64), (120, 30, 200))
    output = pipe(
        image=image,
        prompt="a cat",
        height=64,
        width=64,
        num_frames=5,
        num_inference_steps=2,
        generator=torch.manual_seed(0),
        output_type="pt",
    )
    assert len(seen) == 1  # the first frame went through CLIP, its states into the DiT
    assert output.frames[0].shape == (5, 3, 64, 64)


def test_helios_pyramid_keeps_the_real_block_noise_settings():
    """The pyramid's stand-in keeps what sample_block_noise reads from the real checkpoint:
    HeliosScheduler's three stages and gamma 1/3, and 2x2 patches. At those settings the
    block-noise covariance is singular whatever the weights (its float32 eigenvalue is not
    positive): a failing Cholesky there is diffusers', not the stand-in's."""
    import inspect

    import torch
    from diffusers import HeliosScheduler

    plan = generic.plan("HeliosPyramidPipeline")
    scheduler = slot(plan, "scheduler").config
    defaults = inspect.signature(HeliosScheduler.__init__).parameters
    assert scheduler.get("gamma", defaults["gamma"].default) == defaults["gamma"].default == 1 / 3
    assert scheduler.get("stages", defaults["stages"].default) == 3
    _, ph, pw = slot(plan, "transformer").config["patch_size"]
    gamma, size = 1 / 3, ph * pw
    cov = torch.eye(size) * (1 + gamma) - torch.ones(size, size) * gamma
    cov += torch.eye(size) * 1e-8  # diffusers' jitter, below float32's step at 4/3
    assert torch.linalg.eigvalsh(cov.float().double()).min() <= 0
