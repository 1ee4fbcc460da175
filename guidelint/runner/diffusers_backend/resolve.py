"""Which tiny stand-in answers a hub id: pure functions over names, no torch.

A hub id resolves to the class it really has, never to a look-alike:

1. a pattern in `[tool.guidelint.runner.models]` (a pipeline class, or a local folder);
2. the class the example loads with, when it names one (StableDiffusionXLPipeline,
   MotionAdapter): that class is what runs, so its own tiny stand-in answers;
3. for a class that names no architecture (DiffusionPipeline, AutoPipelineFor*,
   AutoModel) or a component loaded from a pipeline repo, the bundled table of
   well-known ids (known_models.toml).

Anything else is `Unresolved`: the example's outcome is unsupported-model, or its
error when the id is a near miss of a known one (a typo).
"""

from __future__ import annotations

import difflib
import fnmatch
import os
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

# Classes whose name says nothing about the checkpoint's architecture.
GENERIC_PIPELINES = frozenset(
    {
        "DiffusionPipeline",
        "AutoPipelineForText2Image",
        "AutoPipelineForImage2Image",
        "AutoPipelineForInpainting",
    }
)
# Names older configs used for the first tiny families: read as the class they built.
FAMILY_ALIASES = {
    "ddpm": "DDPMPipeline",
    "ddim": "DDIMPipeline",
    "sd": "StableDiffusionPipeline",
    "sd-inpaint": "StableDiffusionInpaintPipeline",
    "sd-controlnet": "StableDiffusionControlNetPipeline",
    "sdxl": "StableDiffusionXLPipeline",
    "sdxl-controlnet": "StableDiffusionXLControlNetPipeline",
}
CLASS_NAME = re.compile(r"^[A-Z][A-Za-z0-9_]*$")
DIGITS = re.compile(r"\d+")
TYPO_CUTOFF = 0.9  # difflib ratio above which an unknown id is a near miss of a known one


def is_generic_model(class_name: str) -> bool:
    """AutoModel, AutoTokenizer, AutoModelForCausalLM...: the repo's config picks the class."""
    return class_name.startswith("Auto")


@dataclass(frozen=True)
class KnownComponent:
    classes: tuple[str, ...]  # what the repo can be loaded as
    pipeline: str | None  # whose tiny checkpoint carries a consistent one


@dataclass(frozen=True)
class KnownVariant:
    """A checkpoint that differs from the others of its class ([variants] in the table)."""

    variant: str  # the recipe variant its tiny checkpoint is planned with
    pipeline: str | None = None  # for a component repo: the pipeline whose tiny one carries it
    holds: str | None = None  # ... and the subfolder of that tiny checkpoint it loads from
    # the pipeline classes whose tiny checkpoint of the repo takes the variant (none: every
    # class); another class loading the repo keeps its class's stand-in and its folder
    classes: tuple[str, ...] = ()

    def fits(self, pipeline_class: str | None) -> bool:
        return not self.classes or pipeline_class in self.classes


@dataclass(frozen=True)
class Target:
    """What answers a hub id: a tiny pipeline checkpoint, a tiny component, or a folder."""

    pipeline: str | None = None  # the pipeline class whose tiny checkpoint is loaded
    component: str | None = None  # a component class built alone (no pipeline carries it)
    folder: str | None = None  # a local folder named in [tool.guidelint.runner.models]
    reason: str = ""
    variant: str | None = None  # the hub id's own variant of its class (KnownVariant)
    holds: str | None = None  # the subfolder of the tiny pipeline a component loads from

    def describe(self) -> str:
        if self.folder:
            return f"'{self.folder}'"
        return f"tiny {self.pipeline or self.component}"


@dataclass(frozen=True)
class Unresolved:
    """No stand-in: `message` says why; `typo_of` is the known id it nearly is."""

    message: str
    typo_of: str | None = None


@cache
def _table() -> dict:
    text = resources.files(__package__).joinpath("known_models.toml").read_text("utf-8")
    return tomllib.loads(text)


@cache
def known_models() -> tuple[dict[str, str], dict[str, KnownComponent]]:
    """The bundled table: (hub id glob -> pipeline class, hub id glob -> component repo)."""
    data = _table()
    components = {
        pattern: KnownComponent(tuple(entry["classes"]), entry.get("pipeline"))
        for pattern, entry in data["components"].items()
    }
    return dict(data["pipelines"]), components


