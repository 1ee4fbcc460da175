"""Stand-ins keep the real module tree where a name-addressing API looks.

For every diffusers model recipe of the tiny table, the tiny model and the real
checkpoint's layout (REAL_LAYOUTS, else the class's own defaults, which diffusers
takes from its flagship checkpoint) are instantiated on the `meta` device, no
weights, and their attention modules compared by name and processor class: what PAG,
IP-Adapter, `set_attn_processor`, LoRA target names and `fuse_qkv_projections`
address. Fewer repeats of a block the tiny has are allowed (tiny means few layers);
a processor class that differs is never allowed; attention the real model lacks, or
a kind of attention the tiny leaves out, fails unless `LAYOUT_GAPS` records why.
"""

from __future__ import annotations

import inspect
import re

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import generic, layouts, tiny_table  # noqa: E402


class _AnyWidth(dict):
    """The table's widths, and a placeholder for those a pipeline settles: widths do not
    change a module's name. 32 divides every group count the recipes use."""

    def __missing__(self, key: str) -> int:
        return 32


def diffusers_model_recipes() -> list[tuple[str, str]]:
    import diffusers

    found = []
    for key, recipe in tiny_table.RECIPES.items():
        if recipe.kind != "model" or recipe.derive:
            continue  # a derived model (ControlNet.from_unet) has its source's layout
        name = recipe.builds or key.split("/")[0]
        try:
            cls = generic.library_class(name)
        except generic.CannotPlan:
            continue
        if inspect.isclass(cls) and issubclass(cls, diffusers.ModelMixin):
            found.append((key, name))
    return found


RECIPES = diffusers_model_recipes()


def layouts_of(key: str, name: str):
    recipe = tiny_table.RECIPES[key]
    config = generic.settle(dict(recipe.config), _AnyWidth(generic.base_dims()))
    tiny = layouts.attention_layout(layouts.tiny_model_on_meta(name, config))
    try:
        real = layouts.attention_layout(layouts.real_model_on_meta(key, name))
    except (TypeError, ValueError) as error:
        if key in layouts.REAL_LAYOUTS:
            raise
        pytest.skip(f"{key}: {layouts.NO_DEFAULTS} ({error})")
    return tiny, real


@pytest.mark.slow  # some 190 models, each twice on the meta device: about a minute
@pytest.mark.parametrize(("key", "name"), RECIPES, ids=[key for key, _ in RECIPES])
def test_the_tiny_model_has_the_real_attention_layout(key, name):
    tiny, real = layouts_of(key, name)
    difference = layouts.compare(tiny, real)
    assert not difference.processors, difference.summary()
    unexplained = difference.extra or layouts.kinds_missing(difference, tiny)
    if key in layouts.LAYOUT_GAPS:
        assert unexplained, f"{key} no longer differs: drop it from LAYOUT_GAPS"
    else:
        assert not unexplained, (
            f"{key}: {difference.summary()}; kinds left out: "
            f"{layouts.kinds_missing(difference, tiny)}"
        )


def test_every_recorded_gap_and_layout_names_a_recipe_of_the_table():
    keys = {key for key, _ in RECIPES}
    assert set(layouts.LAYOUT_GAPS) <= keys
    assert set(layouts.REAL_LAYOUTS) <= keys


@pytest.mark.slow
@pytest.mark.parametrize("key", ["PixArtTransformer2DModel/pag", "SD3Transformer2DModel/pag"])
def test_the_pag_stand_ins_keep_every_block_of_the_real_model(key):
    tiny, real = layouts_of(key, tiny_table.RECIPES[key].builds or key.split("/")[0])
    assert layouts.compare(tiny, real).missing == ()


def pag_targets(layout: dict[str, str], layer_id: str) -> list[str]:
    """The self-attention modules diffusers' PAG perturbs for `layer_id` (pag_utils.py:
    `re.search(layer_id, name)`, self-attention only)."""
    return [name for name in layout if name.endswith("attn1") and re.search(layer_id, name)]


@pytest.mark.slow
def test_the_kolors_pag_example_names_a_layer_the_real_unet_lacks_too():
    # diffusers' Kolors PAG example passes "down.block_2.attentions_1": "." matches any
    # character, but "down_blocks.2" has an "s" where the id has "_", so on the real
    # layout as on the tiny one it matches nothing (the yardstick's REAL_BUGS entry)
    real = layouts.attention_layout(
        layouts.real_model_on_meta("UNet2DConditionModel/kolors", "UNet2DConditionModel")
    )
    assert pag_targets(real, "down.block_2.attentions_1") == []
    assert len(pag_targets(real, "down_blocks.2.attentions.1")) == 10  # what it meant
    assert pag_targets(real, "mid")  # the default, which the tiny UNet has too
