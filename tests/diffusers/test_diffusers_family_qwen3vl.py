"""The Qwen3-VL families (recipes/qwen3vl.py): they plan with the classes their checkpoints
ship, build offline from a cold cache, and run their real `__call__`."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")
pytest.importorskip("torchvision")  # Qwen3VLProcessor's video processor, as the real one

from guidelint.runner.diffusers_backend import build, generic  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

BUILT = {
    "NucleusMoEImagePipeline": "NucleusMoEImageTransformer2DModel",
    "JoyImageEditPipeline": "JoyImageEditTransformer3DModel",
    "JoyImageEditPlusPipeline": "JoyImageEditPlusTransformer3DModel",
    "BriaFibo2Pipeline": "BriaFibo2Transformer2DModel",
    "DreamLitePipeline": "DreamLiteUNetModel",
    "DreamLiteMobilePipeline": "DreamLiteUNetModel",
    "QwenImage21Pipeline": "QwenImage21Transformer2DModel",
}


@pytest.mark.parametrize("pipeline_class", BUILT)
def test_each_plans_with_qwen3_vl_and_its_own_denoiser(pipeline_class):
    plan = generic.plan(pipeline_class)
    encoder = slot(plan, "text_encoder")
    assert encoder.class_name == "Qwen3VLForConditionalGeneration"
    assert slot(plan, "processor").class_name == "Qwen3VLProcessor"
    denoiser = next(s for s in plan.slots if s.name in ("transformer", "unet"))
    assert denoiser.class_name == BUILT[pipeline_class]


def test_qwen3_vl_keeps_the_layers_the_pipelines_read_and_the_processor_s_markers():
    from diffusers.pipelines.bria_fibo2 import pipeline_bria_fibo2

    from guidelint.runner.diffusers_backend import family_tokenizers

    config = slot(generic.plan("NucleusMoEImagePipeline"), "text_encoder").config
    read = [layer for bundle in pipeline_bria_fibo2.TEXT_ENCODER_OUT_LAYERS for layer in bundle]
    assert config["text_config"]["num_hidden_layers"] > max(read)  # FIBO 2 taps layer 35
    assert config["text_config"]["num_hidden_layers"] > 8  # NucleusMoE reads state -8
    ids = family_tokenizers.qwen_vision_ids()
    assert config["image_token_id"] == ids["qwen_image_pad"]
    assert config["vision_start_token_id"] == ids["qwen_vision_start"]


def test_widths_follow_the_text_encoder_and_the_vae():
    fibo = generic.plan("BriaFibo2Pipeline")
    width = slot(fibo, "text_encoder").config["text_config"]["hidden_size"]
    transformer = slot(fibo, "transformer").config
    assert transformer["cap_feat_dim"] == 3 * width  # each bundle: three layers side by side
    assert transformer["injection_layer_ids"] == (6, 14, 22, 30, 38)  # the real blocks
    qwen21 = generic.plan("QwenImage21Pipeline")
    vae = slot(qwen21, "vae").config
    assert len(vae["dim_mult"]) - 1 == 4  # four spatial halvings: the pipeline's fixed 16x
    assert slot(qwen21, "transformer").config["in_channels"] == vae["z_dim"]


def test_nucleus_moe_experts_take_the_real_share_of_tokens_and_are_seeded():
    import torch

    config = slot(generic.plan("NucleusMoEImagePipeline"), "transformer").config
    assert config["capacity_factors"] / config["num_experts"] == 8.0 / 128  # the real ratio
    model = generic.make(slot(generic.plan("NucleusMoEImagePipeline"), "transformer"), {})
    again = generic.make(slot(generic.plan("NucleusMoEImagePipeline"), "transformer"), {})
    experts = [n for n, _ in model.named_parameters() if n.endswith("experts.gate_up_proj")]
    assert experts  # one routed block
    for name, value in model.named_parameters():
        assert torch.isfinite(value).all(), name
        assert torch.equal(value, dict(again.named_parameters())[name]), name


def test_qwen_image_layered_reads_rgba_and_layer_embeddings():
    plan = generic.plan("QwenImageLayeredPipeline")
    vae, transformer = slot(plan, "vae").config, slot(plan, "transformer").config
    assert vae["input_channels"] == 4  # the example's .convert("RGBA")
    # the pipeline takes an input with as many channels as the latents for latents
    assert vae["z_dim"] != vae["input_channels"]
    assert transformer["use_layer3d_rope"] and transformer["use_additional_t_cond"]
    assert transformer["in_channels"] == 4 * vae["z_dim"]


@pytest.mark.slow  # builds Qwen-Image Layered and decomposes an RGBA image (some 40 s)
def test_qwen_image_layered_builds_and_decomposes_an_rgba_image(tiny_cache):
    from diffusers import QwenImageLayeredPipeline
    from PIL import Image

    pipe = QwenImageLayeredPipeline.from_pretrained(
        build.checkpoint_for("QwenImageLayeredPipeline", tiny_cache)
    )
    image = Image.new("RGBA", (64, 64), (120, 30, 200, 255))
    layers = pipe(image, "a cat", num_inference_steps=2, layers=2, resolution=640).images[0]
    assert len(layers) == 2 and all(layer.mode == "RGBA" for layer in layers)


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-qwen3vl")


@pytest.mark.slow  # builds each pipeline from a cold cache and runs it (some 10 s each)
@pytest.mark.parametrize("pipeline_class", BUILT)
def test_each_builds_offline_and_runs_tiny(pipeline_class, tiny_cache, monkeypatch):
    import numpy as np

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    folder = build.checkpoint_for(pipeline_class, tiny_cache)
    extra: dict = {"output_type": "np"}
    if pipeline_class == "JoyImageEditPlusPipeline":
        from PIL import Image

        extra["images"] = [Image.new("RGB", (64, 64), (120, 30, 200))] * 2
    if pipeline_class == "QwenImage21Pipeline":
        extra["image"] = None  # text-to-image, as its example (its edit path is not checked)
    pipe, output = run_tiny(pipeline_class, folder, **extra)
    assert type(pipe).__name__ == pipeline_class
    images = np.asarray(output.images)
    if "Edit" not in pipeline_class:  # the edit pipelines size the output by the image
        assert images.shape[-3:-1] == (64, 64)
    assert not np.isnan(images).any()
