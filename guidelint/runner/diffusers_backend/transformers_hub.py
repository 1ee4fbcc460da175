"""transformers' loaders with hub ids: models, tokenizers, processors, Auto* and pipeline().

They resolve like diffusers' components (loading.component_folder): a tiny stand-in
of the class the repo really holds, or unsupported-model naming it, never the
library's "no config.json" from a hub it may not reach.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend import loading
from guidelint.runner.diffusers_backend.hooks import when_imported
from guidelint.runner.diffusers_backend.resolve import is_hub_id
from guidelint.runner.diffusers_backend.state import current, remember_original

# Where transformers defines from_pretrained: concrete classes inherit one of the
# first five, and each Auto class has its own. Each is wrapped when its module is
# imported, so an example that never loads one pays nothing for it.
LOADERS = (
    ("transformers.modeling_utils", "PreTrainedModel"),
    ("transformers.tokenization_utils_base", "PreTrainedTokenizerBase"),
    ("transformers.image_processing_base", "ImageProcessingMixin"),
    ("transformers.feature_extraction_utils", "FeatureExtractionMixin"),
    ("transformers.processing_utils", "ProcessorMixin"),
    ("transformers.models.auto.auto_factory", "_BaseAutoModelClass"),
    ("transformers.models.auto.tokenization_auto", "AutoTokenizer"),
    ("transformers.models.auto.processing_auto", "AutoProcessor"),
    ("transformers.models.auto.image_processing_auto", "AutoImageProcessor"),
    ("transformers.models.auto.feature_extraction_auto", "AutoFeatureExtractor"),
    ("transformers.models.auto.configuration_auto", "AutoConfig"),
)


def _wrapper_of(name: str):
    def patch(module) -> None:
        owner = getattr(module, name, None)
        if owner is not None and "from_pretrained" in owner.__dict__:
            loading.wrap(owner, "model")

    return patch


def patch_pipeline(pipelines) -> None:
    """`transformers.pipeline(task, model=...)`: the model resolves first; without model=,
    the task's default model (the hub id transformers itself would load) does."""
    import transformers

    original = pipelines.pipeline

    def pipeline(task=None, model=None, *args, **kwargs):
        state = current()
        if state is None or not (model is None or isinstance(model, str) and is_hub_id(model)):
            return original(task, model, *args, **kwargs)
        named = model if model is not None else default_model(pipelines, task)
        folder, _, found = loading.component_folder(
            state, named, transformers.AutoModel, "model", {}
        )
        how = f"model '{model}'" if model is not None else f"its default model '{named}'"
        state.record(f"transformers.pipeline({task!r}): {how} -> {found.describe()}")
        if found.component:  # a tiny model alone: its repo's processors are built beside it
            kwargs = {**companions(state, named), **kwargs}
        return original(task, str(folder), *args, **kwargs)

    remember_original(pipeline, original)
    pipelines.pipeline = pipeline
    transformers.pipeline = pipeline


def default_model(pipelines, task) -> str:
    """The hub id `transformers.pipeline(task)` loads when no model is named."""
    try:
        _, targeted, options = pipelines.check_task(task)
        model_id, _revision = pipelines.get_default_model_and_revision(targeted, options)
    except (KeyError, ValueError):
        raise loading.UnsupportedModel(
            f"transformers.pipeline({task!r}) without model= has no default model to stand "
            "in for (name a model the table or [tool.guidelint.runner.models] knows)",
            f"the default model of {task!r}",
        ) from None
    return model_id


# pipeline() keyword -> how the class names of what fills it end
COMPANION_KINDS = (
    ("image_processor", ("ImageProcessor", "ImageProcessorPil")),
    ("feature_extractor", ("FeatureExtractor",)),
    ("tokenizer", ("Tokenizer", "TokenizerFast")),
)


def companions(state, hub_id: str) -> dict[str, str]:
    """pipeline() keywords -> tiny folders of the processors the repo holds beside its
    model (guidelint's table lists them): a tiny model's folder has none of them."""
    from guidelint.runner.diffusers_backend import build
    from guidelint.runner.diffusers_backend.resolve import known_component

    known = known_component(hub_id)
    found: dict[str, str] = {}
    for keyword, endings in COMPANION_KINDS:
        for name in known.classes if known else ():
            if keyword in found or not name.endswith(endings):
                continue
            try:
                with state.quietly_building():
                    found[keyword] = str(build.component_checkpoint(name, state.cache_override))
            except build.CannotBuild:
                continue
    return found


def install() -> None:
    for module_name, name in LOADERS:
        when_imported(module_name, _wrapper_of(name))
    when_imported("transformers.pipelines", patch_pipeline)