@cache
def known_variants() -> dict[str, KnownVariant]:
    """[variants]: "owner/name" or "owner/name/subfolder" -> what sets that checkpoint apart."""
    return {
        key: KnownVariant(**{**entry, "classes": tuple(entry.get("classes", ()))})
        for key, entry in _table().get("variants", {}).items()
    }


def known_variant(hub_id: str, subfolder: str | None = None) -> KnownVariant | None:
    """The table's variant of the checkpoint at `hub_id` (in `subfolder`), else None.

    A subfolder's own entry wins; a component repo's entry (one naming a pipeline)
    answers the repo loaded without a subfolder, as a pipeline repo's entry covers each
    of its subfolders."""
    variants = known_variants()
    if subfolder:
        found = _match(f"{hub_id}/{subfolder.strip('/')}", variants)
        if found is not None:
            return found
    found = _match(hub_id, variants)
    return found if found is not None and (found.pipeline is None or not subfolder) else None


def _match(hub_id: str, table: dict):
    """The value of the first pattern matching `hub_id` (case-insensitive), else None."""
    lowered = hub_id.lower()
    if lowered in table:
        return table[lowered]
    for pattern, value in table.items():
        if fnmatch.fnmatchcase(lowered, pattern):
            return value
    return None


def known_pipeline(hub_id: str) -> str | None:
    return _match(hub_id, known_models()[0])


def known_component(hub_id: str) -> KnownComponent | None:
    return _match(hub_id, known_models()[1])


def near_miss(hub_id: str, class_name: str | None = None) -> str | None:
    """The known id `hub_id` is most likely a typo of (globs are not candidates).

    Not a typo: an id that differs from a known one only in its numbers (FLUX.2-dev
    beside FLUX.1-dev: another version, which the table may not know yet), nor one
    near a known id of another class than the example names (Flux2Pipeline is not
    a misspelt FluxPipeline repo).
    """
    pipelines, components = known_models()
    candidates = [k for k in (*pipelines, *components) if "*" not in k and k != hub_id.lower()]
    close = difflib.get_close_matches(hub_id.lower(), candidates, n=3, cutoff=TYPO_CUTOFF)
    for known in close:
        if DIGITS.sub("#", known) == DIGITS.sub("#", hub_id.lower()):
            continue
        if class_name and not _could_hold(known, class_name):
            continue
        return known
    return None


def _could_hold(known: str, class_name: str) -> bool:
    """Whether the known repo `known` holds a `class_name` (or the class is generic)."""
    if class_name in GENERIC_PIPELINES or is_generic_model(class_name):
        return True
    pipeline = known_pipeline(known)
    if pipeline is not None:  # a component class may come from a pipeline's subfolder
        return pipeline == class_name or not class_name.endswith("Pipeline")
    component = known_component(known)
    return component is None or class_name in component.classes


def is_hub_id(name) -> bool:
    """A string that is not an existing local path (what from_pretrained would download)."""
    if not isinstance(name, (str, os.PathLike)):
        return False
    return not Path(os.fspath(name)).expanduser().exists()


def by_pattern(hub_id: str, models: dict[str, str], root: Path | None) -> Target | None:
    """The user's mapping: a pipeline class (or an old family name) or a local folder."""
    for pattern, value in models.items():
        if not fnmatch.fnmatchcase(hub_id.lower(), pattern.lower()):
            continue
        reason = f"by pattern '{pattern}' in [tool.guidelint.runner.models]"
        class_name = FAMILY_ALIASES.get(value, value)
        if CLASS_NAME.match(class_name):
            return Target(pipeline=class_name, reason=reason)
        folder = Path(value).expanduser()
        if not folder.is_absolute():
            folder = (root or Path.cwd()) / folder
        return Target(folder=str(folder), reason=reason)
    return None


def unknown(hub_id: str, class_name: str) -> Unresolved:
    typo_of = near_miss(hub_id, class_name)
    if typo_of:
        return Unresolved(
            f"{class_name}.from_pretrained({hub_id!r}): no such model; did you mean {typo_of!r}?",
            typo_of,
        )
    return Unresolved(
        f"{class_name}.from_pretrained({hub_id!r}): guidelint does not know which pipeline "
        f"class this hub id holds, and will not guess; map it to one in "
        f'[tool.guidelint.runner.models] ("{hub_id}" = "SomePipeline") or to a local folder'
    )


