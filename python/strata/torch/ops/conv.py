"""Convolutions and pooling in channels-last form.

PyTorch's activations are NCHW. The operators are emitted as the NHWC
named ops (linalg.conv_2d_nhwc_hwcf, depthwise_conv_2d_nhwc_hwc,
conv_2d_nhwgc_gfhwc, pooling_nhwc_max/sum): Strata vectorizes along the
innermost dimension, where the channels then are, and the NCHW forms run two
to three orders of magnitude slower. Results stay channels-last (a Laid
value with layout NHWC) through the pointwise operators, batch norms and
reductions that follow, so a network transposes its activations once on the
way in and once where a layout-sensitive operator needs NCHW. Filters are
parameters, which the caller passes already in HWCF order. 1-D operators run
as 2-D ones of height 1.
"""

import torch

from ...mlir_builder import Laid
from . import NotLowered, lowering
from ...lowering import scalar as S
from ...lowering.helpers import elementwise, pad, reshape, transpose
from ...lowering.ops import acc_elem as _acc, conv2d_nhwc, pool_nhwc  # noqa: F401 (_acc: adaptive_pool)

aten = torch.ops.aten

NHWC = (0, 2, 3, 1)  # physical dimension i holds logical (NCHW) dimension NHWC[i]


def _pair(v, n=2):
    v = list(v) if isinstance(v, (list, tuple)) else [v]
    return v * n if len(v) == 1 else v


def _high_pad(size, low, out, k, s, d):
    """Padding after the input so that every window of the `out` outputs is
    in bounds (covers ceil_mode); 0 if the windows end before it."""
    needed = (out - 1) * s + d * (k - 1) + 1
    return max(needed - size - low, 0)


def nhwc_padded(b, x, low, high, value):
    """x (logical NCHW, a Value or Laid) as a padded NHWC Value; low/high
    are the [H, W] paddings."""
    if not (isinstance(x, Laid) and x.perm == NHWC):
        x = Laid(transpose(b, x, NHWC), NHWC)
    return pad(b, x.phys, [0] + list(low) + [0], [0] + list(high) + [0], value)


def _padding(x, out_hw, kernel, stride, padding, dilation):
    high = [_high_pad(x.shape[2 + k], padding[k], out_hw[k], kernel[k], stride[k], dilation[k])
            for k in range(2)]
    return list(padding), high


@lowering(aten.convolution.default, layouts=True)
def convolution(cx, a):
    b = cx.b
    x, w = a.input, a.weight
    if a.transposed:
        cx.unsupported("transposed convolution")
    if x.rank not in (3, 4):
        cx.unsupported(f"{x.rank - 2}-D convolution")
    if x.elem != w.elem or x.elem.startswith("i"):
        cx.unsupported(f"convolution of {x.elem} by {w.elem}")
    one_d = x.rank == 3
    stride, padding, dilation = (_pair(a.stride, x.rank - 2), _pair(a.padding, x.rank - 2),
                                 _pair(a.dilation, x.rank - 2))
    out_t = cx.out
    if one_d:
        x = reshape(b, x, [x.shape[0], x.shape[1], 1, x.shape[2]])
        w = reshape(b, w, [w.shape[0], w.shape[1], 1, w.shape[2]])
        stride, padding, dilation = [1] + stride, [0] + padding, [1] + dilation
        out_t = out_t.with_shape([out_t.shape[0], out_t.shape[1], 1, out_t.shape[2]])
    f, _, kh, kw = w.shape
    oh, ow = out_t.shape[2:]
    low, high = _padding(x, [oh, ow], [kh, kw], stride, padding, dilation)
    xp = nhwc_padded(b, x, low, high, 0.0)
    hwcf = transpose(b, w, [2, 3, 1, 0])                            # F C KH KW -> KH KW C F
    y = conv2d_nhwc(cx, xp, hwcf, a.groups, stride, dilation)
    y = Laid(y, NHWC)
    if a.bias is not None or y.elem != out_t.elem:
        e = y.elem
        ins = [y] if a.bias is None else [y, reshape(b, a.bias, [f, 1, 1])]
        y = elementwise(cx, ins, out_t, lambda r, v, *bias:
                        S.binary(r, "add", v, bias[0], e) if bias else v,
                        compute=e, layout=True)
    return reshape(b, y, cx.out.shape) if one_d else y


