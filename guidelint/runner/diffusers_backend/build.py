"""The builder's API: a tiny checkpoint folder for a pipeline or model class, or why not.

Resolution (resolve.py, loading.py) calls only these names; how a class is built
(generic.py, from the data in tiny_table.py) stays behind them. Folders live in the
versioned cache (cache.py): `pipelines/<Class>-<digest>/` and `components/...`, the
digest covering every config, so a changed table never reuses an old build.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from guidelint.runner.diffusers_backend import cache


class CannotBuild(Exception):
    """No tiny stand-in of `missing` (a pipeline, model or tokenizer class) can be built."""

    def __init__(self, missing: str, reason: str) -> None:
        super().__init__(f"no tiny {missing} can be built: {reason}")
        self.missing = missing
        self.reason = reason


class BuildFailed(OSError):
    """Building a tiny stand-in failed: guidelint's fault, never the example's.

    The runner reads `guidelint_outcome` (the outcome build-failed); the message names
    the component whose build failed and how."""

    guidelint_outcome = "build-failed"

    def __init__(self, component: str, error: BaseException) -> None:
        super().__init__(
            f"guidelint could not build its tiny {component} (a fault of guidelint, not of "
            f"the example): {type(error).__name__}: {error}"
        )
        self.component = component


def in_writable_cache(build_in: Callable[[Path], Path], override, component: str) -> Path:
    """`build_in(root)` in the shared cache. What the runner builds is built before the
    sandbox closes (the warm worker's look-ahead, `activation.build_loads_ahead`), so a
    build this process may not write (a sandboxed example's child meeting a load the
    look-ahead did not foresee) cannot happen: build-failed naming `component`, never
    a build in the example's own scratch folder (#28)."""
    root = cache.cache_dir(override)
    try:
        return build_in(root)
    except PermissionError as refused:
        late = PermissionError(
            refused.errno,
            "not built before the sandbox closed, and this process may not write the tiny "
            "cache (the warm worker builds what the examples name ahead; an id it could not "
            "foresee, or a cache it may not write, ends here)",
            str(root),
        )
        raise BuildFailed(component, late) from refused


def _failed_build(error: Exception, what: str) -> Exception:
    """The error to raise for a build that raised `error`: an import the component needs
    stays what it is (missing-dependency); anything else is guidelint's own failure."""
    from guidelint.runner.diffusers_backend import generic
    from guidelint.runner.verdict import missing_package

    if isinstance(error, generic.CannotPlan):
        return CannotBuild(error.missing, error.reason)
    if isinstance(error, (ImportError, MemoryError, BuildFailed)):
        return error
    if isinstance(error, NameError) and missing_package(error):
        return error  # a class diffusers imports only with an optional package (OmniGen)
    if isinstance(error, generic.ComponentFailed):
        return BuildFailed(error.component, error.__cause__ or error)
    return BuildFailed(what, error)


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

    def build_in(root: Path) -> Path:
        target = root / "pipelines" / plan.key()
        if not (target / "model_index.json").is_file():
            try:
                generic.build_into(plan, target, root / "components")
            except PermissionError:
                raise
            except Exception as error:  # noqa: BLE001 - sorted by _failed_build
                raise _failed_build(error, pipeline_class) from error
        return target

    return in_writable_cache(build_in, cache_override, pipeline_class)


def component_checkpoint(
    component_class: str, cache_override: str | os.PathLike | None = None
) -> Path:
    """A folder with config.json (and weights) of one tiny model, built when missing."""
    from guidelint.runner.diffusers_backend import generic

    def build_in(root: Path) -> Path:
        try:
            return generic.component_folder(component_class, root)
        except PermissionError:
            raise
        except Exception as error:  # noqa: BLE001 - sorted by _failed_build
            raise _failed_build(error, component_class) from error

    return in_writable_cache(build_in, cache_override, component_class)
