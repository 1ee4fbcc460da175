"""The generic tiny builder: a pipeline class's components, read from the class, built tiny.

`plan()` reads the pipeline's `__init__` (its annotations name each component's class),
picks a recipe per slot from tiny_table.py and settles every `Dim` from what the
other slots provide; it imports diffusers but builds nothing. `build()` then builds
each component (seeded, cached on disk by class and config, so a Flux transformer
serves every Flux pipeline) and saves the pipeline with `save_pretrained`.
"""

from __future__ import annotations

import copy
import hashlib
import inspect
import itertools
import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guidelint.runner.diffusers_backend import tiny_table
from guidelint.runner.diffusers_backend.tiny_table import RECIPES, Dim, Recipe

SEED = 0
FORMAT = 5  # bump when building code changes (a tokenizer's vocabulary); digests cover the table
ANY_SCHEDULER = "KarrasDiffusionSchedulers"  # an enum annotation: any scheduler fits
# A slot annotated with the guiders' base class (MotifVideo) takes the plain CFG guider:
# BaseGuidance itself computes nothing.
ANY_GUIDER, DEFAULT_GUIDER = "BaseGuidance", "ClassifierFreeGuidance"
CONFIG_ONLY = ("scheduler", "guider")  # no weights: made afresh from their config


class CannotPlan(Exception):
    """What `build.CannotBuild` reports: the class that cannot be built, and why."""

    def __init__(self, missing: str, reason: str) -> None:
        super().__init__(f"{missing}: {reason}")
        self.missing = missing
        self.reason = reason


class ComponentFailed(Exception):
    """Building one component raised: `component` names its class (the cause says how)."""

    def __init__(self, component: str) -> None:
        super().__init__(f"building {component} failed")
        self.component = component


@dataclass(frozen=True)
class Slot:
    """One component of a plan: its name in the pipeline, recipe and settled config."""

    name: str
    recipe_key: str
    recipe: Recipe
    config: dict[str, Any]
    source_key: str | None = None  # the key of the slot a derived component is built from

    @property
    def class_name(self) -> str:
        return self.recipe.builds or self.recipe_key.split("/")[0]

    def fresh_config(self) -> dict[str, Any]:
        """A copy of the config to build from: transformers' config classes rewrite
        nested dicts they are given (`rope_scaling` gains `rope_theta`), and plans are
        cached per process, so building from the plan's own dict changed the plan."""
        return copy.deepcopy(self.config)

    def key(self) -> str:
        """Folder name in the component cache: the class and a digest of what builds it."""
        text = json.dumps(
            [self.recipe_key, self.recipe.derive, self.source_key, _jsonable(self.config), FORMAT],
            sort_keys=True,
        )
        name = self.class_name.rpartition(".")[2]  # a dotted path's class
        return f"{name}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


@dataclass(frozen=True)
class Plan:
    pipeline_class: str
    slots: tuple[Slot, ...]
    nones: tuple[str, ...]  # optional components left out
    arguments: dict[str, Any]  # pipeline arguments that are not components
    hub_variant: str | None = None  # the known hub id's variant it was planned for

    def key(self) -> str:
        """Folder name: a variant's checkpoint never shares one with its class's default."""
        text = json.dumps(
            [[s.name, s.key()] for s in self.slots]
            + [list(self.nones), _jsonable(self.arguments), FORMAT]
            + ([self.hub_variant] if self.hub_variant else []),
            sort_keys=True,
        )
        variant = f"-{self.hub_variant}" if self.hub_variant else ""
        return f"{self.pipeline_class}{variant}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def _jsonable(value):
    return json.loads(json.dumps(value, default=str))


