"""Gathers: embedding, index (advanced indexing with tensors), index_select
and gather, as a linalg.generic over the result that reads the indices as
inputs and the table with tensor.extract at the computed position; and
index_put with a boolean mask, as a select.

Negative indices count from the end, as in PyTorch; indices out of range
are undefined behaviour (PyTorch raises), as in any compiled gather.
"""

import torch

from ...mlir_builder import affine_map, identity_map
from . import lowering
from ...lowering import scalar as S
from ...lowering.helpers import broadcast_shape, drop_dims, elementwise, norm_dim, reshape
from ...lowering.ops import gather_at, wrap_index

aten = torch.ops.aten


@lowering(aten.embedding.default)
def embedding(cx, a):
    w, idx = a.weight, a.indices
    k = idx.rank

    def positions(r, loaded):
        return [wrap_index(r, loaded[0], w.shape[0], idx.elem), r.index(k)]
    return gather_at(cx, w, positions, [(idx, affine_map(k + 1, range(k)))])


def _index_input(b, t, bshape, offset, out_rank):
    """An index tensor broadcast to bshape, whose dimensions are the result's
    dimensions offset..offset+len(bshape)-1."""
    lead = len(bshape) - t.rank
    stretched = [k for k in range(t.rank) if t.shape[k] == 1 and bshape[lead + k] != 1]
    v = drop_dims(b, t, stretched)
    dims = [offset + lead + k for k in range(t.rank) if k not in stretched]
    return v, affine_map(out_rank, dims)


@lowering(aten.index.Tensor)
def index(cx, a):
    """x[i0, i1, ...] with index tensors (None for a whole dimension)."""
    x = a.self
    idx = list(a.indices) + [None] * (x.rank - len(a.indices))
    where = [d for d, t in enumerate(idx) if t is not None]
    for d in where:
        if idx[d].elem == "i1":
            cx.unsupported("boolean mask indexing (data-dependent shape)")
    bshape = broadcast_shape(*[idx[d].shape for d in where])
    consecutive = where == list(range(where[0], where[-1] + 1))
    offset = where[0] if consecutive else 0
    out_rank = cx.out.rank
    ins = [_index_input(cx.b, idx[d], bshape, offset, out_rank) for d in where]
    rest = [d for d in range(x.rank) if d not in where]
    # Result dimension of each non-indexed table dimension.
    if consecutive:
        loop_dim = {d: (d if d < offset else d - len(where) + len(bshape)) for d in rest}
    else:
        loop_dim = {d: len(bshape) + k for k, d in enumerate(rest)}

    def positions(r, loaded):
        pos = []
        for d in range(x.rank):
            if d in where:
                k = where.index(d)
                pos.append(wrap_index(r, loaded[k], x.shape[d], idx[d].elem))
            else:
                pos.append(r.index(loop_dim[d]))
        return pos
    return gather_at(cx, x, positions, ins)


@lowering(aten.index_select.default)
def index_select(cx, a):
    x, i = a.self, a.index
    d = norm_dim(a.dim, x.rank)
    n = cx.out.rank

    def positions(r, loaded):
        return [(wrap_index(r, loaded[0], x.shape[k], i.elem) if k == d else r.index(k))
                for k in range(x.rank)]
    iv = i if i.rank == 1 else drop_dims(cx.b, i, range(i.rank))
    return gather_at(cx, x, positions, [(iv, affine_map(n, [d] if iv.rank else []))])


@lowering(aten.gather.default)
def gather(cx, a):
    x, i = a.self, a.index
    d = norm_dim(a.dim, x.rank)

    def positions(r, loaded):
        return [(wrap_index(r, loaded[0], x.shape[k], i.elem) if k == d else r.index(k))
                for k in range(x.rank)]
    return gather_at(cx, x, positions, [(i, identity_map(i.rank))])


@lowering(aten.index_put.default)
def index_put(cx, a):
    """x[mask] = v (or += v with accumulate) for a boolean mask over x's
    leading dimensions and one value: a select. Integer indices (a
    scatter) and a value per selected element (its count depends on the
    data) are refused."""
    x = a.self
    idx = list(a.indices)
    if len(idx) != 1 or idx[0] is None or idx[0].elem != "i1":
        cx.unsupported("index_put with integer indices (a scatter)")
    mask, v = idx[0], a.values
    if tuple(x.shape[:mask.rank]) != tuple(mask.shape):
        cx.unsupported(f"a mask of shape {list(mask.shape)} for a tensor of {list(x.shape)}")
    if v.type.numel != 1:
        cx.unsupported("index_put of a value per selected element (data-dependent count)")
    mask = reshape(cx.b, mask, list(mask.shape) + [1] * (x.rank - mask.rank))
    v = reshape(cx.b, v, [])
    e = "f32" if x.elem in ("bf16", "f16") else x.elem

    def fn(r, m, old, new):
        if a.accumulate:
            new = S.binary(r, "add", old, new, e)
        return S.select(r, m, new, old, e)
    return elementwise(cx, [mask, x, v], cx.out, fn, raw=(0,))
