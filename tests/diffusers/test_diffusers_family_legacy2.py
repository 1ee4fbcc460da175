"""Wuerstchen, BLIP-Diffusion and Stable Cascade's decoder (recipes/legacy2.py): planned
from their own classes and built tiny under the library their real checkpoints name,
which diffusers 0.42 refuses as it refuses those repos; named by their own module, the
same tiny checkpoints load and run."""

from __future__ import annotations

import importlib
import json
import shutil

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, generic, tiny_table  # noqa: E402
from tests.diffusers.tiny_pipelines import slot  # noqa: E402

BUILDABLE = [
    "WuerstchenPriorPipeline",
    "WuerstchenDecoderPipeline",
    "WuerstchenCombinedPipeline",
    "BlipDiffusionPipeline",
    "BlipDiffusionControlNetPipeline",
    "StableCascadeDecoderPipeline",
    "StableCascadeCombinedPipeline",
]
# each class legacy2 records under an old pipeline folder, and that folder
OWN_CLASSES = {
    "WuerstchenPrior": "wuerstchen",
    "WuerstchenDiffNeXt": "wuerstchen",
    "PaellaVQModel": "wuerstchen",
    "Blip2QFormerModel": "blip_diffusion",
    "ContextCLIPTextModel": "blip_diffusion",
    "BlipImageProcessor": "blip_diffusion",
}


def test_every_legacy2_pipeline_plans():
    assert [name for name in BUILDABLE if not build.buildable(name)] == []
    assert not set(BUILDABLE) & set(tiny_table.NOT_YET)


def test_the_recorded_library_is_the_classes_old_folder_which_diffusers_042_lacks():
    from diffusers import pipelines

    for class_name, folder in OWN_CLASSES.items():
        assert tiny_table.CHECKPOINT_LIBRARY[class_name] == folder
        path = tiny_table.RECIPES[class_name].builds
        assert path.startswith(f"diffusers.pipelines.deprecated.{folder}.")  # moved there
        assert not hasattr(pipelines, folder)  # so _get_library_or_raise refuses the name


def test_wuerstchens_prior_and_decoder_agree_on_the_image_embedding():
    prior = slot(generic.plan("WuerstchenCombinedPipeline"), "prior_prior").config
    decoder = slot(generic.plan("WuerstchenCombinedPipeline"), "decoder").config
    vqgan = slot(generic.plan("WuerstchenCombinedPipeline"), "vqgan").config
    assert prior["c_in"] == decoder["effnet_embd"]
    assert decoder["c_in"] == decoder["c_out"] == vqgan["latent_channels"]
    assert any(decoder["inject_effnet"])  # the embedding is read, not only accepted


def test_blip_diffusions_query_tokens_are_as_wide_as_the_prompts_embeddings():
    plan = generic.plan("BlipDiffusionPipeline")
    qformer, text = slot(plan, "qformer").config, slot(plan, "text_encoder").config
    assert qformer["qformer_config"]["hidden_size"] == text["hidden_size"]
    processed = slot(plan, "image_processor").config["size"]["height"]
    assert processed == qformer["vision_config"]["image_size"]


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-legacy2")


def named_by_module(folder, target):
    """A copy of the tiny checkpoint whose own classes are recorded under their module."""
    shutil.copytree(folder, target)
    index_file = target / "model_index.json"
    index = json.loads(index_file.read_text())
    for entry in index.values():
        if isinstance(entry, list) and entry[1] in OWN_CLASSES:
            entry[0] = tiny_table.RECIPES[entry[1]].builds.rpartition(".")[0]
    index_file.write_text(json.dumps(index))
    return target


def call(pipe, pipeline_class):
    import torch

    embeddings = torch.randn(1, 16, 3, 3, generator=torch.manual_seed(0))
    given = {"image_embeddings": embeddings} if "Decoder" in pipeline_class else {}
    if "Prior" in pipeline_class:
        return pipe("a cat", height=128, width=128, num_inference_steps=2).image_embeddings
    return pipe(prompt="a cat", num_inference_steps=2, output_type="np", **given).images


@pytest.mark.slow
@pytest.mark.parametrize(
    ("pipeline_class", "library", "shape"),
    [
        ("WuerstchenPriorPipeline", "wuerstchen", (1, 16, 3, 3)),
        ("WuerstchenDecoderPipeline", "wuerstchen", (1, 128, 128, 3)),
        ("StableCascadeDecoderPipeline", "wuerstchen", (1, 128, 128, 3)),
    ],
)
def test_refused_under_the_real_repos_library_and_run_under_its_module(
    tiny_cache, tmp_path, pipeline_class, library, shape
):
    import diffusers

    folder = build.checkpoint_for(pipeline_class, cache_override=tiny_cache)
    with pytest.raises(ValueError, match=f"^{library} is not one of the libraries"):
        getattr(diffusers, pipeline_class).from_pretrained(folder)
    loadable = named_by_module(folder, tmp_path / "by-module")
    pipe = getattr(diffusers, pipeline_class).from_pretrained(loadable)
    pipe.set_progress_bar_config(disable=True)
    assert tuple(call(pipe, pipeline_class).shape) == shape


@pytest.mark.slow
def test_blip_diffusion_is_refused_and_its_parts_load_but_its_qformer_needs_transformers_4(
    tiny_cache, tmp_path
):
    import diffusers
    from PIL import Image
    from transformers import Blip2Config

    from guidelint.runner.diffusers_backend import family_tokenizers

    folder = build.checkpoint_for("BlipDiffusionPipeline", cache_override=tiny_cache)
    assert "tokenizer" not in json.loads((folder / "qformer" / "config.json").read_text())
    with pytest.raises(ValueError, match="^blip_diffusion is not one of the libraries"):
        diffusers.BlipDiffusionPipeline.from_pretrained(folder)
    # each part by its own class; the Q-Former given a local BERT tokenizer, not the hub's
    family_tokenizers.build_bert_tokenizer().save_pretrained(tmp_path / "bert")
    config = Blip2Config.from_pretrained(folder / "qformer")
    config.tokenizer = str(tmp_path / "bert")
    parts = {}
    for name, entry in json.loads((folder / "model_index.json").read_text()).items():
        if isinstance(entry, list):
            library, class_name = entry
            module = (
                tiny_table.RECIPES[class_name].builds.rpartition(".")[0]
                if (class_name in OWN_CLASSES)
                else library
            )
            cls = getattr(importlib.import_module(module), class_name)
            kwargs = {"config": config} if name == "qformer" else {}
            parts[name] = cls.from_pretrained(folder / name, **kwargs)
    pipe = diffusers.BlipDiffusionPipeline(**parts)
    pipe.set_progress_bar_config(disable=True)
    image = Image.new("RGB", (48, 48), (120, 30, 200))
    # diffusers 0.42.1's Q-Former calls ModuleUtilsMixin.invert_attention_mask, which
    # transformers 5 removed (deprecated/blip_diffusion/modeling_blip2.py:597)
    with pytest.raises(AttributeError, match="invert_attention_mask"):
        pipe("swimming underwater", image, "dog", "dog", num_inference_steps=2, height=64, width=64)