def _pool(cx, x, kind, kernel, stride, padding, dilation, out_hw, pad_value):
    """linalg.pooling_nhwc_{max,sum} of x (logical [N, C, H, W]) padded with
    pad_value (and beyond the input as far as the last window needs); the
    result is channels-last (Laid)."""
    low, high = _padding(x, out_hw, kernel, stride, padding, dilation)
    xp = nhwc_padded(cx.b, x, low, high, pad_value)
    y = pool_nhwc(cx.b, kind, xp, kernel, stride, dilation, out_hw,
                  pad_value if kind == "max" else 0.0)
    return Laid(y, NHWC)


def _as_4d(cx, x):
    """Pooling inputs of rank 3 ([C, H, W]) get a batch dimension of 1."""
    if x.rank == 4:
        return x
    if x.rank == 3:
        return reshape(cx.b, x, [1] + list(x.shape))
    cx.unsupported(f"2-D pooling of a rank-{x.rank} tensor")


def _divide(cx, s, divisor, out_shape):
    """s / divisor (a number or a broadcastable tensor), reshaped to
    out_shape (the result of a 3-D input loses its batch dimension)."""
    e = s.elem
    t = s.type
    if isinstance(divisor, (int, float)):
        y = elementwise(cx, [s], t, lambda r, v: S.binary(r, "div", v, r.const(divisor, e), e),
                        compute=e, layout=True)
    else:
        y = elementwise(cx, [s, divisor], t, lambda r, v, d: S.binary(r, "div", v, d, e),
                        compute=e, layout=True)
    return reshape(cx.b, y, out_shape)


@lowering(aten.max_pool2d_with_indices.default, aten.max_pool2d.default, layouts=True)
def max_pool2d(cx, a):
    x = _as_4d(cx, a.self)
    if x.elem.startswith("i"):
        cx.unsupported("max pooling of integers")
    kernel = _pair(a.kernel_size)
    stride = _pair(a.stride) if a.stride else kernel
    y = _pool(cx, x, "max", kernel, stride, _pair(a.padding), _pair(a.dilation),
              cx.outs[0].shape[-2:], float("-inf"))
    y = reshape(cx.b, y, cx.outs[0].shape)
    if len(cx.outs) == 1:
        return y
    return (y, NotLowered("the indices of max_pool2d_with_indices"))


@lowering(aten.avg_pool2d.default, layouts=True)
def avg_pool2d(cx, a):
    x = _as_4d(cx, a.self)
    kernel = _pair(a.kernel_size)
    stride = _pair(a.stride) if a.stride else kernel
    padding = _pair(a.padding)
    out_hw = cx.out.shape[-2:]
    s = _pool(cx, x, "sum", kernel, stride, padding, [1, 1], out_hw, 0.0)
    if a.divisor_override:
        return _divide(cx, s, float(a.divisor_override), cx.out.shape)
    if not any(padding) and not a.ceil_mode:
        return _divide(cx, s, float(kernel[0] * kernel[1]), cx.out.shape)
    # Windows differ in how many elements they count: pool a plane of ones
    # padded with ones (padding counted) or zeros (not counted).
    b = cx.b
    ones = b.fill(1.0, x.type.with_shape([1, 1] + list(x.shape[2:])))
    counted = pad(b, ones, [0, 0] + padding, [0, 0] + padding,
                  1.0 if a.count_include_pad else 0.0)
    counts = b.logical(_pool(cx, counted, "sum", kernel, stride, [0, 0], [1, 1], out_hw, 0.0))
    return _divide(cx, s, counts, cx.out.shape)
