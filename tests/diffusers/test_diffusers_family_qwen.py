"""The Qwen-VL families of recipes/qwen.py: Qwen-Image with its ControlNets and edit
pipelines, HunyuanImage, VisualCloze (Flux Fill), and the Qwen2-VL processors: planned,
built, run."""

from __future__ import annotations

import importlib.util

import pytest

pytest.importorskip("diffusers")

from guidelint.runner import verdict  # noqa: E402
from guidelint.runner.diffusers_backend import build, family_tokenizers, generic  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny  # noqa: E402

BUILDABLE = [
    "QwenImageControlNetPipeline",
    "QwenImageControlNetInpaintPipeline",
    "QwenImageEditPipeline",
    "QwenImageEditPlusPipeline",
    "QwenImageEditInpaintPipeline",
    "QwenImageLayeredPipeline",
    "VisualClozePipeline",
    "VisualClozeGenerationPipeline",
    "Kandinsky5T2IPipeline",
    "Kandinsky5I2IPipeline",
    "LongCatImagePipeline",
    "LongCatImageEditPipeline",
]
HAS_TORCHVISION = importlib.util.find_spec("torchvision") is not None


# its guiders (AdaptiveProjectedMixGuidance) are built by generic.py's guider support
NEEDS_GUIDERS = ["HunyuanImagePipeline"]
GUIDERS_BUILT = hasattr(generic, "is_diffusers_guider")


@pytest.mark.parametrize("pipeline_class", BUILDABLE)
def test_each_qwen_pipeline_plans(pipeline_class):
    assert build.buildable(pipeline_class), pipeline_class


@pytest.mark.skipif(not GUIDERS_BUILT, reason="this branch builds no guiders yet")
@pytest.mark.parametrize("pipeline_class", NEEDS_GUIDERS)
def test_each_guided_qwen_pipeline_plans(pipeline_class):
    assert build.buildable(pipeline_class), pipeline_class
    text_encoder_2 = slot(pipeline_class, "text_encoder_2")
    assert text_encoder_2.recipe_key == "T5EncoderModel/byt5"  # ByT5 reads bytes
    transformer = slot(pipeline_class, "transformer").config
    assert transformer["text_embed_2_dim"] == text_encoder_2.config["d_model"]


def slot(pipeline_class, name):
    return next(s for s in generic.plan(pipeline_class).slots if s.name == name)


def test_a_controlnet_repeats_its_transformer_widths():
    """Each ControlNet block output is added to a transformer block: same widths."""
    for pipeline_class in ("QwenImageControlNetPipeline", "QwenImageControlNetInpaintPipeline"):
        transformer = slot(pipeline_class, "transformer").config
        controlnet = slot(pipeline_class, "controlnet").config
        for key in ("in_channels", "num_attention_heads", "attention_head_dim"):
            assert controlnet[key] == transformer[key], (pipeline_class, key)
        assert (
            controlnet["joint_attention_dim"]
            == slot(pipeline_class, "text_encoder").config["hidden_size"]
        )
    assert (
        slot("QwenImageControlNetPipeline", "controlnet").config.get("extra_condition_channels", 0)
        == 0
    )
    # the inpainting one also reads the mask: one latent channel more, packed 2x2
    assert (
        slot("QwenImageControlNetInpaintPipeline", "controlnet").config["extra_condition_channels"]
        == 4
    )


def test_visualcloze_is_built_as_flux_fill():
    latent = slot("VisualClozePipeline", "vae").config["latent_channels"]
    transformer = slot("VisualClozePipeline", "transformer").config
    assert transformer["in_channels"] == 8 * latent + 4 * 64  # noise, masked image, 8x8 mask
    assert slot("VisualClozePipeline", "vae").config["shift_factor"] != 0


def test_kandinsky5_reads_both_encoders_and_conditions_on_the_source_image():
    transformer = slot("Kandinsky5T2IPipeline", "transformer").config
    assert (
        transformer["in_text_dim"]
        == slot("Kandinsky5T2IPipeline", "text_encoder").config["hidden_size"]
    )
    assert (
        transformer["in_text_dim2"]
        == slot("Kandinsky5T2IPipeline", "text_encoder_2").config["hidden_size"]
    )
    assert not transformer["visual_cond"]
    assert slot("Kandinsky5I2IPipeline", "transformer").config["visual_cond"]


