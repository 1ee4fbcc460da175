"""Recipes of later image, language and audio pipelines: Bria FIBO, DreamLite, GLM-Image,
Ideogram 4, JoyImage, NucleusMoE, PRX, LLaDA 2, DiffusionGemma, ACE-Step, AudioLDM 2,
Stable Audio 3.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.audio import TINY_SAMPLE_RATE
from guidelint.runner.diffusers_backend.recipes.parts import Dim, Recipe

# T5Gemma's encoder half (Stable Audio 3, PRX read prompts with it): Gemma 2 layers.
T5GEMMA_MODULE = {
    "vocab_size": Dim("gemma_vocab"),
    "hidden_size": 16,
    "intermediate_size": 32,
    "num_hidden_layers": 1,
    "num_attention_heads": 2,
    "num_key_value_heads": 1,
    "head_dim": 8,
    "max_position_embeddings": 512,
    "sliding_window": 512,
    "layer_types": ["full_attention"],
}

# ACE-Step's attention blocks, shared by its DiT, condition encoder and audio tokenizers.
ACE_STEP_ATTENTION = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 8,
    "rope_theta": 10000.0,
    "sliding_window": 16,
}

RECIPES: dict[str, Recipe] = {
    # Qwen3-VL's processor (DreamLite, JoyImage, NucleusMoE-Image, Bria FIBO 2 read prompts
    # and images with it); its video processor needs torchvision, as the real one does
    "Qwen3VLProcessor": Recipe("tokenizer", builder="build_qwen3_vl_processor"),
    # Stable Audio 3: a SAME waveform autoencoder, T5Gemma's encoder states (plus the
    # duration's embedding appended as one more token) cross-attended by a rectified-flow DiT
    "T5GemmaEncoderModel": Recipe(
        "model",
        {"encoder": T5GEMMA_MODULE, "decoder": T5GEMMA_MODULE, "is_encoder_decoder": False},
        provides={"t5gemma": "encoder.hidden_size"},
    ),
    "AutoencoderSAME": Recipe(
        "model",
        {
            "audio_channels": 2,
            "patch_size": 2,
            "encoder_channels": 8,
            "encoder_c_mults": (2,),
            "encoder_strides": (2,),  # 4 samples a latent frame, with the patch
            "encoder_transformer_depths": (1,),
            "latent_dim": 8,
            "use_differential_attention": False,
            "dim_heads": 4,
            "ff_mult": 2,
            "sampling_rate": TINY_SAMPLE_RATE,
        },
        provides={"latent": "latent_dim"},
    ),
    "StableAudio3DurationEmbedder": Recipe(
        "model", {"output_dim": Dim("t5gemma"), "fourier_dim": 16}
    ),
    "StableAudio3DiTModel": Recipe(
        "model",
        {
            "io_channels": Dim("latent"),
            "patch_size": 1,
            "embed_dim": 32,
            "depth": 1,
            "num_heads": 4,
            "cond_token_dim": Dim("t5gemma"),
            "global_cond_dim": Dim("t5gemma"),  # the duration embedding
            "local_add_cond_dim": Dim("latent", plus=1),  # inpainting's mask and latents
            "timestep_features_dim": 16,
            "ff_mult": 2,
            "num_memory_tokens": 3,
            "use_differential_attention": False,
        },
    ),
    # the distilled checkpoint samples ping-pong: re-noised at every step
    "FlowMatchEulerDiscreteScheduler/stable_audio_3": Recipe(
        "scheduler", {"stochastic_sampling": True}, builds="FlowMatchEulerDiscreteScheduler"
    ),
    # ACE-Step 1.5: Qwen3 embeddings of the caption and lyrics, encoded with the reference
    # timbre (the VAE's latents), condition a DiT over the Oobleck latents; the audio
    # tokenizer and detokenizer turn latents into 5 Hz codes and back (cover, repaint).
    "AutoencoderOobleck/ace_step": Recipe(
        "model",
        {
            "encoder_hidden_size": 6,
            "downsampling_ratios": [1, 2],  # a hop of 2 samples per latent frame
            "decoder_channels": 3,
            "decoder_input_channels": 8,
            "audio_channels": 2,
            "channel_multiples": [2, 4],
            "sampling_rate": TINY_SAMPLE_RATE,
        },
        builds="AutoencoderOobleck",
        provides={"latent": "decoder_input_channels"},
    ),
    "AceStepTransformer1DModel": Recipe(
        "model",
        {
            **ACE_STEP_ATTENTION,
            "num_hidden_layers": 1,
            "in_channels": Dim("latent", times=3),  # noisy, source latents and their mask
            "audio_acoustic_hidden_dim": Dim("latent"),
            "patch_size": 2,
        },
    ),
    "AceStepConditionEncoder": Recipe(
        "model",
        {
            **ACE_STEP_ATTENTION,
            "text_hidden_dim": Dim("llm"),
            "timbre_hidden_dim": Dim("latent"),
            "num_lyric_encoder_hidden_layers": 1,
            "num_timbre_encoder_hidden_layers": 1,
        },
    ),
    "AceStepAudioTokenizer": Recipe(
        "model",
        {
            **ACE_STEP_ATTENTION,
            "audio_acoustic_hidden_dim": Dim("latent"),
            "pool_window_size": 2,
            "fsq_dim": 32,
            "fsq_input_levels": [4, 4, 4],
            "fsq_input_num_quantizers": 1,
            "num_attention_pooler_hidden_layers": 1,
        },
    ),
    "AceStepAudioTokenDetokenizer": Recipe(
        "model",
        {
            **ACE_STEP_ATTENTION,
            "audio_acoustic_hidden_dim": Dim("latent"),
            "pool_window_size": 2,
            "num_attention_pooler_hidden_layers": 1,
        },
    ),
    # AudioLDM 2: CLAP's text projection and T5's states, projected and continued by GPT-2
    # (its generated states are what the UNet's first cross-attention reads, T5's the
    # second); the mel VAE, HiFi-GAN vocoder and CLAP scorer are AudioLDM's (recipes/audio.py).
    "GPT2LMHeadModel": Recipe(
        "model",
        {
            "n_embd": 16,
            "n_head": 1,
            "n_layer": 1,
            "vocab_size": 64,  # never read: GPT-2 continues embeddings, not tokens
            "bos_token_id": 63,  # GPT-2's end of text: its last token, as in the real vocabulary
            "eos_token_id": 63,
            "n_positions": 1024,  # room for the TTS example's 512 new tokens
            "max_new_tokens": 8,  # what cvssp/audioldm2's language model config holds
        },
        provides={"lm": "n_embd"},
    ),
    "AudioLDM2ProjectionModel": Recipe(
        "model",
        {
            "text_encoder_dim": Dim("proj"),
            "text_encoder_1_dim": Dim("t5"),
            "langauge_model_dim": Dim("lm"),  # sic: the class spells it so
        },
    ),
    "AudioLDM2UNet2DConditionModel": Recipe(
        "model",
        {
            "block_out_channels": (8, 16),
            "layers_per_block": 1,
            "norm_num_groups": 8,
            "sample_size": 32,
            "in_channels": Dim("latent"),
            "out_channels": Dim("latent"),
            "down_block_types": ("DownBlock2D", "CrossAttnDownBlock2D"),
            "up_block_types": ("CrossAttnUpBlock2D", "UpBlock2D"),
            # per block, as cvssp/audioldm2's: self-attention, GPT-2's states, T5's states
            "cross_attention_dim": ((None, Dim("lm"), Dim("t5")),) * 2,
            "attention_head_dim": 2,
        },
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    ("^AudioLDM2Pipeline$", "vae", "AutoencoderKL/mel"),
    ("^StableAudio3", "scheduler", "FlowMatchEulerDiscreteScheduler/stable_audio_3"),
    # ACE-Step's checkpoints ship Qwen3-Embedding-0.6B (a Qwen3Model) and its tokenizer
    ("^AceStep", "text_encoder", "Qwen3Model"),
    ("^AceStep", "tokenizer", "Qwen2Tokenizer/qwen3"),
    ("^AceStep", "vae", "AutoencoderOobleck/ace_step"),
)


HOME_PIPELINES: dict[str, str] = {
    "AudioLDM2UNet2DConditionModel": "AudioLDM2Pipeline",
    "StableAudio3DiTModel": "StableAudio3Pipeline",
    "AceStepTransformer1DModel": "AceStepPipeline",
    "AutoencoderSAME": "StableAudio3Pipeline",
}

NOT_YET: dict[str, str] = {}
