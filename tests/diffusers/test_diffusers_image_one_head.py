"""The image (and Kandinsky 6) denoisers given one attention head for issue #29: OmniGen,
Qwen-Image's transformer and ControlNet, Kandinsky 6.

Each had several narrow heads; at their examples' 4,096 tokens and more, attention is
paid per head. The stand-in has one head of the same inner width, so the module names,
attention processors and parameter names (what LoRA, PAG, IP-Adapter and
`set_attn_processor` address) are those of the several-head one.
"""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import generic, layouts  # noqa: E402
from tests.diffusers.tiny_pipelines import slot  # noqa: E402

# (pipeline, slot, the several heads the stand-in had: the config keys that change)
SEVERAL_HEADS = [
    (
        "OmniGenPipeline",
        "transformer",
        {
            "num_attention_heads": 4,
            "num_key_value_heads": 4,
            "rope_scaling": {"short_factor": [1.0] * 4, "long_factor": [1.0] * 4},
        },
    ),
    (
        "QwenImagePipeline",
        "transformer",
        {"num_attention_heads": 3, "attention_head_dim": 16, "axes_dims_rope": (8, 4, 4)},
    ),
    (
        "QwenImageControlNetPipeline",
        "controlnet",
        {"num_attention_heads": 3, "attention_head_dim": 16, "axes_dims_rope": (8, 4, 4)},
    ),
    ("Kandinsky6TI2VAPipeline", "transformer", {"axes_dims": (1, 1, 2)}),
]


def head_count(config: dict) -> int:
    if "axes_dims" in config:  # Kandinsky: head width = sum(axes_dims)
        return config["model_dim"] // sum(config["axes_dims"])
    return config["num_attention_heads"]


@pytest.mark.parametrize(("pipeline", "slot_name", "several"), SEVERAL_HEADS)
def test_one_head_keeps_the_several_head_module_tree(pipeline, slot_name, several):
    part = slot(generic.plan(pipeline), slot_name)
    config = dict(part.config)
    assert head_count(config) == 1
    assert head_count({**config, **several}) > 1
    one = layouts.tiny_model_on_meta(part.class_name, config)
    many = layouts.tiny_model_on_meta(part.class_name, {**config, **several})
    assert [name for name, _ in one.named_modules()] == [name for name, _ in many.named_modules()]
    assert layouts.attention_layout(one) == layouts.attention_layout(many)
    assert dict(one.named_parameters()).keys() == dict(many.named_parameters()).keys()
