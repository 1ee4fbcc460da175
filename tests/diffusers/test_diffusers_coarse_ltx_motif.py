"""The coarse stand-ins of LTX-2, LTX-Video's condition pipeline and Motif-Video
(recipes/ltx2.py, recipes/newimage.py, recipes/coarse.py): the pipelines read the coarser
factor from the VAE, and an example gets it only where its sizes stay the real ones."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import coarsen, generic  # noqa: E402
from guidelint.runner.diffusers_backend.recipes import coarse, ltx2, newimage  # noqa: E402
from tests.diffusers.test_diffusers_coarse import docstring_example  # noqa: E402
from tests.diffusers.tiny_pipelines import slot  # noqa: E402


@pytest.mark.parametrize(
    ("module", "pipeline_class", "variant"),
    [
        ("ltx2.pipeline_ltx2", "LTX2Pipeline", "coarse"),
        ("ltx2.pipeline_ltx2_image2video", "LTX2ImageToVideoPipeline", "coarse"),
        ("ltx2.pipeline_ltx2_dfr", "LTX2DFRPipeline", "coarse"),
        # it hands the first pipeline's VAE to LTX2LatentUpsamplePipeline and tiles it
        ("ltx2.pipeline_ltx2_latent_upsample", "LTX2ImageToVideoPipeline", "coarse"),
        ("ltx.pipeline_ltx_condition", "LTXConditionPipeline", "coarse"),
        # 480 px does not divide by 64: LTX-Video text- and image-to-video keep 32x
        ("ltx.pipeline_ltx", "LTXPipeline", None),
        ("ltx.pipeline_ltx_image2video", "LTXImageToVideoPipeline", None),
        ("motif_video.pipeline_motif_video", "MotifVideoPipeline", "coarse"),
        ("motif_video.pipeline_motif_video_image2video", "MotifVideoImage2VideoPipeline", "coarse"),
    ],
)
def test_the_docstrings_get_the_stand_in_their_sizes_allow(module, pipeline_class, variant):
    example = docstring_example(module)
    assert coarsen.variant_for(pipeline_class, [(example, True)]) == variant


def _mu(tokens: int, config: dict) -> float:
    """diffusers' calculate_shift, as LTX-2's pipelines call it."""
    base, top = config["base_image_seq_len"], config["max_image_seq_len"]
    slope = (config["max_shift"] - config["base_shift"]) / (top - base)
    return tokens * slope + config["base_shift"] - slope * base


@pytest.mark.parametrize("pipeline_class", ["LTX2Pipeline", "LTX2ImageToVideoPipeline"])
def test_ltx2s_coarse_plan_is_a_64x_vae_and_the_same_schedule_shift(pipeline_class):
    real = generic.plan(pipeline_class)
    coarser = generic.plan(pipeline_class, hub_variant="coarse")
    real_vae, coarse_vae = slot(real, "vae").config, slot(coarser, "vae").config
    assert (real_vae["spatial_compression_ratio"], coarse_vae["spatial_compression_ratio"]) == (
        32,
        64,
    )
    assert real_vae["patch_size"] * 2 == coarse_vae["patch_size"]
    # only the patch (and the factor it makes) differs: the same levels and widths
    changed = {k for k in real_vae if real_vae[k] != coarse_vae[k]}
    assert changed == {"patch_size", "spatial_compression_ratio"}
    assert slot(coarser, "transformer") == slot(real, "transformer")
    # 768x512, 121 frames: 6,144 tokens at 32x, 1,536 at 64x, the same mu
    tokens = [16 * (512 // f) * (768 // f) for f in (32, 64)]
    assert tokens == [6144, 1536]
    real_mu = _mu(tokens[0], slot(real, "scheduler").config)
    assert _mu(tokens[1], slot(coarser, "scheduler").config) == pytest.approx(real_mu)


def test_ltx2_dfrs_coarse_plan_keeps_its_distilled_scheduler_and_keyframe_dit():
    real, coarser = (
        generic.plan("LTX2DFRPipeline"),
        generic.plan("LTX2DFRPipeline", hub_variant="coarse"),
    )
    for name in ("scheduler", "transformer"):
        assert slot(coarser, name) == slot(real, name), name
    assert slot(coarser, "vae").config["spatial_compression_ratio"] == ltx2.COARSE_FACTOR


def test_motifs_coarse_plan_is_16x_8x_and_2x2x2_patches():
    real = generic.plan("MotifVideoPipeline")
    coarser = generic.plan("MotifVideoPipeline", hub_variant="coarse")
    vae = slot(coarser, "vae").config
    assert (vae["scale_factor_spatial"], vae["scale_factor_temporal"]) == (16, 8)
    # four spatial halvings, three of them temporal: what those two keys state
    assert 2 ** (len(vae["dim_mult"]) - 1) == 16
    assert 2 ** sum(vae["temperal_downsample"]) == 8
    real_dit, coarse_dit = slot(real, "transformer").config, slot(coarser, "transformer").config
    assert {k: v for k, v in coarse_dit.items() if k != "patch_size_t"} == real_dit
    assert coarse_dit["patch_size_t"] == newimage.MOTIF_COARSE_PATCH_T

    def tokens(space: int, time: int, patch_t: int) -> int:  # 1280x736, 121 frames
        return ((121 - 1) // time + 1) // patch_t * (736 // space // 2) * (1280 // space // 2)

    assert (tokens(8, 4, 1), tokens(16, 8, 2)) == (114_080, 7_360)
    assert coarse.PIPELINES["MotifVideoPipeline"].token_ratio == 114_080 // 7_360


MOTIF_SCRIPT = (
    'pipe = MotifVideoPipeline.from_pretrained("Motif-Technologies/Motif-Video-2B")\n'
    'video = pipe(prompt="a cat"{arguments}).frames[0]\n'
)


@pytest.mark.parametrize(
    ("arguments", "variant"),
    [
        ("", "coarse"),  # its defaults: 736x1280, 121 frames
        (", height=736, width=1280, num_frames=121", "coarse"),
        (", num_frames=57", "coarse"),  # 8 latent frames at 8x, 57 frames decoded as at 4x
        (", num_frames=125", None),  # 16 latent frames at 8x decode 121, 32 at 4x 125
        (", num_frames=113", None),  # 15 latent frames: not a whole 2-frame patch
        (", height=720, width=1280", None),  # 720 does not divide by 32
    ],
)
def test_motif_needs_sizes_of_32_and_frames_the_8x_vae_decodes_alike(arguments, variant):
    script = MOTIF_SCRIPT.format(arguments=arguments)
    assert coarsen.variant_for("MotifVideoPipeline", [(script, False)]) == variant


UPSAMPLE_SCRIPT = """pipe = LTX2ImageToVideoPipeline.from_pretrained("Lightricks/LTX-2")
video, audio = pipe(image=image, prompt="a cat", height=512, width=768, return_dict=False)
upsample_pipe = LTX2LatentUpsamplePipeline(vae={vae}, latent_upsampler=latent_upsampler)
"""


@pytest.mark.parametrize(
    ("vae", "variant"),
    [
        ("pipe.vae", "coarse"),  # the pipeline's own VAE object, at its own factor
        ("other.vae", None),  # not a loaded pipeline's
        ("vae", None),  # a VAE of the example's own
    ],
)
def test_a_pipeline_built_with_the_loaded_pipelines_own_vae_keeps_the_stand_in(vae, variant):
    script = UPSAMPLE_SCRIPT.format(vae=vae)
    assert coarsen.variant_for("LTX2ImageToVideoPipeline", [(script, False)]) == variant


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-ltx-motif")


@pytest.mark.slow
@pytest.mark.parametrize(
    "pipeline_class",
    [
        "LTX2Pipeline",
        "LTX2ImageToVideoPipeline",
        "LTX2DFRPipeline",
        "LTXConditionPipeline",
        "MotifVideoPipeline",
        "MotifVideoImage2VideoPipeline",
    ],
)
def test_both_stand_ins_make_the_same_video(tiny_cache, pipeline_class):
    """Loaded with the real pipeline class at 128x192 and 9 frames (2 latent frames at 8x
    in time, 3 at 4x): the same video shape from either stand-in, and the factor read."""
    import diffusers
    import torch
    from PIL import Image

    from guidelint.runner.diffusers_backend import build

    picture = Image.new("RGB", (96, 80), (120, 60, 30))
    arguments: dict = {"height": 128, "width": 192, "num_frames": 9}
    if "ImageToVideo" in pipeline_class or "Image2Video" in pipeline_class:
        arguments["image"] = picture
    if pipeline_class != "LTX2DFRPipeline":  # distilled: its own sigmas
        arguments["num_inference_steps"] = 2
    if pipeline_class == "LTXConditionPipeline":  # the example's image and video conditions
        from diffusers.pipelines.ltx.pipeline_ltx_condition import LTXVideoCondition

        frames = [picture] * 9
        arguments["conditions"] = [
            LTXVideoCondition(image=picture, frame_index=0),
            LTXVideoCondition(video=frames, frame_index=8),
        ]
    shapes = []
    for variant in (None, "coarse"):
        folder = build.checkpoint_for(pipeline_class, tiny_cache, hub_variant=variant)
        pipe = getattr(diffusers, pipeline_class).from_pretrained(folder)
        pipe.set_progress_bar_config(disable=True)
        out = pipe(prompt="a cat", output_type="pt", generator=torch.manual_seed(0), **arguments)
        factor = getattr(pipe, "vae_spatial_compression_ratio", None) or (
            pipe.vae_scale_factor_spatial
        )
        shapes.append((factor, tuple(out.frames.shape)))
    coarser = coarse.PIPELINES[pipeline_class]
    assert [factor for factor, _ in shapes] == [coarser.real_factor, coarser.factor]
    assert shapes[0][1] == shapes[1][1] == (1, 9, 3, 128, 192)
