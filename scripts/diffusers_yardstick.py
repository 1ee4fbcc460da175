#!/usr/bin/env python3
"""The yardstick: every pipeline docstring example of the installed diffusers, run unchanged.

    .venv/bin/python scripts/diffusers_yardstick.py [--only flux,wan] [--limit 40]
        [--jobs N] [--batch 20] [--timeout S] [--write]

At the CLI's defaults unless told otherwise (`guidelint run`'s 60 s timeout and its
default jobs), so its outcomes are what a user gets.

Collects EXAMPLE_DOC_STRING (else a pipeline's `__call__` docstring example) of each
module under diffusers.pipelines (read from the source, so no pipeline is imported
here), writes each as a guide (one fenced block
per module, its text verbatim), runs the guides with `guidelint run --format json`
in batches, and prints a table (module, outcome, reason, seconds, pipelines) with
the totals per outcome. With --write the table replaces the yardstick section of
docs/DIFFUSERS.md.

It also checks the one result that must never happen: a pass on a stand-in of
another class. Each entry's `pipelines` lists the pipeline classes its process
built; a passing example of a module that built pipelines, none of them a class
that module defines, is counted as `passes on another class` (the goal is 0).

And it prints issue #10's goal figure: passes / (modules - missing-dependency - real
bugs of the examples). The real bugs are `REAL_BUGS`, a reviewed list (module ->
the line and what is wrong in the example's text), checked on every run: an entry
whose example no longer fails at that line with that message is reported as stale,
not counted.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DIFFUSERS_DOC = REPO / "docs" / "DIFFUSERS.md"
START, END = "<!-- yardstick:start -->", "<!-- yardstick:end -->"
# The families guides use most (issue #10): --only priority selects them.
PRIORITY = (
    "flux.pipeline_flux",
    "stable_diffusion_3.pipeline_stable_diffusion_3",
    "kandinsky2_2.pipeline_kandinsky2_2",
    "animatediff.pipeline_animatediff",
    "t2i_adapter.pipeline_stable_diffusion_adapter",
    "controlnet.pipeline_controlnet_sd_xl_img2img",
    "pixart_alpha.pipeline_pixart_sigma",
    "deepfloyd_if.pipeline_if",
    "dit.pipeline_dit",
    "wan.pipeline_wan",
    "stable_diffusion.pipeline_stable_diffusion",
    "stable_diffusion_xl.pipeline_stable_diffusion_xl",
)


@dataclass(frozen=True)
class RealBug:
    """A bug in the text of a diffusers example, reviewed by hand: not a tiny-config
    failure, but what would fail on the real model too."""

    line: int  # the guide line the runner reports (the example's line + 3)
    says: str  # a piece of the message the example fails with at that line
    wrong: str  # what is wrong in the example


REAL_BUGS: dict[str, RealBug] = {
    "ace_step.pipeline_ace_step": RealBug(
        28, "Error opening 'input.wav'", "opens a file it never wrote"
    ),
    "animatediff.pipeline_animatediff_controlnet": RealBug(
        20,
        "Invalid `pretrained_model_name_or_path`",
        "loads a single-file checkpoint it never downloaded",
    ),
    "animatediff.pipeline_animatediff_video2video": RealBug(
        18, "unexpected keyword argument 'timespace_spacing'", "misspelt timestep_spacing"
    ),
    "anyflow.pipeline_anyflow_far": RealBug(
        14, "path/to/first_frame.png is not a valid path", "loads a placeholder path"
    ),
    "bria.pipeline_bria": RealBug(
        8,
        "# BRIA's T5 text encoder is sensitive",
        "a comment written without >>> under pipe.to(), read as its expected output",
    ),
    "chroma.pipeline_chroma": RealBug(
        9, "name 'ChromaTransformer2DModel' is not defined", "ChromaTransformer2DModel not imported"
    ),
    "chroma.pipeline_chroma_img2img": RealBug(
        9, "name 'transformer' is not defined", "passes a transformer it never loads"
    ),
    "cogview4.pipeline_cogview4_control": RealBug(
        8, "name 'load_image' is not defined", "load_image not imported"
    ),
    "controlnet.pipeline_controlnet_inpaint": RealBug(
        32, "name 'cv2' is not defined", "cv2 used without an import"
    ),
    "controlnet.pipeline_controlnet_inpaint_sd_xl": RealBug(
        33, "name 'cv2' is not defined", "cv2 used without an import"
    ),
    "controlnet.pipeline_controlnet_sd_xl_img2img": RealBug(
        62,
        "image must be passed and be one of PIL image",
        "a blank line ends get_depth_map before its return: no control image",
    ),
    "controlnet_sd3.pipeline_stable_diffusion_3_controlnet_inpainting": RealBug(
        7,
        "No module named 'diffusers.models.controlnet_sd3'",
        "imports a module diffusers moved (diffusers.models.controlnets)",
    ),
    "ddim.pipeline_ddim": RealBug(
        15,
        "'ImagePipelineOutput' object has no attribute 'cpu'",
        ".cpu() on the pipeline's output object, not a tensor",
    ),
    "deprecated.alt_diffusion.pipeline_alt_diffusion": RealBug(
        7,
        "is not one of the libraries Diffusers can load components from",
        "its repo names the folder alt_diffusion, which diffusers 0.42.1 moved",
    ),
    "deprecated.alt_diffusion.pipeline_alt_diffusion_img2img": RealBug(
        13,
        "is not one of the libraries Diffusers can load components from",
        "its repo names the folder alt_diffusion, which diffusers 0.42.1 moved",
    ),
    "deprecated.blip_diffusion.pipeline_blip_diffusion": RealBug(
        8,
        "is not one of the libraries Diffusers can load components from",
        "its repo names the folder blip_diffusion, which diffusers 0.42.1 moved",
    ),
    "deprecated.i2vgen_xl.pipeline_i2vgen_xl": RealBug(
        22,
        "'CLIPTextModel' object has no attribute 'text_model'",
        "diffusers 0.42.1 reads CLIPTextModel.text_model, which transformers 5 removed",
    ),
    "deprecated.musicldm.pipeline_musicldm": RealBug(
        13,
        "'BaseModelOutputWithPooling' object has no attribute 'to'",
        "diffusers 0.42.1 takes get_text_features' output object (transformers 5) for a tensor",
    ),
    "deprecated.paint_by_example.pipeline_paint_by_example": RealBug(
        28,
        "is not one of the libraries Diffusers can load components from",
        "its repo names the folder paint_by_example, which diffusers 0.42.1 moved",
    ),
    "deprecated.stable_diffusion_attend_and_excite.pipeline_stable_diffusion_attend_and_excite": RealBug(  # noqa: E501
        32, "../images/", "saves into ../images/, a folder it never made, outside its own"
    ),
    "deprecated.stable_diffusion_diffedit.pipeline_stable_diffusion_diffedit": RealBug(
        25, "name 'DDIMScheduler' is not defined", "DDIMScheduler not imported"
    ),
    "deprecated.stable_diffusion_ldm3d.pipeline_stable_diffusion_ldm3d": RealBug(
        10,
        "Cannot handle this data type: (1, 1, 1), <u2",
        "diffusers 0.42.1's depth output (Image.fromarray, mode I;16) fails on Pillow 13",
    ),
    "deprecated.stable_diffusion_safe.pipeline_stable_diffusion_safe": RealBug(
        6,
        "No module named 'diffusers.pipelines.stable_diffusion_safe'",
        "imports a module diffusers moved (under deprecated)",
    ),
    "deprecated.stable_diffusion_variants.pipeline_stable_diffusion_paradigms": RealBug(
        21,
        "index 1000 is out of bounds",
        "1000 steps with SD 1.5's steps_offset 1 index past the schedule",
    ),
    "deprecated.text_to_video_synthesis.pipeline_text_to_video_synth_img2img": RealBug(
        31, "name 'Image' is not defined", "uses PIL's Image without importing it"
    ),
    "deprecated.versatile_diffusion.pipeline_versatile_diffusion_dual_guided": RealBug(
        17,
        "is not one of the libraries Diffusers can load components from",
        "its repo names the folder versatile_diffusion, which diffusers 0.42.1 moved",
    ),
    "deprecated.versatile_diffusion.pipeline_versatile_diffusion_text_to_image": RealBug(
        7,
        "is not one of the libraries Diffusers can load components from",
        "its repo names the folder versatile_diffusion, which diffusers 0.42.1 moved",
    ),
    "deprecated.wuerstchen.pipeline_wuerstchen": RealBug(
        7,
        "is not one of the libraries Diffusers can load components from",
        "its repo names the folder wuerstchen, which diffusers 0.42.1 moved",
    ),
    "deprecated.wuerstchen.pipeline_wuerstchen_prior": RealBug(
        7,
        "is not one of the libraries Diffusers can load components from",
        "its repo names the folder wuerstchen, which diffusers 0.42.1 moved",
    ),
    "easyanimate.pipeline_easyanimate_control": RealBug(
        30,
        "unexpected keyword argument 'text_encoder_index'",
        "diffusers' __call__ passes text_encoder_index, which its own encode_prompt does not take",
    ),
    "flux2.pipeline_flux2": RealBug(
        12,
        "Provide either `prompt` or `prompt_embeds`",
        "passes the prompt positionally, where the first parameter is image",
    ),
    "flux2.pipeline_flux2_klein": RealBug(
        14,
        "Provide either `prompt` or `prompt_embeds`",
        "passes the prompt positionally, where the first parameter is image",
    ),
    "flux2.pipeline_flux2_klein_kv": RealBug(
        12, "No such file or directory: 'reference.png'", "opens a file it never wrote"
    ),
    "hunyuan_image.pipeline_hunyuanimage_refiner": RealBug(
        12, "name 'load_image' is not defined", "load_image not imported (and a placeholder path)"
    ),
    "hunyuan_video1_5.pipeline_hunyuan_video1_5_image2video": RealBug(
        13, "name 'load_image' is not defined", "load_image not imported"
    ),
    "kandinsky2_2.pipeline_kandinsky2_2_prior_emb2emb": RealBug(
        7, "name 'KandinskyPriorPipeline' is not defined", "imports another prior class"
    ),
    "kandinsky5.pipeline_kandinsky_i2i": RealBug(
        17, "missing 1 required positional argument: 'image'", "an image-to-image call, no image"
    ),
    "latent_consistency_models.pipeline_latent_consistency_img2img": RealBug(
        13, "No such file or directory: './snowy_mountains.png'", "opens a file it never wrote"
    ),
    "longcat_image.pipeline_longcat_image_edit": RealBug(
        14, "No such file or directory: 'test.jpg'", "opens a file it never wrote"
    ),
    "ltx2.pipeline_ltx2_condition": RealBug(
        39,
        "'tuple' object has no attribute 'round'",
        "with return_dict=False the call returns (video, audio), which it treats as the video",
    ),
    "ltx2.pipeline_ltx2_dfr_temporal_refine": RealBug(
        24, "name 'out' is not defined", "uses the output of a prior pass it never runs"
    ),
    "lucy.pipeline_lucy_edit": RealBug(
        4, "cannot import name 'list' from 'typing'", "typing has List, not list"
    ),
    "marigold.pipeline_marigold_depth": RealBug(
        17,
        "Invalid mode for data type",
        "diffusers 0.42.1's 16-bit depth export (Image.fromarray, mode I;16) fails on Pillow 13",
    ),
    "ovis_image.pipeline_ovis_image": RealBug(
        9,
        "invalid decimal literal",
        "its docstring is not raw: artist\\'s renders as artist's and ends the prompt string",
    ),
    "pag.pipeline_pag_controlnet_sd_xl_img2img": RealBug(
        10,
        "cannot import name 'DPTFeatureExtractor' from 'transformers'",
        "a class transformers 5 removed (DPTImageProcessor)",
    ),
    "pag.pipeline_pag_hunyuandit": RealBug(
        7, "Expected either a string or a list of string", "pag_applied_layers given an int"
    ),
    "pag.pipeline_pag_kolors": RealBug(
        19,
        "Cannot find PAG layer to set attention processor for: down.block_2.attentions_1",
        "PAG layer ids that match no module name (down_blocks.2.attentions.1)",
    ),
    "pag.pipeline_pag_sd_inpaint": RealBug(
        13, "name 'load_image' is not defined", "load_image not imported"
    ),
    "sana.pipeline_sana_sprint_img2img": RealBug(
        19,
        "'Image' object is not subscriptable",
        "indexes the PIL image .images[0] already gave (image[0].save)",
    ),
    "sana_wm.pipeline_sana_wm": RealBug(
        12, "No such file or directory: 'input.png'", "opens a file it never wrote"
    ),
    "skyreels_v2.pipeline_skyreels_v2_diffusion_forcing_i2v": RealBug(
        33, "No such file or directory: 'path/to/image.png'", "opens a placeholder path"
    ),
    "skyreels_v2.pipeline_skyreels_v2_diffusion_forcing_v2v": RealBug(
        33,
        "missing 1 required positional argument: 'video'",
        "a video-to-video call given no video",
    ),
    "skyreels_v2.pipeline_skyreels_v2_i2v": RealBug(
        33, "No such file or directory: 'path/to/image.png'", "opens a placeholder path"
    ),
    "stable_cascade.pipeline_stable_cascade": RealBug(
        10, "has no attribute 'from_pretrain'", "from_pretrain, a typo of from_pretrained"
    ),
    "stable_cascade.pipeline_stable_cascade_prior": RealBug(
        12, "name 'pipe' is not defined", "calls pipe, having named the pipeline prior_pipe"
    ),
    "stable_diffusion.pipeline_stable_diffusion_latent_upscale": RealBug(
        25, "../images/a1.png", "saves into ../images/, a folder it never made, outside its own"
    ),
    "stable_video_diffusion.pipeline_stable_video_diffusion": RealBug(
        7, "name 'torch' is not defined", "torch not imported"
    ),
    "wan.pipeline_wan_animate": RealBug(
        23,
        "path/to/pose_video.mp4 is not a valid path",
        "loads placeholder paths (and passes height and width it never defined)",
    ),
    "wan.pipeline_wan_vace": RealBug(
        8,
        "its output differed from the lines under it",
        "a function written without >>> prompts, read as expected output",
    ),
    "z_image.pipeline_z_image_omni": RealBug(
        17,
        "object of type 'NoneType' has no len()",
        "passes the prompt positionally, where the first parameter is image",
    ),
}
EXCEPTION_LINE = re.compile(r"^[\w.]*(Error|Exception|Exit|Interrupt)\b")
FENCE = re.compile(r"```py(?:thon)?\n(.*?)```", re.S)


@dataclass
class Module:
    name: str  # relative to diffusers.pipelines, e.g. flux.pipeline_flux
    example: str  # the docstring's code, dedented, verbatim otherwise
    classes: list[str]  # pipeline classes the module defines


@dataclass
class Row:
    module: str
    outcome: str
    reason: str
    seconds: float
    pipelines: list[str] = field(default_factory=list)
    own_class: bool = True  # False: passed on a stand-in of another class
    message: str = ""  # the whole message, for the real-bug check


def pipelines_root() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("diffusers.pipelines")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("diffusers is not installed")
    return Path(list(spec.submodule_search_locations)[0])


def example_of(tree: ast.Module) -> str | None:
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "EXAMPLE_DOC_STRING" for t in node.targets)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    for node in tree.body:  # older pipelines keep theirs in __call__'s docstring
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__call__":
                    doc = ast.get_docstring(item, clean=False) or ""
                    if FENCE.search(doc):
                        return doc
    return None


def collect() -> list[Module]:
    root = pipelines_root()
    modules = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        doc = example_of(tree)
        found = FENCE.search(doc or "")
        if not found:
            continue
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        # `LEditsPPPipelineStableDiffusion`: not every pipeline's name ends with Pipeline
        classes = [
            n.name for n in tree.body if isinstance(n, ast.ClassDef) and "Pipeline" in n.name
        ]
        modules.append(Module(name, textwrap.dedent(found.group(1)).strip("\n"), classes))
    return modules


def select(modules: list[Module], only: str | None, limit: int | None) -> list[Module]:
    if only:
        wanted = [w.strip() for w in only.split(",") if w.strip()]
        if "priority" in wanted:
            wanted = [w for w in wanted if w != "priority"] + list(PRIORITY)
        modules = [m for m in modules if any(_selects(w, m.name) for w in wanted)]
    return modules[:limit] if limit else modules


def _selects(wanted: str, name: str) -> bool:
    """A full module name selects itself; a shorter one (`flux`) every module under it."""
    if ".pipeline_" in wanted:
        return name == wanted
    return name == wanted or name.startswith((wanted + ".", wanted + "_"))


def write_guides(modules: list[Module], docs: Path) -> dict[str, Module]:
    docs.mkdir(parents=True, exist_ok=True)
    by_id = {}
    for module in modules:
        example_id = module.name.replace(".", "-")
        fence = "````" if "```" in module.example else "```"
        text = f"# {module.name}\n\n{fence}python {{id={example_id}}}\n{module.example}\n{fence}\n"
        (docs / f"{example_id}.md").write_text(text, "utf-8")
        by_id[example_id] = module
    return by_id


def run_batch(project: Path, guides: list[Path], jobs: int | None) -> list[dict]:
    report = project / f"report-{time.monotonic_ns()}.json"
    command = [sys.executable, "-m", "guidelint", "run", *map(str, guides)]
    command += ["--format", "json", "--output", str(report)]
    command += ["--jobs", str(jobs)] if jobs else []
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run(command, cwd=project, env=env, check=False, stdout=subprocess.DEVNULL)
    if not report.is_file():
        return []
    return json.loads(report.read_text())["examples"]


def row_of(entry: dict, module: Module) -> Row:
    lines = [line.strip() for line in entry["message"].strip().splitlines() if line.strip()]
    reason = lines[0] if lines else ""
    if re.fullmatch(r"line \d+:", reason) and len(lines) > 1:  # a REPL failure: its exception
        reason += " " + repl_reason(lines[1:])
    pipelines = list(entry.get("pipelines", []))
    own = not (
        entry["status"] == "passed" and pipelines and not set(pipelines) & set(module.classes)
    )
    return Row(
        module.name, entry["status"], reason, entry["duration_s"], pipelines, own, entry["message"]
    )


def repl_reason(lines: list[str]) -> str:
    """The gist of a `>>>` failure: the exception it raised, or the output it expected."""
    raised = [line for line in lines if EXCEPTION_LINE.match(line)]
    if raised:
        return raised[-1]
    if "Expected:" in lines and lines.index("Expected:") + 1 < len(lines):
        stated = lines[lines.index("Expected:") + 1]
        statement = lines[lines.index("Failed example:") + 1] if "Failed example:" in lines else ""
        return f"{statement} printed other than the stated {stated[:60]!r}"
    return lines[-1]


def still_fails(row: Row, bug: RealBug) -> bool:
    """The example fails at the bug's line with its message, as the list says."""
    at_its_line = f"line {bug.line}:" in row.message
    return row.outcome != "passed" and at_its_line and bug.says in row.message


