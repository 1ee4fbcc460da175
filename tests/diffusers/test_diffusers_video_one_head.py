"""The video denoisers' one attention head (recipes/video.py, ONE_HEAD).

Each stand-in has one head of the width two had: the same inner width, so the same
module names, processors and parameter names as the two-head one (what LoRA, PAG,
IP-Adapter and `set_attn_processor` address), and the same widths its pipeline ties to
the text and image encoders. Built from the settled plan of the pipeline it serves;
the pipelines themselves run in the family tests (test_diffusers_family_*.py).
"""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import generic, layouts  # noqa: E402
from tests.diffusers.tiny_pipelines import slot  # noqa: E402

# (pipeline, slot, the config key holding the head count, the key holding the head width,
# the RoPE split of the head width, if the class takes one)
ONE_HEAD = [
    ("WanPipeline", "transformer", "num_attention_heads", "attention_head_dim", None),
    ("WanImageToVideoPipeline", "transformer", "num_attention_heads", "attention_head_dim", None),
    ("SkyReelsV2Pipeline", "transformer", "num_attention_heads", "attention_head_dim", None),
    ("HeliosPipeline", "transformer", "num_attention_heads", "attention_head_dim", "rope_dim"),
    (
        "HunyuanVideoPipeline",
        "transformer",
        "num_attention_heads",
        "attention_head_dim",
        "rope_axes_dim",
    ),
    (
        "HunyuanVideoImageToVideoPipeline",
        "transformer",
        "num_attention_heads",
        "attention_head_dim",
        "rope_axes_dim",
    ),
    (
        "HunyuanVideoFramepackPipeline",
        "transformer",
        "num_attention_heads",
        "attention_head_dim",
        "rope_axes_dim",
    ),
    (
        "HunyuanVideo15Pipeline",
        "transformer",
        "num_attention_heads",
        "attention_head_dim",
        "rope_axes_dim",
    ),
    ("MochiPipeline", "transformer", "num_attention_heads", "attention_head_dim", None),
    # LTX-Video (and its image-to-video and condition pipelines): 6,930 tokens a step at
    # the examples' 480x704, 161 frames; the head width is also the cross-attention's
    ("LTXPipeline", "transformer", "num_attention_heads", "attention_head_dim", None),
    ("LTX2Pipeline", "transformer", "num_attention_heads", "attention_head_dim", None),
    ("LTX2Pipeline", "transformer", "audio_num_attention_heads", "audio_attention_head_dim", None),
    ("EasyAnimatePipeline", "transformer", "num_attention_heads", "attention_head_dim", None),
    # UNet3DConditionModel reads attention_head_dim as the head count
    ("TextToVideoSDPipeline", "unet", "attention_head_dim", None, None),
]


def two_heads(config: dict, heads_key: str, width_key: str | None, rope_key: str | None) -> dict:
    """The same model with two heads of half the width (what the stand-ins had)."""
    halved = {**config, heads_key: 2}
    if width_key is not None:
        halved[width_key] = config[width_key] // 2
    if rope_key is not None:
        halved[rope_key] = tuple(part // 2 for part in config[rope_key])
    return halved


@pytest.mark.parametrize(("pipeline", "slot_name", "heads_key", "width_key", "rope_key"), ONE_HEAD)
def test_one_head_keeps_the_two_head_module_tree(
    pipeline, slot_name, heads_key, width_key, rope_key
):
    part = slot(generic.plan(pipeline), slot_name)
    config = dict(part.config)
    assert config[heads_key] == 1
    if rope_key is not None:
        assert sum(config[rope_key]) == config[width_key]  # RoPE covers the whole head
    assert_same_tree(part.class_name, config, two_heads(config, heads_key, width_key, rope_key))


@pytest.mark.parametrize("pipeline", ["Kandinsky5T2VPipeline", "Kandinsky5I2VPipeline"])
def test_kandinsky5_has_one_head_of_its_model_width(pipeline):
    """Its head width is the sum of its RoPE axes, its head count model_dim over that sum:
    two heads are the same model_dim with each axis halved."""
    part = slot(generic.plan(pipeline), "transformer")
    config = dict(part.config)
    assert sum(config["axes_dims"]) == config["model_dim"]  # one head
    halved = {**config, "axes_dims": tuple(axis // 2 for axis in config["axes_dims"])}
    assert_same_tree(part.class_name, config, halved)


def assert_same_tree(class_name: str, one_head: dict, two_heads: dict) -> None:
    one = layouts.tiny_model_on_meta(class_name, one_head)
    two = layouts.tiny_model_on_meta(class_name, two_heads)
    assert [name for name, _ in one.named_modules()] == [name for name, _ in two.named_modules()]
    assert layouts.attention_layout(one) == layouts.attention_layout(two)
    one_parameters = dict(one.named_parameters())
    two_parameters = dict(two.named_parameters())
    assert one_parameters.keys() == two_parameters.keys()
    # the projections keep their widths: only per-head tables change shape (the q/k norms
    # over a head's width, Mochi's RoPE frequencies per head), and the ModelScope UNet's
    # temporal input transformer, whose width diffusers fixes at 8 heads x the head count
    differing = [
        name
        for name, parameter in one_parameters.items()
        if parameter.shape != two_parameters[name].shape
    ]
    assert all(per_head(name) for name in differing), differing


def per_head(name: str) -> bool:
    leaf = name.split(".")[-2] if name.endswith(("weight", "bias")) else name
    norm = leaf.startswith("norm_") or leaf.endswith("_norm")  # Kandinsky 5's query_norm
    return "freq" in leaf or norm or name.startswith("transformer_in.")
