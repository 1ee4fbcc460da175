"""Offline tokenizers of the text-encoder families the tiny pipelines use, built here.

CLIP, T5/UMT5, Qwen2 (and Qwen2-VL/2.5-VL/3-VL processors), Qwen3, GLM, Gemma,
RoBERTa/XLM-R, ByT5, BERT, ChatGLM, Llama (and Llama 3's chat template), Mistral and
Pixtral: each a vocabulary small enough to write by hand, built with the `tokenizers`
library and loaded by the real transformers class (`build_*`). The real vocabularies
live on the hub; these keep tokenization real (BPE or Unigram pieces, special tokens,
chat templates, padding to the model's length) without downloading anything.
"""

from __future__ import annotations

import functools
import shutil
import weakref
from pathlib import Path
from typing import Any, TypedDict

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
# Qwen2-VL and Qwen2.5-VL mark an image's place in the prompt with these; the processor
# repeats the pad token once per merged image patch, the model finds them by id.
QWEN_VISION = [
    "<|vision_start|>",
    "<|vision_end|>",
    "<|vision_pad|>",
    "<|image_pad|>",
    "<|video_pad|>",
]
GEMMA_SPECIALS = ["<pad>", "<eos>", "<bos>", "<unk>", "<mask>"]
LLM_MAX_LENGTH = 1024


def qwen_vocabulary() -> dict[str, int]:
    tokens = [*byte_symbols(), *QWEN_SPECIALS, *QWEN_VISION]
    return {token: index for index, token in enumerate(tokens)}


def qwen_vision_ids() -> dict[str, int]:
    """The vision markers' ids, as Qwen2.5-VL's config names them (`image_token_id`...)."""
    vocab = qwen_vocabulary()
    return {
        "qwen_vision_start": vocab["<|vision_start|>"],
        "qwen_vision_end": vocab["<|vision_end|>"],
        "qwen_image_pad": vocab["<|image_pad|>"],
        "qwen_video_pad": vocab["<|video_pad|>"],
    }


def build_qwen2_tokenizer():
    """Qwen2's byte-level BPE (Qwen2.5-VL, Qwen3): every byte a token, chat and vision
    markers special (one token each, as in the real vocabulary)."""
    from transformers import Qwen2Tokenizer

    tokenizer = Qwen2Tokenizer(vocab=qwen_vocabulary(), merges=[], model_max_length=LLM_MAX_LENGTH)
    tokenizer.add_special_tokens({"additional_special_tokens": [*QWEN_SPECIALS[1:], *QWEN_VISION]})
    return tokenizer


# Qwen2-VL's chat format, the part prompts use: each turn between <|im_start|> and
# <|im_end|>, an image as its vision markers, and the assistant's turn opened on request.
QWEN_VL_CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' or 'image' in content %}"
    "<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif content['type'] == 'video' or 'video' in content %}"
    "<|vision_start|><|video_pad|><|vision_end|>"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}{% endif %}"
    "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
# Qwen2-VL's 14-pixel patches, merged 2x2 into one token; at most 112x112 pixels (16
# tokens) per image keeps the tiny vision tower cheap, whatever size the pipeline sends.
QWEN_VL_IMAGE: dict[str, Any] = {
    "patch_size": 14,
    "merge_size": 2,
    "temporal_patch_size": 2,
    "size": {"shortest_edge": 56 * 56, "longest_edge": 112 * 112},
}


def build_qwen2_vl_tokenizer():
    """Qwen2-VL's tokenizer alone (EasyAnimate's): the Qwen2 tokenizer and its chat template."""
    tokenizer = build_qwen2_tokenizer()
    tokenizer.chat_template = QWEN_VL_CHAT_TEMPLATE
    return tokenizer


def build_qwen2_vl_processor():
    """Qwen2VLProcessor: the tiny Qwen2 tokenizer, image and video processors, and the
    chat template (Qwen2.5-VL checkpoints ship this processor too)."""
    from transformers import Qwen2VLProcessor

    return qwen_vl_processor(Qwen2VLProcessor)


def build_qwen2_5_vl_processor():
    from transformers import Qwen2_5_VLProcessor

    return qwen_vl_processor(Qwen2_5_VLProcessor)


