"""Recipes of the SD3/SDXL-era image pipelines and their adapters: SD3 variants, PAG, AuraFlow,
T2I-Adapter, GLIGEN, ControlNet-Union and -XS, upscalers, depth, Marigold, Kolors,
HunyuanDiT.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import (
    PIXART,
    SANA,
    SD3,
    SD_UNET,
    SDXL_TIME,
    VAE_KL,
    Dim,
    Recipe,
)

# Block counts of the real models, for the examples that name a block.
PIXART_BLOCKS = 28  # PixArt-Sigma's
SANA_BLOCKS = 20  # Sana 1600M's
SD3_BLOCKS = 24  # SD3 medium's

# HunyuanDiT: BERT states and projected mT5 states side by side as the cross-attention
# context; four blocks, so the long skips of its U-shaped stack (and a ControlNet's
# residuals, one per block past the middle) are there. Its resolution binning runs
# every example at 768 px and more: 8x8 latent patches keep that to 256 tokens.
HUNYUAN_BLOCKS = 4
HUNYUAN_DIT = {
    "sample_size": 16,
    "patch_size": 8,
    "in_channels": Dim("latent"),
    "num_attention_heads": 3,
    "attention_head_dim": 8,
    "hidden_size": 24,  # heads x head width
    "cross_attention_dim": Dim("bert"),
    "cross_attention_dim_t5": Dim("t5"),
    "pooled_projection_dim": 16,
    "activation_fn": "gelu-approximate",
    "text_len": 77,  # the lengths the pipeline pads BERT's and mT5's tokens to
    "text_len_t5": 256,
}
BERT = {
    "vocab_size": Dim("bert_vocab"),
    "hidden_size": 32,
    "intermediate_size": 37,
    "num_attention_heads": 4,
    "num_hidden_layers": 2,
    "max_position_embeddings": 512,
}

# Kolors: SDXL's UNet over ChatGLM's states, projected to its cross-attention width
# (text_proj), with ChatGLM's last-token state as the pooled embedding.
CHATGLM = {
    "num_layers": 2,
    "padded_vocab_size": Dim("chatglm_vocab"),
    "hidden_size": 32,
    "ffn_hidden_size": 37,
    "kv_channels": 8,
    "num_attention_heads": 4,
    "seq_length": 256,  # the pipeline pads prompts to 256 tokens
    "original_rope": True,  # read by the model, set only by the checkpoints' config.json
}
KOLORS_UNET = {
    **SD_UNET,
    "cross_attention_dim": 16,
    "encoder_hid_dim": Dim("llm"),
    "encoder_hid_dim_type": "text_proj",
    "use_linear_projection": True,
    "addition_embed_type": "text_time",
    "addition_time_embed_dim": SDXL_TIME,
    "projection_class_embeddings_input_dim": Dim("llm", plus=6 * SDXL_TIME),
}

# DPT (the depth model of Depth2Img and the depth ControlNet examples): a four-layer ViT,
# one reassembled feature map per layer; a plain ViT where Intel's hybrid has a BiT stem.
DPT = {
    "hidden_size": 32,
    "num_hidden_layers": 4,
    "num_attention_heads": 4,
    "intermediate_size": 37,
    "image_size": 32,
    "patch_size": 4,
    "backbone_out_indices": [0, 1, 2, 3],
    "neck_hidden_sizes": [8, 8, 16, 16],
    "fusion_hidden_size": 16,
}
DPT_PROCESSOR = {"size": {"height": 32, "width": 32}}

# ControlNet-XS pairs each of the UNet's two resnets per block with its own
XS_UNET = {**SD_UNET, "layers_per_block": 2}
XS_SDXL_UNET = {  # the shared table's SDXL UNet, two resnets per block
    **XS_UNET,
    "cross_attention_dim": Dim("text", times=2),
    "use_linear_projection": True,
    "addition_embed_type": "text_time",
    "addition_time_embed_dim": SDXL_TIME,
    "projection_class_embeddings_input_dim": Dim("proj", plus=6 * SDXL_TIME),
}

RECIPES: dict[str, Recipe] = {
    "UNet2DConditionModel/xs": Recipe("model", XS_UNET, builds="UNet2DConditionModel"),
    "UNet2DConditionModel/sdxl-xs": Recipe("model", XS_SDXL_UNET, builds="UNet2DConditionModel"),
    # ControlNet-XS: a small side network beside each UNet block, from its UNet
    "ControlNetXSAdapter": Recipe(
        "model",
        {
            "block_out_channels": SD_UNET["block_out_channels"],
            "num_attention_heads": 2,
            "conditioning_embedding_out_channels": (2, 2, 2, 2),  # 8x down
        },
        derive=("unet", "from_unet"),
    ),
    "DPTForDepthEstimation": Recipe("model", DPT),
    "DPTImageProcessor": Recipe("processor", DPT_PROCESSOR),
    "DPTImageProcessorPil": Recipe("processor", DPT_PROCESSOR),
    "UNet2DConditionModel/depth": Recipe(  # also sees the depth map, one channel
        "model", {**SD_UNET, "in_channels": Dim("latent", plus=1)}, builds="UNet2DConditionModel"
    ),
    "ChatGLMModel": Recipe("model", CHATGLM, provides={"llm": "hidden_size"}),
    "ChatGLMTokenizer": Recipe("tokenizer", builder="build_chatglm_tokenizer"),
    "UNet2DConditionModel/kolors": Recipe("model", KOLORS_UNET, builds="UNet2DConditionModel"),
    "BertModel": Recipe("model", BERT, provides={"bert": "hidden_size"}),
    "BertTokenizer": Recipe("tokenizer", builder="build_bert_tokenizer"),
    "HunyuanDiT2DModel": Recipe("model", {**HUNYUAN_DIT, "num_layers": HUNYUAN_BLOCKS}),
    "HunyuanDiT2DControlNetModel": Recipe(
        # from_transformer reads a config key the transformer lacks: built from the widths
        "model",
        {**HUNYUAN_DIT, "transformer_num_layers": HUNYUAN_BLOCKS},
    ),
    # SD3's VAE has 16 latent channels; its inpaint pipeline checks the transformer's
    # input for 16 (or 33: latents, masked image latents and the mask)
    "AutoencoderKL/sd3": Recipe(
        "model",
        {**VAE_KL, "latent_channels": 16, "shift_factor": 0.0609, "scaling_factor": 1.5035},
        builds="AutoencoderKL",
        provides={"latent": "latent_channels"},
    ),
    # PAG examples name the block they perturb (`pag_applied_layers=["blocks.13"]`): the
    # PAG stand-ins keep the real model's block count, so that block exists
    "SD3Transformer2DModel/pag": Recipe(
        "model", {**SD3, "num_layers": SD3_BLOCKS}, builds="SD3Transformer2DModel"
    ),
    "PixArtTransformer2DModel/pag": Recipe(
        "model", {**PIXART, "num_layers": PIXART_BLOCKS}, builds="PixArtTransformer2DModel"
    ),
    "SanaTransformer2DModel/pag": Recipe(
        "model", {**SANA, "num_layers": SANA_BLOCKS}, builds="SanaTransformer2DModel"
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^StableDiffusionControlNetXS", "unet", "UNet2DConditionModel/xs"),
    (r"^StableDiffusionXLControlNetXS", "unet", "UNet2DConditionModel/sdxl-xs"),
    (r"^Kolors", "unet", "UNet2DConditionModel/kolors"),
    (r"^StableDiffusionDepth2Img", "unet", "UNet2DConditionModel/depth"),
    (r"^StableDiffusion3", "vae", "AutoencoderKL/sd3"),
    (r"^StableDiffusion3PAG", "transformer", "SD3Transformer2DModel/pag"),
    (r"^PixArtSigmaPAG", "transformer", "PixArtTransformer2DModel/pag"),
    (r"^SanaPAG", "transformer", "SanaTransformer2DModel/pag"),
)


HOME_PIPELINES: dict[str, str] = {
    "HunyuanDiT2DModel": "HunyuanDiTPipeline",
    "HunyuanDiT2DControlNetModel": "HunyuanDiTControlNetPipeline",
}
