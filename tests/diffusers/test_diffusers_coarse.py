"""The coarser image-DiT stand-ins (recipes/coarse.py) and when an example gets one
(coarsen.py): the same image sizes as the 8x stand-in, 16x fewer latent tokens, and only
where the example's own sizes divide by the coarser factor times the patch."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import coarsen, generic, tiny_table  # noqa: E402
from guidelint.runner.diffusers_backend.recipes import coarse  # noqa: E402
from tests.diffusers.tiny_pipelines import slot  # noqa: E402

DOCSTRING = """>>> import torch
>>> from diffusers import AuraFlowPipeline

>>> pipe = AuraFlowPipeline.from_pretrained("fal/AuraFlow", torch_dtype=torch.float16)
>>> pipe = pipe.to("cuda")
>>> prompt = "A cat holding a sign that says hello world"
>>> image = pipe(prompt).images[0]
>>> image.save("aura_flow.png")
"""
SCRIPT = 'pipe = AuraFlowPipeline.from_pretrained("fal/AuraFlow")\nimage = pipe("a cat"{})\n'


def factor(vae_config) -> int:
    """What the pipelines compute: 2 ** (len(vae.config.block_out_channels) - 1)."""
    return 2 ** (len(vae_config["block_out_channels"]) - 1)


VAE_32X = sorted(name for name, coarser in coarse.PIPELINES.items() if coarser is coarse.VAE_32X)


@pytest.mark.parametrize("pipeline_class", VAE_32X)
def test_the_coarse_plan_keeps_the_default_size_with_16x_fewer_tokens(pipeline_class):
    real, coarser = generic.plan(pipeline_class), generic.plan(pipeline_class, hub_variant="coarse")
    real_vae, coarse_vae = slot(real, "vae").config, slot(coarser, "vae").config
    assert (factor(real_vae), factor(coarse_vae)) == (coarse.REAL_FACTOR, coarse.FACTOR)
    assert coarse.PIPELINES[pipeline_class].multiple == coarse.FACTOR * coarse.PATCH
    real_dit, coarse_dit = slot(real, "transformer").config, slot(coarser, "transformer").config
    # the default size (sample_size x factor) is the 8x stand-in's
    real_size = real_dit.get("sample_size", 128) * factor(real_vae)
    assert coarse_dit["sample_size"] * factor(coarse_vae) == real_size
    # a 1024 px image: 4,096 tokens at 8x with 2x2 patches, 256 at 32x
    tokens = [(1024 // factor(vae) // coarse.PATCH) ** 2 for vae in (real_vae, coarse_vae)]
    assert tokens == [4096, 256]
    # nothing else of the denoiser changes: the same layers, heads and patch
    assert {k: v for k, v in coarse_dit.items() if k != "sample_size"} == {
        k: v for k, v in real_dit.items() if k != "sample_size"
    }
    assert slot(coarser, "transformer").class_name == slot(real, "transformer").class_name


def test_ideogram4s_coarse_plan_changes_only_the_vae():
    """It packs 2x2 patches itself and takes its default size (2048 px) and schedule
    shift (the pixel count) from its __call__: the transformers stay the 8x ones."""
    real = generic.plan("Ideogram4Pipeline")
    coarser = generic.plan("Ideogram4Pipeline", hub_variant="coarse")
    assert (factor(slot(real, "vae").config), factor(slot(coarser, "vae").config)) == (8, 32)
    for name in ("transformer", "unconditional_transformer"):
        assert slot(coarser, name) == slot(real, name), name
    assert coarse.PIPELINES["Ideogram4Pipeline"].multiple == 64


def test_cogview4s_schedule_shift_sees_the_real_token_count():
    """mu = max_shift * (tokens / base_image_seq_len) ** 0.5 + base_shift: the coarse
    scheduler's base is 16x smaller, so the timesteps are the 8x stand-in's."""
    real = slot(generic.plan("CogView4Pipeline"), "scheduler").config
    coarser = slot(generic.plan("CogView4Pipeline", hub_variant="coarse"), "scheduler").config
    real_ratio = 4096 / real["base_image_seq_len"]
    coarse_ratio = 256 / coarser["base_image_seq_len"]
    assert real_ratio == coarse_ratio
    assert {k: v for k, v in real.items() if k != "base_image_seq_len"} == {
        k: v for k, v in coarser.items() if k != "base_image_seq_len"
    }


def test_the_docstring_example_gets_the_coarse_stand_in():
    assert coarsen.variant_for("AuraFlowPipeline", [(DOCSTRING, True)]) == "coarse"
    assert coarsen.variant_for("AuraFlowPipeline", [(SCRIPT.format(""), False)]) == "coarse"
    sizes = ", height=768, width=1024"
    assert coarsen.variant_for("CogView4Pipeline", [(SCRIPT.format(sizes), False)]) == "coarse"


@pytest.mark.parametrize(
    "arguments",
    [
        ", height=1000, width=1024",  # 1000 is not a multiple of 64: the 8x grid keeps it
        ", height=1024, width=1360",  # 1360 = 21.25 x 64
        ", height=h, width=w",  # not a literal: unknown
        ", height=1024.0, width=1024",  # a float is not a size the check can trust
        ", latents=noise",  # the example's own latents are on the 8x grid
        ', output_type="latent"',  # it would see the coarser latents
        ", output_type=kind",
        ", **settings",  # a size could be inside
        ", vae=my_vae",  # another repo's 8x VAE beside the coarser transformer
        ", None, 1000",  # CogView's height is its third parameter: positional sizes
    ],
)
def test_an_example_whose_sizes_do_not_divide_keeps_the_real_factor(arguments):
    code = SCRIPT.format(arguments)
    assert coarsen.variant_for("AuraFlowPipeline", [(code, False)]) is None


@pytest.mark.parametrize(
    "extra",
    [
        "print(pipe.vae_scale_factor)\n",
        "pipe.vae = other\n",
        "z = pipe.vae.encode(x).latent_dist.sample()\n",
        "side = pipe.transformer.config.sample_size\n",
        "pipe.vae.enable_tiling()\n",  # tiles sized in latents of the real factor
    ],
)
def test_an_example_that_looks_at_the_latent_grid_keeps_the_real_factor(extra):
    code = SCRIPT.format("") + extra
    assert coarsen.variant_for("AuraFlowPipeline", [(code, False)]) is None


def test_every_example_of_a_unit_must_allow_it_and_other_classes_never_get_it():
    good, bad = (SCRIPT.format(""), False), (SCRIPT.format(", height=1000"), False)
    assert coarsen.variant_for("AuraFlowPipeline", [good, bad]) is None
    assert coarsen.variant_for("AuraFlowPipeline", [("pipe(", False)]) is None  # no parse
    assert coarsen.variant_for("FluxPipeline", [good]) is None  # no coarse variant
    assert coarsen.variant_for("AuraFlowPipeline", None) is None  # no example: building ahead
    assert coarsen.variant_for("AuraFlowPipeline", coarsen.ANY_SIZES) == "coarse"


def test_the_coarse_stand_ins_are_built_ahead_for_the_classes_that_have_one():
    assert coarsen.may_be_named(["torch", "AuraFlowPipeline", "fal/AuraFlow"])
    assert not coarsen.may_be_named(["FluxPipeline", "black-forest-labs/FLUX.1-dev"])


SD3 = sorted(coarse.SD3_PIPELINES)


def test_sd3s_coarse_plans_keep_their_controlnet_and_pag_blocks():
    """SD3's ControlNet embeds the control image's VAE latents with a patch embedding
    cropped from 192 positions a side: the 8x one fits the coarser latents unchanged.
    The PAG stand-ins keep SD3 medium's 24 blocks (`pag_applied_layers=["blocks.13"]`)."""
    for name in SD3:
        coarser = generic.plan(name, hub_variant="coarse")
        assert factor(slot(coarser, "vae").config) == coarse.FACTOR
        assert slot(coarser, "vae").config["latent_channels"] == 16, name
    controlnet = "StableDiffusion3ControlNetPipeline"
    real, coarser = generic.plan(controlnet), generic.plan(controlnet, hub_variant="coarse")
    assert slot(coarser, "controlnet") == slot(real, "controlnet")
    pag = slot(generic.plan("StableDiffusion3PAGPipeline", hub_variant="coarse"), "transformer")
    assert pag.config["num_layers"] == 24 and pag.config["sample_size"] == 8
    # AutoPipelineForText2Image(enable_pag=True) builds SD3's checkpoint with PAG recipes
    auto = generic.plan(
        "StableDiffusion3Pipeline", "StableDiffusion3PAGPipeline", hub_variant="coarse"
    )
    assert slot(auto, "transformer").config == pag.config


