"""Recipes of pipelines conditioned on decoder language models: Z-Image, Flux 2, ERNIE-Image,
Bria FIBO, DreamLite, JoyImage, Lumina, PRX, OmniGen.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import. A slot annotated
with a generic class (Z-Image's `text_encoder: PreTrainedModel`, `tokenizer:
AutoTokenizer`) gets the class its real checkpoint ships, named here as a variant.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import GEMMA2, VAE_KL, Dim, Recipe

# Qwen3, the language model Z-Image and Flux 2 Klein read prompts with.
QWEN3 = {
    "hidden_size": 16,
    "intermediate_size": 16,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "num_key_value_heads": 2,
    "head_dim": 8,
    "vocab_size": Dim("qwen3_vocab"),
}
# Flux 2 Klein stacks hidden states 9, 18 and 27: the tiny model keeps the real depth
# past them (Qwen3-4B has 36 layers), so those indices stay inside layers, not its norm.
KLEIN_LAYERS = (9, 18, 27)
QWEN3_PROVIDES = {"llm": "hidden_size"}
# Krea 2 stacks every third hidden state of Qwen3-VL-4B's 36 layers, from the 2nd.
KREA2_LAYERS = tuple(range(2, 36, 3))
QWEN3_VL = {
    "text_config": {**QWEN3, "num_hidden_layers": 36},
    "vision_config": {  # never run on a text prompt; the smallest that builds
        "depth": 2,
        "hidden_size": 16,
        "intermediate_size": 16,
        "num_heads": 2,
        "out_hidden_size": 16,
    },
}

RECIPES: dict[str, Recipe] = {
    # text encoders and their tokenizer
    "Qwen3Model": Recipe("model", QWEN3, provides=QWEN3_PROVIDES),
    "Qwen3ForCausalLM": Recipe(
        "model", {**QWEN3, "num_hidden_layers": KLEIN_LAYERS[-1] + 1}, provides=QWEN3_PROVIDES
    ),
    "Qwen3VLModel": Recipe("model", QWEN3_VL, provides={"llm": "text_config.hidden_size"}),
    "Qwen2Tokenizer/qwen3": Recipe(
        "tokenizer", builder="build_qwen3_tokenizer", builds="Qwen2Tokenizer"
    ),
    # Z-Image: a single-stream DiT over caption and image tokens
    "ZImageTransformer2DModel": Recipe(
        "model",
        {
            "all_patch_size": (2,),
            "all_f_patch_size": (1,),
            "in_channels": Dim("latent"),
            "dim": 32,
            "n_layers": 1,
            "n_refiner_layers": 1,
            "n_heads": 2,
            "n_kv_heads": 2,
            "cap_feat_dim": Dim("llm"),
            "axes_dims": (8, 4, 4),  # sums to dim / n_heads
            "axes_lens": (1536, 512, 512),  # the real positions: 512 caption tokens, 1024 px
        },
    ),
    # Flux 2: latents packed 2x2 into tokens, text from three stacked Qwen3 layers
    "Flux2Transformer2DModel/klein": Recipe(
        "model",
        {
            "patch_size": 1,
            "in_channels": Dim("latent", times=4),
            "num_layers": 1,
            "num_single_layers": 1,
            "attention_head_dim": 16,
            "num_attention_heads": 2,
            "joint_attention_dim": Dim("llm", times=len(KLEIN_LAYERS)),
            "timestep_guidance_channels": 256,
            "axes_dims_rope": (4, 4, 4, 4),  # sums to attention_head_dim
            "guidance_embeds": False,  # Klein takes guidance as CFG, not as an embedding
        },
        builds="Flux2Transformer2DModel",
    ),
    "AutoencoderKLFlux2": Recipe(
        "model",
        {k: v for k, v in VAE_KL.items() if k != "sample_size"},
        provides={"latent": "latent_channels"},
    ),
    # Krea 2: text states of twelve layers, refined by the transformer's own text blocks
    "Krea2Transformer2DModel": Recipe(
        "model",
        {
            "in_channels": Dim("latent", times=4),  # 2x2 latent patches packed into tokens
            "num_layers": 1,
            "attention_head_dim": 8,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "intermediate_size": 32,
            "timestep_embed_dim": 8,
            "text_hidden_dim": Dim("llm"),
            "num_text_layers": len(KREA2_LAYERS),
            "text_num_attention_heads": 2,
            "text_num_key_value_heads": 1,
            "text_intermediate_size": 16,
            "num_layerwise_text_blocks": 1,
            "num_refiner_text_blocks": 1,
            "axes_dims_rope": (4, 2, 2),  # sums to attention_head_dim
        },
    ),
    # Lumina-Next: a Gemma captioned DiT; its checkpoint ships the causal LM (prompts are
    # read from the second-to-last hidden state, so two layers)
    "GemmaForCausalLM": Recipe(
        "model", {**GEMMA2, "num_hidden_layers": 2}, provides={"llm": "hidden_size"}
    ),
    "LuminaNextDiT2DModel": Recipe(
        "model",
        {
            "sample_size": 8,  # the default size: 8 latent pixels, 64 px
            "patch_size": 2,
            "in_channels": Dim("latent"),
            "hidden_size": 8,
            "num_layers": 1,
            "num_attention_heads": 1,
            "num_kv_heads": 1,
            "multiple_of": 16,
            "learn_sigma": True,  # noise and variance
            "qk_norm": True,
            "cross_attention_dim": Dim("llm"),
        },
    ),
    # Lumina-Image 2.0: a Gemma 2 captioned DiT
    "Lumina2Transformer2DModel": Recipe(
        "model",
        {
            "sample_size": 8,  # the default size: 8 latent pixels, 64 px
            "patch_size": 2,
            "in_channels": Dim("latent"),
            "hidden_size": 8,
            "num_layers": 1,
            "num_refiner_layers": 1,
            "num_attention_heads": 1,
            "num_kv_heads": 1,
            "multiple_of": 16,
            "axes_dim_rope": (4, 2, 2),  # sums to hidden_size / num_attention_heads
            "cap_feat_dim": Dim("llm"),
        },
    ),
    # BRIA 3.2: Flux's double and single stream blocks over T5 states, no pooled CLIP
    "BriaTransformer2DModel": Recipe(
        "model",
        {
            "patch_size": 1,
            "in_channels": Dim("latent", times=4),  # 2x2 latent patches packed into tokens
            "num_layers": 1,
            "num_single_layers": 1,
            "attention_head_dim": 8,
            "num_attention_heads": 2,
            "joint_attention_dim": Dim("t5"),
            "axes_dims_rope": (0, 4, 4),  # sums to attention_head_dim
        },
    ),
    "AutoencoderKL/bria": Recipe(  # SDXL's latent scale, no shift
        "model",
        {**VAE_KL, "shift_factor": 0.0, "scaling_factor": 0.13025},
        builds="AutoencoderKL",
        provides={"latent": "latent_channels"},
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    # Z-Image's checkpoints ship a Qwen3Model and a Qwen2Tokenizer (model_index.json)
    (r"^ZImage", "text_encoder", "Qwen3Model"),
    (r"^(ZImage|Flux2Klein)", "tokenizer", "Qwen2Tokenizer/qwen3"),
    (r"^ZImage", "vae", "AutoencoderKL/flow"),
    (r"^Flux2Klein", "transformer", "Flux2Transformer2DModel/klein"),
    (r"^Lumina2", "vae", "AutoencoderKL/flow"),
    (r"^Lumina(?!2)", "text_encoder", "GemmaForCausalLM"),
    (r"^Bria(?!Fibo)", "vae", "AutoencoderKL/bria"),
)

TOKENIZER_OF_ENCODER: dict[str, str] = {
    "Qwen3Model": "Qwen2Tokenizer/qwen3",
    "Qwen3ForCausalLM": "Qwen2Tokenizer/qwen3",
    "GemmaForCausalLM": "GemmaTokenizer",
    "Qwen3VLModel": "Qwen2Tokenizer/qwen3",
}

HOME_PIPELINES: dict[str, str] = {
    "ZImageTransformer2DModel": "ZImagePipeline",
    "Flux2Transformer2DModel": "Flux2KleinPipeline",
    "Lumina2Transformer2DModel": "Lumina2Pipeline",
    "LuminaNextDiT2DModel": "LuminaPipeline",
    "BriaTransformer2DModel": "BriaPipeline",
    "Krea2Transformer2DModel": "Krea2Pipeline",
}