def base_dims() -> dict[str, int]:
    """Widths fixed by the offline tokenizers: the encoders' vocabularies and special ids."""
    from guidelint.runner.diffusers_backend import family_tokenizers

    clip = family_tokenizers.special_ids()
    return {
        "clip_bos": clip["bos_token_id"],
        "clip_eos": clip["eos_token_id"],
        "clip_vocab": clip["vocab_size"],
        "t5_vocab": family_tokenizers.t5_vocab_size(),
        "qwen_vocab": family_tokenizers.qwen_vocab_size(),
        "qwen_pad": family_tokenizers.qwen_vocabulary()["<|endoftext|>"],
        **family_tokenizers.qwen_vision_ids(),
        "gemma_vocab": family_tokenizers.gemma_vocab_size(),
        "qwen3_vocab": family_tokenizers.qwen3_vocab_size(),
        "glm_vocab": family_tokenizers.glm_vocab_size(),
        "roberta_vocab": family_tokenizers.roberta_vocab_size(),
        "bert_vocab": family_tokenizers.bert_vocab_size(),
        "chatglm_vocab": family_tokenizers.chatglm_vocab_size(),
        "llama_vocab": family_tokenizers.llama_vocab_size(),
        **family_tokenizers.llama3_ids(),
        "xlmr_vocab": family_tokenizers.xlmr_vocab_size(),
        "mistral_vocab": family_tokenizers.mistral_vocab_size(),
        **family_tokenizers.mistral_ids(),
    }


def pipeline_type(pipeline_class: str):
    import diffusers

    try:
        cls = getattr(diffusers, pipeline_class)
    except (AttributeError, ImportError, RuntimeError) as error:
        raise CannotPlan(pipeline_class, f"diffusers has no such pipeline ({error})") from None
    if not (inspect.isclass(cls) and issubclass(cls, diffusers.DiffusionPipeline)):
        backends = getattr(cls, "_backends", None)
        if backends:  # diffusers' placeholder without its package (audio diffusion: librosa)
            from diffusers.utils import requires_backends

            requires_backends(cls, backends)  # ImportError naming it: missing-dependency
        raise CannotPlan(pipeline_class, "not a DiffusionPipeline class")
    return cls


def slot_classes(cls) -> dict[str, tuple[str, ...]]:
    """Component slot -> the class names its annotation allows (Union members in order)."""
    modules, _ = cls._get_signature_keys(cls)
    types = cls._get_signature_types()
    return {
        name: tuple(t.__name__ for t in types.get(name, ()) if t is not type(None))
        for name in modules
    }


def paired_tokenizer(slot: str, allowed: tuple[str, ...], classes) -> tuple[str, ...]:
    """A generic tokenizer annotation narrowed to the tokenizer of the slot's text encoder."""
    if not set(allowed) & set(tiny_table.GENERIC_TOKENIZERS):
        return allowed
    encoder = classes.get(slot.replace("tokenizer", "text_encoder"), ())
    paired = [
        tiny_table.TOKENIZER_OF_ENCODER[e] for e in encoder if e in tiny_table.TOKENIZER_OF_ENCODER
    ]
    return tuple(paired[:1]) + allowed


def recipe_of(key: str) -> Recipe | None:
    """The table's recipe; a scheduler or guider the table does not name runs with its
    defaults (a guider's defaults are what the real checkpoints' guider configs hold)."""
    recipe = RECIPES.get(key)
    if recipe is None and key.endswith("Scheduler") and is_diffusers_scheduler(key):
        recipe = Recipe("scheduler")
    if recipe is None and key.endswith("Guidance") and is_diffusers_guider(key):
        recipe = Recipe("guider", builds=DEFAULT_GUIDER if key == ANY_GUIDER else None)
    return recipe


def recipe_at(key: str) -> Recipe:
    recipe = recipe_of(key)
    if recipe is None:
        raise CannotPlan(key.split("/")[0], "no tiny recipe for this class")
    return recipe


def is_diffusers_scheduler(name: str) -> bool:
    import diffusers

    try:
        found = getattr(diffusers, name, None)
    except (ImportError, RuntimeError):
        return False
    return inspect.isclass(found) and issubclass(found, diffusers.SchedulerMixin)


def is_diffusers_guider(name: str) -> bool:
    """A guidance class of diffusers.guiders (a pipeline component since HunyuanImage)."""
    try:
        from diffusers import guiders
    except ImportError:  # a diffusers older than its guiders
        return False
    found = getattr(guiders, name, None)
    return inspect.isclass(found) and issubclass(found, guiders.BaseGuidance)


