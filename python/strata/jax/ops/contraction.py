"""Contractions and convolutions: dot_general as linalg.matmul /
linalg.batch_matmul, conv_general_dilated as the channels-last named
convolutions.

dot_general with any batch and contracting dimensions: each operand is
permuted to [batch, free, contracting] (or [batch, contracting, free]) and
collapsed to the 2-D or 3-D form of the named op, and the product expanded
back. Of the two ways to write the product, C = A·B and Cᵀ = Bᵀ·Aᵀ, the one
that moves less data wins: permutations that only move size-1 dimensions
are reshapes, and an argument is passed permuted by the caller. The second
way returns the result in a permuted layout (a Laid value), which the
transposes JAX writes after it compose with (the attention's P·V, which
JAX traces as Vᵀ·Pᵀ, is the product of P as it is).

conv_general_dilated in any dimension order (NHWC/HWIO as Flax writes it,
NCHW/OIHW as lax's default): the input is read NHWC and the filter HWCF
(arguments are passed so by the caller, a channels-last value is read as
computed), the result is NHWC and keeps that layout for what follows when
the output order is another. 1-D convolutions run as 2-D ones of height 1.
"""

import math

from ...lowering.helpers import cast_tensor, reshape
from ...lowering.ops import acc_elem, contract, conv2d_nhwc
from ...mlir_builder import Laid
from . import lowering
from .shape import pad_general, permute, unit_moves


def _moves(b, v, perm):
    """The number of elements a permutation of v moves (0 when it only
    moves size-1 dimensions, or undoes a transpose of its source)."""
    if isinstance(v, Laid):
        inv = [0] * len(v.perm)
        for i, p in enumerate(v.perm):
            inv[p] = i
        src, perm = v.phys, [inv[p] for p in perm]
    elif v.name in b.transpose_source:
        src, first = b.transpose_source[v.name]
        perm = [first[p] for p in perm]
    else:
        src = v
    return 0 if unit_moves(src.shape, perm) else src.type.numel


def _operand(b, v, order, groups):
    """v permuted to `order`, then one dimension per group of consecutive
    dimensions of the given lengths (batch, rows, columns; an empty group
    is a dimension of 1): the named op's 2-D or 3-D operand."""
    v = permute(b, v, order)
    shape, k = [], 0
    for n in groups:
        shape.append(math.prod(v.shape[k:k + n]))
        k += n
    return reshape(b, v, shape)


@lowering("dot_general", layouts=True)
def dot_general(cx, x, y, dimension_numbers, **_):
    b = cx.b
    x, y = cx.tensor(x, 0), cx.tensor(y, 1)
    (lc, rc), (lb, rb) = [[list(map(int, d)) for d in pair] for pair in dimension_numbers]
    lf = [d for d in range(x.rank) if d not in lc and d not in lb]
    rf = [d for d in range(y.rank) if d not in rc and d not in rb]
    if x.elem != y.elem:
        e = acc_elem(cx.out.elem)
        x, y = cast_tensor(cx, x, e, layout=True), cast_tensor(cx, y, e, layout=True)
    if x.elem.startswith("i"):
        cx.unsupported("an integer dot_general")
    nb, nm, nn = len(lb), len(lf), len(rf)
    batch = [x.shape[d] for d in lb]
    # C = A·B: A [batch, M, K], B [batch, K, N]; or Cᵀ = Bᵀ·Aᵀ.
    direct = _moves(b, x, lb + lf + lc) + _moves(b, y, rb + rc + rf)
    swapped = _moves(b, y, rb + rf + rc) + _moves(b, x, lb + lc + lf)
    lead = [nb] if nb else []
    if direct <= swapped:
        a = _operand(b, x, lb + lf + lc, lead + [nm, len(lc)])
        c = _operand(b, y, rb + rc + rf, lead + [len(rc), nn])
        rows, cols, perm = lf, rf, None
    else:
        a = _operand(b, y, rb + rf + rc, lead + [nn, len(rc)])
        c = _operand(b, x, lb + lc + lf, lead + [len(lc), nm])
        rows, cols = rf, lf
        # Physical [batch, N..., M...] holds logical [batch, M..., N...].
        perm = tuple(range(nb)) + tuple(nb + nm + j for j in range(nn)) + \
            tuple(nb + i for i in range(nm))
    prod = contract(cx, a, c)
    src_rows = x if perm is None else y
    src_cols = y if perm is None else x
    shape = batch + [src_rows.shape[d] for d in rows] + [src_cols.shape[d] for d in cols]
    out = reshape(b, prod, shape)
    if perm is not None and perm != tuple(range(len(perm))):
        out = Laid(out, perm)
    return cast_tensor(cx, out, cx.out.elem, layout=True)


@lowering("conv_general_dilated", layouts=True)
def conv_general_dilated(cx, x, w, window_strides, padding, lhs_dilation, rhs_dilation,
                         dimension_numbers, feature_group_count=1, batch_group_count=1, **_):
    b = cx.b
    x, w = cx.tensor(x, 0), cx.tensor(w, 1)
    nsp = len(window_strides)
    if nsp not in (1, 2):
        cx.unsupported(f"a {nsp}-D convolution")
    if batch_group_count != 1:
        cx.unsupported("batch_group_count > 1")
    ls, rs, os_ = (list(map(int, s)) for s in (dimension_numbers.lhs_spec,
                                                dimension_numbers.rhs_spec,
                                                dimension_numbers.out_spec))
    xn = permute(b, x, [ls[0]] + ls[2:] + [ls[1]])           # N spatial... C
    wn = permute(b, w, rs[2:] + [rs[1], rs[0]])              # spatial... C F
    strides, dil, lhs_dil = list(window_strides), list(rhs_dilation), list(lhs_dilation)
    pads = [tuple(p) for p in padding]
    if nsp == 1:
        xn = reshape(b, xn, [xn.shape[0], 1] + list(xn.shape[1:]))
        wn = reshape(b, wn, [1] + list(wn.shape))
        strides, dil, lhs_dil, pads = [1] + strides, [1] + dil, [1] + lhs_dil, [(0, 0)] + pads
    xp = pad_general(cx, xn, [0] + [p[0] for p in pads] + [0],
                     [0] + [p[1] for p in pads] + [0], [0] + [d - 1 for d in lhs_dil] + [0], 0.0)
    y = conv2d_nhwc(cx, xp, wn, feature_group_count, strides, dil)
    if nsp == 1:
        y = reshape(b, y, [y.shape[0], y.shape[2], y.shape[3]])
    perm = tuple([os_[0]] + os_[2:] + [os_[1]])
    if perm != tuple(range(len(perm))):
        y = Laid(y, perm)
    return cast_tensor(cx, y, cx.out.elem, layout=True)
