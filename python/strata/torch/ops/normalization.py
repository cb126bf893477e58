"""Normalizations: layer norm, inference batch norm and group norm, written
out as reductions (two-pass mean and variance, as PyTorch computes them)
and one normalizing elementwise generic."""

import torch

from . import NotLowered, lowering
from ...lowering import scalar as S
from ...lowering.helpers import cast_tensor, elementwise, reduce, reshape, sum_sq_dev

aten = torch.ops.aten


def _acc(elem):
    return "f32" if elem in ("bf16", "f16") else elem


def _moments(cx, x, dims, eps):
    """mean and 1/sqrt(var + eps) over dims (kept as size 1), biased."""
    e = _acc(x.elem)
    n = 1
    for d in dims:
        n *= x.shape[d]
    s = reduce(cx, x, dims, "add", e, keepdim=True)
    mean = elementwise(cx, [s], s.type, lambda r, v: S.binary(r, "div", v, r.const(n, e), e),
                       compute=e)
    sq = sum_sq_dev(cx, x, mean, dims, e)
    rstd = elementwise(cx, [sq], sq.type, lambda r, v: S.unary(
        r, "rsqrt", S.binary(r, "add", S.binary(r, "div", v, r.const(n, e), e),
                             r.const(eps, e), e), e), compute=e)
    return mean, rstd


def _normalize(cx, x, mean, rstd, weight, bias, affine_shape, out_type, layout=False):
    """(x - mean) * rstd * weight + bias; weight and bias (optional) are
    reshaped to affine_shape to broadcast against x."""
    e = _acc(x.elem)
    ins = [x, mean, rstd]
    if weight is not None:
        ins.append(reshape(cx.b, weight, affine_shape))
    if bias is not None:
        ins.append(reshape(cx.b, bias, affine_shape))

    def fn(r, v, m, rs, *wb):
        y = S.binary(r, "mul", S.binary(r, "sub", v, m, e), rs, e)
        wb = list(wb)
        if weight is not None:
            y = S.binary(r, "mul", y, wb.pop(0), e)
        if bias is not None:
            y = S.binary(r, "add", y, wb.pop(0), e)
        return y
    return elementwise(cx, ins, out_type, fn, compute=e, layout=layout)


@lowering(aten.native_layer_norm.default)
def native_layer_norm(cx, a):
    x = a.input
    k = len(a.normalized_shape)
    dims = list(range(x.rank - k, x.rank))
    mean, rstd = _moments(cx, x, dims, a.eps)
    out = _normalize(cx, x, mean, rstd, a.weight, a.bias, x.shape[x.rank - k:], cx.outs[0])
    return (out, cast_tensor(cx, mean, cx.outs[1].elem), cast_tensor(cx, rstd, cx.outs[2].elem))


@lowering(aten._native_batch_norm_legit_no_training.default, layouts=True)
def batch_norm_inference(cx, a):
    """Normalizes with the running statistics along channel dimension 1."""
    x = a.input
    e = _acc(x.elem)
    c = x.shape[1]
    bshape = [c] + [1] * (x.rank - 2)
    var = reshape(cx.b, a.running_var, bshape)
    rstd = elementwise(cx, [var], var.type.with_elem(e), lambda r, v: S.unary(
        r, "rsqrt", S.binary(r, "add", v, r.const(a.eps, e), e), e), compute=e)
    mean = reshape(cx.b, a.running_mean, bshape)
    out = _normalize(cx, x, mean, rstd, a.weight, a.bias, bshape, cx.outs[0], layout=True)
    stats = NotLowered("the saved statistics of an inference batch norm")
    return (out, stats, stats)


@lowering(aten._native_batch_norm_legit.default, aten.native_batch_norm.default,
          aten._native_batch_norm_legit_functional.default, layouts=True)
def batch_norm(cx, a):
    if getattr(a, "training", True):
        cx.unsupported("batch norm in training mode (call model.eval() before exporting)")
    return batch_norm_inference(cx, a)


@lowering(aten.native_group_norm.default)
def native_group_norm(cx, a):
    """Statistics per (sample, group) over the group's channels and the
    spatial positions; the affine transform per channel."""
    x = a.input
    n, c, g = x.shape[0], x.shape[1], a.group
    grouped = reshape(cx.b, x, [n, g, (c // g) * (x.type.numel // (n * c))])
    mean, rstd = _moments(cx, grouped, [2], a.eps)
    # Broadcast the [n, g, 1] statistics over [n, g, c/g, spatial...].
    spatial = list(x.shape[2:])
    xg = reshape(cx.b, x, [n, g, c // g] + spatial)
    stat_shape = [n, g, 1] + [1] * len(spatial)
    m = reshape(cx.b, mean, stat_shape)
    rs = reshape(cx.b, rstd, stat_shape)
    affine = [g, c // g] + [1] * len(spatial)
    out_t = cx.outs[0].with_shape(xg.shape)
    y = _normalize(cx, xg, m, rs, a.weight, a.bias, affine, out_t)
    y = reshape(cx.b, y, x.shape)
    return (y, cast_tensor(cx, reshape(cx.b, mean, cx.outs[1].shape), cx.outs[1].elem),
            cast_tensor(cx, reshape(cx.b, rstd, cx.outs[2].shape), cx.outs[2].elem))