def variants_named(names: list[str]) -> list[tuple[str, str]]:
    """(pipeline class, variant) of each known checkpoint of a repo among `names` (the hub
    ids an example quotes; a subfolder's too, which it names apart): to build ahead."""
    lowered = {name.lower() for name in names if "/" in name}
    found = []
    for key, entry in known_variants().items():
        repo = "/".join(key.split("/", 2)[:2])
        pipeline = entry.pipeline or known_pipeline(repo)
        if repo in lowered and pipeline and entry.fits(pipeline):
            found.append((pipeline, entry.variant))
    return found


def resolve_pipeline(
    hub_id: str, class_name: str, *, models: dict[str, str], root: Path | None = None
) -> Target | Unresolved:
    """What answers `class_name.from_pretrained(hub_id)` for a pipeline class."""
    found = by_pattern(hub_id, models, root)
    if found:
        return found
    known = known_pipeline(hub_id)
    variant = _variant_name(
        hub_id, pipeline_class=class_name if class_name not in GENERIC_PIPELINES else known
    )
    if class_name not in GENERIC_PIPELINES:
        if known is None and near_miss(hub_id, class_name):
            return unknown(hub_id, class_name)
        reason = f"by the class {class_name}" + _variant_reason(variant)
        return Target(pipeline=class_name, reason=reason, variant=variant)
    if known is None:
        return unknown(hub_id, class_name)
    reason = "by guidelint's table of known models" + _variant_reason(variant, "")
    return Target(pipeline=known, reason=reason, variant=variant)


def _variant_name(
    hub_id: str, subfolder: str | None = None, pipeline_class: str | None = None
) -> str | None:
    found = known_variant(hub_id, subfolder)
    return found.variant if found and found.fits(pipeline_class) else None


def variant_for(hub_id: str, pipeline_class: str) -> str | None:
    """The known variant of `hub_id` when its tiny checkpoint is of `pipeline_class`
    (an AutoPipeline may load the repo into another class than the table's)."""
    return _variant_name(hub_id, pipeline_class=pipeline_class)


def _variant_reason(variant: str | None, by: str = ", by guidelint's table of known models") -> str:
    return f" (its {variant!r} variant{by})" if variant else ""


def resolve_component(
    hub_id: str,
    class_name: str,
    *,
    models: dict[str, str],
    root: Path | None = None,
    subfolder: str | None = None,
) -> Target | Unresolved:
    """What answers `class_name.from_pretrained(hub_id)` for a model, tokenizer or scheduler.

    A component of a pipeline repo comes from that pipeline's tiny checkpoint (the
    caller picks the subfolder), so it fits the other components of the same repo;
    one the [variants] table names comes from its variant's tiny checkpoint.
    """
    found = by_pattern(hub_id, models, root)
    if found:
        return found
    table = "by guidelint's table of known models"
    variant = known_variant(hub_id, subfolder)
    if variant is not None and variant.pipeline:
        reason = table + _variant_reason(variant.variant, "")
        return Target(
            pipeline=variant.pipeline, reason=reason, variant=variant.variant, holds=variant.holds
        )
    pipeline = known_pipeline(hub_id)
    if pipeline:
        name = variant.variant if variant and variant.fits(pipeline) else None
        return Target(pipeline=pipeline, reason=table + _variant_reason(name, ""), variant=name)
    component = known_component(hub_id)
    if component is not None:
        generic = is_generic_model(class_name)
        if not generic and class_name not in component.classes:
            return Unresolved(
                f"{class_name}.from_pretrained({hub_id!r}): that repo holds "
                f"{' / '.join(component.classes)}, not a {class_name}"
            )
        if component.pipeline:
            return Target(pipeline=component.pipeline, reason=table)
        name = component.classes[0] if generic else class_name
        return Target(component=name, reason=table)
    if is_generic_model(class_name) or near_miss(hub_id, class_name):
        return unknown(hub_id, class_name)
    return Target(component=class_name, reason=f"by the class {class_name}")
