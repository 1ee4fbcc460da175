#!/usr/bin/env bash
# The diffusers yardstick on a GPU machine: every docstring example of the installed
# diffusers through `guidelint run` at its defaults (60 s, default jobs), with the
# backend's GPU path on (GUIDELINT_DIFFUSERS_DEVICE=gpu: no device or dtype
# substitutions, enable_model_cpu_offload and xformers real; hub ids still load tiny
# checkpoints and downloads still come from fixtures). It stops at once where torch
# sees no CUDA device, and prints how many examples still fell back to the CPU (0 is
# the goal: such a line means a shim fired on the GPU path).
#
#   bash scripts/diffusers_gpu_yardstick.sh [--only flux,wan] [--limit 40] [--write]
#
# Needs a CUDA build of torch in .venv: constraints.txt pins torch 2.14.1, PyPI's CUDA
# 13.0 build (cu130), which needs a driver that supports CUDA 13. Output: the yardstick's
# table on stdout, and a copy in $GPU_YARDSTICK_OUT (default /tmp/gpu-yardstick.md).
set -euo pipefail
cd "$(dirname "$0")/.."
python=".venv/bin/python"
[ -x "$python" ] || python=python3
if ! "$python" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)'; then
    echo "diffusers_gpu_yardstick: torch sees no CUDA device here; nothing run" >&2
    exit 2
fi
"$python" -c 'import torch; print("GPU:", torch.cuda.get_device_name(0), "torch", torch.__version__)'
"$python" scripts/diffusers_yardstick.py --device gpu "$@" | tee "${GPU_YARDSTICK_OUT:-/tmp/gpu-yardstick.md}"
