"""Whether an example may run on a coarser stand-in (recipes/coarse.py): decided from its text.

A coarser VAE keeps every image size the example computes only where those sizes divide
by the coarser factor times the patch, and where the example never sees the latent grid
itself. Both are read from the example's code before it runs (the child passes the
sources of its unit), conservatively: every `height=` and `width=` keyword of every call
must be an integer literal dividing by the pipeline's multiple, and the code must not
pass `latents=`, ask for `output_type="latent"`, unpack keyword arguments into a call
(`**kwargs` could hold a size), pass or assign a VAE or transformer of its own (`vae=`,
`pipe.vae = ...`: another repo's 8x VAE beside the coarser transformer), or name the
latent grid (`vae_scale_factor`, `sample_size`, `block_out_channels`, `latent_dist`, the
VAE's `encode`/`decode`, its tiling, whose tiles are sized for the real factor), nor
call anything with three or more positional arguments (CogView's height is its third
parameter; which call is the pipeline's is not known from the text). Anything else runs
on the real factor: slower, never another size. A variant may also read sizes bound once
to literals (`Coarser.named_sizes`: `sample_size = (448, 576)`, `height=sample_size[0]`)
and allow named helpers positional arguments, checking the size among them
(`Coarser.size_helpers`: EasyAnimate inpaint's `get_image_to_video_latent`). A `vae=NAME`
is the pipeline's own where NAME is bound once, to
`AutoencoderKL*.from_pretrained(REPO, subfolder="vae")` with the pipeline's own REPO (Wan,
Helios, SkyReels-V2): both loads get the same stand-in's.

A video DiT whose temporal patch groups latent frames (Wan image-to-video, SkyReels-V2:
`Coarser.frames_patch`) also needs every `num_frames=` to be an integer literal whose
latent frames, (n - 1) // 4 + 1, divide by that patch; where the latent grid's height and
width are the real ones (`Coarser.spatial_kept`), no size is checked.

A UNet family (SDXL, AnimateDiff SDXL: `Coarser.sizes_required`) also needs every call of
the pipeline itself (a name bound to `SomePipeline.from_pretrained(...)`, `AutoPipeline*`,
`from_pipe`) to pass both sizes as literals, with the prompt at most as a positional
argument: the tiny stand-in's default size (64 px) is a 2x2 grid at 32x, which the UNet's
own 4x downsampling cannot divide, and an image-conditioned call without sizes takes
them from its image, which the text does not show. Nor may it pass a ControlNet or a
T2I-Adapter (`controlnet=`, `adapter=`: into a `from_pipe` of a coarse SDXL, say), whose
condition embedding downsamples by a fixed 8x. There VAE tiling is allowed
(`Coarser.tiling_allowed`): a tiled decode returns latents x factor pixels whatever the
tile, and the coarse VAE's tile is the real one's (recipes/coarse.py).

An area-sized pipeline (Flux Kontext and its inpaint one: `Coarser.area_sized`) makes
1024 x 1024 at either factor only from its defaults and a square image: no call may pass
`height`, `width`, `max_area` or `_auto_resize` (nor `padding_mask_crop`), and every
image a pipeline call gets (`image=`, `image_reference=`, also passed positionally)
must be a name bound only to `load_image(URL)` (or its `.convert(...)`), with URL a
literal image URL that no configured fixture maps: the runner serves it as its 512 x 512
picture (images.py), whose nearest Kontext resolution is 1024 x 1024, which divides by
64 as by 16.
"""

from __future__ import annotations

import ast
import doctest
import fnmatch
import re
from collections.abc import Collection, Iterable, Sequence

from guidelint.runner.diffusers_backend import images
from guidelint.runner.diffusers_backend.recipes import coarse