def qwen_vl_processor(cls):
    """Its video processor needs torchvision, as the real checkpoints' does: without it,
    transformers' own ImportError ("requires the Torchvision library") is what an example
    loading the real processor would meet, so it is raised here unchanged."""
    from transformers import Qwen2VLImageProcessor, Qwen2VLVideoProcessor

    return cls(
        image_processor=Qwen2VLImageProcessor(**QWEN_VL_IMAGE),
        tokenizer=build_qwen2_tokenizer(),
        video_processor=Qwen2VLVideoProcessor(**QWEN_VL_IMAGE),
        chat_template=QWEN_VL_CHAT_TEMPLATE,
    )


def build_qwen3_vl_processor():
    """Qwen3VLProcessor (DreamLite, JoyImage, NucleusMoE, Bria FIBO 2): Qwen3-VL's 16-pixel
    patches, merged 2x2, over the same tiny tokenizer and chat template."""
    from transformers import Qwen2VLImageProcessor, Qwen3VLProcessor, Qwen3VLVideoProcessor

    sized = {
        **QWEN_VL_IMAGE,
        "patch_size": 16,
        "size": {"shortest_edge": 64 * 64, "longest_edge": 128 * 128},
    }
    return Qwen3VLProcessor(
        image_processor=Qwen2VLImageProcessor(**sized),
        tokenizer=build_qwen2_tokenizer(),
        video_processor=Qwen3VLVideoProcessor(**sized),
        chat_template=QWEN_VL_CHAT_TEMPLATE,
    )


# The class each processor builder needs that needs a library of its own: the real
# checkpoints' video processors need torchvision. `require_libraries` makes the class
# raise transformers' own ImportError where that library is missing, naming it.
NEEDED_CLASSES = {
    "build_qwen2_vl_processor": "Qwen2VLVideoProcessor",
    "build_qwen2_5_vl_processor": "Qwen2VLVideoProcessor",
    "build_qwen3_vl_processor": "Qwen3VLVideoProcessor",
    "build_pixtral_processor": "PixtralProcessor",  # the processor class itself
}


def require_libraries(builder: str) -> None:
    """Raises the ImportError loading the real component would meet here, if any."""
    needed = NEEDED_CLASSES.get(builder)
    if needed is not None:
        import transformers
        from transformers.utils.import_utils import DummyObject

        found = getattr(transformers, needed)
        if isinstance(found, DummyObject):  # a missing backend's stand-in raises on creation
            found()


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

    # Gemma's checkpoints start every sequence with <bos>: an empty prompt (Lumina's negative
    # one) still has a token to attend to
    return GemmaTokenizer(
        vocab=gemma_vocabulary(), merges=[], model_max_length=LLM_MAX_LENGTH, add_bos_token=True
    )


# PRX's tokenizer: google/t5gemma-2b-2b-ul2's, which diffusers' convert_prx_to_diffusers.py
# saves with model_max_length 256 (the pipeline pads every prompt to it).
PRX_MAX_LENGTH = 256


def build_prx_tokenizer():
    tokenizer = build_gemma_tokenizer()
    tokenizer.model_max_length = PRX_MAX_LENGTH
    return tokenizer


def qwen_vocab_size() -> int:
    return len(qwen_vocabulary())


def glm_vocab_size() -> int:
    return len(glm_vocabulary())


def gemma_vocab_size() -> int:
    return len(gemma_vocabulary())


# Qwen3 (Z-Image's and Flux 2 Klein's text encoder): Qwen2's byte-level BPE, its think
# markers as added tokens, and the chat layout its template writes: `enable_thinking=False`
# closes an empty think block after the generation prompt, as Qwen3's own template does.
QWEN3_THINK = ["<think>", "</think>"]
QWEN3_CHAT_TEMPLATE = (
    "{%- for message in messages %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}"
    "{{- '<|im_start|>assistant\\n' }}"
    "{%- if enable_thinking is defined and enable_thinking is false %}"
    "{{- '<think>\\n\\n</think>\\n\\n' }}"
    "{%- endif %}"
    "{%- endif %}"
)


def build_qwen3_tokenizer():
    tokenizer = build_qwen2_tokenizer()
    tokenizer.add_tokens(QWEN3_THINK)
    tokenizer.chat_template = QWEN3_CHAT_TEMPLATE
    return tokenizer


