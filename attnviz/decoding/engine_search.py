"""A Transformer's greedy search run by CTranslate2, an inference engine made for small-batch
Transformer decoding; the attention over the words it finds is then the trained model's own,
drawn in torch by one teacher-forced pass (:func:`attnviz.decoding.decode.forced_at_once`).

In torch a greedy step of the shipped Transformer is about 18 matrix products of 256-wide
vectors and 60 small operations, each dispatched from Python: the step is bound by dispatch,
not by arithmetic. CTranslate2 runs the same network in C++ with its own kernels and caches,
which torch's teacher-forced pass then follows over the words found, all positions at once.

The model is handed over as CTranslate2's Python specification of a pre-norm encoder-decoder
(``TransformerSpec``): the same weights, the sinusoidal positions given as a table (attnviz
interleaves sine and cosine), torch's LayerNorm epsilon, the token embeddings scaled by sqrt(D),
and the vocabularies with attnviz's special tokens. Nothing is read from a file but what it
writes itself, in a temporary folder removed once the engine has loaded it.
"""

from __future__ import annotations

import tempfile
import threading
from typing import cast

import ctranslate2
import numpy as np
import torch
from ctranslate2.specs import transformer_spec
from torch.ao.nn.quantized.dynamic import Linear as QuantizedLinear

from ..data.vocab import BOS, EOS, PAD, PAD_ID, UNK, Vocab
from ..model.low_precision import Bf16Linear
from ..model.precision import Precision
from ..model.transformer import Transformer
from . import decode

# How each attnviz precision runs in the engine: fp32 as trained; below fp32 in int8, whose
# words the trained model's attention is then drawn over (the forced pass keeps the model's own
# precision).
ENGINE_TYPES = {Precision.FP32: "float32"}
LOW = "int8"


def _array(t: torch.Tensor) -> np.ndarray:
    """A copy: the engine's conversion writes into the arrays it is given (quantizing them),
    and a view would change the torch model's own weights."""
    return t.detach().float().cpu().numpy().copy()


def _linear(spec, module: torch.nn.Module) -> None:
    """A Linear's weight and bias, or the output layer's below fp32 as it computes with them
    (bf16, or int8 in torch's quantized Linear, whose weight and bias are methods)."""
    if isinstance(module, QuantizedLinear):
        weight, bias = module.weight().dequantize(), module.bias()
    elif isinstance(module, (torch.nn.Linear, Bf16Linear)):
        weight, bias = module.weight, module.bias
    else:
        raise TypeError(f"not a linear layer: {type(module).__name__}")
    spec.weight, spec.bias = _array(weight), _array(bias)


def _norm(spec, module: torch.nn.LayerNorm) -> None:
    spec.gamma, spec.beta = _array(module.weight), _array(module.bias)


