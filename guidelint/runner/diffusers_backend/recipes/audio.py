"""Recipes of the audio pipelines: Stable Audio, AudioLDM 1 and 2, MusicLDM, Dance Diffusion,
ACE-Step, LongCat AudioDiT, Audio Diffusion (teticio/audio-diffusion-256).

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import.

Audio is sampled at 16 Hz here: the pipelines size their latents from seconds times
the VAE's sampling rate, so an example's `audio_end_in_s=10.0` stays a few hundred
latent frames, and soundfile and scipy write such files as they write real ones.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import DDPM_UNET, Dim, Recipe

TINY_SAMPLE_RATE = 16

# CLAP's text tower is a RoBERTa: the offline Roberta tokenizer's ids (bos 0, pad 1, eos 2).
CLAP_TEXT = {
    "bos_token_id": 0,
    "pad_token_id": 1,
    "eos_token_id": 2,
    "vocab_size": Dim("roberta_vocab"),
    "hidden_size": 8,
    "intermediate_size": 37,
    "layer_norm_eps": 1e-05,
    "num_attention_heads": 1,
    "num_hidden_layers": 1,
    "projection_dim": 8,
}

RECIPES: dict[str, Recipe] = {
    # AudioLDM: a UNet over mel-spectrogram latents, conditioned (as a class embedding,
    # no cross-attention) on CLAP's text projection; the HiFi-GAN vocoder makes the waveform.
    "ClapTextModelWithProjection": Recipe("model", CLAP_TEXT, provides={"proj": "projection_dim"}),
    "RobertaTokenizer": Recipe("tokenizer", builder="build_roberta_tokenizer"),
    # MusicLDM scores text with the whole CLAP model (get_text_features), whose audio
    # tower is an HTSAT Swin transformer over mel spectrograms.
    "ClapModel": Recipe(
        "model",
        {
            "text_config": {
                **{k: v for k, v in CLAP_TEXT.items() if k != "projection_dim"},
                "hidden_size": 16,
                "num_attention_heads": 2,
                "num_hidden_layers": 2,
            },
            "audio_config": {
                "spec_size": 64,
                "window_size": 4,
                "num_mel_bins": 64,
                "intermediate_size": 37,
                "layer_norm_eps": 1e-05,
                "depths": [2, 2],
                "num_attention_heads": [2, 2],
                "num_hidden_layers": 2,
                "hidden_size": 192,
                "patch_size": 2,
                "patch_stride": 2,
                "patch_embed_input_channels": 4,
            },
            "projection_dim": 32,
        },
        provides={"proj": "projection_dim"},
    ),
    "ClapFeatureExtractor": Recipe("processor"),  # its defaults: 64 mel bins at 48 kHz
    "SpeechT5HifiGan": Recipe(
        "model",
        {
            "model_in_dim": 8,  # mel bins: the spectrogram's width
            "sampling_rate": TINY_SAMPLE_RATE,
            "upsample_initial_channel": 16,
            "upsample_rates": [2, 2],  # 4 samples per mel frame
            "upsample_kernel_sizes": [4, 4],
            "resblock_kernel_sizes": [3, 7],
            "resblock_dilation_sizes": [[1, 3, 5], [1, 3, 5]],
            "normalize_before": False,
        },
    ),
    "AutoencoderKL/mel": Recipe(  # one-channel spectrograms, a scale factor of 2
        "model",
        {
            "block_out_channels": [8, 16],
            "in_channels": 1,
            "out_channels": 1,
            "norm_num_groups": 8,
            "down_block_types": ["DownEncoderBlock2D", "DownEncoderBlock2D"],
            "up_block_types": ["UpDecoderBlock2D", "UpDecoderBlock2D"],
            "latent_channels": 4,
        },
        builds="AutoencoderKL",
        provides={"latent": "latent_channels"},
    ),
    "UNet2DConditionModel/audioldm": Recipe(
        "model",
        {
            "block_out_channels": (8, 16),
            "layers_per_block": 1,
            "norm_num_groups": 8,
            "sample_size": 32,  # the default length: 32 * 2 * 4 / 16 Hz = 16 s
            "in_channels": Dim("latent"),
            "out_channels": Dim("latent"),
            "down_block_types": ("DownBlock2D", "CrossAttnDownBlock2D"),
            "up_block_types": ("CrossAttnUpBlock2D", "UpBlock2D"),
            "cross_attention_dim": (8, 16),
            "class_embed_type": "simple_projection",
            "projection_class_embeddings_input_dim": Dim("proj"),
            "class_embeddings_concat": True,
        },
        builds="UNet2DConditionModel",
    ),
    # Stable Audio Open: an Oobleck VAE over stereo waveforms, a DiT cross-attending to
    # the T5 states projected with the start and end seconds (StableAudioProjectionModel).
    "AutoencoderOobleck": Recipe(
        "model",
        {
            "encoder_hidden_size": 6,
            "downsampling_ratios": [1, 2],  # a hop of 2 samples per latent frame
            "decoder_channels": 3,
            "decoder_input_channels": 3,
            "audio_channels": 2,
            "channel_multiples": [2, 4],
            "sampling_rate": TINY_SAMPLE_RATE,
        },
        provides={"latent": "decoder_input_channels"},
    ),
    "StableAudioProjectionModel": Recipe(
        "model",
        # seconds from 0 to 512, as stable-audio-open-1.0's projection model has them
        {"text_encoder_dim": Dim("t5"), "conditioning_dim": 4, "min_value": 0, "max_value": 512},
        provides={"audio_condition": "conditioning_dim"},
    ),
    "StableAudioDiTModel": Recipe(
        "model",
        {
            # the longest audio is sample_size * hop / sampling rate: 128 * 2 / 16 = 16 s
            "sample_size": 128,
            "in_channels": Dim("latent"),
            "out_channels": Dim("latent"),
            "num_layers": 2,
            "attention_head_dim": 4,
            "num_attention_heads": 4,
            "num_key_value_attention_heads": 2,
            "cross_attention_dim": 4,
            "time_proj_dim": 8,
            # the start and end seconds' embeddings, concatenated
            "global_states_input_dim": Dim("audio_condition", times=2),
            "cross_attention_input_dim": Dim("audio_condition"),
        },
    ),
    # what stable-audio-open-1.0's scheduler config holds, on the class its pipeline names
    "EDMDPMSolverMultistepScheduler/stable_audio": Recipe(
        "scheduler",
        {
            "sigma_min": 0.3,
            "sigma_max": 500.0,
            "sigma_data": 1.0,
            "sigma_schedule": "exponential",
            "prediction_type": "v_prediction",
            "solver_order": 2,
        },
        builds="EDMDPMSolverMultistepScheduler",
    ),
    # LongCat AudioDiT: a waveform VAE and a DiT over its latent frames, UMT5 text.
    "LongCatAudioDiTVae": Recipe(
        "model",
        {
            "in_channels": 1,
            "channels": 16,
            "c_mults": [1, 2],
            "strides": [2],
            "latent_dim": 8,
            "encoder_latent_dim": 16,
            "downsampling_ratio": 2,  # the product of the strides
            "sample_rate": TINY_SAMPLE_RATE,
        },
        provides={"latent": "latent_dim"},
    ),
    "LongCatAudioDiTTransformer": Recipe(
        "model",
        {
            "dit_dim": 64,
            "dit_depth": 2,
            "dit_heads": 4,
            "dit_text_dim": Dim("t5"),
            "latent_dim": Dim("latent"),
            "text_conv": False,
        },
    ),
}

# teticio/audio-diffusion-256 (AudioDiffusionPipeline, deprecated in diffusers): a
# mel spectrogram as a one-channel image, denoised by an unconditional UNet2DModel in
# 1000 DDPM steps (no VQ-VAE: that is latent-audio-diffusion-256), then inverted to
# audio by Griffin-Lim (librosa). The repo's Mel keeps its defaults (22,050 Hz, n_fft
# 2048, hop 512, 32 Griffin-Lim iterations) with a 256x256 image; here the image is 16x16
# (the shared DDPM UNet's sample size, as DDPM's stand-in), the Mel's resolution with it,
# since the pipeline sizes its noise from the UNet and reads the image back with the Mel.
AUDIO_DIFFUSION_SIZE = 16
AUDIO_DIFFUSION_UNET = {
    **DDPM_UNET,
    "sample_size": AUDIO_DIFFUSION_SIZE,
    "in_channels": 1,
    "out_channels": 1,
}
RECIPES["UNet2DModel/audio-diffusion"] = Recipe("model", AUDIO_DIFFUSION_UNET, builds="UNet2DModel")
RECIPES["Mel"] = Recipe("scheduler", {"x_res": AUDIO_DIFFUSION_SIZE, "y_res": AUDIO_DIFFUSION_SIZE})

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    ("^AudioDiffusionPipeline$", "unet", "UNet2DModel/audio-diffusion"),
    # the slot is annotated DDIMScheduler | DDPMScheduler; the repo ships DDPM (1000 steps)
    ("^AudioDiffusionPipeline$", "scheduler", "DDPMScheduler"),
    ("^(AudioLDM|MusicLDM)Pipeline$", "unet", "UNet2DConditionModel/audioldm"),
    ("^(AudioLDM|MusicLDM)Pipeline$", "vae", "AutoencoderKL/mel"),
    ("^MusicLDMPipeline$", "text_encoder", "ClapModel"),
    ("^StableAudioPipeline$", "scheduler", "EDMDPMSolverMultistepScheduler/stable_audio"),
)


# teticio/audio-diffusion-256 ships a UNet2DModel where the pipeline annotates
# UNet2DConditionModel (its __call__ passes the encoding only to a UNet2DConditionModel)
SHIPPED: dict[str, str] = {"AudioDiffusionPipeline.unet": "UNet2DModel"}

HOME_PIPELINES: dict[str, str] = {
    "StableAudioDiTModel": "StableAudioPipeline",
    "AutoencoderOobleck": "StableAudioPipeline",
    "LongCatAudioDiTTransformer": "LongCatAudioDiTPipeline",
    "LongCatAudioDiTVae": "LongCatAudioDiTPipeline",
}
