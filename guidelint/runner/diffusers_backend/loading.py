"""`from_pretrained` with hub ids answered by tiny local checkpoints (the real loader runs).

Each wrapper rewrites the arguments and calls the library's own from_pretrained on a
local folder: weights are read from safetensors, configs parsed, components wired,
exactly as for a downloaded checkpoint.
"""

from __future__ import annotations

import os
from pathlib import Path

from guidelint.runner.diffusers_backend import cache
from guidelint.runner.diffusers_backend.resolve import Resolution, is_hub_id, resolve
from guidelint.runner.diffusers_backend.state import State, current, remember_original

NAME_KEYS = ("pretrained_model_name_or_path", "pretrained_model_or_path")
DTYPE_KEYS = ("torch_dtype", "dtype")


class NotAvailableOffline(OSError):
    """A hub id nothing stands in for (what the library raises offline is an OSError too)."""


def not_offline_message(hub_id: str, class_name: str) -> str:
    return (
        f"{class_name}.from_pretrained({hub_id!r}): the hub is not contacted while examples run "
        f"and no tiny checkpoint stands in for this id; map it in "
        f"[tool.guidelint.runner.models] to a tiny pipeline (`guidelint tiny list`) or a local "
        f"folder"
    )


def cpu_kwargs(kwargs: dict, state: State, class_name: str) -> dict:
    """Half dtypes -> float32 and device_map dropped, when there is no GPU."""
    import torch

    if state.gpu:
        return kwargs
    kwargs = dict(kwargs)
    for key in DTYPE_KEYS:
        value = kwargs.get(key)
        if value in (torch.float16, torch.bfloat16):
            kwargs[key] = torch.float32
            state.record(f"{class_name}.from_pretrained({key}={value}) -> torch.float32 (no GPU)")
        elif isinstance(value, dict):  # per-component dtypes
            kwargs[key] = {k: _float32(v) for k, v in value.items()}
    if kwargs.get("device_map") is not None:
        state.record(
            f"{class_name}.from_pretrained(device_map={kwargs['device_map']!r}) "
            "dropped: loads on cpu (no GPU)"
        )
        kwargs.pop("device_map")
    return kwargs


def _float32(dtype):
    import torch

    return torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype


def find_resolution(state: State, hub_id: str, cls, kind: str, subfolder) -> Resolution | None:
    return resolve(
        str(hub_id),
        cls.__name__,
        models=state.models,
        cache=cache.cache_dir(state.cache_override),
        single_model=kind != "pipeline",
        subfolder=subfolder,
        is_scheduler=kind == "scheduler",
        root=state.root,
    )


def redirect(state: State, name, cls, kind: str, kwargs: dict) -> tuple[str, dict]:
    """The local folder and arguments to load instead of the hub id `name`."""
    found = find_resolution(state, name, cls, kind, kwargs.get("subfolder"))
    if found is None:
        raise NotAvailableOffline(not_offline_message(str(name), cls.__name__))
    if found.family:
        cache.ensure_built(found.family, state.cache_override)
        if kwargs.get("variant"):
            variant = kwargs["variant"]
            state.record(f"variant={variant!r} ignored: tiny checkpoints have one variant")
            kwargs.pop("variant")
    elif not Path(found.folder).exists():
        raise NotAvailableOffline(f"{found.describe(str(name))}: that folder does not exist")
    state.record(f"{cls.__name__}.from_pretrained: {found.describe(str(name))}")
    if found.subfolder:
        kwargs["subfolder"] = found.subfolder
    return found.folder, kwargs


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
            name, kwargs = redirect(state, os.fspath(name), cls, kind, kwargs)
        return original(cls, name, *args, **kwargs)

    remember_original(from_pretrained, original)
    owner.from_pretrained = classmethod(from_pretrained)


def install() -> None:
    import diffusers
    from diffusers import DiffusionPipeline, ModelMixin, SchedulerMixin
    from diffusers.models.modeling_utils import LegacyModelMixin
    from transformers import PreTrainedModel
    from transformers.tokenization_utils_base import PreTrainedTokenizerBase

    wrap(DiffusionPipeline, "pipeline")
    for name in (
        "AutoPipelineForText2Image",
        "AutoPipelineForImage2Image",
        "AutoPipelineForInpainting",
    ):
        wrap(getattr(diffusers, name), "pipeline")
    for owner in (ModelMixin, LegacyModelMixin, PreTrainedModel, PreTrainedTokenizerBase):
        wrap(owner, "model")
    wrap(SchedulerMixin, "scheduler")