def choose_recipe(
    pipeline_class: str,
    slot: str,
    allowed: tuple[str, ...],
    recipes_of: str | None = None,
    hub_variant: str | None = None,
) -> str:
    if not allowed:
        raise CannotPlan(pipeline_class, f"component '{slot}' has no class annotation")
    for component_class in allowed:
        key = tiny_table.recipe_name(
            recipes_of or pipeline_class, slot, component_class, hub_variant
        )
        recipe = recipe_of(key)
        if recipe is None:
            continue
        built = recipe.builds or key.split("/")[0]
        # a recipe keyed by the class stands for it (KarrasDiffusionSchedulers builds PNDM)
        # "PreTrainedModel/ldmbert" stands for a slot annotated with the base class
        fits = built in allowed or key.split("/")[0] in allowed
        fits = fits or component_class == ANY_SCHEDULER and recipe.kind == "scheduler"
        fits = fits or key != component_class and admits(component_class, built)
        fits = fits or tiny_table.SHIPPED.get(f"{pipeline_class}.{slot}") == built
        if fits:
            return key
        if recipe_of(component_class):
            return component_class  # the variant is for another class of this slot
    raise CannotPlan(allowed[0], f"no tiny recipe (component '{slot}' of {pipeline_class})")


def admits(annotation: str, built: str) -> bool:
    """Whether a generic annotation (`PreTrainedModel`, `AutoTokenizer`, `Any`) admits the
    class a variant names: the table's fact of what the real checkpoint ships there."""
    if annotation == "Any":
        return True
    if annotation == "AutoProcessor":  # by name: a processor missing a library is a stand-in
        from transformers.models.auto.processing_auto import PROCESSOR_MAPPING_NAMES

        return built in PROCESSOR_MAPPING_NAMES.values()
    built_class = library_class(built)
    if annotation in tiny_table.GENERIC_TOKENIZERS:
        from transformers import PreTrainedTokenizerBase

        return issubclass(built_class, PreTrainedTokenizerBase)
    try:
        base = library_class(annotation)
    except CannotPlan:
        return False
    return inspect.isclass(base) and issubclass(built_class, base)


