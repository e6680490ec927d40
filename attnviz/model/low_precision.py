"""A trained model's weights stored below fp32 for decoding.

Decoding one sentence is bound by reading weights: each step reads the decoder's GRU and
output layer (V x H, the largest), to make one token. "int8" (CPU only) stores the GRUs,
encoder and decoder, and the output layer in a quarter of fp32's bytes: over 90% of the
weights a step reads. The small attention and deep-output matrices, the embeddings, the GRU
gates and the attention softmax stay fp32. "bf16" halves the output layer's bytes, and
"int8-output" (CPU only) quarters them, the rest fp32. Which is fastest depends on the machine
(fbgemm's int8 kernels, native bf16, a GPU): :mod:`attnviz.tuning.decoding_precision` measures it.

The precisions of :data:`EXACT_ATTENTION` store the output layer alone below fp32. The GRUs
and the attention layer, which make the attention weights, stay fp32, so for a given output
the weights are fp32's to the last bit; only the probabilities of the next token move (by up
to about a hundredth), and with them, where two tokens nearly tie, the token chosen.
"""

from __future__ import annotations

import warnings
from typing import TypeVar

import torch
from torch import nn

from .precision import Precision
from .tying import TiedOutput

M = TypeVar("M", bound=nn.Module)  # the model for_decoding is given, and returns

# how for_decoding may store weights
PRECISIONS = (Precision.FP32, Precision.BF16, Precision.INT8, Precision.INT8_OUTPUT)
# the output layer alone below fp32
EXACT_ATTENTION = (Precision.FP32, Precision.BF16, Precision.INT8_OUTPUT)


class Bf16Linear(nn.Module):
    """A frozen copy of a Linear with bf16 weights; fp32 in, fp32 out."""

    weight: torch.Tensor  # (out, in) bf16, a buffer
    bias: torch.Tensor  # (out,) fp32, a buffer

    def __init__(self, linear: nn.Module):
        super().__init__()
        weight, bias = linear.get_parameter("weight"), linear.get_parameter("bias")
        self.register_buffer("weight", weight.detach().to(torch.bfloat16))
        self.register_buffer("bias", bias.detach().float())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.linear(x.to(torch.bfloat16), self.weight).float() + self.bias


def _int8(model: nn.Module, output_only: bool = False) -> nn.Module:
    """The GRUs and the output layer of ``model`` (the output layer alone with
    ``output_only``) as PyTorch's dynamically quantized modules, in place: int8 weights (one
    scale per output row for the output layer), the inputs of each product quantized to 8 bits
    on the fly, products in int8 (fbgemm), the GRU's time loop in C++. For a batch of rows
    (beam search, corpora) the product still reads the weights once.

    ``torch.ao.quantization`` is deprecated in favour of torchao, which has no recurrent layers;
    it is the only int8 GRU in PyTorch, and requirements.txt pins the torch it ships with.
    """
    from torch.ao.quantization import (
        default_dynamic_qconfig,
        per_channel_dynamic_qconfig,
        quantize_dynamic,
    )

    spec = {"decoder.generator": per_channel_dynamic_qconfig}
    if not output_only:
        spec |= {"encoder.rnn": default_dynamic_qconfig, "decoder.rnn": default_dynamic_qconfig}
    with warnings.catch_warnings():  # the deprecation notices, above
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.filterwarnings("ignore", "torch.quantize_per_tensor", UserWarning)
        return quantize_dynamic(model, spec, dtype=torch.qint8, inplace=True)


def for_decoding(model: M, precision: Precision) -> M:
    """``model`` (fp32, in eval mode, on its device) stored for decoding at ``precision``, in
    place: "bf16" stores the output layer in bf16; "int8" (CPU only) the GRUs and the output
    layer in int8; "int8-output" (CPU only) the output layer in int8."""
    precision = Precision.among(precision, PRECISIONS, "decoding precision")
    _drop_dropout(model)
    decoder = model.get_submodule("decoder")
    generator = decoder.get_submodule("generator")
    if precision != Precision.FP32 and isinstance(generator, TiedOutput):  # tied embeddings:
        decoder.generator = generator = generator.untied()  # decoding stores its own copy
    if precision == Precision.BF16:
        if isinstance(generator, nn.Sequential):
            generator[-1] = Bf16Linear(generator[-1])
        else:
            decoder.generator = Bf16Linear(generator)
    elif precision in (Precision.INT8, Precision.INT8_OUTPUT):
        if next(model.parameters()).device.type != "cpu":
            raise ValueError("int8 decoding runs on the CPU only; use bf16 or fp32 on a GPU")
        _int8(model, output_only=precision == Precision.INT8_OUTPUT)
    return model


def _drop_dropout(module: nn.Module) -> None:
    """Replace every Dropout inside ``module`` by an Identity, in place: in eval mode they are
    the same function, and an Identity is cheaper to call."""
    for name, child in module.named_children():
        if isinstance(child, nn.Dropout):
            setattr(module, name, nn.Identity())
        else:
            _drop_dropout(child)
