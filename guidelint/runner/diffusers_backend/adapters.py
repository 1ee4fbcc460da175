"""LoRA weights named by a hub id: a tiny LoRA for the repos examples name, else the
outcome unsupported-model, never the example's error.

`pipe.load_lora_weights("owner/repo", weight_name=...)` (and every LoRA loader of
diffusers, through `_fetch_state_dict`) downloads a file; offline, diffusers says "does
not appear to have a file named ..." or "you must specify a 'weight_name'", which read
as the example's bug. For the repos in `KNOWN_LORAS` (and their file names), the state
dict is made here instead, for the pipeline that loads it: a rank-2 LoRA in diffusers'
PEFT key format (`unet.<module>.lora_A.weight`, `...lora_B.weight`) over every attention
projection of the stand-in's denoiser, seeded by the repo and file, with both matrices
nonzero so the loaded adapter changes the forward. diffusers' own conversion and PEFT's
injection then load it as they would the real file. A repo the table does not know is
treated as a tiny checkpoint of an unknown hub id is for models: its LoRA is made for
the class that loads it (the pipeline's own denoiser), and the report says the repo was
not known. A known repo asked for a file it does not hold stays unsupported-model, naming
it (the table lists each repo's files). A repo the user maps to a local folder in
`[tool.guidelint.runner.models]` loads from there.
"""

from __future__ import annotations

import contextvars
import hashlib
import os

from guidelint.runner.diffusers_backend.hooks import when_imported
from guidelint.runner.diffusers_backend.loading import UnsupportedModel, local_folder
from guidelint.runner.diffusers_backend.resolve import by_pattern, is_hub_id
from guidelint.runner.diffusers_backend.state import bound, current, remember_original

# the modules that import `_fetch_state_dict` by name
FETCHERS = (
    "diffusers.loaders.lora_base",
    "diffusers.loaders.lora_pipeline",
    "diffusers.loaders.peft",
)


SOURCE = "pretrained_model_name_or_path_or_dict"  # its first parameter

# LoRA repos diffusers' examples load, with the files each holds (None: the call may
# leave weight_name out and diffusers finds the repo's one file).
KNOWN_LORAS: dict[str, tuple[str | None, ...]] = {
    "wangfuyun/AnimateLCM": ("AnimateLCM_sd15_t2v_lora.safetensors",),
    "guoyww/animatediff-motion-lora-v1-5-3": (None, "diffusion_pytorch_model.safetensors"),
    "Lightricks/LTX-2-19b-LoRA-Camera-Control-Dolly-In": (
        "ltx-2-19b-lora-camera-control-dolly-in.safetensors",
    ),
    "Lightricks/LTX-2.3-22b-IC-LoRA-HDR": ("ltx-2.3-22b-ic-lora-hdr-0.9.safetensors",),
    "latent-consistency/lcm-lora-sdv1-5": (None, "pytorch_lora_weights.safetensors"),
    "latent-consistency/lcm-lora-sdxl": (None, "pytorch_lora_weights.safetensors"),
}
LORA_RANK = 2
# the attention projections every diffusers attention block names so (Attention's)
LORA_TARGETS = ("to_q", "to_k", "to_v", "to_out.0")
DENOISERS = ("unet", "transformer")

# the pipeline whose load_lora_weights() is running: the LoRA is made for its denoiser
_LOADING: contextvars.ContextVar[object | None] = contextvars.ContextVar(
    "guidelint_lora_pipeline", default=None
)


def _wrap(module) -> None:
    original = getattr(module, "_fetch_state_dict", None)
    if original is None or getattr(original, "__wrapped__", None) is not None:
        return

    def fetch_state_dict(*given, **kwargs):
        args = list(given)
        source = args[0] if args else kwargs.get(SOURCE)
        state = current()
        if state is None or not isinstance(source, (str, os.PathLike)) or not is_hub_id(source):
            return original(*args, **kwargs)
        hub_id = os.fspath(source)
        mapped = by_pattern(hub_id, state.models, state.root)
        if mapped is not None and mapped.folder:
            folder = str(local_folder(mapped, hub_id))
            state.record(f"LoRA weights: hub id '{hub_id}' -> '{folder}', {mapped.reason}")
            if args:
                args[0] = folder
            else:
                kwargs[SOURCE] = folder
            return original(*args, **kwargs)
        weight_name = args[1] if len(args) > 1 else kwargs.get("weight_name")
        pipeline = _LOADING.get()
        made = tiny_lora(pipeline, hub_id, weight_name)
        named = f", weight_name={weight_name!r}" if weight_name else ""
        if made is not None:
            prefix, lora = made
            state.record(
                f"LoRA weights: hub id '{hub_id}'{named} -> a tiny rank-{LORA_RANK} LoRA "
                f"over the stand-in's {prefix} attention projections ({len(lora) // 2} "
                f"layers){_whose(hub_id, pipeline)}"
            )
            return lora, None  # diffusers takes (state dict, LoRA metadata)
        raise UnsupportedModel(
            f"LoRA weights from the hub repo {hub_id!r}{named}: {_why_not(hub_id, pipeline)}; "
            "map this repo to a local folder holding its files in "
            "[tool.guidelint.runner.models]",
            hub_id,
        )

    remember_original(fetch_state_dict, original)
    module._fetch_state_dict = fetch_state_dict


