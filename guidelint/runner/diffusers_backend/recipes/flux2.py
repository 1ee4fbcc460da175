"""Recipes of Flux 2 dev: a Mistral Small 3.1 (Mistral3ForConditionalGeneration, with its
Pixtral vision tower) reads the prompt, its Pixtral processor is the `tokenizer`.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import. Flux 2 Klein's
recipes (Qwen3, the Klein transformer, the Flux 2 VAE) are llm.py's; the VAE is shared.

Flux2Pipeline stacks the text model's hidden states 10, 20 and 30 (of the real one's
40 layers) into each token's text features: the tiny text model keeps 31 layers so
state 30 is a layer's output, not the final norm's, and the transformer's
`joint_attention_dim` is three text widths. PixtralProcessor is declared by
transformers to need torchvision: where it is missing, building the tokenizer raises
transformers' own ImportError, as loading the real checkpoint's processor does.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import Dim, Recipe

# hidden_states indices Flux2Pipeline reads (its `text_encoder_out_layers` default)
DEV_LAYERS = (10, 20, 30)
PIXTRAL_PATCH = 14  # tokenizer.PIXTRAL_PATCH: the processor cuts images as the tower does
PIXTRAL_MERGE = 2  # tokenizer.PIXTRAL_MERGE: 2x2 patches become one text token
MISTRAL3 = {
    "text_config": {
        "model_type": "mistral",
        "vocab_size": Dim("mistral_vocab"),
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_hidden_layers": DEV_LAYERS[-1] + 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "head_dim": 8,
        "max_position_embeddings": 1024,  # the pipeline pads prompts to 512 tokens
        "sliding_window": None,
        "bos_token_id": Dim("mistral_bos"),
        "eos_token_id": Dim("mistral_eos"),
        "pad_token_id": Dim("mistral_pad"),
    },
    # never run on a text prompt; the smallest Pixtral tower that builds
    "vision_config": {
        "model_type": "pixtral",
        "hidden_size": 16,
        "intermediate_size": 16,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "head_dim": 8,
        "patch_size": PIXTRAL_PATCH,
        "image_size": 4 * PIXTRAL_PATCH,  # tokenizer.PIXTRAL_LONGEST_EDGE
    },
    "image_token_index": Dim("mistral_image"),
    "spatial_merge_size": PIXTRAL_MERGE,
    "vision_feature_layer": -1,
    "bos_token_id": Dim("mistral_bos"),
    "eos_token_id": Dim("mistral_eos"),
    "pad_token_id": Dim("mistral_pad"),
}

RECIPES: dict[str, Recipe] = {
    "Mistral3ForConditionalGeneration": Recipe(
        "model", MISTRAL3, provides={"llm": "text_config.hidden_size"}
    ),
    "PixtralProcessor": Recipe("tokenizer", builder="build_pixtral_processor"),
    # Flux 2 dev: 2x2 latent patches packed into tokens, text from three stacked layers,
    # the guidance scale embedded (the dev model is guidance-distilled)
    "Flux2Transformer2DModel/dev": Recipe(
        "model",
        {
            "patch_size": 1,
            "in_channels": Dim("latent", times=4),
            "num_layers": 1,
            "num_single_layers": 1,
            "attention_head_dim": 16,
            "num_attention_heads": 2,
            "joint_attention_dim": Dim("llm", times=len(DEV_LAYERS)),
            "timestep_guidance_channels": 256,
            "axes_dims_rope": (4, 4, 4, 4),  # sums to attention_head_dim
            "guidance_embeds": True,
        },
        builds="Flux2Transformer2DModel",
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    # `tokenizer: AutoProcessor`: FLUX.2-dev's model_index.json names a PixtralProcessor
    (r"^Flux2Pipeline$", "tokenizer", "PixtralProcessor"),
    (r"^Flux2Pipeline$", "transformer", "Flux2Transformer2DModel/dev"),
)