SIZE_KEYWORDS = ("height", "width")
TILING = frozenset({"enable_tiling", "enable_vae_tiling"})
# models whose condition embedding downsamples by a fixed 8x (a UNet family's, refused)
CONDITION_MODELS = frozenset({"controlnet", "adapter"})
# what binds a pipeline object: `X.from_pretrained(...)` where X names a pipeline class
LOADERS = frozenset({"from_pretrained", "from_pipe", "from_single_file"})
MAX_POSITIONAL = 3  # CogView 3 Plus and 4 take (prompt, negative_prompt, height, ...)
# passed in or assigned: not the variant's
COMPONENTS = frozenset({"vae", "transformer", "unet"})
# names that show the latent grid to the example: it would see the coarser one
GRID_NAMES = frozenset(
    {
        "vae_scale_factor",
        "sample_size",
        "block_out_channels",
        "latent_dist",
        "encode",
        "decode",
        "latents",
        "spatial_compression_ratio",
        # the VAE's tiles are sized in pixels and latents of the real factor
        "enable_tiling",
        "enable_vae_tiling",
    }
)

# what sizes an area-sized pipeline's output, besides its image
AREA_KEYWORDS = frozenset({"height", "width", "max_area", "_auto_resize", "padding_mask_crop"})
IMAGE_KEYWORDS = ("image", "image_reference")
IMAGE_LOADERS = frozenset({"load_image"})

Source = tuple[str, bool]  # (the example's text, whether it has `>>>` prompts)
# an example that asks for no size: what building ahead plans with, to build the coarser
# stand-in an example of the batch may get
ANY_SIZES: tuple[Source, ...] = (("", False),)
VARIANT = coarse.VARIANT


def has_variant(pipeline_class: str | None) -> bool:
    return pipeline_class in coarse.PIPELINES


def variant_for(
    pipeline_class: str | None,
    sources: Sequence[Source] | None,
    fixture_patterns: Collection[str] = (),
) -> str | None:
    """The coarse variant where `pipeline_class` has one and every source allows it;
    `fixture_patterns`: the URL patterns the project maps to its own files."""
    if sources is None or not has_variant(pipeline_class):
        return None
    if sources is ANY_SIZES:  # building ahead: the variant an example may get
        return coarse.VARIANT
    coarser = coarse.PIPELINES[str(pipeline_class)]
    codes = [python_code(text, repl) for text, repl in sources]
    if all(code is not None and sizes_allow(code, coarser, fixture_patterns) for code in codes):
        return coarse.VARIANT
    return None


# A pipeline class an example names (`HeliosPyramidPipeline.from_pretrained`); the
# generic loaders (DiffusionPipeline, AutoPipelineFor*) load the repo's own class.
PIPELINE_NAME = re.compile(r"\b([A-Z]\w*Pipeline)\b")


def loads_as(pipeline_class: str, sources: Sequence[Source] | None) -> bool:
    """Whether the pipelines the example loads are of `pipeline_class`, the class a
    component's repo holds: a VAE loaded alone (`AutoencoderKLWan.from_pretrained(repo,
    subfolder="vae")`) may take that class's coarse stand-in only if the pipeline it is
    passed to gets it too. An example that names another pipeline class of the repo
    (Helios' pyramid pipeline, Wan's video-to-video) and not this one would join a
    coarse VAE to a pipeline built at the real factor."""
    if sources is None or sources is ANY_SIZES:
        return True  # building ahead: whatever an example may get
    named = {name for text, _ in sources for name in PIPELINE_NAME.findall(text)}
    specific = {
        name for name in named if name != "DiffusionPipeline" and not name.startswith("Auto")
    }
    return not specific or pipeline_class in specific


def substitution(pipeline_class: str) -> str:
    """The report's line for a pipeline built coarser."""
    coarser = coarse.PIPELINES[pipeline_class]
    if coarser.frames_patch:
        sizes = (
            "its latent grid's height and width are the real ones"
            if coarser.spatial_kept
            else f"every height and width the example passes divides by {coarser.multiple}"
        )
        return (
            f"{pipeline_class}: {coarser.change}, {coarser.token_ratio}x fewer tokens: "
            f"{sizes}, and every num_frames it passes makes latent frames dividing by "
            f"{coarser.frames_patch}, so its videos keep their sizes"
        )
    if coarser.area_sized:
        return (
            f"{pipeline_class}: {coarser.change}, {coarser.token_ratio}x fewer tokens: the "
            "example passes no size and only the runner's square pictures, which make "
            f"1024 x 1024 on either stand-in (a multiple of {coarser.multiple}), so its images "
            "keep their sizes"
        )
    return (
        f"{pipeline_class}: {coarser.change}, {coarser.token_ratio}x fewer tokens: every "
        f"height and width the example passes divides by {coarser.multiple}, so its "
        "images keep their sizes"
    )


