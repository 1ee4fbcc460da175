"""The annotator weights controlnet_aux fetches from `lllyasviel/Annotators`, made here.

`LineartAnimeDetector.from_pretrained("lllyasviel/Annotators")` and
`OpenposeDetector.from_pretrained(...)` download `.pth` state dicts with
`hf_hub_download`, then build a fixed architecture of controlnet_aux's own (no config
in the file: the class and its sizes are in controlnet_aux's code) and load the file
into it. Offline that download fails, which reads as the example's error. For the
files below the class is certain, so the runner makes the file: that class, built at
its real sizes (it has no smaller form), with weights drawn from a seed of the URL, and
saved in the key form its loader reads. The output is noise like every stand-in's; the
report lists the substitution. Any other annotator file is still refused, naming it.

controlnet_aux's modules bind `hf_hub_download` by name at import, before the runner's
patch of huggingface_hub: `rebind` points them at the patched function.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from typing import Any

ANNOTATORS = "https://huggingface.co/lllyasviel/Annotators/resolve/main/"

# controlnet_aux's modules that call hf_hub_download by the name they imported
FETCHING_MODULES = tuple(
    f"controlnet_aux.{name}"
    for name in (
        "anyline",
        "hed",
        "leres",
        "lineart",
        "lineart_anime",
        "midas",
        "mlsd",
        "normalbae",
        "open_pose",
        "pidi",
        "segment_anything",
        "teed",
        "zoe",
    )
)


def _lineart_anime() -> Any:
    import functools

    from controlnet_aux.lineart_anime import UnetGenerator
    from torch import nn

    # as LineartAnimeDetector.from_pretrained builds it before load_state_dict
    norm_layer = functools.partial(nn.InstanceNorm2d, affine=False, track_running_stats=False)
    return UnetGenerator(3, 1, 8, 64, norm_layer=norm_layer, use_dropout=False)


def _body() -> Any:
    from controlnet_aux.open_pose.model import bodypose_model

    return bodypose_model()


def _hand() -> Any:
    from controlnet_aux.open_pose.model import handpose_model

    return handpose_model()


def _face() -> Any:
    from controlnet_aux.open_pose.face import FaceNet

    return FaceNet()


def _whole(state: dict) -> dict:
    return state


def _transferred(state: dict) -> dict:
    # open_pose.util.transfer reads each model key without its first part
    return {key.split(".", 1)[1]: value for key, value in state.items()}


# file -> (what it is, the builder of its class, the key form its loader reads)
KNOWN: dict[str, tuple[str, Callable[[], Any], Callable[[dict], dict]]] = {
    "netG.pth": (
        "controlnet_aux's UnetGenerator(3, 1, 8, 64), LineartAnimeDetector's",
        _lineart_anime,
        _whole,
    ),
    "body_pose_model.pth": (
        "controlnet_aux's bodypose_model, Openpose's body",
        _body,
        _transferred,
    ),
    "hand_pose_model.pth": (
        "controlnet_aux's handpose_model, Openpose's hand",
        _hand,
        _transferred,
    ),
    "facenet.pth": ("controlnet_aux's FaceNet, Openpose's face", _face, _whole),
}


def known(url: str) -> str | None:
    """The file name of `url` when it is an annotator file made here."""
    if not url.startswith(ANNOTATORS):
        return None
    name = url[len(ANNOTATORS) :]
    return name if name in KNOWN else None


def describe(url: str) -> str:
    name = known(url)
    assert name is not None
    return f"{KNOWN[name][0]} at its real sizes, seeded random weights (no network)"


def made(url: str) -> bytes:
    """The `.pth` bytes for a known annotator URL: its class, seeded by the URL."""
    import torch

    name = known(url)
    assert name is not None
    _, build, keyed = KNOWN[name]
    seed = int.from_bytes(hashlib.sha256(url.encode()).digest()[:4], "big")
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = build()
    buffer = io.BytesIO()
    torch.save(keyed(model.state_dict()), buffer)
    return buffer.getvalue()


def rebind(patched: Callable[..., Any]) -> None:
    """Point controlnet_aux's imported `hf_hub_download` names at the patched function."""
    from guidelint.runner.diffusers_backend.hooks import when_imported

    def point(module) -> None:
        if hasattr(module, "hf_hub_download"):
            module.hf_hub_download = patched

    for name in FETCHING_MODULES:
        when_imported(name, point)
