"""Recipes of the LTX-2 video-and-audio pipelines.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from guidelint.runner.diffusers_backend.recipes.parts import Recipe

RECIPES: dict[str, Recipe] = {}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = ()

TOKENIZER_OF_ENCODER: dict[str, str] = {}

HOME_PIPELINES: dict[str, str] = {}

NOT_YET: dict[str, str] = {}

PIPELINE_ARGUMENTS: tuple[tuple[str, Mapping[str, Any]], ...] = ()
