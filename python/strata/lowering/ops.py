"""Operations that the front ends emit the same way, whatever framework
they come from: contractions as linalg.matmul / linalg.batch_matmul,
convolutions and pooling as the channels-last named ops, and gathers as a
linalg.generic reading a table with tensor.extract.

Low-precision (bf16, f16) operands accumulate in f32 (`acc_elem`); the
caller rounds the result once, usually in the elementwise epilogue that
follows."""

from ..mlir_builder import identity_map
from . import scalar as S
from .helpers import reshape, transpose


def acc_elem(elem):
    """The element type a contraction or a sum of `elem` accumulates in."""
    return "f32" if elem in ("bf16", "f16") else elem


def contract(cx, x, y):
    """x @ y for [M,K]x[K,N] (linalg.matmul) or [B,M,K]x[B,K,N]
    (linalg.batch_matmul); the result in the accumulator type."""
    if x.elem != y.elem:
        cx.unsupported(f"matmul of {x.elem} and {y.elem} operands")
    if x.elem.startswith("i"):
        cx.unsupported("integer matmul")
    shape = x.shape[:-1] + y.shape[-1:]
    out_t = x.type.with_shape(shape).with_elem(acc_elem(x.elem))
    acc = cx.b.fill(0.0, out_t)
    name = "linalg.matmul" if x.rank == 2 else "linalg.batch_matmul"
    return cx.b.op(f"{{r}} = {name} ins({x.name}, {y.name} : {x.type}, {y.type})"
                   f" outs({acc.name} : {out_t}) -> {out_t}", out_t, "mm")


def window_attrs(strides, dilations):
    """The strides and dilations attribute of a 2-D convolution or pooling."""
    j = lambda xs: ", ".join(map(str, xs))  # noqa: E731
    return (f"{{dilations = dense<[{j(dilations)}]> : tensor<2xi64>, "
            f"strides = dense<[{j(strides)}]> : tensor<2xi64>}}")


def conv2d_nhwc(cx, xp, w, groups, stride, dilation):
    """The 2-D convolution of xp (NHWC, padded) by w (HWCF: [KH, KW, C /
    groups, F]) as a named op: conv_2d_nhwc_hwcf, depthwise_conv_2d_nhwc_hwc
    (one filter per channel), else conv_2d_nhwgc_gfhwc. Returns the [N, OH,
    OW, F] result in the accumulator type; stride and dilation are [H, W]."""
    b = cx.b
    if xp.elem != w.elem or xp.elem.startswith("i"):
        cx.unsupported(f"convolution of {xp.elem} by {w.elem}")
    n, h, wd, c = xp.shape
    kh, kw, cg, f = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    acc_t = xp.type.with_shape([n, oh, ow, f]).with_elem(acc_elem(xp.elem))
    g = groups
    if g == 1:
        named, xin, win, acc_shape = "conv_2d_nhwc_hwcf", xp, w, acc_t.shape
    elif g == c and f == c:
        named, xin, acc_shape = "depthwise_conv_2d_nhwc_hwc", xp, acc_t.shape
        win = reshape(b, w, [kh, kw, c])
    else:
        named = "conv_2d_nhwgc_gfhwc"
        xin = reshape(b, xp, [n, h, wd, g, c // g])
        grouped = reshape(b, w, [kh, kw, cg, g, f // g])
        win = transpose(b, grouped, [3, 4, 0, 1, 2])                # -> G F/G KH KW C/G
        acc_shape = [n, oh, ow, g, f // g]
    acc = b.fill(0.0, acc_t.with_shape(acc_shape))
    y = b.op(f"{{r}} = linalg.{named} {window_attrs(stride, dilation)}"
             f" ins({xin.name}, {win.name} : {xin.type}, {win.type})"
             f" outs({acc.name} : {acc.type}) -> {acc.type}", acc.type, "conv")
    return reshape(b, y, acc_t.shape)


def pool_nhwc(b, kind, xp, window, stride, dilation, out_hw, init):
    """linalg.pooling_nhwc_{max,sum} of xp (NHWC, padded) over a window of
    [KH, KW], the accumulator filled with init; returns [N, OH, OW, C]."""
    n, c = xp.shape[0], xp.shape[3]
    out_t = xp.type.with_shape([n] + list(out_hw) + [c])
    acc = b.fill(init, out_t)
    shape = b.empty(xp.type.with_shape(window))
    return b.op(f"{{r}} = linalg.pooling_nhwc_{kind} {window_attrs(stride, dilation)}"
                f" ins({xp.name}, {shape.name} : {xp.type}, {shape.type})"
                f" outs({acc.name} : {out_t}) -> {out_t}", out_t, "pool")


def wrap_index(r, idx, size, elem):
    """An index scalar (any int type) as `index`, negative ones wrapped
    (counted from the end, as PyTorch and NumPy do)."""
    if elem != "i64":
        idx = S.cast(r, idx, elem, "i64")
    neg = S.compare(r, "lt", idx, r.const(0, "i64"), "i64")
    wrapped = S.binary(r, "add", idx, r.const(size, "i64"), "i64")
    return S.to_index(r, S.select(r, neg, wrapped, idx, "i64"), "i64")


def gather_at(cx, table, positions, index_inputs, post=None):
    """The result tensor cx.out, element (i...) = table[positions(i...)].
    index_inputs: [(Value, map)] read per element; positions(region,
    loaded index scalars) returns one `index` per table dimension;
    post(region, loaded, element), when given, maps the element read (a
    fill value for indices out of bounds)."""
    b = cx.b
    out = cx.out
    init = b.empty(out)

    def body(r, *args):
        idx = list(args[:-1])
        pos = positions(r, idx)
        v = r.raw(f"{{r}} = tensor.extract {table.name}[{', '.join(pos)}] : {table.type}")
        return v if post is None else post(r, idx, v)
    return b.generic(index_inputs, [(init, identity_map(out.rank))], ["parallel"] * out.rank,
                     body, "gather")[0]
