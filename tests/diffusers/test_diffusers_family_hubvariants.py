"""Checkpoints of one class told apart by hub id or subfolder (recipes/hubvariants.py and
[variants] in known_models.toml): GLIGEN's inpainting and generation checkpoints, the
SDXL T2I-Adapters' one-channel sketch input, FLUX.1-dev's real text widths as a FluxPipeline."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, generic, tiny_table  # noqa: E402
from guidelint.runner.diffusers_backend.resolve import (  # noqa: E402
    Target,
    known_variants,
    resolve_component,
    resolve_pipeline,
)
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

GLIGEN = "StableDiffusionGLIGENPipeline"
GLIGEN_TEXT_IMAGE = "StableDiffusionGLIGENTextImagePipeline"
SDXL_ADAPTER = "StableDiffusionXLAdapterPipeline"
BUILDABLE = [GLIGEN, GLIGEN_TEXT_IMAGE, SDXL_ADAPTER]


def variant_of(hub_id, class_name):
    found = resolve_pipeline(hub_id, class_name, models={})
    assert isinstance(found, Target)
    return found.variant


def test_every_pipeline_made_buildable_plans():
    assert [name for name in BUILDABLE if not build.buildable(name)] == []


@pytest.mark.parametrize(
    ("class_name", "inpainting", "generation"),
    [
        (
            GLIGEN,
            "masterful/gligen-1-4-inpainting-text-box",
            "masterful/gligen-1-4-generation-text-box",
        ),
        (GLIGEN, "masterful/gligen-1-4-inpainting-text-box", "gligen/gligen-generation-text-box"),
        (GLIGEN_TEXT_IMAGE, "anhnct/Gligen_Inpainting_Text_Image", "anhnct/Gligen_Text_Image"),
    ],
)
def test_two_ids_of_one_class_get_their_own_unet_and_their_own_folder(
    class_name, inpainting, generation
):
    inpaint_variant, plain_variant = (
        variant_of(inpainting, class_name),
        variant_of(generation, class_name),
    )
    assert (inpaint_variant, plain_variant) == ("inpaint", None)
    inpaint_plan = generic.plan(class_name, hub_variant=inpaint_variant)
    plain_plan = generic.plan(class_name, hub_variant=plain_variant)
    # the masked image's latents and the mask beside the noise: 4 + 4 + 1
    assert slot(inpaint_plan, "unet").config["in_channels"] == 9
    assert slot(plain_plan, "unet").config["in_channels"] == 4
    assert inpaint_plan.key() != plain_plan.key()
    assert inpaint_plan.key().startswith(f"{class_name}-inpaint-")


def test_an_id_the_table_does_not_name_plans_as_its_class_did():
    assert variant_of("someone/my-own-gligen", GLIGEN) is None
    assert generic.plan(GLIGEN, hub_variant=None) == generic.plan(GLIGEN)


def test_a_variant_no_row_names_changes_only_the_folder():
    # a variant is a fact about a checkpoint: one with no rows of its own builds the class's
    # components, yet never shares their folder
    named, plain = generic.plan(SDXL_ADAPTER, hub_variant="unheard-of"), generic.plan(SDXL_ADAPTER)
    assert named.slots == plain.slots
    assert named.key() != plain.key()


def test_tagged_rows_never_match_the_plain_class():
    unet = tiny_table.recipe_name(GLIGEN, "unet", "UNet2DConditionModel")
    assert unet == "UNet2DConditionModel/gligen"
    tagged = tiny_table.recipe_name(GLIGEN, "unet", "UNet2DConditionModel", "inpaint")
    assert tagged == "UNet2DConditionModel/gligen-inpaint"
    # a shared row of another class is not reached through a tag
    assert tiny_table.recipe_name("StableDiffusionPipeline", "unet", "X", "inpaint") == "X"


def test_every_variant_the_table_names_has_rows_and_a_real_pipeline():
    import diffusers

    tags = {
        pattern.split("@")[1].rstrip("$") for pattern, _, _ in tiny_table.VARIANTS if "@" in pattern
    }
    for key, entry in known_variants().items():
        assert key == key.lower(), key
        assert entry.variant in tags, key
        assert entry.pipeline is None or hasattr(diffusers, entry.pipeline), key
        assert all(hasattr(diffusers, name) for name in entry.classes), key


def test_a_component_repos_subfolder_names_its_variant_and_where_the_tiny_one_holds_it():
    sketch = resolve_component(
        "Adapter/t2iadapter", "T2IAdapter", models={}, subfolder="sketch_sdxl_1.0"
    )
    assert (sketch.pipeline, sketch.variant, sketch.holds) == (SDXL_ADAPTER, "gray", "adapter")
    # a subfolder the table does not name resolves by the class, as before
    other = resolve_component("Adapter/t2iadapter", "T2IAdapter", models={}, subfolder="x")
    assert (other.component, other.variant) == ("T2IAdapter", None)
    # a component of a pipeline repo with a variant comes from that variant's checkpoint
    unet = resolve_component(
        "masterful/gligen-1-4-inpainting-text-box", "UNet2DConditionModel", models={}
    )
    assert (unet.pipeline, unet.variant) == (GLIGEN, "inpaint")


def test_the_sdxl_adapter_gives_one_feature_map_per_unet_level_and_one_for_the_mid_block():
    plain, gray = generic.plan(SDXL_ADAPTER), generic.plan(SDXL_ADAPTER, hub_variant="gray")
    adapter, unet = slot(plain, "adapter").config, slot(plain, "unet").config
    widths = unet["block_out_channels"]
    assert adapter["adapter_type"] == "full_adapter_xl"
    assert list(adapter["channels"]) == [*widths, widths[-1]]
    assert unet["down_block_types"][1:] == ("CrossAttnDownBlock2D",) * 2
    assert (adapter["in_channels"], slot(gray, "adapter").config["in_channels"]) == (3, 1)
    assert slot(gray, "unet") == slot(plain, "unet")  # the SDXL base UNet either adapter serves


def test_gligen_text_images_image_feature_is_projected_to_the_grounding_width():
    plan = generic.plan(GLIGEN_TEXT_IMAGE)
    unet = slot(plan, "unet").config
    assert unet["attention_type"] == "gated-text-image"
    assert slot(plan, "image_encoder").config["projection_dim"] == unet["cross_attention_dim"]
    assert slot(plan, "image_project").config["hidden_size"] == unet["cross_attention_dim"]


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-hubvariants")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("class_name", "variant"),
    [(GLIGEN, "inpaint"), (GLIGEN_TEXT_IMAGE, None), (SDXL_ADAPTER, "gray")],
)
def test_a_variants_checkpoint_builds_loads_and_runs(tiny_cache, class_name, variant):
    from PIL import Image

    folder = build.checkpoint_for(class_name, cache_override=tiny_cache, hub_variant=variant)
    image = Image.new("RGB", (64, 64), (120, 30, 200))
    grounding = {"gligen_phrases": ["a cat"], "gligen_boxes": [[0.1, 0.1, 0.6, 0.6]]}
    extra = {
        GLIGEN: {**grounding, "gligen_inpaint_image": image},
        GLIGEN_TEXT_IMAGE: {**grounding, "gligen_images": [image]},
        SDXL_ADAPTER: {"image": Image.new("L", (64, 64), 255)},  # a one-channel sketch
    }[class_name]
    pipe, out = run_tiny(class_name, folder, **extra)
    assert type(pipe).__name__ == class_name
    assert out.images.shape[-2:] == (64, 64)


FLUX_DEV = "black-forest-labs/FLUX.1-dev"


def test_flux1_dev_as_a_flux_pipeline_has_the_real_text_widths():
    assert variant_of(FLUX_DEV, "FluxPipeline") == "dev"
    assert variant_of(FLUX_DEV, "AutoPipelineForText2Image") == "dev"  # the table's FluxPipeline
    dev = generic.plan("FluxPipeline", hub_variant="dev")
    transformer = slot(dev, "transformer").config
    assert transformer["joint_attention_dim"] == slot(dev, "text_encoder_2").config["d_model"]
    assert transformer["pooled_projection_dim"] == slot(dev, "text_encoder").config["hidden_size"]
    assert (transformer["joint_attention_dim"], transformer["pooled_projection_dim"]) == (4096, 768)
    assert transformer["guidance_embeds"] is True  # FLUX.1-dev is guidance-distilled
    assert dev.key().startswith("FluxPipeline-dev-")
    # a transformer loaded alone from the repo comes from the same checkpoint
    alone = resolve_component(
        FLUX_DEV, "FluxTransformer2DModel", models={}, subfolder="transformer"
    )
    assert (alone.pipeline, alone.variant) == ("FluxPipeline", "dev")


def test_other_classes_loading_flux1_dev_keep_the_shared_stand_in_and_its_folder():
    # the ControlNet example pairs FLUX.1-dev with a ControlNet built at the shared widths
    assert variant_of(FLUX_DEV, "FluxControlNetPipeline") is None
    assert variant_of(FLUX_DEV, "FluxImg2ImgPipeline") is None
    plain = generic.plan("FluxPipeline")
    assert slot(plain, "transformer").config["joint_attention_dim"] == 32
    assert "-dev-" not in plain.key()
    assert "-dev-" not in generic.plan("FluxControlNetPipeline").key()
    # schnell is not FLUX.1-dev
    assert variant_of("black-forest-labs/FLUX.1-schnell", "FluxPipeline") is None


def test_the_variants_an_examples_ids_name_are_built_ahead():
    from guidelint.runner.diffusers_backend.resolve import variants_named

    names = ["StableDiffusionGLIGENPipeline", "masterful/gligen-1-4-inpainting-text-box"]
    assert variants_named(names) == [(GLIGEN, "inpaint")]
    assert variants_named(["Adapter/t2iadapter"]) == [(SDXL_ADAPTER, "gray")]
    assert variants_named(["masterful/gligen-1-4-generation-text-box"]) == []
    assert variants_named([FLUX_DEV]) == [("FluxPipeline", "dev")]


# -- Z-Image ControlNet: single files and hlky's config repos ------------------------------

ZIMAGE_CONTROLNET = "ZImageControlNetPipeline"
ZIMAGE_CONTROLNET_INPAINT = "ZImageControlNetInpaintPipeline"
UNION_FILE = (
    "https://huggingface.co/alibaba-pai/Z-Image-Turbo-Fun-Controlnet-Union/resolve/main/"
    "Z-Image-Turbo-Fun-Controlnet-Union.safetensors"
)
UNION_2_FILE = (
    "https://huggingface.co/alibaba-pai/Z-Image-Turbo-Fun-Controlnet-Union-2.0/resolve/main/"
    "Z-Image-Turbo-Fun-Controlnet-Union-{}.safetensors"
)


def test_z_image_controlnets_fit_the_dit_the_pipeline_lends_them():
    for class_name, variant, latent_copies in (
        (ZIMAGE_CONTROLNET, None, 1),  # 1.0: the latents alone (16 channels in the real one)
        (ZIMAGE_CONTROLNET, "union-2.1", 2),  # latents, mask, masked image's latents (33)
        (ZIMAGE_CONTROLNET_INPAINT, None, 2),  # the inpainting pipeline refuses 1.0
    ):
        plan = generic.plan(class_name, hub_variant=variant)
        controlnet, dit = slot(plan, "controlnet").config, slot(plan, "transformer").config
        shared = ("dim", "n_heads", "n_kv_heads", "all_patch_size", "all_f_patch_size")
        assert {k: controlnet[k] for k in shared} == {k: dit[k] for k in shared}
        latent = slot(plan, "vae").config["latent_channels"]
        assert controlnet["control_in_dim"] == latent_copies * latent + (latent_copies - 1)
        assert 0 in controlnet["control_layers_places"]


def test_hlkys_config_repos_resolve_to_the_controlnet_of_their_release():
    found = {
        hub_id: resolve_component(hub_id, "ZImageControlNetModel", models={})
        for hub_id in (
            "hlky/Z-Image-Turbo-Fun-Controlnet-Union",
            "hlky/Z-Image-Turbo-Fun-Controlnet-Union-2.0",
            "hlky/Z-Image-Turbo-Fun-Controlnet-Union-2.1",
        )
    }
    assert [(t.pipeline, t.variant) for t in found.values()] == [
        (ZIMAGE_CONTROLNET, None),
        (ZIMAGE_CONTROLNET, "union-2.0"),
        (ZIMAGE_CONTROLNET, "union-2.1"),
    ]


def test_only_the_files_the_table_names_are_made():
    from guidelint.runner.diffusers_backend import single_files

    assert single_files.known(UNION_FILE).config == "hlky/Z-Image-Turbo-Fun-Controlnet-Union"
    blob = UNION_2_FILE.format("2.1").replace("/resolve/", "/blob/") + "?download=true"
    assert single_files.known(blob).config.endswith("-2.1")
    assert single_files.known(UNION_FILE.replace("Union.safetensors", "Union.ckpt")) is None
    assert single_files.known(UNION_2_FILE.format("3.0")) is None


@pytest.mark.slow
@pytest.mark.parametrize(
    ("url", "model_type", "variant"),
    [
        (UNION_FILE, "z-image-turbo-controlnet", None),
        (UNION_2_FILE.format("2.0"), "z-image-turbo-controlnet-2.0", "union-2.0"),
        (UNION_2_FILE.format("2.1"), "z-image-turbo-controlnet-2.1", "union-2.1"),
    ],
)
def test_a_served_file_is_told_apart_by_diffusers_own_detection(
    tiny_cache, url, model_type, variant
):
    from diffusers import ZImageControlNetModel
    from diffusers.loaders.single_file_utils import (
        fetch_diffusers_config,
        infer_diffusers_model_type,
    )
    from safetensors.torch import load

    from guidelint.runner.diffusers_backend import single_files
    from guidelint.runner.diffusers_backend.state import State

    state = State(
        record_fn=lambda _m: None, gpu=False, cache_override=str(tiny_cache), root=tiny_cache
    )
    tensors = load(single_files.made(url, state))
    assert infer_diffusers_model_type(tensors) == model_type
    config = fetch_diffusers_config(tensors)["pretrained_model_name_or_path"]
    assert config == single_files.known(url).config
    # the ControlNet's own keys: none of the DiT modules from_transformer lends it
    assert not [key for key in tensors if key.startswith(("t_embedder.", "noise_refiner."))]
    # and every weight of the release's tiny config, loaded by diffusers' own code
    folder = build.checkpoint_for(ZIMAGE_CONTROLNET, tiny_cache, hub_variant=variant)
    model = ZImageControlNetModel.from_single_file(
        tensors, config=str(folder), subfolder="controlnet"
    )
    assert all(p.device.type == "cpu" for p in model.parameters())
    dit = build.checkpoint_for(ZIMAGE_CONTROLNET, tiny_cache) / "transformer" / "config.json"
    latent = json.loads(dit.read_text())["in_channels"]
    assert model.config.control_in_dim == (latent if variant is None else 2 * latent + 1)


ZIMAGE_CONTROLNET_EXAMPLES = """\
# Z-Image ControlNet

