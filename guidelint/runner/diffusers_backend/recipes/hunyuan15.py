"""Recipes of HunyuanVideo 1.5 (text- and image-to-video) and HunyuanVideo image-to-video.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import.

HunyuanVideo 1.5 reads the hidden states of Qwen2.5-VL's language half (three layers
below the top) over a chat-formatted prompt, ByT5's states of the text in quotes to
render, and for image-to-video SigLIP's states of the image. Its VAE compresses 16x in
space and 4x in time into 32 channels; its DiT sees 1x1x1 latent patches of the noise,
the first frame's latents and their mask. The examples run at the sizes they ask for
(480p, 121 frames), so the VAE keeps the real compression and the DiT its real patch.

HunyuanVideo image-to-video is HunyuanVideo (the video area's VAE, CLIP and DiT widths)
with a Llava prompt encoder: Llama 3 over a chat template whose <image> token stands for
the 576 patch states of a CLIP vision tower (24x24 patches, as ViT-L/14 at 336 px).
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import (
    CLIP_VISION,
    QWEN_TEXT,
    SIGLIP_VISION,
    Dim,
    Recipe,
)
from guidelint.runner.diffusers_backend.recipes.video import HUNYUAN_VIDEO, LLAMA

HUNYUAN_VIDEO15 = {
    "in_channels": Dim("latent", times=2, plus=1),  # noise, image latents, their mask
    "out_channels": Dim("latent"),
    "num_attention_heads": 1,  # one head of 20 (recipes/video.py, ONE_HEAD)
    "attention_head_dim": 20,
    "num_layers": 1,
    "num_refiner_layers": 1,
    "patch_size": 1,  # the real patch: one latent pixel per token
    "patch_size_t": 1,
    "text_embed_dim": Dim("llm"),
    "text_embed_2_dim": Dim("t5"),  # ByT5's width
    # text-to-video feeds zero image states of this width (no image encoder to match)
    "image_embed_dim": SIGLIP_VISION["hidden_size"],
    "rope_axes_dim": (4, 8, 8),  # sums to attention_head_dim
    "target_size": 640,  # the 480p checkpoints': decides the default height and width
    "task_type": "t2v",
}
# Five levels as the real one: four halve space (16x), the last two of these also time
# (4x). A downsampling packs 2x2(x2) voxels into channels after a convolution to a
# quarter (an eighth) of its output channels: four and eight channels are the least.
HUNYUAN_VAE15 = {
    "latent_channels": 4,
    "block_out_channels": (4, 4, 8, 8, 8),
    "layers_per_block": 1,
    "spatial_compression_ratio": 16,
    "temporal_compression_ratio": 4,
}

# The pipeline's template fixes the image's token count at 576 (image_emb_len) and its
# span at tokens 5 to 581: the tiny tower must give 24x24 patch states, so 48 px in 2 px
# patches (its class token is dropped, as Llava's "default" feature strategy does).
LLAVA_IMAGE_SIZE = 48
LLAVA = {
    "vision_config": {**CLIP_VISION, "image_size": LLAVA_IMAGE_SIZE, "patch_size": 2},
    "text_config": {**LLAMA, "vocab_size": Dim("llama3_vocab")},
    "image_token_index": Dim("llava_image"),
    "pad_token_id": 0,  # the tokenizer pads with <unk>
    "vision_feature_select_strategy": "default",
    "vision_feature_layer": -2,
}

RECIPES: dict[str, Recipe] = {
    "Qwen2_5_VLTextModel": Recipe(
        "model", QWEN_TEXT, builder="Qwen2_5_VLTextConfig", provides={"llm": "hidden_size"}
    ),
    "HunyuanVideo15Transformer3DModel": Recipe("model", HUNYUAN_VIDEO15),
    "HunyuanVideo15Transformer3DModel/i2v": Recipe(  # projects the SigLIP image states
        "model",
        {**HUNYUAN_VIDEO15, "image_embed_dim": Dim("image"), "task_type": "i2v"},
        builds="HunyuanVideo15Transformer3DModel",
    ),
    "AutoencoderKLHunyuanVideo15": Recipe(
        "model", HUNYUAN_VAE15, provides={"latent": "latent_channels"}
    ),
    "LlavaForConditionalGeneration": Recipe(
        "model", LLAVA, provides={"llm": "text_config.hidden_size"}
    ),
    "LlamaTokenizerFast/llama3": Recipe(
        "tokenizer", builder="build_llama3_chat_tokenizer", builds="LlamaTokenizerFast"
    ),
    "CLIPImageProcessor/llava": Recipe(
        "processor",
        {
            "size": {"shortest_edge": LLAVA_IMAGE_SIZE},
            "crop_size": {"height": LLAVA_IMAGE_SIZE, "width": LLAVA_IMAGE_SIZE},
        },
        builds="CLIPImageProcessor",
    ),
    # hunyuanvideo-community/HunyuanVideo-I2V: the first frame's latents replace the first
    # latent frame's tokens (16 input channels, as text-to-video); distilled guidance
    "HunyuanVideoTransformer3DModel/i2v": Recipe(
        "model",
        {**HUNYUAN_VIDEO, "image_condition_type": "token_replace", "guidance_embeds": True},
        builds="HunyuanVideoTransformer3DModel",
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    # the prompt goes through Qwen's chat template (video_more's tokenizer ships it)
    (r"^HunyuanVideo15", "tokenizer", "Qwen2Tokenizer/chat"),
    (r"^HunyuanVideo15", "text_encoder_2", "T5EncoderModel/byt5"),
    (r"^HunyuanVideo15ImageToVideo", "transformer", "HunyuanVideo15Transformer3DModel/i2v"),
    (r"^HunyuanVideoImageToVideo", "tokenizer", "LlamaTokenizerFast/llama3"),
    (r"^HunyuanVideoImageToVideo", "image_processor", "CLIPImageProcessor/llava"),
    (r"^HunyuanVideoImageToVideo", "transformer", "HunyuanVideoTransformer3DModel/i2v"),
)

TOKENIZER_OF_ENCODER: dict[str, str] = {"Qwen2_5_VLTextModel": "Qwen2Tokenizer"}

HOME_PIPELINES: dict[str, str] = {
    "HunyuanVideo15Transformer3DModel": "HunyuanVideo15Pipeline",
    "AutoencoderKLHunyuanVideo15": "HunyuanVideo15Pipeline",
}
