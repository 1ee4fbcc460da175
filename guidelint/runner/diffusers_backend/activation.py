"""preload() for the warm worker and activate() for each forked child (see __init__)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from guidelint.runner.diffusers_backend import state as backend_state

OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
}
# What common examples import; importing them once in the parent makes children free.
WARM_MODULES = (
    "torch",
    "numpy",
    "PIL.Image",
    "requests",
    "safetensors.torch",
    "transformers",
    "diffusers",
    "diffusers.utils",
)
WARM_CLASSES = (
    "DiffusionPipeline",
    "StableDiffusionPipeline",
    "StableDiffusionImg2ImgPipeline",
    "StableDiffusionInpaintPipeline",
    "StableDiffusionXLPipeline",
    "StableDiffusionXLImg2ImgPipeline",
    "StableDiffusionXLInpaintPipeline",
    "StableDiffusionControlNetPipeline",
    "StableDiffusionXLControlNetPipeline",
    "AutoPipelineForText2Image",
    "AutoPipelineForImage2Image",
    "AutoPipelineForInpainting",
    "DDPMPipeline",
    "DDIMPipeline",
    "ControlNetModel",
    "UNet2DConditionModel",
    "UNet2DModel",
    "AutoencoderKL",
    "DDIMScheduler",
    "DDPMScheduler",
    "PNDMScheduler",
    "EulerDiscreteScheduler",
    "EulerAncestralDiscreteScheduler",
    "DPMSolverMultistepScheduler",
    "UniPCMultistepScheduler",
    "LMSDiscreteScheduler",
)
OPTIONAL_MODULES = ("cv2",)  # imported when installed; a missing one is the example's error

_installed = False


def preload(names: Iterable[str] | None = None, settings: dict | None = None) -> None:
    """Import, once in the warm worker, what the examples need; children fork warm.

    `names` are the identifiers the examples use (the runner reads them from their
    sources): of diffusers' exports, only those are imported, with DiffusionPipeline
    that every loader patch needs. Without `names`, the common pipelines are.
    `settings` (the runner's, with `root`) name the tiny cache to fill.
    """
    import importlib

    for name in WARM_MODULES:
        importlib.import_module(name)
    import diffusers

    for name in classes_to_warm(names, set(dir(diffusers))):
        getattr(diffusers, name)  # resolves diffusers' lazy modules now, not in each child
    for name in OPTIONAL_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    _import_shims()
    cache = None
    if settings:
        cache = _absolute(cache_setting(settings), Path(settings.get("root") or os.getcwd()))
    _build_default_cache(names, cache, settings or {})


def classes_to_warm(names: Iterable[str] | None, exported: set[str]) -> list[str]:
    if names is None:
        return list(WARM_CLASSES)
    wanted = ["DiffusionPipeline", *sorted(set(names) & exported)]
    return list(dict.fromkeys(wanted))


def _import_shims() -> None:
    from guidelint.runner.diffusers_backend import (  # noqa: F401 - imported to be warm
        builders,
        costwatch,
        devices,
        hvkernels,
        loading,
        remote,
        single_files,
        speedups,
    )


def _build_default_cache(
    names: Iterable[str] | None, cache_override: str | None, settings: dict
) -> None:
    """Children may not write outside their sandbox, so the cache (the default one, or
    `runner.tiny-cache`) is filled here: the tiny pipelines the examples name, by class
    or by a hub id the table knows."""
    from guidelint.runner.diffusers_backend import build, coarsen
    from guidelint.runner.diffusers_backend.resolve import (
        FAMILY_ALIASES,
        known_pipeline,
        variants_named,
    )

    variants: list[tuple[str, str]] = []
    if names is None:
        wanted = list(FAMILY_ALIASES.values())
    else:
        names = list(names)
        by_id = [known_pipeline(n) for n in names if "/" in n]
        classes = [n for n in names if n.endswith("Pipeline") and "/" not in n]
        wanted = list(dict.fromkeys(c for c in (*classes, *by_id) if c))
        variants = variants_named(names)  # a known id's own checkpoint (GLIGEN's inpainting)
    coarser = [(name, coarsen.VARIANT) for name in wanted if coarsen.has_variant(name)]
    for name, variant in [(name, None) for name in wanted] + variants + coarser:
        try:
            if build.buildable(name):
                build.checkpoint_for(name, cache_override, hub_variant=variant)
        except Exception:  # noqa: BLE001 - a read-only cache, a constraint: the child says why
            continue
    if names is not None:
        build_loads_ahead(names, cache_override, settings)


def build_loads_ahead(names: list[str], cache_override: str | None, settings: dict) -> None:
    """Build what each `Class.from_pretrained(id)` the examples may make would build, for
    every class and hub id they name (the loaders' own resolution, so exactly the same
    folders): components (a DPT depth estimator, a processor), pipelines through
    AutoPipeline* (with PAG when an example asks for it) and what the table maps an id
    to. Pairs that do not go together resolve to nothing and build nothing; a class is
    built once whatever id it is paired with."""
    from guidelint.runner.diffusers_backend import coarsen, single_files
    from guidelint.runner.diffusers_backend.state import State

    def silent(sources) -> State:  # the children's resolution ([models] too), recording nothing
        return State(
            record_fn=lambda _message: None,
            gpu=True,
            cache_override=cache_override,
            root=Path(settings.get("root") or os.getcwd()),
            models=dict(settings.get("models") or {}),
            sources=sources,
        )

    ids = [name for name in names if "/" in name]
    loaders = [found for name in names if (found := _loader_kind(name)) is not None]
    states = [silent(None)]
    if coarsen.may_be_named(names):  # the coarser stand-in too, which an example may get
        states.append(silent(coarsen.ANY_SIZES))
    for state in states:
        _build_loads(state, ids, loaders, pag="enable_pag" in names)
    single_files.build_ahead(states[0], ids)  # the stand-ins of the files they fetch
    tasks = [name.removeprefix("task:") for name in names if name.startswith("task:")]
    if tasks:  # transformers.pipeline(task) without model=: the task's default model
        _build_task_defaults(states[0], tasks)


def _build_task_defaults(state, tasks: list[str]) -> None:
    """What `transformers.pipeline(task)` without model= loads (the task's default
    model and the processors beside it), for each task an example names (`task:` in
    the names run.backend_names gives): the shim builds the same folders, and the
    sandboxed child may not."""
    import transformers
    from transformers import pipelines

    from guidelint.runner.diffusers_backend import loading, transformers_hub

    for name in tasks:
        try:
            named = transformers_hub.default_model(pipelines, name)
            loading.component_folder(state, named, transformers.AutoModel, "model", {})
            transformers_hub.companions(state, named)
        except Exception:  # noqa: BLE001 - not a task, or not buildable: the child says why
            continue


def _build_loads(state, ids: list[str], loaders: list, *, pag: bool) -> None:
    from guidelint.runner.diffusers_backend import loading

    for hub_id in ids:
        for cls, kind in loaders:
            for kwargs in ({"enable_pag": True}, {}) if pag and kind == "pipeline" else ({},):
                try:
                    if kind == "pipeline":
                        loading.pipeline_checkpoint(state, hub_id, cls, kwargs)
                    else:
                        loading.component_folder(state, hub_id, cls, kind, kwargs)
                except Exception:  # noqa: BLE001 - the child meets it again and says why
                    continue


def _loader_kind(name: str):
    """(class, what it loads) for a class of diffusers or transformers with from_pretrained."""
    import inspect

    import diffusers
    import transformers

    for library in (diffusers, transformers):
        try:
            found = getattr(library, name, None)
        except (ImportError, RuntimeError):  # a lazy class whose backend is missing
            return None
        if inspect.isclass(found) and hasattr(found, "from_pretrained"):
            if issubclass(found, diffusers.DiffusionPipeline) or name.startswith("AutoPipeline"):
                return found, "pipeline"
            if issubclass(found, diffusers.SchedulerMixin):
                return found, "scheduler"
            return found, "model"
    return None


def go_offline() -> None:
    os.environ.update(OFFLINE_ENV)
    from huggingface_hub import constants

    constants.HF_HUB_OFFLINE = True  # read once at import, so the variable alone is too late
    constants.HF_HUB_DISABLE_TELEMETRY = True


def activate(settings: dict, record: Callable[[str], None]) -> None:
    import torch

    torch.set_num_threads(1)  # first: a forked child's thread pool can deadlock otherwise
    go_offline()
    state = state_from(settings, record)
    backend_state.set_current(state)
    install_once(state)


DEVICES = ("auto", "gpu", "cpu")


def gpu_path(settings: dict) -> bool:
    """Whether examples run as written on the GPU (no device or dtype substitutions,
    offloading and xformers real): $GUIDELINT_DIFFUSERS_DEVICE, the one switch. `auto`
    (the default): when the worker sees CUDA; `cpu`: never, the substitutions apply even
    on a GPU machine (what CI without one gets); `gpu`: always, and no GPU is an error."""
    device = settings.get("device") or "auto"
    if device not in DEVICES:
        raise ValueError(f"GUIDELINT_DIFFUSERS_DEVICE={device!r}: one of {', '.join(DEVICES)}")
    seen = bool(settings.get("gpu"))
    if device == "gpu" and not seen:
        raise RuntimeError("GUIDELINT_DIFFUSERS_DEVICE=gpu, but the runner sees no CUDA device")
    return seen and device != "cpu"


def state_from(settings: dict, record: Callable[[str], None]) -> backend_state.State:
    root = Path(settings.get("root") or os.getcwd())
    return backend_state.State(
        record_fn=record,
        gpu=gpu_path(settings),
        cache_override=_absolute(cache_setting(settings), root),
        root=root,
        models=dict(settings.get("models") or {}),
        fixtures=dict(settings.get("fixtures") or {}),
        pipeline_fn=settings.get("on_pipeline"),
        budget_s=costwatch_budget(settings),
        sources=_sources(settings),
    )


def _sources(settings: dict) -> tuple[tuple[str, bool], ...] | None:
    """The unit's examples (text, `>>>` prompts) the child passes: coarsen.py reads them."""
    given = settings.get("sources")
    return None if given is None else tuple((str(text), bool(repl)) for text, repl in given)


def costwatch_budget(settings: dict) -> float | None:
    from guidelint.runner.diffusers_backend import costwatch

    return costwatch.budget(settings)


def cache_setting(settings: dict) -> str | None:
    """`runner.tiny-cache`, else $GUIDELINT_TINY_CACHE as the runner passed it on."""
    return settings.get("tiny_cache") or settings.get("tiny_cache_env")


def _absolute(path: str | None, root: Path) -> str | None:
    if not path:
        return None
    expanded = Path(os.path.expanduser(path))
    return str(expanded if expanded.is_absolute() else root / expanded)


def install_once(state: backend_state.State) -> None:
    """Patch once per process; each patch asks the current state whether to act."""
    global _installed
    if _installed:
        return
    from guidelint.runner.diffusers_backend import (
        adapters,
        condmemo,
        costwatch,
        devices,
        hvkernels,
        loading,
        magvitkernels,
        maskless,
        remote,
        single_files,
        speedups,
        transformers_hub,
        wankernels,
    )

    loading.install()
    single_files.install()
    adapters.install()
    costwatch.install()
    transformers_hub.install()
    remote.install()
    if not state.gpu:  # with a GPU, examples run as written
        devices.install()
        speedups.install()
        condmemo.install()
        wankernels.install()
        magvitkernels.install()
        hvkernels.install()
        maskless.install()
    _installed = True