def test_longcat_has_the_16_latent_channels_it_asks_for():
    """LongCat's pipeline fixes 16 latent channels (FLUX.1's VAE), packed 2x2."""
    vae = slot("LongCatImagePipeline", "vae").config
    assert vae["latent_channels"] == 16
    assert slot("LongCatImagePipeline", "transformer").config["in_channels"] == 4 * 16


def test_the_vision_markers_are_tokens_the_encoder_knows():
    """The processor writes <|image_pad|> once per merged patch; Qwen2.5-VL finds the
    image's tokens by the ids its config names, which must be the tokenizer's."""
    encoder = slot("QwenImageEditPipeline", "text_encoder").config
    qwen = family_tokenizers.build_qwen2_tokenizer()
    for token, key in [
        ("<|image_pad|>", "image_token_id"),
        ("<|video_pad|>", "video_token_id"),
        ("<|vision_start|>", "vision_start_token_id"),
        ("<|vision_end|>", "vision_end_token_id"),
    ]:
        assert qwen.convert_tokens_to_ids(token) == encoder[key] < encoder["vocab_size"]
        assert qwen.tokenize(f"a{token}b") == ["a", token, "b"]  # one token, not bytes


def test_the_qwen2_vl_processor_needs_torchvision_like_the_real_one(tmp_path):
    """Without torchvision transformers cannot build (nor load) the video processor every
    Qwen2-VL processor holds: its own ImportError, a missing dependency to the runner."""
    if not HAS_TORCHVISION:
        with pytest.raises(ImportError) as caught:
            family_tokenizers.build_qwen2_vl_processor()
        assert verdict.missing_package(caught.value) == "Torchvision"
        assert "pip install torchvision" in verdict.install_hint("Torchvision")
        return
    from PIL import Image
    from transformers import Qwen2VLProcessor

    family_tokenizers.build_qwen2_vl_processor().save_pretrained(tmp_path)
    processor = Qwen2VLProcessor.from_pretrained(tmp_path)
    text = "<|vision_start|><|image_pad|><|vision_end|>make it red"
    inputs = processor(text=[text], images=[Image.new("RGB", (1024, 768))], return_tensors="pt")
    merged = int(inputs["image_grid_thw"].prod()) // 4
    assert (inputs["input_ids"] == processor.image_token_id).sum() == merged <= 16


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-qwen")


@pytest.mark.slow
def test_the_qwen_image_controlnets_build_load_and_run(tiny_cache):
    import diffusers
    from PIL import Image

    folder = build.checkpoint_for("QwenImageControlNetPipeline", tiny_cache)
    pipe, output = run_tiny("QwenImageControlNetPipeline", folder)
    assert type(pipe.controlnet).__name__ == "QwenImageControlNetModel"
    assert output.images.shape[0] == 1

    folder = build.checkpoint_for("QwenImageControlNetInpaintPipeline", tiny_cache)
    pipe = diffusers.QwenImageControlNetInpaintPipeline.from_pretrained(folder)
    pipe.set_progress_bar_config(disable=True)
    output = pipe(
        prompt="a green taxi on the road",
        control_image=Image.new("RGB", (64, 64), (120, 30, 200)),
        control_mask=Image.new("L", (64, 64), 255),
        height=64,
        width=64,
        num_inference_steps=2,
        output_type="pt",
    )
    assert output.images.shape[-2:] == (64, 64)


@pytest.mark.slow
@pytest.mark.skipif(not GUIDERS_BUILT, reason="this branch builds no guiders yet")
def test_hunyuan_image_builds_loads_and_runs(tiny_cache):
    folder = build.checkpoint_for("HunyuanImagePipeline", tiny_cache)
    pipe, output = run_tiny("HunyuanImagePipeline", folder)
    assert type(pipe.guider).__name__ == "AdaptiveProjectedMixGuidance"
    assert pipe.vae_scale_factor == 32  # as the real VAE: the default size stays 2048 px
    assert output.images.shape[0] == 1