def settle(value, dims: dict[str, int]):
    """`value` with each Dim replaced by its width; KeyError names an unknown dimension."""
    if isinstance(value, Dim):
        return value.times * dims[value.name] + value.plus
    if isinstance(value, dict):
        return {k: settle(v, dims) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(settle(v, dims) for v in value)
    return value


def settle_all(pipeline_class: str, chosen: dict[str, str], dims: dict[str, int]) -> list[Slot]:
    """Settle slots as their dimensions become known; each slot adds what it provides."""
    pending, settled = dict(chosen), []
    while pending:
        progressed = False
        for slot, key in list(pending.items()):
            recipe = recipe_at(key)
            try:
                config = settle(dict(recipe.config), dims)
            except KeyError:
                continue
            provide(pipeline_class, slot, key, recipe, config, dims)
            settled.append(Slot(slot, key, recipe, config))
            del pending[slot]
            progressed = True
        if not progressed:
            slot, key = next(iter(pending.items()))
            missing = sorted(_dims_of(recipe_at(key).config) - dims.keys())
            raise CannotPlan(
                recipe_at(key).builds or key.split("/")[0],
                f"its config needs the width '{missing[0]}', which no component of "
                f"{pipeline_class} provides (component '{slot}')",
            )
    return settled


def provide(pipeline_class, slot, key, recipe: Recipe, config, dims: dict[str, int]) -> None:
    for dim, config_key in recipe.provides.items():
        value = config
        for part in config_key.split("."):  # "text_config.hidden_size": a sub-config's width
            value = value[part]
        if dim in dims and dims[dim] != value:
            raise CannotPlan(
                recipe.builds or key.split("/")[0],
                f"component '{slot}' of {pipeline_class} gives width '{dim}' = {value}, but "
                f"another component needs {dims[dim]}",
            )
        dims[dim] = value


def _dims_of(value) -> set[str]:
    if isinstance(value, Dim):
        return {value.name}
    if isinstance(value, dict):
        return set().union(*(_dims_of(v) for v in value.values()))
    if isinstance(value, (list, tuple)):
        return set().union(*(_dims_of(v) for v in value))
    return set()


# Plans by (class, recipes_of, variant), and the CannotPlan or ImportError a class meets:
# the table does not change in a process, and the warm worker's look-ahead
# (activation.build_loads_ahead) asks for the same classes many times. Forked children
# inherit what the worker planned.
_PLANS: dict[tuple[str, str | None, str | None], Plan | CannotPlan | ImportError] = {}


def plan(
    pipeline_class: str, recipes_of: str | None = None, hub_variant: str | None = None
) -> Plan:
    """`plan_uncached`, remembered per process (see _PLANS)."""
    key = (pipeline_class, recipes_of, hub_variant)
    if key not in _PLANS:
        try:
            _PLANS[key] = plan_uncached(pipeline_class, recipes_of, hub_variant)
        except (CannotPlan, ImportError) as error:
            _PLANS[key] = error
    found = _PLANS[key]
    if isinstance(found, BaseException):
        raise found.with_traceback(None)  # not the tracebacks of every earlier raise
    return found


def plan_uncached(
    pipeline_class: str, recipes_of: str | None = None, hub_variant: str | None = None
) -> Plan:
    """What to build for `pipeline_class`; raises CannotPlan naming the class that is missing.

    recipes_of: take the variants of that class instead (a checkpoint of `pipeline_class`
    as the one `AutoPipeline*(enable_pag=True)` loads into `recipes_of` has it).
    hub_variant: the variant a known hub id's checkpoint is (GLIGEN's inpainting one),
    tried before the class's own variants (tiny_table.recipe_name).
    """
    cls = pipeline_type(pipeline_class)
    for refused in (pipeline_class, recipes_of):
        if refused in tiny_table.NOT_YET:
            raise CannotPlan(refused, f"not built tiny yet: {tiny_table.NOT_YET[refused]}")
    optional = set(getattr(cls, "_optional_components", ()))
    chosen, nones, unplanned = {}, [], []
    classes = slot_classes(cls)
    for slot, allowed in classes.items():
        if slot in optional and tiny_table.left_out(pipeline_class, slot):
            nones.append(slot)
            continue
        allowed = paired_tokenizer(slot, allowed, classes)
        try:
            chosen[slot] = choose_recipe(pipeline_class, slot, allowed, recipes_of, hub_variant)
        except CannotPlan as error:
            unplanned.append(error)
    if unplanned:
        # a component no real checkpoint could load here (its processor needs torchvision)
        # is the example's outcome, whatever tiny recipes the others lack
        require_libraries(chosen.values())
        raise unplanned[0]
    # derived slots wait for the slot they derive from
    for key in chosen.values():
        derive = recipe_at(key).derive
        if derive and derive[0] not in chosen:
            raise CannotPlan(key, f"is built from '{derive[0]}', which {pipeline_class} lacks")
    slots = with_sources(settle_all(pipeline_class, chosen, base_dims()))
    arguments = arguments_for(cls)
    return Plan(pipeline_class, tuple(slots), tuple(sorted(nones)), arguments, hub_variant)


def require_libraries(keys) -> None:
    """Raises the ImportError (transformers' own) a chosen component's class meets here."""
    from guidelint.runner.diffusers_backend import family_tokenizers

    for key in keys:
        recipe = recipe_at(key)
        if recipe.kind == "tokenizer" and recipe.builder:
            family_tokenizers.require_libraries(recipe.builder)


def with_sources(slots: list[Slot]) -> list[Slot]:
    """Derived slots keyed by their source too: a ControlNet copies its UNet's weights."""
    keys = {slot.name: slot.key() for slot in slots}
    return [
        Slot(s.name, s.recipe_key, s.recipe, s.config, keys[s.recipe.derive[0]])
        if s.recipe.derive
        else s
        for s in slots
    ]


def arguments_for(cls) -> dict[str, Any]:
    import re

    accepted = inspect.signature(cls.__init__).parameters
    arguments: dict[str, Any] = {}
    for pattern, values in tiny_table.PIPELINE_ARGUMENTS:
        if re.search(pattern, cls.__name__):
            arguments.update(
                {k: v for k, v in values.items() if k in accepted and k not in arguments}
            )
    return arguments


# --- building -----------------------------------------------------------------------


def build_into(the_plan: Plan, target: Path, components: Path) -> None:
    """Build each component (or reuse it from `components`), then save the pipeline."""
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    cls = pipeline_type(the_plan.pipeline_class)
    built: dict[str, Any] = {}
    for slot in sorted(the_plan.slots, key=lambda s: s.recipe.derive is not None):
        try:
            built[slot.name] = component(slot, components, built)
        except (CannotPlan, ImportError, MemoryError, PermissionError):
            raise
        except Exception as error:  # noqa: BLE001 - named by build.BuildFailed
            raise ComponentFailed(f"{slot.class_name} ('{slot.name}')") from error
    try:
        pipeline = cls(**built, **{name: None for name in the_plan.nones}, **the_plan.arguments)
    except Exception as error:
        if not fetches_from_hub(error):
            raise
        part = built_in_init(error, the_plan.pipeline_class)
        first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise CannotPlan(
            part,
            f"{the_plan.pipeline_class} builds it in its __init__, which fetches from the hub "
            f"({type(error).__name__}: {first_line}); guidelint has no tiny stand-in for it",
        ) from error

    def save(folder: Path) -> None:
        pipeline.save_pretrained(folder, safe_serialization=True)
        for slot in the_plan.slots:
            if slot.recipe.builder in COMPOSITE_HALVES:
                write_composite_config(slot, folder / slot.name)
        keep_arguments(folder / "model_index.json", the_plan.arguments)
        record_libraries(folder / "model_index.json")
        forget_sources(folder)

    atomic_save(save, target)


def fetches_from_hub(error: BaseException) -> bool:
    """Whether `error` is huggingface_hub's offline refusal (the build runs offline)."""
    from huggingface_hub import errors

    return isinstance(error, (errors.LocalEntryNotFoundError, errors.OfflineModeIsEnabled))


def built_in_init(error: BaseException, pipeline_class: str) -> str:
    """The class a pipeline's __init__ was constructing when `error` was raised (Cosmos
    builds its CosmosSafetyChecker there, which fetches its guard models)."""
    frames = []
    trace = error.__traceback__
    while trace is not None:
        frames.append(trace.tb_frame)
        trace = trace.tb_next
    for outer, inner in itertools.pairwise(frames):
        in_pipeline = type(outer.f_locals.get("self")).__name__ == pipeline_class
        if in_pipeline and outer.f_code.co_name == "__init__" and "self" in inner.f_locals:
            return type(inner.f_locals["self"]).__name__
    return pipeline_class


def forget_sources(folder: Path) -> None:
    """Drop the component-cache paths configs record, so rebuilds are byte-identical."""
    for config in folder.glob("*/*.json"):
        data = json.loads(config.read_text(encoding="utf-8"))
        if isinstance(data, dict) and {"_name_or_path", "name_or_path"} & data.keys():
            data.pop("_name_or_path", None)
            data.pop("name_or_path", None)
            config.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def record_libraries(model_index: Path) -> None:
    """Each component under the library the real checkpoints name (tiny_table.CHECKPOINT_LIBRARY):
    a deprecated pipeline's own classes, which diffusers 0.42 saves as from "diffusers"."""
    index = json.loads(model_index.read_text(encoding="utf-8"))
    renamed = {
        slot: [tiny_table.CHECKPOINT_LIBRARY[entry[1]], entry[1]]
        for slot, entry in index.items()
        if isinstance(entry, list) and len(entry) == 2 and entry[1] in tiny_table.CHECKPOINT_LIBRARY
    }
    if renamed:
        index.update(renamed)
        model_index.write_text(json.dumps(index, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def keep_arguments(model_index: Path, arguments: dict[str, Any]) -> None:
    """Arguments a pipeline does not register (DiT's id2label) go in model_index.json too,
    where from_pretrained passes them back, as in the real checkpoints."""
    index = json.loads(model_index.read_text(encoding="utf-8"))
    missing = {k: _jsonable(v) for k, v in arguments.items() if k not in index}
    if missing:
        index.update(missing)
        model_index.write_text(json.dumps(index, indent=2, sort_keys=True) + "\n", encoding="utf-8")


# A transformers model that is one half of a composite config (config class -> the half):
# PRX's T5GemmaEncoder, which diffusers' wrapper loads as `T5GemmaConfig.from_pretrained(
# folder).encoder`. Built from that half and saved with the whole composite config.
COMPOSITE_HALVES = {"T5GemmaConfig": "encoder"}


def write_composite_config(slot: Slot, folder: Path) -> None:
    """`folder/config.json` as the composite config the slot's half came from, naming the
    model class as `architectures` (what save_pretrained records)."""
    composite = library_class(slot.recipe.builder or "")(**slot.fresh_config()).to_dict()
    composite["architectures"] = [slot.class_name.rpartition(".")[2]]
    composite.pop("_name_or_path", None)
    text = json.dumps(composite, indent=2, sort_keys=True) + "\n"
    (folder / "config.json").write_text(text, encoding="utf-8")


def component(slot: Slot, components: Path, built: dict[str, Any]):
    """The slot's component: schedulers and guiders are made afresh, models loaded from
    their cache folder."""
    if slot.recipe.kind in CONFIG_ONLY:
        return _config_only(slot)
    folder = components / slot.key()
    if not (folder / "ready").is_file():
        made = make(slot, built)
        atomic_save(lambda staging: _save_component(made, staging, slot), folder)
    if slot.recipe.loads_tokenizer:
        return _from_pretrained_with_local_tokenizer(slot, folder)
    return library_class(slot.class_name).from_pretrained(folder)


def _config_only(slot: Slot):
    """A scheduler or guider made from its config; keys its class does not take are
    registered in its config as from_pretrained keeps them (a pipeline reads them:
    Helios' `base_image_seq_len`)."""
    cls = library_class(slot.class_name)
    config = slot.fresh_config()
    accepted = inspect.signature(cls.__init__).parameters
    extra = {key: config.pop(key) for key in list(config) if key not in accepted}
    made = cls(**config)
    if extra:
        made.register_to_config(**extra)
    return made


def _save_component(made, staging: Path, slot: Slot) -> None:
    kwargs = {"safe_serialization": True} if hasattr(made, "state_dict") else {}
    made.save_pretrained(staging, **kwargs)
    if slot.recipe.builder in COMPOSITE_HALVES:
        write_composite_config(slot, staging)
    (staging / "ready").write_text("")


def make(slot: Slot, built: dict[str, Any]):
    recipe, cls = slot.recipe, library_class(slot.class_name)
    if recipe.kind == "tokenizer":
        from guidelint.runner.diffusers_backend import family_tokenizers

        return getattr(family_tokenizers, recipe.builder or "")()
    if recipe.kind == "processor":
        return cls(**slot.fresh_config())
    seeded()
    if recipe.derive:
        source, method = recipe.derive
        return getattr(cls, method)(built[source], **slot.fresh_config())
    config_class = getattr(cls, "config_class", None)
    if recipe.builder:  # a model over another config than its class's (Paint-by-Example's)
        config_class = library_class(recipe.builder)
    if recipe.loads_tokenizer and config_class is not None:
        key, config_of = recipe.loads_tokenizer[0], config_class
        return with_local_tokenizer(
            recipe, lambda path: cls(config_of(**slot.fresh_config(), **{key: path}))
        )
    if recipe.builder in COMPOSITE_HALVES:
        composite = library_class(recipe.builder)(**slot.fresh_config())
        half = getattr(composite, COMPOSITE_HALVES[recipe.builder])
        return cls(half).eval()
    if config_class is not None and not hasattr(cls, "register_to_config"):
        return cls(config_class(**slot.fresh_config())).eval()  # a transformers model
    if set(slot.config) - set(inspect.signature(cls.__init__).parameters):
        # config keys __init__ does not take are kept by from_config, as from_pretrained
        # keeps those of a real config.json (Chroma1-HD's guidance_embeds, which its
        # inpaint pipeline reads)
        return fill_empty(cls.from_config(slot.fresh_config()).eval())
    return fill_empty(cls(**slot.fresh_config()).eval())


def fill_empty(model):
    """Seeded values for the parameters a class creates with `torch.empty` and leaves to
    its checkpoint (tiny_table.EMPTY_PARAMETERS): uninitialised memory would make the
    tiny model's output garbage (NaN) and its rebuild differ byte for byte. Also for
    zero-initialised ones a trained checkpoint has filled (a ControlNet's projections),
    given as dotted names; a module without one (only the first block has it) is skipped."""
    import torch

    for module in model.modules():
        for name in tiny_table.EMPTY_PARAMETERS.get(type(module).__name__, ()):
            try:
                parameter = module.get_parameter(name)
            except AttributeError:
                continue
            with torch.no_grad():
                parameter.normal_(0.0, 0.02)
    return model


def with_local_tokenizer(recipe: Recipe, model_of):
    """`model_of(path)` for a model whose __init__ loads the tokenizer its config names
    (Recipe.loads_tokenizer), given a local one built for the while; the path is then
    dropped from its config, as the real config names none (its __init__'s hub default)."""
    from guidelint.runner.diffusers_backend import family_tokenizers

    key, builder = recipe.loads_tokenizer or ("", "")
    with tempfile.TemporaryDirectory(prefix="guidelint-tokenizer-") as folder:
        getattr(family_tokenizers, builder)().save_pretrained(folder)
        model = model_of(folder).eval()
    delattr(model.config, key)
    return model


def _from_pretrained_with_local_tokenizer(slot: Slot, folder: Path):
    cls = library_class(slot.class_name)
    config_class = (
        library_class(slot.recipe.builder or "") if slot.recipe.builder else cls.config_class
    )
    key = (slot.recipe.loads_tokenizer or ("",))[0]

    def model_of(path: str):
        config = config_class.from_pretrained(folder)
        setattr(config, key, path)
        return cls.from_pretrained(folder, config=config)

    return with_local_tokenizer(slot.recipe, model_of)


# Classes a pipeline module defines and neither library exports (model_index.json
# names that module, so from_pretrained finds them there too).
PIPELINE_MODULE_CLASSES = {
    "ChatGLMModel": "diffusers.pipelines.kolors",
    "ChatGLMTokenizer": "diffusers.pipelines.kolors",
    "LTX2TextConnectors": "diffusers.pipelines.ltx2",
    "LTX2Vocoder": "diffusers.pipelines.ltx2",
    "LTX2LatentUpsamplerModel": "diffusers.pipelines.ltx2",
}


def library_class(name: str):
    import importlib

    import diffusers
    import transformers

    if "." in name:  # a class a pipeline module defines (Kandinsky's MultilingualCLIP)
        module, _, attribute = name.rpartition(".")
        return getattr(importlib.import_module(module), attribute)
    for library in (diffusers, transformers):
        found = getattr(library, name, None)
        if found is not None:
            return found
    if name in PIPELINE_MODULE_CLASSES:
        return getattr(importlib.import_module(PIPELINE_MODULE_CLASSES[name]), name)
    raise CannotPlan(name, "neither diffusers nor transformers has this class")


def seeded() -> None:
    import torch

    torch.manual_seed(SEED)


def atomic_save(save, target: Path) -> None:
    """Save into a staging folder renamed into place: a parallel build never sees half."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        save(staging)
        try:
            staging.rename(target)
        except OSError:
            if not target.is_dir():
                raise  # not a lost race: a real error
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def component_folder(component_class: str, cache_root: Path) -> Path:
    """One tiny model's folder: as its home pipeline has it, else settled on its own."""
    home = tiny_table.HOME_PIPELINES.get(component_class)
    if home:
        found = [s for s in plan(home).slots if s.class_name == component_class]
        slot = found[0]
    elif (recipe := recipe_of(component_class)) and not recipe.derive:
        try:
            config = settle(dict(recipe.config), base_dims())
        except KeyError as missing:
            raise CannotPlan(
                component_class, f"its width '{missing.args[0]}' is set by a pipeline"
            ) from None
        slot = Slot(component_class, component_class, recipe, config)
    else:
        raise CannotPlan(component_class, "no tiny recipe for this model class")
    if slot.recipe.kind in CONFIG_ONLY:
        raise CannotPlan(
            component_class, f"a {slot.recipe.kind} has no weights; build it from its config"
        )
    folder = cache_root / "components" / slot.key()
    if not (folder / "ready").is_file():
        made = make(slot, {})
        atomic_save(lambda staging: _save_component(made, staging, slot), folder)
    return folder
