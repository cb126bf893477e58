"""Contractions: mm, bmm, addmm, baddbmm, mv, dot as linalg.matmul and
linalg.batch_matmul on a zero-filled accumulator, with the bias added by a
following elementwise generic (the epilogue Strata fuses into the matmul).
Low-precision operands accumulate in f32 and the result is rounded once."""

import torch

from . import lowering
from ...lowering import scalar as S
from ...lowering.helpers import elementwise, reshape
from ...lowering.ops import contract

aten = torch.ops.aten


def _finish(cx, prod, bias=None, beta=1, alpha=1):
    """alpha·prod + beta·bias (broadcast), cast to the result type; prod
    itself when there is nothing to add or round."""
    if bias is None and alpha == 1 and prod.type == cx.out:
        return prod
    e = prod.elem
    inputs = [prod] if bias is None else [prod, bias]

    def fn(r, p, *rest):
        if alpha != 1:
            p = S.binary(r, "mul", p, r.const(alpha, e), e)
        if rest:
            c = rest[0]
            if beta != 1:
                c = S.binary(r, "mul", c, r.const(beta, e), e)
            p = S.binary(r, "add", p, c, e)
        return p
    return elementwise(cx, inputs, cx.out, fn, compute=e)


@lowering(aten.mm.default)
def mm(cx, a):
    return _finish(cx, contract(cx, a.self, a.mat2))


def broadcast_matrix(b, v):
    """If v ([B, K, N]) is a [K, N] matrix broadcast along the batch (a
    linear layer applied to a non-contiguous 3-D input decomposes into an
    expand of the weight and a bmm), that matrix; else None."""
    k, n = v.shape[1:]
    src = b.view_source.get(v.name, v)
    base = b.broadcast_source.get(src.name)
    if base is None or base.type.numel != k * n:
        return None
    # The stretched dimensions must all precede the matrix's own.
    lead = src.rank - base.rank
    stretched = [lead + i for i in range(base.rank)
                 if base.shape[i] == 1 and src.shape[lead + i] != 1]
    batch = list(range(lead)) + stretched
    if batch != list(range(len(batch))):
        return None
    return reshape(b, base, [k, n])


@lowering(aten.bmm.default)
def bmm(cx, a):
    x, y = a.self, a.mat2
    w = broadcast_matrix(cx.b, y)
    if w is not None:
        bt, m, k = x.shape
        flat = contract(cx, reshape(cx.b, x, [bt * m, k]), w)
        return _finish(cx, reshape(cx.b, flat, [bt, m, w.shape[1]]))
    return _finish(cx, contract(cx, x, y))


@lowering(aten.addmm.default)
def addmm(cx, a):
    bias = a.self if a.beta != 0 else None
    return _finish(cx, contract(cx, a.mat1, a.mat2), bias, a.beta, a.alpha)


@lowering(aten.baddbmm.default)
def baddbmm(cx, a):
    bias = a.self if a.beta != 0 else None
    return _finish(cx, contract(cx, a.batch1, a.batch2), bias, a.beta, a.alpha)


@lowering(aten.mv.default)
def mv(cx, a):
    v = reshape(cx.b, a.vec, [a.vec.shape[0], 1])
    p = contract(cx, a.self, v)
    return _finish(cx, reshape(cx.b, p, cx.out.shape))


@lowering(aten.dot.default)
def dot(cx, a):
    x = reshape(cx.b, a.self, [1, a.self.shape[0]])
    y = reshape(cx.b, a.tensor, [a.tensor.shape[0], 1])
    return _finish(cx, reshape(cx.b, contract(cx, x, y), []))