def build_qwen3_vl_tokenizer():
    """Qwen3-VL's tokenizer alone (Ideogram 4's): Qwen3's, with the VL chat template,
    which reads a message's content as a list of typed parts."""
    tokenizer = build_qwen3_tokenizer()
    tokenizer.chat_template = QWEN_VL_CHAT_TEMPLATE
    return tokenizer


def qwen3_vocab_size() -> int:
    return qwen_vocab_size() + len(QWEN3_THINK)


# RoBERTa's specials where its checkpoints put them: <s> 0, <pad> 1, </s> 2, <unk> 3.
ROBERTA_SPECIALS = ["<s>", "<pad>", "</s>", "<unk>"]


def roberta_vocabulary() -> dict[str, int]:
    tokens = [*ROBERTA_SPECIALS, *byte_symbols(), "<mask>"]
    return {token: index for index, token in enumerate(tokens)}


def build_roberta_tokenizer():
    """RoBERTa's byte-level BPE (CLAP's text side: AudioLDM, MusicLDM), every byte a token."""
    from transformers import RobertaTokenizer

    return RobertaTokenizer(vocab=roberta_vocabulary(), merges=[], model_max_length=MAX_LENGTH)


def roberta_vocab_size() -> int:
    return len(roberta_vocabulary())


def build_byt5_tokenizer():
    """ByT5 reads bytes: its tokenizer has no vocabulary file to fake."""
    from transformers import ByT5Tokenizer

    return ByT5Tokenizer()


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


# BERT (HunyuanDiT's first text encoder, LDM's LDMBert): WordPiece, lower-cased; a word it
# lacks splits into letters, "##"-marked inside a word; Chinese characters, one a token,
# are [UNK] here.
BERT_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def bert_vocabulary() -> dict[str, int]:
    letters = dict.fromkeys(T5_CHARS.lower())
    pieces = [*BERT_SPECIALS, *T5_WORDS, *letters, *(f"##{c}" for c in letters)]
    return {piece: index for index, piece in enumerate(dict.fromkeys(pieces))}


def build_bert_tokenizer():
    from transformers import BertTokenizer

    return BertTokenizer(vocab=bert_vocabulary(), model_max_length=BERT_MAX_LENGTH)


BERT_MAX_LENGTH = 512


def bert_vocab_size() -> int:
    return len(bert_vocabulary())


# ChatGLM (Kolors' text encoder) reads a sentencepiece model file: written here as the
# protobuf sentencepiece itself saves, Unigram over the same pieces as T5's.
CHATGLM_SPECIALS = 5  # [MASK] [gMASK] [sMASK] sop eop, numbered after the pieces


def chatglm_pieces() -> list[tuple[str, float, int]]:
    """(piece, score, type): unk, the bos/eos controls, then T5's scored pieces."""
    unknown, normal, control = 2, 1, 3  # sentencepiece's ModelProto.SentencePiece.Type
    pieces = [("<unk>", 0.0, unknown), ("<s>", 0.0, control), ("</s>", 0.0, control)]
    scored = dict(reversed(t5_vocabulary()[3:]))  # a piece twice ("▁a"): its first score
    pieces += [(p, scored[p], normal) for p in dict.fromkeys(p for p, _ in t5_vocabulary()[3:])]
    return pieces


def build_chatglm_tokenizer():
    import tempfile

    from diffusers.pipelines.kolors.tokenizer import ChatGLMTokenizer
    from sentencepiece import sentencepiece_model_pb2 as spm

    model = spm.ModelProto()  # type: ignore[attr-defined]  # generated protobuf
    model.trainer_spec.model_type = spm.TrainerSpec.UNIGRAM  # type: ignore[attr-defined]
    model.trainer_spec.unk_id, model.trainer_spec.bos_id = 0, 1
    model.trainer_spec.eos_id, model.trainer_spec.pad_id = 2, -1
    model.normalizer_spec.name = "identity"
    model.normalizer_spec.add_dummy_prefix = True
    for piece, score, kind in chatglm_pieces():
        model.pieces.add(piece=piece, score=score, type=kind)
    # the tokenizer copies its model file when saved, so the file outlives this call,
    # and its folder goes with the tokenizer object
    folder = tempfile.mkdtemp(prefix="chatglm-vocab-")
    path = Path(folder) / "tokenizer.model"
    path.write_bytes(model.SerializeToString())
    tokenizer = ChatGLMTokenizer(str(path), model_max_length=LLM_MAX_LENGTH)
    weakref.finalize(tokenizer, shutil.rmtree, folder, ignore_errors=True)
    return tokenizer


