"""Tensors made from scalars (full, zeros, scalar_tensor, arange) and
conversions between element types (_to_copy, copy)."""

import torch

from . import lowering
from ...lowering import scalar as S
from ...lowering.helpers import broadcast_to, cast_tensor

aten = torch.ops.aten


@lowering(aten.full.default, aten.full_like.default, aten.new_full.default,
          aten.scalar_tensor.default, aten.fill.Scalar)
def full(cx, a):
    value = getattr(a, "fill_value", None)
    if value is None:
        value = getattr(a, "s", None)
    if value is None:
        value = a.value
    return cx.b.fill(value, cx.out)


@lowering(aten.zeros.default, aten.zeros_like.default, aten.new_zeros.default,
          aten.empty.memory_format, aten.empty_like.default, aten.new_empty.default,
          aten.empty_strided.default, aten.new_empty_strided.default)
def zeros(cx, a):
    # An empty tensor's contents are unspecified; zeros are one choice.
    return cx.b.fill(0, cx.out)


@lowering(aten.ones.default, aten.ones_like.default, aten.new_ones.default)
def ones(cx, a):
    return cx.b.fill(1, cx.out)


@lowering(aten.fill.Tensor)
def fill_tensor(cx, a):
    return broadcast_to(cx, cast_tensor(cx, a.value, cx.out.elem), cx.out.shape)


@lowering(aten.arange.default, aten.arange.start, aten.arange.start_step)
def arange(cx, a):
    """start + i·step for each index i of the 1-D result."""
    start = getattr(a, "start", 0) or 0
    step = getattr(a, "step", 1) or 1
    e = cx.out.elem
    compute = "f32" if e in ("bf16", "f16") else e
    init = cx.b.empty(cx.out)

    def body(r, out):
        i = S.cast(r, r.op("arith.index_cast", [r.index(0)], None, operand_types="index to i64"),
                   "i64", compute)
        v = S.binary(r, "add", r.const(start, compute),
                     S.binary(r, "mul", i, r.const(step, compute), compute), compute)
        return S.cast(r, v, compute, e)
    return cx.b.generic([], [(init, "affine_map<(d0) -> (d0)>")], ["parallel"], body, "arange")[0]


@lowering(aten._to_copy.default, aten.to.dtype, aten.to.dtype_layout,
          "_to_dim_order_copy.default")
def to_copy(cx, a):
    return cast_tensor(cx, a.self, cx.out.elem)


@lowering(aten.copy.default)
def copy(cx, a):
    """copy(self, src): src broadcast to self's shape, in self's type."""
    return broadcast_to(cx, cast_tensor(cx, a.src, cx.out.elem), cx.out.shape)
