"""An offline CLIP tokenizer: a byte-level BPE vocabulary small enough to write by hand.

The real CLIP vocabulary lives on the hub; a tiny one keeps tokenization real (BPE
merges, start/end tokens, padding to 77) without downloading anything.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

MAX_LENGTH = 77  # CLIP's context; without it prompts pad to a huge default length
MERGES = ["t h", "th e</w>", "a n", "an d</w>", "o n</w>", "i n", "in g</w>", "e r</w>"]
SPECIALS = ["<|startoftext|>", "<|endoftext|>"]


def byte_symbols() -> list[str]:
    """The 256 printable stand-ins byte-level BPE uses for raw bytes (GPT-2's table)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1)]
    printable += range(ord("®"), ord("ÿ") + 1)
    symbols, extra = {}, 0
    for byte in range(256):
        if byte in printable:
            symbols[byte] = chr(byte)
        else:
            symbols[byte] = chr(256 + extra)
            extra += 1
    return [symbols[b] for b in range(256)]


def vocabulary() -> dict[str, int]:
    """Byte symbols, their end-of-word forms, the merge results, then the special tokens."""
    chars = byte_symbols()
    tokens = [*chars, *(c + "</w>" for c in chars)]
    tokens += ["".join(merge.split()) for merge in MERGES]
    tokens += SPECIALS
    return {token: index for index, token in enumerate(tokens)}


def build_clip_tokenizer():
    """From vocab.json and merges.txt files: the one constructor transformers 4 and 5 share."""
    import json
    import tempfile

    from transformers import CLIPTokenizer

    with tempfile.TemporaryDirectory(prefix="clip-vocab-") as folder:
        vocab, merges = Path(folder) / "vocab.json", Path(folder) / "merges.txt"
        vocab.write_text(json.dumps(vocabulary(), ensure_ascii=False), encoding="utf-8")
        merges.write_text("#version: 0.2\n" + "\n".join(MERGES) + "\n", encoding="utf-8")
        return CLIPTokenizer(str(vocab), str(merges), model_max_length=MAX_LENGTH)


class SpecialIds(TypedDict):
    bos_token_id: int
    eos_token_id: int
    pad_token_id: int
    vocab_size: int


def special_ids() -> SpecialIds:
    """Ids the text encoder's config must agree with (its pooled output looks up eos)."""
    vocab = vocabulary()
    return {
        "bos_token_id": vocab["<|startoftext|>"],
        "eos_token_id": vocab["<|endoftext|>"],
        "pad_token_id": vocab["<|endoftext|>"],
        "vocab_size": len(vocab),
    }


def save_clip_tokenizer(folder: Path) -> None:
    build_clip_tokenizer().save_pretrained(folder)


# T5 and UMT5 (sentencepiece Unigram): <pad>=0, </s>=1, <unk>=2, then pieces, each scored
# so the Unigram model prefers whole words to letters; "▁" marks a word start.
T5_MAX_LENGTH = 512
T5_WORDS = ("a", "the", "of", "on", "in", "and", "with", "photo", "cat", "dog", "an", "astronaut")
T5_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,!?'-:;()"


def t5_vocabulary() -> list[tuple[str, float]]:
    pieces = [("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0), ("▁", -2.0)]
    pieces += [(f"▁{word}", -1.0) for word in T5_WORDS]
    pieces += [(char, -3.0) for char in T5_CHARS]
    pieces += [(f"▁{char}", -2.5) for char in T5_CHARS]
    return pieces


def build_t5_tokenizer():
    """The real T5 tokenizer class (Unigram, from tokenizers) over a hand-written vocabulary."""
    from transformers import T5TokenizerFast  # type: ignore[attr-defined]

    return T5TokenizerFast(vocab=t5_vocabulary(), extra_ids=0, model_max_length=T5_MAX_LENGTH)


def t5_vocab_size() -> int:
    return len(t5_vocabulary())


# Decoder-only language models used as text encoders (Qwen2.5-VL, GLM, Gemma): their
# tokenizers are BPE too; without merges a piece is a byte (Qwen, GLM) or a character
# (Gemma's "▁"-marked words), which is all a tiny model's embedding table needs.
QWEN_SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
GEMMA_SPECIALS = ["<pad>", "<eos>", "<bos>", "<unk>", "<mask>"]
LLM_MAX_LENGTH = 1024


def qwen_vocabulary() -> dict[str, int]:
    tokens = [*byte_symbols(), *QWEN_SPECIALS]
    return {token: index for index, token in enumerate(tokens)}


def build_qwen2_tokenizer():
    """Qwen2's byte-level BPE (Qwen2.5-VL, Qwen3): every byte a token, chat markers special."""
    from transformers import Qwen2Tokenizer

    tokenizer = Qwen2Tokenizer(vocab=qwen_vocabulary(), merges=[], model_max_length=LLM_MAX_LENGTH)
    tokenizer.add_special_tokens({"additional_special_tokens": QWEN_SPECIALS[1:]})
    return tokenizer


GLM_PREFIX = ["[gMASK]", "<sop>"]  # GLM-4 starts every sequence with these


def glm_vocabulary() -> dict[str, int]:
    tokens = [*byte_symbols(), *QWEN_SPECIALS, *GLM_PREFIX]
    return {token: index for index, token in enumerate(tokens)}


def build_glm_tokenizer():
    """GLM-4's checkpoints ship a plain PreTrainedTokenizerFast: byte-level BPE, and a
    "[gMASK]<sop>" prefix, so even an empty prompt has tokens (CogView4's negative one)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    vocab = glm_vocabulary()
    backend = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    backend.add_special_tokens([*QWEN_SPECIALS, *GLM_PREFIX])
    backend.post_processor = processors.TemplateProcessing(
        single="[gMASK] <sop> $A",
        pair="[gMASK] <sop> $A $B",
        special_tokens=[(token, vocab[token]) for token in GLM_PREFIX],
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        eos_token="<|endoftext|>",
        pad_token="<|endoftext|>",
        model_max_length=LLM_MAX_LENGTH,
        padding_side="left",
    )


def gemma_vocabulary() -> dict[str, int]:
    pieces = [*GEMMA_SPECIALS, "▁", *(f"▁{w}" for w in T5_WORDS), *T5_CHARS, " "]
    return {piece: index for index, piece in enumerate(dict.fromkeys(pieces))}


def build_gemma_tokenizer():
    from transformers import GemmaTokenizer

    return GemmaTokenizer(vocab=gemma_vocabulary(), merges=[], model_max_length=LLM_MAX_LENGTH)


def qwen_vocab_size() -> int:
    return len(qwen_vocabulary())


def glm_vocab_size() -> int:
    return len(glm_vocabulary())


def gemma_vocab_size() -> int:
    return len(gemma_vocabulary())


# XLM-RoBERTa (Kandinsky 2.1's multilingual CLIP): sentencepiece Unigram like T5, with
# fairseq's specials first (<s>=0, <pad>=1, </s>=2, <unk>=3) and <mask> last.
XLMR_SPECIALS = ["<s>", "<pad>", "</s>", "<unk>"]


def xlmr_vocabulary() -> list[tuple[str, float]]:
    pieces = [(token, 0.0) for token in XLMR_SPECIALS]
    pieces += [piece for piece in t5_vocabulary() if piece[0] not in ("<pad>", "</s>", "<unk>")]
    return [*pieces, ("<mask>", 0.0)]


def build_xlm_roberta_tokenizer():
    from transformers import XLMRobertaTokenizer

    return XLMRobertaTokenizer(vocab=xlmr_vocabulary(), model_max_length=T5_MAX_LENGTH)


def xlmr_vocab_size() -> int:
    return len(xlmr_vocabulary())


# BERT (LDM's text-to-image LDMBert): WordPiece, lower-cased; a word it lacks splits into
# letters, "##"-marked inside a word.
BERT_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def bert_vocabulary() -> dict[str, int]:
    letters = [c for c in T5_CHARS if not c.isupper()]
    tokens = [*BERT_SPECIALS, *T5_WORDS, *letters, *(f"##{c}" for c in letters)]
    return {token: index for index, token in enumerate(dict.fromkeys(tokens))}


def build_bert_tokenizer():
    from transformers import BertTokenizer

    return BertTokenizer(vocab=bert_vocabulary(), model_max_length=MAX_LENGTH)


def bert_vocab_size() -> int:
    return len(bert_vocabulary())