def tiny_lora(pipeline, hub_id: str, weight_name) -> tuple[str, dict] | None:
    """(denoiser slot, state dict) for `hub_id`'s file loaded into `pipeline`: any repo,
    unless the table knows the repo and it holds no such file."""
    files = KNOWN_LORAS.get(hub_id)
    if files is not None and weight_name not in files:
        return None
    slot = denoiser_slot(pipeline)
    if slot is None:
        return None
    return slot, lora_state_dict(getattr(pipeline, slot), slot, f"{hub_id}/{weight_name}")


def denoiser_slot(pipeline) -> str | None:
    """The slot of the pipeline's denoiser that its LoRA loader loads into, if any."""
    loadable = getattr(pipeline, "_lora_loadable_modules", ())
    return next((s for s in DENOISERS if s in loadable and getattr(pipeline, s, None)), None)


def _whose(hub_id: str, pipeline) -> str:
    """How the report says which LoRA this is: a repo of the table, or one made for the
    pipeline that loads it, as an unknown hub id gets a tiny model of the class naming it."""
    if hub_id in KNOWN_LORAS:
        return ""
    return (
        f"; a repo guidelint's table does not know, so made for the class that loads it "
        f"({type(pipeline).__name__})"
    )


def _why_not(hub_id: str, pipeline) -> str:
    files = KNOWN_LORAS.get(hub_id)
    if files is not None:
        held = ", ".join(repr(f) for f in files if f)
        return f"guidelint's table knows this repo and its files ({held}), not this one"
    if pipeline is None:
        return (
            "loaded outside a pipeline's load_lora_weights(), so guidelint cannot tell "
            "which model it is for"
        )
    return f"{type(pipeline).__name__} has no denoiser a LoRA loader loads into"


def lora_state_dict(model, prefix: str, seed_text: str) -> dict:
    """LoRA A and B matrices for every attention projection of `model`, seeded."""
    import torch

    seed = int.from_bytes(hashlib.sha256(seed_text.encode()).digest()[:8], "little")
    generator = torch.Generator().manual_seed(seed)
    lora = {}
    for name, module in model.named_modules():
        targeted = any(name == t or name.endswith("." + t) for t in LORA_TARGETS)
        if not targeted or not isinstance(module, torch.nn.Linear):
            continue
        down = torch.randn(LORA_RANK, module.in_features, generator=generator) * 0.1
        up = torch.randn(module.out_features, LORA_RANK, generator=generator) * 0.1
        lora[f"{prefix}.{name}.lora_A.weight"] = down
        lora[f"{prefix}.{name}.lora_B.weight"] = up
    return lora


def _wrap_loader(cls) -> None:
    """`cls.load_lora_weights` tells the fetcher which pipeline it loads into."""
    original = vars(cls).get("load_lora_weights")
    # diffusers' own decorators set __wrapped__ too: this marks guidelint's wrapper
    if original is None or getattr(original, "guidelint_lora", False):
        return

    def load_lora_weights(self, *args, **kwargs):
        with bound(_LOADING, self):
            return original(self, *args, **kwargs)

    remember_original(load_lora_weights, original)
    load_lora_weights.guidelint_lora = True  # type: ignore[attr-defined]
    cls.load_lora_weights = load_lora_weights


def _wrap_loaders(module) -> None:
    for value in list(vars(module).values()):
        if isinstance(value, type) and "load_lora_weights" in vars(value):
            _wrap_loader(value)


def install() -> None:
    for name in FETCHERS:
        when_imported(name, _wrap)
    when_imported("diffusers.loaders.lora_pipeline", _wrap_loaders)
