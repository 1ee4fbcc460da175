"""`from_pretrained` with hub ids answered by tiny local checkpoints (the real loader runs).

Each wrapper rewrites the arguments and calls the library's own from_pretrained on a
local folder: weights are read from safetensors, configs parsed, components wired,
exactly as for a downloaded checkpoint. What stands in is decided by resolve.py (by
class, by the table of known ids, by the user's mapping) and built by build.py; when
no stand-in of the right class can be built the example is `unsupported-model`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from guidelint.runner.diffusers_backend import build, coarsen
from guidelint.runner.diffusers_backend.resolve import (
    GENERIC_PIPELINES,
    Target,
    Unresolved,
    by_pattern,
    is_generic_model,
    is_hub_id,
    known_component,
    known_pipeline,
    resolve_component,
    resolve_pipeline,
    variant_for,
)
from guidelint.runner.diffusers_backend.state import State, current, remember_original

NAME_KEYS = ("pretrained_model_name_or_path", "pretrained_model_or_path")
DTYPE_KEYS = ("torch_dtype", "dtype")
AUTO_MAPPINGS = {
    "AutoPipelineForText2Image": "AUTO_TEXT2IMAGE_PIPELINES_MAPPING",
    "AutoPipelineForImage2Image": "AUTO_IMAGE2IMAGE_PIPELINES_MAPPING",
    "AutoPipelineForInpainting": "AUTO_INPAINT_PIPELINES_MAPPING",
}


class UnsupportedModel(OSError):
    """No tiny stand-in of the class a hub id really holds: the outcome unsupported-model.

    An OSError, as what the library raises for a model it cannot get offline; the
    runner reads `guidelint_outcome` to name the outcome.
    """

    guidelint_outcome = "unsupported-model"

    def __init__(self, message: str, missing: str | None = None) -> None:
        super().__init__(message)
        self.missing = missing


class NoSuchModel(OSError):
    """A hub id that does not exist (a near miss of a known one): the example's own bug."""


def cpu_kwargs(
    kwargs: dict, state: State, class_name: str, loader: str = "from_pretrained"
) -> dict:
    """Half dtypes -> float32 and device_map dropped, when there is no GPU."""
    import torch

    if state.gpu:
        return kwargs
    kwargs = dict(kwargs)
    for key in DTYPE_KEYS:
        value = kwargs.get(key)
        if value in (torch.float16, torch.bfloat16):
            kwargs[key] = torch.float32
            state.record(f"{class_name}.{loader}({key}={value}) -> torch.float32 (no GPU)")
        elif isinstance(value, dict):  # per-component dtypes
            kwargs[key] = {k: _float32(v) for k, v in value.items()}
    if kwargs.get("device_map") is not None:
        state.record(
            f"{class_name}.{loader}(device_map={kwargs['device_map']!r}) "
            "dropped: loads on cpu (no GPU)"
        )
        kwargs.pop("device_map")
    return kwargs


def _float32(dtype):
    import torch

    return torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype


def refuse(found: Unresolved) -> OSError:
    if found.typo_of:
        return NoSuchModel(found.message)
    return UnsupportedModel(found.message)


# -- pipelines ------------------------------------------------------------------


def pipeline_class(name: str):
    import diffusers

    return getattr(diffusers, name, None)


def auto_variant(auto_class: str, base: str) -> str | None:
    """The pipeline AutoPipelineFor* builds from a `base` checkpoint (diffusers' mapping)."""
    from diffusers.pipelines import auto_pipeline

    mapping = getattr(auto_pipeline, AUTO_MAPPINGS[auto_class])
    found = auto_pipeline._get_task_class(mapping, base, throw_error_if_not_exist=False)
    return found.__name__ if found is not None else None


def text2image_sibling(class_name: str) -> str | None:
    """The text-to-image pipeline of the same model (its checkpoints load this class)."""
    try:
        found = auto_variant("AutoPipelineForText2Image", class_name)
    except (ImportError, AttributeError):
        return None
    return found if found != class_name else None


def needed_modules(cls, passed: dict) -> set[str]:
    """The components `cls.__init__` needs from a checkpoint, given what the call passes."""
    expected, _ = cls._get_signature_keys(cls)
    return set(expected) - set(cls._optional_components) - set(passed)


def carries(candidate: str, needed: set[str]) -> bool:
    """Does a checkpoint of pipeline class `candidate` hold every module in `needed`?"""
    found = pipeline_class(candidate)
    if found is None:
        return False
    expected, _ = found._get_signature_keys(found)
    return needed <= set(expected)


