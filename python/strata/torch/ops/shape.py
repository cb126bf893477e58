"""Views and data movement: reshapes, squeezes, permutations, broadcasts,
slices, splits, concatenation and constant padding.

Every tensor value is a fresh row-major tensor, so a view is just a
reshape (tensor.expand_shape/collapse_shape) or a copy (linalg.transpose,
tensor.extract_slice); clones and aliases are the value itself.
"""

import torch

from . import lowering
from .helpers import (broadcast_to, cast_tensor, extract_slice, insert_slice,
                      norm_dim, pad, reshape, transpose)

aten = torch.ops.aten


@lowering(aten.view.default, aten._unsafe_view.default, aten.reshape.default,
          aten.squeeze.default, aten.squeeze.dim, aten.squeeze.dims,
          aten.unsqueeze.default, aten.flatten.using_ints, aten.view_copy.default,
          aten.unflatten.int)
def view(cx, a):
    return reshape(cx.b, a.self, cx.out.shape)


@lowering(aten.clone.default, aten.alias.default, aten.detach.default,
          aten.lift_fresh_copy.default, layouts=True)
def identity(cx, a):
    return a.self


@lowering(aten.permute.default, aten.permute_copy.default, layouts=True)
def permute(cx, a):
    return transpose(cx.b, a.self, [norm_dim(d, a.self.rank) for d in a.dims])


@lowering(aten.transpose.int, layouts=True)
def transpose_int(cx, a):
    v = a.self
    perm = list(range(v.rank))
    d0, d1 = norm_dim(a.dim0, v.rank), norm_dim(a.dim1, v.rank)
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return transpose(cx.b, v, perm)


@lowering(aten.t.default, layouts=True)
def t(cx, a):
    return transpose(cx.b, a.self, list(range(a.self.rank))[::-1])


@lowering(aten.expand.default, aten.expand_copy.default, aten.expand_as.default)
def expand(cx, a):
    return broadcast_to(cx, a.self, cx.out.shape)


@lowering(aten.repeat.default)
def repeat(cx, a):
    """x.repeat(r): x broadcast along a new outer dimension per repeated
    dimension, then merged into it."""
    v, reps = a.self, list(a.repeats)
    v = reshape(cx.b, v, [1] * (len(reps) - v.rank) + list(v.shape))
    inter = []
    for rp, s in zip(reps, v.shape):
        inter += [1, s]
    v = reshape(cx.b, v, inter)
    full = []
    for rp, s in zip(reps, v.shape[1::2]):
        full += [rp, s]
    v = broadcast_to(cx, v, full)
    return reshape(cx.b, v, cx.out.shape)


def _slice_bounds(start, end, step, size):
    start = 0 if start is None else start
    end = size if end is None else end
    start = start + size if start < 0 else start
    end = end + size if end < 0 else end
    start, end = min(max(start, 0), size), min(max(end, start), size)
    return start, max(0, -(-(end - start) // step))


@lowering(aten.slice.Tensor, aten.slice_copy.Tensor)
def slice_(cx, a):
    v = a.self
    d = norm_dim(a.dim, v.rank)
    step = a.step or 1
    if step < 1:
        cx.unsupported(f"slice step {step}")
    start, length = _slice_bounds(a.start, a.end, step, v.shape[d])
    if length == v.shape[d]:
        return v
    offsets, sizes, strides = [0] * v.rank, list(v.shape), [1] * v.rank
    offsets[d], sizes[d], strides[d] = start, length, step
    return extract_slice(cx.b, v, offsets, sizes, strides)


@lowering(aten.select.int, aten.select_copy.int)
def select(cx, a):
    v = a.self
    d = norm_dim(a.dim, v.rank)
    index = a.index + v.shape[d] if a.index < 0 else a.index
    offsets, sizes = [0] * v.rank, list(v.shape)
    offsets[d], sizes[d] = index, 1
    return extract_slice(cx.b, v, offsets, sizes, [1] * v.rank, cx.out.shape)


def _split(cx, v, sizes, dim):
    d = norm_dim(dim, v.rank)
    outs, start = [], 0
    for s in sizes:
        offsets, shape = [0] * v.rank, list(v.shape)
        offsets[d], shape[d] = start, s
        outs.append(v if s == v.shape[d] else
                    extract_slice(cx.b, v, offsets, shape, [1] * v.rank))
        start += s
    return tuple(outs)


@lowering(aten.split_with_sizes.default, aten.split_with_sizes_copy.default)
def split_with_sizes(cx, a):
    return _split(cx, a.self, list(a.split_sizes), a.dim)


@lowering(aten.split.Tensor, aten.split_copy.Tensor)
def split(cx, a):
    v, d = a.self, norm_dim(a.dim, a.self.rank)
    n = v.shape[d]
    sizes = [min(a.split_size, n - s) for s in range(0, n, a.split_size)]
    return _split(cx, v, sizes, d)


@lowering(aten.unbind.int)
def unbind(cx, a):
    v = a.self
    d = norm_dim(a.dim, v.rank)
    outs = []
    for i in range(v.shape[d]):
        offsets, sizes = [0] * v.rank, list(v.shape)
        offsets[d], sizes[d] = i, 1
        shape = sizes[:d] + sizes[d + 1:]
        outs.append(extract_slice(cx.b, v, offsets, sizes, [1] * v.rank, shape))
    return tuple(outs)


@lowering(aten.cat.default, aten.concat.default)
def cat(cx, a):
    """Each operand inserted into one destination tensor at its offset."""
    parts = [t for t in a.tensors if t.type.numel > 0]
    out = cx.out
    d = norm_dim(a.dim, out.rank)
    if len(parts) == 1:
        return cast_tensor(cx, parts[0], out.elem)
    dest = cx.b.empty(out)
    offset = 0
    for p in parts:
        p = cast_tensor(cx, p, out.elem)
        offsets = [0] * out.rank
        offsets[d] = offset
        dest = insert_slice(cx.b, p, dest, offsets)
        offset += p.shape[d]
    return dest


@lowering(aten.constant_pad_nd.default)
def constant_pad_nd(cx, a):
    v = a.self
    widths = list(a.pad)
    low, high = [0] * v.rank, [0] * v.rank
    for k in range(len(widths) // 2):
        d = v.rank - 1 - k
        low[d], high[d] = widths[2 * k], widths[2 * k + 1]
    if any(w < 0 for w in low + high):
        cx.unsupported("negative padding")
    return pad(cx.b, v, low, high, a.value)