diffusers' two examples at 256 px and 2 steps (they ask 1728x992 and 8 or 25), and the 2.0
release their comments name.

```python
import torch
from diffusers import ZImageControlNetPipeline, ZImageControlNetModel
from diffusers.utils import load_image
from huggingface_hub import hf_hub_download

controlnet = ZImageControlNetModel.from_single_file(
    hf_hub_download(
        "alibaba-pai/Z-Image-Turbo-Fun-Controlnet-Union",
        filename="Z-Image-Turbo-Fun-Controlnet-Union.safetensors",
    ),
    torch_dtype=torch.bfloat16,
)
pipe = ZImageControlNetPipeline.from_pretrained(
    "Tongyi-MAI/Z-Image-Turbo", controlnet=controlnet, torch_dtype=torch.bfloat16
)
pipe.to("cuda")
control_image = load_image(
    "https://huggingface.co/alibaba-pai/Z-Image-Turbo-Fun-Controlnet-Union/resolve/main/asset/pose.jpg?download=true"
)
image = pipe(
    "a woman on a beach", control_image=control_image, controlnet_conditioning_scale=0.75,
    height=256, width=256, num_inference_steps=2, guidance_scale=0.0,
    generator=torch.Generator("cuda").manual_seed(43),
).images[0]
assert image.size == (256, 256)
assert controlnet.config.control_in_dim == pipe.transformer.config.in_channels
```