def python_code(text: str, repl: bool) -> str | None:
    """The example as Python (a `>>>` example's statements), or None where it does not parse."""
    if repl:
        try:
            text = "".join(part.source for part in doctest.DocTestParser().get_examples(text))
        except ValueError:  # a prompt doctest cannot read
            return None
    try:
        ast.parse(text)
    except SyntaxError:
        return None
    return text


def sizes_allow(code: str, coarser: coarse.Coarser, fixture_patterns: Collection[str] = ()) -> bool:
    """Whether the coarser grid keeps every size `code` asks for (see the module doc)."""
    tree = ast.parse(code)
    grid_names = GRID_NAMES - TILING if coarser.tiling_allowed else GRID_NAMES
    sizes = _bound_sizes(tree) if coarser.named_sizes else {}
    helpers = dict(coarser.size_helpers)
    own_vae = (
        _same_repo_vae_keywords(tree)
        | _handed_on_vae_keywords(tree)
        | _kept_component_keywords(tree, coarser.kept_components)
    )
    multiple = None if coarser.spatial_kept else coarser.multiple  # None: any size stays
    if any(
        _sees_grid(node, multiple, grid_names, sizes, helpers, own_vae) for node in ast.walk(tree)
    ):
        return False
    if coarser.frames_patch and not _frames_fill_patches(
        tree, coarser.frames_patch, coarser.frames_factor
    ):
        return False
    if coarser.area_sized:
        return _area_kept(tree, coarser, fixture_patterns)
    if not coarser.sizes_required:
        return True
    return _every_pipeline_call_sized(tree) and not _passes_a_condition_model(tree)


def _area_kept(
    tree: ast.Module, coarser: coarse.Coarser, fixture_patterns: Collection[str]
) -> bool:
    """Whether every call leaves the output's area and aspect to the defaults and gives
    only the runner's square pictures as images (an area-sized pipeline: module doc).
    Statements are read in order: a name is a picture from its binding to one until it
    is bound again (`image = pipe(image=image).images[0]` reads the picture)."""
    if any(isinstance(n, ast.keyword) and n.arg in AREA_KEYWORDS for n in ast.walk(tree)):
        return False
    pipes = _pipeline_names(tree)
    pictures: set[str] = set()
    urls: dict[str, str] = {}
    for statement in tree.body:
        stored = {
            n.id
            for n in ast.walk(statement)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        }
        # inside a loop or a block, a name the block binds may be another by the call
        usable = pictures if isinstance(statement, ast.Assign | ast.Expr) else pictures - stored
        for call in ast.walk(statement):
            if not isinstance(call, ast.Call):
                continue
            # the pipeline's calls, and any call given an image by keyword (the pipeline
            # under another name, `pipe.__call__`): each image must be a picture
            is_pipe = isinstance(call.func, ast.Name) and call.func.id in pipes
            positional = coarser.positional if is_pipe else ()
            if is_pipe or any(k.arg in IMAGE_KEYWORDS for k in call.keywords):
                if not _gives_only(call, usable, positional, strict=is_pipe):
                    return False
        pictures -= stored
        for name in stored:
            urls.pop(name, None)
        if isinstance(statement, ast.Assign):
            names = [t.id for t in statement.targets if isinstance(t, ast.Name)]
            value = statement.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                urls.update(dict.fromkeys(names, value.value))
            elif _loads_runner_picture(value, urls, fixture_patterns):
                pictures.update(names)
    return True


def _gives_only(
    call: ast.Call, pictures: set[str], positional: Sequence[str], strict: bool = True
) -> bool:
    """Whether the call's images (`image=`, `image_reference=`, and those of its leading
    `positional` parameters it passes positionally) are all names of pictures; `strict`:
    a pipeline call may pass no more positional arguments than those."""
    if strict and len(call.args) > len(positional):
        return False
    given = [k.value for k in call.keywords if k.arg in IMAGE_KEYWORDS]
    given += [
        arg for arg, name in zip(call.args, positional, strict=False) if name in IMAGE_KEYWORDS
    ]
    return all(isinstance(value, ast.Name) and value.id in pictures for value in given)


