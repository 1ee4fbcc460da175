"""The later image families of recipes/image_more.py: Flux Redux, CogView 3 Plus and 4
Control, the HunyuanImage refiner, OmniGen, HiDream, Ovis-Image, Z-Image Omni and Marigold: planned,
built, run."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, generic, loading  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

BUILDABLE = [
    "FluxPriorReduxPipeline",
    "CogView3PlusPipeline",
    "CogView4ControlPipeline",
    "HunyuanImageRefinerPipeline",
    "OmniGenPipeline",
    "HiDreamImagePipeline",
    "OvisImagePipeline",
    "ZImageOmniPipeline",
    "MarigoldDepthPipeline",
    "MarigoldNormalsPipeline",
    "MarigoldIntrinsicsPipeline",
]


@pytest.mark.parametrize("pipeline_class", BUILDABLE)
def test_each_image_more_pipeline_plans(pipeline_class):
    assert build.buildable(pipeline_class), pipeline_class


def test_flux_redux_ships_no_text_encoders_and_embeds_at_flux1s_t5_width():
    the_plan = generic.plan("FluxPriorReduxPipeline")
    assert set(the_plan.nones) == {"text_encoder", "tokenizer", "text_encoder_2", "tokenizer_2"}
    embedder = slot(the_plan, "image_embedder").config
    assert embedder["redux_dim"] == slot(the_plan, "image_encoder").config["hidden_size"]
    assert embedder["txt_in_features"] == 4096  # the zeros the prior puts beside it are 4096 wide


@pytest.mark.slow
def test_flux_redux_feeds_flux1_dev_as_its_example_does(tmp_path):
    """The prior's output (4096- and 768-wide, hard-coded widths) is read by the 'dev'
    FluxPipeline loaded without its text encoders, as the example loads FLUX.1-dev."""
    import diffusers
    import torch
    from PIL import Image

    prior_folder = build.checkpoint_for("FluxPriorReduxPipeline", cache_override=tmp_path)
    dev_folder = build.checkpoint_for("FluxPipeline", cache_override=tmp_path, hub_variant="dev")
    prior = diffusers.FluxPriorReduxPipeline.from_pretrained(prior_folder)
    pipe = diffusers.FluxPipeline.from_pretrained(
        dev_folder, text_encoder=None, text_encoder_2=None
    )
    pipe.set_progress_bar_config(disable=True)
    prior_output = prior(Image.new("RGB", (96, 80), (120, 30, 200)))
    tokens = (32 // 4) ** 2  # the tiny SigLIP's patches, beside the 512 text positions
    assert prior_output.prompt_embeds.shape == (1, 512 + tokens, 4096)
    assert prior_output.pooled_prompt_embeds.shape == (1, 768)
    out = pipe(
        height=64,
        width=64,
        num_inference_steps=2,
        guidance_scale=2.5,
        generator=torch.Generator("cpu").manual_seed(0),
        output_type="pt",
        **prior_output,
    )
    assert out.images.shape == (1, 3, 64, 64)


def test_marigold_denoises_each_target_beside_the_image():
    """The UNet reads the image's latents and each target's; it predicts the targets."""
    for pipeline_class, targets in [
        ("MarigoldDepthPipeline", 1),
        ("MarigoldNormalsPipeline", 1),
        ("MarigoldIntrinsicsPipeline", 2),  # albedo, and the roughness/metallicity stack
    ]:
        the_plan = generic.plan(pipeline_class)
        latent = slot(the_plan, "vae").config["latent_channels"]
        unet = slot(the_plan, "unet").config
        assert unet["in_channels"] == latent * (1 + targets), pipeline_class
        assert unet.get("out_channels", latent) == latent * targets, pipeline_class
        assert slot(the_plan, "scheduler").config["prediction_type"] == "v_prediction"
    properties = generic.plan("MarigoldIntrinsicsPipeline").arguments["target_properties"]
    assert len(properties["target_names"]) == 2


def test_the_control_and_refiner_transformers_read_the_condition_latents_too():
    control = generic.plan("CogView4ControlPipeline")
    latent = slot(control, "vae").config["latent_channels"]
    assert slot(control, "transformer").config["in_channels"] == 2 * latent
    refiner = generic.plan("HunyuanImageRefinerPipeline")
    latent = slot(refiner, "vae").config["latent_channels"]
    transformer = slot(refiner, "transformer").config
    # two latent frames folded into channels; the noise beside the image to refine
    assert (transformer["in_channels"], transformer["out_channels"]) == (4 * latent, 2 * latent)


def test_hidream_reads_one_llama_layer_per_block():
    the_plan = generic.plan("HiDreamImagePipeline")
    transformer = slot(the_plan, "transformer").config
    llama = slot(the_plan, "text_encoder_4").config
    blocks = transformer["num_layers"] + transformer["num_single_layers"]
    assert len(transformer["llama_layers"]) == blocks
    assert max(transformer["llama_layers"]) < llama["num_hidden_layers"]
    assert transformer["caption_channels"] == [
        slot(the_plan, "text_encoder_3").config["d_model"],
        llama["hidden_size"],
    ]
    assert slot(the_plan, "text_encoder").config["max_position_embeddings"] == 248


def test_an_auto_tokenizer_of_a_known_repo_finds_its_subfolder(tmp_path):
    """AutoTokenizer.from_pretrained('meta-llama/...') loads the tokenizer the table names
    for that repo from HiDream's tiny checkpoint, not its language model."""
    index = {
        "tokenizer_4": ["transformers", "LlamaTokenizer"],
        "text_encoder_4": ["transformers", "LlamaForCausalLM"],
    }
    (tmp_path / "model_index.json").write_text(json.dumps(index))
    hub_id = "meta-llama/Meta-Llama-3.1-8B-Instruct"
    assert loading.known_subfolder(tmp_path, hub_id, "AutoTokenizer") == "tokenizer_4"
    assert loading.known_subfolder(tmp_path, hub_id, "AutoModelForCausalLM") == "text_encoder_4"
    assert loading.known_subfolder(tmp_path, "nobody/unknown", "AutoTokenizer") is None


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-image-more")


@pytest.mark.slow
@pytest.mark.parametrize(
    "pipeline_class",
    ["MarigoldIntrinsicsPipeline", "CogView4ControlPipeline", "HunyuanImageRefinerPipeline"],
)
def test_image_more_pipelines_build_load_and_run(tiny_cache, pipeline_class):
    folder = build.checkpoint_for(pipeline_class, tiny_cache)
    pipe, output = run_tiny(pipeline_class, folder)
    assert type(pipe).__name__ == pipeline_class
    result = output.prediction if pipeline_class.startswith("Marigold") else output.images
    assert result.shape[0] >= 1