```python
import torch
from diffusers import ZImageControlNetInpaintPipeline, ZImageControlNetModel
from diffusers.utils import load_image
from huggingface_hub import hf_hub_download

asset = "https://huggingface.co/alibaba-pai/Z-Image-Turbo-Fun-Controlnet-Union-2.0/resolve/main/asset/"
image, mask_image = load_image(asset + "inpaint.jpg"), load_image(asset + "mask.jpg")
for release, kind in (("2.1", "control_noise_refiner"), ("2.0", "control_layers")):
    controlnet = ZImageControlNetModel.from_single_file(
        hf_hub_download(
            "alibaba-pai/Z-Image-Turbo-Fun-Controlnet-Union-2.0",
            filename=f"Z-Image-Turbo-Fun-Controlnet-Union-{release}.safetensors",
        ),
        torch_dtype=torch.bfloat16,
    )
    assert controlnet.config.add_control_noise_refiner == kind
    pipe = ZImageControlNetInpaintPipeline.from_pretrained(
        "Tongyi-MAI/Z-Image-Turbo", controlnet=controlnet, torch_dtype=torch.bfloat16
    )
    image = pipe(
        "a woman on a beach", image=image, mask_image=mask_image,
        control_image=load_image(asset + "pose.jpg"), height=256, width=256, num_inference_steps=2,
        guidance_scale=0.0,
    ).images[0]
    assert image.size == (256, 256)
```
"""


@pytest.mark.slow
def test_z_image_controlnet_examples_pass_from_a_cold_cache(tmp_path):
    """The single files are made from stand-ins the warm worker built before the sandbox
    closed; each example loads them with diffusers' own from_single_file."""
    from guidelint.runner.run import RunOptions, run_examples

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "ZIMAGE.md").write_text(ZIMAGE_CONTROLNET_EXAMPLES, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.guidelint]\ninclude = ["docs/**/*.md"]\n'
        f'[tool.guidelint.runner]\ntimeout = 600\ntiny-cache = "{tmp_path / "tiny"}"\n'
    )
    results = run_examples(RunOptions(paths=[tmp_path / "docs"], jobs=1)).results
    assert [r.status.value for r in results] == ["passed", "passed"], [r.message for r in results]
    assert results[0].pipelines == [ZIMAGE_CONTROLNET]
    assert results[1].pipelines == [ZIMAGE_CONTROLNET_INPAINT]
    served = [line for r in results for line in r.substitutions if "hf_hub_download" in line]
    assert len(served) == 3 and all("real key layout" in line for line in served)
