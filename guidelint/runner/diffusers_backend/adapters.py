"""LoRA weights named by a hub id: the outcome unsupported-model, never the example's error.

`pipe.load_lora_weights("owner/repo", weight_name=...)` (and every LoRA loader of
diffusers, through `_fetch_state_dict`) downloads a file the runner has no tiny stand-in
for; offline, diffusers says "does not appear to have a file named ..." or "you must
specify a 'weight_name'", which read as the example's bug. A repo the user maps to a
local folder in `[tool.guidelint.runner.models]` loads from there.
"""

from __future__ import annotations

import os

from guidelint.runner.diffusers_backend.hooks import when_imported
from guidelint.runner.diffusers_backend.loading import UnsupportedModel, local_folder
from guidelint.runner.diffusers_backend.resolve import by_pattern, is_hub_id
from guidelint.runner.diffusers_backend.state import current, remember_original

# the modules that import `_fetch_state_dict` by name
FETCHERS = (
    "diffusers.loaders.lora_base",
    "diffusers.loaders.lora_pipeline",
    "diffusers.loaders.peft",
)


SOURCE = "pretrained_model_name_or_path_or_dict"  # its first parameter


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
        named = f", weight_name={weight_name!r}" if weight_name else ""
        raise UnsupportedModel(
            f"LoRA weights from the hub repo {hub_id!r}{named}: guidelint builds no tiny "
            "LoRA files (map the repo to a local folder holding them in "
            "[tool.guidelint.runner.models])",
            hub_id,
        )

    remember_original(fetch_state_dict, original)
    module._fetch_state_dict = fetch_state_dict


def install() -> None:
    for name in FETCHERS:
        when_imported(name, _wrap)
