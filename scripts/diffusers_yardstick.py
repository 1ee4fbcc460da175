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
in batches, and prints a table (module, outcome, cause, reason, seconds, pipelines) with
the totals per outcome. With --write the table replaces the yardstick section of
docs/DIFFUSERS.md.

It also checks the one result that must never happen: a pass on a stand-in of
another class. Each entry's `pipelines` lists the pipeline classes its process
built; a passing example of a module that built pipelines, none of them a class
that module defines, is counted as `passes on another class` (the goal is 0).

And it prints issue #29's goal figures: passes / (modules - real bugs of the examples),
and the same without the missing-dependency ones. The real bugs are `REAL_BUGS`, a
reviewed list (module -> the line and what is wrong in the example's text), checked on
every run: an entry whose example no longer fails at that line with that message is
reported as stale, not counted.

Every non-pass gets a cause class (CAUSES): a harness fault (build-failed, or an error
whose traceback's innermost frame is guidelint's own code: each is named, so none
hides among the examples' errors), a real bug, a missing dependency, no stand-in,
refused, cost (costwatch's measured figures), or a cause found by hand (`REVIEWED`:
a load-caused timeout re-run alone, a download the example makes), else `unreviewed`.
The batches run `guidelint run`'s own entry point (run_examples) in a process of their
own, so each entry keeps the example's traceback, which the JSON report leaves out.
The run's wall time and the load average at each batch are printed with the figures;
--keep-reports keeps them and each batch's entries, --from-reports renders them again.
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
from typing import Any

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
    # reached since its stand-in (teticio/audio-diffusion-256), past 1000 DDPM steps
    "deprecated.audio_diffusion.pipeline_audio_diffusion": RealBug(
        12,
        "name 'display' is not defined",
        "calls display(), a notebook's builtin it never imports (and mel, never defined)",
    ),
    # reached since the runner makes controlnet_aux's Openpose files (annotators.py)
    "animatediff.pipeline_animatediff_video2video_controlnet": RealBug(
        39,
        "name 'conditioning_frames' is not defined",
        "appends each pose frame to conditioning_frames, a list it never creates",
    ),
    # reviewed 2026-12-05 from the whole run at the defaults
    "controlnet.pipeline_controlnet_blip_diffusion": RealBug(
        9,
        "is not one of the libraries Diffusers can load components from",
        "its repo names the folder blip_diffusion, which diffusers 0.42.1 moved",
    ),
    "deprecated.dance_diffusion.pipeline_dance_diffusion": RealBug(
        21,
        "name 'display' is not defined",
        "calls display(), a notebook's builtin it never imports, outside a notebook",
    ),
    # flux2 and kandinsky5 i2i: reached where torchvision is installed (Pixtral and
    # Qwen2-VL processors); checked against diffusers 0.42.1's __call__ signatures
    "flux2.pipeline_flux2": RealBug(
        12,
        "Provide either `prompt` or `prompt_embeds`",
        "passes the prompt positionally, where the first parameter is image",
    ),
    "kandinsky5.pipeline_kandinsky_i2i": RealBug(
        17,
        "missing 1 required positional argument: 'image'",
        "an image-to-image call given no image",
    ),
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
    # reached once torchvision was installed (2026-12-05), 68 s in at load 17
    "kandinsky5.pipeline_kandinsky_t2i": RealBug(
        17,
        "'KandinskyImagePipelineOutput' object has no attribute 'frames'",
        "reads .frames of the image pipeline's output, whose field is image",
    ),
    # reached once their Qwen3-VL stand-ins exist (2026-12-05)
    "dreamlite.pipeline_dreamlite": RealBug(
        17, "No such file or directory: 'input.png'", "opens a file it never wrote"
    ),
    "dreamlite.pipeline_dreamlite_mobile": RealBug(
        17, "No such file or directory: 'input.png'", "opens a file it never wrote"
    ),
    "joyimage.pipeline_joyimage_edit_plus": RealBug(
        12, "dog.png is not a valid path", "loads files it never wrote (dog.png, person.png)"
    ),
    "ltx2.pipeline_ltx2_hdr_lora": RealBug(
        21, "/path/to/reference.mp4 is not a valid path", "loads a placeholder path"
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
# Why an example did not pass, one class each (the table's `cause` column). The order
# is the order they are tried in: a traceback in guidelint's own code is a harness
# fault before anything else, so no reviewed entry or outcome hides one.
CAUSES = {
    "harness fault": "guidelint's own failure: build-failed, or an error whose traceback "
    "ends in guidelint's code",
    "real bug": "the example's text is wrong (REAL_BUGS, still failing as listed)",
    "missing dependency": "an import that is not installed (outcome missing-dependency)",
    "no stand-in": "a model with no tiny stand-in of its class (outcome unsupported-model)",
    "refused": "the sandbox refused a write or a call (outcome refused)",
    "cost": "the example's own size: a timeout with costwatch's measured figures, or a "
    "tensor torch could not allocate",
    "load": "a timeout at the machine's load: reviewed, it passes alone at the same timeout",
    "example download": "the example fetches a file no fixture serves, and the sandbox has "
    "no network (outcome refused; error before the runner named it)",
    "diffusers bug": "diffusers' own code fails here at the real checkpoint's settings, "
    "which the stand-in keeps (reviewed: not the example's text, not guidelint's)",
    "unreviewed": "no cause named yet: review it",
}


@dataclass(frozen=True)
class Reviewed:
    """A non-pass whose cause was found by hand (a load-caused timeout re-run alone,
    a download the example makes): applied while the example still ends that way."""

    outcome: str
    says: str  # a piece of its message
    cause: str  # a key of CAUSES
    why: str  # what was found, with the figures measured


BARE = "still running after 60s"  # a timeout costwatch gave no figures for
# The whole run of session 38 had a load median of 4.1; these were re-run at once after it
# at the defaults (2 jobs, 60 s) on the quiet machine.
AT_REST = "re-run at the defaults after session 38's run (load 0.4-2.6, 2026-12-05 10:47)"
# Re-runs on 2026-12-04: one example at a time (--jobs 1) at the 60 s default, from
# the warm tiny cache, on the same 2 shared cores (load average 10-14 then).
# A module may carry several reviews, one for each way it has ended.
REVIEWED: dict[str, Reviewed | tuple[Reviewed, ...]] = {
    # re-run at the defaults on the quiet machine after session 38's whole run (load 4.1)
    "kandinsky3.pipeline_kandinsky3": Reviewed(
        "timeout",
        "TooSlow: Kandinsky3Pipeline",
        "load",
        f"passed in 34.7 s {AT_REST}",
    ),
    "easyanimate.pipeline_easyanimate": Reviewed(
        "timeout",
        "TooSlow: EasyAnimatePipeline",
        "load",
        f"passed in 50.6 s {AT_REST}",
    ),
    "deprecated.dance_diffusion.pipeline_dance_diffusion": Reviewed(
        "timeout",
        "TooSlow: DanceDiffusionPipeline",
        "real bug",
        f"{AT_REST}, it reaches its real bug (REAL_BUGS) at line 21 in 23.3 s",
    ),
    "anyflow.pipeline_anyflow": Reviewed(
        "timeout", BARE, "cost", "timed out alone too (load 12); 85.0 s at 300 s on 2026-12-01"
    ),
    "bria.pipeline_bria": Reviewed(
        "timeout",
        BARE,
        "real bug",
        "alone (load 12) it reaches its real bug (REAL_BUGS): line 8 failed at 51.4 s",
    ),
    # its stand-in since 2026-12-05; librosa (diffusers' Mel) is not in the extra
    "deprecated.audio_diffusion.pipeline_audio_diffusion": Reviewed(
        "missing-dependency",
        "librosa",
        "real bug",
        "with librosa installed, alone at 300 s (load 12) it reaches its real bug at line 12, "
        "display() never imported, at 101.7 s (the 1000 steps took 16 s)",
    ),
    # issue #29's new stand-ins (2026-12-05, --jobs 1, load 7-9)
    "ltx2.pipeline_ltx2_ic_lora": Reviewed(
        "timeout", BARE, "load", "passed alone in 43.1 s (load 4, one head, 2026-12-05 06:49)"
    ),
    "chroma.pipeline_chroma_inpainting": Reviewed(
        "timeout", BARE, "load", "passed alone in 39.2 s (load 10)"
    ),
    "chronoedit.pipeline_chronoedit": Reviewed(
        "timeout", BARE, "cost", "timed out alone too (load 12); 70.7 s at 300 s on 2026-12-01"
    ),
    "controlnet.pipeline_controlnet_union_sd_xl_img2img": Reviewed(
        "timeout",
        BARE,
        "cost",
        "247.6 s at 300 s on 2026-12-01; ControlNet-Union's stand-in cost is another task",
    ),
    "controlnet_sd3.pipeline_stable_diffusion_3_controlnet": Reviewed(
        "timeout", BARE, "cost", "timed out alone too (load 13); 59.3 s at 300 s on 2026-12-01"
    ),
    "deprecated.stable_diffusion_variants.pipeline_cycle_diffusion": Reviewed(
        "timeout", BARE, "load", "passed alone in 23.0 s (load 13)"
    ),
    "easyanimate.pipeline_easyanimate_inpaint": Reviewed(
        "timeout",
        BARE,
        "load",
        f"passed in 22.3 s {AT_REST} (4x4 patches and a leaner MagViT, 21.2 CPU-s on one thread)",
    ),
    "flux.pipeline_flux_control": Reviewed(
        "timeout",
        BARE,
        "missing dependency",
        "alone (load 14) it reaches line 5 at 38.9 s: No module named 'controlnet_aux'",
    ),
    "flux.pipeline_flux_control_img2img": Reviewed(
        "timeout",
        BARE,
        "missing dependency",
        "alone (load 14) it reaches line 5 at 33.8 s: No module named 'controlnet_aux'",
    ),
    "flux.pipeline_flux_controlnet": Reviewed(
        "timeout", BARE, "load", "passed alone in 36.9 s (load 14)"
    ),
    "krea2.pipeline_krea2": Reviewed(
        "timeout", BARE, "cost", "timed out alone too (load 14); 49.7 s at 300 s on 2026-12-01"
    ),
    "ledits_pp.pipeline_leditspp_stable_diffusion_xl": Reviewed(
        "timeout", BARE, "cost", "timed out alone too (load 14); 25.5 s at 300 s on 2026-12-01"
    ),
    "mochi.pipeline_mochi": Reviewed(
        "timeout",
        BARE,
        "load",
        "passed alone in 35.7 s (load 7-9, 2026-12-05, session 38: its VAE's finest resnets "
        "gone, 18.5 CPU-s on one thread, 69.3 before)",
    ),
    "pag.pipeline_pag_controlnet_sd": Reviewed(
        "timeout", BARE, "load", "passed alone in 32.7 s (load 14)"
    ),
    "pag.pipeline_pag_sd_3": Reviewed("timeout", BARE, "load", "passed alone in 50.3 s (load 14)"),
    "pag.pipeline_pag_sd_3_img2img": Reviewed(
        "timeout", BARE, "load", "passed alone in 51.9 s (load 14)"
    ),
    "prx.pipeline_prx_pixel": Reviewed("timeout", BARE, "load", "passed alone in 24.6 s (load 14)"),
    "qwenimage.pipeline_qwenimage": Reviewed(
        "timeout", BARE, "load", "passed alone in 38.2 s (load 14)"
    ),
    "qwenimage.pipeline_qwenimage_inpaint": Reviewed(
        "timeout", BARE, "cost", "timed out alone too (load 14); 54.6 s at 300 s on 2026-12-01"
    ),
    "qwenimage.pipeline_qwenimage_controlnet": Reviewed(
        "timeout", BARE, "cost", "took 76.5 s at 300 s on 2026-12-01"
    ),
    "qwenimage.pipeline_qwenimage_img2img": Reviewed(
        "timeout", BARE, "load", "passed alone in 56.0 s (load 14)"
    ),
    "wan.pipeline_wan": Reviewed(
        "timeout",
        BARE,
        "load",
        "passed in 39.9 s in session 39's whole run at the defaults (load 1.9), on the "
        "16x VAE with channels-last convolutions; a bare timeout is the machine's load",
    ),
    "wan.pipeline_wan_i2v": Reviewed(
        "timeout",
        BARE,
        "cost",
        "timed out at 300 s too on 2026-12-01; on its coarse stand-in (16x VAE, 7x1x1 "
        "patches: 4,563 tokens) it reached step 36 of 50 at 56 s at load 14.7 (2026-12-05)",
    ),
    "helios.pipeline_helios": Reviewed(
        "timeout",
        BARE,
        "load",
        f"passed in 23.5 s {AT_REST} (its 32x stand-in: 21.7 CPU-s a call)",
    ),
    "wan.pipeline_wan_video2video": (
        Reviewed("timeout", BARE, "load", "passed alone in 33.3 s (load 15)"),
        # session 38's whole run: a harness fault, fixed after it (coarsen.loads_as)
        Reviewed(
            "error",
            "The size of tensor a (45) must match",
            "harness fault",
            "a coarse VAE joined to the 8x video-to-video pipeline; fixed, re-run at the defaults "
            "it passed in 4.2 s",
        ),
    ),
    # Shap-E's NeRF render at frame_size 256: 20 views, 1,310,720 rays, each at 64 coarse
    # and 192 fine points, every point through a fixed 93-wide sine encoding (the MLP's
    # width changes none of it): 7.8 s a 4,096-ray batch alone on one thread (2026-12-05)
    "shap_e.pipeline_shap_e": Reviewed(
        "timeout",
        "ShapERenderer: rendering 1,310,720 rays",
        "cost",
        "its render's 320 batches of 4,096 rays took 7.8 s each alone on one thread (about "
        "42 min; the cost is per point of its fixed sine encoding, not per width)",
    ),
    "shap_e.pipeline_shap_e_img2img": Reviewed(
        "timeout",
        "ShapERenderer: rendering 1,310,720 rays",
        "cost",
        "its render's 320 batches of 4,096 rays took 7.8 s each alone on one thread (about "
        "42 min; the cost is per point of its fixed sine encoding, not per width)",
    ),
    "skyreels_v2.pipeline_skyreels_v2": Reviewed(
        "timeout", BARE, "cost", "timed out at 300 s too on 2026-12-01"
    ),
    "ltx.pipeline_ltx_i2v_long_multi_prompt": Reviewed(
        "timeout",
        BARE,
        "load",
        f"passed in 46.2 s {AT_REST}",
    ),
    "ltx2.pipeline_ltx2_condition": Reviewed(
        "timeout",
        "TooSlow",
        "real bug",
        "its real bug (REAL_BUGS, line 39) lies past a loop costwatch stopped (97.8 s at "
        "300 s on 2026-12-01, where it failed there)",
    ),
    "ltx2.pipeline_ltx2_dfr": Reviewed(
        "crashed",
        "MemoryError",
        "cost",
        "passed in 45.0 s in session 39's whole run (the 64x VAE); its output holds the "
        "1.15 GiB video three times, at the memory limit's edge: a MemoryError is that",
    ),
    # bare timeouts of the whole run of 2026-12-05 (load median 4.2) re-run alone at the
    # 60 s default (--jobs 1, load 4-6)
    "hunyuan_image.pipeline_hunyuanimage": Reviewed(
        "timeout",
        BARE,
        "load",
        f"passed in 24.8 s {AT_REST} (2x2 patches, one resnet a decoder level)",
    ),
    # Kandinsky 6 at 480x864, 121 frames: on a 16x VAE since 2026-12-05 (12,555 tokens,
    # not 50,220), its 16 steps fit; the SR example first makes its video with the TI2VA
    # pipeline. What is left is the decode at 480x864 (11 windows of 17 frames)
    "kandinsky6.pipeline_kandinsky6_sr": Reviewed(
        "timeout",
        "AutoencoderKLHunyuanVideo: decoding",
        "load",
        "its TI2VA call's decode fits at rest since session 39 (the HunyuanVideo VAE on "
        "oneDNN: the example reaches Kandinsky6SRPipeline, no stand-in); a decode stopped "
        "by costwatch again is the machine's load (11 windows of 17 frames)",
    ),
    "kandinsky6.pipeline_kandinsky6_ti2va": Reviewed(
        "timeout",
        "AutoencoderKLHunyuanVideo: decoding",
        "cost",
        "alone (load 11-14), costwatch stops its decode: a window of 17 frames took "
        "17.7-19.9 s, 11 windows (before the 16x VAE: step 2 of 16 took 14.7 s)",
    ),
    "ltx.pipeline_ltx": Reviewed(
        "timeout",
        BARE,
        "load",
        f"passed in 35.3 s {AT_REST}",
    ),
    "ltx.pipeline_ltx_condition": Reviewed(
        "timeout",
        BARE,
        "load",
        f"passed in 33.3 s {AT_REST}",
    ),
    "ltx.pipeline_ltx_image2video": Reviewed(
        "timeout",
        BARE,
        "load",
        f"passed in 32.2 s {AT_REST}",
    ),
    "ltx2.pipeline_ltx2": Reviewed(
        "timeout",
        BARE,
        "load",
        f"passed in 25.6 s {AT_REST}",
    ),
    "ltx2.pipeline_ltx2_image2video": Reviewed(
        "timeout",
        BARE,
        "load",
        f"passed in 25.6 s {AT_REST}",
    ),
    "ltx2.pipeline_ltx2_latent_upsample": Reviewed(
        "timeout",
        BARE,
        "cost",
        "timed out alone too; costwatch measured step 2 of 40 at 5.3 s (6,144 tokens) in "
        "the run at the session's start",
    ),
    "kandinsky.pipeline_kandinsky_img2img": Reviewed(
        "timeout", BARE, "load", "passed alone in 43.7 s (load 14)"
    ),
    "kandinsky2_2.pipeline_kandinsky2_2_img2img": Reviewed(
        "timeout", BARE, "load", "passed alone in 31.7 s (load 14)"
    ),
    "flux.pipeline_flux_kontext": Reviewed(
        "timeout", BARE, "cost", "timed out alone too (load 14); 20.6 s at 300 s on 2026-12-01"
    ),
    "flux.pipeline_flux_kontext_inpaint": Reviewed(
        "timeout", BARE, "cost", "timed out alone too (load 14); 13.7 s at 300 s on 2026-12-01"
    ),
    "helios.pipeline_helios_pyramid": (
        Reviewed(
            "error",
            "linalg.cholesky",
            "diffusers bug",
            "sample_block_noise's covariance (1+g)I - gJ of a 2x2 patch is singular at g = 1/3, "
            "HeliosScheduler's default, which ports of the real checkpoints pass too (its 1e-8 "
            "jitter is below float32's step at 4/3): its float32 eigenvalue is -3e-8 whatever the "
            "weights; "
            "torch 2.13.0's CPU build factored it (passed in 131 s on 2026-12-01), 2.14.1's not",
        ),
        # session 38's whole run: a harness fault, fixed after it (coarsen.loads_as)
        Reviewed(
            "error",
            "The size of tensor a (5) must match",
            "harness fault",
            "a coarse VAE joined to the 8x pyramid pipeline; fixed, re-run at the defaults it ends "
            "at its diffusers bug (linalg.cholesky) again",
        ),
    ),
    # Motif-Video's stand-ins (2026-12-05): 1280x736, 121 frames are 114,080 tokens a DiT
    # call; one call of the tiny DiT at a quarter of them (28,520) took 6.2 s of CPU
    # (load 11), so 100 calls (50 steps, CFG) at the full size need hours
    "motif_video.pipeline_motif_video": Reviewed(
        "timeout",
        BARE,
        "cost",
        "one tiny DiT call at a quarter of its 114,080 tokens took 6.2 s of CPU; it asks 100",
    ),
    "motif_video.pipeline_motif_video_image2video": Reviewed(
        "timeout",
        BARE,
        "cost",
        "one tiny DiT call at a quarter of its 114,080 tokens took 6.2 s of CPU; it asks 100",
    ),
    "kandinsky5.pipeline_kandinsky": Reviewed(
        "timeout",
        "AutoencoderKLHunyuanVideo: decoding",
        "cost",
        "on a 32x VAE (2,976 tokens a call, not 47,616) its 50 steps fit; alone (load 11-14) "
        "costwatch stops the decode of 121 frames at 512x768: a window of 17 frames took "
        "16-22 s, 11 windows (86.5 s for the whole decode on one quiet thread)",
    ),
    "hunyuan_video.pipeline_hunyuan_skyreels_image2video": Reviewed(
        "timeout",
        BARE,
        "cost",
        "timed out at 300 s too on 2026-12-01; 30 steps of two calls over 51,000 tokens, "
        "then a tiled decode of 135 tiles at up to 1.92 CPU-s each (2026-12-05)",
    ),
    "hunyuan_video.pipeline_hunyuan_video": Reviewed(
        "timeout",
        BARE,
        "load",
        f"passed in 44.9 s {AT_REST} (at load 7-14 its tiled decode of 61 frames at "
        "320x512 took 90-115 s)",
    ),
    "hunyuan_video.pipeline_hunyuan_video_framepack": Reviewed(
        "timeout", BARE, "cost", "timed out at 300 s too on 2026-12-01"
    ),
    "hunyuan_video.pipeline_hunyuan_video_image2video": Reviewed(
        "timeout",
        BARE,
        "cost",
        "timed out at 300 s too on 2026-12-01; 118,800 tokens a call: the tiny DiT's first "
        "block alone took 24.5 CPU-s (2026-12-05), 100 calls, and 308 decode tiles a call",
    ),
    "deprecated.text_to_video_synthesis.pipeline_text_to_video_synth_img2img": Reviewed(
        "timeout",
        BARE,
        "real bug",
        "its real bug (REAL_BUGS, line 31) lies past its first pipeline's 40 steps: on the "
        "8x stand-in costwatch stopped them (step 2 of 40 took 26.3 s); on the 32x one "
        "(2026-12-05, session 38) it reaches line 31 in 38-56 s at load 11-14",
    ),
}
EXCEPTION_LINE = re.compile(r"^[\w.]*(Error|Exception|Exit|Interrupt)\b")
# How the diffusers backend refuses a URL no fixture serves (guidelint.runner.verdict)
NO_NETWORK = "no network while examples run: "
# A traceback's frame: `File "/path/x.py", line 12, in f` and the source line under it
FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)[^\n]*(?:\n(?!\s*File ")([^\n]*))?', re.M)
PASS_ON = re.compile(r"(return )?[\w.]+\(\*args, \*\*kwargs\)")
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
    details: str = ""  # the example's traceback, for the harness-fault check
    cause: str = ""  # a key of CAUSES, or "" for a pass

    def __post_init__(self) -> None:
        self.cause = self.cause or classify(self)


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
    """One `guidelint run` of the guides, in its own process: its report's entries,
    each with the example's traceback (`details`, which the JSON report leaves out)."""
    report = project / f"report-{time.monotonic_ns()}.json"
    command = [sys.executable, str(Path(__file__).resolve()), "--run-batch", str(report)]
    command += [*map(str, guides), *(["--jobs", str(jobs)] if jobs else [])]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run(command, cwd=project, env=env, check=False, stdout=subprocess.DEVNULL)
    if not report.is_file():
        return []
    return json.loads(report.read_text())["examples"]


def run_batch_here(report: Path, guides: list[str], jobs: int | None) -> None:
    """`guidelint run GUIDES --format json --output REPORT` through the same entry point
    (run_examples, at the project's settings and the CLI's default jobs), adding each
    example's traceback: a harness fault is told from the example's by where it lies."""
    from guidelint.runner.reports import result_line
    from guidelint.runner.run import RunOptions, run_examples

    def progress(result, done: int, total: int) -> None:
        print(f"[{done:>{len(str(total))}}/{total}] {result_line(result)}", file=sys.stderr)

    ran = run_examples(RunOptions(paths=[Path(g) for g in guides], jobs=jobs), progress)
    data = ran.as_json()
    for entry, result in zip(data["examples"], ran.results, strict=True):
        entry["details"] = result.details
    report.write_text(json.dumps(data), "utf-8")


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
        module.name,
        entry["status"],
        reason,
        entry["duration_s"],
        pipelines,
        own,
        entry["message"],
        entry.get("details", ""),
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


def guidelint_frame(details: str) -> str | None:
    """`path:line` of the traceback's innermost frame where it is guidelint's own code,
    unless that frame only passes a call on (`return func(*args, **kwargs)`: the
    backend's torch-function mode and patches wrap torch and diffusers calls, and what
    such a call raises is the callee's)."""
    frames = FRAME.findall(details)
    if not frames:
        return None
    path, line, source = frames[-1]
    if "guidelint" not in Path(path).parts or PASS_ON.fullmatch(source.strip()):
        return None
    return f"{path}:{line}"


def reviewed_for(row: Row) -> Reviewed | None:
    """The review of the module that matches how the row ended, if any."""
    entries = REVIEWED.get(row.module, ())
    for reviewed in entries if isinstance(entries, tuple) else (entries,):
        if reviewed.outcome == row.outcome and reviewed.says in row.message:
            return reviewed
    return None


def classify(row: Row) -> str:
    """The row's cause class (a key of CAUSES); "" for a pass."""
    if row.outcome == "passed":
        return ""
    if row.outcome == "build-failed" or (
        row.outcome in ("error", "failed", "crashed") and guidelint_frame(row.details)
    ):
        return "harness fault"
    if row.module in REAL_BUGS and still_fails(row, REAL_BUGS[row.module]):
        return "real bug"
    reviewed = reviewed_for(row)
    if reviewed is not None:
        # a real bug only where REAL_BUGS lists it (its line and what is wrong)
        if reviewed.cause != "real bug" or row.module in REAL_BUGS:
            return reviewed.cause
    if NO_NETWORK in row.message or "the sandbox refused a download: " in row.message:
        return "example download"  # the diffusers backend's refusal of a URL
    by_outcome = {
        "missing-dependency": "missing dependency",
        "unsupported-model": "no stand-in",
        "refused": "refused",
    }
    if row.outcome in by_outcome:
        return by_outcome[row.outcome]
    measured = row.outcome == "timeout" and not row.message.startswith("still running after")
    if measured or (row.outcome == "crashed" and "could not allocate" in row.message):
        return "cost"
    return "unreviewed"


def stops_before(row: Row, bugs: dict[str, RealBug]) -> bool:
    """The example fails at a line before its listed bug (a package missing here, say):
    the bug is not reached, which does not make its entry stale."""
    failed_at = re.match(r"line (\d+):", row.message)
    if row.outcome == "passed" or failed_at is None:
        return False
    return int(failed_at.group(1)) < bugs[row.module].line


def goal(rows: list[Row]) -> tuple[str, list[Row]]:
    """Issue #29's goal figures, and the rows whose REAL_BUGS entry is stale."""
    bugs = [r for r in rows if r.cause == "real bug"]
    stale = [
        r
        for r in rows
        if r.module in REAL_BUGS and r.cause != "real bug" and not stops_before(r, REAL_BUGS)
    ]
    missing = [r for r in rows if r.cause == "missing dependency"]
    passed = sum(r.outcome == "passed" for r in rows)
    counted = len(rows) - len(bugs)
    text = (
        f"Goal (issue #29: at least 90 %): {passed} passed of {counted} examples "
        f"({len(rows)} modules - {len(bugs)} real bugs) = {_share(passed, counted)}; "
        f"without the {len(missing)} missing-dependency ones: {passed} of "
        f"{counted - len(missing)} = {_share(passed, counted - len(missing))}."
    )
    return text, stale


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "n/a"


def cause_counts(rows: list[Row]) -> str:
    counts = Counter(r.cause for r in rows if r.cause)
    return ", ".join(f"{cause} {counts[cause]}" for cause in CAUSES if counts[cause])


def harness_faults(rows: list[Row]) -> str:
    """The line that names every harness fault, so none hides among the errors."""
    faults = [r for r in rows if r.cause == "harness fault"]
    if not faults:
        return "Harness faults (build-failed, or a traceback ending in guidelint's code): 0."
    named = "; ".join(
        f"{r.module} ({r.outcome}"
        + (f", at {guidelint_frame(r.details)}" if guidelint_frame(r.details) else "")
        + ")"
        for r in faults
    )
    return f"Harness faults (build-failed, or a traceback ending in guidelint's code): {named}."


def run_facts(facts: dict[str, Any]) -> str:
    """The run's wall time and the machine's load while it ran."""
    if not facts:
        return ""
    loads = sorted(facts.get("load", []))
    load = (
        f"load average (1 min, {facts.get('load_sampled', 'sampled at each batch')}) "
        f"min {loads[0]:.1f}, median "
        f"{loads[len(loads) // 2]:.1f}, max {loads[-1]:.1f}"
        if loads
        else "load not recorded"
    )
    return (
        f"Run: {facts['date']}, {facts['wall_s'] / 60:.1f} min wall on {facts['cores']} cores "
        f"(timeout {facts['timeout']}, jobs {facts['jobs']}); {load}."
    )


def table(rows: list[Row], scope: str, facts: dict[str, Any] | None = None) -> str:
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
        f"Causes of the non-passes: {cause_counts(rows) or 'none'}.",
        "",
        harness_faults(rows),
        "",
    ]
    lines += [run_facts(facts), ""] if facts else []
    lines += [
        "| module | outcome | cause | reason | seconds | pipelines |",
        "|---|---|---|---|---:|---|",
    ]
    for r in rows:
        # no backticks: a code span in a docs table is read as a path by guidelint check
        reason = r.reason.replace("|", "\\|").replace("`", "'")[:140]
        reviewed = reviewed_for(r)
        cause = r.cause + (
            f": {reviewed.why}" if reviewed is not None and r.cause == reviewed.cause else ""
        ).replace("|", "\\|")
        lines.append(
            f"| {r.module} | {r.outcome} | {cause} | {reason} | {r.seconds:.1f} "
            f"| {', '.join(r.pipelines)} |"
        )
    lines += real_bug_table(rows)
    return "\n".join(lines) + "\n"


def real_bug_table(rows: list[Row]) -> list[str]:
    bugs = [r for r in rows if r.cause == "real bug"]
    if not bugs:
        return []
    heading = (
        "Real bugs of the examples (REAL_BUGS, each still failing as listed, or reviewed "
        "as reached only past a timeout, REVIEWED):"
    )
    lines = ["", heading, ""]
    lines += ["| module | line | what is wrong |", "|---|---:|---|"]
    for r in bugs:
        bug = REAL_BUGS[r.module]
        hidden = " (past a timeout)" if r.outcome == "timeout" else ""
        lines.append(f"| {r.module} | {bug.line} | {bug.wrong}{hidden} |")
    return lines


def write_section(text: str) -> None:
    doc = DIFFUSERS_DOC.read_text("utf-8")
    block = f"{START}\n{text}{END}"
    if START in doc and END in doc:
        doc = doc[: doc.index(START)] + block + doc[doc.index(END) + len(END) :]
    else:
        doc = doc.rstrip("\n") + "\n\n## Yardstick\n\n" + block + "\n"
    DIFFUSERS_DOC.write_text(doc, "utf-8")


def arguments() -> argparse.Namespace:
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
    parser.add_argument(
        "--keep-reports",
        metavar="DIR",
        help="keep each batch's report (with tracebacks) and the run's wall time and load here",
    )
    parser.add_argument(
        "--from-reports",
        metavar="DIR",
        help="run nothing: the table of the reports a --keep-reports run left in DIR",
    )
    # internal: one batch, run by the yardstick in its own process
    parser.add_argument("--run-batch", metavar="REPORT", help=argparse.SUPPRESS)
    parser.add_argument("guides", nargs="*", help=argparse.SUPPRESS)
    return parser.parse_args()


def main() -> None:
    args = arguments()
    if args.run_batch:
        run_batch_here(Path(args.run_batch), args.guides, args.jobs)
        return
    if args.device:
        os.environ["GUIDELINT_DIFFUSERS_DEVICE"] = args.device

    import importlib.metadata

    modules = select(collect(), args.only, args.limit)
    scope = f"diffusers {importlib.metadata.version('diffusers')}, " + (
        f"--only {args.only}" if args.only else "every module"
    )
    scope += f" --limit {args.limit}" if args.limit else ""
    cpu_shims: list[str] = []  # with --device gpu: examples that still fell back to the CPU
    if args.from_reports:
        rows, facts = rows_from_reports(Path(args.from_reports), modules)
    else:
        rows, facts = run_all(modules, args, cpu_shims)
    text = table(rows, scope, facts)
    print(text)
    if args.device == "gpu":  # the GPU path: nothing may have been moved to the CPU
        print(f"GPU path: {len(cpu_shims)} examples with a '(no GPU)' substitution", cpu_shims)
    if args.write:
        write_section(text)


def run_all(
    modules: list[Module], args: argparse.Namespace, cpu_shims: list[str]
) -> tuple[list[Row], dict[str, Any]]:
    """Every module's example, in batches; the rows and the run's facts (wall, load)."""
    keep = Path(args.keep_reports) if args.keep_reports else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    loads: list[float] = []  # the 1-minute load average at each batch's start
    facts: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cores": os.cpu_count(),
        "timeout": f"{args.timeout:g} s" if args.timeout else "the CLI's default, 60 s",
        "jobs": args.jobs or "the CLI's default",
        "load": loads,
        "wall_s": 0.0,
    }
    wall = time.perf_counter()
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
            loads.append(os.getloadavg()[0])
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
            facts["wall_s"] = time.perf_counter() - wall
            if keep:
                (keep / f"batch-{start:04d}.json").write_text(json.dumps(entries), "utf-8")
                (keep / "facts.json").write_text(json.dumps(facts), "utf-8")
            print(
                f"{start + len(batch)}/{len(ids)} in {time.perf_counter() - clock:.0f}s "
                f"(load {loads[-1]:.1f})",
                file=sys.stderr,
            )
    loads.append(os.getloadavg()[0])
    facts["wall_s"] = time.perf_counter() - wall
    if keep:
        (keep / "facts.json").write_text(json.dumps(facts), "utf-8")
    return rows, facts


def rows_from_reports(folder: Path, modules: list[Module]) -> tuple[list[Row], dict[str, Any]]:
    """The rows of the selected modules that reports in `folder` hold, and the run's facts.

    Reads the entries a --keep-reports run wrote (batch-*.json) and whole `guidelint run
    --format json` reports; a module with no entry is left out."""
    entries: dict[str, dict] = {}
    for path in sorted(folder.glob("*.json")):
        if path.name == "facts.json":
            continue
        data = json.loads(path.read_text("utf-8"))
        for entry in data["examples"] if isinstance(data, dict) else data:
            entries[entry["id"]] = entry
    by_id = {m.name.replace(".", "-"): m for m in modules}
    rows = [row_of(entries[i], m) for i, m in by_id.items() if i in entries]
    facts_file = folder / "facts.json"
    facts = json.loads(facts_file.read_text("utf-8")) if facts_file.is_file() else {}
    return rows, facts


if __name__ == "__main__":
    main()