def candidates(cls, target: Target, in_repo: str | None) -> list[str]:
    """Pipeline checkpoints that may answer, best first (each one a real class's).

    A named class is answered by its own tiny checkpoint, else by one of the class the
    repo holds (the table's) or of its text-to-image sibling: diffusers loads those
    checkpoints into the named class just as it loads the real repo.
    """
    named = cls.__name__
    wanted = target.pipeline or named
    if named in AUTO_MAPPINGS:
        variant = auto_variant(named, wanted)
        return list(dict.fromkeys(c for c in (variant, wanted) if c))
    if named == "DiffusionPipeline" or named != wanted:  # the table's class, or the user's
        return [wanted]
    return list(dict.fromkeys(c for c in (named, in_repo, text2image_sibling(named)) if c))


def pipeline_checkpoint(state: State, hub_id: str, cls, kwargs: dict) -> tuple[Path, str, str]:
    """(tiny checkpoint folder, its pipeline class, why) answering `cls.from_pretrained`."""
    found = resolve_pipeline(hub_id, cls.__name__, models=state.models, root=state.root)
    if isinstance(found, Unresolved):
        raise refuse(found)
    if found.folder:
        return local_folder(found, hub_id), "", found.reason
    named = cls.__name__
    generic = named in GENERIC_PIPELINES
    needed = set() if generic else needed_modules(cls, kwargs)
    in_repo = known_pipeline(hub_id)
    if not generic and in_repo and in_repo != named and not carries(in_repo, needed):
        missing = ", ".join(sorted(needed - _modules_of(in_repo)))
        raise NoSuchModel(
            f"{named}.from_pretrained({hub_id!r}): that repo holds a {in_repo} "
            f"(guidelint's table of known models), which has no {missing} for a {named}"
        )
    order = candidates(cls, found, in_repo)
    why = ""
    for candidate in order:
        if not build.buildable(candidate) or not (generic or carries(candidate, needed)):
            continue
        try:
            with state.quietly_building():
                folder = build.checkpoint_for(
                    candidate,
                    state.cache_override,
                    pag_class(named, candidate, kwargs),
                    (found.variant and variant_for(hub_id, candidate))
                    or coarse_variant(state, candidate),
                )
        except build.CannotBuild as error:  # a constraint its tiny config cannot meet
            why = why or f": {error}"
            continue
        return folder, candidate, found.reason
    wanted = order[0]
    raise UnsupportedModel(
        f"{named}.from_pretrained({hub_id!r}) needs a tiny {wanted} ({found.reason}), and "
        f"guidelint cannot build one{why}",
        wanted,
    )


def coarse_variant(state: State, pipeline: str) -> str | None:
    """The coarser stand-in's variant where the example's sizes allow it (coarsen.py),
    said once in the report with why the sizes stay the real ones."""
    variant = coarsen.variant_for(pipeline, state.sources, tuple(state.fixtures))
    if variant is not None:
        state.record_once(coarsen.substitution(pipeline))
    return variant


def component_variant(state: State, pipeline: str) -> str | None:
    """The coarse variant for a component loaded alone from `pipeline`'s repo: only
    where the example's pipelines are that class, so the component and the pipeline
    it joins are built at one factor (coarsen.loads_as)."""
    if not coarsen.loads_as(pipeline, state.sources):
        return None
    return coarse_variant(state, pipeline)


def pag_class(named: str, candidate: str, kwargs: dict) -> str | None:
    """The PAG pipeline `AutoPipelineFor*(enable_pag=True)` will load a `candidate`
    checkpoint into (diffusers' own renaming): its recipes build that checkpoint, so the
    blocks a PAG example names exist, as they do in the real repo."""
    if named not in AUTO_MAPPINGS or not kwargs.get("enable_pag"):
        return None
    pag = candidate.replace("Pipeline", "PAGPipeline")
    return pag if pipeline_class(pag) is not None else None


def _modules_of(class_name: str) -> set[str]:
    found = pipeline_class(class_name)
    return set(found._get_signature_keys(found)[0]) if found is not None else set()


def local_folder(found: Target, hub_id: str) -> Path:
    folder = Path(found.folder or "")
    if not folder.exists():
        raise UnsupportedModel(
            f"hub id '{hub_id}' -> {found.describe()}, {found.reason}: that folder does not exist"
        )
    return folder


# -- single components ------------------------------------------------------------


