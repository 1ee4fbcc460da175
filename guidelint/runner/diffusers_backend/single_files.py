"""Single-file checkpoints an example fetches by name, made from tiny stand-ins of their class.

`ZImageControlNetModel.from_single_file(hf_hub_download("alibaba-pai/Z-Image-Turbo-Fun-
Controlnet-Union", filename="Z-Image-Turbo-Fun-Controlnet-Union.safetensors"))` downloads
one safetensors file in the original key layout, then diffusers infers the model type from
its keys (`infer_diffusers_model_type`), reads that type's config from a hub repo
(`hlky/Z-Image-Turbo-Fun-Controlnet-Union*`) with `cls.load_config` and converts the keys
(for Z-Image's ControlNets the conversion keeps them as they are). For the files below the
runner serves the state dict of the tiny stand-in of that class (the model's own keys, not
the DiT modules the pipeline lends it), so diffusers' detection, config choice and loading
run as they do on the real file; during `from_single_file` the config repo's id is answered
by the tiny checkpoint the table maps it to (`[variants]` in known_models.toml), and half
dtypes become float32 with no GPU, as for `from_pretrained`. The stand-ins are built by the
warm worker before the sandbox closes (`build_ahead`); a file the table does not name is
still refused, naming it.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass
from pathlib import Path

from guidelint.runner.diffusers_backend.state import State, bound, current, remember_original

HUB = "https://huggingface.co/"


@dataclass(frozen=True)
class SingleFile:
    """What answers one file: the class, whose tiny checkpoint (by the hub id `weights`)
    gives the weights, the config repo diffusers infers for it, and key prefixes written
    as zeros (a release whose file holds untrained zeros there, which its detection reads)."""

    cls: str
    weights: str
    config: str
    zeroed: tuple[str, ...] = ()


ZIMAGE_CONTROLNET = "ZImageControlNetModel"
UNION = "alibaba-pai/z-image-turbo-fun-controlnet-union"
UNION_2 = "alibaba-pai/z-image-turbo-fun-controlnet-union-2.0"
CONFIG_1 = "hlky/Z-Image-Turbo-Fun-Controlnet-Union"
CONFIG_2_0 = "hlky/Z-Image-Turbo-Fun-Controlnet-Union-2.0"
CONFIG_2_1 = "hlky/Z-Image-Turbo-Fun-Controlnet-Union-2.1"

# (repo, lower-case; file name) -> what answers it
KNOWN: dict[tuple[str, str], SingleFile] = {
    (UNION, "Z-Image-Turbo-Fun-Controlnet-Union.safetensors"): SingleFile(
        ZIMAGE_CONTROLNET, CONFIG_1, CONFIG_1
    ),
    (UNION_2, "Z-Image-Turbo-Fun-Controlnet-Union-2.1.safetensors"): SingleFile(
        ZIMAGE_CONTROLNET, CONFIG_2_1, CONFIG_2_1
    ),
    # 2.0's file has 2.1's keys; its first control refiner's before_proj is zero (diffusers
    # tells the two apart by that alone), and 2.0 runs those blocks as control layers
    (UNION_2, "Z-Image-Turbo-Fun-Controlnet-Union-2.0.safetensors"): SingleFile(
        ZIMAGE_CONTROLNET, CONFIG_2_1, CONFIG_2_0, zeroed=("control_noise_refiner.0.before_proj.",)
    ),
}


def _split(url: str) -> tuple[str, str] | None:
    """(repo lower-case, file name) of a hub file URL (`resolve/` or `blob/`, any revision)."""
    if not url.startswith(HUB):
        return None
    parts = url[len(HUB) :].split("?", 1)[0].split("/")
    if len(parts) < 5 or parts[2] not in ("resolve", "blob"):
        return None
    return f"{parts[0]}/{parts[1]}".lower(), "/".join(parts[4:])


def known(url: str) -> SingleFile | None:
    key = _split(url)
    return KNOWN.get(key) if key else None


def describe(url: str) -> str:
    entry = known(url)
    assert entry is not None
    return (
        f"the state dict of guidelint's tiny {entry.cls} for '{entry.weights}' "
        "as a single file in the real key layout"
    )


def made(url: str, state: State) -> bytes:
    """The safetensors bytes answering `url`: the stand-in's own weights, in its layout."""
    import torch
    from safetensors.torch import load_file, save

    entry = known(url)
    assert entry is not None
    weights = _weights_file(state, entry)
    own = _own_keys(entry.cls, weights.parent)
    tensors = {key: value for key, value in load_file(str(weights)).items() if key in own}
    for key in tensors:
        if key.startswith(entry.zeroed):
            tensors[key] = torch.zeros_like(tensors[key])
    return save(tensors, metadata={"format": "pt"})


