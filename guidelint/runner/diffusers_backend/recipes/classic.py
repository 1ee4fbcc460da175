"""Recipes of the UNet-era image pipelines: Kandinsky 2.1 and 3, Stable Cascade, Wuerstchen,
aMUSEd, unCLIP, Versatile Diffusion, AltDiffusion, Shap-E, BLIP-Diffusion.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import. A class a
pipeline module defines (not exported by diffusers) is built by its dotted path.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import (
    CLIP_VISION,
    KANDINSKY_UNET,
    SD_UNET,
    VAE_KL,
    Dim,
    Recipe,
)

# The prior's image embedding (CLIP's projection) is what Kandinsky's decoders attend to.
IMAGE_EMBED = CLIP_VISION["projection_dim"]

# Kandinsky 2.1's decoder sees the multilingual CLIP's states and pooled embedding too.
KANDINSKY21_UNET = {
    **KANDINSKY_UNET,
    "addition_embed_type": "text_image",
    "encoder_hid_dim": Dim("mclip"),
    "encoder_hid_dim_type": "text_image_proj",
    "cross_attention_dim": IMAGE_EMBED,
}

# Stable Cascade's prior denoises 16-channel image embeddings, 42.67x smaller than the image.
CASCADE_EMBED = 16
CASCADE_PRIOR = {
    "in_channels": CASCADE_EMBED,
    "out_channels": CASCADE_EMBED,
    "conditioning_dim": 32,
    "block_out_channels": (32, 32),
    "num_attention_heads": (2, 2),
    "down_num_layers_per_block": (1, 1),
    "up_num_layers_per_block": (1, 1),
    "switch_level": (False,),
    "clip_image_in_channels": IMAGE_EMBED,
    "clip_text_in_channels": Dim("text"),
    "clip_text_pooled_in_channels": Dim("proj"),
}
# aMUSEd masks and predicts VQ tokens: the scheduler's mask token is the transformer's
# last vocabulary entry, its logits cover the VQ codebook. Five VQ levels keep amused's
# scale factor of 16.
AMUSED_VOCAB, AMUSED_CODEBOOK = 32, 8

# Shap-E's prior denoises one latent row per renderer parameter row (4 MLP weights of
# SHAPE_RENDERER rows each), each row as wide as the renderer's d_latent.
SHAPE_LATENT, SHAPE_RENDERER = 16, 8

LEDITS_SCHEDULER = {
    "beta_start": 0.00085,
    "beta_end": 0.012,
    "beta_schedule": "scaled_linear",
    "steps_offset": 1,
    "algorithm_type": "sde-dpmsolver++",
    "solver_order": 2,
}

RECIPES: dict[str, Recipe] = {
    "PreTrainedModel/ldmbert": Recipe(  # LDM text-to-image's own BERT, annotated by its base
        "model",
        {
            "vocab_size": Dim("bert_vocab"),
            "max_position_embeddings": 77,
            "encoder_layers": 2,
            "encoder_ffn_dim": 37,
            "encoder_attention_heads": 4,
            "head_dim": 8,
            "d_model": 32,
        },
        builds="diffusers.pipelines.latent_diffusion.pipeline_latent_diffusion.LDMBertModel",
        provides={"text": "d_model"},
    ),
    # transformers 5 names the class PreTrainedTokenizer annotations resolve to PythonBackend
    "PythonBackend/bert": Recipe(
        "tokenizer", builder="build_bert_tokenizer", builds="BertTokenizer"
    ),
    "PriorTransformer/shap-e": Recipe(
        "model",
        {
            "num_attention_heads": 2,
            "attention_head_dim": 16,
            "embedding_dim": SHAPE_LATENT,
            "num_embeddings": 4 * SHAPE_RENDERER,
            "embedding_proj_dim": Dim("proj"),
            "time_embed_dim": 4 * SHAPE_LATENT,
            "num_layers": 1,
            "clip_embed_dim": 2 * SHAPE_LATENT,
            "additional_embeddings": 0,
            "time_embed_act_fn": "gelu",
            "norm_in_type": "layer",
            "encoder_hid_proj_type": None,
            "added_emb_type": None,
        },
        builds="PriorTransformer",
    ),
    "ShapERenderer": Recipe(  # an MLP whose weights the latent sets, and its NeRF renderer
        "model",
        {
            "param_shapes": (
                (SHAPE_RENDERER, 93),
                (SHAPE_RENDERER, 8),
                (SHAPE_RENDERER, 8),
                (SHAPE_RENDERER, 8),
            ),
            "d_latent": SHAPE_LATENT,
            "d_hidden": SHAPE_RENDERER,
            "n_output": 12,
            "background": (0.1, 0.1, 0.1),
        },
        builds="diffusers.pipelines.shap_e.renderer.ShapERenderer",
    ),
    "HeunDiscreteScheduler/shap-e": Recipe(  # what openai/shap-e ships
        "scheduler",
        {
            "beta_schedule": "exp",
            "num_train_timesteps": 1024,
            "prediction_type": "sample",
            "use_karras_sigmas": True,
            "clip_sample": True,
            "clip_sample_range": 1.0,
        },
        builds="HeunDiscreteScheduler",
    ),
    "UVit2DModel": Recipe(
        "model",
        {
            "hidden_size": 8,
            "cond_embed_dim": Dim("proj"),  # CLIP's pooled projection
            "micro_cond_encode_dim": 2,
            "micro_cond_embed_dim": 5 * 2,  # five micro-conditioning numbers
            "encoder_hidden_size": Dim("text"),
            "vocab_size": AMUSED_VOCAB,
            "codebook_size": AMUSED_CODEBOOK,
            "in_channels": 8,
            "block_out_channels": 8,
            "num_res_blocks": 1,
            "downsample": True,
            "upsample": True,
            "block_num_heads": 1,
            "num_hidden_layers": 1,
            "num_attention_heads": 1,
            "intermediate_size": 8,
            "sample_size": 4,
        },
    ),
    "VQModel/amused": Recipe(
        "model",
        {
            "block_out_channels": (8,) * 5,
            "down_block_types": ("DownEncoderBlock2D",) * 5,
            "up_block_types": ("UpDecoderBlock2D",) * 5,
            "latent_channels": 8,
            "layers_per_block": 1,
            "norm_num_groups": 8,
            "num_vq_embeddings": AMUSED_CODEBOOK,
            "mid_block_add_attention": False,
            "lookup_from_codebook": True,
        },
        builds="VQModel",
    ),
    "AmusedScheduler": Recipe("scheduler", {"mask_token_id": AMUSED_VOCAB - 1}),
    "Kandinsky3UNet": Recipe(  # attends to T5's states, projected to its own width
        "model",
        {
            "in_channels": Dim("latent"),
            "time_embedding_dim": 4,
            "groups": 2,
            "attention_head_dim": 4,
            "layers_per_block": 2,  # one block per level breaks its up path's widths
            "block_out_channels": (8, 16),
            "cross_attention_dim": 4,
            "encoder_hid_dim": Dim("t5"),
        },
    ),
    "DDPMScheduler/kandinsky3": Recipe(  # what kandinsky-3 ships
        "scheduler",
        {
            "beta_start": 0.00085,
            "beta_end": 0.012,
            "steps_offset": 1,
            "beta_schedule": "squaredcos_cap_v2",
            "clip_sample": True,
            "thresholding": False,
        },
        builds="DDPMScheduler",
    ),
    "StableCascadeUNet/prior": Recipe("model", CASCADE_PRIOR, builds="StableCascadeUNet"),
    "MultilingualCLIP": Recipe(  # XLM-RoBERTa, mean-pooled, projected to the image width
        "model",
        {
            "transformerDimensions": 32,
            "numDims": IMAGE_EMBED,
            "hidden_size": 32,
            "intermediate_size": 37,
            "num_attention_heads": 4,
            "num_hidden_layers": 2,
            "vocab_size": Dim("xlmr_vocab"),
            "bos_token_id": 0,
            "pad_token_id": 1,
            "eos_token_id": 2,
        },
        builds="diffusers.pipelines.kandinsky.text_encoder.MultilingualCLIP",
        provides={"mclip": "transformerDimensions"},
    ),
    "XLMRobertaTokenizer": Recipe("tokenizer", builder="build_xlm_roberta_tokenizer"),
    "XLMRobertaTokenizerFast": Recipe("tokenizer", builder="build_xlm_roberta_tokenizer"),
    "UNet2DConditionModel/kandinsky21": Recipe(
        "model", KANDINSKY21_UNET, builds="UNet2DConditionModel"
    ),
    "UNet2DConditionModel/kandinsky21-inpaint": Recipe(  # masked image latents and the mask
        "model",
        {**KANDINSKY21_UNET, "in_channels": Dim("latent", times=2, plus=1)},
        builds="UNet2DConditionModel",
    ),
    "UNet2DConditionModel/kandinsky-hint": Recipe(  # the hint (a depth map), embedded to
        "model",  # latent channels, is concatenated to the latents
        {
            **KANDINSKY_UNET,
            "addition_embed_type": "image_hint",
            "in_channels": Dim("latent", times=2),
        },
        builds="UNet2DConditionModel",
    ),
    "UNet2DConditionModel/image-variation": Recipe(  # attends to the CLIP image embedding
        "model",
        {**SD_UNET, "cross_attention_dim": Dim("image")},
        builds="UNet2DConditionModel",
    ),
    # Stable unCLIP: the UNet's class embedding is the noised CLIP image embedding and the
    # embedding of its noise level, concatenated.
    "UNet2DConditionModel/unclip": Recipe(
        "model",
        {
            **SD_UNET,
            "class_embed_type": "projection",
            "projection_class_embeddings_input_dim": 2 * IMAGE_EMBED,
            "upcast_attention": True,
            "use_linear_projection": True,
        },
        builds="UNet2DConditionModel",
    ),
    "StableUnCLIPImageNormalizer": Recipe(
        "model",
        {"embedding_dim": IMAGE_EMBED},
        builds=(
            "diffusers.pipelines.stable_diffusion.stable_unclip_image_normalizer."
            "StableUnCLIPImageNormalizer"
        ),
    ),
    "DDPMScheduler/unclip-prior": Recipe(  # what karlo's prior ships
        "scheduler",
        {
            "variance_type": "fixed_small_log",
            "prediction_type": "sample",
            "clip_sample": True,
            "clip_sample_range": 5.0,
            "beta_schedule": "squaredcos_cap_v2",
        },
        builds="DDPMScheduler",
    ),
    "DDIMScheduler/v-prediction": Recipe(  # what stable-diffusion-2-1-unclip ships
        "scheduler",
        {
            "beta_schedule": "scaled_linear",
            "beta_start": 0.00085,
            "beta_end": 0.012,
            "prediction_type": "v_prediction",
            "set_alpha_to_one": False,
            "steps_offset": 1,
            "clip_sample": False,
        },
        builds="DDIMScheduler",
    ),
    "VQModel/ldm": Recipe(  # ldm-celebahq-256's VQ-VAE: 3 latent channels, as its UNet2DModel
        "model",
        {
            "block_out_channels": (4, 4, 4, 4),
            "down_block_types": ("DownEncoderBlock2D",) * 4,
            "up_block_types": ("UpDecoderBlock2D",) * 4,
            "latent_channels": 3,
            "layers_per_block": 1,
            "norm_num_groups": 2,
            "num_vq_embeddings": 12,
            "vq_embed_dim": 3,
            "mid_block_add_attention": False,
        },
        builds="VQModel",
    ),
    "AutoencoderKL/ldm3d": Recipe(  # LDM3D decodes RGB and depth: four channels
        "model",
        {**VAE_KL, "in_channels": 4, "out_channels": 4},
        builds="AutoencoderKL",
        provides={"latent": "latent_channels"},
    ),
    # LEdits++ turns the scheduler a Stable Diffusion checkpoint ships (PNDM, SDXL's Euler)
    # into this SDE multistep solver over the same betas.
    "DPMSolverMultistepScheduler/ledits": Recipe(
        "scheduler",
        {**LEDITS_SCHEDULER},
        builds="DPMSolverMultistepScheduler",
    ),
    "DPMSolverMultistepScheduler/ledits-xl": Recipe(
        "scheduler",
        {**LEDITS_SCHEDULER, "timestep_spacing": "leading"},
        builds="DPMSolverMultistepScheduler",
    ),
    "DDIMScheduler/kandinsky": Recipe(  # what kandinsky-2-1 ships
        "scheduler",
        {
            "beta_schedule": "linear",
            "beta_start": 0.00085,
            "beta_end": 0.012,
            "clip_sample": False,
            "set_alpha_to_one": False,
            "steps_offset": 1,
        },
        builds="DDIMScheduler",
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^LEditsPPPipelineStableDiffusion$", "scheduler", "DPMSolverMultistepScheduler/ledits"),
    (r"^LEditsPPPipelineStableDiffusionXL", "scheduler", "DPMSolverMultistepScheduler/ledits-xl"),
    (r"^LEditsPPPipelineStableDiffusionXL", "unet", "UNet2DConditionModel/sdxl"),
    # ldm-text2im-large-256: a KL autoencoder and a text-conditioned UNet
    (r"^LDMTextToImage", "bert", "PreTrainedModel/ldmbert"),
    (r"^LDMTextToImage", "tokenizer", "PythonBackend/bert"),
    (r"^LDMTextToImage", "vqvae", "AutoencoderKL"),
    (r"^LDMTextToImage", "unet", "UNet2DConditionModel"),
    (r"^ShapEPipeline$", "prior", "PriorTransformer/shap-e"),
    (r"^ShapE", "scheduler", "HeunDiscreteScheduler/shap-e"),
    (r"^Amused", "vqvae", "VQModel/amused"),
    (r"^LDMPipeline$", "vqvae", "VQModel/ldm"),
    (r"^StableDiffusionLDM3D", "vae", "AutoencoderKL/ldm3d"),
    (r"^StableUnCLIP", "unet", "UNet2DConditionModel/unclip"),
    (r"^StableUnCLIP", "prior_scheduler", "DDPMScheduler/unclip-prior"),
    (r"^StableUnCLIP", "image_noising_scheduler", "DDPMScheduler/if-noising"),
    (r"^StableUnCLIP", "scheduler", "DDIMScheduler/v-prediction"),
    (r"^KandinskyV22Controlnet", "unet", "UNet2DConditionModel/kandinsky-hint"),
    (r"^StableDiffusionImageVariation", "unet", "UNet2DConditionModel/image-variation"),
    (r"^VersatileDiffusionImageVariation", "image_unet", "UNet2DConditionModel/image-variation"),
    (r"^Kandinsky3", "scheduler", "DDPMScheduler/kandinsky3"),
    (r"^StableCascade", "prior", "StableCascadeUNet/prior"),
    (r"^StableCascade", "prior_prior", "StableCascadeUNet/prior"),
    (r"^KandinskyInpaint", "unet", "UNet2DConditionModel/kandinsky21-inpaint"),
    (r"^Kandinsky(Img2Img)?(Combined)?Pipeline", "unet", "UNet2DConditionModel/kandinsky21"),
    (r"^Kandinsky(Img2Img|Inpaint)?(Combined)?Pipeline", "scheduler", "DDIMScheduler/kandinsky"),
    (r"^Kandinsky.*Combined", "prior_scheduler", "UnCLIPScheduler/prior"),
)
