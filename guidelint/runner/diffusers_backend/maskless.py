"""Two video DiTs' attention without the dense mask they build (the CPU path only).

SkyReels-V2's diffusion-forcing DiT and HunyuanVideo 1.5's build a boolean mask over
every pair of tokens before attention, whatever the model's width: SkyReels-V2 DF at
544x960x97 on its 16x stand-in 12,750 tokens (163 MB, a float copy of it in attention,
and the softmax paid over every pair), HunyuanVideo 1.5 at 480x848x121 51,275 tokens
(2.4 GiB, over the memory an example may use). Each mask has a structure that needs no
pair table: SkyReels-V2's is block-causal (a block of latent frames sees its own and the
earlier ones), HunyuanVideo 1.5's the outer product of one padding mask over the keys
(text tokens the prompt leaves empty). Here each is computed from that structure, with
torch's own attention over the keys each query sees, unmasked: the same softmax over
the same keys, so the same values to float32 rounding. With autograd on, a GPU or
another layout than the one checked, diffusers' own code runs.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

from guidelint.runner.diffusers_backend.state import current, remember_original

BLOCKS_NOTE = (
    "SkyReelsV2Transformer3DModel: its block-causal self-attention computed block by block, "
    "each block's queries over the keys of the blocks up to its own (the same values to "
    "float32 rounding; CPU path): no dense mask over every pair of tokens"
)


@dataclass(frozen=True)
class CausalBlocks:
    """The diffusion-forcing DiT's self-attention layout in one forward: `tokens` in all,
    in blocks of `block_tokens` (its num_frame_per_block latent frames of patches)."""

    tokens: int
    block_tokens: int


_BLOCKS: ContextVar[CausalBlocks | None] = ContextVar("skyreels_causal_blocks", default=None)


def _fast(tensor):
    """The example's state on the CPU path, in inference, for a CPU tensor; else None."""
    import torch

    state = current()
    if (
        state is None
        or state.gpu
        or torch.is_grad_enabled()
        or not isinstance(tensor, torch.Tensor)
        or tensor.device.type != "cpu"
    ):
        return None
    return state