UNET = sorted(coarse.UNET_PIPELINES)


@pytest.mark.parametrize("pipeline_class", UNET)
def test_the_unet_families_coarse_plan_changes_the_vae_and_sample_size_only(pipeline_class):
    real, coarser = generic.plan(pipeline_class), generic.plan(pipeline_class, hub_variant="coarse")
    real_vae, coarse_vae = slot(real, "vae").config, slot(coarser, "vae").config
    assert (factor(real_vae), factor(coarse_vae)) == (8, 32)
    # the VAE's tile (sample_size pixels) is the real SDXL VAE's: 1024 px, 32 latents
    assert coarse_vae["sample_size"] == coarse.SDXL_VAE_TILE == 1024
    real_unet, coarse_unet = slot(real, "unet").config, slot(coarser, "unet").config
    assert coarse_unet["sample_size"] * 32 == real_unet["sample_size"] * 8
    assert {k: v for k, v in coarse_unet.items() if k != "sample_size"} == {
        k: v for k, v in real_unet.items() if k != "sample_size"
    }
    # sizes must divide by 32 x the UNet's own downsampling (3 blocks: 4x)
    downsampling = 2 ** (len(real_unet["block_out_channels"]) - 1)
    assert coarse.PIPELINES[pipeline_class].multiple == 32 * downsampling == 128
    assert (1024 // 32) % downsampling == 0


ANIMATEDIFF_SDXL = """>>> import torch
>>> from diffusers import AnimateDiffSDXLPipeline
>>> pipe = AnimateDiffSDXLPipeline.from_pretrained(
...     "stabilityai/stable-diffusion-xl-base-1.0", motion_adapter=adapter
... ).to("cuda")
>>> pipe.vae.enable_slicing()
>>> pipe.vae.enable_tiling()
>>> output = pipe(prompt="a panda", width=1024, height=1024, num_frames=16)
"""
SDXL_SCRIPT = 'pipe = StableDiffusionXLPipeline.from_pretrained("sdxl")\nimage = pipe({})\n'


def test_the_unet_families_need_every_pipeline_call_sized():
    assert coarsen.variant_for("AnimateDiffSDXLPipeline", [(ANIMATEDIFF_SDXL, True)]) == "coarse"
    sized = SDXL_SCRIPT.format('"a cat", height=1024, width=768')
    assert coarsen.variant_for("StableDiffusionXLPipeline", [(sized, False)]) == "coarse"
    # tiling is for the UNet families' VAE only (it keeps the 8x one's tile)
    tiled = SCRIPT.format("") + "pipe.vae.enable_tiling()\n"
    assert coarsen.variant_for("AuraFlowPipeline", [(tiled, False)]) is None


@pytest.mark.parametrize(
    "arguments",
    [
        '"a cat"',  # the default size: a 2x2 grid at 32x, which a 4x UNet cannot divide
        '"a cat", height=1024',  # the width is the default
        '"a cat", height=960, width=1024',  # 960 divides by 64, not by 128
        '"a cat", image, height=1024, width=1024',  # positional beyond the prompt
        'prompt="a cat", image=init_image',  # its size from the image
        '"a cat", height=1024, width=1024, unet=other',
        # a ControlNet's or adapter's condition embedding downsamples by a fixed 8x
        '"a cat", image=edges, height=1024, width=1024, controlnet=canny',
        '"a cat", image=sketch, height=1024, width=1024, adapter=sketch_adapter',
    ],
)
def test_a_unet_family_call_without_both_sizes_keeps_the_real_factor(arguments):
    code = SDXL_SCRIPT.format(arguments)
    assert coarsen.variant_for("StableDiffusionXLPipeline", [(code, False)]) is None


def test_a_controlnet_pipeline_made_from_a_coarse_sdxl_keeps_the_real_factor():
    code = SDXL_SCRIPT.format('"a cat", height=1024, width=1024') + (
        "control = StableDiffusionXLControlNetPipeline.from_pipe(pipe, controlnet=canny)\n"
        'image = control("a cat", image=edges, height=1024, width=1024)\n'
    )
    assert coarsen.variant_for("StableDiffusionXLPipeline", [(code, False)]) is None
    # an img2img made from it takes its size from the image: no sizes, refused too
    code = SDXL_SCRIPT.format('"a cat", height=1024, width=1024') + (
        "refine = AutoPipelineForImage2Image.from_pipe(pipe)\n"
        'image = refine("a cat", image=image)\n'
    )
    assert coarsen.variant_for("StableDiffusionXLPipeline", [(code, False)]) is None


def test_a_unet_family_example_that_never_calls_its_pipeline_keeps_the_real_factor():
    code = 'pipe = StableDiffusionXLPipeline.from_pretrained("sdxl")\nprint(pipe)\n'
    assert coarsen.variant_for("StableDiffusionXLPipeline", [(code, False)]) is None
    assert coarsen.variant_for("StableDiffusionXLPipeline", coarsen.ANY_SIZES) == "coarse"


# Ideogram 4's default guidance schedule has one value per step of its 48
ONE_STEP = {"Ideogram4Pipeline": {"guidance_schedule": None, "guidance_scale": 4.0}}


def call_arguments(pipeline_class: str) -> dict:
    """What a call of `pipeline_class` needs beside the prompt and sizes: an image for
    img2img and ControlNet (of another size: the pipeline resizes it), frames for a video,
    the runner's square picture (and its mask) for Flux Kontext."""
    from PIL import Image

    from guidelint.runner.diffusers_backend import images

    picture = Image.new("RGB", (96, 80), (120, 60, 30))
    if pipeline_class == "FluxKontextPipeline":
        return {"image": images.picture("https://example.org/in.png")}
    if pipeline_class in (
        "QwenImageEditPipeline",
        "QwenImageEditPlusPipeline",
        "BriaFibo2Pipeline",
    ):
        return {"image": images.picture("https://example.org/in.png")}  # square, as served
    if pipeline_class in ("FluxKontextInpaintPipeline", "QwenImageEditInpaintPipeline"):
        picture = images.picture("https://example.org/in.png")
        return {"image": picture, "mask_image": images.mask(), "strength": 1.0}
    if "Img2Img" in pipeline_class:  # two steps: strength 1.0 keeps both
        return {"image": picture, "strength": 1.0, "num_inference_steps": 2}
    if "ControlNet" in pipeline_class:
        return {"control_image": picture}
    if pipeline_class == "AnimateDiffSDXLPipeline":
        return {"num_frames": 2}
    if pipeline_class == "SanaVideoPipeline":
        return {"frames": 5}
    if pipeline_class == "SanaImageToVideoPipeline":
        return {"frames": 5, "image": picture}
    if pipeline_class == "TextToVideoSDPipeline":
        return {"num_frames": 2}
    if pipeline_class.startswith("Kandinsky"):  # 5 frames: two latent frames at 4x
        return {"num_frames": 5, **({"image": picture} if "5I2V" in pipeline_class else {})}
    if pipeline_class.startswith("EasyAnimate"):  # its CFG iterates the negative one
        return {"num_frames": 5, "negative_prompt": "blurry"}
    if pipeline_class == "WanPipeline":
        return {"num_frames": 5}
    if pipeline_class == "SkyReelsV2Pipeline":  # 5 latent frames: one 5-frame patch
        return {"num_frames": 17}
    if pipeline_class == "SkyReelsV2DiffusionForcingPipeline":  # its dense mask: few frames
        return {"num_frames": 17}
    if pipeline_class == "WanImageToVideoPipeline":  # 7 latent frames: one 7-frame patch
        return {"num_frames": 25, "image": picture}
    if pipeline_class == "HeliosPipeline":  # its window: 9 latent frames
        return {"num_frames": 33}
    if pipeline_class == "HunyuanVideoFramepackPipeline":  # one section
        return {"num_frames": 5, "image": picture}
    if pipeline_class == "HunyuanVideoPipeline":
        return {"num_frames": 5}
    return ONE_STEP.get(pipeline_class, {})


# the factor each coarse stand-in's pipeline computes: 32x, but Bria FIBO 2's coarser
# patches over the same 8x VAE
@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-coarse")


@pytest.mark.slow
@pytest.mark.parametrize("pipeline_class", sorted(coarse.PIPELINES))
@pytest.mark.parametrize("size", [None, (512, 768)])
def test_the_coarse_pipeline_makes_the_8x_ones_image_sizes(tiny_cache, pipeline_class, size):
    """Both stand-ins, loaded with the real pipeline class, called as an example would:
    the pipeline reads 32x from the VAE's config, and the images are the same size."""
    import diffusers
    import torch

    from guidelint.runner.diffusers_backend import build

    if size is None and coarse.PIPELINES[pipeline_class].sizes_required:
        pytest.skip("this family's coarse stand-in is only given to calls with sizes")
    if size is not None and coarse.PIPELINES[pipeline_class].area_sized:
        pytest.skip("an area-sized pipeline's coarse stand-in is only given to calls without")
    if size is not None and pipeline_class.startswith("Sana"):
        # its resolution binning makes 512x768 528x768, which its own check refuses at
        # 8x too; its default (480x832, the docstrings' size) is the case run
        pytest.skip("SANA-Video's binning turns 512x768 into a size it refuses")
    if pipeline_class.startswith(("LTX", "MotifVideo")):  # video defaults of 121-161 frames
        pytest.skip("test_diffusers_coarse_ltx_motif.py runs them at 9 frames")
    if size is not None and pipeline_class == "WanPipeline":
        size = (240, 400)  # its coarse stand-in's multiple is 80
    shapes = []
    for variant in (None, "coarse"):
        folder = build.checkpoint_for(pipeline_class, tiny_cache, hub_variant=variant)
        pipe = getattr(diffusers, pipeline_class).from_pretrained(folder)
        pipe.set_progress_bar_config(disable=True)
        sizes = {} if size is None else {"height": size[0], "width": size[1]}
        arguments = {"num_inference_steps": 1, **sizes, **call_arguments(pipeline_class)}
        out = pipe(prompt="a cat", output_type="pt", generator=torch.manual_seed(0), **arguments)
        result = out.frames if hasattr(out, "frames") else out.images  # Latte: a video
        # Kandinsky 5 and 6 name theirs vae_scale_factor_spatial, EasyAnimate
        # vae_spatial_compression_ratio
        factor = (
            getattr(pipe, "vae_scale_factor", None)
            or getattr(pipe, "vae_scale_factor_spatial", None)
            or pipe.vae_spatial_compression_ratio
        )
        shapes.append((factor, tuple(result.shape)))
    (real_factor, real_shape), (coarse_factor, coarse_shape) = shapes
    assert (real_factor, coarse_factor) == (
        coarse.PIPELINES[pipeline_class].real_factor,
        coarse.PIPELINES[pipeline_class].factor,
    )
    assert coarse_shape == real_shape
    if size is not None:
        assert real_shape[-2:] == size
    elif coarse.PIPELINES[pipeline_class].area_sized:  # max_area at a square's aspect
        assert real_shape[-2:] == (1024, 1024)


@pytest.mark.slow
def test_animatediff_sdxl_with_vae_tiling_keeps_its_frames_size(tiny_cache):
    """Its docstring turns VAE tiling on: a tiled decode is latents x factor pixels, on
    either stand-in (the coarse one's tile is 32 latents, the 8x one's 8), so a 1280 px
    side tiled on both gives the frames the same size."""
    import diffusers

    from guidelint.runner.diffusers_backend import build

    shapes = []
    for variant in (None, "coarse"):
        folder = build.checkpoint_for("AnimateDiffSDXLPipeline", tiny_cache, hub_variant=variant)
        pipe = diffusers.AnimateDiffSDXLPipeline.from_pretrained(folder)
        pipe.set_progress_bar_config(disable=True)
        pipe.vae.enable_slicing()
        pipe.vae.enable_tiling()
        out = pipe("a panda", height=1280, width=128, num_frames=2, num_inference_steps=1)
        shapes.append([frame.size for frame in out.frames[0]])
    assert shapes[0] == shapes[1] == [(128, 1280)] * 2


@pytest.mark.slow
def test_the_warm_worker_builds_both_stand_ins_ahead(tmp_path):
    """The child may not write the cache: the coarse folder must exist before it forks."""
    from guidelint.runner.diffusers_backend import activation

    activation._build_default_cache(
        ["AuraFlowPipeline", "fal/AuraFlow"], str(tmp_path), {"root": str(tmp_path)}
    )
    built = sorted(path.name.rsplit("-", 1)[0] for path in tmp_path.rglob("AuraFlowPipeline-*"))
    assert built == ["AuraFlowPipeline", "AuraFlowPipeline-coarse"]


def docstring_example(module: str) -> str:
    """EXAMPLE_DOC_STRING of an installed diffusers pipeline module, read from its source."""
    import ast
    import importlib.util

    spec = importlib.util.find_spec(f"diffusers.pipelines.{module}")
    assert spec is not None and spec.origin is not None
    tree = ast.parse(open(spec.origin, encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            getattr(target, "id", "") == "EXAMPLE_DOC_STRING" for target in node.targets
        ):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{module} has no EXAMPLE_DOC_STRING")


@pytest.mark.parametrize(
    ("module", "pipeline_class", "variant"),
    [
        ("stable_diffusion_3.pipeline_stable_diffusion_3", "StableDiffusion3Pipeline", "coarse"),
        ("pag.pipeline_pag_sd_3", "StableDiffusion3Pipeline", "coarse"),
        ("pag.pipeline_pag_sd_3_img2img", "StableDiffusion3PAGImg2ImgPipeline", "coarse"),
        (
            "controlnet_sd3.pipeline_stable_diffusion_3_controlnet",
            "StableDiffusion3ControlNetPipeline",
            "coarse",
        ),
        ("animatediff.pipeline_animatediff_sdxl", "AnimateDiffSDXLPipeline", "coarse"),
        ("flux.pipeline_flux_kontext", "FluxKontextPipeline", "coarse"),
        ("qwenimage.pipeline_qwenimage_edit", "QwenImageEditPipeline", "coarse"),
        ("qwenimage.pipeline_qwenimage_edit_plus", "QwenImageEditPlusPipeline", "coarse"),
        ("qwenimage.pipeline_qwenimage_edit_inpaint", "QwenImageEditInpaintPipeline", "coarse"),
        ("krea2.pipeline_krea2", "Krea2Pipeline", "coarse"),
        ("longcat_image.pipeline_longcat_image", "LongCatImagePipeline", "coarse"),
        ("sana_video.pipeline_sana_video", "SanaVideoPipeline", "coarse"),
        ("sana_video.pipeline_sana_video_i2v", "SanaImageToVideoPipeline", "coarse"),
        ("bria_fibo2.pipeline_bria_fibo2", "BriaFibo2Pipeline", "coarse"),
        ("kandinsky5.pipeline_kandinsky", "Kandinsky5T2VPipeline", "coarse"),
        ("hunyuan_image.pipeline_hunyuanimage", "HunyuanImagePipeline", "coarse"),
        ("kandinsky5.pipeline_kandinsky_i2v", "Kandinsky5I2VPipeline", "coarse"),
        ("kandinsky6.pipeline_kandinsky6_ti2va", "Kandinsky6TI2VAPipeline", "coarse"),
        # their VAE tiled (tiles in pixels) and their DiT passed from a load of its own
        ("hunyuan_video.pipeline_hunyuan_video", "HunyuanVideoPipeline", "coarse"),
        (
            "hunyuan_video.pipeline_hunyuan_video_framepack",
            "HunyuanVideoFramepackPipeline",
            "coarse",
        ),
        # its first call (text-to-video) gets it; the second is another class
        (
            "deprecated.text_to_video_synthesis.pipeline_text_to_video_synth_img2img",
            "TextToVideoSDPipeline",
            "coarse",
        ),
        (
            "deprecated.text_to_video_synthesis.pipeline_text_to_video_synth_img2img",
            "VideoToVideoSDPipeline",
            None,
        ),
        ("easyanimate.pipeline_easyanimate_inpaint", "EasyAnimateInpaintPipeline", "coarse"),
        ("easyanimate.pipeline_easyanimate", "EasyAnimatePipeline", "coarse"),
        # their VAE is loaded from the pipeline's own repo and passed as `vae=`
        ("helios.pipeline_helios", "HeliosPipeline", "coarse"),
        ("wan.pipeline_wan", "WanPipeline", "coarse"),
        ("wan.pipeline_wan_i2v", "WanImageToVideoPipeline", "coarse"),
        ("skyreels_v2.pipeline_skyreels_v2", "SkyReelsV2Pipeline", "coarse"),
        (
            "skyreels_v2.pipeline_skyreels_v2_diffusion_forcing",
            "SkyReelsV2DiffusionForcingPipeline",
            "coarse",
        ),
        # its second example's reference image is a URL with no image suffix, which the
        # runner does not serve as its picture: the whole docstring keeps 8x
        ("flux.pipeline_flux_kontext_inpaint", "FluxKontextInpaintPipeline", None),
        # no sizes: the tiny default (64 px) is already cheap, and a 2x2 grid at 32x
        ("stable_diffusion_xl.pipeline_stable_diffusion_xl", "StableDiffusionXLPipeline", None),
    ],
)
def test_diffusers_own_docstrings_get_the_stand_in_their_sizes_allow(
    module, pipeline_class, variant
):
    example = docstring_example(module)
    assert coarsen.variant_for(pipeline_class, [(example, True)]) == variant


def first_fence(module: str) -> str:
    """The first fenced block of a docstring: what the yardstick runs as the example."""
    import re

    found = re.search(r"```py\n(.*?)```", docstring_example(module), re.S)
    assert found is not None
    return found.group(1)


def test_the_report_says_why_an_area_sized_examples_sizes_stay():
    line = coarsen.substitution("FluxKontextPipeline")
    assert "passes no size and only the runner's square pictures" in line
    assert "1024 x 1024" in line and "every height and width" not in line


def test_kontext_inpaints_first_example_gets_the_coarse_stand_in():
    example = first_fence("flux.pipeline_flux_kontext_inpaint")
    assert coarsen.variant_for("FluxKontextInpaintPipeline", [(example, True)]) == "coarse"
    # a URL the project maps to its own file has a size the text does not show
    patterns = ["https://github.com/ZenAI-Vietnam/*"]
    assert coarsen.variant_for("FluxKontextInpaintPipeline", [(example, True)], patterns) is None


def vae_factor(vae_config) -> int:
    """The factor each pipeline reads: AutoencoderKL's levels, or the Qwen-Image (Wan)
    VAE's temporal flags, one a downsampling (2 ** len(vae.temperal_downsample))."""
    if "temperal_downsample" in vae_config:
        return 2 ** len(vae_config["temperal_downsample"])
    return factor(vae_config)


VAE_ONLY = sorted(
    name
    for name, coarser in coarse.PIPELINES.items()
    # not those that also change the denoiser's sample_size or patches, or the scheduler
    if "VAE" in coarser.change
    and " and " not in coarser.change
    and "sample_size" not in coarser.change
    and "patches" not in coarser.change  # HunyuanImage's: its own test
)


@pytest.mark.parametrize("pipeline_class", VAE_ONLY)
def test_the_vae_only_coarse_plans_keep_the_denoiser_and_the_vaes_latents(pipeline_class):
    real, coarser = generic.plan(pipeline_class), generic.plan(pipeline_class, hub_variant="coarse")
    real_vae, coarse_vae = slot(real, "vae").config, slot(coarser, "vae").config
    expected = (coarse.REAL_FACTOR, coarse.PIPELINES[pipeline_class].factor)
    assert (vae_factor(real_vae), vae_factor(coarse_vae)) == expected
    kept = ("latent_channels", "z_dim", "shift_factor", "scaling_factor", "latents_mean")
    assert {k: real_vae.get(k) for k in kept} == {k: coarse_vae.get(k) for k in kept}
    # everything but the VAE is the 8x stand-in's: the denoisers (Ideogram 4 has two),
    # and the schedulers (no dynamic shift: the token count does not reach the timesteps)
    assert [s for s in coarser.slots if s.name != "vae"] == [
        s for s in real.slots if s.name != "vae"
    ]
    assert "use_dynamic_shifting" not in slot(coarser, "scheduler").config


KONTEXT = """pipe = FluxKontextPipeline.from_pretrained("black-forest-labs/FLUX.1-Kontext-dev")
url = "https://example.org/pikachu.png"
image = load_image(url).convert("RGB")
out = pipe({}).images[0]
"""


def test_a_kontext_call_with_its_defaults_and_the_runners_picture_gets_the_coarse_one():
    for arguments in ('image=image, prompt="a sign"', 'image, prompt="a sign"', 'image, "a"'):
        code = KONTEXT.format(arguments)
        assert coarsen.variant_for("FluxKontextPipeline", [(code, False)]) == "coarse"
    # the inpaint pipeline's second parameter is its reference image, not the prompt
    inpaint = KONTEXT.replace("FluxKontextPipeline", "FluxKontextInpaintPipeline")
    code = inpaint.format('image, other, prompt="a sign"')
    assert coarsen.variant_for("FluxKontextInpaintPipeline", [(code, False)]) is None
    code = inpaint.format('image, image, prompt="a sign"')
    assert coarsen.variant_for("FluxKontextInpaintPipeline", [(code, False)]) == "coarse"


@pytest.mark.parametrize(
    "arguments",
    [
        # any size or area passed: the output is max_area at their aspect, rounded
        # down to 64 instead of 16 (512x768 would be 1216x832, not 1248x832)
        'image=image, prompt="a sign", height=1024, width=1024',
        'image=image, prompt="a sign", max_area=512**2',
        'image=image, prompt="a sign", _auto_resize=False',
        'image=image, prompt="a sign", **options',
        'image=image.resize((900, 512)), prompt="a sign"',  # not a name: its size unknown
        'image=other, prompt="a sign"',  # never loaded here
        'image=image, image_reference=ref, prompt="a sign"',
        'image, "a sign", "a second prompt"',  # prompt_2 positionally: three arguments
        'other, "a sign"',  # its image positionally, never loaded here
        'image=image, prompt="a"\nsame = pipe\nsame(other, "b")',  # another name
        'image=image, prompt="a"\nsame = pipe.__call__(image=other, prompt="b")',
    ],
)
def test_a_kontext_call_that_sets_a_size_or_brings_its_own_image_keeps_8x(arguments):
    code = KONTEXT.format(arguments)
    assert coarsen.variant_for("FluxKontextPipeline", [(code, False)]) is None


@pytest.mark.parametrize(
    "binding",
    [
        'image = load_image("input.png")',  # a local file: any size
        'image = load_image("https://example.org/clip.mp4")',  # a video URL
        'image = load_image("https://example.org/photo?id=3")',  # no image suffix
        "image = image.crop((0, 0, 300, 200))",  # rebound before the call
        "for image in [load_image(url)]:\n    pass",  # bound by a loop
        'if True:\n    image = load_image("a.png")\n    out = pipe(image=image, prompt="a")',
    ],
)
def test_a_kontext_image_the_runner_does_not_make_square_keeps_8x(binding):
    head, call = KONTEXT.format('image=image, prompt="a sign"').rsplit("out = ", 1)
    code = f"{head}{binding}\nout = {call}"
    assert coarsen.variant_for("FluxKontextPipeline", [(code, False)]) is None


def test_longcat_needs_both_sizes():
    script = 'pipe = LongCatImagePipeline.from_pretrained("meituan-longcat/LongCat-Image")\n'
    for call, variant in (
        ('pipe("a cat", height=768, width=1344)', "coarse"),
        ('pipe("a cat")', None),  # Flux's default, 128 x the factor: 4096 px at 32x
        ('pipe("a cat", height=720, width=1280)', None),  # 720 = 11.25 x 64
    ):
        assert coarsen.variant_for("LongCatImagePipeline", [(script + call, False)]) == variant


def test_sana_videos_coarse_wan_vae_is_the_8x_one_with_a_fifth_spatial_level():
    """The 8x stand-in's Wan VAE (the shared table's) with one more spatial-only halving,
    stating the factor SANA-Video reads; its sizes must divide by 16 x the 2x2 patch.
    Narrower, and one residual block a decoder level (none in the encoder's): its
    full-resolution decode is what the examples on it pay."""
    eight_x = tiny_table.RECIPES["AutoencoderKLWan"].config
    assert coarse.WAN_VAE_8X == eight_x
    coarse_vae = slot(generic.plan("SanaVideoPipeline", hub_variant="coarse"), "vae").config
    assert coarse_vae["dim_mult"] == [1] * 5
    assert (coarse_vae["base_dim"], coarse_vae["num_res_blocks"]) == (2, 0)
    assert eight_x["num_res_blocks"] == 1
    assert coarse_vae["temperal_downsample"] == [False, True, True, False]  # 4x in time
    assert coarse_vae["scale_factor_spatial"] == 16 == 2 ** len(coarse_vae["temperal_downsample"])
    assert coarse.PIPELINES["SanaVideoPipeline"].multiple == 32
    assert coarsen.variant_for("SanaVideoPipeline", [(SANA_SCRIPT.format(480, 832), False)])
    assert coarsen.variant_for("SanaVideoPipeline", [(SANA_SCRIPT.format(480, 840), False)]) is None


SANA_SCRIPT = (
    'pipe = SanaVideoPipeline.from_pretrained("Efficient-Large-Model/SANA-Video_2B_480p_diffusers")'
    "\nvideo = pipe(prompt='a cat', height={}, width={}, frames=81).frames[0]\n"
)


def test_bria_fibo2s_coarse_plan_changes_only_its_transformers_patch():
    """Its pipeline keeps unpacked 8x latents and the transformer patchifies them by its
    own patch_size: 8x8 patches make 256 tokens of a 1024 px image, not 4,096. The VAE,
    text encoder and scheduler (no dynamic shift: the token count does not reach the
    timesteps) are the 8x stand-in's, and so is every module name (the layout test)."""
    real, coarser = (
        generic.plan("BriaFibo2Pipeline"),
        generic.plan("BriaFibo2Pipeline", hub_variant="coarse"),
    )
    assert [s for s in coarser.slots if s.name != "transformer"] == [
        s for s in real.slots if s.name != "transformer"
    ]
    real_dit, coarse_dit = slot(real, "transformer").config, slot(coarser, "transformer").config
    assert (real_dit["patch_size"], coarse_dit["patch_size"]) == (2, 8)
    assert {k: v for k, v in coarse_dit.items() if k != "patch_size"} == {
        k: v for k, v in real_dit.items() if k != "patch_size"
    }
    assert not slot(coarser, "scheduler").config.get("use_dynamic_shifting")
    tokens = [
        (1024 // coarse.REAL_FACTOR // dit["patch_size"]) ** 2 for dit in (real_dit, coarse_dit)
    ]
    assert tokens == [4096, 256]
    assert coarse.PIPELINES["BriaFibo2Pipeline"].multiple == 64


def test_hunyuanimages_coarse_plan_changes_its_patch_heads_and_the_vaes_resnets_only():
    """Its pipeline sizes latents by the VAE's factor (32 at both) and defaults to 64 x
    that factor: 2x2 patches make 1,024 tokens of its 2048 px default, not 4,096; one
    head of the same width (RoPE's axes filling it); the VAE decodes with one resnet a
    level. Every other slot is the real-factor stand-in's."""
    real = generic.plan("HunyuanImagePipeline")
    coarser = generic.plan("HunyuanImagePipeline", hub_variant="coarse")
    changed = {"transformer", "vae"}
    assert [s for s in coarser.slots if s.name not in changed] == [
        s for s in real.slots if s.name not in changed
    ]
    for name, values in (
        (
            "transformer",
            {
                "patch_size": ((1, 1), (2, 2)),
                "num_attention_heads": (4, 1),
                "attention_head_dim": (8, 32),
                "rope_axes_dim": ((4, 4), (16, 16)),
            },
        ),
        ("vae", {"layers_per_block": (1, 0)}),
    ):
        before, after = slot(real, name).config, slot(coarser, name).config
        assert {key: (tuple_of(before[key]), tuple_of(after[key])) for key in values} == values
        assert {k: v for k, v in after.items() if k not in values} == {
            k: v for k, v in before.items() if k not in values
        }
    dit = slot(coarser, "transformer").config
    assert dit["num_attention_heads"] * dit["attention_head_dim"] == 32  # the same width
    assert sum(dit["rope_axes_dim"]) == dit["attention_head_dim"]
    assert slot(coarser, "vae").config["spatial_compression_ratio"] == 32
    assert coarse.PIPELINES["HunyuanImagePipeline"].multiple == 64


def tuple_of(value):
    return tuple(value) if isinstance(value, list | tuple) else value


BRIA = """pipe = BriaFibo2Pipeline.from_pretrained("briaai/Fibo-2.0-dev")
image = load_image("https://example.org/bike.png")
out = pipe({}).images[0]
"""


@pytest.mark.parametrize(
    ("arguments", "variant"),
    [
        ('"a bike"', "coarse"),
        ('"a snowy forest", image=image', "coarse"),
        ('"a snowy forest", image', "coarse"),
        ('"a bike", height=1024, width=1024', None),  # sizes: the area rule takes none
        ('"a bike", image=load_image("local.png")', None),  # a size the text does not show
    ],
)
def test_bria_fibo2_gets_coarser_patches_only_where_its_images_stay_square(arguments, variant):
    code = BRIA.format(arguments)
    assert coarsen.variant_for("BriaFibo2Pipeline", [(code, False)]) == variant


EASYANIMATE_INPAINT = """
sample_size = (448, 576)
num_frames = 49
video, mask = get_image_to_video_latent([image], None, num_frames, sample_size)
out = pipe(prompt, num_frames=num_frames, height=sample_size[0], width=sample_size[1],
           video=video, mask_video=mask)
"""


@pytest.mark.parametrize(
    ("change", "variant"),
    [
        ((), "coarse"),
        ((("(448, 576)", "(448, 560)"),), None),  # 560 does not divide by 32
        ((("sample_size[0]", "sample_size[2]"),), None),  # no such part
        ((("num_frames = 49", "num_frames = 49\nsample_size = (512, 512)"),), None),  # bound twice
        ((("[image], None, num_frames, sample_size", "[image], None, 49, (448, 560)"),), None),
        ((("get_image_to_video_latent", "my_helper"),), None),  # a helper it does not know
    ],
)
def test_easyanimate_inpaint_reads_sizes_bound_once_and_its_helpers_size(change, variant):
    code = EASYANIMATE_INPAINT
    for old, new in change:
        code = code.replace(old, new)
    assert coarsen.variant_for("EasyAnimateInpaintPipeline", [(code, False)]) == variant


def test_only_a_variant_that_says_so_reads_named_sizes():
    """AuraFlow's rule stays literal sizes: a size bound to a name keeps its 8x stand-in."""
    code = "size = (1024, 1024)\npipe(prompt, height=size[0], width=size[1])\n"
    assert coarsen.variant_for("AuraFlowPipeline", [(code, False)]) is None
    assert coarsen.variant_for("EasyAnimateInpaintPipeline", [(code, False)]) == "coarse"


WAN_VAE_SCRIPT = (
    "model_id = 'Wan-AI/Wan2.1-T2V-14B-Diffusers'\n"
    "vae = AutoencoderKLWan.from_pretrained({vae_args})\n"
    "pipe = WanPipeline.from_pretrained(model_id, vae=vae)\n"
    "video = pipe(prompt='a cat', height={height}, width=1280, num_frames=81).frames[0]\n"
)


@pytest.mark.parametrize(
    ("vae_args", "height", "variant"),
    [
        ("model_id, subfolder='vae', torch_dtype=torch.float32", 720, "coarse"),
        # another repo's VAE: the real factor, not the coarse checkpoint's
        ("'Wan-AI/Wan2.1-T2V-1.3B-Diffusers', subfolder='vae'", 720, None),
        ("model_id", 720, None),  # no subfolder: not the pipeline's own VAE
        ("model_id, subfolder='vae'", 480, None),  # 480 = 6 x 80, but 1280 too: see below
        ("model_id, subfolder='vae'", 760, None),  # 760 does not divide by 80
    ],
)
def test_wan_gets_the_coarse_stand_in_only_with_its_own_vae_and_sizes_of_80(
    vae_args, height, variant
):
    script = WAN_VAE_SCRIPT.format(vae_args=vae_args, height=height)
    if height == 480:  # both divide: still coarse; the 16 x 5 multiple is what counts
        variant = "coarse"
    assert coarsen.variant_for("WanPipeline", [(script, False)]) == variant


def test_a_vae_bound_twice_or_set_on_the_pipe_keeps_the_real_factor():
    own = WAN_VAE_SCRIPT.format(vae_args="model_id, subfolder='vae'", height=720)
    rebound = own.replace("pipe = ", "vae = vae.to('cpu')\npipe = ", 1)
    assigned = own + "pipe.vae = vae\n"
    for script in (rebound, assigned):
        assert coarsen.variant_for("WanPipeline", [(script, False)]) is None


def test_wan_needs_both_sizes_its_default_does_not_divide_by_80():
    script = "pipe = WanPipeline.from_pretrained('Wan-AI/Wan2.1-T2V-14B-Diffusers')\n"
    assert coarsen.variant_for("WanPipeline", [(script + "pipe(prompt='a cat')", False)]) is None
    sized = script + "pipe(prompt='a cat', height=720, width=1280)"
    assert coarsen.variant_for("WanPipeline", [(sized, False)]) == "coarse"


def test_wans_coarse_plan_is_a_16x_vae_and_5x5_patches_of_the_same_dit():
    plan = generic.plan("WanPipeline", hub_variant="coarse")
    eight_x = slot(generic.plan("WanPipeline"), "transformer").config
    dit = slot(plan, "transformer").config
    assert {k: v for k, v in dit.items() if k != "patch_size"} == {
        k: v for k, v in eight_x.items() if k != "patch_size"
    }
    assert tuple(dit["patch_size"]) == (1, 5, 5)
    vae = slot(plan, "vae").config
    assert vae["scale_factor_spatial"] == 16 == 2 ** len(vae["temperal_downsample"])
    # 720x1280: 45x80 latent positions at 16x, 9x16 patches a latent frame (45x80 at 8x, 2x2)
    assert (720 // 16 // 5) * (1280 // 16 // 5) * 25 == (720 // 8 // 2) * (1280 // 8 // 2)


def test_helios_coarse_plan_keeps_its_schedule_shift():
    """HeliosPipeline shifts its timesteps by calculate_shift(tokens, the scheduler's
    base_image_seq_len and max_image_seq_len): the same mu at 16x fewer tokens."""
    from diffusers.pipelines.helios.pipeline_helios import calculate_shift

    plan = generic.plan("HeliosPipeline", hub_variant="coarse")
    vae = slot(plan, "vae").config
    assert vae["scale_factor_spatial"] == 32 == 2 ** len(vae["temperal_downsample"])
    assert vae["temperal_downsample"][:3] == [False, True, True]  # 4x in time: its chunks
    scheduler = slot(plan, "scheduler").config
    eight_x = slot(generic.plan("HeliosPipeline"), "scheduler").config
    assert {k: v for k, v in scheduler.items() if "seq_len" not in k} == eight_x

    def tokens(factor: int) -> int:  # the docstring's 384x640, 9 latent frames a chunk
        return 9 * (384 // factor) * (640 // factor) // 4

    real = calculate_shift(tokens(8), 256, 4096)
    coarser = calculate_shift(
        tokens(32), scheduler["base_image_seq_len"], scheduler["max_image_seq_len"]
    )
    assert coarser == pytest.approx(real, abs=1e-12)


I2V_SCRIPT = (
    "model_id = 'Wan-AI/Wan2.1-I2V-14B-480P-Diffusers'\n"
    "pipe = WanImageToVideoPipeline.from_pretrained(model_id)\n"
    "mod_value = pipe.vae_scale_factor_spatial * pipe.transformer.config.patch_size[1]\n"
    "video = pipe(image=image, prompt='a cat', height=height, width=width{frames}).frames[0]\n"
)


@pytest.mark.parametrize(
    ("frames", "variant"),
    [
        ("", "coarse"),  # the default, 81 frames: 21 latent frames
        (", num_frames=81", "coarse"),
        (", num_frames=25", "coarse"),  # 7 latent frames
        (", num_frames=49", None),  # 13 latent frames: not 7's multiple
        (", num_frames=n", None),  # not a literal
        (", latents=noise", None),  # the example's own latent grid
    ],
)
def test_wan_i2v_gets_7_frame_patches_where_its_frames_fill_them(frames, variant):
    """Its sizes come from the image and the real grid (factor 8 x patch 2, both kept),
    so only num_frames decides."""
    script = I2V_SCRIPT.format(frames=frames)
    assert coarsen.variant_for("WanImageToVideoPipeline", [(script, False)]) == variant
    if variant:
        assert "every num_frames" in coarsen.substitution("WanImageToVideoPipeline")


def test_wan_i2vs_coarse_plan_keeps_factor_times_patch_and_groups_7_latent_frames():
    real = generic.plan("WanImageToVideoPipeline")
    coarser = generic.plan("WanImageToVideoPipeline", hub_variant="coarse")
    assert [s for s in coarser.slots if s.name not in ("transformer", "vae")] == [
        s for s in real.slots if s.name not in ("transformer", "vae")
    ]
    dit, eight_x = slot(coarser, "transformer").config, slot(real, "transformer").config
    assert tuple(dit["patch_size"]) == (7, 1, 1)
    # what its example and pipeline round sizes to: vae_scale_factor_spatial x the patch
    coarse_factor = slot(coarser, "vae").config["scale_factor_spatial"]
    assert coarse_factor * dit["patch_size"][1] == 8 * eight_x["patch_size"][1] == 16
    assert {k: v for k, v in dit.items() if k != "patch_size"} == {
        k: v for k, v in eight_x.items() if k != "patch_size"
    }


SKYREELS_SCRIPT = (
    "pipe = SkyReelsV2Pipeline.from_pretrained('Skywork/SkyReels-V2-T2V-14B-540P-Diffusers')\n"
    "video = pipe(prompt='a cat'{arguments}).frames[0]\n"
)


@pytest.mark.parametrize(
    ("arguments", "variant"),
    [
        ("", "coarse"),  # its defaults: 544x960, 97 frames (25 latent frames)
        (", height=544, width=960, num_frames=97", "coarse"),
        (", num_frames=81", None),  # 21 latent frames: not 5's multiple
        (", height=720, width=1280", None),  # 720 does not divide by 32
    ],
)
def test_skyreels_needs_sizes_of_32_and_frames_filling_5_frame_patches(arguments, variant):
    script = SKYREELS_SCRIPT.format(arguments=arguments)
    assert coarsen.variant_for("SkyReelsV2Pipeline", [(script, False)]) == variant


@pytest.mark.parametrize(
    ("code", "loads"),
    [
        # the class the repo holds, named: the VAE loaded alone takes its stand-in
        (
            "vae = AutoencoderKLWan.from_pretrained(m, subfolder='vae')\n"
            "pipe = HeliosPipeline.from_pretrained(m, vae=vae)",
            True,
        ),
        # another pipeline class of that repo: its VAE stays at the real factor
        (
            "vae = AutoencoderKLWan.from_pretrained(m, subfolder='vae')\n"
            "pipe = HeliosPyramidPipeline.from_pretrained(m, vae=vae)",
            False,
        ),
        # a generic loader builds the repo's own class
        ("pipe = DiffusionPipeline.from_pretrained(m, vae=vae)", True),
    ],
)
def test_a_component_takes_the_coarse_stand_in_only_with_its_pipeline_class(code, loads):
    """Helios' pyramid and Wan's video-to-video examples load the VAE from the repo of
    HeliosPipeline / WanPipeline: a coarse VAE beside an 8x pipeline broke them."""
    assert coarsen.loads_as("HeliosPipeline", [(code, False)]) is loads


FRAMEPACK_SCRIPT = """
transformer = HunyuanVideoFramepackTransformer3DModel.from_pretrained("lllyasviel/FramePackI2V_HY")
pipe = HunyuanVideoFramepackPipeline.from_pretrained(
    "hunyuanvideo-community/HunyuanVideo", transformer=transformer{load}
)
pipe.vae.enable_tiling()
frames = pipe(image=image, prompt="a penguin"{call}, num_frames=91).frames[0]
"""


@pytest.mark.parametrize(
    ("load", "call", "variant"),
    [
        ("", ", height=832, width=480", "coarse"),  # its docstring's sizes
        ("", ", height=512, width=512", "coarse"),  # its second example's
        ("", "", None),  # its default 720x1280: 720 does not divide by 32
        ("", ", height=720, width=1280", None),
        (", vae=my_vae", ", height=832, width=480", None),  # a VAE of its own: 8x
    ],
)
def test_framepack_keeps_its_own_dit_and_needs_sizes_of_32(load, call, variant):
    """Only the VAE changes (16x): the DiT it loads alone is the same stand-in at either
    factor, a VAE it brings is not."""
    script = FRAMEPACK_SCRIPT.format(load=load, call=call)
    assert coarsen.variant_for("HunyuanVideoFramepackPipeline", [(script, False)]) == variant
    assert coarse.PIPELINES["HunyuanVideoFramepackPipeline"].multiple == 32