def component_folder(state: State, hub_id: str, cls, kind: str, kwargs: dict):
    """(folder, subfolder or None, what it is) answering a component's from_pretrained."""
    name = cls.__name__
    found = resolve_component(
        hub_id, name, models=state.models, root=state.root, subfolder=kwargs.get("subfolder")
    )
    if isinstance(found, Unresolved):
        raise refuse(found)
    if found.folder:
        folder = local_folder(found, hub_id)
        given = kwargs.get("subfolder")
        inner = None if (folder / "config.json").is_file() and not given else given
        return folder, inner, found
    if found.pipeline and build.buildable(found.pipeline):
        try:
            with state.quietly_building():
                folder = build.checkpoint_for(
                    found.pipeline,
                    state.cache_override,
                    hub_variant=found.variant or component_variant(state, found.pipeline),
                )
        except build.CannotBuild as error:
            message = f"{name}.from_pretrained({hub_id!r}): {error}"
            raise UnsupportedModel(message, error.missing) from None
        inner = (
            found.holds  # a component repo's subfolder, as the variant's tiny pipeline has it
            or kwargs.get("subfolder")
            or subfolder_holding(folder, cls, kind)
            or known_subfolder(folder, hub_id, name)
        )
        if inner is None:
            raise UnsupportedModel(
                f"{name}.from_pretrained({hub_id!r}): the tiny {found.pipeline} has no {name} "
                f"({found.reason})",
                name,
            )
        return folder, inner, found
    built = found.component or name  # an Auto class builds the class the repo holds
    try:
        with state.quietly_building():
            folder = build.component_checkpoint(built, state.cache_override)
    except build.CannotBuild as error:
        wanted = found.pipeline or found.component or name
        raise UnsupportedModel(
            f"{name}.from_pretrained({hub_id!r}) needs a tiny {wanted} ({found.reason}), and "
            f"guidelint cannot build one: {error.reason}",
            error.missing,
        ) from None
    return folder, None, Target(component=built, reason=found.reason)


def subfolder_holding(folder: Path, cls, kind: str) -> str | None:
    """The folder of a pipeline checkpoint whose component is a `cls` (or loads as one)."""
    if kind == "scheduler":
        return "scheduler"
    return _subfolder_of(folder, cls.__name__)


def known_subfolder(folder: Path, hub_id: str, auto_name: str) -> str | None:
    """An Auto class loading a repo of the components table: the subfolder of the class the
    table names for it (a tokenizer for AutoTokenizer, a model for AutoModel*)."""
    component = known_component(hub_id)
    if component is None or not is_generic_model(auto_name):
        return None
    wants_tokenizer = "Tokenizer" in auto_name
    for name in component.classes:
        if ("Tokenizer" in name) == wants_tokenizer and (found := _subfolder_of(folder, name)):
            return found
    return None


def _subfolder_of(folder: Path, name: str) -> str | None:
    try:
        index = json.loads((folder / "model_index.json").read_text())
    except (OSError, ValueError):
        return None
    entries = {k: v[1] for k, v in index.items() if isinstance(v, list) and len(v) == 2}
    exact = [k for k, v in entries.items() if v == name]
    if exact:
        return exact[0]
    stem = name.removesuffix("Fast")  # CLIPTokenizer and CLIPTokenizerFast load the same files
    loose = [k for k, v in entries.items() if v and v.removesuffix("Fast") == stem]
    return loose[0] if loose else None  # an Auto class needs the subfolder named


# -- the wrappers -----------------------------------------------------------------


def redirect(state: State, name, cls, kind: str, kwargs: dict) -> tuple[str, dict]:
    """The local folder and arguments to load instead of the hub id `name`."""
    hub_id = str(name)
    asked = kwargs.get("subfolder")
    if kind == "pipeline":
        folder, built, reason = pipeline_checkpoint(state, hub_id, cls, kwargs)
        what = f"tiny {built}" if built else f"'{folder}'"
        inner = None
    else:
        folder, inner, found = component_folder(state, hub_id, cls, kind, kwargs)
        what = found.describe()
        reason = found.reason
        if inner:
            kwargs["subfolder"] = inner
        else:
            kwargs.pop("subfolder", None)
    if kwargs.get("variant") and not Path(hub_id).exists():
        state.record(f"variant={kwargs['variant']!r} ignored: tiny checkpoints have one variant")
        kwargs.pop("variant")
    where = f" ({inner}/)" if inner else ""
    source = f"'{hub_id}'" + (f" ({asked}/)" if asked and asked != inner else "")
    state.record(f"{cls.__name__}.from_pretrained: hub id {source} -> {what}{where}, {reason}")
    return str(folder), kwargs


