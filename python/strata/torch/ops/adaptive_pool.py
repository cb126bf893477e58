"""Adaptive pooling: output cell i of an extent In pooled to Out covers
the input range [floor(i·In/Out), ceil((i+1)·In/Out)).

When every extent is a multiple of its output's, the windows are uniform
and the operator is a plain strided pooling (linalg.pooling_nhwc_sum).
Otherwise the windows differ in size and overlap; the pooling is then
separable (the mean or maximum over a rectangle is that over its rows of
that over its columns) and runs as two linalg.generic reductions, over H
then over W, whose bodies keep the elements inside the cell's window
(computed from linalg.index) and, for the mean, scale them by 1 / window
size. Each costs Out x In per position: cheap for the small feature maps
classifier heads pool (2x2 -> 7x7, 13x13 -> 6x6).
"""

import torch

from ...mlir_builder import Laid, affine_map
from . import NotLowered, lowering
from ...lowering import scalar as S
from .conv import NHWC, _acc, _as_4d, _divide, _pair, _pool, nhwc_padded
from ...lowering.helpers import cast_tensor, reshape

aten = torch.ops.aten


def _window(r, i, size, out):
    """(start, end) of output cell i (an index scalar) as index scalars."""
    idx = "index"
    start = S.binary(r, "div", S.binary(r, "mul", i, r.const(size, idx), idx),
                     r.const(out, idx), idx)
    i1 = S.binary(r, "add", i, r.const(1, idx), idx)
    end = S.binary(r, "div", S.binary(r, "add", S.binary(r, "mul", i1, r.const(size, idx), idx),
                                      r.const(out - 1, idx), idx), r.const(out, idx), idx)
    return start, end


def _pool_axis(cx, x, axis, out, kind):
    """x (NHWC Value) pooled along physical axis 1 (H) or 2 (W) to `out`
    cells: a generic over the result's dims plus one reduction dim that
    runs over the input extent."""
    b = cx.b
    size = x.shape[axis]
    e = _acc(x.elem)
    shape = list(x.shape)
    shape[axis] = out
    out_t = x.type.with_shape(shape).with_elem(e)
    init = b.fill(float("-inf") if kind == "max" else 0.0, out_t)
    red = 4  # loop dims: n, h, w, c, then the input position along `axis`
    read = [red if d == axis else d for d in range(4)]

    def body(r, v, acc):
        v = S.cast(r, v, x.elem, e)
        i, k = r.index(axis), r.index(red)
        start, end = _window(r, i, size, out)
        inside = S.binary(r, "and", S.compare(r, "ge", k, start, "index"),
                          S.compare(r, "lt", k, end, "index"), "i1")
        if kind == "max":
            return S.select(r, inside, S.binary(r, "max", acc, v, e), acc, e)
        count = S.binary(r, "sub", end, start, "index")
        count = S.cast(r, r.op("arith.index_cast", [count], None,
                                operand_types="index to i64"), "i64", e)
        v = S.binary(r, "div", v, count, e)
        return S.select(r, inside, S.binary(r, "add", acc, v, e), acc, e)

    return b.generic([(x, affine_map(5, read))], [(init, affine_map(5, range(4)))],
                     ["parallel"] * 4 + ["reduction"], body, "apool")[0]


def _adaptive(cx, x, output_size, kind):
    """x (logical [N, C, H, W] or [C, H, W]) adaptively pooled; a Laid
    NHWC result of the output's logical shape."""
    x = _as_4d(cx, x)
    oh, ow = [o if o is not None else x.shape[2 + k] for k, o in enumerate(_pair(output_size))]
    h, w = x.shape[2], x.shape[3]
    if h % oh == 0 and w % ow == 0:
        kernel = [h // oh, w // ow]
        fill = float("-inf") if kind == "max" else 0.0
        s = _pool(cx, x, "max" if kind == "max" else "sum", kernel, kernel, [0, 0], [1, 1],
                  [oh, ow], fill)
        if kind == "max":
            return s
        return _divide(cx, s, float(kernel[0] * kernel[1]), s.shape)
    y = nhwc_padded(cx.b, x, [0, 0], [0, 0], 0.0)
    if oh != h:
        y = _pool_axis(cx, y, 1, oh, kind)
    if ow != w:
        y = _pool_axis(cx, y, 2, ow, kind)
    return Laid(y, NHWC)


def _result(cx, y, out_t):
    if y.elem != out_t.elem:
        y = cast_tensor(cx, y, out_t.elem, layout=True)
    return reshape(cx.b, y, out_t.shape)


@lowering(aten._adaptive_avg_pool2d.default, aten.adaptive_avg_pool2d.default, layouts=True)
def adaptive_avg_pool2d(cx, a):
    return _result(cx, _adaptive(cx, a.self, a.output_size, "avg"), cx.out)


@lowering(aten.adaptive_max_pool2d.default, layouts=True)
def adaptive_max_pool2d(cx, a):
    if a.self.elem.startswith("i"):
        cx.unsupported("max pooling of integers")
    y = _result(cx, _adaptive(cx, a.self, a.output_size, "max"), cx.outs[0])
    return (y, NotLowered("the indices of adaptive_max_pool2d"))