def transformer_spec_of(model: Transformer, src: Vocab, tgt: Vocab):
    """CTranslate2's specification of ``model`` (fp32 weights; tied matrices given to each
    place that reads them)."""
    c = model.config
    spec = transformer_spec.TransformerSpec.from_config(c.layers, c.heads, pre_norm=True)
    encoder, decoder = model.encoder, model.decoder
    positions = _array(encoder.embedding.positions)
    spec.encoder.embeddings[0].weight = _array(encoder.embedding.embed.weight)
    spec.encoder.position_encodings.encodings = positions
    _norm(spec.encoder.layer_norm, encoder.norm)
    encoder_layers = cast("list[torch.nn.TransformerEncoderLayer]", list(encoder.layers.layers))
    for layer_spec, layer in zip(spec.encoder.layer, encoder_layers, strict=True):
        attention = layer_spec.self_attention
        attention.linear[0].weight = _array(layer.self_attn.in_proj_weight)  # q, k, v stacked
        attention.linear[0].bias = _array(layer.self_attn.in_proj_bias)
        _linear(attention.linear[1], layer.self_attn.out_proj)
        _norm(attention.layer_norm, layer.norm1)
        _linear(layer_spec.ffn.linear_0, layer.linear1)
        _linear(layer_spec.ffn.linear_1, layer.linear2)
        _norm(layer_spec.ffn.layer_norm, layer.norm2)
    spec.decoder.embeddings.weight = _array(decoder.embedding.embed.weight)
    spec.decoder.position_encodings.encodings = positions
    _norm(spec.decoder.layer_norm, decoder.norm)
    _linear(spec.decoder.projection, decoder.generator)
    for layer_spec, decoder_layer in zip(spec.decoder.layer, decoder.stack, strict=True):
        _linear(layer_spec.self_attention.linear[0], decoder_layer.self_qkv)  # q, k, v stacked
        _linear(layer_spec.self_attention.linear[1], decoder_layer.self_out)
        _norm(layer_spec.self_attention.layer_norm, decoder_layer.norm_self)
        _linear(layer_spec.attention.linear[0], decoder_layer.cross_q)
        _linear(layer_spec.attention.linear[1], decoder_layer.cross_kv)  # k, v stacked
        _linear(layer_spec.attention.linear[2], decoder_layer.cross_out)
        _norm(layer_spec.attention.layer_norm, decoder_layer.norm_cross)
        _linear(layer_spec.ffn.linear_0, decoder_layer.ff[0])
        _linear(layer_spec.ffn.linear_1, decoder_layer.ff[3])
        _norm(layer_spec.ffn.layer_norm, decoder_layer.norm_ff)
    spec.config.unk_token, spec.config.bos_token, spec.config.eos_token = UNK, BOS, EOS
    spec.config.decoder_start_token = BOS
    spec.config.layer_norm_epsilon = encoder.norm.eps
    spec.register_source_vocabulary(list(src.itos))
    spec.register_target_vocabulary(list(tgt.itos))
    return spec


class EngineSearch:
    """Greedy search of one Translator's Transformer in CTranslate2, on this process's torch
    threads, with the Trace's numbers from the trained model over the words found."""

    def __init__(self, translator):
        model, tgt = translator.model, translator.tgt_vocab
        spec = transformer_spec_of(model, translator.src_vocab, tgt)
        kind = ENGINE_TYPES.get(translator.precision, LOW)
        spec.validate()
        spec.optimize(quantization=None if kind == "float32" else kind)
        with tempfile.TemporaryDirectory(prefix="attnviz-engine-") as folder:
            spec.save(folder)
            self._engine = ctranslate2.Translator(
                folder, device="cpu", compute_type=kind,
                intra_threads=torch.get_num_threads(), inter_threads=1,
            )  # fmt: skip
        self._model, self._tgt = model, tgt

    def words(self, pieces: list[str], limit: int) -> list[int]:
        """The ids the greedy search writes for the source ``pieces`` (``<eos>`` last), at
        most ``limit``, ending in ``<eos>`` unless the limit ended the search."""
        [result] = self._engine.translate_batch(
            [pieces], beam_size=1, max_decoding_length=limit, return_end_token=True,
            suppress_sequences=[[PAD], [BOS]],  # never produced (decode.NEVER)
        )  # fmt: skip
        return [self._tgt.stoi[token] for token in result.hypotheses[0]]

    def greedy(
        self, pieces: list[list[str]], src: torch.Tensor, src_lens: torch.Tensor,
        limits: torch.Tensor, topk: int,
    ) -> list[decode.Decoded]:  # fmt: skip
        """:func:`attnviz.decoding.decode.greedy` of the sources ``pieces`` (batched in ``src``,
        ``src_lens``): the words found here one sentence at a time, then every step's numbers
        and heads over them in one teacher-forced pass of the trained model."""
        found = [
            self.words([*p, EOS], limit) for p, limit in zip(pieces, limits.tolist(), strict=True)
        ]
        longest = max(len(ids) for ids in found)
        tgt = torch.tensor([ids + [PAD_ID] * (longest - len(ids)) for ids in found])
        return decode.forced_at_once(self._model, src, src_lens, tgt.to(src.device), topk)


_making = threading.Lock()


def of(translator) -> EngineSearch:
    """``translator``'s search in the engine, made at its first use and kept on it."""
    with _making:
        if translator.engine is None:
            translator.engine = EngineSearch(translator)
        return translator.engine