def goal(rows: list[Row]) -> tuple[str, list[Row]]:
    """Issue #10's goal figure, and the rows whose REAL_BUGS entry is stale."""
    bugs = [r for r in rows if r.module in REAL_BUGS and still_fails(r, REAL_BUGS[r.module])]
    stale = [r for r in rows if r.module in REAL_BUGS and r not in bugs]
    missing = [r for r in rows if r.outcome == "missing-dependency" and r not in bugs]
    counted = len(rows) - len(missing) - len(bugs)
    passed = sum(r.outcome == "passed" for r in rows)
    share = f"{100 * passed / counted:.0f} %" if counted else "n/a"
    text = (
        f"Goal (issue #10: at least 80 %): {passed} passed of {counted} examples "
        f"({len(rows)} modules - {len(missing)} missing-dependency - {len(bugs)} real bugs) "
        f"= {share}."
    )
    return text, stale


def table(rows: list[Row], scope: str) -> str:
    totals = Counter(r.outcome for r in rows)
    wrong = [r for r in rows if not r.own_class]
    goal_text, stale = goal(rows)
    if stale:
        goal_text += " The real-bug list is stale for: " + "; ".join(
            f"{r.module} (no longer line {REAL_BUGS[r.module].line}: {REAL_BUGS[r.module].says!r})"
            for r in stale
        )
        goal_text += "; review REAL_BUGS in scripts/diffusers_yardstick.py."
    lines = [
        f"Scope: {scope}. {len(rows)} modules; "
        + ", ".join(f"{k} {v}" for k, v in totals.most_common())
        + f"; passes on a stand-in of another class: {len(wrong)}"
        + (f" ({', '.join(r.module for r in wrong)})" if wrong else "")
        + ".",
        "",
        goal_text,
        "",
        "| module | outcome | reason | seconds | pipelines |",
        "|---|---|---|---:|---|",
    ]
    for r in rows:
        # no backticks: a code span in a docs table is read as a path by guidelint check
        reason = r.reason.replace("|", "\\|").replace("`", "'")[:140]
        lines.append(
            f"| {r.module} | {r.outcome} | {reason} | {r.seconds:.1f} | {', '.join(r.pipelines)} |"
        )
    lines += real_bug_table(rows)
    return "\n".join(lines) + "\n"


