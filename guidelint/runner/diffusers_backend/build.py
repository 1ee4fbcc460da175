"""The builder's API: a tiny checkpoint folder for a pipeline or model class, or why not.

Resolution (resolve.py, loading.py) calls only these names; how a class is built
(generic.py, from the data in tiny_table.py) stays behind them. Folders live in the
versioned cache (cache.py): `pipelines/<Class>-<digest>/` and `components/...`, the
digest covering every config, so a changed table never reuses an old build.
"""

from __future__ import annotations

import os
from pathlib import Path

from guidelint.runner.diffusers_backend import cache


class CannotBuild(Exception):
    """No tiny stand-in of `missing` (a pipeline, model or tokenizer class) can be built."""

    def __init__(self, missing: str, reason: str) -> None:
        super().__init__(f"no tiny {missing} can be built: {reason}")
        self.missing = missing
        self.reason = reason


def _plan(pipeline_class: str, recipes_of: str | None = None, hub_variant: str | None = None):
    from guidelint.runner.diffusers_backend import generic

    try:
        return generic.plan(pipeline_class, recipes_of, hub_variant)
    except generic.CannotPlan as error:
        raise CannotBuild(error.missing, error.reason) from None


def buildable(pipeline_class: str) -> bool:
    """Whether `checkpoint_for(pipeline_class)` has a recipe for every component; builds nothing.

    Raises the ImportError a component meets where no real checkpoint could load either
    (see generic.plan): that, not a missing recipe, is what an example meets here."""
    try:
        _plan(pipeline_class)
    except CannotBuild:
        return False
    return True


def checkpoint_for(
    pipeline_class: str,
    cache_override: str | os.PathLike | None = None,
    recipes_of: str | None = None,
    hub_variant: str | None = None,
) -> Path:
    """A folder with model_index.json whose pipeline is `pipeline_class`, built when missing
    (with the recipes of the class `recipes_of`, and the variant a known hub id names,
    where given: see generic.plan)."""
    from guidelint.runner.diffusers_backend import generic

    plan = _plan(pipeline_class, recipes_of, hub_variant)
    root = cache.cache_dir(cache_override)
    target = root / "pipelines" / plan.key()
    if not (target / "model_index.json").is_file():
        try:
            generic.build_into(plan, target, root / "components")
        except generic.CannotPlan as error:
            raise CannotBuild(error.missing, error.reason) from None
    return target


def component_checkpoint(
    component_class: str, cache_override: str | os.PathLike | None = None
) -> Path:
    """A folder with config.json (and weights) of one tiny model, built when missing."""
    from guidelint.runner.diffusers_backend import generic

    try:
        return generic.component_folder(component_class, cache.cache_dir(cache_override))
    except generic.CannotPlan as error:
        raise CannotBuild(error.missing, error.reason) from None