def _weights_file(state: State, entry: SingleFile) -> Path:
    import diffusers

    from guidelint.runner.diffusers_backend import loading

    cls = getattr(diffusers, entry.cls)
    folder, inner, _ = loading.component_folder(state, entry.weights, cls, "model", {})
    return Path(folder) / (inner or "") / "diffusion_pytorch_model.safetensors"


def _own_keys(class_name: str, folder: Path) -> set[str]:
    """The keys a model of that config has itself: a pipeline's ControlNet also carries the
    DiT modules `from_transformer` lends it, which the real single file does not hold."""
    import diffusers
    import torch

    cls = getattr(diffusers, class_name)
    with torch.device("meta"):
        model = cls.from_config(cls.load_config(str(folder)))
    return set(model.state_dict())


def build_ahead(state: State, ids: list[str]) -> None:
    """Build, in the warm worker, the tiny checkpoints that answer the files of the repos
    the examples quote: the weights' and the config's (the children may not write them)."""
    import diffusers

    from guidelint.runner.diffusers_backend import loading

    quoted = {hub_id.lower() for hub_id in ids}
    for (repo, _), entry in KNOWN.items():
        if repo not in quoted:
            continue
        cls = getattr(diffusers, entry.cls)
        for hub_id in dict.fromkeys((entry.weights, entry.config)):
            try:
                loading.component_folder(state, hub_id, cls, "model", {})
            except Exception:  # noqa: BLE001 - the child meets it again and says why
                continue


# -- from_single_file: its config read and its dtype ------------------------------------

_IN_SINGLE_FILE: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "guidelint_in_single_file", default=False
)


def install() -> None:
    from diffusers.configuration_utils import ConfigMixin
    from diffusers.loaders.single_file_model import FromOriginalModelMixin

    _wrap_from_single_file(FromOriginalModelMixin)
    _wrap_load_config(ConfigMixin)


def _wrap_from_single_file(owner) -> None:
    from guidelint.runner.diffusers_backend import loading

    original = owner.__dict__["from_single_file"].__func__

    def from_single_file(cls, *args, **kwargs):
        state = current()
        if state is None:
            return original(cls, *args, **kwargs)
        kwargs = loading.cpu_kwargs(kwargs, state, cls.__name__, "from_single_file")
        with bound(_IN_SINGLE_FILE, True):
            return original(cls, *args, **kwargs)

    remember_original(from_single_file, original)
    owner.from_single_file = classmethod(from_single_file)


def _wrap_load_config(owner) -> None:
    """Inside from_single_file only: the config repo diffusers infers from the file's keys
    is answered like a from_pretrained of that id (its tiny checkpoint's config)."""
    import os

    from guidelint.runner.diffusers_backend import loading
    from guidelint.runner.diffusers_backend.resolve import is_hub_id

    original = owner.__dict__["load_config"].__func__

    def load_config(cls, pretrained_model_name_or_path=None, *args, **kwargs):
        state = current()
        name = pretrained_model_name_or_path
        if state is None or not _IN_SINGLE_FILE.get() or name is None or not is_hub_id(name):
            return original(cls, name, *args, **kwargs)
        hub_id = os.fspath(name)
        asked = kwargs.get("subfolder")
        folder, inner, found = loading.component_folder(
            state, hub_id, cls, "model", {"subfolder": asked}
        )
        kwargs["subfolder"] = inner
        where = f" ({inner}/)" if inner else ""
        state.record(
            f"{cls.__name__}.from_single_file: its config '{hub_id}' -> "
            f"{found.describe()}{where}, {found.reason}"
        )
        return original(cls, str(folder), *args, **kwargs)

    remember_original(load_config, original)
    owner.load_config = classmethod(load_config)