def _loads_runner_picture(
    value: ast.expr, urls: dict[str, str], fixture_patterns: Collection[str]
) -> bool:
    """`load_image(URL)` or its `.convert(...)`, URL a literal or a name bound to one,
    that the runner answers with its own picture."""
    while (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "convert"
    ):
        value = value.func.value
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in IMAGE_LOADERS
        and len(value.args) == 1
        and not value.keywords
    ):
        return False
    argument = value.args[0]
    url = None
    if isinstance(argument, ast.Name):
        url = urls.get(argument.id)
    elif isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        url = argument.value
    return url is not None and _runner_picture(url, fixture_patterns)


def _runner_picture(url: str, fixture_patterns: Collection[str]) -> bool:
    """Whether the runner answers `url` with its own square picture (images.py)."""
    if not url.startswith(("http://", "https://")):
        return False
    if any(fnmatch.fnmatchcase(url, pattern) for pattern in fixture_patterns):
        return False
    return images.names_image(url) and not images.names_video(url)


def _kept_component_keywords(tree: ast.AST, kept: Collection[str]) -> set[int]:
    """The keywords (by id) passing a component the coarse variant leaves as the real
    factor's stand-in (`Coarser.kept_components`, FramePack's transformer): the example's
    own is the same model at either factor."""
    return {
        id(node) for node in ast.walk(tree) if isinstance(node, ast.keyword) and node.arg in kept
    }


def _same_repo_vae_keywords(tree: ast.AST) -> set[int]:
    """The `vae=NAME` keywords (by id) of a pipeline's load, `Pipe.from_pretrained(REPO,
    vae=NAME)`, where NAME is bound once, to `AutoencoderKL*.from_pretrained(REPO,
    subfolder="vae", ...)` with the same REPO expression: the runner answers both loads
    from the same stand-in, so that VAE is the coarse checkpoint's own (Wan, Helios)."""
    bindings: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        bindings.setdefault(name.id, []).append(node.value)
    allowed: set[int] = set()
    for call in ast.walk(tree):
        repo = _loaded_repo(call, "Pipeline")
        if repo is None:
            continue
        for keyword in call.keywords:  # type: ignore[attr-defined]
            if keyword.arg != "vae" or not isinstance(keyword.value, ast.Name):
                continue
            values = bindings.get(keyword.value.id, [])
            if len(values) == 1 and _is_repo_vae(values[0], repo):
                allowed.add(id(keyword))
    return allowed


def _handed_on_vae_keywords(tree: ast.AST) -> set[int]:
    """The `vae=PIPE.vae` keywords (by id) of a pipeline the example constructs itself,
    `SomePipeline(vae=pipe.vae, ...)`, PIPE a loaded pipeline: the same VAE object, which
    decodes its own latents at its own factor (LTX-2's latent upsample example hands the
    image-to-video pipeline's VAE to `LTX2LatentUpsamplePipeline`). Any other component
    passed there is still refused (COMPONENTS)."""
    pipes = _pipeline_names(tree)
    allowed: set[int] = set()
    for call in ast.walk(tree):
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id.endswith("Pipeline")
        ):
            continue
        for keyword in call.keywords:
            value = keyword.value
            if (
                keyword.arg == "vae"
                and isinstance(value, ast.Attribute)
                and value.attr == "vae"
                and isinstance(value.value, ast.Name)
                and value.value.id in pipes
            ):
                allowed.add(id(keyword))
    return allowed