def chatglm_vocab_size() -> int:
    return len(chatglm_pieces()) + CHATGLM_SPECIALS


# Llama (HunyuanVideo's text encoder): sentencepiece-style BPE with byte fallback, so any
# character outside the pieces still becomes its <0xNN> byte tokens.
LLAMA_SPECIALS = ["<unk>", "<s>", "</s>"]


def llama_vocabulary() -> dict[str, int]:
    pieces = [*LLAMA_SPECIALS, *(f"<0x{byte:02X}>" for byte in range(256)), "▁", *T5_CHARS]
    pieces += [f"▁{char}" for char in T5_CHARS]
    return {piece: index for index, piece in enumerate(dict.fromkeys(pieces))}


def build_llama_tokenizer():
    from transformers import LlamaTokenizer

    tokenizer = LlamaTokenizer(vocab=llama_vocabulary(), merges=[], model_max_length=LLM_MAX_LENGTH)
    tokenizer.pad_token = "<unk>"  # Llama ships no pad token; HunyuanVideo pads to max_length
    return tokenizer


def llama_vocab_size() -> int:
    return len(llama_vocabulary())


# Mistral's Tekken tokenizer (Mistral Small 3.1, Flux 2 dev's text encoder): byte-level BPE
# with its control tokens first, at the ids the real vocabulary gives them (the model's
# config names [IMG] = 10 and <pad> = 11); without merges every byte is a token.
MISTRAL_SPECIALS = [
    "<unk>",
    "<s>",
    "</s>",
    "[INST]",
    "[/INST]",
    "[AVAILABLE_TOOLS]",
    "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
    "[TOOL_CALLS]",
    "[IMG]",
    "<pad>",
    "[IMG_BREAK]",
    "[IMG_END]",
    "[PREFIX]",
    "[MIDDLE]",
    "[SUFFIX]",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
]
# Mistral Small 3.1's chat layout, the part prompts use: <s>, the system prompt between
# its markers, each user turn in [INST] ... [/INST], an image as [IMG] (the processor
# expands it into rows of patches), an assistant turn closed by </s>.
MISTRAL_CHAT_TEMPLATE = (
    "{{- bos_token }}"
    "{%- for message in messages %}"
    "{%- if message['content'] is string %}"
    "{%- set parts = [{'type': 'text', 'text': message['content']}] %}"
    "{%- else %}{%- set parts = message['content'] %}{%- endif %}"
    "{%- if message['role'] == 'system' %}{{- '[SYSTEM_PROMPT]' }}"
    "{%- elif message['role'] == 'user' %}{{- '[INST]' }}{%- endif %}"
    "{%- for part in parts %}"
    "{%- if part['type'] == 'image' %}{{- '[IMG]' }}{%- else %}{{- part['text'] }}{%- endif %}"
    "{%- endfor %}"
    "{%- if message['role'] == 'system' %}{{- '[/SYSTEM_PROMPT]' }}"
    "{%- elif message['role'] == 'user' %}{{- '[/INST]' }}{%- else %}{{- eos_token }}{%- endif %}"
    "{%- endfor %}"
)
# Pixtral's 14-pixel patches, merged 2x2 into one token as Mistral Small 3.1's are; at
# most 56 pixels a side (4 tokens) keeps the tiny vision tower cheap.
PIXTRAL_PATCH = 14
PIXTRAL_MERGE = 2
PIXTRAL_LONGEST_EDGE = 56


def mistral_vocabulary() -> dict[str, int]:
    tokens = [*MISTRAL_SPECIALS, *byte_symbols()]
    return {token: index for index, token in enumerate(tokens)}


def mistral_ids() -> dict[str, int]:
    """The ids Mistral 3's config must agree with: its image marker, bos, eos and pad."""
    vocab = mistral_vocabulary()
    return {
        "mistral_image": vocab["[IMG]"],
        "mistral_bos": vocab["<s>"],
        "mistral_eos": vocab["</s>"],
        "mistral_pad": vocab["<pad>"],
    }