def wrap(owner, kind: str) -> None:
    """Replace the classmethod `owner.from_pretrained` by one that resolves hub ids first."""
    original = owner.__dict__["from_pretrained"].__func__

    def from_pretrained(cls, *args, **kwargs):
        state = current()
        if state is None:
            return original(cls, *args, **kwargs)
        if args:
            name, args = args[0], args[1:]
        else:
            key = next((k for k in NAME_KEYS if k in kwargs), None)
            name = kwargs.pop(key) if key else None
        kwargs = cpu_kwargs(kwargs, state, cls.__name__)
        if name is not None and is_hub_id(name):
            if kind == "scheduler" and _default_scheduler(state, os.fspath(name), cls):
                return cls()
            name, kwargs = redirect(state, os.fspath(name), cls, kind, kwargs)
        return original(cls, name, *args, **kwargs)

    remember_original(from_pretrained, original)
    owner.from_pretrained = classmethod(from_pretrained)


def _default_scheduler(state: State, hub_id: str, cls) -> bool:
    """A scheduler from an id no tiny pipeline answers: its default config (recorded)."""
    found = resolve_component(hub_id, cls.__name__, models=state.models, root=state.root)
    if not isinstance(found, Target) or found.pipeline or found.folder:
        return False
    state.record(
        f"{cls.__name__}.from_pretrained: hub id '{hub_id}' -> the class's default "
        f"config, {found.reason}"
    )
    return True


def record_pipelines() -> None:
    """Tell the state each pipeline built: every pipeline's __init__ registers its modules."""
    from diffusers import DiffusionPipeline

    original = DiffusionPipeline.register_modules

    def register_modules(self, **kwargs):
        state = current()
        if state is not None and not getattr(self, "_guidelint_recorded", False):
            self._guidelint_recorded = True
            state.built_pipeline(type(self).__name__)
        return original(self, **kwargs)

    remember_original(register_modules, original)
    setattr(DiffusionPipeline, "register_modules", register_modules)  # noqa: B010 - mypy


def install() -> None:
    """Wrap every loader; those of modules not imported yet, right after their import."""
    from diffusers import DiffusionPipeline, ModelMixin, SchedulerMixin
    from diffusers.models.modeling_utils import LegacyModelMixin

    from guidelint.runner.diffusers_backend.hooks import when_imported

    wrap(DiffusionPipeline, "pipeline")
    for owner in (ModelMixin, LegacyModelMixin):
        wrap(owner, "model")
    wrap(SchedulerMixin, "scheduler")
    record_pipelines()
    when_imported("diffusers.pipelines.auto_pipeline", _wrap_auto_pipelines)
    when_imported("diffusers.models.auto_model", lambda module: wrap(module.AutoModel, "model"))
    when_imported("diffusers.modular_pipelines.modular_pipeline", _wrap_modular)


def wrap_modular(owner) -> None:
    """`ModularPipeline(Blocks).from_pretrained(hub id)`: the repo's own blocks and config
    (modular_model_index.json, code run with trust_remote_code) are what it loads, so only
    a local folder the user maps the id to can answer it; otherwise unsupported-model."""
    original = owner.__dict__["from_pretrained"].__func__

    def from_pretrained(cls, name=None, *args, **kwargs):
        state = current()
        if state is None or name is None or not is_hub_id(name):
            return original(cls, name, *args, **kwargs)
        hub_id = os.fspath(name)
        mapped = by_pattern(hub_id, state.models, state.root)
        if mapped is not None and mapped.folder:
            folder = local_folder(mapped, hub_id)
            state.record(f"{cls.__name__}.from_pretrained: hub id '{hub_id}' -> '{folder}'")
            return original(cls, str(folder), *args, **kwargs)
        raise UnsupportedModel(
            f"{cls.__name__}.from_pretrained({hub_id!r}) loads the blocks and modular config "
            "that hub repo defines (its own code, trust_remote_code); guidelint builds tiny "
            "checkpoints of library classes only (map the id to a local folder in "
            "[tool.guidelint.runner.models])",
            hub_id,
        )

    remember_original(from_pretrained, original)
    owner.from_pretrained = classmethod(from_pretrained)


def _wrap_modular(module) -> None:
    for name in ("ModularPipeline", "ModularPipelineBlocks"):
        wrap_modular(getattr(module, name))


def _wrap_auto_pipelines(module) -> None:
    for name in AUTO_MAPPINGS:
        wrap(getattr(module, name), "pipeline")