def _loaded_repo(node: ast.AST, class_part: str) -> str | None:
    """`X.from_pretrained(REPO, ...)` with `class_part` in X's name: REPO's dump."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "from_pretrained"
        and isinstance(node.func.value, ast.Name)
        and class_part in node.func.value.id
        and len(node.args) == 1
    ):
        return None
    return ast.dump(node.args[0])


def _is_repo_vae(value: ast.expr, repo: str) -> bool:
    """`AutoencoderKL*.from_pretrained(REPO, subfolder="vae", ...)` of the same REPO."""
    if _loaded_repo(value, "AutoencoderKL") != repo:
        return False
    assert isinstance(value, ast.Call)
    subfolders = [k.value for k in value.keywords if k.arg == "subfolder"]
    return (
        len(subfolders) == 1
        and isinstance(subfolders[0], ast.Constant)
        and subfolders[0].value == "vae"
        and all(k.arg is not None for k in value.keywords)
    )


def _frames_fill_patches(
    tree: ast.AST, frames_patch: int, frames_factor: int = coarse.WAN_TEMPORAL_FACTOR
) -> bool:
    """Whether every `num_frames=` is an integer literal whose latent frames, (n - 1) //
    `frames_factor` + 1, divide into temporal patches of `frames_patch` (Wan
    image-to-video: its default, 81 frames, makes 21 at 4x)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "num_frames":
            value = node.value
            if not isinstance(value, ast.Constant) or type(value.value) is not int:
                return False
            latent_frames = (value.value - 1) // frames_factor + 1
            if value.value < 1 or latent_frames % frames_patch:
                return False
            # a coarser time decodes (latent frames - 1) x factor + 1 frames: the real
            # VAE's count only where n - 1 divides by it
            real = (value.value - 1) // coarse.WAN_TEMPORAL_FACTOR * coarse.WAN_TEMPORAL_FACTOR
            if (latent_frames - 1) * frames_factor != real:
                return False
    return True


def _passes_a_condition_model(tree: ast.AST) -> bool:
    """Whether a ControlNet or T2I-Adapter is passed to a pipeline (`controlnet=`,
    `adapter=`, also through `from_pipe` from a coarse SDXL): its condition embedding
    downsamples by the real 8x, which the coarser latents would not match."""
    return any(
        isinstance(node, ast.keyword) and node.arg in CONDITION_MODELS for node in ast.walk(tree)
    )


def _every_pipeline_call_sized(tree: ast.AST) -> bool:
    """Whether the pipeline is called at least once, and every call passes height and
    width (checked to divide by _sees_grid) with no positional argument but the prompt."""
    pipes = _pipeline_names(tree)
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in pipes
    ]
    return bool(calls) and all(
        len(call.args) <= 1 and set(SIZE_KEYWORDS) <= {k.arg for k in call.keywords}
        for call in calls
    )


def _pipeline_names(tree: ast.AST) -> set[str]:
    """Names bound to a loaded pipeline (`pipe = SomePipeline.from_pretrained(...)`, also
    through `.to(...)`): the calls whose sizes count."""
    names: set[str] = set()
    assignments = [node for node in ast.walk(tree) if isinstance(node, ast.Assign)]
    for node in assignments:
        if _loads_pipeline(node.value):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    grown = True
    while grown:  # `pipe2 = pipe`: the same pipeline under another name
        aliases = {
            t.id
            for node in assignments
            if isinstance(node.value, ast.Name) and node.value.id in names
            for t in node.targets
            if isinstance(t, ast.Name)
        }
        grown = not aliases <= names
        names |= aliases
    return names


def _loads_pipeline(value: ast.expr) -> bool:
    for node in ast.walk(value):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in LOADERS
            and isinstance(node.value, ast.Name)
            and "Pipeline" in node.value.id
        ):
            return True
    return False


Sizes = dict[str, int | tuple[int, ...]]  # names bound once to size literals


def _sees_grid(
    node: ast.AST,
    multiple: int | None,
    grid_names: frozenset[str] = GRID_NAMES,
    sizes: Sizes | None = None,
    helpers: dict[str, int] | None = None,
    own_vae: Collection[int] = (),
) -> bool:
    """Whether `node` shows the example the latent grid; `own_vae`: the ids of `vae=`
    keywords that pass the pipeline's own VAE (_same_repo_vae_keywords)."""
    sizes, helpers = sizes or {}, helpers or {}
    if isinstance(node, ast.Attribute):
        replaced = isinstance(node.ctx, ast.Store) and node.attr in COMPONENTS
        return replaced or node.attr in grid_names
    if isinstance(node, ast.Name):  # a size tuple of the example's own is no grid
        return node.id in grid_names and node.id not in sizes
    if isinstance(node, ast.Call):
        if len(node.args) >= MAX_POSITIONAL and not _helper_sized(node, multiple, sizes, helpers):
            return True  # a size could be among them
        return any(
            _keyword_sees_grid(keyword, multiple, grid_names, sizes)
            for keyword in node.keywords
            if id(keyword) not in own_vae
        )
    return False