def _patch_block_causal(module) -> None:
    """SkyReelsV2Transformer3DModel.forward with num_frame_per_block > 1 builds a dense
    boolean mask over every pair of tokens (key block <= query block,
    transformer_skyreels_v2.py:684-699: 12,750 tokens, 163 MB, and a float copy of it in
    attention) and hands it to every self-attention. Here the forward runs with the mask
    left out (num_frame_per_block 1 for that call, restored after) while its self-attention
    takes each query block over the keys of its own and the earlier blocks: the same
    softmax over the same keys, unmasked, so torch's flash kernel runs and a third of the
    pairs are never computed (5 blocks: 15 of 25)."""
    import torch

    model = module.SkyReelsV2Transformer3DModel
    original_forward = model.forward
    original_dispatch = module.dispatch_attention_fn

    def forward(self, hidden_states, *args, **kwargs):
        state = _fast(hidden_states)
        per_block = self.config.num_frame_per_block
        patch_t, patch_h, patch_w = self.config.patch_size
        frames = hidden_states.shape[2] // patch_t
        if state is None or per_block <= 1 or frames % per_block:
            return original_forward(self, hidden_states, *args, **kwargs)  # as diffusers does
        state.record_once(BLOCKS_NOTE)
        frame_tokens = (hidden_states.shape[3] // patch_h) * (hidden_states.shape[4] // patch_w)
        blocks = _BLOCKS.set(CausalBlocks(frames * frame_tokens, per_block * frame_tokens))
        self.register_to_config(num_frame_per_block=1)
        try:
            return original_forward(self, hidden_states, *args, **kwargs)
        finally:
            self.register_to_config(num_frame_per_block=per_block)
            _BLOCKS.reset(blocks)

    def dispatch_attention_fn(query, key, value, attn_mask=None, *args, **kwargs):
        blocks = _BLOCKS.get()
        if (
            blocks is None
            or attn_mask is not None
            or query.shape[1] != blocks.tokens  # (batch, tokens, heads, width)
            or key.shape[1] != blocks.tokens  # the text or image cross-attention
        ):
            return original_dispatch(query, key, value, attn_mask, *args, **kwargs)
        outputs = [
            original_dispatch(
                query[:, start : start + blocks.block_tokens],
                key[:, : start + blocks.block_tokens],
                value[:, : start + blocks.block_tokens],
                None,
                *args,
                **kwargs,
            )
            for start in range(0, blocks.tokens, blocks.block_tokens)
        ]
        return torch.cat(outputs, dim=1)

    remember_original(forward, original_forward)
    remember_original(dispatch_attention_fn, original_dispatch)
    model.forward = forward
    module.dispatch_attention_fn = dispatch_attention_fn


HUNYUAN15_NOTE = (
    "HunyuanVideo15Transformer3DModel: its self-attention over the keys its text padding "
    "mask keeps, without the dense mask over every pair of tokens (the same values to "
    "float32 rounding; CPU path)"
)
QUERY_CHUNK = 1024  # queries of an all-masked row computed at a time (bounded memory)


def key_padded_attention(dispatch, query, key, value, keep, **kwargs):
    """dispatch(query, key, value, attn_mask=keep_i & keep_j) for a key-padding mask
    `keep` (batch, tokens), without the (tokens x tokens) mask: each kept query attends
    over the kept keys, unmasked; a query the mask drops sees no key at all, and gets
    what torch's attention gives such a row, computed on those rows alone."""
    import torch

    output = torch.empty_like(query)
    for row in range(query.shape[0]):
        kept = keep[row]
        if bool(kept.all()):
            output[row] = dispatch(
                query[row : row + 1],
                key[row : row + 1],
                value[row : row + 1],
                attn_mask=None,
                **kwargs,
            )[0]
            continue
        keys, values = key[row : row + 1, kept], value[row : row + 1, kept]
        output[row, kept] = dispatch(
            query[row : row + 1, kept], keys, values, attn_mask=None, **kwargs
        )[0]
        dropped = (~kept).nonzero().flatten()
        for start in range(0, dropped.numel(), QUERY_CHUNK):
            rows = dropped[start : start + QUERY_CHUNK]
            none = torch.zeros(1, 1, rows.numel(), key.shape[1], dtype=torch.bool)
            output[row, rows] = dispatch(
                query[row : row + 1, rows],
                key[row : row + 1],
                value[row : row + 1],
                attn_mask=none,
                **kwargs,
            )[0]
    return output


def _patch_hunyuan15(module) -> None:
    """HunyuanVideo15AttnProcessor2_0.__call__: diffusers' steps 1-4 and 6 as they are
    (transformer_hunyuan_video15.py:56-135); step 5, attention, with the padding mask
    over the keys instead of its (tokens x tokens) outer product (lines 101-106)."""
    import torch
    import torch.nn.functional as F

    processor = module.HunyuanVideo15AttnProcessor2_0
    original = processor.__call__

    def __call__(
        self,
        attn,
        hidden_states,
        encoder_hidden_states=None,
        attention_mask=None,
        image_rotary_emb=None,
    ):
        state = _fast(hidden_states)
        if state is None or attention_mask is None or attention_mask.dim() != 2:
            return original(
                self, attn, hidden_states, encoder_hidden_states, attention_mask, image_rotary_emb
            )
        state.record_once(HUNYUAN15_NOTE)
        query = attn.to_q(hidden_states).unflatten(2, (attn.heads, -1))
        key = attn.to_k(hidden_states).unflatten(2, (attn.heads, -1))
        value = attn.to_v(hidden_states).unflatten(2, (attn.heads, -1))
        query, key = attn.norm_q(query), attn.norm_k(key)
        if image_rotary_emb is not None:
            from diffusers.models.embeddings import apply_rotary_emb

            query = apply_rotary_emb(query, image_rotary_emb, sequence_dim=1)
            key = apply_rotary_emb(key, image_rotary_emb, sequence_dim=1)
        if encoder_hidden_states is not None:
            encoder_query = attn.add_q_proj(encoder_hidden_states).unflatten(2, (attn.heads, -1))
            encoder_key = attn.add_k_proj(encoder_hidden_states).unflatten(2, (attn.heads, -1))
            encoder_value = attn.add_v_proj(encoder_hidden_states).unflatten(2, (attn.heads, -1))
            if attn.norm_added_q is not None:
                encoder_query = attn.norm_added_q(encoder_query)
            if attn.norm_added_k is not None:
                encoder_key = attn.norm_added_k(encoder_key)
            query = torch.cat([query, encoder_query], dim=1)
            key = torch.cat([key, encoder_key], dim=1)
            value = torch.cat([value, encoder_value], dim=1)
        seq_len = query.shape[1]
        keep = F.pad(attention_mask, (seq_len - attention_mask.shape[1], 0), value=True).bool()
        hidden_states = key_padded_attention(
            module.dispatch_attention_fn,
            query,
            key,
            value,
            keep,
            dropout_p=0.0,
            is_causal=False,
            backend=self._attention_backend,
            parallel_config=self._parallel_config,
        )
        hidden_states = hidden_states.flatten(2, 3).to(query.dtype)
        if encoder_hidden_states is not None:
            hidden_states, encoder_hidden_states = (
                hidden_states[:, : -encoder_hidden_states.shape[1]],
                hidden_states[:, -encoder_hidden_states.shape[1] :],
            )
            if getattr(attn, "to_out", None) is not None:
                hidden_states = attn.to_out[1](attn.to_out[0](hidden_states))
            if getattr(attn, "to_add_out", None) is not None:
                encoder_hidden_states = attn.to_add_out(encoder_hidden_states)
        return hidden_states, encoder_hidden_states

    remember_original(__call__, original)
    processor.__call__ = __call__


def install() -> None:
    from diffusers.models.transformers import transformer_hunyuan_video15, transformer_skyreels_v2

    _patch_block_causal(transformer_skyreels_v2)
    _patch_hunyuan15(transformer_hunyuan_video15)