def real_bug_table(rows: list[Row]) -> list[str]:
    bugs = [r for r in rows if r.module in REAL_BUGS and still_fails(r, REAL_BUGS[r.module])]
    if not bugs:
        return []
    lines = ["", "Real bugs of the examples (REAL_BUGS, each still failing as listed):", ""]
    lines += ["| module | line | what is wrong |", "|---|---:|---|"]
    for r in bugs:
        bug = REAL_BUGS[r.module]
        lines.append(f"| {r.module} | {bug.line} | {bug.wrong} |")
    return lines


def write_section(text: str) -> None:
    doc = DIFFUSERS_DOC.read_text("utf-8")
    block = f"{START}\n{text}{END}"
    if START in doc and END in doc:
        doc = doc[: doc.index(START)] + block + doc[doc.index(END) + len(END) :]
    else:
        doc = doc.rstrip("\n") + "\n\n## Yardstick\n\n" + block + "\n"
    DIFFUSERS_DOC.write_text(doc, "utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="module prefixes, comma-separated ('priority': issue #10's)")
    parser.add_argument("--limit", type=int, help="at most this many modules")
    parser.add_argument("--jobs", type=int, help="examples at a time (default: the CLI's own)")
    parser.add_argument("--batch", type=int, default=20, help="modules per `guidelint run`")
    parser.add_argument(
        "--timeout", type=float, help="seconds per example (default: the CLI's own, 60)"
    )
    parser.add_argument("--tiny-cache", help="tiny checkpoint cache (default: the user cache)")
    parser.add_argument("--write", action="store_true", help="update docs/DIFFUSERS.md")
    parser.add_argument(
        "--device",
        choices=("auto", "gpu", "cpu"),
        help="the diffusers backend's GPU path ($GUIDELINT_DIFFUSERS_DEVICE; default auto)",
    )
    args = parser.parse_args()
    if args.device:
        os.environ["GUIDELINT_DIFFUSERS_DEVICE"] = args.device
    cpu_shims: list[str] = []  # with --device gpu: examples that still fell back to the CPU

    import importlib.metadata

    modules = select(collect(), args.only, args.limit)
    scope = f"diffusers {importlib.metadata.version('diffusers')}, " + (
        f"--only {args.only}" if args.only else "every module"
    )
    scope += f" --limit {args.limit}" if args.limit else ""
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="yardstick-") as folder:
        project = Path(folder)
        settings = f"timeout = {args.timeout}\n" if args.timeout else ""
        if args.tiny_cache:
            settings += f'tiny-cache = "{Path(args.tiny_cache).resolve()}"\n'
        (project / "pyproject.toml").write_text(
            f'[tool.guidelint]\ninclude = ["docs/*.md"]\n[tool.guidelint.runner]\n{settings}'
        )
        by_id = write_guides(modules, project / "docs")
        ids = list(by_id)
        for start in range(0, len(ids), args.batch):
            batch = ids[start : start + args.batch]
            clock = time.perf_counter()
            entries = run_batch(project, [project / "docs" / f"{i}.md" for i in batch], args.jobs)
            found = {e["id"]: e for e in entries}
            cpu_shims += [
                i
                for i, e in found.items()
                if any("(no GPU)" in s for s in e.get("substitutions", []))
            ]
            for example_id in batch:
                entry = found.get(example_id)
                if entry is None:
                    rows.append(Row(by_id[example_id].name, "not-run", "the batch failed", 0.0))
                else:
                    rows.append(row_of(entry, by_id[example_id]))
            print(
                f"{start + len(batch)}/{len(ids)} in {time.perf_counter() - clock:.0f}s",
                file=sys.stderr,
            )
    text = table(rows, scope)
    print(text)
    if args.device == "gpu":  # the GPU path: nothing may have been moved to the CPU
        print(f"GPU path: {len(cpu_shims)} examples with a '(no GPU)' substitution", cpu_shims)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