def _keyword_sees_grid(
    keyword: ast.keyword,
    multiple: int | None,
    grid_names: frozenset[str] = GRID_NAMES,
    sizes: Sizes | None = None,
) -> bool:
    """`multiple` None: the latent grid's height and width are the real ones."""
    if keyword.arg is None:  # **kwargs: any size could be in it
        return True
    if keyword.arg in SIZE_KEYWORDS:
        return multiple is not None and not _divides(keyword.value, multiple, sizes or {})
    if keyword.arg == "output_type":
        return not (isinstance(keyword.value, ast.Constant) and keyword.value.value != "latent")
    return keyword.arg in grid_names or keyword.arg in COMPONENTS


def _divides(value: ast.expr, multiple: int, sizes: Sizes | None = None) -> bool:
    size = _size_of(value, sizes or {})
    return isinstance(size, int) and size > 0 and size % multiple == 0


def _size_of(value: ast.expr, sizes: Sizes) -> int | tuple[int, ...] | None:
    """An integer literal, a name bound once to a size literal, or `name[i]` of a tuple."""
    if isinstance(value, ast.Constant) and type(value.value) is int:
        return value.value
    if isinstance(value, ast.Name):
        return sizes.get(value.id)
    if (
        isinstance(value, ast.Subscript)
        and isinstance(value.value, ast.Name)
        and isinstance(value.slice, ast.Constant)
        and type(value.slice.value) is int
    ):
        bound = sizes.get(value.value.id)
        if isinstance(bound, tuple) and -len(bound) <= value.slice.value < len(bound):
            return bound[value.slice.value]
    return None


def _helper_sized(
    call: ast.Call, multiple: int | None, sizes: Sizes, helpers: dict[str, int]
) -> bool:
    """A helper the coarse variant names (`get_image_to_video_latent(images, end,
    num_frames, sample_size)`), whose size argument is a size tuple dividing by `multiple`."""
    if not (isinstance(call.func, ast.Name) and call.func.id in helpers):
        return False
    index = helpers[call.func.id]
    if index >= len(call.args):
        return False
    size = _size_of(call.args[index], sizes)
    if multiple is None:  # the latent grid's sizes are the real ones: any size stays
        return True
    return (
        isinstance(size, tuple)
        and bool(size)
        and all(part > 0 and part % multiple == 0 for part in size)
    )


def _bound_sizes(tree: ast.Module) -> Sizes:
    """Names the example binds exactly once, at its top level, to an integer literal or a
    tuple of them (`sample_size = (448, 576)`)."""
    stores: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            stores[node.id] = stores.get(node.id, 0) + 1
    sizes: Sizes = {}
    for statement in tree.body:
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and stores.get(statement.targets[0].id) == 1
        ):
            continue
        value = statement.value
        if isinstance(value, ast.Constant) and type(value.value) is int:
            sizes[statement.targets[0].id] = value.value
        elif isinstance(value, ast.Tuple):
            parts = [
                e.value for e in value.elts if isinstance(e, ast.Constant) and type(e.value) is int
            ]
            if len(parts) == len(value.elts):
                sizes[statement.targets[0].id] = tuple(int(p) for p in parts)
    return sizes


def may_be_named(names: Iterable[str]) -> bool:
    """Whether `names` (the examples' identifiers and hub ids) name a pipeline with a
    coarse variant, by its class or by a hub id the table maps to one (what a generic
    loader, DiffusionPipeline or AutoPipeline*, builds)."""
    from guidelint.runner.diffusers_backend.resolve import known_pipeline

    return any(has_variant(known_pipeline(name) if "/" in name else name) for name in names)