def build_mistral_tokenizer():
    """Tekken converted for transformers: a plain PreTrainedTokenizerFast over byte-level BPE."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    backend = Tokenizer(models.BPE(vocab=mistral_vocabulary(), merges=[]))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    backend.add_special_tokens(MISTRAL_SPECIALS)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend,
        bos_token="<s>",
        eos_token="</s>",
        unk_token="<unk>",
        pad_token="<pad>",
        model_max_length=LLM_MAX_LENGTH,
    )
    tokenizer.chat_template = MISTRAL_CHAT_TEMPLATE
    return tokenizer


def build_pixtral_processor():
    """PixtralProcessor (Flux 2 dev's `tokenizer`): the Tekken tokenizer and Pixtral's image
    processor. transformers declares the processor itself to need torchvision: without it
    its own ImportError is what loading the real checkpoint's processor meets."""
    from transformers import PixtralImageProcessor, PixtralProcessor

    return PixtralProcessor(
        image_processor=PixtralImageProcessor(
            patch_size=PIXTRAL_PATCH, size={"longest_edge": PIXTRAL_LONGEST_EDGE}
        ),
        tokenizer=build_mistral_tokenizer(),
        patch_size=PIXTRAL_PATCH,
        spatial_merge_size=PIXTRAL_MERGE,
        chat_template=MISTRAL_CHAT_TEMPLATE,
    )


def mistral_vocab_size() -> int:
    return len(mistral_vocabulary())


# Llama 3's chat headers and Llava's image token (HunyuanVideo image-to-video): its prompt
# template expects <image> as the fifth token (after <|begin_of_text|>, the system header
# and a blank line) and finds the assistant's part by the <|end_header_id|> tokens, after
# truncating to 103 + 256 tokens. The template's words are whole pieces here, as in
# Llama 3's vocabulary, so it is about as many tokens as the real 103: each word after a
# space is merged from its first letter on, and so are the words that follow no space
# (the header names, a line's first word) and the blank line.
LLAMA3_SPECIALS = ["<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>", "<image>"]
LLAMA3_UNSPACED = ("system", "user", "assistant", "Describe", "\n\n")


# the words of that template (DEFAULT_PROMPT_TEMPLATE of pipeline_hunyuan_video_image2video;
# written out, since importing the pipeline to read them costs every plan seconds)
LLAMA3_TEMPLATE_WORDS = (
    "Actions Describe The according and angles aspects assistant atmosphere background "
    "behaviors by camera changes color content detailing environment events following image "
    "in light main movement movements objects of physical quantity reference relationships "
    "shape size spatial style system temporal text texture the theme to transitions used "
    "user video"
).split()


@functools.cache
def _llama3_pieces() -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The word pieces and the merges making them, in rank order: BPE applies the merges
    of a word-start chain before any header's, so no chain is cut by another."""
    pieces: list[str] = ["\n"]
    merges: list[tuple[str, str]] = []
    wholes = [f"▁{word}" for word in LLAMA3_TEMPLATE_WORDS] + list(LLAMA3_UNSPACED)
    for whole in wholes:
        for end in range(2, len(whole) + 1):
            if whole[:end] not in pieces:
                pieces.append(whole[:end])
                merges.append((whole[: end - 1], whole[end - 1]))
    return tuple(pieces), tuple(merges)


def llama3_vocabulary() -> dict[str, int]:
    pieces = [*llama_vocabulary(), *_llama3_pieces()[0], *LLAMA3_SPECIALS]
    return {piece: index for index, piece in enumerate(dict.fromkeys(pieces))}


def build_llama3_chat_tokenizer():
    from transformers import LlamaTokenizer

    vocab = llama3_vocabulary()
    merges = [pair for pair in _llama3_pieces()[1] if pair[0] in vocab and pair[1] in vocab]
    tokenizer = LlamaTokenizer(
        vocab=vocab, merges=merges, model_max_length=LLM_MAX_LENGTH, add_bos_token=True
    )
    tokenizer.add_special_tokens({"additional_special_tokens": LLAMA3_SPECIALS})
    tokenizer.pad_token = "<unk>"
    return tokenizer


def llama3_ids() -> dict[str, int]:
    vocab = llama3_vocabulary()
    return {"llama3_vocab": len(vocab), "llava_image": vocab["<image>"]}
