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
    one = layouts.tiny_model_on_meta(part.class_name, config)
    two = layouts.tiny_model_on_meta(
        part.class_name, two_heads(config, heads_key, width_key, rope_key)
    )
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
    return "freq" in leaf or leaf.startswith("norm_") or name.startswith("transformer_in.")
