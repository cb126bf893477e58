"""Views and data movement: reshapes, squeezes, permutations, broadcasts,
slices and their scatters, splits, rolls, concatenation, constant padding
and explicitly strided views.

Every tensor value is a fresh row-major tensor, so a view is just a
reshape (tensor.expand_shape/collapse_shape) or a copy (linalg.transpose,
tensor.extract_slice); clones and aliases are the value itself.
"""

import math

import torch

from ...lowering import scalar as S
from ...lowering.helpers import (broadcast_to, cast_tensor, concatenate, extract_slice,
                                 insert_slice, norm_dim, pad, reshape, transpose)
from ...lowering.ops import gather_at
from . import lowering

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
    return concatenate(cx, a.tensors, norm_dim(a.dim, cx.out.rank), cx.out)


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


@lowering(aten.slice_scatter.default)
def slice_scatter(cx, a):
    """self with self[..., start:end:step, ...] replaced by src: one
    tensor.insert_slice with the slice's stride."""
    v, src = cx.b.logical(a.self), cx.b.logical(a.src)
    d = norm_dim(a.dim, v.rank)
    step = a.step or 1
    if step < 1:
        cx.unsupported(f"slice step {step}")
    start, length = _slice_bounds(a.start, a.end, step, v.shape[d])
    if length != src.shape[d]:
        cx.unsupported(f"a source of {src.shape[d]} elements for a slice of {length}")
    src = cast_tensor(cx, src, v.elem)
    offsets, strides = [0] * v.rank, [1] * v.rank
    offsets[d], strides[d] = start, step
    return insert_slice(cx.b, src, v, offsets, strides)


@lowering(aten.roll.default)
def roll(cx, a):
    """Each rolled dimension as the concatenation of its last `shift`
    elements and the others; no dimension: the flattened tensor rolled."""
    v = cx.b.logical(a.self)
    shifts, dims = list(a.shifts), list(a.dims or [])
    if not dims:
        if len(shifts) != 1:
            cx.unsupported("several shifts without dimensions")
        flat = reshape(cx.b, v, [v.type.numel])
        return reshape(cx.b, _roll_dim(cx, flat, shifts[0], 0), v.shape)
    if len(shifts) != len(dims):
        cx.unsupported(f"{len(shifts)} shifts for {len(dims)} dimensions")
    for s, d in zip(shifts, dims):
        v = _roll_dim(cx, v, s, norm_dim(d, v.rank))
    return v


def _roll_dim(cx, v, shift, d):
    n = v.shape[d]
    shift = shift % n if n else 0
    if shift == 0:
        return v
    dest = cx.b.empty(v.type)
    parts = [(n - shift, shift, 0), (0, n - shift, shift)]  # (from, length, to)
    for start, length, to in parts:
        offsets, sizes = [0] * v.rank, list(v.shape)
        offsets[d], sizes[d] = start, length
        piece = extract_slice(cx.b, v, offsets, sizes, [1] * v.rank)
        at = [0] * v.rank
        at[d] = to
        dest = insert_slice(cx.b, piece, dest, at)
    return dest


def _contiguous_strides(shape):
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= s
    return strides[::-1]


@lowering(aten.as_strided.default, aten.as_strided_copy.default)
def as_strided(cx, a):
    """A view of the input's storage with explicit sizes and strides. The
    input must be dense (its elements fill its storage in some order of
    its dimensions, as a fresh tensor or a permutation of one); the storage
    is then that permutation, flattened. A view that reads it in order is
    a reshape; any other (a strided slice, overlapping windows) gathers
    each element at offset + sum(i_k * stride_k). A view reaching outside
    the input's own elements is refused."""
    b = cx.b
    x = b.logical(a.self)
    val = cx.node.args[0].meta.get("val")
    if not isinstance(val, torch.Tensor):
        cx.unsupported("as_strided of an input without recorded strides")
    size, stride = [int(s) for s in a.size], [int(s) for s in a.stride]
    n = x.type.numel
    real = [d for d in range(x.rank) if x.shape[d] != 1]
    order = sorted(real, key=lambda d: -val.stride()[d])
    dense = _contiguous_strides([x.shape[d] for d in order])
    if [val.stride()[d] for d in order] != dense:
        cx.unsupported("as_strided of a tensor that is not dense (a view of a larger one)")
    offset = (a.storage_offset if a.storage_offset is not None else val.storage_offset())
    offset -= val.storage_offset()
    live = [k for k in range(len(size)) if size[k] != 1]
    last = offset + sum((size[k] - 1) * stride[k] for k in live)
    if any(stride[k] < 0 for k in live) or offset < 0 or (size and min(size) > 0 and last >= n):
        cx.unsupported(f"as_strided reading outside its input's {n} elements")
    perm = order + [d for d in range(x.rank) if d not in order]
    flat = reshape(b, transpose(b, x, perm), [n])
    if offset == 0 and math.prod(size) == n and \
            [stride[k] for k in live] == _contiguous_strides([size[k] for k in live]):
        return reshape(b, flat, size)
    return _gather_flat(cx, flat, offset, size, stride)


def _gather_flat(cx, flat, offset, size, stride):
    """result[i...] = flat[offset + sum(i_k * stride_k)]."""
    def positions(r, _):
        pos = r.const(offset, "index")
        for k, s in enumerate(stride):
            if size[k] != 1 and s != 0:
                term = S.binary(r, "mul", r.index(k), r.const(s, "index"), "index")
                pos = S.binary(r, "add", pos, term, "index")
        return [pos]
    return gather_at(cx, flat, positions, [])
